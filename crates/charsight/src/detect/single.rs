//! Single-byte encodings: for each, the language models whose text it can
//! write, each scoring the class bigrams of the bytes through a generated
//! byte → class table. A byte the encoding does not define (or a C1
//! control) disqualifies the encoding.
//!
//! Encodings that decode every high byte seen so far to the same characters
//! read the same text: they form a *group* that scores each language model
//! once for all of them (windows-1252, ISO-8859-15 and windows-1254 on most
//! French). A group splits when a byte its encodings decode differently
//! arrives, each part carrying on from the scores so far.
//!
//! A language's text quotes names and places of other languages (`Tromsø`
//! and `São Paulo` in Dutch, `Núñez` in German). A run of letters beyond
//! ASCII in a word that starts with a capital may be such a name: it costs
//! a model at most what the model that reads it best paid for it (the run
//! and the steps into and out of it), plus [`QUOTE_BITS`]; the best is
//! taken over every group that reads the run as the same characters, so a
//! name costs the same whichever encoding reads it. Without that, a Dutch
//! page naming Norwegian, Estonian and Portuguese places paid 35–40 bits
//! for each such letter, and read better as Hungarian in ISO-8859-16
//! (`Tromsű`, `Pőhja`), whose language has them, at confidence 1.00.

use super::score::{self, ascii_class, is_symbol_run, Charges, Cursor, Word};
use super::tables::{SingleByte, FOREIGN_COST, ILLEGAL, MODELS, SINGLE_BYTE, STEPS_PER_BIT, UPPER};

/// What a name costs a model beyond the best reading of it: the odds (1 in
/// 4,096) of a quotation from another language where a capitalised word
/// has letters beyond ASCII.
const QUOTE_BITS: u32 = 12;

/// FNV-1a, for hashing the characters a reading decodes bytes to.
const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// One encoding.
#[derive(Clone, Debug)]
struct Encoding {
    /// Index into `SINGLE_BYTE`.
    table: usize,
    /// Index of the encoding among the detector's entries.
    entry: usize,
    /// The high bytes it does not decode (bit `b - 0x80`).
    illegal: u128,
    /// The models it pairs with still scored (bit per index into
    /// `MODELS`).
    live: u64,
    /// The models of the languages that use it (the others pay
    /// [`FOREIGN_COST`]).
    users: u64,
    /// Its group, an index into `SingleScorer::groups`.
    group: usize,
    disqualified: bool,
    /// Still scored (not pruned, not disqualified).
    alive: bool,
}

impl Encoding {
    fn table(&self) -> &'static SingleByte {
        &SINGLE_BYTE[self.table]
    }

    /// How model `model`, which it pairs with, reads each byte.
    fn codes(&self, model: u32) -> &'static [u32; 256] {
        let j = positions()[self.table][model as usize];
        &codes()[self.table][usize::from(j)]
    }

    /// What it decodes high byte `high` to: `None` if it is out of the
    /// running, `Some(0)` if it does not decode it.
    fn read(&self, high: usize) -> Option<u16> {
        let illegal = self.illegal >> high & 1 == 1;
        self.alive.then_some(if illegal { 0 } else { self.table().chars[high] })
    }
}

/// Where each model a table of `SINGLE_BYTE` pairs with is in its `models`
/// (by model index; the table lists them in model order), worked out once:
/// a refresh looks up a table per model.
fn positions() -> &'static [[u8; 64]] {
    static POSITIONS: std::sync::OnceLock<Vec<[u8; 64]>> = std::sync::OnceLock::new();
    POSITIONS.get_or_init(|| {
        let at = |table: &SingleByte| {
            let mut at = [0; 64];
            for (j, model) in table.models.iter().enumerate() {
                at[usize::from(model.0)] = j as u8;
            }
            at
        };
        SINGLE_BYTE.iter().map(at).collect()
    })
}

