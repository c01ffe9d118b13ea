//! Two Keccak-f[1600] permutations at once, one per 64-bit lane of 25 NEON registers: in base
//! NEON, and with the Armv8.2-A SHA-3 instructions (`EOR3`, `RAX1`, `XAR`, `BCAX`) where the
//! CPU has them; and one permutation on the SHA-3 instructions.
//!
//! Layout: register j holds lane j (= x + 5y, FIPS 202 section 3.1.2) of both states, state i
//! in its 64-bit element i (in memory, `[u64; 2]` per lane). The step mappings of FIPS 202
//! section 3.2 act lane-wise, so each one is the scalar formula on whole registers; the two
//! states never mix.
//!
//! Base NEON: the round is written with intrinsics over five lane operations (`ops_neon`), plane
//! by plane (below). The SHA-3 builds are one `asm!` block each (`sha3_round!`): the SHA-3
//! instructions fuse what base NEON does in two or three (a three-way XOR, theta's XOR with a
//! rotation by one, theta's XOR with rho's rotation, chi's and-not with its XOR), which leaves
//! 67 instructions a round, and only explicit registers keep it at that. Given the same round
//! in intrinsics, LLVM spills and copies registers and rebuilds the round constants: counted
//! under qemu, per two-state permutation, about 1,980 with the round plane by plane (as the
//! base NEON one) at four rounds a loop iteration, 1,940 unrolled; 1,770 with all 25 B lanes
//! computed before chi (fewer values live at once), unrolled or not; 1,690 in assembly.
//!
//! Constant time: fixed-length arithmetic on lanes; the choice of build depends only on the
//! CPU, never on data.

use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::aarch64::*;
use core::arch::asm;

/// The lane operations in base NEON (Armv8-A Advanced SIMD).
mod ops_neon {
    use core::arch::aarch64::*;

    /// Theta's column parity C[x] = A[x, 0] ^ A[x, 1] ^ ... ^ A[x, 4]: four XORs.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor5(
        a: uint64x2_t,
        b: uint64x2_t,
        c: uint64x2_t,
        d: uint64x2_t,
        e: uint64x2_t,
    ) -> uint64x2_t {
        veorq_u64(veorq_u64(veorq_u64(a, b), veorq_u64(c, d)), e)
    }

    /// Theta's D[x] = C[x - 1] ^ rot(C[x + 1], 1): NEON has no 64-bit rotate, so a shift and
    /// a shift-right-and-insert, then the XOR.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn theta_d(c_minus: uint64x2_t, c_plus: uint64x2_t) -> uint64x2_t {
        veorq_u64(c_minus, vsriq_n_u64::<63>(vshlq_n_u64::<1>(c_plus), c_plus))
    }

    /// rot(a ^ d, `L`) (theta's last step, then rho); `R` must be 64 - `L`, with `L` in
    /// 1..=63 (stable Rust cannot compute one from the other as a const parameter).
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor_rol<const L: i32, const R: i32>(a: uint64x2_t, d: uint64x2_t) -> uint64x2_t {
        const { assert!(L > 0 && L < 64 && L + R == 64) };
        let x = veorq_u64(a, d);
        vsriq_n_u64::<R>(vshlq_n_u64::<L>(x), x)
    }

    /// Chi's a ^ (!b & c): BIC then EOR.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
        veorq_u64(a, vbicq_u64(c, b))
    }

    /// a ^ b.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        veorq_u64(a, b)
    }
}

