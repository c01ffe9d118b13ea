/*
 * Drop-in for the pq-crystals ML-DSA (FIPS 204) reference implementation's `api.h`
 * (github.com/pq-crystals/dilithium, ref/ as of master commit 444cdcc, 2024-11-01, "Add internal
 * functions"; unchanged since): programs written against it compile unchanged with this
 * directory on the include path and link with -lmldsa. Its programs include "sign.h" or
 * "../sign.h": sign.h here declares the same (see there; nested/ serves "../sign.h").
 *
 * The reference names are macros for distinct libmldsa symbols (mldsaNN_ref), so this API and
 * the other reference API (which reuses the same names for a different scheme) can share
 * one libmldsa. Return conventions are the reference's: 0 on success, -1 on any failure; on
 * failure the outputs are zeroed.
 *
 * crypto_sign_open(m, mlen, sm, smlen, ctx, ctxlen, pk): m has room for smlen bytes (as in the
 * reference, which clears that many). On success m[0..smlen - CRYPTO_BYTES) is the message and
 * *mlen its length; m and sm may be the same buffer. On failure *mlen is 0 (the reference since
 * commit 779ad33, 2024-09-06; round 3 set -1) and m[0..smlen) is cleared, except when sm is NULL
 * with smlen > 0 or smlen exceeds PTRDIFF_MAX: such a call describes no signed message, is
 * rejected before reading or writing any buffer, and leaves m untouched.
 *
 * Sets: pqcrystals_dilithium2/3/5 are ML-DSA-44/65/87. keypair draws the 32-byte seed and
 * signing the 32-byte rnd (the reference's default randomized mode) from the program's
 * randombytes() when it defines one, as the reference does (NIST's KAT generator does), else
 * from the OS.
 *
 * The internal functions of the reference's sign.h, pqcrystals_dilithiumN_ref_signature_internal
 * and _verify_internal, sign and verify M' = pre || m (mu = SHAKE256(tr || pre || m, 64)) with
 * the caller's 32-byte rnd: pre is the prefix the caller built (0 || ctxlen || ctx for pure
 * ML-DSA, 0x01 || ctxlen || ctx || OID || PH(m) for HashML-DSA, empty for the FIPS 204
 * internal interface). As in the reference, pre has no length limit. A NULL pointer with a
 * non-zero length (and a NULL rnd, sk, pk or sig) is a failure (-1), never a dereference.
 *
 * The SUPERCOP-style names crypto_sign_keypair, crypto_sign, crypto_sign_open,
 * crypto_sign_signature, crypto_sign_verify, crypto_sign_signature_internal,
 * crypto_sign_verify_internal and CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES, CRYPTO_BYTES,
 * CRYPTO_ALGNAME ("Dilithium2", "Dilithium3", "Dilithium5": the reference's names, which its
 * NIST KAT generator puts in its file names) select one set by DILITHIUM_MODE (2, 3 or 5;
 * default 2, as the reference's config.h). Define MLDSA_NO_CRYPTO_SIGN_NAMES to leave them out.
 */
#ifndef MLDSA_REF_FIPS204_API_H
#define MLDSA_REF_FIPS204_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define pqcrystals_dilithium2_PUBLICKEYBYTES 1312
#define pqcrystals_dilithium2_SECRETKEYBYTES 2560
#define pqcrystals_dilithium2_BYTES 2420
#define pqcrystals_dilithium2_ref_PUBLICKEYBYTES pqcrystals_dilithium2_PUBLICKEYBYTES
#define pqcrystals_dilithium2_ref_SECRETKEYBYTES pqcrystals_dilithium2_SECRETKEYBYTES
#define pqcrystals_dilithium2_ref_BYTES pqcrystals_dilithium2_BYTES

int mldsa44_ref_keypair(uint8_t *pk, uint8_t *sk);
int mldsa44_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa44_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa44_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa44_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa44_ref_signature_internal(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t rnd[32], const uint8_t *sk);
int mldsa44_ref_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t *pk);

#define pqcrystals_dilithium2_ref_keypair mldsa44_ref_keypair
#define pqcrystals_dilithium2_ref_signature mldsa44_ref_signature
#define pqcrystals_dilithium2_ref mldsa44_ref_sign
#define pqcrystals_dilithium2_ref_verify mldsa44_ref_verify
#define pqcrystals_dilithium2_ref_open mldsa44_ref_open
#define pqcrystals_dilithium2_ref_signature_internal mldsa44_ref_signature_internal
#define pqcrystals_dilithium2_ref_verify_internal mldsa44_ref_verify_internal

#define pqcrystals_dilithium3_PUBLICKEYBYTES 1952
#define pqcrystals_dilithium3_SECRETKEYBYTES 4032
#define pqcrystals_dilithium3_BYTES 3309
#define pqcrystals_dilithium3_ref_PUBLICKEYBYTES pqcrystals_dilithium3_PUBLICKEYBYTES
#define pqcrystals_dilithium3_ref_SECRETKEYBYTES pqcrystals_dilithium3_SECRETKEYBYTES
#define pqcrystals_dilithium3_ref_BYTES pqcrystals_dilithium3_BYTES

