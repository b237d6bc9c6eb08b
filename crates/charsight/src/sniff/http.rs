//! The `charset` parameter of an HTTP `Content-Type` value.
//!
//! Input: a `Content-Type` header value (several values joined by commas, as
//! when the header is repeated). Output: the media type that counts and an
//! [`Evidence`] for every `charset` parameter, with offsets into the value.
//!
//! This follows the web platform rather than the RFC 9110 grammar:
//! - Fetch's [extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
//!   combines the comma-separated values: invalid ones and `*/*` are
//!   skipped, the last media type wins, a change of media type resets the
//!   charset, and the same media type without a charset keeps the previous
//!   one;
//! - Fetch's [get, decode, and split](https://fetch.spec.whatwg.org/#header-value-get-decode-and-split)
//!   splits the value on commas outside quoted strings;
//! - MIME Sniffing's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type)
//!   parses each value: case-insensitive names, an unquoted value runs to
//!   the next `;` (so `charset=utf-8"` and `charset=iso-8859-8 visual` are
//!   labels that name nothing), a quoted value ends at its closing quote or
//!   at the end of the input (so `charset="utf-8` is UTF-8), backslash
//!   escapes, and the first of repeated parameters wins.
//!
//! Every `charset` parameter becomes evidence; all but the one the
//! algorithm selects carry [`Note::Superseded`].

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

/// Parses a `Content-Type` value (a leading `Content-Type:` is allowed),
/// with Fetch's [extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type).
///
/// Takes bytes because header values are bytes of no stated encoding; each
/// byte stands for the code point of the same value, as Fetch's isomorphic
/// decoding has it. Never fails: a value that is no MIME type gives a
/// [`ContentType`] with no essence.
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
    extract_a_mime_type(value, strip_header_name(value))
}

/// Fetch's [extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type),
/// over the value from `start` on; the charsets of the values it parses are
/// kept as evidence, and the one it selects is left without
/// [`Note::Superseded`].
fn extract_a_mime_type(value: &[u8], start: usize) -> ContentType {
    let mut evidence: Vec<Evidence> = Vec::new();
    // Step 1. The charset, as an index into `evidence`.
    let mut charset: Option<usize> = None;
    // Step 2.
    let mut essence: Option<String> = None;
    // Step 3. The essence and the index of its `charset` parameter.
    let mut mime_type: Option<(String, Option<usize>)> = None;
    // Step 4.
    let values = get_decode_and_split(value, start);
    // Step 5. A value is given, so `values` is never null.
    // Step 6.
    for (from, to) in values {
        // Step 6.1.
        let temporary_mime_type = parse_a_mime_type(&value[from..to], from);
        // Step 6.2.
        let Some(temporary_mime_type) = temporary_mime_type.filter(|m| m.essence != "*/*") else {
            continue;
        };
        // Step 6.3. (`mime_type` is set below, once its charset is known.)
        let parameter = (!temporary_mime_type.charsets.is_empty()).then_some(evidence.len());
        evidence.extend(temporary_mime_type.charsets);
        let mut mime_charset = parameter;
        // Step 6.4.
        if essence.as_deref() != Some(temporary_mime_type.essence.as_str()) {
            // Step 6.4.1.
            charset = None;
            // Step 6.4.2.
            if parameter.is_some() {
                charset = parameter;
            }
            // Step 6.4.3.
            essence = Some(temporary_mime_type.essence.clone());
        } else if parameter.is_none() && charset.is_some() {
            // Step 6.5.
            mime_charset = charset;
        }
        mime_type = Some((temporary_mime_type.essence, mime_charset));
    }
    // Steps 7 and 8. No MIME type is a failure: no essence, and every
    // charset found (none) superseded.
    let (essence, selected) = match mime_type {
        Some((essence, charset)) => (Some(essence), charset),
        None => (None, None),
    };
    for (i, e) in evidence.iter_mut().enumerate() {
        if Some(i) != selected && !e.notes.contains(&Note::Superseded) {
            e.notes.push(Note::Superseded);
        }
    }
    let kind = essence.as_deref().map(kind_of);
    ContentType { essence, kind, evidence }
}

