//! `xtask url-eval`: accuracy of `charsight::url` on search keywords in URLs,
//! by encoding and keyword length, against two baselines in the same run.
//!
//! The test set is built from the held-out lines of `../shared/text`
//! (`testkit::held_out`; the charfreq tables were trained on the other
//! lines): keywords of 1 to 8 characters cut at word boundaries (for CJK,
//! runs between punctuation and spaces, cut to length), encoded in each of
//! the six encodings (UTF-8 also carries Russian, Greek, Arabic, French and
//! German keywords), written raw or percent-escaped (upper or lower case)
//! into realistic URL shapes (`?wd=`, `?q=`, `?word=`, path segments), mixed
//! with ASCII-only URLs.
//!
//! A case is right when the keyword's text comes out exactly. Baselines:
//! (a) "every non-ASCII run that is valid 3-byte UTF-8 is UTF-8, else GBK";
//! (b) chardetng on the percent-decoded URL.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::Result;
use charsight::url::UrlDecoder;
use charsight::Charset;
use encoding_rs::Encoding;

/// Options of `url-eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Build the keywords from the training lines instead of the held-out
    /// ones (for tuning; the reported figures use the held-out lines).
    #[arg(long)]
    train: bool,
    /// Keywords per encoding and length.
    #[arg(long, default_value_t = 300)]
    per_cell: usize,
    /// Hosts under the keyword language's country TLD (`.cn`, `.tw`, `.jp`,
    /// `.kr`) instead of `.com`; the baselines' chardetng gets it too.
    #[arg(long)]
    country_tld: bool,
    /// Print each wrong case of charsight.
    #[arg(long)]
    show_errors: bool,
}

/// The keyword encodings and the languages whose text each carries.
const SETS: [(Charset, &[&str]); 6] = [
    (Charset::Utf8, &["ja", "ko", "zh-Hans", "zh-Hant", "ru", "el", "ar", "fr", "de"]),
    (Charset::Gbk, &["zh-Hans"]),
    (Charset::Big5, &["zh-Hant"]),
    (Charset::ShiftJis, &["ja"]),
    (Charset::EucJp, &["ja"]),
    (Charset::EucKr, &["ko"]),
];

const LENGTHS: std::ops::RangeInclusive<usize> = 1..=8;

/// Languages written with spaces between words, whose keywords may hold one.
const SPACED: [&str; 7] = ["ko", "ru", "el", "ar", "fr", "de", "en"];

fn fnv(bytes: &[u8], salt: u64) -> u64 {
    testkit::fnv1a64(bytes.iter().copied(), salt)
}

/// Keywords of each length from the lines of `lang`: the first `len`
/// characters of each run of letters (and, in spaced languages, spaces),
/// when the cut does not end on a space.
fn keywords(lang: &str, held: bool) -> BTreeMap<usize, BTreeSet<String>> {
    let spaced = SPACED.contains(&lang);
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for line in testkit::text_lines(lang, held) {
        let is_word = |c: char| c.is_alphanumeric() || (spaced && c == ' ');
        for run in line.split(|c: char| !is_word(c)) {
            let run = run.trim();
            let chars: Vec<char> = run.chars().collect();
            for len in LENGTHS {
                if chars.len() < len
                    || chars[len - 1] == ' '
                    || chars.get(len) == Some(&' ') && !spaced
                {
                    continue;
                }
                let word: String = chars[..len].iter().collect();
                // CJK runs are cut anywhere; alphabetic words only whole.
                let whole = chars.len() == len || chars[len] == ' ';
                if spaced && lang != "ko" && !whole {
                    continue;
                }
                out.entry(len).or_default().insert(word);
            }
        }
    }
    out
}

/// One labelled URL.
struct Case {
    encoding: Charset,
    len: usize,
    keyword: String,
    url: Vec<u8>,
    /// The URL with escapes decoded (what chardetng sees).
    decoded: Vec<u8>,
    /// The keyword's bytes in its encoding.
    bytes: Vec<u8>,
    tld: &'static str,
}

