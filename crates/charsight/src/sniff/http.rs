//! The `charset` parameter of an HTTP `Content-Type` value.
//!
//! Grammar: [RFC 9110 §8.3.1](https://www.rfc-editor.org/rfc/rfc9110#section-8.3.1)
//! (`type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )`,
//! case-insensitive names, backslash escapes in quoted strings). Malformed
//! parameters are skipped, not fatal. Several values joined by commas, as
//! when a header is repeated, are combined as Fetch's
//! [extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
//! does: the last media type wins, and keeps the previous charset if it has
//! none and names the same type. Within one value the first `charset`
//! parameter wins.

use super::{Evidence, Note, Source};

/// The family of a media type, for the precedence rules that depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MediaKind {
    /// `text/html`.
    Html,
    /// `application/xml`, `text/xml` or any `+xml` type (RFC 7303): the
    /// charset parameter beats the XML declaration.
    Xml,
    /// Anything else (`text/plain`, `application/json`, …).
    Other,
}

/// A parsed `Content-Type` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentType {
    /// The media type in lower case (`text/html`), if one parsed.
    pub essence: Option<String>,
    /// Its family.
    pub kind: Option<MediaKind>,
    /// Every `charset` parameter, with offsets into the value; all but the
    /// one that counts carry [`Note::Superseded`].
    pub evidence: Vec<Evidence>,
}

/// Parses a `Content-Type` value (a leading `Content-Type:` is allowed).
///
/// # Example
/// ```
/// use charsight::{sniff::http, Charset};
/// let ct = http::parse(br#"text/html; charset="Shift_JIS""#);
/// assert_eq!(ct.essence.as_deref(), Some("text/html"));
/// assert_eq!(ct.evidence[0].usable(), Some(Charset::ShiftJis));
/// assert_eq!(ct.evidence[0].offset, 20);
/// ```
pub fn parse(value: &[u8]) -> ContentType {
    let start = strip_header_name(value);
    let mut result = ContentType { essence: None, kind: None, evidence: Vec::new() };
    // Index into `result.evidence` of the charset that counts.
    let mut winner: Option<usize> = None;
    for (offset, part) in split_commas(&value[start..]) {
        let Some(parsed) = parse_one(part, start + offset) else { continue };
        if parsed.essence == "*/*" {
            continue;
        }
        let first_charset = result.evidence.len();
        result.evidence.extend(parsed.charsets);
        let has_charset = result.evidence.len() > first_charset;
        if result.essence.as_deref() != Some(&parsed.essence) {
            winner = has_charset.then_some(first_charset);
            result.kind = Some(kind_of(&parsed.essence));
            result.essence = Some(parsed.essence);
        } else if has_charset {
            winner = Some(first_charset);
        }
    }
    for (i, evidence) in result.evidence.iter_mut().enumerate() {
        if Some(i) != winner {
            evidence.notes.push(Note::Superseded);
        }
    }
    result
}

struct Parsed {
    essence: String,
    charsets: Vec<Evidence>,
}

/// One media type with its parameters; `base` is the offset of `bytes` in
/// the whole value.
fn parse_one(bytes: &[u8], base: usize) -> Option<Parsed> {
    let mut pos = skip_ows(bytes, 0);
    let type_end = pos + bytes[pos..].iter().take_while(|&&b| is_tchar(b)).count();
    if type_end == pos || bytes.get(type_end) != Some(&b'/') {
        return None;
    }
    let sub_start = type_end + 1;
    let sub_end = sub_start + bytes[sub_start..].iter().take_while(|&&b| is_tchar(b)).count();
    if sub_end == sub_start {
        return None;
    }
    let essence = String::from_utf8_lossy(&bytes[pos..sub_end]).to_ascii_lowercase();
    let mut charsets = Vec::new();
    pos = sub_end;
    loop {
        pos = skip_ows(bytes, pos);
        match bytes.get(pos) {
            None => break,
            Some(b';') => pos += 1,
            // Junk after the media type or a parameter: skip to the next `;`.
            Some(_) => {
                pos = next_semicolon(bytes, pos);
                continue;
            }
        }
        pos = skip_ows(bytes, pos);
        let name_end = pos + bytes[pos..].iter().take_while(|&&b| is_tchar(b)).count();
        if name_end == pos || bytes.get(name_end) != Some(&b'=') {
            pos = next_semicolon(bytes, pos);
            continue;
        }
        let name = &bytes[pos..name_end];
        let value_start = name_end + 1;
        let (value, raw_start, raw_len, end) = if bytes.get(value_start) == Some(&b'"') {
            let Some((value, close)) = quoted_string(bytes, value_start + 1) else {
                break; // unterminated quote swallows the rest
            };
            (value, value_start + 1, close - value_start - 1, close + 1)
        } else {
            let len = bytes[value_start..].iter().take_while(|&&b| is_tchar(b)).count();
            let v = bytes[value_start..value_start + len].to_vec();
            (v, value_start, len, value_start + len)
        };
        if name.eq_ignore_ascii_case(b"charset") {
            let mut evidence = Evidence::from_label(Source::Http, &value, base + raw_start);
            evidence.len = raw_len;
            charsets.push(evidence);
        }
        pos = end;
    }
    Some(Parsed { essence, charsets })
}

