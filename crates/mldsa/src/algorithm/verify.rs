//! Verification (FIPS 204 Algorithm 8), written once for every front door.

use crate::backend::{Backend, with_backend};
use crate::encoding::encode::{pk_decode_each_shifted, sig_decode};
use crate::error::{Error, Input};
use crate::hash::keccak::shake256_with;
use crate::hash::sample::sample_in_ball;
use crate::math::poly::{NttPoly, Poly};
use crate::params::{MU_LEN, Parameters, PolyVec, TR_LEN};
#[cfg(feature = "alloc")]
use crate::support::scratch::Scratch;
use subtle::ConstantTimeEq;

/// What verification derives from the public key alone (Alg. 8 step 5 and the t1 term of step
/// 10): A-hat and NTT(t1 * 2^d). A prepared verifying key keeps it, so a verifier that checks
/// many signatures under one key expands A once.
///
/// Both live in heap blocks made zero in place and filled there: built whole and then boxed,
/// they passed through the caller's stack (64 KiB for ML-DSA-87, twice over in the release
/// profile: `VerifyingKey::prepare` needed a 188 KiB thread; ST-1).
#[cfg(feature = "alloc")]
pub(crate) struct KeyTerms<P: Parameters> {
    pub(crate) a_hat: Scratch<P::MatrixA>,
    pub(crate) t1_hat: Scratch<P::NttVecK>,
}

#[cfg(feature = "alloc")]
impl<P: Parameters> KeyTerms<P> {
    /// Derives the terms of `pk` (exactly `P::PK_LEN` bytes).
    pub(crate) fn new(pk: &[u8]) -> Self {
        let mut terms = Self {
            a_hat: Scratch::zeroed(),
            t1_hat: Scratch::zeroed(),
        };
        with_backend!(|b| {
            let mut rho = [0u8; 32];
            t1_term::<P, _>(b, pk, &mut rho, &mut terms.t1_hat);
            b.expand_a::<P>(&rho, &mut terms.a_hat);
        });
        terms
    }
}

/// Copied row by row into new heap blocks (a derived `Clone` would build the copy on the stack).
#[cfg(feature = "alloc")]
impl<P: Parameters> Clone for KeyTerms<P> {
    fn clone(&self) -> Self {
        let mut copy = Self {
            a_hat: Scratch::zeroed(),
            t1_hat: Scratch::zeroed(),
        };
        copy.a_hat.as_mut().clone_from_slice(self.a_hat.as_ref());
        copy.t1_hat.as_mut().clone_from_slice(self.t1_hat.as_ref());
        copy
    }
}

/// Alg. 8 step 1, (rho, t1) = pkDecode(pk), and NTT(t1 * 2^d) of step 10.
fn t1_term<P: Parameters, B: Backend>(
    b: B,
    pk: &[u8],
    rho: &mut [u8; 32],
    t1_hat: &mut P::NttVecK,
) {
    let t1_hat = t1_hat.as_mut();
    // Bounds: t1 < 2^10, so t1 * 2^d <= q - 1.
    pk_decode_each_shifted::<P, _>(b, pk, rho, |i, t1_i| b.ntt(t1_i, &mut t1_hat[i]));
}

/// Where verification gets A-hat from.
enum MatrixSource<'a, P: Parameters> {
    /// A prepared key's copy.
    #[cfg_attr(
        not(feature = "alloc"),
        allow(dead_code, reason = "prepared keys need alloc")
    )]
    Kept(&'a P::MatrixA),
    /// ExpandA(rho), fused into the product and never held whole (a small stack).
    FromRho(&'a [u8; 32]),
}

/// Where verification gets mu from.
enum Mu<'a> {
    /// From the caller, which holds tr (a key object keeps it).
    Given(&'a [u8; MU_LEN]),
    /// Made by `of_tr` from tr = H(pk, 64), which verification hashes itself: alongside ExpandA
    /// where A-hat is expanded from rho ([`Backend::expand_a_times_and_tr`]).
    OfTr {
        pk: &'a [u8],
        of_tr: &'a dyn Fn(&[u8; TR_LEN]) -> [u8; MU_LEN],
    },
    /// Made from `OfTr` during verification.
    Made([u8; MU_LEN]),
}

impl Mu<'_> {
    /// mu itself, hashing tr on `keccak` if it was not hashed yet.
    fn resolve(self, keccak: crate::hash::keccak::Permutation) -> [u8; MU_LEN] {
        match self {
            Mu::Given(mu) => *mu,
            Mu::Made(mu) => mu,
            Mu::OfTr { pk, of_tr } => {
                let mut tr = [0u8; TR_LEN];
                shake256_with(keccak, &[pk], &mut tr);
                of_tr(&tr)
            }
        }
    }
}

