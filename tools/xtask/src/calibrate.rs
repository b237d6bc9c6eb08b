//! `xtask calibrate PATH...`: fits the temperature of the detector's
//! confidence on labelled files (the tuning half of the held-out text:
//! `xtask samples --part tune`), and prints the reliability of the
//! confidence: among guesses with confidence about p, how many are right.
//!
//! A candidate's confidence is a softmax over the readings' costs with a
//! temperature T (bits per halving of probability), summed over the
//! readings that decode the bytes alike. The fit minimises the log loss of
//! the probability given to the right text; `--temperature T` only reports
//! the reliability at T (for the test half).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use anyhow::{Context, Result};
use charsight::detect::Detector;
use charsight::Charset;

#[derive(clap::Args)]
pub struct Args {
    /// Folders with a labels.tsv.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Report the reliability at this temperature instead of fitting one.
    #[arg(long)]
    temperature: Option<f64>,
}

/// One file: each candidate's bits behind the best, whether it decodes the
/// file right, and which text it decodes to (a hash).
struct Sample {
    candidates: Vec<(f64, bool, u64)>,
    reported: f64,
}

impl Sample {
    /// The probability the guess is right at temperature `t`.
    fn confidence(&self, t: f64) -> f64 {
        let Some(&(_, _, text)) = self.candidates.first() else { return 0.0 };
        let weight = |bits: f64| (-bits / t).exp2();
        let total: f64 = self.candidates.iter().map(|c| weight(c.0)).sum();
        // The guess's group: the candidates that decode as it does.
        let group: f64 = self.candidates.iter().filter(|c| c.2 == text).map(|c| weight(c.0)).sum();
        group / total
    }

    /// The probability given to the right text at temperature `t`.
    fn right_probability(&self, t: f64) -> f64 {
        let weight = |bits: f64| (-bits / t).exp2();
        let total: f64 = self.candidates.iter().map(|c| weight(c.0)).sum();
        let right: f64 = self.candidates.iter().filter(|c| c.1).map(|c| weight(c.0)).sum();
        right / total
    }

    fn guessed_right(&self) -> bool {
        self.candidates.first().is_some_and(|c| c.1)
    }
}

fn read(paths: &[PathBuf]) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for dir in paths {
        let tsv = std::fs::read_to_string(dir.join("labels.tsv"))
            .with_context(|| format!("reading {}/labels.tsv", dir.display()))?;
        for line in tsv.lines().skip(1) {
            let mut fields = line.split('\t');
            let (Some(name), Some(label)) = (fields.next(), fields.next()) else { continue };
            let Ok(truth) = charsight::label::resolve(label.as_bytes()) else { continue };
            let bytes = std::fs::read(dir.join(name))?;
            let mut detector = Detector::new();
            detector.feed(&bytes, true);
            let guess = detector.guess();
            let truth_text = truth.decode(&bytes).0.into_owned();
            let read = |c: Charset| {
                let text = c.decode(&bytes).0;
                let mut hasher = DefaultHasher::new();
                text.hash(&mut hasher);
                (c == truth || text == truth_text, hasher.finish())
            };
            samples.push(Sample {
                candidates: guess
                    .candidates
                    .iter()
                    .map(|c| {
                        let (right, text) = read(c.charset);
                        (f64::from(c.bits_behind), right, text)
                    })
                    .collect(),
                reported: f64::from(guess.confidence),
            });
        }
    }
    Ok(samples)
}

pub fn run(args: &Args) -> Result<()> {
    let samples = read(&args.paths)?;
    let loss = |t: f64| -> f64 {
        samples.iter().map(|s| -s.right_probability(t).max(1e-12).ln()).sum::<f64>()
            / samples.len() as f64
    };
    let t = match args.temperature {
        Some(t) => t,
        None => {
            let grid = (10..=120).map(|i| f64::from(i) / 10.0);
            let best = grid.min_by(|a, b| loss(*a).total_cmp(&loss(*b))).unwrap_or(1.0);
            println!("fitted temperature: {best:.1} bits (log loss {:.4})", loss(best));
            best
        }
    };
    println!("{} samples; log loss at T={t:.1}: {:.4}", samples.len(), loss(t));
    println!("{:<12} {:>7} {:>10} {:>10}", "confidence", "guesses", "mean conf", "right");
    let bins = [0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 1.0001];
    for pair in bins.windows(2) {
        let (lo, hi) = (pair[0], pair[1]);
        let in_bin: Vec<&Sample> =
            samples.iter().filter(|s| (lo..hi).contains(&s.confidence(t))).collect();
        if in_bin.is_empty() {
            continue;
        }
        let mean = in_bin.iter().map(|s| s.confidence(t)).sum::<f64>() / in_bin.len() as f64;
        let right =
            in_bin.iter().filter(|s| s.guessed_right()).count() as f64 / in_bin.len() as f64;
        println!(
            "{:<12} {:>7} {:>10.4} {:>10.4}",
            format!("[{lo:.3},{:.3})", hi.min(1.0)),
            in_bin.len(),
            mean,
            right
        );
    }
    let reported = samples.iter().map(|s| s.reported).sum::<f64>() / samples.len() as f64;
    let right = samples.iter().filter(|s| s.guessed_right()).count() as f64 / samples.len() as f64;
    println!("mean reported confidence {reported:.4}, share right {right:.4}");
    Ok(())
}
