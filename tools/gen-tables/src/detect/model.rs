//! Language models: class bigrams over an alphabet of each language's
//! non-ASCII characters.
//!
//! A character's class, in a model: its lowercase form's place in the
//! model's alphabet, else a category shared by all models (ASCII letter,
//! ASCII digit, other ASCII, non-ASCII symbol, other letter, odd: controls
//! and private use). Case is scored apart, by case transitions between letters.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

use super::STEPS_PER_BIT;
use crate::cldr::Alphabet;

pub const ASCII_OTHER: u8 = 0;
/// ASCII letters are classes 1 (a) to 26 (z).
pub const ASCII_LETTER: u8 = 1;
pub const LAST_ASCII_LETTER: u8 = 26;
/// The ASCII digits, told apart from other ASCII after a letter, which
/// rarely touches a number (see [`language_costs`]).
pub const DIGIT: u8 = 27;
pub const LAST_ASCII: u8 = 27;
pub const SYMBOL: u8 = 28;
pub const OTHER_LETTER: u8 = 29;
pub const ODD: u8 = 30;
pub const FAR_LETTER: u8 = 31;
pub const FIRST_LETTER: u8 = 32;
/// Flag on a class: the character is uppercase.
pub const UPPER: u8 = 0x80;
/// A byte that does not decode (or decodes to a C1 control).
pub const ILLEGAL: u8 = 0xFF;

/// The alphabet covers this share of a language's non-ASCII characters...
const COVERAGE: f64 = 0.998;
/// ...with characters seen at least this often...
const MIN_COUNT: f64 = 3.0;
/// ...and at most this many characters (so classes fit in seven bits).
const MAX_ALPHABET: usize = 96;
/// Weight of the unigram in the smoothed bigram probability.
const BACKOFF: f64 = 4.0;
/// No event costs more than this (in steps): a few odd characters in real
/// text must not outweigh everything else.
const MAX_COST: f64 = 200.0;
/// A category class stands for many characters: entering it also pays for
/// which one ([`emissions`]), or foreign text would cost little once inside
/// its category. A letter of a script with thousands costs this much.
const FAR_LETTER_BITS: f64 = 14.0;
/// Emissions stay within these bounds (bits).
const EMISSION_BITS: std::ops::RangeInclusive<f64> = 2.0..=28.0;

/// Where the scripts with thousands of letters start (CJK radicals, kana,
/// ideographs, Hangul syllables, Yi): their letters are [`FAR_LETTER`].
pub const FAR_SCRIPTS: char = '\u{2E80}';

/// The case state before a letter: 0 after a non-letter, 1 after a
/// lowercase letter, 2 after an uppercase letter that follows no uppercase
/// one (a capital), 3 after two uppercase letters (a word in capitals).
pub fn case_state(before_prev: char, prev: char) -> usize {
    if !prev.is_alphabetic() {
        0
    } else if !prev.is_uppercase() {
        1
    } else if before_prev.is_alphabetic() && before_prev.is_uppercase() {
        3
    } else {
        2
    }
}

/// The folded character bigrams of a line, with a space before and after:
/// the previous character keeps its identity (rows are per character, but
/// a digit is `0` and other ASCII a space); the next one is folded when
/// both are ASCII (an ASCII letter to `a`/`A`), since between two ASCII
/// characters only the classes' totals matter.
pub fn line_pairs(line: &str) -> impl Iterator<Item = (char, char)> + '_ {
    let other = |c: char| if c.is_ascii_digit() { '0' } else { ' ' };
    let fold = move |c: char, prev: char| match c {
        'a'..='z' if prev.is_ascii() => 'a',
        'A'..='Z' if prev.is_ascii() => 'A',
        c if c.is_ascii_alphabetic() => c,
        c if c.is_ascii() => other(c),
        c => c,
    };
    let mut prev = ' ';
    line.chars().chain([' ']).map(move |c| {
        let kept = if prev.is_ascii() && !prev.is_ascii_alphabetic() { other(prev) } else { prev };
        let pair = (kept, fold(c, prev));
        prev = c;
        pair
    })
}

/// Counts the folded character bigrams of some lines ([`line_pairs`]), as
/// TSV, and the case of letters after each case state (`[state][lower,
/// upper]`). `source` names where the lines come from, for the header.
pub fn count_bigrams<'a>(
    id: &str,
    source: &str,
    lines: impl Iterator<Item = &'a String>,
) -> Result<(String, [u64; 8])> {
    let mut counts: BTreeMap<(char, char), u64> = BTreeMap::new();
    let mut cases = [0u64; 8];
    for line in lines {
        let typographic = typographic(line);
        let forms =
            if typographic == *line { vec![line.clone()] } else { vec![line.clone(), typographic] };
        for form in forms {
            for pair in line_pairs(&form) {
                *counts.entry(pair).or_default() += 1;
            }
            let (mut before, mut prev) = (' ', ' ');
            for c in form.chars() {
                if is_letter(c) {
                    cases[case_state(before, prev) * 2 + usize::from(c.is_uppercase())] += 1;
                }
                (before, prev) = (prev, c);
            }
        }
    }
    if counts.is_empty() {
        bail!("no training text for {id}");
    }
    let mut tsv = format!(
        "# detect {id}: character bigram counts of the training lines of {source} \
         (a digit as 0, other ASCII as a space, an ASCII letter after an ASCII character as a/A; hex code points).\n"
    );
    for ((a, b), n) in counts {
        writeln!(tsv, "{:X}\t{:X}\t{n}", u32::from(a), u32::from(b))?;
    }
    Ok((tsv, cases))
}