/// Fetch's [get, decode, and split](https://fetch.spec.whatwg.org/#header-value-get-decode-and-split)
/// of the value from `start` on: the ranges of its comma-separated values,
/// trimmed of tabs and spaces. A comma inside a quoted string does not
/// split.
fn get_decode_and_split(input: &[u8], start: usize) -> Vec<(usize, usize)> {
    // Step 1. Each byte stands for its code point (isomorphic decoding), so
    // positions are byte offsets.
    // Step 2.
    let mut position = start;
    // Step 3.
    let mut values = Vec::new();
    // Step 4. The temporary value is the range from here to `position`.
    let mut temporary_value = position;
    // Step 5.
    loop {
        // Step 5.1.
        collect_a_sequence(input, &mut position, |b| b != b'"' && b != b',');
        // Step 5.2.
        if input.get(position) == Some(&b'"') {
            // Step 5.2.1.
            collect_an_http_quoted_string(input, &mut position, false);
            // Step 5.2.2.
            if position < input.len() {
                continue;
            }
        }
        // Step 5.3.
        let (from, to) = trim(input, temporary_value, position, is_http_tab_or_space);
        // Step 5.4.
        values.push((from, to));
        // Step 5.6.
        if position >= input.len() {
            return values;
        }
        // Step 5.7.
        debug_assert_eq!(input[position], b',');
        // Step 5.8.
        position += 1;
        // Step 5.5.
        temporary_value = position;
    }
}

/// A MIME type as far as charsight needs it: the essence and every
/// `charset` parameter.
struct MimeType {
    /// `type/subtype`, in lower case.
    essence: String,
    /// The valid `charset` parameters in order. The first is the one the
    /// parameters map holds; the others carry [`Note::Superseded`].
    charsets: Vec<Evidence>,
}

/// MIME Sniffing's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type);
/// `base` is the offset of `input` in the whole header value, for the
/// evidence's offsets. `None` is failure.
fn parse_a_mime_type(input: &[u8], base: usize) -> Option<MimeType> {
    // Step 1.
    let (from, to) = trim(input, 0, input.len(), is_http_whitespace);
    let (input, base) = (&input[from..to], base + from);
    // Step 2.
    let mut position = 0;
    // Step 3.
    let type_ = collect_a_sequence(input, &mut position, |b| b != b'/');
    // Step 4.
    if type_.is_empty() || !type_.iter().copied().all(is_http_token) {
        return None;
    }
    // Step 5.
    if position >= input.len() {
        return None;
    }
    // Step 6.
    position += 1;
    // Step 7.
    let subtype = collect_a_sequence(input, &mut position, |b| b != b';');
    // Step 8.
    let subtype = trim_end(subtype, is_http_whitespace);
    // Step 9.
    if subtype.is_empty() || !subtype.iter().copied().all(is_http_token) {
        return None;
    }
    // Step 10.
    let essence = format!(
        "{}/{}",
        String::from_utf8_lossy(type_).to_ascii_lowercase(),
        String::from_utf8_lossy(subtype).to_ascii_lowercase()
    );
    let mut mime_type = MimeType { essence, charsets: Vec::new() };
    // Step 11.
    while position < input.len() {
        // Step 11.1.
        position += 1;
        // Step 11.2.
        collect_a_sequence(input, &mut position, is_http_whitespace);
        // Step 11.3.
        let name = collect_a_sequence(input, &mut position, |b| b != b';' && b != b'=');
        // Step 11.4. Names are compared without regard to case below.
        // Step 11.5.
        if position < input.len() {
            // Step 11.5.1.
            if input[position] == b';' {
                continue;
            }
            // Step 11.5.2.
            position += 1;
        }
        // Step 11.6.
        if position >= input.len() {
            break;
        }
        // Step 11.7. The value, and the range of its raw bytes.
        let (value, raw) = if input[position] == b'"' {
            let opening = position;
            // Step 11.8.1.
            let (value, closed) = collect_an_http_quoted_string(input, &mut position, true);
            let raw = (opening + 1, if closed { position - 1 } else { position });
            // Step 11.8.2.
            collect_a_sequence(input, &mut position, |b| b != b';');
            (value, raw)
        } else {
            let value_start = position;
            // Step 11.9.1.
            let value = collect_a_sequence(input, &mut position, |b| b != b';');
            // Step 11.9.2.
            let value = trim_end(value, is_http_whitespace);
            // Step 11.9.3.
            if value.is_empty() {
                continue;
            }
            (value.to_vec(), (value_start, value_start + value.len()))
        };
        // Step 11.10. Only `charset` matters here; its name is a token. A
        // repeated one is not set, and is reported as superseded.
        if name.eq_ignore_ascii_case(b"charset")
            && value.iter().copied().all(is_http_quoted_string_token)
        {
            let mut evidence = Evidence::from_label(Source::Http, &value, base + raw.0);
            evidence.len = raw.1 - raw.0;
            if !mime_type.charsets.is_empty() {
                evidence.notes.push(Note::Superseded);
            }
            mime_type.charsets.push(evidence);
        }
    }
    // Step 12.
    Some(mime_type)
}

