/* The idiomatic API (mldsa.h) against the vectors, with every error path.
 *
 * usage: test_api VECTORS_DIR ACVP_LINES AES_ENTRY_PREFIX [quick]
 *   ACVP_LINES: the ACVP cases flattened by tests/c_suite.rs (K/G/V lines).
 *   AES_ENTRY_PREFIX: the round-3 AES variant's count = 0 KAT entries, made through
 *     dilithiumNaes_*, go to PREFIX2.txt, PREFIX3.txt, PREFIX5.txt (run.sh hashes them).
 *   quick: every 8th ACVP / KAT case only (for valgrind, where a full run takes minutes).
 *
 * Defines randombytes (rng.c), so the drop-in functions draw from the NIST DRBG here. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mldsa.h"
#include "rng.h"

/* One parameter set's functions, so that each test is written once for all three. */
typedef struct {
    const char *name;
    size_t pk_bytes, sk_bytes, sig_bytes;
    int (*keypair)(uint8_t *, uint8_t *);
    int (*keypair_from_seed)(uint8_t *, uint8_t *, const uint8_t *);
    int (*pk_from_seed)(uint8_t *, const uint8_t *);
    int (*pk_from_sk)(uint8_t *, const uint8_t *);
    int (*sk_check)(const uint8_t *);
    int (*sign)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
    int (*sign_deterministic)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                              const uint8_t *);
    int (*sign_rnd)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                    const uint8_t *, const uint8_t *);
    int (*verify)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                  const uint8_t *);
    int (*sign_prehash)(uint8_t *, int, const uint8_t *, size_t, const uint8_t *, size_t,
                        const uint8_t *, const uint8_t *);
    int (*sign_digest)(uint8_t *, int, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
    int (*verify_prehash)(const uint8_t *, size_t, int, const uint8_t *, size_t,
                          const uint8_t *, size_t, const uint8_t *);
    int (*verify_digest)(const uint8_t *, size_t, int, const uint8_t *, size_t,
                         const uint8_t *, size_t, const uint8_t *);
    int (*compute_mu)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                      const uint8_t *);
    int (*sign_mu)(uint8_t *, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*verify_mu)(const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*sign_internal)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*verify_internal)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
    int (*sign_ctx_new)(mldsa_sign_ctx **, const uint8_t *, const uint8_t *, size_t);
    int (*verify_ctx_new)(mldsa_verify_ctx **, const uint8_t *, const uint8_t *, size_t);
    int (*signing_key_new)(mldsa_signing_key **, const uint8_t *);
    int (*signing_key_from_seed)(mldsa_signing_key **, const uint8_t *);
    int (*verifying_key_new)(mldsa_verifying_key **, const uint8_t *);
    int (*pk_to_spki)(uint8_t **, size_t *, const uint8_t *, int);
    int (*pk_from_spki)(uint8_t *, const uint8_t *, size_t, int);
    int (*seed_to_pkcs8)(uint8_t **, size_t *, const uint8_t *, int, const uint8_t *, size_t, int);
    int (*sk_to_pkcs8)(uint8_t **, size_t *, const uint8_t *, const uint8_t *, size_t, int);
    int (*sk_from_pkcs8)(uint8_t *, uint8_t *, int *, const uint8_t *, size_t, const uint8_t *,
                         size_t, int);
    int (*ref_keypair)(uint8_t *, uint8_t *);
    int (*ref_signature)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                         const uint8_t *);
    int (*ref_signature_internal)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *,
                                  size_t, const uint8_t *, const uint8_t *);
    int (*ref_verify_internal)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                               size_t, const uint8_t *);
} set_api;

#define SET(P, N)                                                                              \
    {#N, N##_PUBLIC_KEY_BYTES, N##_SECRET_KEY_BYTES, N##_SIGNATURE_BYTES, P##_keypair,          \
     P##_keypair_from_seed, P##_pk_from_seed, P##_pk_from_sk, P##_sk_check, P##_sign,            \
     P##_sign_deterministic, P##_sign_rnd, P##_verify, P##_sign_prehash, P##_sign_digest,        \
     P##_verify_prehash, P##_verify_digest, P##_compute_mu, P##_sign_mu, P##_verify_mu,          \
     P##_sign_internal, P##_verify_internal, P##_sign_ctx_new, P##_verify_ctx_new,               \
     P##_signing_key_new, P##_signing_key_from_seed, P##_verifying_key_new, P##_pk_to_spki,      \
     P##_pk_from_spki, P##_seed_to_pkcs8, P##_sk_to_pkcs8, P##_sk_from_pkcs8,                    \
     P##_ref_keypair, P##_ref_signature, P##_ref_signature_internal, P##_ref_verify_internal}

/* The drop-in symbols, declared in include/mldsa/ref-fips204/api.h (not included here: its
 * crypto_sign names would clash with nothing, but this file tests the idiomatic API). */
#define REF_DECL(P)                                                                            \
    int P##_ref_keypair(uint8_t *, uint8_t *);                                                 \
    int P##_ref_signature(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *,       \
                          size_t, const uint8_t *);                                            \
    int P##_ref_signature_internal(uint8_t *, size_t *, const uint8_t *, size_t,               \
                                   const uint8_t *, size_t, const uint8_t *, const uint8_t *); \
    int P##_ref_verify_internal(const uint8_t *, size_t, const uint8_t *, size_t,              \
                                const uint8_t *, size_t, const uint8_t *);
REF_DECL(mldsa44)
REF_DECL(mldsa65)
REF_DECL(mldsa87)

static const set_api SETS[3] = {SET(mldsa44, MLDSA44), SET(mldsa65, MLDSA65),
                                SET(mldsa87, MLDSA87)};

static const set_api *set_named(const char *n) {
    int i;
    for (i = 0; i < 3; i++)
        if (strcmp(SETS[i].name + 5, n) == 0) return &SETS[i];
    abort();
}

static int quick;

/* ---- ACVP ---------------------------------------------------------------------------------- */

/* The prefix the pq-crystals reference's crypto_sign_signature builds for sign.h's
 * signature_internal: 0 || ctxlen || ctx for pure ML-DSA, empty for the internal interface.
 * Returns its length. */
static size_t reference_pre(uint8_t pre[2 + 255], const char *kind, const uint8_t *ctx,
                            size_t ctxlen) {
    if (strcmp(kind, "internal") == 0) return 0;
    pre[0] = 0;
    pre[1] = (uint8_t)ctxlen;
    memcpy(pre + 2, ctx, ctxlen);
    return 2 + ctxlen;
}