/// Transitions between ASCII letters (L), other ASCII (O) and anything else
/// (C) in some lines (a line starts and ends with a space): counts of LL,
/// LO, LC, OL, OO, OC, CL, CO, CC.
pub fn count_transitions<'a>(lines: impl Iterator<Item = &'a String>) -> [u64; 9] {
    let kind = |c: char| match c {
        c if c.is_ascii_alphabetic() => 0,
        c if c.is_ascii() => 1,
        _ => 2,
    };
    let mut counts = [0; 9];
    for line in lines {
        let mut prev = kind(' ');
        for c in line.chars().chain([' ']) {
            counts[prev * 3 + kind(c)] += 1;
            prev = kind(c);
        }
    }
    counts
}

/// The cost of plain ASCII going on, from how often it does out of `all`.
pub fn stay_cost(stays: f64, all: f64) -> u16 {
    (-((stays + 0.5) / (all + 1.0)).log2() * STAY_STEPS_PER_BIT).round().min(65535.0) as u16
}

/// The same line with typographic punctuation, as much real text is
/// written: apostrophes and quotes curly, spaced hyphens as en dashes, three
/// dots as an ellipsis. Training on both forms teaches the models where
/// these characters go even when the training text has the ASCII forms.
pub fn typographic(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut open_double = true;
    let mut prev = ' ';
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        match c {
            '\'' if prev.is_alphanumeric() => out.push('\u{2019}'),
            '\'' => out.push('\u{2018}'),
            '"' => {
                out.push(if open_double { '\u{201C}' } else { '\u{201D}' });
                open_double = !open_double;
            }
            '-' if prev == ' ' && next == ' ' => out.push('\u{2013}'),
            c => out.push(c),
        }
        prev = c;
    }
    out.replace("...", "\u{2026}")
}

/// Whether `c` is a letter of text, by the rule the detector's runtime
/// applies (`charsight::unstable::is_letter`): alphabetic, and not a
/// compatibility form of another (`ª`, `º`, `µ`), which text uses as a
/// symbol (`1º`, `10 µm`).
pub use charsight::unstable::is_letter;
use charsight::unstable::{is_mark, text_kind, TextKind};

/// The category of a lowercase character outside every alphabet. The
/// detector's runtime fallback applies the same rule to characters missing
/// from its symbol table.
pub fn category(c: char) -> u8 {
    if NO_BREAK_SPACES.contains(&c) {
        // Where a space goes (see `NO_BREAK_SPACES`).
        ASCII_OTHER
    } else if c.is_ascii_alphabetic() {
        ASCII_LETTER + (c.to_ascii_lowercase() as u8 - b'a')
    } else if c.is_ascii_digit() {
        DIGIT
    } else if c.is_ascii() {
        if c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\x0C' | '\r') {
            ODD
        } else {
            ASCII_OTHER
        }
    } else {
        match text_kind(c) {
            TextKind::Odd => ODD,
            TextKind::Letter if c >= FAR_SCRIPTS => FAR_LETTER,
            TextKind::Letter => OTHER_LETTER,
            TextKind::Symbol => SYMBOL,
        }
    }
}

/// The lowercase form a class is looked up by, and whether `c` is uppercase.
/// A character whose lowercase is ASCII (`İ`, the Kelvin sign) keeps its
/// own class: read as ASCII it would cost nothing, and a byte that is `©`
/// in one encoding and `İ` in another would favour the second in any text.
pub fn fold(c: char) -> (char, bool) {
    match c.to_lowercase().next() {
        Some(lower) if lower.is_ascii() && !c.is_ascii() => (c, c.is_uppercase()),
        lower => (lower.unwrap_or(c), c.is_uppercase()),
    }
}

/// A language model.
pub struct Model {
    /// `vi@1258` for a variant form; the language tag otherwise.
    pub id: String,
    /// The BCP 47 tag.
    pub language: String,
    /// The alphabet, in class order (class `FIRST_LETTER + i`).
    pub alphabet: Vec<char>,
    /// Non-ASCII letters (with case) and their counts, for coverage.
    pub letter_counts: BTreeMap<char, f64>,
    /// Non-ASCII characters (lowercase) and their counts.
    pub char_counts: BTreeMap<char, f64>,
    /// `classes × classes` costs of `cur` after `prev`.
    pub bigrams: Vec<u8>,
    /// Case costs: `[state before][lower, upper]` (see `case_state`).
    pub case: [u8; 8],
    /// Cost of plain ASCII following plain ASCII, in [`STAY_STEPS_PER_BIT`].
    pub stay: u16,
}

