//! `xtask url-log`: writes the synthetic access log of `testkit::url_log`
//! (nine ASCII request targets in ten), for measuring `charsight url` as a
//! whole process.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// Options of `url-log`.
#[derive(clap::Args)]
pub struct Args {
    /// How many lines.
    #[arg(long, default_value_t = 1_000_000)]
    lines: usize,
    /// Where to write the log.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
}

/// Writes the log.
pub fn run(args: &Args) -> Result<()> {
    let log = testkit::url_log(args.lines);
    std::fs::write(&args.out, &log).with_context(|| format!("writing {}", args.out.display()))?;
    println!("{} lines, {} bytes: {}", args.lines, log.len(), args.out.display());
    Ok(())
}
