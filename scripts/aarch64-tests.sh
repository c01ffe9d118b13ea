#!/usr/bin/env bash
# The AArch64 build (the NEON backend, the default there) tested under qemu-user, since no ARM
# machine is at hand (issue 38). Cross-built for aarch64-unknown-linux-gnu with Debian's
# aarch64-linux-gnu-gcc as the linker; every test binary runs under qemu-aarch64 (cargo's
# runner). Parts, each timed:
#   unit       the crate's unit tests (every kernel against the portable one, and the rest)
#   no-sha3    the unit tests again on a CPU without the SHA-3 extension (QEMU_CPU=cortex-a72;
#              qemu's default CPU, `max`, has it): the run-time choice of the Keccak build
#   vectors    every shared vector set (ACVP, the reference KATs, round 3 and round 3 AES) on
#              the NEON backend, then again with MLDSA_BACKEND=portable
#   backends   tests/backends.rs: NEON and portable agree byte for byte on whole operations,
#              1000 seeds per ML-DSA set and 100 per Dilithium set (3600 in all)
#   cli        the `mldsa` command cross-built (release): `mldsa demo` on both backends, the
#              README's keygen / sign / verify commands, and `mldsa bench` naming the backend
#   c          the C suite's API checks through the cross-built libmldsa (MLDSA_C_TARGET in
#              crates/mldsa-ffi/tests/c/run.sh: symbols, test_api, the nine drop-in programs)
#   apple      `cargo check` for aarch64-apple-darwin (the library, the C library, the CLI)
#   ct         scripts/ct-check.sh --aarch64: the div scan of the cross-built constant-time
#              harness and the NEON review report (valgrind cannot run AArch64 code)
# The parts under qemu run in the test profile (opt-level 3 with debug assertions and overflow
# checks, as `cargo test` on the host); the CLI, the C library and the harness in the profiles
# users get.
#
# --lean (CI, .ci/run): the subset that proves the NEON build works in about 4 minutes cold on
# 2 cores: the unit tests on the default CPU, the unit tests named `backend::` (the kernels)
# and `hash::` (the sponges and samplers) without SHA-3, the ACVP vectors on NEON (keygen,
# signing and verification of the three ML-DSA sets, every interface), the backend comparison
# on 100 seeds per ML-DSA set and 10 per Dilithium set (360 in all), and the Apple check. The
# rest (the portable reruns, the other vector sets, 1000 seeds, CLI, C, ct) is the full run.
#
# Usage: bash scripts/aarch64-tests.sh [--lean] [PART ...]   (default: every part)
# Installs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, binutils-aarch64-linux-gnu and
# qemu-user from Debian when missing (as root), and the Rust targets with rustup. The test
# vectors are read from ../shared/vectors, as on the host.
set -euo pipefail
cd "$(dirname "$0")/.."

lean=0
if [ "${1:-}" = --lean ]; then
    lean=1
    shift
fi
all_parts=(unit no-sha3 vectors backends cli c apple ct)
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then
    if [ $lean -eq 1 ]; then parts=(unit no-sha3 vectors backends apple); else parts=("${all_parts[@]}"); fi
fi
for p in "${parts[@]}"; do
    case " ${all_parts[*]} " in
    *" $p "*) ;;
    *)
        echo "usage: $0 [--lean] [${all_parts[*]// /|} ...]" >&2
        exit 2
        ;;
    esac
done

T=aarch64-unknown-linux-gnu
QEMU=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
need=()
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v aarch64-linux-gnu-objdump >/dev/null || need+=(binutils-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} from Debian's packages"
    (apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}") >/dev/null
fi
rustup target add "$T" aarch64-apple-darwin >/dev/null 2>&1
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="${QEMU[*]}"
unset MLDSA_BACKEND QEMU_CPU

timings=()
failed=()
# part NAME COMMAND...: runs COMMAND, records its time and whether it passed.
part() {
    local name=$1 start=$SECONDS
    shift
    echo
    echo "=== aarch64: $name"
    if "$@"; then
        timings+=("$(printf '%-10s %4d s  ok' "$name" $((SECONDS - start)))")
    else
        timings+=("$(printf '%-10s %4d s  FAILED' "$name" $((SECONDS - start)))")
        failed+=("$name")
    fi
}
wanted() { [[ " ${parts[*]} " == *" $1 "* ]]; }

# The tests run in the test profile; builds go to the usual target/ (target/$T/debug).
test_mldsa() { cargo test -p mldsa --target "$T" "$@"; }

# (That the default backend is NEON there is asserted by tests/backends.rs, test_api.c and the
# ct part's harness run.)
# --lean skips the exhaustive tests of the portable scalar helpers over Z_q (math::field and
# math::rounding: about 3 minutes under qemu; no backend code in them); the full run has them.
PORTABLE_EXHAUSTIVE=(--skip math::field::tests::reduce32_and_freeze_exhaustive
    --skip math::field::tests::abs_caddq_center_exhaustive --skip math::rounding::tests::power2_round_exhaustive
    --skip math::rounding::tests::decompose_high_low_use_hint_exhaustive
    --skip math::rounding::tests::make_hint_exhaustive_in_r)
