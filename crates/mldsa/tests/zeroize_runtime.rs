//! Z-1, the run-time half: after key generation, signing and key drop on a worker thread, no
//! copy of rho', K, rho'' or of any window of s1, s2, t0 remains on that thread's dead stack or
//! in a freed heap block (FIPS 204 section 3.6.3; shared/ASSURANCE.md item 19 and section 3.10).
//!
//! Method:
//!
//! - **Needles**: the secrets, derived here independently of the library from the seed xi with
//!   RustCrypto's `shake` (rho' and K from H(xi || k || l, 128), rho'' from H(K || rnd || mu)),
//!   and from the expanded key bytes the library exports (s1, s2, t0, decoded here per FIPS 204
//!   Algorithms 25, 17 and 19), in every form the library keeps them in memory: the whole byte
//!   strings and their 8-byte lanes (the Keccak state and the AVX2 4-way Keccak hold secrets as
//!   lanes), 16-byte windows of the packed encodings, and windows of 16 consecutive
//!   coefficients as 32-bit words of the coefficient form, of the NTT form (FIPS 204 Algorithm
//!   41, computed here) and of the NTT form in Montgomery representation (x * 2^32), and for s1
//!   and s2 as signed bytes (the form keys hold them in). Word
//!   windows are compared modulo q (every word with |w| < 16q is reduced to [0, q) before the
//!   comparison), because the library's arithmetic is lazy: an NTT value may sit in memory as
//!   any representative up to 9q. Low-entropy windows (few distinct values) are left out.
//! - **Heap**: this binary's `#[global_allocator]` wraps `System` and, while armed, scans every
//!   block handed back to it (`dealloc`, and the old block of `realloc`) before freeing it. It
//!   never allocates: the needle table is built beforehand and published through an atomic
//!   pointer, and hits go to atomic counters.
//! - **Stack**: on a fresh thread with a large stack, the operation's inputs are prepared, a
//!   region below the current frame is painted (as in tests/stack.rs, which wipes whatever
//!   the preparation left there), the operation runs (it drops every key it touched), and the
//!   painted region, dead by then, is scanned.
//!
//! Every operation, parameter set and backend (AVX-512 and AVX2 where the CPU has them, and the
//! portable one) runs separately, so a hit names the operation that left the copy. `planted_leaks_are_found`
//! shows that both scans find planted copies, and that the needles match what a live key really
//! holds (a key freed without its `Drop` must show every window). Since 2026-11-27 no key holds
//! an NTT-domain secret (signing multiplies c by s1, s2 and t0 sparsely), so the NTT-form
//! needles, which catch transient copies (keygen's NTT(s1)), are no longer checked that way.
//!
//! Not covered: CPU registers, signal stacks, the seed xi itself (the harness holds copies of it;
//! the library's copy in `SigningKey` is wiped by its `Drop`, checked by `zeroize_types.rs`),
//! the mask y and other per-signature intermediates, and secrets in forms other than the ones
//! listed (for example the AVX2 samplers' 16-bit lanes).
//!
//! Run with `cargo test -p mldsa --test zeroize_runtime -- --nocapture` to see the table.

#[path = "common/counting_rng.rs"]
mod counting_rng;
#[path = "common/stack_paint.rs"]
mod stack_paint;

use counting_rng::CountingRng;
use stack_paint::Region;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use mldsa::backend::{BackendKind, active_backend, force_avx2, force_portable};
use mldsa::legacy::{
    self, Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet,
};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use shake::digest::{ExtendableOutput, Update, XofReader};
use zeroize::{Zeroize, Zeroizing};

// ---------------------------------------------------------------------------------------------
// Needles: what the secrets look like in memory.
// ---------------------------------------------------------------------------------------------

const Q: i64 = 8_380_417;
/// Coefficients per word needle.
const WINDOW: usize = 16;
/// Bytes per window of a packed encoding.
const PACKED_WINDOW: usize = 16;
/// Words with |w| below this are read as residues mod q (lazy NTT outputs stay below 9q).
const CANON_BOUND: i64 = 16 * Q;
/// A word that is not a residue (|w| >= CANON_BOUND); never part of a needle.
const NOT_RESIDUE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Secret {
    /// The seed xi (the private key itself; the harness only ever hands it over by reference).
    Seed,
    RhoPrime,
    K,
    /// rho'' of the signatures the operations make (a secret: with it, y and then s1 follow
    /// from a signature).
    RhoPP,
    S1,
    S2,
    T0,
}

const SECRETS: [Secret; 7] = [
    Secret::Seed,
    Secret::RhoPrime,
    Secret::K,
    Secret::RhoPP,
    Secret::S1,
    Secret::S2,
    Secret::T0,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// The whole byte string (rho' 64 B, K 32 B, rho'' 64 B).
    Whole,
    /// One 8-byte lane of it.
    Lane,
    /// 16 bytes of the skEncode packing.
    Packed,
    /// 16 coefficients, as 32-bit words, mod q.
    Coeffs,
    /// 16 NTT-domain values, as 32-bit words, mod q.
    Ntt,
    /// 16 NTT-domain values times 2^32 (Montgomery form), mod q.
    NttMont,
    /// 16 coefficients as signed bytes (how keys hold s1 and s2).
    Small,
}

const FORMS: [Form; 7] = [
    Form::Whole,
    Form::Lane,
    Form::Packed,
    Form::Coeffs,
    Form::Ntt,
    Form::NttMont,
    Form::Small,
];
const KINDS: usize = SECRETS.len() * FORMS.len();

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kind {
    secret: Secret,
    form: Form,
}

impl Kind {
    fn index(self) -> usize {
        self.secret as usize * FORMS.len() + self.form as usize
    }

    fn from_index(i: usize) -> Self {
        Kind {
            secret: SECRETS[i / FORMS.len()],
            form: FORMS[i % FORMS.len()],
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match self.form {
            Form::Whole => "whole",
            Form::Lane => "8-byte lane",
            Form::Packed => "16 B of packed encoding",
            Form::Coeffs => "16 coefficients",
            Form::Ntt => "16 NTT values",
            Form::NttMont => "16 NTT values (Montgomery)",
            Form::Small => "16 coefficients as bytes",
        };
        write!(f, "{:?} ({form})", self.secret)
    }
}

struct ByteNeedle {
    /// The first 8 bytes, little-endian.
    key: u64,
    kind: Kind,
    len: usize,
    data: [u8; 64],
}

struct WordNeedle {
    /// The first two canonical words: `data[0] << 32 | data[1]`.
    key: u64,
    kind: Kind,
    /// Canonical residues in [0, q).
    data: [u32; WINDOW],
}

/// Bits of the prefilters' hash.
const FILTER_BITS: u32 = 18;

fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FILTER_BITS)) as usize
}

