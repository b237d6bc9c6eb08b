//! The Python environments some tasks need: venvs in the target folder
//! (`$CARGO_TARGET_DIR`, else `target`) with the pinned packages of a
//! requirements file, made on first use and refilled when that file
//! changes. The evaluations' is `xtask-venv`, from
//! `tools/xtask/py/requirements.txt`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The folder of the checked-in Python scripts.
pub fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("py")
}

/// The target folder.
pub fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// The evaluations' venv's Python, made and filled if need be.
pub fn python() -> Result<PathBuf> {
    make("xtask-venv", &scripts().join("requirements.txt"))
}

/// The Python of the venv `name` in the target folder, made and filled
/// with the packages of `requirements` if need be.
pub fn make(name: &str, requirements: &Path) -> Result<PathBuf> {
    let venv = target().join(name);
    let python = venv.join("bin/python");
    let wanted = std::fs::read_to_string(requirements)
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
    run(Command::new(&python).args(["-m", "pip", "install", "-q", "-r"]).arg(requirements))
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

/// Runs a command; an error unless it succeeds.
pub fn run(command: &mut Command) -> Result<()> {
    let status = command.status().with_context(|| format!("running {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}
