//! Reading short byte strings (a search keyword, a path segment) in the
//! encodings web forms submit in.
//!
//! Input: a few bytes, some of them non-ASCII, the site's top-level domain
//! and the encodings a site hint favours. Output: a [`ShortGuess`]: the
//! encoding whose reading is likeliest, with the probability that its text
//! is the right one.
//!
//! The scoring is the document detector's ([`crate::detect::Detector`]): the
//! same language models, the same top-level-domain priors and the same
//! softmax (wider when a single-byte reading leads,
//! [`SINGLE_BYTE_TEMPERATURE`]). Of the readings it did not rule out, those
//! in [`CANDIDATES`] stay; a site hint gives the encodings it favours a head
//! start; the readings close to the best are decoded in full and must read
//! without a malformed sequence and encode back to the same bytes (so
//! duplicate mappings drop out); the posterior over what is left, summed
//! over readings that give the same text, is the confidence.
//!
//! Bytes shaped like UTF-8 with pieces cut off (`E4 B8`, or `中` followed by
//! a lone `E4`) have one more reading: UTF-8 with broken pieces, priced by
//! the detector's [`plausibility`](detect::plausibility) of its whole
//! characters plus [`BROKEN_PIECE_BITS`] a piece, against the plausibility
//! of the best clean reading. A truncated escape is damage more often than
//! it is text in another encoding that happens to look like UTF-8.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::detect::{self, Detector};
use crate::Charset;

/// The encodings a web form submits in, the ones short strings are read
/// in: UTF-8; the Western, Central European, Greek, Turkish and Cyrillic
/// pages of Windows and ISO 8859 (ISO-8859-1 and ISO-8859-9 are read as
/// their supersets windows-1252 and windows-1254, as browsers do); KOI8-R
/// and KOI8-U; GBK, Big5, Shift_JIS, EUC-JP and EUC-KR.
pub const CANDIDATES: [Charset; 16] = [
    Charset::Utf8,
    Charset::Windows1252,
    Charset::Iso8859_15,
    Charset::Windows1250,
    Charset::Iso8859_2,
    Charset::Windows1253,
    Charset::Iso8859_7,
    Charset::Windows1254,
    Charset::Windows1251,
    Charset::Koi8R,
    Charset::Koi8U,
    Charset::Gbk,
    Charset::Big5,
    Charset::ShiftJis,
    Charset::EucJp,
    Charset::EucKr,
];

/// The head start, in bits, of the encodings a site hint favours: the
/// detector's for a top-level domain's languages.
const SITE_HINT_BITS: f64 = 12.0;

/// Readings this far behind the best are not decoded: at the detector's
/// temperature they weigh less than 2⁻¹⁶ each.
const WINDOW_BITS: f64 = 24.0;

/// The temperature (bits per halving of probability) of a short string's
/// confidences when its likeliest reading is a single-byte encoding, wider
/// than the documents' ([`detect::TEMPERATURE`], kept for the others): a
/// few letters read in two single-byte encodings differ in a byte or two,
/// and the models overrate that little evidence, most of all on names,
/// stems and abbreviations (`tõkesti` reads as Hungarian `tőkesti` by 12
/// bits). Multibyte readings rest on the structure of their sequences too,
/// and were not overconfident. Chosen on the development keywords, the
/// held-out lines and the Hunspell dictionaries' words together (`xtask
/// url-eval --dev`, `--dictionaries`; `docs/urls.md`): the least of the
/// temperatures 1.5 to 3 in quarters at which the default floor keeps
/// wrong rewrites under 1 in 1,000 (2.0 has 0.2% less log loss and 0.116%
/// wrong).
const SINGLE_BYTE_TEMPERATURE: f64 = 2.25;

/// What a reading pays for each word it makes of ASCII letters and letters
/// of another alphabet (the scripts from Greek to Georgian, U+0370–U+10FF:
/// Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai…) glued
/// together: `caf%E9` read as windows-1251 is `cafй`, as ISO-8859-7
/// `cafι`. Text hardly ever writes such words, while the models, which
/// charge ASCII letters little in any language, price `cafй` only about 9
/// bits above `café`. About what the models charge a symbol no text
/// showed. CJK is not another alphabet here: `iPhone手机` is a common
/// keyword.
const MIXED_WORD_BITS: f64 = 12.0;

