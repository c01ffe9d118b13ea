//! Two Keccak-f[1600] permutations at once, one per 64-bit lane of 25 NEON registers: in base
//! NEON, and with the Armv8.2-A SHA-3 instructions (`EOR3`, `RAX1`, `XAR`, `BCAX`) where the
//! CPU has them.
//!
//! Layout: register j holds lane j (= x + 5y, FIPS 202 section 3.1.2) of both states, state i
//! in its 64-bit element i (in memory, `[u64; 2]` per lane). The step mappings of FIPS 202
//! section 3.2 act lane-wise, so each one is the scalar formula with `uint64x2_t` operations;
//! the two states never mix.
//!
//! The round is written once (the macros below) over five lane operations, which each
//! instruction set provides in its own module (`ops_neon`, `ops_sha3`); the SHA-3 ones fuse
//! what base NEON does in two or three instructions (a three-way XOR, theta's XOR with a
//! rotation by one, theta's XOR with rho's rotation, chi's and-not with its XOR), which takes a
//! round from about 180 instructions to about 80 (with spills).
//!
//! Constant time: fixed-length arithmetic on lanes; the choice of build depends only on the
//! CPU, never on data.

use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::aarch64::*;

/// The lane operations in base NEON (Armv8-A Advanced SIMD).
mod ops_neon {
    use core::arch::aarch64::*;

    /// Theta's column parity C[x] = A[x, 0] ^ A[x, 1] ^ ... ^ A[x, 4]: four XORs.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor5(
        a: uint64x2_t,
        b: uint64x2_t,
        c: uint64x2_t,
        d: uint64x2_t,
        e: uint64x2_t,
    ) -> uint64x2_t {
        veorq_u64(veorq_u64(veorq_u64(a, b), veorq_u64(c, d)), e)
    }

    /// Theta's D[x] = C[x - 1] ^ rot(C[x + 1], 1): NEON has no 64-bit rotate, so a shift and
    /// a shift-right-and-insert, then the XOR.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn theta_d(c_minus: uint64x2_t, c_plus: uint64x2_t) -> uint64x2_t {
        veorq_u64(c_minus, vsriq_n_u64::<63>(vshlq_n_u64::<1>(c_plus), c_plus))
    }

    /// rot(a ^ d, `L`) (theta's last step, then rho); `R` must be 64 - `L`, with `L` in
    /// 1..=63 (stable Rust cannot compute one from the other as a const parameter).
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor_rol<const L: i32, const R: i32>(a: uint64x2_t, d: uint64x2_t) -> uint64x2_t {
        const { assert!(L > 0 && L < 64 && L + R == 64) };
        let x = veorq_u64(a, d);
        vsriq_n_u64::<R>(vshlq_n_u64::<L>(x), x)
    }

    /// Chi's a ^ (!b & c): BIC then EOR.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
        veorq_u64(a, vbicq_u64(c, b))
    }

    /// a ^ b.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(super) fn xor(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        veorq_u64(a, b)
    }
}

/// The lane operations with the SHA-3 extension (FEAT_SHA3): each one instruction, but
/// `xor5` (two).
mod ops_sha3 {
    use core::arch::aarch64::*;

    /// C[x] with two `EOR3`s.
    #[target_feature(enable = "sha3")]
    #[inline]
    pub(super) fn xor5(
        a: uint64x2_t,
        b: uint64x2_t,
        c: uint64x2_t,
        d: uint64x2_t,
        e: uint64x2_t,
    ) -> uint64x2_t {
        veor3q_u64(veor3q_u64(a, b, c), d, e)
    }

    /// D[x] with `RAX1` (a ^ rot(b, 1)).
    #[target_feature(enable = "sha3")]
    #[inline]
    pub(super) fn theta_d(c_minus: uint64x2_t, c_plus: uint64x2_t) -> uint64x2_t {
        vrax1q_u64(c_minus, c_plus)
    }