static void acvp(const char *path) {
    FILE *f = fopen(path, "r");
    char *line = NULL, *tok[12];
    size_t cap = 0;
    unsigned long n = 0, done[3] = {0, 0, 0}, dropin[2] = {0, 0};
    CHECK(f != NULL, "cannot open %s", path);
    if (f == NULL) return;
    while (getline(&line, &cap, f) > 0) {
        int k = 0;
        char *save = NULL, *t;
        const set_api *s;
        line[strcspn(line, "\n")] = 0;
        for (t = strtok_r(line, " ", &save); t != NULL && k < 12; t = strtok_r(NULL, " ", &save))
            tok[k++] = t;
        if (quick && (n++ % 8) != 0) continue;
        s = set_named(tok[1]);
        if (tok[0][0] == 'K') {
            size_t ls, lp, lk;
            uint8_t *seed = unhex(tok[2], &ls), *pk = unhex(tok[3], &lp), *sk = unhex(tok[4], &lk);
            uint8_t *pk2 = malloc(s->pk_bytes), *sk2 = malloc(s->sk_bytes);
            CHECK(s->keypair_from_seed(pk2, sk2, seed) == MLDSA_OK, "keyGen");
            CHECK(memcmp(pk2, pk, lp) == 0 && memcmp(sk2, sk, lk) == 0, "keyGen %s", s->name);
            CHECK(s->pk_from_seed(pk2, seed) == MLDSA_OK && memcmp(pk2, pk, lp) == 0, "pk_from_seed");
            CHECK(s->pk_from_sk(pk2, sk) == MLDSA_OK && memcmp(pk2, pk, lp) == 0, "pk_from_sk");
            CHECK(s->sk_check(sk) == MLDSA_OK, "sk_check");
            free(seed); free(pk); free(sk); free(pk2); free(sk2);
            done[0]++;
        } else if (tok[0][0] == 'G') {
            /* G set kind rnd keyform key hashid ctx msg sig */
            size_t lr, lk, lc, lm, lsig;
            uint8_t *rnd = unhex(tok[3], &lr), *key = unhex(tok[5], &lk);
            uint8_t *ctx = unhex(tok[7], &lc), *msg = unhex(tok[8], &lm), *sig = unhex(tok[9], &lsig);
            uint8_t *sk = malloc(s->sk_bytes), *pk = malloc(s->pk_bytes), *out = malloc(s->sig_bytes);
            uint8_t zero[32] = {0};
            const uint8_t *r = lr ? rnd : zero;
            int ph = atoi(tok[6]), rc;
            if (strcmp(tok[4], "seed") == 0) {
                CHECK(s->keypair_from_seed(pk, sk, key) == MLDSA_OK, "keygen");
            } else {
                memcpy(sk, key, s->sk_bytes);
            }
            if (strcmp(tok[2], "pure") == 0) {
                rc = s->sign_rnd(out, msg, lm, ctx, lc, r, sk);
            } else if (strcmp(tok[2], "prehash") == 0) {
                rc = s->sign_prehash(out, ph, msg, lm, ctx, lc, r, sk);
            } else if (strcmp(tok[2], "mu") == 0) {
                rc = s->sign_mu(out, msg, r, sk);
            } else {
                rc = s->sign_internal(out, msg, lm, r, sk);
            }
            CHECK(rc == MLDSA_OK && lsig == s->sig_bytes && memcmp(out, sig, lsig) == 0,
                  "sigGen %s %s rc %d", s->name, tok[2], rc);
            if (strcmp(tok[2], "pure") == 0 || strcmp(tok[2], "internal") == 0) {
                /* sign.h's signature_internal with the prefix the reference would build. */
                uint8_t pre[2 + 255];
                size_t prelen = reference_pre(pre, tok[2], ctx, lc), l = 0;
                memset(out, 0xAA, s->sig_bytes);
                rc = s->ref_signature_internal(out, &l, msg, lm, prelen ? pre : NULL, prelen, r, sk);
                CHECK(rc == 0 && l == lsig && memcmp(out, sig, lsig) == 0,
                      "sigGen %s %s through ref_signature_internal: rc %d", s->name, tok[2], rc);
                dropin[0]++;
            }
            if (lr == 0 && strcmp(tok[2], "pure") == 0) {
                CHECK(s->sign_deterministic(out, msg, lm, ctx, lc, sk) == MLDSA_OK &&
                          memcmp(out, sig, lsig) == 0, "sign_deterministic");
            }
            free(rnd); free(key); free(ctx); free(msg); free(sig); free(sk); free(pk); free(out);
            done[1]++;
        } else {
            /* V set kind pk hashid ctx msg sig passed */
            size_t lp, lc, lm, lsig;
            uint8_t *pk = unhex(tok[3], &lp), *ctx = unhex(tok[5], &lc), *msg = unhex(tok[6], &lm);
            uint8_t *sig = unhex(tok[7], &lsig);
            int ph = atoi(tok[4]), want = atoi(tok[8]), rc;
            if (strcmp(tok[2], "pure") == 0) {
                rc = s->verify(sig, lsig, msg, lm, ctx, lc, pk);
            } else if (strcmp(tok[2], "prehash") == 0) {
                rc = s->verify_prehash(sig, lsig, ph, msg, lm, ctx, lc, pk);
            } else if (strcmp(tok[2], "mu") == 0) {
                rc = s->verify_mu(sig, lsig, msg, pk);
            } else {
                rc = s->verify_internal(sig, lsig, msg, lm, pk);
            }
            CHECK(rc == (want ? MLDSA_OK : MLDSA_ERR_INVALID_SIGNATURE), "sigVer %s %s: rc %d",
                  s->name, tok[2], rc);
            if (strcmp(tok[2], "pure") == 0 || strcmp(tok[2], "internal") == 0) {
                uint8_t pre[2 + 255];
                size_t prelen = reference_pre(pre, tok[2], ctx, lc);
                rc = s->ref_verify_internal(sig, lsig, msg, lm, prelen ? pre : NULL, prelen, pk);
                CHECK(rc == (want ? 0 : -1), "sigVer %s %s through ref_verify_internal: rc %d",
                      s->name, tok[2], rc);
                dropin[1]++;
            }
            free(pk); free(ctx); free(msg); free(sig);
            done[2]++;
        }
    }
    free(line);
    fclose(f);
    printf("ACVP: %lu keyGen, %lu sigGen, %lu sigVer cases\n", done[0], done[1], done[2]);
    printf("ACVP through the drop-in signature_internal / verify_internal (pure and internal): "
           "%lu sigGen, %lu sigVer cases\n", dropin[0], dropin[1]);
    CHECK(done[0] > 0 && done[1] > 0 && done[2] > 0, "ACVP cases missing");
    CHECK(dropin[0] > 0 && dropin[1] > 0, "ACVP cases for the drop-in internal functions missing");
}

/* ---- reference KATs ------------------------------------------------------------------------ */

/* The value of "key = value" in the entry starting at *p (advances *p past the line). */
static char *field(char **p, const char *key) {
    char *line = strstr(*p, key), *end;
    size_t klen = strlen(key);
    while (line != NULL && !(line[klen] == ' ' && (line == *p || line[-1] == '\n')))
        line = strstr(line + 1, key);
    if (line == NULL) return NULL;
    line += klen + 3;
    end = strchr(line, '\n');
    if (end != NULL) *end = 0;
    *p = end != NULL ? end + 1 : line + strlen(line);
    return line;
}

