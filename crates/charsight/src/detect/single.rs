//! Single-byte encodings: for each, the language models whose text it can
//! write, each scoring the class bigrams of the bytes through a generated
//! byte → class table. A byte the encoding does not define (or a C1
//! control) disqualifies the encoding.

use super::score::{ascii_class, Charges, Cursor};
use super::tables::{SingleByte, ILLEGAL, MODELS, SINGLE_BYTE};

/// One encoding: its table and the range of its cursors.
#[derive(Clone, Debug)]
struct Encoding {
    /// Index into `SINGLE_BYTE`.
    table: usize,
    /// Index of the encoding among the detector's entries.
    entry: usize,
    /// The high bytes it does not decode (bit `b - 0x80`).
    illegal: u128,
    cursors: std::ops::Range<usize>,
    disqualified: bool,
    /// Still scored (not pruned, not disqualified).
    alive: bool,
}

impl Encoding {
    fn table(&self) -> &'static SingleByte {
        &SINGLE_BYTE[self.table]
    }
}

/// Every single-byte encoding's models over the same bytes.
#[derive(Clone, Debug)]
pub(super) struct SingleScorer {
    encodings: Vec<Encoding>,
    /// One per (encoding, model) pair.
    cursors: Vec<Cursor>,
    /// The class of the plain byte before the run that starts, until its
    /// first bytes are scored.
    pending: Option<u8>,
}

/// The high bytes of `run` (bit `b - 0x80`).
fn high_bytes(run: &[u8]) -> u128 {
    run.iter().filter(|&&b| b >= 0x80).fold(0, |mask, &b| mask | 1 << (b - 0x80))
}

impl SingleScorer {
    /// Scorers for the given (entry index, index into `SINGLE_BYTE`, the
    /// high bytes it does not decode) encodings.
    pub fn new(tables: impl Iterator<Item = (usize, usize, u128)>) -> SingleScorer {
        let mut encodings = Vec::new();
        let mut count = 0;
        for (entry, table, illegal) in tables {
            let cursors = count..count + SINGLE_BYTE[table].models.len();
            count = cursors.end;
            encodings.push(Encoding {
                table,
                entry,
                illegal,
                cursors,
                disqualified: false,
                alive: true,
            });
        }
        SingleScorer { encodings, cursors: vec![Cursor::default(); count], pending: None }
    }

    /// A run of interesting bytes starts after the (plain ASCII) byte
    /// `before` (the models restart from it with the run's first bytes).
    pub fn begin(&mut self, before: u8) {
        self.pending = Some(ascii_class(before));
    }

    /// Scores the bytes of a run, and the plain ASCII byte that ends it if
    /// it is known (`after`).
    pub fn bytes(&mut self, run: &[u8], after: Option<u8>) {
        let high = high_bytes(run);
        let start = self.pending.take();
        let end = after.map(ascii_class);
        for e in self.encodings.iter_mut().filter(|e| e.alive) {
            if high & e.illegal != 0 {
                e.disqualified = true;
                e.alive = false;
                continue;
            }
            let table = &SINGLE_BYTE[e.table];
            let emissions = &table.emissions;
            for (cursor, (model, classes)) in
                self.cursors[e.cursors.clone()].iter_mut().zip(table.models)
            {
                if !cursor.alive {
                    continue;
                }
                let model = &MODELS[usize::from(*model)];
                // A copy, kept in registers.
                let mut c = *cursor;
                if let Some(class) = start {
                    c.restart(model, class);
                }
                for &b in run {
                    let (class, emission) = match b.checked_sub(0x80) {
                        None => (ascii_class(b), 0),
                        Some(high) => (classes[usize::from(high)], emissions[usize::from(high)]),
                    };
                    debug_assert_ne!(class, ILLEGAL);
                    c.step(model, class, emission);
                }
                if let Some(class) = end {
                    c.step(model, class, 0);
                }
                *cursor = c;
            }
        }
    }

    /// Each encoding that is not disqualified: (entry index, its best
    /// model's cost, charged, and the model's language).
    pub fn readings<'a>(
        &'a self,
        charges: &'a Charges,
    ) -> impl Iterator<Item = (usize, u64, Option<&'static str>)> + 'a {
        self.encodings.iter().filter(|e| !e.disqualified).map(move |e| {
            let best = self.cursors[e.cursors.clone()]
                .iter()
                .zip(e.table().models)
                .filter(|(c, _)| c.alive)
                .map(|(c, (m, _))| (charges.cost(usize::from(*m), u64::from(c.cost)), *m))
                .min();
            // An encoding with no model for any language scores as an
            // encoding of nothing: it can only win on a tie.
            match best {
                Some((cost, m)) => (e.entry, cost, Some(MODELS[usize::from(m)].language)),
                None => (e.entry, u64::from(u32::MAX), None),
            }
        })
    }

    /// Stops scoring the encoding at `entry` (pruned by the detector).
    pub fn retire(&mut self, entry: usize) {
        if let Some(e) = self.encodings.iter_mut().find(|e| e.entry == entry) {
            e.alive = false;
        }
    }

    /// Within each live encoding, drops the models more than `gap` behind
    /// its best.
    pub fn prune_models(&mut self, charges: &Charges, gap: u64) {
        for e in self.encodings.iter().filter(|e| e.alive) {
            let models = e.table().models;
            let cursors = &mut self.cursors[e.cursors.clone()];
            let cost = |c: &Cursor, m: &u8| charges.cost(usize::from(*m), u64::from(c.cost));
            let live = cursors.iter().zip(models).filter(|(c, _)| c.alive);
            let Some(best) = live.map(|(c, (m, _))| cost(c, m)).min() else { continue };
            for (c, (m, _)) in cursors.iter_mut().zip(models) {
                if c.alive && cost(c, m) > best + gap {
                    c.alive = false;
                }
            }
        }
    }

    /// Whether any encoding is still scored.
    pub fn any_alive(&self) -> bool {
        self.encodings.iter().any(|e| e.alive)
    }
}
