//! The pipeline: gathers evidence, asks the content, and decides by policy.
//!
//! [`Engine`] holds the context a caller knows (HTTP `Content-Type`,
//! default and forced encodings, hints). [`Engine::detect`] takes whole
//! bytes; [`Engine::session`] takes them in chunks with bounded memory. Both
//! give the same [`Detection`].
//!
//! All precedence lives here. The `whatwg` policy is the browser's:
//! forced > BOM > HTTP charset > in-document declaration > content > default
//! (the default still wins over content that it decodes alike, or when the
//! content detector is unsure),
//! where the in-document declaration of an HTML document is the UTF-16 XML
//! declaration pattern, then `<meta>` (including a late one), then an XML
//! declaration at the very start; and of an XML document (by media type, or
//! by starting with `<?xml`) the XML declaration or the Appendix F pattern.

use crate::detect::{Detector, Guess};
use crate::font::{self, FontLayer};
use crate::sniff::{self, http, DocumentKind, Evidence, Note, Source};
use crate::Charset;

/// How many leading bytes evidence gathering reads by default.
pub const DEFAULT_PREFIX: usize = 64 * 1024;

/// The decision rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Policy {
    /// Browser-compatible: forced > BOM > HTTP > in-document declaration >
    /// content > default; declarations are never second-guessed.
    #[default]
    Whatwg,
}

impl Policy {
    /// The policy's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Whatwg => "whatwg",
        }
    }
}

/// The context of a document and the rules to decide its encoding by.
///
/// # Example
/// ```
/// use charsight::{Charset, Engine, Source};
/// let engine = Engine::new().content_type("text/html; charset=EUC-KR");
/// let found = engine.detect(b"<meta charset=utf-8>\xc7\xd1\xb1\xb9");
/// assert_eq!(found.charset, Charset::EucKr);
/// assert_eq!(found.source, Source::Http);
/// assert_eq!(found.evidence.len(), 2); // the HTTP charset and the <meta>
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    content_type: Option<Vec<u8>>,
    default: Option<Vec<u8>>,
    forced: Option<Vec<u8>>,
    tld: Option<String>,
    language: Option<String>,
    policy: Policy,
    prefix: usize,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with no context: `whatwg` policy, windows-1252 fallback.
    pub fn new() -> Engine {
        Engine {
            content_type: None,
            default: None,
            forced: None,
            tld: None,
            language: None,
            policy: Policy::default(),
            prefix: DEFAULT_PREFIX,
        }
    }

    /// The HTTP `Content-Type` value the bytes came with.
    pub fn content_type(mut self, value: impl AsRef<[u8]>) -> Engine {
        self.content_type = Some(value.as_ref().to_vec());
        self
    }

    /// The encoding to fall back to when nothing decides (default:
    /// windows-1252). Takes a label; a [`Charset`] works too. A label that
    /// names nothing is reported as ignored evidence.
    pub fn default_encoding(mut self, label: impl AsRef<[u8]>) -> Engine {
        self.default = Some(label.as_ref().to_vec());
        self
    }

    /// The encoding to use whatever the evidence says (which is still
    /// gathered and reported). A label that names nothing is reported as
    /// ignored evidence and forces nothing.
    pub fn force_encoding(mut self, label: impl AsRef<[u8]>) -> Engine {
        self.forced = Some(label.as_ref().to_vec());
        self
    }

    /// The top-level domain the bytes came from (`jp`, `ru`), a prior for
    /// content detection.
    pub fn tld(mut self, tld: impl Into<String>) -> Engine {
        self.tld = Some(tld.into());
        self
    }

    /// The expected language (BCP 47, `ja`, `ru`), a prior for content
    /// detection.
    pub fn language(mut self, language: impl Into<String>) -> Engine {
        self.language = Some(language.into());
        self
    }

    /// The decision policy.
    pub fn policy(mut self, policy: Policy) -> Engine {
        self.policy = policy;
        self
    }

    /// How many leading bytes evidence gathering reads (at least 1024;
    /// default [`DEFAULT_PREFIX`]). A `<meta>` past this is not seen.
    pub fn prefix_limit(mut self, bytes: usize) -> Engine {
        self.prefix = bytes.max(crate::sniff::meta::PRESCAN_WINDOW);
        self
    }

    /// Decides the encoding of `bytes`.
    pub fn detect(&self, bytes: &[u8]) -> Detection {
        let mut session = self.session();
        session.feed(bytes);
        session.finish()
    }

    /// A streaming detection: feed chunks, then finish.
    pub fn session(&self) -> Session<'_> {
        let detector = Detector::with_hints(self.tld.as_deref(), self.language.as_deref());
        Session { engine: self, prefix: Vec::new(), detector, len: 0 }
    }
}