/// Unescapes a quoted string whose opening quote is just before `pos`;
/// returns the value and the offset of the closing quote.
fn quoted_string(bytes: &[u8], mut pos: usize) -> Option<(Vec<u8>, usize)> {
    let mut value = Vec::new();
    while let Some(&b) = bytes.get(pos) {
        match b {
            b'"' => return Some((value, pos)),
            b'\\' => {
                value.push(*bytes.get(pos + 1)?);
                pos += 2;
            }
            _ => {
                value.push(b);
                pos += 1;
            }
        }
    }
    None
}

/// Splits on commas outside quoted strings; yields each part's offset.
fn split_commas(value: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, &b) in value.iter().enumerate() {
        match (quoted, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, _, b'"') => quoted = !quoted,
            (false, _, b',') => {
                parts.push((start, &value[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push((start, &value[start..]));
    parts.into_iter()
}

fn strip_header_name(value: &[u8]) -> usize {
    const NAME: &[u8] = b"content-type:";
    let trimmed = value.len() - value.trim_ascii_start().len();
    match value.get(trimmed..trimmed + NAME.len()) {
        Some(head) if head.eq_ignore_ascii_case(NAME) => trimmed + NAME.len(),
        _ => 0,
    }
}

fn kind_of(essence: &str) -> MediaKind {
    match essence {
        "text/html" => MediaKind::Html,
        "text/xml" | "application/xml" => MediaKind::Xml,
        _ if essence.ends_with("+xml") => MediaKind::Xml,
        _ => MediaKind::Other,
    }
}

fn skip_ows(bytes: &[u8], pos: usize) -> usize {
    pos + bytes[pos..].iter().take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')).count()
}

fn next_semicolon(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr(b';', &bytes[pos..]).map_or(bytes.len(), |i| pos + i)
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::LabelErrorKind;
    use crate::Charset;

    fn charset(value: &str) -> Option<Charset> {
        parse(value.as_bytes()).evidence.iter().find_map(Evidence::usable)
    }

    #[test]
    fn token_and_quoted_values() {
        assert_eq!(charset("text/html; charset=UTF-8"), Some(Charset::Utf8));
        assert_eq!(charset("text/html;charset=\"Shift_JIS\""), Some(Charset::ShiftJis));
        assert_eq!(charset("text/html ; CHARSET=euc-kr ; q=1"), Some(Charset::EucKr));
        assert_eq!(charset(r#"text/html; a="x;charset=gbk"; charset=big5"#), Some(Charset::Big5));
        assert_eq!(charset(r#"text/html; charset="utf\-8""#), Some(Charset::Utf8));
        assert_eq!(charset("Content-Type: text/plain; charset=koi8-r"), Some(Charset::Koi8R));
    }

    #[test]
    fn charset_that_declares_nothing() {
        for (value, kind) in [
            ("text/html; charset=none", LabelErrorKind::None),
            ("text/html; charset=\"\"", LabelErrorKind::Empty),
            ("text/html; charset=bogus", LabelErrorKind::Unknown),
        ] {
            let ct = parse(value.as_bytes());
            assert_eq!(ct.evidence.len(), 1, "{value}");
            assert_eq!(ct.evidence[0].charset, None);
            assert_eq!(ct.evidence[0].notes, vec![Note::Label(kind)], "{value}");
        }
    }

    #[test]
    fn repeated_parameter_first_wins() {
        let ct = parse(b"text/html; charset=gbk; charset=utf-8");
        assert_eq!(ct.evidence.len(), 2);
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Gbk));
        assert_eq!(ct.evidence[1].usable(), None);
        assert_eq!(ct.evidence[1].notes, vec![Note::Superseded]);
        assert_eq!(ct.evidence[1].offset, 32);
    }

    #[test]
    fn combined_header_values() {
        // Same type again without charset keeps the charset.
        assert_eq!(charset("text/html; charset=gbk, text/html"), Some(Charset::Gbk));
        // A new type resets it.
        assert_eq!(charset("text/html; charset=gbk, text/plain"), None);
        assert_eq!(charset("text/plain, text/html; charset=big5"), Some(Charset::Big5));
        assert_eq!(charset("text/html; charset=gbk, */*"), Some(Charset::Gbk));
    }

    #[test]
    fn media_kinds() {
        let kind = |v: &str| parse(v.as_bytes()).kind;
        assert_eq!(kind("text/html"), Some(MediaKind::Html));
        assert_eq!(kind("Application/XML; charset=x"), Some(MediaKind::Xml));
        assert_eq!(kind("application/atom+xml"), Some(MediaKind::Xml));
        assert_eq!(kind("text/xml"), Some(MediaKind::Xml));
        assert_eq!(kind("text/plain"), Some(MediaKind::Other));
        assert_eq!(kind("garbage"), None);
        assert_eq!(kind(""), None);
    }

    #[test]
    fn malformed_parameters_are_skipped() {
        assert_eq!(charset("text/html; charset"), None);
        assert_eq!(charset("text/html; =utf-8; charset=gbk"), Some(Charset::Gbk));
        assert_eq!(charset("text/html junk; charset=gbk"), Some(Charset::Gbk));
        assert_eq!(charset("text/html; charset=\"unterminated"), None);
        assert_eq!(charset("text/html; charset = utf-8"), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(value: Vec<u8>) {
            let _ = parse(&value);
        }
    }
}
