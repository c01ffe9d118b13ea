/* Constant flow through the C ABI (CT-1/CT-2 for libmldsa), run by scripts/ct-check.sh under
 * valgrind memcheck against a libmldsa built like the Rust harness (profile ct, --cfg mldsa_ct,
 * so the reviewed declassification sites tell valgrind what becomes public). The secrets are
 * marked undefined at the boundary, as a C caller holds them: the seed, the secret parts of
 * the expanded key (K, s1, s2, t0; rho and tr are public) and rnd. Any branch or memory address
 * that depends on them is a memcheck error. Outputs that are public by definition (public keys,
 * signatures) are marked defined before they are used. Prints "backend: NAME" and the closing
 * "N passed, N failed" line. With --canary, each ML-DSA public key is marked undefined before
 * it is used: verification then depends on "secret" data, and memcheck must report it (the
 * check can fail). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "check.h"
#include "mldsa.h"

static uint8_t pk[MLDSA87_PUBLIC_KEY_BYTES], sk[MLDSA87_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA87_SIGNATURE_BYTES];
static const uint8_t msg[] = "constant flow through the C ABI";
static const uint8_t ctx[] = "ctx";
static int canary;

/* The expanded key's secret parts: everything after rho (32 bytes) but tr (`trlen` bytes at
 * offset 64), i.e. K and s1, s2, t0. */
static void mark_secret_key(size_t sklen, size_t trlen) {
    VALGRIND_MAKE_MEM_UNDEFINED(sk + 32, 32);
    VALGRIND_MAKE_MEM_UNDEFINED(sk + 64 + trlen, sklen - 64 - trlen);
}

static void random_secret(uint8_t *out, size_t n, uint8_t salt) {
    size_t i;
    for (i = 0; i < n; i++) out[i] = (uint8_t)(i * 151u + salt);
    VALGRIND_MAKE_MEM_UNDEFINED(out, n);
}

/* keygen from a secret seed; deterministic, caller-rnd, HashML-DSA and external-mu signing
 * with a secret key (and secret rnd); strict import; then the signatures verify. */
#define CHECK_MLDSA(p, P)                                                                     \
    do {                                                                                      \
        uint8_t seed[32], rnd[32], mu[64];                                                    \
        random_secret(seed, sizeof seed, 1);                                                  \
        CHECK(p##_keypair_from_seed(pk, sk, seed) == MLDSA_OK, #p " keypair_from_seed");      \
        VALGRIND_MAKE_MEM_DEFINED(pk, P##_PUBLIC_KEY_BYTES);                                  \
        if (canary) VALGRIND_MAKE_MEM_UNDEFINED(pk, P##_PUBLIC_KEY_BYTES);                    \
        VALGRIND_MAKE_MEM_DEFINED(sk, P##_SECRET_KEY_BYTES);                                  \
        mark_secret_key(P##_SECRET_KEY_BYTES, 64);                                            \
        CHECK(p##_sk_check(sk) == MLDSA_OK, #p " sk_check");                                  \
        CHECK(p##_sign_deterministic(sig, msg, sizeof msg, ctx, sizeof ctx, sk) == MLDSA_OK, \
              #p " sign_deterministic");                                                      \
        VALGRIND_MAKE_MEM_DEFINED(sig, P##_SIGNATURE_BYTES);                                  \
        CHECK(p##_verify(sig, P##_SIGNATURE_BYTES, msg, sizeof msg, ctx, sizeof ctx, pk) ==   \
                  MLDSA_OK,                                                                   \
              #p " verify (deterministic)");                                                  \
        random_secret(rnd, sizeof rnd, 2);                                                    \
        CHECK(p##_sign_rnd(sig, msg, sizeof msg, NULL, 0, rnd, sk) == MLDSA_OK,               \
              #p " sign_rnd");                                                                \
        VALGRIND_MAKE_MEM_DEFINED(sig, P##_SIGNATURE_BYTES);                                  \
        CHECK(p##_verify(sig, P##_SIGNATURE_BYTES, msg, sizeof msg, NULL, 0, pk) == MLDSA_OK, \
              #p " verify (caller rnd)");                                                     \
        CHECK(p##_sign_prehash(sig, MLDSA_PH_SHA2_512, msg, sizeof msg, NULL, 0, rnd,    \
                               sk) == MLDSA_OK,                                               \
              #p " sign_prehash");                                                            \
        VALGRIND_MAKE_MEM_DEFINED(sig, P##_SIGNATURE_BYTES);                                  \
        CHECK(p##_verify_prehash(sig, P##_SIGNATURE_BYTES, MLDSA_PH_SHA2_512, msg,       \
                                 sizeof msg, NULL, 0, pk) == MLDSA_OK,                        \
              #p " verify_prehash");                                                          \
        CHECK(p##_compute_mu(mu, msg, sizeof msg, NULL, 0, pk) == MLDSA_OK, #p " mu");        \
        CHECK(p##_sign_mu(sig, mu, rnd, sk) == MLDSA_OK, #p " sign_mu");                      \
        VALGRIND_MAKE_MEM_DEFINED(sig, P##_SIGNATURE_BYTES);                                  \
        CHECK(p##_verify_mu(sig, P##_SIGNATURE_BYTES, mu, pk) == MLDSA_OK, #p " verify_mu");  \
    } while (0)

/* Round 3: keygen from a secret seed, deterministic signing with a secret key, import. */
#define CHECK_DILITHIUM(p, P)                                                                 \
    do {                                                                                      \
        uint8_t seed[32];                                                                     \
        random_secret(seed, sizeof seed, 3);                                                  \
        CHECK(p##_keypair_from_seed(pk, sk, seed) == MLDSA_OK, #p " keypair_from_seed");      \
        VALGRIND_MAKE_MEM_DEFINED(pk, P##_PUBLIC_KEY_BYTES);                                  \
        VALGRIND_MAKE_MEM_DEFINED(sk, P##_SECRET_KEY_BYTES);                                  \
        mark_secret_key(P##_SECRET_KEY_BYTES, 32);                                            \
        CHECK(p##_sk_check(sk) == MLDSA_OK, #p " sk_check");                                  \
        CHECK(p##_sign(sig, msg, sizeof msg, sk) == MLDSA_OK, #p " sign");                    \
        VALGRIND_MAKE_MEM_DEFINED(sig, P##_SIGNATURE_BYTES);                                  \
        CHECK(p##_verify(sig, P##_SIGNATURE_BYTES, msg, sizeof msg, pk) == MLDSA_OK,          \
              #p " verify");                                                                  \
    } while (0)

int main(int argc, char **argv) {
    canary = argc > 1 && strcmp(argv[1], "--canary") == 0;
    printf("backend: %s\n", mldsa_backend());
    CHECK_MLDSA(mldsa44, MLDSA44);
    CHECK_MLDSA(mldsa65, MLDSA65);
    CHECK_MLDSA(mldsa87, MLDSA87);
    CHECK_DILITHIUM(dilithium2, DILITHIUM2);
    CHECK_DILITHIUM(dilithium3, DILITHIUM3);
    CHECK_DILITHIUM(dilithium5, DILITHIUM5);
    /* The AES variant: ExpandA, ExpandS and ExpandMask from AES-256-CTR, keyed by rho, rho'
     * (secret) and rho'' (secret). */
    CHECK_DILITHIUM(dilithium2aes, DILITHIUM2AES);
    CHECK_DILITHIUM(dilithium3aes, DILITHIUM3AES);
    CHECK_DILITHIUM(dilithium5aes, DILITHIUM5AES);
    return check_summary("ct_abi");
}