/* itzmeanjan/ml-dsa .kat: KeyGen from seed, hedged pure signing with ctx and rnd. */
static void kat_itzmeanjan(const char *path, const set_api *s) {
    size_t len, n = 0, count = 0;
    char *text = read_file(path, &len), *p = text, *v;
    CHECK(text != NULL, "cannot read %s", path);
    if (text == NULL) return;
    while ((v = field(&p, "seed")) != NULL) {
        size_t l[7];
        uint8_t *seed = unhex(v, &l[0]), *pk = unhex(field(&p, "pkey"), &l[1]);
        uint8_t *sk = unhex(field(&p, "skey"), &l[2]), *msg, *ctx, *rnd, *sig;
        uint8_t *pk2 = malloc(s->pk_bytes), *sk2 = malloc(s->sk_bytes), *sig2 = malloc(s->sig_bytes);
        field(&p, "mlen");
        msg = unhex(field(&p, "msg"), &l[3]);
        field(&p, "ctx_len");
        ctx = unhex(field(&p, "ctx"), &l[4]);
        rnd = unhex(field(&p, "rnd"), &l[5]);
        sig = unhex(field(&p, "sig"), &l[6]);
        if (!quick || n % 8 == 0) {
            CHECK(s->keypair_from_seed(pk2, sk2, seed) == MLDSA_OK, "keygen");
            CHECK(memcmp(pk2, pk, l[1]) == 0 && memcmp(sk2, sk, l[2]) == 0, "kat keys %zu", n);
            CHECK(s->sign_rnd(sig2, msg, l[3], ctx, l[4], rnd, sk2) == MLDSA_OK &&
                      memcmp(sig2, sig, l[6]) == 0, "kat sig %zu", n);
            CHECK(s->verify(sig, l[6], msg, l[3], ctx, l[4], pk) == MLDSA_OK, "kat verify %zu", n);
            count++;
        }
        n++;
        free(seed); free(pk); free(sk); free(msg); free(ctx); free(rnd); free(sig);
        free(pk2); free(sk2); free(sig2);
    }
    CHECK(n == 100, "%s: %zu entries", path, n);
    printf("%s: %zu of %zu entries checked\n", path, count, n);
    free(text);
}

/* NIST PQCsignKAT .rsp through the idiomatic API: the entry's DRBG gives the seed (then, for
 * ML-DSA, rnd); sm = sig || msg. `legacy` selects the round-3 dilithiumN_* functions. */
typedef struct {
    const char *name;
    size_t pk_bytes, sk_bytes, sig_bytes;
    int (*keypair)(uint8_t *, uint8_t *);
    int (*keypair_from_seed)(uint8_t *, uint8_t *, const uint8_t *);
    int (*sign)(uint8_t *, const uint8_t *, size_t, const uint8_t *); /* round 3 */
    int (*sign_randomized)(uint8_t *, const uint8_t *, size_t, const uint8_t *);
    int (*verify)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
    int (*sk_check)(const uint8_t *);
} legacy_api;