/// `-log2 p` in steps, at most `max_cost`.
fn to_steps(p: f64, max_cost: f64) -> u8 {
    (-p.log2() * STEPS_PER_BIT).round().clamp(0.0, max_cost) as u8
}

/// The cost (in steps) of each of `k` classes after each other one, from
/// their `k × k` counts (row: the previous class): `-log2` of the pair's
/// share of its row, smoothed towards the classes' overall shares (weight
/// [`BACKOFF`]), at most `max_cost`.
pub fn smoothed_costs(n: &[f64], k: usize, max_cost: f64) -> Vec<u8> {
    smoothed(n, k).probs.iter().map(|&p| to_steps(p, max_cost)).collect()
}

/// Smoothed class bigram probabilities (see [`smoothed_costs`]).
struct Smoothed {
    /// The classes' overall shares.
    unigram: Vec<f64>,
    /// `k × k` probabilities of a class after another (row: the previous).
    probs: Vec<f64>,
}

fn smoothed(n: &[f64], k: usize) -> Smoothed {
    let mut unigram = vec![0f64; k];
    for p in 0..k {
        for c in 0..k {
            unigram[c] += n[p * k + c];
        }
    }
    let all: f64 = unigram.iter().sum();
    let unigram: Vec<f64> = unigram.iter().map(|u| (u + 0.5) / (all + 0.5 * k as f64)).collect();
    let mut probs = vec![0.0; k * k];
    for p in 0..k {
        let row = smoothed_row(&n[p * k..(p + 1) * k], &unigram);
        probs[p * k..(p + 1) * k].copy_from_slice(&row);
    }
    Smoothed { unigram, probs }
}

/// One row of counts as probabilities, smoothed towards `unigram`.
fn smoothed_row(counts: &[f64], unigram: &[f64]) -> Vec<f64> {
    let row: f64 = counts.iter().sum();
    counts.iter().zip(unigram).map(|(n, u)| (n + BACKOFF * u) / (row + BACKOFF)).collect()
}

/// A language model's class bigram costs ([`smoothed_costs`]), with a
/// digit told apart from other ASCII only after a letter (class `k` is one
/// where bit `k` of `letters` is set): a letter rarely touches a number, so
/// `ú12.50` (IBM850's reading of `£12.50`) is unlikely. Everywhere else a
/// digit is other ASCII, as before digits had a class: what follows a digit
/// and a digit after anything but a letter cost what other ASCII does
/// there, digits included. The training text (manuals, UI messages)
/// numbers versions and sections, not prices and measures: the symbols
/// next to numbers in documents (`£5`, `±2`, `60€`, `20°`) are hardly
/// ever seen beside its digits, and would cost more there than the letters
/// of a wrong reading.
fn language_costs(n: &[f64], k: usize, letters: u128) -> Vec<u8> {
    let Smoothed { unigram, mut probs } = smoothed(n, k);
    let (other, digit) = (usize::from(ASCII_OTHER), usize::from(DIGIT));
    // Other ASCII with the digits, as one class.
    let mut merged = n.to_vec();
    for p in 0..k {
        merged[p * k + other] += merged[p * k + digit];
        merged[p * k + digit] = 0.0;
    }
    let merged_row: Vec<f64> =
        (0..k).map(|c| merged[other * k + c] + merged[digit * k + c]).collect();
    let mut unigram_merged = unigram.clone();
    unigram_merged[other] += unigram_merged[digit];
    probs[digit * k..(digit + 1) * k].copy_from_slice(&smoothed_row(&merged_row, &unigram_merged));
    for p in (0..k).filter(|&p| p != digit && letters >> p & 1 == 0) {
        let row = smoothed_row(&merged[p * k..(p + 1) * k], &unigram_merged);
        probs[p * k + digit] = row[other];
        probs[p * k + other] = row[other];
    }
    // After a digit, too, a digit or other ASCII is one event.
    probs[digit * k + digit] = probs[digit * k + other];
    probs.iter().map(|&p| to_steps(p, MAX_COST)).collect()
}

/// The stay cost is small (a fraction of a bit), so it has a finer unit.
pub const STAY_STEPS_PER_BIT: f64 = 1024.0;

impl Model {
    pub fn classes(&self) -> usize {
        usize::from(FIRST_LETTER) + self.alphabet.len()
    }

    /// Bit `k` set: class `k` is a letter (its case is scored).
    pub fn letters(&self) -> u128 {
        let alphabet = self.alphabet.iter().enumerate().filter(|(_, c)| is_letter(**c));
        let ascii = (ASCII_LETTER..=LAST_ASCII_LETTER).fold(0u128, |bits, k| bits | 1 << k);
        alphabet.fold(ascii | 1 << OTHER_LETTER | 1 << FAR_LETTER, |bits, (i, _)| {
            bits | 1 << (usize::from(FIRST_LETTER) + i)
        })
    }