fn country(encoding: Charset, keyword: &str) -> &'static str {
    match encoding {
        Charset::Gbk => "cn",
        Charset::Big5 => "tw",
        Charset::ShiftJis | Charset::EucJp => "jp",
        Charset::EucKr => "kr",
        _ if keyword.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)) => "kr",
        _ if keyword.chars().any(|c| ('\u{3040}'..='\u{30FF}').contains(&c)) => "jp",
        _ => "com",
    }
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

fn make_case(encoding: Charset, len: usize, keyword: &str, country_tld: bool) -> Option<Case> {
    let (bytes, _, unmappable) = whatwg(encoding).encode(keyword);
    if unmappable {
        return None;
    }
    let h = fnv(keyword.as_bytes(), encoding as u64);
    let tld = if country_tld { country(encoding, keyword) } else { "com" };
    // Raw bytes a quarter of the time, upper-case escapes half, lower-case a quarter.
    let style = [0, 1, 1, 2][(h % 4) as usize];
    let site = ["search", "bbs", "shop", "news", "tieba"][(h >> 8) as usize % 5];
    let (prefix, suffix, in_query) = match (h >> 16) % 5 {
        0 => (format!("http://www.{site}.{tld}/s?wd="), "&rsv_bp=1", true),
        1 => (format!("https://{site}.{tld}/search?q="), "&hl=en&start=10", true),
        2 => ("/search.php?word=".to_owned(), "&page=2", true),
        3 => (format!("http://{site}.{tld}/tag/"), "/index.html", false),
        _ => ("/wiki/".to_owned(), "", false),
    };
    let mut url = prefix.into_bytes();
    escape_into(&mut url, &bytes, style, in_query);
    url.extend_from_slice(suffix.as_bytes());
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
    Some(Case {
        encoding,
        len,
        keyword: keyword.to_owned(),
        url,
        decoded,
        bytes: bytes.into_owned(),
        tld,
    })
}

/// GBK is decoded as gb18030, its superset (as the library does).
fn whatwg(charset: Charset) -> &'static Encoding {
    match charset {
        Charset::Gbk => encoding_rs::GB18030,
        other => other.to_encoding_rs().expect("the six encodings are WHATWG ones"),
    }
}

fn decodes_to(encoding: &'static Encoding, bytes: &[u8], keyword: &str) -> bool {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .is_some_and(|t| t == keyword)
}

/// Baseline (a): valid 3-byte UTF-8 patterns are UTF-8, anything else GBK.
fn baseline_utf8_else_gbk(case: &Case) -> bool {
    let mut rest = &case.decoded[..];
    let mut utf8 = true;
    while let Some(i) = rest.iter().position(|&b| b >= 0x80) {
        let seq = &rest[i..];
        let three = seq.len() >= 3
            && (0xE0..=0xEF).contains(&seq[0])
            && seq[1..3].iter().all(|b| (0x80..=0xBF).contains(b))
            && std::str::from_utf8(&seq[..3]).is_ok();
        if !three {
            utf8 = false;
            break;
        }
        rest = &seq[3..];
    }
    let encoding = if utf8 { encoding_rs::UTF_8 } else { encoding_rs::GB18030 };
    decodes_to(encoding, &case.bytes, &case.keyword)
}

/// Baseline (b): chardetng on the percent-decoded URL.
fn baseline_chardetng(case: &Case) -> bool {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(&case.decoded, true);
    let tld = (case.tld != "com").then_some(case.tld.as_bytes());
    let mut encoding = detector.guess(tld, true);
    if encoding == encoding_rs::GBK {
        encoding = encoding_rs::GB18030;
    }
    decodes_to(encoding, &case.bytes, &case.keyword)
}

