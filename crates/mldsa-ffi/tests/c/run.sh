#!/usr/bin/env bash
# The C suite of libmldsa (driven by tests/c_suite.rs, which writes WORK/acvp.txt first):
#   1. builds libmldsa (release, LTO) and lays it out as installed: libmldsa.so.0 + libmldsa.so;
#   2. symbol check: the .so exports exactly the functions the headers declare (nm -D);
#   3. the headers compile as C99, C11 and C++20 with -Wall -Wextra -Werror -pedantic, and
#      ignoring a result is a -Werror failure (warn_unused_result);
#   4. stack: every operation through the C ABI on a painted 512 KiB thread stack must need
#      at most 128 KiB (signing 112 KiB), on both backends (stack.c);
#   5. test_api (idiomatic API: ACVP, KATs, error paths, round trips, drop-in = idiomatic; the
#      round-3 AES variant's count = 0 KAT entry through dilithiumNaes_*, hashed here) and
#      kat_dropin (reference-style programs, .rsp byte for byte; for the round-3 AES variant the
#      SHA-256 of its count = 0 entry) run plain, under
#      -fsanitize=address,undefined (gcc, and clang when installed), and under valgrind
#      memcheck (0 errors, 0 leaks; test_api on every 8th vector there, for time);
#   6. installed into a temporary prefix (pkg/install.sh): a program including the drop-ins'
#      "sign.h" or "../sign.h" builds with only -I, -D and -l flags (dropin_sign_h.c), and the
#      README's C and C++ commands run as written (readme.sh: pkg-config, static, CMake).
# Prints one PASS/FAIL line per stage and closes with "N passed, N failed".
#
# With MLDSA_C_TARGET=aarch64-unknown-linux-gnu in the environment (scripts/aarch64-tests.sh
# sets it), the API checks run on AArch64 instead: libmldsa cross-built for that target (the
# NEON backend), its symbols checked with aarch64-linux-gnu-nm, test_api and the nine drop-in
# programs compiled with aarch64-linux-gnu-gcc and run under qemu-aarch64 (stages 1, 2 and 5
# without the sanitizers and valgrind, which do not apply), in WORK_DIR/aarch64; the headers
# stage runs as on the host; the stack, sanitizer, valgrind and install stages are skipped. The
# caller provides the cross tools and the cargo linker setting (the script does).
# usage: run.sh WORK_DIR
set -uo pipefail
cd "$(dirname "$0")/../../../.."
WORK=${1:?usage: run.sh WORK_DIR}
CRATE=crates/mldsa-ffi
T=$CRATE/tests/c
INC=$CRATE/include
VEC=../shared/vectors
TARGET=${MLDSA_C_TARGET:-}
RUN=() # how a compiled test program runs: directly, or under qemu for a cross target
case "$TARGET" in
"") ;;
aarch64-unknown-linux-gnu)
    RUN=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
    mkdir -p "$WORK/aarch64"
    cp "$WORK/acvp.txt" "$WORK/aarch64/acvp.txt" || exit 1
    WORK=$WORK/aarch64
    ;;
*)
    echo "MLDSA_C_TARGET=$TARGET: only aarch64-unknown-linux-gnu is supported" >&2
    exit 1
    ;;
esac
LIB=$WORK/lib
passed=0
failed=0
stage() { # stage NAME COMMAND...: runs COMMAND, output to WORK/NAME.log, prints PASS/FAIL
    local name=$1 start=$SECONDS
    shift
    if "$@" >"$WORK/$name.log" 2>&1; then
        passed=$((passed + 1))
        echo "PASS $name ($((SECONDS - start)) s)$(grep -h 'passed, ' "$WORK/$name.log" | sort | head -1 | sed 's/^/: /')"
    else
        failed=$((failed + 1))
        echo "FAIL $name ($((SECONDS - start)) s; log: $WORK/$name.log)"
        tail -30 "$WORK/$name.log"
    fi
}

