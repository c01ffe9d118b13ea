//! "Where the time goes": call counters on the kernels and their costs measured in isolation,
//! for the benchmark's profile table (issue #20). Compiled only with the `profile` feature,
//! which only the benchmark (`bench/`) turns on; not part of the API.
//!
//! Each kernel site calls `tick` (through the crate's `tick!` macro, which is empty without
//! the feature). Counting is off until [`enable`]: then a tick is one relaxed load and a
//! predictable branch, and while on, a relaxed load and store of a static counter (the
//! benchmark measures on one thread). `leaf_costs` (`diagnostics::profile`, above every floor
//! whose kernels it times) times every kernel alone, on the backend in use, and subtracts what
//! the kernels it calls cost (counted, not assumed), so that each category of the table is the
//! kernel's own work. `mldsa::profile` is both modules.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The kernels counted. A call of each is the unit in its doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One scalar Keccak-f\[1600\] permutation (H, G, mu, H(mu || w1), SampleInBall).
    KeccakScalar,
    /// One four-way Keccak-f\[1600\] permutation (the AVX2 samplers).
    Keccak4x,
    /// One eight-way Keccak-f\[1600\] permutation (ExpandA where AVX-512 runs).
    Keccak8x,
    /// One NTT of one polynomial.
    Ntt,
    /// One NTT^-1 of one polynomial.
    NttInverse,
    /// One pointwise product of two NTT-domain polynomials (also each term of A-hat o v).
    Pointwise,
    /// One sparse challenge product c s of one polynomial (c s1, c s2 in signing).
    SparseMul,
    /// One ExpandA of the whole matrix (held), without its Keccak.
    ExpandA,
    /// One fused ExpandA and A-hat o v (KeyGen, Verify), without its Keccak and products.
    ExpandATimes,
    /// One ExpandS (s1 and s2), without its Keccak.
    ExpandS,
    /// One mask polynomial of ExpandMask (y), without its Keccak.
    ExpandMask,
    /// One SampleInBall, without its Keccak.
    SampleInBall,
    /// Power2Round of one polynomial.
    Power2Round,
    /// HighBits of one polynomial.
    HighBits,
    /// The LowBits norm check of one polynomial.
    LowBitsCheck,
    /// MakeHint of one polynomial.
    MakeHint,
    /// UseHint of one polynomial.
    UseHint,
    /// The infinity-norm check of one polynomial.
    NormCheck,
    /// One pkEncode.
    PkEncode,
    /// One pkDecode.
    PkDecode,
    /// One skEncode.
    SkEncode,
    /// One skDecode (with its range checks).
    SkDecode,
    /// One sigEncode.
    SigEncode,
    /// One sigDecode, without its norm check.
    SigDecode,
    /// w1Encode of one polynomial (verification encodes a row at a time).
    W1Encode,
}

/// Number of [`Kernel`]s.
pub const KERNELS: usize = 25;

/// The table's columns, each a group of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Scalar Keccak.
    KeccakScalar,
    /// Four- and eight-way Keccak.
    Keccak4x,
    /// NTT.
    Ntt,
    /// NTT^-1.
    NttInverse,
    /// Pointwise products, and the sparse challenge products that replace some of them.
    Pointwise,
    /// Sampling and rejection (the samplers' own work).
    Sampling,
    /// Rounding, hints and norm checks.
    Rounding,
    /// Encoding and decoding keys, signatures and w1.
    Packing,
}

impl Category {
    /// Every category, in table order.
    pub const ALL: [Category; 8] = [
        Category::KeccakScalar,
        Category::Keccak4x,
        Category::Ntt,
        Category::NttInverse,
        Category::Pointwise,
        Category::Sampling,
        Category::Rounding,
        Category::Packing,
    ];

