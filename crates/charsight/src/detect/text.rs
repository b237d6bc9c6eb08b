//! Scoring decoded text: every language model at once over a stream of
//! characters. Used for the Unicode readings of bytes (UTF-8, UTF-16,
//! UTF-32) and, through [`plausibility`], for any string.

use super::score::{
    self, ascii_class, is_symbol_run, language_tag, AsciiPairs, Charges, Cursor, FloorCursor,
    GapSums, Gaps, Hints, ASCII_COST, CASE_AFTER, LANGUAGES, ODD_COST,
};
use super::tables::{
    Model, ASCII_LETTER, ASCII_OTHER, CJK_COSTS, FAR_LETTER, FAR_LETTER_EMISSION,
    LAST_ASCII_LETTER, MODELS, ODD, OTHER_LETTER, STEPS_PER_BIT, SYMBOL, SYMBOLS, SYMBOL_CLASSES,
    SYMBOL_COST, SYMBOL_EMISSIONS, UNSEEN_LETTER_EMISSIONS, UNSEEN_SYMBOL_EMISSIONS, UPPER,
};
use charsight_tables::charfreq;

use crate::classify::{text_kind, CharTable, TextKind};
use crate::lang::CharFreq;

/// A character's class where the symbol table lacks it: the generator's
/// rule ([`text_kind`]), letters split at the far scripts.
fn category(c: char) -> u8 {
    use charsight_tables::detect::FAR_SCRIPTS;
    match text_kind(c) {
        TextKind::Odd => ODD,
        TextKind::Letter if c >= FAR_SCRIPTS => FAR_LETTER,
        TextKind::Letter => OTHER_LETTER,
        TextKind::Symbol => SYMBOL,
    }
}

/// Whether `c` is a CJK ideograph (the unified ones and extension A) or a
/// Hangul syllable: a caseless letter in no alphabet ([`FAR_LETTER`]), the
/// bulk of CJK text, known without a look-up.
fn is_ideograph_or_syllable(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}')
}

/// A character's emission in class-bigram model `i` (see
/// `SYMBOL_EMISSIONS`), by its index in `SYMBOLS` (if it has one) and its
/// category class.
#[inline(always)]
fn emission(symbol: Option<u16>, category: u8, i: usize) -> u8 {
    match (symbol, category) {
        (Some(s), _) => SYMBOL_EMISSIONS[usize::from(s)][i],
        (None, OTHER_LETTER) => UNSEEN_LETTER_EMISSIONS[i],
        (None, SYMBOL) => UNSEEN_SYMBOL_EMISSIONS[i],
        (None, FAR_LETTER) => FAR_LETTER_EMISSION,
        (None, _) => 0,
    }
}

/// The cheapest of a character's [`emission`]s in every model.
fn cheapest_emission(symbol: Option<u16>, category: u8) -> u8 {
    /// The cheapest emission of each symbol, an unseen letter, an unseen symbol.
    static CHEAPEST: std::sync::OnceLock<(Vec<u8>, u8, u8)> = std::sync::OnceLock::new();
    let (symbols, letter, other) = CHEAPEST.get_or_init(|| {
        let cheapest = |row: &[u8]| row.iter().copied().min().unwrap_or(0);
        let symbols = SYMBOL_EMISSIONS.iter().map(|row| cheapest(row)).collect();
        (symbols, cheapest(&UNSEEN_LETTER_EMISSIONS), cheapest(&UNSEEN_SYMBOL_EMISSIONS))
    });
    match (symbol, category) {
        (Some(s), _) => symbols[usize::from(s)],
        (None, OTHER_LETTER) => *letter,
        (None, SYMBOL) => *other,
        (None, FAR_LETTER) => FAR_LETTER_EMISSION,
        (None, _) => 0,
    }
}

/// Hiragana or katakana.
fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}')
}

/// Every language model over one text: the class-bigram models, then the
/// CJK character-frequency tables.
#[derive(Clone, Debug)]
pub(super) struct TextScorer {
    cursors: Vec<Cursor>,
    /// Whether plain ASCII characters are charged (readings that are not
    /// ASCII-compatible) or left out (those that are).
    charge_ascii: bool,
    /// Non-ASCII characters scored since the models were last pruned.
    since_prune: u32,
    /// Characters beyond ASCII scored.
    non_ascii: u64,
    /// The stretches of plain ASCII text between other characters
    /// (charged readings), as the bytes' scan keeps them for the others:
    /// markup (`<…>`) is left out of them. Each costs its model's `stay`
    /// per character after the first, added in [`TextScorer::best`].
    gaps: Gaps,
    /// The plain ASCII text since the last other character.
    stretch: u64,
    /// Inside a `<…>` tag.
    in_tag: bool,
    /// What every model pays for the plain ASCII characters scored (charged
    /// readings): the same for all, so kept once.
    ascii_cost: u64,
    /// The run of plain ASCII characters going on (see [`AsciiRun`]).
    run: AsciiRun,
    /// The class-bigram models are not scored yet (see
    /// [`TextScorer::deferred`]).
    deferred: Option<Deferred>,
    /// The character before (a symbol that repeats it continues a run:
    /// [`is_symbol_run`]).
    before: char,
    /// It has read a letter beyond ASCII: only letters tell a language.
    letters: bool,
    /// It has read a CJK character (an ideograph, a Hangul syllable, kana):
    /// only then may a character-frequency table be the language.
    cjk_text: bool,
}

/// A run of plain ASCII characters. Its first character after another one
/// is scored by every model (the pair is evidence); the pairs after it cost
/// nothing in any model, and from the second character on every model is in
/// the same state (the classes are shared, and so is the case state), so
/// the models catch up once, when the run ends.
#[derive(Clone, Copy, Debug, Default)]
struct AsciiRun {
    /// Characters in the run so far.
    len: u32,
    /// The class of the last (without [`UPPER`]).
    last: u8,
    /// The case state after the last.
    case: u8,
}

/// A text whose class-bigram models are not scored yet: the characters so
/// far, and a lower bound of what any of those models would charge for them.
#[derive(Clone, Debug, Default)]
struct Deferred {
    chars: Vec<char>,
    bound: FloorCursor,
}