/// How each model a table of `SINGLE_BYTE` pairs with reads each byte
/// ([`score::code`]), by the model's place in the table's `models`, worked
/// out once: the scoring loop looks up one word per byte.
fn codes() -> &'static [Vec<[u32; 256]>] {
    static CODES: std::sync::OnceLock<Vec<Vec<[u32; 256]>>> = std::sync::OnceLock::new();
    CODES.get_or_init(|| {
        let read = |(model, classes, emissions): &(u8, [u8; 128], [u8; 128])| {
            let model = &MODELS[usize::from(*model)];
            std::array::from_fn(|b| match (b as u8).checked_sub(0x80) {
                None => score::code(model, ascii_class(b as u8), 0),
                Some(high) => {
                    let high = usize::from(high);
                    score::code(model, classes[high], emissions[high])
                }
            })
        };
        SINGLE_BYTE.iter().map(|table| table.models.iter().map(read).collect()).collect()
    })
}

/// The codes of a model no member pairs with (there is none: each model
/// needed is some member's).
static UNREAD: [u32; 256] = [ILLEGAL as u32; 256];

/// The positions of the bits set in `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

/// One language model's cursor, shared by the encodings of a group.
#[derive(Clone, Debug)]
struct Shared {
    /// Index into `MODELS`.
    model: u8,
    /// How the model reads each byte (the high bytes the group has seen
    /// alike in every encoding of the group that pairs with the model).
    codes: &'static [u32; 256],
    cursor: Cursor,
}

/// Encodings that decode the bytes seen alike, and their cursors.
#[derive(Clone, Debug)]
struct Group {
    /// Indices into `SingleScorer::encodings` (bit per index, so that
    /// splitting a group allocates no lists).
    members: u64,
    /// The models of `cursors` (bit per model index): model `m`'s cursor
    /// follows one for each bit of `needed` below bit `m`.
    needed: u64,
    /// One per model that a live member still scores, in model order.
    cursors: Vec<Shared>,
    /// Members left or dropped models: `cursors` may hold some no member
    /// needs.
    dirty: bool,
    /// Each cursor's (model, cost) where the run being scored started.
    run_start: Vec<(u8, u32)>,
    /// The run may be part of a name: its bytes read so far are letters,
    /// in a word that starts with a capital (`run_start` and `run_text`
    /// are kept only then).
    named: bool,
    /// A hash of the characters the group reads the run as.
    run_text: u64,
    /// The run is in a word that starts with a capital.
    in_name: bool,
}

/// The groups' cursors charged ([`SingleScorer::charged`]): group `g`'s
/// model `m` at `costs[starts[g] + index[g][m]]`, (as a language of the
/// encoding, as a foreign one). Pruning models leaves them as they are: a
/// checkpoint charges them once for the pruning and the readings.
pub(super) struct Charged {
    starts: Vec<usize>,
    index: Vec<[u8; 64]>,
    costs: Vec<(u64, u64)>,
    /// [`Charges::naming`] by model index.
    naming: [u64; 64],
}

/// Where each model's cost stood when the run began: looked up in model
/// order, alongside a group's cursors (both are in model order).
struct RunStart<'a>(std::iter::Peekable<std::slice::Iter<'a, (u8, u32)>>);

impl RunStart<'_> {
    /// The cost of `model` at the run's start; `None` for a model the
    /// group took on during the run, when it split.
    fn of(&mut self, model: u8) -> Option<u32> {
        while self.0.next_if(|&&(m, _)| m < model).is_some() {}
        self.0.peek().filter(|&&&(m, _)| m == model).map(|&&(_, cost)| cost)
    }
}

impl Group {
    fn run_start(&self) -> RunStart<'_> {
        RunStart(self.run_start.iter().peekable())
    }

    /// What the run just scored cost the model that read it best, if the
    /// group has models.
    fn least(&self) -> Option<u32> {
        let mut start = self.run_start();
        let spent = |s: &Shared| Some(s.cursor.cost.saturating_sub(start.of(s.model)?));
        self.cursors.iter().filter_map(spent).min()
    }

    /// The run just scored is in a name: no model pays more for it than
    /// `least`, what the best model of any reading of the same text paid,
    /// plus [`QUOTE_BITS`]. (A model the group took on during the run, when
    /// it split, is left as it is.)
    fn name(&mut self, least: u32) {
        let most = least + QUOTE_BITS * u32::from(STEPS_PER_BIT);
        let mut start = RunStart(self.run_start.iter().peekable());
        for shared in &mut self.cursors {
            if let Some(cost) = start.of(shared.model) {
                if shared.cursor.cost.saturating_sub(cost) > most {
                    shared.cursor.cost = cost + most;
                }
            }
        }
    }
}

