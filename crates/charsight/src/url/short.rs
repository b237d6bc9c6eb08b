//! Scoring short byte strings (a search keyword, a path segment) in the six
//! encodings of CJK web text: UTF-8, GBK, Big5, Shift_JIS, EUC-JP, EUC-KR.
//!
//! Input: a few bytes, some of them non-ASCII, and the encodings a site hint
//! favours. Output: a [`ShortGuess`]: the encoding whose reading is likeliest,
//! with the probability that its text is the right one.
//!
//! Each encoding's reading is judged in three steps:
//!
//! 1. legality: the bytes decode without a malformed sequence;
//! 2. the round trip: the text encodes back to the same bytes (so duplicate
//!    mappings, JIS X 0212 and HKSCS-only readings drop out);
//! 3. plausibility: the cost of the text, in bits, under a unigram model of
//!    the encoding's language ([`crate::lang::CharFreq`]): Simplified Chinese
//!    for GBK, Traditional for Big5, Japanese for Shift_JIS and EUC-JP, Korean
//!    for EUC-KR. UTF-8 can carry any language: its reading costs what the
//!    cheapest language says, or, for letters of alphabetic scripts, a small
//!    generic model that penalises one-letter words and script changes (the
//!    marks of legacy bytes that happen to be valid UTF-8).
//!
//! A prior per encoding, lowered for encodings the site's top-level domain
//! favours, is added; the posterior over the clean readings is the
//! confidence. When no reading is clean, the one with the fewest malformed
//! bytes (then the cheapest) is chosen and the confidence is capped at one
//! half.

use std::borrow::Cow;

use encoding_rs::{DecoderResult, Encoding};

use crate::lang::{self, CharFreq};
use crate::Charset;

/// The encodings short strings are scored in, most common on the web first.
pub const CANDIDATES: [Charset; 6] =
    [Charset::Utf8, Charset::Gbk, Charset::Big5, Charset::ShiftJis, Charset::EucJp, Charset::EucKr];

/// Prior cost in bits of each candidate (in the order of [`CANDIDATES`]):
/// UTF-8 is the commonest, EUC-JP the rarest on today's web.
const PRIOR_BITS: [f32; 6] = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0];

/// How much a site hint lowers the cost of the encodings it favours: this
/// much, plus [`HINT_SHORT_BITS`] divided by the number of non-ASCII
/// characters of the reading, so that for one character the site decides.
const HINT_BITS: f32 = 8.0;

/// See [`HINT_BITS`].
const HINT_SHORT_BITS: f32 = 16.0;

/// The cost of a malformed byte sequence (or of a failed round trip).
const MALFORMED_BITS: f32 = 32.0;

/// How much the model's cost differences are flattened before they become
/// probabilities: a unigram model is overconfident.
const TEMPERATURE: f32 = 2.0;

/// The cost of a change between two scripts that real text does not mix
/// (half-width katakana next to other CJK, hangul next to kana, letters of
/// two alphabets).
const SCRIPT_CHANGE_BITS: f32 = 10.0;

/// Readings this close to the best one get their round trip checked, since
/// they weigh in the confidence (at [`TEMPERATURE`] 2, 24 bits weigh 1/4096).
const ROUND_TRIP_WINDOW_BITS: f32 = 24.0;

/// The extra cost of a character after another when the pair is not among
/// the language's common ones.
const BACKOFF_BITS: f32 = 2.0;

/// The least a character costs after another.
const MIN_GIVEN_BITS: f32 = 0.5;

/// The cost of a character that real text does not carry in a URL: C1
/// controls, private use, noncharacters, the replacement character.
const ODD_BITS: f32 = 24.0;

/// The most a reading with malformed bytes can be trusted.
const MALFORMED_CONFIDENCE: f32 = 0.5;