/// Fetch's [collect an HTTP quoted string](https://fetch.spec.whatwg.org/#collect-an-http-quoted-string)
/// from the `"` at `position`, which it advances past the string. Returns
/// the unescaped value when `extract_value`, else the raw string with its
/// quotes; and whether a closing quote ended it (not the end of the input).
fn collect_an_http_quoted_string(
    input: &[u8],
    position: &mut usize,
    extract_value: bool,
) -> (Vec<u8>, bool) {
    // Step 1.
    let position_start = *position;
    // Step 2.
    let mut value = Vec::new();
    let mut closed = false;
    // Step 3.
    debug_assert_eq!(input.get(*position), Some(&b'"'));
    // Step 4.
    *position += 1;
    // Step 5.
    loop {
        // Step 5.1.
        value.extend_from_slice(collect_a_sequence(input, position, |b| b != b'"' && b != b'\\'));
        // Step 5.2.
        let Some(&quote_or_backslash) = input.get(*position) else { break };
        // Step 5.3 and 5.4.
        *position += 1;
        // Step 5.5.
        if quote_or_backslash == b'\\' {
            // Step 5.5.1.
            let Some(&escaped) = input.get(*position) else {
                value.push(b'\\');
                break;
            };
            // Step 5.5.2.
            value.push(escaped);
            // Step 5.5.3.
            *position += 1;
        } else {
            // Step 5.6.
            debug_assert_eq!(quote_or_backslash, b'"');
            closed = true;
            break;
        }
    }
    // Step 6.
    if extract_value {
        return (value, closed);
    }
    // Step 7.
    (input[position_start..*position].to_vec(), closed)
}

/// Infra's [collect a sequence of code points](https://infra.spec.whatwg.org/#collect-a-sequence-of-code-points):
/// the bytes from `position` on that `condition` holds for; advances
/// `position` past them.
fn collect_a_sequence<'a>(
    input: &'a [u8],
    position: &mut usize,
    condition: impl Fn(u8) -> bool,
) -> &'a [u8] {
    let start = (*position).min(input.len());
    let len = input[start..].iter().take_while(|&&b| condition(b)).count();
    *position = start + len;
    &input[start..start + len]
}

/// The range `from..to` of `input` without the leading and trailing bytes
/// `strip` holds for.
fn trim(input: &[u8], from: usize, to: usize, strip: impl Fn(u8) -> bool) -> (usize, usize) {
    let lead = input[from..to].iter().take_while(|&&b| strip(b)).count();
    let trail = input[from + lead..to].iter().rev().take_while(|&&b| strip(b)).count();
    (from + lead, to - trail)
}

