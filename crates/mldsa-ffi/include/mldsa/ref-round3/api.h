/*
 * Drop-in for the CRYSTALS-Dilithium round-3 reference implementation's `api.h`
 * (github.com/pq-crystals/dilithium, ref/ at tag v3.1, commit 9dddb2a): programs written
 * against it compile unchanged with this directory on the include path and link with -lmldsa.
 * Its programs include "sign.h" or "../sign.h": sign.h here declares the same (see there;
 * nested/ serves "../sign.h").
 *
 * The reference names are macros for distinct libmldsa symbols (dilithiumNN_ref), so this API and
 * the other reference API (which reuses the same names for a different scheme) can share
 * one libmldsa. Return conventions are the reference's: 0 on success, -1 on any failure; on
 * failure the outputs are zeroed.
 *
 * crypto_sign_open(m, mlen, sm, smlen, pk): m has room for smlen bytes (as in the reference,
 * which clears that many). On success m[0..smlen - CRYPTO_BYTES) is the message and *mlen its
 * length; m and sm may be the same buffer. On failure *mlen is (size_t)-1 (as v3.1 sets it) and
 * m[0..smlen) is cleared, except when sm is NULL with smlen > 0 or smlen exceeds PTRDIFF_MAX:
 * such a call describes no signed message, is rejected before reading or writing any buffer,
 * and leaves m untouched.
 *
 * Sets: Dilithium2/3/5 of round 3 and their AES variants (pqcrystals_dilithiumNaes_ref_*), not
 * ML-DSA. keypair draws the 32-byte seed from the program's randombytes() when it defines one,
 * else from the OS; signing is deterministic (the reference's default).
 *
 * The SUPERCOP-style names crypto_sign_keypair, crypto_sign, crypto_sign_open,
 * crypto_sign_signature, crypto_sign_verify and CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES,
 * CRYPTO_BYTES (and CRYPTO_ALGNAME) select one set by DILITHIUM_MODE (2, 3 or 5; default 2) and,
 * when DILITHIUM_USE_AES is defined, its AES variant, as the reference's config.h does. Define
 * MLDSA_NO_CRYPTO_SIGN_NAMES to leave them out.
 */
#ifndef MLDSA_REF_ROUND3_API_H
#define MLDSA_REF_ROUND3_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define pqcrystals_dilithium2_PUBLICKEYBYTES 1312
#define pqcrystals_dilithium2_SECRETKEYBYTES 2528
#define pqcrystals_dilithium2_BYTES 2420
#define pqcrystals_dilithium2_ref_PUBLICKEYBYTES pqcrystals_dilithium2_PUBLICKEYBYTES
#define pqcrystals_dilithium2_ref_SECRETKEYBYTES pqcrystals_dilithium2_SECRETKEYBYTES
#define pqcrystals_dilithium2_ref_BYTES pqcrystals_dilithium2_BYTES

int dilithium2_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium2_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium2_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium2_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium2_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium2_ref_keypair dilithium2_ref_keypair
#define pqcrystals_dilithium2_ref_signature dilithium2_ref_signature
#define pqcrystals_dilithium2_ref dilithium2_ref_sign
#define pqcrystals_dilithium2_ref_verify dilithium2_ref_verify
#define pqcrystals_dilithium2_ref_open dilithium2_ref_open

#define pqcrystals_dilithium3_PUBLICKEYBYTES 1952
#define pqcrystals_dilithium3_SECRETKEYBYTES 4000
#define pqcrystals_dilithium3_BYTES 3293
#define pqcrystals_dilithium3_ref_PUBLICKEYBYTES pqcrystals_dilithium3_PUBLICKEYBYTES
#define pqcrystals_dilithium3_ref_SECRETKEYBYTES pqcrystals_dilithium3_SECRETKEYBYTES
#define pqcrystals_dilithium3_ref_BYTES pqcrystals_dilithium3_BYTES

