//! `xtask repair-eval`: how much generated damage `charsight::repair` undoes
//! exactly, and how much clean text it changes.
//!
//! Damage is made from the held-out lines of `../shared/text`
//! (`testkit::held_out`; the detector's language models that repairs decide
//! by were trained on the other lines), by default from the test half of
//! them (`testkit::tuning_line`; the margins were set on the other half,
//! `--half tuning`):
//!
//! - `stray`: a UTF-8 line with one to three of its characters written as
//!   windows-1252 bytes (accents), or a word put in windows-1252 curly
//!   quotes (0x93 … 0x94), or one word with two or more non-ASCII letters
//!   written in the language's single-byte legacy encoding;
//! - `mojibake`: the line's UTF-8 read as windows-1252, ISO-8859-1,
//!   windows-1250, ISO-8859-2, windows-1251, KOI8-R, windows-1253,
//!   ISO-8859-7, windows-1255, windows-1257, IBM437, IBM850, Shift_JIS, GBK or
//!   MacRoman and written as UTF-8, once
//!   (×1) or twice (×2); only damage that can be undone exactly is kept
//!   (reading UTF-8 as Shift_JIS or GBK often loses bytes), and the number
//!   left out is reported; also read once as a single-byte encoding with
//!   its no-break spaces turned into spaces (and collapsed with a space
//!   after them), and as windows-1252 with the bytes it leaves undefined
//!   replaced by U+FFFD (or by `?`, as a legacy store writes U+FFFD, or
//!   dropped);
//! - `ncr`: a Chinese, Korean or Japanese line in GBK, Big5, EUC-KR or
//!   Shift_JIS, or another language's line in UTF-8, with every byte above
//!   0x7F written as a numeric character reference (bytes 0x80–0x9F by
//!   their windows-1252 character, as browsers do);
//! - `fragment`: a windows-1252 (or Shift_JIS) line with one word (or a few
//!   characters) in UTF-8.
//!
//! A case is repaired when the output line is exactly the original; the
//! `undeclared` column counts the same when `charsight` must also find the
//! encoding (`Engine::detect`, as `charsight repair` does with no
//! declaration) instead of being told it. False
//! changes are counted on clean text: every line of every file of
//! `../shared/text` as UTF-8; the lines that fit a legacy encoding of their
//! language, in it; and lines of the Latin-script languages with their
//! accented letters written as ordinary references (`caf&#233;`).
//!
//! `--dump FILE` writes the mojibake cases as JSON Lines (`set`, `lang`,
//! `original`, `damaged`, `charsight`) for `tools/ftfy-compare`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

use anyhow::{Context, Result};
use charsight::decode::Errors;
use charsight::repair::{RepairPolicy, Repairer};
use charsight::{Charset, Engine};

/// Options of `repair-eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Which half of the held-out lines to damage: `test` (the reported
    /// figures) or `tuning` (where the margins were set).
    #[arg(long, default_value = "test")]
    half: Half,
    /// Damaged lines per language, set and depth.
    #[arg(long, default_value_t = 40)]
    per_language: usize,
    /// Skip the false-change check on every line of `../shared/text`.
    #[arg(long)]
    no_clean: bool,
    /// Print up to this many failures of each set (given the encoding, or
    /// finding it: then also what the encoding found gives).
    #[arg(long, default_value_t = 0)]
    show: usize,
    /// Write the mojibake cases and charsight's output as JSON Lines here.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Half {
    Test,
    Tuning,
}

/// Every language of `../shared/text`.
const LANGUAGES: [&str; 49] = [
    "ar", "az", "be", "bg", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "ga",
    "he", "hi", "hr", "hu", "hy", "is", "it", "ja", "ka", "kk", "ko", "lt", "lv", "mk", "my", "nl",
    "no", "pl", "pt", "ro", "ru", "sk", "sl", "sr", "sv", "ta", "th", "tr", "uk", "ur", "vi",
    "zh-Hans", "zh-Hant",
];

