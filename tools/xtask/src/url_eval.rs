//! `xtask url-eval`: accuracy of `charsight::url` on search keywords in URLs,
//! by encoding and keyword length, against two baselines in the same run.
//!
//! Keywords come from one of two sources:
//!
//! - evaluation (`--words TGZ`): the names of countries and languages in
//!   each language of the Unicode CLDR (the npm package
//!   `cldr-localenames-full@48.2.0`, sha256 [`CLDR_SHA256`]), which no model
//!   of charsight was trained on;
//! - development (`--dev`): the held-out lines of `../shared/text`
//!   (`testkit::held_out`; the language models were trained on the others),
//!   on which the default floor (`--min-confidence`) was chosen;
//! - development, another kind of text (`--dictionaries DIR`): the words of
//!   the Hunspell dictionaries of the npm packages `dictionary-<lang>`
//!   (`npm pack dictionary-de …` into DIR; stems, names and loanwords that
//!   running text seldom holds), with the held-out lines for the languages
//!   that have none there (Chinese, Japanese, Finnish); the short-string
//!   temperature was chosen on it (`docs/urls.md`).
//!
//! Keywords of 1 to 8 characters (whole words in languages written with
//! spaces, runs cut to length in Chinese and Japanese; single characters
//! too) are encoded in each encoding a web form submits in, written raw or
//! percent-escaped (upper or lower case) into realistic URL shapes
//! (`?wd=`, `?q=`, `?word=`, path segments) on a host under the language's
//! country TLD half of the time and under `.com` the other half. Also:
//! ASCII-only URLs (never to change) and broken escapes (kept byte for byte
//! while the rest is fixed).
//!
//! A case is right when the keyword's text comes out exactly; kept when
//! charsight left it as it was (below the floor); wrong otherwise (a wrong
//! rewrite). Baselines: chardetng on the percent-decoded URL (with the
//! TLD), and chardet 7.7 (`tools/xtask/py/requirements.txt`, in the xtask
//! venv) on the keyword's bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{bail, Context, Result};
use charsight::url::{UrlDecoder, DEFAULT_MIN_CONFIDENCE};
use charsight::Charset;
use encoding_rs::Encoding;
use sha2::Digest;

use crate::venv;

/// The sha256 of `cldr-localenames-full-48.2.0.tgz` (`npm pack
/// cldr-localenames-full@48.2.0`).
pub const CLDR_SHA256: &str = "7f2ac7fd3b5d90f56ad127f9ed5ae67b58b3e556818f55530b9f47bb81bcde57";

/// Options of `url-eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The CLDR locale names: the tarball of `npm pack
    /// cldr-localenames-full@48.2.0` (the evaluation keywords).
    #[arg(long, value_name = "TGZ", required_unless_present_any = ["dev", "dictionaries"])]
    words: Option<PathBuf>,
    /// Take the keywords from the held-out lines of ../shared/text instead
    /// (the development set the floor was chosen on; the language models
    /// were trained on the other lines).
    #[arg(long, conflicts_with = "words")]
    dev: bool,
    /// Take the keywords from the Hunspell dictionaries in DIR (the npm
    /// packages `dictionary-<lang>`, as `npm pack` writes them), and from
    /// the held-out lines for languages without one.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["words", "dev"])]
    dictionaries: Option<PathBuf>,
    /// Keywords per encoding and length.
    #[arg(long, default_value_t = 200)]
    per_cell: usize,
    /// The floor to evaluate charsight with (default: the library's).
    #[arg(long, value_name = "P")]
    min_confidence: Option<f32>,
    /// Skip the chardet baseline (no Python needed).
    #[arg(long)]
    no_chardet: bool,
    /// Print each wrong case of charsight.
    #[arg(long)]
    show_errors: bool,
}

