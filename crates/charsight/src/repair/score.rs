//! The scoring model every repair decision is made by: how plausible a
//! stretch of text is as natural language, under the detector's language
//! models ([`crate::detect::language_costs`], the per-language form of
//! [`crate::detect::plausibility`]; one model for detection and repair).
//!
//! A repair proposes to replace a stretch of a line with another reading
//! of the same bytes. The readings are scored in a window of the line (the
//! stretch plus up to [`CONTEXT`] characters each side, so that the pairs it
//! forms with its neighbours count) under the language of the line
//! ([`line_language`]; for mojibake, of the line as the repairs being
//! weighed would make it): the most plausible reading wins, and its *gain*
//! is how many bits cheaper it makes the window than the text as it stands.
//! Scoring each reading under its own best language would be unfair: a model
//! in which a reading is merely rare (a CJK character-frequency table, for
//! one odd symbol) would make any change look good. A line with too little
//! non-ASCII text to tell its language leaves each reading to its own best
//! language; a `conservative` repair (numeric references, which say what
//! they mean unless shown otherwise) then also needs the gain with each
//! reading under its own best language. Symbols that no language's training
//! text showed are charged [`UNSEEN_SYMBOL_BITS`] each (the class models
//! give them all one cheap class).
//!
//! A repair is made only when its gain clears a margin: the kind's base
//! margin, plus up to [`WITNESS_BITS`] in proportion to the share of the
//! line's (or block's) non-ASCII text the repair leaves as it is
//! ([`Share::margin`]). The margins were set on the tuning half of the
//! held-out text (`cargo run -p xtask -- repair-eval --half tuning`) so that
//! no line of the clean text is changed, and are reported on the other half.
//!
//! A repair's confidence is the probability of its reading when the margin
//! is taken as the prior odds against it ([`confidence`]).

use std::borrow::Cow;
use std::ops::Range;

use crate::classify::{class, Class};

use crate::decode::is_escape;
use crate::detect::{
    best_language_cost, cjk_tables_cost, language_bits_within, language_cost, language_costs,
    LanguageCosts,
};
use crate::Charset;

/// Characters of context scored on each side of a stretch.
pub(crate) const CONTEXT: usize = 24;

/// Non-ASCII characters a line needs to tell its language.
pub(crate) const ENOUGH_TO_TELL: usize = 3;

/// The language a line is most plausible in, when it holds enough
/// non-ASCII text to tell ([`ENOUGH_TO_TELL`] characters; undecodable bytes
/// and U+FFFD left out: they tell nothing).
pub(crate) fn line_language(line: &str) -> Option<&'static str> {
    line_language_cost(line).map(|(language, _)| language)
}

/// [`line_language`], and the line's [`cost_in`] that language when the
/// same pass gives it: when the line is scored as it stands (no undecodable
/// byte or U+FFFD left out, nothing [`as_scored`] rewrites).
pub(crate) fn line_language_cost(line: &str) -> Option<(&'static str, Option<f32>)> {
    if line.chars().filter(|&c| tells_language(c)).take(ENOUGH_TO_TELL).count() < ENOUGH_TO_TELL {
        return None;
    }
    let known: String = line.chars().filter(|&c| !is_escape(c) && c != '\u{FFFD}').collect();
    let as_it_stands = known.len() == line.len() && matches!(as_scored(line), Cow::Borrowed(_));
    let (language, bits) = best_language_cost(&known)?;
    Some((language, as_it_stands.then_some(bits)))
}

/// How many texts' [`language_costs`] [`remembered_costs`] keeps.
const REMEMBERED: usize = 8;

/// [`language_costs`] of `text`, remembered for the last [`REMEMBERED`]
/// texts scored on this thread: a stretch whose line tells no language is
/// judged in its own window more than once (its layers chosen, then the
/// repair judged in place, conservatively too), and the window as it
/// stands is asked for each time. (A line's language and bits are found
/// with the models pruned, [`best_language_cost`] and [`bits`], not here.)
fn remembered_costs(text: &str) -> LanguageCosts {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    thread_local! {
        static LAST: RefCell<VecDeque<(String, LanguageCosts)>> = const { RefCell::new(VecDeque::new()) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((_, costs)) = last.iter().find(|(t, _)| t == text) {
            return costs.clone();
        }
        let costs = language_costs(text);
        if last.len() == REMEMBERED {
            last.pop_back();
        }
        last.push_front((text.to_owned(), costs.clone()));
        costs
    })
}

