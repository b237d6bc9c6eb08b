//! The XML declaration and the shape of an XML document's first bytes.
//!
//! - [`autodetect`]: [XML 1.0 Appendix F](https://www.w3.org/TR/xml/#sec-guessing-no-ext-info),
//!   the encoding family told by the first four bytes when there is no BOM
//!   (UTF-32 and UTF-16 in either byte order, EBCDIC, for which IBM037
//!   stands until the declaration names the code page).
//! - [`declaration`]: the `encoding` of an
//!   [XML declaration](https://www.w3.org/TR/xml/#NT-EncodingDecl), read in
//!   whatever byte form (one, two or four bytes per character, or EBCDIC)
//!   the document has, with single or double quotes and whitespace around
//!   `=`.
//!
//! [RFC 7303](https://www.rfc-editor.org/rfc/rfc7303#section-3) decides
//! precedence (BOM, then the HTTP charset for XML media types, then the
//! declaration); that is the pipeline's job.

use memchr::memmem;

use charsight_tables::charmaps;

use super::{Evidence, Note, Source};
use crate::Charset;

/// How far into the document a declaration may reach, in characters.
const MAX_DECLARATION: usize = 1024;

/// The byte form of the first characters: bytes per character and order,
/// or EBCDIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Form {
    width: usize,
    big_endian: bool,
    ebcdic: bool,
}

impl Form {
    const ASCII: Form = Form { width: 1, big_endian: false, ebcdic: false };

    fn of(charset: Charset) -> Form {
        let (width, big_endian) = match charset {
            Charset::Utf16Le => (2, false),
            Charset::Utf16Be => (2, true),
            Charset::Utf32Le => (4, false),
            Charset::Utf32Be => (4, true),
            _ => (1, false),
        };
        Form { width, big_endian, ebcdic: charset.is_ebcdic() }
    }

    /// The character at `index` if it is ASCII, else 0xFF. EBCDIC is read as
    /// IBM037: what a declaration is made of (letters, digits, `<?=.-_`,
    /// quotes, space) has the same bytes in every EBCDIC code page.
    fn ascii_at(self, bytes: &[u8], index: usize) -> Option<u8> {
        let unit = bytes.get(index * self.width..(index + 1) * self.width)?;
        if self.ebcdic {
            let c = charmaps::IBM037.chars[usize::from(unit[0])];
            return Some(u8::try_from(c).ok().filter(u8::is_ascii).unwrap_or(0xFF));
        }
        let (low, high) = if self.big_endian {
            (unit[self.width - 1], &unit[..self.width - 1])
        } else {
            (unit[0], &unit[1..])
        };
        Some(if low < 0x80 && high.iter().all(|&b| b == 0) { low } else { 0xFF })
    }
}

/// The XML 1.0 Appendix F guess from the first four bytes of a document with
/// no BOM. UTF-16 needs `<?x` (six bytes), as in the HTML standard's prescan
/// for UTF-16 XML declarations; UTF-32 needs only `<`.
///
/// # Example
/// ```
/// use charsight::{sniff::xml, Charset};
/// let found = xml::autodetect(b"\x00<\x00?\x00x\x00m\x00l").unwrap();
/// assert_eq!(found.charset, Some(Charset::Utf16Be));
/// assert_eq!(xml::autodetect(b"<?xml version='1.0'?>"), None); // ASCII form: read the declaration
/// ```
pub fn autodetect(bytes: &[u8]) -> Option<Evidence> {
    let (label, charset, len) = match bytes {
        [0, 0, 0, 0x3C, ..] => ("00 00 00 3C", Some(Charset::Utf32Be), 4),
        [0x3C, 0, 0, 0, ..] => ("3C 00 00 00", Some(Charset::Utf32Le), 4),
        [0, 0, 0x3C, 0, ..] => ("00 00 3C 00 (UCS-4, 2143 order)", None, 4),
        [0, 0x3C, 0, 0, ..] => ("00 3C 00 00 (UCS-4, 3412 order)", None, 4),
        [0x3C, 0, 0x3F, 0, 0x78, 0, ..] => ("3C 00 3F 00 78 00", Some(Charset::Utf16Le), 6),
        [0, 0x3C, 0, 0x3F, 0, 0x78, ..] => ("00 3C 00 3F 00 78", Some(Charset::Utf16Be), 6),
        [0x4C, 0x6F, 0xA7, 0x94, ..] => ("4C 6F A7 94 (EBCDIC)", Some(Charset::Ibm037), 4),
        _ => return None,
    };
    let mut notes = vec![Note::Autodetected];
    if charset.is_none() {
        notes.push(Note::Unsupported);
    }
    Some(Evidence { source: Source::Xml, label: label.to_owned(), charset, offset: 0, len, notes })
}

