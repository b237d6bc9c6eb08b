//! What every reading's score is made of: costs in steps (`-log2 p` in
//! eighths of a bit), class bigram events, the beam that drops hopeless
//! models, and the language hints.
//!
//! A reading's cost is the negative log-likelihood of the text it decodes
//! to. ASCII reads alike in every ASCII-compatible encoding, so those
//! readings leave it out; readings that are not ASCII-compatible (UTF-16,
//! UTF-32) pay [`ASCII_COST`] for each ASCII character they decode, and the
//! others are charged the same for each plain ASCII byte when the two kinds
//! are compared.

use std::sync::OnceLock;

use super::tables::{
    Model, ASCII_LETTER, ASCII_OTHER, ASCII_PAIRS, CJK_COSTS, DIGIT, FAR_LETTER, LAST_ASCII,
    LAST_ASCII_LETTER, MODELS, ODD, OTHER_LETTER, PLAIN_PAIRS, SPACING_DIACRITICS,
    STAY_STEPS_PER_BIT, STEPS_PER_BIT, SYMBOL, TLDS, UPPER,
};

/// The cost of one plain ASCII character: about the entropy of English
/// letters given the previous one, 4 bits.
pub(super) const ASCII_COST: u32 = 4 * STEPS_PER_BIT as u32;

/// The cost of a control character (other than whitespace) in a model that
/// has no bigram for it.
pub(super) const ODD_COST: u32 = 25 * STEPS_PER_BIT as u32;

/// The class of an ASCII byte: the letter (with case), digit, control, or
/// other.
#[inline]
pub(super) fn ascii_class(b: u8) -> u8 {
    match b {
        b'a'..=b'z' => ASCII_LETTER + (b - b'a'),
        b'A'..=b'Z' => (ASCII_LETTER + (b - b'A')) | UPPER,
        b'0'..=b'9' => DIGIT,
        b'\t' | b'\n' | 0x0C | b'\r' => ASCII_OTHER,
        0..=0x1F | 0x7F => ODD,
        _ => ASCII_OTHER,
    }
}

/// One language model's progress over a text: the previous class, the
/// case state and the cost so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cursor {
    /// The previous character's class (without [`UPPER`]).
    pub prev: u8,
    /// The case state before the next letter: after a non-letter (0), a
    /// lowercase letter (1), a capital (2), two capitals (3).
    pub case: u8,
    pub cost: u32,
    pub alive: bool,
}

impl Default for Cursor {
    fn default() -> Cursor {
        Cursor { prev: ASCII_OTHER, case: 0, cost: 0, alive: true }
    }
}

/// Whether class `c` (without [`UPPER`]) is a category class, whose
/// characters also pay an emission.
#[inline]
fn is_category(c: u8) -> bool {
    matches!(c, SYMBOL | OTHER_LETTER | FAR_LETTER)
}

/// Whether class `c` (without [`UPPER`]) is a letter in `model`.
#[inline]
fn is_letter(model: &Model, c: u8) -> bool {
    // A 64-bit shift of one half: cheaper than shifting the `u128`.
    let half = if c >= 64 { (model.letters >> 64) as u64 } else { model.letters as u64 };
    half >> (c & 63) & 1 == 1
}

/// The case state after a character (see [`Cursor::case`]), by whether it
/// is a letter, whether it is uppercase, and whether the state before was
/// after a capital: `[letter][upper][after capital]`.
pub(super) const CASE_AFTER: [[[u8; 2]; 2]; 2] = [[[0, 0], [0, 0]], [[1, 1], [2, 3]]];

impl Cursor {
    /// Starts over after a character of shared class `class` (with the
    /// [`UPPER`] flag) that followed a non-letter: the same in every model,
    /// as a shared class is a letter in all or in none.
    #[inline]
    pub fn restart(&mut self, class: u8) {
        let c = class & !UPPER;
        self.case = CASE_AFTER[usize::from(shared_letter(c))][usize::from(class >> 7)][0];
        self.prev = c;
    }

    /// Scores the character of class `class` (with the [`UPPER`] flag) after
    /// the previous one; a character in a category class (another letter, a
    /// symbol) also costs its `emission`. A pair of ASCII classes costs
    /// nothing here: it is the same in every ASCII-compatible reading.
    #[inline]
    pub fn step(&mut self, model: &Model, class: u8, emission: u8) {
        self.step_code(model, code(model, class, emission));
    }
}

