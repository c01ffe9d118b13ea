//! `mldsa44_*`, `mldsa65_*`, `mldsa87_*`: one macro stamps the same functions for each set.
//! Pointer rules: see the module above and mldsa.h.

use core::ffi::c_int;

use super::{Out, call, call_alloc, call_new, fixed, input, optional};
use crate::objects::{SignCtx, SigningKeyObj, VerifyCtx, VerifyingKeyObj};
use crate::ops::{self, Message, prehash};
use crate::pkix::{self, Format, KeySource, key_form};

macro_rules! mldsa_set {
    ($module:ident, $set:ty, $prefix:literal) => {
        #[doc = concat!("The `", $prefix, "_*` functions.")]
        pub mod $module {
            use super::*;
            use mldsa_core::Parameters;

            type P = $set;
            const PK: usize = <P as Parameters>::PK_LEN;
            const SK: usize = <P as Parameters>::SK_LEN;
            const SIG: usize = <P as Parameters>::SIG_LEN;

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_keypair"))]
            pub unsafe extern "C" fn keypair(pk: *mut u8, sk: *mut u8) -> c_int {
                // SAFETY: mldsa.h: pk and sk hold the set's key sizes.
                unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        ops::keypair::<P>(pk, sk, None)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_keypair_from_seed"))]
            pub unsafe extern "C" fn keypair_from_seed(
                pk: *mut u8,
                sk: *mut u8,
                seed: *const u8,
            ) -> c_int {
                // SAFETY: mldsa.h: pk, sk hold the key sizes, seed 32 bytes.
                unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        ops::keypair::<P>(pk, sk, Some(fixed(seed)?))
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_pk_from_seed"))]
            pub unsafe extern "C" fn pk_from_seed(pk: *mut u8, seed: *const u8) -> c_int {
                // SAFETY: mldsa.h: pk holds the key size, seed 32 bytes.
                unsafe {
                    call([Out(pk, PK)], |[pk]| {
                        ops::pk_from_seed::<P>(pk, fixed(seed)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_pk_from_sk"))]
            pub unsafe extern "C" fn pk_from_sk(pk: *mut u8, sk: *const u8) -> c_int {
                // SAFETY: mldsa.h: pk and sk hold the key sizes.
                unsafe {
                    call([Out(pk, PK)], |[pk]| {
                        ops::pk_from_sk::<P>(pk, input(sk, SK)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sk_check"))]
            pub unsafe extern "C" fn sk_check(sk: *const u8) -> c_int {
                // SAFETY: mldsa.h: sk holds the key size.
                unsafe { call([], |[]| ops::sk_check::<P>(fixed::<SK>(sk)?)) }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign"))]
            pub unsafe extern "C" fn sign(
                sig: *mut u8,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: mldsa.h: sig and sk hold the set's sizes, m and ctx their lengths.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, None, fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_deterministic"))]
            pub unsafe extern "C" fn sign_deterministic(
                sig: *mut u8,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign`; rnd = 0^32 is FIPS 204's deterministic variant.
                unsafe { sign_rnd(sig, m, mlen, ctx, ctxlen, [0u8; 32].as_ptr(), sk) }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_rnd"))]
            pub unsafe extern "C" fn sign_rnd(
                sig: *mut u8,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign`, rnd 32 bytes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, Some(fixed(rnd)?), fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
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
                // SAFETY: mldsa.h: sig, m, ctx their lengths, pk the key size.
                unsafe {
                    call([], |[]| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_prehash"))]
            pub unsafe extern "C" fn sign_prehash(
                sig: *mut u8,
                ph: c_int,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign`; rnd NULL or 32 bytes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        let msg = Message::PreHash {
                            alg: prehash(ph)?,
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, optional(rnd)?, fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_digest"))]
            pub unsafe extern "C" fn sign_digest(
                sig: *mut u8,
                ph: c_int,
                digest: *const u8,
                dlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign_prehash`, digest `dlen` bytes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        let msg = Message::Digest {
                            alg: prehash(ph)?,
                            digest: input(digest, dlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::sign::<P>(sig, msg, optional(rnd)?, fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verify_prehash"))]
            pub unsafe extern "C" fn verify_prehash(
                sig: *const u8,
                siglen: usize,
                ph: c_int,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: as `verify`.
                unsafe {
                    call([], |[]| {
                        let msg = Message::PreHash {
                            alg: prehash(ph)?,
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verify_digest"))]
            pub unsafe extern "C" fn verify_digest(
                sig: *const u8,
                siglen: usize,
                ph: c_int,
                digest: *const u8,
                dlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: as `verify`.
                unsafe {
                    call([], |[]| {
                        let msg = Message::Digest {
                            alg: prehash(ph)?,
                            digest: input(digest, dlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_compute_mu"))]
            pub unsafe extern "C" fn compute_mu(
                mu: *mut u8,
                m: *const u8,
                mlen: usize,
                ctx: *const u8,
                ctxlen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: mu 64 bytes, the rest as `verify`.
                unsafe {
                    call([Out(mu, 64)], |[mu]| {
                        let msg = Message::Pure {
                            msg: input(m, mlen)?,
                            ctx: input(ctx, ctxlen)?,
                        };
                        ops::compute_mu::<P>(mu, msg, fixed::<PK>(pk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_mu"))]
            pub unsafe extern "C" fn sign_mu(
                sig: *mut u8,
                mu: *const u8,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: mu 64 bytes, rnd NULL or 32, sig and sk the set's sizes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        ops::sign::<P>(
                            sig,
                            Message::Mu(fixed(mu)?),
                            optional(rnd)?,
                            fixed::<SK>(sk)?,
                        )
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verify_mu"))]
            pub unsafe extern "C" fn verify_mu(
                sig: *const u8,
                siglen: usize,
                mu: *const u8,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: as `verify`, mu 64 bytes.
                unsafe {
                    call([], |[]| {
                        ops::verify::<P>(
                            input(sig, siglen)?,
                            Message::Mu(fixed(mu)?),
                            fixed::<PK>(pk)?,
                        )
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_internal"))]
            pub unsafe extern "C" fn sign_internal(
                sig: *mut u8,
                mp: *const u8,
                mplen: usize,
                rnd: *const u8,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign_mu`, M' `mplen` bytes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        let msg = Message::Internal {
                            pre: &[],
                            m: input(mp, mplen)?,
                        };
                        ops::sign::<P>(sig, msg, optional(rnd)?, fixed::<SK>(sk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verify_internal"))]
            pub unsafe extern "C" fn verify_internal(
                sig: *const u8,
                siglen: usize,
                mp: *const u8,
                mplen: usize,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: as `verify`.
                unsafe {
                    call([], |[]| {
                        let msg = Message::Internal {
                            pre: &[],
                            m: input(mp, mplen)?,
                        };
                        ops::verify::<P>(input(sig, siglen)?, msg, fixed::<PK>(pk)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_ctx_new"))]
            pub unsafe extern "C" fn sign_ctx_new(
                out: *mut *mut SignCtx,
                sk: *const u8,
                ctx: *const u8,
                ctxlen: usize,
            ) -> c_int {
                // SAFETY: out writable, sk the key size, ctx `ctxlen` bytes.
                unsafe {
                    call_new(out, || {
                        SignCtx::new::<P>(fixed::<SK>(sk)?, input(ctx, ctxlen)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verify_ctx_new"))]
            pub unsafe extern "C" fn verify_ctx_new(
                out: *mut *mut VerifyCtx,
                pk: *const u8,
                ctx: *const u8,
                ctxlen: usize,
            ) -> c_int {
                // SAFETY: out writable, pk the key size, ctx `ctxlen` bytes.
                unsafe {
                    call_new(out, || {
                        VerifyCtx::new::<P>(fixed::<PK>(pk)?, input(ctx, ctxlen)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_signing_key_new"))]
            pub unsafe extern "C" fn signing_key_new(
                out: *mut *mut SigningKeyObj,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: out writable, sk the key size.
                unsafe {
                    call_new(out, || {
                        Ok(SigningKeyObj::new(
                            mldsa_core::SigningKey::<P>::from_expanded(fixed::<SK>(sk)?)?,
                        ))
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_signing_key_from_seed"))]
            pub unsafe extern "C" fn signing_key_from_seed(
                out: *mut *mut SigningKeyObj,
                seed: *const u8,
            ) -> c_int {
                // SAFETY: out writable, seed 32 bytes.
                unsafe {
                    call_new(out, || {
                        Ok(SigningKeyObj::new(mldsa_core::SigningKey::<P>::from_seed(
                            fixed(seed)?,
                        )))
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_verifying_key_new"))]
            pub unsafe extern "C" fn verifying_key_new(
                out: *mut *mut VerifyingKeyObj,
                pk: *const u8,
            ) -> c_int {
                // SAFETY: out writable, pk the key size.
                unsafe { call_new(out, || VerifyingKeyObj::new::<P>(fixed::<PK>(pk)?)) }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_pk_to_spki"))]
            pub unsafe extern "C" fn pk_to_spki(
                out: *mut *mut u8,
                outlen: *mut usize,
                pk: *const u8,
                format: c_int,
            ) -> c_int {
                // SAFETY: out, outlen writable, pk the key size.
                unsafe {
                    call_alloc(out, outlen, || {
                        pkix::pk_to_spki::<P>(fixed::<PK>(pk)?, Format::from_c(format)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_pk_from_spki"))]
            pub unsafe extern "C" fn pk_from_spki(
                pk: *mut u8,
                doc: *const u8,
                len: usize,
                format: c_int,
            ) -> c_int {
                // SAFETY: pk the key size, doc `len` bytes.
                unsafe {
                    call([Out(pk, PK)], |[pk]| {
                        pkix::pk_from_spki::<P>(pk, input(doc, len)?, Format::from_c(format)?)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_seed_to_pkcs8"))]
            pub unsafe extern "C" fn seed_to_pkcs8(
                out: *mut *mut u8,
                outlen: *mut usize,
                seed: *const u8,
                form: c_int,
                pass: *const u8,
                passlen: usize,
                format: c_int,
            ) -> c_int {
                // SAFETY: out, outlen writable, seed 32 bytes, pass NULL or `passlen` bytes.
                unsafe {
                    call_alloc(out, outlen, || {
                        let pass = if pass.is_null() {
                            None
                        } else {
                            Some(input(pass, passlen)?)
                        };
                        pkix::to_pkcs8::<P>(
                            KeySource::Seed(fixed(seed)?),
                            key_form(form)?,
                            pass,
                            Format::from_c(format)?,
                        )
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sk_to_pkcs8"))]
            pub unsafe extern "C" fn sk_to_pkcs8(
                out: *mut *mut u8,
                outlen: *mut usize,
                sk: *const u8,
                pass: *const u8,
                passlen: usize,
                format: c_int,
            ) -> c_int {
                // SAFETY: out, outlen writable, sk the key size, pass NULL or `passlen` bytes.
                unsafe {
                    call_alloc(out, outlen, || {
                        let pass = if pass.is_null() {
                            None
                        } else {
                            Some(input(pass, passlen)?)
                        };
                        let form = mldsa_core::pkix::KeyForm::Expanded;
                        pkix::to_pkcs8::<P>(
                            KeySource::Expanded(fixed::<SK>(sk)?),
                            form,
                            pass,
                            Format::from_c(format)?,
                        )
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sk_from_pkcs8"))]
            pub unsafe extern "C" fn sk_from_pkcs8(
                sk: *mut u8,
                seed: *mut u8,
                has_seed: *mut c_int,
                doc: *const u8,
                len: usize,
                pass: *const u8,
                passlen: usize,
                format: c_int,
            ) -> c_int {
                // SAFETY: sk the key size, seed NULL or 32 bytes, has_seed NULL or writable,
                // doc `len` bytes, pass NULL or `passlen` bytes.
                unsafe {
                    super::super::store(has_seed, 0);
                    let want_seed = !seed.is_null();
                    let seed_out = Out(
                        if want_seed {
                            seed
                        } else {
                            core::ptr::NonNull::dangling().as_ptr()
                        },
                        if want_seed { 32 } else { 0 },
                    );
                    call([Out(sk, SK), seed_out], |[sk, seed]| {
                        let pass = if pass.is_null() {
                            None
                        } else {
                            Some(input(pass, passlen)?)
                        };
                        let seed = if want_seed { Some(&mut **seed) } else { None };
                        let found = pkix::from_pkcs8::<P>(
                            sk,
                            seed,
                            input(doc, len)?,
                            pass,
                            Format::from_c(format)?,
                        )?;
                        super::super::store(has_seed, c_int::from(found));
                        Ok(())
                    })
                }
            }
        }
    };
}

mldsa_set!(mldsa44, mldsa_core::MlDsa44, "mldsa44");
mldsa_set!(mldsa65, mldsa_core::MlDsa65, "mldsa65");
mldsa_set!(mldsa87, mldsa_core::MlDsa87, "mldsa87");
