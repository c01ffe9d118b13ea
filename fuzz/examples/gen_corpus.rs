//! Writes the seed corpus under `fuzz/corpus/<target>/`: a few valid encodings per parameter
//! set, made with the library and the reference encoders of `mldsa_fuzz`, plus boundary and
//! known-bad cases (wrong lengths, the hint-encoding bugs of ASSURANCE.md section 1 items 4-5,
//! z at the norm bound, s1 out of range, tr/t0 mismatches, over-long contexts, PKCS#8 v2).
//! For `c_abi`, full-length inputs in that target's framing (valid signatures for
//! verify_internal, verify_mu and round 3, SPKI and PKCS#8 documents, expanded keys), which the
//! fuzzer did not grow by itself.
//!
//! Deterministic: run it again and the files come out identical.
//!
//! ```sh
//! cd fuzz && cargo run --release --example gen_corpus
//! ```

use std::fs;
use std::path::{Path, PathBuf};

use mldsa::legacy::{
    Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet, SigningKey as LegacySigningKey,
};
use mldsa::pkix::KeyForm;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use mldsa_fuzz::{
    HintInput, RefSig, Set, SignInput, Spec, VerifyInput, hint_bit_pack, hint_offset, sig_decode,
    sig_encode,
};

struct Corpus {
    root: PathBuf,
}

impl Corpus {
    fn put(&self, target: &str, name: &str, data: &[u8]) {
        let dir = self.root.join(target);
        fs::create_dir_all(&dir).expect("create corpus dir");
        fs::write(dir.join(name), data).expect("write corpus file");
    }
}

fn with_set(set: Set, bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![set.to_byte()];
    out.extend_from_slice(bytes);
    out
}

/// DER tag-length-value with a minimal definite length.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = content.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let len = n.to_be_bytes();
        let skip = len.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (len.len() - skip) as u8);
        out.extend_from_slice(&len[skip..]);
    }
    out.extend_from_slice(content);
    out
}

fn oid_arc(set: Set) -> u8 {
    match set {
        Set::MlDsa44 => 0x11,
        Set::MlDsa65 => 0x12,
        Set::MlDsa87 => 0x13,
    }
}

/// A OneAsymmetricKey in the seed form, built by hand, with optional attributes and publicKey.
fn pkcs8_by_hand(set: Set, version: u8, seed: &[u8], attrs: bool, pk: Option<&[u8]>) -> Vec<u8> {
    let oid = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, oid_arc(set)];
    let mut body = tlv(0x02, &[version]);
    body.extend(tlv(0x30, &tlv(0x06, &oid)));
    body.extend(tlv(0x04, &tlv(0x80, seed)));
    if attrs {
        body.extend(tlv(0xa0, &[]));
    }
    if let Some(pk) = pk {
        let mut bits = vec![0u8];
        bits.extend_from_slice(pk);
        body.extend(tlv(0x81, &bits));
    }
    tlv(0x30, &body)
}

const MSG: &[u8] = b"corpus message";
const CTX: &[u8] = b"corpus ctx";