int mldsa65_ref_keypair(uint8_t *pk, uint8_t *sk);
int mldsa65_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa65_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa65_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa65_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa65_ref_signature_internal(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t rnd[32], const uint8_t *sk);
int mldsa65_ref_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t *pk);

#define pqcrystals_dilithium3_ref_keypair mldsa65_ref_keypair
#define pqcrystals_dilithium3_ref_signature mldsa65_ref_signature
#define pqcrystals_dilithium3_ref mldsa65_ref_sign
#define pqcrystals_dilithium3_ref_verify mldsa65_ref_verify
#define pqcrystals_dilithium3_ref_open mldsa65_ref_open
#define pqcrystals_dilithium3_ref_signature_internal mldsa65_ref_signature_internal
#define pqcrystals_dilithium3_ref_verify_internal mldsa65_ref_verify_internal

#define pqcrystals_dilithium5_PUBLICKEYBYTES 2592
#define pqcrystals_dilithium5_SECRETKEYBYTES 4896
#define pqcrystals_dilithium5_BYTES 4627
#define pqcrystals_dilithium5_ref_PUBLICKEYBYTES pqcrystals_dilithium5_PUBLICKEYBYTES
#define pqcrystals_dilithium5_ref_SECRETKEYBYTES pqcrystals_dilithium5_SECRETKEYBYTES
#define pqcrystals_dilithium5_ref_BYTES pqcrystals_dilithium5_BYTES

int mldsa87_ref_keypair(uint8_t *pk, uint8_t *sk);
int mldsa87_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa87_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *sk);
int mldsa87_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa87_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx, size_t ctxlen,
    const uint8_t *pk);
int mldsa87_ref_signature_internal(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t rnd[32], const uint8_t *sk);
int mldsa87_ref_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pre,
    size_t prelen, const uint8_t *pk);

#define pqcrystals_dilithium5_ref_keypair mldsa87_ref_keypair
#define pqcrystals_dilithium5_ref_signature mldsa87_ref_signature
#define pqcrystals_dilithium5_ref mldsa87_ref_sign
#define pqcrystals_dilithium5_ref_verify mldsa87_ref_verify
#define pqcrystals_dilithium5_ref_open mldsa87_ref_open
#define pqcrystals_dilithium5_ref_signature_internal mldsa87_ref_signature_internal
#define pqcrystals_dilithium5_ref_verify_internal mldsa87_ref_verify_internal

#ifndef MLDSA_NO_CRYPTO_SIGN_NAMES
#ifndef DILITHIUM_MODE
#define DILITHIUM_MODE 2
#endif

#if DILITHIUM_MODE == 2
#define CRYPTO_ALGNAME "Dilithium2"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium2_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium2_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium2_BYTES
#define crypto_sign_keypair pqcrystals_dilithium2_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium2_ref_signature
#define crypto_sign pqcrystals_dilithium2_ref
#define crypto_sign_verify pqcrystals_dilithium2_ref_verify
#define crypto_sign_open pqcrystals_dilithium2_ref_open
#define crypto_sign_signature_internal pqcrystals_dilithium2_ref_signature_internal
#define crypto_sign_verify_internal pqcrystals_dilithium2_ref_verify_internal
#elif DILITHIUM_MODE == 3
#define CRYPTO_ALGNAME "Dilithium3"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium3_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium3_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium3_BYTES
#define crypto_sign_keypair pqcrystals_dilithium3_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium3_ref_signature
#define crypto_sign pqcrystals_dilithium3_ref
#define crypto_sign_verify pqcrystals_dilithium3_ref_verify
#define crypto_sign_open pqcrystals_dilithium3_ref_open
#define crypto_sign_signature_internal pqcrystals_dilithium3_ref_signature_internal
#define crypto_sign_verify_internal pqcrystals_dilithium3_ref_verify_internal
#elif DILITHIUM_MODE == 5
#define CRYPTO_ALGNAME "Dilithium5"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium5_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium5_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium5_BYTES
#define crypto_sign_keypair pqcrystals_dilithium5_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium5_ref_signature
#define crypto_sign pqcrystals_dilithium5_ref
#define crypto_sign_verify pqcrystals_dilithium5_ref_verify
#define crypto_sign_open pqcrystals_dilithium5_ref_open
#define crypto_sign_signature_internal pqcrystals_dilithium5_ref_signature_internal
#define crypto_sign_verify_internal pqcrystals_dilithium5_ref_verify_internal
#else
#error "DILITHIUM_MODE must be 2, 3 or 5"
#endif
#endif /* MLDSA_NO_CRYPTO_SIGN_NAMES */

#ifdef __cplusplus
}
#endif

#endif
