//! `charsight decode`: one input to text, streamed in bounded memory, with a
//! JSON report.
//!
//! The decision is made on a prefix (at most [`DECIDE_LIMIT`] bytes, less
//! when the engine is sure sooner); the rest is streamed through the same
//! decoder. When the run must not write anything partial (`--errors
//! strict`, `--keep-encoding`), a first pass checks the whole input and a
//! second writes it; standard input is spooled to a temporary file between
//! them. `-o OUT` is written to a temporary file beside OUT and renamed.
//! Input that is not text (binary data) or is EBCDIC text is refused with
//! exit code 1, unless `--force-encoding` says how to decode it.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use charsight::decode::{
    declaration_fixes, DecodeError, EncodeError, Errors, MalformedLog, OnUnmappable, Splice,
    TextEncoder,
};
use charsight::repair::{Findings, RepairPolicy, Repairer};
use charsight::{Charset, Detection, Engine, Source};

use crate::args::DecodeArgs;
use crate::input::{read_some, Input};
use crate::json::{AfterDecision, DecodeReport, DetectLine, Output, Repairs};
use crate::Status;

/// The decision reads at most this many bytes.
const DECIDE_LIMIT: usize = 1 << 20;
const CHUNK: usize = 64 * 1024;

/// Runs `decode` (or `repair`, whose `repairs` default to all).
pub fn run(args: &DecodeArgs, repairs: RepairPolicy, stdout: &mut impl Write) -> Result<Status> {
    let input = match &args.path {
        Some(path) if path.as_os_str() != "-" => Input::File(path.clone()),
        _ => Input::Stdin,
    };
    let report_to_stdout = args.report.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if report_to_stdout && args.output.is_none() {
        bail!("--report - writes the report to standard output: write the text to a file with -o");
    }
    let name = input.name().to_path_buf();
    let Decided { reader, head, detection } = decide(&input, &args.engine.engine())?;
    if let Some(what) = undecodable(&detection) {
        eprintln!(
            "charsight: {}: {what}: not decoded (give --force-encoding to decode it anyway)",
            name.display()
        );
        return Ok(Status::Negative);
    }
    let plan = Plan::new(args, args.repair.unwrap_or(repairs), &detection)?;

    let (outcome, failure) = if args.errors == crate::args::ErrorsArg::Strict || args.keep_encoding
    {
        // First pass: check everything, write nothing.
        let mut spool = matches!(input, Input::Stdin).then(tempfile::tempfile).transpose()?;
        let tee = Tee { reader, copy: spool.as_mut() };
        let checked = transcode(&plan, &head, tee, io::sink())
            .with_context(|| format!("{}", name.display()))?;
        if checked.1.is_some() {
            checked
        } else {
            let rest: Box<dyn Read> = match (&input, spool) {
                (_, Some(mut spool)) => {
                    spool.seek(SeekFrom::Start(0))?;
                    Box::new(spool)
                }
                (Input::File(path), None) => {
                    let mut file = File::open(path)?;
                    file.seek(SeekFrom::Start(head.len() as u64))?;
                    Box::new(file)
                }
                (Input::Stdin, None) => Box::new(io::empty()),
            };
            write_output(args.output.as_deref(), stdout, |w| transcode(&plan, &head, rest, w))?
        }
    } else {
        write_output(args.output.as_deref(), stdout, |w| transcode(&plan, &head, reader, w))?
    };
    let error = failure.map(|f| f.to_string());

    if outcome.after.malformed > 0 {
        eprintln!(
            "charsight: {}: {} malformed sequence(s) past the first {} bytes that decided {}",
            name.display(),
            outcome.after.malformed,
            outcome.after.decided_on_bytes,
            detection.charset
        );
    }
    let findings = &outcome.findings;
    if findings.total() > 0 {
        let counts: Vec<String> = findings.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!(
            "charsight: {}: {} finding(s): {}",
            name.display(),
            findings.total(),
            counts.join(", ")
        );
    }
    if let Some(path) = &args.report {
        let report = DecodeReport {
            detection: DetectLine::new(&name, &detection),
            output: Output {
                encoding: plan.output,
                errors: plan.errors,
                declarations_rewritten: &plan.splices,
            },
            malformed: &outcome.malformed,
            after_decision: AfterDecision { ..outcome.after },
            bytes_in: outcome.bytes_in,
            escape_collisions: outcome.escape_collisions,
            repairs: Repairs {
                policy: plan.repairs.to_string(),
                counts: &findings.counts,
                findings: &findings.list,
                truncated: findings.truncated,
            },
            error: error.clone(),
        };
        if report_to_stdout {
            serde_json::to_writer_pretty(&mut *stdout, &report)?;
            writeln!(stdout)?;
        } else {
            let file = File::create(path).with_context(|| format!("{}", path.display()))?;
            serde_json::to_writer_pretty(io::BufWriter::new(file), &report)?;
        }
    }
    match error {
        Some(error) => {
            eprintln!("charsight: {}: {error}", name.display());
            Ok(Status::Negative)
        }
        None => Ok(Status::Success),
    }
}

