//! Rounding and hints (FIPS 204 Algorithms 35-40).
//!
//! Constant time: each function is branch-free arithmetic. Decompose divides by 2 gamma2 with a
//! multiply and a shift (never a hardware `div`, whose latency depends on the dividend), and every
//! "if" of the spec's pseudocode is a mask. The exhaustive tests at the bottom compare each
//! function with a literal transcription of the pseudocode over all of Z_q.

use crate::math::field::Q;
use crate::math::poly::{N, Poly};

/// d, the number of bits dropped from t (FIPS 204 section 4).
pub const D: u32 = 13;

/// FIPS 204 Algorithm 35, Power2Round: r = r1 * 2^d + r0 with r0 in (-2^(d-1), 2^(d-1)].
///
/// Bounds: r in [0, q).
#[inline(always)]
pub(crate) const fn power2_round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// floor(x / (2 gamma2)) for 0 <= x < 2^24, as a multiply and a shift.
///
/// With M = ceil(2^48 / 2 gamma2), the error M * 2 gamma2 - 2^48 < 2 gamma2 < 2^24, which keeps
/// floor(x M / 2^48) exact for every x < 2^24 (the classic Granlund-Montgomery bound). The
/// exhaustive test checks it anyway.
///
/// M is an inline `const` block, so it is computed by the compiler at every optimisation level:
/// a plain `let` made unoptimised builds call `u64::div_ceil` (a `div` instruction, on public
/// constants) for every coefficient, which the div scan of `scripts/ct-check.sh` reports.
#[inline(always)]
const fn div_2gamma2<const GAMMA2: i32>(x: i32) -> i32 {
    let m = const { (1u64 << 48).div_ceil(2 * GAMMA2 as u64) };
    ((x as u64 * m) >> 48) as i32
}

/// FIPS 204 Algorithm 36, Decompose: r = r1 * 2 gamma2 + r0, with r0 in (-gamma2, gamma2] and the
/// wrap-around case r - r0 = q - 1 mapped to r1 = 0, r0 = r0 - 1.
///
/// Bounds: r in [0, q). Output r1 in [0, (q-1)/(2 gamma2)), r0 in [-gamma2, gamma2].
#[inline(always)]
pub(crate) const fn decompose<const GAMMA2: i32>(r: i32) -> (i32, i32) {
    let m = const { (Q - 1) / (2 * GAMMA2) };
    // r0 = r mod+- 2 gamma2 lies in (-gamma2, gamma2], so r1 = floor((r + gamma2 - 1) / 2 gamma2).
    let mut r1 = div_2gamma2::<GAMMA2>(r + GAMMA2 - 1);
    let mut r0 = r - r1 * 2 * GAMMA2;
    // Alg. 36 step 3: if r - r0 = q - 1, that is r1 = m, then r1 = 0 and r0 = r0 - 1.
    // (r1 ^ m) - 1 is negative exactly when r1 = m, because r1 ^ m is small and non-negative.
    let wrap = ((r1 ^ m) - 1) >> 31;
    r1 &= !wrap;
    r0 -= wrap & 1;
    (r1, r0)
}

/// FIPS 204 Algorithm 37, HighBits.
#[inline(always)]
pub(crate) const fn high_bits<const GAMMA2: i32>(r: i32) -> i32 {
    decompose::<GAMMA2>(r).0
}

/// FIPS 204 Algorithm 38, LowBits.
#[inline(always)]
pub(crate) const fn low_bits<const GAMMA2: i32>(r: i32) -> i32 {
    decompose::<GAMMA2>(r).1
}

/// FIPS 204 Algorithm 39, MakeHint: 1 if adding z to r changes its high bits, else 0.
///
/// Bounds: r and r + z both in [0, q) (callers reduce first).
#[inline(always)]
pub(crate) const fn make_hint<const GAMMA2: i32>(z: i32, r: i32) -> i32 {
    let r1 = high_bits::<GAMMA2>(r);
    let v1 = high_bits::<GAMMA2>(r + z);
    // 1 when r1 != v1: a non-zero x has x | -x negative.
    let diff = r1 ^ v1;
    ((diff | diff.wrapping_neg()) >> 31) & 1
}

