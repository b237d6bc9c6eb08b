//! CESU-8 (Unicode Technical Report #26): UTF-8 of UTF-16 code units, so
//! that a supplementary character is its two surrogates, each written as
//! UTF-8 would write a BMP code point (three bytes, `ED A0-AF xx` then
//! `ED B0-BF xx`: six bytes in all). Databases (Oracle's `UTF8`) and Java's
//! serialisation write it; Python has no codec for it.
//!
//! Not Java's "modified UTF-8": U+0000 is the byte 00 here, as in UTF-8.
//!
//! The BMP reads as in UTF-8 (shortest forms only). Malformed: a byte that
//! begins no sequence (80-C1, F0-FF: a four-byte UTF-8 sequence is not
//! CESU-8, so its lead and each continuation byte are malformed on their
//! own), a broken sequence (its bytes so far; the byte that broke it is
//! read again), a low surrogate on its own (three bytes), and a high
//! surrogate not followed by a low one (its three bytes; what follows is
//! read again from the `ED` on).

use super::{ByteDecoder, Step};

/// A three-byte sequence's code point.
fn three(a: u8, b: u8, c: u8) -> u32 {
    u32::from(a & 0x0F) << 12 | u32::from(b & 0x3F) << 6 | u32::from(c & 0x3F)
}

/// CESU-8, one byte at a time (see the module docs).
#[derive(Default)]
pub(super) struct Decoder {
    /// The bytes of an unfinished character: up to a high surrogate's
    /// three, `ED` and the low surrogate's second byte.
    pending: [u8; 5],
    len: u8,
}

impl Decoder {
    fn keep(&mut self, bytes: &[u8]) -> Step {
        self.pending[..bytes.len()].copy_from_slice(bytes);
        self.len = bytes.len() as u8;
        Step::Pending
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        let len = std::mem::take(&mut self.len);
        let pending = self.pending;
        match (&pending[..usize::from(len)], byte) {
            ([], 0x00..=0x7F) => Step::Char(char::from(byte)),
            ([], 0xC2..=0xEF) => self.keep(&[byte]),
            ([], _) => Step::Malformed(1),
            (&[lead @ 0xC2..=0xDF], 0x80..=0xBF) => {
                let code_point = u32::from(lead & 0x1F) << 6 | u32::from(byte & 0x3F);
                Step::Char(char::from_u32(code_point).expect("two bytes make a BMP scalar"))
            }
            (&[0xE0], 0xA0..=0xBF) | (&[0xE1..=0xEF], 0x80..=0xBF) => {
                self.keep(&[pending[0], byte])
            }
            (&[a @ 0xE0..=0xEF, b], 0x80..=0xBF) => match three(a, b, byte) {
                0xD800..=0xDBFF => self.keep(&[a, b, byte]),
                0xDC00..=0xDFFF => Step::Malformed(3),
                code_point => Step::Char(char::from_u32(code_point).expect("not a surrogate")),
            },
            (&[_, _, _], 0xED) => self.keep(&[pending[0], pending[1], pending[2], byte]),
            (&[_, _, _, 0xED], 0xB0..=0xBF) => {
                self.keep(&[pending[0], pending[1], pending[2], 0xED, byte])
            }
            (&[h1, h2, h3, _, l2], 0x80..=0xBF) => {
                let high = three(h1, h2, h3);
                let low = three(0xED, l2, byte);
                let code_point = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                Step::Char(char::from_u32(code_point).expect("a surrogate pair is a scalar"))
            }
            // A high surrogate, then `ED` and a byte that begins no low one:
            // the high one is malformed, and `ED` goes on from here.
            (&[_, _, _, 0xED], _) | (&[_, _, _, 0xED, _], _) => {
                let kept = len - 3;
                self.keep(&pending[3..usize::from(len)]);
                Step::MalformedEarlier { len: 3, kept }
            }
            _ => Step::MalformedBefore(len),
        }
    }

    fn finish(&mut self) -> u8 {
        std::mem::take(&mut self.len)
    }
}

