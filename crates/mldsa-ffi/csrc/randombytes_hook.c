/* The reference implementations' keypair (and randomized signing) call a `randombytes`
 * function that the program supplies; NIST's KAT generator supplies its AES-256-CTR DRBG that
 * way. The drop-in APIs do the same when the program defines `randombytes`, and use the OS
 * otherwise. A weak undefined reference resolves to the program's definition if there is one
 * (static or dynamic link) and to NULL if not. */
#include <stddef.h>
#include <stdint.h>

/* Return type and length type differ between reference versions (void/int, size_t/unsigned
 * long long); on every ABI we support both are passed and ignored identically. */
extern void randombytes(uint8_t *out, size_t outlen) __attribute__((weak));

__attribute__((visibility("hidden"))) int mldsa_ffi_program_randombytes(uint8_t *out,
                                                                       size_t outlen) {
    if (randombytes == NULL) {
        return 0;
    }
    randombytes(out, outlen);
    return 1;
}
