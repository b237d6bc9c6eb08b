//! `xtask reliability PATH... [--svg [FILE]]`: does the confidence of
//! `Engine::new().detect(bytes)` mean the probability of being right?
//!
//! `xtask calibrate` fits the content detector's temperature on synthetic
//! text; this command checks what a user gets from the whole engine on
//! labelled folders (the `../shared` corpora, `xtask everyday`). The
//! confidence is the probability that decoding with the chosen charset gives
//! the right text ([`crate::labels::right`]), so:
//! - a text answer on a binary file is wrong, whatever its confidence;
//! - an answer "not text" (`binary: true`) claims no decoding: these are
//!   counted on their own line (right when the file is binary), not binned;
//! - pure-ASCII bytes decode alike in every ASCII-compatible charset and
//!   have confidence 1 by definition (the engine's `ascii` flag: not UTF-16
//!   text, whose bytes are seven-bit too): counted on their own line, not binned.
//!
//! For each folder, and over all of them, prints per confidence bin the
//! answers, mean confidence and share right; the expected calibration error
//! (ECE: the answers-weighted mean of |confidence − share right| over the
//! bins), the answers at ≥ 0.99 and how many of them are wrong (target:
//! fewer than 1 in 200), and the Brier score (mean squared difference
//! between confidence and 1 for right, 0 for wrong). `--svg` draws the
//! reliability diagram of all folders together.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use charsight::Engine;

use crate::labels::{self, pct, right, Answer};

#[derive(clap::Args)]
pub struct Args {
    /// Folders with a labels.tsv.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write a reliability diagram (SVG) of all folders together.
    #[arg(long, num_args = 0..=1, default_missing_value = "docs/reliability.svg")]
    svg: Option<PathBuf>,
    /// List the wrong answers given with confidence ≥ 0.99.
    #[arg(long)]
    misses: bool,
}

/// Bin edges; the last bin is closed ([0.99, 1.0]).
const EDGES: [f64; 13] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0];

/// The answers of one folder (or all).
#[derive(Default)]
struct Answers {
    /// Binned answers: confidence and whether right.
    text: Vec<(f64, bool)>,
    /// Pure-ASCII files: answers and right.
    ascii: (usize, usize),
    /// "Not text" answers: answers and right (the file is binary).
    binary: (usize, usize),
    /// Files labelled binary, and those given a text answer.
    binary_files: (usize, usize),
}

impl Answers {
    fn extend(&mut self, other: &Answers) {
        self.text.extend_from_slice(&other.text);
        self.ascii = (self.ascii.0 + other.ascii.0, self.ascii.1 + other.ascii.1);
        self.binary = (self.binary.0 + other.binary.0, self.binary.1 + other.binary.1);
        self.binary_files = (
            self.binary_files.0 + other.binary_files.0,
            self.binary_files.1 + other.binary_files.1,
        );
    }
}

/// One bin: answers, mean confidence, share right.
struct Bin {
    lo: f64,
    hi: f64,
    answers: usize,
    confidence: f64,
    accuracy: f64,
}

fn bins(text: &[(f64, bool)]) -> Vec<Bin> {
    EDGES
        .windows(2)
        .enumerate()
        .map(|(i, pair)| {
            let (lo, hi) = (pair[0], pair[1]);
            let last = i == EDGES.len() - 2;
            let inside: Vec<&(f64, bool)> =
                text.iter().filter(|(p, _)| *p >= lo && (*p < hi || last)).collect();
            let n = inside.len();
            let mean = |f: &dyn Fn(&(f64, bool)) -> f64| {
                if n == 0 {
                    0.0
                } else {
                    inside.iter().map(|a| f(a)).sum::<f64>() / n as f64
                }
            };
            Bin {
                lo,
                hi,
                answers: n,
                confidence: mean(&|a| a.0),
                accuracy: mean(&|a| f64::from(u8::from(a.1))),
            }
        })
        .collect()
}

fn read(dir: &Path, engine: &Engine, misses: bool) -> Result<Answers> {
    let mut answers = Answers::default();
    for file in labels::read(dir)? {
        let bytes = std::fs::read(&file.path)
            .with_context(|| format!("reading {}", file.path.display()))?;
        let detection = engine.detect(&bytes);
        let answer =
            if detection.binary { Answer::Binary } else { Answer::Charset(detection.charset) };
        let ok = right(&bytes, &file.label, &answer);
        if file.is_binary() {
            answers.binary_files.0 += 1;
            answers.binary_files.1 += usize::from(!detection.binary);
        }
        if detection.binary {
            answers.binary.0 += 1;
            answers.binary.1 += usize::from(ok);
        } else if detection.ascii && !file.is_binary() {
            answers.ascii.0 += 1;
            answers.ascii.1 += usize::from(ok);
        } else {
            let confidence = f64::from(detection.confidence);
            if misses && !ok && confidence >= 0.99 {
                println!(
                    "wrong at {confidence:.3}: {} ({}): {} ({}, {})",
                    file.path.display(),
                    file.label,
                    detection.charset.name(),
                    detection.source.name(),
                    detection.rule.name()
                );
            }
            answers.text.push((confidence, ok));
        }
    }
    Ok(answers)
}

