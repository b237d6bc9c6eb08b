//! UTF-32LE and UTF-32BE, which the Encoding Standard leaves out but XML and
//! real files use. Each four-byte unit is one scalar value; a unit above
//! U+10FFFF or in the surrogate range is malformed, as is a partial unit at
//! the end of the stream.

use super::{ByteDecoder, Step};

pub(super) struct Utf32Decoder {
    big_endian: bool,
    pending: [u8; 4],
    pending_len: usize,
}

impl Utf32Decoder {
    pub(super) fn new(big_endian: bool) -> Utf32Decoder {
        Utf32Decoder { big_endian, pending: [0; 4], pending_len: 0 }
    }
}

impl ByteDecoder for Utf32Decoder {
    fn step(&mut self, byte: u8) -> Step {
        self.pending[self.pending_len] = byte;
        self.pending_len += 1;
        if self.pending_len < 4 {
            return Step::Pending;
        }
        self.pending_len = 0;
        let unit = if self.big_endian {
            u32::from_be_bytes(self.pending)
        } else {
            u32::from_le_bytes(self.pending)
        };
        char::from_u32(unit).map_or(Step::Malformed(4), Step::Char)
    }

    fn finish(&mut self) -> u8 {
        std::mem::take(&mut self.pending_len) as u8
    }
}

#[cfg(test)]
mod tests {
    use crate::Charset;

    #[test]
    fn decodes_both_byte_orders() {
        assert_eq!(Charset::Utf32Le.decode(b"A\0\0\0\x00\xF6\x01\0").0, "A😀");
        assert_eq!(Charset::Utf32Be.decode(b"\0\0\0A\0\x01\xF6\x00").0, "A😀");
    }

    #[test]
    fn surrogates_out_of_range_and_partial_units_are_malformed() {
        let (text, had_errors) = Charset::Utf32Le.decode(b"\x00\xD8\0\0\0\0\x11\0B\0");
        assert!(had_errors);
        assert_eq!(text, "\u{FFFD}\u{FFFD}\u{FFFD}");
    }
}
