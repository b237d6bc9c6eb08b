//! Inputs: files, directories walked recursively, and standard input; each
//! read only as far as detection needs, through one reused buffer.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use charsight::{Detection, Engine};

/// One input to process.
#[derive(Debug)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name to print: `-` for standard input.
    pub fn name(&self) -> &Path {
        match self {
            Input::Stdin => Path::new("-"),
            Input::File(path) => path,
        }
    }
}

/// The inputs named by `paths`, directories expanded in name order, or
/// standard input when `paths` is empty and it is not a terminal. A path
/// that cannot be walked comes back as an error for that path.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<std::result::Result<Input, (PathBuf, io::Error)>>> {
    if paths.is_empty() {
        if io::stdin().is_terminal() {
            bail!("no input: give one or more PATHs, or '-' or a pipe for standard input");
        }
        return Ok(vec![Ok(Input::Stdin)]);
    }
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Ok(Input::Stdin));
            continue;
        }
        if !path.is_dir() {
            inputs.push(Ok(Input::File(path.clone())));
            continue;
        }
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            match entry {
                Ok(entry) if entry.file_type().is_file() => {
                    inputs.push(Ok(Input::File(entry.into_path())))
                }
                Ok(_) => {}
                Err(err) => {
                    let at = err.path().unwrap_or(path).to_path_buf();
                    inputs.push(Err((at, err.into())));
                }
            }
        }
    }
    Ok(inputs)
}

impl Input {
    /// Opens the input for reading.
    pub fn open(&self) -> io::Result<Box<dyn Read>> {
        Ok(match self {
            Input::Stdin => Box::new(io::stdin().lock()),
            Input::File(path) => Box::new(File::open(path)?),
        })
    }
}

/// Reads `input` through `buf` until the engine has what it needs.
pub fn detect(engine: &Engine, input: &Input, buf: &mut [u8]) -> io::Result<Detection> {
    let mut reader = input.open()?;
    let mut session = engine.session();
    while session.wants_more() {
        match read_some(&mut reader, buf)? {
            0 => break,
            n => session.feed(&buf[..n]),
        }
    }
    Ok(session.finish())
}

/// One `read`, retried when interrupted.
pub fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}
