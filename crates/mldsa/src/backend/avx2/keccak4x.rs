//! Four Keccak-f[1600] permutations at once, one per 64-bit lane of 25 AVX2 registers, and the
//! SHAKE128 / SHAKE256 sponges over them.