fn filter_has(filter: &[u64], key: u64) -> bool {
    let s = slot(key);
    filter[s / 64] >> (s % 64) & 1 == 1
}

/// Every needle of one run, sorted by key, with a bit-set prefilter per table. Wiped on drop
/// (it is itself a copy of the secrets).
struct Needles {
    bytes: Vec<ByteNeedle>,
    words: Vec<WordNeedle>,
    byte_filter: Vec<u64>,
    word_filter: Vec<u64>,
    /// Needles per kind, for the report.
    counts: [usize; KINDS],
}

impl Drop for Needles {
    fn drop(&mut self) {
        for n in &mut self.bytes {
            n.key.zeroize();
            n.data.zeroize();
        }
        for n in &mut self.words {
            n.key.zeroize();
            n.data.zeroize();
        }
    }
}

/// Collects needles; [`NeedleBuilder::finish`] sorts them and builds the filters.
///
/// The harness must not leave copies of the secrets in freed heap blocks either (a later
/// allocation's unwritten spare capacity could carry them into a scanned block): buffers are
/// sized once (no `realloc`), sorted in place, and wiped on drop.
struct NeedleBuilder {
    bytes: Vec<ByteNeedle>,
    words: Vec<WordNeedle>,
}

impl Default for NeedleBuilder {
    fn default() -> Self {
        Self {
            bytes: Vec::with_capacity(4096),
            words: Vec::with_capacity(4096),
        }
    }
}

fn canon(w: u32) -> u32 {
    let v = w as i32 as i64;
    if v.abs() < CANON_BOUND {
        v.rem_euclid(Q) as u32
    } else {
        NOT_RESIDUE
    }
}

impl NeedleBuilder {
    fn bytes(&mut self, kind: Kind, data: &[u8]) {
        assert!((8..=64).contains(&data.len()));
        let mut d = [0u8; 64];
        d[..data.len()].copy_from_slice(data);
        self.bytes.push(ByteNeedle {
            key: u64::from_le_bytes(data[..8].try_into().unwrap()),
            kind,
            len: data.len(),
            data: d,
        });
    }

    /// A secret byte string: whole, and each 8-byte lane.
    fn string(&mut self, secret: Secret, data: &[u8]) {
        self.bytes(
            Kind {
                secret,
                form: Form::Whole,
            },
            data,
        );
        for lane in data.chunks_exact(8) {
            self.bytes(
                Kind {
                    secret,
                    form: Form::Lane,
                },
                lane,
            );
        }
    }

    /// Non-overlapping 16-byte windows of a packed encoding, skipping dull ones.
    fn packed(&mut self, secret: Secret, data: &[u8]) {
        for w in data.chunks_exact(PACKED_WINDOW) {
            let mut seen = [false; 256];
            w.iter().for_each(|&b| seen[b as usize] = true);
            if seen.iter().filter(|&&s| s).count() >= 6 {
                self.bytes(
                    Kind {
                        secret,
                        form: Form::Packed,
                    },
                    w,
                );
            }
        }
    }

    /// Non-overlapping windows of `WINDOW` values (any integers, reduced mod q), skipping
    /// windows with fewer than 4 distinct values or one value in more than half the places.
    fn windows(&mut self, kind: Kind, values: &[i64]) {
        for w in values.chunks_exact(WINDOW) {
            let mut data = [0u32; WINDOW];
            for (d, &v) in data.iter_mut().zip(w) {
                *d = v.rem_euclid(Q) as u32;
            }
            if lively(&data) {
                self.words.push(WordNeedle {
                    key: (data[0] as u64) << 32 | data[1] as u64,
                    kind,
                    data,
                });
            }
        }
    }

    /// Non-overlapping windows of `WINDOW` coefficients of a small polynomial (s1, s2) as
    /// signed bytes, skipping dull ones as [`Self::windows`] does.
    fn small_windows(&mut self, secret: Secret, values: &[i64]) {
        for w in values.chunks_exact(WINDOW) {
            let mut data = [0u8; WINDOW];
            for (d, &v) in data.iter_mut().zip(w) {
                *d = i8::try_from(v).expect("a small coefficient") as u8;
            }
            if lively(&data) {
                self.bytes(
                    Kind {
                        secret,
                        form: Form::Small,
                    },
                    &data,
                );
            }
        }
    }

    /// A secret polynomial vector (coefficients in (-q, q)): coefficient, NTT and Montgomery
    /// NTT windows, and for s1 and s2 byte windows.
    fn poly_vec(&mut self, secret: Secret, polys: &[[i64; 256]]) {
        for p in polys {
            if matches!(secret, Secret::S1 | Secret::S2) {
                self.small_windows(secret, p);
            }
            self.windows(
                Kind {
                    secret,
                    form: Form::Coeffs,
                },
                p,
            );
            let mut hat = ntt(p);
            self.windows(
                Kind {
                    secret,
                    form: Form::Ntt,
                },
                &hat,
            );
            hat.zeroize();
            let mut mont = hat.map(|x| (x << 32).rem_euclid(Q));
            self.windows(
                Kind {
                    secret,
                    form: Form::NttMont,
                },
                &mont,
            );
            mont.zeroize();
        }
    }

    fn finish(mut self) -> Needles {
        // In place: a stable sort would copy the needles into a scratch buffer and free it.
        self.bytes.sort_unstable_by_key(|n| n.key);
        self.words.sort_unstable_by_key(|n| n.key);
        let mut byte_filter = vec![0u64; (1 << FILTER_BITS) / 64];
        let mut word_filter = vec![0u64; (1 << FILTER_BITS) / 64];
        let mut counts = [0; KINDS];
        for n in &self.bytes {
            let s = slot(n.key);
            byte_filter[s / 64] |= 1 << (s % 64);
            counts[n.kind.index()] += 1;
        }
        for n in &self.words {
            let s = slot(n.key);
            word_filter[s / 64] |= 1 << (s % 64);
            counts[n.kind.index()] += 1;
        }
        Needles {
            bytes: std::mem::take(&mut self.bytes),
            words: std::mem::take(&mut self.words),
            byte_filter,
            word_filter,
            counts,
        }
    }
}

/// Whether a window is worth a needle: at least 4 distinct values, none in more than half the
/// places.
fn lively<T: Copy + Ord>(data: &[T; WINDOW]) -> bool {
    let mut sorted = *data;
    sorted.sort_unstable();
    let mut distinct = 1;
    let mut run = 1;
    let mut longest = 1;
    for i in 1..WINDOW {
        if sorted[i] == sorted[i - 1] {
            run += 1;
        } else {
            distinct += 1;
            run = 1;
        }
        longest = longest.max(run);
    }
    distinct >= 4 && longest <= WINDOW / 2
}

