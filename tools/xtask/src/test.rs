//! `cargo run -p xtask -- test`: every test in one command. The Rust tests
//! (`cargo test --workspace`, with any arguments after `--`), then the
//! Python package's: a venv in the target folder (`python-venv`) with the
//! pinned packages of `bindings/python/tests/requirements.txt`, the package
//! built and installed into it by `pip install ./bindings/python` (maturin,
//! from PyPI, in pip's build isolation), and pytest on
//! `bindings/python/tests`.

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::venv;

#[derive(clap::Args)]
pub struct Args {
    /// Arguments for `cargo test --workspace` (`-- --locked`).
    #[arg(last = true)]
    cargo: Vec<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    venv::run(
        Command::new(&cargo).current_dir(&root).args(["test", "--workspace"]).args(&args.cargo),
    )?;

    let package = root.join("bindings/python");
    let python = venv::make("python-venv", &package.join("tests/requirements.txt"))?;
    eprintln!("building and installing {}", package.display());
    venv::run(
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--force-reinstall", "--no-deps"])
            .arg(&package),
    )?;
    // The command `cargo test` built, for the test that compares JSON.
    let cli = venv::target().join("debug/charsight");
    venv::run(
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(package.join("tests"))
            .env("CHARSIGHT_CLI", cli),
    )
}
