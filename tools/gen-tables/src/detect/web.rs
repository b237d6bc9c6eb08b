//! How often web text uses symbols: the symbols of each language's web
//! word frequencies (wordfreq 3.1.1, pinned in `inputs.toml`), per
//! character of text.
//!
//! The training text (manuals, handbooks, UI messages) has hardly any `©`,
//! `°`, `®` or `™`; web pages have them everywhere. wordfreq's tokens keep
//! the symbols of Unicode category `So` (its tokenizer drops punctuation,
//! currency signs and digits), so these rates cover `° © ® ™` and the like;
//! currency signs come from `currency.tsv`, typographic punctuation from the
//! training text's typographic forms (`model::typographic`).
//!
//! Box drawing (`═══`, `│`) is among them: runs of it are as much a part of
//! text on screens as of DOS files.
//!
//! Names and loanwords are the other thing web text has that the training
//! text hardly does, in a language written in ASCII alone (English, by
//! CLDR's main exemplar characters, `alphabets.tsv`): every letter beyond
//! ASCII in it is borrowed (`café`, `José`, `Müller`, `μm`). Unseen, the
//! steps into and out of such a letter cost the ceiling, 25 bits each, and
//! one name in a long English UTF-8 text lost to a DOS reading of its two
//! bytes as symbols. (Languages with letters of their own lost more in
//! telling encodings apart than they gained: `m²` in Finnish read as
//! ISO-8859-10's `mĒ`.)
//!
//! And apostrophes: the training text is formal, and English in particular
//! hardly has a contraction (`it's`, `I'd`, `don't`: one curly apostrophe in
//! 400,000 characters), while web text has one every few hundred
//! characters, as often curly as straight. Unseen, `I’d` cost 42 bits in
//! English, and an English line with curly quotes and `naïve` read as
//! Slovak in windows-1250 (`naďve`). The words of every language's web text
//! with an apostrophe between letters are counted, written curly (a straight
//! apostrophe is ASCII, the same in every reading).
//!
//! `count web-symbols --wordfreq DIR` writes `data/detect/symbols.tsv`:
//! language TAB word (with a symbol) TAB occurrences per billion characters,
//! `data/detect/borrowed.tsv`, the same for the words with a letter beyond
//! ASCII of the languages written in ASCII, and `data/detect/apostrophes.tsv`
//! for the words with an apostrophe.
//! The `emit` step adds each word's character pairs to its language's model
//! as if the training text had them at that rate, between spaces.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::model::is_letter;
use crate::emit::Output;

/// The wordfreq list of each model's language: the large one where there
/// is one. Serbian and Croatian share wordfreq's `sh`; Norwegian is `nb`.
const LISTS: [(&str, &str); 35] = [
    ("ar", "large_ar"),
    ("bg", "small_bg"),
    ("ca", "large_ca"),
    ("cs", "large_cs"),
    ("da", "small_da"),
    ("de", "large_de"),
    ("el", "small_el"),
    ("en", "large_en"),
    ("es", "large_es"),
    ("fa", "small_fa"),
    ("fi", "large_fi"),
    ("fr", "large_fr"),
    ("he", "large_he"),
    ("hi", "small_hi"),
    ("hr", "small_sh"),
    ("hu", "small_hu"),
    ("is", "small_is"),
    ("it", "large_it"),
    ("lt", "small_lt"),
    ("lv", "small_lv"),
    ("mk", "large_mk"),
    ("nl", "large_nl"),
    ("no", "large_nb"),
    ("pl", "large_pl"),
    ("pt", "large_pt"),
    ("ro", "small_ro"),
    ("ru", "large_ru"),
    ("sk", "small_sk"),
    ("sl", "small_sl"),
    ("sr", "small_sh"),
    ("sv", "large_sv"),
    ("ta", "small_ta"),
    ("tr", "small_tr"),
    ("uk", "large_uk"),
    ("ur", "small_ur"),
];

/// Words rarer than this (per billion characters) are left out...
const MIN_RATE: u64 = 10;
/// ...and so are all but this many of each language's commonest.
const MAX_WORDS: usize = 400;

