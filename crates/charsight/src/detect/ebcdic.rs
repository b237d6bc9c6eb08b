//! Which EBCDIC code page: once [`binary`](super::binary) has recognised
//! EBCDIC text, each EBCDIC code page charsight decodes reads the start of
//! the bytes, and the language models weigh the text each gives. The code
//! pages of one family differ in a few bytes (`[ ] ! ^ | ¢`, the national
//! letters, `€` for `¤`): text without those reads alike in all of them, and
//! the readings that decode it alike share their probability. The models
//! score the non-ASCII letters of each text; one code page's national letter
//! is another's `[ ] { } | \ ~`, which costs as a symbol against a letter or
//! a bracket left unpaired. A national code page is read in the languages of
//! its country: a letter it turns into a symbol no longer costs under the
//! models, so without that Italian `perché` would read as IBM280's `perch]`
//! for free in any language.

use super::tables::{FOREIGN_COST, STEPS_PER_BIT};
use super::text::language_costs;
use super::{confidences, Reading};
use crate::Charset;

/// How many bytes each code page reads.
const SCORED: usize = 4 * 1024;

/// Softmax temperature of the code pages' confidence, in bits per halving:
/// they differ in a handful of bytes, which the models weigh less surely
/// than whole texts (the detector's is 1.5). Set on `../shared/corpus-wide`
/// so that answers at 0.99 or more stay right (a reading 22 bits behind
/// the best is given 0.06, not 0.00).
const TEMPERATURE: f64 = 8.0;

/// The cost of an ASCII symbol that text rarely puts against a letter
/// (`~ffentlich`, `Gr\\e`, `bak`lm`): one code page's national letter is
/// another's ASCII symbol, which the language models leave to the readings'
/// common ground (ASCII), so a letter lost to one would cost nothing.
const ODD_SYMBOL_BITS: f64 = 40.0;

/// How many characters of `text` are such a symbol: one of `| \\ ~ ^ ``
/// beside a letter, `@ # $ !` between two, or a bracket `[ ] { }` that
/// faces a letter from outside (`perch{`, `Br}gge`) or has no partner
/// (`perch] tutti`, `missione } rimasto`). Paired brackets are free even
/// against letters (`[REGLAMENTO …]`, `[1]`).
fn odd_symbols(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let letter = |i: Option<usize>| {
        i.and_then(|i| chars.get(i)).is_some_and(|&c| crate::classify::is_letter(c))
    };
    let mut open: Vec<char> = Vec::new();
    let mut odd = 0;
    for (i, &c) in chars.iter().enumerate() {
        let (before, after) = (letter(i.checked_sub(1)), letter(Some(i + 1)));
        odd += usize::from(match c {
            '|' | '\\' | '~' | '^' | '`' => before || after,
            '@' | '#' | '$' | '!' => before && after,
            '[' | '{' if before => true,
            '[' | '{' => {
                open.push(c);
                false
            }
            ']' | '}' if after => true,
            ']' | '}' => {
                let partner = if c == ']' { '[' } else { '{' };
                // A closing bracket closes the innermost open one, or none.
                if open.last() == Some(&partner) {
                    open.pop();
                    false
                } else {
                    true
                }
            }
            _ => false,
        });
    }
    odd + open.len()
}

/// The languages a national code page is used for (its country's, as IBM
/// names the code pages; the euro updates as their originals): a reading in
/// another language costs as a single-byte encoding's does ([`FOREIGN_COST`]).
/// `None` for the pages that carry any Latin-1 language: IBM037, the
/// default EBCDIC of most software, IBM500 (International) and their euro
/// updates.
fn users(charset: Charset) -> Option<&'static [&'static str]> {
    use Charset::*;
    Some(match charset {
        Ibm273 | Ibm01141 => &["de"],
        Ibm277 | Ibm01142 => &["da", "no"],
        Ibm278 | Ibm01143 => &["fi", "sv"],
        Ibm280 | Ibm01144 => &["it"],
        Ibm284 | Ibm01145 => &["es", "ca"],
        Ibm285 | Ibm01146 => &["en", "ga", "cy"],
        Ibm297 | Ibm01147 => &["fr", "br"],
        Ibm871 | Ibm01149 => &["is"],
        Ibm1026 => &["tr"],
        Ibm424 => &["he"],
        Ibm875 => &["el"],
        _ => return None,
    })
}

/// The cost in bits of `text` as `charset`'s reading, and its language:
/// the cheapest language, charged [`FOREIGN_COST`] where the code page is
/// not used for it, and its odd symbols.
fn cost(charset: Charset, text: &str) -> (f64, Option<&'static str>) {
    let foreign = f32::from(FOREIGN_COST) / f32::from(STEPS_PER_BIT);
    let extra = |language: &str| match users(charset) {
        Some(users) if !users.contains(&language) => foreign,
        _ => 0.0,
    };
    let costs = language_costs(text);
    let (language, bits) = costs.best_with(extra).unwrap_or(("", 0.0));
    let odd = odd_symbols(text) as f64 * ODD_SYMBOL_BITS;
    // Pure ASCII has no language to report.
    let language = costs.best().map(|_| language);
    (f64::from(bits) + odd + prior(charset), language)
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
            let (bits, language) = cost(charset, &text);
            (charset, text, bits, language)
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
        // Brackets: free when paired, odd when facing a letter or alone.
        assert_eq!(odd_symbols("[Reglamento] de {datos [1]}"), 0);
        assert_eq!(odd_symbols("Br}gge perch{ tutti } rimasto ] e [x"), 5);
    }

    /// Whether the likeliest reading decodes `bytes` as `charset` does.
    fn decoded_as(found: &[Reading], bytes: &[u8], charset: Charset) -> bool {
        found[0].charset.decode(bytes).0 == charset.decode(bytes).0
    }

    #[test]
    fn a_national_page_does_not_win_by_turning_letters_into_symbols() {
        // IBM280 reads IBM500's é and è as `] }`, IBM273 its ü as `}`; IBM037
        // its `|` as `]`.
        let texts = [
            "Non è venuto perché era stanco, e la sera è passata in fretta.\n",
            "Holdet spillede mod Club Brügge i går aftes og vandt kampen.\n",
            "Die Burg | Der Marktplatz | Das Rathaus | Der Brunnen\n",
        ];
        for text in texts {
            let (bytes, _) = Charset::Ibm500.encode(text);
            let found = readings(&bytes);
            assert!(decoded_as(&found, &bytes, Charset::Ibm500), "{text}: {found:?}");
        }
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