/// The legacy encodings of each language's text, for the clean check.
const LEGACY: [(&str, Charset); 33] = [
    ("en", Charset::Windows1252),
    ("fr", Charset::Windows1252),
    ("de", Charset::Windows1252),
    ("es", Charset::Windows1252),
    ("pt", Charset::Windows1252),
    ("it", Charset::Windows1252),
    ("nl", Charset::Windows1252),
    ("sv", Charset::Windows1252),
    ("da", Charset::Windows1252),
    ("no", Charset::Windows1252),
    ("fi", Charset::Windows1252),
    ("is", Charset::Windows1252),
    ("ca", Charset::Windows1252),
    ("ga", Charset::Windows1252),
    ("cs", Charset::Windows1250),
    ("pl", Charset::Windows1250),
    ("hu", Charset::Windows1250),
    ("sk", Charset::Windows1250),
    ("hr", Charset::Windows1250),
    ("ru", Charset::Windows1251),
    ("uk", Charset::Windows1251),
    ("bg", Charset::Windows1251),
    ("el", Charset::Windows1253),
    ("tr", Charset::Windows1254),
    ("he", Charset::Windows1255),
    ("ar", Charset::Windows1256),
    ("lt", Charset::Windows1257),
    ("th", Charset::Windows874),
    ("ja", Charset::ShiftJis),
    ("ja", Charset::EucJp),
    ("zh-Hans", Charset::Gbk),
    ("zh-Hant", Charset::Big5),
    ("ko", Charset::EucKr),
];

/// One damaged line: the bytes, the encoding they are decoded in, and the
/// line it should come back as.
struct Case {
    set: String,
    lang: &'static str,
    original: String,
    damaged: Vec<u8>,
    charset: Charset,
}

/// How to garble text through an encoding: read its UTF-8 as that encoding.
#[derive(Clone, Copy)]
enum Via {
    Encoding(Charset),
    /// ISO-8859-1 proper: every byte is the code point of the same value
    /// (the WHATWG label maps to windows-1252).
    Latin1,
}

impl Via {
    fn name(self) -> &'static str {
        match self {
            Via::Encoding(c) => c.name(),
            Via::Latin1 => "ISO-8859-1",
        }
    }

    /// `text` garbled once, if the garbling can be undone exactly.
    fn garble(self, text: &str) -> Option<String> {
        let bytes = text.as_bytes();
        match self {
            Via::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
            Via::Encoding(charset) => {
                let (garbled, malformed) = charset.decode(bytes);
                let (back, unmappable) = charset.encode(&garbled);
                (!malformed && !unmappable && back == bytes).then(|| garbled.into_owned())
            }
        }
    }
}

/// The encodings whose mojibake is also garbled with its no-break spaces
/// lost ([`mojibake_cases`]).
const NBSP_VIAS: [Via; 9] = [
    Via::Encoding(Charset::Windows1252),
    Via::Encoding(Charset::Windows1250),
    Via::Encoding(Charset::Iso8859_2),
    Via::Encoding(Charset::Windows1251),
    Via::Encoding(Charset::Koi8R),
    Via::Encoding(Charset::Windows1253),
    Via::Encoding(Charset::Windows1255),
    Via::Encoding(Charset::Windows1257),
    Via::Encoding(Charset::Macintosh),
];

const VIAS: [Via; 15] = [
    Via::Encoding(Charset::Windows1252),
    Via::Latin1,
    Via::Encoding(Charset::Windows1250),
    Via::Encoding(Charset::Iso8859_2),
    Via::Encoding(Charset::Windows1251),
    Via::Encoding(Charset::Koi8R),
    Via::Encoding(Charset::Windows1253),
    Via::Encoding(Charset::Iso8859_7),
    Via::Encoding(Charset::Windows1255),
    Via::Encoding(Charset::Windows1257),
    Via::Encoding(Charset::Ibm437),
    Via::Encoding(Charset::Ibm850),
    Via::Encoding(Charset::ShiftJis),
    Via::Encoding(Charset::Gbk),
    Via::Encoding(Charset::Macintosh),
];

