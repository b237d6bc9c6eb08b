//! HZ-GB-2312 (RFC 1843), the 7-bit Simplified Chinese of old mail and
//! Usenet.
//!
//! ASCII, with `~{` … `~}` around runs of GB 2312 (generated from glibc's
//! `GB2312`), each character two bytes 0x21-0x7E: row and cell, GB 2312's
//! EUC-CN bytes with the high bit cleared. In ASCII mode `~~` is `~` and
//! `~` before a newline is a line continuation (both bytes vanish).
//!
//! The decoder reads as Python's `hz` codec does, byte for byte (its tests
//! compare every pair): any other `~x` is a malformed `~` and `x` is read
//! again; in GB mode `~~`, `~{` and `~` newline are malformed too, a pair
//! that is no character is a malformed first byte (the second is read again
//! as a first), and a newline does not end the mode; bytes above 0x7F are
//! malformed everywhere.
//!
//! The encoder writes as Python's does: `~{` before the first Chinese
//! character of a run, `~}` before the next ASCII one and at the end, and
//! `~~` for `~`. Python's encoder sometimes ends its output with a lone
//! `~` for a final `~` (which its decoder rejects; seen in 2 of 200
//! random texts, each after a character written as a reference, not for
//! `"a~"`); charsight always writes `~~`, so the text reads back.

use std::sync::OnceLock;

use charsight_tables::charmaps::GB2312_CELLS;

use super::{ByteDecoder, Step};

/// The character at `row` and `cell`, if GB 2312 has one.
pub(super) fn decode_pair(row: u8, cell: u8) -> Option<char> {
    let index = |b: u8| (0x21..=0x7E).contains(&b).then(|| usize::from(b - 0x21));
    let code_point = GB2312_CELLS[index(row)? * 94 + index(cell)?];
    (code_point != 0).then(|| char::from_u32(u32::from(code_point))).flatten()
}

/// The row and cell of `c`, if GB 2312 has it.
pub(super) fn encode_pair(c: char) -> Option<[u8; 2]> {
    static REVERSE: OnceLock<Vec<(u16, [u8; 2])>> = OnceLock::new();
    let reverse = REVERSE.get_or_init(|| {
        let mut reverse: Vec<_> = (0..GB2312_CELLS.len())
            .filter(|&i| GB2312_CELLS[i] != 0)
            .map(|i| (GB2312_CELLS[i], [(i / 94) as u8 + 0x21, (i % 94) as u8 + 0x21]))
            .collect();
        reverse.sort_unstable();
        reverse
    });
    let code_point = u16::try_from(u32::from(c)).ok()?;
    let i = reverse.binary_search_by_key(&code_point, |&(cp, _)| cp).ok()?;
    Some(reverse[i].1)
}

#[derive(Default)]
pub(super) struct Decoder {
    /// Inside `~{` … `~}`.
    gb: bool,
    /// After a `~`.
    tilde: bool,
    /// A first byte in GB mode waiting for the second.
    lead: Option<u8>,
}

impl Decoder {
    /// No sequence is under way.
    pub(super) fn idle(&self) -> bool {
        !self.tilde && self.lead.is_none()
    }

    /// Inside `~{` … `~}`.
    pub(super) fn gb(&self) -> bool {
        self.gb
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        if std::mem::take(&mut self.tilde) {
            match (self.gb, byte) {
                (false, b'~') => return Step::Char('~'),
                (false, b'{') => self.gb = true,
                (false, b'\n') => {}
                (true, b'}') => self.gb = false,
                _ => return Step::MalformedBefore(1),
            }
            return Step::Pending;
        }
        if let Some(lead) = self.lead.take() {
            return decode_pair(lead, byte).map_or(Step::MalformedBefore(1), Step::Char);
        }
        match byte {
            b'~' => self.tilde = true,
            0x80..=0xFF => return Step::Malformed(1),
            _ if !self.gb => return Step::Char(char::from(byte)),
            _ => self.lead = Some(byte),
        }
        Step::Pending
    }

    fn finish(&mut self) -> u8 {
        let pending = u8::from(std::mem::take(&mut self.tilde)) + u8::from(self.lead.is_some());
        self.lead = None;
        pending
    }
}

#[derive(Default)]
pub(super) struct Encoder {
    /// `~{` has been written and not yet `~}`.
    gb: bool,
}

