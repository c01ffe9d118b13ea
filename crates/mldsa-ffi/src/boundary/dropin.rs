//! The reference-API drop-ins (`include/mldsa/ref-fips204/api.h`, `include/mldsa/ref-round3/api.h`
//! map the reference names onto these by macro): `mldsa{44,65,87}_ref_*` for the pq-crystals
//! FIPS 204 API (its `crypto_sign_*` functions and the `_signature_internal` /
//! `_verify_internal` of its sign.h), `dilithium{2,3,5}_ref_*` and `dilithium{2,3,5}aes_ref_*`
//! for the round-3 v3.1 API (SHAKE and AES variants). Reference conventions: 0 on success, -1
//! on any failure; `open` clears `m` on failure and sets `*mlen` to 0 (FIPS 204 reference) or
//! -1 (round 3).
//!
//! Randomness comes, as in the reference, from the program's `randombytes` when it defines one
//! (NIST's KAT generator does), else from the OS: keypair draws the 32-byte seed, FIPS 204
//! signing the 32-byte rnd (the reference's default randomized mode); round-3 signing is
//! deterministic, its reference default.

use core::ffi::c_int;

use super::{Out, call, fixed, input, store};
use crate::status::{Outcome, Status};

unsafe extern "C" {
    /// csrc/randombytes_hook.c: fills `out` from the program's `randombytes` and returns 1, or
    /// returns 0 if the program has none.
    fn mldsa_ffi_program_randombytes(out: *mut u8, len: usize) -> c_int;
}

/// 32 bytes from the program's `randombytes`, or from the OS.
fn randombytes32() -> Result<zeroize::Zeroizing<[u8; 32]>, Status> {
    let mut out = zeroize::Zeroizing::new([0u8; 32]);
    // SAFETY: `out` is 32 writable bytes; the hook writes at most `len` bytes.
    if unsafe { mldsa_ffi_program_randombytes(out.as_mut_ptr(), 32) } == 1 {
        return Ok(out);
    }
    crate::ops::os_random()
}

/// 0 or -1.
fn reference(code: c_int) -> c_int {
    if code == 0 { 0 } else { -1 }
}

/// The shared body of `_signature`: signs into `sig`, stores `*siglen`.
///
/// # Safety
/// `sig` NULL or `sig_bytes` writable; `siglen` NULL or writable.
unsafe fn signature(
    sig: *mut u8,
    sig_bytes: usize,
    siglen: *mut usize,
    f: impl FnOnce(&mut [u8]) -> Outcome,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        store(siglen, 0);
        let r = call([Out(sig, sig_bytes)], |[sig]| f(sig));
        if r == 0 {
            store(siglen, sig_bytes);
        }
        reference(r)
    }
}

/// The shared body of `crypto_sign` (attached): moves m to sm + sig_bytes (they may overlap, as
/// the reference allows), signs it into sm, stores `*smlen`.
///
/// # Safety
/// `sm` NULL or `sig_bytes + mlen` writable bytes; `m` NULL or `mlen` readable bytes.
unsafe fn sign_attached(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sig_bytes: usize,
    f: impl FnOnce(&mut [u8], &[u8]) -> Outcome,
) -> c_int {
    // SAFETY: forwarded contract; `copy` is memmove, made before any slice of sm exists.
    unsafe {
        store(smlen, 0);
        let Some(total) = sig_bytes
            .checked_add(mlen)
            .filter(|&t| t <= isize::MAX as usize)
        else {
            return -1;
        };
        if sm.is_null() || (m.is_null() && mlen != 0) {
            return -1;
        }
        if mlen != 0 {
            core::ptr::copy(m, sm.add(sig_bytes), mlen);
        }
        let r = call([Out(sm, total)], |[sm]| {
            let (sig, msg) = sm.split_at_mut(sig_bytes);
            f(sig, msg)
        });
        if r == 0 {
            store(smlen, total);
        }
        reference(r)
    }
}

