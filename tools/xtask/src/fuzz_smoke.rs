//! `xtask fuzz-smoke`: a short run of every fuzz target (or those named),
//! one after the other, with `cargo fuzz` (which needs `cargo install
//! cargo-fuzz --locked`; the targets use nightly features, enabled on a
//! stable toolchain with `RUSTC_BOOTSTRAP=1`). Fails if any target fails
//! (a finding is written under `fuzz/artifacts/TARGET/`).
//!
//! The targets are built once, then each runs for `--seconds` (CI: 20 s
//! each, see `.ci/run`).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Seconds to run each target.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The targets to run [default: every target of `cargo fuzz list`].
    targets: Vec<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let cargo_fuzz = |args: &[&str]| {
        let mut command = Command::new("cargo");
        command.arg("fuzz").args(args).current_dir(&dir).env("RUSTC_BOOTSTRAP", "1");
        command
    };
    let listed = cargo_fuzz(&["list"])
        .output()
        .context("running cargo fuzz (install it with `cargo install cargo-fuzz --locked`)")?;
    if !listed.status.success() {
        bail!(
            "cargo fuzz list failed (install it with `cargo install cargo-fuzz --locked`): {}",
            String::from_utf8_lossy(&listed.stderr)
        );
    }
    let targets = match &args.targets[..] {
        [] => String::from_utf8(listed.stdout)?.lines().map(str::to_owned).collect(),
        named => named.to_vec(),
    };
    let built = cargo_fuzz(&["build", "-O"]).status().context("cargo fuzz build")?;
    if !built.success() {
        bail!("cargo fuzz build failed");
    }
    let mut failed = Vec::new();
    for target in &targets {
        let start = Instant::now();
        let max_time = format!("-max_total_time={}", args.seconds);
        let status = cargo_fuzz(&["run", "-O", target, "--", &max_time])
            .status()
            .with_context(|| format!("cargo fuzz run {target}"))?;
        let seconds = start.elapsed().as_secs();
        eprintln!(
            "fuzz-smoke: {target}: {} in {seconds} s",
            match status.success() {
                true => "ok",
                false => "FAILED",
            }
        );
        if !status.success() {
            failed.push(target.as_str());
        }
    }
    if !failed.is_empty() {
        bail!("fuzz targets failed: {} (findings in fuzz/artifacts/)", failed.join(", "));
    }
    Ok(())
}
