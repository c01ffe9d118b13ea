/* C example: built with pkg-config against an installed libmldsa:
 *   cc sign_verify.c $(pkg-config --cflags --libs mldsa) */
#include <stdio.h>
#include <string.h>

#include <mldsa.h>

int main(void) {
    static uint8_t pk[MLDSA65_PUBLIC_KEY_BYTES], sk[MLDSA65_SECRET_KEY_BYTES];
    static uint8_t sig[MLDSA65_SIGNATURE_BYTES];
    const uint8_t msg[] = "hello from C", ctx[] = "example";
    int rc;

    if ((rc = mldsa65_keypair(pk, sk)) != MLDSA_OK ||
        (rc = mldsa65_sign(sig, msg, sizeof msg, ctx, sizeof ctx, sk)) != MLDSA_OK ||
        (rc = mldsa65_verify(sig, sizeof sig, msg, sizeof msg, ctx, sizeof ctx, pk)) != MLDSA_OK) {
        fprintf(stderr, "error: %s\n", mldsa_strerror(rc));
        return 1;
    }
    sig[0] ^= 1;
    if (mldsa65_verify(sig, sizeof sig, msg, sizeof msg, ctx, sizeof ctx, pk) !=
        MLDSA_ERR_INVALID_SIGNATURE) {
        fprintf(stderr, "a tampered signature verified\n");
        return 1;
    }
    printf("C: ML-DSA-65 sign/verify ok (library %s, backend %s)\n", mldsa_version(),
           mldsa_backend());
    return 0;
}