    /// The class of a character (with the `UPPER` flag).
    pub fn class(&self, c: char) -> u8 {
        let (lower, upper) = fold(c);
        let class = match self.alphabet.binary_search(&lower) {
            Ok(i) => FIRST_LETTER + i as u8,
            Err(_) => category(lower),
        };
        if upper {
            class | UPPER
        } else {
            class
        }
    }

    /// The class of a character a single-byte encoding writes: as
    /// [`Model::class`], but a combining mark outside the alphabet is
    /// another letter (see [`Emissions::mark_as_letter`]).
    pub fn byte_class(&self, c: char) -> u8 {
        match self.class(c) {
            SYMBOL if is_mark(c) => OTHER_LETTER,
            class => class,
        }
    }

    /// The model of `id` from its bigram counts `tsv`, its case counts, and
    /// the words of web text in its language that have symbols, with their
    /// rates per billion characters (`web`, see `web.rs`).
    pub fn build(id: &str, tsv: &str, cases: [u64; 8], web: &[(String, u64)]) -> Result<Model> {
        let mut pairs = Vec::new();
        for line in tsv.lines().filter(|l| !l.starts_with('#')) {
            let mut f = line.split('\t');
            let mut next = || f.next().context("a bigram row has three fields");
            let code = |s: &str| -> Result<char> {
                char::from_u32(u32::from_str_radix(s, 16)?).context("not a character")
            };
            let a = code(next()?)?;
            let b = code(next()?)?;
            let n: f64 = next()?.parse()?;
            pairs.push((a, b, n));
        }
        let language = id.split('@').next().unwrap_or(id).to_owned();
        // The web text's symbols, as if the training text had them at their
        // rate (each token between spaces).
        let chars: f64 = pairs.iter().map(|p| p.2).sum();
        let mut extra: BTreeMap<(char, char), f64> = BTreeMap::new();
        for (token, rate) in web {
            let n = *rate as f64 * chars / 1e9;
            for pair in line_pairs(token) {
                *extra.entry(pair).or_default() += n;
            }
        }
        pairs.extend(extra.into_iter().map(|((a, b), n)| (a, b, n)));
        let mut unigrams: BTreeMap<char, f64> = BTreeMap::new();
        let mut letters: BTreeMap<char, f64> = BTreeMap::new();
        for &(_, b, n) in &pairs {
            if !b.is_ascii() {
                let lower = fold(b).0;
                if !lower.is_ascii() {
                    *unigrams.entry(lower).or_default() += n;
                }
                if is_letter(b) {
                    *letters.entry(b).or_default() += n;
                }
            }
        }
        let total: f64 = unigrams.values().sum();
        let char_counts = unigrams.clone();
        let mut by_count: Vec<(char, f64)> = unigrams.into_iter().collect();
        by_count.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let mut alphabet = Vec::new();
        let mut covered = 0.0;
        for (c, n) in by_count {
            if covered >= COVERAGE * total
                || n < MIN_COUNT
                || alphabet.len() == MAX_ALPHABET
                || category(c) == ODD
            {
                break;
            }
            alphabet.push(c);
            covered += n;
        }
        alphabet.sort_unstable();
        let mut model = Model {
            id: id.to_owned(),
            language,
            alphabet,
            letter_counts: letters,
            char_counts,
            bigrams: Vec::new(),
            case: [0; 8],
            stay: 0,
        };

        let k = model.classes();
        let mut n = vec![0f64; k * k];
        for &(a, b, count) in &pairs {
            let (pa, pb) = (model.class(a), model.class(b));
            n[usize::from(pa & !UPPER) * k + usize::from(pb & !UPPER)] += count;
        }
        model.bigrams = language_costs(&n, k, model.letters());
        let cost = |p: f64| to_steps(p, MAX_COST);
        // How often plain ASCII goes on as plain ASCII: in a language with
        // few non-ASCII letters, long ASCII runs are likely; in one with
        // many, each ASCII character that is not followed by one is
        // evidence against it. Readings skip ASCII runs and charge this per
        // plain byte instead of scoring each pair.
        let ascii = usize::from(ASCII_OTHER)..=usize::from(LAST_ASCII);
        let from_ascii: f64 =
            ascii.clone().map(|p| n[p * k..(p + 1) * k].iter().sum::<f64>()).sum();
        let stays: f64 = ascii
            .clone()
            .flat_map(|p| ascii.clone().map(move |c| (p, c)))
            .map(|(p, c)| n[p * k + c])
            .sum();
        model.stay =
            (-(stays / from_ascii).log2() * STAY_STEPS_PER_BIT).round().min(65535.0) as u16;
        for state in 0..4 {
            let row = (cases[state * 2] + cases[state * 2 + 1]) as f64;
            for cur in 0..2 {
                model.case[state * 2 + cur] =
                    cost((cases[state * 2 + cur] as f64 + 1.0) / (row + 2.0));
            }
        }
        Ok(model)
    }

