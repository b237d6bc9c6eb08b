//! Scoring decoded text: every language model at once over a stream of
//! characters. Used for the Unicode readings of bytes (UTF-8, UTF-16,
//! UTF-32) and, through [`plausibility`], for any string.

use super::score::{self, ascii_class, Cursor, GapSums, Gaps, Hints, ASCII_COST, ODD_COST};
use super::tables::{
    CJK_COSTS, FAR_LETTER, FAR_LETTER_EMISSION, MODELS, ODD, OTHER_LETTER, STAY_STEPS_PER_BIT,
    STEPS_PER_BIT, SYMBOL, SYMBOLS, SYMBOL_CLASSES, SYMBOL_COST, SYMBOL_EMISSIONS,
    UNSEEN_LETTER_EMISSION, UNSEEN_SYMBOL_EMISSION, UPPER,
};
use charsight_tables::charfreq;

use crate::lang::CharFreq;

/// A character's class where the symbol table lacks it: the rule the
/// generator applies to the characters it classifies.
fn category(c: char) -> u8 {
    use charsight_tables::detect::FAR_SCRIPTS;
    if c.is_control() || ('\u{E000}'..='\u{F8FF}').contains(&c) || c == '\u{FFFD}' {
        ODD
    } else if c.is_alphabetic() {
        if c >= FAR_SCRIPTS {
            FAR_LETTER
        } else {
            OTHER_LETTER
        }
    } else {
        SYMBOL
    }
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
    /// Plain ASCII characters after plain ASCII ones (charged readings):
    /// each costs its model's `stay`, added in [`TextScorer::best`].
    plain_pairs: u64,
    /// The last character was plain ASCII.
    last_plain: bool,
}

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
            plain_pairs: 0,
            last_plain: false,
        }
    }

    /// Scores the next character.
    pub fn push(&mut self, c: char) {
        if c.is_ascii() {
            return self.push_ascii(c as u8);
        }
        self.last_plain = false;
        // Readings that pay for their own ASCII (UTF-16, UTF-32) drop
        // hopeless models as they go; the others are pruned at checkpoints,
        // where the ASCII skipped is known.
        self.since_prune += 1;
        if self.charge_ascii && self.since_prune == PRUNE_EVERY {
            self.since_prune = 0;
            score::prune(&mut self.cursors, |_, c| u64::from(c.cost), PRUNE_GAP);
        }
        let lower = c.to_lowercase().next().unwrap_or(c);
        let flag = if c.is_uppercase() { UPPER } else { 0 };
        if lower.is_ascii() {
            // İ and the like: their lowercase is an ASCII letter.
            let ascii = if flag == 0 { lower } else { lower.to_ascii_uppercase() };
            return self.push_ascii(ascii as u8);
        }
        let symbol = SYMBOLS.binary_search(&lower).ok();
        let fallback = category(lower);
        let emission = match (symbol, fallback) {
            (Some(s), _) => SYMBOL_EMISSIONS[s],
            (None, OTHER_LETTER) => UNSEEN_LETTER_EMISSION,
            (None, FAR_LETTER) => FAR_LETTER_EMISSION,
            (None, SYMBOL) => UNSEEN_SYMBOL_EMISSION,
            (None, _) => 0,
        };
        let (bigram, cjk) = self.cursors.split_at_mut(MODELS.len());
        for (i, cursor) in bigram.iter_mut().enumerate().filter(|(_, c)| c.alive) {
            let class = symbol.map_or(fallback, |s| SYMBOL_CLASSES[s][i]) | flag;
            cursor.step(&MODELS[i], class, emission);
        }
        // One look-up in the character-frequency table serves every language.
        let known = charfreq::CHARS.binary_search(&u32::from(c)).ok();
        for (column, cursor) in cjk.iter_mut().enumerate().filter(|(_, c)| c.alive) {
            let floor = charfreq::FLOORS[column];
            let cost = known.map_or(u8::MAX, |i| charfreq::COSTS[column][i]);
            cursor.cost += match cost {
                _ if fallback == ODD => ODD_COST,
                u8::MAX if !c.is_alphabetic() => u32::from(SYMBOL_COST.min(floor)),
                u8::MAX => u32::from(floor),
                cost => u32::from(cost),
            };
            cursor.cjk_edge(&CJK_COSTS[column].2, None);
        }
    }

    fn push_ascii(&mut self, b: u8) {
        let class = ascii_class(b);
        let base = match class {
            ODD => 0,
            _ if self.charge_ascii => ASCII_COST,
            _ => 0,
        };
        let (bigram, cjk) = self.cursors.split_at_mut(MODELS.len());
        if self.charge_ascii && class != ODD {
            self.plain_pairs += u64::from(self.last_plain);
        }
        self.last_plain = class != ODD;
        for (model, cursor) in MODELS.iter().zip(bigram).filter(|(_, c)| c.alive) {
            cursor.cost += base;
            cursor.step(model, class, 0);
        }
        for (column, cursor) in cjk.iter_mut().enumerate().filter(|(_, c)| c.alive) {
            cursor.cost += if class == ODD { ODD_COST } else { base };
            cursor.cjk_edge(&CJK_COSTS[column].2, Some(b.is_ascii_alphabetic()));
        }
    }

    /// The language of a cursor.
    fn language(i: usize) -> &'static str {
        match MODELS.get(i) {
            Some(model) => model.language,
            None => CharFreq::ALL[i - MODELS.len()].language(),
        }
    }

    /// The cost of cursor `i`, adjusted for the plain ASCII skipped (`gaps`)
    /// or scored (`plain_pairs`), and for hints.
    fn adjusted(&self, i: usize, cursor: &Cursor, hints: &Hints, gaps: &GapSums) -> u64 {
        let language = Self::language(i);
        let stay = MODELS.get(i).map_or_else(|| CJK_COSTS[i - MODELS.len()].1, |m| m.stay);
        let per_step = u64::from(STAY_STEPS_PER_BIT / u16::from(STEPS_PER_BIT));
        let pairs = self.plain_pairs * u64::from(stay) / per_step;
        score::adjusted(cursor.cost, gaps.cost(stay) + pairs, hints.bonus(language))
    }

    /// The best model (its cost adjusted for the plain ASCII the reading
    /// skipped, `gaps`, and for hints) and its language.
    pub fn best(&self, hints: &Hints, gaps: &GapSums) -> (u64, &'static str) {
        let scored = self.cursors.iter().enumerate().filter(|(_, c)| c.alive);
        let best = scored.map(|(i, c)| (self.adjusted(i, c, hints, gaps), i));
        let (cost, i) = best.min().unwrap_or((0, 0));
        (cost, Self::language(i))
    }

    /// Drops the models more than `gap` behind the best.
    pub fn prune(&mut self, hints: &Hints, gaps: &GapSums, gap: u64) {
        let costs: Vec<u64> = self
            .cursors
            .iter()
            .enumerate()
            .map(|(i, c)| self.adjusted(i, c, hints, gaps))
            .collect();
        score::prune(&mut self.cursors, |i, _| costs[i], gap);
    }
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
/// detector's language models (46 class-bigram models and the CJK
/// character frequencies). For choosing between candidate decodings or
/// repairs of the same bytes.
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
    let (scorer, gaps, scored) = score_text(text);
    if scored == 0 {
        return Plausibility { language: None, bits: 0.0, scored };
    }
    let (cost, language) = scorer.best(&Hints::default(), &gaps);
    let bits = cost as f32 / f32::from(STEPS_PER_BIT);
    Plausibility { language: Some(language), bits, scored }
}

