//! UTF-32LE and UTF-32BE, which the Encoding Standard leaves out but XML and
//! real files use. Each four-byte unit is one scalar value; a unit above
//! U+10FFFF or in the surrogate range is malformed, as is a partial unit at
//! the end of the stream.

use encoding_rs::{DecoderResult, EncoderResult};

pub(super) struct Utf32Decoder {
    big_endian: bool,
    pending: [u8; 4],
    pending_len: usize,
}

impl Utf32Decoder {
    pub(super) fn new(big_endian: bool) -> Utf32Decoder {
        Utf32Decoder { big_endian, pending: [0; 4], pending_len: 0 }
    }

    /// Same contract as `encoding_rs::Decoder::decode_to_string_without_replacement`,
    /// except that `dst` grows as needed, so the result is never `OutputFull`.
    pub(super) fn decode_to_string(
        &mut self,
        src: &[u8],
        dst: &mut String,
        last: bool,
    ) -> (DecoderResult, usize) {
        let mut read = 0;
        dst.reserve(src.len());
        while read < src.len() {
            self.pending[self.pending_len] = src[read];
            self.pending_len += 1;
            read += 1;
            if self.pending_len == 4 {
                self.pending_len = 0;
                let unit = if self.big_endian {
                    u32::from_be_bytes(self.pending)
                } else {
                    u32::from_le_bytes(self.pending)
                };
                match char::from_u32(unit) {
                    Some(c) => dst.push(c),
                    None => return (DecoderResult::Malformed(4, 0), read),
                }
            }
        }
        if last && self.pending_len > 0 {
            let bad = self.pending_len as u8;
            self.pending_len = 0;
            return (DecoderResult::Malformed(bad, 0), read);
        }
        (DecoderResult::InputEmpty, read)
    }
}

/// Encodes `src` whole: every scalar value has a UTF-32 unit.
pub(super) fn encode(big_endian: bool, src: &str, dst: &mut Vec<u8>) -> (EncoderResult, usize) {
    dst.reserve(src.len() * 4);
    for c in src.chars() {
        let unit = u32::from(c);
        dst.extend(if big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() });
    }
    (EncoderResult::InputEmpty, src.len())
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
