//! The native module of the `charsight` Python package (`charsight._charsight`).
//!
//! Thin: it converts arguments and results and releases the GIL around
//! every call that reads bytes. The Python layer (`python/charsight`) gives
//! the public API its shape: chardet's dictionaries, result objects, codec
//! names.

use std::sync::LazyLock;

use charsight::decode::{EncodeError, Errors, OnUnmappable, TextDecoder, TextEncoder};
use charsight::explain::Styling;
use charsight::repair::{RepairPolicy, Repairer};
use charsight::url::UrlDecoder;
use charsight::{Charset, Detection, Engine, Policy, Session};
use pyo3::exceptions::{PyLookupError, PyUnicodeDecodeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The engine with no context, for `detect`, `detect_all` and streaming.
static ENGINE: LazyLock<Engine> = LazyLock::new(Engine::new);

/// One reading: charset name, confidence, language.
type Reading = (&'static str, f64, Option<&'static str>);

/// A decision in short: charset name, confidence, language, ASCII, text
/// (neither binary nor EBCDIC, which charsight does not decode).
type Summary = (&'static str, f64, Option<&'static str>, bool, bool);

fn summary(found: &Detection) -> Summary {
    let text = !found.binary && found.ebcdic.is_none();
    (found.charset.name(), f64::from(found.confidence), found.language, found.ascii, text)
}

/// The canonical name of the charset `label` names.
fn charset(label: &str) -> PyResult<Charset> {
    charsight::label::resolve(label.as_bytes()).map_err(|e| PyLookupError::new_err(e.to_string()))
}

fn errors(name: &str) -> PyResult<Errors> {
    match name {
        "replace" => Ok(Errors::Replace),
        "strict" => Ok(Errors::Strict),
        "escape" => Ok(Errors::Escape),
        _ => Err(PyValueError::new_err(format!(
            "errors must be 'replace', 'strict' or 'escape', not {name:?}"
        ))),
    }
}

/// The caller's context for the engine: a dict with these keys, made by
/// the Python layer from its keyword arguments.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Context {
    content_type: Option<String>,
    default: Option<String>,
    force: Option<String>,
    policy: String,
    tld: Option<String>,
    lang: Option<String>,
}

/// An engine with the caller's context. Labels given by the caller must
/// name a charset.
fn engine(context: Context) -> PyResult<Engine> {
    let Context { content_type, default, force, policy, tld, lang } = context;
    let policy = [Policy::Verify, Policy::Whatwg, Policy::Detect]
        .into_iter()
        .find(|p| p.name() == policy)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "policy must be 'verify', 'whatwg' or 'detect', not {policy:?}"
            ))
        })?;
    let mut engine = Engine::new().policy(policy);
    if let Some(content_type) = content_type {
        engine = engine.content_type(content_type);
    }
    if let Some(label) = default {
        engine = engine.default_encoding(charset(&label)?);
    }
    if let Some(label) = force {
        engine = engine.force_encoding(charset(&label)?);
    }
    if let Some(tld) = tld {
        engine = engine.tld(tld);
    }
    if let Some(lang) = lang {
        engine = engine.language(lang);
    }
    Ok(engine)
}

/// The JSON report of `found`, the detection of `data`, as the CLI writes it
/// (`version` first, then the library's report; no path).
fn report(found: &Detection, data: &[u8]) -> PyResult<String> {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        version: u32,
        #[serde(flatten)]
        detection: charsight::DetectionReport<'a>,
    }
    let mut tags = charsight::sniff::TagScan::default();
    tags.scan(data);
    let line = Line { version: charsight::REPORT_VERSION, detection: found.report(tags.seen()) };
    serde_json::to_string(&line).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn decode_error(py: Python<'_>, charset: Charset, data: &[u8], offset: u64, len: usize) -> PyErr {
    let start = usize::try_from(offset).unwrap_or(data.len());
    let reason = format!("malformed {} sequence", charset.name());
    PyUnicodeDecodeError::new_err((
        charset.name(),
        PyBytes::new(py, data).unbind(),
        start,
        (start + len.max(1)).min(data.len()),
        reason,
    ))
}

/// The decision on `data` alone: (charset, confidence, language, ascii, text).
#[pyfunction]
fn detect(py: Python<'_>, data: &[u8]) -> Summary {
    py.allow_threads(|| summary(&ENGINE.detect(data)))
}

/// The decision, then every other reading the detector did not rule out,
/// ranked: (charset, confidence, language) each.
#[pyfunction]
fn detect_all(py: Python<'_>, data: &[u8]) -> (Summary, Vec<Reading>) {
    py.allow_threads(|| {
        let found = ENGINE.detect(data);
        let others = found
            .detected
            .candidates
            .iter()
            .filter(|r| r.charset != found.charset)
            .map(|r| (r.charset.name(), f64::from(r.confidence), r.language))
            .collect();
        (summary(&found), others)
    })
}

