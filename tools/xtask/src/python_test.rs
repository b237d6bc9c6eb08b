//! `cargo run -p xtask -- python-test`: the Python package's tests, which
//! `cargo test` runs (`tests/python.rs`). A venv in the target folder
//! (`python-venv`) with the pinned packages of
//! `bindings/python/tests/requirements.txt`; the package built and
//! installed into it by `pip install ./bindings/python` (maturin, from PyPI,
//! in pip's build isolation; its own target folder, `python-build`, so that
//! it never waits on the `cargo test` that runs it); pytest on
//! `bindings/python/tests`.

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::venv;

pub fn run() -> Result<()> {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bindings/python");
    let python = venv::make("python-venv", &package.join("tests/requirements.txt"))?;
    let target = venv::target();
    eprintln!("building and installing {}", package.display());
    venv::run(
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--force-reinstall", "--no-deps"])
            .arg(&package)
            .env("CARGO_TARGET_DIR", target.join("python-build")),
    )?;
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"]).arg(package.join("tests"));
    // The shared data, found as the Rust tests find it.
    pytest.env("CHARSIGHT_SHARED", testkit::shared_dir());
    // The command, when built, for the test that compares the JSON.
    let cli = target.join("debug/charsight");
    if cli.exists() {
        pytest.env("CHARSIGHT_CLI", cli);
    }
    venv::run(&mut pytest)
}