echo "== building libmldsa (release)"
# cdylib and staticlib only: with the rlib in the same rustc invocation cargo builds the C
# libraries without LTO (keygen then cost 15-25 % more instructions than through the Rust API;
# bench/boundary_ir.sh measures it).
cargo rustc -q -p mldsa-ffi --release --lib --crate-type cdylib,staticlib \
    ${TARGET:+--target "$TARGET"} || exit 1
mkdir -p "$LIB"
rm -f "$LIB"/libmldsa.*
cp "target/${TARGET:+$TARGET/}release/libmldsa.so" "$LIB/libmldsa.so.0"
ln -s libmldsa.so.0 "$LIB/libmldsa.so"
cp "target/${TARGET:+$TARGET/}release/libmldsa.a" "$LIB/libmldsa.a"

symbols() {
    "${TARGET:+aarch64-linux-gnu-}nm" -D --defined-only "$LIB/libmldsa.so" | awk '{print $3}' | sort -u >"$WORK/exported.txt"
    for h in "$INC/mldsa.h" "$INC/mldsa/ref-fips204/api.h" "$INC/mldsa/ref-round3/api.h"; do
        gcc -E -P -DMLDSA_NO_CRYPTO_SIGN_NAMES -x c "$h"
    done | grep -oE '\b(int|void|char \*) *\*?[a-z_0-9]+\(' | grep -oE '[a-z_0-9]+\($' |
        tr -d '(' | sort -u >"$WORK/declared.txt"
    echo "exported: $(wc -l <"$WORK/exported.txt"), declared: $(wc -l <"$WORK/declared.txt")"
    diff "$WORK/declared.txt" "$WORK/exported.txt" && echo "1 passed, 0 failed"
}
stage symbols symbols

headers() {
    local h std ok=0
    for h in mldsa.h mldsa/ref-fips204/api.h mldsa/ref-round3/api.h mldsa/ref-fips204/sign.h \
        mldsa/ref-round3/sign.h mldsa/ref-fips204/nested/sign.h mldsa/ref-round3/nested/sign.h; do
        for std in c99 c11; do
            gcc -std=$std -Wall -Wextra -Werror -pedantic -fsyntax-only -x c "$INC/$h" || return 1
            ok=$((ok + 1))
        done
        g++ -std=c++20 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c++ "$INC/$h" || return 1
        ok=$((ok + 1))
    done
    g++ -std=c++20 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c++ "$INC/mldsa.hpp" || return 1
    ok=$((ok + 1))
    # warn_unused_result: ignoring a status must not compile under -Werror.
    printf '#include "mldsa.h"\nvoid f(uint8_t *pk, uint8_t *sk) { mldsa65_keypair(pk, sk); }\n' \
        >"$WORK/unused.c"
    if gcc -std=c11 -Wall -Werror -I"$INC" -c "$WORK/unused.c" -o /dev/null 2>/dev/null; then
        echo "an ignored status compiled without a warning"
        return 1
    fi
    echo "$((ok + 1)) passed, 0 failed"
}
stage headers headers

# build VARIANT CC EXTRA_FLAGS...: every test program for one compiler configuration.
build() {
    local v=$1 cc=$2 m s
    shift 2
    mkdir -p "$WORK/$v"
    $cc -std=c11 -O1 -g -Wall -Wextra -Werror -pedantic "$@" -I"$INC" -I"$T" "$T/test_api.c" \
        "$T/rng.c" -L"$LIB" -lmldsa -Wl,-rpath,"$LIB" -o "$WORK/$v/test_api" || return 1
    for m in 2 3 5; do
        $cc -std=c99 -O1 -g -Wall -Wextra -Werror -pedantic "$@" -I"$INC/mldsa/ref-fips204" \
            -I"$T" -DDILITHIUM_MODE=$m "$T/kat_dropin.c" "$T/rng.c" -L"$LIB" -lmldsa \
            -Wl,-rpath,"$LIB" -o "$WORK/$v/fips204_$m" || return 1
        $cc -std=c99 -O1 -g -Wall -Wextra -Werror -pedantic "$@" -I"$INC/mldsa/ref-round3" \
            -I"$T" -DROUND3 -DDILITHIUM_MODE=$m "$T/kat_dropin.c" "$T/rng.c" -L"$LIB" -lmldsa \
            -Wl,-rpath,"$LIB" -o "$WORK/$v/round3_$m" || return 1
        $cc -std=c99 -O1 -g -Wall -Wextra -Werror -pedantic "$@" -I"$INC/mldsa/ref-round3" \
            -I"$T" -DROUND3 -DDILITHIUM_USE_AES -DDILITHIUM_MODE=$m "$T/kat_dropin.c" "$T/rng.c" \
            -L"$LIB" -lmldsa -Wl,-rpath,"$LIB" -o "$WORK/$v/round3aes_$m" || return 1
    done
}