/// FIPS 204 Algorithm 8, ML-DSA.Verify_internal, from mu (step 6, mu = H(tr || M'), is done by
/// the caller).
///
/// `pk` and `sig` must have the parameter set's lengths. Nothing here is secret.
///
/// Never inlined, nor is [`verify_prepared`]: verification keeps its vectors on the stack (about
/// 40 KiB for ML-DSA-87; heap blocks cost 2 % more instructions), and merged into a caller's
/// frame they would stay there for whatever else the caller calls (ST-1: in the release
/// profile, merged frames like this one helped push ML-DSA-87 signing past 128 KiB).
#[inline(never)]
pub(crate) fn verify_internal<P: Parameters>(
    pk: &[u8],
    mu: &[u8; MU_LEN],
    sig: &[u8],
) -> Result<(), Error> {
    with_backend!(|b| {
        let mut rho = [0u8; 32];
        let mut t1_hat = P::NttVecK::zeroed();
        t1_term::<P, _>(b, pk, &mut rho, &mut t1_hat);
        verify_with::<P, _>(b, MatrixSource::FromRho(&rho), &t1_hat, Mu::Given(mu), sig)
    })
}

/// Verification (FIPS 204 Algorithm 8) from the key's encoding alone, with mu = `mu_of_tr(tr)`
/// (Alg. 3 step 5) for tr = H(pk, 64) hashed here: on a backend with a multi-way Keccak, in a
/// lane of ExpandA's sponges ([`Backend::expand_a_times_and_tr`]) rather than on a state of its
/// own before them.
///
/// `pk` and `sig` must have the parameter set's lengths. Nothing here is secret. Never inlined,
/// as [`verify_internal`].
#[inline(never)]
pub(crate) fn verify_encoded<P: Parameters>(
    pk: &[u8],
    sig: &[u8],
    mu_of_tr: &dyn Fn(&[u8; TR_LEN]) -> [u8; MU_LEN],
) -> Result<(), Error> {
    with_backend!(|b| {
        let mut rho = [0u8; 32];
        let mut t1_hat = P::NttVecK::zeroed();
        t1_term::<P, _>(b, pk, &mut rho, &mut t1_hat);
        let mu = Mu::OfTr {
            pk,
            of_tr: mu_of_tr,
        };
        verify_with::<P, _>(b, MatrixSource::FromRho(&rho), &t1_hat, mu, sig)
    })
}

/// [`verify_internal`] with a prepared key's terms (`KeyTerms::new(pk)`).
#[cfg(feature = "alloc")]
#[inline(never)]
pub(crate) fn verify_prepared<P: Parameters>(
    terms: &KeyTerms<P>,
    mu: &[u8; MU_LEN],
    sig: &[u8],
) -> Result<(), Error> {
    with_backend!(|b| verify_with::<P, _>(
        b,
        MatrixSource::Kept(&*terms.a_hat),
        &terms.t1_hat,
        Mu::Given(mu),
        sig
    ))
}

