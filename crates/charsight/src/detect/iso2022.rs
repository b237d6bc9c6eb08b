//! ISO-2022-JP: seven-bit text that switches to JIS X 0208 (and half-width
//! katakana) with escape sequences. A reading exists once an escape to a
//! double-byte set is seen; its characters are scored with EUC-JP's table
//! (the same code points with the high bit set). Any byte above 0x7F, an
//! unknown escape or a broken pair disqualifies it.

use super::score::ASCII_COST;
use super::tables::{multi_byte, FIRST_LEAD, FIRST_TRAIL, ILLEGAL, MULTI_BYTE, TRAILS};
use crate::Charset;

/// The cost of an escape sequence, in steps: one bit.
const ESCAPE_COST: u64 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ascii,
    Jis,
    Katakana,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// In a mode, between characters.
    Text,
    /// After ESC, or ESC and one more byte.
    Escape(Option<u8>),
    /// After the first byte of a JIS X 0208 pair.
    Lead(u8),
}

/// The ISO-2022-JP reading of the bytes.
#[derive(Clone, Debug)]
pub(super) struct Iso2022Scorer {
    /// EUC-JP's index in `MULTI_BYTE`.
    euc: Option<usize>,
    mode: Mode,
    state: State,
    cost: u64,
    refund: u64,
    /// An escape to a double-byte set was seen: the reading differs from ASCII.
    pub switched: bool,
    pub disqualified: bool,
}

impl Default for Iso2022Scorer {
    fn default() -> Iso2022Scorer {
        Iso2022Scorer {
            euc: multi_byte(Charset::EucJp),
            mode: Mode::Ascii,
            state: State::Text,
            cost: 0,
            refund: 0,
            switched: false,
            disqualified: false,
        }
    }
}

impl Iso2022Scorer {
    /// Reads the next bytes of the stream (all of them).
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.disqualified {
            if self.mode == Mode::Ascii && self.state == State::Text {
                // Plain ASCII until the next escape.
                match memchr::memchr(0x1B, bytes) {
                    Some(at) => {
                        if !bytes[..at].is_ascii() {
                            self.disqualified = true;
                        }
                        bytes = &bytes[at..];
                    }
                    None => {
                        self.disqualified |= !bytes.is_ascii();
                        return;
                    }
                }
            }
            self.byte(bytes[0]);
            bytes = &bytes[1..];
        }
    }

    fn byte(&mut self, b: u8) {
        if b >= 0x80 {
            return self.disqualify();
        }
        self.state = match (self.state, b) {
            (State::Text, 0x1B) => State::Escape(None),
            (State::Escape(None), b'$' | b'(') => State::Escape(Some(b)),
            (State::Escape(Some(first)), _) => {
                self.mode = match (first, b) {
                    (b'(', b'B' | b'J') => Mode::Ascii,
                    (b'(', b'I') => Mode::Katakana,
                    (b'$', b'@' | b'B') => Mode::Jis,
                    _ => return self.disqualify(),
                };
                self.switched |= self.mode != Mode::Ascii;
                self.cost += ESCAPE_COST;
                self.refund += 2 * u64::from(ASCII_COST);
                State::Text
            }
            (State::Text, _) => match self.mode {
                Mode::Ascii => State::Text,
                Mode::Jis if (0x21..=0x7E).contains(&b) => State::Lead(b),
                Mode::Katakana if (0x21..=0x5F).contains(&b) => {
                    self.char(0x8E, b | 0x80, 1);
                    State::Text
                }
                _ => return self.disqualify(),
            },
            (State::Lead(lead), 0x21..=0x7E) => {
                self.char(lead | 0x80, b | 0x80, 2);
                State::Text
            }
            (State::Escape(None) | State::Lead(_), _) => return self.disqualify(),
        };
    }

    fn disqualify(&mut self) {
        self.disqualified = true;
    }

    /// Scores the character EUC-JP writes as `lead trail`, read from
    /// `ascii` seven-bit bytes.
    fn char(&mut self, lead: u8, trail: u8, ascii: u64) {
        let Some(euc) = self.euc.map(|i| &MULTI_BYTE[i]) else { return self.disqualify() };
        let at = usize::from(lead - FIRST_LEAD) * TRAILS + usize::from(trail - FIRST_TRAIL);
        match euc.doubles[at] {
            ILLEGAL => self.disqualify(),
            cost => {
                self.cost += u64::from(cost);
                self.refund += ascii * u64::from(ASCII_COST);
            }
        }
    }

    /// The cost so far, with the plain-ASCII charge of the bytes that were
    /// escapes or characters given back (it can be below zero: then 0).
    pub fn cost(&self) -> u32 {
        self.cost.saturating_sub(self.refund).min(u64::from(u32::MAX / 4)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Iso2022Scorer {
        let mut s = Iso2022Scorer::default();
        s.feed(bytes);
        s
    }

    #[test]
    fn escapes_and_pairs() {
        let (bytes, _) = Charset::Iso2022Jp.encode("これは日本語です。ｶﾀｶﾅ");
        let s = read(&bytes);
        assert!(s.switched && !s.disqualified, "{s:?}");
        for split in 1..bytes.len() {
            let mut t = Iso2022Scorer::default();
            t.feed(&bytes[..split]);
            t.feed(&bytes[split..]);
            assert_eq!((t.cost(), t.switched, t.disqualified), (s.cost(), true, false));
        }
        assert!(!read(b"plain text").switched);
        assert!(!read(b"\x1b$B").disqualified);
        assert!(read(b"\x1b$Z").disqualified);
        assert!(read("é".as_bytes()).disqualified);
    }
}