/// Every single-byte encoding's models over the same bytes.
#[derive(Clone, Debug)]
pub(super) struct SingleScorer {
    encodings: Vec<Encoding>,
    groups: Vec<Group>,
    /// The high bytes seen (bit `b - 0x80`): every group's encodings
    /// decode them alike.
    seen: u128,
    /// The class of the plain byte before the run that starts, until its
    /// first bytes are scored.
    pending: Option<u8>,
    /// The word the run being scored is part of.
    word: Word,
    /// The last byte of the run scored so far (a run may come in pieces):
    /// a symbol that repeats it continues a run of symbols.
    last: Option<u8>,
    /// The cursor list the last [`SingleScorer::refresh`] replaced, for the
    /// next to fill: refreshes seldom allocate.
    spare: Vec<Shared>,
    /// Each group's reading of the last run, for [`SingleScorer::names`].
    reads: Vec<Option<(u64, u32)>>,
}

/// The high bytes of `run` (bit `b - 0x80`).
fn high_bytes(run: &[u8]) -> u128 {
    run.iter().filter(|&&b| b >= 0x80).fold(0, |mask, &b| mask | 1 << (b - 0x80))
}

impl SingleScorer {
    /// Scorers for the given (entry index, index into `SINGLE_BYTE`, the
    /// high bytes it does not decode) encodings.
    pub fn new(tables: impl Iterator<Item = (usize, usize, u128)>) -> SingleScorer {
        let encodings: Vec<Encoding> = tables
            .map(|(entry, table, illegal)| {
                let paired = SINGLE_BYTE[table].models.iter().fold(0, |m, x| m | 1 << x.0);
                Encoding {
                    table,
                    entry,
                    illegal,
                    live: paired,
                    users: SINGLE_BYTE[table].users,
                    group: 0,
                    disqualified: false,
                    alive: true,
                }
            })
            .collect();
        // Nothing seen: every encoding reads alike.
        let all = Group {
            members: (0..encodings.len()).fold(0, |m, e| m | 1 << e),
            needed: 0,
            cursors: Vec::new(),
            dirty: true,
            run_start: Vec::new(),
            named: false,
            run_text: 0,
            in_name: false,
        };
        let mut scorer = SingleScorer {
            encodings,
            groups: vec![all],
            seen: 0,
            pending: None,
            word: Word::Start,
            last: None,
            spare: Vec::new(),
            reads: Vec::new(),
        };
        scorer.refresh(0, 0);
        scorer
    }

    /// Brings group `g`'s cursors in line with its live members' models:
    /// drops those none scores, takes those it lacks from group `source`
    /// (the group it split from, or itself), and each one's classes from a
    /// member that pairs with it.
    fn refresh(&mut self, g: usize, source: usize) {
        let mut cursors = std::mem::take(&mut self.spare);
        cursors.clear();
        let encodings = &self.encodings;
        let members = bits(self.groups[g].members).filter(|&e| encodings[e as usize].alive);
        self.groups[g].members = members.fold(0, |m, e| m | 1 << e);
        let (group, from) = (&self.groups[g], &self.groups[source]);
        let members = || bits(group.members).map(|e| &encodings[e as usize]);
        let needed = members().fold(0, |m, e| m | e.live);
        cursors.reserve(needed.count_ones() as usize);
        // Each model's tables from the first member that scores it.
        let mut providers = [None; 64];
        let mut unassigned = needed;
        for e in members() {
            if unassigned == 0 {
                break;
            }
            bits(e.live & unassigned).for_each(|model| providers[model as usize] = Some(e));
            unassigned &= !e.live;
        }
        // The source's cursors are in model order too: walked alongside.
        let mut sources = from.cursors.iter().peekable();
        for model in bits(needed) {
            let member = providers[model as usize];
            while sources.next_if(|s| u32::from(s.model) < model).is_some() {}
            let cursor = match sources.peek() {
                Some(s) if u32::from(s.model) == model => s.cursor,
                _ => Cursor::default(),
            };
            let codes = member.map_or(&UNREAD, |e| e.codes(model));
            cursors.push(Shared { model: model as u8, codes, cursor });
        }
        let group = &mut self.groups[g];
        group.needed = needed;
        group.dirty = false;
        self.spare = std::mem::replace(&mut group.cursors, cursors);
    }