fn per_set<P: ParameterSet>(c: &Corpus, set: Set) {
    let spec: Spec = set.spec();
    let n = set.name();
    let seed = [0x11u8; 32];
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let pk = vk.as_bytes().to_vec();
    let sig = sk
        .sign_deterministic(MSG, CTX)
        .expect("sign")
        .as_bytes()
        .to_vec();
    let expanded = sk.to_expanded_bytes().as_ref().to_vec();

    // sig_decode --------------------------------------------------------------------------
    let t = "sig_decode";
    c.put(t, &format!("{n}-valid"), &with_set(set, &sig));
    c.put(
        t,
        &format!("{n}-short"),
        &with_set(set, &sig[..sig.len() - 1]),
    );
    let mut long = sig.clone();
    long.push(0);
    c.put(t, &format!("{n}-long"), &with_set(set, &long));
    let decoded = sig_decode(&spec, &sig).expect("own signature decodes");
    // omega hints (the most allowed), and z at the norm bound: gamma1 - beta - 1 is valid,
    // gamma1 - beta is not.
    let mut full = decoded.clone();
    let mut left = spec.omega;
    for (i, hi) in full.h.iter_mut().enumerate() {
        *hi = [false; 256];
        let take = if i + 1 == spec.k {
            left
        } else {
            spec.omega / spec.k
        };
        for j in 0..take {
            hi[j * 3 % 256] = true;
        }
        left -= take;
    }
    c.put(
        t,
        &format!("{n}-omega-hints"),
        &with_set(set, &sig_encode(&spec, &full)),
    );
    let bound = (spec.gamma1 - spec.beta) as i32;
    let mut edge: RefSig = decoded.clone();
    edge.z[0][0] = bound - 1;
    edge.z[spec.l - 1][255] = -(bound - 1);
    c.put(
        t,
        &format!("{n}-z-max"),
        &with_set(set, &sig_encode(&spec, &edge)),
    );
    edge.z[0][0] = bound;
    c.put(
        t,
        &format!("{n}-z-over"),
        &with_set(set, &sig_encode(&spec, &edge)),
    );
    edge.z[0][0] = spec.gamma1 as i32;
    c.put(
        t,
        &format!("{n}-z-gamma1"),
        &with_set(set, &sig_encode(&spec, &edge)),
    );
    // z-edit mode (first byte >= 3): one coefficient on the bound (rejected), one just inside.
    let zmode = |edits: &[u8]| {
        let mut out = vec![set.to_byte() + 3];
        out.extend_from_slice(edits);
        out
    };
    c.put(
        t,
        &format!("{n}-zedit-inside"),
        &zmode(&[5, 0, 0xff, 9, 0x80, 0xff]),
    );
    c.put(t, &format!("{n}-zedit-bound"), &zmode(&[5, 0, 0]));
    c.put(t, &format!("{n}-zedit-neg-bound"), &zmode(&[7, 0x81, 0]));
    for (name, bad) in bad_hint_blocks(&spec) {
        let mut s = sig.clone();
        s[hint_offset(&spec)..].copy_from_slice(&bad);
        c.put(t, &format!("{n}-{name}"), &with_set(set, &s));
    }

    // pk_decode ---------------------------------------------------------------------------
    let t = "pk_decode";
    c.put(t, &format!("{n}-valid"), &with_set(set, &pk));
    c.put(
        t,
        &format!("{n}-zero-t1"),
        &with_set(set, &vec![0; spec.pk_len]),
    );
    c.put(
        t,
        &format!("{n}-ones"),
        &with_set(set, &vec![0xff; spec.pk_len]),
    );
    c.put(
        t,
        &format!("{n}-short"),
        &with_set(set, &pk[..pk.len() - 1]),
    );

    // sk_decode ---------------------------------------------------------------------------
    let t = "sk_decode";
    c.put(t, &format!("{n}-valid"), &with_set(set, &expanded));
    c.put(
        t,
        &format!("{n}-short"),
        &with_set(set, &expanded[..expanded.len() - 1]),
    );
    let mut bad = expanded.clone();
    bad[128] = 0xff; // first s1 coefficients: eta - 7 (eta = 2) or eta - 15 (eta = 4)
    c.put(t, &format!("{n}-s1-range"), &with_set(set, &bad));
    let mut bad = expanded.clone();
    bad[64] ^= 1; // tr
    c.put(t, &format!("{n}-tr-mismatch"), &with_set(set, &bad));
    let mut bad = expanded.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1; // t0
    c.put(t, &format!("{n}-t0-mismatch"), &with_set(set, &bad));
    let mut bad = expanded.clone();
    bad[40] ^= 1; // K: still a consistent key, a different signer
    c.put(t, &format!("{n}-other-k"), &with_set(set, &bad));

    // verify ------------------------------------------------------------------------------
    let t = "verify";
    let sig_empty = sk
        .sign_deterministic(MSG, b"")
        .expect("sign")
        .as_bytes()
        .to_vec();
    let v = |pk: &[u8], sig: &[u8], ctx: &[u8], msg: &[u8]| {
        VerifyInput {
            set,
            pk,
            sig,
            ctx,
            msg,
        }
        .encode()
    };
    c.put(t, &format!("{n}-valid"), &v(&pk, &sig, CTX, MSG));
    c.put(
        t,
        &format!("{n}-valid-no-ctx"),
        &v(&pk, &sig_empty, b"", MSG),
    );
    c.put(
        t,
        &format!("{n}-wrong-msg"),
        &v(&pk, &sig, CTX, b"corpus messagf"),
    );
    c.put(t, &format!("{n}-ctx-256"), &v(&pk, &sig, &[b'c'; 256], MSG));
    c.put(t, &format!("{n}-pk-short"), &v(&pk[1..], &sig, CTX, MSG));
    c.put(t, &format!("{n}-sig-short"), &v(&pk, &sig[1..], CTX, MSG));
    c.put(t, &format!("{n}-empty"), &v(b"", b"", b"", b""));

    // hint_roundtrip (the target's fixed key: seed 0x5a.., its message, no context) ---------
    let t = "hint_roundtrip";
    let fixed = SigningKey::<P>::from_seed(&[0x5a; 32]);
    let fixed_sig = fixed
        .sign_deterministic(b"hint_roundtrip fuzz message", b"")
        .expect("sign");
    let original = &fixed_sig.as_bytes()[hint_offset(&spec)..];
    let h = |mode: u8, body: &[u8]| HintInput { set, mode, body }.encode();
    c.put(t, &format!("{n}-original"), &h(0, original));
    for (name, bad) in bad_hint_blocks(&spec) {
        c.put(t, &format!("{n}-{name}"), &h(0, &bad));
    }
    c.put(t, &format!("{n}-none"), &h(1, b""));
    let spread: Vec<u8> = (0..spec.omega)
        .flat_map(|i| [i as u8, (i * 37) as u8])
        .collect();
    c.put(t, &format!("{n}-omega"), &h(1, &spread));
    let over: Vec<u8> = (0..=spec.omega).flat_map(|i| [0, i as u8]).collect();
    c.put(t, &format!("{n}-omega-plus-1"), &h(1, &over));
    c.put(
        t,
        &format!("{n}-last-coeff"),
        &h(1, &[spec.k as u8 - 1, 255, 0, 0]),
    );
    // "counts" mode: the original counts and indices; then the last count one over omega.
    let mut counts = original[spec.omega..].to_vec();
    counts.extend_from_slice(&original[..spec.omega]);
    c.put(t, &format!("{n}-counts-original"), &h(2, &counts));
    counts[spec.k - 1] = spec.omega as u8 + 1;
    c.put(t, &format!("{n}-counts-over"), &h(2, &counts));

    // sign_roundtrip ----------------------------------------------------------------------
    let t = "sign_roundtrip";
    let s = |seed: [u8; 32], rnd: [u8; 32], flip: u16, ctx: &[u8], msg: &[u8]| {
        SignInput {
            set,
            seed,
            rnd,
            flip,
            ctx,
            msg,
        }
        .encode()
    };
    c.put(t, &format!("{n}-basic"), &s([1; 32], [2; 32], 7, CTX, MSG));
    c.put(t, &format!("{n}-empty"), &s([0; 32], [0; 32], 0, b"", b""));
    c.put(
        t,
        &format!("{n}-ctx-255"),
        &s([0xff; 32], [0xee; 32], 0xffff, &[7; 255], b"m"),
    );
    c.put(
        t,
        &format!("{n}-ctx-256"),
        &s([3; 32], [4; 32], 1, &[7; 256], b"m"),
    );

    // pkix_parse --------------------------------------------------------------------------
    let t = "pkix_parse";
    c.put(
        t,
        &format!("{n}-spki.der"),
        &with_set(set, &vk.to_public_key_der()),
    );
    c.put(
        t,
        &format!("{n}-spki.pem"),
        &with_set(set, vk.to_public_key_pem().as_bytes()),
    );
    for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
        let der = sk.to_pkcs8_der(form).expect("pkcs8");
        c.put(t, &format!("{n}-{form}.der"), &with_set(set, &der));
        let pem = sk.to_pkcs8_pem(form).expect("pkcs8 pem");
        c.put(
            t,
            &format!("{n}-{form}.pem"),
            &with_set(set, pem.as_bytes()),
        );
    }
    let v2 = pkcs8_by_hand(set, 1, &seed, false, Some(&pk));
    c.put(t, &format!("{n}-seed-v2.der"), &with_set(set, &v2));
    let attrs = pkcs8_by_hand(set, 0, &seed, true, None);
    c.put(t, &format!("{n}-seed-attrs.der"), &with_set(set, &attrs));
    let v1 = pkcs8_by_hand(set, 0, &seed, false, None);
    assert_eq!(
        v1,
        sk.to_pkcs8_der(KeyForm::Seed).expect("pkcs8").as_slice(),
        "hand-built DER differs from the library's"
    );
    let seed_der = sk.to_pkcs8_der(KeyForm::Seed).expect("pkcs8");
    c.put(
        t,
        &format!("{n}-seed-truncated.der"),
        &with_set(set, &seed_der[..seed_der.len() - 1]),
    );
}

