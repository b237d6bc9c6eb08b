//! `xtask declared-eval`: how the `verify` policy weighs declarations, true
//! and lying, on generated web pages, against the two policies that do not
//! weigh them in the same run (`whatwg` keeps every declaration, `detect`
//! ignores them).
//!
//! Each page is one to eight held-out lines of a language of
//! `../shared/text` (the test half by default, `testkit::tuning_line`) in
//! paragraphs of HTML, with the title and a `<meta charset>`, encoded in one
//! of the ASCII-compatible encodings of `xtask samples`. It is declared:
//!
//! - `true`: in its own encoding;
//! - `lying`: in each of [`LABELS`] that decodes it to other text (a UTF-8
//!   page labelled ISO-8859-1, EUC-JP labelled Shift_JIS, Greek labelled
//!   Big5);
//! - `true, stray byte`: in its own encoding, with one byte of
//!   [`STRAY_BYTES`] put before one of its non-ASCII characters (text pasted
//!   from elsewhere, a byte the encoding may leave undefined).
//!
//! A page is right when the chosen encoding decodes its bytes to the same
//! text as its own encoding does.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Context, Result};
use charsight::{Engine, Policy};

use crate::repair_eval::{fnv, rate};
use crate::samples::{self, SETS};

/// The labels a lying declaration names: those servers and pages commonly
/// carry.
const LABELS: [&str; 14] = [
    "utf-8",
    "iso-8859-1",
    "windows-1252",
    "iso-8859-15",
    "windows-1250",
    "iso-8859-2",
    "windows-1251",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "gb2312",
    "big5",
    "euc-kr",
    "windows-1256",
];

/// The stray bytes: windows-1252's undefined bytes, a no-break space, and
/// bytes no multibyte encoding starts a character with.
const STRAY_BYTES: [u8; 7] = [0x81, 0x8D, 0x8F, 0x90, 0x9D, 0xA0, 0xFF];

/// The three kinds of page, in report order.
const KINDS: [&str; 3] = ["true", "lying", "true, stray byte"];

/// The policies compared, in report order.
const POLICIES: [(Policy, &str); 3] =
    [(Policy::Verify, "verify"), (Policy::Whatwg, "whatwg"), (Policy::Detect, "detect")];

/// Options of `declared-eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Which half of the held-out lines: `test` (the reported figures) or
    /// `tune`.
    #[arg(long, default_value = "test")]
    part: String,
    /// Pages per encoding, spread over its languages.
    #[arg(long, default_value_t = 24)]
    per: usize,
    /// Print each page `verify` gets wrong.
    #[arg(long)]
    show_errors: bool,
}

/// One declared page.
struct Page {
    encoding: &'static str,
    kind: usize,
    label: &'static str,
    language: &'static str,
    bytes: Vec<u8>,
    /// What its own encoding decodes it to.
    text: String,
}

/// A web page of `lines`, declared `label`.
fn html(label: &str, lines: &[&String]) -> String {
    let title: String = lines[0].split(' ').take(6).collect::<Vec<_>>().join(" ");
    let mut page = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"{label}\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"/css/site.css\">\n</head><body>\n\
         <div id=\"nav\"><a href=\"/\">Home</a> | <a href=\"/about\">About</a></div>\n"
    );
    for line in lines {
        let _ = writeln!(page, "<p>{line}</p>");
    }
    page.push_str("</body></html>\n");
    page
}

