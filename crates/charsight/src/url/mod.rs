//! URLs and other short strings: decoding each component of a URL whose
//! non-ASCII bytes were escaped (or left raw) in an unknown encoding.
//!
//! Input: one URL, as bytes (a request target from a log, a referrer, a
//! crawl frontier entry). Output: a [`DecodedUrl`]: the URL rewritten as
//! valid UTF-8 percent-encoding, its readable IRI form, and for each
//! component that had non-ASCII bytes (host, path segment, query key or
//! value, fragment) the encoding found, with a confidence.
//!
//! Each component is detected on its own ([`guess`]), since a site may
//! write its path in UTF-8 and take its query in GBK; the host's top-level
//! domain and the site hints ([`HostHints`]) are priors. A component is
//! rewritten only when its reading's confidence reaches the floor
//! ([`UrlDecoder::min_confidence`]); below it, it stays as it was and
//! [`Component::kept`] says why. In queries `+` reads as a space. A `%` not
//! followed by two hex digits stays as it is and is reported; bytes shaped
//! like UTF-8 cut short (`%E4%B8`) keep their escapes; raw and escaped bytes
//! may mix, but a literal ASCII byte never joins an escaped byte in one
//! character. ASCII, escaped or not, is never rewritten, so `%2F` stays
//! `%2F`. Host names are shown in Unicode in the IRI and written in their
//! IDNA `xn--` form in the URL.
//!
//! # Example
//! ```
//! use charsight::{url, Charset};
//! let found = url::UrlDecoder::new().decode(b"http://www.baidu.com/s?wd=%B1%B1%BE%A9&ie=gbk");
//! assert_eq!(found.url, "http://www.baidu.com/s?wd=%E5%8C%97%E4%BA%AC&ie=gbk");
//! assert_eq!(found.iri, "http://www.baidu.com/s?wd=北京&ie=gbk");
//! assert_eq!(found.components[0].part, url::Part::QueryValue(1));
//! assert_eq!(found.components[0].charset, Charset::Gbk);
//! assert!(found.changed);
//! ```

mod escape;
mod hosts;
mod short;

use std::fmt;
use std::ops::Range;

use crate::Charset;
use escape::{Origin, Unescaped};
pub use hosts::{HostHints, HostHintsError};
pub use short::{guess, ShortGuess, CANDIDATES};

/// The default of [`UrlDecoder::min_confidence`], chosen on development
/// URLs (keywords from the held-out text, `xtask url-eval --dev`) so that
/// fewer than one component in a thousand is rewritten wrongly (0.035%
/// there; 0.97 would give 0.088%).
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.99;

/// Decodes URLs; holds the options.
#[derive(Clone, Debug)]
pub struct UrlDecoder {
    tld: Option<String>,
    min_confidence: f32,
    hosts: HostHints,
}

impl Default for UrlDecoder {
    fn default() -> UrlDecoder {
        UrlDecoder {
            tld: None,
            min_confidence: DEFAULT_MIN_CONFIDENCE,
            hosts: HostHints::built_in(),
        }
    }
}

/// Which component of a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// The host name.
    Host,
    /// A path segment, counted from 1 after the first `/`.
    Path(usize),
    /// The key of a query parameter, parameters counted from 1.
    QueryKey(usize),
    /// The value of a query parameter, parameters counted from 1.
    QueryValue(usize),
    /// The fragment, after `#`.
    Fragment,
}

impl fmt::Display for Part {
    /// `host`, `path[N]`, `query[N].key`, `query[N].value`, `fragment`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Host => f.write_str("host"),
            Part::Path(n) => write!(f, "path[{n}]"),
            Part::QueryKey(n) => write!(f, "query[{n}].key"),
            Part::QueryValue(n) => write!(f, "query[{n}].value"),
            Part::Fragment => f.write_str("fragment"),
        }
    }
}

/// One decoded component that had non-ASCII bytes.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Component {
    /// Which component.
    pub part: Part,
    /// Its bytes in the input URL.
    pub span: Range<usize>,
    /// The encoding it was read in.
    pub charset: Charset,
    /// Probability, from 0 to 1, that the text is right.
    pub confidence: f32,
    /// The text (`+` read as a space in queries; U+FFFD for each malformed
    /// sequence).
    pub text: String,
    /// Whether it read without a malformed sequence.
    pub clean: bool,
    /// Whether raw and escaped non-ASCII bytes were mixed.
    pub mixed: bool,
    /// How many `%` signs were not followed by two hex digits.
    pub bad_escapes: usize,
    /// Why the component was left as it was, if it was: its bytes stand in
    /// the output exactly as in the input (raw non-ASCII bytes escaped).
    pub kept: Option<Kept>,
}

/// Why a component was left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kept {
    /// The likeliest reading's confidence is below the floor.
    LowConfidence,
    /// The bytes are UTF-8 with pieces cut off or stray (a truncated
    /// sequence, a lone continuation byte): the broken pieces keep their
    /// escapes, and the rest is UTF-8 already.
    BrokenEscapes,
}

