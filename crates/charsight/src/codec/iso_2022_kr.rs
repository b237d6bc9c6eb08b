//! ISO-2022-KR (RFC 1557), the 7-bit Korean of old mail and news.
//!
//! `ESC $ ) C` designates KS X 1001 as the G1 set (once, at the start); SO
//! (0x0E) shifts to it and SI (0x0F) back to ASCII. Shifted, each pair of
//! bytes 0x21-0x7E is a KS X 1001 row and cell, looked up through
//! [`super::ksx1001`].
//!
//! The decoder is as lenient as the decoders in use, and no more: SO is
//! honoured before the designation (as glibc does; KS X 1001 is the only G1
//! set of ISO-2022-KR), a repeated designation is accepted, and control
//! characters pass through while shifted, CR and LF also shifting back to
//! ASCII (as Python does, since lines start in ASCII). Shifted space and DEL,
//! any other escape sequence and any byte above 0x7F are malformed.
//!
//! The encoder writes the designation at the start of the text, as glibc's
//! iconv does, and SO/SI around each run of Korean.

use super::{ksx1001, ByteDecoder, Step};

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;
/// The designation of KS X 1001 as G1.
pub(super) const DESIGNATION: &[u8; 4] = b"\x1B$)C";

#[derive(Default)]
pub(super) struct Decoder {
    /// After SO, before SI.
    shifted: bool,
    /// How many bytes of [`DESIGNATION`] have been read (0 when none).
    escape: u8,
    /// A first byte of a shifted pair waiting for the second.
    lead: Option<u8>,
}

impl Decoder {
    /// No sequence is under way.
    pub(super) fn idle(&self) -> bool {
        self.escape == 0 && self.lead.is_none()
    }

    /// After SO, before SI.
    pub(super) fn shifted(&self) -> bool {
        self.shifted
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        if self.escape > 0 {
            let matched = std::mem::take(&mut self.escape);
            if byte != DESIGNATION[usize::from(matched)] {
                return Step::MalformedBefore(matched);
            }
            self.escape = (matched + 1) % 4;
            return Step::Pending;
        }
        if let Some(lead) = self.lead.take() {
            if !(0x21..=0x7E).contains(&byte) {
                return Step::MalformedBefore(1);
            }
            return ksx1001::decode(lead, byte).map_or(Step::Malformed(2), Step::Char);
        }
        match byte {
            ESC => self.escape = 1,
            SO => self.shifted = true,
            SI => self.shifted = false,
            0x80..=0xFF => return Step::Malformed(1),
            _ if !self.shifted => return Step::Char(char::from(byte)),
            0x21..=0x7E => self.lead = Some(byte),
            b'\n' | b'\r' => {
                self.shifted = false;
                return Step::Char(char::from(byte));
            }
            0x00..=0x1F => return Step::Char(char::from(byte)),
            _ => return Step::Malformed(1),
        }
        Step::Pending
    }

    fn finish(&mut self) -> u8 {
        let pending = std::mem::take(&mut self.escape) + u8::from(self.lead.is_some());
        self.lead = None;
        pending
    }
}

#[derive(Default)]
pub(super) struct Encoder {
    /// The designation has been written.
    designated: bool,
    /// SO has been written and not yet SI.
    shifted: bool,
}

impl Encoder {
    fn shift(&mut self, to_korean: bool, dst: &mut Vec<u8>) {
        if self.shifted != to_korean {
            dst.push(if to_korean { SO } else { SI });
            self.shifted = to_korean;
        }
    }

    /// Appends the code of `c`, with the designation before the first
    /// character and shifts as needed; false if ISO-2022-KR has none (the
    /// encoder is then back in ASCII).
    pub(super) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        if !self.designated {
            dst.extend_from_slice(DESIGNATION);
            self.designated = true;
        }
        let code = match c {
            // These would be read as shifts and escapes.
            '\u{0E}' | '\u{0F}' | '\u{1B}' => None,
            '\0'..='\x7F' => {
                self.shift(false, dst);
                dst.push(c as u8);
                return true;
            }
            _ => ksx1001::encode(c),
        };
        match code {
            Some((row, cell)) => {
                self.shift(true, dst);
                dst.extend_from_slice(&[row, cell]);
                true
            }
            None => {
                self.shift(false, dst);
                false
            }
        }
    }

    /// At the end of the text: back to ASCII.
    pub(super) fn finish(&mut self, dst: &mut Vec<u8>) {
        self.shift(false, dst);
    }
}

#[cfg(test)]
mod tests {
    use charsight_tables::charmaps::EUC_KR_ORACLE;

    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    #[test]
    fn agrees_with_glibc_euc_kr_on_every_pair() {
        // A shifted pair, row and cell 21-7E, is EUC-KR's A1-FE × A1-FE.
        let mut mappings = Vec::new();
        for row in 0x21..=0x7E {
            for cell in 0x21..=0x7E {
                let bytes = [&DESIGNATION[..], &[SO, row, cell, SI]].concat();
                if let Some(c) = testing::decode_one(Charset::Iso2022Kr, &bytes) {
                    mappings.push((vec![row | 0x80, cell | 0x80], c));
                }
            }
        }
        testing::assert_oracle("EUC-KR", mappings, &EUC_KR_ORACLE);
    }

    #[test]
    fn known_strings() {
        // Checked with glibc's iconv and Python's iso2022_kr codec.
        testing::assert_known(
            Charset::Iso2022Kr,
            &[
                ("ab 가나\n다 x", b"\x1b$)Cab \x0e\x30\x21\x33\x2a\x0f\n\x0e\x34\x59\x0f x"),
                ("한국어", b"\x1b$)C\x0e\x47\x51\x31\x39\x3e\x6e\x0f"),
                ("", b""),
            ],
        );
    }

    #[test]
    fn lenient_where_others_are() {
        // No designation; a second designation; controls while shifted.
        let bytes = b"\x0e\x30\x21\x1b$)C\x30\x21\t\x30\x21\nA\x0f";
        assert_eq!(Charset::Iso2022Kr.decode(bytes), ("가가\t가\nA".into(), false));
    }

    #[test]
    fn malformed_sequences() {
        // A broken escape; a shifted space; a lead before a control; an
        // empty cell; an 8-bit byte; a truncated escape at the end.
        testing::assert_malformed(
            Charset::Iso2022Kr,
            b"\x1b$(Ca\x0e \x30\n\x0e\x22\x7e\xa1\x0f\x1b$",
            "\u{FFFD}(Ca\u{FFFD}\u{FFFD}\n\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, b"\x1b$"),
                (6, b" "),
                (7, b"\x30"),
                (10, b"\x22\x7e"),
                (12, b"\xa1"),
                (14, b"\x1b$"),
            ],
        );
    }

    #[test]
    fn encoder_returns_to_ascii_for_unmappable_characters() {
        let (bytes, unmappable) = Charset::Iso2022Kr.encode("가€\u{1b}😀가");
        assert!(unmappable);
        assert_eq!(&bytes[..], b"\x1b$)C\x0e\x30\x21\x22\x66\x0f&#27;&#128512;\x0e\x30\x21\x0f");
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::Iso2022Kr,
            b"\x1b$)Ca\x0e\x30\x21\x0f\x1b$)\x0e",
        );
    }
}
