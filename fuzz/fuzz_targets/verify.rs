//! Verification with arbitrary public key, signature, message and context, of any lengths.
//!
//! Properties:
//! - nothing panics; wrong-length keys and signatures are errors at decoding;
//! - a context over 255 bytes is always an error;
//! - every verification entry point gives the same verdict: `VerifyingKey::verify`,
//!   `verify_mu(compute_mu(..))`, the streaming `message_verifier` (message cut at a
//!   data-chosen point), `AnyVerifyingKey::verify` on the raw signature bytes, and the
//!   `signature::Verifier` trait when the context is empty;
//! - a valid signature does not verify under a different context.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa::pkix::{Algorithm, AnyVerifyingKey};
use mldsa::{MAX_CONTEXT_LEN, ParameterSet, Signature, VerifyingKey};
use mldsa_fuzz::{Spec, VerifyInput, with_set};

fn check<P: ParameterSet>(spec: &Spec, input: &VerifyInput<'_>) {
    let vk = VerifyingKey::<P>::from_bytes(input.pk);
    assert_eq!(vk.is_ok(), input.pk.len() == spec.pk_len);
    let any_vk = AnyVerifyingKey::from_bytes(Algorithm::of::<P>(), input.pk);
    assert_eq!(any_vk.is_ok(), vk.is_ok());
    let sig = Signature::<P>::from_bytes(input.sig);
    if input.sig.len() != spec.sig_len {
        assert!(sig.is_err());
    }
    let (Ok(vk), Ok(any_vk)) = (vk, any_vk) else {
        return;
    };
    // The raw-bytes verifier decodes the signature itself: it must fail when decoding fails.
    let any_verdict = any_vk.verify(input.msg, input.ctx, input.sig);
    let Ok(sig) = sig else {
        assert!(
            any_verdict.is_err(),
            "AnyVerifyingKey accepted an undecodable signature"
        );
        return;
    };

    let verdict = vk.verify(input.msg, input.ctx, &sig);
    if input.ctx.len() > MAX_CONTEXT_LEN {
        assert!(verdict.is_err(), "context over 255 bytes accepted");
        assert!(vk.compute_mu(input.msg, input.ctx).is_err());
        assert!(vk.message_verifier(input.ctx).is_err());
        assert!(any_verdict.is_err());
        return;
    }
    let ok = verdict.is_ok();
    let mu = vk
        .compute_mu(input.msg, input.ctx)
        .expect("mu of a valid context");
    assert_eq!(vk.verify_mu(&mu, &sig).is_ok(), ok, "verify_mu disagrees");
    assert_eq!(any_verdict.is_ok(), ok, "AnyVerifyingKey disagrees");

    let cut = input.msg.len().min(usize::from(input.sig[0]) * 7);
    let mut stream = vk.message_verifier(input.ctx).expect("valid context");
    stream.update(&input.msg[..cut]).update(&input.msg[cut..]);
    assert_eq!(
        stream.verify(&sig).is_ok(),
        ok,
        "streaming verify disagrees"
    );

    if input.ctx.is_empty() {
        let via_trait = mldsa::signature::Verifier::verify(&vk, input.msg, &sig);
        assert_eq!(via_trait.is_ok(), ok, "signature::Verifier disagrees");
    }
    if ok {
        let mut other_ctx = input.ctx.to_vec();
        other_ctx.push(0);
        if other_ctx.len() <= MAX_CONTEXT_LEN {
            assert!(
                vk.verify(input.msg, &other_ctx, &sig).is_err(),
                "context ignored"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let input = VerifyInput::parse(data);
    let spec = input.set.spec();
    with_set!(input.set, check(&spec, &input));
});
