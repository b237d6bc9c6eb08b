//! Zawgyi: Burmese text written for the Zawgyi-One font, detected and
//! converted to standard Unicode (and back, for tests).
//!
//! Zawgyi reuses the Myanmar block with other meanings and stores marks in
//! visual order, so the same bytes are valid UTF-8 either way and only the
//! statistics of the text tell them apart.
//!
//! - Detection ([`probability`], [`segments`]): a first-order Markov chain
//!   over the Myanmar block's code points, one trained on Unicode Burmese and
//!   one on the same text converted to Zawgyi; the sum of the log-likelihood
//!   ratios of a line's transitions gives the probability that it is Zawgyi.
//!   The model is generated (`cargo run -p gen-tables -- count zawgyi`) from
//!   nine lines in ten of `shared/text/my.txt`; the tenth is held out for the
//!   accuracy test.
//! - Conversion ([`to_unicode`], [`to_zawgyi`]): the CLDR transforms
//!   `my-t-my-s0-zawgyi` and `my-t-my-d0-zawgyi`, ICU transliterator rules
//!   compiled into tables by the generator and run by a small interpreter
//!   here with ICU's semantics (rules tried in order at the cursor, the first
//!   match wins, possessive quantifiers, phases applied one after another).
//!   The Unicode result is normalised to NFC, which puts the Burmese marks
//!   with a combining class (dot below U+1037, virama U+1039, asat U+103A)
//!   in canonical order.
//!
//! All functions take any text, in time linear in its length.

use charsight_tables::zawgyi_model::{CLASSES, LOG_RATIO, SCALE};
use charsight_tables::zawgyi_rules::{Elem, Out, Rule, TO_UNICODE};
use std::sync::OnceLock;

use unicode_normalization::UnicodeNormalization;

/// The probability that `text` is Zawgyi rather than Unicode Burmese, or
/// `None` when it has no Myanmar-block character to judge by.
pub fn probability(text: &str) -> Option<f32> {
    let mut prev = 0;
    let mut score = 0i64;
    let mut seen = false;
    for c in text.chars().chain(std::iter::once(' ')) {
        let next = class(c);
        seen |= next != 0;
        if prev != 0 || next != 0 {
            score += i64::from(LOG_RATIO[prev * CLASSES + next]);
        }
        prev = next;
    }
    seen.then(|| logistic(score as f32 / SCALE))
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x.clamp(-80.0, 80.0)).exp())
}

/// The model's class of a character: 0 = not Myanmar, n = U+0FFF + n.
fn class(c: char) -> usize {
    match u32::from(c) {
        cp @ 0x1000..=0x109F => (cp - 0x0FFF) as usize,
        _ => 0,
    }
}

/// Whether `c` is in the Myanmar block (U+1000-U+109F).
pub fn is_myanmar(c: char) -> bool {
    class(c) != 0
}

/// Whether `unicode` (text converted from Zawgyi) is well formed where
/// its words begin: none of its space-separated words starts with a
/// Myanmar-block mark (a vowel sign, medial, asat or virama, which follow
/// a consonant in Unicode order). Converted Zawgyi never starts a word so;
/// other text that uses the code points Zawgyi took (Shan's letters and its
/// digits U+1090-U+1099) does, once misread as Zawgyi.
pub fn words_start_well(unicode: &str) -> bool {
    unicode.split([' ', '\u{200B}']).all(|word| {
        word.chars().next().is_none_or(|c| !is_myanmar(c) || !crate::classify::is_mark(c))
    })
}

/// A line (or paragraph) of Burmese text and its Zawgyi probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// Byte range in the text given to [`segments`], line end excluded.
    pub range: std::ops::Range<usize>,
    /// How many Myanmar-block characters it holds.
    pub burmese: usize,
    /// The probability that it is Zawgyi.
    pub zawgyi: f32,
}

/// Splits `text` into lines and judges each line that holds Burmese, since a
/// page can mix Zawgyi and Unicode.
pub fn segments(text: &str) -> impl Iterator<Item = Segment> + '_ {
    let mut start = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let range = start..start + line.trim_end_matches(['\n', '\r']).len();
        start += line.len();
        let burmese = text[range.clone()].chars().filter(|&c| is_myanmar(c)).count();
        let zawgyi = probability(&text[range.clone()])?;
        Some(Segment { range, burmese, zawgyi })
    })
}