    /// The column heading.
    pub fn name(self) -> &'static str {
        match self {
            Category::KeccakScalar => "Keccak (scalar)",
            Category::Keccak4x => "Keccak (4/8-way)",
            Category::Ntt => "NTT",
            Category::NttInverse => "NTT^-1",
            Category::Pointwise => "pointwise",
            Category::Sampling => "sampling, rejection",
            Category::Rounding => "rounding, hints, norms",
            Category::Packing => "packing",
        }
    }
}

impl Kernel {
    /// Every kernel: the leaves (which call no other counted kernel) first, so that
    /// [`leaf_costs`] can subtract them from the kernels that call them.
    pub const ALL: [Kernel; KERNELS] = [
        Kernel::KeccakScalar,
        Kernel::Keccak4x,
        Kernel::Keccak8x,
        Kernel::Ntt,
        Kernel::NttInverse,
        Kernel::Pointwise,
        Kernel::SparseMul,
        Kernel::Power2Round,
        Kernel::HighBits,
        Kernel::LowBitsCheck,
        Kernel::MakeHint,
        Kernel::UseHint,
        Kernel::NormCheck,
        Kernel::PkEncode,
        Kernel::PkDecode,
        Kernel::SkEncode,
        Kernel::SkDecode,
        Kernel::SigEncode,
        Kernel::W1Encode,
        Kernel::ExpandA,
        Kernel::ExpandATimes,
        Kernel::ExpandS,
        Kernel::ExpandMask,
        Kernel::SampleInBall,
        Kernel::SigDecode,
    ];

    /// The column it is counted in.
    pub fn category(self) -> Category {
        match self {
            Kernel::KeccakScalar => Category::KeccakScalar,
            Kernel::Keccak4x | Kernel::Keccak8x => Category::Keccak4x,
            Kernel::Ntt => Category::Ntt,
            Kernel::NttInverse => Category::NttInverse,
            Kernel::Pointwise | Kernel::SparseMul => Category::Pointwise,
            Kernel::ExpandA
            | Kernel::ExpandATimes
            | Kernel::ExpandS
            | Kernel::ExpandMask
            | Kernel::SampleInBall => Category::Sampling,
            Kernel::Power2Round
            | Kernel::HighBits
            | Kernel::LowBitsCheck
            | Kernel::MakeHint
            | Kernel::UseHint
            | Kernel::NormCheck => Category::Rounding,
            Kernel::PkEncode
            | Kernel::PkDecode
            | Kernel::SkEncode
            | Kernel::SkDecode
            | Kernel::SigEncode
            | Kernel::SigDecode
            | Kernel::W1Encode => Category::Packing,
        }
    }
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static COUNTS: [AtomicU64; KERNELS] = [const { AtomicU64::new(0) }; KERNELS];

/// Counts `n` calls of `k` (while counting is on).
#[inline(always)]
pub(crate) fn tick(k: Kernel, n: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        let c = &COUNTS[k as usize];
        c.store(c.load(Ordering::Relaxed) + n as u64, Ordering::Relaxed);
    }
}

/// The pointwise products of A-hat o v over `rows` rows (zip semantics, as the kernels pair
/// them).
pub(crate) fn matrix_terms<T, Row: AsRef<[T]>>(a_hat: &[Row], v: &[T], rows: usize) -> usize {
    a_hat
        .iter()
        .take(rows)
        .map(|row| row.as_ref().len().min(v.len()))
        .sum()
}

/// Turns counting on (and zeroes the counts) or off. One thread at a time: the counters are
/// plain loads and stores.
pub fn enable(on: bool) {
    reset();
    ENABLED.store(on, Ordering::Relaxed);
}

/// Zeroes the counts.
pub fn reset() {
    for c in &COUNTS {
        c.store(0, Ordering::Relaxed);
    }
}

/// The calls counted since the last [`reset`], indexed by `Kernel as usize`.
pub fn counts() -> [u64; KERNELS] {
    core::array::from_fn(|i| COUNTS[i].load(Ordering::Relaxed))
}
