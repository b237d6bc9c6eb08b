//! The JSON Lines output of `charsight detect --format jsonl`.
//!
//! Schema (version 2), one object per input:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `version` | number | the schema's version, 2 |
//! | `path` | string | the input (`-` for standard input); not-UTF-8 bytes replaced |
//! | `path_base64` | string, optional | the path's raw bytes, only when they are not UTF-8 |
//! | `encoding` | string | canonical name (`UTF-8`, `Shift_JIS`, `windows-1252`, `UTF-32LE`) |
//! | `confidence` | number | probability, 0 to 1, that `encoding` decodes the right text |
//! | `source` | string | `bom`, `http`, `meta`, `xml`, `detected`, `default` or `forced` |
//! | `declared` | array | every piece of evidence: `source`, `label`, `encoding` (or null), `offset`, `len`, `notes` |
//! | `language` | string or null | BCP 47 tag of the text's language |
//! | `ascii` | bool | the bytes are pure ASCII |
//! | `binary` | bool | the bytes are clearly not text (then `confidence` is 0 unless forced, `language` null) |
//! | `ebcdic` | string or null | `EBCDIC (IBM037/IBM500 family)` or `EBCDIC (national variant, such as IBM875 or IBM424)`: EBCDIC text, recognised: `encoding` is the EBCDIC code page whose text reads best (or the one forced, declared or the default) |
//! | `bom_len` | number | bytes of BOM to skip before decoding |
//! | `document` | string | `html` or `xml` (the rules applied to in-document declarations), `text` (no markup in the first 64 KiB) or `binary` (not text) |
//! | `empty` | bool | the input is empty (0 bytes: every other field is what any input would get) |
//! | `policy` | string | `verify`, `whatwg` or `detect` |
//! | `rule` | object | why: `{"rule": "verified"}`, `{"rule": "overridden", "declared": "ISO-8859-1", "reason": "valid_utf8"}`, … |
//! | `candidates` | array | each candidate, the chosen one first: `encoding`, `sources`, `detector` (its confidence), `verification` (`chars`, `non_ascii`, `malformed`, `malformed_bytes`, `first_malformed`, `c1_controls`, `private_use`, `unassigned`, `round_trip`), `doubt`, `behind` (for a declaration or the detector's leader that the detector ruled out: bits its text costs more than the pick's) |
//! | `font_encoding` | string, optional | the font layer found in the decoded prefix (`Zawgyi`, `Symbol`, `Wingdings`, `Kruti Dev 010`, `Bamini`, ...) |
//! | `font_confidence` | number, optional | probability, 0 to 1, that the text uses that font layer |
//! | `prefix` | number or null | the decision rests on the input's first so many bytes, and the rest was not read (the detector had decided, or 64 MiB were read); null when the whole input was read |
//!
//! An input that could not be read gives `{"version": 2, "path": ...,
//! "error": ...}`. Version 1 had no `version` and said `html` for plain text
//! and binary data.
//!
//! `charsight decode --report FILE` writes one JSON object ([`DecodeReport`]):
//! the fields above for its input, plus `output` (`encoding`, `errors`,
//! `declarations_rewritten`), `malformed` (`sequences`, `bytes`, `ranges` of
//! `{offset, len}`, `truncated`), `after_decision` (`decided_on_bytes`,
//! `malformed`, `first_offset`: malformed bytes found past the prefix that
//! decided), `bytes_in`, `escape_collisions`, `repairs` (`policy`, `counts`
//! by kind, `findings`: each with `kind`, `range` `{start, end}` of input
//! bytes, `at` (where the new text starts in the output, in UTF-8 bytes),
//! `line`, `before`, `after`, `confidence`, `rule`, `applied`; and
//! `truncated`), and `error` when it failed. `malformed` then lists only the
//! malformed sequences left as they were (a repaired one is in a finding).

use std::path::Path;

use base64::Engine as _;
use std::collections::BTreeMap;

use charsight::decode::{MalformedLog, Splice};
use charsight::repair::{Finding, Kind};
use charsight::{Charset, Detection, DetectionReport, REPORT_VERSION};
use serde::Serialize;

use crate::input::Seen;

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

/// One line of `detect --format jsonl`: the path, then the library's report.
#[derive(Serialize)]
pub struct DetectLine<'a> {
    pub version: u32,
    #[serde(flatten)]
    pub path: PathField,
    #[serde(flatten)]
    pub detection: DetectionReport<'a>,
    /// The decision rests on the input's first so many bytes; the rest was
    /// not read (`None`: the whole input was read).
    pub prefix: Option<u64>,
}

impl<'a> DetectLine<'a> {
    /// The line of `found`, the detection of `path`, whose reading saw `seen`.
    pub fn new(path: &Path, found: &'a Detection, seen: Seen) -> DetectLine<'a> {
        DetectLine {
            version: REPORT_VERSION,
            path: PathField::new(path),
            detection: found.report(seen.markup),
            prefix: seen.prefix(),
        }
    }
}

/// The report of `charsight decode --report FILE`.
#[derive(Serialize)]
pub struct DecodeReport<'a> {
    #[serde(flatten)]
    pub detection: DetectLine<'a>,
    pub output: Output<'a>,
    pub malformed: &'a MalformedLog,
    pub after_decision: AfterDecision,
    pub bytes_in: u64,
    pub escape_collisions: u64,
    pub repairs: Repairs<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The repairs asked for and made.
#[derive(Serialize)]
pub struct Repairs<'a> {
    pub policy: String,
    /// Findings by kind, but the possible repairs.
    pub counts: &'a BTreeMap<Kind, u64>,
    /// Repairs possible but not made (listed with `applied: false`).
    pub possible: u64,
    pub findings: &'a [Finding],
    pub truncated: bool,
}

#[derive(Serialize)]
pub struct Output<'a> {
    pub encoding: Charset,
    pub errors: charsight::decode::Errors,
    pub declarations_rewritten: &'a [Splice],
}

/// Malformed bytes met past the prefix the decision was made on.
#[derive(Serialize, Default)]
pub struct AfterDecision {
    pub decided_on_bytes: u64,
    pub malformed: u64,
    pub first_offset: Option<u64>,
}

#[derive(Serialize)]
pub struct ErrorLine {
    pub version: u32,
    #[serde(flatten)]
    pub path: PathField,
    pub error: String,
}