/// FIPS 204 Algorithm 40, UseHint: the high bits of r, moved by one step in the direction of r0
/// when the hint h is 1.
///
/// Bounds: h in {0, 1}, r in [0, q).
#[inline(always)]
pub(crate) const fn use_hint<const GAMMA2: i32>(h: i32, r: i32) -> i32 {
    let m = const { (Q - 1) / (2 * GAMMA2) };
    let (r1, r0) = decompose::<GAMMA2>(r);
    // Step: +1 when r0 > 0, -1 when r0 <= 0 (the boundary r0 = 0 steps down).
    let up = (-r0) >> 31; // all ones when r0 > 0
    let step = (up & 1) | !up; // 1 when r0 > 0, else -1 (all ones)
    let moved = r1 + (step & -h);
    // (r1 +- 1) mod m: -1 becomes m - 1 and m becomes 0.
    let moved = moved + ((moved >> 31) & m);
    let is_m = ((moved ^ m) - 1) >> 31;
    moved & !is_m
}

/// gamma2 of ML-DSA-44.
pub(crate) const GAMMA2_88: i32 = (Q - 1) / 88;
/// gamma2 of ML-DSA-65 and ML-DSA-87.
pub(crate) const GAMMA2_32: i32 = (Q - 1) / 32;

/// Power2Round on every coefficient of `t`, into (t1, t0).
///
/// Bounds: t in [0, q).
pub(crate) fn power2_round_vec(t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    tick!(Power2Round, t.len());
    for ((t, t1), t0) in t.iter().zip(t1.iter_mut()).zip(t0.iter_mut()) {
        for i in 0..N {
            (t1.0[i], t0.0[i]) = power2_round(t.0[i]);
        }
    }
}

/// HighBits on every coefficient of `w`, into `w1`.
///
/// Bounds: w in [0, q).
pub(crate) fn high_bits_vec<const GAMMA2: i32>(w: &[Poly], w1: &mut [Poly]) {
    tick!(HighBits, w.len());
    for (w, w1) in w.iter().zip(w1.iter_mut()) {
        for i in 0..N {
            w1.0[i] = high_bits::<GAMMA2>(w.0[i]);
        }
    }
}

/// 1 if ||LowBits(r)||_inf >= bound, else 0, looking at every coefficient.
///
/// Constant time: as [`Poly::exceeds`]; only the combined answer depends on r.
/// Bounds: r in [0, q).
pub(crate) fn low_bits_exceed<const GAMMA2: i32>(r: &[Poly], bound: i32) -> u32 {
    tick!(LowBitsCheck, r.len());
    let mut any = 0;
    for r in r {
        let mut r0 = Poly::ZERO;
        for i in 0..N {
            r0.0[i] = low_bits::<GAMMA2>(r.0[i]);
        }
        any |= r0.exceeds(bound);
    }
    any
}

/// MakeHint on every coefficient; returns the number of 1s in h.
///
/// Constant time: the count is computed without branches; whether it exceeds omega is a public
/// decision of the caller, and h itself becomes public once the signature is accepted.
/// Bounds: r and r + z in [0, q) (`r_plus_z` is passed instead of z).
pub(crate) fn make_hint_vec<const GAMMA2: i32>(
    r_plus_z: &[Poly],
    r: &[Poly],
    h: &mut [Poly],
) -> u32 {
    tick!(MakeHint, r.len());
    let mut count = 0u32;
    for ((rz, r), h) in r_plus_z.iter().zip(r.iter()).zip(h.iter_mut()) {
        for i in 0..N {
            let z = rz.0[i] - r.0[i];
            h.0[i] = make_hint::<GAMMA2>(z, r.0[i]);
            count += h.0[i] as u32;
        }
    }
    count
}

