//! `dilithium2_*`, `dilithium3_*`, `dilithium5_*`: CRYSTALS-Dilithium round 3 (v3.1), and
//! `dilithium2aes_*`, `dilithium3aes_*`, `dilithium5aes_*`: its AES variant (v3.1 section 5.3).

use core::ffi::c_int;

use super::{Out, call, fixed, input};
use crate::legacy;

macro_rules! dilithium_set {
    ($module:ident, $set:ty, $prefix:literal) => {
        #[doc = concat!("The `", $prefix, "_*` functions.")]
        pub mod $module {
            use super::*;
            use mldsa_core::Parameters;

            type P = $set;
            pub(crate) const PK: usize = <P as Parameters>::PK_LEN;
            pub(crate) const SK: usize = <P as Parameters>::SK_LEN;
            pub(crate) const SIG: usize = <P as Parameters>::SIG_LEN;

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_keypair"))]
            pub unsafe extern "C" fn keypair(pk: *mut u8, sk: *mut u8) -> c_int {
                // SAFETY: pk and sk hold the set's key sizes.
                unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        legacy::keypair::<P>(pk, sk, None)
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
                // SAFETY: pk and sk hold the key sizes, seed 32 bytes.
                unsafe {
                    call([Out(pk, PK), Out(sk, SK)], |[pk, sk]| {
                        legacy::keypair::<P>(pk, sk, Some(fixed(seed)?))
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sk_check"))]
            pub unsafe extern "C" fn sk_check(sk: *const u8) -> c_int {
                // SAFETY: sk holds the key size.
                unsafe { call([], |[]| legacy::sk_check::<P>(fixed::<SK>(sk)?)) }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign"))]
            pub unsafe extern "C" fn sign(
                sig: *mut u8,
                m: *const u8,
                mlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: sig and sk the set's sizes, m `mlen` bytes.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        legacy::sign::<P>(sig, input(m, mlen)?, fixed::<SK>(sk)?, false)
                    })
                }
            }

            /// # Safety
            /// See mldsa.h (pointer rules).
            #[unsafe(export_name = concat!($prefix, "_sign_randomized"))]
            pub unsafe extern "C" fn sign_randomized(
                sig: *mut u8,
                m: *const u8,
                mlen: usize,
                sk: *const u8,
            ) -> c_int {
                // SAFETY: as `sign`.
                unsafe {
                    call([Out(sig, SIG)], |[sig]| {
                        legacy::sign::<P>(sig, input(m, mlen)?, fixed::<SK>(sk)?, true)
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
                pk: *const u8,
            ) -> c_int {
                // SAFETY: sig, m their lengths, pk the key size.
                unsafe {
                    call([], |[]| {
                        legacy::verify::<P>(input(sig, siglen)?, input(m, mlen)?, fixed::<PK>(pk)?)
                    })
                }
            }
        }
    };
}

dilithium_set!(dilithium2, mldsa_core::legacy::Dilithium2, "dilithium2");
dilithium_set!(dilithium3, mldsa_core::legacy::Dilithium3, "dilithium3");
dilithium_set!(dilithium5, mldsa_core::legacy::Dilithium5, "dilithium5");
dilithium_set!(
    dilithium2aes,
    mldsa_core::legacy::Dilithium2Aes,
    "dilithium2aes"
);
dilithium_set!(
    dilithium3aes,
    mldsa_core::legacy::Dilithium3Aes,
    "dilithium3aes"
);
dilithium_set!(
    dilithium5aes,
    mldsa_core::legacy::Dilithium5Aes,
    "dilithium5aes"
);