/// Counts units of text as the output will have them: characters, a run
/// of undecodable ones counting as one (the output may write it as fewer
/// U+FFFD than it has bytes).
#[derive(Default)]
pub(crate) struct Units {
    pub counted: usize,
    in_run: bool,
}

impl Units {
    /// Counts `c`, the next character.
    pub(crate) fn add(&mut self, c: char) {
        let undecodable = is_undecodable(c);
        if !(undecodable && self.in_run) {
            self.counted += 1;
        }
        self.in_run = undecodable;
    }

    /// Counts `c`: whether it is within the [`CONTEXT`].
    fn take(&mut self, c: char) -> bool {
        self.add(c);
        self.counted <= CONTEXT
    }
}

/// An undecodable byte (an escape) or the U+FFFD the output writes for it.
pub(crate) fn is_undecodable(c: char) -> bool {
    is_escape(c) || c == '\u{FFFD}'
}

/// `range` of `line` (byte offsets at character boundaries) with the
/// [`CONTEXT`] characters each side it is scored in, a run of undecodable
/// ones counted as one (the output may write it as fewer U+FFFD than it has
/// bytes).
pub(crate) fn context(line: &str, range: Range<usize>) -> Range<usize> {
    let mut start = range.start;
    let mut units = Units::default();
    for (i, c) in line[..range.start].char_indices().rev() {
        if !units.take(c) {
            break;
        }
        start = i;
    }
    let mut end = range.end;
    let mut units = Units::default();
    for (i, c) in line[range.end..].char_indices() {
        if !units.take(c) {
            break;
        }
        end = range.end + i + c.len_utf8();
    }
    start..end
}

/// A stretch of a line and the context it is scored in.
pub(crate) struct Window<'a> {
    before: &'a str,
    after: &'a str,
    /// The language of the line ([`line_language`]), if it tells one.
    language: Option<&'static str>,
}

