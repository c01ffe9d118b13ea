//! Arithmetic in Z_q, q = 8380417 = 2^23 - 2^13 + 1.
//!
//! Constant time: every function here is straight-line integer arithmetic (multiply, add, shift,
//! mask). None divides: a hardware `div` on secret data has data-dependent latency (the RustCrypto
//! Decompose leak, CVE-2026-22705). Wrapping operations are written out so that debug-build
//! overflow checks do not add branches on secrets.

/// q, the ML-DSA modulus (FIPS 204 section 4).
pub const Q: i32 = 8_380_417;

/// q^-1 mod 2^32, for Montgomery reduction.
const Q_INV: i32 = 58_728_449;

// Q_INV really is the inverse of q modulo 2^32.
const _: () = assert!((Q as u32).wrapping_mul(Q_INV as u32) == 1);

/// FIPS 204 Algorithm 49, MontgomeryReduce.
///
/// Bounds: for |a| <= 2^31 * q, returns r = a * 2^-32 mod q with -q < r < q.
#[inline(always)]
pub(crate) const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(Q_INV);
    ((a - (t as i64) * (Q as i64)) >> 32) as i32
}

/// Montgomery product a * b * 2^-32 mod q.
///
/// Bounds: |a * b| <= 2^31 * q; result in (-q, q).
#[inline(always)]
pub(crate) const fn mont_mul(a: i32, b: i32) -> i32 {
    montgomery_reduce(a as i64 * b as i64)
}

