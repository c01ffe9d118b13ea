//! The AES variant of CRYSTALS-Dilithium v3.1 (section 5.3): Dilithium2-AES, Dilithium3-AES and
//! Dilithium5-AES, against the reference KAT as `../shared/vectors/dilithium-aes-round3/`
//! records it (the SHA-256 of the `count = 0` entry; no full `.rsp` is public).
//!
//! The entry is rebuilt exactly as the NIST `PQCgenKAT_sign` harness writes it: the NIST
//! AES-256-CTR DRBG seeded with 00 01 .. 2F gives `seed` and then the 33-byte `msg`; a DRBG
//! re-seeded with `seed` gives zeta for KeyGen; signing is deterministic. The same code first
//! reproduces the three calibration hashes of the SHAKE sets (and their whole `.rsp` files),
//! which shows the entry is formatted right, then the three AES hashes.
//!
//! Beyond entry 0, the full 100-entry KAT files of the AES sets are generated (written under the
//! test's target directory, their SHA-256 printed), and every entry is re-read, imported, signed
//! and opened again; AES keys and signatures are rejected by the SHAKE sets and vice versa.
//! `.ci/run` runs this file on both backends. `-- --nocapture` prints the file hashes.

mod common;

use common::{NistDrbg, parse_entries, read_vector_file};
use mldsa::legacy::{
    self, Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet,
};
use sha2::{Digest, Sha256};

/// The `count`, `seed` and `msg` of the 100 entries of a NIST signature KAT: seeds and messages
/// come one after the other from the master DRBG (entropy 00 01 .. 2F), `mlen = 33 (count + 1)`.
fn kat_requests() -> Vec<([u8; 48], Vec<u8>)> {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut master = NistDrbg::new(&entropy);
    (0..100)
        .map(|i| {
            let seed = master.array::<48>();
            let msg = master.bytes(33 * (i + 1));
            (seed, msg)
        })
        .collect()
}

/// One KAT entry as `PQCgenKAT_sign` prints it (eight lines, upper-case hex, `\n`), made by our
/// KeyGen and deterministic signing.
fn kat_entry<P: DilithiumParameterSet>(count: usize, seed: &[u8; 48], msg: &[u8]) -> String {
    let zeta: [u8; 32] = NistDrbg::new(seed).array();
    let sk = legacy::SigningKey::<P>::from_seed(&zeta);
    let sm = sk.sign_attached(msg).unwrap();
    format!(
        "count = {count}\nseed = {}\nmlen = {}\nmsg = {}\npk = {}\nsk = {}\nsmlen = {}\nsm = {}\n",
        hex::encode_upper(seed),
        msg.len(),
        hex::encode_upper(msg),
        hex::encode_upper(sk.verifying_key().as_bytes()),
        hex::encode_upper(sk.to_bytes()),
        sm.len(),
        hex::encode_upper(&sm),
    )
}

/// The SHA-256 of the `count = 0` entry, as the README's table gives it for set `name` (the
/// SHAKE sets' rows say "(calibration)" after the name).
fn recorded_hash(name: &str) -> String {
    let readme = read_vector_file("dilithium-aes-round3/README.md");
    let row = readme
        .lines()
        .find(|l| {
            l.starts_with(&format!("| {name} |"))
                || l.starts_with(&format!("| {name} (calibration) |"))
        })
        .unwrap_or_else(|| panic!("no row for {name} in the README"));
    let hash = row
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no hash in the row {row}"));
    assert_eq!(hash.len(), 64, "{name}: {hash}");
    hash.to_string()
}

fn entry0_hash<P: DilithiumParameterSet>() -> String {
    let (seed, msg) = &kat_requests()[0];
    hex::encode(Sha256::digest(kat_entry::<P>(0, seed, msg)))
}

/// Calibration: the README's hashes of the SHAKE sets are those of our `count = 0` entries, and
/// every entry we write equals the published `.rsp` file's (so the format, the DRBG sequence and
/// the message lengths are those of the reference harness).
fn calibrate<P: DilithiumParameterSet>() {
    assert_eq!(
        entry0_hash::<P>(),
        recorded_hash(P::NAME),
        "{}: calibration hash",
        P::NAME
    );
    let published = read_vector_file(&format!("dilithium-round3/PQCsignKAT_{}.rsp", P::NAME));
    let ours: String = kat_requests()
        .iter()
        .enumerate()
        .map(|(i, (seed, msg))| kat_entry::<P>(i, seed, msg) + "\n")
        .collect();
    assert!(
        published == format!("# {}\n\n{ours}", P::NAME),
        "{}: our KAT file differs from the published one",
        P::NAME
    );
}

#[test]
fn shake_calibration_hashes_and_files() {
    calibrate::<Dilithium2>();
    calibrate::<Dilithium3>();
    calibrate::<Dilithium5>();
}