/// FIPS 204 Algorithm 41, NTT, plainly (exact residues in [0, q), no Montgomery arithmetic):
/// independent of the library's lazy, Montgomery-twiddled kernels.
fn ntt(w: &[i64; 256]) -> [i64; 256] {
    let pow = |mut b: i64, mut e: u32| {
        let mut acc = 1i64;
        b = b.rem_euclid(Q);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * b % Q;
            }
            b = b * b % Q;
            e >>= 1;
        }
        acc
    };
    let mut a = w.map(|c| c.rem_euclid(Q));
    let mut m = 0;
    let mut len = 128;
    while len >= 1 {
        let mut start = 0;
        while start < 256 {
            m += 1;
            let z = pow(1753, (m as u8).reverse_bits() as u32);
            for j in start..start + len {
                let t = z * a[j + len] % Q;
                a[j + len] = (a[j] - t).rem_euclid(Q);
                a[j] = (a[j] + t) % Q;
            }
            start += 2 * len;
        }
        len /= 2;
    }
    a
}

/// A heap buffer of secrets that the harness holds, wiped before it is freed (zeroize's own
/// `Vec` support needs its `alloc` feature, which the library does not turn on).
struct Wiped<T: Zeroize>(Vec<T>);

impl<T: Zeroize> Drop for Wiped<T> {
    fn drop(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

impl<T: Zeroize> std::ops::Deref for Wiped<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    let mut h = shake::Shake256::default();
    for p in parts {
        h.update(p);
    }
    h.finalize_xof().read(out);
}

/// FIPS 204 Algorithm 19, BitUnpack, for `b - x` packings (Algorithms 25 and 17): the
/// `bits`-bit fields of `v`, little-endian, each mapped to b - field.
fn bit_unpack(v: &[u8], bits: usize, b: i64) -> Wiped<[i64; 256]> {
    let mut polys = Wiped(Vec::with_capacity(v.len() / (32 * bits)));
    for chunk in v.chunks_exact(32 * bits) {
        let mut p = [0i64; 256];
        for (i, c) in p.iter_mut().enumerate() {
            let mut x = 0i64;
            for j in 0..bits {
                let bit = i * bits + j;
                x |= ((chunk[bit / 8] >> (bit % 8)) & 1) as i64 * (1 << j);
            }
            *c = b - x;
        }
        polys.0.push(p);
    }
    polys
}

/// The shape of a parameter set, as far as the secrets' layout goes.
#[derive(Clone, Copy)]
struct Shape {
    k: usize,
    l: usize,
    eta: i64,
    /// 64 for ML-DSA, 32 for Dilithium v3.1.
    tr_len: usize,
    /// Dilithium v3.1 expands H(xi), without (k, l).
    legacy: bool,
}

/// rho' (bytes 32..96) and K (96..128) of the seed expansion, computed here.
fn expand_seed(shape: Shape, xi: &[u8; 32]) -> Zeroizing<[u8; 128]> {
    let mut out = Zeroizing::new([0u8; 128]);
    if shape.legacy {
        shake256(&[xi], out.as_mut());
    } else {
        shake256(&[xi, &[shape.k as u8, shape.l as u8]], out.as_mut());
    }
    out
}

/// Every needle of the key with seed `xi` and expanded encoding `sk`, plus the rho'' values of
/// the signatures the operations make.
fn needles(shape: Shape, xi: &[u8; 32], sk: &[u8], rho_pps: &[[u8; 64]]) -> Needles {
    let seed = expand_seed(shape, xi);
    assert_eq!(
        &sk[..32],
        &seed[..32],
        "rho: the library's key is not H(xi)'s"
    );
    assert_eq!(
        &sk[32..64],
        &seed[96..],
        "K: the library's key is not H(xi)'s"
    );
    let mut b = NeedleBuilder::default();
    b.string(Secret::Seed, xi);
    b.string(Secret::RhoPrime, &seed[32..96]);
    b.string(Secret::K, &seed[96..]);
    for rho_pp in rho_pps {
        b.string(Secret::RhoPP, rho_pp);
    }
    let eta_bits = if shape.eta == 2 { 3 } else { 4 };
    let rest = &sk[64 + shape.tr_len..];
    let (s1_bytes, rest) = rest.split_at(shape.l * 32 * eta_bits);
    let (s2_bytes, t0_bytes) = rest.split_at(shape.k * 32 * eta_bits);
    assert_eq!(t0_bytes.len(), shape.k * 32 * 13, "sk length");
    b.packed(Secret::S1, s1_bytes);
    b.packed(Secret::S2, s2_bytes);
    b.packed(Secret::T0, t0_bytes);
    b.poly_vec(Secret::S1, &bit_unpack(s1_bytes, eta_bits, shape.eta));
    b.poly_vec(Secret::S2, &bit_unpack(s2_bytes, eta_bits, shape.eta));
    b.poly_vec(Secret::T0, &bit_unpack(t0_bytes, 13, 1 << 12));
    b.finish()
}

// ---------------------------------------------------------------------------------------------
// The scanner, shared by the allocator and the stack scan. It never allocates.
// ---------------------------------------------------------------------------------------------

/// Reads byte `i` of the range at `p`.
///
/// # Safety
/// `p + i` must be readable (see [`scan`]).
#[inline(always)]
unsafe fn byte_at(p: *const u8, i: usize) -> u8 {
    // SAFETY: the caller guarantees that p + i is inside a readable range.
    unsafe { core::ptr::read_volatile(p.add(i)) }
}

/// Reads the 32-bit word at byte `i` (4-aligned) of the range at `p` (4-aligned).
///
/// # Safety
/// `[p + i, p + i + 4)` must be readable and 4-aligned (see [`scan`]).
#[inline(always)]
unsafe fn word_at(p: *const u8, i: usize) -> u32 {
    // SAFETY: the caller guarantees that the 4 bytes are inside a readable range and aligned.
    unsafe { core::ptr::read_volatile(p.add(i) as *const u32) }
}

/// Calls `hit(kind, offset)` for every needle of `n` found in `[p, p + len)`: byte needles at
/// every byte offset, word needles at every 4-aligned offset (compared mod q).
///
/// # Safety
/// `[p, p + len)` must be readable memory that nothing writes while it is scanned, and `p`
/// 4-aligned. Its bytes may be uninitialised (padding of freed structs, dead stack): they are
/// read with volatile loads as plain integers, the same compromise as tests/stack.rs.
unsafe fn scan(p: *const u8, len: usize, n: &Needles, hit: &mut dyn FnMut(Kind, usize)) {
    debug_assert_eq!(p as usize % 4, 0);
    // Byte needles: a rolling little-endian window of the last 8 bytes.
    let mut roll = 0u64;
    for i in 0..len {
        // SAFETY: i < len.
        roll = roll >> 8 | (unsafe { byte_at(p, i) } as u64) << 56;
        if i < 7 || !filter_has(&n.byte_filter, roll) {
            continue;
        }
        let start = i - 7;
        let first = n.bytes.partition_point(|b| b.key < roll);
        for needle in n.bytes[first..].iter().take_while(|b| b.key == roll) {
            if start + needle.len <= len
                // SAFETY: start + j < start + needle.len <= len.
                && (8..needle.len).all(|j| unsafe { byte_at(p, start + j) } == needle.data[j])
            {
                hit(needle.kind, start);
            }
        }
    }
    // Word needles: residues mod q at 4-aligned offsets.
    let words = len / 4;
    let mut prev = NOT_RESIDUE;
    for w in 0..words {
        // SAFETY: 4 * w + 4 <= len, 4-aligned as p is.
        let cur = canon(unsafe { word_at(p, 4 * w) });
        let key = (prev as u64) << 32 | cur as u64;
        let start = w.wrapping_sub(1);
        prev = cur;
        if w == 0
            || key >> 32 == NOT_RESIDUE as u64
            || cur == NOT_RESIDUE
            || !filter_has(&n.word_filter, key)
        {
            continue;
        }
        let first = n.words.partition_point(|x| x.key < key);
        for needle in n.words[first..].iter().take_while(|x| x.key == key) {
            if start + WINDOW <= words
                // SAFETY: 4 * (start + j) + 4 <= 4 * words <= len.
                && (2..WINDOW).all(|j| canon(unsafe { word_at(p, 4 * (start + j)) }) == needle.data[j])
            {
                hit(needle.kind, 4 * start);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hit records, in atomics (the allocator may not allocate).
// ---------------------------------------------------------------------------------------------

static HITS: [AtomicU32; KINDS] = [const { AtomicU32::new(0) }; KINDS];
/// The first hits, packed: kind (8 bits) | place (8) | offset (24) | block size (24).
static RECORDS: [AtomicU64; 32] = [const { AtomicU64::new(0) }; 32];
static RECORDED: AtomicUsize = AtomicUsize::new(0);

const PLACE_HEAP: u64 = 1;
const PLACE_STACK: u64 = 2;

fn record(kind: Kind, place: u64, offset: usize, size: usize) {
    HITS[kind.index()].fetch_add(1, Ordering::Relaxed);
    let i = RECORDED.fetch_add(1, Ordering::Relaxed);
    if i < RECORDS.len() {
        let r = (kind.index() as u64) << 56
            | place << 48
            | (offset.min(0xFF_FFFF) as u64) << 24
            | size.min(0xFF_FFFF) as u64;
        RECORDS[i].store(r, Ordering::Relaxed);
    }
}

/// What one run left behind: hits per kind, and the first hits described.
struct Findings {
    hits: [u32; KINDS],
    details: Vec<String>,
}

impl Findings {
    fn total(&self) -> u32 {
        self.hits.iter().sum()
    }

    fn of(&self, secret: Secret, form: Form) -> u32 {
        self.hits[Kind { secret, form }.index()]
    }
}

/// Takes (and resets) the hits recorded so far.
fn take_findings() -> Findings {
    let hits = std::array::from_fn(|i| HITS[i].swap(0, Ordering::Relaxed));
    let n = RECORDED.swap(0, Ordering::Relaxed).min(RECORDS.len());
    let details = RECORDS[..n]
        .iter()
        .map(|r| {
            let r = r.swap(0, Ordering::Relaxed);
            let kind = Kind::from_index((r >> 56) as usize);
            let offset = (r >> 24) & 0xFF_FFFF;
            let size = r & 0xFF_FFFF;
            if (r >> 48) & 0xFF == PLACE_STACK {
                format!("{kind} on the dead stack, {offset} bytes below the reference point")
            } else {
                format!("{kind} in a freed {size}-byte heap block, at offset {offset}")
            }
        })
        .collect();
    Findings { hits, details }
}

// ---------------------------------------------------------------------------------------------
// The tracking allocator.
// ---------------------------------------------------------------------------------------------

/// The needles of the current run (null when none).
static TABLE: AtomicPtr<Needles> = AtomicPtr::new(core::ptr::null_mut());
/// Whether freed blocks are scanned.
static ARMED: AtomicBool = AtomicBool::new(false);
/// Scans in progress (so that disarming can wait for them before the table goes away).
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// While set, allocations of at least `BIG` bytes are listed in `LIVE` (and taken off when
/// freed): so that `planted_leaks_are_found` can look inside a live key's heap blocks. The key
/// keeps K in a block of a few hundred bytes and each of s1-hat, s2 and t0 in a block of its
/// own (made zero in place there: ST-1), so `BIG` is well below the smallest of them.
static TRACK_LIVE: AtomicBool = AtomicBool::new(false);
const BIG: usize = 128;
/// (address, size) of live big blocks; address 0 marks a free slot.
static LIVE: [(AtomicUsize, AtomicUsize); 16] =
    [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; 16];

fn track_alloc(ptr: *mut u8, size: usize) {
    if TRACK_LIVE.load(Ordering::SeqCst) && size >= BIG && !ptr.is_null() {
        for (p, s) in &LIVE {
            if p.compare_exchange(0, ptr as usize, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                s.store(size, Ordering::SeqCst);
                return;
            }
        }
    }
}

fn track_free(ptr: *mut u8) {
    for (p, _) in &LIVE {
        let _ = p.compare_exchange(ptr as usize, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// `System`, scanning every block it frees while armed.
struct Tracking;

impl Tracking {
    /// Scans the block `[ptr, ptr + size)`, about to be freed, if armed.
    ///
    /// # Safety
    /// The block must be allocated and owned by the caller (it is being freed).
    unsafe fn check(ptr: *mut u8, size: usize) {
        if !ARMED.load(Ordering::SeqCst) {
            return;
        }
        IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
        let table = TABLE.load(Ordering::SeqCst);
        if ARMED.load(Ordering::SeqCst) && !table.is_null() && (ptr as usize).is_multiple_of(4) {
            // SAFETY: `table` was published by `Armed::new` and stays alive until `disarm` has
            // seen IN_FLIGHT at 0, which cannot happen before this scan's decrement below.
            let n = unsafe { &*table };
            // SAFETY: the block is allocated, owned by the freeing caller, and 4-aligned
            // (checked); nothing writes it during its deallocation.
            unsafe {
                scan(ptr, size, n, &mut |kind, at| {
                    record(kind, PLACE_HEAP, at, size)
                })
            };
        }
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

// SAFETY: every method forwards to `System` with the same arguments; `check` only reads the
// block before it is freed and never allocates.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        track_alloc(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        track_alloc(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` is a live block of `layout.size()` bytes that the caller is freeing.
        unsafe { Self::check(ptr, layout.size()) };
        track_free(ptr);
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The old block may be freed (its contents copied elsewhere): scan it as freed.
        // SAFETY: `ptr` is a live block of `layout.size()` bytes.
        unsafe { Self::check(ptr, layout.size()) };
        track_free(ptr);
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        track_alloc(p, new_size);
        p
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

fn arm() {
    ARMED.store(true, Ordering::SeqCst);
}

fn disarm() {
    ARMED.store(false, Ordering::SeqCst);
    while IN_FLIGHT.load(Ordering::SeqCst) != 0 {
        std::hint::spin_loop();
    }
}

// ---------------------------------------------------------------------------------------------
// The worker thread: paint, run, scan the dead stack.
// ---------------------------------------------------------------------------------------------

/// Stack of the worker thread.
const WORKER_STACK: usize = 4 * 1024 * 1024;
/// How far below the reference point the stack is painted and scanned (every operation needs
/// less than 128 KiB: tests/stack.rs).
const PAINT_LEN: usize = 512 * 1024;
/// Left alone just below the reference point: the painting and scanning functions' frames.
const PAINT_GAP: usize = 4096;
/// The operation runs below a frame this large, so that all of its frames lie below the gap.
const HEADROOM: usize = 2 * PAINT_GAP;
/// The painted and scanned region below the worker's reference frame.
const REGION: Region = Region {
    len: PAINT_LEN,
    gap: PAINT_GAP,
};

/// Scans the painted region, dead once the operation returned, recording hits as stack hits
/// (offset: bytes below `top`).
#[inline(never)]
fn scan_dead_stack(top: usize, n: &Needles) {
    let (lo, hi) = REGION.bounds(top);
    // SAFETY: the range `paint` wrote, on this thread's stack mapping (see `run_checked`), below this
    // function's frame (PAINT_GAP); every frame that used it has returned, so nothing writes it
    // while it is read; 8-aligned.
    unsafe {
        scan(lo as *const u8, hi - lo, n, &mut |kind, at| {
            record(kind, PLACE_STACK, top - (lo + at), 0)
        })
    };
}

/// Runs `op` below a `HEADROOM`-byte frame.
#[inline(never)]
fn run_deep<F: FnOnce()>(op: F) {
    let pad = [0u8; HEADROOM];
    black_box(&pad);
    run_opaque(op);
    black_box(&pad);
}

#[inline(never)]
fn run_opaque<F: FnOnce()>(op: F) {
    op();
}

/// On a fresh worker thread: runs `build` (preparation, not checked), paints, runs the
/// operation `build` returned with the heap scan armed, then scans the dead stack. Returns what
/// was found and the operation's painted stack depth.
fn run_checked<B, F>(needles: &Needles, build: B) -> (Findings, usize)
where
    B: FnOnce() -> F + Send,
    F: FnOnce(),
{
    let _ = take_findings();
    TABLE.store(needles as *const Needles as *mut Needles, Ordering::SeqCst);
    let depth = thread::scope(|s| {
        thread::Builder::new()
            .name("zeroize-worker".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, move || {
                let op = build();
                let marker = 0u8;
                let top = black_box(&marker) as *const u8 as usize;
                // SAFETY: `top` is a local of this worker, spawned with WORKER_STACK (4 MiB),
                // eight times PAINT_LEN; PAINT_GAP (4 KiB) covers the painting frames.
                unsafe { REGION.paint(top) };
                arm();
                run_deep(op);
                disarm();
                scan_dead_stack(top, needles);
                // SAFETY: as for `paint`, same thread and `top`.
                top - unsafe { REGION.deepest_change(top) }
            })
            .expect("spawn worker")
            .join()
            .expect("operation panicked on the worker")
    });
    disarm();
    TABLE.store(core::ptr::null_mut(), Ordering::SeqCst);
    assert!(
        depth < PAINT_LEN - 64 * 1024,
        "the operation used {depth} bytes of stack, beyond the scanned region"
    );
    (take_findings(), depth)
}

// ---------------------------------------------------------------------------------------------
// Operations.
// ---------------------------------------------------------------------------------------------

const MSG: &[u8] = b"Z-1 zeroisation message";
const CTX: &[u8] = b"zeroize";

/// Hedged signing's rnd: what `CountingRng` yields (1, 2, ..., 32).
const HEDGED_RND: [u8; 32] = {
    let mut r = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        r[i] = i as u8 + 1;
        i += 1;
    }
    r
};

/// The seed of each parameter set's test key, on the heap (the harness's own copies are kept
/// off the worker's stack).
fn seed_for(name: &str) -> Wiped<[u8; 32]> {
    let mut xi = Wiped(vec![[0u8; 32]]);
    shake256(&[b"Z-1 seed ", name.as_bytes()], &mut xi.0[0]);
    xi
}

/// The mu given to the external-mu one-shot signer.
const EXTERNAL_MU: [u8; 64] = [0x5A; 64];

/// rho'' = H(K || rnd || mu) of pure ML-DSA on (MSG, CTX) (FIPS 204 Algorithms 2 and 7).
fn mldsa_rho_pp(sk: &[u8], rnd: &[u8; 32]) -> [u8; 64] {
    let mut mu = [0u8; 64];
    shake256(&[&sk[64..128], &[0, CTX.len() as u8], CTX, MSG], &mut mu);
    rho_pp_of_mu(sk, rnd, &mu)
}

/// rho'' = H(K || rnd || mu) (FIPS 204 Algorithm 7 step 7).
fn rho_pp_of_mu(sk: &[u8], rnd: &[u8; 32], mu: &[u8; 64]) -> [u8; 64] {
    let mut rho_pp = [0u8; 64];
    shake256(&[&sk[32..64], rnd, mu], &mut rho_pp);
    rho_pp
}

/// The operations on ML-DSA set `P`, by name; every key an operation makes or is given is
/// dropped in it.
fn mldsa_ops<P: ParameterSet + 'static>() -> Vec<(&'static str, OpFn)> {
    vec![
        ("keygen", op_keygen::<P>),
        ("sign-det", op_sign_det::<P>),
        ("sign-hedged", op_sign_hedged::<P>),
        ("prepare", op_prepare::<P>),
        ("sign-prepared", op_sign_prepared::<P>),
        ("sign-expanded", op_sign_expanded::<P>),
        ("to-expanded", op_to_expanded::<P>),
        ("write-expanded", op_write_expanded::<P>),
        ("from-expanded", op_from_expanded::<P>),
        ("from-expanded-unverified", op_from_expanded_unverified::<P>),
        ("all", op_all::<P>),
    ]
}

/// Builds (on the worker, unchecked) the operation to check, from the seed and the expanded key.
type OpFn = for<'a> fn(&'a [u8; 32], &'a [u8]) -> Box<dyn FnOnce() + 'a>;

fn op_keygen<'a, P: ParameterSet>(xi: &'a [u8; 32], _: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_seed(xi);
        black_box(&sk);
    })
}

fn boxed_key<P: ParameterSet>(xi: &[u8; 32]) -> Box<SigningKey<P>> {
    Box::new(SigningKey::<P>::from_seed(xi))
}

fn op_sign_det<'a, P: ParameterSet>(xi: &'a [u8; 32], _: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

fn op_sign_hedged<'a, P: ParameterSet>(xi: &'a [u8; 32], _: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
    })
}

fn op_prepare<'a, P: ParameterSet>(xi: &'a [u8; 32], _: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    let mut sk = boxed_key::<P>(xi);
    Box::new(move || {
        sk.prepare();
        black_box(&sk);
    })
}

fn op_sign_prepared<'a, P: ParameterSet>(xi: &'a [u8; 32], _: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    let mut sk = boxed_key::<P>(xi);
    sk.prepare();
    Box::new(move || {
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
    })
}