fn report(name: &str, answers: &Answers) {
    let text = &answers.text;
    println!("{name}: {} answers binned", text.len());
    println!(
        "{:<13} {:>7} {:>10} {:>8} {:>7}",
        "confidence", "answers", "mean conf", "right", "gap"
    );
    let bins = bins(text);
    for bin in bins.iter().filter(|b| b.answers > 0) {
        let close = if bin.hi >= 1.0 { ']' } else { ')' };
        println!(
            "{:<13} {:>7} {:>10.3} {:>8.3} {:>7.3}",
            format!("[{:.2},{:.2}{close}", bin.lo, bin.hi),
            bin.answers,
            bin.confidence,
            bin.accuracy,
            (bin.confidence - bin.accuracy).abs()
        );
    }
    let n = text.len().max(1) as f64;
    let ece: f64 =
        bins.iter().map(|b| b.answers as f64 / n * (b.confidence - b.accuracy).abs()).sum();
    let brier: f64 =
        text.iter().map(|(p, r)| (p - f64::from(u8::from(*r))).powi(2)).sum::<f64>() / n;
    let sure: Vec<&(f64, bool)> = text.iter().filter(|(p, _)| *p >= 0.99).collect();
    let sure_wrong = sure.iter().filter(|(_, r)| !r).count();
    let right = text.iter().filter(|(_, r)| *r).count();
    println!(
        "share right {} ; ECE {ece:.3} ; Brier {brier:.3} ; at >= 0.99: {} answers, {sure_wrong} wrong ({}, target < 0.5%)",
        pct(right, text.len()),
        sure.len(),
        pct(sure_wrong, sure.len())
    );
    let (ascii, ascii_right) = answers.ascii;
    let (binary, binary_right) = answers.binary;
    let (binary_files, as_text) = answers.binary_files;
    println!(
        "not binned: pure ASCII {ascii} ({} right); answered not-text {binary} ({} of them binary files); binary files given a text answer: {as_text} of {binary_files}",
        pct(ascii_right, ascii),
        pct(binary_right, binary)
    );
    println!();
}

/// A reliability diagram: bars per bin (share right) over the diagonal,
/// the mean confidence as a dot, the answers above.
fn svg(answers: &Answers, title: &str) -> String {
    let (size, margin) = (520.0, 60.0);
    let plot = size - 2.0 * margin;
    let x = |p: f64| margin + p * plot;
    let y = |p: f64| size - margin - p * plot;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"11\">",
        size + 40.0
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(out, "<text x=\"{margin}\" y=\"24\" font-size=\"13\">{title}</text>");
    for i in 0..=10 {
        let p = f64::from(i) / 10.0;
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{p:.1}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{p:.1}</text>",
            x(p), y(0.0), x(p), y(1.0), x(p), y(0.0) + 16.0, x(0.0) - 6.0, y(p) + 4.0
        );
    }
    for bin in bins(&answers.text).iter().filter(|b| b.answers > 0) {
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#6a9fd4\" stroke=\"#2b5d8f\"/>",
            x(bin.lo),
            y(bin.accuracy),
            (x(bin.hi) - x(bin.lo)).max(1.0),
            y(0.0) - y(bin.accuracy)
        );
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#c0392b\"/>",
            x(bin.confidence),
            y(bin.accuracy)
        );
        if bin.lo < 0.9 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x((bin.lo + bin.hi) / 2.0),
                y(bin.accuracy) - 6.0,
                bin.answers
            );
        }
    }
    // The bins near 1 are too narrow to label: their counts go top left.
    let narrow = bins(&answers.text).into_iter().filter(|b| b.lo >= 0.9 && b.answers > 0);
    for (i, bin) in narrow.enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">[{:.2}, {:.2}{}: {} answers, {:.1}% right</text>",
            x(0.02),
            y(1.0) + 16.0 + 14.0 * i as f64,
            bin.lo,
            bin.hi,
            if bin.hi >= 1.0 { ']' } else { ')' },
            bin.answers,
            100.0 * bin.accuracy
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\" stroke-dasharray=\"4 3\"/>",
        x(0.0),
        y(0.0),
        x(1.0),
        y(1.0)
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">confidence (bars: bins; dots: mean confidence)</text>",
        size / 2.0,
        size - margin + 34.0
    );
    let _ = writeln!(
        out,
        "<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">share right</text>",
        size / 2.0,
        size / 2.0
    );
    let n = answers.text.len().max(1) as f64;
    let ece: f64 = bins(&answers.text)
        .iter()
        .map(|b| b.answers as f64 / n * (b.confidence - b.accuracy).abs())
        .sum();
    let sure = answers.text.iter().filter(|(p, _)| *p >= 0.99).count();
    let sure_wrong = answers.text.iter().filter(|(p, r)| *p >= 0.99 && !r).count();
    let _ = writeln!(
        out,
        "<text x=\"{margin}\" y=\"{}\">{} answers; ECE {ece:.3}; at ≥ 0.99: {sure} answers, {sure_wrong} wrong</text>",
        size + 24.0,
        answers.text.len()
    );
    out.push_str("</svg>\n");
    out
}

pub fn run(args: &Args) -> Result<()> {
    let engine = Engine::new();
    let mut all = Answers::default();
    for dir in &args.paths {
        let answers = read(dir, &engine, args.misses)?;
        report(&dir.display().to_string(), &answers);
        all.extend(&answers);
    }
    if args.paths.len() > 1 {
        report("all folders", &all);
    }
    if let Some(path) = &args.svg {
        let names: Vec<String> = args
            .paths
            .iter()
            .map(|p| p.file_name().map_or(p.display().to_string(), |n| n.to_string_lossy().into()))
            .collect();
        let title = format!("Engine::detect confidence: {}", names.join(", "));
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, svg(&all, &title))
            .with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