/// Theta's last step, rho and pi for the lane that lands at index `$i` (not 0, whose lane is
/// not rotated): the source lane, XORed with D of its column, rotated by its own offset.
macro_rules! theta_rho_pi {
    ($a:ident, $d:ident, $i:expr) => {
        ops_neon::xor_rol::<
            { RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
            { 64 - RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
        >($a[const { PI_SOURCE[$i] }], $d[const { PI_SOURCE[$i] % 5 }])
    };
}

/// Chi on the five B lanes `$b` of one plane, written to `$e[$i]`..`$e[$i + 4]`.
macro_rules! chi_plane {
    ($b:ident, $e:ident, $i:expr) => {{
        // chi: B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]).
        $e[$i] = ops_neon::chi($b[0], $b[1], $b[2]);
        $e[$i + 1] = ops_neon::chi($b[1], $b[2], $b[3]);
        $e[$i + 2] = ops_neon::chi($b[2], $b[3], $b[4]);
        $e[$i + 3] = ops_neon::chi($b[3], $b[4], $b[0]);
        $e[$i + 4] = ops_neon::chi($b[4], $b[0], $b[1]);
    }};
}

/// Theta (applying D), rho, pi, then chi, for the plane of output lanes `$i`..`$i + 4` (one y,
/// not the first), written to `$e`: chi needs only the five B lanes of its plane, so computing
/// plane by plane keeps few registers live (25 lanes, 5 D values and the new plane are more
/// than NEON's 32 registers otherwise).
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $i:literal) => {{
        let b = [
            theta_rho_pi!($a, $d, { $i }),
            theta_rho_pi!($a, $d, { $i + 1 }),
            theta_rho_pi!($a, $d, { $i + 2 }),
            theta_rho_pi!($a, $d, { $i + 3 }),
            theta_rho_pi!($a, $d, { $i + 4 }),
        ];
        chi_plane!(b, $e, $i);
    }};
}

/// One round (FIPS 202 section 3.3, Rnd) on the two states `$a`, with round constant `$rc`, in
/// base NEON.
macro_rules! round {
    ($a:ident, $rc:expr) => {{
        let a = $a;
        // theta: C[x] = xor of column x, D[x] = C[x - 1] ^ rot(C[x + 1], 1).
        let c = [
            ops_neon::xor5(a[0], a[5], a[10], a[15], a[20]),
            ops_neon::xor5(a[1], a[6], a[11], a[16], a[21]),
            ops_neon::xor5(a[2], a[7], a[12], a[17], a[22]),
            ops_neon::xor5(a[3], a[8], a[13], a[18], a[23]),
            ops_neon::xor5(a[4], a[9], a[14], a[19], a[24]),
        ];
        let d = [
            ops_neon::theta_d(c[4], c[1]),
            ops_neon::theta_d(c[0], c[2]),
            ops_neon::theta_d(c[1], c[3]),
            ops_neon::theta_d(c[2], c[4]),
            ops_neon::theta_d(c[3], c[0]),
        ];
        let mut e = a;
        // The first plane: lane (0, 0) is XORed with D but not rotated (its offset is 0).
        let b = [
            ops_neon::xor(a[0], d[0]),
            theta_rho_pi!(a, d, 1),
            theta_rho_pi!(a, d, 2),
            theta_rho_pi!(a, d, 3),
            theta_rho_pi!(a, d, 4),
        ];
        chi_plane!(b, e, 0);
        plane!(a, d, e, 5);
        plane!(a, d, e, 10);
        plane!(a, d, e, 15);
        plane!(a, d, e, 20);
        // iota
        e[0] = ops_neon::xor(e[0], vdupq_n_u64($rc));
        e
    }};
}

/// Two states, lane j of state i at `[j][i]`.
pub(crate) type Lanes2 = [[u64; 2]; 25];

/// The 25 registers of two states.
#[target_feature(enable = "neon")]
#[inline]
fn load(state: &Lanes2) -> [uint64x2_t; 25] {
    // SAFETY: each `[u64; 2]` is 16 readable bytes, what `vld1q_u64` reads (it needs only
    // 8-byte alignment, which `u64` has).
    core::array::from_fn(|j| unsafe { vld1q_u64(state[j].as_ptr()) })
}

/// Stores the 25 registers of two states.
#[target_feature(enable = "neon")]
#[inline]
fn store(a: [uint64x2_t; 25], state: &mut Lanes2) {
    for (lane, v) in state.iter_mut().zip(a) {
        // SAFETY: each `[u64; 2]` is 16 writable bytes, what `vst1q_u64` writes.
        unsafe { vst1q_u64(lane.as_mut_ptr(), v) };
    }
}

/// Keccak-f[1600] (FIPS 202 section 3.3) on two states at once, in base NEON.
///
/// Two rounds per loop iteration, as the portable and AVX2 builds (fewer register copies
/// between iterations than one, far less code than all 24).
#[target_feature(enable = "neon")]
#[inline(never)]
pub(crate) fn f1600x2_neon(state: &mut Lanes2) {
    let mut a = load(state);
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        a = round!(a, rc[0]);
        a = round!(a, rc[1]);
    }
    store(a, state);
}