/// What [`guess`] concluded about a short byte string.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ShortGuess {
    /// The likeliest encoding.
    pub charset: Charset,
    /// Probability, from 0 to 1, that the reading in `charset` is the right
    /// text (readings of other encodings that give the same text count for
    /// it). Pure ASCII gives 1.
    pub confidence: f32,
    /// Whether the reading is clean: no malformed sequence, and the round
    /// trip gives the bytes back.
    pub clean: bool,
}

/// The encodings a top-level domain favours (`cn` → GBK, `tw`, `hk`, `mo` →
/// Big5, `jp` → Shift_JIS and EUC-JP, `kr` → EUC-KR), compared
/// case-insensitively, with or without a leading dot; empty for the others.
///
/// # Example
/// ```
/// use charsight::{url, Charset};
/// assert_eq!(url::tld_hint("JP"), [Charset::ShiftJis, Charset::EucJp]);
/// assert!(url::tld_hint("com").is_empty());
/// ```
pub fn tld_hint(tld: &str) -> &'static [Charset] {
    let tld = tld.strip_prefix('.').unwrap_or(tld);
    let is = |name: &str| tld.eq_ignore_ascii_case(name);
    if is("cn") {
        &[Charset::Gbk]
    } else if is("tw") || is("hk") || is("mo") {
        &[Charset::Big5]
    } else if is("jp") {
        &[Charset::ShiftJis, Charset::EucJp]
    } else if is("kr") {
        &[Charset::EucKr]
    } else {
        &[]
    }
}

/// Guesses the encoding of a short byte string: a decoded URL component, a
/// keyword, a file name. `favoured` lists encodings a site hint favours
/// (see [`tld_hint`]).
///
/// # Example
/// ```
/// use charsight::{url, Charset};
/// // 中文 in GBK, and the same two characters in UTF-8.
/// assert_eq!(url::guess(b"\xD6\xD0\xCE\xC4", &[]).charset, Charset::Gbk);
/// assert_eq!(url::guess("中文".as_bytes(), &[]).charset, Charset::Utf8);
/// // One character: the site decides.
/// let guess = url::guess(b"\xB0\xA1", url::tld_hint("kr"));
/// assert_eq!(guess.charset, Charset::EucKr);
/// ```
pub fn guess(bytes: &[u8], favoured: &[Charset]) -> ShortGuess {
    if bytes.is_ascii() {
        return ShortGuess { charset: Charset::Utf8, confidence: 1.0, clean: true };
    }
    let mut readings = CANDIDATES.map(|charset| Reading::new(charset, bytes));
    for reading in readings.iter_mut().filter(|r| r.malformed == 0) {
        reading.score(favoured);
    }
    // The round trip is slow in the legacy encoders: it is checked for the
    // best reading until one passes, then for those close enough to it to
    // weigh in the confidence.
    let by_cost = |a: &&Reading, b: &&Reading| a.cost.total_cmp(&b.cost).then(a.rank.cmp(&b.rank));
    loop {
        let best = readings.iter().min_by(by_cost).expect("six candidates");
        if !best.cost.is_finite() || !readings[best.rank].round_trip(bytes) {
            break;
        }
    }
    // A malformed reading costs at least one malformed sequence, its prior
    // and its hint: it is read in full and scored only if that could beat
    // the best clean one.
    let best_clean = readings.iter().map(|r| r.cost).fold(f32::INFINITY, f32::min);
    for reading in readings.iter_mut().filter(|r| !r.cost.is_finite()) {
        let hint =
            if favoured.contains(&reading.charset) { HINT_BITS + HINT_SHORT_BITS } else { 0.0 };
        if MALFORMED_BITS + PRIOR_BITS[reading.rank] - hint <= best_clean {
            reading.read_malformed(bytes);
            reading.score(favoured);
        }
    }
    let best_cost = readings.iter().map(|r| r.cost).fold(f32::INFINITY, f32::min);
    for reading in readings.iter_mut().filter(|r| r.cost <= best_cost + ROUND_TRIP_WINDOW_BITS) {
        reading.round_trip(bytes);
    }
    let best = readings.iter().min_by(by_cost).expect("six candidates");
    let clean = best.malformed == 0;
    let weight = |r: &Reading| ((best.cost - r.cost) / TEMPERATURE).exp2();
    let total: f32 = readings.iter().map(weight).sum();
    let same: f32 = readings.iter().filter(|r| r.text == best.text).map(weight).sum();
    let mut confidence = same / total;
    if !clean {
        confidence = confidence.min(MALFORMED_CONFIDENCE);
    }
    ShortGuess { charset: best.charset, confidence, clean }
}

