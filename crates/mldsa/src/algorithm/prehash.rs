//! The pre-hash functions HashML-DSA may use (FIPS 204 section 5.4) and their OIDs.

use crate::error::{Error, Input};
use crate::hash::keccak::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use core::fmt;
use core::str::FromStr;
use sha2::Digest;

/// A hash function approved for HashML-DSA (FIPS 204 section 5.4.1).
///
/// FIPS 204 asks that the hash offer at least the parameter set's collision strength
/// (lambda bits: 128, 192, 256), but does not forbid weaker combinations; this crate accepts
/// every pairing, as the NIST test vectors do, and leaves that policy to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PreHash {
    /// SHA2-224 (FIPS 180-4).
    Sha2_224,
    /// SHA2-256 (FIPS 180-4).
    Sha2_256,
    /// SHA2-384 (FIPS 180-4).
    Sha2_384,
    /// SHA2-512 (FIPS 180-4).
    Sha2_512,
    /// SHA2-512/224 (FIPS 180-4).
    Sha2_512_224,
    /// SHA2-512/256 (FIPS 180-4).
    Sha2_512_256,
    /// SHA3-224 (FIPS 202).
    Sha3_224,
    /// SHA3-256 (FIPS 202).
    Sha3_256,
    /// SHA3-384 (FIPS 202).
    Sha3_384,
    /// SHA3-512 (FIPS 202).
    Sha3_512,
    /// SHAKE128 with 256 bits of output (FIPS 202).
    Shake128,
    /// SHAKE256 with 512 bits of output (FIPS 202).
    Shake256,
}

impl PreHash {
    /// Every pre-hash FIPS 204 allows.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha2_224,
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
        PreHash::Sha2_512_224,
        PreHash::Sha2_512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The name NIST uses (as in the ACVP vectors), e.g. `"SHA2-512/256"` or `"SHAKE-128"`.
    pub const fn name(self) -> &'static str {
        match self {
            PreHash::Sha2_224 => "SHA2-224",
            PreHash::Sha2_256 => "SHA2-256",
            PreHash::Sha2_384 => "SHA2-384",
            PreHash::Sha2_512 => "SHA2-512",
            PreHash::Sha2_512_224 => "SHA2-512/224",
            PreHash::Sha2_512_256 => "SHA2-512/256",
            PreHash::Sha3_224 => "SHA3-224",
            PreHash::Sha3_256 => "SHA3-256",
            PreHash::Sha3_384 => "SHA3-384",
            PreHash::Sha3_512 => "SHA3-512",
            PreHash::Shake128 => "SHAKE-128",
            PreHash::Shake256 => "SHAKE-256",
        }
    }

    /// Length of the digest HashML-DSA signs, in bytes.
    pub const fn digest_len(self) -> usize {
        match self {
            PreHash::Sha2_224 | PreHash::Sha2_512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha2_256 | PreHash::Sha2_512_256 | PreHash::Sha3_256 => 32,
            PreHash::Shake128 => 32,
            PreHash::Sha2_384 | PreHash::Sha3_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }

    /// The DER encoding of the hash's OID, as FIPS 204 Algorithm 4 places it in M'.
    ///
    /// All twelve live under 2.16.840.1.101.3.4.2 (NIST hash algorithms), arcs 1 to 12.
    pub const fn oid_der(self) -> [u8; 11] {
        let arc = match self {
            PreHash::Sha2_256 => 0x01,
            PreHash::Sha2_384 => 0x02,
            PreHash::Sha2_512 => 0x03,
            PreHash::Sha2_224 => 0x04,
            PreHash::Sha2_512_224 => 0x05,
            PreHash::Sha2_512_256 => 0x06,
            PreHash::Sha3_224 => 0x07,
            PreHash::Sha3_256 => 0x08,
            PreHash::Sha3_384 => 0x09,
            PreHash::Sha3_512 => 0x0A,
            PreHash::Shake128 => 0x0B,
            PreHash::Shake256 => 0x0C,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, arc,
        ]
    }
}

impl fmt::Display for PreHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given to [`PreHash::from_str`] is not a known pre-hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownPreHash;

impl fmt::Display for UnknownPreHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown pre-hash; expected one of SHA2-224, SHA2-256, SHA2-384, SHA2-512, \
             SHA2-512/224, SHA2-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE-128, \
             SHAKE-256",
        )
    }
}