/// What one character is to every model's cursor, worked out once
/// ([`TextScorer::read`]).
#[derive(Clone, Copy, Debug)]
enum Event {
    /// An ASCII character of class `class` (with [`UPPER`]) that is not
    /// inside a run of plain ASCII ([`AsciiRun`]); `letter`: `A`–`Z`, `a`–`z`.
    Ascii { class: u8, letter: bool },
    /// A run of plain ASCII ended after this class and case state.
    RunEnd { last: u8, case: u8 },
    /// A character beyond ASCII.
    Char(Char),
}

/// A character beyond ASCII, as the models see it.
#[derive(Clone, Copy, Debug, Default)]
struct Char {
    /// Its index in `SYMBOLS` (its lowercase's), if it has one.
    symbol: Option<u16>,
    /// Its index in the character-frequency table, if it has one.
    known: Option<u16>,
    /// Its category class (see [`category`]).
    fallback: u8,
    /// [`UPPER`] for an uppercase character, else 0.
    flag: u8,
    /// It repeats the character before (see [`is_symbol_run`]).
    repeats: bool,
}

impl Char {
    /// What the models see of `c` (not yet whether it repeats the one
    /// before).
    fn of(c: char) -> Char {
        let (flag, symbol, fallback) = if is_ideograph_or_syllable(c) {
            (0, None, FAR_LETTER)
        } else {
            // İ and the like, whose lowercase is ASCII, keep their own
            // class (as the generator's `fold`).
            let lower = c.to_lowercase().next().filter(|l| !l.is_ascii()).unwrap_or(c);
            let flag = if c.is_uppercase() { UPPER } else { 0 };
            let symbol = SYMBOLS.binary_search(&lower).ok();
            (flag, symbol.map(|s| s as u16), category(lower))
        };
        // One look-up in the character-frequency table serves every language.
        let known = charfreq::CHARS.binary_search(&u32::from(c)).ok().map(|i| i as u16);
        Char { symbol, known, fallback, flag, repeats: false }
    }

    /// Scores the character in a lower bound of every class-bigram model.
    fn floor_step(&self, floor: &mut FloorCursor) {
        // A character in no alphabet has its category's class in every
        // model, and at least the cheapest model's emission; the class
        // of the others differs.
        // (A bound: a repeat may cost next to nothing in some model.)
        let class = self.symbol.is_none().then_some(self.fallback | self.flag);
        let class = class.filter(|_| !self.repeats);
        let emission = if self.repeats { 0 } else { cheapest_emission(self.symbol, self.fallback) };
        floor.step(class, emission);
    }
}

impl Event {
    /// Scores the event in a lower bound of every class-bigram model.
    fn floor_step(&self, floor: &mut FloorCursor) {
        match *self {
            Event::Ascii { class, .. } if floor.knows_prev() => floor.step(Some(class), 0),
            // After a character whose class differs between models, ASCII
            // may follow an ASCII class (a space) and cost nothing.
            Event::Ascii { .. } => floor.step(None, 0),
            Event::RunEnd { last, case } => floor.resume(last, case),
            Event::Char(c) => c.floor_step(floor),
        }
    }

    /// Scores the event in class-bigram model `i`, `model`.
    #[inline(always)]
    fn step_bigram(&self, cursor: &mut Cursor, i: usize, model: &Model) {
        match *self {
            Event::Ascii { class, .. } => cursor.step(model, class, 0),
            Event::RunEnd { last, case } => (cursor.prev, cursor.case) = (last, case),
            Event::Char(c) => {
                let class =
                    c.symbol.map_or(c.fallback, |s| SYMBOL_CLASSES[usize::from(s)][i]) | c.flag;
                if is_symbol_run(class, c.repeats) {
                    cursor.repeat();
                } else {
                    cursor.step(model, class, emission(c.symbol, c.fallback, i));
                }
            }
        }
    }

    /// Scores the event in the character frequencies of CJK language
    /// `column`.
    #[inline(always)]
    fn step_cjk(&self, cursor: &mut Cursor, column: usize) {
        let edges = &CJK_COSTS[column].2;
        match *self {
            Event::Ascii { class, letter } => {
                if class == ODD {
                    cursor.cost += ODD_COST;
                }
                cursor.cjk_edge(edges, Some(letter));
            }
            Event::RunEnd { last, .. } => {
                let letter = (ASCII_LETTER..=LAST_ASCII_LETTER).contains(&last);
                cursor.prev = if letter { ASCII_LETTER } else { ASCII_OTHER };
            }
            Event::Char(c) => {
                let floor = charfreq::FLOORS[column];
                let cost = c.known.map_or(u8::MAX, |i| charfreq::COSTS[column][usize::from(i)]);
                // (Its category was taken from its lowercase, which is a
                // letter exactly when it is.)
                let letter = matches!(c.fallback, OTHER_LETTER | FAR_LETTER);
                cursor.cost += match cost {
                    _ if c.fallback == ODD => ODD_COST,
                    u8::MAX if !letter => u32::from(SYMBOL_COST.min(floor)),
                    u8::MAX => u32::from(floor),
                    cost => u32::from(cost),
                };
                cursor.cjk_edge(edges, None);
            }
        }
    }
}

/// How many events every model is scored on before the likeliest are
/// scored to the end ([`TextScorer::score_bigrams`]).
const HEAD_EVENTS: usize = 512;

/// Every this many events, a model is checked against the bound
/// ([`TextScorer::score_bigrams`]).
const BOUND_EVERY: usize = 256;

/// The fewest events of a head and between checks against the bound, for
/// short texts, whose head and checks are a share of their events
/// ([`TextScorer::score_bigrams`]).
const MIN_EVENTS: usize = 8;

/// Every this many non-ASCII characters, the models far behind are dropped
/// (without regard to hints, so with the largest hint bonus added to the gap).
const PRUNE_EVERY: u32 = 16;
const PRUNE_GAP: u64 = 52 * STEPS_PER_BIT as u64;

impl TextScorer {
    pub fn new(charge_ascii: bool) -> TextScorer {
        TextScorer {
            cursors: vec![Cursor::default(); MODELS.len() + CharFreq::ALL.len()],
            charge_ascii,
            since_prune: 0,
            non_ascii: 0,
            gaps: Gaps::default(),
            stretch: 0,
            in_tag: false,
            ascii_cost: 0,
            run: AsciiRun::default(),
            deferred: None,
            before: ' ',
            letters: false,
            cjk_text: false,
        }
    }