/// A hash of `text` with `salt`, for choices that must not depend on order
/// (FNV-1a, then mixed so that its low bits are not just parities).
pub fn fnv(text: &str, salt: u64) -> u64 {
    let h = testkit::fnv1a64(text.bytes(), salt);
    let h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// The held-out lines of `lang` in the chosen half that hold non-ASCII
/// text, in file order.
fn lines(lang: &str, half: Half) -> Vec<String> {
    testkit::text_lines(lang, true)
        .into_iter()
        .filter(|l| !l.is_ascii() && testkit::tuning_line(l) == (half == Half::Tuning))
        .collect()
}

/// The bytes of one character in a single-byte `charset`, if it has one.
fn single_byte(charset: Charset, c: char) -> Option<u8> {
    let mut buf = [0; 4];
    let (bytes, unmappable) = charset.encode(c.encode_utf8(&mut buf));
    match *bytes {
        [b] if !unmappable && b >= 0x80 => Some(b),
        _ => None,
    }
}

/// Appends `chars` (with their indices) as UTF-8, the `chosen` ones as
/// their windows-1252 byte: stray bytes.
fn push_with_strays(
    out: &mut Vec<u8>,
    chars: impl Iterator<Item = (usize, char)>,
    chosen: &[usize],
) {
    for (i, c) in chars {
        match chosen.contains(&i).then(|| single_byte(Charset::Windows1252, c)).flatten() {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
}

/// The words of `line` between spaces, with their byte offsets.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split(' ').scan(0, |at, w| {
        let start = *at;
        *at += w.len() + 1;
        Some((start, w))
    })
}

/// Stray windows-1252 accents and quotes in UTF-8 lines.
fn stray_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    let mut accents = 0;
    let mut quotes = 0;
    for line in lines {
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let spots: Vec<usize> = (0..chars.len())
            .filter(|&i| single_byte(Charset::Windows1252, chars[i].1).is_some())
            .collect();
        if accents < n && !spots.is_empty() {
            // One to three of them, no two adjacent.
            let want = 1 + (fnv(line, 1) % 3) as usize;
            let mut chosen: Vec<usize> = Vec::new();
            for k in 0..spots.len() {
                let i = spots[(k + fnv(line, 2) as usize) % spots.len()];
                if chosen.len() < want && chosen.iter().all(|&j| i.abs_diff(j) > 1) {
                    chosen.push(i);
                }
            }
            let mut damaged = Vec::new();
            push_with_strays(&mut damaged, chars.iter().map(|&(_, c)| c).enumerate(), &chosen);
            let malformed = Charset::Utf8.decode(&damaged).0.matches('\u{FFFD}').count();
            if malformed == chosen.len() {
                accents += 1;
                cases.push(Case {
                    set: "stray windows-1252 accents".into(),
                    lang,
                    original: line.clone(),
                    damaged,
                    charset: Charset::Utf8,
                });
            }
        }
        let words: Vec<(usize, &str)> = words(line)
            .filter(|(_, w)| w.chars().count() >= 3 && w.chars().all(char::is_alphanumeric))
            .collect();
        if quotes < n && !words.is_empty() {
            let (at, word) = words[fnv(line, 3) as usize % words.len()];
            let original = format!("{}“{word}”{}", &line[..at], &line[at + word.len()..]);
            let mut damaged = line.as_bytes()[..at].to_vec();
            damaged.push(0x93);
            damaged.extend_from_slice(word.as_bytes());
            damaged.push(0x94);
            damaged.extend_from_slice(&line.as_bytes()[at + word.len()..]);
            quotes += 1;
            cases.push(Case {
                set: "stray windows-1252 quotes".into(),
                lang,
                original,
                damaged,
                charset: Charset::Utf8,
            });
        }
    }
}

/// A word of a UTF-8 line written in its language's single-byte legacy
/// encoding (a field from an old database in a UTF-8 page): a run of
/// several malformed sequences.
fn stray_word_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    let Some(&(_, charset)) = LEGACY.iter().find(|(l, c)| *l == lang && c.is_single_byte()) else {
        return;
    };
    let mut made = 0;
    for line in lines {
        if made == n {
            break;
        }
        let words: Vec<(usize, &str)> = words(line)
            .filter(|(_, w)| w.chars().filter(|c| !c.is_ascii()).count() >= 2)
            .filter(|(_, w)| w.chars().all(|c| c.is_ascii() || single_byte(charset, c).is_some()))
            .collect();
        if words.is_empty() {
            continue;
        }
        let (at, word) = words[fnv(line, 4) as usize % words.len()];
        let mut damaged = line.as_bytes()[..at].to_vec();
        damaged.extend_from_slice(&charset.encode(word).0);
        damaged.extend_from_slice(&line.as_bytes()[at + word.len()..]);
        if Charset::Utf8.decode(&damaged).0.matches('\u{FFFD}').count() < 2 {
            continue;
        }
        made += 1;
        cases.push(Case {
            set: format!("stray word in {charset} in UTF-8"),
            lang,
            original: line.clone(),
            damaged,
            charset: Charset::Utf8,
        });
    }
}