/// UseHint on every coefficient, into `w1`.
///
/// Bounds: h in {0, 1}, r in [0, q).
pub(crate) fn use_hint_vec<const GAMMA2: i32>(h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
    tick!(UseHint, r.len());
    for ((h, r), w1) in h.iter().zip(r.iter()).zip(w1.iter_mut()) {
        for i in 0..N {
            w1.0[i] = use_hint::<GAMMA2>(h.0[i], r.0[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Exhaustive comparison, over all of Z_q, with the pseudocode of FIPS 204 written out
    //! literally (i64 arithmetic, `rem_euclid`, branches).
    use super::*;
    use crate::params::Parameters;

    const Q64: i64 = Q as i64;

    /// x mod+- alpha: the representative in (-alpha/2, alpha/2] (FIPS 204 section 2.3).
    fn mod_pm(x: i64, alpha: i64) -> i64 {
        let r = x.rem_euclid(alpha);
        if r > alpha / 2 { r - alpha } else { r }
    }

    fn spec_power2_round(r: i64) -> (i64, i64) {
        let r_plus = r.rem_euclid(Q64);
        let r0 = mod_pm(r_plus, 1 << D);
        ((r_plus - r0) >> D, r0)
    }

    fn spec_decompose(r: i64, gamma2: i64) -> (i64, i64) {
        let r_plus = r.rem_euclid(Q64);
        let mut r0 = mod_pm(r_plus, 2 * gamma2);
        let r1;
        if r_plus - r0 == Q64 - 1 {
            r1 = 0;
            r0 -= 1;
        } else {
            r1 = (r_plus - r0) / (2 * gamma2);
        }
        (r1, r0)
    }

    fn spec_make_hint(z: i64, r: i64, gamma2: i64) -> i64 {
        let r1 = spec_decompose(r, gamma2).0;
        let v1 = spec_decompose(r + z, gamma2).0;
        (r1 != v1) as i64
    }

    fn spec_use_hint(h: i64, r: i64, gamma2: i64) -> i64 {
        let m = (Q64 - 1) / (2 * gamma2);
        let (r1, r0) = spec_decompose(r, gamma2);
        if h == 1 && r0 > 0 {
            return (r1 + 1).rem_euclid(m);
        }
        if h == 1 && r0 <= 0 {
            return (r1 - 1).rem_euclid(m);
        }
        r1
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive over Z_q: days under Miri; run natively")]
    fn power2_round_exhaustive() {
        for r in 0..Q {
            let (r1, r0) = power2_round(r);
            assert_eq!(
                (r1 as i64, r0 as i64),
                spec_power2_round(r as i64),
                "r = {r}"
            );
        }
    }

    fn decompose_family_exhaustive<const GAMMA2: i32>() {
        let g = GAMMA2 as i64;
        for r in 0..Q {
            let (r1, r0) = decompose::<GAMMA2>(r);
            let expect = spec_decompose(r as i64, g);
            assert_eq!((r1 as i64, r0 as i64), expect, "decompose r = {r}");
            assert_eq!(high_bits::<GAMMA2>(r) as i64, expect.0);
            assert_eq!(low_bits::<GAMMA2>(r) as i64, expect.1);
            for h in 0..2 {
                assert_eq!(
                    use_hint::<GAMMA2>(h, r) as i64,
                    spec_use_hint(h as i64, r as i64, g),
                    "use_hint h = {h} r = {r}"
                );
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive over Z_q: days under Miri; run natively")]
    fn decompose_high_low_use_hint_exhaustive_gamma2_88() {
        decompose_family_exhaustive::<{ (Q - 1) / 88 }>();
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive over Z_q: days under Miri; run natively")]
    fn decompose_high_low_use_hint_exhaustive_gamma2_32() {
        decompose_family_exhaustive::<{ (Q - 1) / 32 }>();
    }

    fn make_hint_exhaustive<const GAMMA2: i32>() {
        // MakeHint is called with r and r + z both reduced into [0, q). Every r in Z_q, with z
        // stepping through the whole of (-q, q) in a stride coprime to q, plus the edges.
        let g = GAMMA2 as i64;
        for r in 0..Q {
            for z in [
                -GAMMA2,
                -1,
                0,
                1,
                GAMMA2,
                ((r as i64 * 7919) % Q64) as i32 - r,
            ] {
                let rz = (r as i64 + z as i64).rem_euclid(Q64) as i32;
                let z_reduced = rz - r;
                assert_eq!(
                    make_hint::<GAMMA2>(z_reduced, r) as i64,
                    spec_make_hint(z_reduced as i64, r as i64, g),
                    "make_hint z = {z} r = {r}"
                );
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive over Z_q: days under Miri; run natively")]
    fn make_hint_exhaustive_in_r_gamma2_88() {
        make_hint_exhaustive::<{ (Q - 1) / 88 }>();
    }

    #[test]
    #[cfg_attr(miri, ignore = "exhaustive over Z_q: days under Miri; run natively")]
    fn make_hint_exhaustive_in_r_gamma2_32() {
        make_hint_exhaustive::<{ (Q - 1) / 32 }>();
    }

    /// F-8 / bug class 7: UseHint at r0 = 0 (r a multiple of 2 gamma2) with h = 1 steps *down*
    /// to (r1 - 1) mod m, the boundary that pq-crystals' AVX2 code (`a0 >= 0`), tink-go and
    /// libcrux got wrong; r0 = 1 steps up, r0 = -1 steps down, h = 0 keeps r1. Named cases on
    /// both backends, through the same `Backend` kernels that Verify uses (the exhaustive tests
    /// cover every r, but only of the portable scalar function).
    fn use_hint_at_r0_zero<P: Parameters, const GAMMA2: i32>() {
        use crate::backend::{Backend, Portable};
        let m = (Q - 1) / (2 * GAMMA2);
        // (r, h, expected UseHint); r = k * 2 gamma2 + d has r1 = k, r0 = d for |d| < gamma2.
        let mut cases = Vec::new();
        for k in 0..m {
            let base = k * 2 * GAMMA2;
            assert_eq!(decompose::<GAMMA2>(base), (k, 0), "r0 = 0 at r = {base}");
            cases.push((base, 1, (k - 1).rem_euclid(m)));
            cases.push((base, 0, k));
            cases.push((base + 1, 1, (k + 1) % m));
            if base > 0 {
                cases.push((base - 1, 1, (k - 1).rem_euclid(m)));
            }
        }
        assert_eq!(cases[0], (0, 1, m - 1), "r = 0, h = 1 wraps to m - 1");
        let mut h = [Poly::ZERO];
        let mut r = [Poly::ZERO];
        let mut expect = [Poly::ZERO];
        for chunk in cases.chunks(N) {
            for (i, &(ri, hi, ei)) in chunk.iter().enumerate() {
                (r[0].0[i], h[0].0[i], expect[0].0[i]) = (ri, hi, ei);
            }
            for i in chunk.len()..N {
                (r[0].0[i], h[0].0[i], expect[0].0[i]) = (0, 1, m - 1);
            }
            let mut w1 = [Poly::ZERO];
            Portable.use_hint_vec::<P>(&h, &r, &mut w1);
            assert!(w1 == expect, "{}: portable UseHint at r0 = 0", P::NAME);
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
                let mut w1 = [Poly::ZERO];
                avx2.use_hint_vec::<P>(&h, &r, &mut w1);
                assert!(w1 == expect, "{}: AVX2 UseHint at r0 = 0", P::NAME);
            }
        }
    }

    #[test]
    fn use_hint_at_r0_zero_steps_down() {
        use crate::params::{MlDsa44, MlDsa65};
        use_hint_at_r0_zero::<MlDsa44, GAMMA2_88>();
        use_hint_at_r0_zero::<MlDsa65, GAMMA2_32>();
    }
}