/// One round (FIPS 202 section 3.3, Rnd) on the state in `v0`..`v24` (lane j in `vj`), with
/// the SHA-3 instructions, as assembly text: the round constant is read from `[{rc}]`, which
/// advances by 8 bytes. Each element of the registers is one state; the round ends with the
/// state back in `v0`..`v24`, so rounds chain (`.rept`). 67 instructions: 10 `EOR3` and 5
/// `RAX1` for theta's C and D, 1 `EOR` and 24 `XAR` for theta+rho+pi, 25 `BCAX` for chi, 1
/// `LD1R` and 1 `EOR` for iota.
///
/// Registers: `v25`..`v31` are scratch. C lands in `v25`..`v29`, D in `v30`, `v31`, `v26`..`v28`
/// (each D overwrites a C once both its uses are done). Each `XAR` then reads lane A[x, y] and
/// writes the B lane it moves to (B[y, 2x + 3y] = rot(A[x, y] ^ D[x], r[x, y])) into a register
/// already free: mostly the register of B's own index, whose A lane an earlier `XAR` consumed,
/// so most of chi can then run in place. Chi writes each plane to its own registers in an order
/// that overwrites only B lanes it no longer reads: per plane, the two B lanes it reads after
/// writing their registers sit elsewhere (a scratch register, or a register a later plane
/// writes first). The order and the register choices were found by a small search over plane
/// orders and starting lanes, simulated against FIPS 202; the tests compare every build with the
/// portable permutation.
macro_rules! sha3_round {
    () => {
        concat!(
            "eor3 v25.16b, v0.16b, v5.16b, v10.16b\n", // C[0] = A[0] ^ A[5] ^ A[10]
            "eor3 v26.16b, v1.16b, v6.16b, v11.16b\n", // C[1] = A[1] ^ A[6] ^ A[11]
            "eor3 v27.16b, v2.16b, v7.16b, v12.16b\n", // C[2] = A[2] ^ A[7] ^ A[12]
            "eor3 v28.16b, v3.16b, v8.16b, v13.16b\n", // C[3] = A[3] ^ A[8] ^ A[13]
            "eor3 v29.16b, v4.16b, v9.16b, v14.16b\n", // C[4] = A[4] ^ A[9] ^ A[14]
            "eor3 v25.16b, v25.16b, v15.16b, v20.16b\n", // C[0] ^= A[15] ^ A[20]
            "eor3 v26.16b, v26.16b, v16.16b, v21.16b\n", // C[1] ^= A[16] ^ A[21]
            "eor3 v27.16b, v27.16b, v17.16b, v22.16b\n", // C[2] ^= A[17] ^ A[22]
            "eor3 v28.16b, v28.16b, v18.16b, v23.16b\n", // C[3] ^= A[18] ^ A[23]
            "eor3 v29.16b, v29.16b, v19.16b, v24.16b\n", // C[4] ^= A[19] ^ A[24]
            "rax1 v30.2d, v29.2d, v26.2d\n",           // D[0] = C[4] ^ rol(C[1], 1)
            "rax1 v31.2d, v25.2d, v27.2d\n",           // D[1] = C[0] ^ rol(C[2], 1)
            "rax1 v26.2d, v26.2d, v28.2d\n",           // D[2] = C[1] ^ rol(C[3], 1)
            "rax1 v27.2d, v27.2d, v29.2d\n",           // D[3] = C[2] ^ rol(C[4], 1)
            "rax1 v28.2d, v28.2d, v25.2d\n",           // D[4] = C[3] ^ rol(C[0], 1)
            "eor v0.16b, v0.16b, v30.16b\n",           // B[0] = A[0] ^ D[0]
            "xar v6.2d, v6.2d, v31.2d, #20\n",         // B[1] = rol(A[6] ^ D[1], 44)
            "xar v25.2d, v12.2d, v26.2d, #21\n",       // B[2] = rol(A[12] ^ D[2], 43)
            "xar v29.2d, v9.2d, v28.2d, #44\n",        // B[6] = rol(A[9] ^ D[4], 20)
            "xar v10.2d, v10.2d, v30.2d, #61\n",       // B[7] = rol(A[10] ^ D[0], 3)
            "xar v9.2d, v22.2d, v26.2d, #3\n",         // B[9] = rol(A[22] ^ D[2], 61)
            "xar v12.2d, v13.2d, v27.2d, #39\n",       // B[12] = rol(A[13] ^ D[3], 25)
            "xar v13.2d, v19.2d, v28.2d, #56\n",       // B[13] = rol(A[19] ^ D[4], 8)
            "xar v19.2d, v23.2d, v27.2d, #8\n",        // B[19] = rol(A[23] ^ D[3], 56)
            "xar v22.2d, v14.2d, v28.2d, #25\n",       // B[22] = rol(A[14] ^ D[4], 39)
            "xar v23.2d, v15.2d, v30.2d, #23\n",       // B[23] = rol(A[15] ^ D[0], 41)
            "xar v15.2d, v1.2d, v31.2d, #63\n",        // B[10] = rol(A[1] ^ D[1], 1)
            "xar v14.2d, v20.2d, v30.2d, #46\n",       // B[14] = rol(A[20] ^ D[0], 18)
            "xar v20.2d, v4.2d, v28.2d, #37\n",        // B[15] = rol(A[4] ^ D[4], 27)
            "xar v4.2d, v24.2d, v28.2d, #50\n",        // B[4] = rol(A[24] ^ D[4], 14)
            "xar v28.2d, v7.2d, v26.2d, #58\n",        // B[11] = rol(A[7] ^ D[2], 6)
            "xar v24.2d, v21.2d, v31.2d, #62\n",       // B[24] = rol(A[21] ^ D[1], 2)
            "xar v21.2d, v5.2d, v30.2d, #28\n",        // B[16] = rol(A[5] ^ D[0], 36)
            "xar v30.2d, v2.2d, v26.2d, #2\n",         // B[20] = rol(A[2] ^ D[2], 62)
            "xar v5.2d, v3.2d, v27.2d, #36\n",         // B[5] = rol(A[3] ^ D[3], 28)
            "xar v3.2d, v18.2d, v27.2d, #43\n",        // B[3] = rol(A[18] ^ D[3], 21)
            "xar v18.2d, v17.2d, v26.2d, #49\n",       // B[18] = rol(A[17] ^ D[2], 15)
            "xar v26.2d, v8.2d, v27.2d, #9\n",         // B[21] = rol(A[8] ^ D[3], 55)
            "xar v8.2d, v16.2d, v31.2d, #19\n",        // B[8] = rol(A[16] ^ D[1], 45)
            "xar v17.2d, v11.2d, v31.2d, #54\n",       // B[17] = rol(A[11] ^ D[1], 10)
            "ld1r {{v31.2d}}, [{rc}], #8\n",           // RC, the round constant
            "bcax v1.16b, v6.16b, v3.16b, v25.16b\n",  // A[1] = B[1] ^ (B[3] & !B[2])
            "bcax v2.16b, v25.16b, v4.16b, v3.16b\n",  // A[2] = B[2] ^ (B[4] & !B[3])
            "bcax v3.16b, v3.16b, v0.16b, v4.16b\n",   // A[3] = B[3] ^ (B[0] & !B[4])
            "bcax v4.16b, v4.16b, v6.16b, v0.16b\n",   // A[4] = B[4] ^ (B[1] & !B[0])
            "bcax v0.16b, v0.16b, v25.16b, v6.16b\n",  // A[0] = B[0] ^ (B[2] & !B[1])
            "eor v0.16b, v0.16b, v31.16b\n",           // iota: A[0] ^= RC
            "bcax v6.16b, v29.16b, v8.16b, v10.16b\n", // A[6] = B[6] ^ (B[8] & !B[7])
            "bcax v7.16b, v10.16b, v9.16b, v8.16b\n",  // A[7] = B[7] ^ (B[9] & !B[8])
            "bcax v8.16b, v8.16b, v5.16b, v9.16b\n",   // A[8] = B[8] ^ (B[5] & !B[9])
            "bcax v9.16b, v9.16b, v29.16b, v5.16b\n",  // A[9] = B[9] ^ (B[6] & !B[5])
            "bcax v5.16b, v5.16b, v10.16b, v29.16b\n", // A[5] = B[5] ^ (B[7] & !B[6])
            "bcax v10.16b, v15.16b, v12.16b, v28.16b\n", // A[10] = B[10] ^ (B[12] & !B[11])
            "bcax v11.16b, v28.16b, v13.16b, v12.16b\n", // A[11] = B[11] ^ (B[13] & !B[12])
            "bcax v12.16b, v12.16b, v14.16b, v13.16b\n", // A[12] = B[12] ^ (B[14] & !B[13])
            "bcax v13.16b, v13.16b, v15.16b, v14.16b\n", // A[13] = B[13] ^ (B[10] & !B[14])
            "bcax v14.16b, v14.16b, v28.16b, v15.16b\n", // A[14] = B[14] ^ (B[11] & !B[10])
            "bcax v15.16b, v20.16b, v17.16b, v21.16b\n", // A[15] = B[15] ^ (B[17] & !B[16])
            "bcax v16.16b, v21.16b, v18.16b, v17.16b\n", // A[16] = B[16] ^ (B[18] & !B[17])
            "bcax v17.16b, v17.16b, v19.16b, v18.16b\n", // A[17] = B[17] ^ (B[19] & !B[18])
            "bcax v18.16b, v18.16b, v20.16b, v19.16b\n", // A[18] = B[18] ^ (B[15] & !B[19])
            "bcax v19.16b, v19.16b, v21.16b, v20.16b\n", // A[19] = B[19] ^ (B[16] & !B[15])
            "bcax v20.16b, v30.16b, v22.16b, v26.16b\n", // A[20] = B[20] ^ (B[22] & !B[21])
            "bcax v21.16b, v26.16b, v23.16b, v22.16b\n", // A[21] = B[21] ^ (B[23] & !B[22])
            "bcax v22.16b, v22.16b, v24.16b, v23.16b\n", // A[22] = B[22] ^ (B[24] & !B[23])
            "bcax v23.16b, v23.16b, v30.16b, v24.16b\n", // A[23] = B[23] ^ (B[20] & !B[24])
            "bcax v24.16b, v24.16b, v26.16b, v30.16b\n", // A[24] = B[24] ^ (B[21] & !B[20])
        )
    };
}