/// The words of `text` that glue ASCII letters to letters of another
/// alphabet ([`MIXED_WORD_BITS`]).
fn mixed_words(text: &str) -> usize {
    // The scripts from Greek to Georgian, Cyrillic's supplements and Greek
    // Extended (not `µ`, `ª`, `º`: Latin-1's letters).
    let other = |c: char| matches!(c, '\u{370}'..='\u{10FF}' | '\u{1C80}'..='\u{1C8F}' | '\u{1F00}'..='\u{1FFF}');
    text.split(|c: char| !c.is_alphabetic())
        .filter(|word| word.chars().any(|c| c.is_ascii_alphabetic()) && word.chars().any(other))
        .count()
}

/// The cost of each broken piece of a UTF-8 reading (a truncated sequence
/// or a stray continuation byte): about what two or three characters of a
/// clean reading cost, so that one broken piece loses to a clean reading of
/// a few plausible characters and wins against implausible ones.
const BROKEN_PIECE_BITS: f32 = 12.0;

/// What a reading pays for each no-break space it makes, on top of what
/// the detector's models charge, a space's price (8 bits): a URL component
/// holds no spaces (a form writes `+` or `%20`), and a byte read as a
/// no-break space inside a keyword is most often a letter of another
/// encoding (KOI8-R's `9A` is windows-1250's `š`). About what the models
/// charged before they read it as a space (a symbol no text showed, 11 to
/// 15 bits, and a symbol's pairs around it). Chosen on the development
/// keywords (`xtask url-eval --dev`): 4, 12 and 24 bits give 16,164,
/// 16,181 and 16,192 of 20,607 right (16,192 before), 6 wrong each.
const NO_BREAK_SPACE_BITS: f64 = 12.0;

/// What [`guess`] concluded about a short byte string.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ShortGuess {
    /// The likeliest encoding.
    pub charset: Charset,
    /// Probability, from 0 to 1, that the reading in `charset` is the right
    /// text (readings of other encodings that give the same text count for
    /// it). Pure ASCII gives 1; bytes no candidate reads cleanly give 0.
    pub confidence: f32,
    /// Whether the reading is clean: no malformed sequence, and the round
    /// trip gives the bytes back. When false, `charset` is UTF-8 and the
    /// bytes it does not read are to be kept as they are.
    pub clean: bool,
}

/// Guesses the encoding of a short byte string: a decoded URL component, a
/// keyword, a file name. `tld` is the site's top-level domain (`de`,
/// `example.jp`), a prior as in [`Detector::with_hints`]; `favoured` lists
/// encodings a site hint favours (see [`super::HostHints`]).
///
/// # Example
/// ```
/// use charsight::{url, Charset};
/// // 中文 in GBK, and the same two characters in UTF-8.
/// assert_eq!(url::guess(b"\xD6\xD0\xCE\xC4", None, &[]).charset, Charset::Gbk);
/// assert_eq!(url::guess("中文".as_bytes(), None, &[]).charset, Charset::Utf8);
/// // Москва in windows-1251, München in windows-1252.
/// assert_eq!(url::guess(b"\xCC\xEE\xF1\xEA\xE2\xE0", None, &[]).charset, Charset::Windows1251);
/// assert_eq!(url::guess(b"M\xFCnchen", Some("de"), &[]).charset, Charset::Windows1252);
/// // One character: the site decides.
/// let guess = url::guess(b"\xB0\xA1", Some("kr"), &[]);
/// assert_eq!(guess.charset, Charset::EucKr);
/// ```
pub fn guess(bytes: &[u8], tld: Option<&str>, favoured: &[Charset]) -> ShortGuess {
    guess_where(bytes, tld, favoured, |_| true)
}