impl Kept {
    /// `low confidence` or `broken escapes`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kept::LowConfidence => "low confidence",
            Kept::BrokenEscapes => "broken escapes",
        }
    }
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decoded URL.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DecodedUrl {
    /// The URL with every non-ASCII character as UTF-8 percent-encoding;
    /// pure ASCII.
    pub url: String,
    /// The readable form: non-ASCII characters as themselves (controls,
    /// spaces and bytes no encoding reads stay escaped).
    pub iri: String,
    /// The components that had non-ASCII bytes, in URL order.
    pub components: Vec<Component>,
    /// Whether `url` differs from the input.
    pub changed: bool,
}

impl UrlDecoder {
    /// A decoder with the defaults: priors from each URL's host (its
    /// top-level domain, and the built-in [`HostHints`]), and the floor
    /// [`DEFAULT_MIN_CONFIDENCE`].
    pub fn new() -> UrlDecoder {
        UrlDecoder::default()
    }

    /// Uses `tld` (`cn`, `de`, …) as the prior instead of the host's
    /// top-level domain, as [`Detector::with_hints`](crate::detect::Detector::with_hints)
    /// reads it.
    pub fn tld(mut self, tld: &str) -> UrlDecoder {
        self.tld = Some(tld.to_owned());
        self
    }

    /// Rewrites a component only when its reading's confidence is at least
    /// `floor` (0 rewrites every clean reading); below it the component is
    /// kept ([`Kept::LowConfidence`]).
    pub fn min_confidence(mut self, floor: f32) -> UrlDecoder {
        self.min_confidence = floor;
        self
    }

    /// Uses `hints` as the site hints instead of the built-in table (to add
    /// to it, [`HostHints::extend`] the built-in one).
    pub fn host_hints(mut self, hints: HostHints) -> UrlDecoder {
        self.hosts = hints;
        self
    }

    /// Decodes one URL, component by component.
    pub fn decode(&self, input: &[u8]) -> DecodedUrl {
        let pieces = split(input);
        let host =
            pieces.iter().find(|p| p.part == Some(Part::Host)).map(|h| &input[h.span.clone()]);
        let tld = match &self.tld {
            Some(tld) => Some(tld.as_str()),
            None => host.and_then(|h| std::str::from_utf8(top_level_domain(h)).ok()),
        };
        let hinted = host.and_then(|h| self.hosts.get(h));
        let favoured = hinted.as_slice();
        let mut url = String::with_capacity(input.len() * 2);
        let mut iri = String::with_capacity(input.len() * 2);
        let mut components = Vec::new();
        for piece in pieces {
            let bytes = &input[piece.span.clone()];
            let component = piece.part.filter(|_| escape::may_have_non_ascii(bytes));
            let Some(part) = component else {
                push_verbatim(&mut url, bytes);
                match piece.part {
                    Some(Part::Host) => push_host_iri(&mut iri, bytes),
                    _ => push_verbatim(&mut iri, bytes),
                }
                continue;
            };
            let plus_is_space = matches!(part, Part::QueryKey(_) | Part::QueryValue(_));
            let unescaped = escape::unescape(bytes, plus_is_space);
            let found = remembered(bytes, plus_is_space, tld, hinted, || {
                short::guess_where(&unescaped.bytes, tld, favoured, |charset| {
                    keeps_literals_apart(charset, &unescaped)
                })
            });
            let kept = if !found.clean {
                Some(Kept::BrokenEscapes)
                    .filter(|_| short::shaped_like_broken_utf8(&unescaped.bytes))
                    .or(Some(Kept::LowConfidence))
            } else {
                (found.confidence < self.min_confidence).then_some(Kept::LowConfidence)
            };
            let url_start = url.len();
            let text = if kept == Some(Kept::LowConfidence) {
                push_verbatim(&mut url, bytes);
                push_verbatim(&mut iri, bytes);
                read(found.charset, &unescaped.bytes)
            } else {
                rewrite(found.charset, found.clean, bytes, &unescaped, &mut url, &mut iri)
            };
            if part == Part::Host && kept.is_none() {
                // The URL form of a host name is its IDNA one.
                if let Ok(ascii) = idna::domain_to_ascii(&text) {
                    url.truncate(url_start);
                    url.push_str(&ascii);
                }
            }
            if unescaped.bytes.is_ascii() {
                continue;
            }
            components.push(Component {
                part,
                span: piece.span,
                charset: found.charset,
                confidence: found.confidence,
                text,
                clean: found.clean,
                mixed: unescaped.mixed,
                bad_escapes: unescaped.bad_escapes.len(),
                kept,
            });
        }
        let changed = url.as_bytes() != input;
        DecodedUrl { url, iri, components, changed }
    }
}

/// Components at most this long are remembered (see [`remembered`])…
const REMEMBER_LEN: usize = 256;
/// …this many per thread, forgotten all at once when full.
const REMEMBER_COUNT: usize = 4096;

