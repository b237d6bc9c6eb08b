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
}

impl Units {
    pub(crate) fn new() -> Units {
        Units { bytes: Vec::new(), starts: vec![0] }
    }

    /// Adds a unit.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
        self.starts.push(self.bytes.len());
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
    pub(crate) fn utf8_runs(&self) -> Vec<Range<usize>> {
        let n = self.bytes.len();
        let mut boundary = vec![false; n + 1];
        for &s in &self.starts {
            boundary[s] = true;
        }
        // reach[p]: the furthest unit boundary a chain of valid sequences
        // starting at byte p ends on.
        let mut reach: Vec<Option<usize>> = vec![None; n + 1];
        for p in (0..n).rev() {
            if let Some(len) = sequence_len(&self.bytes[p..]) {
                let next = p + len;
                reach[p] = reach[next].or(boundary[next].then_some(next));
            }
        }
        let mut runs = Vec::new();
        let mut unit = 0;
        while unit < self.len() {
            match reach[self.starts[unit]] {
                Some(end) => {
                    let end_unit = self.starts.partition_point(|&s| s < end);
                    runs.push(unit..end_unit);
                    unit = end_unit;
                }
                None => unit += 1,
            }
        }
        runs
    }
}

/// The length of the valid UTF-8 sequence `bytes` starts with, if any.
fn sequence_len(bytes: &[u8]) -> Option<usize> {
    let len = match *bytes.first()? {
        0..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    std::str::from_utf8(bytes.get(..len)?).ok().map(|_| len)
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
        let u = units(&[b"\xE9", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs(), vec![1..3]);
        assert_eq!(u.bytes(1..3), "é".as_bytes());
        assert!(units(&[b"\xC3"]).utf8_runs().is_empty());
    }

    #[test]
    fn runs_end_where_units_and_sequences_meet() {
        // "日本" (E6 97 A5 E6 9C AC) read as Shift_JIS: E6 97 | A5 | E6 9C | AC.
        let u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C", b"\xAC"]);
        assert_eq!(u.utf8_runs(), vec![0..4]);
        // Without its last byte the second character cannot end a run.
        let u = units(&[b"\xE6\x97", b"\xA5", b"\xE6\x9C"]);
        assert_eq!(u.utf8_runs(), vec![0..2]);
        // A unit may hold ASCII bytes: "あa" (E3 81 82 61) as 繧 (E3 81) Ｂ (82 61).
        let u = units(&[b"\xE3\x81", b"\x82a"]);
        assert_eq!(u.utf8_runs(), vec![0..2]);
    }

    #[test]
    fn invalid_sequences_split_runs() {
        assert_eq!(sequence_len(b"\xED\xA0\x80"), None, "surrogates are not UTF-8");
        assert_eq!(sequence_len(b"\xF0\x9F\x98\x80"), Some(4));
        let u = units(&[b"\xC3", b"\xA9", b"\xFF", b"\xC3", b"\xA9"]);
        assert_eq!(u.utf8_runs(), vec![0..2, 3..5]);
    }
}