#define LEGACY(P, N)                                                                           \
    {#P, N##_PUBLIC_KEY_BYTES, N##_SECRET_KEY_BYTES, N##_SIGNATURE_BYTES, P##_keypair,         \
     P##_keypair_from_seed, P##_sign, P##_sign_randomized, P##_verify, P##_sk_check}
/* Dilithium2/3/5, then their AES variants in the same order. */
static const legacy_api LEGACY_SETS[6] = {
    LEGACY(dilithium2, DILITHIUM2),       LEGACY(dilithium3, DILITHIUM3),
    LEGACY(dilithium5, DILITHIUM5),       LEGACY(dilithium2aes, DILITHIUM2AES),
    LEGACY(dilithium3aes, DILITHIUM3AES), LEGACY(dilithium5aes, DILITHIUM5AES)};

static void kat_rsp(const char *path, const set_api *s, const legacy_api *l3) {
    size_t len, n = 0, count = 0;
    char *text = read_file(path, &len), *p = text, *v;
    size_t pkb = s ? s->pk_bytes : l3->pk_bytes, skb = s ? s->sk_bytes : l3->sk_bytes;
    size_t sigb = s ? s->sig_bytes : l3->sig_bytes;
    CHECK(text != NULL, "cannot read %s", path);
    if (text == NULL) return;
    while ((v = field(&p, "seed")) != NULL) {
        size_t l[5];
        uint8_t *seed = unhex(v, &l[0]), *msg, *pk, *sk, *sm, xi[32], rnd[32];
        uint8_t *pk2 = malloc(pkb), *sk2 = malloc(skb), *sig2 = malloc(sigb);
        field(&p, "mlen");
        msg = unhex(field(&p, "msg"), &l[1]);
        pk = unhex(field(&p, "pk"), &l[2]);
        sk = unhex(field(&p, "sk"), &l[3]);
        field(&p, "smlen");
        sm = unhex(field(&p, "sm"), &l[4]);
        if (!quick || n % 8 == 0) {
            randombytes_init(seed, NULL, 256);
            randombytes(xi, 32);
            randombytes(rnd, 32);
            if (s != NULL) {
                CHECK(s->keypair_from_seed(pk2, sk2, xi) == MLDSA_OK, "keygen");
                CHECK(s->sign_rnd(sig2, msg, l[1], NULL, 0, rnd, sk2) == MLDSA_OK, "sign");
                CHECK(s->verify(sig2, sigb, msg, l[1], NULL, 0, pk2) == MLDSA_OK, "verify");
            } else {
                CHECK(l3->keypair_from_seed(pk2, sk2, xi) == MLDSA_OK, "keygen");
                CHECK(l3->sk_check(sk2) == MLDSA_OK, "sk_check");
                CHECK(l3->sign(sig2, msg, l[1], sk2) == MLDSA_OK, "sign");
                CHECK(l3->verify(sig2, sigb, msg, l[1], pk2) == MLDSA_OK, "verify");
                sig2[0] ^= 1;
                CHECK(l3->verify(sig2, sigb, msg, l[1], pk2) == MLDSA_ERR_INVALID_SIGNATURE,
                      "tampered round-3 signature");
                sig2[0] ^= 1;
            }
            CHECK(l[2] == pkb && memcmp(pk2, pk, pkb) == 0, "%s %zu: pk", path, n);
            CHECK(l[3] == skb && memcmp(sk2, sk, skb) == 0, "%s %zu: sk", path, n);
            CHECK(l[4] == sigb + l[1] && memcmp(sig2, sm, sigb) == 0 &&
                      memcmp(sm + sigb, msg, l[1]) == 0, "%s %zu: sm", path, n);
            count++;
        }
        n++;
        free(seed); free(msg); free(pk); free(sk); free(sm); free(pk2); free(sk2); free(sig2);
    }
    CHECK(n == 100, "%s: %zu entries", path, n);
    printf("%s: %zu of %zu entries checked\n", path, count, n);
    free(text);
}

#define FILL(buf, n) memset((buf), 0xAA, (n))

/* ---- round 3 and its AES variant: round trips, tampering, lengths, NULLs ------------------ */

/* `other` is the same level in the other variant (SHAKE for AES and back): the same seed gives
 * another key, and a signature of one does not verify in the other. */
static void legacy_checks(const legacy_api *l, const legacy_api *other) {
    uint8_t seed[32] = {11}, msg[3] = {1, 2, 3};
    uint8_t *pk = malloc(l->pk_bytes), *sk = malloc(l->sk_bytes), *sig = malloc(l->sig_bytes);
    uint8_t *sig2 = malloc(l->sig_bytes), *pk2 = malloc(l->pk_bytes), *sk2 = malloc(l->sk_bytes);

    /* Round trips: OS keys; deterministic signing repeats, randomized signing differs. */
    CHECK(l->keypair(pk, sk) == MLDSA_OK && l->sk_check(sk) == MLDSA_OK, "%s keypair", l->name);
    CHECK(l->sign_randomized(sig, msg, 3, sk) == MLDSA_OK &&
              l->verify(sig, l->sig_bytes, msg, 3, pk) == MLDSA_OK, "%s randomized round trip",
          l->name);
    CHECK(l->keypair_from_seed(pk, sk, seed) == MLDSA_OK, "%s keypair_from_seed", l->name);
    CHECK(l->sign(sig, msg, 3, sk) == MLDSA_OK && l->sign(sig2, msg, 3, sk) == MLDSA_OK &&
              memcmp(sig, sig2, l->sig_bytes) == 0, "%s deterministic signing repeats", l->name);
    CHECK(l->verify(sig, l->sig_bytes, msg, 3, pk) == MLDSA_OK, "%s verify", l->name);
    CHECK(l->sign_randomized(sig2, msg, 3, sk) == MLDSA_OK &&
              memcmp(sig, sig2, l->sig_bytes) != 0 &&
              l->verify(sig2, l->sig_bytes, msg, 3, pk) == MLDSA_OK,
          "%s randomized signature differs and verifies", l->name);
    CHECK(l->sign(sig2, NULL, 0, sk) == MLDSA_OK &&
              l->verify(sig2, l->sig_bytes, NULL, 0, pk) == MLDSA_OK, "%s empty message", l->name);

    /* Tampering and wrong lengths. */
    sig[l->sig_bytes / 2] ^= 1;
    CHECK(l->verify(sig, l->sig_bytes, msg, 3, pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "%s tampered signature", l->name);
    sig[l->sig_bytes / 2] ^= 1;
    CHECK(l->verify(sig, l->sig_bytes, msg, 2, pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "%s other message", l->name);
    CHECK(l->verify(sig, l->sig_bytes - 1, msg, 3, pk) == MLDSA_ERR_LENGTH, "%s siglen-1", l->name);
    CHECK(l->verify(sig, l->sig_bytes + 1, msg, 3, pk) == MLDSA_ERR_LENGTH, "%s siglen+1", l->name);

    /* NULLs: MLDSA_ERR_NULL and every output zeroed. */
    FILL(sk2, l->sk_bytes);
    CHECK(l->keypair_from_seed(NULL, sk2, seed) == MLDSA_ERR_NULL && all_zero(sk2, l->sk_bytes),
          "%s keypair NULL pk", l->name);
    FILL(pk2, l->pk_bytes);
    FILL(sk2, l->sk_bytes);
    CHECK(l->keypair_from_seed(pk2, sk2, NULL) == MLDSA_ERR_NULL && all_zero(pk2, l->pk_bytes) &&
              all_zero(sk2, l->sk_bytes), "%s keypair NULL seed", l->name);
    CHECK(l->keypair(NULL, NULL) == MLDSA_ERR_NULL, "%s keypair NULL", l->name);
    CHECK(l->sk_check(NULL) == MLDSA_ERR_NULL, "%s sk_check NULL", l->name);
    FILL(sig2, l->sig_bytes);
    CHECK(l->sign(sig2, NULL, 3, sk) == MLDSA_ERR_NULL && all_zero(sig2, l->sig_bytes),
          "%s sign NULL m", l->name);
    FILL(sig2, l->sig_bytes);
    CHECK(l->sign(sig2, msg, 3, NULL) == MLDSA_ERR_NULL && all_zero(sig2, l->sig_bytes),
          "%s sign NULL sk", l->name);
    FILL(sig2, l->sig_bytes);
    CHECK(l->sign_randomized(sig2, msg, 3, NULL) == MLDSA_ERR_NULL && all_zero(sig2, l->sig_bytes),
          "%s sign_randomized NULL sk", l->name);
    CHECK(l->sign(NULL, msg, 3, sk) == MLDSA_ERR_NULL, "%s sign NULL sig", l->name);
    CHECK(l->verify(NULL, l->sig_bytes, msg, 3, pk) == MLDSA_ERR_NULL, "%s verify NULL sig", l->name);
    CHECK(l->verify(sig, l->sig_bytes, NULL, 3, pk) == MLDSA_ERR_NULL, "%s verify NULL m", l->name);
    CHECK(l->verify(sig, l->sig_bytes, msg, 3, NULL) == MLDSA_ERR_NULL, "%s verify NULL pk", l->name);

    /* Malformed secret key (s1 out of range): refused, output zeroed. */
    memcpy(sk2, sk, l->sk_bytes);
    memset(sk2 + 128, 0xFF, l->sk_bytes - 128);
    CHECK(l->sk_check(sk2) == MLDSA_ERR_ENCODING, "%s sk_check malformed", l->name);
    FILL(sig2, l->sig_bytes);
    CHECK(l->sign(sig2, msg, 3, sk2) == MLDSA_ERR_ENCODING && all_zero(sig2, l->sig_bytes),
          "%s sign with malformed sk", l->name);

    /* The other variant of the level: another key from the same seed; signatures not shared. */
    CHECK(other->keypair_from_seed(pk2, sk2, seed) == MLDSA_OK && memcmp(pk, pk2, l->pk_bytes) != 0,
          "%s and %s: the same seed gives different keys", l->name, other->name);
    CHECK(other->verify(sig, l->sig_bytes, msg, 3, pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "%s signature rejected by %s", l->name, other->name);
    free(pk); free(sk); free(sig); free(sig2); free(pk2); free(sk2);
}

static void write_hex(FILE *f, const char *name, const uint8_t *p, size_t n) {
    size_t i;
    fprintf(f, "%s = ", name);
    for (i = 0; i < n; i++) fprintf(f, "%02X", p[i]);
    fprintf(f, "\n");
}

/* The round-3 AES variant's count = 0 KAT entry through dilithiumNaes_keypair_from_seed and
 * _sign, as PQCgenKAT_sign makes it (the master DRBG gives the entry's seed and message, the
 * entry's DRBG the 32-byte key seed; signing is deterministic), written to `path` for run.sh
 * to compare its SHA-256 with the reference KAT's (../shared/vectors/dilithium-aes-round3). */
static void kat_aes_entry0(const legacy_api *l, const char *path) {
    uint8_t entropy[48], seed[48], msg[33], xi[32];
    uint8_t *pk = malloc(l->pk_bytes), *sk = malloc(l->sk_bytes), *sm = malloc(l->sig_bytes + 33);
    FILE *f;
    int i;
    for (i = 0; i < 48; i++) entropy[i] = (uint8_t)i;
    randombytes_init(entropy, NULL, 256);
    randombytes(seed, 48);
    randombytes(msg, 33);
    randombytes_init(seed, NULL, 256);
    randombytes(xi, 32);
    CHECK(l->keypair_from_seed(pk, sk, xi) == MLDSA_OK, "%s KAT keygen", l->name);
    CHECK(l->sign(sm, msg, 33, sk) == MLDSA_OK, "%s KAT sign", l->name);
    memcpy(sm + l->sig_bytes, msg, 33);
    f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (f != NULL) {
        fprintf(f, "count = 0\n");
        write_hex(f, "seed", seed, 48);
        fprintf(f, "mlen = 33\n");
        write_hex(f, "msg", msg, 33);
        write_hex(f, "pk", pk, l->pk_bytes);
        write_hex(f, "sk", sk, l->sk_bytes);
        fprintf(f, "smlen = %zu\n", l->sig_bytes + 33);
        write_hex(f, "sm", sm, l->sig_bytes + 33);
        CHECK(fclose(f) == 0, "closing %s", path);
    }
    free(pk); free(sk); free(sm);
}

/* ---- error paths: each NULL, each wrong length, ctx 256, bad encodings; outputs zeroed ---- */

static void errors(const set_api *s) {
    uint8_t seed[32] = {42}, rnd[32] = {1}, mu[64] = {2}, ctx[256] = {0}, msg[3] = {1, 2, 3};
    uint8_t *pk = malloc(s->pk_bytes), *sk = malloc(s->sk_bytes), *sig = malloc(s->sig_bytes);
    uint8_t *good_sig = malloc(s->sig_bytes), *good_pk = malloc(s->pk_bytes);
    uint8_t *good_sk = malloc(s->sk_bytes), *doc = NULL, *bad = malloc(s->sk_bytes);
    size_t doclen = 1;
    int rc;
    mldsa_sign_ctx *sc = (mldsa_sign_ctx *)1;
    mldsa_signing_key *key = (mldsa_signing_key *)1;

    CHECK(s->keypair_from_seed(good_pk, good_sk, seed) == MLDSA_OK, "keygen");
    CHECK(s->sign_deterministic(good_sig, msg, 3, NULL, 0, good_sk) == MLDSA_OK, "sign");

    /* NULL for each pointer of keypair_from_seed: error, other outputs zeroed. */
    FILL(sk, s->sk_bytes);
    CHECK(s->keypair_from_seed(NULL, sk, seed) == MLDSA_ERR_NULL && all_zero(sk, s->sk_bytes),
          "keypair NULL pk");
    FILL(pk, s->pk_bytes);
    CHECK(s->keypair_from_seed(pk, NULL, seed) == MLDSA_ERR_NULL && all_zero(pk, s->pk_bytes),
          "keypair NULL sk");
    FILL(pk, s->pk_bytes); FILL(sk, s->sk_bytes);
    CHECK(s->keypair_from_seed(pk, sk, NULL) == MLDSA_ERR_NULL && all_zero(pk, s->pk_bytes) &&
              all_zero(sk, s->sk_bytes), "keypair NULL seed");
    CHECK(s->keypair(NULL, NULL) == MLDSA_ERR_NULL, "keypair NULL");
    FILL(pk, s->pk_bytes);
    CHECK(s->pk_from_seed(pk, NULL) == MLDSA_ERR_NULL && all_zero(pk, s->pk_bytes), "pk_from_seed");
    CHECK(s->pk_from_sk(pk, NULL) == MLDSA_ERR_NULL, "pk_from_sk NULL");
    CHECK(s->sk_check(NULL) == MLDSA_ERR_NULL, "sk_check NULL");

    /* sign: NULL sk, NULL message with a length, NULL ctx with a length, ctx of 256. */
    FILL(sig, s->sig_bytes);
    CHECK(s->sign(sig, msg, 3, NULL, 0, NULL) == MLDSA_ERR_NULL && all_zero(sig, s->sig_bytes),
          "sign NULL sk");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign(sig, NULL, 3, NULL, 0, good_sk) == MLDSA_ERR_NULL && all_zero(sig, s->sig_bytes),
          "sign NULL m");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign(sig, msg, 3, NULL, 5, good_sk) == MLDSA_ERR_NULL && all_zero(sig, s->sig_bytes),
          "sign NULL ctx");
    CHECK(s->sign(NULL, msg, 3, NULL, 0, good_sk) == MLDSA_ERR_NULL, "sign NULL sig");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign(sig, msg, 3, ctx, 256, good_sk) == MLDSA_ERR_CONTEXT_TOO_LONG &&
              all_zero(sig, s->sig_bytes), "sign ctx 256");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign_rnd(sig, msg, 3, NULL, 0, NULL, good_sk) == MLDSA_ERR_NULL &&
              all_zero(sig, s->sig_bytes), "sign_rnd NULL rnd");
    CHECK(s->sign(sig, NULL, 0, NULL, 0, good_sk) == MLDSA_OK, "empty message as NULL, 0");
    CHECK(s->verify(sig, s->sig_bytes, NULL, 0, NULL, 0, good_pk) == MLDSA_OK, "verify empty");
    /* A secret key with s1 out of range (all 0xFF): a malformed encoding. */
    memset(bad, 0xFF, s->sk_bytes);
    memcpy(bad, good_sk, 128);
    FILL(sig, s->sig_bytes);
    CHECK(s->sign(sig, msg, 3, NULL, 0, bad) == MLDSA_ERR_ENCODING && all_zero(sig, s->sig_bytes),
          "sign with malformed sk");
    CHECK(s->sk_check(bad) == MLDSA_ERR_ENCODING, "sk_check malformed");
    FILL(pk, s->pk_bytes);
    CHECK(s->pk_from_sk(pk, bad) == MLDSA_ERR_ENCODING && all_zero(pk, s->pk_bytes), "pk_from_sk bad");
    /* A consistent-range key with a wrong tr: sk_check rejects it. */
    memcpy(bad, good_sk, s->sk_bytes);
    bad[64] ^= 1;
    CHECK(s->sk_check(bad) == MLDSA_ERR_ENCODING, "sk_check wrong tr");

    /* verify: wrong lengths, NULLs, ctx 256, tampering. */
    CHECK(s->verify(good_sig, s->sig_bytes - 1, msg, 3, NULL, 0, good_pk) == MLDSA_ERR_LENGTH, "siglen-1");
    CHECK(s->verify(good_sig, s->sig_bytes + 1, msg, 3, NULL, 0, good_pk) == MLDSA_ERR_LENGTH, "siglen+1");
    CHECK(s->verify(NULL, s->sig_bytes, msg, 3, NULL, 0, good_pk) == MLDSA_ERR_NULL, "verify NULL sig");
    CHECK(s->verify(good_sig, s->sig_bytes, msg, 3, NULL, 0, NULL) == MLDSA_ERR_NULL, "verify NULL pk");
    CHECK(s->verify(good_sig, s->sig_bytes, msg, 3, ctx, 256, good_pk) == MLDSA_ERR_CONTEXT_TOO_LONG,
          "verify ctx 256");
    CHECK(s->verify(good_sig, s->sig_bytes, msg, 2, NULL, 0, good_pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "verify other message");
    memcpy(sig, good_sig, s->sig_bytes);
    sig[s->sig_bytes - 1] = 0xFF; /* hint counts out of order: malformed, so invalid */
    CHECK(s->verify(sig, s->sig_bytes, msg, 3, NULL, 0, good_pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "verify malformed hint");

    /* HashML-DSA: unknown id, wrong digest length; digest round trip. */
    FILL(sig, s->sig_bytes);
    CHECK(s->sign_prehash(sig, 12, msg, 3, NULL, 0, rnd, good_sk) == MLDSA_ERR_UNSUPPORTED &&
              all_zero(sig, s->sig_bytes), "prehash id 12");
    CHECK(s->sign_prehash(sig, -1, msg, 3, NULL, 0, rnd, good_sk) == MLDSA_ERR_UNSUPPORTED, "id -1");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign_digest(sig, MLDSA_PH_SHA2_256, mu, 31, NULL, 0, rnd, good_sk) == MLDSA_ERR_LENGTH &&
              all_zero(sig, s->sig_bytes), "digest of 31 bytes for SHA2-256");
    CHECK(s->sign_digest(sig, MLDSA_PH_SHA2_256, mu, 32, ctx, 7, NULL, good_sk) == MLDSA_OK, "digest");
    CHECK(s->verify_digest(sig, s->sig_bytes, MLDSA_PH_SHA2_256, mu, 32, ctx, 7, good_pk) == MLDSA_OK,
          "verify_digest");
    CHECK(s->verify_digest(sig, s->sig_bytes, MLDSA_PH_SHA2_384, mu, 48, ctx, 7, good_pk) ==
              MLDSA_ERR_INVALID_SIGNATURE, "verify_digest other hash");
    CHECK(s->verify(sig, s->sig_bytes, mu, 32, ctx, 7, good_pk) == MLDSA_ERR_INVALID_SIGNATURE,
          "a HashML-DSA signature is not a pure one");

    /* External mu and internal interface: NULLs. */
    FILL(mu, 64);
    CHECK(s->compute_mu(mu, msg, 3, NULL, 0, NULL) == MLDSA_ERR_NULL && all_zero(mu, 64), "mu NULL pk");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign_mu(sig, NULL, rnd, good_sk) == MLDSA_ERR_NULL && all_zero(sig, s->sig_bytes), "sign_mu");
    CHECK(s->verify_mu(good_sig, s->sig_bytes, NULL, good_pk) == MLDSA_ERR_NULL, "verify_mu NULL");
    FILL(sig, s->sig_bytes);
    CHECK(s->sign_internal(sig, NULL, 5, rnd, good_sk) == MLDSA_ERR_NULL && all_zero(sig, s->sig_bytes),
          "sign_internal NULL");

    /* Objects: NULL out, bad key, ctx 256, use after final. */
    CHECK(s->sign_ctx_new(NULL, good_sk, NULL, 0) == MLDSA_ERR_NULL, "sign_ctx_new NULL");
    CHECK(s->sign_ctx_new(&sc, good_sk, ctx, 256) == MLDSA_ERR_CONTEXT_TOO_LONG && sc == NULL,
          "sign_ctx ctx 256 leaves NULL");
    CHECK(s->signing_key_new(&key, bad) == MLDSA_ERR_ENCODING && key == NULL, "signing_key_new strict");
    CHECK(mldsa_sign_ctx_update(NULL, msg, 3) == MLDSA_ERR_NULL, "update NULL ctx");
    CHECK(mldsa_verify_ctx_final(NULL, good_sig, s->sig_bytes) == MLDSA_ERR_NULL, "final NULL");
    CHECK(s->sign_ctx_new(&sc, good_sk, NULL, 0) == MLDSA_OK, "sign_ctx_new");
    {
        size_t siglen = 99;
        FILL(sig, s->sig_bytes);
        CHECK(mldsa_sign_ctx_final(sc, sig, s->sig_bytes - 1, &siglen, NULL) == MLDSA_ERR_LENGTH &&
                  siglen == 0 && all_zero(sig, s->sig_bytes - 1), "final into a short buffer");
        CHECK(mldsa_sign_ctx_update(sc, msg, 3) == MLDSA_ERR_STATE, "update after final");
        CHECK(mldsa_sign_ctx_final(sc, sig, s->sig_bytes, &siglen, NULL) == MLDSA_ERR_STATE,
              "final twice");
    }
    mldsa_sign_ctx_free(sc);
    mldsa_sign_ctx_free(NULL);
    mldsa_signing_key_free(NULL);
    mldsa_verifying_key_free(NULL);
    mldsa_verify_ctx_free(NULL);

    /* Documents: truncated PEM, wrong format id, NULL outs, wrong passphrase, other set. */
    CHECK(s->pk_to_spki(&doc, &doclen, good_pk, MLDSA_FORMAT_PEM) == MLDSA_OK, "spki pem");
    FILL(pk, s->pk_bytes);
    rc = s->pk_from_spki(pk, doc, doclen / 2, MLDSA_FORMAT_PEM);
    CHECK(rc == MLDSA_ERR_ENCODING && all_zero(pk, s->pk_bytes), "truncated PEM: %d", rc);
    CHECK(s->pk_from_spki(pk, doc, doclen, 7) == MLDSA_ERR_UNSUPPORTED, "format 7");
    CHECK(s->pk_from_spki(pk, doc, doclen, MLDSA_FORMAT_DER) == MLDSA_ERR_ENCODING, "PEM read as DER");
    mldsa_free(doc);
    doc = (uint8_t *)1;
    doclen = 1;
    CHECK(s->pk_to_spki(&doc, &doclen, NULL, MLDSA_FORMAT_DER) == MLDSA_ERR_NULL && doc == NULL &&
              doclen == 0, "spki NULL pk: out NULL, len 0");
    CHECK(s->pk_to_spki(NULL, &doclen, good_pk, MLDSA_FORMAT_DER) == MLDSA_ERR_NULL, "spki NULL out");
    CHECK(s->seed_to_pkcs8(&doc, &doclen, seed, 3, NULL, 0, MLDSA_FORMAT_DER) == MLDSA_ERR_UNSUPPORTED &&
              doc == NULL, "pkcs8 form 3");
    FILL(sk, s->sk_bytes);
    CHECK(s->sk_from_pkcs8(sk, NULL, NULL, (const uint8_t *)"\x30\x03\x02\x01", 4, NULL, 0,
                           MLDSA_FORMAT_DER) == MLDSA_ERR_ENCODING && all_zero(sk, s->sk_bytes),
          "truncated DER");
    mldsa_free(NULL);

    free(pk); free(sk); free(sig); free(good_sig); free(good_pk); free(good_sk); free(bad);
}