/// Two kinds of damage in one UTF-8 line: its first half read as
/// windows-1252 and re-encoded (mojibake), one or two accents of its second
/// half as stray windows-1252 bytes.
fn stray_and_mojibake_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    let mut taken = 0;
    for line in lines.iter().filter(|l| fnv(l, 7).is_multiple_of(2)) {
        if taken == n {
            break;
        }
        let chars: Vec<char> = line.chars().collect();
        let mid = chars.len() / 2;
        let head: String = chars[..mid].iter().collect();
        let spots: Vec<usize> = (mid..chars.len())
            .filter(|&i| single_byte(Charset::Windows1252, chars[i]).is_some())
            .collect();
        if head.is_ascii() || spots.is_empty() {
            continue;
        }
        let Some(garbled) = Via::Encoding(Charset::Windows1252).garble(&head) else { continue };
        let first = spots[fnv(line, 8) as usize % spots.len()];
        let chosen: Vec<usize> = spots
            .iter()
            .copied()
            .filter(|&i| i == first || (fnv(line, 9).is_multiple_of(2) && i > first + 1))
            .take(2)
            .collect();
        let mut damaged = garbled.into_bytes();
        push_with_strays(&mut damaged, chars.iter().copied().enumerate().skip(mid), &chosen);
        if Charset::Utf8.decode(&damaged).0.matches('\u{FFFD}').count() != chosen.len() {
            continue;
        }
        taken += 1;
        cases.push(Case {
            set: "stray windows-1252 and mojibake in one line".into(),
            lang,
            original: line.clone(),
            damaged,
            charset: Charset::Utf8,
        });
    }
}

/// Mojibake of the lines through every encoding, once and twice. Returns
/// how many garblings could not be undone exactly (left out).
fn mojibake_cases(
    lang: &'static str,
    lines: &[String],
    n: usize,
    cases: &mut Vec<Case>,
) -> BTreeMap<String, usize> {
    let mut lossy = BTreeMap::new();
    // Garbled through a single-byte encoding once, and every no-break space
    // (the 0xA0 of `à`, `Р`, … in windows-1252 and windows-1251, 0x9A in
    // KOI8-R, 0xCA in MacRoman) turned into a plain space, as HTML and
    // editors do: lossy, but the space is still there. Or, as text
    // extracted from HTML has it, with a no-break space and the space after
    // it collapsed into one.
    for via in NBSP_VIAS {
        let nbsp = lines.iter().filter(|l| fnv(l, 9).is_multiple_of(2)).filter_map(|line| {
            let garbled = via.garble(line)?;
            garbled.contains('\u{A0}').then_some((line, garbled))
        });
        for (line, garbled) in nbsp.take(n) {
            let spaced = garbled.replace('\u{A0}', " ");
            let collapsed = garbled.replace("\u{A0} ", " ").replace('\u{A0}', " ");
            let variants = [
                (format!("mojibake {} ×1, no-break spaces as spaces", via.name()), spaced),
                (format!("mojibake {} ×1, no-break spaces collapsed", via.name()), collapsed),
            ];
            push_utf8_cases(cases, lang, line, variants);
        }
    }
    // Garbled through windows-1252 once by a decoder that replaced the bytes
    // it leaves undefined (81, 8D, 8F, 90, 9D) with U+FFFD, as Python's
    // `cp1252` with `errors="replace"` does: which byte it was is lost.
    let undefined = |c: char| matches!(c, '\u{81}' | '\u{8D}' | '\u{8F}' | '\u{90}' | '\u{9D}');
    let lost = lines.iter().filter(|l| fnv(l, 10).is_multiple_of(2)).filter_map(|line| {
        let garbled = Via::Encoding(Charset::Windows1252).garble(line)?;
        garbled.contains(undefined).then(|| (line, garbled.replace(undefined, "\u{FFFD}")))
    });
    // The same damage stored in a legacy encoding, where each U+FFFD became
    // `?` (`â€?` for `”`), or with the bytes dropped (`â€` for `”`: a
    // decoder that ignores errors, or C1 controls stripped).
    for (line, damaged) in lost.take(n) {
        let marked = damaged.replace('\u{FFFD}', "?");
        let dropped = damaged.replace('\u{FFFD}', "");
        let variants = [
            ("mojibake windows-1252 ×1, undefined bytes lost", damaged),
            ("mojibake windows-1252 ×1, undefined bytes lost as ?", marked),
            ("mojibake windows-1252 ×1, undefined bytes dropped", dropped),
        ];
        push_utf8_cases(cases, lang, line, variants);
    }
    for via in VIAS {
        for depth in 1..=2 {
            let set = format!("mojibake {} ×{depth}", via.name());
            let mut taken = 0;
            for line in lines.iter().filter(|l| fnv(l, 4 + depth as u64).is_multiple_of(2)) {
                if taken == n {
                    break;
                }
                let mut garbled = Some(line.clone());
                for _ in 0..depth {
                    garbled = garbled.and_then(|g| via.garble(&g));
                }
                let Some(garbled) = garbled else {
                    *lossy.entry(set.clone()).or_insert(0) += 1;
                    continue;
                };
                taken += 1;
                cases.push(Case {
                    set: set.clone(),
                    lang,
                    original: line.clone(),
                    damaged: garbled.into_bytes(),
                    charset: Charset::Utf8,
                });
            }
        }
    }
    lossy
}

