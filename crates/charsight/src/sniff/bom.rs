//! Byte order marks: UTF-8, UTF-16LE/BE and UTF-32LE/BE.
//!
//! The Encoding Standard's [BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff)
//! knows the first three. UTF-32LE's BOM `FF FE 00 00` begins with UTF-16LE's
//! `FF FE`, so the four-byte marks are tried first. (A UTF-16LE text whose
//! first character is U+0000 looks the same; no real text starts so.)

use super::{Evidence, Source};
use crate::Charset;

/// The byte order mark at the start of `bytes`, if any, as evidence whose
/// `len` is the number of bytes to skip before decoding.
///
/// # Example
/// ```
/// use charsight::{sniff::bom, Charset};
/// let found = bom::sniff(b"\xFF\xFE\x00\x00<\x00\x00\x00").unwrap();
/// assert_eq!(found.charset, Some(Charset::Utf32Le));
/// assert_eq!(found.len, 4);
/// assert!(bom::sniff(b"\xEF\xBB").is_none()); // truncated: not a BOM
/// ```
pub fn sniff(bytes: &[u8]) -> Option<Evidence> {
    // Longest first: UTF-32LE before UTF-16LE.
    const ORDER: [Charset; 5] =
        [Charset::Utf32Le, Charset::Utf32Be, Charset::Utf8, Charset::Utf16Le, Charset::Utf16Be];
    ORDER.iter().find_map(|&charset| {
        let mark = charset.bom()?;
        bytes.starts_with(mark).then(|| Evidence {
            source: Source::Bom,
            label: hex(mark),
            charset: Some(charset),
            offset: 0,
            len: mark.len(),
            notes: Vec::new(),
        })
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(bytes: &[u8]) -> Option<(Charset, usize)> {
        sniff(bytes).map(|e| (e.charset.unwrap(), e.len))
    }

    #[test]
    fn every_bom() {
        assert_eq!(found(b"\xEF\xBB\xBFhi"), Some((Charset::Utf8, 3)));
        assert_eq!(found(b"\xFF\xFEh\x00"), Some((Charset::Utf16Le, 2)));
        assert_eq!(found(b"\xFE\xFF\x00h"), Some((Charset::Utf16Be, 2)));
        assert_eq!(found(b"\xFF\xFE\x00\x00h\x00\x00\x00"), Some((Charset::Utf32Le, 4)));
        assert_eq!(found(b"\x00\x00\xFE\xFF\x00\x00\x00h"), Some((Charset::Utf32Be, 4)));
        assert_eq!(sniff(b"\xEF\xBB\xBF").unwrap().label, "EF BB BF");
    }

    #[test]
    fn truncated_and_absent() {
        for bytes in [&b""[..], b"\xEF", b"\xEF\xBB", b"\xFE", b"\xFF", b"\x00\x00\xFE", b"abc"] {
            assert_eq!(found(bytes), None, "{bytes:?}");
        }
        // Three bytes of a UTF-32LE BOM are a UTF-16LE BOM and a NUL.
        assert_eq!(found(b"\xFF\xFE\x00"), Some((Charset::Utf16Le, 2)));
    }
}