/// Where the value starts: after a leading `Content-Type:`, if any.
fn strip_header_name(value: &[u8]) -> usize {
    const NAME: &[u8] = b"content-type:";
    let trimmed = value.len() - value.trim_ascii_start().len();
    match value.get(trimmed..trimmed + NAME.len()) {
        Some(head) if head.eq_ignore_ascii_case(NAME) => trimmed + NAME.len(),
        _ => 0,
    }
}

/// The family of a media type (RFC 7303 for the XML ones).
fn kind_of(essence: &str) -> MediaKind {
    match essence {
        "text/html" => MediaKind::Html,
        "text/xml" | "application/xml" => MediaKind::Xml,
        _ if essence.ends_with("+xml") => MediaKind::Xml,
        _ => MediaKind::Other,
    }
}

/// `input` without the trailing bytes `strip` holds for.
fn trim_end(input: &[u8], strip: impl Fn(u8) -> bool) -> &[u8] {
    let trail = input.iter().rev().take_while(|&&b| strip(b)).count();
    &input[..input.len() - trail]
}

/// An [HTTP whitespace](https://fetch.spec.whatwg.org/#http-whitespace) byte.
fn is_http_whitespace(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | b'\t' | b' ')
}

/// An [HTTP tab or space](https://fetch.spec.whatwg.org/#http-tab-or-space) byte.
fn is_http_tab_or_space(b: u8) -> bool {
    matches!(b, b'\t' | b' ')
}

