//! Heap high-water mark of signing: one signature from expanded key bytes (the one-shot path the
//! Python drop-in and the reference C API use) and one with an unprepared key object must each
//! keep their heap below [`LIMIT`], on every backend and parameter set.
//!
//! Why: glibc returns the top of the heap to the kernel when a `free` leaves more than its trim
//! threshold (128 KiB by default) free there. ML-DSA-87's one-shot signing used to peak at about
//! 150 KiB, so every signature gave that memory back and took it again with `brk` and fresh page
//! faults, which made its median time 30 % higher than the same work without the syscalls
//! (found with `strace`; 3 `brk` per signature). This binary counts the bytes its allocator
//! holds, so a change that pushes a signing path back over the threshold fails here, not in a
//! benchmark.

use mldsa::backend::{BackendKind, active_backend, force_avx2, force_portable};
use mldsa::legacy::{self, Dilithium2, Dilithium3, Dilithium5, DilithiumParameterSet};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most heap a signature may hold at once: glibc's default trim threshold (128 KiB) less 8
/// KiB for what the caller (an interpreter, the C library) already has at the top of the heap.
const LIMIT: usize = 120 * 1024;

/// Bytes currently allocated, and the most since the last [`reset_peak`].
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged and only
// updates two counters, so `System`'s guarantees are this allocator's.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: forwarded unchanged; `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
            grow(new_size);
        }
        p
    }
}

fn grow(size: usize) {
    let now = CURRENT.fetch_add(size, Ordering::SeqCst) + size;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap bytes `op` held at its peak, above what was held when it started, run on a new
/// thread: a thread keeps its last signature's scratch for the next one, so only its first
/// signature allocates it all, and that is the peak that matters.
fn peak_of(op: impl FnOnce() + Send) -> usize {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let base = CURRENT.load(Ordering::SeqCst);
                PEAK.store(base, Ordering::SeqCst);
                op();
                PEAK.load(Ordering::SeqCst) - base
            })
            .join()
            .expect("signing does not panic")
    })
}

/// (one-shot, unprepared key object) peaks of ML-DSA signing with set `P`.
fn ml_dsa<P: ParameterSet>() -> [usize; 2] {
    let key = SigningKey::<P>::from_seed(&[5; 32]);
    let expanded = key.to_expanded_bytes();
    let msg = [0x42u8; 100];
    let one_shot = peak_of(|| {
        SigningKey::<P>::sign_with_expanded(expanded.as_ref(), &msg, b"", &[1; 32]).unwrap();
    });
    let object = peak_of(|| {
        key.sign_deterministic(&msg, b"").unwrap();
    });
    [one_shot, object]
}

/// (one-shot, unprepared key object) peaks of Dilithium v3.1 signing with set `P`.
fn dilithium<P: DilithiumParameterSet>() -> [usize; 2] {
    let key = legacy::SigningKey::<P>::from_seed(&[5; 32]);
    let bytes = key.to_bytes();
    let msg = [0x42u8; 100];
    let one_shot = peak_of(|| {
        legacy::SigningKey::<P>::sign_deterministic_with_bytes(bytes.as_ref(), &msg).unwrap();
    });
    let object = peak_of(|| {
        key.sign_deterministic(&msg).unwrap();
    });
    [one_shot, object]
}

/// One test, so that no other test's allocations run beside the measurement.
#[test]
fn signing_heap_stays_under_the_trim_threshold() {
    let mut backends = vec![BackendKind::Portable];
    if active_backend() != BackendKind::Portable {
        backends.insert(0, active_backend());
    }
    if active_backend() == BackendKind::Avx512 {
        backends.insert(1, BackendKind::Avx2);
    }
    let mut over = Vec::new();
    println!("heap peak per signature in bytes (limit {LIMIT}): one-shot from bytes / key object");
    for backend in backends {
        match backend {
            BackendKind::Portable => force_portable(true),
            BackendKind::Avx2 => force_avx2(true),
            _ => force_portable(false),
        }
        let rows: [(&str, [usize; 2]); 6] = [
            ("ML-DSA-44", ml_dsa::<MlDsa44>()),
            ("ML-DSA-65", ml_dsa::<MlDsa65>()),
            ("ML-DSA-87", ml_dsa::<MlDsa87>()),
            ("Dilithium2", dilithium::<Dilithium2>()),
            ("Dilithium3", dilithium::<Dilithium3>()),
            ("Dilithium5", dilithium::<Dilithium5>()),
        ];
        for (set, [one_shot, object]) in rows {
            println!("{backend:?} {set}: {one_shot} / {object}");
            // Sanity: the measurement sees the scratch at all (A-hat alone is 16 KiB).
            assert!(one_shot > 16 * 1024, "{set}: implausible peak {one_shot}");
            for (path, peak) in [("one-shot", one_shot), ("key object", object)] {
                if peak > LIMIT {
                    over.push(format!("{set} {path} on {backend:?}: {peak} bytes"));
                }
            }
        }
    }
    force_portable(false);
    assert!(
        over.is_empty(),
        "signing that holds more than {LIMIT} bytes of heap:\n  {}",
        over.join("\n  ")
    );
}
