//! Letters as words by themselves: for each letter of each language of
//! `../shared/text`, how often it is a word of one letter (`à` in
//! Portuguese and French, `y` in Spanish) among its occurrences in its
//! training lines. The character models see a letter and its neighbours,
//! not a word: they price `à s crianças` and `às crianças` alike, and
//! `à rea` in Catalan, where `à` is never a word, as `àrea`. The repair
//! weighs with it where a no-break space lost in mojibake may have
//! collapsed with a space.
//!
//! `count one-letter-words` writes `data/detect/alone.tsv`; `emit` (of the
//! `detect` family) turns it into `ALONE_COSTS`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

/// Each language's letters: (letter, as a word of its own, in all).
pub type Letters = BTreeMap<String, Vec<(char, u64, u64)>>;

/// Letters seen fewer times than this in a language are left out (no cost).
const MIN_SEEN: u64 = 50;

/// No letter costs more than this (in steps): 16 bits.
const MAX_COST: f64 = 128.0;

/// A letter's occurrences in `lines` (case folded): (as a word of its own,
/// in all). A word is a run of alphabetic characters and apostrophes (the
/// `s` of Catalan `s'utilitza` is no word of its own).
pub fn count<'a>(lines: impl Iterator<Item = &'a String>) -> BTreeMap<char, (u64, u64)> {
    let in_word = |c: char| c.is_alphabetic() || c == '\'' || c == '\u{2019}';
    let mut counts: BTreeMap<char, (u64, u64)> = BTreeMap::new();
    for line in lines {
        for w in line.split(|c: char| !in_word(c)) {
            let alone = u64::from(w.chars().count() == 1);
            for c in w.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase) {
                let entry = counts.entry(c).or_default();
                entry.0 += alone;
                entry.1 += 1;
            }
        }
    }
    counts
}

/// The `count one-letter-words` step: `alone.tsv` from every language's
/// training lines.
pub fn count_all(languages: &[String]) -> Result<String> {
    let mut tsv = String::from(
        "# detect: letters as words of one letter in the training lines of each language of \
         shared/text (case folded; a word is a run of alphabetic characters and apostrophes): \
         language TAB letter TAB as a word of its own TAB in all, for letters seen 50 times or \
         more.\n",
    );
    for tag in languages {
        let path = testkit::shared_dir().join("text").join(format!("{tag}.txt"));
        if !path.exists() {
            continue; // a language of the UDHR only
        }
        for (c, (alone, all)) in count(testkit::text_lines(tag, false).iter()) {
            if all >= MIN_SEEN {
                writeln!(tsv, "{tag}\t{c}\t{alone}\t{all}")?;
            }
        }
    }
    Ok(tsv)
}

/// Reads `alone.tsv`: each language's letters with their counts.
pub fn read(tsv: &str) -> Result<Letters> {
    let mut map = Letters::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [tag, letter, alone, all] = f[..] else { bail!("alone.tsv: bad line {line:?}") };
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            bail!("alone.tsv: not one letter: {line:?}")
        };
        let alone = alone.parse().context("alone.tsv: a count")?;
        let all = all.parse().context("alone.tsv: a count")?;
        map.entry(tag.to_owned()).or_default().push((c, alone, all));
    }
    Ok(map)
}

/// Emits `ALONE_COSTS`.
pub fn emit(body: &mut String, map: &Letters) -> Result<()> {
    writeln!(
        body,
        "/// What a letter standing as a word by itself costs, in steps: `-log2` of\n\
         /// the share of its occurrences in the language's training text that are\n\
         /// words of one letter (smoothed; at most 16 bits). By language, then by\n\
         /// letter (case folded), both sorted; letters seen fewer than 50 times are\n\
         /// not listed."
    )?;
    write!(body, "pub static ALONE_COSTS: [(&str, &[(char, u8)]); {}] = [", map.len())?;
    for (tag, letters) in map {
        let mut letters = letters.clone();
        letters.sort_unstable_by_key(|l| l.0);
        let costs: Vec<String> = letters
            .iter()
            .map(|&(c, alone, all)| {
                let p = (alone as f64 + 0.5) / (all as f64 + 1.0);
                let cost = (-p.log2() * super::STEPS_PER_BIT).round();
                format!("({c:?}, {})", cost.min(MAX_COST))
            })
            .collect();
        write!(body, "({tag:?}, &[{}]),", costs.join(","))?;
    }
    body.push_str("];\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_alone_and_in_words() {
        let counts = count(["À la maison, à 3h: a-b l'eau".to_owned()].iter());
        assert_eq!(counts[&'à'], (2, 2));
        assert_eq!(counts[&'a'], (1, 4)); // `la`, `maison`, `l'eau`; `a` of `a-b` alone
        assert_eq!(counts[&'b'], (1, 1));
        assert_eq!(counts[&'h'], (1, 1)); // after a digit
        assert_eq!(counts[&'l'], (0, 2)); // `la`, `l'eau`
    }
}
