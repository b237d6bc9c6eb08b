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
//! The ISO-2022-JP reading is its whole family: an escape sequence that
//! only a wider member defines narrows the members that could have written
//! the bytes, and the reading is reported as the narrowest left
//! ([`Iso2022Scorer::charset`]): ISO-2022-JP-2 (RFC 1554) for `ESC $ A`
//! GB 2312, `ESC $ ( C` KS X 1001, `ESC $ ( D` JIS X 0212 and the G2 sets
//! `ESC . A` / `ESC . F` shifted to by `ESC N`; ISO-2022-JP-3 for
//! JIS X 0213's `ESC $ ( O` and `ESC $ ( P`; ISO-2022-JP-2004 for
//! `ESC $ ( Q`. Escapes that no one member has all of disqualify it, and
//! ISO-2022-JP's own leave it ISO-2022-JP. The characters of GB 2312 and
//! KS X 1001 are scored with the GBK and EUC-KR tables, those of JIS X 0213
//! plane 1 with the EUC-JP table where JIS X 0208 has them; the sets with no
//! table of their own (JIS X 0212, JIS X 0213 plane 2 and the codes plane 1
//! adds, the G2 letters) are scored by validity only, as the codec reads
//! them ([`crate::codec::JpSet::defines`]), each character at the cost of
//! the EUC-JP table's rarest.
//!
//! Every reading pays a flat charge for the bytes of these characters as
//! plain ASCII; this one is given back what they would cost as plain text
//! ([`score::PlainCost`]): `~{5<So~}`'s `5<So` is no likely ASCII text.

use super::score::{self, PlainCost, ASCII_COST};
use super::tables::{multi_byte, FIRST_LEAD, FIRST_TRAIL, ILLEGAL, MULTI_BYTE, TRAILS};
use crate::codec::{JpG2, JpSet};
use crate::Charset;

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;
/// HZ-GB-2312's escape.
const TILDE: u8 = b'~';

/// The cost of an escape sequence, in steps: one bit.
const ESCAPE_COST: u64 = 8;

/// The ISO-2022-JP family, narrowest first: bit `i` of a mask stands for
/// `JP_FAMILY[i]`.
const JP_FAMILY: [Charset; 4] =
    [Charset::Iso2022Jp, Charset::Iso2022Jp2, Charset::Iso2022Jp3, Charset::Iso2022Jp2004];
/// Every member: ISO-2022-JP's own escapes.
const EVERY_JP: u8 = 0b1111;
/// ISO-2022-JP-2 alone.
const JP2: u8 = 0b0010;
/// The members with JIS X 0213 (ISO-2022-JP-3 and -2004).
const JIS_X0213: u8 = 0b1100;
/// ISO-2022-JP-2004 alone.
const JP2004: u8 = 0b1000;
/// The members with the four-byte escapes `ESC $ ( @` and `ESC $ ( B`.
const WIDER: u8 = 0b1110;

/// A double-byte set and how its characters are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Set {
    /// The EUC table of its characters' costs (the same characters at the
    /// same codes with the high bit set), if it has one; else each costs the
    /// EUC-JP table's rarest.
    table: Option<Charset>,
    /// The codec's set, which says which codes it has: those the table
    /// lacks cost the table's rarest. `None`: exactly the table's codes.
    codes: Option<JpSet>,
}

impl Set {
    /// A set whose codes are exactly its EUC table's.
    const fn euc(table: Charset) -> Set {
        Set { table: Some(table), codes: None }
    }

