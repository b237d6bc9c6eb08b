//! Family `cldr`: what the Unicode CLDR (npm packages `cldr-core`,
//! `cldr-numbers-full` and `cldr-misc-full`, pinned in `inputs.toml`,
//! Unicode licence) says of each language that its training text cannot:
//!
//! - **Currency signs.** The training text of the language models (software
//!   documentation and interfaces) hardly has prices, so it says little of
//!   how common `€` is in Finnish documents or `₪` in Hebrew ones; left to
//!   those counts, `€` costs as much as the `¤` that ISO-8859-15 replaced
//!   with it. The detection models give a language's own currency signs a
//!   floor share (`model::emissions`).
//! - **Alphabets.** A small training text (a Universal Declaration of Human
//!   Rights) may lack letters its language uses every day (Welsh `ŵ ŷ`), and
//!   the pooled text of every language then makes them rarer than letters
//!   the language never writes (`þ`). The models give a letter of the
//!   language's alphabet (CLDR's main exemplar characters) a floor share,
//!   and a letter found neither there nor among the letters of its loanwords
//!   (the auxiliary exemplars) a penalty.
//!
//! `count cldr CORE.tgz NUMBERS.tgz MISC.tgz` checks the tarballs' sha256,
//! unpacks them with `tar`, and writes, for every language of the `detect`
//! models:
//! - `data/detect/currency.tsv`: `language TAB signs`: the one-character,
//!   non-ASCII symbols (`symbol`, `symbol-alt-narrow`) in that language's
//!   locale of the currencies in use (no end date, legal tender) in the
//!   territories where the language is official (also de facto or
//!   regionally);
//! - `data/detect/alphabets.tsv`: `language TAB main TAB auxiliary`: the
//!   non-ASCII single letters of the locale's exemplar sets, lowercase.
//!
//! The `detect` family's `emit` reads both.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{ensure, Context, Result};
use serde_json::Value;

use crate::detect::FAR_SCRIPTS;
use crate::emit::{self, Output};

/// Where the currency signs go.
pub fn currency_path() -> PathBuf {
    emit::data_dir().join("detect").join("currency.tsv")
}