    /// A scorer that charges plain ASCII (`charge_ascii`) and scores only
    /// the CJK character frequencies until [`TextScorer::promote`]d: until
    /// then [`TextScorer::best`] is a lower bound, cheap to keep, of the
    /// cost the scorer would give.
    pub fn deferred(charge_ascii: bool) -> TextScorer {
        let mut scorer = TextScorer::new(charge_ascii);
        // Only the CJK cursors are scored; the others are `bound`.
        scorer.cursors[..MODELS.len()].iter_mut().for_each(|c| c.alive = false);
        scorer.deferred = Some(Deferred::default());
        scorer
    }

    /// How many characters beyond ASCII it has scored: the evidence of
    /// the language.
    pub fn non_ascii(&self) -> u64 {
        self.non_ascii
    }

    /// Whether [`TextScorer::best`] is only a lower bound.
    pub fn is_deferred(&self) -> bool {
        self.deferred.is_some()
    }

    /// How many characters a deferred scorer holds.
    pub fn held(&self) -> usize {
        self.deferred.as_ref().map_or(0, |d| d.chars.len())
    }

    /// Scores every model over the characters so far, and from now on.
    pub fn promote(&mut self) {
        if let Some(deferred) = self.deferred.take() {
            *self = TextScorer::new(self.charge_ascii);
            deferred.chars.into_iter().for_each(|c| self.push(c));
        }
    }

    /// Scores the next character.
    pub fn push(&mut self, c: char) {
        if let Some(deferred) = &mut self.deferred {
            deferred.chars.push(c);
        }
        self.read(c, |cursors, event| {
            let (bigram, cjk) = cursors.split_at_mut(MODELS.len());
            for (i, cursor) in bigram.iter_mut().enumerate().filter(|(_, c)| c.alive) {
                event.step_bigram(cursor, i, &MODELS[i]);
            }
            for (column, cursor) in cjk.iter_mut().enumerate().filter(|(_, c)| c.alive) {
                event.step_cjk(cursor, column);
            }
        });
    }

    /// Scores the class-bigram models alive over `events` (a text's, read
    /// with [`TextScorer::read`], whose CJK cursors are scored). With a
    /// `limit`, only the models that may be the best ([`TextScorer::best`])
    /// and cost at most `limit` are scored to the end: as costs only grow, a
    /// model that costs more than one scored to the end (or a CJK one), or
    /// than `limit`, stops there, dead, as soon as its cost with what any
    /// model pays at least for the rest ([`FloorCursor`]) does. The best
    /// cost is that of scoring every model when it is at most `limit`; with
    /// no limit to speak of (`u64::MAX`), so is its language.
    fn score_bigrams(&mut self, events: &[Event], charges: &Charges, limit: Option<u64>) {
        let run = |cursor: &mut Cursor, i: usize, events: &[Event]| {
            let mut c = *cursor;
            events.iter().for_each(|event| event.step_bigram(&mut c, i, &MODELS[i]));
            *cursor = c;
        };
        let mut cursors = std::mem::take(&mut self.cursors);
        let mut alive: Vec<usize> = (0..MODELS.len()).filter(|&i| cursors[i].alive).collect();
        if let Some(limit) = limit {
            // (A short text's head is a part of it, or none would stop.)
            let head = (events.len() / 8).clamp(MIN_EVENTS, HEAD_EVENTS).min(events.len());
            let every = (events.len() / 16).clamp(MIN_EVENTS, BOUND_EVERY);
            let (head, tail) = events.split_at(head);
            // What every model pays at least for the events from each chunk
            // of the tail on.
            let mut floor = FloorCursor::default();
            head.iter().for_each(|event| event.floor_step(&mut floor));
            let mut rest: Vec<u64> = tail
                .chunks(every)
                .map(|chunk| {
                    let before = floor.cost;
                    chunk.iter().for_each(|event| event.floor_step(&mut floor));
                    before
                })
                .collect();
            rest.iter_mut().for_each(|before| *before = floor.cost - *before);
            let cost = |cursor: &Cursor, i: usize, rest: u64| {
                let cost = u64::from(cursor.cost) + rest;
                let at_least = Cursor { cost: u32::try_from(cost).unwrap_or(u32::MAX), ..*cursor };
                self.adjusted(None, i, &at_least, charges)
            };
            // A CJK model bounds the others only where it may be the
            // language ([`TextScorer::best`]): else the best of the others
            // names it and is scored to the end.
            let cjk = (MODELS.len()..cursors.len()).filter(|&i| cursors[i].alive && self.cjk_text);
            let mut bound =
                cjk.clone().map(|i| cost(&cursors[i], i, 0)).min().unwrap_or(u64::MAX).min(limit);
            // With no limit to speak of, a model may also be the one that
            // names the language ([`Charges::naming`]): it stops only when
            // it can be neither. (With a limit, the language is not asked.)
            let named = |cost: u64, i: usize| cost.saturating_add(charges.naming(i));
            let mut named_bound = match limit {
                u64::MAX => cjk.map(|i| named(cost(&cursors[i], i, 0), i)).min().unwrap_or(limit),
                _ => 0,
            };
            let beaten = |cost: u64, i: usize, bound: u64, named_bound: u64| {
                cost > bound && named(cost, i) > named_bound
            };
            // A model that pays more than the bounds for what every model
            // pays at least is dead before its first event (it would stop
            // at its first check, and cost more than the best if none):
            // in most readings a repair weighs, every one is.
            alive.retain(|&i| {
                let at_least = cost(&cursors[i], i, floor.cost);
                cursors[i].alive = !beaten(at_least, i, bound, named_bound);
                cursors[i].alive
            });
            // The models likeliest on the first events go first, to set a
            // low bound early.
            alive.iter().for_each(|&i| run(&mut cursors[i], i, head));
            alive.sort_by_cached_key(|&i| cost(&cursors[i], i, 0));
            for i in alive {
                let cursor = &mut cursors[i];
                for (chunk, &rest) in tail.chunks(every).zip(&rest) {
                    if beaten(cost(cursor, i, rest), i, bound, named_bound) {
                        cursor.alive = false;
                        break;
                    }
                    run(cursor, i, chunk);
                }
                if cursor.alive {
                    bound = bound.min(cost(cursor, i, 0));
                    named_bound = named_bound.min(named(cost(cursor, i, 0), i));
                }
            }
        } else {
            alive.iter().for_each(|&i| run(&mut cursors[i], i, events));
        }
        self.cursors = cursors;
    }