int dilithium3_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium3_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium3_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium3_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium3_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium3_ref_keypair dilithium3_ref_keypair
#define pqcrystals_dilithium3_ref_signature dilithium3_ref_signature
#define pqcrystals_dilithium3_ref dilithium3_ref_sign
#define pqcrystals_dilithium3_ref_verify dilithium3_ref_verify
#define pqcrystals_dilithium3_ref_open dilithium3_ref_open

#define pqcrystals_dilithium5_PUBLICKEYBYTES 2592
#define pqcrystals_dilithium5_SECRETKEYBYTES 4864
#define pqcrystals_dilithium5_BYTES 4595
#define pqcrystals_dilithium5_ref_PUBLICKEYBYTES pqcrystals_dilithium5_PUBLICKEYBYTES
#define pqcrystals_dilithium5_ref_SECRETKEYBYTES pqcrystals_dilithium5_SECRETKEYBYTES
#define pqcrystals_dilithium5_ref_BYTES pqcrystals_dilithium5_BYTES

int dilithium5_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium5_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium5_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium5_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium5_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium5_ref_keypair dilithium5_ref_keypair
#define pqcrystals_dilithium5_ref_signature dilithium5_ref_signature
#define pqcrystals_dilithium5_ref dilithium5_ref_sign
#define pqcrystals_dilithium5_ref_verify dilithium5_ref_verify
#define pqcrystals_dilithium5_ref_open dilithium5_ref_open

/* The AES variant (v3.1 section 5.3; the reference's DILITHIUM_USE_AES): the same sizes, A, s1,
 * s2 and y expanded with AES-256-CTR. A different scheme: keys and signatures do not cross
 * between the variants. */
#define pqcrystals_dilithium2aes_ref_PUBLICKEYBYTES pqcrystals_dilithium2_ref_PUBLICKEYBYTES
#define pqcrystals_dilithium2aes_ref_SECRETKEYBYTES pqcrystals_dilithium2_ref_SECRETKEYBYTES
#define pqcrystals_dilithium2aes_ref_BYTES pqcrystals_dilithium2_ref_BYTES

int dilithium2aes_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium2aes_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium2aes_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium2aes_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium2aes_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium2aes_ref_keypair dilithium2aes_ref_keypair
#define pqcrystals_dilithium2aes_ref_signature dilithium2aes_ref_signature
#define pqcrystals_dilithium2aes_ref dilithium2aes_ref_sign
#define pqcrystals_dilithium2aes_ref_verify dilithium2aes_ref_verify
#define pqcrystals_dilithium2aes_ref_open dilithium2aes_ref_open

#define pqcrystals_dilithium3aes_ref_PUBLICKEYBYTES pqcrystals_dilithium3_ref_PUBLICKEYBYTES
#define pqcrystals_dilithium3aes_ref_SECRETKEYBYTES pqcrystals_dilithium3_ref_SECRETKEYBYTES
#define pqcrystals_dilithium3aes_ref_BYTES pqcrystals_dilithium3_ref_BYTES

int dilithium3aes_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium3aes_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium3aes_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium3aes_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium3aes_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium3aes_ref_keypair dilithium3aes_ref_keypair
#define pqcrystals_dilithium3aes_ref_signature dilithium3aes_ref_signature
#define pqcrystals_dilithium3aes_ref dilithium3aes_ref_sign
#define pqcrystals_dilithium3aes_ref_verify dilithium3aes_ref_verify
#define pqcrystals_dilithium3aes_ref_open dilithium3aes_ref_open

#define pqcrystals_dilithium5aes_ref_PUBLICKEYBYTES pqcrystals_dilithium5_ref_PUBLICKEYBYTES
#define pqcrystals_dilithium5aes_ref_SECRETKEYBYTES pqcrystals_dilithium5_ref_SECRETKEYBYTES
#define pqcrystals_dilithium5aes_ref_BYTES pqcrystals_dilithium5_ref_BYTES

