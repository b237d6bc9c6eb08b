//! EUC-TW: Traditional Chinese in CNS 11643, with glibc's planes (1-7 and
//! 15) from the generated tables.
//!
//! - 0x00-0x7F: ASCII.
//! - A1-FE, A1-FE: plane 1, row and cell (each minus 0x80).
//! - 8E, A0+P, A1-FE, A1-FE: plane P (1 to 16). The four-byte form of plane
//!   1 decodes as the two-byte one; the encoder writes the two-byte form, and
//!   for a character in two planes (U+5344) the lower plane.

use std::sync::OnceLock;

use charsight_tables::charmaps::{
    EUC_TW_CELLS, EUC_TW_NO_ROW, EUC_TW_PLANE2, EUC_TW_PLANES, EUC_TW_ROWS,
};

use super::{ByteDecoder, Step};

/// Single shift 2: the next three bytes are a plane and a character.
const SS2: u8 = 0x8E;

fn is_gr94(byte: u8) -> bool {
    (0xA1..=0xFE).contains(&byte)
}

/// The index of a CNS 11643 cell in the generated tables, if its row has
/// any character. `row` and `cell` are bytes A1-FE.
fn cell_index(plane: u8, row: u8, cell: u8) -> Option<usize> {
    let plane = EUC_TW_PLANES.iter().position(|&p| p == plane)?;
    let row = EUC_TW_ROWS[plane][usize::from(row - 0xA1)];
    (row != EUC_TW_NO_ROW).then(|| usize::from(row) * 94 + usize::from(cell - 0xA1))
}

/// The character of a CNS 11643 cell; `row` and `cell` are bytes A1-FE
/// (ISO-2022-CN's 21-7E with the high bit set).
pub(super) fn decode_cell(plane: u8, row: u8, cell: u8) -> Option<char> {
    let index = cell_index(plane, row, cell)?;
    let low = EUC_TW_CELLS[index];
    let plane2 = EUC_TW_PLANE2[index / 8] >> (index % 8) & 1;
    // U+20000 is a cell whose low 16 bits are 0.
    let code_point = u32::from(plane2) << 17 | u32::from(low);
    (code_point != 0).then(|| char::from_u32(code_point)).flatten()
}

#[derive(Default)]
pub(super) struct Decoder {
    /// The bytes of an unfinished character: a plane 1 lead, or SS2 and up
    /// to two more.
    pending: [u8; 3],
    pending_len: u8,
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        let pending = std::mem::take(&mut self.pending_len);
        let decoded = match (&self.pending[..usize::from(pending)], byte) {
            ([], 0x00..=0x7F) => return Step::Char(char::from(byte)),
            ([], _) if byte == SS2 || is_gr94(byte) => None,
            ([], _) => return Step::Malformed(1),
            (&[SS2], 0xA1..=0xB0) | (&[SS2, _], 0xA1..=0xFE) => None,
            (&[SS2, plane, row], 0xA1..=0xFE) => {
                Some(decode_cell(plane - 0xA0, row, byte).ok_or(4))
            }
            (&[row @ 0xA1..=0xFE], 0xA1..=0xFE) => Some(decode_cell(1, row, byte).ok_or(2)),
            _ => return Step::MalformedBefore(pending),
        };
        match decoded {
            Some(Ok(c)) => Step::Char(c),
            Some(Err(len)) => Step::Malformed(len),
            None => {
                self.pending[usize::from(pending)] = byte;
                self.pending_len = pending + 1;
                Step::Pending
            }
        }
    }

    fn finish(&mut self) -> u8 {
        std::mem::take(&mut self.pending_len)
    }
}

/// Every character of the tables with its code, sorted: the code point in
/// the high bits, then the plane's index, row and cell (so that the lower
/// plane comes first). Built on first use.
fn reverse() -> &'static [u64] {
    static REVERSE: OnceLock<Vec<u64>> = OnceLock::new();
    REVERSE.get_or_init(|| {
        let mut reverse = Vec::with_capacity(EUC_TW_CELLS.len());
        for (plane_index, &plane) in EUC_TW_PLANES.iter().enumerate() {
            for row in 0xA1..=0xFE {
                for cell in 0xA1..=0xFE {
                    if let Some(c) = decode_cell(plane, row, cell) {
                        let code = u64::from(u32::from(c)) << 24
                            | (plane_index as u64) << 16
                            | u64::from(row) << 8
                            | u64::from(cell);
                        reverse.push(code);
                    }
                }
            }
        }
        reverse.sort_unstable();
        reverse
    })
}

