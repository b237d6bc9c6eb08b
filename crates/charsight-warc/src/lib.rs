//! Web archives through charsight: the records of a WARC file
//! ([`reader`]), the HTTP message of each response ([`http`]), and the
//! analysis of each document by charsight's engine, with the HTTP
//! `Content-Type` as evidence ([`analyze`]), reported as one JSON object
//! per record ([`Line`]) and rewritten as a `conversion` record of UTF-8
//! text ([`write_conversion`]).
//!
//! The `charsight warc` command and the Python package's Spark job
//! (`charsight.spark`) both read WARC files with this crate, so they read
//! the same records and report them in one shape.
//!
//! # Example
//! ```
//! use charsight::Engine;
//! use charsight_warc::{analyze, reader::Records};
//!
//! let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\n\r\n<p>caf\xe9</p>";
//! let warc = format!(
//!     "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n\
//!      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
//!     http.len()
//! );
//! let mut file = warc.into_bytes();
//! file.extend_from_slice(http);
//! file.extend_from_slice(b"\r\n\r\n");
//! let record = Records::new(&file[..]).next().unwrap().unwrap();
//! let analysis = analyze(&record, &Engine::new()).unwrap();
//! assert_eq!(analysis.http_charset.as_deref(), Some("iso-8859-1"));
//! assert_eq!(analysis.detection().unwrap().charset, charsight::Charset::Windows1252);
//! ```
//!
//! # Panics
//!
//! No function panics on any input bytes.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod http;
pub mod reader;

use std::collections::BTreeMap;
use std::io::{self, Write};

use charsight::sniff::TagScan;
use charsight::{Detection, DetectionReport, Engine, Session};
use serde::Serialize;

use reader::Record;

/// The detection reads the body in pieces of this size while the engine
/// wants more, as `charsight detect` reads a file.
const CHUNK: usize = 64 * 1024;

/// What became of one record that was not skipped.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Where the record starts ([`Record::offset`]).
    pub offset: u64,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// `WARC-Target-URI`.
    pub uri: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// The document's `Content-Type`: the HTTP header's for a response,
    /// the record's own for a resource.
    pub content_type: Option<String>,
    /// The `charset` parameter of `content_type` that counts, as written.
    pub http_charset: Option<String>,
    /// The payload was longer than the reader keeps and was analysed on its
    /// first [`reader::BLOCK_LIMIT`] bytes.
    pub cut: bool,
    /// The result.
    pub outcome: Outcome,
}

/// The result of one record.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The document was analysed; its body is kept for a conversion.
    Analysed {
        /// The engine's decision.
        detection: Box<Detection>,
        /// Whether the body's first bytes hold a tag.
        markup: bool,
        /// The HTTP body, de-chunked and decompressed.
        body: Vec<u8>,
    },
    /// A media type that is not text (an image, a video, a PDF): reported
    /// as binary, not analysed.
    Media,
    /// The payload could not be had (a bad HTTP head, a content coding
    /// charsight cannot undo).
    Failed(String),
}

impl Analysis {
    /// The detection, when the document was analysed.
    pub fn detection(&self) -> Option<&Detection> {
        match &self.outcome {
            Outcome::Analysed { detection, .. } => Some(detection),
            _ => None,
        }
    }

    /// The record as one JSON object: `path` names the WARC file it came
    /// from.
    pub fn line<'a>(&'a self, path: &'a str) -> Line<'a> {
        let (detection, binary, error) = match &self.outcome {
            Outcome::Analysed { detection, markup, .. } => {
                (Some(detection.report(*markup)), None, None)
            }
            Outcome::Media => (None, Some(true), None),
            Outcome::Failed(why) => (None, None, Some(why.as_str())),
        };
        Line {
            version: charsight::REPORT_VERSION,
            path,
            offset: self.offset,
            record_id: self.record_id.as_deref(),
            uri: self.uri.as_deref(),
            date: self.date.as_deref(),
            content_type: self.content_type.as_deref(),
            http_charset: self.http_charset.as_deref(),
            truncated: self.cut,
            error,
            binary,
            detection,
        }
    }
}

