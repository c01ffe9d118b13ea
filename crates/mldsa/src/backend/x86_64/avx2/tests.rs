//! Differential tests: each AVX2 kernel against the portable reference, on random and
//! adversarial inputs (coefficients at and beyond their bounds, all-zero and all-max).
