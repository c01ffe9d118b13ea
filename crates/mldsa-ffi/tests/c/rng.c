/* AES-256 (FIPS 197) encryption and the NIST PQC CTR_DRBG (SP 800-90A 10.2.1) over it, as the
 * KAT generators' rng.c behaves: Key = 0, V = 0, Update(entropy); each randombytes call emits
 * E(Key, ++V) blocks, then Update(NULL). Test code: not constant time. */
#include <stdint.h>
#include <string.h>

#include "rng.h"

static uint8_t sbox[256];

static uint8_t rotl8(uint8_t x, int s) { return (uint8_t)((x << s) | (x >> (8 - s))); }
static uint8_t xtime(uint8_t x) { return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1B : 0)); }

/* The S-box from its definition: multiplicative inverse in GF(2^8), then the affine map. */
static void init_sbox(void) {
    uint8_t p = 1, q = 1;
    if (sbox[0] == 0x63) {
        return;
    }
    do {
        p = (uint8_t)(p ^ xtime(p)); /* p *= 3, q /= 3: q stays the inverse of p */
        q ^= (uint8_t)(q << 1);
        q ^= (uint8_t)(q << 2);
        q ^= (uint8_t)(q << 4);
        if (q & 0x80) {
            q ^= 0x09;
        }
        sbox[p] = (uint8_t)(q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63);
    } while (p != 1);
    sbox[0] = 0x63;
}

static void aes256_encrypt(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
    uint8_t rk[240], s[16], t[16], rcon = 1;
    int i, r, c;
    init_sbox();
    memcpy(rk, key, 32);
    for (i = 8; i < 60; i++) {
        uint8_t w[4];
        memcpy(w, rk + 4 * (i - 1), 4);
        if (i % 8 == 0) {
            uint8_t u = w[0];
            w[0] = (uint8_t)(sbox[w[1]] ^ rcon);
            w[1] = sbox[w[2]];
            w[2] = sbox[w[3]];
            w[3] = sbox[u];
            rcon = xtime(rcon);
        } else if (i % 8 == 4) {
            for (c = 0; c < 4; c++) w[c] = sbox[w[c]];
        }
        for (c = 0; c < 4; c++) rk[4 * i + c] = (uint8_t)(rk[4 * (i - 8) + c] ^ w[c]);
    }
    for (i = 0; i < 16; i++) s[i] = (uint8_t)(in[i] ^ rk[i]);
    for (r = 1; r <= 14; r++) {
        for (i = 0; i < 16; i++) s[i] = sbox[s[i]];
        for (c = 0; c < 4; c++) /* ShiftRows: row j moves left by j (column-major state) */
            for (i = 0; i < 4; i++) t[i + 4 * c] = s[i + 4 * ((c + i) % 4)];
        if (r < 14) {
            for (c = 0; c < 4; c++) {
                uint8_t *a = t + 4 * c, a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
                a[0] = (uint8_t)(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
                a[1] = (uint8_t)(a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3);
                a[2] = (uint8_t)(a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3);
                a[3] = (uint8_t)(xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3));
            }
        }
        for (i = 0; i < 16; i++) s[i] = (uint8_t)(t[i] ^ rk[16 * r + i]);
    }
    memcpy(out, s, 16);
}

static uint8_t drbg_key[32], drbg_v[16];

static void increment_v(void) {
    int j;
    for (j = 15; j >= 0; j--) {
        if (++drbg_v[j] != 0) break;
    }
}

static void drbg_update(const uint8_t *provided) {
    uint8_t temp[48];
    int i;
    for (i = 0; i < 3; i++) {
        increment_v();
        aes256_encrypt(drbg_key, drbg_v, temp + 16 * i);
    }
    if (provided != NULL) {
        for (i = 0; i < 48; i++) temp[i] ^= provided[i];
    }
    memcpy(drbg_key, temp, 32);
    memcpy(drbg_v, temp + 32, 16);
}

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string,
                      int security_strength) {
    (void)personalization_string;
    (void)security_strength;
    memset(drbg_key, 0, sizeof drbg_key);
    memset(drbg_v, 0, sizeof drbg_v);
    drbg_update(entropy_input);
}

int randombytes(unsigned char *x, unsigned long long xlen) {
    uint8_t block[16];
    while (xlen > 0) {
        unsigned long long n = xlen < 16 ? xlen : 16;
        increment_v();
        aes256_encrypt(drbg_key, drbg_v, block);
        memcpy(x, block, (size_t)n);
        x += n;
        xlen -= n;
    }
    drbg_update(NULL);
    return 0;
}
