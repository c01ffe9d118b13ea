//! Shared by the properties: the `Set` bound, case counts, deterministic RNGs, a trickling
//! reader, and bit-flip and context helpers.

use std::convert::Infallible;
use std::io::{self, Read};

use mldsa::rand_core::{TryCryptoRng, TryRng};
use mldsa::{Error, Input, MAX_CONTEXT_LEN, ParameterSet, Signature, VerifyingKey};
use proptest::test_runner::TestCaseError;

pub(crate) type TestResult = Result<(), TestCaseError>;

/// `ParameterSet` plus `Send + Sync` for the multi-threaded test: neither `ParameterSet` nor
/// its byte array types promise them, so generic code cannot share a `VerifyingKey<P>` or a
/// `Signature<P>` across threads without these extra bounds.
pub(crate) trait Set:
    ParameterSet<PkBytes: Send + Sync, SigBytes: Send + Sync> + Send + Sync
{
}

impl<T> Set for T where T: ParameterSet<PkBytes: Send + Sync, SigBytes: Send + Sync> + Send + Sync {}

/// Cases for properties that sign (each case costs a key generation and a few signatures).
pub(crate) const SIGN_CASES: u32 = 32;
/// Cases for properties that only parse.
pub(crate) const PARSE_CASES: u32 = 256;

/// A small deterministic generator (SplitMix64) posing as a `TryCryptoRng`, so hedged signing
/// is reproducible in tests. Not cryptographic, obviously.
#[derive(Clone, Debug)]
pub(crate) struct TestRng(u64);

impl TestRng {
    pub(crate) fn new(seed: u64) -> Self {
        TestRng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for TestRng {}

/// A generator that only ever returns zero bytes: hedged signing with it must equal
/// deterministic signing (rnd = 0^32).
pub(crate) struct ZeroRng;

impl TryRng for ZeroRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(0)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(0)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

impl TryCryptoRng for ZeroRng {}

/// Splits `msg` at the given cut points (reduced modulo `len + 1` and sorted), empty chunks
/// included.
pub(crate) fn chunks<'a>(msg: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (msg.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::with_capacity(points.len() + 1);
    let mut start = 0;
    for p in points {
        out.push(&msg[start..p]);
        start = p;
    }
    out.push(&msg[start..]);
    out
}

/// A reader that hands out at most `step` bytes per `read` call.
pub(crate) struct TrickleReader<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) step: usize,
}

impl Read for TrickleReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

pub(crate) fn flip_bit(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[bit / 8] ^= 1 << (bit % 8);
    out
}

/// A context that differs from `ctx` (another length or another last byte) and is still legal.
pub(crate) fn other_context(ctx: &[u8]) -> Vec<u8> {
    let mut other = ctx.to_vec();
    if other.len() < MAX_CONTEXT_LEN {
        other.push(0);
    } else {
        other.pop();
    }
    other
}

/// Checks that `bytes` (the signature with one bit flipped) is rejected: either strict
/// decoding fails (necessarily with `Malformed`, the length being right) or verification fails
/// with `InvalidSignature`.
pub(crate) fn flipped_signature_is_rejected<P: Set>(
    vk: &VerifyingKey<P>,
    msg: &[u8],
    ctx: &[u8],
    bytes: &[u8],
) -> Result<(), String> {
    match Signature::<P>::from_bytes(bytes) {
        Err(Error::Malformed {
            input: Input::Signature,
            ..
        }) => Ok(()),
        Err(e) => Err(format!("decoding failed with an unexpected error: {e:?}")),
        Ok(sig) => match vk.verify(msg, ctx, &sig) {
            Err(Error::InvalidSignature) => Ok(()),
            Err(e) => Err(format!("verify failed with an unexpected error: {e:?}")),
            Ok(()) => Err("a modified signature verifies".to_string()),
        },
    }
}