pub fn path() -> PathBuf {
    super::data().join("symbols.tsv")
}

/// Where the words with a borrowed letter go.
pub fn borrowed_path() -> PathBuf {
    super::data().join("borrowed.tsv")
}

/// Where the words with an apostrophe go.
pub fn apostrophes_path() -> PathBuf {
    super::data().join("apostrophes.tsv")
}

/// Whether `word` has an apostrophe between two letters (`it's`, `dell'anno`).
fn has_apostrophe(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    chars.windows(3).any(|w| w[1] == '\'' && w[0].is_alphabetic() && w[2].is_alphabetic())
}

/// Whether `c` counts: a symbol of a single-byte encoding's world (below
/// the far scripts: emoji and pictographs are UTF-8's alone) that is not a
/// letter.
fn counts(c: char) -> bool {
    !c.is_ascii() && c < super::model::FAR_SCRIPTS && !is_letter(c) && !c.is_whitespace()
}

/// Whether `c` is a letter beyond ASCII in a script of letters (one a
/// language written in ASCII borrows).
fn borrowed(c: char) -> bool {
    !c.is_ascii() && c < super::model::FAR_SCRIPTS && is_letter(c)
}

pub fn count(out: &mut Output, wordfreq: &Path) -> Result<()> {
    let header = |what: &str| {
        format!(
            "# detect: words with {what} in web text (wordfreq 3.1.1 word frequencies): \
             language TAB word TAB occurrences per billion characters (a word's characters and \
             the space after it).\n"
        )
    };
    let mut symbols = header("symbols");
    let mut borrowed_words =
        header("a letter beyond ASCII (of a language written in ASCII alone, by CLDR)");
    let mut apostrophes = header("an apostrophe between letters, written curly");
    let alphabets_path = crate::cldr::alphabets_path();
    let alphabets = crate::cldr::read_alphabets(
        &std::fs::read_to_string(&alphabets_path)
            .with_context(|| format!("reading {} (run `count cldr`)", alphabets_path.display()))?,
    )?;
    for (language, list) in LISTS {
        let words = crate::charfreq::read_wordfreq(wordfreq, list)?;
        let chars: f64 = words.iter().map(|(w, f)| f * (w.chars().count() + 1) as f64).sum();
        let in_ascii = alphabets.get(language).is_some_and(|a| a.main.is_empty());
        let kept = |keep: &dyn Fn(&str) -> bool| -> Vec<(&str, u64)> {
            let mut kept: Vec<(&str, u64)> = words
                .iter()
                .filter(|(w, _)| keep(w))
                .map(|(w, f)| (w.as_str(), (f / chars * 1e9).round() as u64))
                .filter(|&(w, rate)| rate >= MIN_RATE && !w.contains(['\t', '\n']))
                .collect();
            kept.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            kept.truncate(MAX_WORDS);
            kept.sort();
            kept
        };
        for (word, rate) in kept(&|w| w.chars().any(counts)) {
            writeln!(symbols, "{language}\t{word}\t{rate}")?;
        }
        if in_ascii {
            for (word, rate) in kept(&|w| w.chars().any(borrowed)) {
                writeln!(borrowed_words, "{language}\t{word}\t{rate}")?;
            }
        }
        for (word, rate) in kept(&has_apostrophe) {
            writeln!(apostrophes, "{language}\t{}\t{rate}", word.replace('\'', "\u{2019}"))?;
        }
    }
    out.file(&path(), symbols.as_bytes())?;
    out.file(&borrowed_path(), borrowed_words.as_bytes())?;
    out.file(&apostrophes_path(), apostrophes.as_bytes())
}

/// Reads `symbols.tsv`, `borrowed.tsv` or `apostrophes.tsv`: per language, (word, rate per
/// billion characters).
pub fn read(tsv: &str) -> Result<BTreeMap<String, Vec<(String, u64)>>> {
    let mut map: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [language, word, rate] = f[..] else { bail!("web words: bad line {line:?}") };
        map.entry(language.to_owned()).or_default().push((word.to_owned(), rate.parse()?));
    }
    Ok(map)
}
