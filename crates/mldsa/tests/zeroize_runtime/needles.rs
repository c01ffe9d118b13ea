//! Needles: what the secrets look like in memory (every kind and form), and the table the
//! scanner looks them up in.

use zeroize::Zeroize;

pub(crate) const Q: i64 = 8_380_417;
/// Coefficients per word needle.
pub(crate) const WINDOW: usize = 16;
/// Bytes per window of a packed encoding.
pub(crate) const PACKED_WINDOW: usize = 16;
/// Words with |w| below this are read as residues mod q (lazy NTT outputs stay below 9q).
pub(crate) const CANON_BOUND: i64 = 16 * Q;
/// A word that is not a residue (|w| >= CANON_BOUND); never part of a needle.
pub(crate) const NOT_RESIDUE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Secret {
    /// The seed xi (the private key itself; the harness only ever hands it over by reference).
    Seed,
    RhoPrime,
    K,
    /// rho'' of the signatures the operations make (a secret: with it, y and then s1 follow
    /// from a signature).
    RhoPP,
    S1,
    S2,
    T0,
}

pub(crate) const SECRETS: [Secret; 7] = [
    Secret::Seed,
    Secret::RhoPrime,
    Secret::K,
    Secret::RhoPP,
    Secret::S1,
    Secret::S2,
    Secret::T0,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// The whole byte string (rho' 64 B, K 32 B, rho'' 64 B).
    Whole,
    /// One 8-byte lane of it.
    Lane,
    /// 16 bytes of the skEncode packing.
    Packed,
    /// 16 coefficients, as 32-bit words, mod q.
    Coeffs,
    /// 16 NTT-domain values, as 32-bit words, mod q.
    Ntt,
    /// 16 NTT-domain values times 2^32 (Montgomery form), mod q.
    NttMont,
    /// 16 coefficients as signed bytes (how keys hold s1 and s2).
    Small,
}

pub(crate) const FORMS: [Form; 7] = [
    Form::Whole,
    Form::Lane,
    Form::Packed,
    Form::Coeffs,
    Form::Ntt,
    Form::NttMont,
    Form::Small,
];
pub(crate) const KINDS: usize = SECRETS.len() * FORMS.len();

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kind {
    pub(crate) secret: Secret,
    pub(crate) form: Form,
}

impl Kind {
    pub(crate) fn index(self) -> usize {
        self.secret as usize * FORMS.len() + self.form as usize
    }

    pub(crate) fn from_index(i: usize) -> Self {
        Kind {
            secret: SECRETS[i / FORMS.len()],
            form: FORMS[i % FORMS.len()],
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match self.form {
            Form::Whole => "whole",
            Form::Lane => "8-byte lane",
            Form::Packed => "16 B of packed encoding",
            Form::Coeffs => "16 coefficients",
            Form::Ntt => "16 NTT values",
            Form::NttMont => "16 NTT values (Montgomery)",
            Form::Small => "16 coefficients as bytes",
        };
        write!(f, "{:?} ({form})", self.secret)
    }
}

pub(crate) struct ByteNeedle {
    /// The first 8 bytes, little-endian.
    pub(crate) key: u64,
    pub(crate) kind: Kind,
    pub(crate) len: usize,
    pub(crate) data: [u8; 64],
}

pub(crate) struct WordNeedle {
    /// The first two canonical words: `data[0] << 32 | data[1]`.
    pub(crate) key: u64,
    pub(crate) kind: Kind,
    /// Canonical residues in [0, q).
    pub(crate) data: [u32; WINDOW],
}

/// Bits of the prefilters' hash.
pub(crate) const FILTER_BITS: u32 = 18;

pub(crate) fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FILTER_BITS)) as usize
}

pub(crate) fn filter_has(filter: &[u64], key: u64) -> bool {
    let s = slot(key);
    filter[s / 64] >> (s % 64) & 1 == 1
}

