//! Stage 3: verification — decode the bytes with a candidate and measure
//! what comes out.
//!
//! Input: a candidate [`Charset`] and a sample of the bytes (the bounded
//! prefix). Output: a [`Verification`]: how many sequences were malformed and
//! where the first one is, how many decoded characters are implausible in
//! real text (C1 controls, private use, unassigned code points), and for the
//! stateless multibyte encodings whether the round trip (decode, re-encode)
//! gives the same bytes back.
//!
//! A single-byte encoding never fails to decode, so these figures alone
//! cannot tell that EUC-KR bytes are not ISO-8859-1; the pipeline weighs them
//! with the detector's scores.

use crate::classify::{class, Class};

use crate::Charset;

/// What decoding a sample with one candidate gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Verification {
    /// Characters decoded (malformed sequences not counted).
    pub chars: u64,
    /// Of which outside ASCII.
    pub non_ascii: u64,
    /// Malformed byte sequences.
    pub malformed: u64,
    /// Bytes in malformed sequences.
    pub malformed_bytes: u64,
    /// Offset (in the sample) of the first malformed sequence.
    pub first_malformed: Option<u64>,
    /// Decoded C1 control characters (U+0080–U+009F): real text has none,
    /// bytes of another encoding read as ISO-8859-x have many.
    pub c1_controls: u64,
    /// Decoded private-use characters.
    pub private_use: u64,
    /// Decoded code points that Unicode leaves unassigned (and noncharacters).
    pub unassigned: u64,
    /// For stateless multibyte encodings (Shift_JIS, EUC-JP, EUC-KR, GBK,
    /// gb18030, Big5, …): whether re-encoding the decoded text gives the
    /// sample's bytes back. `None` where the question is moot (single-byte
    /// and Unicode encodings map one to one; stateful ones have several
    /// valid encodings of the same text) or the sample had malformed bytes.
    pub round_trip: Option<bool>,
}

impl Verification {
    /// Whether nothing at all is wrong: no malformed sequence, no
    /// implausible character, and no round-trip difference.
    pub fn is_clean(&self) -> bool {
        self.malformed == 0
            && self.c1_controls == 0
            && self.private_use == 0
            && self.unassigned == 0
            && self.round_trip != Some(false)
    }

    /// Characters that real text of this encoding would not contain:
    /// malformed sequences plus C1 controls and unassigned code points.
    /// (Private use is left out: some real text has it, see `font`/PUA.)
    pub fn suspicious(&self) -> u64 {
        self.malformed + self.c1_controls + self.unassigned
    }
}

/// A sample shorter than this is verified byte by byte rather than from
/// its histogram (which takes a pass over all 256 byte values).
const SHORT_SAMPLE: usize = 256;

/// A sample of bytes to verify candidates on, with what all of them share:
/// the count of each byte value, from which a single-byte charset's
/// verification follows without decoding (it decodes each byte alone, so its
/// figures are the sum of each byte value's).
pub(crate) struct Sample<'a> {
    bytes: &'a [u8],
    complete: bool,
    histogram: std::cell::OnceCell<Box<[u64; 256]>>,
    utf8: std::cell::OnceCell<Utf8Scan>,
}

/// The sample read as UTF-8 once, for its verification and for the damage
/// analysis ([`Sample::utf8_invalid`]): legacy text is a malformed sequence
/// every few bytes, slow to find.
struct Utf8Scan {
    verification: Verification,
    invalid: Vec<std::ops::Range<usize>>,
    cut: bool,
}