impl<'a> Window<'a> {
    /// The window of `range` (byte offsets at character boundaries) in
    /// `line`, which should hold no line break, whose language is
    /// `language` ([`line_language`] of the line, or of the line as the
    /// repairs being weighed would make it).
    pub(crate) fn new(
        line: &'a str,
        range: Range<usize>,
        language: Option<&'static str>,
    ) -> Window<'a> {
        let window = context(line, range.clone());
        let (before, after) = (&line[window.start..range.start], &line[range.end..window.end]);
        Window { before, after, language }
    }

    /// The window with `middle` in the stretch, undecodable bytes
    /// (escapes) as U+FFFD.
    pub(crate) fn with(&self, middle: &str) -> String {
        let mut text = String::with_capacity(self.before.len() + middle.len() + self.after.len());
        for part in [self.before, middle, self.after] {
            text.extend(part.chars().map(as_output));
        }
        text
    }

    /// How each of `readings` of the stretch compares with `original`.
    ///
    /// Under the context's language when it has one, else under the
    /// reading's own; and, when the repair must be `conservative` and
    /// `original` reads as text of some language, also with each reading
    /// under its own best language, whichever gain is smaller (text that
    /// reads about as well as it stands, in some language, is left).
    pub(crate) fn judge<S: AsRef<str>>(
        &self,
        original: &str,
        readings: &[S],
        conservative: bool,
    ) -> Verdicts {
        let context = self.language;
        if let (Some(language), false) = (context, conservative) {
            return self.judge_in(language, original, readings);
        }
        let before = costs(&self.with(original));
        let key = |costs: &LanguageCosts| self.key(costs);
        let mut verdicts = Verdicts {
            original: key(&before) + unseen(original),
            costs: Vec::new(),
            gains: Vec::new(),
        };
        let charged = unseen(original);
        let own = |costs: &LanguageCosts| costs.best().map_or(0.0, |(_, bits)| bits);
        for reading in readings {
            let after = costs(&self.with(reading.as_ref()));
            let charge = unseen(reading.as_ref());
            verdicts.costs.push(key(&after) + charge);
            let language = context.or_else(|| after.best().map(|(l, _)| l));
            let mut gain = match language.map(|l| (before.get(l), after.get(l))) {
                Some((Some(b), Some(a))) => b - a,
                _ => f32::NEG_INFINITY,
            };
            if conservative && original.chars().any(tells_language) {
                // Each reading under its own best language, too.
                gain = gain.min(own(&before) - own(&after));
            }
            verdicts.gains.push(gain + charged - charge);
        }
        verdicts
    }

    /// [`Window::judge`] under the context's `language`, not conservative:
    /// each text scored under that language's models alone.
    fn judge_in<S: AsRef<str>>(&self, language: &str, original: &str, readings: &[S]) -> Verdicts {
        let before = cost_in(&self.with(original), language);
        let charged = unseen(original);
        let mut verdicts = Verdicts {
            original: before.unwrap_or(f32::INFINITY) + charged,
            costs: Vec::with_capacity(readings.len()),
            gains: Vec::with_capacity(readings.len()),
        };
        for reading in readings {
            let after = cost_in(&self.with(reading.as_ref()), language);
            let charge = unseen(reading.as_ref());
            verdicts.costs.push(after.unwrap_or(f32::INFINITY) + charge);
            let gain = match (before, after) {
                (Some(b), Some(a)) => b - a,
                _ => f32::NEG_INFINITY,
            };
            verdicts.gains.push(gain + charged - charge);
        }
        verdicts
    }

    /// The cost of the window with `middle` in the stretch (bits, under the
    /// context's language or its own best, with [`unseen`] symbols charged).
    pub(crate) fn cost(&self, middle: &str) -> f32 {
        let with = self.with(middle);
        let cost = match self.language {
            Some(language) => cost_in(&with, language).unwrap_or(f32::INFINITY),
            None => self.key(&costs(&with)),
        };
        cost + unseen(middle)
    }

    /// A window's cost under the context's language, or its own best.
    fn key(&self, costs: &LanguageCosts) -> f32 {
        match self.language {
            Some(language) => costs.get(language).unwrap_or(f32::INFINITY),
            None => costs.best().map_or(0.0, |(_, bits)| bits),
        }
    }

    /// The most plausible of `readings` of the stretch (its index) and its
    /// gain in bits over `original` ([`Window::judge`]).
    pub(crate) fn choose<S: AsRef<str>>(
        &self,
        original: &str,
        readings: &[S],
        conservative: bool,
    ) -> Option<(usize, f32)> {
        self.judge(original, readings, conservative).best()
    }
}

/// Whether `c` tells something of a text's language: a decodable
/// non-ASCII character (undecodable bytes and U+FFFD tell nothing).
pub(crate) fn tells_language(c: char) -> bool {
    !c.is_ascii() && !is_escape(c) && c != '\u{FFFD}'
}

/// Bits of margin added when all of a text's non-ASCII characters but the
/// stretch repaired are left as they are.
pub(crate) const WITNESS_BITS: f32 = 60.0;

/// How much of some text's non-ASCII characters a repair's proposals
/// cover, and how many they leave as they are (undecodable bytes and U+FFFD
/// not counted: they tell nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Share {
    pub left: usize,
    pub covered: usize,
}

impl Share {
    /// Non-ASCII characters a line needs for its own share to count.
    const ENOUGH: usize = 3;

    /// The share of `text` when `covered` of its characters are proposed
    /// for repair.
    pub(crate) fn of(text: &str, covered: usize) -> Share {
        // Every character outside ASCII has one lead byte (0xC2 and up);
        // of those, only U+FFFD and the escapes (U+10FE00–U+10FEFF) tell
        // nothing: counted by their bytes, with the searchers made once.
        use memchr::memmem::Finder;
        use std::sync::LazyLock;
        static REPLACEMENT: LazyLock<Finder> = LazyLock::new(|| Finder::new("\u{FFFD}"));
        static ESCAPE: LazyLock<Finder> = LazyLock::new(|| Finder::new(b"\xF4\x8F"));
        let bytes = text.as_bytes();
        // (Summed in bytes, 255 at a time: the compiler vectorises that.)
        let leads = bytes.chunks(255).map(|chunk| {
            let leads: u8 = chunk.iter().map(|&b| u8::from(b >= 0xC0)).sum();
            usize::from(leads)
        });
        let leads: usize = leads.sum();
        let escapes =
            ESCAPE.find_iter(bytes).filter(|&i| matches!(bytes.get(i + 2), Some(0xB8..=0xBB)));
        let nothing = REPLACEMENT.find_iter(bytes).count() + escapes.count();
        let all = leads - nothing;
        Share { left: all.saturating_sub(covered), covered }
    }

