//! Single-byte encodings outside the Encoding Standard (the DOS code pages,
//! the Mac OS ones, EBCDIC, VISCII, KZ-1048, …): one table-driven decoder and
//! encoder for all of them, over the tables generated from glibc's charmaps
//! and CPython's codecs (`charsight_tables::charmaps`). A byte the table
//! leaves empty is malformed; a character no byte maps to is unmappable.

use charsight_tables::charmaps::SingleByte;
use encoding_rs::DecoderResult;

/// The character of `byte` in `table`, if it has one.
fn lookup(table: &SingleByte, byte: u8) -> Option<char> {
    let code_point = table.chars[usize::from(byte)];
    // The generator checked that every code point is a BMP scalar value,
    // and that byte 0x00 is U+0000.
    (code_point != 0 || byte == 0).then(|| char::from_u32(u32::from(code_point))).flatten()
}

/// The byte of `c`, one of the characters of a numeric character reference
/// (`&`, `#`, a digit, `;`).
pub(super) fn byte_of(table: &SingleByte, c: char) -> u8 {
    (0..=u8::MAX)
        .find(|&b| lookup(table, b) == Some(c))
        .expect("the generator checked that every table has the reference characters")
}

/// Whether bytes 0x00-0x7F are all ASCII in `table`, for the fast paths.
fn is_ascii(table: &SingleByte) -> bool {
    (0..0x80u8).all(|b| table.chars[usize::from(b)] == u16::from(b))
}

pub(super) struct Decoder {
    table: &'static SingleByte,
    ascii: bool,
}