/// How `model` reads a character of class `class` (with [`UPPER`]) and
/// emission `emission`, packed in one word for [`Cursor::step_code`]: the
/// class with its case (bits 0–7), whether it is a letter in the model
/// (bit 8), and the emission it pays (bits 16–23): a category class's, or
/// a no-break space's, read as a space ([`ASCII_OTHER`], whose ASCII pays
/// none); 0 for the other classes.
pub(super) fn code(model: &Model, class: u8, emission: u8) -> u32 {
    let c = class & !UPPER;
    let emission = if is_category(c) || c == ASCII_OTHER { emission } else { 0 };
    u32::from(class) | u32::from(is_letter(model, c)) << 8 | u32::from(emission) << 16
}

/// The word a run of bytes beyond ASCII is part of, by the plain bytes
/// before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Word {
    /// No letter right before it: the run starts a word, if it holds a
    /// letter.
    Start,
    /// A word of ASCII letters right before it, whose first letter is a
    /// capital or not.
    Ascii(bool),
    /// The word of the run before it, and ASCII letters since.
    AfterRun,
}

/// Whether a character's [`code`] is a letter in its model.
#[inline]
pub(super) fn is_letter_code(code: u32) -> bool {
    code >> 8 & 1 == 1
}

impl Cursor {
    /// [`Cursor::step`] from a character's [`code`] in `model` (the
    /// single-byte readings look codes up, built once per model).
    #[inline]
    pub fn step_code(&mut self, model: &Model, code: u32) {
        let (p, c) = (self.prev, code as u8 & !UPPER);
        // (The case state is below 4: the masks only tell the compiler.)
        let state = usize::from(self.case & 3);
        // The emission, paid even between ASCII classes (a no-break space).
        self.cost += code >> 16;
        if p > LAST_ASCII || c > LAST_ASCII {
            let bigram = model.bigrams[usize::from(p) * model.classes + usize::from(c)];
            // A letter's case costs (bit 8 of the code, with no branch).
            let case = model.case[(state * 2 + usize::from(code as u8 >> 7)) & 7];
            self.cost += u32::from(bigram) + u32::from(case) * (code >> 8 & 1);
        }
        // Bits 7 and 8 of the code, upper and letter, pick the row.
        self.case = CASE_NEXT[(code >> 5 & 0b1100) as usize | state];
        self.prev = c;
    }
}

/// [`CASE_AFTER`] by `letter << 3 | upper << 2 | state before`.
const CASE_NEXT: [u8; 16] = {
    let mut next = [0; 16];
    let mut i = 0;
    while i < 16 {
        let (letter, upper, capital) = (i >> 3, i >> 2 & 1, (i & 3 >= 2) as usize);
        next[i] = CASE_AFTER[letter][upper][capital];
        i += 1;
    }
    next
};

/// What a symbol outside the alphabet costs when it repeats the character
/// before: runs of one symbol (`═══` frames, `───` rules, `***`) are how
/// text uses symbols, and a run goes on more often than not.
pub(super) const REPEAT_COST: u32 = STEPS_PER_BIT as u32;

/// Whether a character of class `class` (with [`UPPER`]) that repeats the
/// one before continues a run of a symbol ([`Cursor::repeat`]).
#[inline]
pub(super) fn is_symbol_run(class: u8, repeats: bool) -> bool {
    repeats && class & !UPPER == SYMBOL
}

/// Whether `c`, where it repeats the character before, may continue a run
/// of a symbol: not a spacing diacritic, which text hardly writes alone,
/// let alone twice (windows-1252's `apa¨¨ikielet` is ISO-8859-15's
/// `apaššikielet`).
#[inline]
pub(super) fn runs_on(c: char) -> bool {
    !SPACING_DIACRITICS.contains(&c)
}

impl Cursor {
    /// Scores a symbol that repeats the one before ([`is_symbol_run`]).
    #[inline]
    pub fn repeat(&mut self) {
        self.cost += REPEAT_COST;
    }
}

/// The classes every model shares: ASCII and the categories (up to
/// [`FAR_LETTER`]).
const SHARED: usize = FAR_LETTER as usize + 1;