/// The full decision as the JSON report (the CLI's `detect --format jsonl`
/// fields).
#[pyfunction]
fn analyze(py: Python<'_>, data: &[u8], context: Context) -> PyResult<String> {
    let engine = engine(context)?;
    let found = py.allow_threads(|| engine.detect(data));
    report(&found, data)
}

/// The JSON objects of a WARC file's records, and the offset and reason of
/// each corrupt one.
type WarcRecords = (Vec<String>, Vec<(u64, String)>);

/// The diagnosis of `data` in words, as `charsight explain` writes it:
/// plain text, no name in its first line, `limit` problems, font scopes
/// and repairs listed at most each.
#[pyfunction]
fn explain(py: Python<'_>, data: &[u8], limit: usize, context: Context) -> PyResult<String> {
    let engine = engine(context)?;
    Ok(py.allow_threads(|| {
        charsight::explain::explain(&engine, data).render(None, limit, Styling::Plain)
    }))
}

/// The records of a WARC file, given as its bytes, read and analysed as
/// `charsight warc` does (the same reader and analysis): one JSON object
/// per record that was analysed or reported (`path` names the file), and
/// the offset and reason of each corrupt record.
#[pyfunction]
fn analyze_warc(
    py: Python<'_>,
    data: &[u8],
    path: &str,
    context: Context,
) -> PyResult<WarcRecords> {
    use charsight_warc::reader::{ReadError, Records};
    let engine = engine(context)?;
    py.allow_threads(|| {
        let (mut lines, mut corrupt) = (Vec::new(), Vec::new());
        for item in Records::new(data) {
            match item {
                Ok(record) => {
                    if let Some(analysis) = charsight_warc::analyze(&record, &engine) {
                        let line = serde_json::to_string(&analysis.line(path))
                            .map_err(|e| PyValueError::new_err(e.to_string()))?;
                        lines.push(line);
                    }
                }
                Err(ReadError::Corrupt(c)) => corrupt.push((c.offset, c.reason)),
                Err(ReadError::Io(e)) => return Err(PyValueError::new_err(e.to_string())),
            }
        }
        Ok((lines, corrupt))
    })
}

/// The text of `data` (without a BOM) in the decided charset, and the report.
#[pyfunction]
fn decode(
    py: Python<'_>,
    data: &[u8],
    errors: &str,
    context: Context,
) -> PyResult<(String, String)> {
    let errors = self::errors(errors)?;
    let engine = engine(context)?;
    let (found, text) = py.allow_threads(|| {
        let found = engine.detect(data);
        let mut decoder = TextDecoder::new(found.charset, errors).skip(found.bom_len as u64);
        let mut text = String::with_capacity(data.len());
        let result = decoder.decode(data, true, &mut text).map(|()| text);
        (found, result)
    });
    match text {
        Ok(text) => Ok((text, report(&found, data)?)),
        Err(e) => Err(decode_error(py, found.charset, data, e.offset(), e.bytes().len())),
    }
}

/// The text of `data` decoded and repaired (mojibake, stray bytes,
/// references, fonts, private use: every kind in `kinds`), the report, and
/// the findings as JSON.
#[pyfunction]
fn repair(
    py: Python<'_>,
    data: &[u8],
    kinds: &str,
    errors: &str,
    context: Context,
) -> PyResult<(String, String, String)> {
    let kinds: RepairPolicy = kinds
        .parse()
        .map_err(|e: charsight::repair::PolicyError| PyValueError::new_err(e.to_string()))?;
    let errors = self::errors(errors)?;
    let engine = engine(context)?;
    let (found, result) = py.allow_threads(|| {
        let found = engine.detect(data);
        let mut repairer = Repairer::for_detection(&found, kinds, errors, Charset::Utf8);
        let mut text = String::with_capacity(data.len());
        let result = repairer.repair(data, true, &mut text).map(|()| (text, repairer));
        (found, result)
    });
    match result {
        Ok((text, repairer)) => {
            let findings = serde_json::to_string(&repairer.findings().list)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok((text, report(&found, data)?, findings))
        }
        Err(e) => Err(decode_error(py, found.charset, data, e.offset(), e.bytes().len())),
    }
}

