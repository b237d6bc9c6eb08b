//! Project tasks that are not part of the build: evaluations against
//! baselines on held-out data. Each command lives in its own module.

mod url_eval;
mod url_log;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// charsight's project tasks.
#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Accuracy of `charsight::url` on keywords in URLs, against two baselines.
    UrlEval(url_eval::Args),
    /// Write a synthetic access log (90% ASCII URLs) for throughput tests.
    UrlLog(url_log::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::UrlEval(args) => url_eval::run(&args),
        Command::UrlLog(args) => url_log::run(&args),
    }
}