# lib_tests [FILTER...]: the lib tests (less the above with --lean); fails if none ran.
lib_tests() {
    local out
    if [ $lean -eq 1 ]; then
        out=$(test_mldsa --lib -- "$@" "${PORTABLE_EXHAUSTIVE[@]}" 2>&1) || { echo "$out"; return 1; }
    else
        out=$(test_mldsa --lib -- "$@" 2>&1) || { echo "$out"; return 1; }
    fi
    echo "$out" | grep -v ' \.\.\. ok$'
    grep -qE '^test result: ok\. [1-9][0-9]* passed' <<<"$out"
}
unit() { lib_tests; }
# The Keccak build is chosen at run time (the SHA-3 instructions where the CPU has them): on a
# CPU without them, the sponge, sampler and backend tests (--lean) or all of them.
no_sha3() {
    if [ $lean -eq 1 ]; then
        QEMU_CPU=cortex-a72 lib_tests hash:: backend::
    else
        QEMU_CPU=cortex-a72 lib_tests
    fi
}
VECTOR_TESTS=(--test acvp --test ref_kat --test kat_round3 --test kat_round3_aes)
vectors() {
    if [ $lean -eq 1 ]; then
        test_mldsa --test acvp
    else
        test_mldsa "${VECTOR_TESTS[@]}" &&
            MLDSA_BACKEND=portable test_mldsa "${VECTOR_TESTS[@]}"
    fi
}
backends() {
    local out seeds
    seeds=$([ $lean -eq 1 ] && echo 100 || echo 1000)
    out=$(MLDSA_BACKENDS_SEEDS=$seeds test_mldsa --test backends -- --nocapture) || {
        echo "$out"
        return 1
    }
    echo "$out"
    # The comparison must have run NEON against portable, not found nothing to compare.
    grep -q "portable, Neon agree on $((3 * seeds)) ML-DSA seeds" <<<"$out"
}

cli() {
    local bin=target/$T/release/mldsa dir out backend
    cargo build --release -p mldsa-cli --target "$T" || return 1
    dir=$(mktemp -d)
    for backend in neon portable; do
        # shellcheck disable=SC2046 # no variable on the NEON run
        out=$(env $([ $backend = portable ] && echo MLDSA_BACKEND=portable) "${QEMU[@]}" "$bin" demo) || {
            echo "$out"
            return 1
        }
        echo "$out"
        grep -q '^3. verify   original message: valid$' <<<"$out" &&
            grep -q '^4. verify   message with one more byte: INVALID (as it should be)$' <<<"$out" ||
            return 1
        echo "demo ($backend backend): ok"
    done
    # The README's commands (## The `mldsa` command), in a scratch directory.
    (
        cd "$dir" &&
            echo "quarterly figures" >report.pdf &&
            "${QEMU[@]}" "$OLDPWD/$bin" keygen -o key.pem --pub pub.pem &&
            "${QEMU[@]}" "$OLDPWD/$bin" sign -k key.pem -o report.sig report.pdf &&
            "${QEMU[@]}" "$OLDPWD/$bin" verify -p pub.pem -s report.sig report.pdf &&
            echo tampered >>report.pdf &&
            { "${QEMU[@]}" "$OLDPWD/$bin" verify -p pub.pem -s report.sig report.pdf; [ $? -eq 1 ]; }
    ) || {
        echo "the README's keygen / sign / verify commands failed under qemu"
        return 1
    }
    echo "README commands: keygen, sign, verify ok; a changed file is rejected (exit 1)"
    out=$("${QEMU[@]}" "$bin" bench -a ML-DSA-44 -n 1) || return 1
    grep -m1 '^backend:' <<<"$out"
    grep -q '^backend: neon' <<<"$out"
    rm -rf "$dir"
}

c_suite() {
    # The host test flattens the ACVP files for the C programs, then runs run.sh in its
    # AArch64 mode (the library and the programs cross-built, run under qemu).
    MLDSA_C_TARGET=$T cargo test -p mldsa-ffi --test c_suite -- --nocapture
}

# Apple silicon: no macOS SDK here, so `cargo clippy` (a check, and the lints the host's
# clippy never sees in AArch64-only code, warnings denied) rather than a build. The C library's
# build script compiles its randombytes hook (stddef.h, stdint.h only) with clang's freestanding
# headers for the Apple target.
apple() {
    cargo clippy -p mldsa --target aarch64-apple-darwin --all-features --lib --tests -- -D warnings &&
        CC_aarch64_apple_darwin=clang AR_aarch64_apple_darwin=llvm-ar \
            CFLAGS_aarch64_apple_darwin=-ffreestanding \
            cargo clippy -p mldsa-ffi -p mldsa-cli --target aarch64-apple-darwin -- -D warnings
}

ct() { bash scripts/ct-check.sh --aarch64 3; }

wanted unit && part unit unit
wanted no-sha3 && part no-sha3 no_sha3
wanted vectors && part vectors vectors
wanted backends && part backends backends
wanted cli && part cli cli
wanted c && part c c_suite
wanted apple && part apple apple
wanted ct && part ct ct

echo
echo "=== aarch64: timings$([ $lean -eq 1 ] && echo ' (--lean)')"
printf '%s\n' "${timings[@]}"
echo "total      $SECONDS s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
