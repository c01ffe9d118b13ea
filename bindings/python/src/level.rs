//! One Rust type per parameter set in the core, one Python class per role here: these enums
//! hold a key of whichever set, and the macros run a body with the set's type in scope.

use mldsa::pkix::{AnySigningKey, AnyVerifyingKey};
use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreparedVerifyingKey, SigningKey, VerifyingKey,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A signing key of any ML-DSA set (the core wipes its secrets when it is dropped).
#[derive(Clone)]
// Held by value inside a heap-allocated Python object, one key each: the size spread
// between sets costs at most a couple of KiB per object.
#[allow(clippy::large_enum_variant)]
pub enum Sk {
    L44(SigningKey<MlDsa44>),
    L65(SigningKey<MlDsa65>),
    L87(SigningKey<MlDsa87>),
}

/// A verifying key of any ML-DSA set, plain or prepared (A-hat expanded once, for many
/// verifications).
// Held by value inside a heap-allocated Python object, one key each: the size spread
// between sets costs at most a couple of KiB per object.
#[allow(clippy::large_enum_variant)]
pub enum Vk {
    L44(VerifyingKey<MlDsa44>),
    L65(VerifyingKey<MlDsa65>),
    L87(VerifyingKey<MlDsa87>),
    P44(Box<PreparedVerifyingKey<MlDsa44>>),
    P65(Box<PreparedVerifyingKey<MlDsa65>>),
    P87(Box<PreparedVerifyingKey<MlDsa87>>),
}

/// Runs `$body` with `$P` naming the parameter set of `$level` (44, 65 or 87); any other level
/// returns a `ValueError` from the enclosing function.
macro_rules! by_level {
    ($level:expr, $P:ident => $body:expr) => {
        match $level {
            44 => {
                type $P = mldsa::MlDsa44;
                $body
            }
            65 => {
                type $P = mldsa::MlDsa65;
                $body
            }
            87 => {
                type $P = mldsa::MlDsa87;
                $body
            }
            other => return Err($crate::level::bad_level(other)),
        }
    };
}

/// Runs `$body` with `$k` bound to the typed signing key in `$sk` and `$P` to its set.
macro_rules! each_sk {
    ($sk:expr, $k:ident, $P:ident => $body:expr) => {
        match $sk {
            $crate::level::Sk::L44($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa44;
                $body
            }
            $crate::level::Sk::L65($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa65;
                $body
            }
            $crate::level::Sk::L87($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa87;
                $body
            }
        }
    };
}

/// Runs `$body` with `$k` bound to the verifying key in `$vk`, plain or prepared (both have
/// `verify_mu` and friends), and `$P` to its set.
macro_rules! each_vk {
    ($vk:expr, $k:ident, $P:ident => $body:expr) => {
        match $vk {
            $crate::level::Vk::L44($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa44;
                $body
            }
            $crate::level::Vk::L65($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa65;
                $body
            }
            $crate::level::Vk::L87($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa87;
                $body
            }
            $crate::level::Vk::P44($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa44;
                $body
            }
            $crate::level::Vk::P65($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa65;
                $body
            }
            $crate::level::Vk::P87($k) => {
                #[allow(dead_code)]
                type $P = mldsa::MlDsa87;
                $body
            }
        }
    };
}

pub(crate) use {by_level, each_sk, each_vk};

pub fn bad_level(level: u16) -> PyErr {
    PyValueError::new_err(format!("level must be 44, 65 or 87, got {level}"))
}

macro_rules! from_typed {
    ($($P:ident => $sk:ident, $vk:ident;)*) => {$(
        impl From<SigningKey<$P>> for Sk {
            fn from(k: SigningKey<$P>) -> Self {
                Sk::$sk(k)
            }
        }
        impl From<VerifyingKey<$P>> for Vk {
            fn from(k: VerifyingKey<$P>) -> Self {
                Vk::$vk(k)
            }
        }
    )*};
}

from_typed! {
    MlDsa44 => L44, L44;
    MlDsa65 => L65, L65;
    MlDsa87 => L87, L87;
}

impl From<AnySigningKey> for Sk {
    fn from(k: AnySigningKey) -> Self {
        match k {
            AnySigningKey::MlDsa44(k) => Sk::L44(k),
            AnySigningKey::MlDsa65(k) => Sk::L65(k),
            AnySigningKey::MlDsa87(k) => Sk::L87(k),
        }
    }
}

impl From<AnyVerifyingKey> for Vk {
    fn from(k: AnyVerifyingKey) -> Self {
        match k {
            AnyVerifyingKey::MlDsa44(k) => Vk::L44(k),
            AnyVerifyingKey::MlDsa65(k) => Vk::L65(k),
            AnyVerifyingKey::MlDsa87(k) => Vk::L87(k),
        }
    }
}

impl Sk {
    pub fn level(&self) -> u16 {
        match self {
            Sk::L44(_) => 44,
            Sk::L65(_) => 65,
            Sk::L87(_) => 87,
        }
    }

    /// The tr every mu this key signs starts with: the expanded key's (= H(pk) unless the key
    /// was imported unchecked with another), as FIPS 204 Sign and the drop-in use it.
    pub fn tr(&self) -> [u8; 64] {
        each_sk!(self, k, P => *k.tr())
    }

    pub fn verifying_key(&self) -> Vk {
        each_sk!(self, k, P => Vk::from(*k.verifying_key()))
    }
}

impl Vk {
    pub fn level(&self) -> u16 {
        match self {
            Vk::L44(_) | Vk::P44(_) => 44,
            Vk::L65(_) | Vk::P65(_) => 65,
            Vk::L87(_) | Vk::P87(_) => 87,
        }
    }

    /// The plain key (the prepared forms keep one inside).
    pub fn plain(&self) -> Vk {
        match self {
            Vk::L44(k) => Vk::L44(*k),
            Vk::L65(k) => Vk::L65(*k),
            Vk::L87(k) => Vk::L87(*k),
            Vk::P44(k) => Vk::L44(*k.verifying_key()),
            Vk::P65(k) => Vk::L65(*k.verifying_key()),
            Vk::P87(k) => Vk::L87(*k.verifying_key()),
        }
    }

    pub fn prepared(&self) -> Vk {
        match self.plain() {
            Vk::L44(k) => Vk::P44(Box::new(k.prepare())),
            Vk::L65(k) => Vk::P65(Box::new(k.prepare())),
            Vk::L87(k) => Vk::P87(Box::new(k.prepare())),
            prepared => prepared,
        }
    }

    pub fn bytes(&self) -> Vec<u8> {
        each_vk!(self, k, P => k.vk().as_bytes().to_vec())
    }

    pub fn tr(&self) -> [u8; 64] {
        each_vk!(self, k, P => *k.vk().tr())
    }
}

/// The plain verifying key inside either form, for the macros' bodies.
pub trait HasVk<P: ParameterSet> {
    fn vk(&self) -> &VerifyingKey<P>;
}

impl<P: ParameterSet> HasVk<P> for VerifyingKey<P> {
    fn vk(&self) -> &VerifyingKey<P> {
        self
    }
}

impl<P: ParameterSet> HasVk<P> for Box<PreparedVerifyingKey<P>> {
    fn vk(&self) -> &VerifyingKey<P> {
        self.verifying_key()
    }
}
