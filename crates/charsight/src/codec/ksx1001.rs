//! KS X 1001, the 94×94 Korean set, through `encoding_rs`'s EUC-KR (whose
//! bytes A1-FE × A1-FE are KS X 1001 with 0x80 added to row and cell), for
//! the codecs that lay it out in other bytes: Johab and ISO-2022-KR.
//!
//! One character is added: KS X 1001:2002 put U+327E CIRCLED HANGUL IEUNG
//! U (the postal mark) at row 0x22, cell 0x68, which glibc's charmaps have
//! and the WHATWG EUC-KR index, older, lacks.

use encoding_rs::{DecoderResult, EncoderResult, EUC_KR};

/// The character KS X 1001:2002 added, and its row and cell.
const POSTAL_MARK: (char, (u8, u8)) = ('\u{327E}', (0x22, 0x68));

/// The character at `row` and `cell` (each 0x21 to 0x7E), if any.
pub(super) fn decode(row: u8, cell: u8) -> Option<char> {
    if (row, cell) == POSTAL_MARK.1 {
        return Some(POSTAL_MARK.0);
    }
    let mut decoder = EUC_KR.new_decoder_without_bom_handling();
    let mut utf8 = [0u8; 8];
    let (result, _, written) =
        decoder.decode_to_utf8_without_replacement(&[row | 0x80, cell | 0x80], &mut utf8, true);
    let text = std::str::from_utf8(&utf8[..written]).ok()?;
    let mut chars = text.chars();
    match (result, chars.next(), chars.next()) {
        (DecoderResult::InputEmpty, Some(c), None) if !c.is_ascii() => Some(c),
        _ => None,
    }
}

/// The row and cell (each 0x21 to 0x7E) of `c`, if KS X 1001 has it.
/// (EUC-KR's encoder also knows the Unified Hangul Code extension, whose
/// bytes are outside A1-FE: those are not KS X 1001.)
pub(super) fn encode(c: char) -> Option<(u8, u8)> {
    if c == POSTAL_MARK.0 {
        return Some(POSTAL_MARK.1);
    }
    let mut encoder = EUC_KR.new_encoder();
    let mut utf8 = [0u8; 4];
    let mut bytes = [0u8; 4];
    let (result, _, written) =
        encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut utf8), &mut bytes, true);
    match (result, &bytes[..written]) {
        (EncoderResult::InputEmpty, &[row @ 0xA1..=0xFE, cell @ 0xA1..=0xFE]) => {
            Some((row & 0x7F, cell & 0x7F))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_cells() {
        assert_eq!(decode(0x30, 0x21), Some('가'));
        assert_eq!(decode(0x21, 0x21), Some('\u{3000}'));
        assert_eq!(decode(0x4A, 0x21), Some('伽'));
        assert_eq!(decode(0x22, 0x7E), None);
        assert_eq!(encode('가'), Some((0x30, 0x21)));
        assert_eq!(encode('伽'), Some((0x4A, 0x21)));
        // In UHC's extension, not in KS X 1001.
        assert_eq!(encode('갂'), None);
        assert_eq!(encode('a'), None);
        assert_eq!(encode('€'), Some((0x22, 0x66)));
        assert_eq!(decode(0x22, 0x68), Some('㉾'));
        assert_eq!(encode('㉾'), Some((0x22, 0x68)));
    }

    #[test]
    fn every_cell_round_trips() {
        let cells = crate::codec::testing::cells_round_trip(decode, encode);
        assert_eq!(cells, charsight_tables::charmaps::EUC_KR_ORACLE.mappings);
    }
}