    /// Reads the next character: keeps what is shared by the models (the
    /// runs and stretches of ASCII, the deferred bound, the pruning) and
    /// gives `apply` the cursors and, in order, the events the character
    /// is to every model.
    fn read(&mut self, c: char, mut apply: impl FnMut(&mut [Cursor], Event)) {
        // Runs of a symbol are cheap only in readings of ASCII-compatible
        // bytes: in UTF-16 a run of ASCII spaces reads `†††`.
        let repeats =
            std::mem::replace(&mut self.before, c) == c && !self.charge_ascii && score::runs_on(c);
        if c.is_ascii() {
            return self.read_ascii(c as u8, apply);
        }
        self.end_stretch();
        self.end_run(&mut apply);
        self.non_ascii += 1;
        // Readings that pay for their own ASCII (UTF-16, UTF-32) drop
        // hopeless models as they go; the others are pruned at checkpoints,
        // where the ASCII skipped is known. (A deferred scorer's costs are
        // a bound: it drops none.)
        self.since_prune += 1;
        if self.charge_ascii && self.since_prune == PRUNE_EVERY && self.deferred.is_none() {
            self.since_prune = 0;
            let leads = may_name(self.cjk_text);
            score::prune(&mut self.cursors, |_, c| u64::from(c.cost), leads, PRUNE_GAP);
        }
        static CHARS: CharTable<Char> = CharTable::new(Char::of);
        let event = Char { repeats, ..CHARS.value(c) };
        self.letters |= matches!(event.fallback, OTHER_LETTER | FAR_LETTER);
        self.cjk_text |= is_ideograph_or_syllable(c) || is_kana(c);
        if let Some(deferred) = &mut self.deferred {
            event.floor_step(&mut deferred.bound);
        }
        apply(&mut self.cursors, Event::Char(event));
    }

    fn read_ascii(&mut self, b: u8, mut apply: impl FnMut(&mut [Cursor], Event)) {
        let class = ascii_class(b);
        if self.charge_ascii {
            match b {
                b'<' => self.in_tag = true,
                b'>' => self.in_tag = false,
                _ if class == ODD => self.end_stretch(),
                _ if !self.in_tag => self.stretch += 1,
                _ => {}
            }
        }
        if class == ODD {
            self.end_run(&mut apply);
        } else if self.charge_ascii {
            self.ascii_cost += u64::from(ASCII_COST);
        }
        if let Some(deferred) = &mut self.deferred {
            deferred.bound.step(Some(class), 0);
        }
        if class != ODD && self.run.len > 0 {
            // Inside a run: the shared state moves on.
            let (c, upper) = (class & !UPPER, usize::from(class >> 7));
            let letter = (ASCII_LETTER..=LAST_ASCII_LETTER).contains(&c);
            let after_capital = usize::from(self.run.case >= 2);
            self.run = AsciiRun {
                len: self.run.len + 1,
                last: c,
                case: CASE_AFTER[usize::from(letter)][upper][after_capital],
            };
            return;
        }
        apply(&mut self.cursors, Event::Ascii { class, letter: b.is_ascii_alphabetic() });
        if class != ODD {
            let (c, upper) = (class & !UPPER, class & UPPER != 0);
            let letter = (ASCII_LETTER..=LAST_ASCII_LETTER).contains(&c);
            // The state after it, as far as the next character goes: after
            // an uppercase letter, or not.
            self.run = AsciiRun { len: 1, last: c, case: if letter && upper { 2 } else { 0 } };
        }
    }

    /// A run of plain ASCII characters ends: the models catch up with its
    /// last character.
    fn end_run(&mut self, apply: &mut impl FnMut(&mut [Cursor], Event)) {
        let run = std::mem::take(&mut self.run);
        if run.len >= 2 {
            apply(&mut self.cursors, Event::RunEnd { last: run.last, case: run.case });
        }
    }

    /// A stretch of plain ASCII text ends (charged readings).
    fn end_stretch(&mut self) {
        if self.charge_ascii {
            self.gaps.add(self.stretch);
            self.stretch = 0;
        }
    }

    /// The stretches of plain ASCII text scored so far, for a reading that
    /// scores its own ASCII.
    fn own_gaps(&self) -> Option<GapSums> {
        self.charge_ascii.then(|| {
            let mut gaps = self.gaps.clone();
            gaps.add(self.stretch);
            gaps.sums()
        })
    }

    /// The cost of cursor `i`, charged for the plain ASCII skipped (in
    /// `charges`) or scored (`own`, see [`TextScorer::own_gaps`]), and for
    /// hints.
    fn adjusted(&self, own: Option<&GapSums>, i: usize, cursor: &Cursor, charges: &Charges) -> u64 {
        let plain = own.map_or(0, |gaps| gaps.cost(score::stay(i)));
        charges.cost(i, u64::from(cursor.cost) + self.ascii_cost + plain)
    }

