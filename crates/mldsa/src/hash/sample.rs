//! Pseudorandom sampling (FIPS 204 Algorithms 14, 15 and 29-34).

use crate::encoding::pack::integer_to_bytes_2;
use crate::hash::aes_ctr::AesCtrStream;
use crate::hash::keccak::{Permutation, SHAKE256_RATE, Shake128, Shake256};
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::sparse::{MAX_TAU, SparseC};
use crate::params::{Parameters, Q, SamplerXof};
use crate::support::declassify::public;

/// FIPS 204 Algorithm 14, CoeffFromThreeBytes: a 23-bit candidate, or None if it is >= q.
///
/// Constant time: used only on public data (A-hat is derived from rho).
#[inline(always)]
pub(crate) fn coeff_from_three_bytes(b0: u8, b1: u8, b2: u8) -> Option<i32> {
    let z = b0 as i32 | (b1 as i32) << 8 | ((b2 & 0x7F) as i32) << 16;
    (z < Q).then_some(z)
}

/// FIPS 204 Algorithm 15, CoeffFromHalfByte: eta - (b mod (2 eta + 1)) for an accepted nibble b,
/// or None when b is rejected (b >= 15 for eta = 2, b >= 9 for eta = 4).
///
/// Constant time: the accept/reject decision may leak (FIPS 204 and the Dilithium analysis
/// reveal which samples were rejected); the returned value is secret, so `b mod 5` is computed
/// with a multiply and a shift: floor(b * 205 / 1024) = floor(b / 5) for 0 <= b < 15.
#[inline(always)]
pub(crate) fn coeff_from_half_byte(eta: i32, b: u8) -> Option<i32> {
    let b = b as i32;
    let (limit, value) = match eta {
        2 => (15, 2 - (b - 5 * ((b * 205) >> 10))),
        4 => (9, 4 - b),
        _ => unreachable!("FIPS 204 uses eta = 2 or 4 only"),
    };
    // Constant time: whether the nibble is rejected may become public (see above).
    public(b < limit).then_some(value)
}

/// FIPS 204 Algorithm 30, RejNTTPoly: a uniform element of T_q from SHAKE128(seed).
///
/// Constant time: rho is public, so rejection branches are harmless.
pub(crate) fn rej_ntt_poly(seed: &[u8; 34], out: &mut NttPoly) {
    let mut g = Shake128::new();
    g.absorb(seed);
    g.finalize();
    rej_ntt_poly_from(|block| g.squeeze_block(block), out);
}

/// RejNTTPoly over the stream the set's [`SamplerXof`] gives for seed = rho || s || r:
/// SHAKE128(seed), or for the Dilithium v3.1 AES sets (section 5.3) AES-256-CTR with key rho
/// and nonce 256 r + s.
pub(crate) fn rej_ntt_poly_for<P: Parameters>(seed: &[u8; 34], out: &mut NttPoly) {
    match P::XOF {
        SamplerXof::Shake => rej_ntt_poly(seed, out),
        SamplerXof::Aes256Ctr => {
            let mut stream = AesCtrStream::for_seed(seed);
            rej_ntt_poly_from(|block| stream.fill(block), out);
        }
    }
}

/// The loop of RejNTTPoly over a stream read in 168-byte blocks (the SHAKE128 rate; any
/// multiple of 3 reads an AES-CTR keystream the same way, since it is contiguous).
#[inline(always)]
fn rej_ntt_poly_from(mut next_block: impl FnMut(&mut [u8; 168]), out: &mut NttPoly) {
    let mut block = [0u8; 168];
    let mut j = 0;
    while j < N {
        next_block(&mut block);
        for b in block.chunks_exact(3) {
            if let Some(c) = coeff_from_three_bytes(b[0], b[1], b[2]) {
                out.0[j] = c;
                j += 1;
                if j == N {
                    break;
                }
            }
        }
    }
}