/// One encoding's reading of the bytes.
struct Reading<'a> {
    charset: Charset,
    rank: usize,
    text: Cow<'a, str>,
    /// Malformed sequences, plus one if the round trip fails.
    malformed: usize,
    /// Whether the round trip has been checked (or needs no check).
    checked: bool,
    /// Prior plus the text's cost, in bits; infinite for a malformed
    /// reading that cannot beat the best clean one, left unscored.
    cost: f32,
}

impl<'a> Reading<'a> {
    /// Decodes the bytes; the reading is not scored yet. A malformed
    /// reading is only marked as such (one malformed sequence at least):
    /// [`Reading::read_malformed`] reads it in full when it is needed.
    fn new(charset: Charset, bytes: &'a [u8]) -> Reading<'a> {
        let rank = CANDIDATES.iter().position(|&c| c == charset).unwrap_or(0);
        let decoded = whatwg(charset).decode_without_bom_handling_and_without_replacement(bytes);
        let malformed = usize::from(decoded.is_none());
        // UTF-8 always round-trips; a malformed reading has nothing to check.
        let checked = malformed > 0 || charset == Charset::Utf8;
        let text = decoded.unwrap_or_default();
        Reading { charset, rank, text, malformed, checked, cost: f32::INFINITY }
    }

    /// Reads a malformed reading in full, each malformed sequence as U+FFFD,
    /// and counts them.
    fn read_malformed(&mut self, bytes: &[u8]) {
        let mut decoder = whatwg(self.charset).new_decoder_without_bom_handling();
        let mut text = String::with_capacity(bytes.len() * 3 + 4);
        let mut malformed = 0;
        let mut src = bytes;
        loop {
            let (result, read) = decoder.decode_to_string_without_replacement(src, &mut text, true);
            src = &src[read..];
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => text.reserve(src.len() * 3 + 4),
                DecoderResult::Malformed(..) => {
                    malformed += 1;
                    text.push('\u{FFFD}');
                }
            }
        }
        self.text = Cow::Owned(text);
        self.malformed = malformed;
    }

    /// Prices the text, with the prior and the site hint.
    fn score(&mut self, favoured: &[Charset]) {
        self.cost = PRIOR_BITS[self.rank]
            + text_cost(self.charset, &self.text)
            + MALFORMED_BITS * self.malformed as f32;
        if favoured.contains(&self.charset) {
            let non_ascii = self.text.chars().filter(|c| !c.is_ascii()).count().max(1);
            self.cost -= HINT_BITS + HINT_SHORT_BITS / non_ascii as f32;
        }
    }

    /// Checks the round trip if not yet done; a failure counts as a
    /// malformed sequence. Returns whether the check failed.
    fn round_trip(&mut self, bytes: &[u8]) -> bool {
        if std::mem::replace(&mut self.checked, true) {
            return false;
        }
        let failed = *whatwg(self.charset).encode(&self.text).0 != *bytes;
        if failed {
            self.malformed += 1;
            self.cost += MALFORMED_BITS;
        }
        failed
    }
}

/// The `encoding_rs` encoding a candidate is decoded with: GBK through
/// gb18030, its superset, so four-byte sequences are read too.
pub(crate) fn whatwg(charset: Charset) -> &'static Encoding {
    match charset {
        Charset::Gbk => encoding_rs::GB18030,
        other => other.to_encoding_rs().unwrap_or(encoding_rs::UTF_8),
    }
}