fn op_sign_expanded<'a, P: ParameterSet>(_: &'a [u8; 32], sk: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sig = SigningKey::<P>::sign_with_expanded(sk, MSG, CTX, &[0; 32]);
        black_box(sig.expect("sign"));
        let sig = SigningKey::<P>::sign_with_expanded(sk, MSG, CTX, &HEDGED_RND);
        black_box(sig.expect("sign"));
        // The external-mu one-shot (the Python drop-in's path); mu is public.
        let sig = SigningKey::<P>::sign_mu_with_expanded(sk, &EXTERNAL_MU, &HEDGED_RND);
        black_box(sig.expect("sign"));
    })
}

fn op_to_expanded<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    expected: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let bytes = sk.to_expanded_bytes();
        assert!(bytes.as_ref() == expected);
    })
}

fn op_write_expanded<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    expected: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let mut bytes = Wiped(vec![0u8; P::SK_LEN]);
        sk.write_expanded_bytes(&mut bytes.0).expect("length");
        assert!(bytes[..] == *expected);
    })
}

fn op_from_expanded<'a, P: ParameterSet>(
    _: &'a [u8; 32],
    bytes: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_expanded(bytes).expect("decode");
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

fn op_from_expanded_unverified<'a, P: ParameterSet>(
    _: &'a [u8; 32],
    bytes: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_expanded_unverified(bytes).expect("decode");
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

