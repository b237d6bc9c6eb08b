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
#[derive(Clone, Debug, Default)]
pub(crate) struct Units {
    bytes: Vec<u8>,
    /// Where each unit starts, then the end of the last.
    starts: Vec<usize>,
    /// [`Units::utf8_runs`]'s reach of each byte, kept between calls.
    reach: Vec<u32>,
}

impl Units {
    pub(crate) fn new() -> Units {
        Units::with_capacity(0)
    }

    /// Room for `bytes` bytes in units of two bytes or more, without
    /// growing.
    pub(crate) fn with_capacity(bytes: usize) -> Units {
        let mut starts = Vec::with_capacity(bytes / 2 + 1);
        starts.push(0);
        Units { bytes: Vec::with_capacity(bytes), starts, reach: Vec::new() }
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
    pub(crate) fn utf8_runs(&mut self) -> Vec<Range<usize>> {
        /// No unit boundary reached (in `reach`).
        const NONE: u32 = u32::MAX >> 1;
        /// A unit boundary (a flag of `reach`).
        const BOUNDARY: u32 = 1 << 31;
        let (n, units) = (self.bytes.len(), self.len());
        // reach[p]: the furthest unit boundary a chain of valid sequences
        // starting at byte p ends on, and whether p is one. (A unit is a
        // character's few bytes.)
        let (starts, reach) = (&self.starts, &mut self.reach);
        reach.clear();
        reach.resize(n + 1, NONE);
        for &s in starts {
            reach[s] |= BOUNDARY;
        }
        for p in (0..n).rev() {
            if let Some(len) = sequence_len(&self.bytes[p..]) {
                let next = reach[p + len];
                let to = match next & !BOUNDARY {
                    NONE if next & BOUNDARY != 0 => (p + len) as u32,
                    r => r,
                };
                reach[p] = reach[p] & BOUNDARY | to;
            }
        }
        let mut runs = Vec::new();
        let mut unit = 0;
        while unit < units {
            match reach[starts[unit]] & !BOUNDARY {
                NONE => unit += 1,
                end => {
                    let end_unit = starts.partition_point(|&s| s < end as usize);
                    runs.push(unit..end_unit);
                    unit = end_unit;
                }
            }
        }
        runs
    }
}

/// The length of the valid UTF-8 sequence `bytes` starts with, if any; a
/// surrogate pair written as two three-byte sequences ([`surrogate_pair`])
/// counts as one of six bytes.
fn sequence_len(bytes: &[u8]) -> Option<usize> {
    let len = match *bytes.first()? {
        0..=0x7F => return Some(1),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    // A surrogate pair's first byte is `ED`.
    if bytes[0] == 0xED && surrogate_pair(bytes).is_some() {
        return Some(6);
    }
    std::str::from_utf8(bytes.get(..len)?).ok().map(|_| len)
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
        let mut u = Units::new();
        list.iter().for_each(|b| u.push(b));
        u
    }

    #[test]
    fn single_byte_units() {
        // "éÃ©x" read as windows-1252: E9 C3 A9: the run is "Ã©".
        let mut u = units(&[b"\xE9", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs(), vec![1..3]);
        assert_eq!(u.bytes(1..3), "é".as_bytes());
        assert!(units(&[b"\xC3"]).utf8_runs().is_empty());
    }

    #[test]
    fn runs_end_where_units_and_sequences_meet() {
        // "日本" (E6 97 A5 E6 9C AC) read as Shift_JIS: E6 97 | A5 | E6 9C | AC.
        let mut u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C", b"\xAC"]);
        assert_eq!(u.utf8_runs(), vec![0..4]);
        // Without its last byte the second character cannot end a run.
        let mut u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C"]);
        assert_eq!(u.utf8_runs(), vec![0..2]);
        // A unit may hold ASCII bytes: "あa" (E3 81 82 61) as 繧 (E3 81) Ｂ (82 61).
        let mut u = units(&[b"\xE3\x81", b"\x82a"]);
        assert_eq!(u.utf8_runs(), vec![0..2]);
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
        let mut u = units(&[b"\xED", b"\xA0", b"\xBD", b"\xED", b"\xB8", b"\x80"]);
        assert_eq!(u.utf8_runs(), vec![0..6]);
    }

    #[test]
    fn invalid_sequences_split_runs() {
        assert_eq!(sequence_len(b"\xED\xA0\x80"), None, "surrogates are not UTF-8");
        assert_eq!(sequence_len(b"\xF0\x9F\x98\x80"), Some(4));
        let mut u = units(&[b"\xC3", b"\xA9", b"\xFF", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs(), vec![0..2, 3..5]);
    }
}