/// The language of a legacy candidate's text.
fn language(charset: Charset) -> Option<CharFreq> {
    let tag = match charset {
        Charset::Gbk => "zh-Hans",
        Charset::Big5 => "zh-Hant",
        Charset::ShiftJis | Charset::EucJp => "ja",
        Charset::EucKr => "ko",
        _ => return None,
    };
    CharFreq::ALL.into_iter().find(|f| f.language() == tag)
}

/// The cost in bits of a reading's text.
fn text_cost(charset: Charset, text: &str) -> f32 {
    // Each character's place in the tables, found once for every language;
    // on the stack for the short strings this is for.
    let mut stack = [('\0', None); 32];
    let mut heap = Vec::new();
    let n = text.chars().count();
    let chars: &mut [(char, Option<usize>)] = if n <= stack.len() {
        &mut stack[..n]
    } else {
        heap.resize(n, ('\0', None));
        &mut heap
    };
    for (slot, c) in chars.iter_mut().zip(text.chars()) {
        *slot = (c, if c.is_ascii() { None } else { lang::index(c) });
    }
    let chars = &*chars;
    let cost = match language(charset) {
        // A legacy encoding's reading: its language's costs, the floor for
        // anything its text did not show (Greek letters in EUC-KR, …).
        Some(lang) => language_cost(lang, chars, |_| f32::from(lang.floor()) / STEPS),
        None => utf8_cost(chars),
    };
    cost + script_penalties(text)
}

/// Steps of a quantised cost per bit.
const STEPS: f32 = CharFreq::STEPS_PER_BIT as f32;

/// The cost of a text in a language: each non-ASCII character's cost given
/// the one before it where the pair is a common one, else its own cost plus
/// [`BACKOFF_BITS`]; `unknown` prices characters without a cost.
fn language_cost(
    lang: CharFreq,
    chars: &[(char, Option<usize>)],
    unknown: impl Fn(char) -> f32,
) -> f32 {
    let single = |c: char, index: Option<usize>| {
        if c.is_ascii() {
            ascii_cost(c)
        } else if is_odd(c) {
            ODD_BITS
        } else {
            match index.and_then(|i| lang.cost_at(i)) {
                Some(cost) => f32::from(cost) / STEPS,
                None => unknown(c),
            }
        }
    };
    let mut total = 0.0;
    let mut previous: Option<(Option<usize>, f32)> = None;
    for &(c, index) in chars {
        let own = single(c, index);
        total += match previous {
            Some((first, cost_first)) if !c.is_ascii() => {
                match first.and_then(|first| lang.pair_at(first, c)) {
                    Some(joint) => (f32::from(joint) / STEPS - cost_first).max(MIN_GIVEN_BITS),
                    None => own + BACKOFF_BITS,
                }
            }
            _ => own,
        };
        previous = (!c.is_ascii()).then_some((index, own));
    }
    total
}

/// The cost of a UTF-8 reading: the cheapest of the CJK languages its
/// characters fit (characters outside them priced by the generic model) and
/// the generic model alone, plus the two bits of choosing among them.
fn utf8_cost(chars: &[(char, Option<usize>)]) -> f32 {
    let generic: f32 = chars.iter().map(|&(c, _)| generic_cost(c)).sum();
    let (mut kana, mut hangul, mut han) = (false, false, false);
    for &(c, _) in chars.iter().filter(|(c, _)| !c.is_ascii()) {
        match script(c) {
            Script::Kana | Script::HalfwidthKana => kana = true,
            Script::Hangul => hangul = true,
            Script::Han | Script::CjkSymbol => han = true,
            _ => {}
        }
    }
    // Kana only in Japanese, hangul only in Korean; Han alone in any.
    let fits = |lang: &CharFreq| match lang.language() {
        "ja" => kana || (han && !hangul),
        "ko" => hangul || (han && !kana),
        _ => han && !kana && !hangul,
    };
    let cheapest = CharFreq::ALL
        .iter()
        .filter(|lang| fits(lang))
        .map(|&lang| {
            language_cost(lang, chars, |c| {
                if is_cjk(c) {
                    f32::from(lang.floor()) / STEPS
                } else {
                    generic_cost(c)
                }
            })
        })
        .fold(generic, f32::min);
    cheapest + 2.0
}

