//! `<meta charset>` and `<meta http-equiv=content-type>` in HTML.
//!
//! Two scans, both linear with bounded work per byte:
//!
//! 1. [`prescan`]: the HTML standard's
//!    [prescan a byte stream to determine its encoding](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
//!    step by step, over the first [`PRESCAN_WINDOW`] bytes. (Its UTF-16 XML
//!    declaration step is the XML sniffer's: see [`super::xml`].)
//! 2. [`late_scan`]: when the prescan finds nothing, the HTML parser still
//!    meets a `<meta>` later in the document and its
//!    [change the encoding](https://html.spec.whatwg.org/multipage/parsing.html#change-the-encoding)
//!    step honours it. This scan finds the first such `<meta>` as the
//!    tokenizer would: outside comments and outside the text of `<script>`,
//!    `<style>`, `<textarea>`, `<title>` and the other raw-text elements.
//!    Its evidence carries [`Note::Late`].

use memchr::{memchr, memmem};

use super::{Evidence, Note, Source};
use crate::Charset;

/// The prescan proper reads this many bytes, as the HTML standard advises.
pub const PRESCAN_WINDOW: usize = 1024;

/// Every `<meta>` declaration found, in document order: the ignored ones
/// (unknown label) and then the one that counts, if any.
///
/// Runs [`prescan`] over the first [`PRESCAN_WINDOW`] bytes of `bytes`, and
/// [`late_scan`] over all of `bytes` if that finds nothing usable. Pass the
/// bounded prefix you want searched.
///
/// # Example
/// ```
/// use charsight::{sniff::meta, sniff::Note, Charset};
/// let mut page = b"<!--".to_vec();
/// page.extend(std::iter::repeat(b'x').take(2000));
/// page.extend(b"--><meta charset=euc-kr>");
/// let found = meta::sniff(&page);
/// assert_eq!(found[0].charset, Some(Charset::EucKr));
/// assert!(found[0].notes.contains(&Note::Late));
/// ```
pub fn sniff(bytes: &[u8]) -> Vec<Evidence> {
    let window = &bytes[..bytes.len().min(PRESCAN_WINDOW)];
    let mut found = prescan(window);
    if found.last().and_then(|e| e.charset).is_none() {
        let mut late: Vec<Evidence> = late_scan(bytes)
            .into_iter()
            // The prescan reported these already.
            .filter(|e| !found.iter().any(|f| f.offset == e.offset))
            .collect();
        for evidence in &mut late {
            evidence.notes.push(Note::Late);
        }
        found.extend(late);
    }
    found
}

