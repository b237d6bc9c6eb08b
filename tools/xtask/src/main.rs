//! Project tasks that are not part of the build: the Python package's tests
//! (which `cargo test` runs), evaluations against baselines on held-out
//! data, the man page, and a short run of the fuzz targets. Each command
//! lives in its own module.

mod bench;
mod calibrate;
mod compare;
mod declared_eval;
mod everyday;
mod fuzz_smoke;
mod labels;
mod man;
mod python_test;
mod reliability;
mod repair_eval;
mod samples;
mod url_eval;
mod url_log;
mod venv;

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
    /// The Python package's tests: build it into a venv, run pytest (`cargo test` runs this).
    PythonTest,
    /// Accuracy and speed of content detection against chardetng, on labelled files.
    Compare(compare::Args),
    /// Write synthetic labelled samples: held-out text encoded in each legacy encoding.
    Samples(samples::Args),
    /// Fit the confidence's temperature and report its reliability.
    Calibrate(calibrate::Args),
    /// Accuracy of `charsight::url` on keywords in URLs, against two baselines.
    UrlEval(url_eval::Args),
    /// Write a synthetic access log (90% ASCII URLs) for throughput tests.
    UrlLog(url_log::Args),
    /// Repair rate on generated damage and false changes on clean text.
    RepairEval(repair_eval::Args),
    /// Whether the Engine's confidence is the probability of being right, on labelled files.
    Reliability(reliability::Args),
    /// Write the everyday battery: web pages, plain text, DOS screens and binary files.
    Everyday(everyday::Args),
    /// How the verify policy weighs true and lying declarations on generated pages.
    DeclaredEval(declared_eval::Args),
    /// Write the charsight man page, docs/charsight.1 (or check it is current).
    Man(man::Args),
    /// Whole-process speed and accuracy of charsight, CED, chardetng, uchardet and chardet.
    Bench(bench::Args),
    /// chardetng over a list of files, one name per line (a tool of `bench`).
    #[command(hide = true)]
    BenchChardetng {
        /// A file listing the paths, one per line.
        list: std::path::PathBuf,
    },
    /// Run every fuzz target for a short time (needs cargo-fuzz).
    FuzzSmoke(fuzz_smoke::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::PythonTest => python_test::run(),
        Command::Compare(args) => compare::run(&args),
        Command::Samples(args) => samples::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
        Command::UrlEval(args) => url_eval::run(&args),
        Command::UrlLog(args) => url_log::run(&args),
        Command::RepairEval(args) => repair_eval::run(&args),
        Command::DeclaredEval(args) => declared_eval::run(&args),
        Command::Everyday(args) => everyday::run(&args),
        Command::Reliability(args) => reliability::run(&args),
        Command::Man(args) => man::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::BenchChardetng { list } => bench::chardetng_list(&list),
        Command::FuzzSmoke(args) => fuzz_smoke::run(&args),
    }
}
