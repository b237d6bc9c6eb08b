//! Legacy Indic font encodings: ordered replacement rules, and the
//! reordering steps Kruti Dev needs around them.
//!
//! Kruti Dev text is typed in visual order: the short-i sign (`f`, ि)
//! comes before the consonant it follows in speech, and the reph (`Z`, the
//! र् written above) after the syllable it precedes. Before the rules run,
//! both are moved to logical order (see `shared/fonts/hindi/README.md`).
//! The Tamil tables (Bamini, TAB, TAM, TSCII) spell each pre-base vowel
//! sign together with its consonant, so their rules reorder by themselves.

/// Applies replacement rules one after another, each over the whole text.
/// Linear in the text for a fixed table.
pub(crate) fn apply_rules<'a>(
    mut text: String,
    rules: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    for (from, to) in rules {
        if text.contains(from) {
            text = text.replace(from, to);
        }
    }
    text
}

/// At most this many half consonants are skipped for a short i (real
/// conjuncts have two or three), which keeps the pass linear.
const MAX_CLUSTER: usize = 4;

/// The sign U+093F (short i) once placed.
const SHORT_I: char = '\u{093F}';

/// Kruti Dev 010 to Unicode: short i and reph to logical order, then the rules.
pub(crate) fn kruti_dev(text: &str, rules: &[(&str, &str)]) -> String {
    let single = |c: char| {
        let mut buf = [0; 4];
        let key: &str = c.encode_utf8(&mut buf);
        rules.iter().find(|(from, _)| *from == key).map(|&(_, to)| to)
    };
    // A legacy character that is a half consonant (its Unicode ends in a virama).
    let is_half = |c: char| single(c).is_some_and(|u| u.ends_with('\u{094D}'));
    // A legacy character that is a dependent vowel sign or a nasal mark.
    let is_sign = |c: char| {
        c == SHORT_I
            || single(c).is_some_and(|u| {
                let mut chars = u.chars();
                matches!(
                    (chars.next(), chars.next()),
                    (Some('\u{0900}'..='\u{0903}' | '\u{093E}'..='\u{094C}'), None)
                )
            })
    };
    let mut chars: Vec<char> = text.chars().collect();
    // Short i: each `f`, last to first, moves behind the consonant cluster
    // that follows it (half consonants, then a consonant, plus the `k` that
    // makes a half form whole).
    let mut i = chars.len();
    while i > 0 {
        i -= 1;
        if chars[i] != 'f' {
            continue;
        }
        let mut end = i + 1;
        while end < chars.len()
            && end < i + MAX_CLUSTER
            && is_half(chars[end])
            && end + 1 < chars.len()
        {
            end += 1;
        }
        if end < chars.len() {
            let whole_by_k = is_half(chars[end]) && chars.get(end + 1) == Some(&'k');
            end += 1 + usize::from(whole_by_k);
        }
        chars[i..end].rotate_left(1);
        chars[end - 1] = SHORT_I;
    }
    // Reph: each `Z` becomes `j~` (र्) before the character it follows,
    // or before two when that character is a vowel sign.
    let mut out: Vec<char> = Vec::with_capacity(chars.len() + 8);
    for c in chars {
        if c != 'Z' {
            out.push(c);
            continue;
        }
        let back = match out.last() {
            Some(&last) if is_sign(last) => 2,
            Some(_) => 1,
            None => 0,
        };
        let at = out.len().saturating_sub(back);
        out.splice(at..at, ['j', '~']);
    }
    apply_rules(out.into_iter().collect(), rules.iter().copied())
}

#[cfg(test)]
mod tests {
    use charsight_tables::fonts::{Map, FONTS};

    use super::*;

    fn kruti_rules() -> &'static [(&'static str, &'static str)] {
        FONTS
            .iter()
            .find_map(|f| match f.map {
                Map::KrutiDev(rules) => Some(rules),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn kruti_dev_words() {
        for (legacy, unicode) in [
            ("vkidk", "आपका"),
            ("fgUnh", "हिन्दी"),
            ("Hkkjr", "भारत"),
            ("dk;Z", "कार्य"),
            ("fLFkfr", "स्थिति"),
            ("loZ", "सर्व"),
            ("Hkk\"kk", "भाषा"),
        ] {
            assert_eq!(kruti_dev(legacy, kruti_rules()), unicode, "{legacy}");
        }
    }

    #[test]
    fn kruti_dev_edges_do_not_panic() {
        for legacy in ["f", "Z", "ff", "ZZ", "fZ", "kZ", "f\u{094D}"] {
            let _ = kruti_dev(legacy, kruti_rules());
        }
        let long = "f".repeat(20_000) + &"L".repeat(20_000);
        assert!(kruti_dev(&long, kruti_rules()).chars().count() >= 40_000);
    }

    #[test]
    fn rules_apply_in_order() {
        assert_eq!(apply_rules("abab".into(), [("ab", "b"), ("bb", "c")]), "c");
    }
}