    /// The script of the language's non-ASCII letters (the commonest), if
    /// it has any.
    pub fn script(&self) -> Option<unicode_script::Script> {
        use unicode_script::UnicodeScript;
        let mut counts: BTreeMap<String, (f64, unicode_script::Script)> = BTreeMap::new();
        for (&c, &n) in &self.letter_counts {
            let script = c.script();
            counts.entry(script.full_name().to_owned()).or_insert((0.0, script)).0 += n;
        }
        counts.into_values().max_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, script)| script)
    }

    /// The share of this language's non-ASCII letters that `repertoire` has.
    pub fn coverage(&self, repertoire: &BTreeSet<char>) -> f64 {
        let total: f64 = self.letter_counts.values().sum();
        let covered: f64 =
            self.letter_counts.iter().filter(|(c, _)| repertoire.contains(c)).map(|(_, n)| n).sum();
        if total == 0.0 {
            1.0
        } else {
            covered / total
        }
    }
}

pub fn emit_models(body: &mut String, models: &[Model]) -> Result<()> {
    for (name, value, doc) in [
        (
            "ASCII_OTHER",
            ASCII_OTHER,
            "Class: ASCII other than letters and digits (space, punctuation).",
        ),
        ("ASCII_LETTER", ASCII_LETTER, "Class: the ASCII letter a (b is 2, …, z is 26)."),
        ("LAST_ASCII_LETTER", LAST_ASCII_LETTER, "The class of the last ASCII letter (z)."),
        ("DIGIT", DIGIT, "Class: an ASCII digit."),
        ("LAST_ASCII", LAST_ASCII, "The last ASCII class (digits): classes up to it are ASCII."),
        (
            "SYMBOL",
            SYMBOL,
            "Class: a non-ASCII character that is not a letter, outside the alphabet.",
        ),
        ("OTHER_LETTER", OTHER_LETTER, "Class: a non-ASCII letter outside the alphabet."),
        ("ODD", ODD, "Class: a control (other than whitespace), private use, U+FFFD."),
        (
            "FAR_LETTER",
            FAR_LETTER,
            "Class: a letter of a script with thousands (from U+2E80: kana, CJK, Hangul).",
        ),
        ("FIRST_LETTER", FIRST_LETTER, "Class of a model's first alphabet character."),
        ("UPPER", UPPER, "Flag on a class: uppercase."),
        ("ILLEGAL", ILLEGAL, "A byte that does not decode, or decodes to a C1 control."),
    ] {
        writeln!(body, "/// {doc}\npub const {name}: u8 = {value};")?;
    }
    writeln!(
        body,
        "/// Cost steps per bit.\npub const STEPS_PER_BIT: u8 = {};",
        STEPS_PER_BIT as u8
    )?;
    writeln!(
        body,
        "/// Steps per bit of [`Model::stay`].\npub const STAY_STEPS_PER_BIT: u16 = {};",
        STAY_STEPS_PER_BIT as u16
    )?;
    writeln!(
        body,
        "/// Letters from here on are [`FAR_LETTER`] when outside an alphabet.\n\
         pub const FAR_SCRIPTS: char = '\\u{{{:X}}}';",
        u32::from(FAR_SCRIPTS)
    )?;
    writeln!(
        body,
        "/// A language model: class-bigram costs over its alphabet.\n\
         pub struct Model {{\n\
         /// `vi@1258` for a variant form of a language's text, else the language tag.\npub id: &'static str,\n\
         /// BCP 47 language tag.\npub language: &'static str,\n\
         /// Number of classes (`FIRST_LETTER` + alphabet size).\npub classes: usize,\n\
         /// `classes × classes` costs of a class after another (row: previous).\npub bigrams: &'static [u8],\n\
         /// Costs of a letter's case: `[state before][lower, upper]`, the state \
         after a non-letter, a lowercase letter, a capital, two capitals.\npub case: [u8; 8],\n\
         /// Cost of a plain ASCII character after another, in [`STAY_STEPS_PER_BIT`].\npub stay: u16,\n\
         /// Bit `k` set: class `k` is a letter.\npub letters: u128,\n}}"
    )?;
    writeln!(body, "/// Every model, sorted by id.")?;
    write!(body, "pub static MODELS: [Model; {}] = [", models.len())?;
    for m in models {
        write!(
            body,
            "Model {{ id: {:?}, language: {:?}, classes: {}, bigrams: &{:?}, case: {:?}, stay: {}, letters: {:#x} }},",
            m.id,
            m.language,
            m.classes(),
            m.bigrams,
            m.case,
            m.stay,
            m.letters()
        )?;
    }
    body.push_str("];\n");
    Ok(())
}

