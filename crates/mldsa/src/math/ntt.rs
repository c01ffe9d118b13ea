//! The number-theoretic transform and arithmetic in T_q (FIPS 204 Algorithms 41-48).
//!
//! Representation: [`NttPoly`] values are plain residues (not Montgomery form), so the NTT of a
//! polynomial can be compared with FIPS 204's NTT coefficient by coefficient mod q. The twiddle
//! factors are kept in Montgomery form, so one Montgomery multiplication applies them exactly.
//! [`multiply_ntt`] returns a * b * 2^-32, and [`ntt_inverse`] multiplies by 2^32 to compensate,
//! so `ntt_inverse(multiply_ntt(a, b))` is exactly FIPS 204's NTT^-1(a o b). Every use of
//! `ntt_inverse` in ML-DSA follows a product.

use crate::math::field::Q;
use crate::math::field::{mont_mul, montgomery_reduce, reduce32};
use crate::math::poly::{N, NttPoly, Poly};

/// zeta = 1753, a primitive 512th root of unity mod q (FIPS 204 section 7.5).
const ZETA: u64 = 1753;

/// x^e mod q, at compile time.
pub(crate) const fn pow_mod(x: u64, mut e: u64) -> u64 {
    let q = Q as u64;
    let mut base = x % q;
    let mut acc = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % q;
        }
        base = base * base % q;
        e >>= 1;
    }
    acc
}

/// FIPS 204 Algorithm 43, BitRev8.
pub(crate) const fn bit_rev8(m: u8) -> u8 {
    m.reverse_bits()
}

/// Montgomery form of x mod q, centred in (-q/2, q/2]: x * 2^32 mod q.
const fn to_mont_centred(x: u64) -> i32 {
    let r = ((x % Q as u64) << 32) % Q as u64;
    if r > (Q as u64) / 2 {
        r as i32 - Q
    } else {
        r as i32
    }
}

/// zetas[m] = zeta^BitRev8(m) * 2^32 mod q (FIPS 204 Appendix B, in Montgomery form).
///
/// Computed at compile time from zeta, not pasted.
static ZETAS: [i32; N] = {
    let mut t = [0i32; N];
    let mut m = 0;
    while m < N {
        t[m] = zeta_mont(m);
        m += 1;
    }
    t
};

/// ZETAS\[m\] as a constant function, for backends that lay the twiddles out their own way at
/// compile time (a static cannot be read in a constant).
pub(crate) const fn zeta_mont(m: usize) -> i32 {
    to_mont_centred(pow_mod(ZETA, bit_rev8(m as u8) as u64))
}

/// The twiddle table, for tests elsewhere in the crate.
#[cfg(test)]
pub(crate) fn zetas() -> &'static [i32; N] {
    &ZETAS
}

/// 2^64 / 256 mod q: multiplies by 256^-1 (the end of Alg. 42) and by 2^32 (undoing the 2^-32
/// that [`multiply_ntt`] left), in one Montgomery multiplication.
pub(crate) const INV_NTT_SCALE: i32 = {
    let inv256 = pow_mod(256, Q as u64 - 2);
    to_mont_centred(to_mont_centred(inv256).rem_euclid(Q) as u64)
};

/// FIPS 204 Algorithm 41, NTT.
///
/// Bounds: input |c| < q; output |c| < 9q.
pub(crate) fn ntt(w: &Poly, out: &mut NttPoly) {
    tick!(Ntt, 1);
    let a = &mut out.0;
    a.copy_from_slice(&w.0);
    let mut m = 0;
    let mut len = 128;
    while len >= 1 {
        let mut start = 0;
        while start < N {
            m += 1;
            let z = ZETAS[m];
            for j in start..start + len {
                let t = mont_mul(z, a[j + len]);
                a[j + len] = a[j].wrapping_sub(t);
                a[j] = a[j].wrapping_add(t);
            }
            start += 2 * len;
        }
        len /= 2;
    }
}

/// FIPS 204 Algorithm 42, NTT^-1, times 2^32 (see the module docs).
///
/// Bounds: input |c| < q (the sums double at each of the 8 layers and 256 q < 2^31); output
/// |c| < q.
pub(crate) fn ntt_inverse(w_hat: &NttPoly, out: &mut Poly) {
    tick!(NttInverse, 1);
    debug_assert!(w_hat.0.iter().all(|c| c.abs() < Q), "Bounds: NTT^-1 input");
    let a = &mut out.0;
    a.copy_from_slice(&w_hat.0);
    let mut m = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            m -= 1;
            let z = -ZETAS[m];
            for j in start..start + len {
                let t = a[j];
                a[j] = t.wrapping_add(a[j + len]);
                a[j + len] = mont_mul(z, t.wrapping_sub(a[j + len]));
            }
            start += 2 * len;
        }
        len *= 2;
    }
    for c in a.iter_mut() {
        *c = mont_mul(INV_NTT_SCALE, *c);
    }
}

