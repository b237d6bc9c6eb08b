//! Runs of UTF-8 hidden in the bytes of other text: the common core of the
//! `mojibake` repair (characters re-encoded in the encoding they were wrongly
//! read in) and of the `mixed` repair of legacy documents (the document's
//! own bytes).
//!
//! Input: a sequence of *units* (characters), each with its bytes. Output:
//! the maximal stretches of units whose bytes form valid UTF-8, cut only
//! where a unit boundary and a UTF-8 sequence boundary meet. UTF-8 validity
//! over several bytes is what makes such a stretch stand out: by chance, the
//! bytes of real text in a legacy encoding rarely line up as UTF-8.

use std::ops::Range;

/// The bytes of a sequence of units, each unit's bytes contiguous.
#[derive(Clone, Debug)]
pub(crate) struct Units {
    bytes: Vec<u8>,
    /// Where each unit starts, then the end of the last.
    starts: Vec<usize>,
}

impl Units {
    /// Room for `bytes` bytes in units of two bytes or more, without
    /// growing.
    pub(crate) fn with_capacity(bytes: usize) -> Units {
        let mut starts = Vec::with_capacity(bytes / 2 + 1);
        starts.push(0);
        Units { bytes: Vec::with_capacity(bytes), starts }
    }

    /// Adds a unit.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
        self.starts.push(self.bytes.len());
    }

    /// Removes every unit.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.starts.truncate(1);
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The bytes of units `range`.
    pub(crate) fn bytes(&self, range: Range<usize>) -> &[u8] {
        &self.bytes[self.starts[range.start]..self.starts[range.end]]
    }

    /// The maximal stretches of units whose bytes are valid UTF-8, left to
    /// right. Every unit should hold a byte above 0x7F, so that each
    /// stretch holds a multibyte sequence.
    pub(crate) fn utf8_runs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let (bytes, starts) = (&self.bytes, &self.starts);
        let mut unit = 0;
        std::iter::from_fn(move || {
            while unit < self.len() {
                // The sequences from the unit's first byte on, and the last
                // unit boundary they end on. (A unit after it whose first
                // byte is inside one of them starts no sequence: UTF-8
                // tells a sequence's first byte from the others. So every
                // byte is read at most twice.)
                let (mut at, mut next, mut end) = (starts[unit], unit + 1, None);
                while let Some(len) = sequence_len(&bytes[at..]) {
                    at += len;
                    while starts[next] < at {
                        next += 1;
                    }
                    if starts[next] == at {
                        end = Some(next);
                    }
                }
                let start = unit;
                match end {
                    Some(end) => {
                        unit = end;
                        return Some(start..end);
                    }
                    None => unit += 1,
                }
            }
            None
        })
    }
}

/// Whether `bytes` hold a valid multibyte UTF-8 sequence (or a surrogate
/// pair, [`surrogate_pair`]) anywhere: every stretch of units
/// [`Units::utf8_runs`] finds holds one. Found where a lead byte and a
/// continuation byte meet ([`opens_sequence`], at vector speed), which
/// legacy text has often where it holds no whole sequence (in windows-1251
/// a small letter before `ё` or `»` is a lead byte needing two continuation
/// bytes, and what follows is no second one).
pub(crate) fn holds_multibyte(bytes: &[u8]) -> bool {
    let mut at = 0;
    while let Some(found) =
        bytes.get(at..).and_then(|rest| crate::pairs::first_pair(rest, 0xC2, opens_sequence))
    {
        at += found;
        if sequence_len(&bytes[at..]).is_some_and(|len| len > 1) {
            return true;
        }
        at += 1;
    }
    false
}