impl Decoder {
    pub(super) fn new(table: &'static SingleByte) -> Decoder {
        Decoder { table, ascii: is_ascii(table) }
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
            if byte.is_ascii() && self.ascii {
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
    /// Every mapped character and its byte, sorted by character; where
    /// several bytes map to one character (ARMSCII-8's punctuation, the
    /// bytes IBM875 maps to U+001A), the lowest byte.
    reverse: Vec<(char, u8)>,
}

impl Encoder {
    pub(super) fn new(table: &'static SingleByte) -> Encoder {
        let mut reverse: Vec<(char, u8)> =
            (0..=u8::MAX).filter_map(|b| lookup(table, b).map(|c| (c, b))).collect();
        // Stable, so the lower byte stays first among equal characters.
        reverse.sort_by_key(|&(c, _)| c);
        reverse.dedup_by_key(|&mut (c, _)| c);
        Encoder { ascii: is_ascii(table), reverse }
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
        let mut shared = Vec::new();
        for (charset, table) in single_byte_charsets() {
            count += 1;
            assert!(charset.is_single_byte(), "{charset}");
            assert_ne!(charset.is_ascii_compatible(), charset.is_ebcdic(), "{charset}");
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
                // Where several bytes map to one character, the encoder
                // picks the lowest.
                let lowest = (0..=byte).find(|&b| lookup(table, b) == Some(c));
                assert_eq!(bytes[..], [lowest.unwrap()], "{charset} {byte:#04x} {c:?}");
                if lowest != Some(byte) {
                    shared.push((charset, byte));
                }
            }
            assert!(mapped >= 215, "{charset} maps only {mapped} bytes");
        }
        assert_eq!(count, 57);
        // ARMSCII-8 has its punctuation both at ASCII and at 0xA4-0xFF, and
        // x-mac-arabic and x-mac-hebrew right-to-left copies of ASCII
        // punctuation at 0xA0-0xFF (Apple's tables map both to the ASCII
        // character); IBM875
        // maps six empty bytes to U+001A SUBSTITUTE, as its Microsoft table
        // (and Python) do, besides SUB's own byte 0x3F.
        let mut by_charset: Vec<Charset> = shared.iter().map(|&(c, _)| c).collect();
        by_charset.dedup();
        assert_eq!(
            by_charset,
            [Charset::Armscii8, Charset::XMacArabic, Charset::XMacHebrew, Charset::Ibm875]
        );
    }

    /// Python's decoding of every byte, recorded by `gen-tables count
    /// charmaps` (see `tools/gen-tables/src/charmaps.rs`), is charsight's.
    #[test]
    fn every_byte_decodes_as_in_python() {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/gen-tables/data/charmaps/python.txt");
        let oracle = std::fs::read_to_string(path).unwrap();
        let mut codecs = 0;
        for line in oracle.lines().filter(|l| !l.starts_with('#')) {
            let (codec, cells) = line.split_once(' ').unwrap();
            let charset = crate::label::resolve(codec.as_bytes()).unwrap();
            assert!(!charset.is_whatwg(), "{codec} names {charset}");
            for (byte, cell) in (0..=u8::MAX).zip(cells.split(' ')) {
                let python = u32::from_str_radix(cell, 16).ok().and_then(char::from_u32);
                let bytes = [byte];
                let (text, malformed) = charset.decode(&bytes);
                let ours = text.chars().next().filter(|_| !malformed);
                assert_eq!(ours, python, "{codec} ({charset}) byte {byte:#04x}");
            }
            codecs += 1;
        }
        assert_eq!(codecs, 35);
    }

    /// The tables whose source has no codec to compare with (MariaDB's
    /// GEOSTD8, Unicode::Map's MacHebrew) decode every byte as their data file, converted from the
    /// mapping file by `gen-tables`, says.
    #[test]
    fn every_byte_decodes_as_its_mapping_file() {
        for (charset, name) in
            [(Charset::Geostd8, "GEOSTD8"), (Charset::XMacHebrew, "APPLE-HEBREW")]
        {
            let path = format!(
                "{}/../../tools/gen-tables/data/charmaps/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            let mut expected: Vec<Option<char>> =
                (0..=u8::MAX).map(|b| b.is_ascii().then_some(char::from(b))).collect();
            let data = std::fs::read_to_string(path).unwrap();
            for line in data.lines() {
                if let Some((byte, cell)) = line.split_once(' ').filter(|_| !line.starts_with('#'))
                {
                    let code_point = u32::from_str_radix(cell, 16).ok();
                    expected[usize::from_str_radix(byte, 16).unwrap()] =
                        code_point.and_then(char::from_u32);
                }
            }
            for byte in 0..=u8::MAX {
                let bytes = [byte];
                let (text, malformed) = charset.decode(&bytes);
                let ours = text.chars().next().filter(|_| !malformed);
                assert_eq!(ours, expected[usize::from(byte)], "{charset} byte {byte:#04x}");
            }
        }
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
            // GEOSTD8: archaic letters among the others, windows-1252's
            // punctuation.
            (Charset::Geostd8, b"\xc0\xc7\xe5\x80\xfd", "აჱჵ€№"),
            (Charset::Koi8T, b"\x80\xc1", "қа"),
            (Charset::Dos720, b"\x98\xe2", "ءظ"),
            // TCVN5712-1: precomposed letters, and tone marks that follow a
            // letter (glibc's converter composes them; the text is the same).
            (Charset::Tcvn5712_1, b"Vi\xd6t \xb8 C\xb3", "Việt á C\u{301}"),
            (Charset::Ibm856, b"\x80\x9a", "את"),
            (Charset::XMacGreek, b"\xa1\xe1", "Γα"),
            (Charset::XMacTurkish, b"\xda\xdb", "Ğğ"),
            (Charset::XMacIcelandic, b"\xdc\xdd", "Ðð"),
            (Charset::XMacCroatian, b"\xa9\xb9", "Šš"),
            (Charset::XMacRomanian, b"\xaf\xbf", "Șș"),
            (Charset::XMacArabic, b"\xc7\xc8", "اب"),
            (Charset::XMacHebrew, b"\xe0\xfa\xa6\xd8", "את₪\u{5BF}"),
            // EBCDIC: letters at 0x81-0xE9, the space at 0x40, LF at 0x25
            // and NEL at 0x15.
            (Charset::Ibm037, b"\xc8\x85\x93\x93\x96\x40\x5a\x25\x15", "Hello !\n\u{85}"),
            (Charset::Ibm500, b"\x4a\x5a\x4f", "[]!"),
            (Charset::Ibm273, b"\x4a\xc0\xa1", "Ääß"),
            (Charset::Ibm277, b"\x7b\x5b\x5a", "ÆÅ¤"),
            (Charset::Ibm01142, b"\x7b\x5b\x5a", "ÆÅ€"),
            (Charset::Ibm01140, b"\x9f", "€"),
            (Charset::Ibm01147, b"\x9f\xc0", "€é"),
            (Charset::Ibm424, b"\x41\x71", "את"),
            (Charset::Ibm875, b"\x41\xb1", "Αά"),
            (Charset::Ibm1026, b"\x5a\x79", "Ğı"),
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
        // EBCDIC writes the reference in its own bytes: `&#8364;` in IBM037.
        let (bytes, unmappable) = Charset::Ibm037.encode("a€");
        assert_eq!((&*bytes, unmappable), (&b"\x81\x50\x7b\xf8\xf3\xf6\xf4\x5e"[..], true));
        assert_eq!(Charset::Ibm037.decode(&bytes).0, "a&#8364;");
        // IBM278 has `#` at 0x63, not at 0x7B.
        assert_eq!(Charset::Ibm278.decode(&Charset::Ibm278.encode("€").0).0, "&#8364;");
    }
}
