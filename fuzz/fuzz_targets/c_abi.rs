//! The C ABI of libmldsa (`crates/mldsa-ffi`, issue #16) on arbitrary pointers' contents and
//! lengths: every decoder (SPKI and PKCS#8, DER and PEM; strict secret-key import), every
//! verify (pure, HashML-DSA with any pre-hash id, internal, round 3 with SHAKE and with AES), the
//! drop-in `open` and the drop-in `verify_internal` (sign.h's, with a prefix), and one-shot
//! signing (ours and the reference API's) with arbitrary secret-key bytes.
//!
//! Properties: nothing panics or reads out of bounds (ASan); every return value is a
//! documented status; on failure every output is zeroed (and `open` sets *mlen to -1); an
//! accepted SPKI re-encodes to a document that reads back to the same key.
#![no_main]

use core::ptr::{null, null_mut};

use libfuzzer_sys::fuzz_target;
use mldsa_ffi::boundary::{dropin, legacy, misc, mldsa};

/// Every status mldsa.h documents.
fn documented(rc: i32) -> bool {
    (-11..=0).contains(&rc)
}

/// A little-endian u16 length prefix and the bytes after it.
fn take_len(data: &[u8]) -> (usize, &[u8]) {
    match data {
        [lo, hi, rest @ ..] => (usize::from(u16::from_le_bytes([*lo, *hi])), rest),
        _ => (0, &[]),
    }
}

/// `data` as three pieces: two length-prefixed ones (lengths up to 65535, cut to what is
/// there), then the rest.
fn pieces(data: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let (n, rest) = take_len(data);
    let (a, rest) = rest.split_at(n.min(rest.len()));
    let (n, rest) = take_len(rest);
    let (b, c) = rest.split_at(n.min(rest.len()));
    (a, b, c)
}

/// `len` bytes: `src` repeated (zeros if empty).
fn sized(src: &[u8], len: usize) -> Vec<u8> {
    if src.is_empty() {
        return vec![0; len];
    }
    src.iter().copied().cycle().take(len).collect()
}