/// A detection in progress, made by [`Engine::session`]. Memory is bounded
/// by the engine's prefix limit, whatever is fed.
///
/// # Example
/// ```
/// use charsight::{Charset, Engine};
/// let engine = Engine::new();
/// let mut session = engine.session();
/// for chunk in "naïve café".as_bytes().chunks(3) {
///     session.feed(chunk);
/// }
/// assert_eq!(session.finish().charset, Charset::Utf8);
/// ```
pub struct Session<'e> {
    engine: &'e Engine,
    prefix: Vec<u8>,
    detector: Detector,
    len: u64,
}

impl Session<'_> {
    /// Feeds the next chunk of bytes.
    pub fn feed(&mut self, chunk: &[u8]) {
        let room = self.engine.prefix.saturating_sub(self.prefix.len());
        self.prefix.extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.detector.feed(chunk, false);
        self.len += chunk.len() as u64;
    }

    /// Whether more bytes could change the result. Once false, a caller
    /// may stop reading and [`finish`](Session::finish).
    pub fn wants_more(&self) -> bool {
        self.prefix.len() < self.engine.prefix || self.detector.wants_more()
    }

    /// The decision, from what was fed.
    pub fn finish(mut self) -> Detection {
        self.detector.feed(b"", true);
        decide(self.engine, &self.prefix, self.detector.guess())
    }
}

/// What the engine decided and why.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Detection {
    /// The encoding to decode with.
    #[cfg_attr(feature = "serde", serde(rename = "encoding"))]
    pub charset: Charset,
    /// Probability, from 0 to 1, that decoding with `charset` gives the
    /// right text (see the crate docs on confidence).
    pub confidence: f32,
    /// Where the decision came from.
    pub source: Source,
    /// The language of the text, as a BCP 47 tag, when known: the language
    /// the content detector's best model for `charset` stands for.
    pub language: Option<&'static str>,
    /// Bytes to skip before decoding (a BOM), 0 if none.
    pub bom_len: usize,
    /// The bytes are pure ASCII: every ASCII-compatible encoding reads them alike.
    pub ascii: bool,
    /// The bytes are clearly not text.
    pub binary: bool,
    /// HTML or XML rules applied to in-document declarations.
    pub document: DocumentKind,
    /// Every piece of evidence, in order: BOM, HTTP, in-document, default, forced.
    pub evidence: Vec<Evidence>,
    /// The font layer of the decoded prefix (Zawgyi, a symbol font, a legacy
    /// Indic font), when one is found; see [`font::detect_layer`].
    pub font: Option<FontLayer>,
    /// What the content says on its own: the detector's guess with every
    /// candidate it did not rule out, ranked. When a declaration decided,
    /// this is the other opinion (how plausible the declared charset is
    /// next to the best reading: [`Guess::candidates`]).
    pub detected: Guess,
}

/// Gathers the evidence of `prefix` and the engine's context, in order.
fn gather(engine: &Engine, prefix: &[u8]) -> (Vec<Evidence>, DocumentKind) {
    let mut evidence = Vec::new();
    let bom = sniff::bom::sniff(prefix);
    let content_type = engine.content_type.as_deref().map(http::parse);
    let document = DocumentKind::of(content_type.as_ref().and_then(|c| c.kind), prefix);
    let (start, form) = match &bom {
        Some(bom) => (bom.len, bom.charset),
        None => (0, None),
    };
    evidence.extend(bom);
    if let Some(content_type) = content_type {
        evidence.extend(content_type.evidence);
    }
    let autodetected = if start == 0 { sniff::xml::autodetect(prefix) } else { None };
    let form = form.or(autodetected.as_ref().and_then(|e| e.charset));
    evidence.extend(autodetected);
    evidence.extend(sniff::xml::declaration(prefix, start, form));
    if form.is_none_or(Charset::is_ascii_compatible) {
        evidence.extend(sniff::meta::sniff(&prefix[start..]).into_iter().map(|mut e| {
            e.offset += start;
            e
        }));
    }
    if let Some(label) = &engine.default {
        evidence.push(Evidence::from_label(Source::Default, label, 0));
    }
    if let Some(label) = &engine.forced {
        evidence.push(Evidence::from_label(Source::Forced, label, 0));
    }
    for e in evidence.iter_mut().filter(|e| matches!(e.source, Source::Default | Source::Forced)) {
        e.len = 0;
    }
    (evidence, document)
}

