//! ISO-2022-JP byte for byte, ISO-2022-JP-2 (RFC 1554), the multilingual
//! Japanese of old mail, and ISO-2022-JP-3 and ISO-2022-JP-2004, JIS X 0213
//! in seven bits.
//!
//! ISO-2022-JP is the Encoding Standard's state machine (ASCII, JIS X 0201
//! Roman and katakana, JIS X 0208), read here for lossless escaping
//! ([`super::iso_2022`]); `encoding_rs` decodes it otherwise. Two
//! departures: an escape sequence right after another is not an error, and
//! a broken one is malformed with the byte after `ESC` (which the standard
//! reads again).
//!
//! ISO-2022-JP-2 is the same machine with more sets designated to G0 (each
//! 94×94, two bytes 0x21-0x7E a character): `ESC $ A` GB 2312 (through
//! [`super::hz`]'s table), `ESC $ ( C` KS X 1001 ([`super::ksx1001`]),
//! `ESC $ ( D` JIS X 0212 ([`super::jis_x0212`]), and the four-byte spellings
//! `ESC $ ( @`, `ESC $ ( A`, `ESC $ ( B`; and with G2, the upper half of
//! ISO-8859-1 (`ESC . A`) or ISO-8859-7 (`ESC . F`), of which one character
//! follows each single shift `ESC N` (bytes 0x20-0x7F, 0x80 added).
//! JIS X 0208 is the Encoding Standard's (with the NEC and IBM rows) in
//! both.
//!
//! It reads as Python's `iso2022_jp_2` codec does (the tests compare every
//! code of every set and random streams), except, on purpose, where the
//! ISO-2022-JP machine is stricter or larger: a newline or a control while
//! a double-byte set is in G0 is malformed (Python reads it and stays in the
//! set; RFC 1554 has writers return to ASCII before a line ends); SO, SI,
//! `ESC $ ) C` and `ESC N` before any G2 designation are malformed (Python
//! passes SO and SI through and ignores the other two), as is an `ESC` that
//! begins no escape sequence (Python passes it through as U+001B); `ESC ( I` (half-width
//! katakana), the NEC and IBM rows of JIS X 0208, and ISO-8859-7's euro,
//! drachma and ypogegrammeni (0xA4, 0xA5, 0xAA, as the Encoding Standard's
//! ISO-8859-7) are read, which Python's codec lacks.
//!
//! ISO-2022-JP-3 and ISO-2022-JP-2004 (JIS X 0213 annex 2) are the
//! ISO-2022-JP machine with JIS X 0213's planes in G0 ([`super::jis_x0213`],
//! EUC-JIS-2004's readings): `ESC $ ( O` plane 1 as JIS X 0213:2000 has
//! it (without the ten characters the 2004 edition added), `ESC $ ( Q`
//! (ISO-2022-JP-2004 only) plane 1 of 2004, `ESC $ ( P` plane 2; a code
//! that stands for a letter and a combining mark (`か゚`) gives both. They
//! read as Python's `iso2022_jp_3` and `iso2022_jp_2004` do, but, as
//! ISO-2022-JP-2, for the ISO-2022-JP machine's rules and its JIS X 0208
//! (the Encoding Standard's; Python's codecs read JIS X 0208 by JIS's
//! mapping and lack `ESC ( J`, `ESC ( I` and `ESC $ @`), and for
//! `ESC $ ( O` in ISO-2022-JP-2004 (JIS X 0213:2004 keeps it for the 2000
//! repertoire; Python's codec rejects it), and for the full-width tilde at
//! plane 1, row 2, cell 18 (`22 32`), U+FF5E as EUC-JIS-2004 reads it
//! (Python's ISO-2022 codecs read ASCII's `~` there).
//!
//! The encoder writes each character in the set in G0 if that set has it
//! (else in G2 if designated), and otherwise switches in Python's order:
//! ASCII, JIS X 0201 Roman (`¥`, `‾`), JIS X 0208, JIS X 0212, KS X 1001,
//! GB 2312; then, which Python's encoder never writes, ISO-8859-1 and
//! ISO-8859-7 through G2 (`ESC . A ESC N` and the byte less 0x80) and
//! half-width katakana (`ESC ( I`). ISO-2022-JP-3 and -2004 switch to
//! JIS X 0208 (leaving the characters of its NEC and IBM rows, which
//! Python does not read, to JIS X 0213 where it has them: all but `∑` and
//! a few), then to plane 1 of their edition, plane 2, JIS X 0201
//! Roman and katakana, and write a letter and a combining mark that plane
//! 1 has as one code (`か゚`) so, holding back a letter that may begin such
//! a pair, as EUC-JIS-2004's encoder and Python's do (not when writing
//! escaped bytes back: each character then goes as it was read). It
//! returns to ASCII at the end of each line and of the text, as RFC 1554
//! asks. It is the ISO-2022 follower ([`super::iso_2022::Follower`]) given
//! no raw bytes.

