/* Boundary overhead, C side, for instruction counting: N repetitions of one operation of one
 * ML-DSA set through libmldsa, with the inputs of examples/rust_api_ops.rs (the same operation
 * through the Rust API). bench/boundary_ir.sh runs both under callgrind for two values of N and
 * divides the difference, so start-up, key set-up and the loader cancel out.
 * usage: boundary_ops keygen|sign|verify 44|65|87 N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

/* One function per set: keygen from a seed, deterministic signing with the expanded key,
 * verification with the encoded key; the message's first byte is the iteration number, so the
 * rejection-loop counts average over N messages, the same N messages on both sides. */
#define RUN_SET(p, P)                                                                         \
    static int run_##p(const char *op, int n) {                                               \
        static uint8_t pk[P##_PUBLIC_KEY_BYTES], sk[P##_SECRET_KEY_BYTES];                    \
        static uint8_t sig[P##_SIGNATURE_BYTES];                                              \
        uint8_t seed[32], msg[64];                                                            \
        int i;                                                                                \
        memset(seed, 1, sizeof seed);                                                         \
        memset(msg, 2, sizeof msg);                                                           \
        if (p##_keypair_from_seed(pk, sk, seed) != MLDSA_OK) return 1;                        \
        if (p##_sign_deterministic(sig, msg, sizeof msg, NULL, 0, sk) != MLDSA_OK) return 1;  \
        for (i = 0; i < n; i++) {                                                             \
            if (strcmp(op, "keygen") == 0) {                                                  \
                seed[0] = (uint8_t)i;                                                         \
                if (p##_keypair_from_seed(pk, sk, seed) != MLDSA_OK) return 1;                \
            } else if (strcmp(op, "sign") == 0) {                                             \
                msg[0] = (uint8_t)i;                                                          \
                if (p##_sign_deterministic(sig, msg, sizeof msg, NULL, 0, sk) != MLDSA_OK)    \
                    return 1;                                                                 \
            } else if (p##_verify(sig, sizeof sig, msg, sizeof msg, NULL, 0, pk) != MLDSA_OK) \
                return 1;                                                                     \
        }                                                                                     \
        return 0;                                                                             \
    }

RUN_SET(mldsa44, MLDSA44)
RUN_SET(mldsa65, MLDSA65)
RUN_SET(mldsa87, MLDSA87)

int main(int argc, char **argv) {
    int n;
    if (argc != 4) {
        fprintf(stderr, "usage: %s keygen|sign|verify 44|65|87 N\n", argv[0]);
        return 2;
    }
    n = atoi(argv[3]);
    if (strcmp(argv[2], "44") == 0) return run_mldsa44(argv[1], n);
    if (strcmp(argv[2], "65") == 0) return run_mldsa65(argv[1], n);
    if (strcmp(argv[2], "87") == 0) return run_mldsa87(argv[1], n);
    return 2;
}
