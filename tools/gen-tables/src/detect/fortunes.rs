//! Everyday text for a language whose training lines are manuals: the
//! fortunes (proverbs, quotations, jokes) of Debian's `fortunes-<tag>`
//! packages, pinned in `inputs.toml` under `[detect.fortunes.<tag>]`; a
//! package's `off/` set (offensive fortunes) is left out.
//!
//! Spanish is the one so far. Its training lines (manuals) have 28 `!`,
//! no `¡` and two `¿` in 400,000 characters, and hardly a `niño` or a
//! `piña`: unseen, `¡` and the step from it to a letter cost Spanish about
//! 35 bits and `iñ` as much, so `Hola ¿cómo estás? ¡Muy bien!` in
//! windows-1252 read as Big5 at 0.95 (a mark and the letter after it one
//! character), and `El niño comió una piña.` as Latvian in ISO-8859-4
//! (`niņo comiķ una piņa`). fortunes-es has 586 of the marks in 875,000
//! characters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::charmaps::{unpack, Pin};

/// The languages with a pinned fortunes package: the tables of
/// `inputs.toml`'s `[detect.fortunes]`.
fn languages() -> Result<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
    let inputs: toml::Table = std::fs::read_to_string(&path)?.parse()?;
    let table = inputs.get("detect").and_then(|t| t.get("fortunes")).and_then(|t| t.as_table());
    Ok(table.context("inputs.toml: [detect.fortunes]")?.keys().cloned().collect())
}

/// The pin of `tag`'s package.
pub fn pin(tag: &str) -> Result<Pin> {
    Pin::read(&["detect", "fortunes", tag])
}

/// Each language's fortunes, one line each, from the pinned packages among
/// `debs` (every one must be there).
pub fn read(debs: &[PathBuf]) -> Result<BTreeMap<String, Vec<String>>> {
    let mut found = BTreeMap::new();
    for tag in languages()? {
        let pin = pin(&tag)?;
        let deb = debs.iter().find(|d| d.file_name().is_some_and(|f| *f == *pin.file));
        let Some(deb) = deb else {
            bail!(
                "count detect needs --fortunes {} (inputs.toml [detect.fortunes.{tag}])",
                pin.file
            )
        };
        let dir = unpack(deb, &pin)?;
        let lines = fortunes(&dir.path().join("usr/share/games/fortunes").join(&tag))?;
        found.insert(tag, lines);
    }
    Ok(found)
}

/// The fortunes of the `.fortunes` files of `folder` (not its subfolders),
/// in file order, each on one line.
fn fortunes(folder: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).with_context(|| format!("{}", folder.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "fortunes") {
            files.push(path);
        }
    }
    files.sort();
    let mut lines = Vec::new();
    for file in &files {
        let body = std::fs::read_to_string(file).with_context(|| format!("{}", file.display()))?;
        lines.extend(split(&body));
    }
    Ok(lines)
}

/// The fortunes of a file (separated by lines of `%`), each with its lines
/// joined by single spaces, but those that are garbled ([`garbled`]).
fn split(body: &str) -> impl Iterator<Item = String> + '_ {
    body.split("\n%\n").filter(|f| !garbled(f)).filter_map(|fortune| {
        let words: Vec<&str> = fortune.split_whitespace().filter(|w| *w != "%").collect();
        (!words.is_empty()).then(|| words.join(" "))
    })
}

/// Whether a fortune holds a control, format or private-use character
/// beyond ASCII, or a symbol or number beyond ASCII right before a letter: bytes
/// read in the wrong code page (fortunes-es has a few, `¤r`, `±³¬`, `\x8b`),
/// which would teach the model that a symbol goes before a letter.
fn garbled(fortune: &str) -> bool {
    use unicode_properties::{GeneralCategoryGroup as Group, UnicodeGeneralCategory};
    let mut chars = fortune.chars().peekable();
    while let Some(c) = chars.next() {
        let group = c.general_category_group();
        let glued = chars.peek().is_some_and(|n| n.is_alphabetic());
        if !c.is_ascii()
            && (group == Group::Other || matches!(group, Group::Symbol | Group::Number) && glued)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fortune_is_one_line() {
        let body = "¡Qué raro\n  y maravilloso!\n%\nSi deseas ser un escritor, ¡escribe!\n%\n";
        let lines: Vec<String> = split(body).collect();
        assert_eq!(lines, ["¡Qué raro y maravilloso!", "Si deseas ser un escritor, ¡escribe!"]);
    }

    #[test]
    fn garbled_fortunes_are_left_out() {
        let body = "futur}ìÚ{Ö¤r²®«\n%\nvue\u{91}\u{9c}!\n%\nE = mc², 20 €, «sí»\n%\n";
        let lines: Vec<String> = split(body).collect();
        assert_eq!(lines, ["E = mc², 20 €, «sí»"]);
    }
}