/// Han, kana, hangul, CJK punctuation and full-width forms.
fn is_cjk(c: char) -> bool {
    matches!(
        script(c),
        Script::Han | Script::Kana | Script::HalfwidthKana | Script::Hangul | Script::CjkSymbol
    )
}

/// Readings in the wrong encoding mix scripts that real text keeps apart
/// (half-width katakana among kanji, Greek next to Arabic) and make words of
/// one letter; real text does neither.
fn script_penalties(text: &str) -> f32 {
    /// A word of one letter of an alphabetic script.
    const ONE_LETTER_BITS: f32 = 8.0;
    let mut penalty = 0.0;
    let (mut run, mut run_non_ascii) = (0, false);
    let mut previous: Option<Script> = None;
    for c in text.chars().chain(['\0']) {
        let script = (!c.is_ascii()).then(|| script(c));
        if let (Some(a), Some(b)) = (previous, script) {
            if !a.mixes_with(b) {
                penalty += SCRIPT_CHANGE_BITS;
            }
        }
        if script.is_some_and(Script::is_alphabetic) || c.is_ascii_alphanumeric() {
            run += 1;
            run_non_ascii |= !c.is_ascii();
        } else {
            if run == 1 && run_non_ascii {
                penalty += ONE_LETTER_BITS;
            }
            (run, run_non_ascii) = (0, false);
        }
        previous = script;
    }
    penalty
}

/// Broad script classes, enough to see a change of script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Indic,
    Han,
    Kana,
    HalfwidthKana,
    Hangul,
    CjkSymbol,
    Symbol,
    Other,
}

impl Script {
    fn is_alphabetic(self) -> bool {
        use Script::*;
        matches!(self, Latin | Greek | Cyrillic | Hebrew | Arabic | Indic)
    }

    /// Whether real text puts these two scripts side by side.
    fn mixes_with(self, other: Script) -> bool {
        use Script::*;
        let east_asian = |s| matches!(s, Han | Kana | Hangul | CjkSymbol);
        self == other
            || (east_asian(self)
                && east_asian(other)
                && !matches!((self, other), (Kana, Hangul) | (Hangul, Kana)))
            || matches!((self, other), (Symbol, _) | (_, Symbol)) && self != Other && other != Other
    }
}

fn script(c: char) -> Script {
    match u32::from(c) {
        0xD7 | 0xF7 => Script::Symbol,
        0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F => Script::Arabic,
        0x900..=0xDFF => Script::Indic,
        0x3040..=0x30FF | 0x31F0..=0x31FF => Script::Kana,
        0xFF61..=0xFF9F => Script::HalfwidthKana,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF => Script::Hangul,
        0x2E80..=0x2FFF
        | 0x3100..=0x312F
        | 0x3190..=0x31EF
        | 0x3200..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3FFFF => Script::Han,
        0x3000..=0x303F | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF => Script::CjkSymbol,
        0x80..=0xBF | 0x2000..=0x2BFF => Script::Symbol,
        _ => Script::Other,
    }
}

/// Characters real text does not carry in a URL.
fn is_odd(c: char) -> bool {
    matches!(u32::from(c), 0x80..=0x9F | 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFF0..=0xFFFF
        | 0xF0000..)
        || (u32::from(c) & 0xFFFE) == 0xFFFE
}