/// The guess for a component (its bytes as they stand, whether `+` is a
/// space, the site's TLD and hint), from `guess` or from the last time the
/// thread saw the same: logs repeat their search keywords many times.
fn remembered(
    bytes: &[u8],
    plus_is_space: bool,
    tld: Option<&str>,
    hinted: Option<Charset>,
    guess: impl FnOnce() -> ShortGuess,
) -> ShortGuess {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static SEEN: RefCell<HashMap<Vec<u8>, ShortGuess>> = RefCell::new(HashMap::new());
    }
    if bytes.len() > REMEMBER_LEN {
        return guess();
    }
    let tld = tld.unwrap_or("").as_bytes();
    let hint = hinted.map_or(u8::MAX, |c| c as u8);
    let key = [tld, &[0, hint, u8::from(plus_is_space)], bytes].concat();
    if let Some(found) = SEEN.with_borrow(|seen| seen.get(&key).copied()) {
        return found;
    }
    let found = guess();
    SEEN.with_borrow_mut(|seen| {
        if seen.len() >= REMEMBER_COUNT {
            seen.clear();
        }
        seen.insert(key, found);
    });
    found
}

/// Whether a token looks like a URL: no ASCII whitespace or control, and
/// either a scheme (`http:`, `mailto:`) or a leading `/` (a request target
/// or path). Tokens that are not URLs are left alone by callers.
///
/// # Example
/// ```
/// use charsight::url::is_url;
/// assert!(is_url(b"https://example.com/a"));
/// assert!(is_url(b"/search?q=%C4%E3"));
/// assert!(!is_url(b"GET"));
/// assert!(!is_url(b"a b"));
/// ```
pub fn is_url(token: &[u8]) -> bool {
    if token.is_empty() || token.iter().any(|&b| b <= b' ' || b == 0x7F) {
        return false;
    }
    token[0] == b'/' || scheme_len(token).is_some()
}

/// Whether decoding `url` could change it or its IRI form: it has a
/// non-ASCII byte, raw or escaped, or an IDNA label (`xn--`). When false,
/// [`UrlDecoder::decode`] would give the input back as both, so callers may
/// skip it (the fast path for pure-ASCII log lines).
pub fn needs_decoding(url: &[u8]) -> bool {
    escape::may_have_non_ascii(url)
        || memchr::memchr_iter(b'-', url).any(|i| {
            i >= 2 && url.get(i + 1) == Some(&b'-') && url[i - 2..i].eq_ignore_ascii_case(b"xn")
        })
}

/// The length of the scheme and its colon (`http:` → 5), if `url` has one.
fn scheme_len(url: &[u8]) -> Option<usize> {
    let colon = url.iter().position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))?;
    let scheme = &url[..colon];
    let valid = url[colon] == b':'
        && scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    valid.then_some(colon + 1)
}

/// The last label of a host name, without a trailing dot or port.
fn top_level_domain(host: &[u8]) -> &[u8] {
    let host = host.strip_suffix(b".").unwrap_or(host);
    host.rsplit(|&b| b == b'.').next().unwrap_or(host)
}

/// A span of the URL: a component, or delimiters and other bytes kept as
/// they are.
#[derive(Debug)]
struct Piece {
    span: Range<usize>,
    part: Option<Part>,
}

/// Splits a URL into delimiters and components (RFC 3986's generic syntax,
/// read leniently: any bytes go).
fn split(url: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut push = |span: Range<usize>, part: Option<Part>| {
        if !span.is_empty() {
            pieces.push(Piece { span, part });
        }
    };
    let find = |from: usize, set: &[u8]| {
        url[from..].iter().position(|b| set.contains(b)).map_or(url.len(), |i| from + i)
    };
    let mut at = scheme_len(url).unwrap_or(0);
    push(0..at, None);
    if url[at..].starts_with(b"//") {
        let end = find(at + 2, b"/?#");
        let host_start =
            url[at + 2..end].iter().rposition(|&b| b == b'@').map_or(at + 2, |i| at + 3 + i);
        push(at..host_start, None);
        let host_end = if url.get(host_start) == Some(&b'[') {
            // An IP literal: kept whole.
            find(host_start, b"]").min(end).saturating_add(1).min(end)
        } else {
            find(host_start, b":").min(end)
        };
        let literal = url.get(host_start) == Some(&b'[');
        push(host_start..host_end, (!literal).then_some(Part::Host));
        push(host_end..end, None);
        at = end;
    }
    let path_end = find(at, b"?#");
    let mut segment = 0;
    while at < path_end {
        if url[at] == b'/' {
            push(at..at + 1, None);
            at += 1;
        }
        let end = find(at, b"/?#").min(path_end);
        segment += 1;
        push(at..end, Some(Part::Path(segment)));
        at = end;
    }
    if url.get(at) == Some(&b'?') {
        push(at..at + 1, None);
        at += 1;
        let query_end = find(at, b"#");
        let mut param = 0;
        while at < query_end {
            param += 1;
            let end = find(at, b"&#").min(query_end);
            let eq = find(at, b"=&#").min(end);
            push(at..eq, Some(Part::QueryKey(param)));
            if eq < end {
                push(eq..eq + 1, None);
                push(eq + 1..end, Some(Part::QueryValue(param)));
            }
            push(end..(end + 1).min(query_end), None);
            at = (end + 1).min(query_end).max(end);
        }
    }
    if at < url.len() {
        push(at..at + 1, None);
        push(at + 1..url.len(), Some(Part::Fragment));
    }
    pieces
}