/// The scenario in one go: keygen, deterministic and hedged signing, prepared signing,
/// one-shot signing from the expanded bytes, export and import, then every key dropped.
fn op_all<'a, P: ParameterSet>(xi: &'a [u8; 32], bytes: &'a [u8]) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let mut sk = SigningKey::<P>::from_seed(xi);
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
        sk.prepare();
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = SigningKey::<P>::sign_with_expanded(bytes, MSG, CTX, &[0; 32]);
        black_box(sig.expect("sign"));
        let mut exported = Wiped(vec![0u8; P::SK_LEN]);
        sk.write_expanded_bytes(&mut exported.0).expect("length");
        let imported = SigningKey::<P>::from_expanded(&exported).expect("decode");
        black_box(imported.sign_deterministic(MSG, CTX).expect("sign"));
        drop(imported);
        drop(exported);
        drop(sk);
    })
}

/// One checked run, for the table and the verdict.
struct Run {
    set: &'static str,
    backend: BackendKind,
    op: &'static str,
    needles: usize,
    /// Needles per kind.
    counts: [usize; KINDS],
    depth: usize,
    findings: Findings,
}

/// The backends to check: the one the CPU picks, AVX2 without its AVX-512 variants if that is
/// another, and the portable one if that is another. The switch is process-wide: callers hold
/// `LOCK`.
fn backends() -> Vec<BackendKind> {
    force_portable(false);
    let mut v = vec![active_backend()];
    if active_backend() == BackendKind::Avx512 {
        v.push(BackendKind::Avx2);
    }
    if active_backend() != BackendKind::Portable {
        v.push(BackendKind::Portable);
    }
    v
}

