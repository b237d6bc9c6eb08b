//! The generator of charsight's tables: models trained from natural text and
//! mapping tables converted from published data. Deterministic: sorted
//! iteration, fixed seeds, no timestamps.
//!
//! Each family of tables is one module with two steps:
//!
//! - `count`: reads the raw inputs (`../shared/...`, packages pinned in
//!   `inputs.toml`) and writes a compact intermediate form (counts) into
//!   `tools/gen-tables/data/`, checked in;
//! - `emit`: reads the intermediate form and writes Rust into
//!   `crates/charsight-tables/src/generated/`, checked in.
//!
//! `cargo run -p gen-tables -- check` re-emits every family in memory and
//! fails if any checked-in file differs, so the generated code always
//! matches its intermediate data.

mod carrier_emoji;
mod emit;
mod fonts;
mod icu_rules;
mod zawgyi;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

/// Regenerate charsight's tables.
#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Re-emit every family in memory; fail if a checked-in file differs.
    Check,
    /// Re-emit every family from the checked-in intermediate data.
    Emit,
    /// Read a family's raw inputs (../shared, ...) and write its intermediate data.
    Count {
        /// The family: `fonts`, `zawgyi` or `carrier-emoji`.
        family: String,
        /// The raw input file, for families whose input is not in ../shared
        /// (`carrier-emoji`: e4u's `emoji4unicode.xml`).
        input: Option<std::path::PathBuf>,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let mode = match cli.command {
        Command::Check => emit::Mode::Check,
        Command::Emit => emit::Mode::Write,
        Command::Count { family, input } => {
            let mut out = emit::Output::new(emit::Mode::Write);
            let shared = testkit::shared_dir();
            match family.as_str() {
                "fonts" => fonts::count(&mut out, &shared)?,
                "zawgyi" => zawgyi::count(&mut out, &shared)?,
                "carrier-emoji" => {
                    let xml =
                        input.context("count carrier-emoji needs the path of emoji4unicode.xml")?;
                    carrier_emoji::count(&mut out, &xml)?
                }
                other => anyhow::bail!("unknown family {other:?}"),
            }
            return out.finish();
        }
    };
    let mut out = emit::Output::new(mode);
    emit_all(&mut out)?;
    out.finish()
}

/// Every family's `emit` step.
fn emit_all(out: &mut emit::Output) -> Result<()> {
    fonts::emit(out)?;
    zawgyi::emit(out)?;
    carrier_emoji::emit(out)?;
    Ok(())
}
