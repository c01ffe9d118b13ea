#!/usr/bin/env bash
# Mutation testing (MUT-1) with cargo-mutants: mutates the portable decoders, rounding, verify,
# packing and sampling code one change at a time (`<` -> `<=`, `&&` -> `||`, a function body
# -> `Ok(())`, ...) and checks that some test fails for each. A mutant that survives ("MISSED")
# is a behaviour no test pins down; SECURITY.md, "Mutation testing", lists every survivor with
# the test that now kills it or why it is equivalent.
#
# Phases, in priority order (bugs 4, 5, 6, 7, 8, 10, 11 of ASSURANCE.md section 1):
#   hints     HintBitUnpack, HintBitPack, BitUnpack (pack.rs)
#   decode    pk/sk/signature decoding (encode.rs), expanded-key decode (expanded.rs)
#   verify    verify.rs
#   rounding  rounding.rs (Power2Round, Decompose, HighBits, LowBits, MakeHint, UseHint)
#   packing   the rest of pack.rs and encode.rs (the encoders)
#   sampling  sample.rs (ExpandA, ExpandS, ExpandMask, SampleInBall)
#   all       every phase above, in that order
#
# Tests: the library's unit tests (without the AVX2-kernel, field and signing-loop tests, which
# do not cover these files and take minutes) and the adversarial and properties suites, with
# MLDSA_BACKEND=portable so that the mutated portable code is what runs (on an AVX2 machine the
# AVX2 kernels would otherwise stand in for much of it), plus the prepared-key suite (the only
# caller of verify_prepared). Test profile (opt-level 3), one job.
# Hung mutants are killed after 3x the baseline test time (at least 120 s).
#
# Cost (2026-11-23, shared 2-vCPU VM, other jobs running): a baseline (~2 min build, ~45-70 s
# tests), then ~20-40 s per mutant (incremental rebuild, tests stop at the first failure).
# Measured: hints 32 mutants in 22 min, decode 40 in 11 min, verify 9 in 7 min, rounding 40 of
# 137 in 13 min. packing (107) and sampling (69) not run yet: `all` is a ~3-hour job.
#
# Usage: bash scripts/mutants.sh [hints|decode|verify|rounding|packing|sampling|all] [cargo-mutants args]
#        e.g. bash scripts/mutants.sh decode --list      (what would be mutated)
#        Results: mutants.out.<phase>/ (outcomes.json, missed.txt, caught.txt, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo-mutants >/dev/null 2>&1; then
    cargo install --locked cargo-mutants
fi

phase=${1:-hints}
shift || true

src=crates/mldsa/src
case $phase in
hints)
    files=(-f "$src/encoding/pack.rs")
    re=(-F 'in hint_bit_unpack|hint_bit_unpack ->|in hint_bit_pack|hint_bit_pack with|in bit_unpack$|bit_unpack ->')
    ;;
decode)
    files=(-f "$src/encoding/encode.rs" -f "$src/algorithm/expanded.rs")
    re=(-F 'sig_decode|sk_decode|pk_decode|unpack_each|ExpandedSecret<P>::decode')
    ;;
verify)
    files=(-f "$src/algorithm/verify.rs")
    re=()
    ;;
rounding)
    files=(-f "$src/math/rounding.rs")
    re=()
    ;;
packing)
    files=(-f "$src/encoding/pack.rs" -f "$src/encoding/encode.rs")
    re=(-E 'hint_bit_unpack|hint_bit_pack|in bit_unpack$|bit_unpack ->|sig_decode|sk_decode|pk_decode|unpack_each')
    ;;
sampling)
    files=(-f "$src/hash/sample.rs")
    re=()
    ;;
all)
    for p in hints decode verify rounding packing sampling; do
        "$0" "$p" "$@" || true
    done
    exit 0
    ;;
*)
    echo "usage: $0 [hints|decode|verify|rounding|packing|sampling|all] [cargo-mutants args]" >&2
    exit 2
    ;;
esac

export MLDSA_BACKEND=portable
out="$PWD/mutants.out.$phase"

# cargo-mutants' own scratch copy does not keep file times, so cargo rebuilds every dependency
# (5 min here) for each run. Instead: copy the tree with tar (which keeps them, and reuses
# target/debug) into a scratch directory and let cargo-mutants mutate that copy in place.
# The real tree is never modified. (--in-place implies one job at a time.)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mldsa-mutants.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# GNU tar exits 1 when a file changed while it was read (a build running in target/ meanwhile):
# harmless for a build cache, which cargo revalidates, so only a worse status is an error.
{ tar --exclude=./target/miri --exclude=./target/miri-avx2 --exclude='./mutants.out*' \
    --exclude=./.git --warning=no-file-changed -cf - . || [ $? -eq 1 ]; } | tar -C "$scratch" -xf -

cd "$scratch"
nice -n 15 cargo mutants -p mldsa --test-package mldsa \
    "${files[@]}" "${re[@]}" \
    --no-shuffle --in-place \
    --timeout-multiplier 3 --minimum-test-timeout 120 \
    --cargo-arg=--lib --cargo-arg=--test=adversarial --cargo-arg=--test=properties \
    --cargo-arg=--test=prepared \
    --output "$out" \
    "$@" \
    -- -- --skip backend::x86_64 --skip field::tests --skip sign::tests --skip signing_key::tests
