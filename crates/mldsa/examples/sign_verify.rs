//! Generates a key pair for each ML-DSA parameter set, signs a message with a context string and
//! verifies it, printing every value in hex (as the reference implementations' examples do).
//!
//! Run with `cargo run --release --example sign_verify`.

use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use std::time::Instant;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn demo<P: ParameterSet>() -> Result<(), mldsa::Error> {
    let message = b"The quick brown fox jumps over the lazy dog";
    let context = b"mldsa example v1";

    let start = Instant::now();
    let sk = SigningKey::<P>::generate()?;
    let keygen = start.elapsed();
    let start = Instant::now();
    let sig = sk.sign(message, context)?;
    let sign = start.elapsed();
    let vk = sk.verifying_key();
    let start = Instant::now();
    let verified = vk.verify(message, context, &sig).is_ok();
    let verify = start.elapsed();
    // A changed message must not verify.
    let tampered = vk
        .verify(
            b"The quick brown fox jumps over the lazy cat",
            context,
            &sig,
        )
        .is_ok();

    println!("== {} ==", P::NAME);
    println!(
        "seed      ({:4} bytes): {}",
        32,
        hex(sk.seed().expect("generated keys keep their seed"))
    );
    println!("public key({:4} bytes): {}", P::PK_LEN, hex(vk.as_bytes()));
    println!(
        "secret key({:4} bytes): {}",
        P::SK_LEN,
        hex(sk.to_expanded_bytes().as_ref())
    );
    println!(
        "message   ({:4} bytes): {}",
        message.len(),
        String::from_utf8_lossy(message)
    );
    println!(
        "context   ({:4} bytes): {}",
        context.len(),
        String::from_utf8_lossy(context)
    );
    println!(
        "signature ({:4} bytes): {}",
        P::SIG_LEN,
        hex(sig.as_bytes())
    );
    println!("verified: {verified}");
    println!("tampered message verified: {tampered}");
    println!(
        "time: keygen {keygen:?}, sign {sign:?}, verify {verify:?} (one run, not a benchmark)"
    );
    println!();
    assert!(verified && !tampered);
    Ok(())
}

fn main() -> Result<(), mldsa::Error> {
    demo::<MlDsa44>()?;
    demo::<MlDsa65>()?;
    demo::<MlDsa87>()?;
    Ok(())
}