/// Hint blocks that break one rule each (or sit on a boundary).
fn bad_hint_blocks(spec: &Spec) -> Vec<(&'static str, Vec<u8>)> {
    let (k, omega) = (spec.k, spec.omega);
    let mut h = vec![[false; 256]; k];
    h[0][10] = true;
    h[0][20] = true;
    h[1][5] = true;
    let good = hint_bit_pack(&h, omega);
    let mut out = Vec::new();
    let mut b = good.clone();
    b[1] = b[0]; // repeated index (CVE-2026-24850 class)
    out.push(("hint-repeat", b));
    let mut b = good.clone();
    b.swap(0, 1); // decreasing indices
    out.push(("hint-unsorted", b));
    let mut b = good.clone();
    b[omega - 1] = 1; // padding not zero
    out.push(("hint-padding", b));
    let mut b = good.clone();
    b[omega] = 3;
    b[omega + 1] = 2; // counts decreasing
    out.push(("hint-count-down", b));
    let mut b = good.clone();
    b[omega + k - 1] = omega as u8 + 1; // more than omega hints (overflow class)
    out.push(("hint-count-over", b));
    let mut b = good;
    b[omega + k - 1] = omega as u8; // exactly omega with zero padding taken as indices
    out.push(("hint-count-omega", b));
    out
}