/// Where the alphabets go.
pub fn alphabets_path() -> PathBuf {
    emit::data_dir().join("detect").join("alphabets.tsv")
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

/// The pins of `inputs.toml` `[cldr]` (core, numbers, misc): (file, sha256).
fn pins() -> Result<Vec<(String, String)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
    let inputs: toml::Table = std::fs::read_to_string(&path)?.parse()?;
    let table = inputs.get("cldr").and_then(|t| t.as_table()).context("inputs.toml: [cldr]")?;
    let mut pins = Vec::new();
    for key in ["core", "numbers", "misc"] {
        let pin = table.get(key).and_then(|t| t.as_table());
        let field = |name: &str| -> Result<String> {
            let value = pin.and_then(|t| t.get(name)).and_then(|v| v.as_str());
            Ok(value.with_context(|| format!("inputs.toml: [cldr.{key}] {name}"))?.to_owned())
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

/// The three CLDR tarballs of `count cldr`.
pub struct Tarballs<'a> {
    pub core: &'a Path,
    pub numbers: &'a Path,
    pub misc: &'a Path,
}

/// `count cldr <cldr-core.tgz> <cldr-numbers-full.tgz> <cldr-misc-full.tgz>`.
pub fn count(out: &mut Output, tarballs: &Tarballs, languages: &[String]) -> Result<()> {
    let pins = pins()?;
    let dir = tempfile::tempdir()?;
    let (core_dir, numbers_dir) = (dir.path().join("core"), dir.path().join("numbers"));
    let misc_dir = dir.path().join("misc");
    unpack(tarballs.core, &pins[0].0, &pins[0].1, &core_dir)?;
    unpack(tarballs.numbers, &pins[1].0, &pins[1].1, &numbers_dir)?;
    unpack(tarballs.misc, &pins[2].0, &pins[2].1, &misc_dir)?;
    count_currency(out, &core_dir, &numbers_dir, &pins, languages)?;
    count_alphabets(out, &misc_dir, &pins[2].0, languages)
}

/// Writes `currency.tsv` from the unpacked `cldr-core` and `cldr-numbers-full`.
fn count_currency(
    out: &mut Output,
    core_dir: &Path,
    numbers_dir: &Path,
    pins: &[(String, String)],
    languages: &[String],
) -> Result<()> {
    let supplemental = core_dir.join("package/supplemental");
    let territories = json(&supplemental.join("territoryInfo.json"))?;
    let territories = territories["supplemental"]["territoryInfo"]
        .as_object()
        .context("territoryInfo.json: supplemental.territoryInfo")?;
    let currencies = json(&supplemental.join("currencyData.json"))?;
    let regions = &currencies["supplemental"]["currencyData"]["region"];

    let mut tsv = format!(
        "# detect: currency signs of each language's countries, from the Unicode CLDR (npm {} \
         and {}; see src/cldr.rs). Made by: cargo run -p gen-tables -- count cldr \
         CORE.tgz NUMBERS.tgz MISC.tgz\n",
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
    out.file(&currency_path(), tsv.as_bytes())
}

/// Writes `alphabets.tsv` from the unpacked `cldr-misc-full` (`misc_file`
/// names it in the header).
fn count_alphabets(
    out: &mut Output,
    misc_dir: &Path,
    misc_file: &str,
    languages: &[String],
) -> Result<()> {
    let mut tsv = format!(
        "# detect: the non-ASCII letters of each language's alphabet (main) and of its \
         loanwords (auxiliary), lowercase, from the exemplar characters of the Unicode CLDR \
         (npm {misc_file}; see src/cldr.rs). Made by: cargo run -p gen-tables -- count cldr \
         CORE.tgz NUMBERS.tgz MISC.tgz\n",
    );
    for tag in languages {
        let locale = locale(tag);
        let path = misc_dir.join(format!("package/main/{locale}/characters.json"));
        let characters = json(&path)?;
        let sets = &characters["main"][locale]["characters"];
        let letters = |key: &str| -> Result<String> {
            let set = sets[key].as_str().with_context(|| format!("{}: {key}", path.display()))?;
            Ok(exemplar_letters(set).into_iter().collect())
        };
        writeln!(tsv, "{tag}\t{}\t{}", letters("exemplarCharacters")?, letters("auxiliary")?)?;
    }
    out.file(&alphabets_path(), tsv.as_bytes())
}

/// The non-ASCII single letters of a CLDR exemplar set (a UnicodeSet such as
/// `[aáàâä b c {ch} d]`), lowercase; strings in braces are left out, ranges
/// (`a-z`) spelled out, `\` escapes taken literally.
fn exemplar_letters(set: &str) -> BTreeSet<char> {
    let inner = set.trim().trim_start_matches('[').trim_end_matches(']');
    // Each character, and whether it is a range's `-` (not an escaped one).
    let mut tokens = Vec::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        match c {
            '{' => {
                it.by_ref().find(|&c| c == '}');
            }
            '\\' => tokens.extend(it.next().map(|c| (c, false))),
            c if c.is_whitespace() => {}
            c => tokens.push((c, c == '-')),
        }
    }
    let mut letters = BTreeSet::new();
    let mut i = 0;
    while i < tokens.len() {
        match (tokens[i], i.checked_sub(1).map(|p| tokens[p]), tokens.get(i + 1)) {
            ((_, true), Some((from, _)), Some(&(to, _))) => {
                letters.extend(from..=to);
                i += 2;
            }
            ((c, _), _, _) => {
                letters.insert(c);
                i += 1;
            }
        }
    }
    letters
        .into_iter()
        .flat_map(char::to_lowercase)
        // (The scripts of thousands of letters are scored by character
        // frequency, not by alphabet.)
        .filter(|&c| c.is_alphabetic() && !c.is_ascii() && c < FAR_SCRIPTS)
        .collect()
}

/// The letters of a language's alphabet and of its loanwords.
#[derive(Debug, Default, PartialEq)]
pub struct Alphabet {
    pub main: BTreeSet<char>,
    pub auxiliary: BTreeSet<char>,
}

/// Reads `alphabets.tsv`: each language's [`Alphabet`].
pub fn read_alphabets(tsv: &str) -> Result<BTreeMap<String, Alphabet>> {
    let mut rows = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split('\t');
        let mut next = || fields.next().context("alphabets.tsv: language TAB main TAB auxiliary");
        let tag = next()?.to_owned();
        let main = next()?.chars().collect();
        let auxiliary = next()?.chars().collect();
        rows.insert(tag, Alphabet { main, auxiliary });
    }
    Ok(rows)
}

/// Reads `currency.tsv`: (language, its currency signs).
pub fn read_currency(tsv: &str) -> Result<Vec<(String, Vec<char>)>> {
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
        let rows = read_currency("# header\nfi\t€\nda\t\nen\t£€\n").unwrap();
        assert_eq!(rows[0], ("fi".to_owned(), vec!['€']));
        assert!(rows[1].1.is_empty());
        assert_eq!(rows[2].1, vec!['£', '€']);
        assert_eq!(locale("no"), "nb");
        assert_eq!(locale("fi"), "fi");
    }

    #[test]
    fn exemplar_sets() {
        let letters = exemplar_letters("[aáàâä b c {ch} d {dd} eéèêë wẃẁŵẅ yýỳŷÿ]");
        assert_eq!(
            letters.into_iter().collect::<String>(),
            "áàâäéèêëẃẁŵẅýỳŷÿ".chars().collect::<BTreeSet<_>>().into_iter().collect::<String>()
        );
        let range = exemplar_letters("[a-c à-â \\- Ő]");
        assert_eq!(range.into_iter().collect::<String>(), "àáâő");
        let rows = read_alphabets("# header\ncy\tŵŷ\tæ\nen\t\té\n").unwrap();
        assert_eq!(rows["cy"].main, BTreeSet::from(['ŵ', 'ŷ']));
        assert_eq!(rows["en"].auxiliary, BTreeSet::from(['é']));
        assert!(rows["en"].main.is_empty());
    }
}
