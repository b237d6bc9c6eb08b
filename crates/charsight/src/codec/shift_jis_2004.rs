//! Shift_JIS-2004 (JIS X 0213:2004 annex 1), Shift_JIS extended to both
//! planes of JIS X 0213.
//!
//! Single bytes are JIS X 0201: Roman (0x5C is `¥`, 0x7E is `‾`) and
//! half-width katakana A1-DF. Lead bytes 81-9F and E0-EF carry two rows of
//! plane 1 each, F0-FC the rows of plane 2 (1, 8; 3, 4; 5, 12; 13, 14; 15,
//! 78; then 79 to 94), trail bytes 40-7E and 80-FC the cells.
//!
//! The decoder reads as Python's `shift_jis_2004` does, byte for byte (its
//! tests compare every sequence of one and two bytes): a lead byte that no
//! valid trail byte follows, or whose pair is no character, is malformed on
//! its own, and the next byte is read again; 80, A0 and FD-FF are
//! malformed.

use super::jis_x0213::{Code, Layout};
use super::{ByteDecoder, Step};

/// The JIS X 0213 code of a lead and a trail byte, if they make one.
pub(super) fn code(lead: u8, trail: u8) -> Option<Code> {
    let k = match lead {
        0x81..=0x9F => lead - 0x81,
        0xE0..=0xFC => lead - 0xC1,
        _ => return None,
    };
    let t = match trail {
        0x40..=0x7E => trail - 0x40,
        0x80..=0xFC => trail - 0x41,
        _ => return None,
    };
    // Each lead byte carries two rows: the trail bytes of the first, then
    // those of the second.
    let (half, cell) = if t < 94 { (0, t) } else { (1, t - 94) };
    let row = 2 * k + half;
    let code = match row {
        0..=93 => [1, row + 0x21, cell + 0x21],
        // Plane 2's rows 1, 8, 3, 4, 5, 12, 13, 14, 15, then 78 to 94.
        94 | 96..=98 => [2, row - 0x3D, cell + 0x21],
        95 | 99..=102 => [2, row - 0x37, cell + 0x21],
        _ => [2, row + 0x07, cell + 0x21],
    };
    Some(code)
}

/// The lead and trail bytes of a JIS X 0213 code, if Shift_JIS-2004 has
/// its row (every row of plane 1; rows 1, 3-5, 8, 12-15 and 78-94 of
/// plane 2).
pub(super) fn bytes([plane, row, cell]: Code) -> Option<[u8; 2]> {
    if !(0x21..=0x7E).contains(&row) || !(0x21..=0x7E).contains(&cell) {
        return None;
    }
    let row = match (plane, row) {
        (1, _) => row - 0x21,
        (2, 0x21 | 0x23..=0x25) => row + 0x3D,
        (2, 0x28 | 0x2C..=0x2F) => row + 0x37,
        (2, 0x6E..=0x7E) => row - 0x07,
        _ => return None,
    };
    let lead = match row / 2 {
        k @ 0..=0x1E => k + 0x81,
        k => k + 0xC1,
    };
    let t = (row % 2) * 94 + cell - 0x21;
    let trail = if t < 0x3F { t + 0x40 } else { t + 0x41 };
    Some([lead, trail])
}

/// The half-width katakana of JIS X 0201 at `byte` (A1-DF), as EUC and
/// Shift_JIS lay it out.
pub(super) fn half_width_katakana(byte: u8) -> Step {
    char::from_u32(0xFEC0 + u32::from(byte)).map_or(Step::Malformed(1), Step::Char)
}

#[derive(Default)]
pub(super) struct Decoder {
    /// A lead byte waiting for its trail byte.
    lead: Option<u8>,
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        if let Some(lead) = self.lead.take() {
            let step = code(lead, byte).and_then(|code| Layout::ShiftJis.step(code));
            return step.unwrap_or(Step::MalformedBefore(1));
        }
        match byte {
            0x5C => Step::Char('¥'),
            0x7E => Step::Char('‾'),
            0x00..=0x7F => Step::Char(char::from(byte)),
            0xA1..=0xDF => half_width_katakana(byte),
            0x81..=0x9F | 0xE0..=0xFC => {
                self.lead = Some(byte);
                Step::Pending
            }
            _ => Step::Malformed(1),
        }
    }

    fn finish(&mut self) -> u8 {
        u8::from(self.lead.take().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    #[test]
    fn agrees_with_python_on_every_sequence() {
        let leads: Vec<Vec<u8>> = (0x81..=0x9F).chain(0xE0..=0xFC).map(|b| vec![b]).collect();
        let decoded =
            testing::assert_python_sequences(Charset::ShiftJis2004, "shift_jis_2004", &leads);
        // 11,233 cells of two bytes; 128 single bytes and 63 katakana.
        assert_eq!(decoded, 11_233 + 128 + 63);
    }

    #[test]
    fn agrees_with_python_on_random_strings() {
        let strings = testing::python_random("shift_jis_2004");
        assert_eq!(strings.len(), 300);
        for (bytes, python) in strings {
            assert_eq!(Charset::ShiftJis2004.decode(&bytes).0, python, "{bytes:02X?}");
        }
    }

    #[test]
    fn codes_and_bytes_are_inverse() {
        for lead in 0..=u8::MAX {
            for trail in 0..=u8::MAX {
                if let Some(code) = code(lead, trail) {
                    assert_eq!(bytes(code), Some([lead, trail]), "{lead:02X} {trail:02X}");
                }
            }
        }
        assert_eq!(code(0xF0, 0x40), Some([2, 0x21, 0x21]));
        assert_eq!(code(0xF4, 0x9F), Some([2, 0x6E, 0x21]));
        assert_eq!(code(0xFC, 0xFC), Some([2, 0x7E, 0x7E]));
        assert_eq!(bytes([2, 0x22, 0x21]), None);
    }

    #[test]
    fn known_strings() {
        // Checked with Python's shift_jis_2004.
        testing::assert_known(
            Charset::ShiftJis2004,
            &[
                ("日本語 ok", b"\x93\xfa\x96\x7b\x8c\xea ok"),
                ("¥‾\\~ｱ", b"\x5c\x7e\x81\x5f\x81\xb0\xb1"),
                ("か゚ㇷ゚\u{2000B}", b"\x82\xf5\x83\xf6\x87\xa0"),
                ("", b""),
            ],
        );
    }

    #[test]
    fn malformed_sequences() {
        // A lone 80, A0, FD-FF; a lead before a byte that cannot follow
        // it (read again); a lead at the end. As Python reads them.
        testing::assert_malformed(
            Charset::ShiftJis2004,
            b"\x80\xa0\xfd\x81\x20\x81\n\x81\x40\xfc",
            "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} \u{FFFD}\n\u{3000}\u{FFFD}",
            &[(0, b"\x80"), (1, b"\xa0"), (2, b"\xfd"), (3, b"\x81"), (5, b"\x81"), (9, b"\xfc")],
        );
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::ShiftJis2004,
            b"a\x82\xf5\x81\x5c\x82\xa9\xf0\x40\x80\xb1\x9c",
        );
    }
}