/// Converts Zawgyi text to standard Unicode Burmese in NFC (CLDR
/// `my-t-my-s0-zawgyi`). Text without Zawgyi-specific characters still
/// goes through the reordering rules, so call it only on text judged
/// Zawgyi.
pub fn to_unicode(zawgyi: &str) -> String {
    static INDEX: OnceLock<Vec<PhaseIndex>> = OnceLock::new();
    transliterate(TO_UNICODE, INDEX.get_or_init(|| index(TO_UNICODE)), zawgyi).nfc().collect()
}

/// Converts Unicode Burmese to Zawgyi (CLDR `my-t-my-d0-zawgyi`), to make
/// test and training data.
#[cfg(any(test, feature = "unstable"))]
pub fn to_zawgyi(unicode: &str) -> String {
    static INDEX: OnceLock<Vec<PhaseIndex>> = OnceLock::new();
    use charsight_tables::zawgyi_rules::TO_ZAWGYI;
    transliterate(TO_ZAWGYI, INDEX.get_or_init(|| index(TO_ZAWGYI)), unicode)
}

/// For each character class (as in the model), the rules of a phase that
/// can match at a character of that class, in rule order: a superset, so
/// first-match-wins is kept while most rules are never tried.
type PhaseIndex = Vec<Vec<u16>>;

fn index(phases: &[&[Rule]]) -> Vec<PhaseIndex> {
    phases
        .iter()
        .map(|rules| {
            (0..CLASSES)
                .map(|class| {
                    let candidates =
                        rules.iter().enumerate().filter(|(_, rule)| may_start(rule, class));
                    candidates.filter_map(|(i, _)| u16::try_from(i).ok()).collect()
                })
                .collect()
        })
        .collect()
}

/// Whether `rule` could match at a character of `class`.
fn may_start(rule: &Rule, class: usize) -> bool {
    let first = rule.pattern.iter().find_map(|e| match *e {
        Elem::Set { ranges, negated, min, .. } => Some((ranges, negated, min)),
        _ => None,
    });
    match first {
        Some((ranges, negated, min)) if min > 0 => match char::from_u32(0x0FFF + class as u32) {
            Some(c) if class > 0 => in_set(c, ranges) != negated,
            // Not Myanmar: a complement, or a range reaching outside the block.
            _ => negated || ranges.iter().any(|&(lo, hi)| lo < '\u{1000}' || hi > '\u{109F}'),
        },
        _ => true,
    }
}

/// Runs phases of transliterator rules over `text`.
fn transliterate(phases: &[&[Rule]], index: &[PhaseIndex], text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (phase, index) in phases.iter().zip(index) {
        chars = run_phase(phase, index, chars);
    }
    chars.into_iter().collect()
}

/// One phase, with ICU's cursor semantics: at each position the first rule
/// whose pattern matches there replaces what it matched, and matching
/// resumes after the replacement (or at its `|` cursor); where no rule
/// matches, the cursor moves on by one character.
fn run_phase(rules: &[Rule], index: &PhaseIndex, text: Vec<char>) -> Vec<char> {
    let mut done: Vec<char> = Vec::with_capacity(text.len());
    // The text still to scan, reversed, so that replacements can be pushed back.
    let mut todo: Vec<char> = text;
    todo.reverse();
    // A bound on rescans, so that rules that keep their cursor still end.
    let mut budget = 8 * todo.len() + 64;
    let (mut matched, mut output) = (Vec::new(), Vec::new());
    while !todo.is_empty() {
        let next = todo.last().map_or(0, |&c| class(c));
        let found = index[next].iter().find_map(|&i| {
            let rule = &rules[usize::from(i)];
            matches(rule, &todo, done.is_empty()).map(|m| (rule, m))
        });
        let Some((rule, (len, groups))) = found.filter(|_| budget > 0) else {
            done.extend(todo.pop());
            continue;
        };
        budget -= 1;
        matched.clear();
        matched.extend(todo.drain(todo.len() - len..).rev());
        output.clear();
        let mut cursor = None;
        for out in rule.output {
            match *out {
                Out::Text(s) => output.extend(s.chars()),
                Out::Group(n) => {
                    if let Some((a, b)) = groups.get(usize::from(n)).copied().flatten() {
                        output.extend_from_slice(&matched[a..b]);
                    }
                }
                Out::Cursor => cursor = Some(output.len()),
            }
        }
        let keep = cursor.unwrap_or(output.len());
        todo.extend(output[keep..].iter().rev());
        done.extend_from_slice(&output[..keep]);
    }
    done
}

