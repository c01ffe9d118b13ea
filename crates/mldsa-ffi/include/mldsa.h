/*
 * mldsa.h: the C API of libmldsa, ML-DSA (NIST FIPS 204) and CRYSTALS-Dilithium round 3.
 *
 * Every function with a result returns an `int` status from `mldsa_status` (0 = MLDSA_OK,
 * failures negative); `mldsa_strerror` describes one. On every failure each output buffer is
 * zeroed, every returned pointer is NULL and every returned length 0.
 *
 * Pointer rules, for every function: a non-NULL pointer must point to at least the number of
 * bytes stated (the set's size macro, or the length argument beside it), valid for the call;
 * no output may overlap another argument. A NULL pointer is never dereferenced: it is
 * MLDSA_ERR_NULL, except that an input of length 0 may be NULL (the empty string) and the
 * arguments documented as optional (`rnd`, `seed`, `has_seed`, `pass`) may be NULL.
 *
 * Secret keys in this API are the FIPS 204 expanded encoding (MLDSA65_SECRET_KEY_BYTES, as
 * the reference implementation's), or the 32-byte seed xi where the name says seed. One-shot
 * signing uses the expanded key as given (s1, s2 ranges checked; tr, t0 trusted, as the
 * reference); `mldsaNN_sk_check` and `mldsaNN_signing_key_new` import it strictly.
 *
 * Thread safety: all functions may run concurrently; one object (context or key handle) must
 * not be used by two threads at once.
 *
 * The ABI major version is the soname's (libmldsa.so.0).
 */
#ifndef MLDSA_H
#define MLDSA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MLDSA_NODISCARD __attribute__((warn_unused_result))
#else
#define MLDSA_NODISCARD
#endif

/* ---- sizes, in bytes ---------------------------------------------------------------------- */

#define MLDSA_SEED_BYTES 32
#define MLDSA_RND_BYTES 32
#define MLDSA_MU_BYTES 64
#define MLDSA_MAX_CONTEXT_BYTES 255

#define MLDSA44_PUBLIC_KEY_BYTES 1312
#define MLDSA44_SECRET_KEY_BYTES 2560
#define MLDSA44_SIGNATURE_BYTES 2420
#define MLDSA65_PUBLIC_KEY_BYTES 1952
#define MLDSA65_SECRET_KEY_BYTES 4032
#define MLDSA65_SIGNATURE_BYTES 3309
#define MLDSA87_PUBLIC_KEY_BYTES 2592
#define MLDSA87_SECRET_KEY_BYTES 4896
#define MLDSA87_SIGNATURE_BYTES 4627

#define DILITHIUM2_PUBLIC_KEY_BYTES 1312
#define DILITHIUM2_SECRET_KEY_BYTES 2528
#define DILITHIUM2_SIGNATURE_BYTES 2420
#define DILITHIUM3_PUBLIC_KEY_BYTES 1952
#define DILITHIUM3_SECRET_KEY_BYTES 4000
#define DILITHIUM3_SIGNATURE_BYTES 3293
#define DILITHIUM5_PUBLIC_KEY_BYTES 2592
#define DILITHIUM5_SECRET_KEY_BYTES 4864
#define DILITHIUM5_SIGNATURE_BYTES 4595
#define DILITHIUM2AES_PUBLIC_KEY_BYTES 1312
#define DILITHIUM2AES_SECRET_KEY_BYTES 2528
#define DILITHIUM2AES_SIGNATURE_BYTES 2420
#define DILITHIUM3AES_PUBLIC_KEY_BYTES 1952
#define DILITHIUM3AES_SECRET_KEY_BYTES 4000
#define DILITHIUM3AES_SIGNATURE_BYTES 3293
#define DILITHIUM5AES_PUBLIC_KEY_BYTES 2592
#define DILITHIUM5AES_SECRET_KEY_BYTES 4864
#define DILITHIUM5AES_SIGNATURE_BYTES 4595

/* ---- status ------------------------------------------------------------------------------- */