/// Whether charsight gets the keyword right, and its confidence.
fn charsight(case: &Case, show_errors: bool) -> (bool, f32) {
    let found = UrlDecoder::new().decode(&case.url);
    let right = found.components.len() == 1 && found.components[0].text == case.keyword;
    let confidence = found.components.first().map_or(0.0, |c| c.confidence);
    if !right && show_errors {
        let got: Vec<_> =
            found.components.iter().map(|c| (c.charset, c.text.as_str(), c.confidence)).collect();
        eprintln!(
            "{} {:?} {} -> {got:?}",
            case.encoding,
            case.keyword,
            String::from_utf8_lossy(&case.url)
        );
    }
    (right, confidence)
}

/// Confidence buckets: how many answers fell in each, and how many were
/// right, for single characters and for longer keywords.
#[derive(Default)]
struct Calibration([[(usize, usize); 4]; 2]);

impl Calibration {
    const BOUNDS: [f32; 4] = [0.0, 0.5, 0.8, 0.95];

    fn add(&mut self, len: usize, confidence: f32, right: bool) {
        let bucket = Self::BOUNDS.iter().rposition(|&b| confidence >= b).unwrap_or(0);
        let cell = &mut self.0[usize::from(len > 1)][bucket];
        cell.0 += 1;
        cell.1 += usize::from(right);
    }

    fn table(&self) -> String {
        let mut out = "\ncharsight confidence against accuracy\n\n\
                       | keywords | confidence | answers | right |\n|---|---|---:|---:|\n"
            .to_owned();
        for (row, name) in ["1 character", "2-8 characters"].iter().enumerate() {
            for (i, &(n, right)) in self.0[row].iter().enumerate() {
                let upper = Self::BOUNDS.get(i + 1).map_or("1".to_owned(), |b| b.to_string());
                let share = if n == 0 {
                    "-".to_owned()
                } else {
                    format!("{:.1}%", 100.0 * right as f64 / n as f64)
                };
                writeln!(out, "| {name} | {}-{upper} | {n} | {share} |", Self::BOUNDS[i]).unwrap();
            }
        }
        out
    }
}

/// Right and total counts by encoding and length.
#[derive(Default)]
struct Tally(BTreeMap<(usize, usize), (usize, usize)>);

impl Tally {
    fn add(&mut self, row: usize, len: usize, right: bool) {
        let cell = self.0.entry((row, len)).or_default();
        cell.0 += usize::from(right);
        cell.1 += 1;
    }

    fn table(&self, title: &str) -> String {
        let mut out = format!("\n{title}\n\n| encoding |");
        for len in LENGTHS {
            write!(out, " {len} |").unwrap();
        }
        out.push_str(" 2-8 |\n|---|");
        out.push_str(&"---:|".repeat(LENGTHS.count() + 1));
        out.push('\n');
        let percent = |(r, t): (usize, usize)| {
            if t == 0 {
                "-".to_owned()
            } else {
                format!("{:.1}", 100.0 * r as f64 / t as f64)
            }
        };
        let sum = |rows: &[usize], lens: std::ops::RangeInclusive<usize>| {
            let mut acc = (0, 0);
            for &row in rows {
                for len in lens.clone() {
                    let (r, t) = self.0.get(&(row, len)).copied().unwrap_or_default();
                    acc = (acc.0 + r, acc.1 + t);
                }
            }
            acc
        };
        let all: Vec<usize> = (0..SETS.len()).collect();
        for (row, (encoding, _)) in SETS.iter().enumerate() {
            write!(out, "| {encoding} |").unwrap();
            for len in LENGTHS {
                write!(out, " {} |", percent(sum(&[row], len..=len))).unwrap();
            }
            writeln!(out, " {} |", percent(sum(&[row], 2..=8))).unwrap();
        }
        out.push_str("| **all** |");
        for len in LENGTHS {
            write!(out, " {} |", percent(sum(&all, len..=len))).unwrap();
        }
        writeln!(out, " {} |", percent(sum(&all, 2..=8))).unwrap();
        out.push_str("| wrong, of all |");
        for len in LENGTHS.map(|len| len..=len).chain([2..=8]) {
            let (right, total) = sum(&all, len);
            write!(out, " {} of {total} |", total - right).unwrap();
        }
        out.push('\n');
        out
    }
}

