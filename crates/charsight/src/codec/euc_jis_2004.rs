//! EUC-JIS-2004 (JIS X 0213:2004 annex 3), EUC-JP extended to both planes
//! of JIS X 0213.
//!
//! ASCII in single bytes; `8E` and A1-DF for half-width katakana; plane 1
//! as row|80, cell|80 (A1-FE each); plane 2 as `8F`, row|80, cell|80.
//!
//! The decoder reads as Python's `euc_jis_2004` does, byte for byte (its
//! tests compare every sequence of one and two bytes, and of three after
//! `8F`): an `8F` sequence that plane 2 lacks is read as JIS X 0212, as in
//! EUC-JP; a first byte that does not begin a character with what follows
//! is malformed on its own, and the bytes after it are read again (both of
//! them after `8F`); 80-8D, 90-A0 and FF are malformed.

use super::jis_x0213::{Code, Layout};
use super::{jis_x0212, shift_jis_2004, ByteDecoder, Step};

#[derive(Clone, Copy, Default)]
enum State {
    #[default]
    Idle,
    /// After `8E` or a byte A1-FE.
    Lead(u8),
    /// After `8F`.
    Plane2,
    /// After `8F` and one more byte.
    Plane2Row(u8),
}

#[derive(Default)]
pub(super) struct Decoder {
    state: State,
    /// Bytes to read again, oldest first, and how many.
    replay: [u8; 2],
    replaying: u8,
}

impl Decoder {
    /// The first byte of the sequence under way is malformed; `bytes`, read
    /// after it, are read again.
    fn malformed_lead(&mut self, bytes: &[u8]) -> Step {
        self.replay[..bytes.len()].copy_from_slice(bytes);
        self.replaying = bytes.len() as u8;
        Step::Malformed(1)
    }
}

/// The code of row `row` and cell `cell` of `plane` in EUC bytes (A1-FE).
fn code(plane: u8, row: u8, cell: u8) -> Option<Code> {
    let euc = 0xA1..=0xFE;
    (euc.contains(&row) && euc.contains(&cell)).then_some([plane, row & 0x7F, cell & 0x7F])
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        match std::mem::take(&mut self.state) {
            State::Idle => match byte {
                0x00..=0x7F => return Step::Char(char::from(byte)),
                0x8E | 0xA1..=0xFE => self.state = State::Lead(byte),
                0x8F => self.state = State::Plane2,
                _ => return Step::Malformed(1),
            },
            State::Lead(0x8E) if (0xA1..=0xDF).contains(&byte) => {
                return shift_jis_2004::half_width_katakana(byte)
            }
            State::Lead(lead) => {
                let step = code(1, lead, byte).and_then(|code| Layout::Euc.step(code));
                return step.unwrap_or_else(|| self.malformed_lead(&[byte]));
            }
            State::Plane2 => self.state = State::Plane2Row(byte),
            State::Plane2Row(row) => {
                let step = code(2, row, byte).and_then(|code @ [_, row, cell]| {
                    let other = || jis_x0212::decode(row, cell).map(Step::Char);
                    Layout::Euc.step(code).or_else(other)
                });
                return step.unwrap_or_else(|| self.malformed_lead(&[row, byte]));
            }
        }
        Step::Pending
    }

    fn finish(&mut self) -> u8 {
        match std::mem::take(&mut self.state) {
            State::Idle => 0,
            State::Lead(_) | State::Plane2 => 1,
            State::Plane2Row(_) => 2,
        }
    }

    fn replay(&mut self) -> Option<u8> {
        if self.replaying == 0 {
            return None;
        }
        let byte = self.replay[0];
        self.replay.rotate_left(1);
        self.replaying -= 1;
        Some(byte)
    }

    fn replaying(&self) -> u8 {
        self.replaying
    }

    fn held(&self) -> u8 {
        let under_way = match self.state {
            State::Idle => 0,
            State::Lead(_) | State::Plane2 => 1,
            State::Plane2Row(_) => 2,
        };
        under_way + self.replaying
    }
}

#[cfg(test)]
mod tests {
    use crate::codec::testing;
    use crate::Charset;

    #[test]
    fn agrees_with_python_on_every_sequence() {
        let prefixes: Vec<Vec<u8>> = std::iter::once(vec![0x8E])
            .chain((0xA1..=0xFE).map(|b| vec![b]))
            .chain((0xA1..=0xFE).map(|b| vec![0x8F, b]))
            .collect();
        let decoded =
            testing::assert_python_sequences(Charset::EucJis2004, "euc_jis_2004", &prefixes);
        // 128 single bytes, 63 katakana, 11,233 cells, 6,067 of JIS X 0212.
        assert_eq!(decoded, 128 + 63 + 11_233 + 6_067);
    }

    #[test]
    fn agrees_with_python_on_random_strings() {
        let strings = testing::python_random("euc_jis_2004");
        assert_eq!(strings.len(), 300);
        for (bytes, python) in strings {
            assert_eq!(Charset::EucJis2004.decode(&bytes).0, python, "{bytes:02X?}");
        }
    }

    #[test]
    fn known_strings() {
        // Checked with Python's euc_jis_2004.
        testing::assert_known(
            Charset::EucJis2004,
            &[
                ("日本語 ok\\~", b"\xc6\xfc\xcb\xdc\xb8\xec ok\\~"),
                ("か゚æ̀˩˥ｱ", b"\xa4\xf7\xab\xc4\xab\xe5\x8e\xb1"),
                ("\u{20089}丂", b"\x8f\xa1\xa1\x8f\xa1\xa2"),
                ("―＼", b"\xa1\xbd\xa1\xc0"),
                ("", b""),
            ],
        );
    }

    #[test]
    fn malformed_sequences() {
        // 80 and FF alone; 8E before a byte that is no katakana; a first
        // byte before ASCII; 8F before two bytes that are no character
        // (both read again); a truncated 8F sequence at the end (one
        // malformed sequence of two bytes). As Python reads them.
        testing::assert_malformed(
            Charset::EucJis2004,
            b"\x80\xff\x8e\xe0A\xa1A\x8f\xa2\xa1\x8fAB\x8f\xa1",
            "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A\u{FFFD}A\u{FFFD}◆\u{FFFD}AB\u{FFFD}",
            &[
                (0, b"\x80"),
                (1, b"\xff"),
                (2, b"\x8e"),
                (3, b"\xe0"),
                (5, b"\xa1"),
                (7, b"\x8f"),
                (10, b"\x8f"),
                (13, b"\x8f\xa1"),
            ],
        );
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::EucJis2004,
            b"a\xa4\xf7\x8f\xa1\xa1\x8f\xa2\xa1\x8fAB\x8e\xb1\x8e\xe0\xa1\xbd\x8f",
        );
    }
}
