//! The scanner, shared by the allocator and the stack scan (it never allocates), and the hit
//! records it writes, in atomics.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::needles::*;

/// Reads byte `i` of the range at `p`.
///
/// # Safety
/// `p + i` must be readable (see [`scan`]).
#[inline(always)]
pub(crate) unsafe fn byte_at(p: *const u8, i: usize) -> u8 {
    // SAFETY: the caller guarantees that p + i is inside a readable range.
    unsafe { core::ptr::read_volatile(p.add(i)) }
}

/// Reads the 32-bit word at byte `i` (4-aligned) of the range at `p` (4-aligned).
///
/// # Safety
/// `[p + i, p + i + 4)` must be readable and 4-aligned (see [`scan`]).
#[inline(always)]
pub(crate) unsafe fn word_at(p: *const u8, i: usize) -> u32 {
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
pub(crate) unsafe fn scan(p: *const u8, len: usize, n: &Needles, hit: &mut dyn FnMut(Kind, usize)) {
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

pub(crate) static HITS: [AtomicU32; KINDS] = [const { AtomicU32::new(0) }; KINDS];
/// The first hits, packed: kind (8 bits) | place (8) | offset (24) | block size (24).
pub(crate) static RECORDS: [AtomicU64; 32] = [const { AtomicU64::new(0) }; 32];
pub(crate) static RECORDED: AtomicUsize = AtomicUsize::new(0);

pub(crate) const PLACE_HEAP: u64 = 1;
pub(crate) const PLACE_STACK: u64 = 2;

pub(crate) fn record(kind: Kind, place: u64, offset: usize, size: usize) {
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
pub(crate) struct Findings {
    pub(crate) hits: [u32; KINDS],
    pub(crate) details: Vec<String>,
}

impl Findings {
    pub(crate) fn total(&self) -> u32 {
        self.hits.iter().sum()
    }

    pub(crate) fn of(&self, secret: Secret, form: Form) -> u32 {
        self.hits[Kind { secret, form }.index()]
    }
}

/// Takes (and resets) the hits recorded so far.
pub(crate) fn take_findings() -> Findings {
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