/// [`guess`] among the candidates `allowed` accepts.
pub(crate) fn guess_where(
    bytes: &[u8],
    tld: Option<&str>,
    favoured: &[Charset],
    allowed: impl Fn(Charset) -> bool,
) -> ShortGuess {
    if bytes.is_ascii() {
        return ShortGuess { charset: Charset::Utf8, confidence: 1.0, clean: true };
    }
    // The detector's set-up for the candidates is built once, copied.
    static FRESH: std::sync::OnceLock<Detector> = std::sync::OnceLock::new();
    let mut detector = FRESH.get_or_init(|| Detector::only(&CANDIDATES)).clone().hinted(tld, None);
    detector.feed(bytes, true);
    let mut ranked: Vec<(Charset, f64)> = detector
        .guess()
        .candidates
        .iter()
        .filter(|c| CANDIDATES.contains(&c.charset))
        .map(|c| {
            let hint = if favoured.contains(&c.charset) { SITE_HINT_BITS } else { 0.0 };
            (c.charset, f64::from(c.bits_behind) - hint)
        })
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    // The detector may have decided on a prefix: the readings that weigh
    // are read in full.
    let mut readings: Vec<(Charset, f64, Cow<str>)> = Vec::new();
    for (charset, bits) in ranked {
        if readings.first().is_some_and(|best| bits > best.1 + WINDOW_BITS) {
            break;
        }
        if let Some(text) = read_clean(charset, bytes).filter(|_| allowed(charset)) {
            let spaces = text.chars().filter(|&c| detect::is_no_break_space(c)).count();
            let charged =
                NO_BREAK_SPACE_BITS * spaces as f64 + MIXED_WORD_BITS * mixed_words(&text) as f64;
            readings.push((charset, bits + charged, text));
        }
    }
    let mut behind: Vec<f64> = readings.iter().map(|r| r.1 - readings[0].1).collect();
    let mut alike: Vec<usize> =
        readings.iter().map(|r| readings.iter().position(|o| o.2 == r.2).unwrap_or(0)).collect();
    // Broken UTF-8, if the bytes have its shape: last, with a label of its own.
    if shaped_like_broken_utf8(bytes) {
        let clean = readings.first().map_or(0.0, |r| detect::plausibility(&r.2).bits);
        behind.push(f64::from(broken_utf8_cost(bytes) - clean));
        alike.push(readings.len());
    }
    let single_byte = readings.first().is_some_and(|r| r.0.is_single_byte());
    let temperature = if single_byte { SINGLE_BYTE_TEMPERATURE } else { detect::TEMPERATURE };
    let confidences = detect::confidences(&behind, &alike, temperature);
    let best = (0..behind.len()).min_by(|&a, &b| behind[a].total_cmp(&behind[b]));
    match best {
        Some(i) if i < readings.len() => {
            ShortGuess { charset: readings[i].0, confidence: confidences[i], clean: true }
        }
        Some(i) => ShortGuess { charset: Charset::Utf8, confidence: confidences[i], clean: false },
        None => ShortGuess { charset: Charset::Utf8, confidence: 0.0, clean: false },
    }
}

/// The cost in bits of bytes read as UTF-8 with broken pieces: the
/// plausibility of its whole characters, plus [`BROKEN_PIECE_BITS`] for
/// each broken piece.
fn broken_utf8_cost(bytes: &[u8]) -> f32 {
    let mut text = String::new();
    let mut pieces = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            pieces += 1;
            text.push(' ');
        }
    }
    detect::plausibility(&text).bits + BROKEN_PIECE_BITS * pieces as f32
}

/// The text of `bytes` in `charset` when it reads without a malformed
/// sequence and encodes back to the same bytes.
fn read_clean(charset: Charset, bytes: &[u8]) -> Option<Cow<'_, str>> {
    let encoding = whatwg(charset);
    let text = encoding.decode_without_bom_handling_and_without_replacement(bytes)?;
    let round_trip = charset == Charset::Utf8 || *encoding.encode(&text).0 == *bytes;
    round_trip.then_some(text)
}