/// Every model over `text` (with a space before and after), the stretches
/// of plain ASCII it skipped, and how many characters it scored.
fn score_text(text: &str) -> (TextScorer, GapSums, usize) {
    let mut scorer = TextScorer::new(false);
    scorer.push(' ');
    let mut scored = 0;
    for c in text.chars() {
        scored += usize::from(!c.is_ascii());
        scorer.push(c);
    }
    scorer.push(' ');
    let mut gaps = Gaps::default();
    let mut plain = 0;
    for c in text.chars() {
        if c.is_ascii() {
            plain += 1;
        } else {
            gaps.add(plain);
            plain = 0;
        }
    }
    (scorer, gaps.sums(), scored)
}

/// The cost of a text under each language's models ([`language_costs`]),
/// for comparing two readings of the same bytes under one language.
#[derive(Clone, Debug, PartialEq)]
pub struct LanguageCosts {
    /// Each language and its cost in bits (the best of its models).
    costs: Vec<(&'static str, f32)>,
    scored: usize,
}

impl LanguageCosts {
    /// The most plausible language and its cost in bits; `None` for pure
    /// ASCII.
    pub fn best(&self) -> Option<(&'static str, f32)> {
        if self.scored == 0 {
            return None;
        }
        self.costs.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The cost in bits under `language` (0 for pure ASCII); `None` for a
    /// language without a model.
    pub fn get(&self, language: &str) -> Option<f32> {
        if self.scored == 0 {
            return Some(0.0);
        }
        self.costs.iter().filter(|(l, _)| *l == language).map(|&(_, c)| c).min_by(f32::total_cmp)
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
    let (scorer, gaps, scored) = score_text(text);
    let hints = Hints::default();
    let mut costs: Vec<(&'static str, f32)> = Vec::with_capacity(scorer.cursors.len());
    for (i, cursor) in scorer.cursors.iter().enumerate() {
        let language = TextScorer::language(i);
        let bits = scorer.adjusted(i, cursor, &hints, &gaps) as f32 / f32::from(STEPS_PER_BIT);
        // Models of one language are mostly next to each other.
        match costs.last_mut() {
            Some((l, c)) if *l == language => *c = c.min(bits),
            _ => costs.push((language, bits)),
        }
    }
    LanguageCosts { costs, scored }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn mojibake_costs_more_than_text() {
        for (text, garbled) in [("Grüße aus Köln", "GrÃ¼ÃŸe aus KÃ¶ln"), ("Привет", "РџСЂРёРІРµС‚")]
        {
            let (a, b) = (plausibility(text), plausibility(garbled));
            assert!(a.bits_per_char() < b.bits_per_char(), "{a:?} {b:?}");
        }
    }

    #[test]
    fn cjk_costs_are_in_charfreq_order() {
        let languages: Vec<&str> = CJK_COSTS.iter().map(|x| x.0).collect();
        assert_eq!(languages, CharFreq::ALL.map(CharFreq::language));
    }

    #[test]
    fn charged_ascii_costs_per_character() {
        let mut scorer = TextScorer::new(true);
        "abcd".chars().for_each(|c| scorer.push(c));
        let (cost, _) = scorer.best(&Hints::default(), &Gaps::default().sums());
        assert!(cost >= u64::from(4 * ASCII_COST), "{cost}");
    }
}