/// The shared body of `open`: checks sm = sig || msg, then moves msg to m; on failure clears
/// `m[0..smlen]`, as the reference does, and sets `*mlen` to `failed_mlen` (the FIPS 204
/// reference's 0, round 3's -1). A call that describes no signed message (sm NULL with
/// `smlen > 0`, or a length no object can have) is rejected before any buffer is read or
/// written: the clearing is bounded by the signed message the caller passed, so a bogus
/// `smlen` never becomes a write of `smlen` bytes into m.
///
/// # Safety
/// `m` NULL or `smlen` writable bytes; `sm` NULL or `smlen` readable bytes; `mlen` writable.
unsafe fn open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    sig_bytes: usize,
    failed_mlen: usize,
    f: impl FnOnce(&[u8], &[u8]) -> Outcome,
) -> c_int {
    // SAFETY: forwarded contract; the slice of sm ends before m is written (they may overlap).
    unsafe {
        if (sm.is_null() && smlen != 0) || smlen > isize::MAX as usize {
            store(mlen, failed_mlen);
            return -1;
        }
        let ok = smlen >= sig_bytes
            && !m.is_null()
            && super::guard(|| {
                let sm = input(sm, smlen)?;
                let (sig, msg) = sm.split_at(sig_bytes);
                f(sig, msg)
            })
            .is_ok();
        if ok {
            core::ptr::copy(sm.add(sig_bytes), m, smlen - sig_bytes);
            store(mlen, smlen - sig_bytes);
            0
        } else {
            if !m.is_null() {
                core::ptr::write_bytes(m, 0, smlen);
            }
            store(mlen, failed_mlen);
            -1
        }
    }
}

