//! `xtask compare PATH...`: charsight against the best anchors over the same
//! labelled files, in one run.
//!
//! The tools, in column order:
//! - `engine`: charsight as a user meets it, `Engine::new().detect(bytes)`
//!   (the default `verify` policy, which reads the page's own declarations);
//! - `detector`: charsight's content detector alone (`detect::Detector`);
//! - `chardetng`: in-process, UTF-8 allowed, no TLD (`guess(None, true)`);
//! - `chardet`: the PyPI package pinned in `py/requirements.txt`,
//!   `chardet.detect(bytes)`, and
//! - `uchardet`: Debian's libuchardet, both run by `py/anchors.py` in one
//!   Python process in the venv `xtask` makes (`--only-charsight` skips them).
//!
//! Each PATH is a folder with a `labels.tsv` (see [`crate::labels`] for the
//! columns and for when an answer is right). Python names are mapped to
//! charsight's charsets by `label::resolve` and a small table; a name
//! charsight cannot decode is right only when it is the label's name.
//!
//! Speed: each file's full size over the time the tool took on it, summed
//! over the files; reading the files is not timed. For chardet and uchardet
//! the time is measured inside their process around the detection call
//! (uchardet's includes the ctypes calls), so process start-up is not in it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use charsight::detect::Detector;
use charsight::{Charset, Engine, Source};

use crate::labels::{self, pct, right, Answer, Labelled};
use crate::venv;

#[derive(clap::Args)]
pub struct Args {
    /// Folders with a labels.tsv.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only files of at least this many bytes.
    #[arg(long, default_value_t = 0)]
    min_size: u64,
    /// List the files each tool gets wrong.
    #[arg(long)]
    misses: bool,
    /// Run charsight and chardetng only (no Python, no uchardet).
    #[arg(long)]
    only_charsight: bool,
}

/// The tools, in column order.
const TOOLS: [&str; 5] = ["engine", "detector", "chardetng", "chardet", "uchardet"];

/// Right answers per tool, and files, for one row of a table.
#[derive(Default, Clone, Copy)]
struct Tally {
    files: usize,
    right: [usize; 5],
}

impl Tally {
    fn add(&mut self, right: [bool; 5]) {
        self.files += 1;
        for (count, r) in self.right.iter_mut().zip(right) {
            *count += usize::from(r);
        }
    }
}

/// What chardet and uchardet said about one file, and the time each took.
struct Anchors {
    answers: [Answer; 2],
    seconds: [f64; 2],
    chardet_confidence: f64,
}