/// Applies the policy to the evidence and the content's guess.
fn decide(engine: &Engine, prefix: &[u8], guess: Guess) -> Detection {
    let (evidence, document) = gather(engine, prefix);
    let first =
        |source: Source| evidence.iter().find(|e| e.source == source).and_then(Evidence::usable);
    let bom_len = evidence.iter().find(|e| e.source == Source::Bom).map_or(0, |e| e.len);
    let in_document = || match document {
        DocumentKind::Xml => {
            let xml = evidence.iter().filter(|e| e.source == Source::Xml);
            // A declaration beats the Appendix F pattern it refines.
            xml.clone()
                .find(|e| !e.notes.contains(&Note::Autodetected))
                .and_then(Evidence::usable)
                .or_else(|| xml.filter_map(Evidence::usable).next())
                .map(|c| (c, Source::Xml))
        }
        DocumentKind::Html => {
            let utf16_pattern = evidence
                .iter()
                .find(|e| e.source == Source::Xml && e.notes.contains(&Note::Autodetected))
                .and_then(Evidence::usable)
                .filter(|c| matches!(c, Charset::Utf16Le | Charset::Utf16Be));
            utf16_pattern
                .map(|c| (c, Source::Xml))
                .or_else(|| {
                    evidence
                        .iter()
                        .filter(|e| e.source == Source::Meta)
                        .find_map(Evidence::usable)
                        .map(|c| (c, Source::Meta))
                })
                .or_else(|| {
                    evidence
                        .iter()
                        .find(|e| e.source == Source::Xml && !e.notes.contains(&Note::Autodetected))
                        .and_then(Evidence::usable)
                        .map(|c| (c, Source::Xml))
                })
        }
    };
    let default = first(Source::Default).unwrap_or(Charset::Windows1252);
    let (charset, source, confidence) = match engine.policy {
        Policy::Whatwg => {
            if let Some(c) = first(Source::Forced) {
                (c, Source::Forced, 1.0)
            } else if let Some(c) = first(Source::Bom) {
                (c, Source::Bom, 0.99)
            } else if let Some(c) = first(Source::Http) {
                (c, Source::Http, 0.9)
            } else if let Some((c, source)) = in_document() {
                (c, source, 0.85)
            } else if guess.ascii && first(Source::Default).is_some() {
                (default, Source::Default, 1.0)
            } else if let Some(c) = guess.charset {
                // The caller's default wins when it reads the bytes as the
                // detector's choice does, or when the detector is unsure
                // and the default is not ruled out.
                let fallback = first(Source::Default)
                    .and_then(|d| guess.candidates.iter().find(|x| x.charset == d))
                    .filter(|d| d.confidence >= guess.confidence || guess.confidence < 0.5);
                match fallback {
                    Some(d) => (d.charset, Source::Default, d.confidence),
                    None => (c, Source::Detected, guess.confidence),
                }
            } else {
                (default, Source::Default, 0.3)
            }
        }
    };
    let bom_len = if source == Source::Bom { bom_len } else { 0 };
    let font =
        if guess.binary { None } else { font_layer(charset, &prefix[bom_len.min(prefix.len())..]) };
    let language = guess.candidates.iter().find(|c| c.charset == charset).and_then(|c| c.language);
    Detection {
        charset,
        confidence,
        source,
        language,
        bom_len,
        ascii: guess.ascii,
        binary: guess.binary,
        document,
        evidence,
        font,
        detected: guess,
    }
}