/// The encodings and the languages whose keywords each carries.
const SETS: [(Charset, &[&str]); 16] = [
    (
        Charset::Utf8,
        &["ja", "ko", "zh-Hans", "zh-Hant", "ru", "uk", "el", "tr", "pl", "cs", "de", "fr"],
    ),
    (Charset::Windows1252, &["de", "fr", "es", "pt", "it", "nl", "sv"]),
    (Charset::Iso8859_15, &["fr", "de", "fi", "et"]),
    (Charset::Windows1250, &["pl", "cs", "hu", "sk", "hr", "sl", "ro"]),
    (Charset::Iso8859_2, &["pl", "cs", "hu", "sk", "hr", "sl"]),
    (Charset::Windows1253, &["el"]),
    (Charset::Iso8859_7, &["el"]),
    (Charset::Windows1254, &["tr"]),
    (Charset::Windows1251, &["ru", "uk", "bg", "mk", "sr"]),
    (Charset::Koi8R, &["ru"]),
    (Charset::Koi8U, &["uk"]),
    (Charset::Gbk, &["zh-Hans"]),
    (Charset::Big5, &["zh-Hant"]),
    (Charset::ShiftJis, &["ja"]),
    (Charset::EucJp, &["ja"]),
    (Charset::EucKr, &["ko"]),
];

const LENGTHS: std::ops::RangeInclusive<usize> = 1..=8;

/// Languages written without spaces between words: their keywords are
/// runs cut to length.
const UNSPACED: [&str; 3] = ["ja", "zh-Hans", "zh-Hant"];

/// The country TLD of a language's sites.
fn country(lang: &str) -> &'static str {
    match lang {
        "ja" => "jp",
        "ko" => "kr",
        "zh-Hans" => "cn",
        "zh-Hant" => "tw",
        "ru" => "ru",
        "uk" => "ua",
        "el" => "gr",
        "tr" => "tr",
        "pl" => "pl",
        "cs" => "cz",
        "de" => "de",
        "fr" => "fr",
        "es" => "es",
        "pt" => "pt",
        "it" => "it",
        "nl" => "nl",
        "sv" => "se",
        "fi" => "fi",
        "et" => "ee",
        "hu" => "hu",
        "sk" => "sk",
        "hr" => "hr",
        "sl" => "si",
        "ro" => "ro",
        "bg" => "bg",
        "mk" => "mk",
        "sr" => "rs",
        _ => "com",
    }
}

fn fnv(bytes: &[u8], salt: u64) -> u64 {
    testkit::fnv1a64(bytes.iter().copied(), salt)
}

/// Keywords of each length from `lines` of `lang`: the first `len`
/// characters of each run of letters in unspaced languages, whole words in
/// the others; and each non-ASCII letter as a keyword of one character.
fn keywords(lang: &str, lines: &[String]) -> BTreeMap<usize, BTreeSet<String>> {
    let unspaced = UNSPACED.contains(&lang);
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for line in lines {
        for run in line.split(|c: char| !c.is_alphanumeric()).filter(|r| !r.is_empty()) {
            let chars: Vec<char> = run.chars().collect();
            if unspaced {
                for len in LENGTHS.filter(|&len| len <= chars.len()) {
                    out.entry(len).or_default().insert(chars[..len].iter().collect());
                }
            } else if LENGTHS.contains(&chars.len()) {
                out.entry(chars.len()).or_default().insert(run.to_owned());
            }
            for c in chars.iter().filter(|c| !c.is_ascii()) {
                out.entry(1).or_default().insert(c.to_string());
            }
        }
    }
    out
}

/// The CLDR names of countries and languages, by language, from the
/// tarball (checked against [`CLDR_SHA256`]).
fn cldr_names(tgz: &Path) -> Result<BTreeMap<String, Vec<String>>> {
    let bytes = std::fs::read(tgz).with_context(|| format!("reading {}", tgz.display()))?;
    let sha = sha2::Sha256::digest(&bytes).iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    });
    if sha != CLDR_SHA256 {
        bail!(
            "{}: sha256 {sha}, expected {CLDR_SHA256} (cldr-localenames-full@48.2.0)",
            tgz.display()
        );
    }
    let wanted: BTreeSet<&str> = SETS.iter().flat_map(|s| s.1.iter().copied()).collect();
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    for entry in archive.entries()? {
        let mut entry = entry?;
        let path = entry.path()?.to_string_lossy().into_owned();
        let parts: Vec<&str> = path.split('/').collect();
        let [_, "main", locale, file @ ("territories.json" | "languages.json")] = parts[..] else {
            continue;
        };
        let lang = if locale == "zh" { "zh-Hans" } else { locale };
        if !wanted.contains(lang) {
            continue;
        }
        let key = file.trim_end_matches(".json");
        let mut text = String::new();
        entry.read_to_string(&mut text)?;
        let json: serde_json::Value = serde_json::from_str(&text)?;
        let map = &json["main"][locale]["localeDisplayNames"][key];
        let list = names.entry(lang.to_owned()).or_default();
        list.extend(
            map.as_object()
                .into_iter()
                .flatten()
                .filter_map(|(_, v)| v.as_str())
                .map(str::to_owned),
        );
    }
    for lang in wanted {
        if names.get(lang).is_none_or(Vec::is_empty) {
            bail!("{}: no names for {lang}", tgz.display());
        }
    }
    Ok(names)
}