/// Whether shared class `c` is a letter in every model.
fn shared_letter(c: u8) -> bool {
    matches!(c, ASCII_LETTER..=LAST_ASCII_LETTER | OTHER_LETTER | FAR_LETTER)
}

/// The cheapest model at each step over the shared classes.
struct Floor {
    bigrams: [[u8; SHARED]; SHARED],
    case: [[u8; 2]; 4],
}

fn floor() -> &'static Floor {
    static FLOOR: std::sync::OnceLock<Floor> = std::sync::OnceLock::new();
    FLOOR.get_or_init(|| {
        let mut floor = Floor { bigrams: [[u8::MAX; SHARED]; SHARED], case: [[u8::MAX; 2]; 4] };
        for model in &MODELS {
            for (p, row) in floor.bigrams.iter_mut().enumerate() {
                for (c, cost) in row.iter_mut().enumerate() {
                    *cost = (*cost).min(model.bigrams[p * model.classes + c]);
                }
            }
            for (state, costs) in floor.case.iter_mut().enumerate() {
                for (upper, cost) in costs.iter_mut().enumerate() {
                    *cost = (*cost).min(model.case[state * 2 + upper]);
                }
            }
        }
        floor
    })
}

/// A lower bound of every model's [`Cursor`] over the same text: each step
/// costs what the cheapest model charges for it. Exact for the shared
/// classes; a character whose class differs between models (one in some
/// alphabet) costs nothing and leaves the next step's context unknown.
#[derive(Clone, Copy, Debug)]
pub(super) struct FloorCursor {
    /// The previous class, `None` if it differs between models.
    prev: Option<u8>,
    /// The case state (see [`Cursor::case`]), `None` if unknown.
    case: Option<u8>,
    pub cost: u64,
}

impl Default for FloorCursor {
    fn default() -> FloorCursor {
        FloorCursor { prev: Some(ASCII_OTHER), case: Some(0), cost: 0 }
    }
}

impl FloorCursor {
    /// Scores a character of shared class `class` (with [`UPPER`]), or
    /// (`None`) one whose class differs between models.
    pub fn step(&mut self, class: Option<u8>, emission: u8) {
        let Some(class) = class else {
            (self.prev, self.case) = (None, None);
            return;
        };
        let (c, upper) = (class & !UPPER, class & UPPER != 0);
        let letter = shared_letter(c);
        let f = floor();
        if self.prev.is_none_or(|p| p > LAST_ASCII || c > LAST_ASCII) {
            let bigram = self.prev.map_or(0, |p| f.bigrams[usize::from(p)][usize::from(c)]);
            let mut cost = u32::from(bigram);
            if is_category(c) {
                cost += u32::from(emission);
            }
            if letter {
                let states = match self.case {
                    Some(state) => usize::from(state)..usize::from(state) + 1,
                    None => 0..4,
                };
                cost += u32::from(states.map(|s| f.case[s][usize::from(upper)]).min().unwrap_or(0));
            }
            self.cost += u64::from(cost);
        }
        self.case = match (letter, upper, self.case) {
            (false, _, _) => Some(0),
            (true, false, _) => Some(1),
            (true, true, Some(state)) if state >= 2 => Some(3),
            (true, true, Some(_)) => Some(2),
            (true, true, None) => None,
        };
        self.prev = Some(c);
    }

    /// Whether the previous class is known (the same in every model).
    pub fn knows_prev(&self) -> bool {
        self.prev.is_some()
    }

    /// Every model is in this state: after class `prev` (shared), in case
    /// state `case`.
    pub fn resume(&mut self, prev: u8, case: u8) {
        (self.prev, self.case) = (Some(prev), Some(case));
    }
}

/// How many languages are scored, by index: every bigram model of
/// [`MODELS`], then the CJK character frequencies, in `charfreq` order (as
/// [`CJK_COSTS`]).
pub(super) const LANGUAGES: usize = MODELS.len() + CJK_COSTS.len();

/// The BCP 47 tag of language `i`.
pub(super) fn language_tag(i: usize) -> &'static str {
    match MODELS.get(i) {
        Some(model) => model.language,
        None => CJK_COSTS[i - MODELS.len()].0,
    }
}

