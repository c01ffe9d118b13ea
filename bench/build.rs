//! Stops the build early when bench/.cargo/config.toml was not applied (cargo looks for config
//! files from the current directory, so `--manifest-path bench/Cargo.toml` from the repository
//! root skips it): numbers from a generic build are not comparable with native ones.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let native = flags.contains(&"-Ctarget-cpu=native")
        || flags.windows(2).any(|w| w == ["-C", "target-cpu=native"]);
    if !native {
        eprintln!(
            "error: bench/.cargo/config.toml was not applied (no -C target-cpu=native).\n\
             Run from bench/:            cd bench && cargo run --release -- [--quick]\n\
             or from the repository root: cargo run --release --manifest-path bench/Cargo.toml \
             --config bench/.cargo/config.toml -- [--quick]"
        );
        std::process::exit(1);
    }
}