    /// rot(a ^ d, `L`) with `XAR` (XOR and rotate right by `R` = 64 - `L`).
    #[target_feature(enable = "sha3")]
    #[inline]
    pub(super) fn xor_rol<const L: i32, const R: i32>(a: uint64x2_t, d: uint64x2_t) -> uint64x2_t {
        const { assert!(L > 0 && L < 64 && L + R == 64) };
        vxarq_u64::<R>(a, d)
    }

    /// Chi's a ^ (!b & c) with `BCAX` (a ^ (c & !b)).
    #[target_feature(enable = "sha3")]
    #[inline]
    pub(super) fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
        vbcaxq_u64(a, c, b)
    }

    /// a ^ b.
    #[target_feature(enable = "sha3")]
    #[inline]
    pub(super) fn xor(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        veorq_u64(a, b)
    }
}

/// Theta's last step, rho and pi for the lane that lands at index `$i` (not 0, whose lane is
/// not rotated): the source lane, XORed with D of its column, rotated by its own offset.
macro_rules! theta_rho_pi {
    ($ops:ident, $a:ident, $d:ident, $i:expr) => {
        $ops::xor_rol::<
            { RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
            { 64 - RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
        >($a[const { PI_SOURCE[$i] }], $d[const { PI_SOURCE[$i] % 5 }])
    };
}

/// Chi on the five B lanes `$b` of one plane, written to `$e[$i]`..`$e[$i + 4]`.
macro_rules! chi_plane {
    ($ops:ident, $b:ident, $e:ident, $i:expr) => {{
        // chi: B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]).
        $e[$i] = $ops::chi($b[0], $b[1], $b[2]);
        $e[$i + 1] = $ops::chi($b[1], $b[2], $b[3]);
        $e[$i + 2] = $ops::chi($b[2], $b[3], $b[4]);
        $e[$i + 3] = $ops::chi($b[3], $b[4], $b[0]);
        $e[$i + 4] = $ops::chi($b[4], $b[0], $b[1]);
    }};
}

/// Theta (applying D), rho, pi, then chi, for the plane of output lanes `$i`..`$i + 4` (one y,
/// not the first), written to `$e`: chi needs only the five B lanes of its plane, so computing
/// plane by plane keeps few registers live (25 lanes, 5 D values and the new plane are more
/// than NEON's 32 registers otherwise).
macro_rules! plane {
    ($ops:ident, $a:ident, $d:ident, $e:ident, $i:literal) => {{
        let b = [
            theta_rho_pi!($ops, $a, $d, { $i }),
            theta_rho_pi!($ops, $a, $d, { $i + 1 }),
            theta_rho_pi!($ops, $a, $d, { $i + 2 }),
            theta_rho_pi!($ops, $a, $d, { $i + 3 }),
            theta_rho_pi!($ops, $a, $d, { $i + 4 }),
        ];
        chi_plane!($ops, b, $e, $i);
    }};
}

/// One round (FIPS 202 section 3.3, Rnd) on the two states `$a`, with round constant `$rc`, in
/// the lane operations of module `$ops`.
macro_rules! round {
    ($ops:ident, $a:ident, $rc:expr) => {{
        let a = $a;
        // theta: C[x] = xor of column x, D[x] = C[x - 1] ^ rot(C[x + 1], 1).
        let c = [
            $ops::xor5(a[0], a[5], a[10], a[15], a[20]),
            $ops::xor5(a[1], a[6], a[11], a[16], a[21]),
            $ops::xor5(a[2], a[7], a[12], a[17], a[22]),
            $ops::xor5(a[3], a[8], a[13], a[18], a[23]),
            $ops::xor5(a[4], a[9], a[14], a[19], a[24]),
        ];
        let d = [
            $ops::theta_d(c[4], c[1]),
            $ops::theta_d(c[0], c[2]),
            $ops::theta_d(c[1], c[3]),
            $ops::theta_d(c[2], c[4]),
            $ops::theta_d(c[3], c[0]),
        ];
        let mut e = a;
        // The first plane: lane (0, 0) is XORed with D but not rotated (its offset is 0).
        let b = [
            $ops::xor(a[0], d[0]),
            theta_rho_pi!($ops, a, d, 1),
            theta_rho_pi!($ops, a, d, 2),
            theta_rho_pi!($ops, a, d, 3),
            theta_rho_pi!($ops, a, d, 4),
        ];
        chi_plane!($ops, b, e, 0);
        plane!($ops, a, d, e, 5);
        plane!($ops, a, d, e, 10);
        plane!($ops, a, d, e, 15);
        plane!($ops, a, d, e, 20);
        // iota
        e[0] = $ops::xor(e[0], vdupq_n_u64($rc));
        e
    }};
}

/// Two states, lane j of state i at `[j][i]`.
pub(crate) type Lanes2 = [[u64; 2]; 25];

/// The 25 registers of two states.
#[target_feature(enable = "neon")]
#[inline]
fn load(state: &Lanes2) -> [uint64x2_t; 25] {
    // SAFETY: each `[u64; 2]` is 16 readable bytes, what `vld1q_u64` reads (it needs only
    // 8-byte alignment, which `u64` has).
    core::array::from_fn(|j| unsafe { vld1q_u64(state[j].as_ptr()) })
}

/// Stores the 25 registers of two states.
#[target_feature(enable = "neon")]
#[inline]
fn store(a: [uint64x2_t; 25], state: &mut Lanes2) {
    for (lane, v) in state.iter_mut().zip(a) {
        // SAFETY: each `[u64; 2]` is 16 writable bytes, what `vst1q_u64` writes.
        unsafe { vst1q_u64(lane.as_mut_ptr(), v) };
    }
}

/// Keccak-f[1600] (FIPS 202 section 3.3) on two states at once, in base NEON.
///
/// Two rounds per loop iteration, as the portable and AVX2 builds (fewer register copies
/// between iterations than one, far less code than all 24).
#[target_feature(enable = "neon")]
#[inline(never)]
pub(crate) fn f1600x2_neon(state: &mut Lanes2) {
    let mut a = load(state);
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        a = round!(ops_neon, a, rc[0]);
        a = round!(ops_neon, a, rc[1]);
    }
    store(a, state);
}

/// Keccak-f[1600] on two states at once with the SHA-3 instructions.
///
/// Four rounds per loop iteration: with a round down to about 70 instructions, the copies and
/// spills between iterations matter more than in base NEON (counted under qemu, per two-state
/// permutation: 2,054 instructions at two rounds per iteration, 1,980 at four, 1,940 with all
/// 24 unrolled).
#[target_feature(enable = "sha3")]
#[inline(never)]
pub(crate) fn f1600x2_sha3(state: &mut Lanes2) {
    let mut a = load(state);
    for rc in ROUND_CONSTANTS.chunks_exact(4) {
        a = round!(ops_sha3, a, rc[0]);
        a = round!(ops_sha3, a, rc[1]);
        a = round!(ops_sha3, a, rc[2]);
        a = round!(ops_sha3, a, rc[3]);
    }
    store(a, state);
}

/// Keccak-f[1600] on one state with the SHA-3 instructions: the state in both elements of
/// each register (the second copy costs nothing: the instructions work on both anyway). Fewer
/// instructions than the scalar build (about 2,130 against 3,690 per permutation, counted under
/// qemu), so the scalar sponges run it where the CPU has the extension.
#[target_feature(enable = "sha3")]
#[inline(never)]
pub(crate) fn f1600_sha3(state: &mut [u64; 25]) {
    let mut a: [uint64x2_t; 25] = core::array::from_fn(|j| vdupq_n_u64(state[j]));
    for rc in ROUND_CONSTANTS.chunks_exact(4) {
        a = round!(ops_sha3, a, rc[0]);
        a = round!(ops_sha3, a, rc[1]);
        a = round!(ops_sha3, a, rc[2]);
        a = round!(ops_sha3, a, rc[3]);
    }
    for (lane, v) in state.iter_mut().zip(a) {
        *lane = vgetq_lane_u64::<0>(v);
    }
}