/// A UTF-8 case of `line` for each set and damaged text of `variants`.
fn push_utf8_cases<S: Into<String>, const N: usize>(
    cases: &mut Vec<Case>,
    lang: &'static str,
    line: &str,
    variants: [(S, String); N],
) {
    for (set, damaged) in variants {
        cases.push(Case {
            set: set.into(),
            lang,
            original: line.to_owned(),
            damaged: damaged.into_bytes(),
            charset: Charset::Utf8,
        });
    }
}

/// `bytes` with every byte above 0x7F written as a reference.
fn references(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if b < 0x80 {
            out.push(char::from(b));
        } else {
            let c = Charset::Windows1252.decode(&[b]).0.chars().next().unwrap_or('\u{FFFD}');
            out.push_str(&format!("&#{};", u32::from(c)));
        }
    }
    out
}

/// Chinese, Korean and Japanese lines as references to their legacy bytes
/// (ten times `n`), and the other languages' non-ASCII lines as references
/// to their UTF-8 bytes (mojibake written as references).
fn ncr_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    let (charset, n) = match lang {
        "zh-Hans" => (Charset::Gbk, n * 10),
        "zh-Hant" => (Charset::Big5, n * 10),
        "ko" => (Charset::EucKr, n * 10),
        "ja" => (Charset::ShiftJis, n * 10),
        _ => (Charset::Utf8, n),
    };
    let utf8 = charset == Charset::Utf8;
    let lines = lines.iter().filter(|l| !utf8 || (!l.is_ascii() && fnv(l, 11).is_multiple_of(2)));
    for line in lines.filter(|l| !charset.encode(l).1).take(n) {
        let damaged = references(&charset.encode(line).0).into_bytes();
        cases.push(Case {
            set: format!("ncr {charset}"),
            lang,
            original: line.clone(),
            damaged,
            charset: Charset::Utf8,
        });
    }
}

/// Lines in windows-1252 (or Shift_JIS) with a few characters in UTF-8.
fn fragment_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    let charset = match LEGACY.iter().find(|(l, _)| *l == lang) {
        Some((_, c @ (Charset::Windows1252 | Charset::ShiftJis))) => *c,
        _ => return,
    };
    for line in lines.iter().filter(|l| !charset.encode(l).1).take(n) {
        // A stretch of 1 to 6 characters around a non-ASCII one.
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let spots: Vec<usize> = (0..chars.len()).filter(|&i| !chars[i].1.is_ascii()).collect();
        let centre = spots[fnv(line, 6) as usize % spots.len()];
        let len = 1 + (fnv(line, 7) % 6) as usize;
        let start = centre.saturating_sub(len / 2);
        let end = (start + len).min(chars.len());
        let at = |i: usize| chars.get(i).map_or(line.len(), |&(k, _)| k);
        let (a, b) = (at(start), at(end));
        let mut damaged = charset.encode(&line[..a]).0.into_owned();
        damaged.extend_from_slice(&line.as_bytes()[a..b]);
        damaged.extend_from_slice(&charset.encode(&line[b..]).0);
        cases.push(Case {
            set: format!("fragment UTF-8 in {charset}"),
            lang,
            original: line.clone(),
            damaged,
            charset,
        });
    }
}