use super::jis_x0213::{self, Layout};
use super::{hz, jis_x0212, ksx1001, ByteDecoder, Step};

const ESC: u8 = 0x1B;
/// The final byte of SS2 (`ESC N`).
const SS2: u8 = b'N';

/// The set in G0 (the detector's seven-bit reading checks the codes of
/// those it has no table for with [`Mode::defines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Ascii,
    Roman,
    Katakana,
    Jis0208,
    /// ISO-2022-JP-2 only, as the two below.
    Jis0212,
    Ksc5601,
    Gb2312,
    /// JIS X 0213 plane 1 as its 2000 edition has it (ISO-2022-JP-3 and
    /// -2004).
    Plane1Of2000,
    /// JIS X 0213 plane 1 (ISO-2022-JP-2004).
    Plane1,
    /// JIS X 0213 plane 2 (ISO-2022-JP-3 and -2004).
    Plane2,
}

/// The codes of plane 1 that JIS X 0213:2004 added (俱 剝 𠮟 吞 噓 姸 屛 幷 瘦
/// 繫): ISO-2022-JP-3's `ESC $ ( O` lacks them.
const ADDED_IN_2004: [(u8, u8); 10] = [
    (0x2E, 0x21),
    (0x2F, 0x7E),
    (0x4F, 0x54),
    (0x4F, 0x7E),
    (0x74, 0x27),
    (0x7E, 0x7A),
    (0x7E, 0x7B),
    (0x7E, 0x7C),
    (0x7E, 0x7D),
    (0x7E, 0x7E),
];

/// Which of the encodings a [`Decoder`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    Jp,
    Jp2,
    Jp3,
    Jp2004,
}

impl Mode {
    /// The escape sequence that designates this set to G0.
    fn designation(self) -> &'static [u8] {
        match self {
            Mode::Ascii => b"\x1B(B",
            Mode::Roman => b"\x1B(J",
            Mode::Katakana => b"\x1B(I",
            Mode::Jis0208 => b"\x1B$B",
            Mode::Jis0212 => b"\x1B$(D",
            Mode::Ksc5601 => b"\x1B$(C",
            Mode::Gb2312 => b"\x1B$A",
            Mode::Plane1Of2000 => b"\x1B$(O",
            Mode::Plane1 => b"\x1B$(Q",
            Mode::Plane2 => b"\x1B$(P",
        }
    }

    /// The text at `row` and `cell` (0x21-0x7E) of a double-byte set.
    fn decode(self, row: u8, cell: u8) -> Option<Step> {
        let char = |c: Option<char>| c.map(Step::Char);
        match self {
            Mode::Jis0208 => char(jis0208(row, cell)),
            Mode::Jis0212 => char(jis_x0212::decode(row, cell)),
            Mode::Ksc5601 => char(ksx1001::decode(row, cell)),
            Mode::Gb2312 => char(hz::decode_pair(row, cell)),
            Mode::Plane1Of2000 if ADDED_IN_2004.contains(&(row, cell)) => None,
            Mode::Plane1Of2000 | Mode::Plane1 => Layout::Euc.step([1, row, cell]),
            Mode::Plane2 => Layout::Euc.step([2, row, cell]),
            Mode::Ascii | Mode::Roman | Mode::Katakana => None,
        }
    }

    /// Whether a double-byte set has a character at `row` and `cell`
    /// (0x21-0x7E).
    pub(crate) fn defines(self, row: u8, cell: u8) -> bool {
        self.decode(row, cell).is_some()
    }

    /// The bytes of `c` in this set, if it has them.
    fn encode(self, c: char) -> Option<Vec<u8>> {
        let pair = |p: Option<(u8, u8)>| p.map(|(row, cell)| vec![row, cell]);
        let byte = u8::try_from(c).ok().filter(|&b| b < 0x80 && !matches!(b, 0x0E | 0x0F | ESC));
        match (self, c) {
            (Mode::Ascii, _) => byte.map(|b| vec![b]),
            (Mode::Roman, '¥') => Some(vec![0x5C]),
            (Mode::Roman, '‾') => Some(vec![0x7E]),
            (Mode::Roman, _) => byte.filter(|&b| b != 0x5C && b != 0x7E).map(|b| vec![b]),
            (Mode::Katakana, '\u{FF61}'..='\u{FF9F}') => {
                Some(vec![(u32::from(c) - 0xFF61 + 0x21) as u8])
            }
            (Mode::Katakana, _) => None,
            (Mode::Jis0208, _) => jis0208_code(c).map(Vec::from),
            (Mode::Jis0212, _) => pair(jis_x0212::encode(c)),
            (Mode::Ksc5601, _) => pair(ksx1001::encode(c)),
            (Mode::Gb2312, _) => hz::encode_pair(c).map(Vec::from),
            (Mode::Plane1Of2000 | Mode::Plane1 | Mode::Plane2, _) => {
                let plane = if self == Mode::Plane2 { 2 } else { 1 };
                match Layout::Euc.encode(c)? {
                    [p, row, cell] if p == plane => {
                        let added =
                            self == Mode::Plane1Of2000 && ADDED_IN_2004.contains(&(row, cell));
                        (!added).then(|| vec![row, cell])
                    }
                    _ => None,
                }
            }
        }
    }

    fn double(self) -> bool {
        !matches!(self, Mode::Ascii | Mode::Roman | Mode::Katakana)
    }
}