/// No-break spaces (U+00A0, and the narrow one of French typography and
/// CLDR's number formats, U+202F) stand where a space goes: before `; : ! ?`
/// and inside `« »` in French, between the digits of a number and between a
/// number and its unit, in place of any space of text pasted from a word
/// processor. The training text (`../shared/text`) has its spaces
/// collapsed, so no model saw one; read as the space it stands for (class
/// [`ASCII_OTHER`]), one costs [`NO_BREAK_SPACE_BITS`] in every model.
pub const NO_BREAK_SPACES: [char; 2] = ['\u{A0}', '\u{202F}'];

/// What a space costs written as a no-break one: a prior, not counted (no
/// training text has them), of one space in 64. (As a rare symbol it cost
/// 11 to 15 bits, more than the Portuguese `á` that DOS code pages write with
/// the same byte: French with `\xA0` before its `!` read as IBM850.)
const NO_BREAK_SPACE_BITS: f64 = 8.0;

/// What a character costs when it stands in a category class (another
/// letter, a symbol) in a model, in steps: `-log2` of its share of the
/// model's category. The share mixes the model's own counts of the
/// characters outside its alphabet (Estonian text has a few š, no ð) with
/// the pool of every language's text (weight [`POOL_WEIGHT`]), so a letter
/// common elsewhere (é) costs less than a rare one, and € less than ¤.
/// Also the cost of a character of each category that no text showed
/// (`unseen_*`, per model).
pub struct Emissions {
    /// Per symbol (in [`emit_symbols`]' order), per model; 0 where the
    /// symbol is in the model's alphabet.
    pub of: BTreeMap<char, Vec<u8>>,
    /// Per combining mark, per model: what it costs a single-byte reading
    /// as a letter (0 where it is in the model's alphabet). The models
    /// price a mark outside their alphabet as a symbol, as text scoring
    /// wants (a strikethrough written with U+0336 is text); but a byte
    /// that one encoding reads as a mark and another as a letter
    /// (windows-1258's U+0323 is windows-1252's `ò`) stands for a letter,
    /// and a mark the language never writes is as rare as one.
    pub mark_as_letter: BTreeMap<char, Vec<u8>>,
    pub unseen_letter: Vec<u8>,
    pub unseen_symbol: Vec<u8>,
    pub far_letter: u8,
}

/// A letter or symbol of another script than the model's language (Arabic
/// letters or the Arabic semicolon in French text, Cyrillic in Polish) is
/// this many bits rarer than the pooled text of every language makes it:
/// text quotes other scripts far less often than the pool, in which every
/// script has its share, suggests.
const FOREIGN_SCRIPT_BITS: f64 = 8.0;

/// Whether `c` belongs only to scripts other than `script` (a character
/// common to all scripts, such as `©` or `–`, is nobody's).
fn is_foreign(c: char, script: unicode_script::Script) -> bool {
    use unicode_script::UnicodeScript;
    let scripts = c.script_extension();
    !scripts.is_common() && !scripts.is_inherited() && !scripts.contains_script(script)
}

/// How many of its own out-of-alphabet characters a model must have seen
/// before they weigh as much as the pool in its emissions.
const POOL_WEIGHT: f64 = 16.0;
/// The share of the pooled symbol distribution spread evenly over every
/// symbol the encodings write: the training text (documentation, UI) has
/// far fewer €, °, ², ½ than the documents detection meets.
const EVEN_SYMBOLS: f64 = 0.5;
/// Spacing diacritics, which a typewriter struck over a letter and text
/// almost never writes alone, get no even share: where one stands between
/// letters a single-byte encoding is read wrong (ISO-8859-15's `š` is
/// windows-1252's `¨`, ISO-8859-2's `ž` its `¸`). (`´`, typed for an
/// apostrophe, keeps its share.) Nor does one that repeats continue a run
/// of a symbol at the detector (`apaššikielet` is no rule drawn with `¨`).
const SPACING_DIACRITICS: [char; 9] =
    ['¨', '¯', '¸', '\u{2D8}', '\u{2D9}', '\u{2DA}', '\u{2DB}', '\u{2DC}', '\u{2DD}'];
/// A currency sign of the language's countries (`currency.tsv`) has at
/// least this share of the symbols outside its alphabet: prices are common
/// in documents, rare in the training text.
const CURRENCY_SHARE: f64 = 1.0 / 16.0;
/// A letter of the language's alphabet (`alphabets.tsv`) that is not in the
/// model's (its training text has it seldom or never: Welsh `ŵ ŷ` in its
/// UDHR) has at least this share of the letters outside the model's alphabet.
const ALPHABET_SHARE: f64 = 1.0 / 16.0;
/// A letter that is neither in the language's alphabet nor among the
/// letters of its loanwords (`þ` in Welsh) is this many bits rarer than the
/// pooled text of every language makes it.
const NON_ALPHABET_BITS: f64 = 4.0;

/// What the Unicode CLDR says of the languages (see `cldr.rs`).
pub struct Cldr<'a> {
    /// The currency signs of each language's countries.
    pub currency: &'a [(String, Vec<char>)],
    /// The letters of each language's alphabet and of its loanwords.
    pub alphabets: &'a BTreeMap<String, Alphabet>,
}