    /// A set of ISO-2022-JP's family.
    fn jp(codes: JpSet) -> Set {
        let table = match codes {
            JpSet::Jis0208 => return Set::euc(Charset::EucJp),
            JpSet::Gb2312 => Some(Charset::Gbk),
            JpSet::Ksc5601 => Some(Charset::EucKr),
            JpSet::Plane1Of2000 | JpSet::Plane1 => Some(Charset::EucJp),
            _ => None,
        };
        Set { table, codes: Some(codes) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ascii,
    /// A double-byte set: JIS X 0208, KS X 1001, GB 2312, …
    Double(Set),
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
    /// After a single shift to G2 (`ESC N`), before its character.
    Shifted,
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
    mode: Mode,
    state: State,
    /// The members of ISO-2022-JP's family whose escapes cover those seen
    /// (a mask over [`JP_FAMILY`]).
    family: u8,
    /// The set designated to G2 (ISO-2022-JP-2).
    g2: Option<JpG2>,
    cost: u64,
    refund: u64,
    /// What the bytes of its characters would cost as plain text.
    plain: PlainCost,
    /// An escape to a double-byte set was seen: the reading differs from ASCII.
    pub switched: bool,
    pub disqualified: bool,
}

impl Iso2022Scorer {
    /// The reading of `charset` (ISO-2022-JP and its family, ISO-2022-KR or
    /// HZ-GB-2312), `None` for another charset.
    pub fn new(charset: Charset) -> Option<Iso2022Scorer> {
        let variant = match charset {
            Charset::Iso2022Jp => Variant::Jp,
            Charset::Iso2022Kr => Variant::Kr,
            Charset::HzGb2312 => Variant::Hz,
            _ => return None,
        };
        Some(Iso2022Scorer {
            variant,
            mode: Mode::Ascii,
            state: State::Text,
            family: EVERY_JP,
            g2: None,
            cost: 0,
            refund: 0,
            plain: PlainCost::default(),
            switched: false,
            disqualified: false,
        })
    }

    /// Leaves out the members of ISO-2022-JP's family that `out` names:
    /// an escape only they have then rules the reading out.
    pub fn leave_out(&mut self, out: impl Fn(Charset) -> bool) {
        for (i, &member) in JP_FAMILY.iter().enumerate() {
            if out(member) {
                self.family &= !(1 << i);
            }
        }
    }

    /// The encoding read: for ISO-2022-JP, the narrowest member of its
    /// family that has every escape seen.
    pub fn charset(&self) -> Charset {
        match self.variant {
            Variant::Jp => JP_FAMILY[self.family.trailing_zeros().min(3) as usize],
            Variant::Kr => Charset::Iso2022Kr,
            Variant::Hz => Charset::HzGb2312,
        }
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
                    Some(Escape::Partial) => State::Escape(n + 1, seen),
                    Some(Escape::Done) => State::Text,
                    Some(Escape::Shift) => State::Shifted,
                    None => return self.disqualify(),
                }
            }
            (State::Text, SO | SI) if self.variant == Variant::Kr => {
                self.mode =
                    if b == SO { Mode::Double(Set::euc(Charset::EucKr)) } else { Mode::Ascii };
                self.switched |= b == SO;
                self.plain.cut();
                State::Text
            }
            (State::Text, _) => match self.mode {
                Mode::Ascii => State::Text,
                Mode::Double(_) if (0x21..=0x7E).contains(&b) => State::Lead(b),
                Mode::Double(_) if self.variant == Variant::Kr && matches!(b, b'\n' | b'\r') => {
                    self.mode = Mode::Ascii;
                    State::Text
                }
                Mode::Double(_) if self.variant == Variant::Kr && b < 0x20 => State::Text,
                Mode::Katakana if (0x21..=0x5F).contains(&b) => {
                    self.char(Set::euc(Charset::EucJp), 0x8E, b | 0x80, &[b]);
                    State::Text
                }
                _ => return self.disqualify(),
            },
            (State::Lead(lead), 0x21..=0x7E) => {
                let Mode::Double(set) = self.mode else { return self.disqualify() };
                self.char(set, lead | 0x80, b | 0x80, &[lead, b]);
                State::Text
            }
            (State::Lead(_), _) => return self.disqualify(),
            (State::Shifted, 0x20..=0x7F) if self.g2.is_some_and(|g2| g2.defines(b)) => {
                // One letter of ISO-8859-1 or -7: scored by validity only.
                self.switched = true;
                self.cost += u64::from(rarest(Charset::EucJp));
                self.plain.add(b);
                State::Text
            }
            (State::Shifted, _) => return self.disqualify(),
        };
    }

    /// An escape sequence so far (the bytes after ESC): complete, a prefix
    /// of one, or none.
    fn escape(&mut self, seq: &[u8]) -> Option<Escape> {
        let (mode, family) = match (self.variant, seq) {
            (Variant::Jp, [b'$' | b'(' | b'.'] | [b'$', b')' | b'('])
            | (Variant::Kr, [b'$'] | [b'$', b')']) => return Some(Escape::Partial),
            (Variant::Jp, [b'(', b'B' | b'J']) => (Mode::Ascii, EVERY_JP),
            (Variant::Jp, [b'(', b'I']) => (Mode::Katakana, EVERY_JP),
            (Variant::Jp, [b'$', b'@' | b'B']) => {
                (Mode::Double(Set::euc(Charset::EucJp)), EVERY_JP)
            }
            (Variant::Jp, [b'$', b'A']) => (Mode::Double(Set::jp(JpSet::Gb2312)), JP2),
            (Variant::Jp, [b'$', b'(', last]) => {
                let (set, family) = match last {
                    b'@' | b'B' => (JpSet::Jis0208, WIDER),
                    b'A' => (JpSet::Gb2312, JP2),
                    b'C' => (JpSet::Ksc5601, JP2),
                    b'D' => (JpSet::Jis0212, JP2),
                    b'O' => (JpSet::Plane1Of2000, JIS_X0213),
                    b'P' => (JpSet::Plane2, JIS_X0213),
                    b'Q' => (JpSet::Plane1, JP2004),
                    _ => return None,
                };
                (Mode::Double(Set::jp(set)), family)
            }
            // G2's designation and single shift: the mode in G0 stays.
            (Variant::Jp, [b'.', last @ (b'A' | b'F')]) => {
                self.g2 = Some(if *last == b'A' { JpG2::Latin1 } else { JpG2::Greek });
                (self.mode, JP2)
            }
            (Variant::Jp, [b'N']) if self.g2.is_some() => (self.mode, JP2),
            // A designation: SO still shifts.
            (Variant::Kr, [b'$', b')', b'C']) => (self.mode, 0),
            (Variant::Hz, [b'{']) => (Mode::Double(Set::euc(Charset::Gbk)), 0),
            (Variant::Hz, [b'}']) => (Mode::Ascii, 0),
            // A tilde, or a line continued: plain text in ASCII, nothing in
            // GB 2312.
            (Variant::Hz, [b'~' | b'\n']) if self.mode == Mode::Ascii => return Some(Escape::Done),
            _ => return None,
        };
        if self.variant == Variant::Jp {
            self.family &= family;
            if self.family == 0 {
                return None;
            }
        }
        self.switched |= mode != Mode::Ascii;
        self.mode = mode;
        self.plain.cut();
        self.cost += ESCAPE_COST;
        // HZ's escape is a plain byte, ISO 2022's ESC is not.
        let plain = seq.len() + usize::from(self.variant == Variant::Hz);
        self.refund += plain as u64 * u64::from(ASCII_COST);
        Some(if seq == b"N" { Escape::Shift } else { Escape::Done })
    }

    fn disqualify(&mut self) {
        self.disqualified = true;
    }

    /// Scores the character of `set` that its EUC table writes as `lead
    /// trail` (the seven-bit bytes `ascii` with the high bit set).
    fn char(&mut self, set: Set, lead: u8, trail: u8, ascii: &[u8]) {
        let table = set.table.and_then(multi_byte).map(|i| &MULTI_BYTE[i]);
        let at = usize::from(lead - FIRST_LEAD) * TRAILS + usize::from(trail - FIRST_TRAIL);
        let listed = table.map(|t| t.doubles[at]).filter(|&cost| cost != ILLEGAL);
        let cost = match (listed, set.codes) {
            (Some(cost), None) => cost,
            (_, Some(codes)) if codes.defines(lead & 0x7F, trail & 0x7F) => {
                listed.unwrap_or_else(|| rarest(set.table.unwrap_or(Charset::EucJp)))
            }
            _ => return self.disqualify(),
        };
        self.cost += u64::from(cost);
        ascii.iter().for_each(|&b| self.plain.add(b));
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

/// How far an escape sequence has been read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// A prefix of one.
    Partial,
    Done,
    /// A single shift: one character of G2 follows.
    Shift,
}