/// Makes `backend` (one of [`backends`]) the active one.
fn force(backend: BackendKind) {
    match backend {
        BackendKind::Portable => force_portable(true),
        BackendKind::Avx2 => force_avx2(true),
        _ => force_portable(false),
    }
    assert_eq!(active_backend(), backend);
}

/// Serialises the tests: the allocator's arming and `force_portable` are process-wide.
static LOCK: Mutex<()> = Mutex::new(());

/// Every ML-DSA operation on set `P`, on every backend.
fn check_mldsa<P: ParameterSet + 'static>(shape: Shape, runs: &mut Vec<Run>) {
    let xi = seed_for(P::NAME);
    let xi = &xi[0];
    let sk_bytes = Wiped(
        SigningKey::<P>::from_seed(xi)
            .to_expanded_bytes()
            .as_ref()
            .to_vec(),
    );
    let rho_pps = [
        mldsa_rho_pp(&sk_bytes, &[0; 32]),
        mldsa_rho_pp(&sk_bytes, &HEDGED_RND),
        rho_pp_of_mu(&sk_bytes, &HEDGED_RND, &EXTERNAL_MU),
    ];
    let needles = needles(shape, xi, &sk_bytes, &rho_pps);
    run_on_every_backend(P::NAME, &needles, &mldsa_ops::<P>(), xi, &sk_bytes, runs);
}