/// The length of the valid UTF-8 sequence `bytes` starts with, if any; a
/// surrogate pair written as two three-byte sequences ([`surrogate_pair`])
/// counts as one of six bytes.
fn sequence_len(bytes: &[u8]) -> Option<usize> {
    let (&first, rest) = bytes.split_first()?;
    // The sequence's length, and the range of its second byte (the others
    // are continuation bytes), as RFC 3629 has them.
    let (len, second) = match first {
        0..=0x7F => return Some(1),
        0xC2..=0xDF => (2, 0x80..=0xBF),
        0xE0 => (3, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
        // A surrogate pair's first byte is `ED`.
        0xED if surrogate_pair(bytes).is_some() => return Some(6),
        0xED => (3, 0x80..=0x9F),
        0xF0 => (4, 0x90..=0xBF),
        0xF1..=0xF3 => (4, 0x80..=0xBF),
        0xF4 => (4, 0x80..=0x8F),
        _ => return None,
    };
    let (&next, others) = rest.get(..len - 1)?.split_first()?;
    (second.contains(&next) && others.iter().all(|&b| b & 0xC0 == 0x80)).then_some(len)
}

/// Whether `lead` and the byte after it, `next`, may start a multibyte
/// sequence, as far as two bytes tell: a lead byte and a continuation
/// byte. Every multibyte sequence starts so, and most legacy text has no
/// such pair. (Without short-circuits, so that scans test it on vectors.)
pub(crate) fn opens_sequence(lead: u8, next: u8) -> bool {
    (lead.wrapping_sub(0xC2) <= 0xF4 - 0xC2) & (next & 0xC0 == 0x80)
}

/// The character of the surrogate pair `bytes` starts with, written as two
/// three-byte sequences: CESU-8, as Oracle's `UTF8`, Java's modified UTF-8
/// and JSON escapes (`\ud83d\ude00`) decoded one by one write characters
/// beyond U+FFFF. Not UTF-8, and no other encoding's text forms it by
/// chance.
pub(crate) fn surrogate_pair(bytes: &[u8]) -> Option<char> {
    let b = bytes.get(..6)?;
    if !fits_pair(b) {
        return None;
    }
    // The ten bits of each half: four from the second byte, six from the
    // third.
    let high = (u32::from(b[1] & 0x0F) << 6) | u32::from(b[2] & 0x3F);
    let low = (u32::from(b[4] & 0x0F) << 6) | u32::from(b[5] & 0x3F);
    char::from_u32(0x10000 + (high << 10) + low)
}

/// Whether `bytes` (up to six) are a surrogate pair's bytes, or the start
/// of them: a high half `ED A0–AF 80–BF`, then a low one `ED B0–BF 80–BF`.
fn fits_pair(bytes: &[u8]) -> bool {
    const PAIR: [std::ops::RangeInclusive<u8>; 6] =
        [0xED..=0xED, 0xA0..=0xAF, 0x80..=0xBF, 0xED..=0xED, 0xB0..=0xBF, 0x80..=0xBF];
    bytes.len() <= PAIR.len() && bytes.iter().zip(&PAIR).all(|(b, r)| r.contains(b))
}

/// UTF-8 `bytes`, with [`surrogate_pair`]s as their characters and any
/// other malformed sequence as U+FFFD.
pub(crate) fn decode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        let (valid, error) = match std::str::from_utf8(rest) {
            Ok(text) => (text, None),
            Err(e) => (
                std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
                Some(e.error_len().unwrap_or(rest.len() - e.valid_up_to())),
            ),
        };
        out.push_str(valid);
        rest = &rest[valid.len()..];
        let Some(len) = error else { break };
        match surrogate_pair(rest) {
            Some(c) => {
                out.push(c);
                rest = &rest[6..];
            }
            None => {
                out.push('\u{FFFD}');
                rest = &rest[len..];
            }
        }
    }
    out
}

