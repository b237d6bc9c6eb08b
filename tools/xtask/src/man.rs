//! `xtask man`: writes the `charsight` man pages into `docs/man/` from the
//! command's own definition (clap_mangen), or checks that the checked-in
//! pages are current (`xtask man check`; a test of charsight-cli checks
//! them too).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// What to do with the pages.
    #[arg(value_enum, default_value_t = Mode::Write)]
    mode: Mode,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Mode {
    /// Write docs/man/*.1, removing pages of commands that are gone.
    Write,
    /// Fail if docs/man/*.1 are not what `write` would write.
    Check,
}

pub fn run(args: &Args) -> Result<()> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/man");
    let pages: BTreeMap<String, Vec<u8>> = charsight_cli::man_pages().into_iter().collect();
    let mut current = BTreeMap::new();
    if dir.exists() {
        for entry in fs::read_dir(&dir).with_context(|| dir.display().to_string())? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "1") {
                let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
                current.insert(name, fs::read(&path).with_context(|| path.display().to_string())?);
            }
        }
    }
    match args.mode {
        Mode::Check if current != pages => {
            bail!("{} is stale: run `cargo run -p xtask -- man`", dir.display())
        }
        Mode::Check => Ok(()),
        Mode::Write => {
            fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
            for name in current.keys().filter(|name| !pages.contains_key(*name)) {
                fs::remove_file(dir.join(name))?;
            }
            for (name, page) in &pages {
                fs::write(dir.join(name), page)?;
            }
            Ok(())
        }
    }
}