/// Runs `py/anchors.py` over `files`.
fn run_anchors(files: &[Labelled]) -> Result<Vec<Anchors>> {
    let python = venv::python()?;
    let list = std::env::temp_dir().join(format!("xtask-compare-{}.txt", std::process::id()));
    let mut text = String::new();
    for file in files {
        let path = file.path.canonicalize().unwrap_or_else(|_| file.path.clone());
        let path = path.to_str().context("a path that is not UTF-8")?;
        text.push_str(path);
        text.push('\n');
    }
    std::fs::write(&list, text)?;
    let output = venv::command(&python, "anchors.py").arg(&list).output();
    let _ = std::fs::remove_file(&list);
    let output = output.context("running anchors.py")?;
    if !output.status.success() {
        bail!("anchors.py failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    let mut anchors = Vec::with_capacity(files.len());
    for line in output.stdout.lines() {
        let json: serde_json::Value = serde_json::from_str(&line?)?;
        anchors.push(Anchors {
            answers: [
                Answer::from_name(json["chardet"].as_str()),
                Answer::from_name(json["uchardet"].as_str()),
            ],
            seconds: [
                json["chardet_s"].as_f64().unwrap_or(0.0),
                json["uchardet_s"].as_f64().unwrap_or(0.0),
            ],
            chardet_confidence: json["chardet_confidence"].as_f64().unwrap_or(0.0),
        });
    }
    if anchors.len() != files.len() {
        bail!("anchors.py answered {} of {} files", anchors.len(), files.len());
    }
    Ok(anchors)
}

/// The kind of a file: labels.tsv's `kind`, else `binary` or `text`.
fn kind(file: &Labelled) -> String {
    match &file.kind {
        Some(kind) => kind.clone(),
        None if file.is_binary() => "binary".to_owned(),
        None => "text".to_owned(),
    }
}

pub fn run(args: &Args) -> Result<()> {
    let mut files = Vec::new();
    for dir in &args.paths {
        for file in labels::read(dir)? {
            let size = std::fs::metadata(&file.path)
                .with_context(|| format!("reading {}", file.path.display()))?
                .len();
            if size >= args.min_size {
                files.push(file);
            }
        }
    }
    let tools = if args.only_charsight { 3 } else { 5 };
    let anchors = if args.only_charsight { Vec::new() } else { run_anchors(&files)? };

    let engine = Engine::new();
    let mut by_kind: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_encoding: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_length: BTreeMap<(String, usize), Tally> = BTreeMap::new();
    let mut overall = Tally::default();
    // Text files each tool called binary.
    let mut called_binary = [0usize; 5];
    let mut text_files = 0usize;
    let (mut ebcdic, mut ebcdic_files) = (0usize, 0usize);
    // Declared pages, and those whose true declaration charsight kept.
    let (mut declared, mut kept) = (0usize, 0usize);
    // Files with a language label, and those whose language charsight gives.
    let (mut with_language, mut language_right) = (0usize, 0usize);
    let mut seconds = [0f64; 5];
    let mut bytes_total = 0u64;
    let mut unknown_names: BTreeSet<String> = BTreeSet::new();
    let mut misses: Vec<Vec<String>> = vec![Vec::new(); 5];
    for (i, file) in files.iter().enumerate() {
        let bytes = std::fs::read(&file.path)
            .with_context(|| format!("reading {}", file.path.display()))?;
        bytes_total += bytes.len() as u64;

        let start = Instant::now();
        let detection = engine.detect(&bytes);
        seconds[0] += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let mut detector = Detector::new();
        detector.feed(&bytes, true);
        let guess = detector.guess();
        seconds[1] += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let mut chardetng = chardetng::EncodingDetector::new();
        chardetng.feed(&bytes, true);
        let theirs = chardetng.guess(None, true);
        seconds[2] += start.elapsed().as_secs_f64();

        // EBCDIC text is recognised, not decoded unless an EBCDIC code page
        // was declared: it names the family, which is right only for no
        // label (the figure is printed apart).
        let engine = match detection.ebcdic {
            Some(family) if !detection.charset.is_ebcdic() => {
                Answer::Name(family.name().to_owned())
            }
            None if detection.binary => Answer::Binary,
            _ => Answer::Charset(detection.charset),
        };
        ebcdic += usize::from(detection.ebcdic.is_some() && is_ebcdic(&file.label));
        ebcdic_files += usize::from(is_ebcdic(&file.label));
        let mut answers = vec![
            engine,
            match guess.charset {
                _ if guess.binary => Answer::Binary,
                Some(charset) => Answer::Charset(charset),
                None => Answer::Name("none".to_owned()),
            },
            Answer::Charset(Charset::from(theirs)),
        ];
        if let Some(anchor) = anchors.get(i) {
            answers.extend(anchor.answers.iter().cloned());
            seconds[3] += anchor.seconds[0];
            seconds[4] += anchor.seconds[1];
            for answer in &anchor.answers {
                if let Answer::Name(name) = answer {
                    unknown_names.insert(name.clone());
                }
            }
        }
        let mut rights = [false; 5];
        for (t, answer) in answers.iter().enumerate() {
            rights[t] = right(&bytes, &file.label, answer);
        }
        if !file.is_binary() {
            text_files += 1;
            for (count, answer) in called_binary.iter_mut().zip(&answers) {
                *count += usize::from(*answer == Answer::Binary);
            }
        }
        if args.misses {
            for t in (0..answers.len()).filter(|&t| !rights[t]) {
                let detail = match t {
                    0 => format!(
                        " {:.3} {} {:?}",
                        detection.confidence,
                        detection.source.name(),
                        detection.language
                    ),
                    1 => format!(" {:.3} {:?}", guess.confidence, guess.language),
                    3 => format!(" {:.3}", anchors[i].chardet_confidence),
                    _ => String::new(),
                };
                misses[t].push(format!(
                    "{} ({}): {}{detail}",
                    file.name,
                    file.label,
                    answers[t].name()
                ));
            }
        }
        by_kind.entry(kind(file)).or_default().add(rights);
        by_encoding.entry(file.label.clone()).or_default().add(rights);
        if let Some(length) = file.length {
            by_length.entry((file.label.clone(), length)).or_default().add(rights);
        }
        overall.add(rights);
        if let Some(label) = &file.declared {
            declared += 1;
            let from_document =
                matches!(detection.source, Source::Meta | Source::Http | Source::Xml);
            kept += usize::from(
                from_document && right(&bytes, label, &Answer::Charset(detection.charset)),
            );
        }
        if let Some(language) = &file.language {
            with_language += 1;
            // A label without a subtag ("zh") takes any of its forms ("zh-Hant").
            let ours = detection.language.unwrap_or_default();
            let same = ours == language
                || !language.contains('-') && ours.split('-').next() == Some(language.as_str());
            language_right += usize::from(same);
        }
    }

    if ebcdic_files > 0 {
        println!(
            "EBCDIC files the engine reported as EBCDIC (not decoded): {ebcdic} of {ebcdic_files}"
        );
    }
    if args.misses {
        for (t, list) in misses.iter().enumerate().take(tools) {
            println!("misses of {} ({}):", TOOLS[t], list.len());
            for line in list {
                println!("  {line}");
            }
        }
        println!();
    }
    let header = |title: &str| {
        print!("{title:<16} {:>6}", "files");
        for tool in &TOOLS[..tools] {
            print!(" {tool:>10}");
        }
        println!();
    };
    let row = |name: &str, t: &Tally| {
        print!("{name:<16} {:>6}", t.files);
        for right in &t.right[..tools] {
            print!(" {:>10}", pct(*right, t.files));
        }
        println!();
    };
    if by_kind.len() > 1 || files.iter().any(|f| f.kind.is_some()) {
        header("kind");
        for (kind, t) in &by_kind {
            row(kind, t);
        }
        row("overall", &overall);
        println!();
    }
    header("encoding");
    for (encoding, t) in &by_encoding {
        row(encoding, t);
    }
    row("overall", &overall);
    print!("{:<16} {text_files:>6}", "text as binary");
    for count in &called_binary[..tools] {
        print!(" {count:>10}");
    }
    println!();
    let mb = bytes_total as f64 / 1e6;
    print!("{:<16} {:>6}", "MB/s", "");
    for s in &seconds[..tools] {
        print!(" {:>10.1}", mb / s);
    }
    println!("  ({mb:.1} MB in all)");
    if declared > 0 {
        println!(
            "declared pages whose true declaration charsight kept: {kept} of {declared} ({})",
            pct(kept, declared)
        );
    }
    if with_language > 0 {
        println!(
            "language given by charsight's engine: {language_right} of {with_language} ({})",
            pct(language_right, with_language)
        );
    }
    if !unknown_names.is_empty() {
        println!("anchor names charsight cannot decode (right only by name): {unknown_names:?}");
    }
    if !by_length.is_empty() {
        println!();
        header("by length");
        for ((encoding, length), t) in &by_length {
            row(&format!("{encoding} {length}"), t);
        }
    }
    Ok(())
}

/// Whether a label names an EBCDIC code page (IBM037, IBM500, IBM1026,
/// IBM875, IBM424, the IBM1140 family, cp037, …).
fn is_ebcdic(label: &str) -> bool {
    let digits = label.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let code: u32 = digits.parse().unwrap_or(0);
    matches!(code, 37 | 273 | 277 | 278 | 280 | 284 | 285 | 297 | 424 | 500 | 875 | 1026)
        || (1140..=1149).contains(&code)
}