/// FIPS 204 Algorithm 31, RejBoundedPoly: a polynomial with coefficients in [-eta, eta] from
/// SHAKE256(seed), or for the Dilithium v3.1 AES sets (section 5.3) from AES-256-CTR with key
/// seed\[0..32\] (the first half of rho') and nonce the index in the last two bytes.
///
/// Constant time: branches only on the accept/reject decision of each nibble (see
/// [`coeff_from_half_byte`]); the block buffer is zeroised because it holds secret bytes.
pub(crate) fn rej_bounded_poly<P: Parameters>(seed: &[u8; 66], out: &mut Poly) {
    match P::XOF {
        SamplerXof::Shake => {
            let mut h = Shake256::new();
            h.absorb(seed);
            h.finalize();
            rej_bounded_poly_from::<P>(|block| h.squeeze_block(block), out);
        }
        SamplerXof::Aes256Ctr => {
            let mut stream = AesCtrStream::for_seed(seed);
            rej_bounded_poly_from::<P>(|block| stream.fill(block), out);
        }
    }
}

/// The loop of RejBoundedPoly over a stream read in 136-byte blocks (the SHAKE256 rate).
#[inline(always)]
fn rej_bounded_poly_from<P: Parameters>(
    mut next_block: impl FnMut(&mut [u8; 136]),
    out: &mut Poly,
) {
    let mut block = [0u8; 136];
    let mut j = 0;
    while j < N {
        next_block(&mut block);
        j = rej_bounded_bytes::<P>(&mut out.0, j, &block);
    }
    zeroize::Zeroize::zeroize(&mut block);
}

/// RejBoundedPoly's inner loop (FIPS 204 Algorithm 31, steps 4-17) over `buf`, one nibble at a
/// time: appends the accepted nibbles' values (CoeffFromHalfByte), low nibble first, to `out`
/// from position `ctr`, stopping at N; returns the new count. The vector backends finish their
/// streams with it.
///
/// Constant time: branches only on the accept/reject decision of each nibble (see
/// [`coeff_from_half_byte`]) and on the public count.
#[inline]
pub(crate) fn rej_bounded_bytes<P: Parameters>(
    out: &mut [i32; N],
    mut ctr: usize,
    buf: &[u8],
) -> usize {
    'bytes: for &z in buf {
        for nibble in [z & 0x0F, z >> 4] {
            if ctr == N {
                break 'bytes;
            }
            if let Some(c) = coeff_from_half_byte(P::ETA, nibble) {
                out[ctr] = c;
                ctr += 1;
            }
        }
    }
    ctr
}

/// FIPS 204 Algorithm 32, ExpandA: A-hat[r][s] = RejNTTPoly(rho || s || r), over the set's
/// stream ([`rej_ntt_poly_for`]).
pub(crate) fn expand_a<P: Parameters>(rho: &[u8; 32], a_hat: &mut P::MatrixA) {
    tick!(ExpandA, 1);
    let mut seed = [0u8; 34];
    seed[..32].copy_from_slice(rho);
    for (r, row) in a_hat.as_mut().iter_mut().enumerate() {
        for (s, entry) in row.as_mut().iter_mut().enumerate() {
            seed[32] = s as u8;
            seed[33] = r as u8;
            rej_ntt_poly_for::<P>(&seed, entry);
        }
    }
}

/// FIPS 204 Algorithm 33, ExpandS: s1[r] = RejBoundedPoly(rho' || r), s2[r] = ... (rho' || r + l),
/// over the set's stream ([`rej_bounded_poly`]).
pub(crate) fn expand_s<P: Parameters>(rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
    tick!(ExpandS, 1);
    let polys = s1.as_mut().iter_mut().chain(s2.as_mut().iter_mut());
    expand_s_from::<P>(rho_prime, 0, polys);
}