pub fn emissions(models: &[Model], symbols: &BTreeSet<char>, cldr: &Cldr) -> Emissions {
    let mut pooled: BTreeMap<char, f64> = BTreeMap::new();
    for m in models {
        for (&c, &n) in &m.char_counts {
            *pooled.entry(c).or_default() += n;
        }
    }
    let steps =
        |p: f64| (-p.log2()).clamp(*EMISSION_BITS.start(), *EMISSION_BITS.end()) * STEPS_PER_BIT;
    let steps = |p: f64| steps(p).round() as u8;
    let mut totals: BTreeMap<u8, (f64, f64)> = BTreeMap::new();
    for &c in pooled.keys().chain(symbols.iter()) {
        let n = pooled.get(&c).copied().unwrap_or(0.0);
        let entry = totals.entry(category(c)).or_default();
        entry.0 += n;
        entry.1 += 1.0;
    }
    // The pooled share of `c` (with count `n`) in its category.
    let pool = |cat: u8, c: Option<char>, n: f64| {
        let (total, kinds) = totals.get(&cat).copied().unwrap_or((0.0, 0.0));
        let counted = (n + 0.5) / (total + 0.5 * (kinds + 1.0));
        let even = c.is_none_or(|c| !SPACING_DIACRITICS.contains(&c));
        if cat == SYMBOL && even {
            (1.0 - EVEN_SYMBOLS) * counted + EVEN_SYMBOLS / (kinds + 1.0)
        } else if cat == SYMBOL {
            (1.0 - EVEN_SYMBOLS) * counted
        } else {
            counted
        }
    };
    let mut of: BTreeMap<char, Vec<u8>> = BTreeMap::new();
    let mut mark_as_letter: BTreeMap<char, Vec<u8>> = BTreeMap::new();
    let (mut unseen_letter, mut unseen_symbol) = (Vec::new(), Vec::new());
    for m in models {
        // The model's own characters outside its alphabet, by category.
        let outside = |c: &char| m.alphabet.binary_search(c).is_err();
        let mut own: BTreeMap<u8, f64> = BTreeMap::new();
        for (c, &n) in m.char_counts.iter().filter(|(c, _)| outside(c)) {
            *own.entry(category(*c)).or_default() += n;
        }
        let signs =
            cldr.currency.iter().find(|(tag, _)| *tag == m.language).map_or(&[][..], |r| &r.1);
        let alphabet = cldr.alphabets.get(&m.language);
        let in_alphabet = |c: char| alphabet.is_some_and(|a| a.main.contains(&c));
        let known =
            |c: char| alphabet.is_none_or(|a| a.main.contains(&c) || a.auxiliary.contains(&c));
        let script = m.script();
        let share = |cat: u8, c: Option<char>| {
            let n = c.filter(outside).and_then(|c| m.char_counts.get(&c)).copied().unwrap_or(0.0);
            let pooled = pool(cat, c, c.and_then(|c| pooled.get(&c)).copied().unwrap_or(0.0));
            let mine = own.get(&cat).copied().unwrap_or(0.0);
            let share = (n + POOL_WEIGHT * pooled) / (mine + POOL_WEIGHT);
            match c {
                Some(c) if cat == SYMBOL && signs.contains(&c) => share.max(CURRENCY_SHARE),
                Some(c) if script.is_some_and(|s| is_foreign(c, s)) => {
                    share * (-FOREIGN_SCRIPT_BITS).exp2()
                }
                Some(c) if cat == OTHER_LETTER && in_alphabet(c) => share.max(ALPHABET_SHARE),
                Some(c) if cat == OTHER_LETTER && !known(c) => share * (-NON_ALPHABET_BITS).exp2(),
                _ => share,
            }
        };
        for &c in symbols {
            let cat = category(c);
            let emission = match cat {
                OTHER_LETTER | SYMBOL if outside(&c) => steps(share(cat, Some(c))),
                FAR_LETTER => (FAR_LETTER_BITS * STEPS_PER_BIT).round() as u8,
                ASCII_OTHER if NO_BREAK_SPACES.contains(&c) => {
                    (NO_BREAK_SPACE_BITS * STEPS_PER_BIT).round() as u8
                }
                _ => 0,
            };
            of.entry(c).or_default().push(emission);
            if is_mark(c) {
                let as_letter = if outside(&c) { steps(share(OTHER_LETTER, Some(c))) } else { 0 };
                mark_as_letter.entry(c).or_default().push(as_letter);
            }
        }
        unseen_letter.push(steps(share(OTHER_LETTER, None)));
        unseen_symbol.push(steps(share(SYMBOL, None)));
    }
    Emissions {
        of,
        mark_as_letter,
        unseen_letter,
        unseen_symbol,
        far_letter: (FAR_LETTER_BITS * STEPS_PER_BIT).round() as u8,
    }
}

