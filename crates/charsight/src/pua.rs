//! Private-use characters and gaiji: where they are, where they came
//! from, and what they are when a vendor table says so.
//!
//! Stage: after decoding. Input: decoded text and, when known, the charset
//! it was decoded from; output: one [`PrivateUse`] per private-use code
//! point, with its byte range in the text. Nothing is changed: a caller
//! (the repair stage) decides whether to apply a [`PrivateUse::mapped`]
//! value.
//!
//! Origins that can be told from the charset:
//! - Shift_JIS (and its windows-31j spellings): the user-defined rows
//!   F0-F9, which the WHATWG decoder maps to U+E000-U+E757. NTT DoCoMo put
//!   its emoji in rows F8-F9, at exactly the code points it uses itself, so
//!   those are mapped to standard emoji from DoCoMo's table (generated from
//!   the emoji4unicode data in the PyPI package `e4u`). KDDI and SoftBank
//!   used other byte layouts, partly in the same rows: their emoji cannot be
//!   told apart from DoCoMo's without the carrier, and are left as they
//!   are (a mapped DoCoMo value is only a guess for such pages).
//! - GBK and gb18030: the user-defined areas, which the decoder maps to
//!   private use; reported with the bytes they came from.
//! - x-user-defined: the WHATWG decoder maps bytes 0x80-0xFF to
//!   U+F780-U+F7FF; reported with the byte.
//! - EUC-JP's user-defined rows (F5-FE) decode to U+FFFD under WHATWG, so
//!   private use in EUC-JP text came from elsewhere (a character
//!   reference, say) and has no byte origin.
//!
//! U+F020-U+F0FF is also the private-use form of symbol fonts (see
//! [`crate::font`]); such characters are reported here as well, with the
//! font byte.

use std::ops::Range;

use charsight_tables::carrier_emoji::DOCOMO;

use crate::Charset;

/// Where a private-use character came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Origin {
    /// A Shift_JIS user-defined row (lead byte F0-F9): the two bytes.
    ShiftJisUserDefined([u8; 2]),
    /// A user-defined area of the source charset (GBK, gb18030): its bytes.
    UserDefined(Vec<u8>),
    /// An x-user-defined byte (0x80-0xFF).
    XUserDefined(u8),
    /// The private-use form of a symbol-font byte (U+F020-U+F0FF).
    SymbolFont(u8),
    /// Nothing in the source charset explains it.
    Unknown,
}

/// One private-use character of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PrivateUse {
    /// Byte range in the text.
    pub range: Range<usize>,
    /// The character.
    pub code_point: char,
    /// Where it came from.
    pub origin: Origin,
    /// The vendor set it belongs to, when known (`"NTT DoCoMo emoji"`).
    pub vendor: Option<&'static str>,
    /// Its standard Unicode equivalent, when a vendor table gives one.
    pub mapped: Option<&'static str>,
}

/// Whether `c` is a private-use code point (BMP area or planes 15-16).
pub fn is_private_use(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD)
}

/// Reports every private-use character of `text`, decoded from `source`
/// when that is known.
pub fn scan(text: &str, source: Option<Charset>) -> Vec<PrivateUse> {
    // Private-use characters start with a byte from 0xEE up in UTF-8 (most
    // text has none): only the characters that may be one are looked at.
    let bytes = text.as_bytes();
    let mut next = 0;
    std::iter::from_fn(|| {
        let at = next + crate::pairs::first_pair(bytes.get(next..)?, 0xEE, may_be_private_use)?;
        let c = text[at..].chars().next()?;
        next = at + c.len_utf8();
        Some((at, c))
    })
    .filter(|&(_, c)| is_private_use(c))
    .map(|(at, c)| {
        let origin = origin(c, source);
        let docomo = match origin {
            Origin::ShiftJisUserDefined([0xF8 | 0xF9, _]) => docomo(c),
            _ => None,
        };
        PrivateUse {
            range: at..at + c.len_utf8(),
            code_point: c,
            origin,
            vendor: docomo.map(|_| "NTT DoCoMo emoji"),
            mapped: docomo,
        }
    })
    .collect()
}

/// Whether a character of UTF-8 text whose first two bytes are `lead`
/// and `next` may be a private-use one ([`is_private_use`]): U+E000–U+EFFF,
/// U+F000–U+F8FF (`EF 80`–`EF A3`; not the full-width forms of CJK text's
/// punctuation, `EF BC`–`EF BF`), and planes 15–16.
fn may_be_private_use(lead: u8, next: u8) -> bool {
    // (Without short-circuits: [`first_pair`](crate::pairs::first_pair)'s test runs on
    // vectors.)
    (lead == 0xEE)
        | (lead == 0xEF) & (next <= 0xA3)
        | (lead == 0xF3) & (next >= 0xB0)
        | (lead == 0xF4)
}

fn docomo(c: char) -> Option<&'static str> {
    DOCOMO.binary_search_by_key(&c, |&(pua, _)| pua).ok().map(|i| DOCOMO[i].1)
}