typedef enum mldsa_status {
    MLDSA_OK = 0,
    MLDSA_ERR_INVALID_SIGNATURE = -1, /* does not verify, or is not a well-formed signature */
    MLDSA_ERR_NULL = -2,              /* a required pointer is NULL */
    MLDSA_ERR_LENGTH = -3,            /* wrong length (or output capacity too small) */
    MLDSA_ERR_ENCODING = -4,          /* malformed key or document */
    MLDSA_ERR_CONTEXT_TOO_LONG = -5,  /* context longer than 255 bytes */
    MLDSA_ERR_RNG = -6,               /* the OS random number generator failed */
    MLDSA_ERR_UNSUPPORTED = -7,       /* unknown pre-hash id, key form or format */
    MLDSA_ERR_DECRYPT = -8,           /* wrong passphrase, or corrupt encrypted key */
    MLDSA_ERR_FAULT = -9,             /* signing detected a fault */
    MLDSA_ERR_STATE = -10,            /* streaming context used after _final */
    MLDSA_ERR_INTERNAL = -11          /* internal error (a bug in mldsa) */
} mldsa_status;

/* A static string for a status code; never NULL. */
const char *mldsa_strerror(int status);
/* The library version, e.g. "0.1.0". */
const char *mldsa_version(void);
/* The backend running the arithmetic now: "avx512" (AVX2 with its AVX-512 variants, where the
 * CPU has AVX-512 F, VL and BW), "avx2", "simd128" (WebAssembly SIMD builds) or "portable". */
const char *mldsa_backend(void);
/* Non-zero: use the portable backend from now on; zero: the fastest the CPU supports. */
MLDSA_NODISCARD int mldsa_force_portable(int yes);
/* Non-zero: use AVX2 without its AVX-512 variants from now on (the portable backend on a CPU
 * without AVX2); zero: the fastest the CPU supports. */
MLDSA_NODISCARD int mldsa_force_avx2(int yes);
/* Wipes and frees a buffer returned by this library (`*out` of the _to_ functions). NULL is
 * ignored. */
void mldsa_free(void *p);

/* ---- HashML-DSA pre-hash ids (FIPS 204 section 5.4) --------------------------------------- */

typedef enum mldsa_prehash {
    MLDSA_PH_SHA2_224 = 0,
    MLDSA_PH_SHA2_256 = 1,
    MLDSA_PH_SHA2_384 = 2,
    MLDSA_PH_SHA2_512 = 3,
    MLDSA_PH_SHA2_512_224 = 4,
    MLDSA_PH_SHA2_512_256 = 5,
    MLDSA_PH_SHA3_224 = 6,
    MLDSA_PH_SHA3_256 = 7,
    MLDSA_PH_SHA3_384 = 8,
    MLDSA_PH_SHA3_512 = 9,
    MLDSA_PH_SHAKE128 = 10, /* 32-byte digest */
    MLDSA_PH_SHAKE256 = 11  /* 64-byte digest */
} mldsa_prehash;

/* Document encodings and RFC 9881 private key forms. */
#define MLDSA_FORMAT_DER 0
#define MLDSA_FORMAT_PEM 1
#define MLDSA_PKCS8_SEED 0
#define MLDSA_PKCS8_EXPANDED 1
#define MLDSA_PKCS8_BOTH 2

/* ---- opaque objects ----------------------------------------------------------------------- */

/* Streaming pure ML-DSA for messages that do not fit in memory: mldsaNN_sign_ctx_new, any
 * number of _update, one _final, then _free (always, also after a failure of _final). */
typedef struct mldsa_sign_ctx mldsa_sign_ctx;
typedef struct mldsa_verify_ctx mldsa_verify_ctx;
/* Prepared keys (A-hat expanded once) for signing or verifying many messages. */
typedef struct mldsa_signing_key mldsa_signing_key;
typedef struct mldsa_verifying_key mldsa_verifying_key;

MLDSA_NODISCARD int mldsa_sign_ctx_update(mldsa_sign_ctx *c, const uint8_t *data, size_t len);
/* Writes the signature (cap >= the set's signature size) and its length; rnd NULL = hedged. */
MLDSA_NODISCARD int mldsa_sign_ctx_final(mldsa_sign_ctx *c, uint8_t *sig, size_t cap,
                                         size_t *siglen, const uint8_t *rnd);