/// One record as `charsight warc --format jsonl` writes it and the Spark
/// job's rows hold it: where it is, what HTTP said, then the same fields
/// as `charsight detect`'s JSON ([`Detection::report`]). A record that was
/// not analysed has `binary: true` (a media type that is not text) or an
/// `error`, and none of the detection's fields.
#[derive(Serialize)]
pub struct Line<'a> {
    /// [`charsight::REPORT_VERSION`].
    pub version: u32,
    /// The WARC file.
    pub path: &'a str,
    /// [`Analysis::offset`].
    pub offset: u64,
    /// [`Analysis::record_id`].
    pub record_id: Option<&'a str>,
    /// [`Analysis::uri`].
    pub uri: Option<&'a str>,
    /// [`Analysis::date`].
    pub date: Option<&'a str>,
    /// [`Analysis::content_type`].
    pub content_type: Option<&'a str>,
    /// [`Analysis::http_charset`].
    pub http_charset: Option<&'a str>,
    /// [`Analysis::cut`].
    pub truncated: bool,
    /// Why the record was not analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// `true` for a media type that is not text (not analysed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<bool>,
    /// The detection's report.
    #[serde(flatten)]
    pub detection: Option<DetectionReport<'a>>,
}

/// Analyses one record: a `response` (its HTTP payload, with the HTTP
/// `Content-Type` as evidence) or a `resource` (its block, with the
/// record's `Content-Type`). Other record types are skipped: `None`.
/// `engine` gives the policy and the caller's hints; its `Content-Type`
/// counts only for documents that came with none.
pub fn analyze(record: &Record, engine: &Engine) -> Option<Analysis> {
    let kind = record.warc_type();
    if kind != "response" && kind != "resource" {
        return None;
    }
    let header = |name: &str| record.header(name).map(str::to_owned);
    let warc_content_type = header("Content-Type");
    let is_http = kind == "response"
        && warc_content_type
            .as_deref()
            .is_none_or(|t| t.to_ascii_lowercase().starts_with("application/http"));
    let mut analysis = Analysis {
        offset: record.offset,
        record_id: header("WARC-Record-ID"),
        uri: header("WARC-Target-URI"),
        date: header("WARC-Date"),
        content_type: None,
        http_charset: None,
        cut: record.cut(),
        outcome: Outcome::Media,
    };
    let payload = if is_http {
        match http::parse_head(&record.block) {
            Ok(head) => {
                analysis.content_type = head.content_type.clone();
                http::body(&record.block, &head)
            }
            Err(why) => Err(why),
        }
    } else {
        analysis.content_type = warc_content_type;
        Ok(record.block.clone())
    };
    let parsed =
        analysis.content_type.as_deref().map(|t| charsight::sniff::http::parse(t.as_bytes()));
    if let Some(parsed) = &parsed {
        analysis.http_charset = parsed
            .evidence
            .iter()
            .find(|e| !e.notes.contains(&charsight::Note::Superseded))
            .map(|e| e.label.clone());
    }
    let body = match payload {
        Ok(body) => body,
        Err(why) => {
            analysis.outcome = Outcome::Failed(why);
            return Some(analysis);
        }
    };
    if parsed.and_then(|p| p.essence).is_some_and(|essence| !is_text_media(&essence)) {
        return Some(analysis);
    }
    let record_engine;
    let engine = match &analysis.content_type {
        Some(value) => {
            record_engine = engine.clone().content_type(value);
            &record_engine
        }
        None => engine,
    };
    let (detection, markup) = detect(engine, &body);
    analysis.outcome = Outcome::Analysed { detection: Box::new(detection), markup, body };
    Some(analysis)
}

/// The engine's decision on `body`, read as `charsight detect` reads a
/// file: a chunk at a time while the engine wants more; and whether its
/// first chunk holds a tag.
fn detect(engine: &Engine, body: &[u8]) -> (Detection, bool) {
    let mut session: Session = engine.session();
    for chunk in body.chunks(CHUNK) {
        if !session.wants_more() {
            break;
        }
        session.feed(chunk);
    }
    let mut tags = TagScan::default();
    tags.scan(&body[..body.len().min(CHUNK)]);
    (session.finish(), tags.seen())
}

