//! The Python environment some tasks need: a venv in the target folder
//! (`$CARGO_TARGET_DIR/xtask-venv`, else `target/xtask-venv`) with the
//! pinned packages of `tools/xtask/py/requirements.txt`, made on first use
//! and remade when that file changes.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The folder of the checked-in Python scripts.
pub fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("py")
}

/// The venv's Python, made and filled if need be.
pub fn python() -> Result<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let venv = target.join("xtask-venv");
    let python = venv.join("bin/python");
    let requirements = scripts().join("requirements.txt");
    let wanted = std::fs::read_to_string(&requirements)
        .with_context(|| format!("reading {}", requirements.display()))?;
    let stamp = venv.join("xtask-requirements.txt");
    if python.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(&wanted) {
        return Ok(python);
    }
    if !python.exists() {
        eprintln!("making {}", venv.display());
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))
            .context("python3 -m venv (is python3 with the venv module installed?)")?;
    }
    eprintln!("installing {}", requirements.display());
    run(Command::new(&python).args(["-m", "pip", "install", "-q", "-r"]).arg(&requirements))
        .context("pip install (PyPI must be reachable)")?;
    std::fs::write(&stamp, wanted)?;
    Ok(python)
}

/// A Python command with hashing fixed (some of Faker's lists come from sets).
pub fn command(python: &Path, script: &str) -> Command {
    let mut command = Command::new(python);
    command.arg(scripts().join(script)).env("PYTHONHASHSEED", "0");
    command
}

fn run(command: &mut Command) -> Result<()> {
    let status = command.status().with_context(|| format!("running {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}
