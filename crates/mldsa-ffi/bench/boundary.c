/* Boundary overhead, C side: ML-DSA-65 deterministic sign and verify through libmldsa, timed
 * as the median of 15 batches. Compare with `cargo run --release -p mldsa-ffi --example
 * rust_api_timing` (the same operations through the Rust API); bench/boundary.sh runs both. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mldsa.h"

#define BATCHES 15

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    static uint8_t pk[MLDSA65_PUBLIC_KEY_BYTES], sk[MLDSA65_SECRET_KEY_BYTES];
    static uint8_t sig[MLDSA65_SIGNATURE_BYTES];
    uint8_t seed[32] = {1}, msg[64] = {2};
    double sign_ns[BATCHES], verify_ns[BATCHES], t;
    int b, i, n = argc > 1 ? atoi(argv[1]) : 200;
    if (mldsa65_keypair_from_seed(pk, sk, seed) != MLDSA_OK) return 1;
    for (b = 0; b < BATCHES; b++) {
        t = now();
        for (i = 0; i < n; i++) {
            msg[0] = (uint8_t)i;
            if (mldsa65_sign_deterministic(sig, msg, sizeof msg, NULL, 0, sk) != MLDSA_OK) return 1;
        }
        sign_ns[b] = (now() - t) / n;
        t = now();
        for (i = 0; i < n; i++) {
            if (mldsa65_verify(sig, sizeof sig, msg, sizeof msg, NULL, 0, pk) != MLDSA_OK) return 1;
        }
        verify_ns[b] = (now() - t) / n;
    }
    qsort(sign_ns, BATCHES, sizeof(double), cmp);
    qsort(verify_ns, BATCHES, sizeof(double), cmp);
    printf("C ABI    sign %.1f us  verify %.1f us  (ML-DSA-65, median of %d x %d, backend %s)\n",
           sign_ns[BATCHES / 2] / 1e3, verify_ns[BATCHES / 2] / 1e3, BATCHES, n, mldsa_backend());
    return 0;
}