/// Whether a media type (its essence, in lower case) is text to analyse:
/// `text/*`, XML and JSON types, scripts, and the feed formats.
pub fn is_text_media(essence: &str) -> bool {
    let Some((kind, subtype)) = essence.split_once('/') else { return true };
    kind == "text"
        || subtype.ends_with("+xml")
        || subtype.ends_with("+json")
        || matches!(
            subtype,
            "xml" | "json" | "javascript" | "x-javascript" | "ecmascript" | "x-www-form-urlencoded"
        )
}

/// Counts of what a run met, for the summary on standard error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Records read (analysed, binary, failed and skipped).
    pub records: u64,
    /// Records analysed.
    pub analysed: u64,
    /// Records of a media type that is not text.
    pub binary: u64,
    /// Records whose payload could not be had.
    pub failed: u64,
    /// Records skipped, by `WARC-Type`.
    pub skipped: BTreeMap<String, u64>,
    /// Corrupt records (skipped).
    pub corrupt: u64,
}

impl Summary {
    /// Counts one record: its analysis, or its type when it was skipped.
    pub fn count(&mut self, analysis: Option<&Analysis>, warc_type: &str) {
        self.records += 1;
        match analysis.map(|a| &a.outcome) {
            Some(Outcome::Analysed { .. }) => self.analysed += 1,
            Some(Outcome::Media) => self.binary += 1,
            Some(Outcome::Failed(_)) => self.failed += 1,
            None => {
                let kind = if warc_type.is_empty() { "untyped" } else { warc_type };
                *self.skipped.entry(kind.to_owned()).or_default() += 1;
            }
        }
    }

    /// Adds another run's counts.
    pub fn add(&mut self, other: &Summary) {
        self.records += other.records;
        self.analysed += other.analysed;
        self.binary += other.binary;
        self.failed += other.failed;
        self.corrupt += other.corrupt;
        for (kind, n) in &other.skipped {
            *self.skipped.entry(kind.clone()).or_default() += n;
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} records: {} analysed, {} binary, {} failed",
            self.records, self.analysed, self.binary, self.failed
        )?;
        let skipped: u64 = self.skipped.values().sum();
        write!(f, ", {skipped} skipped")?;
        if !self.skipped.is_empty() {
            let kinds: Vec<String> = self.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
            write!(f, " ({})", kinds.join(", "))?;
        }
        write!(f, "; {} corrupt", self.corrupt)
    }
}

/// What a `conversion` record says about where it came from.
pub struct Conversion<'a> {
    /// Its own `WARC-Record-ID` (`<urn:uuid:…>`).
    pub record_id: &'a str,
    /// `WARC-Date`, when it was made (ISO 8601, UTC).
    pub date: &'a str,
    /// The record converted: its `WARC-Record-ID`, for `WARC-Refers-To`.
    pub refers_to: Option<&'a str>,
    /// `WARC-Target-URI`.
    pub uri: Option<&'a str>,
    /// The media type of the text (`text/html`).
    pub media_type: &'a str,
}

