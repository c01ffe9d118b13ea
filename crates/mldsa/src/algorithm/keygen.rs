//! Key generation (FIPS 204 Algorithm 6).

use crate::algorithm::expanded::ExpandedSecret;
use crate::backend::{Backend, KeygenS2, with_backend};
use crate::hash::keccak::shake256_with;
use crate::math::poly::{NttPoly, Poly, SmallPoly};
use crate::params::{Parameters, TR_LEN, Variant};
use crate::support::declassify::public_mut;
use crate::support::scratch::{Held, Reuse, Scratch};
use zeroize::Zeroize;

/// Working memory of Steps 3-5: NTT(s1), A-hat o NTT(s1) and t, each made zero in place (on
/// the heap under `alloc`; 16 KiB for ML-DSA-87). [`compute_t1_t0`] wipes it before it returns,
/// so it holds no secret between uses (and has no `Drop` of its own, which would wipe it twice).
pub(crate) struct T1T0Scratch<P: Parameters> {
    s1_hat: Scratch<P::NttVecL>,
    t_hat: Scratch<P::NttVecK>,
    t: Scratch<P::VecK>,
}

impl<P: Parameters> T1T0Scratch<P> {
    pub(crate) fn zeroed() -> Self {
        Self {
            s1_hat: Scratch::zeroed(),
            t_hat: Scratch::zeroed(),
            t: Scratch::zeroed(),
        }
    }
}

/// Scratch space of key generation, zeroised on drop.
/// (s1 is copied into the key's 8-bit form; s2 is sampled into the key's t0, which is not
/// written before step 5, and copied from there.)
/// The vectors are made zero in place (on the heap under `alloc`), never whole on the stack.
/// Under `std` a thread keeps it between key generations ([`Held`]): four allocations, frees
/// and zero fills of 4-16 KiB each (glibc's `posix_memalign`: about 2 % of an ML-DSA-44 key
/// generation, counted on AArch64) happen only at its first one.
struct KeyGenScratch<P: Parameters> {
    rho_prime: [u8; 64],
    s1: Scratch<P::VecL>,
    /// NTT(s1) and A-hat o NTT(s1) (steps 5-6; t_i itself is made in a slot of `s1`).
    s1_hat: Scratch<P::NttVecL>,
    t_hat: Scratch<P::NttVecK>,
    /// The sponge state of s2 where the backend makes it beside ExpandA ([`KeygenS2::sponge`]).
    s2_sponge: [u64; 25],
}

impl<P: Parameters> Drop for KeyGenScratch<P> {
    fn drop(&mut self) {
        self.wipe();
    }
}

/// Reused as it was left (under `std`, see [`Held`]): the next key generation writes every
/// field before reading it. (`s1_hat` and `t_hat` are wiped after each use, by key
/// generation.)
impl<P: Parameters> Reuse for KeyGenScratch<P> {
    fn wipe(&mut self) {
        self.rho_prime.zeroize();
        self.s1.zeroize();
        self.s2_sponge.zeroize();
    }
}

/// Steps 3-5 of FIPS 204 Algorithm 6: t = NTT^-1(A-hat o NTT(s1)) + s2 and (t1, t0) =
/// Power2Round(t).
///
/// Bounds: s1 and s2 have |c| <= eta.
/// `work` is wiped before this returns.
pub(crate) fn compute_t1_t0<P: Parameters, B: Backend>(
    b: B,
    work: &mut T1T0Scratch<P>,
    rho: &[u8; 32],
    s1: &P::VecL,
    s2: &P::SmallVecK,
    t1: &mut P::VecK,
    t0: &mut P::VecK,
) {
    let T1T0Scratch { s1_hat, t_hat, t } = work;
    b.ntt_vec(s1.as_ref(), s1_hat.as_mut());
    // A-hat = ExpandA(rho) (Alg. 6 step 3) is used only here: fused, never held whole.
    b.expand_a_times::<P>(rho, s1_hat.as_ref(), t_hat.as_mut());
    s1_hat.zeroize();
    for ((t_hat_i, t_i), s2_i) in t_hat
        .as_ref()
        .iter()
        .zip(t.as_mut().iter_mut())
        .zip(s2.as_ref())
    {
        t_row(b, t_hat_i, s2_i, t_i);
    }
    b.power2_round_vec(t.as_ref(), t1.as_mut(), t0.as_mut());
    t_hat.zeroize();
    t.zeroize();
}

/// Step 5 of FIPS 204 Algorithm 6 for one row: t_i = NTT^-1(t_hat_i) + s2_i, in [0, q).
/// Bounds: |s2_i| <= eta; t_hat_i as [`Backend::ntt_inverse`]'s input.
fn t_row<B: Backend>(b: B, t_hat_i: &NttPoly, s2_i: &SmallPoly, t_i: &mut Poly) {
    b.ntt_inverse(t_hat_i, t_i);
    t_i.add_assign_small(s2_i);
    t_i.freeze();
}

