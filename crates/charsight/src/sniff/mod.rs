//! Stage 1: declared evidence.
//!
//! Input: the first bytes of a document (a bounded prefix) and what came
//! with it from outside (an HTTP `Content-Type`, a caller's default or forced
//! encoding). Output: a list of [`Evidence`], in the order found, each with
//! its source, raw label, resolved [`Charset`] and byte position.
//!
//! The sniffers only report. Which evidence wins is decided later, by the
//! policy ([`Policy`](crate::Policy)) the [`Engine`](crate::Engine) applies.
//!
//! | source | module | specification |
//! | --- | --- | --- |
//! | byte order mark | [`bom`] | [Encoding Standard, BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff) |
//! | `Content-Type` charset | [`http`] | [RFC 9110 §8.3](https://www.rfc-editor.org/rfc/rfc9110#section-8.3), [Fetch: extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type) |
//! | `<meta>` | [`meta`] | [HTML: prescan a byte stream](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding) |
//! | XML declaration | [`xml`] | [XML 1.0 §4.3.3, Appendix F](https://www.w3.org/TR/xml/#sec-guessing), [RFC 7303](https://www.rfc-editor.org/rfc/rfc7303) |
//! | coding comment | [`coding`] | [PEP 263](https://peps.python.org/pep-0263/), [Emacs file variables](https://www.gnu.org/software/emacs/manual/html_node/emacs/Specifying-File-Variables.html) |

pub mod bom;
pub mod coding;
pub mod http;
pub mod meta;
pub mod xml;

use crate::label::{self, LabelErrorKind};
use crate::Charset;

/// Where a piece of evidence came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Source {
    /// A byte order mark at the start of the bytes.
    Bom,
    /// The `charset` parameter of an HTTP `Content-Type`.
    Http,
    /// An HTML `<meta charset>` or `<meta http-equiv=content-type>`.
    Meta,
    /// An XML declaration, or the XML 1.0 Appendix F pattern of the first bytes.
    Xml,
    /// A coding comment on the first two lines of a source or text file
    /// (`# -*- coding: koi8-r -*-`, see [`coding`]).
    Coding,
    /// Statistical detection from the content.
    Detected,
    /// The caller's default, used when nothing else decides.
    Default,
    /// The caller's forced choice.
    Forced,
}

impl Source {
    /// The lower-case name used in reports (`bom`, `http`, `meta`, …).
    pub fn name(self) -> &'static str {
        match self {
            Source::Bom => "bom",
            Source::Http => "http",
            Source::Meta => "meta",
            Source::Xml => "xml",
            Source::Coding => "coding",
            Source::Detected => "detected",
            Source::Default => "default",
            Source::Forced => "forced",
        }
    }
}

/// Something worth knowing about a piece of evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Note {
    /// The label names no encoding, so the evidence is ignored.
    Label(LabelErrorKind),
    /// A `<meta>` found past the first 1024 bytes (the prescan's window);
    /// the HTML parser's "change the encoding" step still honours it.
    Late,
    /// A `<meta>` that declares UTF-16 or UTF-32, impossible for bytes in
    /// which the `<meta>` reads as ASCII: it means UTF-8 (HTML standard).
    Utf16MeansUtf8,
    /// A `<meta>` that declares `x-user-defined` means windows-1252.
    UserDefinedMeansWindows1252,
    /// Another `charset` parameter of the same `Content-Type` counts instead:
    /// within one media type the first wins, and of comma-joined values the
    /// one Fetch's "extract a MIME type" selects (see [`http`]).
    Superseded,
    /// Not a declaration: the XML 1.0 Appendix F pattern of the first bytes.
    Autodetected,
    /// The bytes name an encoding charsight cannot decode (UCS-4 in 2143 or
    /// 3412 byte order).
    Unsupported,
    /// A declaration naming an encoding its own bytes cannot be in (a
    /// single-byte label in an XML declaration written in UTF-16, EBCDIC in
    /// a `<meta>` or XML declaration that reads as ASCII); ignored.
    Mismatch,
    /// Under the `whatwg` policy, a label the Encoding Standard does not
    /// have (`cp437`, `johab`, `utf-32`, …), or a declaration a browser
    /// does not read (a coding comment): a browser ignores it, and so is
    /// it. The `verify` policy uses it.
    NotWhatwg,
}