void mldsa_sign_ctx_free(mldsa_sign_ctx *c);
MLDSA_NODISCARD int mldsa_verify_ctx_update(mldsa_verify_ctx *c, const uint8_t *data, size_t len);
MLDSA_NODISCARD int mldsa_verify_ctx_final(mldsa_verify_ctx *c, const uint8_t *sig,
                                           size_t siglen);
void mldsa_verify_ctx_free(mldsa_verify_ctx *c);

MLDSA_NODISCARD int mldsa_signing_key_sign(const mldsa_signing_key *key, uint8_t *sig,
                                           size_t cap, size_t *siglen, const uint8_t *m,
                                           size_t mlen, const uint8_t *ctx, size_t ctxlen,
                                           const uint8_t *rnd);
/* Wipes the key. */
void mldsa_signing_key_free(mldsa_signing_key *key);
MLDSA_NODISCARD int mldsa_verifying_key_verify(const mldsa_verifying_key *key,
                                               const uint8_t *sig, size_t siglen,
                                               const uint8_t *m, size_t mlen,
                                               const uint8_t *ctx, size_t ctxlen);
void mldsa_verifying_key_free(mldsa_verifying_key *key);

/* ---- ML-DSA-44, -65, -87: the functions mldsa44_*, mldsa65_*, mldsa87_* --------------------
 *
 * pk, sk, sig: the set's MLDSAnn_PUBLIC_KEY_BYTES / _SECRET_KEY_BYTES / _SIGNATURE_BYTES.
 * seed, rnd: 32 bytes; mu: 64. ctx: 0..255 bytes. `rnd` where optional: NULL = hedged (fresh
 * OS randomness, the FIPS 204 default); 32 zero bytes = deterministic.
 *
 * keypair            KeyGen (Alg. 1) with OS randomness; sk is the expanded key.
 * keypair_from_seed  KeyGen_internal (Alg. 6) from the seed xi.
 * pk_from_seed       The public key of a seed.
 * pk_from_sk         The public key of an expanded key (imported strictly).
 * sk_check           Strict import: MLDSA_OK iff sk is a key KeyGen could have made.
 * sign               ML-DSA.Sign (Alg. 2), hedged.
 * sign_deterministic ML-DSA.Sign, deterministic variant.
 * sign_rnd           ML-DSA.Sign with the caller's rnd.
 * verify             ML-DSA.Verify (Alg. 3). siglen is checked (MLDSA_ERR_LENGTH).
 * sign_prehash       HashML-DSA.Sign (Alg. 4), hashing m with `ph` (mldsa_prehash).
 * sign_digest        HashML-DSA.Sign on the digest PH(m) the caller computed.
 * verify_prehash / verify_digest   HashML-DSA.Verify (Alg. 5), likewise.
 * compute_mu         External mu: mu = H(tr || 0 || len(ctx) || ctx || m, 64) for pk.
 * sign_mu / verify_mu                Sign_internal / Verify_internal from mu.
 * sign_internal / verify_internal    Sign_internal / Verify_internal on M' (Alg. 7, 8).
 * sign_ctx_new / verify_ctx_new      Streaming pure ML-DSA with context ctx.
 * signing_key_new / signing_key_from_seed / verifying_key_new   Prepared keys.
 * pk_to_spki         SubjectPublicKeyInfo (RFC 9881) as DER or PEM in *out (mldsa_free).
 * pk_from_spki       Reads one (format MLDSA_FORMAT_DER or _PEM).
 * seed_to_pkcs8      PKCS#8 of a seed in form MLDSA_PKCS8_*; encrypted (PBES2, scrypt,
 *                    AES-256-CBC) when pass is not NULL.
 * sk_to_pkcs8        PKCS#8 (expanded form) of an expanded key, optionally encrypted.
 * sk_from_pkcs8      Reads PKCS#8 (decrypting with pass when not NULL): writes the expanded
 *                    key, and the seed (if `seed` is not NULL; zeroed when the document has
 *                    none); *has_seed (if not NULL) says whether it had one.
 */