/// [`expand_s`]'s loop from polynomial `first` on: the r-th of `polys` is RejBoundedPoly(rho'
/// || IntegerToBytes(first + r, 2)) (s1 from 0, s2 from l), over the set's stream
/// ([`rej_bounded_poly`]).
pub(crate) fn expand_s_from<'a, P: Parameters>(
    rho_prime: &[u8; 64],
    first: usize,
    polys: impl Iterator<Item = &'a mut Poly>,
) {
    let mut seed = [0u8; 66];
    for (r, poly) in polys.enumerate() {
        write_seed_66(&mut seed, rho_prime, (first + r) as u16);
        rej_bounded_poly::<P>(&seed, poly);
    }
    zeroize::Zeroize::zeroize(&mut seed);
}

/// The seed of ExpandS's and ExpandMask's polynomial number `counter`, `key ||
/// IntegerToBytes(counter, 2)` (FIPS 204 Algorithm 33 steps 2 and 5, Algorithm 34 step 3), for
/// every backend. Written in place: the key is secret, and a seed returned by value would leave
/// copies in dead frames.
#[inline(always)]
pub(crate) fn write_seed_66(seed: &mut [u8; 66], key: &[u8; 64], counter: u16) {
    let (head, tail) = seed.split_at_mut(64);
    head.copy_from_slice(key);
    tail.copy_from_slice(&integer_to_bytes_2(counter));
}

/// FIPS 204 Algorithm 34, ExpandMask, for any count of polynomials: the r-th of `polys` is
/// BitUnpack(H(rho'' || IntegerToBytes(first + r, 2)), gamma1 - 1, gamma1), y[r] of
/// ExpandMask(rho'', first). (The signing loop takes each attempt's l polynomials from one
/// such stream.) For the Dilithium v3.1 AES sets (section 5.3) the bytes are the first
/// 32 (1 + bitlen(gamma1 - 1)) of AES-256-CTR with key rho''\[0..32\] and nonce first + r.
///
/// Bounds: `first` + the count - 1 < 2^16 (the signing loop bound makes it so; see params.rs).
pub(crate) fn expand_mask_polys<'a, P: Parameters>(
    rho_pp: &[u8; 64],
    first: u16,
    polys: impl Iterator<Item = &'a mut Poly>,
) {
    let mut seed = [0u8; 66];
    // 32 * (1 + bitlen(gamma1 - 1)) bytes per polynomial: 576 or 640.
    let mut buf = [0u8; 32 * 20];
    let v = &mut buf[..32 * P::Z_BITS];
    for (r, poly) in polys.enumerate() {
        tick!(ExpandMask, 1);
        write_seed_66(&mut seed, rho_pp, first + r as u16);
        match P::XOF {
            SamplerXof::Shake => crate::hash::keccak::shake256(&[&seed], v),
            SamplerXof::Aes256Ctr => AesCtrStream::for_seed(&seed).fill(v),
        }
        crate::encoding::pack::bit_unpack_z::<P>(v, poly);
    }
    zeroize::Zeroize::zeroize(&mut seed);
    zeroize::Zeroize::zeroize(&mut buf);
}

/// FIPS 204 Algorithm 29, SampleInBall: the challenge c with tau coefficients in {-1, 1}, as
/// the list of its nonzero terms ([`SparseC`]: what signing multiplies by;
/// [`SparseC::write_poly`] gives c itself).
/// Its sponge runs the permutation `keccak` (the backend's choice).
pub(crate) fn sample_in_ball<P: Parameters>(keccak: Permutation, c_tilde: &[u8]) -> SparseC {
    let mut h = Shake256::with(keccak);
    h.absorb(c_tilde);
    h.finalize();
    sample_in_ball_from::<P>(|block| h.squeeze_block(block))
}

