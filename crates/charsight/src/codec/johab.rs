//! Johab (KS X 1001:1998 annex 3, Windows code page 1361), the Korean
//! encoding in which every modern Hangul syllable has its own code.
//!
//! - 0x00-0x7F: ASCII, 0x5C included (glibc follows Unicode's old
//!   `johab.txt` with U+20A9 WON SIGN there; Python, ICU and the files seen in
//!   the wild use it as the backslash).
//! - Leads 0x84-0xD3, trails 0x41-0x7E and 0x81-0xFE: Hangul. The 16 bits
//!   are `1 iiiii mmmmm fffff`, the initial consonant, vowel and final
//!   consonant codes of the syllable, composed algorithmically; a code with
//!   only one of the three (the others "fill") is a compatibility jamo.
//! - Leads 0xD9-0xDE and 0xE0-0xF9, trails 0x31-0x7E and 0x91-0xFE: the
//!   symbols (KS X 1001 rows 0x21-0x2C) and hanja (rows 0x4A-0x7D), two
//!   KS X 1001 rows per lead byte, looked up through [`super::ksx1001`].
//!
//! The generated oracle checks the whole two-byte mapping against glibc's
//! `JOHAB` charmap.

use super::{ksx1001, ByteDecoder, Step};

/// The "fill" codes: no initial, no vowel, no final consonant.
const FILL_INITIAL: u16 = 1;
const FILL_VOWEL: u16 = 2;
const FILL_FINAL: u16 = 1;

/// Vowel index (0-20, Unicode order) of each 5-bit vowel code; -1 if none.
const VOWEL_INDEX: [i8; 32] = [
    -1, -1, -1, 0, 1, 2, 3, 4, -1, -1, 5, 6, 7, 8, 9, 10, -1, -1, 11, 12, 13, 14, 15, 16, -1, -1,
    17, 18, 19, 20, -1, -1,
];

/// The 5-bit vowel code of each vowel index.
const VOWEL_CODE: [u16; 21] =
    [3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 26, 27, 28, 29];

/// Offset from U+3131 of the compatibility jamo of each initial (0-18).
const INITIAL_JAMO: [u8; 19] =
    [0, 1, 3, 6, 7, 8, 16, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29];

/// Offset from U+3131 of the compatibility jamo of each final (1-27; 0 is
/// "no final").
const FINAL_JAMO: [u8; 28] = [
    0xFF, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 25, 26,
    27, 28, 29,
];

/// Final index (0-27, 0 for none) of a 5-bit final code; -1 if none.
fn final_index(code: u16) -> Option<u16> {
    match code {
        FILL_FINAL => Some(0),
        2..=17 => Some(code - 1),
        19..=29 => Some(code - 2),
        _ => None,
    }
}

/// The 5-bit final code of a final index (0-27).
fn final_code(index: u16) -> u16 {
    match index {
        0 => FILL_FINAL,
        1..=16 => index + 1,
        _ => index + 2,
    }
}

fn jamo(offset: u8) -> Option<char> {
    char::from_u32(0x3131 + u32::from(offset))
}

/// The Hangul syllable or jamo of a code in the Hangul region.
fn decode_hangul(code: u16) -> Option<char> {
    let (initial, vowel, last) = ((code >> 10) & 31, (code >> 5) & 31, code & 31);
    let vowel_index = VOWEL_INDEX[usize::from(vowel)];
    match (initial, vowel, last) {
        (FILL_INITIAL, FILL_VOWEL, FILL_FINAL) => None,
        (2..=20, FILL_VOWEL, FILL_FINAL) => jamo(INITIAL_JAMO[usize::from(initial - 2)]),
        (FILL_INITIAL, _, FILL_FINAL) if vowel_index >= 0 => jamo(30 + vowel_index as u8),
        (FILL_INITIAL, FILL_VOWEL, _) => {
            let offset = FINAL_JAMO[usize::from(final_index(last)?)];
            // Only the finals that cannot begin a syllable are coded here.
            (!INITIAL_JAMO.contains(&offset)).then(|| jamo(offset)).flatten()
        }
        (2..=20, _, _) if vowel_index >= 0 => {
            let syllable = (u32::from(initial - 2) * 21 + vowel_index as u32) * 28
                + u32::from(final_index(last)?);
            char::from_u32(0xAC00 + syllable)
        }
        _ => None,
    }
}

/// The Johab code of a Hangul syllable or compatibility jamo.
fn encode_hangul(c: char) -> Option<u16> {
    let code = |initial: u16, vowel: u16, last: u16| 0x8000 | initial << 10 | vowel << 5 | last;
    match u32::from(c) {
        s @ 0xAC00..=0xD7A3 => {
            let s = (s - 0xAC00) as u16;
            let (initial, vowel, last) = (s / 588, s % 588 / 28, s % 28);
            Some(code(initial + 2, VOWEL_CODE[usize::from(vowel)], final_code(last)))
        }
        j @ 0x3131..=0x314E => {
            let offset = (j - 0x3131) as u8;
            match INITIAL_JAMO.iter().position(|&o| o == offset) {
                Some(initial) => Some(code(initial as u16 + 2, FILL_VOWEL, FILL_FINAL)),
                None => {
                    let last = FINAL_JAMO.iter().position(|&o| o == offset)? as u16;
                    Some(code(FILL_INITIAL, FILL_VOWEL, final_code(last)))
                }
            }
        }
        v @ 0x314F..=0x3163 => {
            Some(code(FILL_INITIAL, VOWEL_CODE[(v - 0x314F) as usize], FILL_FINAL))
        }
        _ => None,
    }
}

