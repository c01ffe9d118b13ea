/* A program in the reference implementations' own style, using only their API (api.h,
 * crypto_sign_* and CRYPTO_* names, rng.h): keypair, sign, open, tamper, open fails (and, for
 * FIPS 204, the crypto_sign_*_internal functions of its sign.h); then the NIST PQCgenKAT_sign
 * loop, whose .rsp text must equal the stored file byte for byte.
 *
 * Built twice per DILITHIUM_MODE: with -I include/mldsa/ref-fips204 (ROUND3 undefined: the
 * crypto_sign functions take a context, and the KAT signs with an empty one) and with
 * -I include/mldsa/ref-round3 -DROUND3 (the round-3 API, its "# DilithiumN" header line), and
 * with -DROUND3 -DDILITHIUM_USE_AES for the round-3 AES variant, whose .rsp is not public: its
 * count = 0 entry is known only by its SHA-256 (../shared/vectors/dilithium-aes-round3), so
 * that program writes the entry to the file named on its command line and run.sh hashes it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "check.h"
#include "rng.h"

#define KAT_ENTRIES 100
#define MAX_MLEN (33 * KAT_ENTRIES)

#ifdef ROUND3
#define CTX(key) key
#else
#define CTX(key) NULL, 0, key
#endif

static char *out;
static size_t out_len, out_cap;

static void emit(const char *s) {
    size_t n = strlen(s);
    if (out_len + n + 1 > out_cap) {
        out_cap = 2 * (out_len + n + 1);
        out = realloc(out, out_cap);
        if (out == NULL) abort();
    }
    memcpy(out + out_len, s, n + 1);
    out_len += n;
}

static void emit_int(const char *name, unsigned long long v) {
    char line[64];
    snprintf(line, sizeof line, "%s = %llu\n", name, v);
    emit(line);
}

static void emit_hex(const char *name, const uint8_t *p, size_t n) {
    char byte[3];
    size_t i;
    emit(name);
    emit(" = ");
    for (i = 0; i < n; i++) {
        snprintf(byte, sizeof byte, "%02X", p[i]);
        emit(byte);
    }
    if (n == 0) emit("00");
    emit("\n");
}

#ifndef ROUND3
/* The internal functions of the reference's sign.h, by their crypto_sign_*_internal names:
 * signature_internal with pre = 0 || ctxlen || ctx and the rnd that crypto_sign_signature draws
 * from randombytes gives the same signature; only M' = pre || m counts; tampering, a wrong
 * siglen and another prefix fail; a pre longer than 257 bytes is fine (no limit, as in the
 * reference); NULL with a non-zero length, or a NULL key, rnd or output, is -1 with the
 * signature zeroed and *siglen 0. */
