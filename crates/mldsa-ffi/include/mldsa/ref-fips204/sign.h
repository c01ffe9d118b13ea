/*
 * Drop-in for the pq-crystals ML-DSA (FIPS 204) reference implementation's `sign.h`, the header
 * its own programs include (nistkat/PQCgenKAT_sign.c and test/test_dilithium.c include
 * "../sign.h"). Everything is declared in api.h beside this file (the crypto_sign_* names and
 * CRYPTO_* sizes selected by DILITHIUM_MODE, CRYPTO_ALGNAME, and the internal functions
 * crypto_sign_signature_internal / crypto_sign_verify_internal); this header adds RNDBYTES,
 * the length of the `rnd` argument in the internal functions' prototypes, which the
 * reference's sign.h takes from its params.h. The reference's other internals (params.h's
 * K, L, N, Q, ..., poly.h, polyvec.h) are not part of the drop-in.
 *
 * A program that includes "../sign.h" finds this file through -I <this directory>/nested
 * (see nested/sign.h), or with sign.h and api.h copied into its parent directory, where the
 * reference's were.
 */
#ifndef MLDSA_REF_FIPS204_SIGN_H
#define MLDSA_REF_FIPS204_SIGN_H

#include "api.h"

#ifndef RNDBYTES
#define RNDBYTES 32
#endif

#endif