/// Documents of four lines in the language's legacy encodings, one of them
/// (chosen by hash) pasted in UTF-8.
fn utf8_line_cases(lang: &'static str, lines: &[String], n: usize, cases: &mut Vec<Case>) {
    for &(_, charset) in LEGACY.iter().filter(|(l, _)| *l == lang) {
        let fitting: Vec<&String> = lines.iter().filter(|l| !charset.encode(l).1).collect();
        for group in fitting.chunks_exact(4).take(n) {
            let pasted = (fnv(group[0], 8) % 4) as usize;
            let mut damaged = Vec::new();
            for (i, line) in group.iter().enumerate() {
                let encoding = if i == pasted { Charset::Utf8 } else { charset };
                damaged.extend_from_slice(&encoding.encode(line).0);
                damaged.push(b'\n');
            }
            let original: String = group.iter().map(|l| format!("{l}\n")).collect();
            let set = format!("UTF-8 line among {charset} lines");
            cases.push(Case { set, lang, original, damaged, charset });
        }
    }
}

/// Decodes `bytes` in `charset` with every repair.
fn repair(bytes: &[u8], charset: Charset) -> String {
    let mut repairer = Repairer::new(charset, RepairPolicy::all(), Errors::Replace);
    let mut text = String::new();
    repairer.repair(bytes, true, &mut text).expect("replace mode never fails");
    text
}

/// Counts of one set.
#[derive(Default)]
struct Tally {
    cases: usize,
    right: usize,
    /// Repaired exactly when the encoding is left to `charsight` to find
    /// (`Engine::detect`, as `charsight repair` does with no declaration).
    undeclared: usize,
    shown: usize,
}

