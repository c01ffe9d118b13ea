//! The parameter-set constants and the pre-hash names ACVP uses.

use std::str::FromStr;

use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash};

// ---------------------------------------------------------------------------------------------
// Parameter-set constants
// ---------------------------------------------------------------------------------------------

#[test]
fn parameter_set_constants() {
    fn check<P: ParameterSet>(name: &str, pk: usize, sk: usize, sig: usize) {
        assert_eq!(P::NAME, name);
        assert_eq!(P::PK_LEN, pk, "{name} PK_LEN");
        assert_eq!(P::SK_LEN, sk, "{name} SK_LEN");
        assert_eq!(P::SIG_LEN, sig, "{name} SIG_LEN");
    }
    check::<MlDsa44>("ML-DSA-44", 1312, 2560, 2420);
    check::<MlDsa65>("ML-DSA-65", 1952, 4032, 3309);
    check::<MlDsa87>("ML-DSA-87", 2592, 4896, 4627);
}

#[test]
fn prehash_names_parse() {
    // Every ACVP hashAlg name parses, and Display gives the ACVP name back.
    for name in [
        "SHA2-224",
        "SHA2-256",
        "SHA2-384",
        "SHA2-512",
        "SHA2-512/224",
        "SHA2-512/256",
        "SHA3-224",
        "SHA3-256",
        "SHA3-384",
        "SHA3-512",
        "SHAKE-128",
        "SHAKE-256",
    ] {
        match PreHash::from_str(name) {
            Ok(ph) => assert_eq!(ph.to_string(), name, "PreHash::from_str({name:?}) Display"),
            Err(e) => panic!("PreHash::from_str({name:?}) returned Err({e:?})"),
        }
    }
    // Names that are not hash functions of FIPS 204 are refused. (The library deliberately
    // accepts case variants and the spellings without "2" / hyphen, e.g. "SHA-256".)
    for bad in [
        "",
        "none",
        "SHA2-256x",
        "SHA2-1024",
        "SHAKE-512",
        "SHA1",
        "MD5",
    ] {
        assert!(
            PreHash::from_str(bad).is_err(),
            "PreHash::from_str({bad:?}) should fail"
        );
    }
}