/// `backend_diff`: for each of its 15 kernels and each set, one input whose coefficients are
/// all domain edges (selector nibbles 0-4: lo, hi, 0, near lo, near hi) and one pseudorandom
/// one, 1 KiB of material each (the target reads it cyclically).
fn backend_diff(c: &Corpus) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for kernel in 0u8..15 {
        for set in 0u8..3 {
            let mut edge = vec![kernel, set, 0, 0, 0, 0];
            for i in 0..256u32 {
                let v = (i % 5) | (i.wrapping_mul(2_654_435_761) & !15);
                edge.extend_from_slice(&v.to_le_bytes());
            }
            c.put("backend_diff", &format!("k{kernel:02}-{set}-edge"), &edge);
            let mut random = vec![kernel, set];
            random.extend((0..4 + 1024).map(|_| next() as u8));
            c.put(
                "backend_diff",
                &format!("k{kernel:02}-{set}-random"),
                &random,
            );
        }
    }
}

/// An input of the c_abi target: selector, op, two u16-length-prefixed pieces, the rest.
fn c_abi_input(sel: u8, op: u8, a: &[u8], b: &[u8], rest: &[u8]) -> Vec<u8> {
    let mut out = vec![sel, op];
    for piece in [a, b] {
        let len = u16::try_from(piece.len()).expect("piece under 64 KiB");
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(piece);
    }
    out.extend_from_slice(rest);
    out
}