/// Runs the evaluation and prints the three tables.
pub fn run(args: &Args) -> Result<()> {
    let held = !args.train;
    let mut pools: BTreeMap<&str, BTreeMap<usize, BTreeSet<String>>> = BTreeMap::new();
    let mut cases = Vec::new();
    for (encoding, langs) in SETS {
        for len in LENGTHS {
            let mut pool: Vec<String> = Vec::new();
            for &lang in langs {
                let words = pools.entry(lang).or_insert_with(|| keywords(lang, held));
                let non_ascii = words.get(&len).into_iter().flatten().filter(|k| !k.is_ascii());
                pool.extend(non_ascii.cloned());
            }
            pool.sort_by_key(|k| fnv(k.as_bytes(), encoding as u64 * 31 + len as u64));
            let made = pool.iter().filter_map(|k| make_case(encoding, len, k, args.country_tld));
            cases.extend(made.take(args.per_cell));
        }
    }
    let mut tallies: [Tally; 3] = Default::default();
    let mut calibration = Calibration::default();
    for case in &cases {
        let row = SETS.iter().position(|s| s.0 == case.encoding).expect("a set's encoding");
        let (right, confidence) = charsight(case, args.show_errors);
        tallies[0].add(row, case.len, right);
        calibration.add(case.len, confidence, right);
        tallies[1].add(row, case.len, baseline_utf8_else_gbk(case));
        tallies[2].add(row, case.len, baseline_chardetng(case));
    }
    // ASCII-only URLs (English keywords in the same shapes) must come out
    // unchanged.
    let decoder = UrlDecoder::new();
    let english = keywords("en", held);
    let ascii: Vec<Case> = english
        .values()
        .flatten()
        .filter_map(|k| make_case(Charset::Utf8, k.chars().count(), k, args.country_tld))
        .take(cases.len() / 9)
        .collect();
    let unchanged = ascii.iter().filter(|c| !decoder.decode(&c.url).changed).count();
    println!(
        "url-eval: {} keyword URLs from the {} lines of shared/text, hosts under .{}; \
         right = the keyword's text comes out exactly",
        cases.len(),
        if held { "held-out" } else { "training" },
        if args.country_tld { "cn/.tw/.jp/.kr" } else { "com" },
    );
    println!("ASCII-only URLs unchanged: {unchanged} of {}", ascii.len());
    println!("{}", tallies[0].table("charsight (% right)"));
    println!("{}", tallies[1].table("baseline a: 3-byte UTF-8 pattern else GBK (% right)"));
    println!("{}", tallies[2].table("baseline b: chardetng on the decoded URL (% right)"));
    println!("{}", calibration.table());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_escaped_and_decoded_back() {
        let case = make_case(Charset::Gbk, 2, "北京", false).unwrap();
        assert_eq!(case.bytes, b"\xB1\xB1\xBE\xA9");
        assert!(case.decoded.windows(4).any(|w| w == b"\xB1\xB1\xBE\xA9"));
        assert!(make_case(Charset::Big5, 1, "简", false).is_none());
    }

    #[test]
    fn baseline_a_takes_three_byte_utf8_else_gbk() {
        let utf8 = make_case(Charset::Utf8, 2, "北京", false).unwrap();
        assert!(baseline_utf8_else_gbk(&utf8));
        let greek = make_case(Charset::Utf8, 2, "ήλ", false).unwrap();
        assert!(!baseline_utf8_else_gbk(&greek));
        let gbk = make_case(Charset::Gbk, 2, "北京", false).unwrap();
        assert!(baseline_utf8_else_gbk(&gbk));
    }
}
