//! Which EBCDIC code page: once [`binary`](super::binary) has recognised
//! EBCDIC text, each EBCDIC code page charsight decodes reads the start of
//! the bytes, and the language models weigh the text each gives. The code
//! pages of one family differ in a few bytes (`[ ] ! ^ | ¢`, the national
//! letters, `€` for `¤`): text without those reads alike in all of them, and
//! the readings that decode it alike share their probability. The models
//! score the non-ASCII letters of each text; one code page's national letter
//! is another's `{ } | \ ~`, which costs as a symbol against a letter.

use super::text::cost_of;
use super::{confidences, Reading};
use crate::Charset;

/// How many bytes each code page reads.
const SCORED: usize = 4 * 1024;

/// Softmax temperature of the code pages' confidence, in bits per halving:
/// they differ in a handful of bytes, which the models weigh less surely
/// than whole texts (the detector's is 1.5). Set on `../shared/corpus-wide`
/// so that answers at 0.99 or more stay right (Danish in IBM500 read as
/// IBM273 over one `ü`, 22 bits behind, is given 0.94, not 1.00).
const TEMPERATURE: f64 = 8.0;

/// The cost of an ASCII symbol that text rarely puts against a letter
/// (`~ffentlich`, `Gr\\e`, `bak`lm`): one code page's national letter is
/// another's ASCII symbol, which the language models leave to the readings'
/// common ground (ASCII), so a letter lost to one would cost nothing.
const ODD_SYMBOL_BITS: f64 = 40.0;

/// How many characters of `text` are such a symbol: one of `[ ] { } | \ ~ ^ ``
/// beside a letter, or `@ # $ !` between two.
fn odd_symbols(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let letter = |i: Option<usize>| {
        i.and_then(|i| chars.get(i)).is_some_and(|&c| crate::classify::is_letter(c))
    };
    (0..chars.len())
        .filter(|&i| {
            let (before, after) = (letter(i.checked_sub(1)), letter(Some(i + 1)));
            match chars[i] {
                '[' | ']' | '{' | '}' | '|' | '\\' | '~' | '^' | '`' => before || after,
                '@' | '#' | '$' | '!' => before && after,
                _ => false,
            }
        })
        .count()
}

/// How much rarer than IBM037 each code page is, in bits: the common
/// international pages first, then the national ones and the euro updates.
fn prior(charset: Charset) -> f64 {
    match charset {
        Charset::Ibm037 => 0.0,
        Charset::Ibm500 | Charset::Ibm01140 => 1.0,
        Charset::Ibm01148 | Charset::Ibm424 | Charset::Ibm875 | Charset::Ibm1026 => 2.0,
        _ => 3.0,
    }
}

/// The EBCDIC readings of `prefix`, likeliest first: confidence summed over
/// the code pages that decode it alike, language from the best model.
pub(super) fn readings(prefix: &[u8]) -> Vec<Reading> {
    let sample = &prefix[..prefix.len().min(SCORED)];
    let mut scored: Vec<(Charset, String, f64, Option<&'static str>)> = Charset::ALL
        .iter()
        .filter(|c| c.is_ebcdic())
        .map(|&charset| {
            let text = charset.decode(sample).0.into_owned();
            let read = cost_of(&text);
            let odd = odd_symbols(&text) as f64 * ODD_SYMBOL_BITS;
            (charset, text, f64::from(read.bits) + odd + prior(charset), read.language)
        })
        .collect();
    scored.sort_by(|a, b| a.2.total_cmp(&b.2));
    let best = scored.first().map_or(0.0, |s| s.2);
    let behind: Vec<f64> = scored.iter().map(|s| s.2 - best).collect();
    // A decoding's label: the first reading that gives it.
    let decodings: Vec<usize> =
        scored.iter().map(|s| scored.iter().position(|t| t.1 == s.1).unwrap_or(0)).collect();
    let confidences = confidences(&behind, &decodings, TEMPERATURE);
    scored
        .iter()
        .zip(behind)
        .zip(confidences)
        .map(|(((charset, _, _, language), behind), confidence)| Reading {
            charset: *charset,
            confidence,
            language: *language,
            bits_behind: behind as f32,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_symbols_are_those_against_letters() {
        assert_eq!(odd_symbols("bak`lm`| Gr\\e ~ffentlich a@b (x) [1] don't"), 5);
    }

    #[test]
    fn the_code_page_is_the_one_whose_text_reads_best() {
        let german = "Größere Änderungen wurden für das nächste Jahr angekündigt. \
                      Die Übergangszeit dauert zwölf Monate, sagte die Behörde.\n";
        let (bytes, _) = Charset::Ibm273.encode(german);
        let found = readings(&bytes);
        assert_eq!(found[0].charset, Charset::Ibm273);
        assert_eq!(found[0].language, Some("de"));
        assert!(found[0].confidence > 0.9, "{found:?}");
        // English reads alike in IBM037, IBM500 and IBM01140: IBM037, sure.
        let (bytes, _) = Charset::Ibm037.encode("The quick brown fox jumps over the lazy dog.\n");
        let found = readings(&bytes);
        assert_eq!(found[0].charset, Charset::Ibm037);
        assert!(found[0].confidence > 0.99, "{found:?}");
    }
}