/* ---- round trips: every door agrees with the one-shot functions ---------------------------- */

static void round_trips(const set_api *s, int with_encryption) {
    uint8_t seed[32] = {9}, rnd[32] = {3}, mu[64], seed2[32], ctx[5] = {1, 2, 3, 4, 5};
    uint8_t msg[1000];
    uint8_t *pk = malloc(s->pk_bytes), *sk = malloc(s->sk_bytes), *sig = malloc(s->sig_bytes);
    uint8_t *sig2 = malloc(s->sig_bytes), *pk2 = malloc(s->pk_bytes), *sk2 = malloc(s->sk_bytes);
    uint8_t *doc;
    size_t doclen, siglen, i;
    int has_seed, forms[3] = {MLDSA_PKCS8_SEED, MLDSA_PKCS8_EXPANDED, MLDSA_PKCS8_BOTH}, f;
    mldsa_sign_ctx *sc;
    mldsa_verify_ctx *vc;
    mldsa_signing_key *key;
    mldsa_verifying_key *vkey;

    for (i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 7);
    CHECK(s->keypair(pk, sk) == MLDSA_OK, "keypair (OS)");
    CHECK(s->sign(sig, msg, sizeof msg, ctx, 5, sk) == MLDSA_OK, "hedged sign");
    CHECK(s->verify(sig, s->sig_bytes, msg, sizeof msg, ctx, 5, pk) == MLDSA_OK, "hedged verify");
    CHECK(s->keypair_from_seed(pk, sk, seed) == MLDSA_OK, "keypair_from_seed");

    /* External mu = one-shot. */
    CHECK(s->compute_mu(mu, msg, sizeof msg, ctx, 5, pk) == MLDSA_OK, "compute_mu");
    CHECK(s->sign_mu(sig, mu, rnd, sk) == MLDSA_OK, "sign_mu");
    CHECK(s->sign_rnd(sig2, msg, sizeof msg, ctx, 5, rnd, sk) == MLDSA_OK, "sign_rnd");
    CHECK(memcmp(sig, sig2, s->sig_bytes) == 0, "external mu signs the same bytes");
    CHECK(s->verify_mu(sig, s->sig_bytes, mu, pk) == MLDSA_OK, "verify_mu");

    /* Streaming in uneven chunks = one-shot (deterministic). */
    CHECK(s->sign_deterministic(sig2, msg, sizeof msg, ctx, 5, sk) == MLDSA_OK, "det");
    CHECK(s->sign_ctx_new(&sc, sk, ctx, 5) == MLDSA_OK, "sign_ctx_new");
    CHECK(mldsa_sign_ctx_update(sc, msg, 1) == MLDSA_OK && mldsa_sign_ctx_update(sc, NULL, 0) == MLDSA_OK &&
              mldsa_sign_ctx_update(sc, msg + 1, 600) == MLDSA_OK &&
              mldsa_sign_ctx_update(sc, msg + 601, sizeof msg - 601) == MLDSA_OK, "updates");
    {
        uint8_t zero[32] = {0};
        CHECK(mldsa_sign_ctx_final(sc, sig, s->sig_bytes, &siglen, zero) == MLDSA_OK &&
                  siglen == s->sig_bytes && memcmp(sig, sig2, siglen) == 0, "streamed = one-shot");
    }
    mldsa_sign_ctx_free(sc);
    CHECK(s->verify_ctx_new(&vc, pk, ctx, 5) == MLDSA_OK, "verify_ctx_new");
    CHECK(mldsa_verify_ctx_update(vc, msg, 500) == MLDSA_OK &&
              mldsa_verify_ctx_update(vc, msg + 500, sizeof msg - 500) == MLDSA_OK, "v updates");
    CHECK(mldsa_verify_ctx_final(vc, sig, s->sig_bytes) == MLDSA_OK, "streamed verify");
    mldsa_verify_ctx_free(vc);

    /* Prepared keys = one-shot. */
    CHECK(s->signing_key_new(&key, sk) == MLDSA_OK, "signing_key_new");
    CHECK(mldsa_signing_key_sign(key, sig, s->sig_bytes, &siglen, msg, sizeof msg, ctx, 5, rnd) ==
              MLDSA_OK, "prepared sign");
    CHECK(s->sign_rnd(sig2, msg, sizeof msg, ctx, 5, rnd, sk) == MLDSA_OK &&
              memcmp(sig, sig2, s->sig_bytes) == 0, "prepared = one-shot");
    mldsa_signing_key_free(key);
    CHECK(s->signing_key_from_seed(&key, seed) == MLDSA_OK, "signing_key_from_seed");
    CHECK(mldsa_signing_key_sign(key, sig, s->sig_bytes, &siglen, msg, sizeof msg, ctx, 5, rnd) ==
              MLDSA_OK && memcmp(sig, sig2, s->sig_bytes) == 0, "seeded prepared = one-shot");
    mldsa_signing_key_free(key);
    CHECK(s->verifying_key_new(&vkey, pk) == MLDSA_OK, "verifying_key_new");
    CHECK(mldsa_verifying_key_verify(vkey, sig, s->sig_bytes, msg, sizeof msg, ctx, 5) == MLDSA_OK,
          "prepared verify");
    sig[7] ^= 1;
    CHECK(mldsa_verifying_key_verify(vkey, sig, s->sig_bytes, msg, sizeof msg, ctx, 5) ==
              MLDSA_ERR_INVALID_SIGNATURE, "prepared verify rejects");
    mldsa_verifying_key_free(vkey);

    /* SPKI both formats; PKCS#8 in each form and format. */
    for (f = 0; f < 2; f++) {
        CHECK(s->pk_to_spki(&doc, &doclen, pk, f) == MLDSA_OK, "spki");
        CHECK(f == 0 || (strlen((char *)doc) == doclen && memcmp(doc, "-----BEGIN PUBLIC KEY", 21) == 0),
              "PEM is a C string");
        CHECK(s->pk_from_spki(pk2, doc, doclen, f) == MLDSA_OK && memcmp(pk, pk2, s->pk_bytes) == 0,
              "spki round trip");
        mldsa_free(doc);
        for (i = 0; i < 3; i++) {
            CHECK(s->seed_to_pkcs8(&doc, &doclen, seed, forms[i], NULL, 0, f) == MLDSA_OK, "pkcs8");
            memset(seed2, 0xAA, 32);
            CHECK(s->sk_from_pkcs8(sk2, seed2, &has_seed, doc, doclen, NULL, 0, f) == MLDSA_OK &&
                      memcmp(sk, sk2, s->sk_bytes) == 0, "pkcs8 round trip form %d", forms[i]);
            CHECK(has_seed == (forms[i] != MLDSA_PKCS8_EXPANDED), "has_seed");
            CHECK(has_seed ? memcmp(seed, seed2, 32) == 0 : all_zero(seed2, 32), "seed out");
            mldsa_free(doc);
        }
        CHECK(s->sk_to_pkcs8(&doc, &doclen, sk, NULL, 0, f) == MLDSA_OK, "sk_to_pkcs8");
        CHECK(s->sk_from_pkcs8(sk2, NULL, NULL, doc, doclen, NULL, 0, f) == MLDSA_OK &&
                  memcmp(sk, sk2, s->sk_bytes) == 0, "expanded pkcs8 round trip");
        mldsa_free(doc);
    }
    if (with_encryption) { /* scrypt is slow: one set only */
        const uint8_t pass[] = "correct horse";
        CHECK(s->seed_to_pkcs8(&doc, &doclen, seed, MLDSA_PKCS8_SEED, pass, sizeof pass - 1,
                               MLDSA_FORMAT_PEM) == MLDSA_OK, "encrypted pkcs8");
        CHECK(memcmp(doc, "-----BEGIN ENCRYPTED PRIVATE KEY", 32) == 0, "encrypted label");
        CHECK(s->sk_from_pkcs8(sk2, seed2, &has_seed, doc, doclen, pass, sizeof pass - 1,
                               MLDSA_FORMAT_PEM) == MLDSA_OK && memcmp(sk, sk2, s->sk_bytes) == 0 &&
                  has_seed == 1, "encrypted round trip");
        FILL(sk2, s->sk_bytes);
        CHECK(s->sk_from_pkcs8(sk2, seed2, &has_seed, doc, doclen, pass, 5, MLDSA_FORMAT_PEM) ==
                  MLDSA_ERR_DECRYPT && all_zero(sk2, s->sk_bytes) && all_zero(seed2, 32) &&
                  has_seed == 0, "wrong passphrase");
        mldsa_free(doc);
    }

    /* Drop-in = idiomatic: the ref functions draw seed and rnd from randombytes (the DRBG). */
    {
        uint8_t ent[48] = {5}, xi[32], r[32];
        size_t l;
        randombytes_init(ent, NULL, 256);
        CHECK(s->ref_keypair(pk2, sk2) == 0, "ref keypair");
        CHECK(s->ref_signature(sig2, &l, msg, sizeof msg, ctx, 5, sk2) == 0 && l == s->sig_bytes,
              "ref signature");
        randombytes_init(ent, NULL, 256);
        randombytes(xi, 32);
        randombytes(r, 32);
        CHECK(s->keypair_from_seed(pk, sk, xi) == MLDSA_OK && memcmp(pk, pk2, s->pk_bytes) == 0 &&
                  memcmp(sk, sk2, s->sk_bytes) == 0, "drop-in keys = idiomatic keys");
        CHECK(s->sign_rnd(sig, msg, sizeof msg, ctx, 5, r, sk) == MLDSA_OK &&
                  memcmp(sig, sig2, s->sig_bytes) == 0, "drop-in signature = idiomatic");
    }
    /* sign.h's signature_internal = the idiomatic doors: pre = 0 || 5 || ctx with rnd is
     * sign_rnd, with 32 zero bytes sign_deterministic; pre empty is sign_internal. */
    {
        uint8_t pre[7] = {0, 5, 1, 2, 3, 4, 5}, zero[32] = {0};
        size_t l;
        CHECK(s->ref_signature_internal(sig2, &l, msg, sizeof msg, pre, 7, rnd, sk) == 0 &&
                  l == s->sig_bytes, "ref signature_internal");
        CHECK(s->sign_rnd(sig, msg, sizeof msg, ctx, 5, rnd, sk) == MLDSA_OK &&
                  memcmp(sig, sig2, s->sig_bytes) == 0, "ref signature_internal = sign_rnd");
        CHECK(s->ref_signature_internal(sig2, &l, msg, sizeof msg, pre, 7, zero, sk) == 0 &&
                  s->sign_deterministic(sig, msg, sizeof msg, ctx, 5, sk) == MLDSA_OK &&
                  memcmp(sig, sig2, s->sig_bytes) == 0,
              "ref signature_internal, rnd 0 = sign_deterministic");
        CHECK(s->ref_signature_internal(sig2, &l, msg, sizeof msg, NULL, 0, rnd, sk) == 0 &&
                  s->sign_internal(sig, msg, sizeof msg, rnd, sk) == MLDSA_OK &&
                  memcmp(sig, sig2, s->sig_bytes) == 0, "ref signature_internal, no pre = sign_internal");
        CHECK(s->ref_verify_internal(sig2, s->sig_bytes, msg, sizeof msg, NULL, 0, pk) == 0 &&
                  s->verify_internal(sig2, s->sig_bytes, msg, sizeof msg, pk) == MLDSA_OK,
              "ref verify_internal = verify_internal");    }
    /* ... and HashML-DSA (FIPS 204 Alg. 4): pre = 1 || 5 || ctx || OID(SHA-512) || PH(M) with m
     * empty is sign_digest; the same M' split elsewhere between pre and m gives the same. */
    {
        static const uint8_t oid[11] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03};
        uint8_t pre[7 + 11 + 64] = {1, 5, 1, 2, 3, 4, 5}, digest[64];
        size_t l;
        for (i = 0; i < 64; i++) digest[i] = (uint8_t)(0xC0 ^ i);
        memcpy(pre + 7, oid, 11);
        memcpy(pre + 18, digest, 64);
        CHECK(s->ref_signature_internal(sig2, &l, NULL, 0, pre, sizeof pre, rnd, sk) == 0 &&
                  s->sign_digest(sig, MLDSA_PH_SHA2_512, digest, 64, ctx, 5, rnd, sk) == MLDSA_OK &&
                  memcmp(sig, sig2, s->sig_bytes) == 0,
              "ref signature_internal(pre = 1 || ctx || OID || PH) = sign_digest");
        CHECK(s->ref_signature_internal(sig2, &l, digest, 64, pre, 18, rnd, sk) == 0 &&
                  memcmp(sig, sig2, s->sig_bytes) == 0,
              "ref signature_internal(pre = 1 || ctx || OID, m = PH) = sign_digest");
        CHECK(s->ref_verify_internal(sig2, s->sig_bytes, digest, 64, pre, 18, pk) == 0 &&
                  s->verify_digest(sig2, s->sig_bytes, MLDSA_PH_SHA2_512, digest, 64, ctx, 5, pk) ==
                      MLDSA_OK,
              "ref verify_internal = verify_digest");
        pre[20] ^= 1;
        CHECK(s->ref_verify_internal(sig2, s->sig_bytes, NULL, 0, pre, sizeof pre, pk) == -1,
              "ref verify_internal, other digest");
    }
    free(pk); free(sk); free(sig); free(sig2); free(pk2); free(sk2);
}

