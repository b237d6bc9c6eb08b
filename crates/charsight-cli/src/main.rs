//! The `charsight` command: a thin shell around the charsight library.
//!
//! Exit codes: 0 success, 1 a negative result, 2 an error (a bad option, or
//! an input that could not be read; the other inputs are still processed).
//! A closed pipe on standard output ends the run quietly with 0.

mod advice;
mod args;
mod decode;
mod detect;
mod explain;
mod input;
mod json;
mod url;

use std::io::{self, Write};
use std::process::ExitCode;

use charsight::repair::RepairPolicy;
use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = match cli.command {
        Command::Detect(args) => detect::run(&args, &mut out),
        Command::Decode(args) => decode::run(&args, RepairPolicy::NONE, &mut out),
        Command::Url(args) => url::run(&args, &mut out),
        Command::Repair(args) => decode::run(&args, RepairPolicy::all(), &mut out),
        Command::Explain(args) => explain::run(&args, &mut out),
    }
    .and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    match result {
        Ok(status) => status.into(),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("charsight: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// How a command ended, when it did not fail outright.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything went as asked.
    Success,
    /// A negative result (nothing determined, damage found by a check).
    Negative,
    /// Some inputs failed; the others were processed.
    Errors,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::Negative => ExitCode::from(1),
            Status::Errors => ExitCode::from(2),
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