    /// The best model (its cost charged, see [`TextScorer::adjusted`]) and
    /// its language.
    /// For a deferred scorer, a lower bound of that cost, with the
    /// language of the best CJK model.
    ///
    /// The cost is the best of every model; the language is named by
    /// letters. Of text with letters beyond ASCII, it is the best model's
    /// that may name it: a character-frequency table prices every
    /// character outside its script alike, and cheaply, so it is the
    /// language only of text with CJK characters, as in [`language_costs`].
    /// Symbols tell no language (`😀` or `✓` are no Korean, Thai or
    /// Turkish): text with only symbols beyond ASCII has the language its
    /// ASCII letters are likeliest in, if they tell one.
    pub fn best(&self, charges: &Charges) -> (u64, Option<&'static str>) {
        let own = self.own_gaps();
        // Each live model's cost, charged once (a plain ASCII charge costs
        // a division per model), on the stack: this runs at every decision
        // point of every Unicode reading.
        let mut charged = [(0, 0); LANGUAGES];
        let mut live = 0;
        for (i, c) in self.cursors.iter().enumerate().filter(|(_, c)| c.alive) {
            charged[live] = (self.adjusted(own.as_ref(), i, c, charges), i);
            live += 1;
        }
        let costs = &charged[..live];
        let (cost, best) = costs.iter().copied().min().unwrap_or((0, 0));
        let language = if self.letters {
            let named = costs.iter().filter(|&&(_, i)| may_name(self.cjk_text)(i));
            let named = named.min_by_key(|&&(cost, i)| (cost + charges.naming(i), i));
            Some(language_tag(named.map_or(best, |&(_, i)| i)))
        } else {
            // A reading that scores its own ASCII (UTF-16, UTF-32) has its
            // letters in its cursors; the others, in the charges.
            // (Pruning and bounds look at the models' costs, not at their
            // ASCII: the charges alone weigh every model.)
            let plain = Cursor::default();
            let (least, most, count) = match self.charge_ascii {
                true => spread(costs.iter().copied().filter(|&(_, i)| i < MODELS.len())),
                false => spread(
                    (0..MODELS.len()).map(|i| (self.adjusted(own.as_ref(), i, &plain, charges), i)),
                ),
            };
            // Models alike in every one (no ASCII letters, or too few to
            // tell) name none.
            let alike = count > 1 && most == least.map(|l| l.0);
            least.filter(|_| !alike).map(|(_, i)| language_tag(i))
        };
        let bound = self
            .deferred
            .as_ref()
            .map_or(u64::MAX, |d| charges.floor(d.bound.cost + self.ascii_cost));
        (cost.min(bound), language)
    }

    /// Drops the models more than `gap` behind the best (none while
    /// deferred: its costs are a bound).
    pub fn prune(&mut self, charges: &Charges, gap: u64) {
        if self.deferred.is_some() {
            return;
        }
        let own = self.own_gaps();
        let mut cursors = std::mem::take(&mut self.cursors);
        let cost = |i, c: &Cursor| self.adjusted(own.as_ref(), i, c, charges);
        score::prune(&mut cursors, cost, may_name(self.cjk_text), gap);
        self.cursors = cursors;
    }
}

/// The cheapest of `costs` (cost, language index; on a tie the first
/// language), the dearest cost, and how many there are.
fn spread(costs: impl Iterator<Item = (u64, usize)>) -> (Option<(u64, usize)>, Option<u64>, usize) {
    costs.fold((None, None, 0), |(least, most, count), c| {
        (Some(least.map_or(c, |l: (u64, usize)| l.min(c))), most.max(Some(c.0)), count + 1)
    })
}

/// How plausible a text is as natural language, by the detector's models.
///
/// `bits` is the text's cost under its most plausible language: the negative
/// base-2 log-likelihood of its non-ASCII characters and the pairs they
/// form with their neighbours. Of two strings that stand for the same bytes
/// (a text and its mojibake), the one with fewer bits is the likelier.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Plausibility {
    /// The most plausible language (BCP 47), `None` for pure ASCII.
    pub language: Option<&'static str>,
    /// Cost in bits under that language (0 for pure ASCII).
    pub bits: f32,
    /// Characters scored: the non-ASCII ones.
    pub scored: usize,
}

impl Plausibility {
    /// Bits per scored character: comparable between texts of different
    /// lengths (natural text costs a few bits; mojibake and random symbols
    /// cost ten or more).
    pub fn bits_per_char(&self) -> f32 {
        if self.scored == 0 {
            0.0
        } else {
            self.bits / self.scored as f32
        }
    }
}

/// How plausible `text` is as natural language, under the best of the
/// detector's language models (50 class-bigram models and the CJK
/// character frequencies). For choosing between candidate decodings or
/// repairs of the same bytes. The letter pairs of the ASCII text outside
/// markup weigh the languages too, as at the detector's decision (at most
/// 8 bits): a short text's English or Spanish words tell its language when
/// its few other letters cannot.
///
/// # Example
/// ```
/// use charsight::detect::plausibility;
/// let right = plausibility("L'été est chaud.");
/// let mojibake = plausibility("L'Ã©tÃ© est chaud.");
/// assert_eq!(right.language, Some("fr"));
/// assert!(right.bits < mojibake.bits);
/// assert_eq!(plausibility("plain").bits, 0.0);
/// ```
pub fn plausibility(text: &str) -> Plausibility {
    let (scorer, charges, scored) = score_text_in(text, |_| true, Some(u64::MAX));
    if scored == 0 {
        return Plausibility { language: None, bits: 0.0, scored: 0 };
    }
    let (cost, language) = scorer.best(&charges);
    let bits = cost as f32 / f32::from(STEPS_PER_BIT);
    Plausibility { language, bits, scored }
}

/// The bits of [`plausibility`] when they are at most `limit`; `None` when
/// they are more. The models stop as soon as they are known to cost more,
/// so a text far less plausible than that costs a fraction of the time.
/// (Its language is not told: the model that would name it may have
/// stopped.)
pub(crate) fn plausibility_bits_within(text: &str, limit: f32) -> Option<f32> {
    bits_within(text, limit, |_| true)
}

/// The bits of the best language of [`language_costs`] when they are at
/// most `limit`; `None` when they are more. As [`plausibility_bits_within`],
/// with the character-frequency tables scored only for text with CJK
/// characters, as [`language_costs`] lets them be its best.
pub(crate) fn language_bits_within(text: &str, limit: f32) -> Option<f32> {
    bits_within(text, limit, may_be_best(text))
}

/// The models (by cursor index) that may be the best language of `text`,
/// as [`language_costs`] has it. A character-frequency table prices every
/// character outside its script alike, and cheaply: it can tell how rare a
/// reading is in Chinese, Japanese or Korean, but not be the language of a
/// text that has none of their characters.
fn may_be_best(text: &str) -> impl Fn(usize) -> bool {
    may_name(has_cjk(text))
}

/// The models (by cursor index) that may name the language of a text
/// that has CJK characters or not (`cjk_text`, see [`may_be_best`]); only
/// these set the pace when the others are pruned.
fn may_name(cjk_text: bool) -> impl Fn(usize) -> bool {
    move |i| i < MODELS.len() || cjk_text
}