/// The index of a CJK language's character frequencies (`ja`, `ko`,
/// `zh-Hans`, `zh-Hant`).
pub(super) fn cjk_language(tag: &str) -> Option<usize> {
    CJK_COSTS.iter().position(|x| x.0 == tag).map(|i| MODELS.len() + i)
}

/// The cost of plain ASCII going on after plain ASCII in language `i`'s
/// text, in stay steps (see `Model::stay`): its model's, or for a CJK
/// language its text's counts (whose edges between ASCII and the rest are
/// [`cjk_edges`]).
pub(super) fn stay(i: usize) -> u16 {
    match MODELS.get(i) {
        Some(model) => model.stay,
        None => CJK_COSTS[i - MODELS.len()].1,
    }
}

/// A CJK language's costs (steps) of the edges between ASCII and its
/// characters: ASCII letter → character, other ASCII → character, character
/// → ASCII letter, character → other ASCII, character → character.
pub(super) fn cjk_edges(i: usize) -> [u8; 5] {
    CJK_COSTS[i - MODELS.len()].2
}

/// Scores the edges of a CJK language: `prev` and `next` say whether each
/// side is one of its characters (`None`) or ASCII (`Some(is_letter)`).
pub(super) fn cjk_edge(edges: &[u8; 5], prev: Option<bool>, next: Option<bool>) -> u32 {
    u32::from(match (prev, next) {
        (Some(letter), None) => edges[usize::from(!letter)],
        (None, Some(letter)) => edges[2 + usize::from(!letter)],
        (None, None) => edges[4],
        (Some(_), Some(_)) => 0,
    })
}

/// How many stretches of plain ASCII followed by something else, by how many
/// plain-after-plain steps they hold (the last bucket: that many or more).
#[derive(Clone, Debug)]
pub(super) struct Gaps {
    counts: [u32; GAP_BUCKETS],
}

const GAP_BUCKETS: usize = 64;

/// One stretch of plain ASCII costs a language at most this many bits: a
/// long one may be code or a URL rather than the language's text (markup
/// is left out of the stretches).
const GAP_CAP_BITS: u64 = 32;

impl Default for Gaps {
    fn default() -> Gaps {
        Gaps { counts: [0; GAP_BUCKETS] }
    }
}

impl Gaps {
    /// Notes a stretch of `plain` bytes of text (nothing if none).
    pub fn add(&mut self, plain: u64) {
        if plain > 0 {
            let steps = usize::try_from(plain - 1).unwrap_or(usize::MAX).min(GAP_BUCKETS - 1);
            self.counts[steps] += 1;
        }
    }

    /// Running sums for [`GapSums::cost`].
    pub fn sums(&self) -> GapSums {
        let mut sums = GapSums { stretches: [0; GAP_BUCKETS + 1], steps: [0; GAP_BUCKETS + 1] };
        for (i, &n) in self.counts.iter().enumerate() {
            sums.stretches[i + 1] = sums.stretches[i] + u64::from(n);
            sums.steps[i + 1] = sums.steps[i] + u64::from(n) * i as u64;
        }
        sums
    }
}

/// Running sums over [`Gaps`]: stretches and steps of the buckets below
/// each index.
#[derive(Clone, Debug)]
pub(super) struct GapSums {
    stretches: [u64; GAP_BUCKETS + 1],
    steps: [u64; GAP_BUCKETS + 1],
}

impl GapSums {
    /// The cost (in steps) of the stretches under a language's stay cost
    /// (in stay steps): each stretch pays `stay` per step, up to
    /// [`GAP_CAP_BITS`].
    pub fn cost(&self, stay: u16) -> u64 {
        let cap = GAP_CAP_BITS * u64::from(STAY_STEPS_PER_BIT);
        let all = self.stretches[GAP_BUCKETS];
        // Stretches of `capped` steps or more pay the cap.
        let capped = if stay == 0 { GAP_BUCKETS } else { (cap / u64::from(stay)) as usize };
        let capped = capped.min(GAP_BUCKETS);
        let units = self.steps[capped] * u64::from(stay) + (all - self.stretches[capped]) * cap;
        units / u64::from(STAY_STEPS_PER_BIT / u16::from(STEPS_PER_BIT))
    }
}

/// Pair classes of plain text: 0 for an ASCII character other than a
/// letter, 1–26 for the letters (case folded), as in [`ASCII_PAIRS`].
const PAIR_CLASSES: usize = 27;