/// Every CNS 11643 cell of `c`: plane, row and cell (bytes A1-FE), the
/// lower plane first.
pub(super) fn cells_of(c: char) -> impl Iterator<Item = (u8, u8, u8)> {
    let reverse = reverse();
    let code_point = u64::from(u32::from(c));
    let found = reverse.partition_point(|&code| code >> 24 < code_point);
    reverse[found..].iter().take_while(move |&&code| code >> 24 == code_point).map(|&code| {
        let [cell, row, plane_index, ..] = code.to_le_bytes();
        (EUC_TW_PLANES[usize::from(plane_index)], row, cell)
    })
}

/// Appends the code of `c`; false if EUC-TW has none.
pub(super) fn encode_char(c: char, dst: &mut Vec<u8>) -> bool {
    if c.is_ascii() {
        dst.push(c as u8);
        return true;
    }
    let Some((plane, row, cell)) = cells_of(c).next() else {
        return false;
    };
    match plane {
        1 => dst.extend_from_slice(&[row, cell]),
        plane => dst.extend_from_slice(&[SS2, 0xA0 + plane, row, cell]),
    }
    true
}

#[cfg(test)]
mod tests {
    use charsight_tables::charmaps::EUC_TW_ORACLE;

    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    #[test]
    fn agrees_with_glibc_on_every_multi_byte_code() {
        let gr94 = || 0xA1..=0xFE;
        let two = gr94().flat_map(|row| gr94().map(move |cell| vec![row, cell]));
        let four = (0xA1..=0xB0).flat_map(|plane| {
            gr94().flat_map(move |row| gr94().map(move |cell| vec![SS2, plane, row, cell]))
        });
        let mappings = testing::mappings(Charset::EucTw, two.chain(four));
        testing::assert_oracle("EUC-TW", mappings, &EUC_TW_ORACLE);
    }

    #[test]
    fn known_strings() {
        // Checked with glibc's iconv.
        testing::assert_known(
            Charset::EucTw,
            &[
                ("中文 ok", b"\xc4\xe3\xc5\xc6 ok"),
                ("乂丨𠀀", b"\x8e\xa2\xa1\xa1\x8e\xa3\xa1\xa1\x8e\xa5\xa1\xa5"),
                ("卄", b"\xa4\xbf"),
            ],
        );
        // Plane 1 in four bytes.
        assert_eq!(Charset::EucTw.decode(b"\x8e\xa1\xc4\xe3"), ("中".into(), false));
    }

    #[test]
    fn malformed_sequences() {
        // A lead before ASCII; SS2 and a plane 2 row before ASCII; SS2
        // before ASCII; plane 8, which glibc leaves empty; a stray byte; a
        // truncated SS2 at the end.
        testing::assert_malformed(
            Charset::EucTw,
            b"\xc4A\x8e\xa2\xa1B\x8eC\x8e\xa8\xa1\xa1\x80\x8e",
            "\u{FFFD}A\u{FFFD}B\u{FFFD}C\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, &[0xC4]),
                (2, &[0x8E, 0xA2, 0xA1]),
                (6, &[0x8E]),
                (8, &[0x8E, 0xA8, 0xA1, 0xA1]),
                (12, &[0x80]),
                (13, &[0x8E]),
            ],
        );
        assert_eq!(Charset::EucTw.encode("한"), (b"&#54620;"[..].into(), true));
        // SS2 before a byte that names no plane (found by proptest).
        assert_eq!(Charset::EucTw.decode(b"\x8e\xb1"), ("\u{FFFD}\u{FFFD}".into(), true));
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::EucTw,
            b"\xc4\xe3\x8e\xa2\xa1\xa1x\x8e\xa3\xa1",
        );
    }
}
