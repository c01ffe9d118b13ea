//! Boundary unit tests: a panic inside an exported function becomes MLDSA_ERR_INTERNAL with
//! the outputs zeroed, and every status has a message.

use super::FORCE_PANIC;
use super::misc::mldsa_strerror;
use super::mldsa::mldsa65;
use crate::status::Status;

#[test]
fn forced_panic_becomes_internal_error_with_zeroed_outputs() {
    let seed = [7u8; 32];
    let mut pk = [0xAAu8; 1952];
    let mut sk = [0xAAu8; 4032];
    FORCE_PANIC.with(|p| p.set(true));
    // SAFETY: pk, sk and seed have the ML-DSA-65 sizes.
    let rc = unsafe { mldsa65::keypair_from_seed(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
    assert_eq!(rc, Status::Internal.code());
    assert!(
        pk.iter().chain(sk.iter()).all(|&b| b == 0),
        "outputs not zeroed after a panic"
    );
    // The same call without the forced panic succeeds, so the panic was the only cause.
    // SAFETY: as above.
    let rc = unsafe { mldsa65::keypair_from_seed(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
    assert_eq!(rc, Status::Ok.code());
    assert!(pk.iter().any(|&b| b != 0));
}

#[test]
fn forced_panic_in_a_verify_is_an_error_not_an_unwind() {
    FORCE_PANIC.with(|p| p.set(true));
    // SAFETY: all NULL with zero lengths except pk, which the panic pre-empts.
    let rc = unsafe {
        mldsa65::verify(
            core::ptr::null(),
            0,
            core::ptr::null(),
            0,
            core::ptr::null(),
            0,
            [0u8; 1952].as_ptr(),
        )
    };
    assert_eq!(rc, Status::Internal.code());
}

#[test]
fn every_status_has_its_own_message() {
    let mut seen = std::collections::HashSet::new();
    for s in Status::ALL {
        // SAFETY: mldsa_strerror returns a static NUL-terminated string.
        let msg = unsafe { core::ffi::CStr::from_ptr(mldsa_strerror(s.code())) };
        assert!(
            seen.insert(msg.to_bytes().to_vec()),
            "duplicate message for {s:?}"
        );
        assert_eq!(msg, s.message());
    }
    // SAFETY: as above.
    let unknown = unsafe { core::ffi::CStr::from_ptr(mldsa_strerror(12345)) };
    assert_eq!(unknown, c"unknown status code");
}

#[test]
fn a_length_above_isize_max_is_a_length_error_not_a_slice() {
    // No object is longer than isize::MAX bytes, so such a length is answered before any slice
    // is made (from_raw_parts requires it) and before anything is read.
    let sig = [0u8; 3309];
    let msg = [0u8; 16];
    let pk = [0u8; 1952];
    for mlen in [isize::MAX as usize + 1, usize::MAX] {
        // SAFETY: sig and pk have the ML-DSA-65 sizes; msg is a real (short) buffer whose
        // claimed length is rejected before it is read.
        let rc = unsafe {
            mldsa65::verify(
                sig.as_ptr(),
                sig.len(),
                msg.as_ptr(),
                mlen,
                core::ptr::null(),
                0,
                pk.as_ptr(),
            )
        };
        assert_eq!(rc, Status::Length.code(), "mlen {mlen}");
    }
}