impl core::error::Error for UnknownPreHash {}

impl FromStr for PreHash {
    type Err = UnknownPreHash;

    /// Parses NIST's names ("SHA2-256", "SHA2-512/224", "SHAKE-128"), ignoring case, and the
    /// common spellings without the "2" or the hyphen ("SHA-256", "SHA256", "SHAKE128").
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut buf = [0u8; 16];
        let mut len = 0;
        for b in s.bytes().filter(|&b| b != b'-' && b != b'_') {
            *buf.get_mut(len).ok_or(UnknownPreHash)? = b.to_ascii_uppercase();
            len += 1;
        }
        let canon = &buf[..len];
        // Compares the canonical input with the concatenation of `parts`, hyphens dropped.
        let matches = |parts: &[&str]| {
            let name = parts.iter().flat_map(|p| p.bytes()).filter(|&b| b != b'-');
            canon.iter().copied().eq(name)
        };
        PreHash::ALL
            .into_iter()
            .find(|ph| {
                let name = ph.name();
                matches(&[name])
                    || name
                        .strip_prefix("SHA2")
                        .is_some_and(|rest| matches(&["SHA", rest]))
            })
            .ok_or(UnknownPreHash)
    }
}

/// A message digest ready for HashML-DSA: the hash function and its output PH(M).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PreHashed {
    alg: PreHash,
    digest: [u8; 64],
}

impl fmt::Debug for PreHashed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PreHashed")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

impl PreHashed {
    /// Hashes `msg` with `alg` ("hash it for me").
    pub fn hash(alg: PreHash, msg: &[u8]) -> Self {
        let mut h = PreHasher::new(alg);
        h.update(msg);
        h.finalize()
    }

    /// Wraps a digest the caller computed ("here is the digest"); its length must be
    /// `alg.digest_len()`.
    pub fn from_digest(alg: PreHash, digest: &[u8]) -> Result<Self, Error> {
        crate::error::check_len(Input::Digest, digest, alg.digest_len())?;
        let mut d = [0u8; 64];
        d[..digest.len()].copy_from_slice(digest);
        Ok(Self { alg, digest: d })
    }

    /// The hash function.
    pub fn algorithm(&self) -> PreHash {
        self.alg
    }

    /// The digest PH(M).
    pub fn digest(&self) -> &[u8] {
        &self.digest[..self.alg.digest_len()]
    }
}

/// Incremental computation of a [`PreHashed`], for messages that arrive in pieces.
#[derive(Clone)]
pub struct PreHasher(HasherState);

#[derive(Clone)]
enum HasherState {
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
    Sha512_224(sha2::Sha512_224),
    Sha512_256(sha2::Sha512_256),
    Sha3_224(Sha3_224),
    Sha3_256(Sha3_256),
    Sha3_384(Sha3_384),
    Sha3_512(Sha3_512),
    Shake128(Shake128),
    Shake256(Shake256),
}

impl fmt::Debug for PreHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PreHasher").field(&self.algorithm()).finish()
    }
}

impl PreHasher {
    /// A hasher for `alg`.
    pub fn new(alg: PreHash) -> Self {
        let keccak = crate::backend::keccak();
        PreHasher(match alg {
            PreHash::Sha2_224 => HasherState::Sha224(Default::default()),
            PreHash::Sha2_256 => HasherState::Sha256(Default::default()),
            PreHash::Sha2_384 => HasherState::Sha384(Default::default()),
            PreHash::Sha2_512 => HasherState::Sha512(Default::default()),
            PreHash::Sha2_512_224 => HasherState::Sha512_224(Default::default()),
            PreHash::Sha2_512_256 => HasherState::Sha512_256(Default::default()),
            PreHash::Sha3_224 => HasherState::Sha3_224(Sha3_224::with(keccak)),
            PreHash::Sha3_256 => HasherState::Sha3_256(Sha3_256::with(keccak)),
            PreHash::Sha3_384 => HasherState::Sha3_384(Sha3_384::with(keccak)),
            PreHash::Sha3_512 => HasherState::Sha3_512(Sha3_512::with(keccak)),
            PreHash::Shake128 => HasherState::Shake128(Shake128::with(keccak)),
            PreHash::Shake256 => HasherState::Shake256(Shake256::with(keccak)),
        })
    }

