//! Signature decoding: `Signature::from_bytes` on arbitrary bytes (any length).
//!
//! First byte: the set (`% 3`); below 3 the rest is the signature as is, from 3 on the rest is
//! a list of z edits applied to a valid signature (see `mldsa_fuzz::apply_z_edits`), which puts
//! coefficients on the norm bound gamma1 - beta.
//!
//! Properties:
//! - it never panics;
//! - it accepts exactly what the spec-literal reference accepts (length, canonical hint
//!   encoding per FIPS 204 Algorithm 21, ||z||_inf < gamma1 - beta);
//! - an accepted signature keeps the bytes (`as_bytes`, `to_bytes`, `c_tilde`) and those bytes
//!   are canonical: the reference sigEncode of the decoded (c-tilde, z, h) gives them back.
//!   (`as_bytes()` alone returns the stored input, so the independent re-encode is what makes
//!   the canonicity property bite.)
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mldsa::{ParameterSet, Signature, SigningKey};
use mldsa_fuzz::{Set, Spec, apply_z_edits, sig_decode, sig_encode, with_set};

/// A valid signature per set, made once: the base of the z-edit mode.
static BASE: [OnceLock<Vec<u8>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

fn base<P: ParameterSet>(set: Set) -> &'static [u8] {
    BASE[usize::from(set.to_byte())].get_or_init(|| {
        let sk = SigningKey::<P>::from_seed(&[0x11; 32]);
        let sig = sk
            .sign_deterministic(b"sig_decode base", b"")
            .expect("sign");
        sig.as_bytes().to_vec()
    })
}

fn check<P: ParameterSet>(spec: &Spec, bytes: &[u8]) {
    assert_eq!(Signature::<P>::LEN, spec.sig_len);
    let ours = Signature::<P>::from_bytes(bytes);
    let via_try = Signature::<P>::try_from(bytes);
    assert_eq!(ours.is_ok(), via_try.is_ok());
    let reference = sig_decode(spec, bytes);
    match (&ours, &reference) {
        (Ok(sig), Some(r)) => {
            assert_eq!(sig.as_bytes(), bytes);
            assert_eq!(sig.to_bytes().as_ref(), bytes);
            assert_eq!(sig.c_tilde(), &bytes[..spec.c_tilde_len]);
            assert_eq!(
                sig_encode(spec, r),
                bytes,
                "accepted bytes are not canonical"
            );
        }
        (Err(_), None) => {}
        (Ok(_), None) => panic!("library accepts a signature the reference rejects"),
        (Err(e), Some(_)) => panic!("library rejects a valid signature encoding: {e}"),
    }
}

fn run<P: ParameterSet>(set: Set, mode: u8, rest: &[u8]) {
    let spec = set.spec();
    if mode < 3 {
        check::<P>(&spec, rest);
    } else {
        check::<P>(&spec, &apply_z_edits(&spec, base::<P>(set), rest));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let set = Set::from_byte(first);
    with_set!(set, run(set, first, rest));
});