/// Appends bytes kept as they are: ASCII as itself, other bytes escaped.
fn push_verbatim(out: &mut String, bytes: &[u8]) {
    let mut rest = bytes;
    loop {
        let ascii = rest.iter().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        out.push_str(std::str::from_utf8(&rest[..ascii]).expect("ASCII is UTF-8"));
        let Some((&byte, tail)) = rest[ascii..].split_first() else { return };
        push_escape(out, byte);
        rest = tail;
    }
}

fn push_escape(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(byte >> 4)]));
    out.push(char::from(HEX[usize::from(byte & 15)]));
}

/// Whether an IRI shows `c` escaped: controls, spaces and characters real
/// text does not carry (private use, specials, noncharacters).
fn iri_escapes(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(u32::from(c), 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFF0..=0xFFFF | 0xF0000..)
        || u32::from(c) & 0xFFFE == 0xFFFE
}

/// Appends an ASCII host name to an IRI: its `xn--` labels in Unicode when
/// the whole name converts, else as it stands.
fn push_host_iri(iri: &mut String, host: &[u8]) {
    let has_ace = host.windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--"));
    let unicode = std::str::from_utf8(host).ok().filter(|_| has_ace).and_then(|host| {
        let (unicode, result) = idna::domain_to_unicode(host);
        result.is_ok().then_some(unicode)
    });
    match unicode {
        Some(unicode) if !unicode.chars().any(iri_escapes) => iri.push_str(&unicode),
        _ => push_verbatim(iri, host),
    }
}

/// Whether a reading in `charset` keeps literal ASCII bytes out of
/// characters that also hold escaped bytes: in `d%E9j`, `j` was typed as
/// itself, so no GBK character `%E9` + `j` exists.
///
/// In GBK, EUC-KR and EUC-JP, whose characters in common use never end in
/// an ASCII byte (the GB2312, KS X 1001 and JIS X 0208 cores), never. In
/// Big5 and Shift_JIS half the characters end in one, and a browser
/// submitting a form leaves ASCII bytes as they are (`人` is `%A4H`, `ア`
/// is `%83A`): there only when the character would stand inside a word of
/// literal ASCII letters (`pa%A8tu`, `%8Avica`).
fn keeps_literals_apart(charset: Charset, unescaped: &Unescaped) -> bool {
    let (bytes, origins) = (&unescaped.bytes, &unescaped.origins);
    let literal = |j: usize| bytes[j].is_ascii() && origins[j] != Origin::Escaped;
    let risky = (1..bytes.len()).any(|j| origins[j - 1] == Origin::Escaped && literal(j));
    let always = matches!(charset, Charset::Gbk | Charset::EucKr | Charset::EucJp);
    if !risky || !(always || matches!(charset, Charset::Big5 | Charset::ShiftJis)) {
        return true;
    }
    // A letter that stands alone, not as the end of a character.
    let letter = |j: usize| {
        literal(j)
            && bytes[j].is_ascii_alphanumeric()
            && short::sequence_len(charset, bytes, j) == 1
    };
    let (mut pos, mut after_letter) = (0, false);
    while pos < bytes.len() {
        let end = (pos + short::sequence_len(charset, bytes, pos)).min(bytes.len());
        let sequence = pos..end;
        let in_a_word = after_letter || (end < bytes.len() && letter(end));
        if end - pos > 1
            && origins[sequence.clone()].contains(&Origin::Escaped)
            && sequence.clone().any(literal)
            && (always || in_a_word)
        {
            return false;
        }
        after_letter = end - pos == 1 && letter(pos);
        pos = end;
    }
    true
}

/// The text of bytes in `charset`, U+FFFD for each malformed sequence.
fn read(charset: Charset, bytes: &[u8]) -> String {
    short::whatwg(charset).decode_without_bom_handling(bytes).0.into_owned()
}

