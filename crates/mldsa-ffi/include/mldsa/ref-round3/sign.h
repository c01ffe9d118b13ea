/*
 * Drop-in for the CRYSTALS-Dilithium round-3 (v3.1) reference implementation's `sign.h`, the
 * header its own programs include (PQCgenKAT_sign.c includes "sign.h", test/test_dilithium.c
 * "../sign.h"). Everything is declared in api.h beside this file: the crypto_sign_* names and
 * CRYPTO_* sizes selected by DILITHIUM_MODE and DILITHIUM_USE_AES, and CRYPTO_ALGNAME. The
 * reference's internals (its sign.h's challenge(), params.h, poly.h, polyvec.h) are not part
 * of the drop-in.
 *
 * A program that includes "../sign.h" finds this file through -I <this directory>/nested
 * (see nested/sign.h), or with sign.h and api.h copied into its parent directory, where the
 * reference's were.
 */
#ifndef MLDSA_REF_ROUND3_SIGN_H
#define MLDSA_REF_ROUND3_SIGN_H

#include "api.h"

#endif