static void internal_api(const uint8_t *pk, const uint8_t *sk) {
    static uint8_t sig[CRYPTO_BYTES], sig2[CRYPTO_BYTES], pre[300 + 32];
    const uint8_t msg[] = "sign.h internal", ctx[] = "a context";
    uint8_t entropy[48] = {7}, rnd[32];
    size_t siglen, siglen2, prelen = 2 + sizeof ctx, i;

    randombytes_init(entropy, NULL, 256);
    randombytes(rnd, 32);
    randombytes_init(entropy, NULL, 256);
    CHECK(crypto_sign_signature(sig, &siglen, msg, sizeof msg, ctx, sizeof ctx, sk) == 0,
          "signature");
    pre[0] = 0;
    pre[1] = (uint8_t)sizeof ctx;
    memcpy(pre + 2, ctx, sizeof ctx);
    CHECK(crypto_sign_signature_internal(sig2, &siglen2, msg, sizeof msg, pre, prelen, rnd, sk) ==
              0 && siglen2 == CRYPTO_BYTES, "signature_internal");
    CHECK(memcmp(sig, sig2, CRYPTO_BYTES) == 0,
          "signature_internal(pre = 0 || ctxlen || ctx, rnd) = crypto_sign_signature(ctx, rnd)");
    CHECK(crypto_sign_verify_internal(sig2, siglen2, msg, sizeof msg, pre, prelen, pk) == 0,
          "verify_internal");
    CHECK(crypto_sign_verify(sig2, siglen2, msg, sizeof msg, ctx, sizeof ctx, pk) == 0,
          "crypto_sign_verify accepts the internal signature");
    memcpy(pre + prelen, msg, sizeof msg);
    CHECK(crypto_sign_verify_internal(sig2, siglen2, NULL, 0, pre, prelen + sizeof msg, pk) == 0,
          "only M' = pre || m counts (all of it in pre)");
    CHECK(crypto_sign_verify_internal(sig2, siglen2, pre, prelen + sizeof msg, NULL, 0, pk) == 0,
          "only M' = pre || m counts (all of it in m)");
    CHECK(crypto_sign_verify_internal(sig2, siglen2, msg, sizeof msg, NULL, 0, pk) == -1,
          "the empty prefix is another M'");
    CHECK(crypto_sign_verify_internal(sig2, siglen2 - 1, msg, sizeof msg, pre, prelen, pk) == -1,
          "siglen - 1");
    sig2[CRYPTO_BYTES / 2] ^= 1;
    CHECK(crypto_sign_verify_internal(sig2, siglen2, msg, sizeof msg, pre, prelen, pk) == -1,
          "tampered signature");
    sig2[CRYPTO_BYTES / 2] ^= 1;

    /* A 300-byte prefix: accepted, and round trips. */
    for (i = 0; i < 300; i++) pre[i] = (uint8_t)(i * 13);
    CHECK(crypto_sign_signature_internal(sig, &siglen, msg, sizeof msg, pre, 300, rnd, sk) == 0 &&
              siglen == CRYPTO_BYTES, "pre of 300 bytes");
    CHECK(crypto_sign_verify_internal(sig, siglen, msg, sizeof msg, pre, 300, pk) == 0,
          "verify with pre of 300 bytes");
    CHECK(crypto_sign_verify_internal(sig, siglen, msg, sizeof msg, pre, 299, pk) == -1,
          "pre of 299 bytes is another M'");

    /* NULLs: -1, signature zeroed, *siglen 0; never a crash. */
    memset(sig, 0xAA, sizeof sig);
    siglen = 1;
    CHECK(crypto_sign_signature_internal(sig, &siglen, msg, sizeof msg, NULL, 5, rnd, sk) == -1 &&
              all_zero(sig, sizeof sig) && siglen == 0, "NULL pre with prelen 5");
    memset(sig, 0xAA, sizeof sig);
    siglen = 1;
    CHECK(crypto_sign_signature_internal(sig, &siglen, NULL, 3, pre, prelen, rnd, sk) == -1 &&
              all_zero(sig, sizeof sig) && siglen == 0, "NULL m with mlen 3");
    memset(sig, 0xAA, sizeof sig);
    CHECK(crypto_sign_signature_internal(sig, &siglen, msg, sizeof msg, pre, prelen, NULL, sk) ==
              -1 && all_zero(sig, sizeof sig), "NULL rnd");
    memset(sig, 0xAA, sizeof sig);
    CHECK(crypto_sign_signature_internal(sig, &siglen, msg, sizeof msg, pre, prelen, rnd, NULL) ==
              -1 && all_zero(sig, sizeof sig), "NULL sk");
    siglen = 1;
    CHECK(crypto_sign_signature_internal(NULL, &siglen, msg, sizeof msg, pre, prelen, rnd, sk) ==
              -1 && siglen == 0, "NULL sig");
    CHECK(crypto_sign_signature_internal(sig, NULL, NULL, 0, NULL, 0, rnd, sk) == 0,
          "NULL siglen, empty m and pre");
    CHECK(crypto_sign_verify_internal(sig, CRYPTO_BYTES, NULL, 0, NULL, 0, pk) == 0,
          "verify empty m and pre");
    CHECK(crypto_sign_verify_internal(sig, CRYPTO_BYTES, NULL, 0, NULL, 5, pk) == -1,
          "verify NULL pre with prelen 5");
    CHECK(crypto_sign_verify_internal(sig, CRYPTO_BYTES, NULL, 3, NULL, 0, pk) == -1,
          "verify NULL m with mlen 3");
    CHECK(crypto_sign_verify_internal(NULL, CRYPTO_BYTES, NULL, 0, NULL, 0, pk) == -1,
          "verify NULL sig");
    CHECK(crypto_sign_verify_internal(sig, CRYPTO_BYTES, NULL, 0, NULL, 0, NULL) == -1,
          "verify NULL pk");
}
#endif