    /// Splits the groups whose encodings decode the high bytes `highs`
    /// (bit `b - 0x80`) differently, and disqualifies the encodings that do
    /// not decode one of them.
    fn split(&mut self, highs: u128) {
        // What encoding `e` decodes the bytes to: `None` if it is out of the
        // running or does not decode one, else a hash of the characters.
        let read = |e: &Encoding| -> Option<u64> {
            super::bits(highs).try_fold(FNV_BASIS, |hash, high| match e.read(high) {
                None | Some(0) => None,
                Some(c) => Some((hash ^ u64::from(c)).wrapping_mul(FNV_PRIME)),
            })
        };
        let alike = |a: &Encoding, b: &Encoding| {
            super::bits(highs).all(|high| a.table().chars[high] == b.table().chars[high])
        };
        for g in 0..self.groups.len() {
            let members = self.groups[g].members;
            let encodings = &self.encodings;
            let mut live = bits(members).map(|e| &encodings[e as usize]).filter(|e| e.alive);
            let first = live.next();
            let whole = first.is_some_and(|f| {
                read(f).is_some() && live.all(|e| read(e).is_some() && alike(f, e))
            });
            if whole || first.is_none() {
                continue;
            }
            // They differ: one group per reading, the first keeps this one.
            // (hash, members, the first member)
            let mut parts: Vec<(u64, u64, usize)> = Vec::new();
            for e in bits(members).map(|e| e as usize) {
                if !self.encodings[e].alive {
                    continue;
                }
                let Some(hash) = read(&self.encodings[e]) else {
                    self.encodings[e].disqualified = true;
                    self.encodings[e].alive = false;
                    continue;
                };
                let encodings = &self.encodings;
                let part =
                    parts.iter_mut().find(|p| p.0 == hash && alike(&encodings[p.2], &encodings[e]));
                match part {
                    Some(part) => part.1 |= 1 << e,
                    None => parts.push((hash, 1 << e, e)),
                }
            }
            let mut parts = parts.into_iter();
            self.groups[g].members = parts.next().map_or(0, |p| p.1);
            self.groups[g].dirty = true;
            for (_, members, _) in parts {
                for e in bits(members) {
                    self.encodings[e as usize].group = self.groups.len();
                }
                // It carries on the run being scored, if one is (a run fed in
                // pieces splits groups where its new bytes come).
                let from = &self.groups[g];
                let group = Group {
                    members,
                    needed: 0,
                    cursors: Vec::new(),
                    dirty: true,
                    run_start: from.run_start.clone(),
                    named: from.named,
                    run_text: from.run_text,
                    in_name: from.in_name,
                };
                self.groups.push(group);
                self.refresh(self.groups.len() - 1, g);
            }
        }
    }

    /// A run of interesting bytes starts after the (plain ASCII) byte
    /// `before` (the models restart from it with the run's first bytes).
    pub fn begin(&mut self, before: u8, word: Word) {
        self.pending = Some(ascii_class(before));
        self.word = word;
        self.last = None;
    }