/// The pages of one encoding.
fn pages(name: &'static str, languages: &[&'static str], tune: bool, per: usize) -> Vec<Page> {
    let charset = charsight::label::resolve(name.as_bytes()).expect("a known charset");
    let texts: Vec<(&'static str, Vec<String>)> =
        languages.iter().map(|&l| (l, samples::lines(charset, l, tune))).collect();
    let own = |bytes: &[u8]| charset.decode(bytes).0.into_owned();
    let mut pages = Vec::new();
    for k in 0..per {
        let (language, lines) = &texts[k % texts.len()];
        if lines.is_empty() {
            continue;
        }
        let seed = fnv(name, k as u64);
        let count = 1 + (seed % 8) as usize;
        let start = (seed >> 8) as usize % lines.len();
        let chosen: Vec<&String> = lines.iter().cycle().skip(start).take(count).collect();
        let encode = |label: &str| charset.encode(&html(label, &chosen)).0.into_owned();
        let bytes = encode(name);
        let text = own(&bytes);
        for label in LABELS {
            let lying = encode(label);
            let declared = charsight::label::resolve(label.as_bytes()).expect("a known label");
            let text = own(&lying);
            if declared.decode(&lying).0 != text {
                pages.push(Page { encoding: name, kind: 1, label, language, text, bytes: lying });
            }
        }
        // The stray byte goes before a non-ASCII character of the body.
        let body = bytes.windows(3).position(|w| w == b"<p>").unwrap_or(0);
        let highs: Vec<usize> = (body..bytes.len()).filter(|&i| bytes[i] >= 0x80).collect();
        if !highs.is_empty() {
            let at = highs[(seed >> 16) as usize % highs.len()];
            // At a character's start: after a byte that ends one.
            let at = (body..=at).rev().find(|&i| own(&bytes[..i]) + &own(&bytes[i..]) == text);
            if let Some(at) = at {
                let mut stray = bytes.clone();
                stray.insert(at, STRAY_BYTES[(seed >> 24) as usize % STRAY_BYTES.len()]);
                pages.push(Page {
                    encoding: name,
                    kind: 2,
                    label: name,
                    language,
                    text: own(&stray),
                    bytes: stray,
                });
            }
        }
        pages.push(Page { encoding: name, kind: 0, label: name, language, bytes, text });
    }
    pages
}

/// Where two decodes of the same bytes first differ: a few characters of
/// each from there.
fn first_difference(right: &str, wrong: &str) -> String {
    let at = right.chars().zip(wrong.chars()).take_while(|(a, b)| a == b).count();
    let part = |text: &str| text.chars().skip(at).take(12).collect::<String>();
    format!("{:?} read as {:?}", part(right), part(wrong))
}

pub fn run(args: &Args) -> Result<()> {
    let tune = match args.part.as_str() {
        "test" => false,
        "tune" => true,
        other => anyhow::bail!("--part is test or tune, not {other}"),
    };
    // Right pages per encoding, kind and policy; pages per encoding and kind.
    let mut right: BTreeMap<(&str, usize, usize), usize> = BTreeMap::new();
    let mut count: BTreeMap<(&str, usize), usize> = BTreeMap::new();
    let mut order = Vec::new();
    for &(name, languages) in SETS {
        let charset = charsight::label::resolve(name.as_bytes()).context("a known charset")?;
        if !charset.is_ascii_compatible() || name.starts_with("ISO-2022") {
            continue;
        }
        order.push(name);
        for page in pages(name, languages, tune, args.per) {
            *count.entry((page.encoding, page.kind)).or_default() += 1;
            for (p, &(policy, _)) in POLICIES.iter().enumerate() {
                let found = Engine::new().policy(policy).detect(&page.bytes);
                let ok = found.charset.decode(&page.bytes).0 == page.text;
                *right.entry((page.encoding, page.kind, p)).or_default() += usize::from(ok);
                if !ok && policy == Policy::Verify && args.show_errors {
                    let chosen = found.charset.decode(&page.bytes).0;
                    println!(
                        "{} [{}] {} declared {}: {} ({:?}), {}",
                        page.encoding,
                        page.language,
                        KINDS[page.kind],
                        page.label,
                        found.charset,
                        found.rule,
                        first_difference(&page.text, &chosen)
                    );
                }
            }
        }
    }
    let half = if tune { "tuning" } else { "test" };
    println!(
        "Declarations on generated pages ({half} half of the held-out lines): pages, and % decoded \
         right by the policies verify / whatwg / detect\n"
    );
    println!("| encoding | {} |", KINDS.join(" | "));
    println!("| --- |{}", " ---: |".repeat(KINDS.len()));
    let mut totals = [(0, [0; POLICIES.len()]); KINDS.len()];
    let cell = |pages: usize, ok: &[usize]| {
        let rates: Vec<String> = ok.iter().map(|&ok| format!("{:.1}", rate(ok, pages))).collect();
        format!("{pages}: {}", rates.join(" / "))
    };
    for name in order {
        let mut row = format!("| {name} |");
        for (kind, total) in totals.iter_mut().enumerate() {
            let pages = count.get(&(name, kind)).copied().unwrap_or(0);
            let ok: Vec<usize> = (0..POLICIES.len())
                .map(|p| right.get(&(name, kind, p)).copied().unwrap_or(0))
                .collect();
            total.0 += pages;
            total.1.iter_mut().zip(&ok).for_each(|(t, ok)| *t += ok);
            write!(row, " {} |", cell(pages, &ok))?;
        }
        println!("{row}");
    }
    let mut row = String::from("| **all** |");
    for (pages, ok) in &totals {
        let rates: Vec<String> = ok.iter().map(|&ok| format!("{:.2}", rate(ok, *pages))).collect();
        write!(row, " {pages}: {} |", rates.join(" / "))?;
    }
    println!("{row}");
    Ok(())
}