macro_rules! fips204_ref {
    ($module:ident, $set:ty, $prefix:literal) => {
        #[doc = concat!("`", $prefix, "_*`: the pq-crystals FIPS 204 reference API.")]
        pub mod $module {
            use super::*;
            use crate::ops::{self, Message};
            use mldsa_core::Parameters;

            type P = $set;
            const PK: usize = <P as Parameters>::PK_LEN;
            const SK: usize = <P as Parameters>::SK_LEN;
            const SIG: usize = <P as Parameters>::SIG_LEN;

            /// # Safety
            /// As the reference: pk and sk hold the set's sizes.
            #[unsafe(export_name = concat!($prefix, "_keypair"))]
            pub unsafe extern "C" fn keypair(pk: *mut u8, sk: *mut u8) -> c_int {
                // SAFETY: forwarded contract.
                reference(unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        ops::keypair::<P>(pk, sk, Some(&*randombytes32()?))
                    })
                })
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_signature"))]
            pub unsafe extern "C" fn signature(
                sig: *mut u8,
                siglen: *mut usize,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    super::signature(sig, SIG, siglen, |sig| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, Some(&*randombytes32()?), fixed::<SK>(sk)?)
                    })
                }
            }

            /// `crypto_sign_signature_internal`: Sign_internal (Algorithm 7) with the
            /// caller's `rnd` on M' = pre || m, so mu = H(tr || pre || m, 64). `pre` is the
            /// prefix the caller built (the reference imposes no limit on its length).
            ///
            /// # Safety
            /// As the reference: rnd 32 bytes, sk the set's size.
            #[unsafe(export_name = concat!($prefix, "_signature_internal"))]
            pub unsafe extern "C" fn signature_internal(
                sig: *mut u8,
                siglen: *mut usize,
                m: *const u8,
                mlen: usize,
                pre: *const u8,
                prelen: usize,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    super::signature(sig, SIG, siglen, |sig| {
                        let msg = Message::Internal {
                            pre: input(pre, prelen)?,
                            m: input(m, mlen)?,
                        };
                        ops::sign::<P>(sig, msg, Some(fixed(rnd)?), fixed::<SK>(sk)?)
                    })
                }
            }

            /// `crypto_sign`: sm = sig || m.
            ///
            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_sign"))]
            pub unsafe extern "C" fn sign(
                sm: *mut u8,
                smlen: *mut usize,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    sign_attached(sm, smlen, m, mlen, SIG, |sig, msg| {
                        let msg = Message::Pure {
                            msg,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, Some(&*randombytes32()?), fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_verify"))]
            pub unsafe extern "C" fn verify(
                sig: *const u8,
                siglen: usize,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                reference(unsafe {
                    call([], |[]| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                })
            }

            /// `crypto_sign_verify_internal`: Verify_internal (Algorithm 8) on
            /// M' = pre || m.
            ///
            /// # Safety
            /// As the reference: pk the set's size.
            #[unsafe(export_name = concat!($prefix, "_verify_internal"))]
            pub unsafe extern "C" fn verify_internal(
                sig: *const u8,
                siglen: usize,
                m: *const u8,
                mlen: usize,
                pre: *const u8,
                prelen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                reference(unsafe {
                    call([], |[]| {
                        let msg = Message::Internal {
                            pre: input(pre, prelen)?,
                            m: input(m, mlen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                })
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_open"))]
            pub unsafe extern "C" fn open(
                m: *mut u8,
                mlen: *mut usize,
                sm: *const u8,
                smlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    // *mlen = 0 on failure: the reference since 779ad33 (2024-09-06).
                    super::open(m, mlen, sm, smlen, SIG, 0, |sig, msg| {
                        let msg = Message::Pure {
                            msg,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::verify::<P>(sig, msg, fixed::<PK>(pk)?)
                    })
                }
            }
        }
    };
}

macro_rules! round3_ref {
    ($module:ident, $set:ty, $prefix:literal) => {
        #[doc = concat!("`", $prefix, "_*`: the round-3 (v3.1) reference API.")]
        pub mod $module {
            use super::*;
            use crate::legacy;
            use mldsa_core::Parameters;

            type P = $set;
            const PK: usize = <P as Parameters>::PK_LEN;
            const SK: usize = <P as Parameters>::SK_LEN;
            const SIG: usize = <P as Parameters>::SIG_LEN;

            /// # Safety
            /// As the reference: pk and sk hold the set's sizes.
            #[unsafe(export_name = concat!($prefix, "_keypair"))]
            pub unsafe extern "C" fn keypair(pk: *mut u8, sk: *mut u8) -> c_int {
                // SAFETY: forwarded contract.
                reference(unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        legacy::keypair::<P>(pk, sk, Some(&*randombytes32()?))
                    })
                })
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_signature"))]
            pub unsafe extern "C" fn signature(
                sig: *mut u8,
                siglen: *mut usize,
                m: *const u8,
                mlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    super::signature(sig, SIG, siglen, |sig| {
                        legacy::sign::<P>(sig, input(m, mlen)?, fixed::<SK>(sk)?, false)
                    })
                }
            }

            /// `crypto_sign`: sm = sig || m.
            ///
            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_sign"))]
            pub unsafe extern "C" fn sign(
                sm: *mut u8,
                smlen: *mut usize,
                m: *const u8,
                mlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    sign_attached(sm, smlen, m, mlen, SIG, |sig, msg| {
                        legacy::sign::<P>(sig, msg, fixed::<SK>(sk)?, false)
                    })
                }
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_verify"))]
            pub unsafe extern "C" fn verify(
                sig: *const u8,
                siglen: usize,
                m: *const u8,
                mlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                reference(unsafe {
                    call([], |[]| {
                        legacy::verify::<P>(input(sig, siglen)?, input(m, mlen)?, fixed::<PK>(pk)?)
                    })
                })
            }

            /// # Safety
            /// As the reference.
            #[unsafe(export_name = concat!($prefix, "_open"))]
            pub unsafe extern "C" fn open(
                m: *mut u8,
                mlen: *mut usize,
                sm: *const u8,
                smlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: forwarded contract.
                unsafe {
                    // *mlen = -1 on failure, as v3.1.
                    super::open(m, mlen, sm, smlen, SIG, usize::MAX, |sig, msg| {
                        legacy::verify::<P>(sig, msg, fixed::<PK>(pk)?)
                    })
                }
            }
        }
    };
}

fips204_ref!(mldsa44_ref, mldsa_core::MlDsa44, "mldsa44_ref");
fips204_ref!(mldsa65_ref, mldsa_core::MlDsa65, "mldsa65_ref");
fips204_ref!(mldsa87_ref, mldsa_core::MlDsa87, "mldsa87_ref");
round3_ref!(
    dilithium2_ref,
    mldsa_core::legacy::Dilithium2,
    "dilithium2_ref"
);
round3_ref!(
    dilithium3_ref,
    mldsa_core::legacy::Dilithium3,
    "dilithium3_ref"
);
round3_ref!(
    dilithium5_ref,
    mldsa_core::legacy::Dilithium5,
    "dilithium5_ref"
);
// The round-3 reference's AES variant (`DILITHIUM_USE_AES`, v3.1 section 5.3).
round3_ref!(
    dilithium2aes_ref,
    mldsa_core::legacy::Dilithium2Aes,
    "dilithium2aes_ref"
);
round3_ref!(
    dilithium3aes_ref,
    mldsa_core::legacy::Dilithium3Aes,
    "dilithium3aes_ref"
);
round3_ref!(
    dilithium5aes_ref,
    mldsa_core::legacy::Dilithium5Aes,
    "dilithium5aes_ref"
);
