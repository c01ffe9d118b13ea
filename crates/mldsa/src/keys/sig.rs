//! [`Signature`]: an encoded ML-DSA signature that has passed strict decoding.

use crate::backend::with_backend;
use crate::encoding::encode::sig_decode;
use crate::error::{Error, Input, to_array};
use crate::params::{
    Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes, MlDsa44,
    MlDsa65, MlDsa87, Parameters, PolyVec,
};
use core::fmt;
use core::marker::PhantomData;

/// An ML-DSA signature (FIPS 204 sigEncode format) of parameter set `P`.
///
/// A value of this type is always canonical: [`Signature::from_bytes`] rejects wrong lengths,
/// non-canonical hint encodings and responses z with ||z||_inf >= gamma1 - beta, so two distinct
/// `Signature`s never encode the same (c-tilde, z, h).
#[derive(Clone, Copy)]
pub struct Signature<P: Parameters> {
    pub(crate) bytes: P::SigBytes,
    _p: PhantomData<P>,
}

impl<P: Parameters> Signature<P> {
    /// Length of an encoded signature in bytes (FIPS 204 Table 2).
    pub const LEN: usize = P::SIG_LEN;

    /// Wraps bytes produced by our own signer.
    pub(crate) fn from_trusted(bytes: P::SigBytes) -> Self {
        Signature {
            bytes,
            _p: PhantomData,
        }
    }

    /// Decodes a signature strictly (FIPS 204 Algorithm 27 plus canonicity checks).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let out: P::SigBytes = to_array(Input::Signature, bytes)?;
        let mut c_tilde = [0u8; 64];
        let mut h = P::VecK::zeroed();
        // Decoded only to be checked: z a polynomial at a time, kept nowhere.
        with_backend!(|b| sig_decode::<P, _>(
            b,
            bytes,
            &mut c_tilde[..P::C_TILDE_LEN],
            h.as_mut(),
            |_, _| {},
        ))
        .map_err(|what| Error::Malformed {
            input: Input::Signature,
            what,
        })?;
        Ok(Self::from_trusted(out))
    }

    /// The encoded signature.
    pub fn to_bytes(&self) -> P::SigBytes {
        self.bytes
    }

    /// The encoded signature, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// c-tilde, the commitment hash (the first lambda/4 bytes).
    pub fn c_tilde(&self) -> &[u8] {
        &self.bytes.as_ref()[..P::C_TILDE_LEN]
    }
}

// Equality of public bytes; written out so that it does not require `P: PartialEq`.
impl<P: Parameters> PartialEq for Signature<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<P: Parameters> Eq for Signature<P> {}

impl<P: Parameters> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<P: Parameters> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<P: Parameters> fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature<{}>(", P::NAME)?;
        for b in &self.c_tilde()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

// `signature::SignatureEncoding` needs `Signature<P>: Into<Repr>`; that impl has to name the
// concrete array type, so it is written once per parameter set.
macro_rules! signature_encoding {
    ($p:ty, $len:literal) => {
        impl From<Signature<$p>> for [u8; $len] {
            fn from(sig: Signature<$p>) -> Self {
                sig.bytes
            }
        }

        impl signature::SignatureEncoding for Signature<$p> {
            type Repr = [u8; $len];
        }
    };
}

signature_encoding!(MlDsa44, 2420);
signature_encoding!(MlDsa65, 3309);
signature_encoding!(MlDsa87, 4627);
signature_encoding!(Dilithium2, 2420);
signature_encoding!(Dilithium3, 3293);
signature_encoding!(Dilithium5, 4595);
signature_encoding!(Dilithium2Aes, 2420);
signature_encoding!(Dilithium3Aes, 3293);
signature_encoding!(Dilithium5Aes, 4595);
