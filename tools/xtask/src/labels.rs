//! Labelled folders and the "right answer" test shared by `xtask compare`
//! and `xtask reliability`.
//!
//! A folder has a `labels.tsv` with a header: the path and the true encoding
//! first, then optional columns found by name (`language`, `kind`,
//! `declared`, `length`). An answer is right when it decodes the file to the
//! same text as the true encoding; for a file labelled `ASCII` any
//! ASCII-compatible answer is right; for a file labelled `binary` only the
//! answer "not text" is right, and "not text" is wrong for every other file.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use charsight::Charset;

/// One labelled file.
pub struct Labelled {
    pub path: PathBuf,
    /// The path as written in labels.tsv.
    pub name: String,
    /// The true encoding, `ASCII` or `binary`.
    pub label: String,
    pub language: Option<String>,
    /// The kind of file (`declared`, `plain`, `dos`, …), where given.
    pub kind: Option<String>,
    /// The label the file declares itself, where given and not empty.
    pub declared: Option<String>,
    pub length: Option<usize>,
}

impl Labelled {
    pub fn is_binary(&self) -> bool {
        self.label.eq_ignore_ascii_case("binary")
    }
}

/// Reads `dir/labels.tsv`.
pub fn read(dir: &Path) -> Result<Vec<Labelled>> {
    let tsv = std::fs::read_to_string(dir.join("labels.tsv"))
        .with_context(|| format!("reading {}/labels.tsv", dir.display()))?;
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().context("labels.tsv is empty")?.split('\t').collect();
    let column = |name: &str| header.iter().position(|&h| h == name);
    let (length, language, kind, declared) =
        (column("length"), column("language"), column("kind"), column("declared"));
    let mut files = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 2 {
            bail!("labels.tsv: bad line {line:?}");
        }
        let text = |i: Option<usize>| {
            i.and_then(|i| fields.get(i)).filter(|v| !v.is_empty()).map(|v| v.to_string())
        };
        files.push(Labelled {
            path: dir.join(fields[0]),
            name: fields[0].to_owned(),
            label: fields[1].to_owned(),
            language: text(language),
            kind: text(kind),
            declared: text(declared),
            length: length.and_then(|i| fields.get(i)?.parse().ok()),
        });
    }
    Ok(files)
}

/// What a tool said about a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not text.
    Binary,
    Charset(Charset),
    /// An encoding charsight has no decoder for, by its canonical name.
    Name(String),
}

impl Answer {
    /// The answer for an encoding name as another tool gives it (`cp1252`,
    /// `WINDOWS-1252`, `mac_roman`, `utf_16_le`…); `None` or an empty name
    /// means "not text".
    pub fn from_name(name: Option<&str>) -> Answer {
        let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
            return Answer::Binary;
        };
        let canonical = canonical_name(name);
        match charsight::label::resolve(canonical.as_bytes()) {
            Ok(charset) => Answer::Charset(charset),
            Err(_) => Answer::Name(canonical.to_owned()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Answer::Binary => "binary",
            Answer::Charset(c) => c.name(),
            Answer::Name(n) => n,
        }
    }
}

/// Python codec names (and a few of uchardet's) that `label::resolve` does
/// not take, to the names labels.tsv uses.
const NAMES: [(&str, &str); 27] = [
    ("mac_roman", "macintosh"),
    ("mac-roman", "macintosh"),
    ("mac_cyrillic", "x-mac-cyrillic"),
    ("mac-cyrillic", "x-mac-cyrillic"),
    ("mac_latin2", "mac-centraleurope"),
    ("mac-centraleurope", "mac-centraleurope"),
    ("mac_greek", "mac-greek"),
    ("MacGreek", "mac-greek"),
    ("MacIceland", "mac-iceland"),
    ("MacTurkish", "mac-turkish"),
    ("mac_iceland", "mac-iceland"),
    ("mac_turkish", "mac-turkish"),
    ("cp037", "IBM037"),
    ("cp500", "IBM500"),
    ("cp875", "IBM875"),
    ("cp1026", "IBM1026"),
    ("cp424", "IBM424"),
    ("koi8_t", "KOI8-T"),
    ("cp1125", "CP1125"),
    ("hz", "HZ-GB-2312"),
    ("utf_8_sig", "UTF-8"),
    ("utf-8-sig", "UTF-8"),
    ("big5hkscs", "Big5"),
    ("cp949", "EUC-KR"),
    ("iso2022_jp", "ISO-2022-JP"),
    ("iso2022_kr", "ISO-2022-KR"),
    ("tis-620", "windows-874"),
];

fn canonical_name(name: &str) -> &str {
    NAMES.iter().find(|(from, _)| from.eq_ignore_ascii_case(name)).map_or(name, |(_, to)| to)
}

/// Names compared without case, `-` and `_` (`KOI8-T`, `koi8_t`).
fn same_name(a: &str, b: &str) -> bool {
    fn squeeze(s: &str) -> impl Iterator<Item = char> + '_ {
        s.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase)
    }
    squeeze(a).eq(squeeze(b))
}

/// Whether `answer` decodes `bytes` as the true encoding `label` does.
pub fn right(bytes: &[u8], label: &str, answer: &Answer) -> bool {
    if label.eq_ignore_ascii_case("binary") {
        return *answer == Answer::Binary;
    }
    let answer = match answer {
        Answer::Binary => return false,
        Answer::Name(name) => return same_name(name, label),
        Answer::Charset(c) => *c,
    };
    if label.eq_ignore_ascii_case("ascii") {
        return bytes.is_ascii() && answer.is_ascii_compatible() || answer.name() == "UTF-8";
    }
    match charsight::label::resolve(label.as_bytes()) {
        Ok(truth) => truth == answer || truth.decode(bytes).0 == answer.decode(bytes).0,
        // An encoding charsight cannot decode: right only by name.
        Err(_) => same_name(answer.name(), label),
    }
}

/// `right` of `files`, as a percentage.
pub fn pct(right: usize, files: usize) -> String {
    if files == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", 100.0 * right as f64 / files as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Answer::from_name(None), Answer::Binary);
        assert_eq!(Answer::from_name(Some("")), Answer::Binary);
        assert_eq!(Answer::from_name(Some("cp1252")), Answer::Charset(Charset::Windows1252));
        assert_eq!(Answer::from_name(Some("cp1026")), Answer::Charset(Charset::Ibm1026));
        assert!(right(b"abc", "IBM1026", &Answer::from_name(Some("cp1026"))));
        // IBM1047 has no decoder: compared by name.
        assert_eq!(Answer::from_name(Some("IBM1047")), Answer::Name("IBM1047".into()));
        assert!(right(b"abc", "ibm_1047", &Answer::from_name(Some("IBM1047"))));
        assert!(!right(b"abc", "binary", &Answer::from_name(Some("ascii"))));
        assert!(right(b"\x00\xff", "binary", &Answer::Binary));
        assert!(!right(b"abc", "ASCII", &Answer::Binary));
    }
}