const fn pair_classes() -> [u8; 128] {
    let mut classes = [0; 128];
    let mut b = 0;
    while b < 26 {
        classes[b'a' as usize + b] = b as u8 + 1;
        classes[b'A' as usize + b] = b as u8 + 1;
        b += 1;
    }
    classes
}

static PAIR_CLASS: [u8; 128] = pair_classes();

/// Only the first this many bytes of plain text are counted.
const PAIR_SAMPLE: u32 = 4096;
const _: () = assert!(PAIR_SAMPLE <= u16::MAX as u32);

/// The language the plain ASCII text around the interesting bytes is
/// written in: the pairs of letters in the first [`PAIR_SAMPLE`] bytes of
/// text (markup left out). They read alike in every ASCII-compatible
/// encoding, so they say nothing of the encoding, but a reading in the
/// language of the text around it is likelier than one in another language
/// (`più` in Italian text, not `pió`).
#[derive(Clone, Debug)]
pub(super) struct AsciiPairs {
    /// How often each pair was counted (at most [`PAIR_SAMPLE`] times: a
    /// `u16` keeps the readings' copies small).
    counts: [u16; PAIR_CLASSES * PAIR_CLASSES],
    /// The pairs counted at least once (indices into `counts`, but the
    /// first, a word's start after a break), in the order first seen.
    seen: Vec<u16>,
    /// The class of the last byte counted.
    prev: u8,
    /// Bytes counted.
    total: u32,
}

impl Default for AsciiPairs {
    fn default() -> AsciiPairs {
        AsciiPairs { counts: [0; PAIR_CLASSES * PAIR_CLASSES], seen: Vec::new(), prev: 0, total: 0 }
    }
}

/// [`ASCII_PAIRS`] by pair: each pair's cost in every language (by
/// language index), read a row at a time.
fn pair_costs_by_pair() -> &'static [[u8; LANGUAGES]; PAIR_CLASSES * PAIR_CLASSES] {
    static BY_PAIR: OnceLock<Box<[[u8; LANGUAGES]; PAIR_CLASSES * PAIR_CLASSES]>> = OnceLock::new();
    BY_PAIR.get_or_init(|| {
        let mut by_pair = Box::new([[0; LANGUAGES]; PAIR_CLASSES * PAIR_CLASSES]);
        for (i, costs) in ASCII_PAIRS.iter().enumerate() {
            for (pair, &cost) in by_pair.iter_mut().zip(costs) {
                pair[i] = cost;
            }
        }
        by_pair
    })
}

/// A language is charged for the ASCII text a share ([`PAIR_WEIGHT`]) of
/// what its pairs cost more than in the language they fit best, up to
/// [`PAIR_CAP`] (in steps). The letters of the text say which language it
/// is before any non-ASCII byte is read (an English page is English before
/// its one `©`), and the more text, the surer; but text outside markup may
/// still be code, names or another language quoted, so the pairs weigh
/// less than the model's bits and never more than the cap: the characters
/// that tell encodings apart keep the last word once there are a few.
const PAIR_CAP: u64 = 40 * STEPS_PER_BIT as u64;
/// The share of the pairs' cost difference that is charged.
const PAIR_WEIGHT: u64 = 4;

impl AsciiPairs {
    /// Counts a stretch of plain ASCII text, following the last one.
    #[inline]
    pub fn add(&mut self, text: &[u8]) {
        let room = PAIR_SAMPLE.saturating_sub(self.total) as usize;
        let text = &text[..text.len().min(room)];
        let mut prev = usize::from(self.prev);
        for &b in text {
            let class = usize::from(PAIR_CLASS[usize::from(b & 0x7F)]);
            let pair = prev * PAIR_CLASSES + class;
            if self.counts[pair] == 0 && pair > 0 {
                self.seen.push(pair as u16);
            }
            self.counts[pair] += 1;
            prev = class;
        }
        self.prev = prev as u8;
        self.total += text.len() as u32;
    }

    /// The text breaks (markup, or a character outside ASCII): the next
    /// stretch starts a word.
    pub fn cut(&mut self) {
        self.prev = 0;
    }