/// The `encoding` of the XML declaration that starts at `start` (after any
/// BOM), read in the byte form of `form` (the BOM's or autodetected
/// charset; `None` for an ASCII-compatible form).
///
/// In an ASCII-compatible form a UTF-16 or UTF-32 label cannot be true and
/// means UTF-8 ([`Note::Utf16MeansUtf8`], as the HTML standard reads it); in
/// a UTF-16 or UTF-32 form a label of the same width stands for that form
/// (its byte order comes from the bytes), and any other label is
/// impossible ([`Note::Mismatch`], no charset). In EBCDIC only an EBCDIC
/// label can be true, and only in EBCDIC.
///
/// # Example
/// ```
/// use charsight::{sniff::xml, Charset};
/// let doc = b"<?xml version='1.0' encoding = 'windows-1251'?><r/>";
/// let found = xml::declaration(doc, 0, None).unwrap();
/// assert_eq!(found.charset, Some(Charset::Windows1251));
/// assert_eq!(found.offset, 32);
/// ```
pub fn declaration(bytes: &[u8], start: usize, form: Option<Charset>) -> Option<Evidence> {
    let doc = bytes.get(start..)?;
    let shape = form.map_or(Form::ASCII, Form::of);
    let ascii: Vec<u8> = (0..MAX_DECLARATION).map_while(|i| shape.ascii_at(doc, i)).collect();
    let (value_at, value_len) = encoding_value(&ascii)?;
    let raw_start = start + value_at * shape.width;
    let raw_len = value_len * shape.width;
    let label = &ascii[value_at..value_at + value_len];
    let mut evidence = Evidence::from_label(Source::Xml, label, raw_start);
    evidence.len = raw_len;
    let Some(declared) = evidence.charset.map(Form::of) else { return Some(evidence) };
    match (shape.width, declared.width) {
        _ if shape.ebcdic != declared.ebcdic => {
            evidence.charset = None;
            evidence.notes.push(Note::Mismatch);
        }
        // The declared code page of EBCDIC or an ASCII-compatible encoding.
        (1, 1) => {}
        (1, _) => {
            evidence.charset = Some(Charset::Utf8);
            evidence.notes.push(Note::Utf16MeansUtf8);
        }
        (w, d) if w == d => evidence.charset = form,
        _ => {
            evidence.charset = None;
            evidence.notes.push(Note::Mismatch);
        }
    }
    Some(evidence)
}

/// Whether the document (after an optional BOM) starts with an XML
/// declaration, `<?xml` and whitespace, in any of the byte forms.
pub fn starts_with_declaration(bytes: &[u8]) -> bool {
    let (start, form) = match super::bom::sniff(bytes) {
        Some(bom) => (bom.len, bom.charset.map_or(Form::ASCII, Form::of)),
        None => {
            let form = autodetect(bytes).and_then(|e| e.charset).map_or(Form::ASCII, Form::of);
            (0, form)
        }
    };
    let doc = &bytes[start..];
    let head: Vec<u8> = (0..6).map_while(|i| form.ascii_at(doc, i)).collect();
    head.len() == 6 && head.starts_with(b"<?xml") && is_space(head[5])
}

