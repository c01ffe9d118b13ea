//! Hint packing and unpacking, through signature bytes (bug classes 4 and 5: non-canonical or
//! out-of-bounds hint encodings).
//!
//! A valid signature (fixed key and message per set) gets its hint block (omega + k bytes)
//! replaced by one from the input: raw bytes, a hint vector that the reference HintBitPack
//! (FIPS 204 Algorithm 20) encodes, or sorted index runs with arbitrary counts (see
//! `mldsa_fuzz::HintInput`). Properties:
//! - `Signature::from_bytes` never panics and accepts exactly when the spec-literal
//!   HintBitUnpack (Algorithm 21) does;
//! - every canonical encoding of at most omega ones is accepted and decodes to that vector;
//! - an accepted block re-packs to the same bytes (no two encodings of one hint vector);
//! - the signature verifies if and only if the hint block is the original one: any other
//!   accepted hint vector changes UseHint's output, so it must be rejected (strong
//!   unforgeability).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mldsa::{ParameterSet, Signature, SigningKey, VerifyingKey};
use mldsa_fuzz::{HintInput, Set, Spec, hint_bit_pack, hint_bit_unpack, hint_offset, with_set};

const MSG: &[u8] = b"hint_roundtrip fuzz message";

/// (pk, signature of MSG) per set, made once.
static FIXED: [OnceLock<(Vec<u8>, Vec<u8>)>; 3] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

fn fixed<P: ParameterSet>(set: Set) -> &'static (Vec<u8>, Vec<u8>) {
    FIXED[usize::from(set.to_byte())].get_or_init(|| {
        let sk = SigningKey::<P>::from_seed(&[0x5a; 32]);
        let sig = sk.sign_deterministic(MSG, b"").expect("sign");
        (
            sk.verifying_key().as_bytes().to_vec(),
            sig.as_bytes().to_vec(),
        )
    })
}

fn check<P: ParameterSet>(set: Set, spec: &Spec, input: &HintInput<'_>) {
    let Some(block) = input.hint_block(spec) else {
        return;
    };
    let (pk, original) = fixed::<P>(set);
    let at = hint_offset(spec);
    let mut bytes = original.clone();
    bytes[at..].copy_from_slice(&block);

    let ours = Signature::<P>::from_bytes(&bytes);
    let reference = hint_bit_unpack(&block, spec.k, spec.omega);
    if input.mode % 2 == 1 {
        // Built by the reference packer from a list of positions: must be canonical.
        let h = reference
            .as_ref()
            .expect("reference rejects its own encoding");
        let mut want = vec![[false; 256]; spec.k];
        for pair in input.body.chunks_exact(2) {
            want[usize::from(pair[0]) % spec.k][usize::from(pair[1])] = true;
        }
        assert_eq!(
            h, &want,
            "reference HintBitUnpack is not the inverse of HintBitPack"
        );
        assert!(ours.is_ok(), "library rejects a canonical hint encoding");
    }
    match (&ours, &reference) {
        (Ok(_), Some(h)) => {
            assert_eq!(
                hint_bit_pack(h, spec.omega),
                block,
                "accepted a non-canonical encoding"
            );
        }
        (Err(_), None) => return,
        (Ok(_), None) => panic!("library accepts a hint block the spec rejects: {block:?}"),
        (Err(e), Some(_)) => panic!("library rejects a valid hint block ({e}): {block:?}"),
    }
    let sig = ours.expect("checked above");
    let vk = VerifyingKey::<P>::from_bytes(pk).expect("fixed pk");
    let verdict = vk.verify(MSG, b"", &sig);
    if block[..] == original[at..] {
        verdict.expect("original signature no longer verifies");
    } else {
        assert!(
            verdict.is_err(),
            "signature verifies with different hints: {block:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let input = HintInput::parse(data);
    let spec = input.set.spec();
    with_set!(input.set, check(input.set, &spec, &input));
});