# aes_kat MODE ENTRY_FILE: the SHA-256 of the round-3 AES variant's count = 0 KAT entry, as
# written by round3aes_MODE, against the reference's (the table in the vectors' README).
aes_kat() {
    local want got
    want=$(grep "^| Dilithium$1-AES |" "$VEC/dilithium-aes-round3/README.md" | grep -oE '[0-9a-f]{64}')
    got=$(sha256sum "$2" | cut -d' ' -f1)
    [ -n "$want" ] && [ "$want" = "$got" ] || {
        echo "Dilithium$1-AES: count = 0 entry hashes to $got, the reference KAT to ${want:-?}"
        return 1
    }
    echo "Dilithium$1-AES: count = 0 entry matches the reference KAT hash"
}

# run_all VARIANT [WRAPPER...]: the API suite and the nine drop-in programs. Under a wrapper
# (valgrind, ~50x slower) the API suite takes every 8th vector and the drop-ins run for
# DILITHIUM_MODE 2 only (their code is one generic path for the three sets).
run_all() {
    local v=$1 m n quick= modes="2 3 5"
    shift
    [ "$#" -gt 0 ] && quick=quick && modes=2
    set -- "$@" "${RUN[@]}"
    "$@" "$WORK/$v/test_api" "$VEC" "$WORK/acvp.txt" "$WORK/$v/api_aes_entry0_" $quick || return 1
    for m in 2 3 5; do # the AES variant's KAT entry through the idiomatic dilithiumNaes_*
        aes_kat $m "$WORK/$v/api_aes_entry0_$m.txt" || return 1
    done
    for m in $modes; do
        n=$(( m == 2 ? 44 : (m == 3 ? 65 : 87) ))
        "$@" "$WORK/$v/fips204_$m" "$VEC/ml-dsa-ref-kat/pq-crystals-nistkat/PQCsignKAT_ML-DSA-$n.rsp" \
            "ML-DSA-$n" || return 1
        "$@" "$WORK/$v/round3_$m" "$VEC/dilithium-round3/PQCsignKAT_Dilithium$m.rsp" \
            "Dilithium$m" || return 1
        "$@" "$WORK/$v/round3aes_$m" "$WORK/$v/aes_entry0_$m.txt" "Dilithium$m-AES" || return 1
        aes_kat $m "$WORK/$v/aes_entry0_$m.txt" || return 1
    done
}