macro_rules! ml_dsa {
    ($set:ident, $reference:ident, $pk:expr, $sk:expr, $sig:expr, $op:expr, $ph:expr, $d:expr) => {{
        use mldsa::$set as m;
        let (a, b, c) = pieces($d);
        let ctx = &c[..c.len().min(260)];
        let pk = sized(c, $pk);
        // SAFETY: every pointer below points to at least the length passed or documented for
        // the set; outputs are our own buffers of the documented size.
        unsafe {
            match $op % 8 {
                0 => assert!(documented(m::verify(
                    a.as_ptr(),
                    a.len(),
                    b.as_ptr(),
                    b.len(),
                    ctx.as_ptr(),
                    ctx.len(),
                    pk.as_ptr()
                ))),
                1 => {
                    let rc = m::verify_prehash(
                        a.as_ptr(),
                        a.len(),
                        $ph,
                        b.as_ptr(),
                        b.len(),
                        ctx.as_ptr(),
                        ctx.len(),
                        pk.as_ptr(),
                    );
                    assert!(documented(rc));
                    let rc = m::verify_digest(
                        a.as_ptr(),
                        a.len(),
                        $ph,
                        b.as_ptr(),
                        b.len(),
                        ctx.as_ptr(),
                        ctx.len(),
                        pk.as_ptr(),
                    );
                    assert!(documented(rc));
                }
                2 => {
                    assert!(documented(m::verify_internal(
                        a.as_ptr(),
                        a.len(),
                        b.as_ptr(),
                        b.len(),
                        pk.as_ptr()
                    )));
                    // sign.h's verify_internal: M' = pre || m, with the rest as pre.
                    let rc = dropin::$reference::verify_internal(
                        a.as_ptr(),
                        a.len(),
                        b.as_ptr(),
                        b.len(),
                        c.as_ptr(),
                        c.len(),
                        pk.as_ptr(),
                    );
                    assert!(rc == 0 || rc == -1);
                }
                3 => {
                    let mut out = vec![0xAAu8; $pk];
                    let format = $ph & 1;
                    let rc = m::pk_from_spki(out.as_mut_ptr(), $d.as_ptr(), $d.len(), format);
                    assert!(documented(rc));
                    if rc != 0 {
                        assert!(out.iter().all(|&x| x == 0), "pk not zeroed after {rc}");
                    } else {
                        let (mut doc, mut len) = (null_mut(), 0usize);
                        assert_eq!(m::pk_to_spki(&mut doc, &mut len, out.as_ptr(), format), 0);
                        let mut again = vec![0u8; $pk];
                        assert_eq!(m::pk_from_spki(again.as_mut_ptr(), doc, len, format), 0);
                        assert_eq!(again, out, "SPKI round trip");
                        misc::mldsa_free(doc.cast());
                    }
                }
                4 => {
                    let (mut sk, mut seed, mut has_seed) = (vec![0xAAu8; $sk], [0xAAu8; 32], 7);
                    let rc = m::sk_from_pkcs8(
                        sk.as_mut_ptr(),
                        seed.as_mut_ptr(),
                        &mut has_seed,
                        $d.as_ptr(),
                        $d.len(),
                        null(),
                        0,
                        $ph & 1,
                    );
                    assert!(documented(rc));
                    if rc != 0 {
                        assert!(sk.iter().chain(seed.iter()).all(|&x| x == 0) && has_seed == 0);
                    }
                }
                5 => {
                    let sk = sized($d, $sk);
                    let mut pk2 = vec![0xAAu8; $pk];
                    let strict = m::sk_check(sk.as_ptr());
                    assert!(documented(strict));
                    let rc = m::pk_from_sk(pk2.as_mut_ptr(), sk.as_ptr());
                    assert!(documented(rc));
                    assert!(rc == 0 || pk2.iter().all(|&x| x == 0));
                    // One-shot signing with the same bytes (s1, s2 ranges checked, tr and t0
                    // trusted): a documented status, a zeroed signature on failure, the same
                    // signature twice (deterministic), and one that verifies when the key is one
                    // KeyGen could have made.
                    // (Inside the block's `unsafe`: `out` is the set's signature size.)
                    let sign = |out: &mut [u8]| {
                        m::sign_deterministic(
                            out.as_mut_ptr(),
                            b.as_ptr(),
                            b.len(),
                            ctx.as_ptr(),
                            ctx.len(),
                            sk.as_ptr(),
                        )
                    };
                    let mut sig = vec![0xAAu8; $sig];
                    let rc = sign(&mut sig);
                    assert!(documented(rc));
                    if rc != 0 {
                        assert!(sig.iter().all(|&x| x == 0));
                    } else {
                        let mut again = vec![0u8; $sig];
                        let rc = sign(&mut again);
                        assert_eq!((rc, &again), (0, &sig));
                        if strict == 0 {
                            let ok = m::verify(
                                sig.as_ptr(),
                                sig.len(),
                                b.as_ptr(),
                                b.len(),
                                ctx.as_ptr(),
                                ctx.len(),
                                pk2.as_ptr(),
                            );
                            assert_eq!(ok, 0);
                        }
                    }
                    // The reference API's crypto_sign_signature (hedged): a documented status
                    // and, on success, the signature's length.
                    let mut siglen = 1usize;
                    let rc = dropin::$reference::signature(
                        sig.as_mut_ptr(),
                        &mut siglen,
                        b.as_ptr(),
                        b.len(),
                        ctx.as_ptr(),
                        ctx.len(),
                        sk.as_ptr(),
                    );
                    assert!(documented(rc));
                    assert_eq!(siglen, if rc == 0 { $sig } else { 0 });
                }
                6 => {
                    let mut msg = vec![0x55u8; a.len()];
                    let mut mlen = 0usize;
                    let rc = dropin::$reference::open(
                        msg.as_mut_ptr(),
                        &mut mlen,
                        a.as_ptr(),
                        a.len(),
                        ctx.as_ptr(),
                        ctx.len(),
                        pk.as_ptr(),
                    );
                    assert!(rc == 0 || rc == -1);
                    if rc != 0 {
                        // The FIPS 204 drop-in follows reference master on failure: *mlen = 0
                        // (since 779ad33) and m[0..smlen) cleared.
                        assert!(mlen == 0 && msg.iter().all(|&x| x == 0));
                    }
                }
                _ => {
                    let mu = sized(b, 64);
                    assert!(documented(m::verify_mu(
                        a.as_ptr(),
                        a.len(),
                        mu.as_ptr(),
                        pk.as_ptr()
                    )));
                }
            }
        }
        let _ = $sig;
    }};
}

macro_rules! round3 {
    ($set:ident, $pk:expr, $d:expr) => {{
        let (a, b, c) = pieces($d);
        let pk = sized(c, $pk);
        // SAFETY: as above.
        let rc =
            unsafe { legacy::$set::verify(a.as_ptr(), a.len(), b.as_ptr(), b.len(), pk.as_ptr()) };
        assert!(documented(rc));
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Some((&op, rest)) = rest.split_first() else {
        return;
    };
    // Pre-hash id from -2 to 13: the 12 valid ones and invalid ones on both sides.
    let ph = i32::from(op >> 4) - 2;
    match sel % 9 {
        0 => ml_dsa!(mldsa44, mldsa44_ref, 1312, 2560, 2420, op, ph, rest),
        1 => ml_dsa!(mldsa65, mldsa65_ref, 1952, 4032, 3309, op, ph, rest),
        2 => ml_dsa!(mldsa87, mldsa87_ref, 2592, 4896, 4627, op, ph, rest),
        3 => round3!(dilithium2, 1312, rest),
        4 => round3!(dilithium3, 1952, rest),
        5 => round3!(dilithium5, 2592, rest),
        6 => round3!(dilithium2aes, 1312, rest),
        7 => round3!(dilithium3aes, 1952, rest),
        _ => round3!(dilithium5aes, 2592, rest),
    }
});