#define MLDSA_DECLARE_PARAMETER_SET_(p)                                                         \
    MLDSA_NODISCARD int p##_keypair(uint8_t *pk, uint8_t *sk);                                  \
    MLDSA_NODISCARD int p##_keypair_from_seed(uint8_t *pk, uint8_t *sk, const uint8_t *seed);   \
    MLDSA_NODISCARD int p##_pk_from_seed(uint8_t *pk, const uint8_t *seed);                     \
    MLDSA_NODISCARD int p##_pk_from_sk(uint8_t *pk, const uint8_t *sk);                         \
    MLDSA_NODISCARD int p##_sk_check(const uint8_t *sk);                                        \
    MLDSA_NODISCARD int p##_sign(uint8_t *sig, const uint8_t *m, size_t mlen,                   \
                                 const uint8_t *ctx, size_t ctxlen, const uint8_t *sk);         \
    MLDSA_NODISCARD int p##_sign_deterministic(uint8_t *sig, const uint8_t *m, size_t mlen,     \
                                               const uint8_t *ctx, size_t ctxlen,               \
                                               const uint8_t *sk);                              \
    MLDSA_NODISCARD int p##_sign_rnd(uint8_t *sig, const uint8_t *m, size_t mlen,               \
                                     const uint8_t *ctx, size_t ctxlen, const uint8_t *rnd,     \
                                     const uint8_t *sk);                                        \
    MLDSA_NODISCARD int p##_verify(const uint8_t *sig, size_t siglen, const uint8_t *m,         \
                                   size_t mlen, const uint8_t *ctx, size_t ctxlen,              \
                                   const uint8_t *pk);                                          \
    MLDSA_NODISCARD int p##_sign_prehash(uint8_t *sig, int ph, const uint8_t *m, size_t mlen,   \
                                         const uint8_t *ctx, size_t ctxlen, const uint8_t *rnd, \
                                         const uint8_t *sk);                                    \
    MLDSA_NODISCARD int p##_sign_digest(uint8_t *sig, int ph, const uint8_t *digest,            \
                                        size_t dlen, const uint8_t *ctx, size_t ctxlen,         \
                                        const uint8_t *rnd, const uint8_t *sk);                 \
    MLDSA_NODISCARD int p##_verify_prehash(const uint8_t *sig, size_t siglen, int ph,           \
                                           const uint8_t *m, size_t mlen, const uint8_t *ctx,   \
                                           size_t ctxlen, const uint8_t *pk);                   \
    MLDSA_NODISCARD int p##_verify_digest(const uint8_t *sig, size_t siglen, int ph,            \
                                          const uint8_t *digest, size_t dlen,                   \
                                          const uint8_t *ctx, size_t ctxlen,                    \
                                          const uint8_t *pk);                                   \
    MLDSA_NODISCARD int p##_compute_mu(uint8_t *mu, const uint8_t *m, size_t mlen,              \
                                       const uint8_t *ctx, size_t ctxlen, const uint8_t *pk);   \
    MLDSA_NODISCARD int p##_sign_mu(uint8_t *sig, const uint8_t *mu, const uint8_t *rnd,        \
                                    const uint8_t *sk);                                         \
    MLDSA_NODISCARD int p##_verify_mu(const uint8_t *sig, size_t siglen, const uint8_t *mu,     \
                                      const uint8_t *pk);                                       \
    MLDSA_NODISCARD int p##_sign_internal(uint8_t *sig, const uint8_t *mp, size_t mplen,        \
                                          const uint8_t *rnd, const uint8_t *sk);               \
    MLDSA_NODISCARD int p##_verify_internal(const uint8_t *sig, size_t siglen,                  \
                                            const uint8_t *mp, size_t mplen,                    \
                                            const uint8_t *pk);                                 \
    MLDSA_NODISCARD int p##_sign_ctx_new(mldsa_sign_ctx **out, const uint8_t *sk,               \
                                         const uint8_t *ctx, size_t ctxlen);                    \
    MLDSA_NODISCARD int p##_verify_ctx_new(mldsa_verify_ctx **out, const uint8_t *pk,           \
                                           const uint8_t *ctx, size_t ctxlen);                  \
    MLDSA_NODISCARD int p##_signing_key_new(mldsa_signing_key **out, const uint8_t *sk);        \
    MLDSA_NODISCARD int p##_signing_key_from_seed(mldsa_signing_key **out,                      \
                                                  const uint8_t *seed);                         \
    MLDSA_NODISCARD int p##_verifying_key_new(mldsa_verifying_key **out, const uint8_t *pk);    \
    MLDSA_NODISCARD int p##_pk_to_spki(uint8_t **out, size_t *outlen, const uint8_t *pk,        \
                                       int format);                                             \
    MLDSA_NODISCARD int p##_pk_from_spki(uint8_t *pk, const uint8_t *doc, size_t len,           \
                                         int format);                                           \
    MLDSA_NODISCARD int p##_seed_to_pkcs8(uint8_t **out, size_t *outlen, const uint8_t *seed,   \
                                          int form, const uint8_t *pass, size_t passlen,        \
                                          int format);                                          \
    MLDSA_NODISCARD int p##_sk_to_pkcs8(uint8_t **out, size_t *outlen, const uint8_t *sk,       \
                                        const uint8_t *pass, size_t passlen, int format);       \
    MLDSA_NODISCARD int p##_sk_from_pkcs8(uint8_t *sk, uint8_t *seed, int *has_seed,            \
                                          const uint8_t *doc, size_t len, const uint8_t *pass,  \
                                          size_t passlen, int format);