/// FIPS 204 Algorithm 6, ML-DSA.KeyGen_internal: the key pair determined by the seed xi.
///
/// Writes the encoded public key into `pk` and the expanded secret into `sk` (in place, so no
/// copy of the secret is left behind by a move).
pub(crate) fn keygen_internal<P: Parameters>(
    xi: &[u8; 32],
    pk: &mut P::PkBytes,
    sk: &mut ExpandedSecret<P>,
) {
    with_backend!(|b| keygen_with(b, xi, pk, sk))
}

/// [`keygen_internal`] on backend `b`.
fn keygen_with<P: Parameters, B: Backend>(
    b: B,
    xi: &[u8; 32],
    pk: &mut P::PkBytes,
    sk: &mut ExpandedSecret<P>,
) {
    // Under `std` the one this thread used for its last key generation, wiped (see `Held`).
    let mut held = Held::new(|| {
        Scratch::new(KeyGenScratch::<P> {
            rho_prime: [0; 64],
            s1: Scratch::zeroed(),
            s1_hat: Scratch::zeroed(),
            t_hat: Scratch::zeroed(),
            s2_sponge: [0; 25],
        })
    });
    let scratch = &mut *held;
    // Step 1: (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128).
    let mut seed_bytes = [0u8; 128];
    match P::VARIANT {
        Variant::MlDsa => shake256_with(
            b.keccak(),
            &[xi, &[P::K as u8, P::L as u8]],
            &mut seed_bytes,
        ),
        // Dilithium v3.1 section 5.1 (and Fig. 4): H(zeta) with no domain separation by (k, l).
        Variant::DilithiumRound3 => shake256_with(b.keccak(), &[xi], &mut seed_bytes),
    }
    sk.rho.copy_from_slice(&seed_bytes[..32]);
    // Constant time: rho is part of the public key; ExpandA branches on bytes derived from it.
    public_mut(&mut sk.rho);
    scratch.rho_prime.copy_from_slice(&seed_bytes[32..96]);
    sk.k.copy_from_slice(&seed_bytes[96..]);
    seed_bytes.zeroize();

    // Step 4: (s1, s2) = ExpandS(rho'); step 3, A-hat = ExpandA(rho), is fused into step 5.
    // s2 goes into t0's buffer (same shape, not written before step 6), then into the key, row
    // by row; the backend may make it later, beside ExpandA (see `Backend::expand_s_for_keygen`).
    let s2_made = b.expand_s_for_keygen::<P>(&scratch.rho_prime, &mut scratch.s1, &mut sk.t0);
    for (p, small) in scratch.s1.as_ref().iter().zip(sk.s1.as_mut()) {
        small.set(p);
    }

    // Steps 5-9 a row at a time: t_i = NTT^-1((A-hat o NTT(s1))_i) + s2_i, (t1_i, t0_i) =
    // Power2Round(t_i), t1_i packed into pk = pkEncode(rho, t1) as soon as it exists; then
    // tr = H(pk, 64) (32 bytes in Dilithium v3.1), which the backend may absorb as pk grows.
    let (s1_hat, t_hat) = (&mut scratch.s1_hat, &mut scratch.t_hat);
    b.ntt_vec(scratch.s1.as_ref(), s1_hat.as_mut());
    pk.as_mut()[..32].copy_from_slice(&sk.rho);
    let mut tr = [0u8; TR_LEN];
    let s2_rows = sk.s2.as_mut();
    // t_i (secret) and t1_i (public) in s1's first two slots (l >= 4), free now that NTT(s1)
    // is made and wiped with s1 (`Reuse::wipe`): not a K-row buffer (up to 8 KiB more in the
    // cache, and to wipe), nor 1 KiB locals in this frame, on the stack through ExpandA's (ST-1).
    let [t_i, t1_i, ..] = scratch.s1.as_mut() else {
        unreachable!("l >= 4 in every parameter set")
    };
    // `s2_t0_i`: row i's slot of t0's buffer, s2_i on entry, t0_i on return.
    let mut finish = |i: usize, t_hat_i: &NttPoly, s2_t0_i: &mut Poly, pk_i: &mut [u8]| {
        s2_rows[i].set(s2_t0_i);
        t_row(b, t_hat_i, &s2_rows[i], t_i);
        b.power2_round_vec(
            core::slice::from_ref(t_i),
            core::slice::from_mut(t1_i),
            core::slice::from_mut(s2_t0_i),
        );
        b.t1_pack(t1_i, pk_i);
        // Constant time: the public key is public.
        public_mut(pk_i);
    };
    let s2 = KeygenS2 {
        slots: sk.t0.as_mut(),
        make_from: (s2_made < P::K).then_some((&scratch.rho_prime, s2_made)),
        sponge: &mut scratch.s2_sponge,
    };
    // A-hat = ExpandA(rho) (step 3) is used only here: fused, never held whole.
    b.expand_a_rows_and_tr::<P>(
        &sk.rho,
        s1_hat.as_ref(),
        t_hat.as_mut(),
        pk.as_mut(),
        &mut tr,
        s2,
        &mut finish,
    );
    sk.tr[..P::TR_BYTES].copy_from_slice(&tr[..P::TR_BYTES]);
    s1_hat.zeroize();
    t_hat.zeroize();
    // Step 10 is the encoding; here the key is kept expanded (see ExpandedSecret).
}