pub fn run(args: &Args) -> Result<()> {
    let mut cases = Vec::new();
    let mut lossy: BTreeMap<String, usize> = BTreeMap::new();
    for lang in LANGUAGES {
        let lines = lines(lang, args.half);
        stray_cases(lang, &lines, args.per_language, &mut cases);
        stray_and_mojibake_cases(lang, &lines, args.per_language, &mut cases);
        stray_word_cases(lang, &lines, args.per_language, &mut cases);
        for (set, n) in mojibake_cases(lang, &lines, args.per_language, &mut cases) {
            *lossy.entry(set).or_insert(0) += n;
        }
        ncr_cases(lang, &lines, args.per_language, &mut cases);
        fragment_cases(lang, &lines, args.per_language, &mut cases);
        utf8_line_cases(lang, &lines, args.per_language / 4, &mut cases);
    }
    let mut dump = match &args.dump {
        Some(path) => {
            Some(BufWriter::new(File::create(path).with_context(|| format!("{}", path.display()))?))
        }
        None => None,
    };
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for case in &cases {
        let out = repair(&case.damaged, case.charset);
        let tally = tallies.entry(case.set.clone()).or_default();
        tally.cases += 1;
        let found = Engine::new().detect(&case.damaged).charset;
        let undeclared_out =
            if found == case.charset { None } else { Some(repair(&case.damaged, found)) };
        let undeclared = undeclared_out.as_ref().unwrap_or(&out) == &case.original;
        tally.undeclared += usize::from(undeclared);
        tally.right += usize::from(out == case.original);
        if (out != case.original || !undeclared) && tally.shown < args.show {
            tally.shown += 1;
            println!(
                "{} [{}]\n  damaged:  {}",
                case.set,
                case.lang,
                String::from_utf8_lossy(&case.damaged)
            );
            println!("  repaired: {out}");
            if let Some(other) = undeclared_out.filter(|_| !undeclared) {
                println!("  as {found}: {other}");
            }
            println!("  original: {}", case.original);
        }
        if let (Some(dump), true) = (&mut dump, case.set.starts_with("mojibake")) {
            let record = serde_json::json!({
                "set": case.set,
                "lang": case.lang,
                "original": case.original,
                "damaged": String::from_utf8_lossy(&case.damaged),
                "charsight": out,
            });
            writeln!(dump, "{record}")?;
        }
    }
    if let Some(mut dump) = dump {
        dump.flush()?;
    }
    let half = if args.half == Half::Test { "test" } else { "tuning" };
    println!("Repair rate on the {half} half of the held-out lines (exact repairs):\n");
    println!("| damage | cases | repaired | rate | undeclared | left out (lossy) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let (mut all, mut right, mut undeclared) = (0, 0, 0);
    for (set, t) in &tallies {
        all += t.cases;
        right += t.right;
        undeclared += t.undeclared;
        let left_out = lossy.get(set).map_or(String::new(), |n| n.to_string());
        println!(
            "| {set} | {} | {} | {:.2}% | {:.2}% | {left_out} |",
            t.cases,
            t.right,
            rate(t.right, t.cases),
            rate(t.undeclared, t.cases)
        );
    }
    println!(
        "| **all** | {all} | {right} | {:.2}% | {:.2}% | |\n",
        rate(right, all),
        rate(undeclared, all)
    );
    if !args.no_clean {
        clean(args)?;
    }
    Ok(())
}

pub fn rate(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// False changes on clean text.
fn clean(args: &Args) -> Result<()> {
    println!("False changes on clean text (`repair all`, lines changed):\n");
    println!("| text | lines | changed |");
    println!("| --- | ---: | ---: |");
    let mut shown = 0;
    let mut report = |name: String, originals: &[String], outputs: Vec<String>| {
        let changed: Vec<(&String, &String)> =
            originals.iter().zip(&outputs).filter(|(a, b)| a != b).collect();
        println!("| {name} | {} | {} |", originals.len(), changed.len());
        for (a, b) in changed.into_iter().take(args.show.saturating_sub(shown)) {
            shown += 1;
            println!("  was: {a}\n  now: {b}");
        }
    };
    let (mut utf8_lines, mut utf8_changed) = (0, 0);
    for lang in LANGUAGES {
        let path = testkit::shared_dir().join("text").join(format!("{lang}.txt"));
        let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        let out = repair(text.as_bytes(), Charset::Utf8);
        let originals: Vec<String> = text.lines().map(str::to_owned).collect();
        let outputs: Vec<String> = out.lines().map(str::to_owned).collect();
        utf8_lines += originals.len();
        let changed = originals.iter().zip(&outputs).filter(|(a, b)| a != b).count();
        utf8_changed += changed;
        if changed > 0 || outputs.len() != originals.len() {
            report(format!("{lang}.txt as UTF-8"), &originals, outputs);
        }
    }
    println!("| every file of shared/text as UTF-8 | {utf8_lines} | {utf8_changed} |");
    for (lang, charset) in LEGACY {
        let path = testkit::shared_dir().join("text").join(format!("{lang}.txt"));
        let text = std::fs::read_to_string(&path)?;
        let originals: Vec<String> =
            text.lines().filter(|l| !charset.encode(l).1).map(str::to_owned).collect();
        let bytes = charset.encode(&originals.join("\n")).0.into_owned();
        // Compared with the plain decode: a few characters (U+2212 in
        // Shift_JIS, say) do not come back as they were encoded.
        let plain: Vec<String> = charset.decode(&bytes).0.lines().map(str::to_owned).collect();
        let outputs = repair(&bytes, charset).lines().map(str::to_owned).collect();
        report(format!("{lang}.txt in {charset}"), &plain, outputs);
    }
    for lang in ["en", "fr", "de", "es", "pt", "it", "nl", "sv", "da", "no", "fi", "is", "ca", "ga"]
    {
        let originals: Vec<String> =
            testkit::text_lines(lang, true)
                .into_iter()
                .chain(testkit::text_lines(lang, false))
                .map(|l| {
                    l.chars()
                        .map(|c| {
                            if c.is_ascii() {
                                c.to_string()
                            } else {
                                format!("&#{};", u32::from(c))
                            }
                        })
                        .collect()
                })
                .collect();
        let outputs = repair(originals.join("\n").as_bytes(), Charset::Utf8)
            .lines()
            .map(str::to_owned)
            .collect();
        report(format!("{lang}.txt with references"), &originals, outputs);
    }
    Ok(())
}
