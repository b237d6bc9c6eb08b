//! Family `currency`: the currency signs of each language's countries, from
//! the Unicode CLDR (npm packages `cldr-core` and `cldr-numbers-full`,
//! pinned in `inputs.toml`, Unicode licence).
//!
//! The training text of the language models (software documentation and
//! interfaces) hardly has prices, so it says little of how common `€` is in
//! Finnish documents or `₪` in Hebrew ones; left to those counts, `€` costs
//! as much as the `¤` that ISO-8859-15 replaced with it. The detection
//! models give a language's own currency signs a floor share
//! (`model::emissions`).
//!
//! - `count currency CORE.tgz NUMBERS.tgz` checks the tarballs' sha256,
//!   unpacks them with `tar`, and writes `data/detect/currency.tsv`:
//!   `language TAB signs`, for every language of `../shared/text`: the
//!   one-character, non-ASCII symbols (`symbol`, `symbol-alt-narrow`) in
//!   that language's locale of the currencies in use (no end date, legal
//!   tender) in the territories where the language is official (also de
//!   facto or regionally).
//! - the `detect` family's `emit` reads it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{ensure, Context, Result};
use serde_json::Value;

use crate::emit::{self, Output};

/// Where the counts go.
pub fn data_path() -> PathBuf {
    emit::data_dir().join("detect").join("currency.tsv")
}

/// Official statuses that count a territory as one of the language's.
const OFFICIAL: [&str; 3] = ["official", "de_facto_official", "official_regional"];

/// The CLDR locale of a language tag of `../shared/text`.
fn locale(tag: &str) -> &str {
    match tag {
        "no" => "nb",
        "zh-Hans" => "zh",
        tag => tag,
    }
}

/// The pins of `inputs.toml` `[currency]`: (package, file, sha256).
fn pins() -> Result<Vec<(String, String)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
    let inputs: toml::Table = std::fs::read_to_string(&path)?.parse()?;
    let table =
        inputs.get("currency").and_then(|t| t.as_table()).context("inputs.toml: [currency]")?;
    let mut pins = Vec::new();
    for key in ["core", "numbers"] {
        let pin = table.get(key).and_then(|t| t.as_table());
        let field = |name: &str| -> Result<String> {
            let value = pin.and_then(|t| t.get(name)).and_then(|v| v.as_str());
            Ok(value.with_context(|| format!("inputs.toml: [currency.{key}] {name}"))?.to_owned())
        };
        pins.push((field("file")?, field("sha256")?));
    }
    Ok(pins)
}

/// Unpacks a pinned npm tarball into `into` (as `into/package/...`).
fn unpack(tgz: &Path, file: &str, sha256: &str, into: &Path) -> Result<()> {
    emit::read_pinned(tgz, file, sha256)?;
    std::fs::create_dir_all(into)?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(tgz)
        .arg("-C")
        .arg(into)
        .status()
        .context("running tar")?;
    ensure!(status.success(), "tar xzf {} failed", tgz.display());
    Ok(())
}

fn json(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// `count currency <cldr-core.tgz> <cldr-numbers-full.tgz>`.
pub fn count(out: &mut Output, core: &Path, numbers: &Path, languages: &[String]) -> Result<()> {
    let pins = pins()?;
    let dir = tempfile::tempdir()?;
    let (core_dir, numbers_dir) = (dir.path().join("core"), dir.path().join("numbers"));
    unpack(core, &pins[0].0, &pins[0].1, &core_dir)?;
    unpack(numbers, &pins[1].0, &pins[1].1, &numbers_dir)?;
    let supplemental = core_dir.join("package/supplemental");
    let territories = json(&supplemental.join("territoryInfo.json"))?;
    let territories = territories["supplemental"]["territoryInfo"]
        .as_object()
        .context("territoryInfo.json: supplemental.territoryInfo")?;
    let currencies = json(&supplemental.join("currencyData.json"))?;
    let regions = &currencies["supplemental"]["currencyData"]["region"];

    let mut tsv = format!(
        "# detect: currency signs of each language's countries, from the Unicode CLDR (npm {} \
         and {}; see src/currency.rs). Made by: cargo run -p gen-tables -- count currency \
         CORE.tgz NUMBERS.tgz\n",
        pins[0].0, pins[1].0
    );
    for tag in languages {
        let locale = locale(tag);
        let mut codes = BTreeSet::new();
        for (territory, info) in territories {
            let status = &info["languagePopulation"][locale]["_officialStatus"];
            if !status.as_str().is_some_and(|s| OFFICIAL.contains(&s)) {
                continue;
            }
            for entry in regions[territory].as_array().into_iter().flatten() {
                for (code, dates) in entry.as_object().into_iter().flatten() {
                    if dates.get("_to").is_none() && dates["_tender"] != "false" {
                        codes.insert(code.clone());
                    }
                }
            }
        }
        let path = numbers_dir.join(format!("package/main/{locale}/currencies.json"));
        let names = if path.exists() { json(&path)? } else { Value::Null };
        let names = &names["main"][locale]["numbers"]["currencies"];
        let mut signs = BTreeSet::new();
        for code in &codes {
            for key in ["symbol", "symbol-alt-narrow"] {
                let sign = names[code][key].as_str().unwrap_or_default();
                let mut chars = sign.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    if !c.is_ascii() {
                        signs.insert(c);
                    }
                }
            }
        }
        writeln!(tsv, "{tag}\t{}", signs.into_iter().collect::<String>())?;
    }
    out.file(&data_path(), tsv.as_bytes())
}

/// Reads `currency.tsv`: (language, its currency signs).
pub fn read(tsv: &str) -> Result<Vec<(String, Vec<char>)>> {
    let mut rows = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let (tag, signs) = line.split_once('\t').context("currency.tsv: language TAB signs")?;
        rows.push((tag.to_owned(), signs.chars().collect()));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_locales() {
        let rows = read("# header\nfi\t€\nda\t\nen\t£€\n").unwrap();
        assert_eq!(rows[0], ("fi".to_owned(), vec!['€']));
        assert!(rows[1].1.is_empty());
        assert_eq!(rows[2].1, vec!['£', '€']);
        assert_eq!(locale("no"), "nb");
        assert_eq!(locale("fi"), "fi");
    }
}