/// Where a lead byte of the symbol and hanja region puts its two rows:
/// the first lead byte and first KS X 1001 row of its block.
fn symbol_block(lead: u8) -> Option<(u8, u8)> {
    match lead {
        0xD9..=0xDE => Some((0xD9, 0x21)),
        0xE0..=0xF9 => Some((0xE0, 0x4A)),
        _ => None,
    }
}

/// The KS X 1001 row and cell of a symbol or hanja code.
fn symbol_row_cell(lead: u8, trail: u8) -> Option<(u8, u8)> {
    let (first_lead, first_row) = symbol_block(lead)?;
    let t = match trail {
        0x31..=0x7E => trail - 0x31,
        0x91..=0xFE => trail - 0x43,
        _ => return None,
    };
    let (row, cell) = (first_row + (lead - first_lead) * 2 + t / 94, 0x21 + t % 94);
    // KS X 1001's compatibility jamo are coded in the Hangul region.
    (row != 0x24 || cell > 0x53).then_some((row, cell))
}

/// The symbol or hanja code of a KS X 1001 row and cell.
fn symbol_code(row: u8, cell: u8) -> Option<[u8; 2]> {
    let (first_lead, first_row) = match row {
        0x21..=0x2C => (0xD9, 0x21),
        0x4A..=0x7D => (0xE0, 0x4A),
        _ => return None,
    };
    let t = (row - first_row) % 2 * 94 + (cell - 0x21);
    let trail = if t < 78 { 0x31 + t } else { 0x43 + t };
    Some([first_lead + (row - first_row) / 2, trail])
}

/// Whether a byte can start a two-byte code.
fn is_lead(byte: u8) -> bool {
    matches!(byte, 0x84..=0xD3) || symbol_block(byte).is_some()
}

/// Whether `trail` can follow `lead` (mapped or not).
fn is_trail(lead: u8, trail: u8) -> bool {
    match lead {
        0x84..=0xD3 => matches!(trail, 0x41..=0x7E | 0x81..=0xFE),
        _ => matches!(trail, 0x31..=0x7E | 0x91..=0xFE),
    }
}

/// The character of a two-byte code.
fn decode_pair(lead: u8, trail: u8) -> Option<char> {
    match lead {
        0x84..=0xD3 => decode_hangul(u16::from_be_bytes([lead, trail])),
        _ => {
            let (row, cell) = symbol_row_cell(lead, trail)?;
            ksx1001::decode(row, cell)
        }
    }
}

#[derive(Default)]
pub(super) struct Decoder {
    /// A lead byte waiting for its trail.
    lead: Option<u8>,
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        match self.lead.take() {
            None if byte < 0x80 => Step::Char(char::from(byte)),
            None if is_lead(byte) => {
                self.lead = Some(byte);
                Step::Pending
            }
            None => Step::Malformed(1),
            Some(lead) if !is_trail(lead, byte) => Step::MalformedBefore(1),
            Some(lead) => decode_pair(lead, byte).map_or(Step::Malformed(2), Step::Char),
        }
    }

    fn finish(&mut self) -> u8 {
        u8::from(self.lead.take().is_some())
    }
}

/// Appends the code of `c`; false if Johab has none.
pub(super) fn encode_char(c: char, dst: &mut Vec<u8>) -> bool {
    if c.is_ascii() {
        dst.push(c as u8);
        return true;
    }
    let code = encode_hangul(c).map(u16::to_be_bytes).or_else(|| {
        let (row, cell) = ksx1001::encode(c)?;
        symbol_code(row, cell)
    });
    code.map(|code| dst.extend_from_slice(&code)).is_some()
}

#[cfg(test)]
mod tests {
    use charsight_tables::charmaps::JOHAB_ORACLE;

    use crate::codec::testing;
    use crate::Charset;

    #[test]
    fn agrees_with_glibc_on_every_two_byte_code() {
        let mappings = (0x80..=0xFF).flat_map(|lead| (0..=0xFF).map(move |trail| [lead, trail]));
        testing::assert_oracle("JOHAB", testing::mappings(Charset::Johab, mappings), &JOHAB_ORACLE);
    }

    #[test]
    fn known_strings() {
        // Checked with Python's johab codec and glibc's iconv (which reads
        // 0x5C as U+20A9).
        testing::assert_known(
            Charset::Johab,
            &[
                ("한국어", b"\xd0\x65\x8a\x82\xb4\xe1"),
                ("가힣 ㄱㅏㄳ", b"\x88\x61\xd3\xbd\x20\x88\x41\x84\x61\x84\x44"),
                ("C:\\ 伽 ×", b"C:\\ \xe0\x31 \xd9\x4f"),
                ("【】∥", b"\xd9\x4c\xd9\x4d\xd9\x3b"),
            ],
        );
    }

    #[test]
    fn every_mapped_code_round_trips() {
        for lead in 0x80..=0xFF {
            for trail in 0..=0xFF {
                if let Some(c) = testing::decode_one(Charset::Johab, &[lead, trail]) {
                    assert_eq!(Charset::Johab.encode(&c.to_string()).0[..], [lead, trail], "{c}");
                }
            }
        }
    }

    #[test]
    fn malformed_sequences() {
        // A lead before a space; an unused code; a byte that starts
        // nothing; a truncated code at the end.
        testing::assert_malformed(
            Charset::Johab,
            b"\x88 \x84\x41\xff\xd9",
            "\u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}",
            &[(0, &[0x88]), (2, &[0x84, 0x41]), (4, &[0xFF]), (5, &[0xD9])],
        );
        assert_eq!(Charset::Johab.encode("갂\u{1100}"), (b"\x88\x63&#4352;"[..].into(), true));
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(Charset::Johab, b"\xd0\x65\x8a\x82 \x88A\xd9\x3b\xe0");
    }
}
