//! Prints the directory of the OpenSSL source tree shipped in the `openssl-src` crate.
fn main() {
    println!("{}", openssl_src::source_dir().display());
}
