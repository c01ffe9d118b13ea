//! The kernels the encodings run, which a backend may speed up: [`PackKernels`], whose provided
//! methods are the portable ones. The encodings (`encode`, `pack`) are written once over this
//! trait, and every backend implements it (the backend floor's `Backend` has it as a
//! supertrait), so the encodings run the backend's vector code while this floor imports nothing
//! from the backends: the dependency is inverted by the trait.

use crate::math::poly::Poly;
use crate::params::Parameters;

/// The packing kernels that a backend may speed up (and the norm check sigDecode makes). The
/// provided methods are the portable reference; a backend overrides the ones it does better,
/// with the same results for every input in the domain its `Bounds:` line states.
pub(crate) trait PackKernels: Copy {
    /// A hint polynomial's 1s as the bits of four words (for HintBitPack). Bounds: as
    /// [`crate::encoding::pack::hint_words`].
    #[inline(always)]
    fn hint_words(self, h: &Poly) -> [u64; 4] {
        crate::encoding::pack::hint_words(h)
    }

    /// BitPack(z, gamma1 - 1, gamma1) (FIPS 204 Alg. 17, for sigEncode). Bounds: z in
    /// (-gamma1, gamma1]; `out.len() == 32 * Z_BITS`.
    #[inline(always)]
    fn bit_pack_z<P: Parameters>(self, z: &Poly, out: &mut [u8]) {
        crate::encoding::pack::bit_pack(z, P::GAMMA1, P::Z_BITS, out)
    }

    /// SimpleBitPack of one row of t1 with 10-bit fields (FIPS 204 Alg. 16, for pkEncode's
    /// step 2, Alg. 22). Bounds: t1 in [0, 2^10); `out.len() == 320`.
    #[inline(always)]
    fn t1_pack(self, t1: &Poly, out: &mut [u8]) {
        crate::encoding::encode::pk_encode_row(t1, out)
    }

    /// BitUnpack(v, gamma1 - 1, gamma1) of y or z. Bounds: as [`crate::encoding::pack::bit_unpack_z`].
    #[inline(always)]
    fn bit_unpack_z<P: Parameters>(self, v: &[u8], w: &mut Poly) {
        crate::encoding::pack::bit_unpack_z::<P>(v, w)
    }

    /// ||v||_inf >= bound. Bounds: as [`crate::math::poly::vec_exceeds`].
    #[inline(always)]
    fn vec_exceeds(self, v: &[Poly], bound: i32) -> u32 {
        crate::math::poly::vec_exceeds(v, bound)
    }

    /// t1 * 2^d from one polynomial of pkDecode's t1 (SimpleBitUnpack, FIPS 204 Alg. 18, of
    /// 10-bit fields, times 2^d as Alg. 8 step 10 needs it). Bounds: `v.len() == 320`; out in
    /// [0, q). Contract: [`crate::encoding::pack::simple_bit_unpack_shifted`] with 10 bits, d.
    #[inline(always)]
    fn t1_unpack_shifted(self, v: &[u8], w: &mut Poly) {
        crate::encoding::pack::simple_bit_unpack_shifted(v, 10, crate::params::D, w)
    }

    /// BitUnpack (FIPS 204 Alg. 19) of fields of at most 13 bits (s1, s2, t0 in skDecode).
    /// Contract: [`crate::encoding::pack::bit_unpack`] with `bits` <= 13.
    #[inline(always)]
    fn bit_unpack_narrow(self, v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
        crate::encoding::pack::bit_unpack(v, b, bits, max, w)
    }
}
