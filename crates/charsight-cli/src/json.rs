//! The JSON Lines output of `charsight detect --format jsonl`.
//!
//! Schema (version 1), one object per input:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `path` | string | the input (`-` for standard input); not-UTF-8 bytes replaced |
//! | `path_base64` | string, optional | the path's raw bytes, only when they are not UTF-8 |
//! | `encoding` | string | canonical name (`UTF-8`, `Shift_JIS`, `windows-1252`, `UTF-32LE`) |
//! | `confidence` | number | probability, 0 to 1, that `encoding` decodes the right text |
//! | `source` | string | `bom`, `http`, `meta`, `xml`, `detected`, `default` or `forced` |
//! | `declared` | array | every piece of evidence: `source`, `label`, `encoding` (or null), `offset`, `len`, `notes` |
//! | `language` | string or null | BCP 47 tag of the text's language |
//! | `ascii` | bool | the bytes are pure ASCII |
//! | `binary` | bool | the bytes are clearly not text |
//! | `bom_len` | number | bytes of BOM to skip before decoding |
//! | `document` | string | `html` or `xml`: the rules applied to in-document declarations |
//! | `font_encoding` | string, optional | the font layer found in the decoded prefix (`Zawgyi`, `Symbol`, `Wingdings`, `Kruti Dev 010`, `Bamini`, ...) |
//! | `font_confidence` | number, optional | probability, 0 to 1, that the text uses that font layer |
//!
//! An input that could not be read gives `{"path": ..., "error": ...}`.

use std::path::Path;

use base64::Engine as _;
use charsight::sniff::DocumentKind;
use charsight::{Charset, Detection, Evidence, Source};
use serde::Serialize;

#[derive(Serialize)]
pub struct PathField {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_base64: Option<String>,
}

impl PathField {
    pub fn new(path: &Path) -> PathField {
        let bytes = path.as_os_str().as_encoded_bytes();
        let path_base64 = std::str::from_utf8(bytes)
            .is_err()
            .then(|| base64::engine::general_purpose::STANDARD.encode(bytes));
        PathField { path: path.to_string_lossy().into_owned(), path_base64 }
    }
}

#[derive(Serialize)]
pub struct DetectLine<'a> {
    #[serde(flatten)]
    pub path: PathField,
    pub encoding: Charset,
    pub confidence: f64,
    pub source: Source,
    pub declared: &'a [Evidence],
    pub language: Option<&'a str>,
    pub ascii: bool,
    pub binary: bool,
    pub bom_len: usize,
    pub document: DocumentKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_encoding: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_confidence: Option<f64>,
}

impl<'a> DetectLine<'a> {
    pub fn new(path: &Path, found: &'a Detection) -> DetectLine<'a> {
        DetectLine {
            path: PathField::new(path),
            encoding: found.charset,
            confidence: round(found.confidence),
            source: found.source,
            declared: &found.evidence,
            language: found.language,
            ascii: found.ascii,
            binary: found.binary,
            bom_len: found.bom_len,
            document: found.document,
            font_encoding: found.font.as_ref().map(|f| &*f.name),
            font_confidence: found.font.as_ref().map(|f| round(f.confidence)),
        }
    }
}

#[derive(Serialize)]
pub struct ErrorLine {
    #[serde(flatten)]
    pub path: PathField,
    pub error: String,
}

/// Three decimals: enough for a probability, and stable across platforms.
pub fn round(x: f32) -> f64 {
    (f64::from(x) * 1000.0).round() / 1000.0
}