/// Why the detected input is not text to decode, unless its encoding was
/// forced: binary data, or EBCDIC text (which charsight does not decode).
fn undecodable(detection: &Detection) -> Option<String> {
    if detection.source == Source::Forced || detection.charset.is_ebcdic() {
        return None;
    }
    match detection.ebcdic {
        Some(ebcdic) => Some(format!("{} text", ebcdic.name())),
        None => detection.binary.then(|| "binary data, not text".to_owned()),
    }
}

/// The input, read as far as the decision needed.
pub struct Decided {
    /// The rest of the input.
    pub reader: Box<dyn Read>,
    /// The bytes read.
    pub head: Vec<u8>,
    pub detection: Detection,
}

/// Reads `input` until the engine has decided (or [`DECIDE_LIMIT`] bytes).
pub fn decide(input: &Input, engine: &Engine) -> Result<Decided> {
    let name = input.name();
    let mut reader = input.open().with_context(|| format!("{}", name.display()))?;
    let mut head = Vec::new();
    let mut buf = vec![0; CHUNK];
    let mut session = engine.session();
    while head.len() < DECIDE_LIMIT && session.wants_more() {
        let n = read_some(&mut reader, &mut buf).with_context(|| format!("{}", name.display()))?;
        if n == 0 {
            reader = Box::new(io::empty());
            break;
        }
        session.feed(&buf[..n]);
        head.extend_from_slice(&buf[..n]);
    }
    Ok(Decided { reader, head, detection: session.finish() })
}

/// What to decode with and how to write it.
struct Plan {
    detection: Detection,
    repairs: RepairPolicy,
    output: Charset,
    errors: Errors,
    unmappable: OnUnmappable,
    splices: Vec<Splice>,
}

impl Plan {
    fn new(args: &DecodeArgs, repairs: RepairPolicy, detection: &Detection) -> Result<Plan> {
        let output = match (args.to, args.keep_encoding) {
            (Some(to), _) => to,
            (None, true) => declared_in_document(detection).context(
                "--keep-encoding: the document declares no encoding of its own; use --to",
            )?,
            (None, false) => Charset::Utf8,
        };
        if output == Charset::Replacement {
            bail!("the document declares 'replacement', which has no encoder; use --to");
        }
        let errors = Errors::from(args.errors);
        let unmappable = if errors == Errors::Strict || args.keep_encoding {
            OnUnmappable::Fail
        } else {
            OnUnmappable::Reference
        };
        let splices =
            if args.fix_declaration { declaration_fixes(detection, output) } else { Vec::new() };
        Ok(Plan { detection: detection.clone(), repairs, output, errors, unmappable, splices })
    }

    /// A decoder for the input that makes the repairs asked for.
    fn decoder(&self) -> Repairer {
        Repairer::for_detection(&self.detection, self.repairs, self.errors, self.output)
            .with_splices(self.splices.clone())
    }
}

/// The charset the document's own first usable declaration names.
fn declared_in_document(detection: &Detection) -> Option<Charset> {
    detection
        .evidence
        .iter()
        .filter(|e| matches!(e.source, Source::Meta | Source::Xml))
        .find_map(|e| e.usable())
}

/// What a run met.
#[derive(Default)]
struct Outcome {
    malformed: MalformedLog,
    after: AfterDecision,
    bytes_in: u64,
    escape_collisions: u64,
    findings: Findings,
}

enum DataFailure {
    Decode(DecodeError),
    Encode(EncodeError),
}

impl std::fmt::Display for DataFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataFailure::Decode(e) => e.fmt(f),
            DataFailure::Encode(e) => e.fmt(f),
        }
    }
}

/// What a run gave: what it met, and the data failure that stopped it.
type Transcoded = (Outcome, Option<DataFailure>);

