/* The NIST PQC AES-256-CTR DRBG (the KAT generators' randombytes), written for these tests
 * from SP 800-90A section 10.2.1 (no derivation function, no personalisation use). */
#ifndef RNG_H
#define RNG_H

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string,
                      int security_strength);
int randombytes(unsigned char *x, unsigned long long xlen);

#endif