/// Whether `bytes` are UTF-8 but for one or more [`surrogate_pair`]s (and
/// maybe one cut short at the end).
pub(crate) fn is_utf8_with_surrogate_pairs(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    let mut pairs = 0;
    loop {
        let at = match std::str::from_utf8(rest) {
            Ok(_) => return pairs > 0,
            Err(e) => e.valid_up_to(),
        };
        rest = &rest[at..];
        if surrogate_pair(rest).is_some() {
            pairs += 1;
            rest = &rest[6..];
        } else {
            return rest.len() < 6 && fits_pair(rest) && pairs > 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(list: &[&[u8]]) -> Units {
        let mut u = Units::with_capacity(0);
        list.iter().for_each(|b| u.push(b));
        u
    }

    #[test]
    fn a_whole_multibyte_sequence_is_held_anywhere() {
        assert!(!holds_multibyte(b""));
        assert!(!holds_multibyte(b"plain ASCII"));
        // Lead bytes and one continuation byte where two or three are due
        // (windows-1251 `\xE5\xB8 ` is `\u{0435}\u{0451} `), a lone
        // surrogate half, a lead byte at the end.
        assert!(!holds_multibyte(b"\xE5\xB8 \xF1\xB8\xE0 \xED\xA0\x80x \xC3"));
        for held in [&b"x\xC3\xA9"[..], b"\xE5\xB8\xB8", b"ab\xF0\x9F\x98\x80"] {
            assert!(holds_multibyte(held), "{held:?}");
        }
        // A surrogate pair written as two three-byte sequences (CESU-8).
        assert!(holds_multibyte(b"\xED\xA0\xBD\xED\xB8\x80"));
        // Past the first 64 bytes, after many lead bytes that open nothing.
        let mut long = b"\xE5\xB8 ".repeat(40);
        assert!(!holds_multibyte(&long));
        long.extend_from_slice(b"\xD0\x96");
        assert!(holds_multibyte(&long));
    }

    #[test]
    fn single_byte_units() {
        // "éÃ©x" read as windows-1252: E9 C3 A9: the run is "Ã©".
        let u = units(&[b"\xE9", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![1..3]);
        assert_eq!(u.bytes(1..3), "é".as_bytes());
        assert!(units(&[b"\xC3"]).utf8_runs().next().is_none());
    }

    #[test]
    fn runs_end_where_units_and_sequences_meet() {
        // "日本" (E6 97 A5 E6 9C AC) read as Shift_JIS: E6 97 | A5 | E6 9C | AC.
        let u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C", b"\xAC"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![0..4]);
        // Without its last byte the second character cannot end a run.
        let u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![0..2]);
        // A unit may hold ASCII bytes: "あa" (E3 81 82 61) as 繧 (E3 81) Ｂ (82 61).
        let u = units(&[b"\xE3\x81", b"\x82a"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![0..2]);
    }

    #[test]
    fn surrogate_pairs_are_read_whole() {
        // U+1F600 as CESU-8: D83D DE00.
        let pair = b"\xED\xA0\xBD\xED\xB8\x80";
        assert_eq!(surrogate_pair(pair), Some('\u{1F600}'));
        assert_eq!(sequence_len(pair), Some(6));
        // The first and last characters beyond U+FFFF.
        assert_eq!(surrogate_pair(b"\xED\xA0\x80\xED\xB0\x80"), Some('\u{10000}'));
        assert_eq!(surrogate_pair(b"\xED\xAF\xBF\xED\xBF\xBF"), Some('\u{10FFFF}'));
        // Halves alone or in the wrong order are not a pair.
        assert_eq!(surrogate_pair(b"\xED\xB8\x80\xED\xA0\xBD"), None);
        assert_eq!(surrogate_pair(b"\xED\xA0\xBD"), None);
        assert_eq!(
            decode(b"a\xED\xA0\xBD\xED\xB8\x80b\xED\xA0\xBD\xFFc"),
            "a\u{1F600}b\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}c"
        );
        assert!(is_utf8_with_surrogate_pairs(b"caf\xC3\xA9 \xED\xA0\xBD\xED\xB8\x80!"));
        assert!(is_utf8_with_surrogate_pairs(b"\xED\xA0\xBD\xED\xB8\x80 \xED\xA0\xBD\xED"));
        assert!(!is_utf8_with_surrogate_pairs(b"caf\xC3\xA9"), "no pair");
        assert!(!is_utf8_with_surrogate_pairs(b"\xED\xA0\xBD\xED\xB8\x80 caf\xE9"));
        // A pair garbled through windows-1252 is found as a run.
        let u = units(&[b"\xED", b"\xA0", b"\xBD", b"\xED", b"\xB8", b"\x80"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![0..6]);
    }

    #[test]
    fn sequences_are_utf8s() {
        // Every sequence of up to four bytes from a set that covers every
        // range of RFC 3629's table and its edges.
        let edges = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0]
            .into_iter()
            .chain([0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]);
        let edges: Vec<u8> = edges.collect();
        for &a in &edges {
            for &b in &edges {
                for &c in &edges {
                    for &d in &edges {
                        let bytes = [a, b, c, d];
                        let utf8 = (1..=4).find(|&n| {
                            std::str::from_utf8(&bytes[..n]).is_ok_and(|t| t.chars().count() == 1)
                        });
                        let cut = (1..=4).map(|n| sequence_len(&bytes[..n]));
                        assert_eq!(sequence_len(&bytes), utf8, "{bytes:02X?}");
                        assert!(cut
                            .take(utf8.unwrap_or(4) - 1)
                            .all(|l| l.is_none() || l == Some(1)));
                    }
                }
            }
        }
    }

    /// [`Units::utf8_runs`] by their definition: from each unit on, the
    /// furthest unit boundary that sequences read from it end on.
    fn runs_by_definition(units: &Units) -> Vec<Range<usize>> {
        let reaches = |unit: usize, end: usize| {
            let (mut at, last) = (units.starts[unit], units.starts[end]);
            while at < last {
                match sequence_len(&units.bytes[at..]) {
                    Some(len) => at += len,
                    None => return false,
                }
            }
            at == last
        };
        let (mut runs, mut unit) = (Vec::new(), 0);
        while unit < units.len() {
            match (unit + 1..=units.len()).rev().find(|&end| reaches(unit, end)) {
                Some(end) => {
                    runs.push(unit..end);
                    unit = end;
                }
                None => unit += 1,
            }
        }
        runs
    }

    proptest::proptest! {
        #[test]
        fn runs_are_found_as_defined(
            list in proptest::collection::vec(proptest::collection::vec(
                proptest::sample::select(vec![0x41, 0x80, 0x8F, 0x90, 0xA0, 0xA9, 0xBF, 0xC3, 0xE0, 0xE4, 0xED, 0xF0, 0xF4, 0xFF]),
                1..3,
            ), 0..40),
        ) {
            let mut u = Units::with_capacity(0);
            list.iter().for_each(|b| u.push(b));
            proptest::prop_assert_eq!(u.utf8_runs().collect::<Vec<_>>(), runs_by_definition(&u));
        }
    }

    #[test]
    fn a_sequence_opens_with_a_lead_byte_and_a_continuation_byte() {
        for lead in 0..=u8::MAX {
            for next in 0..=u8::MAX {
                let opens = (0xC2..=0xF4).contains(&lead) && (0x80..=0xBF).contains(&next);
                assert_eq!(opens_sequence(lead, next), opens, "{lead:02X} {next:02X}");
            }
        }
    }

    #[test]
    fn invalid_sequences_split_runs() {
        assert_eq!(sequence_len(b"\xED\xA0\x80"), None, "surrogates are not UTF-8");
        assert_eq!(sequence_len(b"\xF0\x9F\x98\x80"), Some(4));
        let u = units(&[b"\xC3", b"\xA9", b"\xFF", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs().collect::<Vec<_>>(), vec![0..2, 3..5]);
    }
}