/// Position and length of the encoding name in an ASCII projection of a
/// document that starts with `<?xml`.
fn encoding_value(ascii: &[u8]) -> Option<(usize, usize)> {
    if !ascii.starts_with(b"<?xml") || !ascii.get(5).copied().is_some_and(is_space) {
        return None;
    }
    let end = memmem::find(ascii, b"?>").unwrap_or(ascii.len());
    let decl = &ascii[..end];
    let mut from = 5;
    loop {
        let at = from + find_ignore_case(&decl[from..], b"encoding")?;
        let mut pos = at + 8;
        from = pos;
        // `encoding` must follow whitespace (EncodingDecl ::= S 'encoding' Eq …).
        if !is_space(decl[at - 1]) {
            continue;
        }
        while decl.get(pos).copied().is_some_and(is_space) {
            pos += 1;
        }
        if decl.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        while decl.get(pos).copied().is_some_and(is_space) {
            pos += 1;
        }
        let quote = *decl.get(pos).filter(|&&q| q == b'"' || q == b'\'')?;
        let value = &decl[pos + 1..];
        let len = memchr::memchr(quote, value)?;
        return Some((pos + 1, len));
    }
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// XML's `S`: space, tab, CR, LF.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    #[test]
    fn appendix_f_patterns() {
        let found = |b: &[u8]| autodetect(b).map(|e| e.charset);
        assert_eq!(found(b"\0\0\0<\0\0\0?"), Some(Some(Charset::Utf32Be)));
        assert_eq!(found(b"<\0\0\0?\0\0\0"), Some(Some(Charset::Utf32Le)));
        assert_eq!(found(b"<\0?\0x\0m\0"), Some(Some(Charset::Utf16Le)));
        assert_eq!(found(b"\0<\0?\0x\0m"), Some(Some(Charset::Utf16Be)));
        assert_eq!(found(b"\0\0<\0"), Some(None));
        assert_eq!(found(b"\x4C\x6F\xA7\x94\x93"), Some(Some(Charset::Ibm037)));
        assert_eq!(found(b"<?xm"), None);
        assert_eq!(found(b"<\0?"), None); // truncated
    }

    #[test]
    fn declaration_quotes_and_whitespace() {
        let charset = |d: &[u8]| declaration(d, 0, None).and_then(|e| e.charset);
        assert_eq!(charset(b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?>"), Some(Charset::EucJp));
        assert_eq!(charset(b"<?xml version='1.0' encoding='gb2312' ?>"), Some(Charset::Gbk));
        assert_eq!(
            charset(b"<?xml\n\tversion='1.0'\r\n encoding\t=\n'koi8-r'?>"),
            Some(Charset::Koi8R)
        );
        assert_eq!(charset(b"<?xml version='1.0' ENCODING='big5'?>"), Some(Charset::Big5));
        assert_eq!(declaration(b"<?xml version='1.0'?><a encoding='big5'/>", 0, None), None);
        assert_eq!(declaration(b"<?xml-stylesheet encoding='big5'?>", 0, None), None);
        assert_eq!(declaration(b"<?xml version='1.0' xencoding='big5'?>", 0, None), None);
        assert_eq!(declaration(b"<?xml version='1.0' encoding='big5", 0, None), None);
        assert_eq!(declaration(b" <?xml version='1.0' encoding='big5'?>", 0, None), None);
    }

    #[test]
    fn declaration_in_utf16_form() {
        let doc = utf16le("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>");
        let found = declaration(&doc, 0, Some(Charset::Utf16Le)).unwrap();
        assert_eq!(found.charset, Some(Charset::Utf16Le));
        assert_eq!((found.offset, found.len), (60, 12));
        let doc = utf16le("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>");
        let found = declaration(&doc, 0, Some(Charset::Utf16Le)).unwrap();
        assert_eq!(found.charset, None);
        assert_eq!(found.notes, vec![Note::Mismatch]);
        // An ASCII declaration cannot be EBCDIC either, nor the reverse.
        let found = declaration(b"<?xml version='1.0' encoding='IBM037'?>", 0, None).unwrap();
        assert_eq!((found.charset, found.notes), (None, vec![Note::Mismatch]));
        let doc = Charset::Ibm037.encode("<?xml version='1.0' encoding='latin1'?>").0;
        let found = declaration(&doc, 0, Some(Charset::Ibm037)).unwrap();
        assert_eq!((found.charset, found.notes), (None, vec![Note::Mismatch]));
    }

    #[test]
    fn declaration_in_ebcdic() {
        // Danish EBCDIC: `#`, `{` and `}` move, the declaration's bytes do not.
        let doc =
            Charset::Ibm01142.encode("<?xml version=\"1.0\" encoding=\"IBM01142\"?><r>Æ</r>").0;
        let pattern = autodetect(&doc).unwrap();
        assert_eq!(pattern.charset, Some(Charset::Ibm037));
        let found = declaration(&doc, 0, pattern.charset).unwrap();
        assert_eq!(found.charset, Some(Charset::Ibm01142));
        assert_eq!(
            &doc[found.offset..found.offset + found.len],
            &Charset::Ibm037.encode("IBM01142").0[..]
        );
        // With a BOM the declaration starts after it.
        let mut doc = b"\xFF\xFE".to_vec();
        doc.extend(utf16le("<?xml version='1.0' encoding='utf-16le'?>"));
        assert_eq!(
            declaration(&doc, 2, Some(Charset::Utf16Le)).unwrap().charset,
            Some(Charset::Utf16Le)
        );
    }

    #[test]
    fn utf16_label_in_ascii_form_means_utf8() {
        let found = declaration(b"<?xml version='1.0' encoding='UTF-16'?>", 0, None).unwrap();
        assert_eq!(found.charset, Some(Charset::Utf8));
        assert_eq!(found.notes, vec![Note::Utf16MeansUtf8]);
    }

    #[test]
    fn document_kind() {
        assert!(starts_with_declaration(b"<?xml version='1.0'?>"));
        assert!(starts_with_declaration(b"\xEF\xBB\xBF<?xml version='1.0'?>"));
        assert!(starts_with_declaration(&utf16le("<?xml version='1.0'?>")));
        assert!(!starts_with_declaration(b"<?xml-stylesheet href='a'?>"));
        assert!(!starts_with_declaration(b"<html>"));
        assert!(!starts_with_declaration(b"<?xm"));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(bytes: Vec<u8>, start in 0usize..8) {
            let _ = autodetect(&bytes);
            let _ = starts_with_declaration(&bytes);
            for form in [None, Some(Charset::Utf16Le), Some(Charset::Utf32Be)] {
                let _ = declaration(&bytes, start, form);
            }
        }
    }
}