    /// The hash function.
    pub fn algorithm(&self) -> PreHash {
        match &self.0 {
            HasherState::Sha224(_) => PreHash::Sha2_224,
            HasherState::Sha256(_) => PreHash::Sha2_256,
            HasherState::Sha384(_) => PreHash::Sha2_384,
            HasherState::Sha512(_) => PreHash::Sha2_512,
            HasherState::Sha512_224(_) => PreHash::Sha2_512_224,
            HasherState::Sha512_256(_) => PreHash::Sha2_512_256,
            HasherState::Sha3_224(_) => PreHash::Sha3_224,
            HasherState::Sha3_256(_) => PreHash::Sha3_256,
            HasherState::Sha3_384(_) => PreHash::Sha3_384,
            HasherState::Sha3_512(_) => PreHash::Sha3_512,
            HasherState::Shake128(_) => PreHash::Shake128,
            HasherState::Shake256(_) => PreHash::Shake256,
        }
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            HasherState::Sha224(h) => h.update(data),
            HasherState::Sha256(h) => h.update(data),
            HasherState::Sha384(h) => h.update(data),
            HasherState::Sha512(h) => h.update(data),
            HasherState::Sha512_224(h) => h.update(data),
            HasherState::Sha512_256(h) => h.update(data),
            HasherState::Sha3_224(h) => h.absorb(data),
            HasherState::Sha3_256(h) => h.absorb(data),
            HasherState::Sha3_384(h) => h.absorb(data),
            HasherState::Sha3_512(h) => h.absorb(data),
            HasherState::Shake128(h) => h.absorb(data),
            HasherState::Shake256(h) => h.absorb(data),
        }
    }

    /// The digest of everything absorbed.
    pub fn finalize(self) -> PreHashed {
        let alg = self.algorithm();
        let mut digest = [0u8; 64];
        let out = &mut digest[..alg.digest_len()];
        match self.0 {
            HasherState::Sha224(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha256(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha384(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha512(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha512_224(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha512_256(h) => out.copy_from_slice(&h.finalize()),
            HasherState::Sha3_224(mut h) => squeeze(&mut h, out),
            HasherState::Sha3_256(mut h) => squeeze(&mut h, out),
            HasherState::Sha3_384(mut h) => squeeze(&mut h, out),
            HasherState::Sha3_512(mut h) => squeeze(&mut h, out),
            HasherState::Shake128(mut h) => squeeze(&mut h, out),
            HasherState::Shake256(mut h) => squeeze(&mut h, out),
        }
        PreHashed { alg, digest }
    }
}

fn squeeze<const RATE: usize, const DS: u8>(
    h: &mut crate::hash::keccak::Sponge<RATE, DS>,
    out: &mut [u8],
) {
    h.finalize();
    h.squeeze(out);
}

write_via_update!([] PreHasher);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for ph in PreHash::ALL {
            assert_eq!(ph.name().parse::<PreHash>(), Ok(ph));
            assert_eq!(ph.name().to_lowercase().parse::<PreHash>(), Ok(ph));
        }
        assert_eq!("sha256".parse::<PreHash>(), Ok(PreHash::Sha2_256));
        assert_eq!("SHA-512/256".parse::<PreHash>(), Ok(PreHash::Sha2_512_256));
        assert_eq!("shake128".parse::<PreHash>(), Ok(PreHash::Shake128));
        assert_eq!("md5".parse::<PreHash>(), Err(UnknownPreHash));
        assert_eq!(
            "SHA3-256-and-much-more".parse::<PreHash>(),
            Err(UnknownPreHash)
        );
    }

    #[test]
    fn digest_length_is_checked() {
        for ph in PreHash::ALL {
            let n = ph.digest_len();
            assert!(PreHashed::from_digest(ph, &vec![0; n]).is_ok());
            for bad in [0, n - 1, n + 1] {
                assert_eq!(
                    PreHashed::from_digest(ph, &vec![0; bad]),
                    Err(Error::Length {
                        input: Input::Digest,
                        expected: n,
                        got: bad
                    })
                );
            }
            assert_eq!(PreHashed::hash(ph, b"abc").digest().len(), n);
        }
    }
}