    /// What the pairs cost each language (by language index) above the
    /// language they fit best, in steps.
    fn excess(&self) -> [u32; LANGUAGES] {
        // Pair by pair, every language at once (the pairs' costs by pair).
        let mut out = [0; LANGUAGES];
        let by_pair = pair_costs_by_pair();
        for &k in &self.seen {
            let count = u32::from(self.counts[usize::from(k)]);
            for (charge, &cost) in out.iter_mut().zip(&by_pair[usize::from(k)]) {
                *charge += count * u32::from(cost);
            }
        }
        let best = out.iter().copied().min().unwrap_or(0);
        out.iter_mut().for_each(|charge| *charge -= best);
        out
    }
}

/// What bytes would cost read as plain ASCII text, for a reading that
/// decodes them as something else (the double-byte characters of the
/// seven-bit encodings, `~{5<So~}` in HZ): the pairs of their characters
/// under the model of plain text of every language ([`PLAIN_PAIRS`]). The
/// readings that see ASCII there are all charged a flat [`ASCII_COST`] a
/// byte, which says nothing of what the bytes look like: words cost about
/// 5.5 bits a byte in this model, HZ's codes of Chinese 13.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PlainCost {
    /// The class of the last byte (0 for a break).
    prev: u8,
    cost: u64,
}

impl PlainCost {
    /// Counts the next byte of the stretch.
    #[inline]
    pub fn add(&mut self, b: u8) {
        let class = if (0x20..=0x7E).contains(&b) { b - 0x1F } else { 0 };
        self.cost += u64::from(PLAIN_PAIRS[usize::from(self.prev) * 96 + usize::from(class)]);
        self.prev = class;
    }

    /// The stretch ends: the next starts after a break.
    pub fn cut(&mut self) {
        self.prev = 0;
    }

    /// The cost of the bytes counted.
    pub fn cost(&self) -> u64 {
        self.cost
    }
}

/// What a decision point charges each language's models on top of their
/// events: the plain ASCII skipped (by the stretches, [`GapSums::cost`],
/// and at the decision by the language of its letters, [`AsciiPairs`]) less
/// the hint bonus, by language index ([`LANGUAGES`]). Arrays, not vectors:
/// charges are made and copied at every decision point.
#[derive(Clone, Debug)]
pub(super) struct Charges {
    plain: [u64; LANGUAGES],
    bonus: [u32; LANGUAGES],
    pairs: [u32; LANGUAGES],
    /// What the pairs cost each language beyond `pairs`, without the cap:
    /// the reading's language is the one that writes all its text.
    naming: [u32; LANGUAGES],
}

impl Default for Charges {
    fn default() -> Charges {
        Charges {
            plain: [0; LANGUAGES],
            bonus: [0; LANGUAGES],
            pairs: [0; LANGUAGES],
            naming: [0; LANGUAGES],
        }
    }
}

impl Charges {
    /// The charges for the stretches `gaps` (`None` for readings that score
    /// their own ASCII) under `hints`.
    pub fn new(gaps: Option<&Gaps>, hints: &Hints) -> Charges {
        let mut charges = Charges::default();
        charges.update(gaps, hints);
        charges
    }

    /// With the charges of the ASCII text's letters, for the decision.
    /// (They are at most [`PAIR_CAP`], far less than the gaps that prune
    /// and stop, so the checkpoints leave them out.)
    pub fn with_pairs(mut self, pairs: &AsciiPairs) -> Charges {
        let excess = pairs.excess();
        for ((charge, naming), &excess) in self.pairs.iter_mut().zip(&mut self.naming).zip(&excess)
        {
            *charge = (u64::from(excess) / PAIR_WEIGHT).min(PAIR_CAP) as u32;
            *naming = excess - *charge;
        }
        self
    }

    /// What language `i` pays on top of its charged cost for naming a
    /// reading's language: the rest of its pairs' cost, in full (the share
    /// and the cap keep the plain ASCII text from outweighing the
    /// characters that tell encodings apart, not from telling the
    /// language: a Dutch page naming Norwegian, Estonian and Portuguese
    /// places is Dutch).
    #[inline]
    pub fn naming(&self, i: usize) -> u64 {
        u64::from(self.naming[i])
    }