/// Writes one WARC 1.1 `conversion` record holding `text` (UTF-8).
///
/// # Errors
/// What writing to `out` gives.
pub fn write_conversion(
    out: &mut impl Write,
    conversion: &Conversion,
    text: &str,
) -> io::Result<()> {
    write!(
        out,
        "WARC/1.1\r\nWARC-Type: conversion\r\nWARC-Record-ID: {}\r\n",
        conversion.record_id
    )?;
    write!(out, "WARC-Date: {}\r\n", conversion.date)?;
    if let Some(refers_to) = conversion.refers_to {
        write!(out, "WARC-Refers-To: {refers_to}\r\n")?;
    }
    if let Some(uri) = conversion.uri {
        write!(out, "WARC-Target-URI: {uri}\r\n")?;
    }
    write!(out, "Content-Type: {}; charset=utf-8\r\n", conversion.media_type)?;
    write!(out, "Content-Length: {}\r\n\r\n", text.len())?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\r\n\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use reader::Records;

    fn record(warc_type: &str, content_type: &str, block: &[u8]) -> Record {
        Record {
            offset: 7,
            version: "1.1".to_owned(),
            headers: vec![
                ("WARC-Type".to_owned(), warc_type.to_owned()),
                ("WARC-Record-ID".to_owned(), "<urn:uuid:x>".to_owned()),
                ("Content-Type".to_owned(), content_type.to_owned()),
                ("Content-Length".to_owned(), block.len().to_string()),
            ],
            block: block.to_vec(),
            block_len: block.len() as u64,
        }
    }

    #[test]
    fn a_response_is_analysed_with_its_http_charset_as_evidence() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=EUC-KR\r\n\r\n<p>\xc7\xd1\xb1\xb9\xbe\xee</p>";
        let a = analyze(
            &record("response", "application/http; msgtype=response", block),
            &Engine::new(),
        )
        .unwrap();
        assert_eq!(a.http_charset.as_deref(), Some("EUC-KR"));
        let found = a.detection().unwrap();
        assert_eq!(found.charset, charsight::Charset::EucKr);
        assert_eq!(found.source, charsight::Source::Http);
        let json = serde_json::to_value(a.line("f.warc")).unwrap();
        assert_eq!(json["record_id"], "<urn:uuid:x>");
        assert_eq!(json["encoding"], "EUC-KR");
        assert_eq!(json["document"], "html");
        assert_eq!(json["offset"], 7);
    }

    #[test]
    fn media_that_is_not_text_is_reported_not_analysed() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n";
        let a = analyze(&record("response", "application/http", block), &Engine::new()).unwrap();
        assert!(matches!(a.outcome, Outcome::Media));
        let json = serde_json::to_value(a.line("f.warc")).unwrap();
        assert_eq!(json["binary"], true);
        assert!(json.get("encoding").is_none());
    }

    #[test]
    fn a_resource_uses_the_records_content_type() {
        let a = analyze(
            &record("resource", "text/plain; charset=koi8-r", b"\xf0\xd2\xc9\xd7\xc5\xd4"),
            &Engine::new(),
        )
        .unwrap();
        assert_eq!(a.http_charset.as_deref(), Some("koi8-r"));
        assert_eq!(a.detection().unwrap().charset, charsight::Charset::Koi8R);
    }

    #[test]
    fn other_record_types_are_skipped_and_counted() {
        let mut summary = Summary::default();
        for kind in ["request", "warcinfo", "metadata", "revisit"] {
            let r = record(kind, "application/http", b"GET / HTTP/1.1\r\n\r\n");
            assert!(analyze(&r, &Engine::new()).is_none());
            summary.count(None, kind);
        }
        assert_eq!(summary.to_string(), "4 records: 0 analysed, 0 binary, 0 failed, 4 skipped (metadata 1, request 1, revisit 1, warcinfo 1); 0 corrupt");
    }

    #[test]
    fn a_bad_http_head_is_a_failure_with_its_reason() {
        let a = analyze(&record("response", "application/http", b"\x00garbage"), &Engine::new())
            .unwrap();
        assert!(matches!(&a.outcome, Outcome::Failed(why) if why.starts_with("bad HTTP head")));
    }

    #[test]
    fn text_media_types() {
        for t in [
            "text/html",
            "application/xhtml+xml",
            "application/json",
            "text/css",
            "application/rss+xml",
        ] {
            assert!(is_text_media(t), "{t}");
        }
        for t in ["image/png", "application/pdf", "video/mp4", "application/octet-stream"] {
            assert!(!is_text_media(t), "{t}");
        }
    }

    #[test]
    fn a_conversion_record_reads_back() {
        let conversion = Conversion {
            record_id: "<urn:uuid:c>",
            date: "2026-01-01T00:00:00Z",
            refers_to: Some("<urn:uuid:x>"),
            uri: Some("http://example.com/"),
            media_type: "text/html",
        };
        let mut out = Vec::new();
        write_conversion(&mut out, &conversion, "café").unwrap();
        let back = Records::new(&out[..]).next().unwrap().unwrap();
        assert_eq!(back.warc_type(), "conversion");
        assert_eq!(back.header("WARC-Refers-To"), Some("<urn:uuid:x>"));
        assert_eq!(back.block, "café".as_bytes());
    }
}
