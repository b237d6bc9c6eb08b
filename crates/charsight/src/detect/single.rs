//! Single-byte encodings: for each, the language models whose text it can
//! write, each scoring the class bigrams of the bytes through a generated
//! byte → class table. A byte the encoding does not define (or a C1
//! control) disqualifies the encoding.

use super::score::{self, ascii_class, Cursor, GapSums, Hints};
use super::tables::{SingleByte, ILLEGAL, MODELS, SINGLE_BYTE};

/// One encoding: its table and the range of its cursors.
#[derive(Clone, Debug)]
struct Encoding {
    /// Index into `SINGLE_BYTE`.
    table: usize,
    /// Index of the encoding among the detector's entries.
    entry: usize,
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
}

impl SingleScorer {
    /// Scorers for the given (entry index, index into `SINGLE_BYTE`) encodings.
    pub fn new(tables: impl Iterator<Item = (usize, usize)>) -> SingleScorer {
        let mut encodings = Vec::new();
        let mut count = 0;
        for (entry, table) in tables {
            let cursors = count..count + SINGLE_BYTE[table].models.len();
            count = cursors.end;
            encodings.push(Encoding { table, entry, cursors, disqualified: false, alive: true });
        }
        SingleScorer { encodings, cursors: vec![Cursor::default(); count] }
    }

    /// A run of interesting bytes starts after the (plain ASCII) byte `before`.
    pub fn begin(&mut self, before: u8) {
        let class = ascii_class(before);
        self.cursors.iter_mut().for_each(|c| {
            c.prev = class;
            c.caps = false;
        });
    }

    /// Scores the bytes of a run.
    pub fn bytes(&mut self, run: &[u8]) {
        for encoding in self.encodings.iter_mut().filter(|e| e.alive) {
            let pairs = encoding.table().models;
            for (cursor, (model, classes)) in
                self.cursors[encoding.cursors.clone()].iter_mut().zip(pairs.iter())
            {
                if !cursor.alive {
                    continue;
                }
                let model = &MODELS[usize::from(*model)];
                let emissions = &SINGLE_BYTE[encoding.table].emissions;
                for &b in run {
                    let (class, emission) = match b.checked_sub(0x80) {
                        None => (ascii_class(b), 0),
                        Some(high) => (classes[usize::from(high)], emissions[usize::from(high)]),
                    };
                    if class == ILLEGAL {
                        encoding.disqualified = true;
                        encoding.alive = false;
                        break;
                    }
                    cursor.step(model, class, emission);
                }
                if encoding.disqualified {
                    break;
                }
            }
        }
    }

    /// The plain ASCII byte that ends a run.
    pub fn after(&mut self, b: u8) {
        let class = ascii_class(b);
        for encoding in self.encodings.iter().filter(|e| e.alive) {
            for (cursor, (model, _)) in self.cursors[encoding.cursors.clone()]
                .iter_mut()
                .zip(encoding.table().models.iter())
            {
                if cursor.alive {
                    cursor.step(&MODELS[usize::from(*model)], class, 0);
                }
            }
        }
    }

    /// Each encoding that is not disqualified: (entry index, its best
    /// model's cost, adjusted for the plain ASCII skipped and hints, and the
    /// model's language).
    pub fn readings<'a>(
        &'a self,
        hints: &'a Hints,
        gaps: &'a GapSums,
    ) -> impl Iterator<Item = (usize, u64, Option<&'static str>)> + 'a {
        self.encodings.iter().filter(|e| !e.disqualified).map(move |e| {
            let best = self.cursors[e.cursors.clone()]
                .iter()
                .zip(e.table().models.iter())
                .filter(|(c, _)| c.alive)
                .map(|(c, (m, _))| {
                    let model = &MODELS[usize::from(*m)];
                    let cost =
                        score::adjusted(c.cost, gaps.cost(model.stay), hints.bonus(model.language));
                    (cost, Some(model.language))
                })
                .min();
            // An encoding with no model for any language scores as an
            // encoding of nothing: it can only win on a tie.
            let (cost, language) = best.unwrap_or((u64::from(u32::MAX), None));
            (e.entry, cost, language)
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
    pub fn prune_models(&mut self, hints: &Hints, gaps: &GapSums, gap: u64) {
        for e in self.encodings.iter().filter(|e| e.alive) {
            let models = e.table().models;
            let cost = |i: usize, c: &Cursor| {
                let model = &MODELS[usize::from(models[i].0)];
                score::adjusted(c.cost, gaps.cost(model.stay), hints.bonus(model.language))
            };
            score::prune(&mut self.cursors[e.cursors.clone()], cost, gap);
        }
    }

    /// Whether any encoding is still scored.
    pub fn any_alive(&self) -> bool {
        self.encodings.iter().any(|e| e.alive)
    }
}