/// c_abi seeds of one ML-DSA set (`sel` selects it; the op byte's low 3 bits pick the call,
/// its high nibble - 2 the pre-hash id, whose low bit is the DER / PEM format).
fn c_abi_set<P: ParameterSet>(c: &Corpus, sel: u8, n: &str) {
    // A whole document or key as the rest of the input, after `sel` and `op`.
    let put = |name: &str, op: u8, body: &[u8]| {
        c.put(
            "c_abi",
            &format!("{n}-{name}"),
            &[&[sel, op], body].concat(),
        );
    };
    let sk = SigningKey::<P>::from_seed(&[0xc5; 32]);
    let vk = sk.verifying_key();
    let pk = vk.as_bytes();
    let rnd = [7u8; 32];
    let m_prime = b"c_abi seed: M'";
    let sig = sk.sign_internal(m_prime, &rnd).expect("sign_internal");
    let input = c_abi_input(sel, 2, sig.as_bytes(), m_prime, pk);
    c.put("c_abi", &format!("{n}-verify-internal"), &input);
    let mu = vk.compute_mu(b"c_abi seed: mu", b"").expect("mu");
    let sig = sk.sign_mu(&mu, &rnd).expect("sign_mu");
    let input = c_abi_input(sel, 7, sig.as_bytes(), &mu, pk);
    c.put("c_abi", &format!("{n}-verify-mu"), &input);
    put("spki.der", 0x23, &vk.to_public_key_der());
    put("spki.pem", 0x33, vk.to_public_key_pem().as_bytes());
    for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
        put(
            &format!("{form}.der"),
            0x24,
            &sk.to_pkcs8_der(form).expect("pkcs8"),
        );
    }
    let pem = sk.to_pkcs8_pem(KeyForm::Both).expect("pkcs8 pem");
    put("both.pem", 0x34, pem.as_bytes());
    put("sk", 5, sk.to_expanded_bytes().as_ref());
}

/// c_abi seeds of the round-3 sets: a valid deterministic signature (sel 3 to 8: SHAKE, then AES).
fn c_abi_round3<P: DilithiumParameterSet>(c: &Corpus, sel: u8, n: &str) {
    let sk = LegacySigningKey::<P>::from_seed(&[0x3c; 32]);
    let msg = b"c_abi seed: round 3";
    let sig = sk.sign_deterministic(msg).expect("round-3 sign");
    let pk = sk.verifying_key().as_bytes();
    let input = c_abi_input(sel, 0, sig.as_bytes(), msg, pk);
    c.put("c_abi", &format!("{n}-verify"), &input);
}

fn c_abi(c: &Corpus) {
    c_abi_set::<MlDsa44>(c, 0, "seed-ml-dsa-44");
    c_abi_set::<MlDsa65>(c, 1, "seed-ml-dsa-65");
    c_abi_set::<MlDsa87>(c, 2, "seed-ml-dsa-87");
    c_abi_round3::<Dilithium2>(c, 3, "seed-dilithium2");
    c_abi_round3::<Dilithium3>(c, 4, "seed-dilithium3");
    c_abi_round3::<Dilithium5>(c, 5, "seed-dilithium5");
    c_abi_round3::<Dilithium2Aes>(c, 6, "seed-dilithium2aes");
    c_abi_round3::<Dilithium3Aes>(c, 7, "seed-dilithium3aes");
    c_abi_round3::<Dilithium5Aes>(c, 8, "seed-dilithium5aes");
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let c = Corpus { root };
    per_set::<MlDsa44>(&c, Set::MlDsa44);
    per_set::<MlDsa65>(&c, Set::MlDsa65);
    per_set::<MlDsa87>(&c, Set::MlDsa87);
    backend_diff(&c);
    c_abi(&c);
    for t in ["sig_decode", "pk_decode", "sk_decode", "pkix_parse"] {
        c.put(t, "empty", b"");
        c.put(t, "set-byte-only", &[2]);
    }
    c.put(
        "pkix_parse",
        "not-pem.txt",
        b"\x00-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n",
    );
    println!("corpus written to {}", c.root.display());
}