/// Rewrites one component read in `charset` into `url` and `iri`; returns
/// its text.
fn rewrite(
    charset: Charset,
    clean: bool,
    input: &[u8],
    unescaped: &Unescaped,
    url: &mut String,
    iri: &mut String,
) -> String {
    // Where each decoded byte starts in the input.
    let mut starts = Vec::with_capacity(unescaped.origins.len() + 1);
    let mut at = 0;
    for origin in &unescaped.origins {
        starts.push(at);
        at += origin.input_len();
    }
    starts.push(at);
    let decoded = if clean {
        Decoded::clean(charset, &unescaped.bytes)
    } else {
        Decoded::new(charset, &unescaped.bytes)
    };
    let mut text = String::with_capacity(decoded.text.len());
    for segment in &decoded.segments {
        let bytes = segment.bytes.clone();
        let source = &input[starts[bytes.start]..starts[bytes.end]];
        let Some(chars) = segment.chars.clone().map(|r| &decoded.text[r]) else {
            // Bytes no encoding reads: ASCII as it stood, the rest escaped.
            text.push('\u{FFFD}');
            for j in bytes {
                let (b, stood) = (unescaped.bytes[j], &input[starts[j]..starts[j + 1]]);
                for out in [&mut *url, &mut *iri] {
                    if b.is_ascii() || unescaped.origins[j] == Origin::Escaped {
                        push_verbatim(out, stood);
                    } else {
                        push_escape(out, b);
                    }
                }
            }
            continue;
        };
        text.push_str(chars);
        if chars.is_ascii() {
            push_verbatim(url, source);
            push_verbatim(iri, source);
            continue;
        }
        let escaped_utf8 = charset == Charset::Utf8
            && unescaped.origins[bytes].iter().all(|&o| o == Origin::Escaped);
        if escaped_utf8 {
            // Already UTF-8 percent-encoding: kept as it was written.
            push_verbatim(url, source);
        } else {
            chars.bytes().for_each(|b| push_escape(url, b));
        }
        for c in chars.chars() {
            if iri_escapes(c) {
                c.encode_utf8(&mut [0; 4]).bytes().for_each(|b| push_escape(iri, b));
            } else {
                iri.push(c);
            }
        }
    }
    text
}

/// A component's bytes decoded in one encoding, character by character.
struct Decoded {
    text: String,
    segments: Vec<Segment>,
}

/// One decoded character (or a malformed sequence) and the decoded bytes it
/// came from.
struct Segment {
    bytes: Range<usize>,
    /// Where its characters are in the text (more than one for Big5's few
    /// two-code-point sequences); `None` for a malformed sequence.
    chars: Option<Range<usize>>,
}

impl Decoded {
    /// Decodes `bytes` that read cleanly in `charset` (no malformed
    /// sequence, and the round trip gives them back), so each character
    /// is one byte sequence whose length its first byte tells.
    fn clean(charset: Charset, bytes: &[u8]) -> Decoded {
        let (text, _) = short::whatwg(charset).decode_without_bom_handling(bytes);
        let text = text.into_owned();
        let mut segments = Vec::with_capacity(bytes.len());
        let mut pos = 0;
        for (at, c) in text.char_indices() {
            let end = (pos + short::sequence_len(charset, bytes, pos)).min(bytes.len());
            segments.push(Segment { bytes: pos..end, chars: Some(at..at + c.len_utf8()) });
            pos = end;
        }
        if pos < bytes.len() {
            segments.push(Segment { bytes: pos..bytes.len(), chars: None });
        }
        Decoded { text, segments }
    }

    /// Decodes `bytes` in `charset`. Bytes that do not decode, or whose
    /// characters do not encode back to them, come as malformed segments,
    /// so they keep their escapes.
    fn new(charset: Charset, bytes: &[u8]) -> Decoded {
        let mut text = String::with_capacity(bytes.len() * 3);
        let mut malformed = Vec::new();
        charset.new_decoder().decode_to_string(bytes, &mut text, true, |out, m| {
            malformed.push((m.offset as usize, m.len()));
            out.push('\u{FFFD}');
        });
        let encoding = short::whatwg(charset);
        let mut segments = Vec::new();
        let mut malformed = malformed.into_iter().peekable();
        let mut pos = 0;
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if let Some(&(offset, len)) = malformed.peek().filter(|m| m.0 <= pos) {
                malformed.next();
                let end = (offset + len).clamp(pos, bytes.len());
                segments.push(Segment { bytes: pos..end, chars: None });
                pos = end;
                continue;
            }
            // The bytes of the character, and of the next one for the
            // sequences that decode to two code points.
            let mut end_char = at + c.len_utf8();
            let mut encoded = [0; 16];
            let mut len = encode(encoding, &text[at..end_char], &mut encoded);
            if !bytes[pos..].starts_with(&encoded[..len]) || len == 0 {
                if let Some(&(_, next)) = chars.peek() {
                    let pair = &text[at..end_char + next.len_utf8()];
                    let pair_len = encode(encoding, pair, &mut encoded);
                    if pair_len > 0 && bytes[pos..].starts_with(&encoded[..pair_len]) {
                        chars.next();
                        end_char = at + pair.len();
                        len = pair_len;
                    } else {
                        break;
                    }
                } else {
                    break;
                }
            }
            segments.push(Segment { bytes: pos..pos + len, chars: Some(at..end_char) });
            pos += len;
        }
        if pos < bytes.len() {
            segments.push(Segment { bytes: pos..bytes.len(), chars: None });
        }
        Decoded { text, segments }
    }
}