/// SampleInBall (FIPS 204 Algorithm 29) on the stream SHAKE256(c-tilde) whose blocks `squeeze`
/// gives in order: [`sample_in_ball`]'s scalar sponge, or (AVX2 signing) lane 0 of the four-way
/// sponge whose other lanes make masks meanwhile.
///
/// The pseudocode's swap `c_i := c_j; c_j := (-1)^h` is followed on the terms: each step adds
/// the term at j, and moves the term that was at j (if any) to i. Making the list here costs
/// nothing; reading it off the dense c afterwards took a mispredicted branch per term.
///
/// Constant time: c-tilde is public (it is part of the signature, and rejected c-tildes leak
/// nothing useful: they are random-oracle outputs), so the rejection branches and the
/// data-dependent indices may depend on it and on the stream it seeds.
pub(crate) fn sample_in_ball_from<P: Parameters>(
    squeeze: impl FnMut(&mut [u8; SHAKE256_RATE]),
) -> SparseC {
    tick!(SampleInBall, 1);
    let mut bytes = SqueezedBytes::new(squeeze);
    let signs = u64::from_le_bytes(core::array::from_fn(|_| bytes.next()));
    // slot[p]: the term at position p (NO_TERM where c_p = 0); at[e]: the position of term e.
    const NO_TERM: u8 = u8::MAX;
    let mut slot = [NO_TERM; N];
    let mut at = [0u8; MAX_TAU];
    for (k, i) in (N - P::TAU..N).enumerate() {
        let j = loop {
            let j = bytes.next() as usize;
            if j <= i {
                break j;
            }
        };
        // c_i := c_j. c_i is still 0 (no step has touched a position >= i), so the term at j,
        // if there is one, moves to i. (j = i: no term there yet.)
        let moved = slot[j];
        if moved != NO_TERM {
            at[moved as usize] = i as u8;
            slot[i] = moved;
        }
        // c_j := (-1)^h[k]: term k.
        at[k] = j as u8;
        slot[j] = k as u8;
    }
    SparseC::from_terms(&at[..P::TAU], signs)
}

/// A squeezed output stream, one byte at a time, read a whole block at a time.
struct SqueezedBytes<F: FnMut(&mut [u8; SHAKE256_RATE])> {
    squeeze: F,
    block: [u8; SHAKE256_RATE],
    at: usize,
}

impl<F: FnMut(&mut [u8; SHAKE256_RATE])> SqueezedBytes<F> {
    /// Bytes of the stream whose next block `squeeze` writes.
    fn new(squeeze: F) -> Self {
        Self {
            squeeze,
            block: [0; SHAKE256_RATE],
            at: SHAKE256_RATE,
        }
    }