SAN=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
if [ "$TARGET" = aarch64-unknown-linux-gnu ]; then
    stage build-aarch64-gcc build aarch64-gcc aarch64-linux-gnu-gcc
    stage run-aarch64-qemu run_all aarch64-gcc # test_api checks that the default is neon
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
stage build-gcc build gcc gcc
stage run-gcc run_all gcc
# Stack through the C ABI (ST-1): every operation of every set on both backends on a painted
# thread stack; 128 KiB at most, signing 112 KiB (not under the sanitizers, which grow frames).
stack_check() {
    gcc -std=c11 -O2 -Wall -Wextra -Werror -pedantic -I"$INC" -I"$T" "$T/stack.c" -L"$LIB" \
        -lmldsa -lpthread -Wl,-rpath,"$LIB" -o "$WORK/stack" && "$WORK/stack"
}
stage stack stack_check
stage build-gcc-asan-ubsan build gcc-san gcc "${SAN[@]}"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
stage run-gcc-asan-ubsan run_all gcc-san
# Tools from Debian when missing (unless offline): clang for its sanitizers (about 30-60 s
# cold), pkg-config and cmake for the examples.
missing=()
for tool in clang pkg-config cmake; do
    command -v $tool >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ] && [ -z "${MLDSA_OFFLINE:-}" ] && [ "$(id -u)" = 0 ]; then
    echo "== installing ${missing[*]} (apt)"
    (apt-get update -qq && apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 || true
fi
if command -v clang >/dev/null; then
    stage build-clang-asan-ubsan build clang-san clang "${SAN[@]}"
    stage run-clang-asan-ubsan run_all clang-san
else
    echo "SKIP clang sanitizers: clang is not installed"
fi
if command -v valgrind >/dev/null; then
    stage valgrind-memcheck run_all gcc valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible
else
    failed=$((failed + 1))
    echo "FAIL valgrind is not installed"
fi

# Install into a temporary prefix; build against it as users would.
PREFIX=$WORK/prefix
rm -rf "$PREFIX"
stage install bash "$CRATE/pkg/install.sh" "$PREFIX"
# The drop-ins from the install serve the references' programs' includes with nothing but -I,
# -D and -l flags (the library found through LIBRARY_PATH and LD_LIBRARY_PATH): a synthetic
# program one directory below a directory without a sign.h includes "sign.h" (-I the drop-in
# directory, or its nested/) or "../sign.h" (-I nested/), checks CRYPTO_ALGNAME and signs and
# opens, for every set; "../sign.h" with -I the drop-in directory itself must not compile
# (nested/ is what serves it).
dropin_sign_h() {
    local dir=$WORK/sign-h d m inc name form ok=0 flags
    rm -rf "$dir"
    mkdir -p "$dir/prog"
    cp "$T/dropin_sign_h.c" "$dir/prog/main.c"
    for d in fips204 round3 round3aes; do
        for m in 2 3 5; do
            case $d in
            fips204) inc=ref-fips204 flags=() name=Dilithium$m ;;
            round3) inc=ref-round3 flags=(-DROUND3) name=Dilithium$m ;;
            round3aes) inc=ref-round3 flags=(-DROUND3 -DDILITHIUM_USE_AES) name=Dilithium$m-AES ;;
            esac
            for form in "$inc" "$inc/nested" "$inc/nested -DVIA_PARENT"; do
                # shellcheck disable=SC2086 # form is a directory and, maybe, -DVIA_PARENT
                LIBRARY_PATH=$PREFIX/lib gcc -std=c99 -Wall -Wextra -Werror -pedantic \
                    -I"$PREFIX"/include/mldsa/$form "${flags[@]}" -DDILITHIUM_MODE=$m \
                    -DEXPECTED_ALGNAME="\"$name\"" "$dir/prog/main.c" -lmldsa -o "$dir/prog/main" &&
                    LD_LIBRARY_PATH=$PREFIX/lib "$dir/prog/main" || return 1
                ok=$((ok + 1))
            done
        done
    done
    if gcc -fsyntax-only -I"$PREFIX/include/mldsa/ref-fips204" -DVIA_PARENT \
        -DEXPECTED_ALGNAME='"Dilithium2"' "$dir/prog/main.c" 2>/dev/null; then
        echo '"../sign.h" compiled without nested/: the check above proves nothing'
        return 1
    fi
    echo "$((ok + 1)) passed, 0 failed"
}
stage dropin-sign-h dropin_sign_h
# The README's C and C++ commands, as written (pkg-config, a static link, CMake), in a fresh
# shell against a prefix of their own (tests/c/readme.sh).
if command -v pkg-config >/dev/null && command -v cmake >/dev/null; then
    rm -rf "$WORK/readme-prefix"
    stage readme-commands bash "$T/readme.sh" "$WORK/readme-prefix"
else
    echo "SKIP readme-commands: pkg-config or cmake is not installed (MLDSA_OFFLINE)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