    /// Both shares added.
    pub(crate) fn add(&mut self, other: Share) {
        self.left += other.left;
        self.covered += other.covered;
    }

    /// The part left as it is, from 0 to 1.
    fn left_ratio(self) -> f32 {
        self.left as f32 / (self.left + self.covered).max(1) as f32
    }

    /// The margin a repair needs when this is its line's share and `block`
    /// its block's: `base`, plus up to [`WITNESS_BITS`] in proportion to
    /// the larger part left as it is (the line's counts only when it has
    /// enough non-ASCII text to tell). Mojibake and mixed-in bytes come in
    /// runs: text garbled throughout leaves nothing, while a lone
    /// mojibake-looking stretch in clean text (a quoted example, a rare
    /// word, an old garbled link kept as it was) leaves most, and needs far
    /// more evidence.
    pub(crate) fn margin(self, block: Share, base: f32) -> f32 {
        let line = if self.left + self.covered >= Share::ENOUGH { self.left_ratio() } else { 0.0 };
        base + WITNESS_BITS * line.max(block.left_ratio())
    }
}

/// How readings of a stretch compare with the text as it stands.
pub(crate) struct Verdicts {
    /// The cost of the text as it stands (bits, under the context's
    /// language or its own best).
    pub original: f32,
    /// The cost of each reading, the same way.
    pub costs: Vec<f32>,
    /// The gain of each reading.
    pub gains: Vec<f32>,
}

impl Verdicts {
    /// The most plausible reading (its index) and its gain.
    pub(crate) fn best(&self) -> Option<(usize, f32)> {
        self.best_where(|_| true)
    }

    /// The most plausible of the readings `keep` accepts (by index), and
    /// its gain; the first of those that cost the same.
    pub(crate) fn best_where(&self, keep: impl Fn(usize) -> bool) -> Option<(usize, f32)> {
        let kept = self.costs.iter().enumerate().filter(|&(i, _)| keep(i));
        let (i, _) = kept.min_by(|a, b| a.1.total_cmp(b.1))?;
        Some((i, self.gains[i]))
    }
}

/// The detector's prior cost of `charset`, in bits: how much rarer than
/// UTF-8 text in it is (its models' `ENCODINGS` table). An encoding it does
/// not consider costs as much as the rarest it does.
pub(crate) fn prior(charset: Charset) -> f32 {
    use charsight_tables::detect::{ENCODINGS, STEPS_PER_BIT};
    let steps = ENCODINGS.iter().find(|e| e.charset == charset.name()).map(|e| e.prior);
    let steps = steps.unwrap_or_else(|| ENCODINGS.iter().map(|e| e.prior).max().unwrap_or(0));
    f32::from(steps) / f32::from(STEPS_PER_BIT)
}

/// The cost of `text` under its most plausible language ([`costs`]'s
/// best), with [`unseen`] symbols charged; found with the models scored
/// only while they may be the best ([`bits_below`]).
pub(crate) fn bits(text: &str) -> f32 {
    bits_below(text, f32::INFINITY).unwrap_or(f32::INFINITY)
}

/// [`bits`] of `text` when they are fewer than `limit`; `None` when they
/// are not. Models are scored only while they may be the best and under the
/// limit, so text far less plausible than that (most readings a repair
/// weighs) costs a fraction of the time.
pub(crate) fn bits_below(text: &str, limit: f32) -> Option<f32> {
    let charged = unseen(text);
    // A step over the limit, so that rounding never drops a text under it:
    // the comparison is made on the bits themselves.
    let within = limit - charged + 1.0 / f32::from(charsight_tables::detect::STEPS_PER_BIT);
    let bits = language_bits_within(&as_scored(text), within)? + charged;
    (bits < limit).then_some(bits)
}

/// At least [`bits`] of `text`, found in a fraction of their time when it
/// has CJK characters ([`cjk_tables_cost`]); `None` when it has none.
pub(crate) fn bits_at_most(text: &str) -> Option<f32> {
    Some(cjk_tables_cost(&as_scored(text))? + unseen(text))
}

