//! The Python package's tests (`bindings/python/tests`), run by `cargo test`
//! through `xtask python-test`: they need `python3` with `venv`, and PyPI.

use std::process::Command;

#[test]
fn python_package() {
    let status = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("python-test")
        .status()
        .expect("running xtask python-test");
    assert!(status.success(), "the Python package's tests failed: {status}");
}