/// One URL decoded component by component: the ASCII form, or with `iri`
/// the readable one.
#[pyfunction]
#[pyo3(signature = (url, iri=false, tld=None))]
fn fix_url(py: Python<'_>, url: &[u8], iri: bool, tld: Option<&str>) -> String {
    py.allow_threads(|| {
        let mut decoder = UrlDecoder::new();
        if let Some(tld) = tld {
            decoder = decoder.tld(tld);
        }
        let decoded = decoder.decode(url);
        if iri {
            decoded.iri
        } else {
            decoded.url
        }
    })
}

/// The canonical name of every charset charsight can return.
#[pyfunction]
fn charsets() -> Vec<&'static str> {
    Charset::ALL.iter().map(|c| c.name()).collect()
}

/// The canonical name of the charset a label names (`LookupError` if none).
#[pyfunction]
fn resolve(label: &str) -> PyResult<&'static str> {
    charset(label).map(Charset::name)
}

/// Encodes `text` in a charset; unmappable characters fail, or with
/// `references` become decimal character references.
#[pyfunction]
fn encode(py: Python<'_>, text: &str, label: &str, references: bool) -> PyResult<Vec<u8>> {
    let charset = charset(label)?;
    let on_unmappable = if references { OnUnmappable::Reference } else { OnUnmappable::Fail };
    let mut out = Vec::with_capacity(text.len());
    let result =
        py.allow_threads(|| TextEncoder::new(charset, on_unmappable).encode(text, true, &mut out));
    result.map(|()| out).map_err(|e| encode_error(py, charset, text, &e))
}

fn encode_error(py: Python<'_>, charset: Charset, text: &str, e: &EncodeError) -> PyErr {
    let at = usize::try_from(e.offset()).unwrap_or(text.len()).min(text.len());
    let start = text.get(..at).map_or(0, |t| t.chars().count());
    PyUnicodeEncodeError::new_err((
        charset.name(),
        PyString::new(py, text).unbind(),
        start,
        start + 1,
        format!("{:?} has no {} form", e.character(), charset.name()),
    ))
}

/// A streaming decoder of one charset, for incremental decoding (the
/// registered codecs' `IncrementalDecoder`).
#[pyclass(module = "charsight._charsight")]
struct StreamDecoder {
    charset: Charset,
    errors: Errors,
    decoder: TextDecoder,
    /// Bytes fed so far, for the offsets of strict errors.
    position: u64,
}

#[pymethods]
impl StreamDecoder {
    #[new]
    fn new(label: &str, errors: &str) -> PyResult<StreamDecoder> {
        let charset = charset(label)?;
        let errors = self::errors(errors)?;
        Ok(StreamDecoder {
            charset,
            errors,
            decoder: TextDecoder::new(charset, errors),
            position: 0,
        })
    }

    /// Decodes the next chunk; `last` ends the input.
    fn decode(&mut self, py: Python<'_>, data: &[u8], last: bool) -> PyResult<String> {
        let mut text = String::with_capacity(data.len());
        let decoder = &mut self.decoder;
        let result = py.allow_threads(|| decoder.decode(data, last, &mut text));
        let start = self.position;
        self.position += data.len() as u64;
        match result {
            Ok(()) => Ok(text),
            Err(e) => {
                let charset = self.charset;
                self.reset();
                let offset = e.offset().saturating_sub(start);
                Err(decode_error(py, charset, data, offset, e.bytes().len()))
            }
        }
    }

    /// Starts over, as for a new input.
    fn reset(&mut self) {
        self.decoder = TextDecoder::new(self.charset, self.errors);
        self.position = 0;
    }
}

/// A streaming detection on the engine without context (`UniversalDetector`).
#[pyclass(module = "charsight._charsight")]
struct Stream {
    session: Option<Session<'static>>,
}

#[pymethods]
impl Stream {
    #[new]
    fn new() -> Stream {
        Stream { session: Some(ENGINE.session()) }
    }

    /// Feeds the next chunk (ignored once finished).
    fn feed(&mut self, py: Python<'_>, data: &[u8]) {
        if let Some(session) = &mut self.session {
            py.allow_threads(|| session.feed(data));
        }
    }

    /// Whether more bytes could change the decision.
    fn wants_more(&self) -> bool {
        self.session.as_ref().is_some_and(Session::wants_more)
    }

    /// The decision on what was fed; `None` once finished.
    fn finish(&mut self, py: Python<'_>) -> Option<Summary> {
        let session = self.session.take()?;
        Some(py.allow_threads(|| summary(&session.finish())))
    }
}

#[pymodule]
fn _charsight(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(detect_all, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_warc, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(fix_url, m)?)?;
    m.add_function(wrap_pyfunction!(charsets, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_class::<StreamDecoder>()?;
    m.add_class::<Stream>()?;
    Ok(())
}
