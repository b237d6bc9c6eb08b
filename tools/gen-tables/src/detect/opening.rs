//! How often Spanish opens an exclamation with `¡` and a question with `¿`,
//! from everyday Spanish sentences: the proverbs and quotations of Debian's
//! `fortunes-es` (pinned in `inputs.toml`; the package's own `off/` set is
//! left out).
//!
//! The training text (manuals) has 28 `!`, no `¡` and two `¿` in 400,000
//! characters of Spanish; messages, shops and social media exclaim and ask
//! all the time. Unseen, `¡` and the step from it to a letter cost Spanish
//! about 35 bits, and `Hola ¿cómo estás? ¡Muy bien!` in windows-1252 read as
//! Big5 at 0.95 (which takes each mark and the letter after it as one
//! character). Like the web words of `web.rs`, each word a mark opens is
//! added to the model at its rate, between spaces.
//!
//! `count opening-marks DEB` writes `data/detect/opening.tsv`: language TAB
//! the mark and the word it opens TAB occurrences per billion characters.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::charmaps::{unpack, Pin};
use crate::emit::{self, Output};

/// The marks that open a clause, and the language whose text is counted.
const MARKS: [char; 2] = ['¡', '¿'];
const LANGUAGE: &str = "es";

/// Where the counts go.
pub fn path() -> PathBuf {
    emit::data_dir().join("detect").join("opening.tsv")
}

/// The `count opening-marks` step: the pinned `fortunes-es` package to
/// `opening.tsv`.
pub fn count(out: &mut Output, deb: &Path) -> Result<()> {
    let pin = Pin::read(&["detect", "opening-marks"])?;
    let dir = unpack(deb, &pin)?;
    let folder = dir.path().join("usr/share/games/fortunes/es");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&folder).with_context(|| format!("{}", folder.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "fortunes") {
            files.push(path);
        }
    }
    files.sort();
    let mut text = String::new();
    for file in &files {
        let body = std::fs::read_to_string(file).with_context(|| format!("{}", file.display()))?;
        // Fortunes are separated by lines of `%`.
        for line in body.lines().filter(|l| l.trim() != "%") {
            text.push_str(line.trim());
            text.push(' ');
        }
    }
    let (words, characters) = opened_words(&text);
    let mut tsv = format!(
        "# detect: words opened by `¡` or `¿` in the proverbs and quotations of Debian \
         fortunes-es {} ({} characters; see src/detect/opening.rs): language TAB word TAB \
         occurrences per billion characters. Made by: cargo run -p gen-tables -- count \
         opening-marks {}\n",
        pin.version, characters, pin.file,
    );
    for (word, n) in words {
        let rate = (n as f64 * 1e9 / characters as f64).round() as u64;
        writeln!(tsv, "{LANGUAGE}\t{word}\t{rate}")?;
    }
    out.file(&path(), tsv.as_bytes())
}

/// Each mark of [`MARKS`] with the letters after it (`¡Qué`), counted, and
/// the characters of `text`. A mark no letter follows is left out.
fn opened_words(text: &str) -> (BTreeMap<String, u64>, usize) {
    let mut words: BTreeMap<String, u64> = BTreeMap::new();
    for (at, c) in text.char_indices().filter(|(_, c)| MARKS.contains(c)) {
        let start = at + c.len_utf8();
        let letters =
            text[start..].find(|c: char| !c.is_alphabetic()).unwrap_or(text.len() - start);
        if letters > 0 {
            *words.entry(text[at..start + letters].to_owned()).or_default() += 1;
        }
    }
    (words, text.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_counted_with_the_word_it_opens() {
        let (words, characters) = opened_words("¡Qué bien! Dijo: ¿qué? ¡Qué! ¡ no");
        let words: Vec<(&str, u64)> = words.iter().map(|(w, &n)| (w.as_str(), n)).collect();
        assert_eq!(words, [("¡Qué", 2), ("¿qué", 1)]);
        assert_eq!(characters, 33);
    }
}