    /// Scores the bytes of a run, and the plain ASCII byte that ends it if
    /// it is known (`after`).
    pub fn bytes(&mut self, run: &[u8], after: Option<u8>) {
        let fresh = high_bytes(run) & !self.seen;
        self.seen |= fresh;
        if fresh != 0 {
            self.split(fresh);
        }
        self.tidy();
        let start = self.pending.take();
        // Only a run of letters in a word may be part of a name (a byte
        // standing alone is a symbol in one reading as often as a letter
        // in another), and only in a word that starts with a capital
        // (`crŽation` is no name, `Škoda` may be).
        let in_word = self.word != Word::Start || after.is_some_and(|b| b.is_ascii_alphabetic());
        let may_be_in_word = in_word || after.is_none();
        let mut names = false;
        for group in &mut self.groups {
            // The group's models read the same characters: one says which
            // are letters and capitals.
            let codes = group.cursors.first().map_or(&UNREAD, |s| s.codes);
            if start.is_some() {
                group.in_name = match self.word {
                    Word::Ascii(capital) => capital,
                    Word::Start => {
                        run.first().is_some_and(|&b| codes[usize::from(b)] as u8 & UPPER != 0)
                    }
                    Word::AfterRun => group.in_name,
                };
                group.named = group.in_name && may_be_in_word;
                if group.named {
                    group.run_start.clear();
                    let costs = group.cursors.iter().map(|s| (s.model, s.cursor.cost));
                    group.run_start.extend(costs);
                    group.run_text = FNV_BASIS;
                }
            }
            if group.named {
                group.named = run.iter().all(|&b| score::is_letter_code(codes[usize::from(b)]));
            }
            if let Some(e) = bits(group.members).next().filter(|_| group.named) {
                let chars = &self.encodings[e as usize].table().chars;
                group.run_text = run.iter().fold(group.run_text, |hash, &b| {
                    let c = b.checked_sub(0x80).map_or(u16::from(b), |h| chars[usize::from(h)]);
                    (hash ^ u64::from(c)).wrapping_mul(FNV_PRIME)
                });
            }
            names |= group.named;
            // Whether high byte `b`, repeating the one before, continues a
            // run of a symbol ([`score::runs_on`]).
            let member = bits(group.members).next();
            let chars = member.map(|e| &self.encodings[e as usize].table().chars);
            let runs_on = |b: u8| {
                let c = chars.and_then(|chars| chars.get(usize::from(b.checked_sub(0x80)?)));
                c.and_then(|&c| char::from_u32(u32::from(c))).is_none_or(score::runs_on)
            };
            for shared in &mut group.cursors {
                let model = &MODELS[usize::from(shared.model)];
                let codes = shared.codes;
                // A copy, kept in registers.
                let mut c = shared.cursor;
                if let Some(class) = start {
                    c.restart(class);
                }
                let mut before = self.last;
                for &b in run {
                    let code = codes[usize::from(b)];
                    debug_assert_ne!(code as u8, ILLEGAL);
                    if is_symbol_run(code as u8, before == Some(b) && runs_on(b)) {
                        c.repeat();
                    } else {
                        c.step_code(model, code);
                    }
                    before = Some(b);
                }
                if let Some(b) = after {
                    c.step_code(model, codes[usize::from(b)]);
                }
                shared.cursor = c;
            }
        }
        if after.is_some() && in_word && names {
            self.names();
        }
        self.last = run.last().copied().or(self.last);
    }

    /// Caps what the run just scored costs the groups that read it as
    /// letters of a name ([`Group::name`]): the same text, whichever
    /// encoding reads it, is explained by the best model of any of them
    /// (the models an encoding pairs with, and those it still scores,
    /// differ: `Álava` must not be a cheaper name in windows-1250, with
    /// Hungarian, than in windows-1252 after Spanish fell behind on a
    /// German page).
    fn names(&mut self) {
        let mut reads = std::mem::take(&mut self.reads);
        reads.clear();
        for group in &self.groups {
            let read = group.named.then(|| group.least()).flatten();
            reads.push(read.map(|least| (group.run_text, least)));
        }
        for (g, read) in reads.iter().enumerate() {
            let Some((text, _)) = *read else { continue };
            let same = reads.iter().flatten().filter(|r| r.0 == text);
            if let Some(least) = same.map(|r| r.1).min() {
                self.groups[g].name(least);
            }
        }
        self.reads = reads;
    }

    /// Every group's cursors charged once, flat in group order: the cost of
    /// each as a model of one of the encoding's languages and as a foreign
    /// one (an encoding pays [`FOREIGN_COST`] for the models of languages
    /// that do not use it).
    pub fn charged(&self, charges: &Charges) -> Charged {
        let mut starts = Vec::with_capacity(self.groups.len());
        let mut index = Vec::with_capacity(self.groups.len());
        let cursors = self.groups.iter().map(|g| g.cursors.len()).sum();
        let mut costs = Vec::with_capacity(cursors);
        for group in &self.groups {
            starts.push(costs.len());
            let mut at = [0; 64];
            for (j, shared) in group.cursors.iter().enumerate() {
                let (model, cost) = (usize::from(shared.model), u64::from(shared.cursor.cost));
                at[model] = j as u8;
                costs.push((
                    charges.cost(model, cost),
                    charges.cost(model, cost + u64::from(FOREIGN_COST)),
                ));
            }
            index.push(at);
        }
        let naming = std::array::from_fn(|m| if m < MODELS.len() { charges.naming(m) } else { 0 });
        Charged { starts, index, costs, naming }
    }

