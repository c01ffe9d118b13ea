/* Stack use through the C ABI (ST-1, issue 21). Each operation runs on a thread whose stack
 * this program allocates and paints; the deepest byte the thread changed gives what that
 * operation needs through the C ABI (catch_unwind and the boundary's own frames included, and
 * glibc's thread descriptor and TLS, which it keeps at the top of a caller-given stack). Every
 * operation must fit a 128 KiB thread, signing 112 KiB, on both backends. Prints one line per
 * operation and "N passed, N failed". Built against the release library, as users get it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "mldsa.h"

#define REGION (512 * 1024) /* the thread's stack: far more than any operation needs */
#define PAINT 0xA5
#define LIMIT (128 * 1024)
#define SIGN_LIMIT (112 * 1024)

/* Big enough for every set. */
static uint8_t pk[MLDSA87_PUBLIC_KEY_BYTES], sk[MLDSA87_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA87_SIGNATURE_BYTES];
static const uint8_t seed[32] = {1, 2, 3};
static const uint8_t msg[] = "stack through the C ABI";
static size_t max_need;

typedef int (*op_fn)(void);
struct job {
    op_fn op;
    int status;
};

static void *run_job(void *arg) {
    struct job *j = arg;
    j->status = j->op();
    return NULL;
}

/* Runs `op` on a painted REGION-byte stack; returns the bytes it used, 0 on a thread error. */
static size_t measure(op_fn op, int *status) {
    uint8_t *stack = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                          -1, 0);
    pthread_attr_t attr;
    pthread_t thread;
    struct job j = {op, -1};
    size_t untouched = 0;
    if (stack == MAP_FAILED) return 0;
    memset(stack, PAINT, REGION);
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstack(&attr, stack, REGION) != 0 ||
        pthread_create(&thread, &attr, run_job, &j) != 0 || pthread_join(thread, NULL) != 0) {
        munmap(stack, REGION);
        return 0;
    }
    pthread_attr_destroy(&attr);
    while (untouched < REGION && stack[untouched] == PAINT) untouched++;
    munmap(stack, REGION);
    *status = j.status;
    return REGION - untouched;
}

#define SET_OPS(p, P)                                                                         \
    static int p##_keygen(void) { return p##_keypair_from_seed(pk, sk, seed); }              \
    static int p##_sign_det(void) {                                                           \
        return p##_sign_deterministic(sig, msg, sizeof msg, NULL, 0, sk);                     \
    }                                                                                         \
    static int p##_sign_hedged(void) { return p##_sign(sig, msg, sizeof msg, NULL, 0, sk); }  \
    static int p##_verify_(void) {                                                            \
        return p##_verify(sig, P##_SIGNATURE_BYTES, msg, sizeof msg, NULL, 0, pk);            \
    }
SET_OPS(mldsa44, MLDSA44)
SET_OPS(mldsa65, MLDSA65)
SET_OPS(mldsa87, MLDSA87)

#define LEGACY_OPS(p, P)                                                                      \
    static int p##_keygen(void) { return p##_keypair_from_seed(pk, sk, seed); }              \
    static int p##_sign_det(void) { return p##_sign(sig, msg, sizeof msg, sk); }              \
    static int p##_sign_hedged(void) { return p##_sign_randomized(sig, msg, sizeof msg, sk); } \
    static int p##_verify_(void) {                                                            \
        return p##_verify(sig, P##_SIGNATURE_BYTES, msg, sizeof msg, pk);                     \
    }
LEGACY_OPS(dilithium2, DILITHIUM2)
LEGACY_OPS(dilithium3, DILITHIUM3)
LEGACY_OPS(dilithium5, DILITHIUM5)
LEGACY_OPS(dilithium2aes, DILITHIUM2AES)
LEGACY_OPS(dilithium3aes, DILITHIUM3AES)
LEGACY_OPS(dilithium5aes, DILITHIUM5AES)

static void check_op(const char *backend, const char *set, const char *name, op_fn op,
                     size_t limit) {
    int status = -1;
    size_t need = measure(op, &status);
    printf("%-8s %-13s %-16s %7zu bytes\n", backend, set, name, need);
    CHECK(need > 0 && status == MLDSA_OK, "%s %s %s: thread failed or status %d", backend,
          set, name, status);
    CHECK(need <= limit, "%s %s %s needs %zu bytes, more than %zu", backend, set, name, need,
          limit);
    if (need > max_need) max_need = need;
}

#define CHECK_SET(backend, p)                                                                 \
    do {                                                                                      \
        check_op(backend, #p, "keygen", p##_keygen, LIMIT);                                   \
        check_op(backend, #p, "sign (det.)", p##_sign_det, SIGN_LIMIT);                       \
        check_op(backend, #p, "sign (hedged)", p##_sign_hedged, SIGN_LIMIT);                  \
        check_op(backend, #p, "verify", p##_verify_, LIMIT);                                  \
    } while (0)

int main(void) {
    int portable;
    for (portable = 0; portable <= 1; portable++) {
        const char *backend;
        CHECK(mldsa_force_portable(portable) == MLDSA_OK, "force_portable(%d)", portable);
        backend = mldsa_backend();
        CHECK_SET(backend, mldsa44);
        CHECK_SET(backend, mldsa65);
        CHECK_SET(backend, mldsa87);
        CHECK_SET(backend, dilithium2);
        CHECK_SET(backend, dilithium3);
        CHECK_SET(backend, dilithium5);
        CHECK_SET(backend, dilithium2aes);
        CHECK_SET(backend, dilithium3aes);
        CHECK_SET(backend, dilithium5aes);
    }
    printf("largest need through the C ABI: %zu bytes\n", max_need);
    return check_summary("stack");
}