/// A representative of a mod q, computed without division.
///
/// Bounds: for a <= 2^31 - 2^22 - 1, returns r = a mod q with -6283009 <= r <= 6283008. (The
/// lower end is reached at a single input, a = -2143289344; the exhaustive test found it, one
/// below the bound usually quoted for this reduction.)
#[inline(always)]
pub(crate) const fn reduce32(a: i32) -> i32 {
    // (a + 2^22) >> 23 approximates a / q, because q is just below 2^23.
    let t = a.wrapping_add(1 << 22) >> 23;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// Adds q if a is negative.
///
/// Bounds: for -q <= a < q, returns a mod q in [0, q).
#[inline(always)]
pub(crate) const fn caddq(a: i32) -> i32 {
    a.wrapping_add((a >> 31) & Q)
}

/// The representative of a mod q in [0, q).
///
/// Bounds: a <= 2^31 - 2^22 - 1 (the domain of [`reduce32`]).
#[inline(always)]
pub(crate) const fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// a mod+- q: the representative in [-(q-1)/2, (q-1)/2] of a in [0, q).
#[cfg(test)]
#[inline(always)]
pub(crate) const fn center(a: i32) -> i32 {
    // Subtract q when a > (q-1)/2: the sign bit of ((q-1)/2 - a) makes the mask.
    a.wrapping_sub((((Q - 1) / 2).wrapping_sub(a) >> 31) & Q)
}

/// |a| for a in (-2^31, 2^31), without a branch.
#[inline(always)]
pub(crate) const fn abs(a: i32) -> i32 {
    let sign = a >> 31;
    (a ^ sign).wrapping_sub(sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modq(a: i64) -> i64 {
        a.rem_euclid(Q as i64)
    }

    #[test]
    fn montgomery_reduce_on_products() {
        // a * b for a, b spread over (-q, q): the result is a*b*2^-32 mod q, inside (-q, q).
        let r_inv = {
            // 2^-32 mod q, by Fermat: (2^32)^(q-2).
            let mut base = (1i64 << 32) % Q as i64;
            let mut e = Q as i64 - 2;
            let mut acc = 1i64;
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc * base % Q as i64;
                }
                base = base * base % Q as i64;
                e >>= 1;
            }
            acc
        };
        let mut a = -(Q as i64) + 1;
        while a < Q as i64 {
            for b in [-(Q as i64) + 1, -1, 0, 1, 12345, 4_190_208, Q as i64 - 1] {
                let r = montgomery_reduce(a * b) as i64;
                assert!(r > -(Q as i64) && r < Q as i64);
                assert_eq!(modq(r), modq(modq(a * b) * r_inv));
            }
            a += 997;
        }
    }

    #[test]
    fn reduce32_on_its_domain_edges_and_samples() {
        let hi = i32::MAX - (1 << 22);
        let mut checks = vec![i32::MIN, i32::MIN + 1, -1, 0, 1, Q - 1, Q, hi - 1, hi];
        // 10^5 samples spread over the whole i32 range; 10^3 (100 times sparser) under Miri.
        let (samples, stride) = if cfg!(miri) {
            (1_000, 4_294_700)
        } else {
            (100_000, 42_947)
        };
        checks.extend(
            (0..samples)
                .map(|i: i32| i32::MIN.wrapping_add(i.wrapping_mul(stride)))
                .filter(|&a| a <= hi),
        );
        for a in checks {
            let r = reduce32(a);
            assert_eq!(modq(r as i64), modq(a as i64), "a = {a}");
            assert!((-6_283_009..=6_283_008).contains(&r), "a = {a}, r = {r}");
            assert_eq!(freeze(a) as i64, modq(a as i64));
        }
    }

    /// Runs `check` on every i32 in [lo, hi], split over two threads (F-5: whole domains).
    fn for_every_i32(lo: i32, hi: i32, check: impl Fn(i32) -> bool + Sync) {
        let mid = lo + ((hi as i64 - lo as i64) / 2) as i32;
        std::thread::scope(|s| {
            let halves = [(lo, mid), (mid.saturating_add(1), hi)];
            let handles = halves.map(|(a, b)| {
                let check = &check;
                s.spawn(move || {
                    // Bad inputs are counted (not asserted one by one) so the loop vectorises.
                    (a..=b).filter(|&x| !check(x)).count()
                })
            });
            for h in handles {
                assert_eq!(h.join().unwrap(), 0);
            }
        });
    }

    /// F-5: reduce32 and freeze on every input of their domain, i32::MIN ..= 2^31 - 2^22 - 1.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive over 2^32 / Z_q: days under Miri; run natively"
    )]
    fn reduce32_and_freeze_exhaustive() {
        // The one input that reaches the lower end of the documented range.
        assert_eq!(reduce32(-2_143_289_344), -6_283_009);
        let q = Q as i64;
        for_every_i32(i32::MIN, i32::MAX - (1 << 22), |a| {
            let r = reduce32(a);
            (r as i64 - a as i64) % q == 0
                && (-6_283_009..=6_283_008).contains(&r)
                && freeze(a) as i64 == (a as i64).rem_euclid(q)
        });
    }

    /// F-5: abs on all of (-2^31, 2^31); caddq on [-q, q); center on [0, q).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive over 2^32 / Z_q: days under Miri; run natively"
    )]
    fn abs_caddq_center_exhaustive() {
        for_every_i32(i32::MIN + 1, i32::MAX, |a| {
            abs(a) as i64 == (a as i64).abs()
        });
        for_every_i32(-Q, Q - 1, |a| {
            caddq(a) as i64 == (a as i64).rem_euclid(Q as i64)
        });
        for_every_i32(0, Q - 1, |a| {
            let c = center(a);
            c.abs() <= (Q - 1) / 2 && (c as i64).rem_euclid(Q as i64) == a as i64
        });
    }

    /// F-5: Montgomery multiplication by every twiddle factor, on every 61st value of (-q, q)
    /// and the ends, and by every twiddle on the largest inputs the NTT bounds allow (9q).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "exhaustive over 2^32 / Z_q: days under Miri; run natively"
    )]
    fn mont_mul_by_every_zeta() {
        let q = Q as i64;
        let r_inv = crate::math::ntt::pow_mod(1 << 32, Q as u64 - 2) as i64;
        for &z in crate::math::ntt::zetas().iter() {
            let inputs = (-(Q - 1)..Q).step_by(61).chain([
                -(Q - 1),
                -1,
                0,
                1,
                Q - 1,
                9 * Q - 1,
                -(9 * Q - 1),
            ]);
            for a in inputs {
                let r = mont_mul(z, a) as i64;
                assert!(r > -q && r < q, "z = {z}, a = {a}");
                assert_eq!(
                    r.rem_euclid(q),
                    (z as i64 * a as i64).rem_euclid(q) * r_inv % q
                );
            }
        }
    }

    #[test]
    fn center_and_abs() {
        for a in [0, 1, (Q - 1) / 2, (Q + 1) / 2, Q - 1] {
            let c = center(a);
            assert_eq!(modq(c as i64), a as i64);
            assert!(c.abs() <= (Q - 1) / 2);
            assert_eq!(abs(c), c.abs());
        }
    }
}