    /// Recomputes the charges in place, without the pairs'.
    pub fn update(&mut self, gaps: Option<&Gaps>, hints: &Hints) {
        let sums = gaps.map(Gaps::sums);
        for (i, plain) in self.plain.iter_mut().enumerate() {
            *plain = sums.as_ref().map_or(0, |s| s.cost(stay(i)));
        }
        for (i, bonus) in self.bonus.iter_mut().enumerate() {
            *bonus = hints.bonus(i);
        }
        self.pairs = [0; LANGUAGES];
        self.naming = [0; LANGUAGES];
    }

    /// The cost (in steps) of `events` in language `i`'s models, charged.
    #[inline]
    pub fn cost(&self, i: usize, events: u64) -> u64 {
        (events + self.plain[i] + u64::from(self.pairs[i])).saturating_sub(u64::from(self.bonus[i]))
    }

    /// A lower bound of what `events` in any language's models cost,
    /// charged.
    pub fn floor(&self, events: u64) -> u64 {
        let (plain, bonus) = (self.plain.iter().min(), self.bonus.iter().max());
        let pairs = self.pairs.iter().min().copied().unwrap_or(0);
        (events + plain.copied().unwrap_or(0) + u64::from(pairs))
            .saturating_sub(u64::from(bonus.copied().unwrap_or(0)))
    }
}

impl Cursor {
    /// Scores a CJK language's edge to what comes next: one of its
    /// characters (`None`) or ASCII (`Some(is_letter)`). `prev` holds
    /// [`FAR_LETTER`] after one of its characters.
    pub fn cjk_edge(&mut self, edges: &[u8; 5], next: Option<bool>) {
        let prev = match self.prev {
            FAR_LETTER => None,
            p => Some((ASCII_LETTER..=LAST_ASCII_LETTER).contains(&p)),
        };
        self.cost += cjk_edge(edges, prev, next);
        self.prev = match next {
            None => FAR_LETTER,
            Some(true) => ASCII_LETTER,
            Some(false) => ASCII_OTHER,
        };
    }
}

/// Marks as dead the cursors costing (by `cost`) more than the best live
/// one that `leads` (any live one, when none does) plus `gap`; the dead keep
/// their cost as it was.
pub(super) fn prune(
    cursors: &mut [Cursor],
    cost: impl Fn(usize, &Cursor) -> u64,
    leads: impl Fn(usize) -> bool,
    gap: u64,
) {
    let live = || cursors.iter().enumerate().filter(|(_, c)| c.alive);
    let best = live().filter(|&(i, _)| leads(i)).map(|(i, c)| cost(i, c)).min();
    if let Some(best) = best.or_else(|| live().map(|(i, c)| cost(i, c)).min()) {
        for (i, c) in cursors.iter_mut().enumerate() {
            if c.alive && cost(i, c) > best + gap {
                c.alive = false;
            }
        }
    }
}

/// The languages the caller expects, from a language tag and a top-level
/// domain: their models get a head start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Hints {
    /// The head start of each language (by index), empty without hints.
    bonus: Vec<u32>,
}

/// The head start of an expected language (in steps): enough to settle a
/// close call, far from enough to beat clear evidence.
const HINT_BONUS: u32 = 12 * STEPS_PER_BIT as u32;

impl Hints {
    pub fn new(tld: Option<&str>, language: Option<&str>) -> Hints {
        let mut languages = Vec::new();
        if let Some(tag) = language.and_then(canonical_language) {
            languages.push(tag);
        }
        if let Some(tld) = tld {
            let tld = tld.trim_start_matches('.').rsplit('.').next().unwrap_or(tld);
            let tld = tld.to_ascii_lowercase();
            if let Ok(i) = TLDS.binary_search_by(|(t, _)| (*t).cmp(tld.as_str())) {
                languages.extend(TLDS[i].1.iter().filter_map(|l| canonical_language(l)));
            }
        }
        if languages.is_empty() {
            return Hints::default();
        }
        let bonus = (0..LANGUAGES)
            .map(|i| if languages.contains(&language_tag(i)) { HINT_BONUS } else { 0 })
            .collect();
        Hints { bonus }
    }

    /// The bonus (in steps) of language `i`.
    #[inline]
    pub fn bonus(&self, i: usize) -> u32 {
        self.bonus.get(i).copied().unwrap_or(0)
    }
}