/// The cost of `text` under `language`, with [`unseen`] symbols charged;
/// without a language (or for one without a model), [`bits`].
pub(crate) fn bits_in(text: &str, language: Option<&str>) -> f32 {
    match language.and_then(|language| cost_in(text, language)) {
        Some(cost) => cost + unseen(text),
        None => bits(text),
    }
}

/// The cost of `text` under each language ([`language_costs`]) as the
/// output will have it: a run of undecodable bytes (escapes) is scored as
/// one U+FFFD, and so is a run of U+FFFD, so that repairing the output
/// again (where a malformed sequence of several bytes is one U+FFFD) weighs
/// the same text the same way (idempotence).
pub(crate) fn costs(text: &str) -> LanguageCosts {
    remembered_costs(&as_scored(text))
}

/// The cost of `text` under `language` alone, as [`costs`] gives it for
/// that language (scoring only its models).
pub(crate) fn cost_in(text: &str, language: &str) -> Option<f32> {
    language_cost(&as_scored(text), language)
}

/// `text` as the output will have it, for scoring (see [`costs`]), without
/// its variation selectors, and with its spaces of [`is_space`] that stand
/// as spaces ([`stands_as_space`]) as ASCII spaces.
fn as_scored(text: &str) -> Cow<'_, str> {
    let plain =
        |c: char| c.is_ascii() || !(is_undecodable(c) || is_variation_selector(c) || is_space(c));
    if text.chars().all(plain) {
        return Cow::Borrowed(text);
    }
    let mut output = String::with_capacity(text.len());
    let mut in_run = false;
    for (c, space) in scored_chars(text) {
        let undecodable = is_undecodable(c);
        if !(undecodable && in_run) {
            output.push(if space { ' ' } else { as_output(c) });
        }
        in_run = undecodable;
    }
    Cow::Owned(output)
}

/// `text`'s characters but its variation selectors, each with whether it
/// is a space of [`is_space`] that stands as one ([`stands_as_space`]).
fn scored_chars(text: &str) -> impl Iterator<Item = (char, bool)> + '_ {
    let mut chars = text.chars().filter(|&c| !is_variation_selector(c)).peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        Some((c, is_space(c) && stands_as_space(chars.peek().copied())))
    })
}

/// A space of ordinary text other than ASCII's, scored as an ASCII space:
/// the no-break space, the narrow one (U+202F) and the ideographic space.
/// Text uses them where it would a space (French puts a narrow no-break
/// space before `:` and `»`, HTML's `&nbsp;` goes between words and
/// numbers), while the training text was normalised and has none:
/// unscored, each would cost more than a rare letter, and a no-break space
/// in correct text would pay for a repair that removes it
/// (`SELKÄ\u{A0}EDELLÄ` read as `SELKĠEDELLĠ`). The typographic spaces
/// U+2000-U+200A are left to be charged: text seldom has them, and a byte
/// lost from `”` (`E2 80 9D`) reads as one (`E2 80 81`).
fn is_space(c: char) -> bool {
    crate::detect::is_no_break_space(c) || c == '\u{3000}'
}

/// Whether a space of [`is_space`] followed by `next` stands where a space
/// would: before anything but a lowercase letter or another space. A
/// no-break space inside a word (`mÃ\u{A0}quina`) or before a space
/// (`dÃ©jÃ\u{A0} vu`) is the second byte of a UTF-8 sequence far more
/// often than a space, and is scored as the symbol it is.
fn stands_as_space(next: Option<char>) -> bool {
    next.is_none_or(|c| !c.is_lowercase() && !c.is_whitespace())
}

/// A character as the output has it: an escape as U+FFFD.
fn as_output(c: char) -> char {
    if is_escape(c) {
        '\u{FFFD}'
    } else {
        c
    }
}

/// Bits charged for each symbol that no language's training text showed.
pub(crate) const UNSEEN_SYMBOL_BITS: f32 = 12.0;

