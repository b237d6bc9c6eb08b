//! The language of plain ASCII text: per language, the cost of each ASCII
//! letter after another (case folded; every other ASCII character is one
//! class, a word boundary). The class bigrams of the models leave these
//! pairs out (they read alike in every ASCII-compatible encoding), but they
//! tell Italian from Catalan where a lone `ù`/`ó` cannot.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

/// Classes: 0 for any ASCII character other than a letter, 1–26 for `a`–`z`.
pub const CLASSES: usize = 27;

/// Weight of the unigram in the smoothed pair probability.
const BACKOFF: f64 = 4.0;
/// No pair costs more than this (in steps).
const MAX_COST: f64 = 160.0;

/// The class of an ASCII character, `None` for any other.
fn class(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(usize::from(c as u8 - b'a') + 1),
        'A'..='Z' => Some(usize::from(c as u8 - b'A') + 1),
        c if c.is_ascii() => Some(0),
        _ => None,
    }
}

/// Counts the pairs of ASCII classes in some lines (each line starts and
/// ends at a boundary; a character outside ASCII breaks the chain).
pub fn count<'a>(lines: impl Iterator<Item = &'a String>) -> Vec<u64> {
    let mut counts = vec![0; CLASSES * CLASSES];
    for line in lines {
        let mut prev = Some(0);
        for c in line.chars().chain([' ']) {
            let cur = class(c);
            if let (Some(p), Some(k)) = (prev, cur) {
                counts[p * CLASSES + k] += 1;
            }
            prev = cur;
        }
    }
    counts
}

/// One line of `ascii.tsv`: the id, then the counts, row by row.
pub fn line(id: &str, counts: &[u64]) -> String {
    let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
    format!("{id}\t{}\n", counts.join(" "))
}

/// Reads `ascii.tsv`: (id, counts) in file order.
pub fn read(tsv: &str) -> Result<Vec<(String, Vec<u64>)>> {
    let mut rows = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let (id, counts) = line.split_once('\t').context("ascii.tsv: id TAB counts")?;
        let counts: Vec<u64> = counts.split(' ').map(str::parse).collect::<Result<_, _>>()?;
        if counts.len() != CLASSES * CLASSES {
            bail!("ascii.tsv: {id} has {} counts, not {}", counts.len(), CLASSES * CLASSES);
        }
        rows.push((id.to_owned(), counts));
    }
    Ok(rows)
}

/// The cost (steps of `steps_per_bit`) of each class after each other one:
/// `-log2` of the pair's share of its row, smoothed towards the classes'
/// overall shares.
pub fn costs(counts: &[u64], steps_per_bit: f64) -> Vec<u8> {
    let mut unigram = vec![0.0; CLASSES];
    for (i, &n) in counts.iter().enumerate() {
        unigram[i % CLASSES] += n as f64;
    }
    let all: f64 = unigram.iter().sum();
    let unigram: Vec<f64> =
        unigram.iter().map(|u| (u + 0.5) / (all + 0.5 * CLASSES as f64)).collect();
    let mut costs = Vec::with_capacity(counts.len());
    for row in counts.chunks(CLASSES) {
        let total: f64 = row.iter().map(|&n| n as f64).sum();
        for (k, &n) in row.iter().enumerate() {
            let p = (n as f64 + BACKOFF * unigram[k]) / (total + BACKOFF);
            costs.push((-p.log2() * steps_per_bit).round().clamp(0.0, MAX_COST) as u8);
        }
    }
    costs
}

/// Emits `ASCII_PAIRS`, one row of costs per language in `ids` order.
pub fn emit(
    body: &mut String,
    ids: &[&str],
    rows: &[(String, Vec<u64>)],
    steps_per_bit: f64,
) -> Result<()> {
    writeln!(
        body,
        "/// The cost of an ASCII class after another in each language's plain ASCII\n\
         /// text, in steps: row (previous) × column, class 0 any ASCII character but\n\
         /// a letter, 1–26 the letters `a`–`z` (case folded). By language index: the\n\
         /// [`MODELS`], then [`CJK_COSTS`]."
    )?;
    write!(body, "pub static ASCII_PAIRS: [[u8; {}]; {}] = [", CLASSES * CLASSES, ids.len())?;
    for id in ids {
        let counts = rows
            .iter()
            .find(|r| r.0 == *id)
            .map(|r| &r.1)
            .with_context(|| format!("ascii.tsv: no {id} (run `count detect`)"))?;
        write!(body, "{:?},", costs(counts, steps_per_bit))?;
    }
    body.push_str("];\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_fold_case_and_break_at_other_characters() {
        let counts = count(["Ab é".to_owned()].iter());
        let (a, b, c) = (1, 2, 3);
        assert_eq!(counts[a * CLASSES + b], 1);
        assert_eq!(counts[a], 1); // line start, a
        assert_eq!(counts[b * CLASSES], 1); // b, space
                                            // é breaks the chain: space-é and é-end are left out.
        assert_eq!(counts.iter().sum::<u64>(), 3);
        let costs = costs(&counts, 8.0);
        assert!(costs[a * CLASSES + b] < costs[a * CLASSES + c]);
    }
}
