//! `xtask samples`: synthetic labelled samples cut from the held-out lines
//! of `../shared/text` and encoded in each encoding the detector covers.
//!
//! Deterministic: the same command writes the same files. Held-out lines
//! are split in two by `testkit::tuning_line`: `--part test` (the default)
//! for evaluation, `--part tune` for calibrating confidence. Only lines the
//! encoding can write without loss are used (Vietnamese is first put in the
//! form windows-1258 writes it).
//!
//! Writes `<dir>/<encoding>/<language>-<length>-<n>.txt` and
//! `<dir>/labels.tsv` (`path TAB encoding TAB language TAB length`); with
//! `--large`, files of 64 KiB to 2 MiB for throughput instead, the text
//! wrapped in HTML markup every few lines as web pages are.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use charsight::Charset;

/// Which encodings, in which languages.
pub const SETS: &[(&str, &[&str])] = &[
    ("UTF-8", &["en", "fr", "ru", "el", "ja", "zh-Hans", "ko", "ar", "th", "vi", "hi"]),
    ("UTF-16LE", &["en", "ru", "ja", "zh-Hans"]),
    ("UTF-16BE", &["en", "ru", "ja", "zh-Hans"]),
    ("UTF-32LE", &["en", "ru", "zh-Hant"]),
    ("UTF-32BE", &["en", "ru", "ko"]),
    ("ISO-2022-JP", &["ja"]),
    ("Shift_JIS", &["ja"]),
    ("EUC-JP", &["ja"]),
    ("GBK", &["zh-Hans"]),
    ("Big5", &["zh-Hant"]),
    ("EUC-KR", &["ko"]),
    ("windows-1250", &["pl", "cs", "sk", "hu", "hr", "sl"]),
    ("windows-1251", &["ru", "uk", "bg", "be", "sr", "mk"]),
    (
        "windows-1252",
        &["en", "de", "fr", "es", "pt", "it", "nl", "sv", "da", "no", "fi", "is", "ga", "ca"],
    ),
    ("windows-1253", &["el"]),
    ("windows-1254", &["tr"]),
    ("windows-1255", &["he"]),
    ("windows-1256", &["ar"]),
    ("windows-1257", &["lt", "lv", "et"]),
    ("windows-1258", &["vi"]),
    ("windows-874", &["th"]),
    ("ISO-8859-2", &["pl", "cs", "sk", "hu", "hr", "sl"]),
    ("ISO-8859-3", &["tr"]),
    ("ISO-8859-4", &["lt", "lv", "et"]),
    ("ISO-8859-5", &["ru", "uk", "bg", "be", "sr", "mk"]),
    ("ISO-8859-6", &["ar"]),
    ("ISO-8859-7", &["el"]),
    ("ISO-8859-8", &["he"]),
    ("ISO-8859-10", &["is", "da", "no", "sv", "fi"]),
    ("ISO-8859-13", &["lt", "lv", "et"]),
    ("ISO-8859-14", &["ga"]),
    ("ISO-8859-15", &["fr", "de", "es", "it", "fi", "et", "nl"]),
    ("ISO-8859-16", &["ro"]),
    ("KOI8-R", &["ru", "bg"]),
    ("KOI8-U", &["uk", "ru"]),
    ("IBM866", &["ru", "bg"]),
    ("x-mac-cyrillic", &["ru", "uk", "bg"]),
    ("macintosh", &["en", "fr", "de", "es", "it", "pt"]),
    ("IBM437", &["en", "de", "fr", "es"]),
    ("IBM737", &["el"]),
    ("IBM775", &["lt", "lv", "et"]),
    ("IBM850", &["de", "fr", "es", "it", "pt", "nl", "sv", "fi"]),
    ("IBM852", &["pl", "cs", "sk", "hu", "hr", "sl"]),
    ("IBM855", &["ru", "bg", "sr", "mk"]),
    ("IBM857", &["tr"]),
    ("IBM860", &["pt"]),
    ("IBM861", &["is"]),
    ("IBM862", &["he"]),
    ("IBM863", &["fr"]),
    ("IBM865", &["da", "no"]),
    ("IBM869", &["el"]),
    ("CP1125", &["uk"]),
    ("x-mac-ce", &["pl", "cs", "hu", "sk"]),
    ("VISCII", &["vi"]),
    ("KZ-1048", &["kk"]),
    ("PTCP154", &["kk"]),
    ("ARMSCII-8", &["hy"]),
    ("GEORGIAN-PS", &["ka"]),
    ("Johab", &["ko"]),
    ("EUC-TW", &["zh-Hant"]),
    ("ISO-2022-KR", &["ko"]),
];

/// Sample lengths in bytes.
pub const LENGTHS: [usize; 4] = [32, 128, 512, 4096];

#[derive(clap::Args)]
pub struct Args {
    /// Directory to write into (created; existing files are overwritten).
    #[arg(long)]
    out: PathBuf,
    /// Which half of the held-out lines: test or tune.
    #[arg(long, default_value = "test")]
    part: String,
    /// Samples per encoding and length, spread over its languages.
    #[arg(long, default_value_t = 120)]
    per: usize,
    /// Write large files (64 KiB to 2 MiB) for throughput instead.
    #[arg(long)]
    large: bool,
}