/// The charge for the symbols of `text` that the models never saw in
/// training (non-ASCII characters that are not letters and are not in the
/// models' symbol table): the class models give every such character one
/// class with one cost, so a box-drawing piece or a stray combining mark
/// would cost no more than the typographic quote it stands in for. A
/// letter of the models' own alphabets that no training text showed is
/// charged alike ([`in_modelled_alphabet`]: `ſ`, `Ԭ`).
///
/// Invisible characters (C1 controls, format characters such as U+2064
/// INVISIBLE PLUS), private-use and unassigned code points are charged
/// twice: text holds them far more rarely than a visible symbol (`❤` and
/// `⁤` are both `E2 xx A4`; `¬ô` read as UTF-8 is the control U+0099).
///
/// A space of [`is_space`] that stands as one, scored as an ASCII space
/// ([`stands_as_space`]), is charged once: the training text has none, so
/// what it costs beyond a space is not measured. A no-break space that
/// does not (inside a word: `mÃ\u{A0}quina`) is charged as much on top of
/// what the models price it at, as a space: a space is not what it is.
pub(crate) fn unseen(text: &str) -> f32 {
    use charsight_tables::detect::SYMBOLS;
    let charge = |(c, space): (char, bool)| {
        if space {
            return UNSEEN_SYMBOL_BITS;
        }
        // The models price a no-break space as the space it stands for;
        // inside a word it stands for none.
        if crate::detect::is_no_break_space(c) {
            return UNSEEN_SYMBOL_BITS;
        }
        if c.is_ascii() || is_undecodable(c) {
            return 0.0;
        }
        let seen = SYMBOLS.binary_search(&c.to_lowercase().next().unwrap_or(c)).is_ok();
        // (A letter by the generated table first: most are, and the
        // standard library's look-up is a search.)
        if class(c) == Class::Letter || c.is_alphabetic() {
            return if seen || !in_modelled_alphabet(c) { 0.0 } else { UNSEEN_SYMBOL_BITS };
        }
        if seen {
            return 0.0;
        }
        match class(c) {
            Class::Control | Class::Format | Class::PrivateUse | Class::Unassigned => {
                2.0 * UNSEEN_SYMBOL_BITS
            }
            _ => UNSEEN_SYMBOL_BITS,
        }
    };
    scored_chars(text).map(charge).sum()
}

/// What the words of one letter in `text` cost as words in `language`
/// (`ALONE_COSTS`: the share of the letter's occurrences in the training
/// text that stand alone), in bits; letters the table does not list cost
/// nothing. A word is a run of letters and apostrophes. The character
/// models see a letter and its neighbours, not a word: `s` alone in
/// Portuguese (`à s crianças` for `às crianças`) or `à` alone in Catalan
/// (`à rea`) costs them no more than inside one.
pub(crate) fn alone_bits(text: &str, language: &str) -> f32 {
    use charsight_tables::detect::{ALONE_COSTS, STEPS_PER_BIT};
    let language = language.split('@').next().unwrap_or(language);
    let Ok(at) = ALONE_COSTS.binary_search_by(|(tag, _)| (*tag).cmp(language)) else {
        return 0.0;
    };
    let letters = ALONE_COSTS[at].1;
    let in_word = |c: char| c.is_alphabetic() || c == '\'' || c == '\u{2019}';
    let steps: u32 = text
        .split(|c: char| !in_word(c))
        .filter_map(|word| {
            let mut chars = word.chars();
            let c = chars.next().filter(|c| c.is_alphabetic() && chars.next().is_none())?;
            let c = c.to_lowercase().next().unwrap_or(c);
            let k = letters.binary_search_by(|(l, _)| l.cmp(&c)).ok()?;
            Some(u32::from(letters[k].1))
        })
        .sum();
    steps as f32 / f32::from(STEPS_PER_BIT)
}

/// Whether `c` is in a block of the Latin, Greek or Cyrillic alphabets,
/// whose languages the models were trained on: a letter there that no
/// training text showed (`ſ`, Komi `Ԭ`, most of Latin Extended-B) is far
/// rarer in text than the letters of other languages that text quotes, and
/// is charged as an unseen symbol is. Letters of other scripts are not: the
/// models know too few of their languages to call one unseen.
fn in_modelled_alphabet(c: char) -> bool {
    matches!(c, '\u{C0}'..='\u{2AF}' | '\u{370}'..='\u{52F}' | '\u{1E00}'..='\u{1FFF}')
}

/// A variation selector (U+FE00–U+FE0F): it picks a form of the character
/// before it (`❤️` is `❤` and U+FE0F) and is scored as nothing.
fn is_variation_selector(c: char) -> bool {
    ('\u{FE00}'..='\u{FE0F}').contains(&c)
}

