//! The spec map in the crate docs and the `FIPS 204 Algorithm N, Name.` tags on the code agree,
//! and both use FIPS 204's own algorithm names. (Go and RustCrypto both shipped wrong citations;
//! this keeps ours honest.)

#[path = "common/source.rs"]
mod source;

use source::doc_table_rows;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// FIPS 204's algorithm names, in order (Algorithms 1 to 49).
const FIPS_204_NAMES: [&str; 49] = [
    "ML-DSA.KeyGen",
    "ML-DSA.Sign",
    "ML-DSA.Verify",
    "HashML-DSA.Sign",
    "HashML-DSA.Verify",
    "ML-DSA.KeyGen_internal",
    "ML-DSA.Sign_internal",
    "ML-DSA.Verify_internal",
    "IntegerToBits",
    "BitsToInteger",
    "IntegerToBytes",
    "BitsToBytes",
    "BytesToBits",
    "CoeffFromThreeBytes",
    "CoeffFromHalfByte",
    "SimpleBitPack",
    "BitPack",
    "SimpleBitUnpack",
    "BitUnpack",
    "HintBitPack",
    "HintBitUnpack",
    "pkEncode",
    "pkDecode",
    "skEncode",
    "skDecode",
    "sigEncode",
    "sigDecode",
    "w1Encode",
    "SampleInBall",
    "RejNTTPoly",
    "RejBoundedPoly",
    "ExpandA",
    "ExpandS",
    "ExpandMask",
    "Power2Round",
    "Decompose",
    "HighBits",
    "LowBits",
    "MakeHint",
    "UseHint",
    "NTT",
    "NTT^-1",
    "BitRev8",
    "AddNTT",
    "MultiplyNTT",
    "AddVectorNTT",
    "ScalarVectorNTT",
    "MatrixVectorNTT",
    "MontgomeryReduce",
];

/// A `FIPS 204 Algorithm N, Name` tag found on a function.
#[derive(Debug)]
struct Tag {
    alg: usize,
    name: String,
    file_stem: String,
    function: String,
}

fn src_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Parses "N, Name..." after "FIPS 204 Algorithm ".
fn parse_tag(rest: &str) -> (usize, String) {
    let (num, after) = rest
        .split_once(", ")
        .expect("tag has the form 'Algorithm N, Name'");
    let alg: usize = num.trim().parse().expect("algorithm number");
    let name: String = after
        .chars()
        .take_while(|c| !matches!(c, ':' | ' ' | '(' | ','))
        .collect();
    (alg, name.trim_end_matches('.').to_string())
}

/// The crate's source files below `dir`, sorted, except the backends' (`backend/`): their
/// kernels cite the algorithm they stand for, while the map names the portable reference.
fn reference_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "backend") {
                reference_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file as the spec map names it: its path under `src/` without `.rs`, with `::` for
/// `/` (`math/ntt.rs` is `math::ntt`).
fn module_path(path: &Path) -> String {
    let rel = path.strip_prefix(src_dir()).unwrap().with_extension("");
    rel.to_string_lossy().replace(['/', '\\'], "::")
}

fn code_tags() -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut files = Vec::new();
    reference_files(&src_dir(), &mut files);
    for path in files {
        let file_stem = module_path(&path);
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("/// FIPS 204 Algorithm ") else {
                continue;
            };
            let (alg, name) = parse_tag(rest);
            // The tagged item is the first `fn` after the doc comment and attributes.
            let function = lines[i + 1..]
                .iter()
                .map(|l| l.trim_start())
                .find(|l| !l.starts_with("///") && !l.starts_with("#["))
                .and_then(|l| l.split_once("fn "))
                .map(|(_, f)| f.split(['(', '<']).next().unwrap().to_string())
                .unwrap_or_else(|| panic!("{file_stem}.rs:{}: tag is not on a function", i + 1));
            tags.push(Tag {
                alg,
                name,
                file_stem: file_stem.clone(),
                function,
            });
        }
    }
    tags
}

/// The rows `| N | Name | `location` ... |` of the spec map in lib.rs.
fn spec_map() -> BTreeMap<usize, (String, String)> {
    let lib = fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let mut map = BTreeMap::new();
    for cells in doc_table_rows(&lib, "Spec map") {
        let Ok(alg) = cells[0].parse::<usize>() else {
            continue;
        };
        let location = cells[2]
            .split('`')
            .nth(1)
            .expect("location in backticks")
            .to_string();
        let previous = map.insert(alg, (cells[1].to_string(), location));
        assert!(
            previous.is_none(),
            "algorithm {alg} listed twice in the spec map"
        );
    }
    map
}

#[test]
fn spec_map_lists_every_algorithm_by_its_fips_204_name() {
    let map = spec_map();
    assert_eq!(map.len(), 49, "the spec map must list Algorithms 1-49");
    for (alg, (name, _)) in &map {
        assert_eq!(name, FIPS_204_NAMES[alg - 1], "spec map row {alg}");
    }
}

#[test]
fn every_code_tag_matches_the_spec_map() {
    let map = spec_map();
    let tags = code_tags();
    assert!(tags.len() >= 49, "found only {} tags", tags.len());
    for tag in &tags {
        let (name, location) = map
            .get(&tag.alg)
            .unwrap_or_else(|| panic!("{tag:?}: algorithm not in the spec map"));
        assert_eq!(&tag.name, name, "{tag:?}: name differs from the spec map");
        let (owner, function) = location.rsplit_once("::").unwrap();
        assert_eq!(tag.function, function, "{tag:?}: spec map says {location}");
        if owner.starts_with(char::is_uppercase) {
            // A method: the file must be the one holding that type.
            let file = src_dir().join(format!("{}.rs", tag.file_stem.replace("::", "/")));
            let text = fs::read_to_string(file).unwrap();
            assert!(
                text.contains(&format!("pub struct {owner}<")),
                "{tag:?}: not in {owner}'s file"
            );
        } else {
            assert_eq!(tag.file_stem, owner, "{tag:?}: spec map says {location}");
        }
    }
}

#[test]
fn every_spec_map_row_has_a_tag_in_the_code() {
    let tags = code_tags();
    for (alg, (_, location)) in spec_map() {
        let function = location.rsplit_once("::").unwrap().1;
        assert!(
            tags.iter().any(|t| t.alg == alg && t.function == function),
            "Algorithm {alg}: no `FIPS 204 Algorithm {alg}` tag on {location}"
        );
    }
}