MLDSA_DECLARE_PARAMETER_SET_(mldsa44)
MLDSA_DECLARE_PARAMETER_SET_(mldsa65)
MLDSA_DECLARE_PARAMETER_SET_(mldsa87)

/* ---- CRYSTALS-Dilithium round 3 (v3.1): dilithium2_*, dilithium3_*, dilithium5_* -----------
 *
 * The pre-standard scheme, for existing round-3 keys and signatures (not ML-DSA: different
 * sizes and hashing). keypair draws the 32-byte seed zeta from the OS; sign is deterministic
 * (the round-3 default), sign_randomized uses fresh OS randomness.
 */
#define MLDSA_DECLARE_DILITHIUM_SET_(p)                                                         \
    MLDSA_NODISCARD int p##_keypair(uint8_t *pk, uint8_t *sk);                                  \
    MLDSA_NODISCARD int p##_keypair_from_seed(uint8_t *pk, uint8_t *sk, const uint8_t *seed);   \
    MLDSA_NODISCARD int p##_sk_check(const uint8_t *sk);                                        \
    MLDSA_NODISCARD int p##_sign(uint8_t *sig, const uint8_t *m, size_t mlen,                   \
                                 const uint8_t *sk);                                            \
    MLDSA_NODISCARD int p##_sign_randomized(uint8_t *sig, const uint8_t *m, size_t mlen,        \
                                            const uint8_t *sk);                                 \
    MLDSA_NODISCARD int p##_verify(const uint8_t *sig, size_t siglen, const uint8_t *m,         \
                                   size_t mlen, const uint8_t *pk);

MLDSA_DECLARE_DILITHIUM_SET_(dilithium2)
MLDSA_DECLARE_DILITHIUM_SET_(dilithium3)
MLDSA_DECLARE_DILITHIUM_SET_(dilithium5)

/* ---- Dilithium round 3 (v3.1), AES variant: dilithium2aes_*, dilithium3aes_*, dilithium5aes_*
 *
 * Dilithium2-AES, -3-AES, -5-AES (v3.1 section 5.3; the round-3 reference's
 * DILITHIUM_USE_AES): the same functions and sizes as the SHAKE sets above, with ExpandA,
 * ExpandS and ExpandMask drawn from AES-256-CTR. Keys and signatures of one variant are not
 * valid in the other.
 */
MLDSA_DECLARE_DILITHIUM_SET_(dilithium2aes)
MLDSA_DECLARE_DILITHIUM_SET_(dilithium3aes)
MLDSA_DECLARE_DILITHIUM_SET_(dilithium5aes)

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_H */