/// The confidence of a repair whose gain is `gain` bits where its margin
/// is `margin`: with the margin taken as the log prior odds against the
/// repair, the posterior probability `1 / (1 + 2^(margin - gain))`, to
/// three decimals. At the margin it is 0.5; each bit more halves the odds
/// against.
pub(crate) fn confidence(gain: f32, margin: f32) -> f32 {
    let odds_against = (margin - gain).exp2();
    let p = 1.0 / (1.0 + odds_against);
    (p * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_alone_cost_by_language() {
        // `s` is seldom a word in Portuguese, `à` often; in Catalan `à` never.
        assert!(alone_bits("à s crianças", "pt") > alone_bits("às crianças", "pt") + 6.0);
        assert!(alone_bits("à la", "fr") < 1.0);
        assert!(alone_bits("à rea", "ca") > 8.0);
        assert_eq!(alone_bits("l'àrea", "ca"), 0.0);
        // A language without the table, and words of more letters, cost nothing.
        assert_eq!(alone_bits("à s", "xx"), 0.0);
        assert_eq!(alone_bits("às crianças", "pt"), 0.0);
    }

    #[test]
    fn windows_take_context_on_both_sides() {
        let line = "a".repeat(30) + "XY" + &"b".repeat(30);
        let w = Window::new(&line, 30..32, None);
        assert_eq!(w.before.len(), CONTEXT);
        assert_eq!(w.after.len(), CONTEXT);
        let w = Window::new("éX", 2..3, None);
        assert_eq!((w.before, w.after), ("é", ""));
    }

    #[test]
    fn lines_tell_their_language_when_they_can() {
        assert_eq!(line_language("Съешь же ещё этих мягких французских булок"), Some("ru"));
        assert_eq!(line_language("only ascii, and one é"), None);
    }

    #[test]
    fn letters_of_the_modelled_alphabets_that_no_text_showed_are_charged() {
        // The long s, Komi `Ԭ`, a Latin Extended-B letter.
        for c in ['ſ', 'Ԭ', 'ԭ', 'Ƥ'] {
            assert_eq!(unseen(&c.to_string()), UNSEEN_SYMBOL_BITS, "{c}");
        }
        // Letters some language writes, capitals included, and letters of
        // scripts the models know too few languages of.
        for c in ['ũ', 'Ũ', 'ø', 'Ø', 'ē', 'ș', 'ж', 'λ', 'ა', 'ሀ', '中'] {
            assert_eq!(unseen(&c.to_string()), 0.0, "{c}");
        }
    }

    #[test]
    fn bits_below_a_limit_are_the_bits_or_none() {
        for text in
            ["Grüße aus Köln", "GrÃ¼ÃŸe aus KÃ¶ln", "中文的文章", "x \u{2603}\u{FFFD}", "plain"]
        {
            let whole = costs(text).best().map_or(0.0, |(_, bits)| bits) + unseen(text);
            assert_eq!(bits(text), whole, "{text}");
            assert_eq!(bits_below(text, whole + 0.5), Some(whole), "{text}");
            assert_eq!(bits_below(text, whole), None, "{text}");
        }
    }

    #[test]
    fn a_share_counts_the_characters_that_tell_a_language() {
        let escape = |b: u32| char::from_u32(crate::decode::ESCAPE_BASE + b).unwrap();
        let texts = [
            String::from("plain"),
            String::from("使用說明，請見\u{FFFD}第二頁。"),
            format!("a{}{}b é {} 😀", escape(0x00), escape(0xFF), "\u{10FDFF}\u{10FFFF}"),
            String::from("\u{FFFD}\u{FFFD}\u{FFFC}\u{FFFF}"),
        ];
        for text in &texts {
            let told = text.chars().filter(|&c| tells_language(c)).count();
            assert_eq!(Share::of(text, 1).left, told.saturating_sub(1), "{text:?}");
        }
    }

    #[test]
    fn confidence_grows_with_the_gain() {
        assert_eq!(confidence(10.0, 10.0), 0.5);
        assert!(confidence(20.0, 10.0) >= 0.999);
        assert!(confidence(12.0, 10.0) < confidence(14.0, 10.0));
    }
}