/// Runs and scans each of `ops` of set `set` on every backend, appending one `Run` per pair.
fn run_on_every_backend(
    set: &'static str,
    needles: &Needles,
    ops: &[(&'static str, OpFn)],
    xi: &[u8; 32],
    sk_bytes: &[u8],
    runs: &mut Vec<Run>,
) {
    for backend in backends() {
        force(backend);
        for &(op, make) in ops {
            let (findings, depth) = run_checked(needles, || make(xi, sk_bytes));
            runs.push(Run {
                set,
                backend,
                op,
                needles: needles.bytes.len() + needles.words.len(),
                counts: needles.counts,
                depth,
                findings,
            });
        }
    }
    force_portable(false);
}

/// Every legacy (Dilithium v3.1) operation on set `P`, on every backend.
fn check_legacy<P: DilithiumParameterSet + 'static>(
    name: &'static str,
    shape: Shape,
    runs: &mut Vec<Run>,
) {
    let xi = seed_for(name);
    let xi = &xi[0];
    let sk_bytes = Wiped(
        legacy::SigningKey::<P>::from_seed(xi)
            .to_bytes()
            .as_ref()
            .to_vec(),
    );
    // Deterministic v3.1 signing: rho'' = H(K || mu), mu = H(tr || M).
    let mut mu = [0u8; 64];
    shake256(&[&sk_bytes[64..96], MSG], &mut mu);
    let mut rho_pp = [0u8; 64];
    shake256(&[&sk_bytes[32..64], &mu], &mut rho_pp);
    let needles = needles(shape, xi, &sk_bytes, &[rho_pp]);
    let ops: [(&'static str, OpFn); 6] = [
        ("keygen", |xi, _| {
            Box::new(move || {
                black_box(&legacy::SigningKey::<P>::from_seed(xi));
            })
        }),
        ("sign-det", |xi, _| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                black_box(sk.sign_deterministic(MSG).expect("sign"));
                let sig = sk.sign_randomized_with_rng(&mut CountingRng(0), MSG);
                black_box(sig.expect("sign"));
            })
        }),
        ("to-bytes", |xi, expected| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                assert!(sk.to_bytes().as_ref() == expected);
            })
        }),
        ("write-bytes", |xi, expected| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                let mut bytes = Wiped(vec![0u8; P::SK_LEN]);
                sk.write_bytes(&mut bytes.0).expect("length");
                assert!(bytes[..] == *expected);
            })
        }),
        ("from-bytes", |_, bytes| {
            Box::new(move || {
                let sk = legacy::SigningKey::<P>::from_bytes(bytes).expect("decode");
                black_box(sk.sign_deterministic(MSG).expect("sign"));
            })
        }),
        // One-shot signing from the key bytes (the Python drop-in's path).
        ("sign-bytes", |_, bytes| {
            Box::new(move || {
                let sig = legacy::SigningKey::<P>::sign_deterministic_with_bytes(bytes, MSG);
                black_box(sig.expect("sign"));
            })
        }),
    ];
    run_on_every_backend(name, &needles, &ops, xi, &sk_bytes, runs);
}

const ML_DSA_44: Shape = Shape {
    k: 4,
    l: 4,
    eta: 2,
    tr_len: 64,
    legacy: false,
};
const ML_DSA_65: Shape = Shape {
    k: 6,
    l: 5,
    eta: 4,
    tr_len: 64,
    legacy: false,
};
const ML_DSA_87: Shape = Shape {
    k: 8,
    l: 7,
    eta: 2,
    tr_len: 64,
    legacy: false,
};

fn legacy_shape(s: Shape) -> Shape {
    Shape {
        tr_len: 32,
        legacy: true,
        ..s
    }
}

/// Leaks found by this test and not fixed. A run may leave these hits and nothing else,
/// at most one copy of each: anything beyond, or of another kind, fails. `known_leaks_are_fixed`
/// (ignored) checks every run with no allowance; remove an entry once it passes.
///
/// - `to_expanded_bytes` / legacy `to_bytes` return the `[u8; SK_LEN]` encoding by value
///   (`Zeroizing<P::SkBytes>`): one stale copy of it (K and packed s1, s2, t0) stays in the
///   dead frame the value was returned from. That is inherent in returning an array by value,
///   and documented on both methods; `write_expanded_bytes` / `write_bytes` write into the
///   caller's buffer instead and are checked here with no allowance (and by the "all" run).
fn allowance(r: &Run, kind: Kind, needles: usize) -> u32 {
    let export = matches!(r.op, "to-expanded" | "to-bytes");
    match (kind.secret, kind.form) {
        (Secret::K, Form::Whole) if export => 1,
        (Secret::K, Form::Lane) if export => 4,
        (Secret::S1 | Secret::S2 | Secret::T0, Form::Packed) if export => needles as u32,
        _ => 0,
    }
}

/// Prints the runs and fails, naming every hit, if any run left a secret behind beyond the
/// known leaks (none at all if `strict`).
fn verdict(runs: &[Run], strict: bool) {
    println!(
        "{:<12} {:<9} {:<26} {:>7} {:>7} {:>5}",
        "set", "backend", "operation", "needles", "stack", "hits"
    );
    for r in runs {
        println!(
            "{:<12} {:<9} {:<26} {:>7} {:>7} {:>5}",
            r.set,
            format!("{:?}", r.backend),
            r.op,
            r.needles,
            r.depth,
            r.findings.total()
        );
    }
    let failures: Vec<String> = runs
        .iter()
        .filter(|r| {
            (0..KINDS).any(|i| {
                let allowed = if strict {
                    0
                } else {
                    allowance(r, Kind::from_index(i), r.counts[i])
                };
                r.findings.hits[i] > allowed
            })
        })
        .map(|r| {
            let per_kind: Vec<String> = (0..KINDS)
                .filter(|&i| r.findings.hits[i] != 0)
                .map(|i| format!("{} x{}", Kind::from_index(i), r.findings.hits[i]))
                .collect();
            format!(
                "{} on {:?}, {}: {} hits ({})\n      {}",
                r.set,
                r.backend,
                r.op,
                r.findings.total(),
                per_kind.join(", "),
                r.findings.details.join("\n      ")
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "secrets left behind after the keys were dropped:\n  {}",
        failures.join("\n  ")
    );
}

/// Z-1: ML-DSA key generation, signing (deterministic, hedged, prepared, one-shot from the
/// expanded bytes), export and import leave no secret on the dead stack or in freed heap blocks
/// (beyond the known leaks listed in [`allowance`]).
#[test]
fn mldsa_operations_leave_no_secret_behind() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    verdict(&mldsa_runs(), false);
}

/// Z-1 for the legacy Dilithium v3.1 API.
#[test]
fn legacy_operations_leave_no_secret_behind() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    verdict(&legacy_runs(), false);
}

/// Z-1 with no allowance: fails while any leak listed in [`allowance`] remains.
#[test]
#[ignore = "the by-value to_expanded_bytes / to_bytes leave a copy: see `allowance`"]
fn known_leaks_are_fixed() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut runs = mldsa_runs();
    runs.extend(legacy_runs());
    verdict(&runs, true);
}

fn mldsa_runs() -> Vec<Run> {
    let mut runs = Vec::new();
    check_mldsa::<MlDsa44>(ML_DSA_44, &mut runs);
    check_mldsa::<MlDsa65>(ML_DSA_65, &mut runs);
    check_mldsa::<MlDsa87>(ML_DSA_87, &mut runs);
    runs
}