impl<'a> Sample<'a> {
    /// `complete` says that `bytes` is the whole input, so a sequence cut at
    /// its end is malformed; otherwise it is the start of one that continues.
    pub(crate) fn new(bytes: &'a [u8], complete: bool) -> Sample<'a> {
        Sample {
            bytes,
            complete,
            histogram: std::cell::OnceCell::new(),
            utf8: std::cell::OnceCell::new(),
        }
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The sample's invalid stretches as UTF-8, each a malformed sequence
    /// as [`<[u8]>::utf8_chunks`] delimits them, and whether the last is a
    /// sequence cut by the end of the sample (malformed only if the sample
    /// is the whole input).
    pub(crate) fn utf8_invalid(&self) -> (&[std::ops::Range<usize>], bool) {
        let scan = self.utf8_scan();
        (&scan.invalid, scan.cut)
    }

    fn utf8_scan(&self) -> &Utf8Scan {
        self.utf8.get_or_init(|| scan_utf8(self.bytes, self.complete))
    }

    /// Decodes the sample with `charset` (or, for a single-byte charset,
    /// sums its byte values' figures) and measures the result.
    pub(crate) fn verify(&self, charset: Charset) -> Verification {
        if charset == Charset::Utf8 {
            return self.utf8_scan().verification.clone();
        }
        if !charset.is_single_byte() {
            return decode_and_measure(charset, self.bytes, self.complete);
        }
        let values = byte_values(charset);
        let mut v = Verification::default();
        let mut add = |value: &Verification, count: u64| {
            v.chars += count * value.chars;
            v.non_ascii += count * value.non_ascii;
            v.malformed += count * value.malformed;
            v.malformed_bytes += count * value.malformed_bytes;
            v.c1_controls += count * value.c1_controls;
            v.private_use += count * value.private_use;
            v.unassigned += count * value.unassigned;
        };
        // A short sample byte by byte; a long one by its byte values.
        if self.bytes.len() < SHORT_SAMPLE {
            self.bytes.iter().for_each(|&b| add(&values[usize::from(b)], 1));
        } else {
            let histogram = self.histogram.get_or_init(|| {
                let mut counts = Box::new([0u64; 256]);
                self.bytes.iter().for_each(|&b| counts[usize::from(b)] += 1);
                counts
            });
            for (value, &count) in values.iter().zip(histogram.iter()).filter(|(_, &n)| n > 0) {
                add(value, count);
            }
        }
        if v.malformed > 0 {
            let first = self.bytes.iter().position(|&b| values[usize::from(b)].malformed > 0);
            v.first_malformed = first.map(|at| at as u64);
        }
        v
    }
}

/// The verification of each byte value alone in the single-byte `charset`,
/// measured once per charset by decoding it.
fn byte_values(charset: Charset) -> &'static [Verification; 256] {
    use std::sync::OnceLock;
    type Values = OnceLock<Box<[Verification; 256]>>;
    static VALUES: OnceLock<Box<[Values]>> = OnceLock::new();
    let all = VALUES.get_or_init(|| Charset::ALL.iter().map(|_| OnceLock::new()).collect());
    all[charset as usize].get_or_init(|| {
        Box::new(std::array::from_fn(|b| decode_and_measure(charset, &[b as u8], true)))
    })
}

/// Decodes `sample` with `charset` and measures the result. `complete` says
/// that the sample is the whole input, so a sequence cut at its end is
/// malformed; otherwise it is the start of one that continues.
#[cfg(test)]
pub fn verify(charset: Charset, sample: &[u8], complete: bool) -> Verification {
    Sample::new(sample, complete).verify(charset)
}

/// Reads `sample` as UTF-8 and measures it: its valid stretches are their
/// own text (a BOM is not stripped either way), between malformed
/// sequences as the decoder delimits them. `complete` says that the sample
/// is the whole input, so a sequence cut at its end is malformed.
fn scan_utf8(sample: &[u8], complete: bool) -> Utf8Scan {
    let mut v = Verification::default();
    let (mut invalid, mut cut) = (Vec::new(), false);
    let mut at = 0;
    for (valid, bad) in crate::detect::utf8_chunks(sample) {
        // Legacy text read as UTF-8 is mostly short stretches between
        // malformed bytes, of ASCII (Latin) or nothing (Cyrillic).
        match valid.is_ascii() {
            true => v.chars += valid.len() as u64,
            false => measure(valid, &mut v),
        }
        at += valid.len();
        if bad.is_empty() {
            continue;
        }
        cut = at + bad.len() == sample.len()
            && std::str::from_utf8(bad).is_err_and(|e| e.error_len().is_none());
        if complete || !cut {
            v.malformed += 1;
            v.malformed_bytes += bad.len() as u64;
            v.first_malformed.get_or_insert(at as u64);
        }
        invalid.push(at..at + bad.len());
        at += bad.len();
    }
    Utf8Scan { verification: v, invalid, cut }
}

/// Decodes `sample` with `charset` (not UTF-8: [`scan_utf8`]) and measures
/// the text.
fn decode_and_measure(charset: Charset, sample: &[u8], complete: bool) -> Verification {
    let mut v = Verification::default();
    let mut text = String::new();
    let mut decoder = charset.new_decoder();
    decoder.decode_to_string(sample, &mut text, complete, |_, m| {
        v.malformed += 1;
        v.malformed_bytes += m.len() as u64;
        v.first_malformed.get_or_insert(m.offset);
    });
    measure(&text, &mut v);
    if v.malformed == 0 && round_trip_tells(charset) {
        let (encoded, unmappable) = charset.encode(&text);
        // Bytes of a sequence cut by the end of an incomplete sample are
        // still inside the decoder; at most three of them.
        let pending = sample.len().saturating_sub(encoded.len());
        let allowed_pending = if complete { 0 } else { 3 };
        v.round_trip =
            Some(!unmappable && pending <= allowed_pending && sample.starts_with(&encoded));
    }
    v
}

/// Counts the characters of decoded `text` into `v`, and the implausible ones.
fn measure(text: &str, v: &mut Verification) {
    v.chars += text.chars().count() as u64;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        v.non_ascii += 1;
        if ('\u{80}'..='\u{9F}').contains(&c) {
            v.c1_controls += 1;
        }
        match class(c) {
            Class::PrivateUse => v.private_use += 1,
            Class::Unassigned => v.unassigned += 1,
            _ => {}
        }
    }
}

