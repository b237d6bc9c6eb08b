//! Plain ASCII text as a byte model: the cost of each printable ASCII
//! character after another (or after a break: a line's start, a control,
//! a character outside ASCII), counted over the training lines of every
//! language of `../shared/text`. The detector prices with it the bytes that
//! a seven-bit encoding reads as its double-byte characters, where every
//! other reading sees ASCII: `5<So` is no likely ASCII text, where HZ's
//! `~{5<So~}` is 导语.
//!
//! `count plain-ascii` writes `data/detect/plain.tsv`; `emit` (of the
//! `detect` family) turns it into `PLAIN_PAIRS`.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

use super::model::smoothed_costs;

/// Classes: 0 a break, 1–95 the printable characters 0x20–0x7E.
pub const CLASSES: usize = 96;

/// No pair costs more than this (in steps): 20 bits.
const MAX_COST: f64 = 160.0;

/// The class of a character.
fn class(c: char) -> usize {
    match c {
        ' '..='~' => usize::from(c as u8 - 0x1F),
        _ => 0,
    }
}

/// Counts the pairs of classes in some lines (each starts and ends at a
/// break).
pub fn count<'a>(lines: impl Iterator<Item = &'a String>) -> Vec<u64> {
    let mut counts = vec![0; CLASSES * CLASSES];
    for line in lines {
        let mut prev = 0;
        for c in line.chars().chain(['\n']) {
            let cur = class(c);
            if prev != 0 || cur != 0 {
                counts[prev * CLASSES + cur] += 1;
            }
            prev = cur;
        }
    }
    counts
}

/// The `count plain-ascii` step: `plain.tsv` from every language's
/// training lines.
pub fn count_all(languages: &[String]) -> Result<String> {
    let mut counts = vec![0; CLASSES * CLASSES];
    for tag in languages {
        let path = testkit::shared_dir().join("text").join(format!("{tag}.txt"));
        if !path.exists() {
            continue; // a language of the UDHR only
        }
        let lines = testkit::text_lines(tag, false);
        for (total, n) in counts.iter_mut().zip(count(lines.iter())) {
            *total += n;
        }
    }
    let mut tsv = String::from(
        "# detect: pairs of printable ASCII characters in the training lines of every \
         language of shared/text (a break, then 0x20 to 0x7E; a line, a control or a \
         character outside ASCII breaks): the 96 x 96 counts, one row (previous) a line.\n",
    );
    for row in counts.chunks(CLASSES) {
        let row: Vec<String> = row.iter().map(u64::to_string).collect();
        writeln!(tsv, "{}", row.join(" "))?;
    }
    Ok(tsv)
}

/// Reads `plain.tsv`.
pub fn read(tsv: &str) -> Result<Vec<u64>> {
    let mut counts = Vec::with_capacity(CLASSES * CLASSES);
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        for n in line.split(' ') {
            counts.push(n.parse().context("plain.tsv: a count")?);
        }
    }
    if counts.len() != CLASSES * CLASSES {
        bail!("plain.tsv: {} counts, not {}", counts.len(), CLASSES * CLASSES);
    }
    Ok(counts)
}

/// Emits `PLAIN_PAIRS`.
pub fn emit(body: &mut String, counts: &[u64]) -> Result<()> {
    let counts: Vec<f64> = counts.iter().map(|&n| n as f64).collect();
    let costs = smoothed_costs(&counts, CLASSES, MAX_COST);
    writeln!(
        body,
        "/// The cost of a printable ASCII character after another in plain text,\n\
         /// in steps: row (previous) × column, class 0 a break (a line's start or\n\
         /// end, a control, a character outside ASCII), 1–95 the characters\n\
         /// 0x20–0x7E. From the training lines of every language."
    )?;
    writeln!(body, "pub static PLAIN_PAIRS: [u8; {}] = {costs:?};", CLASSES * CLASSES)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_break_at_lines_and_other_characters() {
        let counts = count(["a b é".to_owned()].iter());
        let (a, space, b) = (class('a'), class(' '), class('b'));
        assert_eq!(counts[a], 1); // line start, a
        assert_eq!(counts[a * CLASSES + space], 1);
        assert_eq!(counts[b * CLASSES + space], 1);
        // é breaks the chain: space, é; é, end.
        assert_eq!(counts[space * CLASSES], 1);
        assert_eq!(counts.iter().sum::<u64>(), 5);
    }
}
