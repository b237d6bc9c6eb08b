//! The Unicode readings: UTF-8 (scored over the runs of interesting bytes,
//! its validity checked by [`super::utf8`]), and UTF-16/UTF-32 in either
//! byte order, which decode every byte and pay for their ASCII characters
//! too.

use super::score::AsciiPairs;
use super::text::TextScorer;

/// The UTF-8 reading's characters, decoded from the runs.
#[derive(Clone, Debug)]
pub(super) struct Utf8Reading {
    pub scorer: TextScorer,
    /// A sequence cut by the end of a run piece.
    carry: [u8; 4],
    carry_len: usize,
    pub broken: bool,
    /// The sequences of two bytes or more decoded.
    pub sequences: u64,
}

impl Default for Utf8Reading {
    fn default() -> Utf8Reading {
        Utf8Reading {
            scorer: TextScorer::new(false),
            carry: [0; 4],
            carry_len: 0,
            broken: false,
            sequences: 0,
        }
    }
}

/// The length of the UTF-8 sequence a lead byte starts; 0 for a byte that
/// cannot start one.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

impl Utf8Reading {
    pub fn bytes(&mut self, run: &[u8]) {
        for &b in run {
            if self.broken {
                return;
            }
            if self.carry_len == 0 && b < 0x80 {
                self.scorer.push(char::from(b));
                continue;
            }
            self.carry[self.carry_len] = b;
            self.carry_len += 1;
            let need = sequence_len(self.carry[0]);
            if need == 0 {
                self.broken = true;
            } else if self.carry_len == need {
                match std::str::from_utf8(&self.carry[..need]) {
                    Ok(s) => {
                        self.sequences += 1;
                        s.chars().for_each(|c| self.scorer.push(c));
                    }
                    Err(_) => self.broken = true,
                }
                self.carry_len = 0;
            }
        }
    }

    /// A plain ASCII byte next to a run: it must not cut a sequence.
    pub fn plain(&mut self, b: u8) {
        if self.carry_len > 0 {
            self.broken = true;
        }
        self.scorer.push(char::from(b));
    }
}

/// A UTF-16 or UTF-32 reading.
#[derive(Clone, Debug)]
pub(super) struct WideReading {
    /// Bytes per code unit: 2 or 4.
    unit: usize,
    big_endian: bool,
    carry: [u8; 4],
    carry_len: usize,
    /// A high surrogate awaiting its low one (UTF-16).
    high: Option<u16>,
    pub scorer: TextScorer,
    /// The letter pairs of its plain ASCII text outside markup, which tell
    /// the language of its text at the decision, as the byte scan's do for
    /// the ASCII-compatible readings.
    pub pairs: AsciiPairs,
    in_tag: bool,
    pub disqualified: bool,
}

impl WideReading {
    pub fn new(unit: usize, big_endian: bool) -> WideReading {
        WideReading {
            unit,
            big_endian,
            carry: [0; 4],
            carry_len: 0,
            high: None,
            scorer: TextScorer::deferred(true),
            pairs: AsciiPairs::default(),
            in_tag: false,
            disqualified: false,
        }
    }

    /// Whether the bytes so far end inside a code unit or surrogate pair.
    pub fn incomplete(&self) -> bool {
        self.carry_len > 0 || self.high.is_some()
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.disqualified {
                return;
            }
            self.carry[self.carry_len] = b;
            self.carry_len += 1;
            if self.carry_len == self.unit {
                self.carry_len = 0;
                self.unit_done();
            }
        }
    }

    fn unit_done(&mut self) {
        let value = match (self.unit, self.big_endian) {
            (2, false) => u32::from(u16::from_le_bytes([self.carry[0], self.carry[1]])),
            (2, true) => u32::from(u16::from_be_bytes([self.carry[0], self.carry[1]])),
            (_, false) => u32::from_le_bytes(self.carry),
            (_, true) => u32::from_be_bytes(self.carry),
        };
        let c = if self.unit == 2 {
            match (self.high.take(), value) {
                (None, 0xD800..=0xDBFF) => {
                    self.high = Some(value as u16);
                    return;
                }
                (Some(high), 0xDC00..=0xDFFF) => {
                    char::from_u32(0x10000 + ((u32::from(high) - 0xD800) << 10) + (value - 0xDC00))
                }
                (None, _) if !(0xDC00..=0xDFFF).contains(&value) => char::from_u32(value),
                _ => None,
            }
        } else {
            char::from_u32(value)
        };
        match c {
            // NUL is not text in any of these forms.
            Some(c) if c != '\0' => {
                match c {
                    '<' => {
                        self.in_tag = true;
                        self.pairs.cut();
                    }
                    '>' => self.in_tag = false,
                    _ if !c.is_ascii() => self.pairs.cut(),
                    _ if !self.in_tag => self.pairs.add(&[c as u8]),
                    _ => {}
                }
                self.scorer.push(c);
            }
            _ => self.disqualified = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Charset;

    #[test]
    fn wide_forms_decode_and_disqualify() {
        for (charset, unit, big) in [
            (Charset::Utf16Le, 2, false),
            (Charset::Utf16Be, 2, true),
            (Charset::Utf32Le, 4, false),
            (Charset::Utf32Be, 4, true),
        ] {
            let mut r = WideReading::new(unit, big);
            r.feed(&charset.encode("Grüße 😀 日本").0);
            assert!(!r.disqualified, "{charset}");
        }
        let mut r = WideReading::new(2, false);
        r.feed(b"\x00\xDC");
        assert!(r.disqualified);
        let mut r = WideReading::new(4, false);
        r.feed(b"abcd");
        assert!(r.disqualified);
    }

    #[test]
    fn utf8_runs_across_pieces() {
        let mut r = Utf8Reading::default();
        let bytes = "é😀".as_bytes();
        r.bytes(&bytes[..3]);
        r.bytes(&bytes[3..]);
        assert!(!r.broken);
        r.plain(b' ');
        assert!(!r.broken);
        r.bytes(b"\xE2\x82");
        r.plain(b'x');
        assert!(r.broken);
    }
}