/// The words of the Hunspell dictionary of each language of [`SETS`] that
/// has one in `dir` (`dictionary-<lang>-<version>.tgz`, as `npm pack`
/// writes it): each stem of `package/index.dic`, without its flags.
fn dictionary_words(dir: &Path) -> Result<BTreeMap<String, Vec<String>>> {
    let wanted: BTreeSet<&str> = SETS.iter().flat_map(|s| s.1.iter().copied()).collect();
    let mut words = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(lang) = name.strip_prefix("dictionary-").and_then(|n| n.split('-').next()) else {
            continue;
        };
        if !name.ends_with(".tgz") || !wanted.contains(lang) {
            continue;
        }
        let file = std::fs::File::open(&path)?;
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
        for entry in archive.entries()? {
            let mut entry = entry?;
            if entry.path()?.to_string_lossy() != "package/index.dic" {
                continue;
            }
            let mut text = String::new();
            entry.read_to_string(&mut text).with_context(|| format!("{}", path.display()))?;
            // The Estonian dictionary's š and ž were read from ISO-8859-13
            // as ISO-8859-1 (ð, þ): read back.
            let text = match lang {
                "et" => {
                    text.replace('ð', "š").replace('Ð', "Š").replace('þ', "ž").replace('Þ', "Ž")
                }
                _ => text,
            };
            let stems = text.lines().skip(1).map(|l| l.split('/').next().unwrap_or(l).trim());
            let stems = stems.filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic));
            words.insert(lang.to_owned(), stems.map(str::to_owned).collect());
        }
    }
    Ok(words)
}

/// One labelled URL.
struct Case {
    encoding: Charset,
    len: usize,
    keyword: String,
    url: Vec<u8>,
    /// Where the keyword is in `url`.
    span: std::ops::Range<usize>,
    /// Whether the keyword is in the query.
    in_query: bool,
    /// The URL with escapes decoded (what chardetng sees).
    decoded: Vec<u8>,
    /// The keyword's bytes in its encoding.
    bytes: Vec<u8>,
    /// The host's TLD: the language's country's, or `com`.
    tld: &'static str,
}

fn escape_into(out: &mut Vec<u8>, bytes: &[u8], style: u64, in_query: bool) {
    for &b in bytes {
        match b {
            b' ' if in_query => out.push(b'+'),
            b' ' => out.extend_from_slice(b"%20"),
            0x80.. if style == 0 => out.push(b),
            0x80..
            | b'%'
            | b'&'
            | b'='
            | b'#'
            | b'?'
            | b'/'
            | b'+'
            | b'\\'
            | b'^'
            | b'|'
            | b'`' => {
                let hex = if style == 1 { format!("%{b:02X}") } else { format!("%{b:02x}") };
                out.extend_from_slice(hex.as_bytes());
            }
            _ => out.push(b),
        }
    }
}