/// The most repetitions a quantifier takes. Real text never repeats a mark
/// this often; the cap keeps every match attempt short, so a long run of
/// one character cannot make conversion quadratic.
const MAX_REPEAT: u8 = 32;

/// Capture groups as (start, end) offsets into the match; index 0 unused.
type Groups = [Option<(usize, usize)>; 10];

/// Matches `rule` at the front of `todo` (reversed); returns the length
/// matched and the groups.
fn matches(rule: &Rule, todo: &[char], at_start: bool) -> Option<(usize, Groups)> {
    if rule.start && !at_start {
        return None;
    }
    let peek = |i: usize| todo.len().checked_sub(i + 1).map(|j| todo[j]);
    let mut pos = 0;
    let mut groups: Groups = [None; 10];
    let mut open = [0usize; 10];
    for elem in rule.pattern {
        match *elem {
            Elem::Set { ranges, negated, min, max } => {
                let mut n = 0;
                while n < max.min(MAX_REPEAT) {
                    match peek(pos) {
                        Some(c) if in_set(c, ranges) != negated => {
                            pos += 1;
                            n += 1;
                        }
                        _ => break,
                    }
                }
                if n < min {
                    return None;
                }
            }
            Elem::Open(g) => open[usize::from(g) % 10] = pos,
            Elem::Close(g) => groups[usize::from(g) % 10] = Some((open[usize::from(g) % 10], pos)),
        }
    }
    if rule.end && pos != todo.len() {
        return None;
    }
    // An empty match that changes nothing would never advance.
    (pos > 0 || !rule.output.is_empty()).then_some((pos, groups))
}

fn in_set(c: char, ranges: &[(char, char)]) -> bool {
    ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

#[cfg(test)]
mod corpus_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_rules_rescan_and_anchors_hold() {
        // s0's stage 1.01: a lone digit four at the start is the letter U+104E.
        assert_eq!(
            to_unicode("\u{1044}\u{1004}\u{1039}\u{1038}"),
            "\u{104E}\u{1004}\u{103A}\u{1038}"
        );
        // A zero among digits stays a digit.
        assert_eq!(to_unicode("\u{1041}\u{1040}\u{1042}"), "\u{1041}\u{1040}\u{1042}");
    }

    #[test]
    fn arbitrary_text_is_safe() {
        for text in
            ["", "\u{1031}", "\u{200B}\u{200B}", "\u{1031}\u{1031}\u{1031}\u{1031}", "a\u{103C}"]
        {
            let _ = to_unicode(text);
            let _ = to_zawgyi(text);
        }
        let long = "\u{1031}\u{103B}\u{1000}\u{1064} ".repeat(2000);
        // A long run of one mark: linear, not quadratic.
        let run = "\u{1031}".repeat(20_000);
        assert!(to_unicode(&run).chars().count() <= 20_000);
        assert!(to_unicode(&long).chars().count() > 1000);
    }

    #[test]
    fn probability_needs_burmese() {
        assert_eq!(probability(""), None);
        assert_eq!(probability("abc 123"), None);
        assert!(probability("\u{1000}").is_some());
    }

    #[test]
    fn example_probability() {
        use crate::zawgyi;
        let zawgyi = "ျမန္မာႏိုင္ငံ"; // "Myanmar", as typed for the Zawgyi font
        let unicode = "မြန်မာနိုင်ငံ";
        assert!(zawgyi::probability(zawgyi).unwrap() > 0.99);
        assert!(zawgyi::probability(unicode).unwrap() < 0.01);
        assert_eq!(zawgyi::probability("plain"), None);
    }

    #[test]
    fn example_segments() {
        use crate::zawgyi;
        let text = "မြန်မာနိုင်ငံ\nျမန္မာႏိုင္ငံ\nEnglish";
        let judged: Vec<bool> = zawgyi::segments(text).map(|s| s.zawgyi > 0.5).collect();
        assert_eq!(judged, [false, true]);
    }

    #[test]
    fn example_to_unicode() {
        assert_eq!(to_unicode("ေျပာပါတယ္"), "ပြောပါတယ်");
    }

    #[test]
    fn example_to_zawgyi() {
        assert_eq!(to_zawgyi("ပြောပါတယ်"), "ေျပာပါတယ္");
    }
}