/// The bytes a private-use character came from in `source`.
fn origin(c: char, source: Option<Charset>) -> Origin {
    let cp = u32::from(c);
    match source {
        Some(Charset::ShiftJis) if (0xE000..=0xE757).contains(&cp) => {
            // WHATWG Shift_JIS: pointers 8836..=10715 decode to U+E000 + (pointer - 8836).
            let pointer = cp - 0xE000 + 8836;
            let (lead, trail) = (pointer / 188, pointer % 188);
            let lead = lead + if lead < 0x1F { 0x81 } else { 0xC1 };
            let trail = trail + if trail < 0x3F { 0x40 } else { 0x41 };
            Origin::ShiftJisUserDefined([lead as u8, trail as u8])
        }
        Some(Charset::XUserDefined) if (0xF780..=0xF7FF).contains(&cp) => {
            Origin::XUserDefined((cp - 0xF700) as u8)
        }
        Some(charset @ (Charset::Gbk | Charset::Gb18030)) => {
            let mut buf = [0; 4];
            match charset.encode(c.encode_utf8(&mut buf)) {
                (bytes, false) => Origin::UserDefined(bytes.into_owned()),
                _ => symbol_or_unknown(cp),
            }
        }
        _ => symbol_or_unknown(cp),
    }
}

fn symbol_or_unknown(cp: u32) -> Origin {
    match u8::try_from(cp.wrapping_sub(0xF000)) {
        Ok(byte) if byte >= 0x20 => Origin::SymbolFont(byte),
        _ => Origin::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_punctuation_is_not_scanned_as_private_use() {
        let text = "中文，標點：「引號」\u{E000}";
        let found = scan(text, None);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].range.clone()], "\u{E000}");
        assert_eq!(scan("\u{F8FF}\u{F0000}\u{10FFFD}", None).len(), 3);
    }

    #[test]
    fn shift_jis_rows_round_trip() {
        // Every user-defined pointer: the bytes reported decode back to the character.
        for cp in 0xE000..=0xE757 {
            let c = char::from_u32(cp).unwrap();
            let Origin::ShiftJisUserDefined(bytes) = origin(c, Some(Charset::ShiftJis)) else {
                panic!("U+{cp:04X}")
            };
            assert!((0xF0..=0xF9).contains(&bytes[0]));
            assert_eq!(Charset::ShiftJis.decode(&bytes).0, c.to_string());
        }
    }

    #[test]
    fn x_user_defined_and_gbk() {
        let (text, _) = Charset::XUserDefined.decode(b"a\x80\xff");
        let found = scan(&text, Some(Charset::XUserDefined));
        let origins: Vec<_> = found.iter().map(|p| p.origin.clone()).collect();
        assert_eq!(origins, [Origin::XUserDefined(0x80), Origin::XUserDefined(0xFF)]);
        let (text, _) = Charset::Gbk.decode(b"\xaa\xa1");
        let found = scan(&text, Some(Charset::Gbk));
        assert_eq!(found[0].origin, Origin::UserDefined(vec![0xAA, 0xA1]));
        assert_eq!(found[0].mapped, None);
    }

    #[test]
    fn found_among_other_characters_wherever_they_are() {
        // Characters whose first byte is 0xEE or above but not private use
        // (U+F900, U+10000) are passed over; each found is where it is.
        let text = "a\u{F900}é\u{E000}\u{10000}中\u{F8FF}\u{F0000}";
        let found: Vec<_> =
            scan(text, None).iter().map(|p| (p.range.start, p.code_point)).collect();
        let expected: Vec<_> = text.char_indices().filter(|&(_, c)| is_private_use(c)).collect();
        assert_eq!(found, expected);
        assert_eq!(found.len(), 3);
    }

    #[test]
    fn unknown_sources_and_symbol_form() {
        let found = scan("\u{F061}\u{E000}\u{10FFFD}x", None);
        let origins: Vec<_> = found.iter().map(|p| p.origin.clone()).collect();
        assert_eq!(origins, [Origin::SymbolFont(0x61), Origin::Unknown, Origin::Unknown]);
        // Outside the DoCoMo rows, nothing is mapped even in Shift_JIS.
        let (text, _) = Charset::ShiftJis.decode(b"\xf0\x40");
        assert_eq!(scan(&text, Some(Charset::ShiftJis))[0].mapped, None);
    }

    #[test]
    fn docomo_table_is_sorted() {
        assert!(DOCOMO.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(DOCOMO.len() > 200);
    }

    #[test]
    fn example_scan() {
        // NTT DoCoMo's "sun" emoji in Shift_JIS.
        let (text, _) = Charset::ShiftJis.decode(b"\x82\xa0\xf8\x9f");
        let found = scan(&text, Some(Charset::ShiftJis));
        assert_eq!(found[0].origin, Origin::ShiftJisUserDefined([0xF8, 0x9F]));
        assert_eq!(found[0].mapped, Some("\u{2600}"));
        assert_eq!(found[0].range, 3..6);
    }
}