/// Percent-decodes a URL (`+` as a space in queries), as chardetng sees it.
fn unescape(url: &[u8], in_query: bool) -> Vec<u8> {
    let mut decoded = Vec::new();
    let mut i = 0;
    while i < url.len() {
        let hex = url.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (url[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                decoded.push(b);
                i += 3;
            }
            (b'+', _) if in_query => {
                decoded.push(b' ');
                i += 1;
            }
            (b, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    decoded
}

/// The case of `keyword` in `encoding`; `None` when the encoding cannot
/// write it. `escapes_only` rules out raw bytes (for the broken escapes).
fn make_case(encoding: Charset, lang: &str, keyword: &str, escapes_only: bool) -> Option<Case> {
    let (bytes, _, unmappable) = whatwg(encoding).encode(keyword);
    if unmappable {
        return None;
    }
    let h = fnv(keyword.as_bytes(), encoding as u64);
    let tld = if h >> 40 & 1 == 0 { country(lang) } else { "com" };
    // Raw bytes a quarter of the time, upper-case escapes half, lower-case a quarter.
    let style = [0, 1, 1, 2][(h % 4) as usize].max(u64::from(escapes_only));
    let site = ["search", "bbs", "shop", "news", "forum"][(h >> 8) as usize % 5];
    let (prefix, suffix, in_query) = match (h >> 16) % 5 {
        0 => (format!("http://www.{site}.{tld}/s?wd="), "&rsv_bp=1", true),
        1 => (format!("https://{site}.{tld}/search?q="), "&hl=en&start=10", true),
        2 => (format!("http://{site}.{tld}/search.php?word="), "&page=2", true),
        3 => (format!("http://{site}.{tld}/tag/"), "/index.html", false),
        _ => (format!("https://{site}.{tld}/wiki/"), "", false),
    };
    let mut url = prefix.into_bytes();
    let start = url.len();
    escape_into(&mut url, &bytes, style, in_query);
    let span = start..url.len();
    url.extend_from_slice(suffix.as_bytes());
    let decoded = unescape(&url, in_query);
    Some(Case {
        encoding,
        len: keyword.chars().count(),
        keyword: keyword.to_owned(),
        url,
        span,
        in_query,
        decoded,
        bytes: bytes.into_owned(),
        tld,
    })
}

/// GBK is decoded as gb18030, its superset (as the library does).
fn whatwg(charset: Charset) -> &'static Encoding {
    match charset {
        Charset::Gbk => encoding_rs::GB18030,
        other => other.to_encoding_rs().expect("the candidates are WHATWG encodings"),
    }
}

fn decodes_to(encoding: &'static Encoding, bytes: &[u8], keyword: &str) -> bool {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .is_some_and(|t| t == keyword)
}

/// Baseline: chardetng on the percent-decoded URL, with the host's TLD.
fn chardetng(case: &Case) -> bool {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(&case.decoded, true);
    let tld = (case.tld != "com").then_some(case.tld.as_bytes());
    let mut encoding = detector.guess(tld, true);
    if encoding == encoding_rs::GBK {
        encoding = encoding_rs::GB18030;
    }
    decodes_to(encoding, &case.bytes, &case.keyword)
}

/// Baseline: chardet on each keyword's bytes, in one Python process.
fn chardet(cases: &[Case]) -> Result<Vec<bool>> {
    let python = venv::python()?;
    let mut child = venv::command(&python, "chardet_bytes.py")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("running chardet_bytes.py")?;
    let mut input = String::new();
    for case in cases {
        for b in &case.bytes {
            write!(input, "{b:02x}")?;
        }
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output()?;
    writer.join().expect("the writer does not panic")?;
    if !output.status.success() {
        bail!("chardet_bytes.py failed: {}", output.status);
    }
    let names = String::from_utf8(output.stdout)?;
    let right = names.lines().zip(cases).map(|(name, case)| {
        let charset = charsight::label::resolve(name.as_bytes()).ok();
        charset.and_then(|c| c.to_encoding_rs()).is_some_and(|e| {
            let e = if e == encoding_rs::GBK { encoding_rs::GB18030 } else { e };
            decodes_to(e, &case.bytes, &case.keyword)
        })
    });
    Ok(right.collect())
}

/// What charsight made of a case.
#[derive(Clone, Copy, PartialEq)]
enum Outcome {
    Right,
    Kept,
    Wrong,
}

/// charsight's outcome, its confidence and whether its reading (rewritten
/// or not) was the keyword; no confidence when no reading was clean.
fn charsight(decoder: &UrlDecoder, case: &Case, show_errors: bool) -> (Outcome, Option<f32>, bool) {
    let found = decoder.decode(&case.url);
    let component = found.components.first();
    let reading_right =
        found.components.len() == 1 && component.is_some_and(|c| c.text == case.keyword);
    let outcome = match component.and_then(|c| c.kept) {
        Some(_) => Outcome::Kept,
        None if reading_right => Outcome::Right,
        None => Outcome::Wrong,
    };
    if outcome == Outcome::Wrong && show_errors {
        let got: Vec<_> =
            found.components.iter().map(|c| (c.charset, c.text.as_str(), c.confidence)).collect();
        eprintln!(
            "{} {:?} {} -> {got:?}",
            case.encoding,
            case.keyword,
            String::from_utf8_lossy(&case.url)
        );
    }
    let confidence = component.filter(|c| c.clean).map(|c| c.confidence);
    (outcome, confidence, reading_right)
}

/// Counts by encoding and length.
#[derive(Default)]
struct Tally(BTreeMap<(usize, usize), [usize; 4]>);

impl Tally {
    /// Counts a case: right, kept, wrong, total.
    fn add(&mut self, row: usize, len: usize, outcome: Outcome) {
        let cell = self.0.entry((row, len)).or_default();
        cell[outcome as usize] += 1;
        cell[3] += 1;
    }

    fn sum(&self, rows: &[usize], lens: std::ops::RangeInclusive<usize>) -> [usize; 4] {
        let mut acc = [0; 4];
        for &row in rows {
            for len in lens.clone() {
                let cell = self.0.get(&(row, len)).copied().unwrap_or_default();
                acc.iter_mut().zip(cell).for_each(|(a, c)| *a += c);
            }
        }
        acc
    }

    /// A table of the share of `what` (0 right, 1 kept, 2 wrong).
    fn table(&self, title: &str, what: usize) -> String {
        let mut out = format!("\n{title}\n\n| encoding |");
        for len in LENGTHS {
            write!(out, " {len} |").unwrap();
        }
        out.push_str(" 2-8 |\n|---|");
        out.push_str(&"---:|".repeat(LENGTHS.count() + 1));
        out.push('\n');
        let percent = |cell: [usize; 4]| {
            if cell[3] == 0 {
                "-".to_owned()
            } else {
                format!("{:.1}", 100.0 * cell[what] as f64 / cell[3] as f64)
            }
        };
        let all: Vec<usize> = (0..SETS.len()).collect();
        let rows =
            SETS.iter().map(|s| s.0.name()).enumerate().map(|(i, n)| (vec![i], n.to_owned()));
        for (rows, name) in rows.chain([(all, "**all**".to_owned())]) {
            write!(out, "| {name} |").unwrap();
            for len in LENGTHS {
                write!(out, " {} |", percent(self.sum(&rows, len..=len))).unwrap();
            }
            writeln!(out, " {} |", percent(self.sum(&rows, 2..=8))).unwrap();
        }
        out
    }
}

/// Confidence against accuracy, and what each floor would keep and get
/// wrong.
#[derive(Default)]
struct Calibration(Vec<(f32, bool)>);

impl Calibration {
    const BOUNDS: [f32; 7] = [0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999];

    fn table(&self) -> String {
        let mut out = "\ncharsight confidence against accuracy (clean readings)\n\n\
                       | confidence | answers | mean confidence | right |\n|---|---:|---:|---:|\n"
            .to_owned();
        for (i, &low) in Self::BOUNDS.iter().enumerate() {
            let high = Self::BOUNDS.get(i + 1).copied().unwrap_or(f32::INFINITY);
            let cell: Vec<_> = self.0.iter().filter(|(c, _)| (low..high).contains(c)).collect();
            if cell.is_empty() {
                continue;
            }
            let mean = cell.iter().map(|c| f64::from(c.0)).sum::<f64>() / cell.len() as f64;
            let right = cell.iter().filter(|c| c.1).count() as f64 / cell.len() as f64;
            let upper = if high.is_finite() { high.to_string() } else { "1".to_owned() };
            writeln!(out, "| {low}-{upper} | {} | {mean:.3} | {:.3} |", cell.len(), right).unwrap();
        }
        // Expected calibration error over these bins, and the log loss.
        let n = self.0.len().max(1) as f64;
        let ece: f64 = Self::BOUNDS
            .iter()
            .enumerate()
            .map(|(i, &low)| {
                let high = Self::BOUNDS.get(i + 1).copied().unwrap_or(f32::INFINITY);
                let cell: Vec<_> = self.0.iter().filter(|(c, _)| (low..high).contains(c)).collect();
                let mean: f64 = cell.iter().map(|c| f64::from(c.0)).sum();
                let right = cell.iter().filter(|c| c.1).count() as f64;
                (mean - right).abs() / n
            })
            .sum();
        let loss: f64 = self
            .0
            .iter()
            .map(|&(c, right)| {
                let p = f64::from(c).clamp(1e-6, 1.0 - 1e-6);
                -(if right { p } else { 1.0 - p }).log2()
            })
            .sum::<f64>()
            / n;
        writeln!(out, "\nexpected calibration error {ece:.4}; log loss {loss:.4} bits per answer")
            .unwrap();
        out.push_str(
            "\nfloor against wrong rewrites and kept components (clean readings)\n\n\
                       | floor | wrong rewrites | kept |\n|---:|---:|---:|\n",
        );
        for floor in [0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995] {
            let wrong = self.0.iter().filter(|(c, right)| *c >= floor && !right).count();
            let kept = self.0.iter().filter(|(c, _)| *c < floor).count();
            writeln!(
                out,
                "| {floor} | {wrong} ({:.3}%) | {kept} ({:.1}%) |",
                100.0 * wrong as f64 / n,
                100.0 * kept as f64 / n
            )
            .unwrap();
        }
        out
    }
}

/// The broken-escape cases made from a keyword escaped in UTF-8 (`utf8`):
/// cut in its last character (when what is left still looks like UTF-8: a
/// whole character, or two bytes of the cut one) and with a stray
/// continuation byte; and from a keyword escaped in a legacy encoding
/// (`legacy`), followed by a `%` without hex digits. Each with what the URL
/// must come out as: as it was, or the keyword fixed and the `%ZZ` kept.
fn broken_cases(utf8: &Case, legacy: Option<&Case>) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let (url, end) = (&utf8.url, utf8.span.end);
    let non_ascii: Vec<char> = utf8.keyword.chars().filter(|c| !c.is_ascii()).collect();
    let last_escape = url[..end].windows(3).rposition(|w| w[0] == b'%' && w[1] >= b'8');
    if let (Some(at), Some(last)) = (last_escape, non_ascii.last()) {
        if non_ascii.len() > 1 || last.len_utf8() > 2 {
            let cut = [&url[..at], &url[at + 3..]].concat();
            out.push((cut.clone(), cut));
        }
        let stray = [&url[..end], b"%80", &url[end..]].concat();
        out.push((stray.clone(), stray));
    }
    if let Some(legacy) = legacy {
        let (url, span) = (&legacy.url, legacy.span.clone());
        let bad = [&url[..span.end], b"%ZZ", &url[span.end..]].concat();
        let mut fixed = url[..span.start].to_vec();
        escape_into(&mut fixed, legacy.keyword.as_bytes(), 1, legacy.in_query);
        fixed.extend_from_slice(b"%ZZ");
        fixed.extend_from_slice(&url[span.end..]);
        out.push((bad, fixed));
    }
    out
}

/// Runs the evaluation and prints the tables.
pub fn run(args: &Args) -> Result<()> {
    let held_out = || -> BTreeMap<String, Vec<String>> {
        let langs: BTreeSet<&str> = SETS.iter().flat_map(|s| s.1.iter().copied()).collect();
        langs.into_iter().map(|l| (l.to_owned(), testkit::text_lines(l, true))).collect()
    };
    let lines: BTreeMap<String, Vec<String>> = match (&args.words, &args.dictionaries) {
        (Some(tgz), _) => cldr_names(tgz)?,
        (None, Some(dir)) => {
            let mut lines = held_out();
            lines.extend(dictionary_words(dir)?);
            lines
        }
        (None, None) => held_out(),
    };
    let mut pools: BTreeMap<&str, BTreeMap<usize, BTreeSet<String>>> = BTreeMap::new();
    let mut cases = Vec::new();
    for (encoding, langs) in SETS {
        for len in LENGTHS {
            let mut pool: Vec<(&str, String)> = Vec::new();
            for &lang in langs {
                let words = pools.entry(lang).or_insert_with(|| keywords(lang, &lines[lang]));
                let non_ascii = words.get(&len).into_iter().flatten().filter(|k| !k.is_ascii());
                pool.extend(non_ascii.map(|k| (lang, k.clone())));
            }
            pool.sort_by_key(|(_, k)| fnv(k.as_bytes(), encoding as u64 * 31 + len as u64));
            let made = pool.iter().filter_map(|(lang, k)| make_case(encoding, lang, k, false));
            cases.extend(made.take(args.per_cell));
        }
    }
    let decoder =
        UrlDecoder::new().min_confidence(args.min_confidence.unwrap_or(DEFAULT_MIN_CONFIDENCE));
    let chardet_right = if args.no_chardet { None } else { Some(chardet(&cases)?) };
    let mut tallies: [Tally; 3] = Default::default();
    let mut by_tld: BTreeMap<bool, [usize; 4]> = BTreeMap::new();
    let mut calibration = Calibration::default();
    let mut single = [0usize; 4];
    for (i, case) in cases.iter().enumerate() {
        let row = SETS.iter().position(|s| s.0 == case.encoding).expect("a set's encoding");
        let (outcome, confidence, reading_right) = charsight(&decoder, case, args.show_errors);
        tallies[0].add(row, case.len, outcome);
        let cell = by_tld.entry(case.tld != "com").or_default();
        cell[outcome as usize] += 1;
        cell[3] += 1;
        if case.len == 1 {
            single[outcome as usize] += 1;
            single[3] += 1;
        }
        if let Some(confidence) = confidence {
            calibration.0.push((confidence, reading_right));
        }
        let right = |ok: bool| if ok { Outcome::Right } else { Outcome::Wrong };
        tallies[1].add(row, case.len, right(chardetng(case)));
        if let Some(chardet) = &chardet_right {
            tallies[2].add(row, case.len, right(chardet[i]));
        }
    }
    // ASCII-only URLs must come out unchanged.
    let ascii: Vec<Case> = lines
        .values()
        .flatten()
        .flat_map(|l| l.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| w.len() > 2)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter_map(|w| make_case(Charset::Utf8, "en", w, false))
        .take(cases.len() / 4)
        .collect();
    let unchanged = ascii.iter().filter(|c| !decoder.decode(&c.url).changed).count();
    // Broken escapes: kept byte for byte, the rest fixed.
    let utf8: Vec<&Case> = cases.iter().filter(|c| c.encoding == Charset::Utf8).collect();
    let legacy: Vec<&Case> =
        cases.iter().filter(|c| c.encoding != Charset::Utf8 && c.len > 1).collect();
    // Cut and stray bytes must come out as they were; a `%ZZ` must stay
    // while the keyword before it is fixed (or kept, below the floor).
    let (mut broken, mut bad) = ((0, 0), [0; 3]);
    for (i, case) in utf8.iter().enumerate() {
        let Some(escaped) = make_case(Charset::Utf8, "en", &case.keyword, true) else { continue };
        let legacy = legacy.get(i * legacy.len() / utf8.len().max(1)).and_then(|l| {
            let lang = SETS.iter().find(|s| s.0 == l.encoding).map_or("en", |s| s.1[0]);
            make_case(l.encoding, lang, &l.keyword, true)
        });
        for (url, want) in broken_cases(&escaped, legacy.as_ref()) {
            let found = decoder.decode(&url);
            let out = found.url.as_bytes();
            if url.windows(3).any(|w| w == b"%ZZ") {
                bad[0] += usize::from(out == want);
                bad[1] += usize::from(out == url);
                bad[2] += 1;
            } else {
                broken.0 += usize::from(out == want);
                broken.1 += 1;
            }
            if out != want && out != url && args.show_errors {
                eprintln!("broken: {} -> {}", String::from_utf8_lossy(&url), found.url);
            }
        }
    }
    let source = match (&args.words, &args.dictionaries) {
        (Some(_), _) => "CLDR 48.2 names of countries and languages (evaluation)",
        (None, Some(_)) => {
            "Hunspell dictionaries, else held-out lines of ../shared/text (development)"
        }
        (None, None) => "the held-out lines of ../shared/text (development)",
    };
    println!(
        "url-eval: {} keyword URLs from {source}; floor {}; right = the keyword's text comes out exactly",
        cases.len(),
        args.min_confidence.unwrap_or(DEFAULT_MIN_CONFIDENCE)
    );
    println!("ASCII-only URLs unchanged: {unchanged} of {}", ascii.len());
    println!(
        "UTF-8 cut short or with a stray byte, kept byte for byte: {} of {}",
        broken.0, broken.1
    );
    println!(
        "a % without hex digits after a keyword: kept, keyword fixed in {}, all kept in {}, \
         other in {} of {}",
        bad[0],
        bad[1],
        bad[2] - bad[0] - bad[1],
        bad[2]
    );
    let all = tallies[0].sum(&(0..SETS.len()).collect::<Vec<_>>(), LENGTHS);
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    println!(
        "charsight: {} right, {} kept, {} wrong rewrites of {} components ({:.3}% wrong)",
        all[0],
        all[1],
        all[2],
        all[3],
        share(all[2], all[3])
    );
    println!(
        "single characters: {} right, {} kept, {} wrong of {} ({:.2}% wrong)",
        single[0],
        single[1],
        single[2],
        single[3],
        share(single[2], single[3])
    );
    for (tld, cell) in &by_tld {
        println!(
            "hosts under {}: {:.2}% right, {:.2}% kept, {:.3}% wrong of {}",
            if *tld { "the country TLD" } else { ".com" },
            share(cell[0], cell[3]),
            share(cell[1], cell[3]),
            share(cell[2], cell[3]),
            cell[3]
        );
    }
    println!("{}", tallies[0].table("charsight (% right)", 0));
    println!("{}", tallies[0].table("charsight (% kept: left as it was)", 1));
    println!("{}", tallies[0].table("charsight (% wrong rewrites)", 2));
    println!(
        "{}",
        tallies[1].table("baseline: chardetng on the decoded URL with its TLD (% right)", 0)
    );
    if chardet_right.is_some() {
        println!(
            "{}",
            tallies[2].table("baseline: chardet 7.7.0 on the keyword bytes (% right)", 0)
        );
    }
    println!("{}", calibration.table());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_escaped_and_decoded_back() {
        let case = make_case(Charset::Gbk, "zh-Hans", "北京", false).unwrap();
        assert_eq!(case.bytes, b"\xB1\xB1\xBE\xA9");
        assert!(case.decoded.windows(4).any(|w| w == b"\xB1\xB1\xBE\xA9"));
        assert!(make_case(Charset::Big5, "zh-Hant", "简", false).is_none());
        let escaped = make_case(Charset::Windows1251, "ru", "Москва", true).unwrap();
        assert!(escaped.url.is_ascii());
    }

    #[test]
    fn keywords_are_words_or_cut_runs_and_single_letters() {
        let words = keywords("de", &["Vereinigtes Königreich, Süd".to_owned()]);
        assert!(words[&3].contains("Süd"));
        assert!(!words.values().flatten().any(|w| w.starts_with("Königrei")));
        assert!(words[&1].contains("ö") && words[&1].contains("ü"));
        let words = keywords("ja", &["日本語です".to_owned()]);
        assert!(words[&2].contains("日本") && words[&5].contains("日本語です"));
    }

    #[test]
    fn broken_cases_cut_stray_and_bad_escapes() {
        let utf8 = make_case(Charset::Utf8, "zh-Hans", "中文", true).unwrap();
        let gbk = make_case(Charset::Gbk, "zh-Hans", "中文", true).unwrap();
        let cases = broken_cases(&utf8, Some(&gbk));
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[0].0, cases[0].1);
        let (bad, fixed) = &cases[2];
        assert!(bad.windows(3).any(|w| w == b"%ZZ") && fixed.windows(3).any(|w| w == b"%ZZ"));
        assert!(fixed.windows(9).any(|w| w.eq_ignore_ascii_case(b"%E4%B8%AD")));
    }
}