/// Generic costs outside the CJK tables: the core letters of alphabetic
/// scripts are cheap, their rarer extensions and symbols dearer.
fn generic_cost(c: char) -> f32 {
    if c.is_ascii() {
        return ascii_cost(c);
    }
    if is_odd(c) {
        return ODD_BITS;
    }
    match u32::from(c) {
        0xC0..=0xFF | 0x386..=0x3CE | 0x400..=0x45F | 0x5D0..=0x5EA | 0x621..=0x64A => 6.0,
        0x100..=0x17F | 0x900..=0xDFF | 0x1E00..=0x1EFF => 8.0,
        0x300..=0x36F | 0x460..=0x52F | 0x590..=0x5FF | 0x600..=0x6FF => 13.0,
        0x180..=0x2FF | 0x370..=0x3FF | 0x2000..=0x2BFF => 15.0,
        _ => 16.0,
    }
}

/// ASCII costs the same in every reading, except where a multi-byte
/// character of one encoding swallows it as a trail byte.
fn ascii_cost(c: char) -> f32 {
    if c.is_ascii_alphanumeric() {
        5.0
    } else if c == ' ' {
        6.0
    } else {
        9.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, charset: Charset) {
        let (bytes, _, unmappable) = whatwg(charset).encode(text);
        assert!(!unmappable);
        let guess = guess(&bytes, &[]);
        assert_eq!(guess.charset, charset, "{text} in {charset}: {guess:?}");
        assert!(guess.clean);
    }

    #[test]
    fn keywords_in_each_encoding() {
        check("中文", Charset::Gbk);
        check("北京天气", Charset::Gbk);
        check("繁體中文", Charset::Big5);
        check("日本語", Charset::ShiftJis);
        check("東京都の天気", Charset::EucJp);
        check("한국어", Charset::EucKr);
        check("中文", Charset::Utf8);
        check("Москва", Charset::Utf8);
        check("café", Charset::Utf8);
    }

    #[test]
    fn gbk_that_is_valid_utf8_is_still_gbk() {
        // 小 is D0 A1 in GBK, which UTF-8 reads as the Cyrillic letter С.
        check("小", Charset::Gbk);
    }

    #[test]
    fn ascii_is_certain() {
        assert_eq!(
            guess(b"hello", &[]),
            ShortGuess { charset: Charset::Utf8, confidence: 1.0, clean: true }
        );
    }

    #[test]
    fn a_single_character_is_uncertain_without_a_hint() {
        // B0 A1 is 啊 in GBK, 가 in EUC-KR, 亜 in EUC-JP.
        let bare = guess(b"\xB0\xA1", &[]);
        assert!(bare.confidence < 0.9, "{bare:?}");
        for (tld, want) in [("cn", Charset::Gbk), ("kr", Charset::EucKr), ("jp", Charset::EucJp)] {
            assert_eq!(guess(b"\xB0\xA1", tld_hint(tld)).charset, want, "{tld}");
        }
    }

    #[test]
    fn truncated_utf8_is_not_clean() {
        let g = guess(b"\xE4\xB8\xAD\xE6\x96", &[]);
        assert!(!g.clean);
        assert!(g.confidence <= MALFORMED_CONFIDENCE);
    }

    #[test]
    fn identical_readings_share_their_confidence() {
        // Hiragana are the same bytes in GBK and EUC-JP.
        let g = guess("ひらがな".as_bytes(), &[]);
        assert_eq!(g.charset, Charset::Utf8);
        let (bytes, _, _) = encoding_rs::EUC_JP.encode("ひらがな");
        let g = guess(&bytes, &[]);
        assert_eq!(Charset::EucJp.decode(&bytes).0, "ひらがな");
        assert!(g.confidence > 0.9, "{g:?}");
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        for bytes in [&b"\x80"[..], b"\xFF\xFE", b"\x81\x30\x81\x30", b"\x8E", b"\xA1\x40\x5C"] {
            let g = guess(bytes, &[]);
            assert!((0.0..=1.0).contains(&g.confidence), "{bytes:?} {g:?}");
        }
    }
}