/* *mlen after a failed crypto_sign_open: the reference each header names sets 0 on FIPS 204
 * master (since commit 779ad33) and -1 on round 3 (v3.1). */
#ifdef ROUND3
#define OPEN_FAILED_MLEN ((size_t)-1)
#else
#define OPEN_FAILED_MLEN ((size_t)0)
#endif

static int all_byte(const uint8_t *p, size_t n, uint8_t b) {
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != b) return 0;
    return 1;
}

/* crypto_sign_open on bogus arguments writes no more of m than a rejected call must clear:
 * m[0..smlen) of a signed message it was given, and nothing when sm is NULL with smlen > 0 or
 * smlen exceeds PTRDIFF_MAX (no object is that long: neither sm is read nor m written, so
 * m = sm + 1 buffer of 64 bytes survives SIZE_MAX, which cleared smlen bytes and crashed). The
 * bytes of m past smlen stay as they were; *mlen is OPEN_FAILED_MLEN every time. Under ASan
 * and valgrind any read or write past the 64-byte buffers is an error too. */
static void open_bounds(const uint8_t *pk, const uint8_t *sm, size_t smlen) {
    static uint8_t m[CRYPTO_BYTES + 64];
    uint8_t small[64], sm_small[64] = {0};
    size_t mlen;

    memset(small, 0x55, sizeof small);
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, NULL, SIZE_MAX, CTX(pk)) == -1, "sm NULL, SIZE_MAX");
    CHECK(mlen == OPEN_FAILED_MLEN, "sm NULL, SIZE_MAX: *mlen = %zu", mlen);
    CHECK(all_byte(small, sizeof small, 0x55), "sm NULL, SIZE_MAX: m untouched");
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, NULL, (size_t)1 << 20, CTX(pk)) == -1, "sm NULL, 1 MiB");
    CHECK(mlen == OPEN_FAILED_MLEN && all_byte(small, sizeof small, 0x55),
          "sm NULL, 1 MiB: *mlen = %zu, m untouched", mlen);
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, sm_small, SIZE_MAX, CTX(pk)) == -1, "smlen SIZE_MAX");
    CHECK(mlen == OPEN_FAILED_MLEN && all_byte(small, sizeof small, 0x55),
          "smlen SIZE_MAX: *mlen = %zu, m untouched", mlen);
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, sm_small, (size_t)PTRDIFF_MAX + 1, CTX(pk)) == -1,
          "smlen PTRDIFF_MAX + 1");
    CHECK(mlen == OPEN_FAILED_MLEN && all_byte(small, sizeof small, 0x55),
          "smlen PTRDIFF_MAX + 1: *mlen = %zu, m untouched", mlen);
    CHECK(crypto_sign_open(small, NULL, NULL, SIZE_MAX, CTX(pk)) == -1, "mlen NULL, sm NULL");
    CHECK(all_byte(small, sizeof small, 0x55), "mlen NULL, sm NULL: m untouched");
    /* Shorter than a signature: m[0..smlen) cleared, the rest of m untouched. */
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, sm_small, 10, CTX(pk)) == -1, "smlen 10");
    CHECK(mlen == OPEN_FAILED_MLEN && all_zero(small, 10) && all_byte(small + 10, 54, 0x55),
          "smlen 10: *mlen = %zu, m[0..10) cleared, m[10..64) untouched", mlen);
    /* A wrong signed message: m[0..smlen) cleared, m[smlen..) untouched. */
    memset(m, 0x55, sizeof m);
    mlen = 12345;
    CHECK(smlen < sizeof m, "smlen fits m");
    CHECK(crypto_sign_open(m, &mlen, sm, smlen, CTX(pk)) == -1, "tampered open");
    CHECK(mlen == OPEN_FAILED_MLEN && all_zero(m, smlen) &&
              all_byte(m + smlen, sizeof m - smlen, 0x55),
          "tampered: *mlen = %zu, m[0..smlen) cleared, the rest untouched", mlen);
    /* sm = NULL with smlen 0 is the empty signed message: too short, nothing to clear. */
    memset(small, 0x55, sizeof small);
    mlen = 12345;
    CHECK(crypto_sign_open(small, &mlen, NULL, 0, CTX(pk)) == -1, "sm NULL, smlen 0");
    CHECK(mlen == OPEN_FAILED_MLEN && all_byte(small, sizeof small, 0x55),
          "sm NULL, smlen 0: *mlen = %zu, m untouched", mlen);
}

