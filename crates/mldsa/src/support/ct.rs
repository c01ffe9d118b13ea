//! Constant-flow testing hooks: valgrind client requests that mark memory as secret
//! ("undefined") or public ("defined"). Compiled only with `--cfg mldsa_ct`.
//!
//! Under memcheck, any branch, memory address or system-call argument computed from undefined
//! bytes is reported; so a run with the secrets marked undefined proves that no branch or index
//! depends on them, except where the code declassifies a value on purpose. Each such site calls
//! [`declassify`] and carries a `Constant time:` comment saying why FIPS 204 allows the value to
//! become public; `DECLASSIFICATION_SITES` counts them so that a new site cannot slip in
//! unreviewed. Outside valgrind the client request is a few no-op instructions.
#![allow(unsafe_code)] // the valgrind client request is inline assembly

const MAKE_MEM_UNDEFINED: usize = 0x4D43_0001; // VG_USERREQ_TOOL_BASE('M', 'C') + 1
const MAKE_MEM_DEFINED: usize = 0x4D43_0002;

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn client_request(request: usize, addr: usize, len: usize) {
    let args: [usize; 6] = [request, addr, len, 0, 0, 0];
    // SAFETY: valgrind's documented x86-64 client-request sequence: four rotations of rdi that
    // leave it unchanged, then `xchg rbx, rbx`, a no-op on real hardware. Valgrind reads the
    // request block at rax (six words we own, alive for the whole asm) and writes a result to
    // rdx, which we declare as an output.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") 0usize => _,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn client_request(_request: usize, _addr: usize, _len: usize) {}

/// Marks `value` as secret: memcheck reports any branch or address that depends on it.
pub fn classify<T: ?Sized>(value: &mut T) {
    client_request(
        MAKE_MEM_UNDEFINED,
        value as *mut T as *mut u8 as usize,
        core::mem::size_of_val(value),
    );
}

/// Marks `value` as public. Every call site in the library is a reviewed declassification.
pub fn declassify<T: ?Sized>(value: &mut T) {
    client_request(
        MAKE_MEM_DEFINED,
        value as *mut T as *mut u8 as usize,
        core::mem::size_of_val(value),
    );
}