/// FIPS 204 Algorithm 45, MultiplyNTT: a o b * 2^-32 (see the module docs).
///
/// Bounds: |a_i * b_i| <= 2^31 q (inputs below 9q qualify); output |c| < q.
pub(crate) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    tick!(Pointwise, 1);
    for ((o, &x), &y) in out.0.iter_mut().zip(a.0.iter()).zip(b.0.iter()) {
        *o = mont_mul(x, y);
    }
}

/// FIPS 204 Algorithm 47, ScalarVectorNTT: c o v for c in T_q and v in T_q^len.
///
/// Bounds: as [`multiply_ntt`]. Signing's challenge products are sparse ([`crate::math::sparse`]);
/// this is the reference their tests check against.
#[cfg(test)]
pub(crate) fn scalar_vector_ntt(c: &NttPoly, v: &[NttPoly], out: &mut [NttPoly]) {
    for (o, p) in out.iter_mut().zip(v.iter()) {
        multiply_ntt(c, p, o);
    }
}

/// FIPS 204 Algorithm 48, MatrixVectorNTT: w = A-hat o v, times 2^-32, reduced.
/// FIPS 204 Algorithm 44, AddNTT (fused: the sums of products below).
/// FIPS 204 Algorithm 46, AddVectorNTT (fused: the sums of products below).
///
/// The products of a row are summed in 64 bits and reduced once, which is exact while
/// l * max|a_ij * v_j| <= 2^31 q: A-hat entries lie in [0, q) (RejNTTPoly) and |v_j| < 9q (NTT
/// output), so the sum stays below 7 * 9 q^2 < 2^31 q. Output |c| <= 6283009 < q, ready for
/// [`ntt_inverse`].
pub(crate) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(Pointwise, terms(a_hat, v, out.len()));
    for (w_i, row) in out.iter_mut().zip(a_hat.iter()) {
        for n in 0..N {
            let mut acc = 0i64;
            for (a_ij, v_j) in row.as_ref().iter().zip(v.iter()) {
                acc += a_ij.0[n] as i64 * v_j.0[n] as i64;
            }
            w_i.0[n] = reduce32(montgomery_reduce(acc));
        }
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // index-by-index comparisons read best here
mod tests {
    use super::*;

    /// The NTT straight from its definition: w_hat[i] = sum_j w[j] zeta^((2 BitRev8(i) + 1) j).
    fn ntt_by_definition(w: &[i32; N]) -> [i64; N] {
        let q = Q as i64;
        let mut out = [0i64; N];
        for (i, o) in out.iter_mut().enumerate() {
            let root = pow_mod(ZETA, 2 * bit_rev8(i as u8) as u64 + 1) as i64;
            let mut acc = 0i64;
            let mut power = 1i64;
            for &c in w.iter() {
                acc = (acc + c as i64 * power).rem_euclid(q);
                power = power * root % q;
            }
            *o = acc;
        }
        out
    }

    fn sample_poly(seed: u32) -> Poly {
        let mut p = Poly::ZERO;
        let mut x = seed;
        for c in p.0.iter_mut() {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            *c = (x % (2 * Q as u32 - 1)) as i32 - (Q - 1);
        }
        p
    }

    #[test]
    fn zeta_is_a_primitive_512th_root() {
        assert_eq!(pow_mod(ZETA, 512), 1);
        assert_eq!(pow_mod(ZETA, 256), Q as u64 - 1);
    }

    #[test]
    fn ntt_matches_definition() {
        // One seed under Miri (M-1): each is 2^16 steps of the definition.
        for seed in 0..if cfg!(miri) { 1 } else { 4 } {
            let p = sample_poly(seed);
            let mut hat = NttPoly::ZERO;
            ntt(&p, &mut hat);
            let expect = ntt_by_definition(&p.0);
            for i in 0..N {
                assert!(hat.0[i].abs() < 9 * Q);
                assert_eq!((hat.0[i] as i64).rem_euclid(Q as i64), expect[i]);
            }
        }
    }

    #[test]
    fn inverse_of_product_is_negacyclic_product() {
        let a = sample_poly(7);
        let b = sample_poly(8);
        let (mut a_hat, mut b_hat, mut prod) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
        ntt(&a, &mut a_hat);
        ntt(&b, &mut b_hat);
        multiply_ntt(&a_hat, &b_hat, &mut prod);
        let mut c = Poly::ZERO;
        ntt_inverse(&prod, &mut c);
        // Schoolbook product in Z_q[X]/(X^256 + 1).
        let q = Q as i64;
        let mut expect = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let v = a.0[i] as i64 * b.0[j] as i64 % q;
                if i + j < N {
                    expect[i + j] += v;
                } else {
                    expect[i + j - N] -= v;
                }
            }
        }
        for i in 0..N {
            assert!(c.0[i].abs() < Q);
            assert_eq!((c.0[i] as i64).rem_euclid(q), expect[i].rem_euclid(q));
        }
    }
}