    /// The next output byte.
    #[inline(always)]
    fn next(&mut self) -> u8 {
        if self.at == SHAKE256_RATE {
            (self.squeeze)(&mut self.block);
            self.at = 0;
        }
        self.at += 1;
        self.block[self.at - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coeff_from_half_byte_literal() {
        for b in 0u8..16 {
            let expect2 = (b < 15).then(|| 2 - (b as i32 % 5));
            let expect4 = (b < 9).then(|| 4 - b as i32);
            assert_eq!(coeff_from_half_byte(2, b), expect2, "b = {b}");
            assert_eq!(coeff_from_half_byte(4, b), expect4, "b = {b}");
        }
    }

    /// F-9: kappa + r is encoded in two bytes and never wraps (params.rs asserts the signing
    /// loop keeps it below 2^16); at the very top of that range the masks are still the ones
    /// FIPS 204 defines, distinct from each other and from the low counters.
    #[test]
    fn masks_at_the_top_of_the_counter_are_distinct() {
        use crate::params::{MlDsa44, MlDsa87, Parameters, PolyVec};
        fn check<P: Parameters>() {
            let rho_pp = [0x3C; 64];
            let l = P::L as u16;
            let top = u16::MAX - l + 1; // kappa + r reaches exactly 2^16 - 1
            let mut seen: Vec<Poly> = Vec::new();
            for kappa in [0, l, top - l, top] {
                let mut y = P::VecL::zeroed();
                expand_mask_polys::<P>(&rho_pp, kappa, y.as_mut().iter_mut());
                for (r, p) in y.as_ref().iter().enumerate() {
                    // Independently: BitUnpack of H(rho'' || IntegerToBytes(kappa + r, 2)).
                    let mut v = [0u8; 32 * 20];
                    let v = &mut v[..32 * P::Z_BITS];
                    let n = (kappa as u32 + r as u32).to_le_bytes();
                    assert_eq!(n[2], 0, "kappa + r stays below 2^16");
                    crate::hash::keccak::shake256(&[&rho_pp, &n[..2]], v);
                    let mut expect = Poly::ZERO;
                    crate::encoding::pack::bit_unpack_z::<P>(v, &mut expect);
                    assert!(*p == expect, "kappa {kappa}, r {r}");
                    assert!(!seen.contains(p), "kappa {kappa}, r {r} repeats a mask");
                    seen.push(*p);
                }
            }
        }
        check::<MlDsa44>();
        check::<MlDsa87>();
    }

    /// An independent SHAKE (RustCrypto's `shake` crate) over `input`, read a byte at a time as
    /// the FIPS 204 pseudocode reads it.
    fn xof<H>(input: &[u8]) -> impl FnMut() -> u8
    where
        H: Default + shake::digest::Update + shake::digest::ExtendableOutput,
    {
        use shake::digest::XofReader;
        let mut h = H::default();
        h.update(input);
        let mut reader = h.finalize_xof();
        move || {
            let mut b = [0u8; 1];
            reader.read(&mut b);
            b[0]
        }
    }

    /// The pseudocode of FIPS 204 Algorithm 30 (RejNTTPoly), with Algorithm 14 inlined.
    fn rej_ntt_poly_literal(seed: &[u8]) -> [i32; N] {
        let mut next = xof::<shake::Shake128>(seed);
        let mut a = [0; N];
        let mut j = 0;
        while j < N {
            let (b0, b1, b2) = (next() as i32, next() as i32, next() as i32);
            let z = (b2 % 128) * 65536 + b1 * 256 + b0;
            if z < Q {
                a[j] = z;
                j += 1;
            }
        }
        a
    }

    /// The pseudocode of FIPS 204 Algorithm 31 (RejBoundedPoly), with Algorithm 15 inlined.
    fn rej_bounded_poly_literal(eta: i32, seed: &[u8]) -> [i32; N] {
        let coeff_from_half_byte = |b: u8| match eta {
            2 if b < 15 => Some(2 - (b as i32 % 5)),
            4 if b < 9 => Some(4 - b as i32),
            _ => None,
        };
        let mut next = xof::<shake::Shake256>(seed);
        let mut a = [0; N];
        let mut j = 0;
        while j < N {
            let z = next();
            let z0 = coeff_from_half_byte(z % 16);
            let z1 = coeff_from_half_byte(z / 16);
            if let Some(z0) = z0 {
                a[j] = z0;
                j += 1;
            }
            if let Some(z1) = z1
                && j < N
            {
                a[j] = z1;
                j += 1;
            }
        }
        a
    }

    /// The pseudocode of FIPS 204 Algorithm 29 (SampleInBall), as written.
    fn sample_in_ball_literal(tau: usize, rho: &[u8]) -> [i32; N] {
        let mut next = xof::<shake::Shake256>(rho);
        let s: Vec<u8> = (0..8).map(|_| next()).collect();
        let h = |i: usize| (s[i / 8] >> (i % 8)) & 1; // BytesToBits
        let mut c = [0; N];
        for i in N - tau..N {
            let mut j = next() as usize;
            while j > i {
                j = next() as usize;
            }
            c[i] = c[j];
            c[j] = if h(i + tau - N) == 1 { -1 } else { 1 };
        }
        c
    }

    /// Distinct, unremarkable test bytes.
    fn test_bytes<const LEN: usize>(label: u8) -> [u8; LEN] {
        core::array::from_fn(|i| (i as u8).wrapping_mul(73).wrapping_add(label))
    }

    /// ExpandA (Algorithm 32) and RejNTTPoly equal the pseudocode over an independent SHAKE128:
    /// the matrix layout (rho || s || r) and every accepted coefficient.
    #[test]
    fn expand_a_is_the_pseudocode() {
        use crate::params::{Matrix, MlDsa44};
        let rho: [u8; 32] = test_bytes(1);
        let mut a_hat = <MlDsa44 as Parameters>::MatrixA::zeroed();
        expand_a::<MlDsa44>(&rho, &mut a_hat);
        for (r, row) in a_hat.as_ref().iter().enumerate() {
            for (s, entry) in row.as_ref().iter().enumerate() {
                let seed = [&rho[..], &[s as u8, r as u8]].concat();
                assert_eq!(entry.0, rej_ntt_poly_literal(&seed), "A[{r}][{s}]");
            }
        }
    }

    /// ExpandS (Algorithm 33) and RejBoundedPoly equal the pseudocode over an independent
    /// SHAKE256, for eta = 2 and eta = 4: nibble order, rejection, the value map, the index
    /// r (s1) and r + l (s2).
    #[test]
    fn expand_s_is_the_pseudocode() {
        use crate::params::{MlDsa44, MlDsa65, PolyVec};
        fn check<P: Parameters>() {
            for label in 0..if cfg!(miri) { 1 } else { 4 } {
                let rho_prime: [u8; 64] = test_bytes(label);
                let (mut s1, mut s2) = (P::VecL::zeroed(), P::VecK::zeroed());
                expand_s::<P>(&rho_prime, &mut s1, &mut s2);
                let polys = s1.as_ref().iter().chain(s2.as_ref());
                for (r, poly) in polys.enumerate() {
                    let seed = [&rho_prime[..], &(r as u16).to_le_bytes()].concat();
                    let expect = rej_bounded_poly_literal(P::ETA, &seed);
                    assert_eq!(poly.0, expect, "{}, r = {r}", P::NAME);
                }
            }
        }
        check::<MlDsa44>();
        check::<MlDsa65>();
    }

    /// SampleInBall equals the pseudocode over an independent SHAKE256 for every tau and
    /// c-tilde length: positions, the sign bits and the swap.
    #[test]
    fn sample_in_ball_is_the_pseudocode() {
        use crate::params::{MlDsa44, MlDsa65, MlDsa87};
        fn check<P: Parameters>() {
            for label in 0..if cfg!(miri) { 2 } else { 32 } {
                let c_tilde: [u8; 64] = test_bytes(label);
                let c_tilde = &c_tilde[..P::C_TILDE_LEN];
                let mut c = Poly::ZERO;
                sample_in_ball::<P>(crate::hash::keccak::Permutation::PORTABLE, c_tilde)
                    .write_poly(&mut c);
                let expect = sample_in_ball_literal(P::TAU, c_tilde);
                assert_eq!(c.0, expect, "{}, c-tilde {label}", P::NAME);
                assert_eq!(c.0.iter().filter(|&&x| x != 0).count(), P::TAU);
            }
        }
        check::<MlDsa44>();
        check::<MlDsa65>();
        check::<MlDsa87>();
    }

    /// The block-at-a-time reader returns the sponge's output stream, across block boundaries
    /// (SampleInBall almost never reads past its first block, so its tests cannot show this).
    #[test]
    fn squeezed_bytes_cross_blocks() {
        let mut expect = [0u8; 3 * SHAKE256_RATE + 5];
        crate::hash::keccak::shake256(&[b"squeezed bytes"], &mut expect);
        let mut h = Shake256::new();
        h.absorb(b"squeezed bytes");
        h.finalize();
        let mut bytes =
            SqueezedBytes::new(|block: &mut [u8; SHAKE256_RATE]| h.squeeze_block(block));
        let got: Vec<u8> = (0..expect.len()).map(|_| bytes.next()).collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn coeff_from_three_bytes_literal() {
        assert_eq!(coeff_from_three_bytes(0, 0, 0), Some(0));
        assert_eq!(coeff_from_three_bytes(0x00, 0xE0, 0x7F), Some(Q - 1));
        assert_eq!(coeff_from_three_bytes(0x01, 0xE0, 0x7F), None);
        // The top bit of the third byte is ignored.
        assert_eq!(coeff_from_three_bytes(5, 0, 0x80), Some(5));
    }
}
