//! Proof that the constant-flow harness can fail: a planted branch on a secret and a planted
//! secret-indexed load. Under valgrind (`--cfg mldsa_ct` build) this must report errors; the CI
//! step inverts its exit status.

fn main() {
    let mut secret = [0u8; 2];
    getrandom::fill(&mut secret).expect("OS RNG");
    #[cfg(mldsa_ct)]
    mldsa::ct::classify(&mut secret);
    // Planted leak 1: a branch on a secret.
    let mut acc = 0u32;
    if secret[0] & 1 == 1 {
        acc += std::hint::black_box(3);
    }
    // Planted leak 2: a table lookup at a secret index.
    let table: Vec<u32> = (0..256).collect();
    acc += std::hint::black_box(&table)[secret[1] as usize];
    #[cfg(mldsa_ct)]
    mldsa::ct::declassify(&mut acc);
    println!("canary ran ({acc})");
}
