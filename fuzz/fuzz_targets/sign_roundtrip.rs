//! Key generation, signing and verification round trip from a fuzzed seed, rnd, message and
//! context.
//!
//! Properties:
//! - keygen from any seed, and signing any message with any context of at most 255 bytes,
//!   succeed; a longer context is an error from every signing entry point;
//! - deterministic and hedged signatures decode canonically and verify;
//! - the entry points agree: `sign_with_rng` with an RNG that yields `rnd` equals
//!   `sign_mu(compute_mu(..), rnd)`; `sign_deterministic` equals `sign_mu(.., 0^32)` and the
//!   streaming signer;
//! - the key survives its expanded encoding (strict import, same verifying key, same
//!   deterministic signature);
//! - flipping any one bit of the signature, or of the message, or changing the context, makes
//!   verification fail.
#![no_main]

use core::convert::Infallible;

use libfuzzer_sys::fuzz_target;
use mldsa::rand_core::{TryCryptoRng, TryRng};
use mldsa::{MAX_CONTEXT_LEN, ParameterSet, Signature, SigningKey};
use mldsa_fuzz::{SignInput, with_set};

/// Hands out the given bytes, then zeros (signing asks for exactly 32).
struct BytesRng<'a>(&'a [u8]);

impl TryRng for BytesRng<'_> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for d in dst {
            *d = self.0.first().copied().unwrap_or(0);
            self.0 = self.0.get(1..).unwrap_or(&[]);
        }
        Ok(())
    }
}

impl TryCryptoRng for BytesRng<'_> {}

fn check<P: ParameterSet>(input: &SignInput<'_>) {
    let sk = SigningKey::<P>::from_seed(&input.seed);
    let vk = sk.verifying_key();
    let (msg, ctx) = (input.msg, input.ctx);

    let det = sk.sign_deterministic(msg, ctx);
    let hedged = sk.sign_with_rng(&mut BytesRng(&input.rnd), msg, ctx);
    if ctx.len() > MAX_CONTEXT_LEN {
        assert!(
            det.is_err() && hedged.is_err(),
            "context over 255 bytes accepted"
        );
        assert!(sk.message_signer(ctx).is_err());
        return;
    }
    let det = det.expect("deterministic signing failed");
    let hedged = hedged.expect("hedged signing failed");

    let mu = vk.compute_mu(msg, ctx).expect("mu");
    assert_eq!(sk.sign_mu(&mu, &input.rnd).expect("sign_mu"), hedged);
    assert_eq!(sk.sign_mu(&mu, &[0; 32]).expect("sign_mu"), det);
    let cut = msg.len() / 2;
    let mut stream = sk.message_signer(ctx).expect("valid context");
    stream.update(&msg[..cut]).update(&msg[cut..]);
    assert_eq!(stream.sign_deterministic().expect("stream"), det);

    for sig in [&det, &hedged] {
        let decoded = Signature::<P>::from_bytes(sig.as_bytes()).expect("non-canonical output");
        assert_eq!(&decoded, sig);
        vk.verify(msg, ctx, sig)
            .expect("fresh signature does not verify");

        // One flipped signature bit: rejected at decoding or at verification.
        let bit = usize::from(input.flip) % (Signature::<P>::LEN * 8);
        let mut bad = sig.to_bytes();
        bad.as_mut()[bit / 8] ^= 1 << (bit % 8);
        if let Ok(bad) = Signature::<P>::from_bytes(bad.as_ref()) {
            assert!(
                vk.verify(msg, ctx, &bad).is_err(),
                "bit {bit} flip still verifies"
            );
        }
        // One flipped message bit, or another context.
        if !msg.is_empty() {
            let mut m = msg.to_vec();
            let bit = usize::from(input.flip) % (m.len() * 8);
            m[bit / 8] ^= 1 << (bit % 8);
            assert!(
                vk.verify(&m, ctx, sig).is_err(),
                "message bit flip still verifies"
            );
        }
        let mut other = ctx.to_vec();
        match other.last_mut() {
            Some(b) => *b ^= 0x80,
            None => other.push(0),
        }
        assert!(
            vk.verify(msg, &other, sig).is_err(),
            "context change still verifies"
        );
    }

    let expanded = sk.to_expanded_bytes();
    let again = SigningKey::<P>::from_expanded(expanded.as_ref()).expect("own key rejected");
    assert_eq!(again.verifying_key(), vk);
    assert_eq!(again.sign_deterministic(msg, ctx).expect("sign"), det);
}

fuzz_target!(|data: &[u8]| {
    let input = SignInput::parse(data);
    with_set!(input.set, check(&input));
});
