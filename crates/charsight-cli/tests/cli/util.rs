//! Helpers for running the `charsight` binary in tests.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

pub fn charsight() -> Command {
    Command::cargo_bin("charsight").unwrap()
}

/// Writes `bytes` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The JSON report at `path`.
pub fn report(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// Runs `charsight COMMAND PATH` under a 120 MB address-space limit and
/// returns the last `tail` bytes of its output; panics if it fails.
pub fn run_bounded(command: &str, path: &Path, tail: usize) -> String {
    let bin = assert_cmd::cargo::cargo_bin("charsight");
    let script = format!(
        "ulimit -v 120000 && exec '{}' {command} '{}' | tail -c {tail}",
        bin.display(),
        path.display()
    );
    let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

pub fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// The first `n` lines of `../shared/text/<lang>.txt` of 40–200 characters.
pub fn text_lines(lang: &str, n: usize) -> Vec<String> {
    let path = testkit::shared_dir().join("text").join(format!("{lang}.txt"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| (40..200).contains(&l.chars().count()))
        .take(n)
        .map(str::to_owned)
        .collect()
}

/// Runs `detect --format jsonl` and parses each output line.
pub fn detect_jsonl(args: &[&str], stdin: Option<&[u8]>) -> (Vec<Value>, i32) {
    let mut cmd = charsight();
    cmd.arg("detect").arg("--format").arg("jsonl").args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let output = cmd.output().unwrap();
    let lines = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    (lines, output.status.code().unwrap())
}

/// `detect --format jsonl` of one file holding `bytes`.
pub fn detect_one(bytes: &[u8], args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input");
    fs::write(&path, bytes).unwrap();
    let mut all = vec![path.to_str().unwrap()];
    all.extend(args);
    let (mut lines, code) = detect_jsonl(&all, None);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 1);
    lines.remove(0)
}
