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

use super::tables::{
    Model, ASCII_LETTER, ASCII_OTHER, CJK_COSTS, FAR_LETTER, LAST_ASCII, MODELS, ODD, OTHER_LETTER,
    STAY_STEPS_PER_BIT, STEPS_PER_BIT, SYMBOL, TLDS, UPPER,
};

/// The cost of one plain ASCII character: about the entropy of English
/// letters given the previous one, 4 bits.
pub(super) const ASCII_COST: u32 = 4 * STEPS_PER_BIT as u32;

/// The cost of a control character (other than whitespace) in a model that
/// has no bigram for it.
pub(super) const ODD_COST: u32 = 25 * STEPS_PER_BIT as u32;

/// The class of an ASCII byte: the letter (with case), control, or other.
#[inline]
pub(super) fn ascii_class(b: u8) -> u8 {
    match b {
        b'a'..=b'z' => ASCII_LETTER + (b - b'a'),
        b'A'..=b'Z' => (ASCII_LETTER + (b - b'A')) | UPPER,
        b'\t' | b'\n' | 0x0C | b'\r' => ASCII_OTHER,
        0..=0x1F | 0x7F => ODD,
        _ => ASCII_OTHER,
    }
}

/// One language model's progress over a text: the previous class and the
/// cost so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cursor {
    pub prev: u8,
    /// The previous two characters were uppercase letters.
    pub caps: bool,
    pub cost: u32,
    pub alive: bool,
}

impl Default for Cursor {
    fn default() -> Cursor {
        Cursor { prev: ASCII_OTHER, caps: false, cost: 0, alive: true }
    }
}

impl Cursor {
    /// Scores the character of class `class` (with the [`UPPER`] flag) after
    /// the previous one; a character in a category class (another letter, a
    /// symbol) also costs its `emission`. A pair of ASCII classes costs
    /// nothing here: it is the same in every ASCII-compatible reading.
    #[inline]
    pub fn step(&mut self, model: &Model, class: u8, emission: u8) {
        let (p, c) = (self.prev & !UPPER, class & !UPPER);
        let prev_letter = model.letters >> p & 1 == 1;
        let prev_upper = prev_letter && self.prev & UPPER != 0;
        let letter = model.letters >> c & 1 == 1;
        let upper = letter && class & UPPER != 0;
        if p > LAST_ASCII || c > LAST_ASCII {
            let k = model.classes;
            self.cost += u32::from(model.bigrams[usize::from(p) * k + usize::from(c)]);
            if matches!(c, SYMBOL | OTHER_LETTER | FAR_LETTER) {
                self.cost += u32::from(emission);
            }
            if letter {
                // After a non-letter, a lowercase letter, a capital, two capitals.
                let state = match (prev_letter, prev_upper, self.caps) {
                    (false, _, _) => 0,
                    (true, false, _) => 1,
                    (true, true, false) => 2,
                    (true, true, true) => 3,
                };
                self.cost += u32::from(model.case[state * 2 + usize::from(upper)]);
            }
        }
        self.caps = upper && prev_upper;
        self.prev = class;
    }
}

/// A model's cost as readings are compared: its events, plus its charge
/// for the plain ASCII skipped ([`Gaps::cost`]), less the hint bonus.
pub(super) fn adjusted(events: u32, plain: u64, bonus: u32) -> u64 {
    (u64::from(events) + plain).saturating_sub(u64::from(bonus))
}

/// The cost of plain ASCII going on after plain ASCII in a language's text,
/// in stay steps (see `Model::stay`): its model's, or for a CJK language its
/// text's counts (whose edges between ASCII and the rest are [`cjk_edges`]).
pub(super) fn stay(language: &str) -> u16 {
    if let Some(&(_, stay, _)) = CJK_COSTS.iter().find(|x| x.0 == language) {
        return stay;
    }
    MODELS.iter().find(|m| m.language == language).map_or(0, |m| m.stay)
}

/// A CJK language's costs (steps) of the edges between ASCII and its
/// characters: ASCII letter → character, other ASCII → character, character
/// → ASCII letter, character → other ASCII, character → character.
pub(super) fn cjk_edges(language: &str) -> [u8; 5] {
    CJK_COSTS.iter().find(|x| x.0 == language).map_or([0; 5], |x| x.2)
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

impl Cursor {
    /// Scores a CJK language's edge to what comes next: one of its
    /// characters (`None`) or ASCII (`Some(is_letter)`). `prev` holds
    /// [`FAR_LETTER`] after one of its characters.
    pub fn cjk_edge(&mut self, edges: &[u8; 5], next: Option<bool>) {
        let prev = match self.prev & !UPPER {
            FAR_LETTER => None,
            p => Some((ASCII_LETTER..=LAST_ASCII).contains(&p)),
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
/// one plus `gap`; the dead keep their cost as it was.
pub(super) fn prune(cursors: &mut [Cursor], cost: impl Fn(usize, &Cursor) -> u64, gap: u64) {
    let best = cursors.iter().enumerate().filter(|(_, c)| c.alive).map(|(i, c)| cost(i, c)).min();
    if let Some(best) = best {
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
    languages: Vec<&'static str>,
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
        languages.sort_unstable();
        languages.dedup();
        Hints { languages }
    }

    /// The bonus (in steps) of a model's language.
    pub fn bonus(&self, language: &str) -> u32 {
        if self.languages.contains(&language) {
            HINT_BONUS
        } else {
            0
        }
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
        let hints = Hints::new(Some("www.example.co.jp"), Some("ru-RU"));
        assert_eq!(hints.bonus("ja"), HINT_BONUS);
        assert_eq!(hints.bonus("ru"), HINT_BONUS);
        assert_eq!(hints.bonus("fr"), 0);
        assert_eq!(Hints::new(Some("TW"), None).bonus("zh-Hant"), HINT_BONUS);
        assert_eq!(Hints::new(Some("com"), Some("xx")), Hints::default());
        assert_eq!(canonical_language("nb-NO"), Some("no"));
        assert_eq!(canonical_language("zh-HK"), Some("zh-Hant"));
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