static void demo(void) {
    static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    static uint8_t sm[CRYPTO_BYTES + 64], m2[CRYPTO_BYTES + 64], sig[CRYPTO_BYTES];
    const uint8_t msg[] = "attack at dawn";
    size_t smlen, mlen2, siglen;
    uint8_t entropy[48] = {1};

    randombytes_init(entropy, NULL, 256);
    CHECK(crypto_sign_keypair(pk, sk) == 0, "keypair");
    CHECK(crypto_sign(sm, &smlen, msg, sizeof msg, CTX(sk)) == 0, "crypto_sign");
    CHECK(smlen == CRYPTO_BYTES + sizeof msg, "smlen");
    CHECK(crypto_sign_open(m2, &mlen2, sm, smlen, CTX(pk)) == 0, "open");
    CHECK(mlen2 == sizeof msg && memcmp(m2, msg, sizeof msg) == 0, "opened message");
    CHECK(crypto_sign_signature(sig, &siglen, msg, sizeof msg, CTX(sk)) == 0, "signature");
    CHECK(siglen == CRYPTO_BYTES, "siglen");
    CHECK(crypto_sign_verify(sig, siglen, msg, sizeof msg, CTX(pk)) == 0, "verify");
    sm[CRYPTO_BYTES + 3] ^= 1;
    memset(m2, 0x55, sizeof m2);
    CHECK(crypto_sign_open(m2, &mlen2, sm, smlen, CTX(pk)) == -1, "tampered open must fail");
    CHECK(mlen2 == OPEN_FAILED_MLEN, "open sets *mlen to %zu on failure, not %zu",
          OPEN_FAILED_MLEN, mlen2);
    CHECK(all_zero(m2, smlen), "open clears m on failure");
    open_bounds(pk, sm, smlen);
    memset(m2, 0x55, sizeof m2);
    smlen = 1;
    CHECK(crypto_sign(m2, &smlen, msg, (size_t)PTRDIFF_MAX, CTX(sk)) == -1 && smlen == 0 &&
              all_byte(m2, sizeof m2, 0x55),
          "crypto_sign with mlen PTRDIFF_MAX: rejected before sm is written");
    sig[0] ^= 1;
    CHECK(crypto_sign_verify(sig, siglen, msg, sizeof msg, CTX(pk)) == -1, "tampered verify");
#ifndef ROUND3
    {
        uint8_t ctx[256] = {0};
        CHECK(crypto_sign_signature(sig, &siglen, msg, sizeof msg, ctx, 256, sk) == -1,
              "context of 256 bytes");
        CHECK(all_zero(sig, sizeof sig) && siglen == 0, "signature zeroed on failure");
    }
    internal_api(pk, sk);
#endif
}