/// The set in G2 (ISO-2022-JP-2): the upper half of ISO-8859-1 or -7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum G2 {
    Latin1,
    Greek,
}

impl G2 {
    fn designation(self) -> &'static [u8] {
        match self {
            G2::Latin1 => b"\x1B.A",
            G2::Greek => b"\x1B.F",
        }
    }

    /// The character of `byte` (0x20-0x7F) after SS2.
    fn decode(self, byte: u8) -> Option<char> {
        match self {
            G2::Latin1 => Some(char::from(byte | 0x80)),
            G2::Greek => encoding_rs::ISO_8859_7
                .decode_without_bom_handling_and_without_replacement(&[byte | 0x80])?
                .chars()
                .next(),
        }
    }

    /// Whether `byte` (0x20-0x7F) after SS2 is a character of this set.
    pub(crate) fn defines(self, byte: u8) -> bool {
        self.decode(byte).is_some()
    }

    /// The byte after SS2 for `c`, if this set has it.
    fn encode(self, c: char) -> Option<u8> {
        match self {
            G2::Latin1 => u8::try_from(c).ok().filter(|&b| b >= 0xA0).map(|b| b & 0x7F),
            G2::Greek => (0x20..=0x7F).find(|&b| self.decode(b) == Some(c)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between characters.
    Idle,
    /// After `ESC` and up to two more bytes of an escape sequence.
    Escape([u8; 2], u8),
    /// After the first byte of a double-byte character.
    Trail(u8),
    /// After SS2.
    Shifted,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Decoder {
    variant: Variant,
    mode: Mode,
    g2: Option<G2>,
    state: State,
}

impl Decoder {
    pub(super) fn new(variant: Variant) -> Decoder {
        Decoder { variant, mode: Mode::Ascii, g2: None, state: State::Idle }
    }

    /// The bytes of `c` in `mode`, as the encoder writes it: ISO-2022-JP-3
    /// and -2004 leave the characters of JIS X 0208's NEC and IBM rows to
    /// JIS X 0213 where it has them (Python reads no vendor row).
    fn code(&self, mode: Mode, c: char) -> Option<Vec<u8>> {
        let bytes = mode.encode(c)?;
        // Not a code that reads as another character (U+2212 MINUS SIGN,
        // which `encoding_rs` writes at JIS X 0208's U+FF0D): ISO-2022-JP's
        // encoder is the Encoding Standard's, the others write text back.
        let reads_back = |b: &[u8]| {
            !mode.double() || matches!(mode.decode(b[0], b[1]), Some(Step::Char(d)) if d == c)
        };
        if self.variant != Variant::Jp && !reads_back(&bytes) {
            return None;
        }
        let plane1 = match self.variant {
            Variant::Jp3 => Mode::Plane1Of2000,
            Variant::Jp2004 => Mode::Plane1,
            Variant::Jp | Variant::Jp2 => return Some(bytes),
        };
        let vendor = mode == Mode::Jis0208 && matches!(bytes[0], 0x2D | 0x79..=0x7C);
        let elsewhere = || plane1.encode(c).is_some() || Mode::Plane2.encode(c).is_some();
        (!(vendor && elsewhere())).then_some(bytes)
    }

    /// No sequence is under way.
    pub(super) fn idle(&self) -> bool {
        self.state == State::Idle
    }

    /// In ASCII, where a stream starts and ends.
    pub(super) fn at_start(&self) -> bool {
        self.mode == Mode::Ascii
    }

    /// The bytes of `c` in the current state without a switch, if it has
    /// them (the decoder must be idle): in G0, or in G2 after SS2.
    pub(super) fn here(&self, c: char) -> Option<Vec<u8>> {
        self.code(self.mode, c).or_else(|| self.g2_code(c))
    }

    /// The bytes of `c` through the G2 set designated, if it has it.
    fn g2_code(&self, c: char) -> Option<Vec<u8>> {
        let byte = self.g2?.encode(c)?;
        Some(vec![ESC, SS2, byte])
    }

    /// Whether `bytes`, read as `c` just now, are what the encoder writes
    /// for `c` in the state they were read in ([`Decoder::here`]: a
    /// character G0 has is written there, even when read after SS2, as
    /// `ESC N w`, ISO-8859-1's `÷`, in JIS X 0208 mode).
    pub(super) fn writes_back(&self, c: char, bytes: &[u8]) -> bool {
        self.here(c).as_deref() == Some(bytes)
    }

    /// The plane 1 code of a letter and a combining mark that JIS X 0213
    /// writes as one, in `mode` if it is plane 1 of this encoding.
    fn pair_code(&self, mode: Mode, base: char, mark: char) -> Option<Vec<u8>> {
        let plane1 = matches!(
            (self.variant, mode),
            (Variant::Jp3, Mode::Plane1Of2000) | (Variant::Jp2004, Mode::Plane1)
        );
        let [_, row, cell] = jis_x0213::compose(base, mark).filter(|_| plane1)?;
        Some(vec![row, cell])
    }

    /// The bytes of a letter and a mark written as one code, in the current
    /// mode without a switch.
    pub(super) fn here_pair(&self, base: char, mark: char) -> Option<Vec<u8>> {
        self.pair_code(self.mode, base, mark)
    }

    /// The bytes of a letter and a mark written as one code, with the switch
    /// to plane 1 first (ISO-2022-JP-3 and -2004).
    pub(super) fn switch_for_pair(&self, base: char, mark: char) -> Option<Vec<u8>> {
        let mode = match self.variant {
            Variant::Jp3 => Mode::Plane1Of2000,
            Variant::Jp2004 => Mode::Plane1,
            Variant::Jp | Variant::Jp2 => return None,
        };
        Some([mode.designation(), &self.pair_code(mode, base, mark)?].concat())
    }

    /// The bytes of `c` with the switch it needs, in the encoder's order
    /// (see the module docs); not for ISO-2022-JP, which `encoding_rs`
    /// writes.
    pub(super) fn switch_for(&self, c: char) -> Option<Vec<u8>> {
        use Mode::*;
        let g0: &[Mode] = match self.variant {
            Variant::Jp | Variant::Jp2 => &[Ascii, Roman, Jis0208, Jis0212, Ksc5601, Gb2312],
            Variant::Jp3 => &[Ascii, Jis0208, Plane1Of2000, Plane2, Roman],
            Variant::Jp2004 => &[Ascii, Jis0208, Plane1, Plane2, Roman],
        };
        if let Some((mode, bytes)) = g0.iter().find_map(|&m| Some((m, self.code(m, c)?))) {
            return Some([mode.designation(), &bytes].concat());
        }
        if self.variant == Variant::Jp2 {
            if let Some(bytes) = self.g2_code(c) {
                return Some(bytes);
            }
            let g2 = [G2::Latin1, G2::Greek].into_iter().find_map(|g| Some((g, g.encode(c)?)));
            if let Some((g2, byte)) = g2 {
                return Some([g2.designation(), &[ESC, SS2, byte]].concat());
            }
        }
        let bytes = Katakana.encode(c)?;
        Some([Katakana.designation(), &bytes].concat())
    }

    /// Reads the byte after `ESC` and those after it (`seen` of them
    /// before it, in `prefix`); `None` if the byte continues the sequence.
    fn escape(&mut self, prefix: [u8; 2], seen: u8, byte: u8) -> Option<Step> {
        let jp2 = self.variant == Variant::Jp2;
        let jp2004 = self.variant == Variant::Jp2004;
        let jis_x0213 = jp2004 || self.variant == Variant::Jp3;
        let mode = match (&prefix[..usize::from(seen)], byte) {
            ([], b'$' | b'(') => return None,
            ([], b'.') if jp2 => return None,
            ([], SS2) if jp2 => {
                return Some(match self.g2 {
                    Some(_) => {
                        self.state = State::Shifted;
                        Step::Pending
                    }
                    None => Step::Malformed(2),
                })
            }
            ([b'$'], b'(') if self.variant != Variant::Jp => return None,
            ([b'('], b'B') => Mode::Ascii,
            ([b'('], b'J') => Mode::Roman,
            ([b'('], b'I') => Mode::Katakana,
            ([b'$'], b'@' | b'B') => Mode::Jis0208,
            ([b'$'], b'A') if jp2 => Mode::Gb2312,
            ([b'$', b'('], b'@' | b'B') => Mode::Jis0208,
            ([b'$', b'('], b'A') if jp2 => Mode::Gb2312,
            ([b'$', b'('], b'C') if jp2 => Mode::Ksc5601,
            ([b'$', b'('], b'D') if jp2 => Mode::Jis0212,
            ([b'$', b'('], b'O') if jis_x0213 => Mode::Plane1Of2000,
            ([b'$', b'('], b'Q') if jp2004 => Mode::Plane1,
            ([b'$', b'('], b'P') if jis_x0213 => Mode::Plane2,
            ([b'.'], b'A' | b'F') => {
                self.g2 = Some(if byte == b'A' { G2::Latin1 } else { G2::Greek });
                return Some(Step::Pending);
            }
            _ => return Some(Step::MalformedBefore(seen + 1)),
        };
        self.mode = mode;
        Some(Step::Pending)
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Escape(mut prefix, seen) => {
                self.escape(prefix, seen, byte).unwrap_or_else(|| {
                    prefix[usize::from(seen)] = byte;
                    self.state = State::Escape(prefix, seen + 1);
                    Step::Pending
                })
            }
            State::Shifted => match byte {
                0x20..=0x7F => {
                    self.g2.and_then(|g| g.decode(byte)).map_or(Step::Malformed(3), Step::Char)
                }
                _ => Step::MalformedBefore(2),
            },
            State::Trail(_) if byte == ESC => Step::MalformedBefore(1),
            State::Trail(lead) if (0x21..=0x7E).contains(&byte) => {
                self.mode.decode(lead, byte).unwrap_or(Step::Malformed(2))
            }
            State::Trail(_) => Step::Malformed(2),
            State::Idle if byte == ESC => {
                self.state = State::Escape([0; 2], 0);
                Step::Pending
            }
            State::Idle => match (self.mode, byte) {
                (_, 0x0E | 0x0F) | (_, 0x80..=0xFF) => Step::Malformed(1),
                (Mode::Ascii, _) => Step::Char(char::from(byte)),
                (Mode::Roman, 0x5C) => Step::Char('¥'),
                (Mode::Roman, 0x7E) => Step::Char('‾'),
                (Mode::Roman, _) => Step::Char(char::from(byte)),
                (Mode::Katakana, 0x21..=0x5F) => katakana(byte),
                (mode, 0x21..=0x7E) if mode.double() => {
                    self.state = State::Trail(byte);
                    Step::Pending
                }
                _ => Step::Malformed(1),
            },
        }
    }

    fn finish(&mut self) -> u8 {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle => 0,
            State::Trail(_) => 1,
            State::Escape(_, seen) => seen + 1,
            State::Shifted => 2,
        }
    }
}

fn katakana(byte: u8) -> Step {
    char::from_u32(0xFF61 + u32::from(byte) - 0x21).map_or(Step::Malformed(1), Step::Char)
}

/// The JIS X 0208 character at row and cell `lead`, `trail` (0x21-0x7E):
/// EUC-JP's at the same bytes with the high bit set.
fn jis0208(lead: u8, trail: u8) -> Option<char> {
    let mut decoder = encoding_rs::EUC_JP.new_decoder_without_bom_handling();
    let mut buf = [0; 8];
    let (result, _, written) =
        decoder.decode_to_utf8_without_replacement(&[lead | 0x80, trail | 0x80], &mut buf, true);
    let text = std::str::from_utf8(&buf[..written]).ok()?;
    let mut chars = text.chars();
    match (result, chars.next(), chars.next()) {
        (encoding_rs::DecoderResult::InputEmpty, Some(c), None) => Some(c),
        _ => None,
    }
}

/// The JIS X 0208 row and cell that EUC-JP's encoder writes for `c`.
fn jis0208_code(c: char) -> Option<[u8; 2]> {
    let mut encoder = encoding_rs::EUC_JP.new_encoder();
    let mut buf = [0; 8];
    let (result, _, written) =
        encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut [0; 4]), &mut buf, true);
    match (result, &buf[..written]) {
        (encoding_rs::EncoderResult::InputEmpty, &[a @ 0xA1..=0xFE, b @ 0xA1..=0xFE]) => {
            Some([a & 0x7F, b & 0x7F])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use charsight_tables::charmaps::Oracle;

    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    const JP2: Charset = Charset::Iso2022Jp2;

    /// The charset of a Python codec of the oracles.
    fn charset(codec: &str) -> Charset {
        match codec {
            "iso2022_jp_2" => Charset::Iso2022Jp2,
            "iso2022_jp_3" => Charset::Iso2022Jp3,
            "iso2022_jp_2004" => Charset::Iso2022Jp2004,
            _ => panic!("{codec}"),
        }
    }

    /// JIS X 0208's codes that Python reads by JIS's mapping and the
    /// Encoding Standard by Microsoft's: Python's character, charsight's.
    const JIS: [((u8, u8), char, char); 6] = [
        ((0x21, 0x41), '〜', '～'),
        ((0x21, 0x42), '‖', '∥'),
        ((0x21, 0x5D), '−', '－'),
        ((0x21, 0x71), '¢', '￠'),
        ((0x21, 0x72), '£', '￡'),
        ((0x22, 0x4C), '¬', '￢'),
    ];

    /// Codes that charsight reads on purpose as Python does not (see the
    /// module docs): the Encoding Standard's JIS X 0208 ([`JIS`]; the NEC
    /// row 13 and the IBM rows 89-92, which Python lacks), KS X 1001:2002's
    /// postal mark, ISO-8859-7's additions, and JIS X 0213's full-width
    /// tilde (Python's ISO-2022 codecs read it as ASCII's). Python's
    /// character, if any, for each.
    fn python_differs(designation: &str, code: &[u8], ours: char) -> Option<Option<char>> {
        match (designation, code) {
            ("$@" | "$B" | "$(@" | "$(B", &[row, cell]) => {
                if let Some(&(_, python, charsight)) = JIS.iter().find(|j| j.0 == (row, cell)) {
                    assert_eq!(ours, charsight, "{row:02x} {cell:02x}");
                    return Some(Some(python));
                }
                matches!(row, 0x2D | 0x79..=0x7C).then_some(None)
            }
            ("$(C", &[0x22, 0x68]) => Some(None),
            ("$(O" | "$(Q", &[0x22, 0x32]) => {
                assert_eq!(ours, '～');
                Some(Some('~'))
            }
            (".F", &[0x24 | 0x25 | 0x2A]) => Some(None),
            _ => None,
        }
    }

    #[test]
    fn agrees_with_python_on_every_code_of_every_set() {
        let mut sets = 0;
        let mut differences = BTreeMap::new();
        let lines = testing::charmaps_data("python-iso2022.txt");
        for line in &lines {
            let [codec, designation, mappings, hash] = line.split(' ').collect::<Vec<_>>()[..]
            else {
                panic!("{line}")
            };
            let charset = charset(codec);
            let codes: Vec<Vec<u8>> = if designation.starts_with('.') {
                (0x20..=0x7F).map(|b| vec![b]).collect()
            } else {
                (0x21..=0x7E).flat_map(|r| (0x21..=0x7E).map(move |c| vec![r, c])).collect()
            };
            let mut found = Vec::new();
            for code in codes {
                let invoke: &[u8] = if designation.starts_with('.') { b"\x1bN" } else { b"" };
                let bytes = [b"\x1b", designation.as_bytes(), invoke, &code].concat();
                let Some(c) = testing::decode_one(charset, &bytes) else { continue };
                match python_differs(designation, &code, c) {
                    Some(python) => {
                        *differences.entry(codec).or_insert(0) += 1;
                        found.extend(python.map(|p| (code, p)));
                    }
                    None => found.push((code, c)),
                }
            }
            let oracle = Oracle {
                mappings: mappings.parse().unwrap(),
                fnv1a64: u64::from_str_radix(hash, 16).unwrap(),
            };
            testing::assert_oracle(&format!("{codec} {designation}"), found, &oracle);
            sets += 1;
        }
        assert_eq!(sets, 10 + 4 + 4);
        // Four spellings of JIS X 0208 with 463 each, the postal mark, three
        // Greek letters; two spellings in the others, and the full-width tilde.
        let expected = [
            ("iso2022_jp_2", 4 * 463 + 1 + 3),
            ("iso2022_jp_2004", 2 * 463 + 1),
            ("iso2022_jp_3", 2 * 463 + 1),
        ];
        assert_eq!(differences, BTreeMap::from(expected));
    }

    #[test]
    fn agrees_with_python_on_random_streams() {
        // Python stops at the first error: the text before it and its offset
        // (`illegal@N`), or `incomplete` for an unfinished sequence at the
        // end, or `ok` and the whole text.
        let mut kinds = BTreeMap::new();
        let lines = testing::charmaps_data("python-iso2022-streams.txt");
        for line in &lines {
            let [codec, input, status, output] = line.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{line}")
            };
            let input = if input == "." { Vec::new() } else { testing::hex_bytes(input) };
            let output = String::from_utf8(testing::hex_bytes(&output[1..])).unwrap();
            let (text, bad) = testing::decode_split(charset(codec), &input, &[]);
            // JIS X 0208's six codes as Python reads them.
            let text: String =
                text.chars().map(|c| JIS.iter().find(|j| j.2 == c).map_or(c, |j| j.1)).collect();
            let kind = match (status, bad.first()) {
                ("ok", None) => {
                    assert_eq!(text, output, "{codec} {input:02x?}");
                    "both read it"
                }
                // Python reads a control in a double-byte set, SO and SI, SS2
                // before any G2 designation, and passes through an ESC that
                // begins no escape sequence it knows.
                ("ok", Some((_, bytes))) => {
                    let control = bytes.iter().any(|&b| b < 0x20 && b != ESC);
                    assert!(control || bytes[0] == ESC, "{codec} {input:02x?}: {bytes:02x?}");
                    "a control or escape that only Python reads"
                }
                (_, first) => {
                    let at = match status.strip_prefix("illegal@") {
                        Some(at) => at.parse::<u64>().unwrap(),
                        None => input.len() as u64,
                    };
                    // The text before Python's error is charsight's too, up to
                    // its own first error.
                    let before = text.split('\u{FFFD}').next().unwrap();
                    assert!(
                        output.starts_with(before) || before.starts_with(&output[..]),
                        "{codec} {input:02x?}: {before:?} / {output:?}"
                    );
                    match first {
                        Some((offset, _)) if *offset == at => "both fail at the same byte",
                        Some(_) => "both fail, elsewhere",
                        None => "a code only charsight reads",
                    }
                }
            };
            *kinds.entry((codec, kind)).or_insert(0) += 1;
        }
        for codec in ["iso2022_jp_2", "iso2022_jp_3", "iso2022_jp_2004"] {
            assert!(kinds[&(codec, "both read it")] >= 150, "{kinds:?}");
            assert!(kinds[&(codec, "both fail at the same byte")] >= 150, "{kinds:?}");
        }
    }

    #[test]
    fn known_strings() {
        // Python's iso2022_jp_2 writes the same bytes for these.
        testing::assert_known(
            JP2,
            &[
                ("a中가é", b"a\x1b$BCf\x1b$(C0!\x1b$(D+1\x1b(B"),
                ("中\n", b"\x1b$BCf\x1b(B\n"),
                ("¥‾", b"\x1b(J\\~\x1b(B"),
                ("丂", b"\x1b$(D0!\x1b(B"),
                ("", b""),
            ],
        );
        // Beyond Python's encoder: G2 for a no-break space and Greek tonos
        // letters JIS X 0208 lacks, half-width katakana.
        testing::assert_known(
            JP2,
            &[("\u{A0}₯", b"\x1b.A\x1bN \x1b.F\x1bN%"), ("ｱ", b"\x1b(I1\x1b(B")],
        );
    }

    #[test]
    fn jis_x0213_in_seven_bits() {
        // Python's iso2022_jp_2004 and iso2022_jp_3 write the same bytes.
        let jp2004 = Charset::Iso2022Jp2004;
        testing::assert_known(
            jp2004,
            &[("中俱", b"\x1b$BCf\x1b$(Q.!\x1b(B"), ("①𠂉", b"\x1b$(Q-!\x1b$(P!!\x1b(B")],
        );
        testing::assert_known(Charset::Iso2022Jp3, &[("①𠂉", b"\x1b$(O-!\x1b$(P!!\x1b(B")]);
        // JIS X 0213:2000 lacks 俱, and ISO-2022-JP-3 the 2004 designation.
        assert!(Charset::Iso2022Jp3.encode("俱").1);
        assert!(Charset::Iso2022Jp3.decode(b"\x1b$(O.!").1);
        assert!(Charset::Iso2022Jp3.decode(b"\x1b$(Q0!").1);
        assert_eq!(jp2004.decode(b"\x1b$(O0!\x1b(B"), ("亜".into(), false));
        // A letter and a combining mark in one code, written back as one,
        // as Python writes it (which then switches to JIS X 0208 for the
        // letter alone; plane 1 has it too).
        testing::assert_known(jp2004, &[("か\u{309A}か", b"\x1b$(Q$w$+\x1b(B")]);
        testing::assert_known(Charset::Iso2022Jp3, &[("か\u{309A}", b"\x1b$(O$w\x1b(B")]);
    }

    /// The text of every code of every set encodes back (to the same text,
    /// not always the same bytes: JIS X 0208's vendor rows go to JIS X 0213
    /// in ISO-2022-JP-3 and -2004).
    #[test]
    fn every_code_encodes_back() {
        let sets: [(Charset, &[&[u8]]); 3] = [
            (JP2, &[b"$B", b"$A", b"$(C", b"$(D", b".A\x1bN", b".F\x1bN"]),
            (Charset::Iso2022Jp3, &[b"$B", b"$(O", b"$(P"]),
            (Charset::Iso2022Jp2004, &[b"$B", b"$(O", b"$(Q", b"$(P"]),
        ];
        for (charset, designations) in sets {
            for designation in designations {
                for row in 0x20..=0x7F {
                    for cell in 0x21..=0x7E {
                        let code: &[u8] = if designation.len() > 3 { &[row] } else { &[row, cell] };
                        let bytes = [b"\x1b", *designation, code].concat();
                        let (text, malformed) = charset.decode(&bytes);
                        if malformed {
                            continue;
                        }
                        let (encoded, unmappable) = charset.encode(&text);
                        let encoded = encoded.into_owned();
                        assert!(!unmappable, "{charset} {bytes:02x?} {text}");
                        assert_eq!(
                            charset.decode(&encoded),
                            (text, false),
                            "{charset} {bytes:02x?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reads_every_designation_and_g2() {
        let bytes = b"\x1b$AVP\x1b$(AVP\x1b$(BCf\x1b$@Cf\x1b$(D+1\x1b.F\x1bNa\x1b.A\x1bNi\x1b(Ba";
        assert_eq!(JP2.decode(bytes), ("中中中中éαéa".into(), false));
        // ISO-2022-JP has none of them.
        assert!(Charset::Iso2022Jp.decode(b"\x1b$AVP").1);
    }

    #[test]
    fn malformed_sequences() {
        // SS2 before a G2 designation; a newline in a double-byte set; SO;
        // a G1 designation; SS2 before an 8-bit byte; an unfinished SS2.
        testing::assert_malformed(
            JP2,
            b"\x1bNa\x1b$A\n\x0e\x1b(B\x1b$)C\x1b.A\x1bN\xe9\x1bN",
            "\u{FFFD}a\u{FFFD}\u{FFFD}\u{FFFD})C\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, b"\x1bN"),
                (6, b"\n"),
                (7, b"\x0e"),
                (11, b"\x1b$"),
                (18, b"\x1bN"),
                (20, b"\xe9"),
                (21, b"\x1bN"),
            ],
        );
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(JP2, b"a\x1b$(D+1\x1b.F\x1bNa\x1b$AVP\x1b(B\x1b.");
    }
}
