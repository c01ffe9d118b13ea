//! The method itself: planted stack and heap copies are found, and the needles match what a
//! live key holds.

use std::hint::black_box;
use std::sync::atomic::Ordering;

use mldsa::backend::force_portable;
use mldsa::{MlDsa65, SigningKey};

use crate::allocator::*;
use crate::needles::*;
use crate::operations::*;
use crate::runs::*;
use crate::scanner::*;
use crate::secrets::*;
use crate::worker::*;

/// Copies K and a window of t0 (as lazy representatives: + q) into stack arrays and returns
/// without wiping them: a planted stack leak.
#[inline(never)]
pub(crate) fn leak_to_stack(k: &[u8], t0: &[i32]) {
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