#[test]
fn aes_reference_hashes() {
    let sets = [
        ("Dilithium2-AES", entry0_hash::<Dilithium2Aes>()),
        ("Dilithium3-AES", entry0_hash::<Dilithium3Aes>()),
        ("Dilithium5-AES", entry0_hash::<Dilithium5Aes>()),
    ];
    let backend = mldsa::backend::active_backend();
    for (name, ours) in &sets {
        assert_eq!(*ours, recorded_hash(name), "{name} on {backend:?}");
    }
    println!("3 of 3 AES count-0 hashes match on {backend:?}");
}

/// Generates the 100-entry KAT file of AES set `P` into the test's target directory, re-reads
/// it, and for every entry: the secret key imports strictly and signs to the same `sm`, `open`
/// returns the message, the `sm` of the previous entry's message fails, and the SHAKE set of the
/// same level `S` rejects the key pair's signature (and its own signature is rejected by `P`).
fn generated_kat<P: DilithiumParameterSet, S: DilithiumParameterSet>() {
    assert_eq!(
        (P::PK_LEN, P::SK_LEN, P::SIG_LEN),
        (S::PK_LEN, S::SK_LEN, S::SIG_LEN)
    );
    let text: String = std::iter::once(format!("# {}\n\n", P::NAME))
        .chain(
            kat_requests()
                .iter()
                .enumerate()
                .map(|(i, (seed, msg))| kat_entry::<P>(i, seed, msg) + "\n"),
        )
        .collect();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("PQCsignKAT_{}.rsp", P::NAME.replace('-', "_")));
    std::fs::write(&path, &text).unwrap();
    println!(
        "{}: {} bytes, SHA-256 {}",
        path.display(),
        text.len(),
        hex::encode(Sha256::digest(&text))
    );
    let reread = std::fs::read_to_string(&path).unwrap();
    let entries = parse_entries(&reread);
    assert_eq!(entries.len(), 100, "{}", P::NAME);
    let mut opened = 0;
    for (i, e) in entries.iter().enumerate() {
        let what = format!("{} count {i}", P::NAME);
        assert_eq!(e.num("count").unwrap(), i, "{what}");
        let msg = e.hex("msg").unwrap();
        assert_eq!(msg.len(), e.num("mlen").unwrap(), "{what}");
        let sm = e.hex("sm").unwrap();
        assert_eq!(sm.len(), e.num("smlen").unwrap(), "{what}");
        assert_eq!(sm.len(), P::SIG_LEN + msg.len(), "{what}");
        let vk = legacy::VerifyingKey::<P>::from_bytes(&e.hex("pk").unwrap()).unwrap();
        let sk = legacy::SigningKey::<P>::from_bytes(&e.hex("sk").unwrap()).unwrap();
        assert_eq!(sk.verifying_key(), &vk, "{what}: sk and pk disagree");
        assert_eq!(sk.sign_attached(&msg).unwrap(), sm, "{what}: re-signing");
        assert_eq!(vk.open(&sm).unwrap(), msg.as_slice(), "{what}: open");
        opened += 1;
        // Another message under this signature: rejected.
        let mut forged = sm.clone();
        forged[P::SIG_LEN] ^= 1;
        assert!(vk.open(&forged).is_err(), "{what}: tampered message opened");

        // Family separation, both ways: the same public key bytes under the SHAKE set reject the
        // AES signature, and the SHAKE set's signature from the same zeta fails under AES.
        let shake_vk = legacy::VerifyingKey::<S>::from_bytes(&e.hex("pk").unwrap()).unwrap();
        assert!(
            shake_vk.open(&sm).is_err(),
            "{what}: AES sm opened as {}",
            S::NAME
        );
        let zeta: [u8; 32] = NistDrbg::new(&e.hex("seed").unwrap().try_into().unwrap()).array();
        let shake_sk = legacy::SigningKey::<S>::from_seed(&zeta);
        assert_ne!(shake_sk.verifying_key().as_bytes(), vk.as_bytes(), "{what}");
        let shake_sm = shake_sk.sign_attached(&msg).unwrap();
        assert!(vk.open(&shake_sm).is_err(), "{what}: {} sm opened", S::NAME);
        let as_aes = legacy::VerifyingKey::<P>::from_bytes(shake_sk.verifying_key().as_bytes());
        assert!(
            as_aes.unwrap().open(&shake_sm).is_err(),
            "{what}: SHAKE sm under AES"
        );
        // The secret keys are consistent only under their own set: a strict import of the AES
        // key as a SHAKE key fails (t0 and tr do not match ExpandA under SHAKE), and vice versa.
        assert!(
            legacy::SigningKey::<S>::from_bytes(&e.hex("sk").unwrap()).is_err(),
            "{what}"
        );
        assert!(
            legacy::SigningKey::<P>::from_bytes(shake_sk.to_bytes().as_ref()).is_err(),
            "{what}"
        );
    }
    assert_eq!(opened, 100);
}

#[test]
fn generated_kat_dilithium2_aes() {
    generated_kat::<Dilithium2Aes, Dilithium2>();
}

#[test]
fn generated_kat_dilithium3_aes() {
    generated_kat::<Dilithium3Aes, Dilithium3>();
}

#[test]
fn generated_kat_dilithium5_aes() {
    generated_kat::<Dilithium5Aes, Dilithium5>();
}