static void misc(void) {
    const char *b = mldsa_backend();
    CHECK(strcmp(b, "avx512") == 0 || strcmp(b, "avx2") == 0 || strcmp(b, "neon") == 0 ||
              strcmp(b, "portable") == 0,
          "backend %s", b);
#if defined(__aarch64__)
    /* NEON is part of the base AArch64 architecture: the default there, always. */
    CHECK(strcmp(b, "neon") == 0, "default backend %s on AArch64", b);
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* The default is the fastest backend the CPU (and OS) supports, as the compiler's own
     * CPUID reading sees it (under valgrind, the CPU valgrind emulates). */
    __builtin_cpu_init();
    const char *want = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                               __builtin_cpu_supports("avx512bw")
                           ? "avx512"
                           : __builtin_cpu_supports("avx2") ? "avx2" : "portable";
    CHECK(strcmp(b, want) == 0, "default backend %s, the CPU supports %s", b, want);
#endif
    /* Forcing AVX2 gives AVX2 where the CPU has it, else (NEON, portable) the portable one. */
    const char *avx2 = strcmp(b, "avx512") == 0 || strcmp(b, "avx2") == 0 ? "avx2" : "portable";
    CHECK(mldsa_force_avx2(1) == MLDSA_OK && strcmp(mldsa_backend(), avx2) == 0, "force avx2");
    CHECK(mldsa_force_avx2(0) == MLDSA_OK && strcmp(mldsa_backend(), b) == 0, "restore from avx2");
    CHECK(mldsa_force_portable(1) == MLDSA_OK && strcmp(mldsa_backend(), "portable") == 0,
          "force portable");
    printf("backend: %s by default, %s when forced\n", b, mldsa_backend());
    CHECK(mldsa_force_portable(0) == MLDSA_OK && strcmp(mldsa_backend(), b) == 0, "restore backend");
    CHECK(strcmp(mldsa_strerror(MLDSA_OK), "success") == 0, "strerror ok");
    CHECK(strcmp(mldsa_strerror(MLDSA_ERR_LENGTH), "wrong length") == 0, "strerror length");
    CHECK(mldsa_strerror(-1000) != NULL, "strerror unknown");
    CHECK(strlen(mldsa_version()) > 0, "version");
}