/// The lines a charset can write, of one language and part, in the form
/// written (Vietnamese in windows-1258's form for that encoding).
pub fn lines(charset: Charset, language: &str, tune: bool) -> Vec<String> {
    testkit::text_lines(language, true)
        .into_iter()
        .filter(|line| testkit::tuning_line(line) == tune)
        .map(|line| match charset {
            Charset::Windows1258 => testkit::windows_1258_form(&line),
            _ => line,
        })
        .filter(|line| !charset.encode(line).1)
        .collect()
}

/// `text` encoded, cut to at most `len` bytes at a character boundary: the
/// longest prefix whose encoding fits (by bisection, as encoders with state
/// such as ISO-2022-JP's add escapes).
fn cut(charset: Charset, text: &str, len: usize) -> Vec<u8> {
    let ends: Vec<usize> = text.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
    let encode = |chars: usize| {
        let end = if chars == 0 { 0 } else { ends[chars - 1] };
        charset.encode(&text[..end]).0.into_owned()
    };
    let (mut fits, mut too_long) = (0, ends.len() + 1);
    while too_long - fits > 1 {
        let mid = (fits + too_long) / 2;
        if encode(mid).len() <= len {
            fits = mid;
        } else {
            too_long = mid;
        }
    }
    encode(fits)
}

pub fn run(args: &Args) -> Result<()> {
    let tune = match args.part.as_str() {
        "test" => false,
        "tune" => true,
        other => anyhow::bail!("--part is test or tune, not {other}"),
    };
    let kind = if args.large { Kind::Large } else { Kind::Short(&LENGTHS) };
    write(&args.out, tune, args.per, kind)
}

/// What [`write()`] writes.
pub enum Kind<'a> {
    /// Samples of these lengths in bytes.
    Short(&'a [usize]),
    /// Large files (see [`write_large`]).
    Large,
}

/// Writes the samples of one part into `out` with their `labels.tsv`:
/// `per` samples per encoding and length, or the large files.
pub fn write(out: &std::path::Path, tune: bool, per: usize, kind: Kind) -> Result<()> {
    std::fs::create_dir_all(out)?;
    let mut labels = String::from("path\tencoding\tlanguage\tlength\n");
    for &(name, languages) in SETS {
        let charset = charsight::label::resolve(name.as_bytes()).context("a known charset")?;
        let texts: Vec<(&str, Vec<String>)> =
            languages.iter().map(|&l| (l, lines(charset, l, tune))).collect();
        let dir = out.join(name);
        std::fs::create_dir_all(&dir)?;
        let lengths = match kind {
            Kind::Large => {
                write_large(charset, &texts, &dir, name, &mut labels)?;
                continue;
            }
            Kind::Short(lengths) => lengths,
        };
        for &len in lengths {
            for k in 0..per {
                let (language, lines) = &texts[k % texts.len()];
                if lines.is_empty() {
                    continue;
                }
                // Start at a different line for each sample, spread over the text.
                let n = k / texts.len();
                let start = (n * 7919) % lines.len();
                let mut text = String::new();
                for line in lines.iter().cycle().skip(start) {
                    if text.len() > len * 4 + 64 {
                        break;
                    }
                    text.push_str(line);
                    text.push('\n');
                }
                let bytes = cut(charset, &text, len);
                let file = format!("{language}-{len}-{n}.txt");
                std::fs::write(dir.join(&file), &bytes)?;
                writeln!(labels, "{name}/{file}\t{name}\t{language}\t{len}")?;
            }
        }
    }
    std::fs::write(out.join("labels.tsv"), labels)?;
    Ok(())
}

/// Large files: 64 KiB, 256 KiB, 1 MiB and 2 MiB in each language, the
/// text in paragraphs of HTML.
fn write_large(
    charset: Charset,
    texts: &[(&str, Vec<String>)],
    dir: &std::path::Path,
    name: &str,
    labels: &mut String,
) -> Result<()> {
    for (language, lines) in texts.iter().take(2) {
        if lines.is_empty() {
            continue;
        }
        for size in [64 << 10, 256 << 10, 1 << 20, 2 << 20] {
            let mut html = String::from("<!DOCTYPE html>\n<html><head><title>sample</title>");
            html.push_str("<style>p { margin: 0 }</style></head><body>\n");
            for (i, line) in lines.iter().cycle().enumerate() {
                if html.len() >= size {
                    break;
                }
                writeln!(
                    html,
                    "<p class=\"p{}\"><a href=\"/page/{i}.html\">{i}</a> {line}</p>",
                    i % 7
                )?;
            }
            let bytes = charset.encode(&html).0.into_owned();
            let file = format!("{language}-{size}.html");
            std::fs::write(dir.join(&file), &bytes)?;
            writeln!(labels, "{name}/{file}\t{name}\t{language}\t{size}")?;
        }
    }
    Ok(())
}