/// Whether decode-then-encode must give the same bytes back for text in
/// this encoding, so a difference is evidence against it.
fn round_trip_tells(charset: Charset) -> bool {
    !charset.is_single_byte()
        && !charset.is_unicode()
        && !charset.is_stateful()
        && charset != Charset::Replacement
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_in_its_own_encoding() {
        for (charset, text) in [
            (Charset::ShiftJis, "日本語のテキスト、半角ｶﾀｶﾅ"),
            (Charset::EucKr, "한국어 텍스트"),
            (Charset::Gbk, "简体中文文本"),
            (Charset::Big5, "繁體中文文字"),
            (Charset::Windows1251, "Русский текст"),
            (Charset::Utf16Le, "UTF-16 text ✓"),
        ] {
            let bytes = charset.encode(text).0;
            let v = verify(charset, &bytes, true);
            assert!(v.is_clean(), "{charset}: {v:?}");
            assert_eq!(v.chars, text.chars().count() as u64);
            let expected_round_trip =
                (!charset.is_single_byte() && !charset.is_unicode()).then_some(true);
            assert_eq!(v.round_trip, expected_round_trip, "{charset}");
        }
    }

    #[test]
    fn shift_jis_read_as_euc_jp_is_malformed() {
        let bytes = Charset::ShiftJis.encode("これは日本語の文章です。").0;
        let v = verify(Charset::EucJp, &bytes, true);
        assert!(v.malformed > 0);
        assert_eq!(v.first_malformed, Some(0));
        assert_eq!(v.round_trip, None);
    }

    #[test]
    fn windows_1250_read_as_iso_8859_2_shows_c1_controls() {
        let bytes = Charset::Windows1250.encode("Šťastný žluťoučký kůň").0;
        let v = verify(Charset::Iso8859_2, &bytes, true);
        assert_eq!(v.malformed, 0);
        assert!(v.c1_controls >= 2, "{v:?}");
    }

    #[test]
    fn incomplete_sample_is_not_malformed_at_its_end() {
        let bytes = "abc日本".as_bytes();
        let cut = &bytes[..bytes.len() - 1];
        assert_eq!(verify(Charset::Utf8, cut, false).malformed, 0);
        assert_eq!(verify(Charset::Utf8, cut, true).malformed, 1);
        let sjis = Charset::ShiftJis.encode("日本語").0;
        let v = verify(Charset::ShiftJis, &sjis[..sjis.len() - 1], false);
        assert_eq!((v.malformed, v.round_trip), (0, Some(true)));
    }

    #[test]
    fn private_use_and_unassigned() {
        let v = verify(Charset::Utf8, "a\u{E000}\u{FDD0}\u{10FFFF}".as_bytes(), true);
        assert_eq!((v.private_use, v.unassigned), (1, 2));
    }

    proptest::proptest! {
        /// A single-byte charset's verification from the byte values (one
        /// by one in a short sample, by their counts in a long one) is the
        /// one decoding gives.
        #[test]
        fn single_byte_sums_equal_decoding(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..2 * SHORT_SAMPLE),
        ) {
            for &charset in Charset::ALL.iter().filter(|c| c.is_single_byte()) {
                let decoded = decode_and_measure(charset, &bytes, true);
                proptest::prop_assert_eq!(verify(charset, &bytes, true), decoded, "{}", charset);
            }
        }

        /// UTF-8 measured by its valid stretches is UTF-8 decoded.
        #[test]
        fn utf8_stretches_equal_decoding(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![0x00u8..0x80, 0x80u8..0xC0, 0xC0u8..=0xFF], 0..64),
            complete: bool,
        ) {
            let mut text = String::new();
            let mut decoded = Verification::default();
            Charset::Utf8.new_decoder().decode_to_string(&bytes, &mut text, complete, |_, m| {
                decoded.malformed += 1;
                decoded.malformed_bytes += m.len() as u64;
                decoded.first_malformed.get_or_insert(m.offset);
            });
            measure(&text, &mut decoded);
            proptest::prop_assert_eq!(verify(Charset::Utf8, &bytes, complete), decoded);
        }

        #[test]
        fn never_panics(bytes: Vec<u8>, index in 0..Charset::ALL.len(), complete: bool) {
            let charset = Charset::ALL[index];
            let v = verify(charset, &bytes, complete);
            proptest::prop_assert!(v.malformed_bytes <= bytes.len() as u64);
        }
    }

    #[test]
    fn example_verify() {
        use crate::{verify::verify, Charset};
        let bytes = "日本語のテキスト".as_bytes();
        assert_eq!(verify(Charset::Utf8, bytes, true).malformed, 0);
        let as_euc = verify(Charset::EucJp, bytes, true);
        assert!(as_euc.malformed > 0);
        // Every byte is a character in ISO-8859-5, but UTF-8's bytes make C1 controls there.
        assert!(verify(Charset::Iso8859_5, bytes, true).c1_controls > 0);
    }
}