/// The language of [`LanguageCosts::best`] of [`language_costs`] of
/// `text`, found with only the models that may be the best scored to the
/// end ([`TextScorer::score_bigrams`]): a fraction of the time; and the
/// cost of `text` in it, which is its [`language_cost`] (the best model is
/// scored to the end).
pub(crate) fn best_language_cost(text: &str) -> Option<(&'static str, f32)> {
    let (scorer, charges, scored) = score_text_in(text, may_be_best(text), Some(u64::MAX));
    if scored == 0 {
        return None;
    }
    let own = scorer.own_gaps();
    // As [`language_costs`] weighs them: in bits, the first of equals.
    let costs = scorer.cursors.iter().enumerate().filter(|(_, c)| c.alive).map(|(i, c)| {
        let bits = scorer.adjusted(own.as_ref(), i, c, &charges) as f32;
        (i, bits / f32::from(STEPS_PER_BIT))
    });
    costs.min_by(|a, b| a.1.total_cmp(&b.1)).map(|(i, bits)| (language_tag(i), bits))
}

/// The best cost of the models `scored` says over `text` when it is at
/// most `limit` (see [`plausibility_bits_within`]).
fn bits_within(text: &str, limit: f32, scored: impl Fn(usize) -> bool) -> Option<f32> {
    if limit.is_nan() || limit < 0.0 {
        return None; // No text costs less than nothing.
    }
    // (Saturating: an infinite limit is none.)
    let steps = (limit * f32::from(STEPS_PER_BIT)).floor() as u64;
    let (scorer, charges, scored) = score_text_in(text, scored, Some(steps));
    if scored == 0 {
        return Some(0.0);
    }
    // A model that stopped costs more than `limit` or than one that did
    // not: the best of those that did not is the best of all when it is
    // within the limit.
    let (cost, _) = scorer.best(&charges);
    let alive = scorer.cursors.iter().any(|c| c.alive);
    (alive && cost <= steps).then(|| cost as f32 / f32::from(STEPS_PER_BIT))
}

/// Every model over `text` (with a space before and after), how many
/// characters it scored, and the charges of the plain ASCII skipped: its
/// stretches, and the language of its letters outside markup (as the
/// detector charges them at its decision).
fn score_text(text: &str) -> (TextScorer, Charges, usize) {
    score_text_in(text, |_| true, None)
}

/// [`score_text`] with only the models `scored` says (by language index);
/// the others are left dead at no cost. With a `limit`, only the models
/// that may be the best and cost at most `limit` are scored to the end, the
/// others left dead ([`TextScorer::score_bigrams`]).
fn score_text_in(
    text: &str,
    scored: impl Fn(usize) -> bool,
    limit: Option<u64>,
) -> (TextScorer, Charges, usize) {
    let mut scorer = TextScorer::new(false);
    for (i, cursor) in scorer.cursors.iter_mut().enumerate() {
        cursor.alive = scored(i);
    }
    // The CJK cursors are scored as the characters are read, the others
    // over the events, one model after the other.
    let mut events = Vec::with_capacity(text.len() + 2);
    for c in std::iter::once(' ').chain(text.chars()).chain([' ']) {
        scorer.read(c, |cursors, event| {
            let cjk = cursors[MODELS.len()..].iter_mut().enumerate();
            cjk.filter(|(_, c)| c.alive).for_each(|(column, c)| event.step_cjk(c, column));
            events.push(event);
        });
    }
    let scored = scorer.non_ascii() as usize;
    let charges = ascii_charges(text);
    scorer.score_bigrams(&events, &charges, limit);
    (scorer, charges, scored)
}

/// The charges of the plain ASCII of `text` ([`score_text`]).
fn ascii_charges(text: &str) -> Charges {
    let mut gaps = Gaps::default();
    let mut pairs = AsciiPairs::default();
    let mut in_tag = false;
    // Stretch by stretch of ASCII: a stretch before a character outside
    // ASCII is a gap (the last one, at the end, is not); the text outside
    // markup in it counts its pairs.
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        let plain = encoding_rs::Encoding::ascii_valid_up_to(rest);
        let (mut ascii, after) = rest.split_at(plain);
        while let Some(at) = memchr::memchr2(b'<', b'>', ascii) {
            if !in_tag {
                pairs.add(&ascii[..at]);
            }
            in_tag = ascii[at] == b'<';
            pairs.cut();
            ascii = &ascii[at + 1..];
        }
        if !in_tag {
            pairs.add(ascii);
        }
        if after.is_empty() {
            break;
        }
        gaps.add(plain as u64);
        pairs.cut();
        let other = after.iter().position(u8::is_ascii).unwrap_or(after.len());
        rest = &after[other..];
    }
    Charges::new(Some(&gaps), &Hints::default()).with_pairs(&pairs)
}