/// The tag of the model (or character-frequency table) for a BCP 47 tag:
/// `ru-RU` → `ru`, `zh-TW` → `zh-Hant`, `zh` → `zh-Hans`.
pub(super) fn canonical_language(tag: &str) -> Option<&'static str> {
    if let Some(freq) = crate::lang::CharFreq::for_language(tag) {
        return Some(freq.language());
    }
    let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
    let primary = match primary.as_str() {
        "nb" | "nn" => "no",
        "zh" => return crate::lang::CharFreq::for_language("zh").map(|f| f.language()),
        p => p,
    };
    MODELS.iter().find(|m| m.language == primary).map(|m| m.language)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_resolve_languages_and_domains() {
        let index = |tag: &str| (0..LANGUAGES).find(|&i| language_tag(i) == tag).unwrap();
        let hints = Hints::new(Some("www.example.co.jp"), Some("ru-RU"));
        assert_eq!(hints.bonus(index("ja")), HINT_BONUS);
        assert_eq!(hints.bonus(index("ru")), HINT_BONUS);
        assert_eq!(hints.bonus(index("fr")), 0);
        assert_eq!(Hints::new(Some("TW"), None).bonus(index("zh-Hant")), HINT_BONUS);
        assert_eq!(Hints::new(Some("com"), Some("xx")), Hints::default());
        assert_eq!(canonical_language("nb-NO"), Some("no"));
        assert_eq!(canonical_language("zh-HK"), Some("zh-Hant"));
    }

    #[test]
    fn plain_cost_prices_words_below_a_jumble() {
        let bits_a_byte = |text: &[u8]| {
            let mut plain = PlainCost::default();
            text.iter().for_each(|&b| plain.add(b));
            plain.cost() as f64 / f64::from(STEPS_PER_BIT) / text.len() as f64
        };
        let words = bits_a_byte(b"the results of this work hold for every case we tried");
        // GB 2312 codes read as ASCII (HZ's 蜿蜒的溪涧旁，苔藓覆盖着).
        let jumble = bits_a_byte(b"rjQQ5DO*='ET#,L&^:828GWE");
        assert!(words < 6.0 && jumble > 10.0, "{words} {jumble}");
    }

    #[test]
    fn the_letters_of_plain_text_charge_other_languages_up_to_a_cap() {
        assert_eq!(ASCII_PAIRS.len(), LANGUAGES);
        let index = |tag: &str| (0..LANGUAGES).find(|&i| language_tag(i) == tag).unwrap();
        let charges = |text: &[u8]| {
            let mut pairs = AsciiPairs::default();
            pairs.add(text);
            Charges::new(None, &Hints::default()).with_pairs(&pairs)
        };
        // Nothing counted: nothing charged.
        assert!(charges(b"").pairs.iter().all(|&c| c == 0));
        let italian = charges(b"Sono inclusi in modo predefinito gli intervalli delle cifre");
        let (it, ca) = (italian.pairs[index("it")], italian.pairs[index("ca")]);
        assert!(it < ca, "it {it}, ca {ca}");
        assert!(italian.pairs.iter().all(|&c| u64::from(c) <= PAIR_CAP));
        assert!(italian.pairs.contains(&0));
        // Only the sample is counted.
        let mut pairs = AsciiPairs::default();
        pairs.add(&[b'a'; 2 * PAIR_SAMPLE as usize]);
        assert_eq!(pairs.total, PAIR_SAMPLE);
    }

    /// The floor's premise: the shared classes are letters, or not, in
    /// every model alike.
    #[test]
    fn shared_classes_are_letters_in_every_model_alike() {
        for model in &MODELS {
            for c in 0..SHARED as u8 {
                assert_eq!(is_letter(model, c), shared_letter(c), "{} class {c}", model.id);
            }
        }
    }

    #[test]
    fn ascii_pairs_cost_nothing_and_foreign_letters_much() {
        let ru = MODELS.iter().find(|m| m.id == "ru").unwrap();
        let mut cursor = Cursor::default();
        for b in *b"plain ascii" {
            cursor.step(ru, ascii_class(b), 0);
        }
        assert_eq!(cursor.cost, 0);
        cursor.step(ru, ODD, 0);
        assert!(cursor.cost > 10 * u32::from(STEPS_PER_BIT));
    }
}
