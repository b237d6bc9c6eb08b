//! The `charsight` command: a thin shell around the charsight library. It
//! is a library too, so that tools can read its command line ([`command`],
//! [`man_pages`]); `src/main.rs` only calls [`main`].
//!
//! Exit codes: 0 success, 1 a negative result, 2 an error (a bad option, or
//! an input that could not be read; the other inputs are still processed).
//! A closed pipe on standard output ends the run quietly with 0.

mod args;
mod batch;
mod decode;
mod detect;
mod explain;
mod input;
mod json;
mod output;
mod url;
mod warc;

use std::io::{self, Write};
use std::process::ExitCode;

use charsight::repair::RepairPolicy;
use clap::{CommandFactory, Parser};

use args::{Cli, Command};

/// The command line, as clap describes it.
pub fn command() -> clap::Command {
    Cli::command()
}

/// The man pages, each file name with its roff: `charsight.1`, and one for
/// each subcommand (`charsight-detect.1`, ...), as `clap_mangen::generate_to`
/// writes them.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    let render = |cmd: clap::Command| {
        let man = clap_mangen::Man::new(cmd);
        let mut page = Vec::new();
        man.render(&mut page).expect("writing to a Vec");
        (man.get_filename(), page)
    };
    let mut pages: Vec<_> =
        cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned().map(render).collect();
    pages.push(render(cmd));
    pages
}

/// Runs the command with the process's arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = match cli.command {
        Command::Detect(args) => detect::run(&args, &mut out),
        Command::Decode(args) => decode::run(&args, RepairPolicy::NONE, &mut out),
        Command::Url(args) => url::run(&args, &mut out),
        Command::Repair(args) => decode::run(&args, RepairPolicy::all(), &mut out),
        Command::Explain(args) => explain::run(&args, &mut out),
        Command::Warc(args) => warc::run(&args, &mut out),
        Command::Completions(args) => {
            clap_complete::generate(args.shell, &mut command(), "charsight", &mut out);
            Ok(Status::Success)
        }
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

/// How a command ended, when it did not fail outright; of several inputs,
/// the worst (the greatest) counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
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

pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