/// Every needle of one run, sorted by key, with a bit-set prefilter per table. Wiped on drop
/// (it is itself a copy of the secrets).
pub(crate) struct Needles {
    pub(crate) bytes: Vec<ByteNeedle>,
    pub(crate) words: Vec<WordNeedle>,
    pub(crate) byte_filter: Vec<u64>,
    pub(crate) word_filter: Vec<u64>,
    /// Needles per kind, for the report.
    pub(crate) counts: [usize; KINDS],
}

impl Drop for Needles {
    fn drop(&mut self) {
        for n in &mut self.bytes {
            n.key.zeroize();
            n.data.zeroize();
        }
        for n in &mut self.words {
            n.key.zeroize();
            n.data.zeroize();
        }
    }
}

/// Collects needles; [`NeedleBuilder::finish`] sorts them and builds the filters.
///
/// The harness must not leave copies of the secrets in freed heap blocks either (a later
/// allocation's unwritten spare capacity could carry them into a scanned block): buffers are
/// sized once (no `realloc`), sorted in place, and wiped on drop.
pub(crate) struct NeedleBuilder {
    pub(crate) bytes: Vec<ByteNeedle>,
    pub(crate) words: Vec<WordNeedle>,
}

impl Default for NeedleBuilder {
    fn default() -> Self {
        Self {
            bytes: Vec::with_capacity(4096),
            words: Vec::with_capacity(4096),
        }
    }
}

pub(crate) fn canon(w: u32) -> u32 {
    let v = w as i32 as i64;
    if v.abs() < CANON_BOUND {
        v.rem_euclid(Q) as u32
    } else {
        NOT_RESIDUE
    }
}

impl NeedleBuilder {
    pub(crate) fn bytes(&mut self, kind: Kind, data: &[u8]) {
        assert!((8..=64).contains(&data.len()));
        let mut d = [0u8; 64];
        d[..data.len()].copy_from_slice(data);
        self.bytes.push(ByteNeedle {
            key: u64::from_le_bytes(data[..8].try_into().unwrap()),
            kind,
            len: data.len(),
            data: d,
        });
    }

    /// A secret byte string: whole, and each 8-byte lane.
    pub(crate) fn string(&mut self, secret: Secret, data: &[u8]) {
        self.bytes(
            Kind {
                secret,
                form: Form::Whole,
            },
            data,
        );
        for lane in data.chunks_exact(8) {
            self.bytes(
                Kind {
                    secret,
                    form: Form::Lane,
                },
                lane,
            );
        }
    }

    /// Non-overlapping 16-byte windows of a packed encoding, skipping dull ones.
    pub(crate) fn packed(&mut self, secret: Secret, data: &[u8]) {
        for w in data.chunks_exact(PACKED_WINDOW) {
            let mut seen = [false; 256];
            w.iter().for_each(|&b| seen[b as usize] = true);
            if seen.iter().filter(|&&s| s).count() >= 6 {
                self.bytes(
                    Kind {
                        secret,
                        form: Form::Packed,
                    },
                    w,
                );
            }
        }
    }

    /// Non-overlapping windows of `WINDOW` values (any integers, reduced mod q), skipping
    /// windows with fewer than 4 distinct values or one value in more than half the places.
    pub(crate) fn windows(&mut self, kind: Kind, values: &[i64]) {
        for w in values.chunks_exact(WINDOW) {
            let mut data = [0u32; WINDOW];
            for (d, &v) in data.iter_mut().zip(w) {
                *d = v.rem_euclid(Q) as u32;
            }
            if lively(&data) {
                self.words.push(WordNeedle {
                    key: (data[0] as u64) << 32 | data[1] as u64,
                    kind,
                    data,
                });
            }
        }
    }