int dilithium5aes_ref_keypair(uint8_t *pk, uint8_t *sk);
int dilithium5aes_ref_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium5aes_ref_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
    const uint8_t *sk);
int dilithium5aes_ref_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
    const uint8_t *pk);
int dilithium5aes_ref_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
    const uint8_t *pk);

#define pqcrystals_dilithium5aes_ref_keypair dilithium5aes_ref_keypair
#define pqcrystals_dilithium5aes_ref_signature dilithium5aes_ref_signature
#define pqcrystals_dilithium5aes_ref dilithium5aes_ref_sign
#define pqcrystals_dilithium5aes_ref_verify dilithium5aes_ref_verify
#define pqcrystals_dilithium5aes_ref_open dilithium5aes_ref_open

#ifndef MLDSA_NO_CRYPTO_SIGN_NAMES
#ifndef DILITHIUM_MODE
#define DILITHIUM_MODE 2
#endif

#if DILITHIUM_MODE != 2 && DILITHIUM_MODE != 3 && DILITHIUM_MODE != 5
#error "DILITHIUM_MODE must be 2, 3 or 5"
#endif
#if DILITHIUM_MODE == 2 && !defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium2"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium2_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium2_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium2_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium2_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium2_ref_signature
#define crypto_sign pqcrystals_dilithium2_ref
#define crypto_sign_verify pqcrystals_dilithium2_ref_verify
#define crypto_sign_open pqcrystals_dilithium2_ref_open
#endif
#if DILITHIUM_MODE == 2 && defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium2-AES"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium2aes_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium2aes_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium2aes_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium2aes_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium2aes_ref_signature
#define crypto_sign pqcrystals_dilithium2aes_ref
#define crypto_sign_verify pqcrystals_dilithium2aes_ref_verify
#define crypto_sign_open pqcrystals_dilithium2aes_ref_open
#endif
#if DILITHIUM_MODE == 3 && !defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium3"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium3_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium3_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium3_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium3_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium3_ref_signature
#define crypto_sign pqcrystals_dilithium3_ref
#define crypto_sign_verify pqcrystals_dilithium3_ref_verify
#define crypto_sign_open pqcrystals_dilithium3_ref_open
#endif
#if DILITHIUM_MODE == 3 && defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium3-AES"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium3aes_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium3aes_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium3aes_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium3aes_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium3aes_ref_signature
#define crypto_sign pqcrystals_dilithium3aes_ref
#define crypto_sign_verify pqcrystals_dilithium3aes_ref_verify
#define crypto_sign_open pqcrystals_dilithium3aes_ref_open
#endif
#if DILITHIUM_MODE == 5 && !defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium5"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium5_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium5_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium5_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium5_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium5_ref_signature
#define crypto_sign pqcrystals_dilithium5_ref
#define crypto_sign_verify pqcrystals_dilithium5_ref_verify
#define crypto_sign_open pqcrystals_dilithium5_ref_open
#endif
#if DILITHIUM_MODE == 5 && defined(DILITHIUM_USE_AES)
#define CRYPTO_ALGNAME "Dilithium5-AES"
#define CRYPTO_PUBLICKEYBYTES pqcrystals_dilithium5aes_ref_PUBLICKEYBYTES
#define CRYPTO_SECRETKEYBYTES pqcrystals_dilithium5aes_ref_SECRETKEYBYTES
#define CRYPTO_BYTES pqcrystals_dilithium5aes_ref_BYTES
#define crypto_sign_keypair pqcrystals_dilithium5aes_ref_keypair
#define crypto_sign_signature pqcrystals_dilithium5aes_ref_signature
#define crypto_sign pqcrystals_dilithium5aes_ref
#define crypto_sign_verify pqcrystals_dilithium5aes_ref_verify
#define crypto_sign_open pqcrystals_dilithium5aes_ref_open
#endif
#endif /* MLDSA_NO_CRYPTO_SIGN_NAMES */

#ifdef __cplusplus
}
#endif

#endif