/// The cost of a text under each language's models ([`language_costs`]),
/// for comparing two readings of the same bytes under one language.
#[derive(Clone, Debug, PartialEq)]
pub struct LanguageCosts {
    /// Each language and its cost in bits (the best of its models), and
    /// whether that language may explain the text best.
    costs: Vec<(&'static str, f32, bool)>,
    scored: usize,
}

impl LanguageCosts {
    /// The most plausible language and its cost in bits; `None` for pure
    /// ASCII.
    pub fn best(&self) -> Option<(&'static str, f32)> {
        if self.scored == 0 {
            return None;
        }
        let eligible = self.costs.iter().filter(|c| c.2).map(|&(l, c, _)| (l, c));
        eligible.min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The cheapest language and its cost in bits, `extra(language)` bits
    /// added to each: for weighing a reading by the languages its encoding
    /// writes. Unlike [`LanguageCosts::best`], pure ASCII has a language too
    /// (by its letter pairs) and its charges as the cost.
    pub(super) fn best_with(&self, extra: impl Fn(&str) -> f32) -> Option<(&'static str, f32)> {
        let eligible = self.costs.iter().filter(|c| c.2).map(|&(l, c, _)| (l, c + extra(l)));
        eligible.min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The cost in bits under `language` (0 for pure ASCII); `None` for a
    /// language without a model.
    pub fn get(&self, language: &str) -> Option<f32> {
        if self.scored == 0 {
            return Some(0.0);
        }
        self.costs.iter().filter(|c| c.0 == language).map(|c| c.1).min_by(f32::total_cmp)
    }
}

/// The cost of `text` under each language's models, as [`plausibility`]
/// reckons it under the best. [`plausibility`] asks which language explains
/// a text best; this answers how well each does, so that two readings of
/// the same bytes can be compared under one language (repairs need that: a
/// model in which a reading is merely rare would otherwise make a change
/// look good).
///
/// # Example
/// ```
/// use charsight::detect::language_costs;
/// let right = language_costs("Grüße aus Köln");
/// let wrong = language_costs("GrÃ¼ÃŸe aus KÃ¶ln");
/// assert_eq!(right.best().map(|b| b.0), Some("de"));
/// assert!(right.get("de").unwrap() < wrong.get("de").unwrap());
/// ```
pub fn language_costs(text: &str) -> LanguageCosts {
    let (scorer, charges, scored) = score_text(text);
    let own = scorer.own_gaps();
    let may_be_best = may_be_best(text);
    let mut costs: Vec<(&'static str, f32, bool)> = Vec::with_capacity(scorer.cursors.len());
    for (i, cursor) in scorer.cursors.iter().enumerate() {
        let language = language_tag(i);
        let bits =
            scorer.adjusted(own.as_ref(), i, cursor, &charges) as f32 / f32::from(STEPS_PER_BIT);
        // Models of one language are mostly next to each other.
        let eligible = may_be_best(i);
        match costs.last_mut() {
            Some((l, c, e)) if *l == language && *e == eligible => *c = c.min(bits),
            _ => costs.push((language, bits, eligible)),
        }
    }
    LanguageCosts { costs, scored }
}

/// Whether `c` is a no-break space, which the models read as the space it
/// stands for (at a price: the training text has none).
pub(crate) fn is_no_break_space(c: char) -> bool {
    charsight_tables::detect::NO_BREAK_SPACES.contains(&c)
}

/// The cost of `text` under `language` alone, as [`LanguageCosts::get`]
/// of [`language_costs`] gives it, with only that language's models
/// scored; `None` for a language without a model.
pub(crate) fn language_cost(text: &str, language: &str) -> Option<f32> {
    cost_of(text, |i| language_tag(i) == language)
}

/// The cost of `text` under the best character-frequency table, when it
/// has CJK characters (else `None`): then every model may be its best
/// ([`may_be_best`]), so it is never less than the bits of
/// [`language_bits_within`], and costs a fraction of their time (the
/// tables are scored as the characters are read, without the bigram
/// models).
pub(crate) fn cjk_tables_cost(text: &str) -> Option<f32> {
    has_cjk(text).then(|| cost_of(text, |i| i >= MODELS.len())).flatten()
}

/// Whether `text` has a character of CJK text (an ideograph, a Hangul
/// syllable, kana): the character-frequency tables may be its language.
fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| is_ideograph_or_syllable(c) || is_kana(c))
}

/// The cost of `text` under the best of the models `scored` says (by
/// cursor index), each scored to the end; `None` when it says none.
fn cost_of(text: &str, scored: impl Fn(usize) -> bool) -> Option<f32> {
    let (scorer, charges, scored) = score_text_in(text, scored, None);
    if scored == 0 {
        return Some(0.0);
    }
    let own = scorer.own_gaps();
    let costs = scorer.cursors.iter().enumerate().filter(|(_, c)| c.alive);
    let cost = costs.map(|(i, c)| scorer.adjusted(own.as_ref(), i, c, &charges)).min()?;
    Some(cost as f32 / f32::from(STEPS_PER_BIT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_language_costs_as_much_alone_as_among_all() {
        for text in
            ["Grüße aus Köln", "GrÃ¼ÃŸe aus KÃ¶ln", "Привет", "中文的文章", "plain", "Tiếng Việt"]
        {
            let all = language_costs(text);
            for i in 0..score::LANGUAGES {
                let language = language_tag(i);
                assert_eq!(language_cost(text, language), all.get(language), "{text} {language}");
            }
        }
        assert_eq!(language_cost("Grüße", "xx"), None);
    }

    #[test]
    fn the_cjk_tables_bound_the_bits_of_cjk_text() {
        for text in [
            "中文的文章",
            "中文：浣犲ソ",
            "讀取原始的SMB請求",
            "日本語のテキスト",
            "한국어 문장",
            "漢字 и кириллица",
        ] {
            let bound = cjk_tables_cost(text).unwrap();
            let bits = language_bits_within(text, f32::INFINITY).unwrap();
            assert!(bits <= bound, "{text}: {bits} > {bound}");
            // Under a limit at the bound, the bits are found all the same.
            assert_eq!(language_bits_within(text, bound), Some(bits), "{text}");
        }
        // Where the best is a table, the bound is the bits themselves.
        assert_eq!(
            cjk_tables_cost("中文的文章"),
            language_bits_within("中文的文章", f32::INFINITY)
        );
        assert_eq!(cjk_tables_cost("Grüße aus Köln"), None);
        assert_eq!(cjk_tables_cost("plain"), None);
    }

    #[test]
    fn the_ascii_words_tell_the_language_of_a_short_text() {
        // One letter beyond ASCII: the Spanish words decide, as the
        // detector's letter pairs do (markup is left out of them).
        let costs = language_costs("<span class=\"x\">elimina las l\u{ed}neas repetidas</span>");
        assert_eq!(costs.best().map(|b| b.0), Some("es"));
        // Swedish has ö too; the pairs of `Das ist und gut` are German.
        assert_eq!(plausibility("Das ist sch\u{f6}n und gut").language, Some("de"));
    }

    #[test]
    fn languages_of_plain_sentences() {
        for (text, language) in [
            ("Съешь же ещё этих мягких французских булок", "ru"),
            ("Η γρήγορη καφέ αλεπού πηδάει", "el"),
            ("Příliš žluťoučký kůň úpěl ďábelské ódy", "cs"),
            ("これは日本語の文章です。", "ja"),
            ("한국어 문장입니다.", "ko"),
        ] {
            assert_eq!(plausibility(text).language, Some(language), "{text}");
        }
    }

    /// A character-frequency table charges little for Latin-1 letters (they
    /// are all alike to it) but is never the language of text without CJK
    /// characters; it is still priced, to compare readings under it.
    #[test]
    fn cjk_tables_explain_only_cjk_text() {
        let garbled =
            language_costs("Caf\u{FFFD} and D\u{C3}\u{A9}j\u{C3}\u{A0} vu, na\u{C3}\u{AF}ve");
        assert!(!matches!(garbled.best(), Some(("ja" | "ko" | "zh-Hans" | "zh-Hant", _))));
        assert!(garbled.get("zh-Hans").is_some());
        assert_eq!(language_costs("中文的文章").best().map(|b| b.0), Some("zh-Hans"));
    }

    /// A symbol or emoji is no Korean or Thai: text with no letters beyond
    /// ASCII has the language of its ASCII words, or none.
    #[test]
    fn symbols_tell_no_language() {
        for text in ["\u{1F600}", "\u{2713} \u{2014} \u{1F600}", "\u{FEFF}"] {
            assert_eq!(plausibility(text).language, None, "{text}");
        }
        for text in [
            "Everything is working as it should \u{2713}",
            "\u{201C}The weather is fine today,\u{201D} she said \u{1F600}",
        ] {
            assert_eq!(plausibility(text).language, Some("en"), "{text}");
        }
        // CJK characters let a character-frequency table name it.
        assert_eq!(plausibility("\u{1F600} 中文的文章").language, Some("zh-Hans"));
    }

    #[test]
    fn mojibake_costs_more_than_text() {
        for (text, garbled) in [("Grüße aus Köln", "GrÃ¼ÃŸe aus KÃ¶ln"), ("Привет", "РџСЂРёРІРµС‚")]
        {
            let (a, b) = (plausibility(text), plausibility(garbled));
            assert!(a.bits_per_char() < b.bits_per_char(), "{a:?} {b:?}");
        }
    }

    #[test]
    fn ideographs_and_syllables_are_far_letters() {
        for c in ['\u{3400}', '\u{4DBF}', '中', '\u{9FFF}', '한', '\u{D7A3}'] {
            assert!(is_ideograph_or_syllable(c), "{c}");
            assert_eq!(category(c), FAR_LETTER, "{c}");
            assert_eq!(c.to_lowercase().next(), Some(c));
            assert!(SYMBOLS.binary_search(&c).is_err(), "{c}");
        }
        assert!(!SYMBOLS.iter().any(|&c| is_ideograph_or_syllable(c)));
    }

    #[test]
    fn cjk_costs_are_in_charfreq_order() {
        let languages: Vec<&str> = CJK_COSTS.iter().map(|x| x.0).collect();
        assert_eq!(languages, CharFreq::ALL.map(CharFreq::language));
    }

    /// Texts of every kind the scorer meets: natural text in several
    /// scripts, its mojibake, markup, runs of symbols and capitals, controls.
    fn sample_texts() -> Vec<String> {
        let mut texts: Vec<String> = [
            "",
            "plain",
            "GRÜSSE AUS KÖLN, ÀBC déf İstanbul",
            "═══ ─── *** «»«» ©© 12 € \u{1}\u{7F} \u{FFFD}\u{E000} x\u{85}y",
            "<p class=\"x\">Тест</p>\t\r\nmixed 中文 かな 한국어 Ελληνικά",
        ]
        .map(String::from)
        .to_vec();
        for lang in ["de", "ru", "ja", "zh-Hans", "ko", "el", "vi", "ar"] {
            let text = testkit::text_lines(lang, true).into_iter().take(60).collect::<Vec<_>>();
            let text = format!("<p>{}</p>", text.join("\n"));
            texts.push(crate::Charset::Windows1252.decode(text.as_bytes()).0.into_owned());
            texts.push(text);
        }
        texts
    }

    /// Each model's cursor after `text`, scored character by character.
    fn streamed(text: &str) -> Vec<(u32, u8, u8)> {
        let mut scorer = TextScorer::new(false);
        std::iter::once(' ').chain(text.chars()).chain([' ']).for_each(|c| scorer.push(c));
        scorer.cursors.iter().map(|c| (c.cost, c.prev, c.case)).collect()
    }

    #[test]
    fn one_model_after_the_other_scores_as_every_model_for_each_character() {
        for text in sample_texts() {
            let (scorer, charges, _) = score_text(&text);
            let cursors: Vec<_> = scorer.cursors.iter().map(|c| (c.cost, c.prev, c.case)).collect();
            assert_eq!(cursors, streamed(&text), "{text}");
            // Only the models that may be the best scored to the end: the
            // same best cost and language.
            let (cost, language) = scorer.best(&charges);
            let (bounded, bounded_charges, _) = score_text_in(&text, |_| true, Some(u64::MAX));
            assert_eq!(bounded.best(&bounded_charges), (cost, language), "{text}");
        }
    }

    /// [`sample_texts`], each also as windows-1252 mojibake.
    fn sample_texts_and_mojibake() -> Vec<String> {
        let mojibake =
            |text: &str| crate::Charset::Windows1252.decode(text.as_bytes()).0.into_owned();
        sample_texts().iter().flat_map(|t| [t.clone(), mojibake(t)]).collect()
    }

    #[test]
    fn within_a_limit_the_bits_are_the_same_or_none() {
        for text in sample_texts_and_mojibake() {
            let plausible = plausibility(&text).bits;
            let best = language_costs(&text).best().map_or(0.0, |(_, bits)| bits);
            for (whole, within) in [
                (plausible, plausibility_bits_within as fn(&str, f32) -> Option<f32>),
                (best, language_bits_within),
            ] {
                for limit in [0.0, whole / 2.0, whole - 0.5, whole, whole + 1.0, f32::INFINITY] {
                    let expected = (whole <= limit).then_some(whole);
                    assert_eq!(within(&text, limit), expected, "{limit} {text}");
                }
            }
        }
    }

    #[test]
    fn the_best_language_is_that_of_all_the_costs() {
        for text in sample_texts_and_mojibake() {
            let all = language_costs(&text).best().map(|(language, _)| language);
            let best = best_language_cost(&text);
            assert_eq!(best.map(|(language, _)| language), all, "{text}");
            // Its cost is the text's cost in that language, exactly.
            if let Some((language, bits)) = best {
                assert_eq!(Some(bits), language_cost(&text, language), "{text}");
            }
        }
    }

    #[test]
    fn charged_ascii_costs_per_character() {
        let mut scorer = TextScorer::new(true);
        "abcd".chars().for_each(|c| scorer.push(c));
        let (cost, _) = scorer.best(&Charges::new(None, &Hints::default()));
        assert!(cost >= u64::from(4 * ASCII_COST), "{cost}");
    }
}