/// Encodes `text` into `out`; the length written, or 0 when some character
/// has no mapping or `out` is too short.
fn encode(encoding: &'static encoding_rs::Encoding, text: &str, out: &mut [u8]) -> usize {
    let mut encoder = encoding.output_encoding().new_encoder();
    if encoding == encoding_rs::UTF_8 {
        let n = text.len();
        return if n <= out.len() {
            out[..n].copy_from_slice(text.as_bytes());
            n
        } else {
            0
        };
    }
    match encoder.encode_from_utf8_without_replacement(text, out, true) {
        (encoding_rs::EncoderResult::InputEmpty, read, written) if read == text.len() => written,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(url: &[u8]) -> DecodedUrl {
        UrlDecoder::new().decode(url)
    }

    #[test]
    fn broken_utf8_after_many_nuls_has_a_confidence() {
        // Found by the `url` fuzz target: the only reading, broken UTF-8, so
        // far behind nothing that its weight was 0 and its confidence 0 / 0.
        let mut url = vec![0; 108];
        url.extend_from_slice(b"\xE7\xBE2");
        for decoder in [UrlDecoder::new(), UrlDecoder::new().tld("jp")] {
            let found = decoder.decode(&url);
            assert!(found.url.ends_with("%E7%BE2"), "{}", found.url);
            for c in &found.components {
                assert!((0.0..=1.0).contains(&c.confidence), "{c:?}");
            }
        }
    }

    #[test]
    fn ascii_urls_are_unchanged() {
        for url in [
            &b"http://example.com/a/b?c=d&e=%20f#g"[..],
            b"/search?q=a+b&x=%2F%3D%26",
            b"mailto:someone@example.com",
            b"https://user:pw@[::1]:8080/p;q?r",
            b"%G1%",
            b"",
        ] {
            let found = decode(url);
            assert_eq!(found.url.as_bytes(), url);
            assert_eq!(found.iri.as_bytes(), url);
            assert!(found.components.is_empty());
            assert!(!found.changed);
        }
    }

    #[test]
    fn path_in_utf8_and_query_in_gbk() {
        let found = decode(b"http://example.com/%E4%B8%AD%E6%96%87/list?q=%D6%D0%CE%C4");
        assert_eq!(found.iri, "http://example.com/中文/list?q=中文");
        assert_eq!(found.url, "http://example.com/%E4%B8%AD%E6%96%87/list?q=%E4%B8%AD%E6%96%87");
        let parts: Vec<_> = found.components.iter().map(|c| (c.part, c.charset)).collect();
        assert_eq!(parts, [(Part::Path(1), Charset::Utf8), (Part::QueryValue(1), Charset::Gbk)]);
        assert!(found.changed);
    }

    #[test]
    fn valid_utf8_escapes_are_kept_as_written() {
        let found = decode(b"/wiki/%e6%97%a5%e6%9c%ac");
        assert_eq!(found.url, "/wiki/%e6%97%a5%e6%9c%ac");
        assert_eq!(found.iri, "/wiki/日本");
        assert!(!found.changed);
    }

    #[test]
    fn plus_is_a_space_in_queries_and_stays_a_plus() {
        let found = decode(b"/s?wd=%B1%B1%BE%A9+%C9%CF%BA%A3");
        assert_eq!(found.components[0].text, "北京 上海");
        assert_eq!(found.url, "/s?wd=%E5%8C%97%E4%BA%AC+%E4%B8%8A%E6%B5%B7");
        assert_eq!(found.components[0].charset, Charset::Gbk);
    }

    #[test]
    fn malformed_escapes_are_kept_and_counted() {
        let found = decode(b"/s?q=%G1%D6%D0%CE%C4%");
        let component = &found.components[0];
        assert_eq!(component.bad_escapes, 2);
        assert_eq!(component.text, "%G1中文%");
        assert_eq!(found.iri, "/s?q=%G1中文%");
    }

    #[test]
    fn truncated_utf8_keeps_its_escapes() {
        let found = decode(b"/a/%E4%B8%AD%E6%96");
        let component = &found.components[0];
        assert_eq!(component.charset, Charset::Utf8);
        assert!(!component.clean);
        assert_eq!(component.kept, Some(Kept::BrokenEscapes));
        assert_eq!(component.text, "中\u{FFFD}");
        assert_eq!(found.iri, "/a/中%E6%96");
        assert_eq!(found.url, "/a/%E4%B8%AD%E6%96");
    }

    #[test]
    fn raw_bytes_are_escaped_and_mixing_is_reported() {
        let found = decode(b"/a?q=\xD6\xD0%CE%C4");
        assert_eq!(found.url, "/a?q=%E4%B8%AD%E6%96%87");
        assert!(found.components[0].mixed);
        let found = decode(b"/\xE6\x97\xA5\xE6\x9C\xAC");
        assert_eq!(found.url, "/%E6%97%A5%E6%9C%AC");
        assert!(!found.components[0].mixed);
    }

    #[test]
    fn escaped_ascii_trail_bytes_join_their_character() {
        // 功 is A5 5C in Big5: its trail byte is a backslash.
        let found = decode(b"http://example.tw/?q=%A5%5C%AF%E0");
        assert_eq!(found.components[0].charset, Charset::Big5);
        assert_eq!(found.iri, "http://example.tw/?q=功能");
    }

    #[test]
    fn the_host_tld_and_the_option_shift_the_prior() {
        let euc_kr = decode(b"http://example.kr/?q=%B0%A1");
        assert_eq!(euc_kr.components[0].charset, Charset::EucKr);
        let gbk = UrlDecoder::new().tld("cn").decode(b"http://example.kr/?q=%B0%A1");
        assert_eq!(gbk.components[0].charset, Charset::Gbk);
    }

    #[test]
    fn every_part_is_named() {
        let found =
            decode(b"http://\xE4\xBE\x8B.com/\xE4\xBE\x8B?\xE4\xBE\x8B=\xE4\xBE\x8B#\xE4\xBE\x8B");
        let parts: Vec<String> = found.components.iter().map(|c| c.part.to_string()).collect();
        assert_eq!(parts, ["host", "path[1]", "query[1].key", "query[1].value", "fragment"]);
        assert_eq!(found.iri, "http://例.com/例?例=例#例");
    }

    /// The reproductions of issue 21: European and Cyrillic escapes.
    #[test]
    fn r21_single_byte_escapes_read_in_their_language() {
        for (url, iri, charset) in [
            (
                &b"http://example.de/stra%DFe?q=M%FCnchen"[..],
                "http://example.de/straße?q=München",
                Charset::Windows1252,
            ),
            (b"/wiki/d%E9j%E0-vu", "/wiki/déjà-vu", Charset::Windows1252),
            (b"/wiki/Caf%E9_au_lait", "/wiki/Café_au_lait", Charset::Windows1252),
            (b"/wiki/%CC%EE%F1%EA%E2%E0", "/wiki/Москва", Charset::Windows1251),
            (
                b"http://example.gr/?q=%C1%E8%DE%ED%E1",
                "http://example.gr/?q=Αθήνα",
                Charset::Windows1253,
            ),
        ] {
            let found = decode(url);
            assert_eq!(found.iri, iri);
            assert_eq!(found.components.last().map(|c| c.charset), Some(charset), "{iri}");
            assert!(found.components.iter().all(|c| c.kept.is_none() && c.clean));
        }
    }

    #[test]
    fn r21_a_literal_letter_never_joins_an_escaped_byte() {
        // E9 6A would be one GBK character; `j` stood as itself.
        let found = UrlDecoder::new().tld("cn").decode(b"/s?q=d%E9j%E0-vu");
        assert_ne!(found.components[0].charset, Charset::Gbk);
        // Typed raw, the same bytes may be one character.
        let unescaped = escape::unescape(b"d\xE9j", false);
        assert!(keeps_literals_apart(Charset::Gbk, &unescaped));
        let unescaped = escape::unescape(b"d%E9j", false);
        assert!(!keeps_literals_apart(Charset::Gbk, &unescaped));
        assert!(keeps_literals_apart(Charset::Windows1252, &unescaped));
        // Big5 人 as a browser writes it, and š inside a Latin word.
        assert!(keeps_literals_apart(Charset::Big5, &escape::unescape(b"%A4H%A4f%A4%E5", false)));
        assert!(!keeps_literals_apart(Charset::Big5, &escape::unescape(b"pa%A8tu", false)));
    }

    #[test]
    fn r21_broken_escapes_are_kept_and_the_rest_is_fixed() {
        for url in [&b"/s?y=%E4%B8"[..], b"/s?y=%E4%B8%AD%E4", b"/s?y=%E4%B8%AD%AD"] {
            let found = decode(url);
            assert_eq!(found.url.as_bytes(), url);
            assert!(!found.changed);
            assert_eq!(found.components[0].kept, Some(Kept::BrokenEscapes), "{url:?}");
        }
        let found = decode(b"/%D6%D0%CE%C4/s?y=%E4%B8&z=%G1");
        assert_eq!(found.url, "/%E4%B8%AD%E6%96%87/s?y=%E4%B8&z=%G1");
    }

    #[test]
    fn r21_below_the_floor_the_bytes_stay() {
        let url = b"/s?q=%B0%A1";
        let found = UrlDecoder::new().min_confidence(1.0).decode(url);
        assert_eq!(found.url.as_bytes(), url);
        assert_eq!(found.iri.as_bytes(), url);
        assert_eq!(found.components[0].kept, Some(Kept::LowConfidence));
        assert!(!found.changed);
        let raw = UrlDecoder::new().min_confidence(1.0).decode(b"/s?q=\xB0\xA1");
        assert_eq!(raw.url, "/s?q=%B0%A1");
    }

    #[test]
    fn r21_site_hints_decide_single_characters() {
        // B0 A1: 啊 in GBK, 가 in EUC-KR.
        let found = decode(b"http://www.baidu.com/s?wd=%B0%A1");
        assert_eq!(found.components[0].charset, Charset::Gbk);
        assert!(found.components[0].confidence > 0.9, "{:?}", found.components[0]);
        let found =
            UrlDecoder::new().min_confidence(0.9).decode(b"http://www.baidu.com/s?wd=%B0%A1");
        assert_eq!(found.iri, "http://www.baidu.com/s?wd=啊");
        let found = decode(b"http://search.naver.com/s?q=%B0%A1");
        assert_eq!(found.components[0].charset, Charset::EucKr);
        let mine = HostHints::parse("example.com\tGBK").unwrap();
        let found = UrlDecoder::new().host_hints(mine).decode(b"http://example.com/s?q=%B0%A1");
        assert_eq!(found.components[0].charset, Charset::Gbk);
    }

    #[test]
    fn r21_idna_host_names() {
        let found = decode(b"http://xn--fsq.com/a");
        assert_eq!(found.iri, "http://例.com/a");
        assert_eq!(found.url, "http://xn--fsq.com/a");
        assert!(!found.changed);
        assert!(needs_decoding(b"http://XN--fsq.com/a"));
        let found = decode("http://例.com/a".as_bytes());
        assert_eq!(found.url, "http://xn--fsq.com/a");
        assert_eq!(found.iri, "http://例.com/a");
        // Not a valid IDNA name: left as it is.
        assert_eq!(decode(b"http://xn--.com/").iri, "http://xn--.com/");
    }

    #[test]
    fn r25_the_iri_shows_characters_beyond_the_bmp() {
        let found = decode(b"/%F0%9F%98%80/%F0%A0%80%80?q=%EF%BF%BF");
        assert_eq!(found.iri, "/😀/𠀀?q=%EF%BF%BF");
    }

    #[test]
    fn urls_are_told_from_other_tokens() {
        assert!(is_url(b"http://a"));
        assert!(is_url(b"/"));
        assert!(!is_url(b"-"));
        assert!(!is_url(b"1:2"));
        assert!(!is_url(b"\"GET"));
    }

    proptest::proptest! {
        /// Any bytes: an ASCII `url`, components inside the input, and
        /// nothing changed when there is nothing to decode.
        #[test]
        fn any_bytes_decode(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let found = decode(&input);
            proptest::prop_assert!(found.url.is_ascii());
            proptest::prop_assert_eq!(found.changed, found.url.as_bytes() != &input[..]);
            for c in &found.components {
                proptest::prop_assert!(c.span.end <= input.len());
                proptest::prop_assert!((0.0..=1.0).contains(&c.confidence));
            }
            if !needs_decoding(&input) {
                proptest::prop_assert_eq!(found.iri.as_bytes(), &input[..]);
            }
        }

        /// Text in any of the six encodings, escaped in a query, comes back
        /// as valid UTF-8 escapes that read the same when decoded again.
        #[test]
        fn escaped_text_becomes_utf8(
            which in 0usize..6,
            picks in proptest::collection::vec(0usize..1000, 1..7),
        ) {
            let charset = [
                Charset::Utf8,
                Charset::Gbk,
                Charset::Big5,
                Charset::ShiftJis,
                Charset::EucJp,
                Charset::EucKr,
            ][which];
            let pool: Vec<char> = match charset {
                Charset::Big5 => "這個中文繁體字測試資料網頁搜尋學習電腦軟體".chars().collect(),
                Charset::ShiftJis | Charset::EucJp => {
                    "日本語のテキストです東京都大阪検索ひらがなカタカナ".chars().collect()
                }
                Charset::EucKr => "한국어텍스트검색서울대학교인터넷".chars().collect(),
                _ => "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会".chars().collect(),
            };
            let text: String = picks.iter().map(|&i| pool[i % pool.len()]).collect();
            let (bytes, unmappable) = charset.encode(&text);
            proptest::prop_assert!(!unmappable);
            let mut url = b"/s?q=".to_vec();
            for b in bytes.iter() {
                url.extend_from_slice(format!("%{b:02X}").as_bytes());
            }
            let found = decode(&url);
            let component = &found.components[0];
            proptest::prop_assume!(component.kept.is_none());
            proptest::prop_assert!(component.clean);
            let again = decode(found.url.as_bytes());
            proptest::prop_assert_eq!(&again.components[0].text, &component.text);
            proptest::prop_assert_eq!(again.components[0].charset, Charset::Utf8);
        }
    }

    #[test]
    fn the_fast_path_check_agrees_with_decoding() {
        for url in [&b"/a?b=c"[..], b"/%41", b"/%E4", b"/\xFF", b"/%8"] {
            let unchanged = !decode(url).changed;
            assert!(needs_decoding(url) || unchanged, "{url:?}");
        }
    }
}
