//! The seven-bit ISO 2022 encodings: ISO-2022-JP switches to JIS X 0208
//! (and half-width katakana) with escape sequences; ISO-2022-KR designates
//! KS X 1001 once (`ESC $ ) C`) and shifts to it with SO and back with SI.
//! A reading exists once a switch to a double-byte set is seen; its
//! characters are scored with the EUC table of the same character set
//! (EUC-JP, EUC-KR: the same code points with the high bit set).
//! HZ-GB-2312 (RFC 1843) switches to GB 2312 with `~{` and back with `~}`
//! (`~~` is a tilde, `~` and a line break continue the line), scored with
//! the GBK table. Any byte above 0x7F, an unknown escape or a broken pair
//! disqualifies it.
//!
//! Every reading pays a flat charge for the bytes of these characters as
//! plain ASCII; this one is given back what they would cost as plain text
//! ([`score::PlainCost`]): `~{5<So~}`'s `5<So` is no likely ASCII text.

use super::score::{self, PlainCost, ASCII_COST};
use super::tables::{multi_byte, FIRST_LEAD, FIRST_TRAIL, ILLEGAL, MULTI_BYTE, TRAILS};
use crate::Charset;

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;
/// HZ-GB-2312's escape.
const TILDE: u8 = b'~';

/// The cost of an escape sequence, in steps: one bit.
const ESCAPE_COST: u64 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ascii,
    /// The double-byte set: JIS X 0208, KS X 1001.
    Double,
    Katakana,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// In a mode, between characters.
    Text,
    /// After ESC and this many more bytes of an escape sequence.
    Escape(u8, [u8; 3]),
    /// After the first byte of a double-byte pair.
    Lead(u8),
}

/// Which of the seven-bit encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Variant {
    Jp,
    Kr,
    Hz,
}

/// The reading of the bytes in one seven-bit encoding.
#[derive(Clone, Debug)]
pub(super) struct Iso2022Scorer {
    variant: Variant,
    /// The EUC table's index in `MULTI_BYTE`.
    euc: Option<usize>,
    mode: Mode,
    state: State,
    cost: u64,
    refund: u64,
    /// What the bytes of its characters would cost as plain text.
    plain: PlainCost,
    /// An escape to a double-byte set was seen: the reading differs from ASCII.
    pub switched: bool,
    pub disqualified: bool,
}

impl Iso2022Scorer {
    /// The reading of `charset` (ISO-2022-JP, ISO-2022-KR or HZ-GB-2312),
    /// `None` for another charset.
    pub fn new(charset: Charset) -> Option<Iso2022Scorer> {
        let (variant, euc) = match charset {
            Charset::Iso2022Jp => (Variant::Jp, Charset::EucJp),
            Charset::Iso2022Kr => (Variant::Kr, Charset::EucKr),
            Charset::HzGb2312 => (Variant::Hz, Charset::Gbk),
            _ => return None,
        };
        Some(Iso2022Scorer {
            variant,
            euc: multi_byte(euc),
            mode: Mode::Ascii,
            state: State::Text,
            cost: 0,
            refund: 0,
            plain: PlainCost::default(),
            switched: false,
            disqualified: false,
        })
    }

    /// The index of the language of the double-byte set.
    pub fn language(&self) -> usize {
        let tag = match self.variant {
            Variant::Jp => "ja",
            Variant::Kr => "ko",
            Variant::Hz => "zh-Hans",
        };
        score::cjk_language(tag).expect("Japanese, Korean and Chinese have character frequencies")
    }