/// Whether `bytes` look like UTF-8 with pieces cut off: every non-ASCII
/// byte is in a complete sequence, a truncated one (a lead byte and fewer
/// continuation bytes than it needs) or a lone continuation byte, and there
/// is a complete non-ASCII sequence or a truncated one of two bytes or more.
pub(crate) fn shaped_like_broken_utf8(bytes: &[u8]) -> bool {
    let (mut structure, mut broken) = (false, false);
    for chunk in bytes.utf8_chunks() {
        structure |= !chunk.valid().is_ascii();
        broken |= !chunk.invalid().is_empty();
        match *chunk.invalid() {
            [] => {}
            [0x80..=0xBF] => {}
            [lead @ 0xC2..=0xF4, ref rest @ ..]
                if rest.len() < detect::sequence_len(lead)
                    && rest.iter().all(|b| (0x80..=0xBF).contains(b)) =>
            {
                structure |= !rest.is_empty();
            }
            _ => return false,
        }
    }
    structure && broken
}

/// The length of the byte sequence at `pos` of `bytes` that read cleanly
/// in `charset`, told by its first bytes.
pub(crate) fn sequence_len(charset: Charset, bytes: &[u8], pos: usize) -> usize {
    let first = bytes.get(pos).copied().unwrap_or(0);
    match charset {
        _ if first < 0x80 || charset.is_single_byte() => 1,
        Charset::Utf8 => detect::sequence_len(first),
        Charset::Gbk if first == 0x80 => 1,
        Charset::Gbk if bytes.get(pos + 1).is_some_and(u8::is_ascii_digit) => 4,
        Charset::ShiftJis if first == 0x80 || (0xA1..=0xDF).contains(&first) => 1,
        Charset::EucJp if first == 0x8F => 3,
        _ => 2,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check_with(text: &str, charset: Charset, tld: Option<&str>) {
        let (bytes, _, unmappable) = whatwg(charset).encode(text);
        assert!(!unmappable);
        let guess = guess(&bytes, tld, &[]);
        assert_eq!(guess.charset, charset, "{text} in {charset}: {guess:?}");
        assert!(guess.clean);
    }

    fn check(text: &str, charset: Charset) {
        check_with(text, charset, None);
    }

    #[test]
    fn a_few_letters_of_a_single_byte_reading_are_not_certain() {
        use crate::url::DEFAULT_MIN_CONFIDENCE;
        // Estonian `tõkesti` in ISO-8859-15 reads as Hungarian `tőkesti`
        // in windows-1250, 12 bits ahead: not enough to rewrite it.
        let estonian = guess(b"t\xF5kesti", None, &[]);
        assert_eq!(estonian.charset, Charset::Windows1250);
        assert!(estonian.confidence < DEFAULT_MIN_CONFIDENCE, "{estonian:?}");
        // Double-byte readings keep the documents' temperature: 中文.
        let chinese = guess(b"\xD6\xD0\xCE\xC4", None, &[]);
        assert_eq!(chinese.charset, Charset::Gbk);
        assert!(chinese.confidence >= DEFAULT_MIN_CONFIDENCE, "{chinese:?}");
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
        check("Москва", Charset::Windows1251);
        check("straße", Charset::Windows1252);
        check("Αθήνα", Charset::Windows1253);
        check("Kraków", Charset::Windows1250);
        // `š` is `9A`, a no-break space in KOI8-R: no space is in a keyword.
        check_with("Šťastný", Charset::Windows1250, Some("cz"));
        let (bytes, _, _) = whatwg(Charset::Windows1250).encode("taška");
        let g = guess(&bytes, Some("cz"), &[]);
        assert_eq!((g.charset, g.confidence >= 0.99), (Charset::Windows1250, true), "{g:?}");
    }

    #[test]
    fn the_tld_settles_what_the_bytes_leave_open() {
        check_with("Αθήνα", Charset::Windows1253, Some("gr"));
        check_with("İstanbul", Charset::Windows1254, Some("tr"));
        check_with("München", Charset::Windows1252, Some("de"));
        check_with("Москва", Charset::Koi8R, Some("ru"));
    }

    #[test]
    fn gbk_that_is_valid_utf8_is_still_gbk() {
        // 小说 is D0 A1 CB B5 in GBK, which UTF-8 reads as `С˵`.
        check("小说", Charset::Gbk);
    }

    #[test]
    fn ascii_is_certain() {
        assert_eq!(
            guess(b"hello", None, &[]),
            ShortGuess { charset: Charset::Utf8, confidence: 1.0, clean: true }
        );
    }

    #[test]
    fn a_single_character_is_uncertain_without_a_hint() {
        // B0 A1 is 啊 in GBK, 가 in EUC-KR, 亜 in EUC-JP.
        let bare = guess(b"\xB0\xA1", None, &[]);
        assert!(bare.confidence < 0.99, "{bare:?}");
        for (tld, want) in [("cn", Charset::Gbk), ("kr", Charset::EucKr), ("jp", Charset::EucJp)] {
            assert_eq!(guess(b"\xB0\xA1", Some(tld), &[]).charset, want, "{tld}");
        }
        assert_eq!(guess(b"\xB0\xA1", None, &[Charset::Gbk]).charset, Charset::Gbk);
    }

    #[test]
    fn truncated_utf8_is_not_clean() {
        for bytes in
            [&b"\xE4\xB8\xAD\xE6\x96"[..], b"\xE4\xB8", b"\xE4\xB8\xAD\xE4", b"\xE4\xB8\xAD\xAD"]
        {
            let g = guess(bytes, None, &[]);
            assert!(!g.clean, "{bytes:?} {g:?}");
            assert_eq!(g.charset, Charset::Utf8);
        }
    }

    #[test]
    fn broken_utf8_has_a_shape() {
        assert!(shaped_like_broken_utf8(b"\xE4\xB8"));
        assert!(shaped_like_broken_utf8(b"a\xE4\xB8\xAD\xE4"));
        assert!(shaped_like_broken_utf8(b"\xE4\xB8\xAD\x80"));
        assert!(!shaped_like_broken_utf8(b"\xE4"));
        assert!(!shaped_like_broken_utf8(b"M\xFCnchen"));
        assert!(!shaped_like_broken_utf8(b"\xB1\xB1\xBE\xA9"));
        assert!(!shaped_like_broken_utf8(b"\xE4\xB8\xAD"));
    }

    #[test]
    fn a_word_of_two_alphabets_is_an_unlikely_reading() {
        assert_eq!(mixed_words("cafй"), 1);
        assert_eq!(mixed_words("cafι и ok"), 1);
        for text in ["café", "µR", "Москва", "iPhone手机", "Sankt-Петербург", "kàpa"]
        {
            assert_eq!(mixed_words(text), 0, "{text}");
        }
        // `caf%E9` is not `cafй` (windows-1251) nor `cafι` (ISO-8859-7).
        let g = guess(b"caf\xE9", None, &[]);
        assert_eq!(g.charset.decode(b"caf\xE9").0, "café");
        assert!(g.confidence >= 0.99, "{g:?}");
    }

    #[test]
    fn identical_readings_share_their_confidence() {
        // Hiragana are the same bytes in GBK and EUC-JP.
        let g = guess("ひらがな".as_bytes(), None, &[]);
        assert_eq!(g.charset, Charset::Utf8);
        let (bytes, _, _) = encoding_rs::EUC_JP.encode("ひらがな");
        let g = guess(&bytes, None, &[]);
        assert_eq!(Charset::EucJp.decode(&bytes).0, "ひらがな");
        assert!(g.confidence > 0.9, "{g:?}");
    }

    #[test]
    fn a_long_component_is_read_in_linear_time() {
        // 524,000 times 本 in GBK: over a megabyte (issue 25).
        let bytes = b"\xB1\xBE".repeat(524_000);
        let started = std::time::Instant::now();
        let g = guess(&bytes, None, &[]);
        assert!(g.clean);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        for bytes in [&b"\x80"[..], b"\xFF\xFE", b"\x81\x30\x81\x30", b"\x8E", b"\xA1\x40\x5C"] {
            let g = guess(bytes, None, &[]);
            assert!((0.0..=1.0).contains(&g.confidence), "{bytes:?} {g:?}");
        }
    }
}
