//! Single-byte encodings outside the Encoding Standard (the DOS code pages,
//! `x-mac-ce`, VISCII, KZ-1048, …): one table-driven decoder and encoder for
//! all of them, over the tables generated from glibc's charmaps
//! (`charsight_tables::charmaps`). A byte the table leaves empty is
//! malformed; a character no byte maps to is unmappable.

use charsight_tables::charmaps::SingleByte;
use encoding_rs::DecoderResult;

/// The character of `byte` in `table`, if it has one.
fn lookup(table: &SingleByte, byte: u8) -> Option<char> {
    let code_point = match byte {
        0x00..=0x7F => match table.low.iter().find(|&&(b, _)| b == byte) {
            Some(&(_, code_point)) => code_point,
            None => return Some(char::from(byte)),
        },
        _ => table.high[usize::from(byte - 0x80)],
    };
    // The generator checked that every code point is a BMP scalar value.
    (code_point != 0).then(|| char::from_u32(u32::from(code_point))).flatten()
}

pub(super) struct Decoder {
    table: &'static SingleByte,
}

impl Decoder {
    pub(super) fn new(table: &'static SingleByte) -> Decoder {
        Decoder { table }
    }

    /// Same contract as `encoding_rs::Decoder::decode_to_string_without_replacement`,
    /// except that `dst` grows as needed, so the result is never `OutputFull`.
    /// Stateless, so the end of the stream changes nothing.
    pub(super) fn decode_to_string(
        &mut self,
        src: &[u8],
        dst: &mut String,
    ) -> (DecoderResult, usize) {
        dst.reserve(src.len());
        let mut read = 0;
        while let Some(&byte) = src.get(read) {
            if byte.is_ascii() && self.table.low.is_empty() {
                // A run of ASCII, copied whole.
                let rest = &src[read..];
                let run = rest.iter().position(|b| !b.is_ascii()).unwrap_or(rest.len());
                dst.push_str(std::str::from_utf8(&rest[..run]).unwrap_or_default());
                read += run;
                continue;
            }
            read += 1;
            match lookup(self.table, byte) {
                Some(c) => dst.push(c),
                None => return (DecoderResult::Malformed(1, 0), read),
            }
        }
        (DecoderResult::InputEmpty, read)
    }
}

pub(super) struct Encoder {
    /// Whether bytes 0x00-0x7F are all ASCII, for the fast path.
    ascii: bool,
    /// Every mapped character and its byte, sorted by character; where two
    /// bytes map to one character (ARMSCII-8's punctuation), the lower byte.
    reverse: Vec<(char, u8)>,
}

impl Encoder {
    pub(super) fn new(table: &'static SingleByte) -> Encoder {
        let mut reverse: Vec<(char, u8)> =
            (0..=u8::MAX).filter_map(|b| lookup(table, b).map(|c| (c, b))).collect();
        // Stable, so the lower byte stays first among equal characters.
        reverse.sort_by_key(|&(c, _)| c);
        reverse.dedup_by_key(|&mut (c, _)| c);
        Encoder { ascii: table.low.is_empty(), reverse }
    }

    /// Appends the byte of `c`; false if the table has none.
    pub(super) fn encode_char(&self, c: char, dst: &mut Vec<u8>) -> bool {
        let byte = match c {
            '\0'..='\x7F' if self.ascii => Some(c as u8),
            _ => self
                .reverse
                .binary_search_by_key(&c, |&(c, _)| c)
                .ok()
                .map(|found| self.reverse[found].1),
        };
        byte.map(|byte| dst.push(byte)).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;
    use crate::Charset;

    fn single_byte_charsets() -> impl Iterator<Item = (Charset, &'static SingleByte)> {
        Charset::ALL.iter().filter_map(|&c| match c.codec() {
            Codec::SingleByte(table) => Some((c, table)),
            _ => None,
        })
    }

    #[test]
    fn every_mapped_byte_round_trips() {
        let mut count = 0;
        for (charset, table) in single_byte_charsets() {
            count += 1;
            assert!(charset.is_single_byte() && charset.is_ascii_compatible(), "{charset}");
            let mut mapped = 0;
            for byte in 0..=u8::MAX {
                let bytes = [byte];
                let (text, malformed) = charset.decode(&bytes);
                let Some(c) = lookup(table, byte) else {
                    assert!(malformed && text == "\u{FFFD}", "{charset} {byte:#04x}");
                    continue;
                };
                mapped += 1;
                assert!(!malformed && text.chars().eq([c]), "{charset} {byte:#04x}");
                let (bytes, unmappable) = charset.encode(&text);
                assert!(!unmappable, "{charset} {byte:#04x}");
                // Only ARMSCII-8 maps two bytes to one character: the
                // encoder picks the ASCII byte.
                let expected = if bytes[..] != [byte] && charset == Charset::Armscii8 {
                    c as u8
                } else {
                    byte
                };
                assert_eq!(bytes[..], [expected], "{charset} {byte:#04x} {c:?}");
            }
            assert!(mapped >= 237, "{charset} maps only {mapped} bytes");
        }
        assert_eq!(count, 23);
    }

    #[test]
    fn known_characters() {
        for (charset, bytes, text) in [
            (Charset::Ibm437, &b"\x80\x9b\xe1\xfe"[..], "Ç¢ß■"),
            (Charset::Ibm850, b"\xd5\x9e", "ı×"),
            (Charset::Ibm858, b"\xd5", "€"),
            (Charset::Ibm852, b"\xa5\xe7", "ąš"),
            (Charset::Ibm855, b"\xe1\xa7", "рД"),
            (Charset::Ibm862, b"\x80\x9a", "את"),
            (Charset::Ibm864, b"%\xc8", "٪ﺑ"),
            (Charset::Ibm737, b"\x80\x98", "Αα"),
            (Charset::Cp1125, b"\xf4\xf5", "Єє"),
            (Charset::XMacCe, b"\x84\x9f", "Ąü"),
            (Charset::Viscii, b"\x02\xc4", "Ẳ\u{1EA2}"),
            (Charset::Kz1048, b"\xaf\xbf", "Үү"),
            (Charset::Ptcp154, b"\xaf\xbf", "Ҝҝ"),
            (Charset::Armscii8, b"\xb2\xe1", "Աո"),
            (Charset::GeorgianPs, b"\xc0", "ა"),
            (Charset::Koi8T, b"\x80\xc1", "қа"),
        ] {
            assert_eq!(charset.decode(bytes), (text.into(), false), "{charset}");
            assert_eq!(charset.encode(text), (bytes.into(), false), "{charset}");
        }
    }

    #[test]
    fn unmapped_bytes_and_characters_are_reported() {
        // IBM857 leaves 0xD5, 0xE7 and 0xF2 empty.
        let (text, malformed) = Charset::Ibm857.decode(b"a\xd5b");
        assert_eq!((&*text, malformed), ("a\u{FFFD}b", true));
        // VISCII has letters where ASCII has controls 0x02, 0x05, 0x06...
        assert_eq!(Charset::Viscii.encode("\u{2}é"), (b"&#2;\xe9"[..].into(), true));
        assert_eq!(Charset::Ibm437.encode("a€"), (b"a&#8364;"[..].into(), true));
    }
}