    /// Non-overlapping windows of `WINDOW` coefficients of a small polynomial (s1, s2) as
    /// signed bytes, skipping dull ones as [`Self::windows`] does.
    pub(crate) fn small_windows(&mut self, secret: Secret, values: &[i64]) {
        for w in values.chunks_exact(WINDOW) {
            let mut data = [0u8; WINDOW];
            for (d, &v) in data.iter_mut().zip(w) {
                *d = i8::try_from(v).expect("a small coefficient") as u8;
            }
            if lively(&data) {
                self.bytes(
                    Kind {
                        secret,
                        form: Form::Small,
                    },
                    &data,
                );
            }
        }
    }

    /// A secret polynomial vector (coefficients in (-q, q)): coefficient, NTT and Montgomery
    /// NTT windows, and for s1 and s2 byte windows.
    pub(crate) fn poly_vec(&mut self, secret: Secret, polys: &[[i64; 256]]) {
        for p in polys {
            if matches!(secret, Secret::S1 | Secret::S2) {
                self.small_windows(secret, p);
            }
            self.windows(
                Kind {
                    secret,
                    form: Form::Coeffs,
                },
                p,
            );
            let mut hat = ntt(p);
            self.windows(
                Kind {
                    secret,
                    form: Form::Ntt,
                },
                &hat,
            );
            hat.zeroize();
            let mut mont = hat.map(|x| (x << 32).rem_euclid(Q));
            self.windows(
                Kind {
                    secret,
                    form: Form::NttMont,
                },
                &mont,
            );
            mont.zeroize();
        }
    }

    pub(crate) fn finish(mut self) -> Needles {
        // In place: a stable sort would copy the needles into a scratch buffer and free it.
        self.bytes.sort_unstable_by_key(|n| n.key);
        self.words.sort_unstable_by_key(|n| n.key);
        let mut byte_filter = vec![0u64; (1 << FILTER_BITS) / 64];
        let mut word_filter = vec![0u64; (1 << FILTER_BITS) / 64];
        let mut counts = [0; KINDS];
        for n in &self.bytes {
            let s = slot(n.key);
            byte_filter[s / 64] |= 1 << (s % 64);
            counts[n.kind.index()] += 1;
        }
        for n in &self.words {
            let s = slot(n.key);
            word_filter[s / 64] |= 1 << (s % 64);
            counts[n.kind.index()] += 1;
        }
        Needles {
            bytes: std::mem::take(&mut self.bytes),
            words: std::mem::take(&mut self.words),
            byte_filter,
            word_filter,
            counts,
        }
    }
}

/// Whether a window is worth a needle: at least 4 distinct values, none in more than half the
/// places.
pub(crate) fn lively<T: Copy + Ord>(data: &[T; WINDOW]) -> bool {
    let mut sorted = *data;
    sorted.sort_unstable();
    let mut distinct = 1;
    let mut run = 1;
    let mut longest = 1;
    for i in 1..WINDOW {
        if sorted[i] == sorted[i - 1] {
            run += 1;
        } else {
            distinct += 1;
            run = 1;
        }
        longest = longest.max(run);
    }
    distinct >= 4 && longest <= WINDOW / 2
}

/// FIPS 204 Algorithm 41, NTT, plainly (exact residues in [0, q), no Montgomery arithmetic):
/// independent of the library's lazy, Montgomery-twiddled kernels.
pub(crate) fn ntt(w: &[i64; 256]) -> [i64; 256] {
    let pow = |mut b: i64, mut e: u32| {
        let mut acc = 1i64;
        b = b.rem_euclid(Q);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * b % Q;
            }
            b = b * b % Q;
            e >>= 1;
        }
        acc
    };
    let mut a = w.map(|c| c.rem_euclid(Q));
    let mut m = 0;
    let mut len = 128;
    while len >= 1 {
        let mut start = 0;
        while start < 256 {
            m += 1;
            let z = pow(1753, (m as u8).reverse_bits() as u32);
            for j in start..start + len {
                let t = z * a[j + len] % Q;
                a[j + len] = (a[j] - t).rem_euclid(Q);
                a[j] = (a[j] + t) % Q;
            }
            start += 2 * len;
        }
        len /= 2;
    }
    a
}