/// The cost of a character of `table`'s set that its table does not list:
/// the table's rarest (a set of ISO-2022-JP's family scored by validity).
fn rarest(table: Charset) -> u8 {
    multi_byte(table).map_or(u8::MAX, |i| MULTI_BYTE[i].rare)
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
    fn the_jp_family_is_read_as_its_narrowest_member() {
        let cases = [
            (Charset::Iso2022Jp, "日本語の文です。ｶﾀｶﾅ"),
            // KS X 1001, JIS X 0212 (`丂`, and `é` ahead of G2's Latin-1).
            (Charset::Iso2022Jp2, "日本語と한국어"),
            (Charset::Iso2022Jp2, "丂の字"),
            (Charset::Iso2022Jp2, "café です"),
            // JIS X 0213 plane 1 of 2000, plane 2, plane 1 of 2004.
            (Charset::Iso2022Jp3, "小さいㇰの字"),
            (Charset::Iso2022Jp3, "𠂉の字"),
            (Charset::Iso2022Jp2004, "俱の字"),
        ];
        for (charset, text) in cases {
            let (bytes, unmapped) = charset.encode(text);
            assert!(!unmapped, "{charset}: {text}");
            let s = read(&bytes);
            assert!(s.switched && !s.disqualified, "{charset}: {s:?}");
            assert_eq!(s.charset(), charset, "{text}: {bytes:?}");
            for split in 1..bytes.len() {
                let mut t = Iso2022Scorer::new(Charset::Iso2022Jp).unwrap();
                t.feed(&bytes[..split]);
                t.feed(&bytes[split..]);
                assert_eq!((t.cost(), t.refund(), t.charset()), (s.cost(), s.refund(), charset));
            }
        }
        // GB 2312 (which its encoder writes after the others) and Latin-1
        // through G2.
        assert_eq!(read(b"\x1b$A;y\x1b(B").charset(), Charset::Iso2022Jp2);
        let latin1 = read(b"caf\x1b.A\x1bNi");
        assert!(latin1.switched && latin1.charset() == Charset::Iso2022Jp2, "{latin1:?}");
        // GB 2312 and JIS X 0212 are scored as their tables say or by
        // validity, never for free.
        assert!(read(b"\x1b$A;y\x1b(B").cost() > ESCAPE_COST * 2);
        assert!(read(b"\x1b$(D0!\x1b(B").cost() > ESCAPE_COST * 2);
    }

    #[test]
    fn escapes_no_member_has_together_rule_the_family_out() {
        // ISO-2022-JP-2's KS X 1001 and ISO-2022-JP-3's plane 2.
        assert!(read(b"\x1b$(C0!\x1b$(P!!\x1b(B").disqualified);
        // A single shift with nothing in G2, a code JIS X 0212 leaves empty,
        // one of the codes ISO-2022-JP-3's plane 1 lacks (2004's `俱`).
        assert!(read(b"\x1bNa").disqualified);
        assert!(read(b"\x1b$(D!!").disqualified);
        assert!(read(b"\x1b$(O.!").disqualified);
        assert!(!read(b"\x1b$(Q.!").disqualified);
        // A Greek letter after ISO-8859-7's designation; 0x2E is empty.
        assert!(!read(b"\x1b.F\x1bNa").disqualified);
        assert!(read(b"\x1b.F\x1bN.").disqualified);
        assert!(read(b"\x1b$(Z").disqualified);
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
