//! `xtask compare PATH...`: content detection by charsight and by chardetng
//! (UTF-8 allowed, no TLD) over the same labelled files, in one process.
//!
//! Each PATH is a folder with a `labels.tsv` (`path TAB encoding …`, with a
//! header; a `length` column, as `xtask samples` writes, adds a table by
//! length). A detection is right when it decodes the file to the same text
//! as the true encoding (GBK for a GB2312 file, windows-1252 for an
//! ISO-8859-1 file that decodes alike); for a file labelled `ASCII` any
//! ASCII-compatible answer is right.
//!
//! Speed is whole-process: each file's full size over the time the
//! detector took on it (construction, feeding the whole file in one call,
//! the guess), summed over the files; reading the files is not timed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use charsight::detect::Detector;
use charsight::Charset;

#[derive(clap::Args)]
pub struct Args {
    /// Folders with a labels.tsv.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only files of at least this many bytes.
    #[arg(long, default_value_t = 0)]
    min_size: u64,
    /// List the files charsight gets wrong.
    #[arg(long)]
    misses: bool,
}

/// One labelled file.
struct Labelled {
    path: PathBuf,
    name: String,
    label: String,
    /// The language of the text, where labels.tsv has a `language` column.
    language: Option<String>,
    length: Option<usize>,
}

fn read_labels(dir: &Path) -> Result<Vec<Labelled>> {
    let tsv = std::fs::read_to_string(dir.join("labels.tsv"))
        .with_context(|| format!("reading {}/labels.tsv", dir.display()))?;
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().context("labels.tsv is empty")?.split('\t').collect();
    let length_column = header.iter().position(|&h| h == "length");
    let language_column = header.iter().position(|&h| h == "language");
    let mut files = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 2 {
            bail!("labels.tsv: bad line {line:?}");
        }
        files.push(Labelled {
            path: dir.join(fields[0]),
            name: fields[0].to_owned(),
            label: fields[1].to_owned(),
            language: language_column
                .and_then(|i| fields.get(i))
                .filter(|l| !l.is_empty())
                .map(|l| l.to_string()),
            length: length_column.and_then(|i| fields.get(i)?.parse().ok()),
        });
    }
    Ok(files)
}

/// Whether `answer` decodes `bytes` as the true encoding `label` does.
fn right(bytes: &[u8], label: &str, answer: Option<Charset>) -> bool {
    let Some(answer) = answer else { return false };
    if label.eq_ignore_ascii_case("ascii") {
        return bytes.is_ascii() && answer.is_ascii_compatible() || answer.name() == "UTF-8";
    }
    match charsight::label::resolve(label.as_bytes()) {
        Ok(truth) => truth == answer || truth.decode(bytes).0 == answer.decode(bytes).0,
        // An encoding charsight cannot decode: right only by name.
        Err(_) => answer.name().eq_ignore_ascii_case(label),
    }
}

/// Right answers and files, per key.
#[derive(Default, Clone, Copy)]
struct Tally {
    files: usize,
    ours: usize,
    theirs: usize,
}

impl Tally {
    fn add(&mut self, ours: bool, theirs: bool) {
        self.files += 1;
        self.ours += usize::from(ours);
        self.theirs += usize::from(theirs);
    }
}

fn pct(right: usize, files: usize) -> String {
    if files == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", 100.0 * right as f64 / files as f64)
    }
}