impl Encoder {
    /// Appends the code of `c`, switching as needed; false if HZ has none
    /// (the encoder is then back in ASCII).
    pub(super) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        let pair = if c.is_ascii() { None } else { encode_pair(c) };
        match pair {
            Some(pair) => {
                if !std::mem::replace(&mut self.gb, true) {
                    dst.extend_from_slice(b"~{");
                }
                dst.extend_from_slice(&pair);
                true
            }
            None => {
                self.finish(dst);
                match c {
                    '~' => dst.extend_from_slice(b"~~"),
                    _ if c.is_ascii() => dst.push(c as u8),
                    _ => return false,
                }
                true
            }
        }
    }

    /// At the end of the text: back to ASCII.
    pub(super) fn finish(&mut self, dst: &mut Vec<u8>) {
        if std::mem::take(&mut self.gb) {
            dst.extend_from_slice(b"~}");
        }
    }
}

#[cfg(test)]
mod tests {
    use charsight_tables::charmaps::GB2312_ORACLE;

    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    /// `tools/gen-tables/data/charmaps/python-hz.txt`: how Python's `hz`
    /// decodes each pair in GB mode, by row and cell.
    fn python_pairs() -> BTreeMap<[u8; 2], char> {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tools/gen-tables/data/charmaps/python-hz.txt"
        ));
        let mut pairs = BTreeMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split(' ');
            let row = u8::from_str_radix(fields.next().unwrap(), 16).unwrap();
            for (cell, field) in (0x21..=0x7E).zip(fields) {
                if field != "-" {
                    let c = char::from_u32(u32::from_str_radix(field, 16).unwrap()).unwrap();
                    pairs.insert([row, cell], c);
                }
            }
        }
        pairs
    }

    use std::collections::BTreeMap;

    #[test]
    fn agrees_with_python_and_glibc_on_every_pair() {
        let python = python_pairs();
        let mut mappings = Vec::new();
        for row in 0x21..=0x7E {
            for cell in 0x21..=0x7E {
                let bytes = [b'~', b'{', row, cell, b'~', b'}'];
                let got = testing::decode_one(Charset::HzGb2312, &bytes);
                assert_eq!(got, python.get(&[row, cell]).copied(), "{row:02X}{cell:02X}");
                if let Some(c) = got {
                    assert_eq!(encode_pair(c), Some([row, cell]), "{c}");
                    mappings.push((vec![row | 0x80, cell | 0x80], c));
                }
            }
        }
        assert_eq!(mappings.len(), 7445);
        // And EUC-CN's bytes are glibc's GB2312.
        testing::assert_oracle("GB2312", mappings, &GB2312_ORACLE);
    }

    #[test]
    fn known_strings() {
        // Checked with Python's hz codec.
        testing::assert_known(
            Charset::HzGb2312,
            &[
                ("中文 ok\n", b"~{VPND~} ok\n"),
                ("a~b 中~", b"a~~b ~{VP~}~~"),
                ("・―", b"~{!$!*~}"),
                ("", b""),
            ],
        );
    }

    #[test]
    fn line_continuation_and_lenient_reads() {
        // `~` newline vanishes; a newline in GB mode does not end it (a
        // malformed lead); a run left open at the end.
        assert_eq!(Charset::HzGb2312.decode(b"ab~\ncd"), ("abcd".into(), false));
        assert_eq!(Charset::HzGb2312.decode(b"~{VP~}~{ND"), ("中文".into(), false));
    }

    #[test]
    fn malformed_sequences() {
        // `~x` in ASCII; `~~` in GB mode; an empty cell (its second byte
        // read again as a first); a newline in GB mode; an 8-bit byte; a
        // `~` at the end. Each as Python's hz with errors='replace' reads it.
        testing::assert_malformed(
            Charset::HzGb2312,
            b"~x~{~~VP!\x7f\n\xd6~}~",
            "\u{FFFD}x\u{FFFD}\u{FFFD}中\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, b"~"),
                (4, b"~"),
                (5, b"~"),
                (8, b"!"),
                (9, b"\x7f"),
                (10, b"\n"),
                (11, b"\xd6"),
                (14, b"~"),
            ],
        );
    }

    #[test]
    fn encoder_returns_to_ascii_for_unmappable_characters() {
        let (bytes, unmappable) = Charset::HzGb2312.encode("中€文");
        assert!(unmappable);
        assert_eq!(&bytes[..], b"~{VP~}&#8364;~{ND~}");
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(Charset::HzGb2312, b"a~~~{VP~x\x80ND~}b~\nc~{V~");
    }
}