fn legacy_runs() -> Vec<Run> {
    let mut runs = Vec::new();
    check_legacy::<Dilithium2>("Dilithium2", legacy_shape(ML_DSA_44), &mut runs);
    check_legacy::<Dilithium3>("Dilithium3", legacy_shape(ML_DSA_65), &mut runs);
    check_legacy::<Dilithium5>("Dilithium5", legacy_shape(ML_DSA_87), &mut runs);
    // The AES sets (v3.1 section 5.3): rho' and rho'' also key AES-256-CTR streams, whose
    // expanded keys the `aes` crate wipes on drop.
    check_legacy::<Dilithium2Aes>("Dilithium2-AES", legacy_shape(ML_DSA_44), &mut runs);
    check_legacy::<Dilithium3Aes>("Dilithium3-AES", legacy_shape(ML_DSA_65), &mut runs);
    check_legacy::<Dilithium5Aes>("Dilithium5-AES", legacy_shape(ML_DSA_87), &mut runs);
    runs
}

// ---------------------------------------------------------------------------------------------
// The method itself.
// ---------------------------------------------------------------------------------------------

/// Copies K and a window of t0 (as lazy representatives: + q) into stack arrays and returns
/// without wiping them: a planted stack leak.
#[inline(never)]
fn leak_to_stack(k: &[u8], t0: &[i32]) {
    let mut k_copy = [0u8; 32];
    k_copy.copy_from_slice(k);
    let mut t0_copy = [0i32; 64];
    for (c, &x) in t0_copy.iter_mut().zip(t0) {
        *c = x + Q as i32;
    }
    black_box(&mut k_copy);
    black_box(&mut t0_copy);
}

/// Both scans find planted copies, and the needles match what the library really keeps: a key
/// freed without running its `Drop` shows K and every NTT-domain window of s1, s2 and t0.
#[test]
fn planted_leaks_are_found() {
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    type P = MlDsa65;
    let shape = ML_DSA_65;
    let xi = seed_for(P::NAME);
    let xi = &xi[0];
    let sk_bytes = Wiped(
        SigningKey::<P>::from_seed(xi)
            .to_expanded_bytes()
            .as_ref()
            .to_vec(),
    );
    let needles = needles(shape, xi, &sk_bytes, &[]);
    let seed = expand_seed(shape, xi);
    let count = |secret, form| needles.counts[Kind { secret, form }.index()] as u32;
    // t0's first polynomial, decoded here (as the needles are).
    let t0_offset = 64 + 64 + (shape.k + shape.l) * 32 * 4;
    let t0 = Wiped(
        bit_unpack(&sk_bytes[t0_offset..t0_offset + 416], 13, 1 << 12)[0]
            .iter()
            .map(|&c| c as i32)
            .collect(),
    );

    for backend in backends() {
        force(backend);

        // Stack: K and a t0 window copied to a dead frame.
        let (f, _) = run_checked(&needles, || {
            let k = &seed[96..];
            let t0 = &t0[..];
            move || leak_to_stack(k, t0)
        });
        assert!(
            f.of(Secret::K, Form::Whole) >= 1 && f.of(Secret::T0, Form::Coeffs) >= 3,
            "{backend:?}: the stack scan missed the planted copies: {:?}",
            f.details
        );

        // Heap: rho' in a Vec freed without wiping; the sk encoding likewise (every packed
        // window must show).
        let (f, _) = run_checked(&needles, || {
            || {
                black_box(seed[32..96].to_vec());
                black_box(sk_bytes.to_vec());
            }
        });
        assert!(
            f.of(Secret::RhoPrime, Form::Whole) >= 1
                && f.of(Secret::K, Form::Whole) >= 1
                && f.of(Secret::S1, Form::Packed) == count(Secret::S1, Form::Packed)
                && f.of(Secret::T0, Form::Packed) == count(Secret::T0, Form::Packed),
            "{backend:?}: the heap scan missed the planted copies: {:?}",
            f.details
        );

        // A live key: its heap blocks, scanned while it is alive, must hold K, every byte
        // window of s1 and s2 and every coefficient window of t0, so the needles match what the
        // library really holds. Prepared or not, no NTT-domain window of t0: since 2026-11-27
        // signing multiplies c by t0 sparsely, and a prepared key keeps only A-hat (public).
        let table = &needles;
        for prepared in [false, true] {
            let (f, _) = run_checked(&needles, || {
                move || {
                    TRACK_LIVE.store(true, Ordering::SeqCst);
                    let mut sk = SigningKey::<P>::from_seed(xi);
                    if prepared {
                        sk.prepare();
                    }
                    TRACK_LIVE.store(false, Ordering::SeqCst);
                    for (p, size) in &LIVE {
                        let (p, size) = (p.swap(0, Ordering::SeqCst), size.load(Ordering::SeqCst));
                        if p != 0 {
                            // SAFETY: a block allocated while tracking and not freed since
                            // (freeing clears its slot), so it is live: one of the key's own
                            // heap blocks; nothing writes it while the key is only borrowed
                            // here. Allocations are 16-aligned.
                            unsafe {
                                scan(p as *const u8, size, table, &mut |kind, at| {
                                    record(kind, PLACE_HEAP, at, size)
                                })
                            };
                        }
                    }
                    black_box(&sk);
                }
            });
            let shown = |s, form| format!("{}/{}", f.of(s, form), count(s, form));
            println!(
                "{backend:?}: a live {} key holds K x{}, NTT windows s1 {} s2 {} t0 {}, \
                 byte windows s1 {} s2 {}, coefficient windows t0 {}, Montgomery-form windows {}",
                if prepared { "prepared" } else { "fresh" },
                f.of(Secret::K, Form::Whole),
                shown(Secret::S1, Form::Ntt),
                shown(Secret::S2, Form::Ntt),
                shown(Secret::T0, Form::Ntt),
                shown(Secret::S1, Form::Small),
                shown(Secret::S2, Form::Small),
                shown(Secret::T0, Form::Coeffs),
                f.of(Secret::S1, Form::NttMont)
                    + f.of(Secret::S2, Form::NttMont)
                    + f.of(Secret::T0, Form::NttMont),
            );
            let expected = [
                (Secret::S1, Form::Small),
                (Secret::S2, Form::Small),
                (Secret::T0, Form::Coeffs),
            ];
            assert!(
                f.of(Secret::K, Form::Whole) == 1
                    && f.of(Secret::T0, Form::Ntt) == 0
                    && expected
                        .into_iter()
                        .all(|(s, form)| f.of(s, form) >= count(s, form)),
                "{backend:?}: a live key's secrets do not match the needles: {:?}",
                f.details
            );
        }
    }
    force_portable(false);
}