/// Decodes `head` then `rest` and writes the text, encoded, to `sink`.
fn transcode(
    plan: &Plan,
    head: &[u8],
    mut rest: impl Read,
    mut sink: impl Write,
) -> io::Result<Transcoded> {
    let mut pipe = Pipe::new(plan, head.len() as u64);
    let mut outcome = Outcome::default();
    if let Some(bom) = plan.output.bom().filter(|_| plan.output != Charset::Utf8) {
        sink.write_all(bom)?;
    }
    outcome.bytes_in += head.len() as u64;
    let mut fail = pipe.step(head, false, &mut sink)?;
    outcome.after.decided_on_bytes = head.len() as u64;
    let mut buf = vec![0; CHUNK];
    while fail.is_none() {
        let n = read_some(&mut rest, &mut buf)?;
        outcome.bytes_in += n as u64;
        fail = pipe.step(&buf[..n], n == 0, &mut sink)?;
        if n == 0 {
            break;
        }
    }
    sink.flush()?;
    outcome.malformed = pipe.decoder.malformed().clone();
    outcome.escape_collisions = pipe.decoder.escape_collisions();
    outcome.findings = pipe.decoder.findings().clone();
    outcome.after.malformed = outcome.malformed.past().unwrap_or(0);
    outcome.after.first_offset =
        outcome.malformed.ranges.iter().map(|r| r.offset).find(|&o| o >= head.len() as u64);
    Ok((outcome, fail))
}

/// A decoder and an encoder joined by reused buffers.
struct Pipe {
    decoder: Repairer,
    encoder: TextEncoder,
    text: String,
    bytes: Vec<u8>,
}

impl Pipe {
    /// A pipe for `plan` whose input's first `decided_on` bytes decided it.
    fn new(plan: &Plan, decided_on: u64) -> Pipe {
        let decoder = plan.decoder().count_malformed_past(decided_on);
        let raw_escapes = plan.errors == Errors::Escape && !plan.output.is_unicode();
        let encoder = TextEncoder::new(plan.output, plan.unmappable).raw_escapes(raw_escapes);
        Pipe { decoder, encoder, text: String::new(), bytes: Vec::new() }
    }

    /// Passes one chunk through; the data failure that stops the run, if any.
    fn step(
        &mut self,
        chunk: &[u8],
        last: bool,
        sink: &mut impl Write,
    ) -> io::Result<Option<DataFailure>> {
        let decoded = self.decoder.repair(chunk, last, &mut self.text);
        let encoded = self.encoder.encode(&self.text, last, &mut self.bytes);
        sink.write_all(&self.bytes)?;
        self.text.clear();
        self.bytes.clear();
        Ok(match (decoded, encoded) {
            (Err(e), _) => Some(DataFailure::Decode(e)),
            (_, Err(e)) => Some(DataFailure::Encode(e)),
            _ => None,
        })
    }
}

/// Runs `write` into standard output, or into `path`. A regular file (or a
/// path that does not exist yet) is written through a temporary file beside
/// it that replaces it only if the run succeeds; a symbolic link is followed
/// so that its target, not the link, is replaced. Anything else (a device
/// such as `/dev/null`, a FIFO) cannot be replaced and is written directly.
fn write_output(
    path: Option<&Path>,
    stdout: &mut impl Write,
    write: impl FnOnce(&mut dyn Write) -> io::Result<Transcoded>,
) -> Result<Transcoded> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return write(stdout).context("standard output");
    };
    let context = || format!("{}", path.display());
    let target = match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            let file = std::fs::OpenOptions::new().write(true).open(path).with_context(context)?;
            let mut w = io::BufWriter::new(file);
            return write(&mut w).and_then(|r| w.flush().map(|_| r)).with_context(context);
        }
        Ok(_) => std::fs::canonicalize(path).with_context(context)?,
        Err(_) => path.to_path_buf(),
    };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir).with_context(context)?;
    let mut w = io::BufWriter::new(file.as_file_mut());
    let result = write(&mut w).and_then(|r| w.flush().map(|_| r));
    drop(w);
    let result = result.with_context(context)?;
    if result.1.is_none() {
        file.persist(&target).with_context(context)?;
    }
    Ok(result)
}

/// A reader that copies what it reads into a file, if it has one.
struct Tee<'a, R> {
    reader: R,
    copy: Option<&'a mut File>,
}

impl<R: Read> Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.reader.read(buf)?;
        if let Some(copy) = &mut self.copy {
            copy.write_all(&buf[..n])?;
        }
        Ok(n)
    }
}
