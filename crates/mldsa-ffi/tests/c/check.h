/* Helpers shared by the C tests: counted checks, hex, line reading. */
#ifndef CHECK_H
#define CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks_passed, checks_failed;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (cond) {                                                                           \
            checks_passed++;                                                                  \
        } else {                                                                              \
            checks_failed++;                                                                  \
            if (checks_failed <= 50) {                                                        \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                                   \
                printf(__VA_ARGS__);                                                          \
                printf("\n");                                                                 \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* The closing line the test runners read. */
static inline int check_summary(const char *suite) {
    printf("%s: %lu passed, %lu failed\n", suite, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

static inline int all_zero(const uint8_t *p, size_t n) {
    size_t i;
    uint8_t acc = 0;
    for (i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

static inline int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex ("-" is empty) into a new buffer (never NULL); *len gets its length. */
static inline uint8_t *unhex(const char *s, size_t *len) {
    size_t n = strcmp(s, "-") == 0 ? 0 : strlen(s) / 2, i;
    uint8_t *out = malloc(n + 1);
    if (out == NULL) abort();
    for (i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "bad hex\n");
            abort();
        }
        out[i] = (uint8_t)(hi * 16 + lo);
    }
    *len = n;
    return out;
}

/* Reads a whole file (NUL-terminated); NULL if it cannot be read. */
static inline char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) abort();
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

#endif