    /// The cost of each model encoding `e` still scores: (cost, model).
    fn model_costs<'a>(
        &'a self,
        e: &'a Encoding,
        charged: &'a Charged,
    ) -> impl Iterator<Item = (u64, u32)> + 'a {
        // The group's cursors are a superset of the encoding's live models.
        let (start, index) = (charged.starts[e.group], &charged.index[e.group]);
        bits(if e.alive { e.live } else { 0 }).map(move |model| {
            let (own, foreign) = charged.costs[start + usize::from(index[model as usize])];
            (if e.users >> model & 1 == 1 { own } else { foreign }, model)
        })
    }

    /// Each encoding that is not disqualified: (entry index, its best
    /// model's cost, `charged`, and the model's language).
    pub fn readings<'a>(
        &'a self,
        charged: &'a Charged,
    ) -> impl Iterator<Item = (usize, u64, Option<&'static str>)> + 'a {
        self.encodings.iter().filter(|e| !e.disqualified).map(move |e| {
            // An encoding with no model for any language scores as an
            // encoding of nothing: it can only win on a tie.
            // One pass: the cheapest model, and the one that names the
            // language ([`Charges::naming`]).
            let (mut cheapest, mut naming) = (None, (u64::MAX, 0));
            for (cost, m) in self.model_costs(e, charged) {
                cheapest = Some(cheapest.map_or(cost, |c: u64| c.min(cost)));
                let named = cost + charged.naming[m as usize];
                if named < naming.0 {
                    naming = (named, m);
                }
            }
            match cheapest {
                Some(cost) => (e.entry, cost, Some(MODELS[naming.1 as usize].language)),
                None => (e.entry, u64::from(u32::MAX), None),
            }
        })
    }

    /// Stops scoring the encoding at `entry` (pruned by the detector).
    pub fn retire(&mut self, entry: usize) {
        if let Some(e) = self.encodings.iter_mut().find(|e| e.entry == entry && e.alive) {
            e.alive = false;
            self.groups[e.group].dirty = true;
        }
    }

    /// Refreshes the groups whose members left or dropped models.
    fn tidy(&mut self) {
        for g in 0..self.groups.len() {
            if self.groups[g].dirty {
                self.refresh(g, g);
            }
        }
    }

    /// Within each live encoding, drops the models more than `gap` behind
    /// its best (costs as [`SingleScorer::charged`] gave them), unless an
    /// encoding of its group still keeps them: the group scores them once
    /// for all its encodings, and readings that pair fewer models keep
    /// theirs longer (windows-1258 kept Dutch as its best while
    /// windows-1252 dropped it for Catalan on a page's foreign place names,
    /// and won on the Dutch text after them).
    pub fn prune_models(&mut self, charged: &Charged, gap: u64) {
        let mut kept = vec![0u64; self.groups.len()];
        for encoding in self.encodings.iter().filter(|e| e.alive) {
            let costs = || self.model_costs(encoding, charged);
            let Some(best) = costs().map(|c| c.0).min() else { continue };
            let within = costs().filter(|&(cost, _)| cost <= best + gap);
            kept[encoding.group] |= within.fold(0, |mask, (_, model)| mask | 1 << model);
        }
        for e in 0..self.encodings.len() {
            let encoding = &self.encodings[e];
            let keep = encoding.live & kept[encoding.group];
            if encoding.alive && keep != encoding.live {
                let group = encoding.group;
                self.encodings[e].live = keep;
                self.groups[group].dirty = true;
            }
        }
    }

    /// Whether any encoding is still scored.
    pub fn any_alive(&self) -> bool {
        self.encodings.iter().any(|e| e.alive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::score::Hints;
    use crate::Charset;

    fn scorer() -> SingleScorer {
        let tables = SINGLE_BYTE.iter().enumerate().map(|(i, t)| {
            let illegal = (0..128).filter(|&b| t.chars[b] == 0).fold(0, |m, b| m | 1 << b);
            (i, i, illegal)
        });
        SingleScorer::new(tables)
    }

    fn index(charset: Charset) -> usize {
        SINGLE_BYTE.iter().position(|t| t.charset == charset.name()).unwrap()
    }

    fn cost_of(s: &SingleScorer, charset: Charset) -> Option<u64> {
        let charges = Charges::new(None, &Hints::default());
        let cost = s.readings(&s.charged(&charges)).find(|r| r.0 == index(charset)).map(|r| r.1);
        cost
    }

    fn group(s: &SingleScorer, charset: Charset) -> usize {
        s.encodings[index(charset)].group
    }

    #[test]
    fn groups_split_and_score_alike() {
        let mut s = scorer();
        assert_eq!(s.groups.len(), 1);
        let (bytes, _) = Charset::Windows1252.encode("déjà");
        s.begin(b' ', Word::Start);
        s.bytes(&bytes[1..], Some(b' '));
        // windows-1252 and ISO-8859-15 read é and à alike: one group.
        assert_eq!(group(&s, Charset::Windows1252), group(&s, Charset::Iso8859_15));
        assert_ne!(group(&s, Charset::Windows1252), group(&s, Charset::Windows1251));
        assert_eq!(cost_of(&s, Charset::Windows1252), cost_of(&s, Charset::Iso8859_15));
        // 0xA4 is ¤ in windows-1252, € in ISO-8859-15.
        s.begin(b' ', Word::Start);
        s.bytes(b"\xA4", Some(b' '));
        assert_ne!(group(&s, Charset::Windows1252), group(&s, Charset::Iso8859_15));
        assert!(cost_of(&s, Charset::Iso8859_15).is_some());
    }

    #[test]
    fn models_fit_a_mask_in_order() {
        // A bit each in a `u64`, as the encodings in a group's members.
        assert!(MODELS.len() <= 64 && SINGLE_BYTE.len() <= 64);
        for table in &SINGLE_BYTE {
            assert!(table.models.windows(2).all(|w| w[0].0 < w[1].0), "{}", table.charset);
        }
    }

    #[test]
    fn each_paired_model_is_found_in_its_table() {
        for (t, table) in SINGLE_BYTE.iter().enumerate() {
            for (j, model) in table.models.iter().enumerate() {
                let at = positions()[t][usize::from(model.0)];
                assert_eq!(usize::from(at), j, "{} model {}", table.charset, model.0);
            }
        }
    }

    #[test]
    fn undefined_bytes_disqualify() {
        let mut s = scorer();
        s.begin(b' ', Word::Start);
        s.bytes(b"\x81", None);
        assert_eq!(cost_of(&s, Charset::Windows1252), None);
        assert!(cost_of(&s, Charset::Windows1251).is_some());
    }

    /// What the model of `language` paid in the group that reads
    /// windows-1252.
    fn paid(s: &SingleScorer, language: &str) -> u32 {
        let group = &s.groups[group(s, Charset::Windows1252)];
        let shared =
            group.cursors.iter().find(|c| MODELS[usize::from(c.model)].language == language);
        shared.map(|c| c.cursor.cost).unwrap()
    }

    #[test]
    fn a_name_costs_at_most_its_best_reading_and_the_switch() {
        let most = QUOTE_BITS * u32::from(STEPS_PER_BIT);
        // `Tromsø` in a Dutch text: a name, as Norwegian reads it.
        let mut s = scorer();
        s.begin(b's', Word::Ascii(true));
        s.bytes(b"\xF8", Some(b' '));
        assert!(paid(&s, "nl") <= paid(&s, "no") + most);
        assert!(paid(&s, "no") < paid(&s, "nl"));
        // `trøp`, a word in lowercase: no name, Dutch pays for the letter.
        let mut s = scorer();
        s.begin(b'r', Word::Ascii(false));
        s.bytes(b"\xF8", Some(b'p'));
        assert!(paid(&s, "nl") > paid(&s, "no") + most);
    }
}