/// The font layer of the prefix decoded with the decided charset; the
/// prefix is decoded only when its bytes could hold one.
fn font_layer(charset: Charset, prefix: &[u8]) -> Option<FontLayer> {
    if !font::may_have_layer(charset, prefix) {
        return None;
    }
    let (text, _) = charset.decode(prefix);
    font::detect_layer(&text, &font::Registry::builtin())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_whatwg() {
        let page = b"\xEF\xBB\xBF<meta charset=gbk>";
        let found = Engine::new().content_type("text/html; charset=big5").detect(page);
        assert_eq!((found.charset, found.source, found.bom_len), (Charset::Utf8, Source::Bom, 3));
        let found = Engine::new().force_encoding("koi8-r").detect(page);
        assert_eq!((found.charset, found.source), (Charset::Koi8R, Source::Forced));
        let found = Engine::new().content_type("text/html; charset=big5").detect(&page[3..]);
        assert_eq!(found.source, Source::Http);
        let found = Engine::new().detect(&page[3..]);
        assert_eq!((found.charset, found.source), (Charset::Gbk, Source::Meta));
    }

    #[test]
    fn xml_media_type_prefers_declaration_over_meta() {
        let doc = b"<?xml version='1.0' encoding='euc-jp'?><html><meta charset='utf-8'/>";
        let found = Engine::new().detect(doc);
        assert_eq!(
            (found.charset, found.source, found.document),
            (Charset::EucJp, Source::Xml, DocumentKind::Xml)
        );
        let found = Engine::new().content_type("text/html").detect(doc);
        assert_eq!((found.charset, found.source), (Charset::Utf8, Source::Meta));
        let found = Engine::new().content_type("application/xhtml+xml; charset=gbk").detect(doc);
        assert_eq!((found.charset, found.source), (Charset::Gbk, Source::Http));
    }

    #[test]
    fn fallbacks() {
        let found = Engine::new().detect("hé".as_bytes());
        assert_eq!((found.charset, found.source), (Charset::Utf8, Source::Detected));
        // One byte: "hé" in most Latin encodings, but not certainly.
        let found = Engine::new().detect(b"h\xE9");
        assert_eq!((found.charset, found.source), (Charset::Windows1252, Source::Detected));
        assert!(found.confidence < 0.999, "{}", found.confidence);
        let found = Engine::new().default_encoding(Charset::ShiftJis).detect(b"ascii");
        assert_eq!(
            (found.charset, found.source, found.ascii),
            (Charset::ShiftJis, Source::Default, true)
        );
    }

    #[test]
    fn bad_labels_are_ignored_evidence() {
        let found = Engine::new().default_encoding("nonsense").force_encoding("").detect(b"h\xE9");
        assert_eq!(found.source, Source::Detected);
        assert_eq!(found.evidence.len(), 2);
        assert!(found.evidence.iter().all(|e| e.charset.is_none()));
    }

    #[test]
    fn utf32_end_to_end() {
        let mut doc = b"\xFF\xFE\x00\x00".to_vec();
        doc.extend(
            Charset::Utf32Le.encode("<?xml version='1.0' encoding='UTF-32'?><a>ü</a>").0.iter(),
        );
        let found = Engine::new().detect(&doc);
        assert_eq!((found.charset, found.bom_len), (Charset::Utf32Le, 4));
        let found = Engine::new().detect(&doc[4..]);
        assert_eq!((found.charset, found.source), (Charset::Utf32Le, Source::Xml));
        let decl = found.evidence.iter().find(|e| !e.notes.contains(&Note::Autodetected)).unwrap();
        assert_eq!(decl.label, "UTF-32");
    }

    #[test]
    fn font_layers_are_reported() {
        let found = Engine::new().detect("<p>ျမန္မာႏိုင္ငံ ေျပာပါတယ္</p>".as_bytes());
        assert_eq!(found.font.map(|f| f.name.to_string()).as_deref(), Some("Zawgyi"));
        let found = Engine::new().detect(b"<font face=Wingdings>J</font>");
        assert_eq!(found.font.map(|f| f.name.to_string()).as_deref(), Some("Wingdings"));
        assert_eq!(Engine::new().detect(b"<font face=Arial>J</font>").font, None);
        assert_eq!(Engine::new().detect("မြန်မာနိုင်ငံ".as_bytes()).font, None);
    }

    #[test]
    fn sessions_match_one_shot_and_stay_bounded() {
        let engine = Engine::new().prefix_limit(2048);
        let mut page = b"<html>".to_vec();
        page.extend(std::iter::repeat_n(b"<p>text</p>\n", 10_000).flatten());
        page.extend("<p>é</p>".as_bytes());
        let whole = engine.detect(&page);
        let mut session = engine.session();
        for chunk in page.chunks(777) {
            session.feed(chunk);
        }
        assert!(session.prefix.len() <= 2048);
        assert_eq!(session.finish(), whole);
    }
}