/// Appends the CESU-8 bytes of `c`: UTF-8 of each of its UTF-16 code units.
/// Every character has them.
pub(super) fn encode_char(c: char, dst: &mut Vec<u8>) -> bool {
    for unit in c.encode_utf16(&mut [0; 2]) {
        let unit = u32::from(*unit);
        match unit {
            0..=0x7F => dst.push(unit as u8),
            0x80..=0x7FF => {
                dst.extend_from_slice(&[0xC0 | (unit >> 6) as u8, 0x80 | (unit & 0x3F) as u8])
            }
            _ => dst.extend_from_slice(&[
                0xE0 | (unit >> 12) as u8,
                0x80 | (unit >> 6 & 0x3F) as u8,
                0x80 | (unit & 0x3F) as u8,
            ]),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    /// CESU-8 as Unicode TR #26 defines it: UTF-8 of each UTF-16 code unit.
    fn definition(c: char) -> Vec<u8> {
        c.encode_utf16(&mut [0; 2])
            .iter()
            .flat_map(|&unit| {
                let c = char::from_u32(u32::from(unit)).unwrap_or('\0');
                let mut utf8 = c.to_string().into_bytes();
                if (0xD800..=0xDFFF).contains(&unit) {
                    // UTF-8's three-byte form, which std will not write.
                    let unit = u32::from(unit);
                    utf8 = vec![
                        0xE0 | (unit >> 12) as u8,
                        0x80 | (unit >> 6 & 0x3F) as u8,
                        0x80 | (unit & 0x3F) as u8,
                    ];
                }
                utf8
            })
            .collect()
    }

    #[test]
    fn every_code_point_is_tr26s() {
        let mut supplementary = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let bytes = definition(c);
            let mut encoded = Vec::new();
            encode_char(c, &mut encoded);
            assert_eq!(encoded, bytes, "U+{:04X}", u32::from(c));
            assert_eq!(testing::decode_one(Charset::Cesu8, &bytes), Some(c), "{bytes:02x?}");
            if u32::from(c) >= 0x10000 {
                // Six bytes: a high surrogate ED A0-AF, then a low ED B0-BF.
                assert!(matches!(bytes[..], [0xED, 0xA0..=0xAF, _, 0xED, 0xB0..=0xBF, _]));
                supplementary += 1;
            } else {
                assert_eq!(bytes, c.to_string().as_bytes(), "the BMP is UTF-8's");
            }
        }
        assert_eq!(supplementary, 0x100000);
    }

    #[test]
    fn lone_surrogates_are_malformed() {
        for unit in 0xD800..=0xDFFF_u32 {
            let bytes = [
                0xE0 | (unit >> 12) as u8,
                0x80 | (unit >> 6 & 0x3F) as u8,
                0x80 | (unit & 0x3F) as u8,
            ];
            let stream = [&b"a"[..], &bytes, b"b"].concat();
            let expected = (1, bytes.to_vec());
            assert_eq!(
                testing::decode_split(Charset::Cesu8, &stream, &[]),
                ("a\u{FFFD}b".to_owned(), vec![expected]),
                "{unit:04X}"
            );
        }
        // Two high surrogates in a row: the first is malformed, the second
        // pairs with the low one after it.
        testing::assert_malformed(
            Charset::Cesu8,
            b"\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80",
            "\u{FFFD}\u{10000}",
            &[(0, b"\xed\xa0\x80")],
        );
        // A high one before a BMP character of row ED, and before a broken `ED`.
        testing::assert_malformed(
            Charset::Cesu8,
            b"\xed\xa0\x80\xed\x9f\xbf\xed\xa0\x80\xed\xb0x",
            "\u{FFFD}\u{D7FF}\u{FFFD}\u{FFFD}x",
            &[(0, b"\xed\xa0\x80"), (6, b"\xed\xa0\x80"), (9, b"\xed\xb0")],
        );
    }

    #[test]
    fn four_byte_utf8_is_malformed() {
        // 😀 in UTF-8: its lead and each continuation byte on their own.
        testing::assert_malformed(
            Charset::Cesu8,
            "a😀b".as_bytes(),
            "a\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}b",
            &[(1, b"\xf0"), (2, b"\x9f"), (3, b"\x98"), (4, b"\x80")],
        );
        // Overlong forms, and a truncated sequence at the end.
        testing::assert_malformed(
            Charset::Cesu8,
            b"\xc0\x80\xe0\x80\x80\xe6\x97",
            "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, b"\xc0"),
                (1, b"\x80"),
                (2, b"\xe0"),
                (3, b"\x80"),
                (4, b"\x80"),
                (5, b"\xe6\x97"),
            ],
        );
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::Cesu8,
            b"a\xc3\xa9\xed\xa0\xbd\xed\xb8\x80\xed\xa0\x80\xed\x9f\xbf\xf0\x9f\xed\xb0\x80\xed",
        );
    }
}
