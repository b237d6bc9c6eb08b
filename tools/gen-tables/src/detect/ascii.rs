//! The language of plain ASCII text: per language, the cost of each ASCII
//! letter after another (case folded; every other ASCII character is one
//! class, a word boundary). The class bigrams of the models leave these
//! pairs out (they read alike in every ASCII-compatible encoding), but they
//! tell Italian from Catalan where a lone `ù`/`ó` cannot.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

use super::model::smoothed_costs;

/// Classes: 0 for any ASCII character other than a letter, 1–26 for `a`–`z`.
pub const CLASSES: usize = 27;

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

/// The cost (in steps) of each class after each other one, smoothed as the
/// models' class bigrams are ([`smoothed_costs`]).
pub fn costs(counts: &[u64]) -> Vec<u8> {
    let counts: Vec<f64> = counts.iter().map(|&n| n as f64).collect();
    smoothed_costs(&counts, CLASSES, MAX_COST)
}

/// Emits `ASCII_PAIRS`, one row of costs per language in `ids` order.
pub fn emit(body: &mut String, ids: &[&str], rows: &[(String, Vec<u64>)]) -> Result<()> {
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
        write!(body, "{:?},", costs(counts))?;
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
        let costs = costs(&counts);
        assert!(costs[a * CLASSES + b] < costs[a * CLASSES + c]);
    }
}