/// Keccak-f[1600] on two states at once with the SHA-3 instructions: `sha3_round!` four times
/// a loop iteration, six iterations.
///
/// Counted under qemu (`keccak_icount`, which adds some 40 instructions of its own loop per
/// call): about 1,690 instructions per permutation; all 24 rounds unrolled, 1,675 (14 fewer,
/// for five times the code). Of the 1,650 in the function, 1,608 are the rounds, 14 the loads
/// and stores of the state, 12 the loop, 8 saving and restoring `d8`..`d15`.
#[target_feature(enable = "sha3")]
#[inline(never)]
pub(crate) fn f1600x2_sha3(state: &mut Lanes2) {
    // SAFETY: the block reads and writes the 400 bytes of `state` (25 lanes of 16 bytes, 64 at a
    // time) and reads the 24 round constants, all in bounds; it clobbers only the registers it
    // declares (all of v0-v31; the compiler saves the callee-saved ones) and the flags, and
    // leaves the stack alone. The SHA-3 instructions are there: this function is built for
    // them, and its callers run it only where the CPU has them.
    unsafe {
        asm!(
            "ld1 {{v0.2d-v3.2d}}, [{p}], #64",
            "ld1 {{v4.2d-v7.2d}}, [{p}], #64",
            "ld1 {{v8.2d-v11.2d}}, [{p}], #64",
            "ld1 {{v12.2d-v15.2d}}, [{p}], #64",
            "ld1 {{v16.2d-v19.2d}}, [{p}], #64",
            "ld1 {{v20.2d-v23.2d}}, [{p}], #64",
            "ld1 {{v24.2d}}, [{p}]",
            "mov {n:w}, #6",
            "2:",
            ".rept 4",
            sha3_round!(),
            ".endr",
            "subs {n:w}, {n:w}, #1",
            "b.ne 2b",
            "sub {p}, {p}, #384",
            "st1 {{v0.2d-v3.2d}}, [{p}], #64",
            "st1 {{v4.2d-v7.2d}}, [{p}], #64",
            "st1 {{v8.2d-v11.2d}}, [{p}], #64",
            "st1 {{v12.2d-v15.2d}}, [{p}], #64",
            "st1 {{v16.2d-v19.2d}}, [{p}], #64",
            "st1 {{v20.2d-v23.2d}}, [{p}], #64",
            "st1 {{v24.2d}}, [{p}]",
            p = inout(reg) state.as_mut_ptr() => _,
            rc = inout(reg) ROUND_CONSTANTS.as_ptr() => _,
            n = out(reg) _,
            out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _, out("v5") _,
            out("v6") _, out("v7") _, out("v8") _, out("v9") _, out("v10") _, out("v11") _,
            out("v12") _, out("v13") _, out("v14") _, out("v15") _, out("v16") _,
            out("v17") _, out("v18") _, out("v19") _, out("v20") _, out("v21") _,
            out("v22") _, out("v23") _, out("v24") _, out("v25") _, out("v26") _,
            out("v27") _, out("v28") _, out("v29") _, out("v30") _, out("v31") _,
            options(nostack),
        );
    }
}