impl Note {
    /// The note's name in reports (`late`, `unknown_label`, …).
    pub fn name(self) -> &'static str {
        match self {
            Note::Label(LabelErrorKind::Empty) => "empty_label",
            Note::Label(LabelErrorKind::None) => "none_label",
            Note::Label(LabelErrorKind::Unknown) => "unknown_label",
            Note::Late => "late",
            Note::Utf16MeansUtf8 => "utf16_means_utf8",
            Note::UserDefinedMeansWindows1252 => "user_defined_means_windows1252",
            Note::Superseded => "superseded",
            Note::Autodetected => "autodetected",
            Note::Unsupported => "unsupported",
            Note::Mismatch => "mismatch",
            Note::NotWhatwg => "not_whatwg",
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One piece of evidence about the encoding of a document.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Evidence {
    /// Where it came from.
    pub source: Source,
    /// The label exactly as found (bytes that are not UTF-8 replaced).
    pub label: String,
    /// The charset it declares, or `None` when it declares nothing usable
    /// (see [`notes`](Evidence::notes)).
    #[cfg_attr(feature = "serde", serde(rename = "encoding"))]
    pub charset: Option<Charset>,
    /// Byte offset of the label (the BOM; the `charset` value in a
    /// `Content-Type`; the attribute value in the document).
    pub offset: usize,
    /// Length of the label in bytes.
    pub len: usize,
    /// What else is known: ignored and why, came late, was rewritten.
    pub notes: Vec<Note>,
}

impl Evidence {
    /// Evidence from a label found at `offset`, resolved with [`label::resolve`].
    pub fn from_label(source: Source, raw: &[u8], offset: usize) -> Evidence {
        let mut evidence = Evidence {
            source,
            label: String::from_utf8_lossy(raw).into_owned(),
            charset: None,
            offset,
            len: raw.len(),
            notes: Vec::new(),
        };
        match label::resolve(raw) {
            Ok(charset) => evidence.charset = Some(charset),
            Err(e) => evidence.notes.push(Note::Label(e.kind())),
        }
        evidence
    }

    /// The charset, if this evidence counts: it names one and was not
    /// overruled by a rule of its own source (a repeated parameter).
    pub fn usable(&self) -> Option<Charset> {
        if self.notes.contains(&Note::Superseded) {
            return None;
        }
        self.charset
    }
}

/// What kind of document the bytes are, for the precedence of in-document
/// declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DocumentKind {
    /// HTML: `<meta>` first, then an XML declaration at the very start.
    Html,
    /// XML: the XML declaration; `<meta>` is not a declaration in XML.
    Xml,
}

impl DocumentKind {
    /// The kind given by a media type, else by the bytes: a document that
    /// starts with an XML declaration (in any byte order) is XML.
    pub fn of(media: Option<http::MediaKind>, bytes: &[u8]) -> DocumentKind {
        match media {
            Some(http::MediaKind::Xml) => DocumentKind::Xml,
            Some(http::MediaKind::Html) => DocumentKind::Html,
            _ if xml::starts_with_declaration(bytes) => DocumentKind::Xml,
            _ => DocumentKind::Html,
        }
    }

    /// The in-document declaration that counts, of the `evidence` gathered
    /// (only a usable one): for XML the XML declaration, else the Appendix F
    /// pattern; for HTML the UTF-16 XML pattern, then the first usable
    /// `<meta>`, then an XML declaration at the very start; for either,
    /// lastly a coding comment.
    pub fn declaration(self, evidence: &[Evidence]) -> Option<&Evidence> {
        let xml = |pattern: bool| {
            evidence
                .iter()
                .find(|e| {
                    e.source == Source::Xml && e.notes.contains(&Note::Autodetected) == pattern
                })
                .filter(|e| e.usable().is_some())
        };
        let meta = || evidence.iter().find(|e| e.source == Source::Meta && e.usable().is_some());
        let coding =
            || evidence.iter().find(|e| e.source == Source::Coding && e.usable().is_some());
        match self {
            DocumentKind::Xml => xml(false).or_else(|| xml(true)),
            DocumentKind::Html => xml(true)
                .filter(|e| matches!(e.usable(), Some(Charset::Utf16Le | Charset::Utf16Be)))
                .or_else(meta)
                .or_else(|| xml(false)),
        }
        .or_else(coding)
    }
}

/// Whether the first [`TagScan::WINDOW`] bytes of an input hold a tag (`<`
/// and a letter, `/`, `!` or `?`; NULs skipped, so UTF-16 markup counts):
/// fed the bytes in chunks, as they come.
#[derive(Clone, Copy, Debug, Default)]
pub struct TagScan {
    seen: bool,
    open: bool,
    scanned: usize,
}

impl TagScan {
    /// How many leading bytes are looked at.
    pub const WINDOW: usize = 64 * 1024;

    /// Scans the next chunk.
    pub fn scan(&mut self, bytes: &[u8]) {
        let bytes = &bytes[..bytes.len().min(TagScan::WINDOW - self.scanned)];
        self.scanned += bytes.len();
        for &b in bytes {
            if self.seen {
                return;
            }
            match b {
                b'<' => self.open = true,
                0 => {}
                b => {
                    self.seen = self.open && (b.is_ascii_alphabetic() || b"/!?".contains(&b));
                    self.open = false;
                }
            }
        }
    }

    /// Whether a tag was seen.
    pub fn seen(self) -> bool {
        self.seen
    }
}