pub fn run(args: &Args) -> Result<()> {
    let mut by_encoding: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_length: BTreeMap<(String, usize), Tally> = BTreeMap::new();
    let mut overall = Tally::default();
    // Files with a language label, and those whose language charsight gives.
    let (mut with_language, mut language_right) = (0usize, 0usize);
    let (mut ours_time, mut theirs_time) = (Duration::ZERO, Duration::ZERO);
    let mut bytes_total = 0u64;
    for dir in &args.paths {
        for file in read_labels(dir)? {
            let bytes = std::fs::read(&file.path)
                .with_context(|| format!("reading {}", file.path.display()))?;
            if (bytes.len() as u64) < args.min_size {
                continue;
            }
            bytes_total += bytes.len() as u64;

            let start = Instant::now();
            let mut detector = Detector::new();
            detector.feed(&bytes, true);
            let guess = detector.guess();
            ours_time += start.elapsed();

            let start = Instant::now();
            let mut chardetng = chardetng::EncodingDetector::new();
            chardetng.feed(&bytes, true);
            let theirs = chardetng.guess(None, true);
            theirs_time += start.elapsed();

            let ours_right = right(&bytes, &file.label, guess.charset);
            let theirs_right = right(&bytes, &file.label, Some(Charset::from(theirs)));
            if args.misses && !ours_right {
                println!(
                    "miss: {} ({}): charsight {} {:.3} {:?}, chardetng {}",
                    file.name,
                    file.label,
                    guess.charset.map_or("none", Charset::name),
                    guess.confidence,
                    guess.language,
                    theirs.name()
                );
            }
            by_encoding.entry(file.label.clone()).or_default().add(ours_right, theirs_right);
            if let Some(length) = file.length {
                by_length
                    .entry((file.label.clone(), length))
                    .or_default()
                    .add(ours_right, theirs_right);
            }
            overall.add(ours_right, theirs_right);
            if let Some(language) = &file.language {
                with_language += 1;
                // A label without a subtag ("zh") takes any of its forms ("zh-Hant").
                let ours = guess.language.unwrap_or_default();
                let same = ours == language
                    || !language.contains('-') && ours.split('-').next() == Some(language.as_str());
                language_right += usize::from(same);
                if args.misses && ours_right && !same {
                    println!("language: {} ({language}): charsight {ours:?}", file.name);
                }
            }
        }
    }
    println!("{:<16} {:>6} {:>10} {:>10}", "encoding", "files", "charsight", "chardetng");
    for (encoding, t) in &by_encoding {
        println!(
            "{encoding:<16} {:>6} {:>10} {:>10}",
            t.files,
            pct(t.ours, t.files),
            pct(t.theirs, t.files)
        );
    }
    println!(
        "{:<16} {:>6} {:>10} {:>10}",
        "overall",
        overall.files,
        pct(overall.ours, overall.files),
        pct(overall.theirs, overall.files)
    );
    if with_language > 0 {
        let right = pct(language_right, with_language);
        println!("{:<16} {with_language:>6} {right:>10}", "language");
    }
    let mb = bytes_total as f64 / 1e6;
    let (ours, theirs) = (mb / ours_time.as_secs_f64(), mb / theirs_time.as_secs_f64());
    println!(
        "{:<16} {:>6} {:>10.1} {:>10.1}  ({:.1}x chardetng; {:.1} MB in all)",
        "MB/s",
        "",
        ours,
        theirs,
        ours / theirs,
        mb
    );
    if !by_length.is_empty() {
        print_by_length(&by_length);
    }
    Ok(())
}

fn print_by_length(by_length: &BTreeMap<(String, usize), Tally>) {
    let mut lengths: Vec<usize> = by_length.keys().map(|k| k.1).collect();
    lengths.sort_unstable();
    lengths.dedup();
    println!();
    print!("{:<16}", "by length");
    for len in &lengths {
        print!(" {:>15}", format!("{len} (ours/cdng)"));
    }
    println!();
    let mut totals = vec![Tally::default(); lengths.len()];
    let encodings: std::collections::BTreeSet<&String> = by_length.keys().map(|k| &k.0).collect();
    for encoding in encodings {
        print!("{encoding:<16}");
        for (i, len) in lengths.iter().enumerate() {
            let t = by_length.get(&(encoding.clone(), *len)).copied().unwrap_or_default();
            totals[i].files += t.files;
            totals[i].ours += t.ours;
            totals[i].theirs += t.theirs;
            print!(" {:>15}", format!("{}/{}", pct(t.ours, t.files), pct(t.theirs, t.files)));
        }
        println!();
    }
    print!("{:<16}", "overall");
    for t in &totals {
        print!(" {:>15}", format!("{}/{}", pct(t.ours, t.files), pct(t.theirs, t.files)));
    }
    println!();
}