/// Keccak-f[1600] on one state with the SHA-3 instructions: the same rounds, the state in the
/// first element of each register (loaded as 64-bit registers, which zeroes the second; the
/// second element then carries garbage, never stored): as many instructions as the two-state
/// build, about 1,690 per permutation counted under qemu against 3,690 for the scalar build, so
/// the scalar sponges run it where the CPU has the extension.
#[target_feature(enable = "sha3")]
#[inline(never)]
pub(crate) fn f1600_sha3(state: &mut [u64; 25]) {
    // SAFETY: the block reads and writes the 200 bytes of `state` (25 lanes of 8 bytes, 32 at a
    // time) and reads the 24 round constants, all in bounds; it clobbers only the registers it
    // declares (all of v0-v31; the compiler saves the callee-saved ones) and the flags, and
    // leaves the stack alone. The SHA-3 instructions are there: this function is built for
    // them, and its callers run it only where the CPU has them.
    unsafe {
        asm!(
            "ld1 {{v0.1d-v3.1d}}, [{p}], #32",
            "ld1 {{v4.1d-v7.1d}}, [{p}], #32",
            "ld1 {{v8.1d-v11.1d}}, [{p}], #32",
            "ld1 {{v12.1d-v15.1d}}, [{p}], #32",
            "ld1 {{v16.1d-v19.1d}}, [{p}], #32",
            "ld1 {{v20.1d-v23.1d}}, [{p}], #32",
            "ld1 {{v24.1d}}, [{p}]",
            "mov {n:w}, #6",
            "2:",
            ".rept 4",
            sha3_round!(),
            ".endr",
            "subs {n:w}, {n:w}, #1",
            "b.ne 2b",
            "sub {p}, {p}, #192",
            "st1 {{v0.1d-v3.1d}}, [{p}], #32",
            "st1 {{v4.1d-v7.1d}}, [{p}], #32",
            "st1 {{v8.1d-v11.1d}}, [{p}], #32",
            "st1 {{v12.1d-v15.1d}}, [{p}], #32",
            "st1 {{v16.1d-v19.1d}}, [{p}], #32",
            "st1 {{v20.1d-v23.1d}}, [{p}], #32",
            "st1 {{v24.1d}}, [{p}]",
            p = inout(reg) state.as_mut_ptr() => _,
            rc = inout(reg) ROUND_CONSTANTS.as_ptr() => _,
            n = out(reg) _,
            out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _, out("v5") _,
            out("v6") _, out("v7") _, out("v8") _, out("v9") _, out("v10") _, out("v11") _,
            out("v12") _, out("v13") _, out("v14") _, out("v15") _, out("v16") _,
            out("v17") _, out("v18") _, out("v19") _, out("v20") _, out("v21") _,
            out("v22") _, out("v23") _, out("v24") _, out("v25") _, out("v26") _,
            out("v27") _, out("v28") _, out("v29") _, out("v30") _, out("v31") _,
            options(nostack),
        );
    }
}