    /// Reads the next bytes of the stream (all of them).
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.disqualified {
            if self.mode == Mode::Ascii && self.state == State::Text {
                // Plain ASCII until the next escape or shift.
                let next = match self.variant {
                    Variant::Hz => memchr::memchr(TILDE, bytes),
                    Variant::Jp | Variant::Kr => memchr::memchr2(ESC, SO, bytes),
                };
                match next {
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
        let escape = if self.variant == Variant::Hz { TILDE } else { ESC };
        self.state = match (self.state, b) {
            (State::Text, b) if b == escape => State::Escape(0, [0; 3]),
            (State::Escape(n, mut seen), _) => {
                seen[usize::from(n)] = b;
                match self.escape(&seen[..=usize::from(n)]) {
                    Some(true) => State::Text,
                    Some(false) => State::Escape(n + 1, seen),
                    None => return self.disqualify(),
                }
            }
            (State::Text, SO | SI) if self.variant == Variant::Kr => {
                self.mode = if b == SO { Mode::Double } else { Mode::Ascii };
                self.switched |= b == SO;
                self.plain.cut();
                State::Text
            }
            (State::Text, _) => match self.mode {
                Mode::Ascii => State::Text,
                Mode::Double if (0x21..=0x7E).contains(&b) => State::Lead(b),
                Mode::Double if self.variant == Variant::Kr && matches!(b, b'\n' | b'\r') => {
                    self.mode = Mode::Ascii;
                    State::Text
                }
                Mode::Double if self.variant == Variant::Kr && b < 0x20 => State::Text,
                Mode::Katakana if (0x21..=0x5F).contains(&b) => {
                    self.char(0x8E, b | 0x80, &[b]);
                    State::Text
                }
                _ => return self.disqualify(),
            },
            (State::Lead(lead), 0x21..=0x7E) => {
                self.char(lead | 0x80, b | 0x80, &[lead, b]);
                State::Text
            }
            (State::Lead(_), _) => return self.disqualify(),
        };
    }

    /// An escape sequence so far (the bytes after ESC): complete (`true`),
    /// a prefix of one (`false`), or none.
    fn escape(&mut self, seq: &[u8]) -> Option<bool> {
        let mode = match (self.variant, seq) {
            (Variant::Jp, [b'$' | b'('] | [b'$', b')']) | (Variant::Kr, [b'$'] | [b'$', b')']) => {
                return Some(false)
            }
            (Variant::Jp, [b'(', b'B' | b'J']) => Mode::Ascii,
            (Variant::Jp, [b'(', b'I']) => Mode::Katakana,
            (Variant::Jp, [b'$', b'@' | b'B']) => Mode::Double,
            // A designation: SO still shifts.
            (Variant::Kr, [b'$', b')', b'C']) => self.mode,
            (Variant::Hz, [b'{']) => Mode::Double,
            (Variant::Hz, [b'}']) => Mode::Ascii,
            // A tilde, or a line continued: plain text in ASCII, nothing in
            // GB 2312.
            (Variant::Hz, [b'~' | b'\n']) if self.mode == Mode::Ascii => return Some(true),
            _ => return None,
        };
        self.switched |= mode != Mode::Ascii;
        self.mode = mode;
        self.plain.cut();
        self.cost += ESCAPE_COST;
        // HZ's escape is a plain byte, ISO 2022's ESC is not.
        let plain = seq.len() + usize::from(self.variant == Variant::Hz);
        self.refund += plain as u64 * u64::from(ASCII_COST);
        Some(true)
    }

    fn disqualify(&mut self) {
        self.disqualified = true;
    }

    /// Scores the character the EUC table writes as `lead trail`, read
    /// from the seven-bit bytes `ascii`.
    fn char(&mut self, lead: u8, trail: u8, ascii: &[u8]) {
        let Some(euc) = self.euc.map(|i| &MULTI_BYTE[i]) else { return self.disqualify() };
        let at = usize::from(lead - FIRST_LEAD) * TRAILS + usize::from(trail - FIRST_TRAIL);
        match euc.doubles[at] {
            ILLEGAL => self.disqualify(),
            cost => {
                self.cost += u64::from(cost);
                ascii.iter().for_each(|&b| self.plain.add(b));
            }
        }
    }

    /// The cost so far of its escapes and characters.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The plain-ASCII charge of the bytes that were escapes or characters,
    /// which every reading pays and this one gives back: the flat charge for
    /// the escapes, and for the characters' bytes what they would cost as
    /// plain text ([`PlainCost`]).
    pub fn refund(&self) -> u64 {
        self.refund + self.plain.cost()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Iso2022Scorer {
        let mut s = Iso2022Scorer::new(Charset::Iso2022Jp).unwrap();
        s.feed(bytes);
        s
    }

    #[test]
    fn escapes_and_pairs() {
        let (bytes, _) = Charset::Iso2022Jp.encode("これは日本語です。ｶﾀｶﾅ");
        let s = read(&bytes);
        assert!(s.switched && !s.disqualified, "{s:?}");
        for split in 1..bytes.len() {
            let mut t = Iso2022Scorer::new(Charset::Iso2022Jp).unwrap();
            t.feed(&bytes[..split]);
            t.feed(&bytes[split..]);
            assert_eq!((t.cost(), t.switched, t.disqualified), (s.cost(), true, false));
        }
        assert!(!read(b"plain text").switched);
        assert!(!read(b"\x1b$B").disqualified);
        assert!(read(b"\x1b$Z").disqualified);
        assert!(read("é".as_bytes()).disqualified);
    }

    #[test]
    fn hz_switches() {
        let (bytes, _) = Charset::HzGb2312.encode("中文的句子。\n下一行 ~ 波浪号");
        let whole = |bytes: &[u8]| {
            let mut s = Iso2022Scorer::new(Charset::HzGb2312).unwrap();
            s.feed(bytes);
            s
        };
        let s = whole(&bytes);
        assert!(s.switched && !s.disqualified, "{s:?}");
        // Each character and escape gives its two plain bytes back.
        assert!(s.refund() > 0 && s.cost() > 0);
        for split in 1..bytes.len() {
            let mut t = Iso2022Scorer::new(Charset::HzGb2312).unwrap();
            t.feed(&bytes[..split]);
            t.feed(&bytes[split..]);
            assert_eq!((t.cost(), t.refund(), t.disqualified), (s.cost(), s.refund(), false));
        }
        // A tilde is written `~~`; one before anything else is no HZ.
        assert!(!whole(b"a ~~ b, ~\nc").switched && !whole(b"a ~~ b").disqualified);
        assert!(whole(b"see ~user/page").disqualified);
        assert!(whole(b"~{\x80\x80~}").disqualified);
        assert!(!whole(b"\x1b$B").switched);
    }

    #[test]
    fn korean_shifts() {
        let (bytes, _) = Charset::Iso2022Kr.encode("한국어 문장입니다.\n다음 줄");
        let mut s = Iso2022Scorer::new(Charset::Iso2022Kr).unwrap();
        s.feed(&bytes);
        assert!(s.switched && !s.disqualified, "{s:?}");
        let mut jp = Iso2022Scorer::new(Charset::Iso2022Jp).unwrap();
        jp.feed(&bytes);
        assert!(jp.disqualified);
    }
}