/// The symbol table: every character of an alphabet or of a single-byte
/// encoding's high half (lowercase), sorted, with each model's class of it.
pub fn emit_symbols(
    body: &mut String,
    symbols: &BTreeSet<char>,
    models: &[Model],
    emissions: &Emissions,
) -> Result<()> {
    writeln!(
        body,
        "/// What a character in a category class (another letter, a symbol) or a\n\
         /// no-break space (in [`ASCII_OTHER`], as a space) costs on top of its\n\
         /// class, in steps, by index into [`SYMBOLS`], in each of [`MODELS`]; 0\n\
         /// where it has another class."
    )?;
    write!(body, "pub static SYMBOL_EMISSIONS: [[u8; {}]; {}] = [", models.len(), symbols.len())?;
    for c in symbols {
        write!(body, "{:?},", emissions.of[c])?;
    }
    body.push_str("];\n");
    for (name, value, doc) in [
        (
            "UNSEEN_LETTER_EMISSIONS",
            &emissions.unseen_letter,
            "The emission of a letter missing from [`SYMBOLS`], in each of [`MODELS`].",
        ),
        (
            "UNSEEN_SYMBOL_EMISSIONS",
            &emissions.unseen_symbol,
            "The emission of a symbol missing from [`SYMBOLS`], in each of [`MODELS`].",
        ),
    ] {
        writeln!(body, "/// {doc}\npub static {name}: [u8; {}] = {value:?};", value.len())?;
    }
    writeln!(
        body,
        "/// The emission of a [`FAR_LETTER`].\npub const FAR_LETTER_EMISSION: u8 = {};",
        emissions.far_letter
    )?;
    writeln!(
        body,
        "/// The no-break spaces, read as the space they stand for ([`ASCII_OTHER`]).\n\
         pub const NO_BREAK_SPACES: [char; {}] = {:?};",
        NO_BREAK_SPACES.len(),
        NO_BREAK_SPACES
    )?;
    writeln!(
        body,
        "/// The spacing diacritics (`¨ ¸ ˛`…), which text hardly writes alone: no run of\n\
         /// one is a run of a symbol.\n\
         pub const SPACING_DIACRITICS: [char; {}] = {:?};",
        SPACING_DIACRITICS.len(),
        SPACING_DIACRITICS
    )?;
    writeln!(body, "/// Lowercase characters with a class in [`SYMBOL_CLASSES`], ascending.")?;
    write!(body, "pub static SYMBOLS: [char; {}] = [", symbols.len())?;
    for c in symbols {
        write!(body, "'\\u{{{:X}}}',", u32::from(*c))?;
    }
    body.push_str("];\n");
    writeln!(body, "/// Per symbol (index into [`SYMBOLS`]): its class in each of [`MODELS`].")?;
    write!(body, "pub static SYMBOL_CLASSES: [[u8; {}]; {}] = [", models.len(), symbols.len())?;
    for &c in symbols {
        let classes: Vec<u8> = models.iter().map(|m| m.class(c) & !UPPER).collect();
        write!(body, "{classes:?},")?;
    }
    body.push_str("];\n");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_kept_apart_from_other_ascii_in_the_pairs() {
        let pairs: Vec<(char, char)> = line_pairs("£12, x").collect();
        let expected =
            [(' ', '£'), ('£', '0'), ('0', '0'), ('0', ' '), (' ', ' '), (' ', 'a'), ('x', ' ')];
        assert_eq!(pairs, expected);
        assert_eq!(category('7'), DIGIT);
        assert_eq!(category(','), ASCII_OTHER);
    }

    #[test]
    fn a_digit_is_told_apart_only_after_a_letter() {
        // The shared classes and one letter of an alphabet.
        let k = usize::from(FIRST_LETTER) + 1;
        let letter = k - 1;
        let mut n = vec![0.0; k * k];
        let (other, digit, symbol) =
            (usize::from(ASCII_OTHER), usize::from(DIGIT), usize::from(SYMBOL));
        n[letter * k + other] = 90.0; // `ú `
        n[letter * k + digit] = 1.0; // `ú1`, rare
        n[symbol * k + other] = 20.0; // `” `, never `£5`
        n[other * k + symbol] = 30.0; // ` €`
        n[digit * k + other] = 50.0; // `5 `, never `5€`
        n[other * k + letter] = 40.0;
        let costs = language_costs(&n, k, 1 << letter);
        let own = smoothed_costs(&n, k, MAX_COST);
        // After the letter, a digit costs what the letter's own counts say.
        assert_eq!(costs[letter * k + digit], own[letter * k + digit]);
        assert!(costs[letter * k + digit] > costs[letter * k + other]);
        // After a symbol, a digit is other ASCII.
        assert_eq!(costs[symbol * k + digit], costs[symbol * k + other]);
        assert!(costs[symbol * k + digit] < own[symbol * k + digit]);
        // After a digit, a symbol costs about what it costs after a space.
        assert!(costs[digit * k + symbol] < own[digit * k + symbol]);
    }
}
