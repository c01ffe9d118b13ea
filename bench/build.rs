//! Stops the build early when bench/.cargo/config.toml was not applied (cargo looks for config
//! files from the current directory, so `--manifest-path bench/Cargo.toml` from the repository
//! root skips it): numbers from a generic build are not comparable with native ones. Any
//! explicit `-C target-cpu` passes (`native` from the config file; `x86-64-v3` through RUSTFLAGS
//! for an AVX2-only build, README "Caveats"). The target CPU and the C flags go into the report's
//! header (`BENCH_TARGET_CPU`, `BENCH_CFLAGS`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let joined = flags
        .windows(2)
        .filter_map(|w| (w[0] == "-C").then_some(w[1]));
    let target_cpu = flags
        .iter()
        .filter_map(|f| f.strip_prefix("-C"))
        .chain(joined)
        .filter_map(|f| f.strip_prefix("target-cpu="))
        .next_back();
    let Some(target_cpu) = target_cpu else {
        eprintln!(
            "error: bench/.cargo/config.toml was not applied (no -C target-cpu=native).\n\
             Run from bench/:            cd bench && cargo run --release -- [--quick]\n\
             or from the repository root: cargo run --release --manifest-path bench/Cargo.toml \
             --config bench/.cargo/config.toml -- [--quick]"
        );
        std::process::exit(1);
    };
    println!("cargo:rustc-env=BENCH_TARGET_CPU={target_cpu}");
    let cflags = std::env::var("CFLAGS").unwrap_or_default();
    println!("cargo:rustc-env=BENCH_CFLAGS={cflags}");
}