/// The HTML standard's prescan, over all of `bytes` (pass the first 1024).
/// Returns the declarations met, in order; the last one is the answer if it
/// has a charset. Running out of bytes ends the scan.
pub fn prescan(bytes: &[u8]) -> Vec<Evidence> {
    let mut found = Vec::new();
    // Step 1. Let position be a pointer to a byte in the input byte stream.
    let mut position = 0;
    // Step 3. Loop: If position points to:
    while position < bytes.len() {
        let rest = &bytes[position..];
        if rest.starts_with(b"<!--") {
            // Advance the position pointer so that it points at the first
            // 0x3E byte which is preceded by two 0x2D bytes (the two 0x2D
            // bytes can be those in '<!--').
            match comment_end(rest) {
                Some(i) => position += i,
                None => break,
            }
        } else if is_meta_start(rest) {
            let Some((end, evidence)) = meta_element(bytes, position) else { break };
            position = end;
            if let Some(evidence) = evidence {
                let done = evidence.charset.is_some();
                found.push(evidence);
                if done {
                    // Step 16. Abort the prescan, returning the encoding.
                    return found;
                }
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // A tag: advance to the next whitespace or '>', then get
            // attributes until there are none.
            let Some(i) = rest.iter().position(|&b| is_space(b) || b == b'>') else { break };
            match skip_attributes(bytes, position + i) {
                Some(end) => position = end,
                None => break,
            }
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            // Advance to the first '>' after the '<'.
            match memchr(b'>', &rest[1..]) {
                Some(i) => position += 1 + i,
                None => break,
            }
        }
        // Step 4. Next byte.
        position += 1;
    }
    found
}

/// The first `<meta>` declarations as the HTML tokenizer meets them (not
/// inside comments or raw-text elements): any ignored ones, then the first
/// one with a usable charset. Bounded work per byte.
pub fn late_scan(bytes: &[u8]) -> Vec<Evidence> {
    let mut found = Vec::new();
    let mut position = 0;
    while let Some(i) = memchr(b'<', &bytes[position..]) {
        position += i;
        let rest = &bytes[position..];
        if rest.starts_with(b"<!--") {
            match comment_end(rest) {
                Some(i) => position += i + 1,
                None => break,
            }
        } else if is_meta_start(rest) {
            let Some((end, evidence)) = meta_element(bytes, position) else { break };
            position = end + 1;
            if let Some(evidence) = evidence {
                let done = evidence.charset.is_some();
                found.push(evidence);
                if done {
                    break;
                }
            }
        } else if rest.len() >= 2 && rest[0] == b'<' && rest[1].is_ascii_alphabetic() {
            let name_len = rest[1..]
                .iter()
                .position(|&b| is_space(b) || b == b'/' || b == b'>')
                .unwrap_or(rest.len() - 1);
            let name = &rest[1..1 + name_len];
            match skip_attributes(bytes, position + 1 + name_len) {
                Some(end) => position = end + 1,
                None => break,
            }
            if name.eq_ignore_ascii_case(b"plaintext") {
                break;
            }
            if let Some(&element) = RAW_TEXT.iter().find(|e| name.eq_ignore_ascii_case(e)) {
                match find_end_tag(&bytes[position..], element) {
                    Some(i) => position += i,
                    None => break,
                }
            }
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            match memchr(b'>', &rest[1..]) {
                Some(i) => position += 2 + i,
                None => break,
            }
        } else {
            position += 1;
        }
    }
    found
}

/// The offset, in `rest` (which starts with `<!--`), of the `>` that ends
/// the comment: the first one preceded by `--`, which may be those of `<!--`.
fn comment_end(rest: &[u8]) -> Option<usize> {
    memmem::find(&rest[2..], b"-->").map(|i| 2 + i + 2)
}

/// Gets attributes from `position` until there are none; the offset of the
/// `>` that ends the tag, or `None` if the bytes run out first.
fn skip_attributes(bytes: &[u8], mut position: usize) -> Option<usize> {
    loop {
        match get_an_attribute(bytes, position) {
            Attribute::Found(attr) => position = attr.end,
            Attribute::None(at) => return Some(at),
            Attribute::OutOfBytes => return None,
        }
    }
}

/// Elements whose content the tokenizer reads as text, not tags.
const RAW_TEXT: [&[u8]; 9] = [
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"noscript",
];

/// Offset of the `</name` that ends a raw-text element (case-insensitive).
fn find_end_tag(bytes: &[u8], name: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memmem::find(&bytes[from..], b"</") {
        let at = from + i;
        let after = &bytes[at + 2..];
        if after.len() >= name.len() && after[..name.len()].eq_ignore_ascii_case(name) {
            return Some(at);
        }
        from = at + 2;
    }
    None
}

/// `<meta` followed by whitespace or `/`, case-insensitively.
fn is_meta_start(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// Steps 1–16 of the `<meta` branch. `start` is the offset of `<meta`.
/// Returns the offset of the byte that ended the attributes (the "next
/// byte" step moves past it) and the declaration if the element makes one;
/// `None` if the bytes run out.
fn meta_element(bytes: &[u8], start: usize) -> Option<(usize, Option<Evidence>)> {
    // Step 1. Advance to the whitespace or slash after '<meta'.
    let mut position = start + 5;
    // Steps 2-5. The attribute list matters only for the three names the
    // steps look at, so it is kept as three flags: linear work per byte
    // however many attributes an element has.
    let mut seen = [false; 3];
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<(usize, usize)> = None; // label span
    loop {
        // Step 6. Attributes: get an attribute and its value.
        let attr = match get_an_attribute(bytes, position) {
            Attribute::Found(attr) => attr,
            Attribute::None(at) => {
                position = at;
                break;
            }
            Attribute::OutOfBytes => return None,
        };
        position = attr.end;
        let slot = match attr.name.as_slice() {
            b"http-equiv" => 0,
            b"content" => 1,
            b"charset" => 2,
            _ => continue,
        };
        // Step 7. If the name is already in the attribute list, skip it.
        // Step 8. Add the name to the attribute list.
        if std::mem::replace(&mut seen[slot], true) {
            continue;
        }
        // Step 9. Run the step for the attribute's name.
        match slot {
            0 => got_pragma |= attr.value == b"content-type",
            1 => {
                if let Some((offset, len)) = extract_from_content(&attr.value) {
                    if charset.is_none() {
                        charset = Some((attr.value_start + offset, len));
                        need_pragma = Some(true);
                    }
                }
            }
            _ => {
                charset = Some((attr.value_start, attr.value.len()));
                need_pragma = Some(false);
            }
        }
    }
    // Step 11-12. Processing: no declaration unless the pragma rules hold.
    let (offset, len) = match (need_pragma, charset) {
        (None, _) | (_, None) => return Some((position, None)),
        (Some(true), _) if !got_pragma => return Some((position, None)),
        (Some(_), Some(span)) => span,
    };
    let mut evidence = Evidence::from_label(Source::Meta, &bytes[offset..offset + len], offset);
    // Step 13 (charset is failure) leaves `evidence.charset` empty.
    // Steps 14-15.
    match evidence.charset {
        Some(Charset::Utf16Le | Charset::Utf16Be | Charset::Utf32Le | Charset::Utf32Be) => {
            evidence.charset = Some(Charset::Utf8);
            evidence.notes.push(Note::Utf16MeansUtf8);
        }
        Some(Charset::XUserDefined) => {
            evidence.charset = Some(Charset::Windows1252);
            evidence.notes.push(Note::UserDefinedMeansWindows1252);
        }
        // Not in the standard: EBCDIC cannot be true of bytes in which the
        // `<meta>` reads as ASCII (a page converted from EBCDIC that kept
        // its label).
        Some(charset) if charset.is_ebcdic() => {
            evidence.charset = None;
            evidence.notes.push(Note::Mismatch);
        }
        _ => {}
    }
    Some((position, Some(evidence)))
}

struct Attr {
    /// Lower-cased name.
    name: Vec<u8>,
    /// Lower-cased value.
    value: Vec<u8>,
    /// Offset of the value's first byte.
    value_start: usize,
    /// Where the scan continues.
    end: usize,
}

enum Attribute {
    Found(Attr),
    /// No more attributes: the byte at this offset is '>'.
    None(usize),
    OutOfBytes,
}

/// The HTML standard's [get an attribute](https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing).
fn get_an_attribute(bytes: &[u8], mut position: usize) -> Attribute {
    macro_rules! byte {
        () => {
            match bytes.get(position) {
                Some(&b) => b,
                None => return Attribute::OutOfBytes,
            }
        };
    }
    // Step 1. Skip whitespace and slashes.
    while is_space(byte!()) || byte!() == b'/' {
        position += 1;
    }
    // Step 2. '>' ends the attributes.
    if byte!() == b'>' {
        return Attribute::None(position);
    }
    // Step 3. The attribute name starts here.
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Steps 4-5. The name.
    loop {
        let b = byte!();
        match b {
            b'=' if !name.is_empty() => {
                position += 1;
                break;
            }
            _ if is_space(b) => {
                // Step 6. Spaces: skip whitespace.
                while is_space(byte!()) {
                    position += 1;
                }
                // Step 7. Anything but '=' ends an attribute with no value.
                if byte!() != b'=' {
                    return found(name, value, position, position);
                }
                // Step 8. Advance past the '='.
                position += 1;
                break;
            }
            b'/' | b'>' => return found(name, value, position, position),
            _ => name.push(b.to_ascii_lowercase()),
        }
        position += 1;
    }
    // Step 9. Value: skip whitespace.
    while is_space(byte!()) {
        position += 1;
    }
    // Step 10.
    let b = byte!();
    match b {
        b'"' | b'\'' => {
            let start = position + 1;
            let Some(len) = memchr(b, &bytes[start..]) else { return Attribute::OutOfBytes };
            value.extend(bytes[start..start + len].iter().map(u8::to_ascii_lowercase));
            return found(name, value, start, start + len + 1);
        }
        b'>' => return found(name, value, position, position),
        _ => {}
    }
    // Steps 11-13. An unquoted value runs to whitespace or '>'.
    let start = position;
    loop {
        let b = byte!();
        if is_space(b) || b == b'>' {
            return found(name, value, start, position);
        }
        value.push(b.to_ascii_lowercase());
        position += 1;
    }
}

fn found(name: Vec<u8>, value: Vec<u8>, value_start: usize, end: usize) -> Attribute {
    Attribute::Found(Attr { name, value, value_start, end })
}

/// The HTML standard's
/// [extracting a character encoding from a meta element](https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element),
/// returning the span of the label within `s`.
fn extract_from_content(s: &[u8]) -> Option<(usize, usize)> {
    // Step 1. Let position be a pointer into s, initially before the start.
    let mut position = 0;
    loop {
        // Step 2. Loop: find "charset" after position (s is lower-cased).
        position += memmem::find(&s[position..], b"charset")? + 7;
        // Step 3. Skip whitespace after "charset".
        while s.get(position).copied().is_some_and(is_space) {
            position += 1;
        }
        // Step 4. If the next character is not '=', loop from just before it.
        if s.get(position) == Some(&b'=') {
            break;
        }
    }
    // Step 5. Skip whitespace after '='.
    position += 1;
    while s.get(position).copied().is_some_and(is_space) {
        position += 1;
    }
    // Step 6. Process the next character.
    match *s.get(position)? {
        quote @ (b'"' | b'\'') => {
            let len = memchr(quote, &s[position + 1..])?;
            Some((position + 1, len))
        }
        _ => {
            let len = s[position..]
                .iter()
                .position(|&b| is_space(b) || b == b';')
                .unwrap_or(s.len() - position);
            Some((position, len))
        }
    }
}

/// ASCII whitespace as the prescan means it: TAB, LF, FF, CR, SPACE.
fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(bytes: &[u8]) -> Option<Charset> {
        sniff(bytes).last().and_then(|e| e.charset)
    }

    #[test]
    fn charset_attribute() {
        assert_eq!(answer(b"<meta charset=utf-8>"), Some(Charset::Utf8));
        assert_eq!(answer(b"<META CHARSET='Shift_JIS'/>"), Some(Charset::ShiftJis));
        assert_eq!(answer(b"<meta/charset=\"euc-jp\">"), Some(Charset::EucJp));
        let e = &sniff(b"<html><meta charset=\"koi8-r\">")[0];
        assert_eq!((e.offset, e.len, e.label.as_str()), (21, 6, "koi8-r"));
    }

    #[test]
    fn http_equiv_needs_pragma() {
        let page = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">";
        assert_eq!(answer(page), Some(Charset::Gbk));
        assert_eq!(answer(b"<meta content=\"text/html; charset=gb2312\">"), None);
        // The label's offset points into the content attribute.
        let e = &sniff(page)[0];
        assert_eq!(&page[e.offset..e.offset + e.len], b"gb2312");
    }

    #[test]
    fn rules_for_utf16_and_user_defined() {
        let e = &sniff(b"<meta charset=utf-16le>")[0];
        assert_eq!(e.charset, Some(Charset::Utf8));
        assert_eq!(e.notes, vec![Note::Utf16MeansUtf8]);
        let e = &sniff(b"<meta charset=x-user-defined>")[0];
        assert_eq!(e.charset, Some(Charset::Windows1252));
        let e = &sniff(b"<meta charset=cp037>")[0];
        assert_eq!((e.charset, &e.notes[..]), (None, &[Note::Mismatch][..]));
    }

    #[test]
    fn unknown_label_is_reported_and_scan_goes_on() {
        let found = sniff(b"<meta charset=bogus><meta charset=big5>");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].charset, None);
        assert_eq!(found[1].charset, Some(Charset::Big5));
    }

    #[test]
    fn comments_hide_metas() {
        assert_eq!(answer(b"<!-- <meta charset=big5> --><meta charset=gbk>"), Some(Charset::Gbk));
        assert_eq!(answer(b"<!--><meta charset=gbk>"), Some(Charset::Gbk));
        assert_eq!(answer(b"<!-- never closed <meta charset=gbk>"), None);
    }

    #[test]
    fn meta_cut_off_at_the_window_is_found_late() {
        let mut page = vec![b' '; PRESCAN_WINDOW - 8];
        page.extend(b"<meta charset=\"windows-1251\">");
        assert!(prescan(&page[..PRESCAN_WINDOW]).is_empty());
        let found = sniff(&page);
        assert_eq!(found[0].charset, Some(Charset::Windows1251));
        assert_eq!(found[0].notes, vec![Note::Late]);
    }

    #[test]
    fn late_scan_skips_raw_text() {
        let mut page = b"<script>".to_vec();
        page.extend(vec![b'x'; 2000]);
        page.extend(b"document.write('<meta charset=big5>')</SCRIPT ><p><meta charset=gbk>");
        assert_eq!(answer(&page), Some(Charset::Gbk));
        let mut page = b"<textarea>".to_vec();
        page.extend(vec![b'x'; 2000]);
        page.extend(b"<meta charset=big5>");
        assert_eq!(answer(&page), None);
    }

    #[test]
    fn huge_unterminated_input_is_linear() {
        let mut page = Vec::new();
        for _ in 0..200_000 {
            page.extend(b"<!--<meta ");
        }
        assert_eq!(answer(&page), None);
        let page: Vec<u8> = b"<meta a".iter().copied().cycle().take(2_000_000).collect();
        assert_eq!(answer(&page), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(bytes: Vec<u8>) {
            let _ = sniff(&bytes);
        }

        #[test]
        fn never_panics_on_markup(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                &b"<meta"[..], b" ", b"/", b"charset", b"=", b"\"", b"'", b">", b"<!--", b"-->",
                b"<", b"</", b"http-equiv", b"content", b"content-type", b"utf-8", b";", b"a",
                b"<script>", b"</script>",
            ]), 0..64)) {
            let bytes: Vec<u8> = parts.concat();
            let _ = sniff(&bytes);
        }
    }
}
