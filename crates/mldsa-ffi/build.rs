//! Builds the weak `randombytes` hook and gives the shared library a versioned soname.

fn main() {
    println!("cargo:rerun-if-changed=csrc/randombytes_hook.c");
    cc::Build::new()
        .file("csrc/randombytes_hook.c")
        .warnings(true)
        .compile("mldsa_randombytes_hook");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        // ABI major version 0: `libmldsa.so.0`, bumped on any incompatible change of mldsa.h.
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmldsa.so.0");
    }
}