/// Steps 2-13 of Algorithm 8 on backend `b`, given A-hat and NTT(t1 * 2^d).
fn verify_with<P: Parameters, B: Backend>(
    b: B,
    a_hat: MatrixSource<'_, P>,
    t1_hat: &P::NttVecK,
    mut mu: Mu<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    debug_assert_eq!(sig.len(), P::SIG_LEN);
    // Steps 2-4: (c-tilde, z, h) = sigDecode(sigma); h = bottom -> false. The strict decoder also
    // makes the step 13 check ||z||_inf < gamma1 - beta.
    let mut c_tilde = [0u8; 64];
    let c_tilde = &mut c_tilde[..P::C_TILDE_LEN];
    let mut h = P::VecK::zeroed();
    // NTT(z) lives in a block of its own, so that its stack slot is free again for the rows of
    // w'_approx and w1' (verification keeps its vectors on the stack: ST-1).
    let mut w_hat = P::NttVecK::zeroed();
    {
        let mut z_hat = P::NttVecL::zeroed();
        // Step 10's first term needs only NTT(z): each z_i is transformed as it is decoded (one
        // polynomial, not all of z). One NTT at a time, not `ntt_vec`, whose backends overwrite
        // 4 KiB of dead stack after it for secret vectors: z is public.
        let z_hat_i = z_hat.as_mut();
        sig_decode::<P, _>(b, sig, c_tilde, h.as_mut(), |i, z_i| {
            b.ntt(z_i, &mut z_hat_i[i])
        })
        .map_err(|what| Error::Malformed {
            input: Input::Signature,
            what,
        })?;
        let (z_hat, w_hat) = (z_hat.as_ref(), w_hat.as_mut());
        mu = match (a_hat, mu) {
            (MatrixSource::FromRho(rho), Mu::OfTr { pk, of_tr }) => {
                let mut tr = [0u8; TR_LEN];
                b.expand_a_times_and_tr::<P>(rho, z_hat, w_hat, pk, &mut tr);
                Mu::Made(of_tr(&tr))
            }
            (MatrixSource::FromRho(rho), mu) => {
                b.expand_a_times::<P>(rho, z_hat, w_hat);
                mu
            }
            (MatrixSource::Kept(a_hat), mu) => {
                b.matrix_vector_ntt(a_hat.as_ref(), z_hat, w_hat);
                mu
            }
        };
    }

    // Step 9: c = SampleInBall(c-tilde).
    let mut c = Poly::ZERO;
    sample_in_ball::<P>(b.keccak(), c_tilde).write_poly(&mut c);
    let mut c_hat = NttPoly::ZERO;
    b.ntt(&c, &mut c_hat);

    // Step 10: w'_approx = NTT^-1(A-hat o NTT(z) - NTT(c) o NTT(t1 * 2^d)), a row at a time,
    // and steps 11-12's w1' = UseHint(h, w'_approx) encoded for c-tilde' = H(mu ||
    // w1Encode(w1'), lambda / 4) as each row is made: one row of w'_approx, not k zeroed.
    let mut w1_bytes = [0u8; 8 * 32 * 6];
    let w1_bytes = &mut w1_bytes[..P::W1_LEN];
    let mut w_approx_i = Poly::ZERO;
    let mut ct1 = NttPoly::ZERO;
    // (Rows by offset: `chunks_exact_mut`'s length division stays a `div` at opt-level z.)
    let row = 32 * P::W1_BITS;
    for (i, ((t1_hat_i, w_hat_i), h_i)) in t1_hat
        .as_ref()
        .iter()
        .zip(w_hat.as_mut())
        .zip(h.as_ref())
        .enumerate()
    {
        let w1_i = &mut w1_bytes[i * row..(i + 1) * row];
        b.multiply_ntt(&c_hat, t1_hat_i, &mut ct1);
        w_hat_i.sub_assign(&ct1);
        w_hat_i.reduce();
        b.ntt_inverse_nonneg(w_hat_i, &mut w_approx_i);
        let w_approx_i = core::slice::from_ref(&w_approx_i);
        b.use_hint_w1_encode::<P>(core::slice::from_ref(h_i), w_approx_i, w1_i);
    }
    let mut c_tilde_prime = [0u8; 64];
    let c_tilde_prime = &mut c_tilde_prime[..P::C_TILDE_LEN];
    let mu = mu.resolve(b.keccak());
    shake256_with(b.keccak(), &[&mu, w1_bytes], c_tilde_prime);
    // Step 13: compare every byte of c-tilde (the z bound was checked when decoding).
    if bool::from(c_tilde.ct_eq(c_tilde_prime)) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