/// An [HTTP token code point](https://mimesniff.spec.whatwg.org/#http-token-code-point).
fn is_http_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// An [HTTP quoted-string token code point](https://mimesniff.spec.whatwg.org/#http-quoted-string-token-code-point).
fn is_http_quoted_string_token(b: u8) -> bool {
    matches!(b, b'\t' | 0x20..=0x7E | 0x80..=0xFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::LabelErrorKind;
    use crate::Charset;

    /// The charset that counts.
    fn charset(value: &str) -> Option<Charset> {
        parse(value.as_bytes()).evidence.iter().find_map(Evidence::usable)
    }

    /// The raw bytes an evidence's offset and length point at.
    fn raw<'a>(value: &'a str, e: &Evidence) -> &'a str {
        &value[e.offset..e.offset + e.len]
    }

    #[test]
    fn token_and_quoted_values() {
        assert_eq!(charset("text/html; charset=UTF-8"), Some(Charset::Utf8));
        assert_eq!(charset("text/html;charset=\"Shift_JIS\""), Some(Charset::ShiftJis));
        assert_eq!(charset("text/html ; CHARSET=euc-kr ; q=1"), Some(Charset::EucKr));
        assert_eq!(charset(r#"text/html; a="x;charset=gbk"; charset=big5"#), Some(Charset::Big5));
        assert_eq!(charset("Content-Type: text/plain; charset=koi8-r"), Some(Charset::Koi8R));
        let value = "Content-Type: text/plain; charset=koi8-r";
        assert_eq!(raw(value, &parse(value.as_bytes()).evidence[0]), "koi8-r");
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
    fn multiple_charset_params_first_wins() {
        // MIME Sniffing's parameters map keeps the first occurrence.
        let value = "text/html; charset=gbk; charset=utf-8";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence.len(), 2);
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Gbk));
        assert_eq!(ct.evidence[1].usable(), None);
        assert_eq!(ct.evidence[1].notes, vec![Note::Superseded]);
        assert_eq!(ct.evidence[1].offset, 32);
        assert_eq!(raw(value, &ct.evidence[1]), "utf-8");
        // Also when the first names nothing: it is still the parameter.
        assert_eq!(charset("text/html; charset=bogus; charset=utf-8"), None);
        assert_eq!(charset("text/html; CHARSET=\"big5\"; Charset=gbk"), Some(Charset::Big5));
    }

    #[test]
    fn comma_joined_header() {
        let value = "text/html; charset=utf-8, text/html; charset=koi8-r";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.essence.as_deref(), Some("text/html"));
        assert_eq!(ct.evidence.len(), 2);
        let (first, last) = (&ct.evidence[0], &ct.evidence[1]);
        assert_eq!((first.charset, first.usable()), (Some(Charset::Utf8), None));
        assert_eq!(first.notes, vec![Note::Superseded]);
        assert_eq!((raw(value, first), first.offset), ("utf-8", 19));
        assert_eq!(last.usable(), Some(Charset::Koi8R));
        assert_eq!((raw(value, last), last.offset), ("koi8-r", 45));
        assert_eq!(charset(value), Some(Charset::Koi8R));
    }

    #[test]
    fn comma_joined_same_essence_without_charset_keeps_it() {
        assert_eq!(charset("text/html;charset=gbk, text/html"), Some(Charset::Gbk));
        assert_eq!(charset("text/html;charset=gbk;a=b, text/html;x=y"), Some(Charset::Gbk));
        assert_eq!(charset("text/html;charset=gbk, TEXT/HTML"), Some(Charset::Gbk));
    }

    #[test]
    fn comma_joined_new_essence_drops_the_charset() {
        let ct = parse(b"text/html;charset=gbk, text/plain");
        assert_eq!(ct.essence.as_deref(), Some("text/plain"));
        assert_eq!(ct.kind, Some(MediaKind::Other));
        assert_eq!(ct.evidence[0].notes, vec![Note::Superseded]);
        assert_eq!(charset("text/html;charset=gbk, text/plain"), None);
        assert_eq!(charset("text/plain, text/html; charset=big5"), Some(Charset::Big5));
        // Coming back to the first type does not bring its charset back.
        assert_eq!(charset("text/html;charset=gbk, x/x, text/html;x=y"), None);
    }

    #[test]
    fn comma_joined_same_essence_keeps_the_first_charset_for_later_values() {
        // Fetch step 6.5: a value of the same type with its own charset
        // counts, but does not replace the charset kept for later values.
        assert_eq!(charset("text/html;charset=gbk, text/html;charset=big5"), Some(Charset::Big5));
        let value = "text/html;charset=gbk, text/html;charset=big5, text/html";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Gbk));
        assert_eq!(ct.evidence[1].notes, vec![Note::Superseded]);
    }

    #[test]
    fn trailing_quote_is_not_a_charset() {
        // The unquoted value runs to `;`: `utf-8"`, which names nothing.
        let value = "text/html; charset=utf-8\"";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence.len(), 1);
        let e = &ct.evidence[0];
        assert_eq!((e.label.as_str(), e.charset, e.usable()), ("utf-8\"", None, None));
        assert_eq!(e.notes, vec![Note::Label(LabelErrorKind::Unknown)]);
        assert_eq!(raw(value, e), "utf-8\"");
        assert_eq!(charset("text/html; charset=utf-8\"; foo=bar"), None);
    }

    #[test]
    fn unterminated_quote_is_utf8() {
        // Collecting an HTTP quoted string stops at the end of the input.
        let value = "text/html; charset=\"utf-8";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence.len(), 1);
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Utf8));
        assert_eq!((ct.evidence[0].offset, raw(value, &ct.evidence[0])), (20, "utf-8"));
        // The rest of the value, commas included, is inside the string.
        assert_eq!(charset("text/html; charset=\"utf-8, text/plain"), None);
        assert_eq!(parse(b"text/html; charset=\"utf-8, text/plain").evidence.len(), 1);
    }

    #[test]
    fn iso_8859_8_visual_is_not_a_charset() {
        let value = "text/html; charset=iso-8859-8 visual";
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence.len(), 1);
        let e = &ct.evidence[0];
        assert_eq!((e.label.as_str(), e.charset), ("iso-8859-8 visual", None));
        assert_eq!(e.notes, vec![Note::Label(LabelErrorKind::Unknown)]);
        assert_eq!(raw(value, e), "iso-8859-8 visual");
        // The label module drops spaces when it squeezes a label, but no
        // alias or pattern takes this one.
        assert!(crate::label::resolve(b"iso-8859-8 visual").is_err());
        // Trailing whitespace is not part of the value; leading is, and
        // the label lookup trims it, as the Encoding Standard's does.
        assert_eq!(charset("text/html; charset=iso-8859-8 \t"), Some(Charset::Iso8859_8));
        assert_eq!(charset("text/html; charset= iso-8859-8"), Some(Charset::Iso8859_8));
    }

    #[test]
    fn quoted_commas_do_not_split() {
        let value = r#"text/html; charset="a,b""#;
        let ct = parse(value.as_bytes());
        assert_eq!(ct.essence.as_deref(), Some("text/html"));
        assert_eq!(ct.evidence.len(), 1);
        assert_eq!((ct.evidence[0].label.as_str(), raw(value, &ct.evidence[0])), ("a,b", "a,b"));
        assert_eq!(ct.evidence[0].notes, vec![Note::Label(LabelErrorKind::Unknown)]);
        // A quoted comma in another parameter does not split either.
        assert_eq!(charset(r#"text/html; a="x,text/plain"; charset=gbk"#), Some(Charset::Gbk));
        assert_eq!(get_decode_and_split(br#"a, "b,c" d ,e"#, 0), vec![(0, 1), (3, 10), (12, 13)]);
    }

    #[test]
    fn star_star_is_skipped() {
        assert_eq!(charset("text/html; charset=gbk, */*"), Some(Charset::Gbk));
        let ct = parse(b"text/html; charset=gbk, */*; charset=big5");
        assert_eq!(ct.essence.as_deref(), Some("text/html"));
        assert_eq!(ct.evidence.len(), 1);
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Gbk));
        assert_eq!(parse(b"*/*; charset=gbk").essence, None);
    }

    #[test]
    fn invalid_mime_type_in_a_joined_value_is_skipped() {
        for value in [
            "text/html; charset=gbk, garbage",
            "text/html; charset=gbk, text/html junk; charset=big5",
            "text/html; charset=gbk, /html; charset=big5",
            "text/html; charset=gbk, text/; charset=big5",
            "text/html; charset=gbk, , ",
        ] {
            let ct = parse(value.as_bytes());
            assert_eq!(ct.essence.as_deref(), Some("text/html"), "{value}");
            assert_eq!(ct.evidence.len(), 1, "{value}");
            assert_eq!(ct.evidence[0].usable(), Some(Charset::Gbk), "{value}");
        }
    }

    #[test]
    fn uppercase_and_whitespace_variants() {
        for value in [
            "TEXT/HTML; CHARSET=UTF-8",
            "Text/Html;Charset=\"Utf-8\"",
            "  text/html  ;  charset=utf-8  ",
            "\ttext/html\t;\tcharset=utf-8\t",
            "\r\n text/html;\r\n charset=utf-8\r\n",
            "text/plain , text/html ;charset=utf-8",
            "content-type:   text/html; charset=utf-8",
        ] {
            assert_eq!(charset(value), Some(Charset::Utf8), "{value:?}");
            assert_eq!(parse(value.as_bytes()).essence.as_deref(), Some("text/html"), "{value:?}");
        }
        let value = "  text/html  ;  charset=utf-8  ";
        assert_eq!(raw(value, &parse(value.as_bytes()).evidence[0]), "utf-8");
        // Whitespace around `=` is not allowed; in the type it is no type.
        assert_eq!(charset("text/html; charset = utf-8"), None);
        assert_eq!(charset("text/html; charset =utf-8"), None);
        assert_eq!(charset("text / html; charset=utf-8"), None);
    }

    #[test]
    fn backslash_escapes_in_quoted_strings() {
        let value = r#"text/html; charset="utf\-8""#;
        let ct = parse(value.as_bytes());
        assert_eq!(ct.evidence[0].usable(), Some(Charset::Utf8));
        assert_eq!(
            (ct.evidence[0].label.as_str(), raw(value, &ct.evidence[0])),
            ("utf-8", r"utf\-8")
        );
        assert_eq!(charset(r#"text/html; charset="\u\t\f\-\8""#), Some(Charset::Utf8));
        // An escaped quote does not close the string, nor split on commas.
        assert_eq!(charset(r#"text/html; a="\",x"; charset=gbk"#), Some(Charset::Gbk));
        // A backslash at the end stays.
        assert_eq!(parse(br#"text/html; charset="gbk\"#).evidence[0].label, r"gbk\");
        // Junk after the closing quote is dropped.
        assert_eq!(charset(r#"text/html; charset="gbk"junk; x=y"#), Some(Charset::Gbk));
    }

    #[test]
    fn empty_charset() {
        // No value at all: not a parameter.
        assert!(parse(b"text/html; charset=").evidence.is_empty());
        assert!(parse(b"text/html; charset=; x=y").evidence.is_empty());
        assert!(parse(b"text/html; charset=  ; x=y").evidence.is_empty());
        // An empty quoted string is a parameter that names nothing.
        let ct = parse(b"text/html; charset=\"\"; charset=gbk");
        assert_eq!(ct.evidence.len(), 2);
        assert_eq!(ct.evidence[0].notes, vec![Note::Label(LabelErrorKind::Empty)]);
        assert_eq!((ct.evidence[0].offset, ct.evidence[0].len), (20, 0));
        assert_eq!(ct.evidence[1].usable(), None);
        // An empty unquoted one is skipped, so a later one is the parameter.
        assert_eq!(charset("text/html; charset=; charset=gbk"), Some(Charset::Gbk));
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
        assert_eq!(kind("*/*"), None);
    }

    #[test]
    fn malformed_parameters_are_skipped() {
        assert_eq!(charset("text/html; charset"), None);
        assert_eq!(charset("text/html; charset; charset=gbk"), Some(Charset::Gbk));
        assert_eq!(charset("text/html; =utf-8; charset=gbk"), Some(Charset::Gbk));
        assert_eq!(charset("text/html;; ;charset=gbk"), Some(Charset::Gbk));
        // A value with a control character is not set.
        assert!(parse(b"text/html; charset=gb\x01k").evidence.is_empty());
        assert_eq!(charset("text/html; charset=gb\x7fk; charset=big5"), Some(Charset::Big5));
        // Junk in the subtype makes the whole value no MIME type.
        assert_eq!(parse(b"text/html junk; charset=gbk").essence, None);
        assert_eq!(charset("text/html junk; charset=gbk"), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(value: Vec<u8>) {
            let _ = parse(&value);
        }

        #[test]
        fn offsets_point_at_the_label(pieces in proptest::collection::vec(
            proptest::sample::select(&[
                "text/html", "*/*", "x/y", "charset", "=", "\"", "\\", ",", ";", " ", "\t",
                "utf-8", "gbk", "a", "; charset=", ", text/html;Charset=",
            ][..]),
            0..16,
        )) {
            let value = format!("text/html; charset={}", pieces.concat());
            let bytes = value.as_bytes();
            for e in parse(bytes).evidence {
                let raw = &bytes[e.offset..e.offset + e.len];
                if bytes[..e.offset].ends_with(b"\"") {
                    // Quoted: the label is the raw string unescaped.
                    let quoted = [&b"\""[..], raw].concat();
                    let (unescaped, _) = collect_an_http_quoted_string(&quoted, &mut 0, true);
                    proptest::prop_assert_eq!(unescaped, e.label.as_bytes());
                } else {
                    proptest::prop_assert_eq!(raw, e.label.as_bytes());
                }
            }
        }
    }
}
