/* A synthetic program in the shape of the references' own programs (their test/ and nistkat/
 * programs include "../sign.h", round 3's PQCgenKAT_sign.c "sign.h"): it includes only sign.h
 * and uses the names those programs use (CRYPTO_ALGNAME, CRYPTO_* sizes, crypto_sign_keypair,
 * crypto_sign, crypto_sign_open). run.sh copies it one directory below a directory with no
 * sign.h and builds it against the installed headers with nothing but -I, -D and -l flags
 * (-DVIA_PARENT: #include "../sign.h"), so it compiles only if the installed drop-in serves
 * that include; then it runs a sign/open round trip and checks CRYPTO_ALGNAME against
 * -DEXPECTED_ALGNAME, the reference's name for the set.
 *
 * Built with -DROUND3 for the round-3 drop-in (crypto_sign without a context). */
#include <stdio.h>
#include <string.h>

#ifdef VIA_PARENT
#include "../sign.h"
#else
#include "sign.h"
#endif

#ifdef ROUND3
#define CTX(key) key
#else
#define CTX(key) NULL, 0, key
#endif

int main(void) {
    static unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    static unsigned char sm[CRYPTO_BYTES + 32], m[CRYPTO_BYTES + 32];
    const unsigned char msg[32] = "sign.h drop-in";
    size_t smlen, mlen;
    const char *name = CRYPTO_ALGNAME;

    if (strcmp(name, EXPECTED_ALGNAME) != 0) {
        printf("CRYPTO_ALGNAME is \"%s\", expected \"%s\"\n", name, EXPECTED_ALGNAME);
        return 1;
    }
#ifndef ROUND3
    if (RNDBYTES != 32) {
        printf("RNDBYTES is %d\n", RNDBYTES);
        return 1;
    }
#endif
    if (crypto_sign_keypair(pk, sk) != 0 || crypto_sign(sm, &smlen, msg, sizeof msg, CTX(sk)) != 0 ||
        smlen != CRYPTO_BYTES + sizeof msg || crypto_sign_open(m, &mlen, sm, smlen, CTX(pk)) != 0 ||
        mlen != sizeof msg || memcmp(m, msg, sizeof msg) != 0) {
        printf("%s: sign/open round trip failed\n", name);
        return 1;
    }
    sm[0] ^= 1;
    if (crypto_sign_open(m, &mlen, sm, smlen, CTX(pk)) != -1) {
        printf("%s: a tampered signed message opened\n", name);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}