int main(int argc, char **argv) {
    static const char *sets[3] = {"44", "65", "87"};
    char path[4096];
    int i;
    if (argc < 4) {
        fprintf(stderr, "usage: %s VECTORS_DIR ACVP_LINES AES_ENTRY_PREFIX [quick]\n", argv[0]);
        return 2;
    }
    quick = argc > 4 && strcmp(argv[4], "quick") == 0;
    misc();
    acvp(argv[2]);
    for (i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/ml-dsa-ref-kat/itzmeanjan-ml-dsa/ml_dsa_%s.kat", argv[1], sets[i]);
        kat_itzmeanjan(path, &SETS[i]);
        snprintf(path, sizeof path, "%s/ml-dsa-ref-kat/pq-crystals-nistkat/PQCsignKAT_ML-DSA-%s.rsp",
                 argv[1], sets[i]);
        kat_rsp(path, &SETS[i], NULL);
        snprintf(path, sizeof path, "%s/dilithium-round3/PQCsignKAT_Dilithium%c.rsp", argv[1], "235"[i]);
        kat_rsp(path, NULL, &LEGACY_SETS[i]);
        errors(&SETS[i]);
        round_trips(&SETS[i], i == 1);
        legacy_checks(&LEGACY_SETS[i], &LEGACY_SETS[i + 3]);
        legacy_checks(&LEGACY_SETS[i + 3], &LEGACY_SETS[i]);
        snprintf(path, sizeof path, "%s%c.txt", argv[3], "235"[i]);
        kat_aes_entry0(&LEGACY_SETS[i + 3], path);
    }
    /* Forced portable backend: the same KAT bytes. */
    CHECK(mldsa_force_portable(1) == MLDSA_OK, "force portable");
    snprintf(path, sizeof path, "%s/ml-dsa-ref-kat/itzmeanjan-ml-dsa/ml_dsa_65.kat", argv[1]);
    quick = 1;
    kat_itzmeanjan(path, &SETS[1]);
    CHECK(mldsa_force_portable(0) == MLDSA_OK, "restore backend");
    return check_summary("C API suite");
}