/* PQCgenKAT_sign: the .req pass (seeds and messages from the master DRBG), then per entry
 * keypair, crypto_sign, crypto_sign_open with the DRBG reseeded from the entry's seed. */
static void kat(const char *rsp_path, const char *name) {
    static uint8_t seeds[KAT_ENTRIES][48], msgs[KAT_ENTRIES][MAX_MLEN];
    static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    static uint8_t sm[CRYPTO_BYTES + MAX_MLEN], m1[CRYPTO_BYTES + MAX_MLEN];
    uint8_t entropy[48];
    size_t i, expected_len, mlen1, smlen, entry0_start, entry0_end = 0;
    char *expected;

    for (i = 0; i < 48; i++) entropy[i] = (uint8_t)i;
    randombytes_init(entropy, NULL, 256);
    for (i = 0; i < KAT_ENTRIES; i++) {
        randombytes(seeds[i], 48);
        randombytes(msgs[i], 33 * (i + 1));
    }
#ifdef ROUND3
    emit("# ");
    emit(name);
    emit("\n\n");
#else
    (void)name;
#endif
    entry0_start = out_len;
    for (i = 0; i < KAT_ENTRIES; i++) {
        size_t mlen = 33 * (i + 1);
#ifndef ROUND3
        if (i > 0) emit("\n");
#endif
        emit_int("count", i);
        emit_hex("seed", seeds[i], 48);
        emit_int("mlen", mlen);
        emit_hex("msg", msgs[i], mlen);
        randombytes_init(seeds[i], NULL, 256);
        CHECK(crypto_sign_keypair(pk, sk) == 0, "keypair %zu", i);
        emit_hex("pk", pk, CRYPTO_PUBLICKEYBYTES);
        emit_hex("sk", sk, CRYPTO_SECRETKEYBYTES);
        CHECK(crypto_sign(sm, &smlen, msgs[i], mlen, CTX(sk)) == 0, "sign %zu", i);
        emit_int("smlen", smlen);
        emit_hex("sm", sm, smlen);
        if (i == 0) entry0_end = out_len;
#ifdef ROUND3
        emit("\n");
#endif
        CHECK(crypto_sign_open(m1, &mlen1, sm, smlen, CTX(pk)) == 0, "open %zu", i);
        CHECK(mlen1 == mlen && memcmp(m1, msgs[i], mlen) == 0, "opened message %zu", i);
    }
#ifdef DILITHIUM_USE_AES
    {
        FILE *f = fopen(rsp_path, "wb");
        CHECK(f != NULL && fwrite(out + entry0_start, 1, entry0_end - entry0_start, f) ==
                               entry0_end - entry0_start && fclose(f) == 0,
              "cannot write %s", rsp_path);
        (void)expected;
        (void)expected_len;
    }
#else
    (void)entry0_start;
    (void)entry0_end;
    expected = read_file(rsp_path, &expected_len);
    CHECK(expected != NULL, "cannot read %s", rsp_path);
    if (expected != NULL) {
        size_t k = 0;
        while (k < out_len && k < expected_len && out[k] == expected[k]) k++;
        CHECK(out_len == expected_len && k == out_len,
              "%s: generated .rsp differs from the stored one at byte %zu (of %zu / %zu)",
              rsp_path, k, out_len, expected_len);
        free(expected);
    }
#endif
    free(out);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s RSP_FILE NAME   (AES variant: ENTRY0_OUTPUT NAME)\n", argv[0]);
        return 2;
    }
    demo();
    kat(argv[1], argv[2]);
    return check_summary(argv[2]);
}
