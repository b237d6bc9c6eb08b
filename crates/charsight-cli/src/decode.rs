//! `charsight decode`: one input to text, streamed in bounded memory, with a
//! JSON report.
//!
//! The decision is made on a prefix (as far as [`decide`] reads, the same
//! for every command); then the whole input is streamed through the
//! decoder. When the run must not write anything partial (`--errors
//! strict`, `--keep-encoding`), a first pass checks the whole input and a
//! second writes it, reading the input once: a regular file again through
//! the handle that read it, anything else from a copy spooled to a
//! temporary file. `-o OUT` is written as [`crate::output`] says.
//! Input that is not text (binary data) or is EBCDIC text is refused with
//! exit code 1, unless `--force-encoding` says how to decode it.

use std::fs;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use charsight::decode::{
    declaration_fixes, DecodeError, EncodeError, Errors, Fits, MalformedLog, OnUnmappable, Splice,
    TextEncoder,
};
use charsight::explain::{count, declaration_advice};
use charsight::repair::{Findings, RepairPolicy, Repairer};
use charsight::{Charset, Detection};

use crate::args::DecodeArgs;
use crate::batch;
use crate::input::{self, decide, read_some, Decided, Expanded, Input, Named, NamedReader, CHUNK};
use crate::json::{AfterDecision, DecodeReport, DetectLine, Output, Repairs};
use crate::output::write_output;
use crate::Status;

/// Runs `decode` (or `repair`, whose `repairs` default to all): one input
/// to standard output or `-o OUT`, or several (or a directory) into the
/// directory `-o DIR`, each under its file name (its path under a directory
/// given), `--jobs` at a time.
pub fn run(args: &DecodeArgs, repairs: RepairPolicy, stdout: &mut impl Write) -> Result<Status> {
    let report_to_stdout = args.report.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if report_to_stdout && args.output.is_none() {
        bail!("--report - writes the report to standard output: write the text to a file with -o");
    }
    let inputs = input::expand(&args.paths)?;
    if let ([Ok(named)], false) = (&inputs[..], args.paths.iter().any(|p| p.is_dir())) {
        let mut log = Vec::new();
        let done = one(args, repairs, &named.input, args.output.as_deref(), stdout, true, &mut log);
        log.iter().for_each(|line| eprintln!("{line}"));
        let (status, report) = done?;
        if let (Some(report), Some(path)) = (report, &args.report) {
            if report_to_stdout {
                writeln!(stdout, "{report}")?;
            } else {
                fs::write(path, report + "\n").with_context(|| format!("{}", path.display()))?;
            }
        }
        return Ok(status);
    }
    let dir = args
        .output
        .as_deref()
        .filter(|p| p.as_os_str() != "-")
        .context("several inputs: give -o DIR, the directory to write each one's text into")?;
    fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    let jobs = targets(&inputs, dir);
    let report_name = || args.report.as_deref().map_or(String::new(), |p| p.display().to_string());
    let mut reports: Option<Box<dyn Write + '_>> = match &args.report {
        None => None,
        Some(_) if report_to_stdout => Some(Box::new(&mut *stdout)),
        Some(path) => Some(Box::new(io::BufWriter::new(
            File::create(path).with_context(|| format!("{}", path.display()))?,
        ))),
    };
    let work = |(input, target): &(&Expanded, Result<PathBuf, String>)| {
        let mut log = Vec::new();
        let done = match (input, target) {
            (Err((path, err)), _) => Err(anyhow::anyhow!("{}: {err}", path.display())),
            (_, Err(why)) => Err(anyhow::anyhow!("{why}")),
            (Ok(named), Ok(target)) => target
                .parent()
                .map_or(Ok(()), fs::create_dir_all)
                .with_context(|| format!("{}", target.display()))
                .and_then(|()| {
                    one(args, repairs, &named.input, Some(target), &mut io::sink(), false, &mut log)
                }),
        };
        (log, done)
    };
    let mut status = Status::Success;
    batch::run(&jobs, args.jobs.jobs(), work, |(log, done)| {
        log.iter().for_each(|line| eprintln!("{line}"));
        match done {
            Ok((done, report)) => {
                status = status.max(done);
                if let (Some(sink), Some(report)) = (reports.as_mut(), report) {
                    writeln!(sink, "{report}").with_context(report_name)?;
                }
            }
            Err(err) => {
                eprintln!("charsight: {err:#}");
                status = Status::Errors;
            }
        }
        Ok(())
    })?;
    if let Some(sink) = reports.as_mut() {
        sink.flush().with_context(report_name)?;
    }
    Ok(status)
}

/// Each input with the file its text goes to under `dir`, or why it has
/// none: standard input has no name, and two inputs of one name would
/// overwrite each other.
fn targets<'a>(inputs: &'a [Expanded], dir: &Path) -> Vec<(&'a Expanded, Result<PathBuf, String>)> {
    let mut taken = std::collections::HashSet::new();
    inputs
        .iter()
        .map(|input| {
            let target = match input {
                Ok(Named { input: Input::Stdin, .. }) => {
                    Err("-: standard input cannot be one of several inputs".to_owned())
                }
                Ok(Named { input: Input::File(path), name }) if !taken.insert(name.clone()) => {
                    Err(format!(
                        "{}: not written: an earlier input's text went to {}",
                        path.display(),
                        dir.join(name).display()
                    ))
                }
                Ok(named) => Ok(dir.join(&named.name)),
                Err(_) => Ok(PathBuf::new()),
            };
            (input, target)
        })
        .collect()
}

/// Decodes `input` into `output` (standard output when `None`), leaving
/// its messages in `log`; the status and the report, when one is asked for
/// (pretty or on one line).
fn one(
    args: &DecodeArgs,
    repairs: RepairPolicy,
    input: &Input,
    output: Option<&Path>,
    stdout: &mut dyn Write,
    pretty: bool,
    log: &mut Vec<String>,
) -> Result<(Status, Option<String>)> {
    let name = input.name().to_path_buf();
    let engine = args.engine.engine();
    let Decided { mut detections, seen, reader, rewind } =
        decide(input, std::slice::from_ref(&engine), true)
            .with_context(|| format!("{}", name.display()))?;
    let detection = detections.remove(0);
    if let Some(what) = detection.undecodable() {
        log.push(format!(
            "charsight: {}: {what}: not decoded (give --force-encoding to decode it anyway)",
            name.display()
        ));
        return Ok((Status::Negative, None));
    }
    let plan = Plan::new(args, args.repair.unwrap_or(repairs), &detection, seen.bytes)
        .with_context(|| format!("{}", name.display()))?;

    let (outcome, failure) = if args.errors == crate::args::ErrorsArg::Strict || args.keep_encoding
    {
        // First pass: check everything, write nothing. The input is read
        // once: a regular file again through the handle that read it, any
        // other input (a pipe, a FIFO) from a copy spooled on the way.
        let context = || format!("{}", name.display());
        let (mut again, mut spool) = match rewind {
            Some(file) => (file, None),
            None => {
                let spool = tempfile::tempfile()
                    .and_then(|spool| Ok((spool.try_clone()?, Some(spool))))
                    .with_context(|| format!("{}: a temporary file to spool it", name.display()))?;
                spool
            }
        };
        let tee = Tee { reader, copy: spool.as_mut() };
        let checked = transcode(&plan, tee, io::sink()).with_context(context)?;
        if checked.1.is_some() {
            checked
        } else {
            again.seek(SeekFrom::Start(0)).with_context(context)?;
            let again = NamedReader { reader: again, name: &name };
            write_output(output, stdout, |w| transcode(&plan, again, w), |r| r.1.is_none())?
        }
    } else {
        let reader = NamedReader { reader, name: &name };
        write_output(output, stdout, |w| transcode(&plan, reader, w), |r| r.1.is_none())?
    };
    let error = failure.map(|f| f.to_string());

    if outcome.after.malformed > 0 {
        log.push(format!(
            "charsight: {}: {} past the first {} that decided {}",
            name.display(),
            count(outcome.after.malformed, "malformed sequence"),
            count(outcome.after.decided_on_bytes, "byte"),
            detection.charset
        ));
    }
    let findings = &outcome.findings;
    if findings.total() > 0 {
        let counts: Vec<String> = findings.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        log.push(format!(
            "charsight: {}: {}: {}",
            name.display(),
            count(findings.total(), "finding"),
            counts.join(", ")
        ));
    }
    if findings.possible > 0 {
        log.push(format!(
            "charsight: {}: {} short of its margin, not made (`charsight explain` lists them)",
            name.display(),
            count(findings.possible, "possible repair"),
        ));
    }
    let advice = plan.stale.and_then(|d| declaration_advice(d, plan.output, outcome.keep_fits));
    if let (Some(declared), Some(advice), None) = (plan.stale, advice, &error) {
        log.push(format!(
            "charsight: {}: the document declares {declared} in itself, but the output is {}: \
             {advice}",
            name.display(),
            plan.output,
        ));
    }
    let report = args.report.as_ref().map(|_| DecodeReport {
        detection: DetectLine::new(&name, &detection, seen),
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
            possible: findings.possible,
            findings: &findings.list,
            truncated: findings.truncated,
        },
        error: error.clone(),
    });
    let report = report
        .map(|r| if pretty { serde_json::to_string_pretty(&r) } else { serde_json::to_string(&r) })
        .transpose()?;
    match error {
        Some(error) => {
            log.push(format!("charsight: {}: {error}", name.display()));
            Ok((Status::Negative, report))
        }
        None => Ok((Status::Success, report)),
    }
}

/// What to decode with and how to write it.
struct Plan {
    detection: Detection,
    repairs: RepairPolicy,
    output: Charset,
    errors: Errors,
    unmappable: OnUnmappable,
    splices: Vec<Splice>,
    /// How many leading bytes the decision read.
    decided_on: u64,
    /// What the document's own declaration names, when it will not name
    /// the output's encoding and nothing was asked to fix that.
    stale: Option<Charset>,
}

impl Plan {
    fn new(
        args: &DecodeArgs,
        repairs: RepairPolicy,
        detection: &Detection,
        decided_on: u64,
    ) -> Result<Plan> {
        let output = match (args.to, args.keep_encoding) {
            (Some(to), _) => to,
            (None, true) => detection.document_charset().context(
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
        let fixes = declaration_fixes(detection, output);
        let stale = detection
            .document_charset()
            .filter(|_| !fixes.is_empty() && !args.fix_declaration && !args.keep_encoding);
        let splices = if args.fix_declaration { fixes } else { Vec::new() };
        let mut detection = detection.clone();
        if errors == Errors::Escape {
            // Nothing is dropped: a byte order mark stays in the text, so
            // that it is written back (and none is added: see `transcode`).
            detection.bom_len = 0;
        }
        Ok(Plan { detection, repairs, output, errors, unmappable, splices, decided_on, stale })
    }

    /// A decoder for the input that makes the repairs asked for.
    fn decoder(&self) -> Repairer {
        Repairer::for_detection(&self.detection, self.repairs, self.errors, self.output)
            .with_splices(self.splices.clone())
    }
}

/// What a run met.
#[derive(Default)]
struct Outcome {
    malformed: MalformedLog,
    after: AfterDecision,
    bytes_in: u64,
    escape_collisions: u64,
    findings: Findings,
    /// Whether the text can be written in the encoding the document
    /// declares (checked only when the declaration is stale).
    keep_fits: bool,
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

/// Decodes `input` (the whole input, from its first byte) and writes the
/// text, encoded, to `sink`.
fn transcode(plan: &Plan, mut input: impl Read, mut sink: impl Write) -> io::Result<Transcoded> {
    let mut pipe = Pipe::new(plan);
    let mut outcome = Outcome::default();
    let escape = plan.errors == Errors::Escape;
    if let Some(bom) = plan.output.bom().filter(|_| plan.output != Charset::Utf8 && !escape) {
        sink.write_all(bom)?;
    }
    outcome.after.decided_on_bytes = plan.decided_on;
    let mut buf = vec![0; CHUNK];
    loop {
        let n = read_some(&mut input, &mut buf)?;
        outcome.bytes_in += n as u64;
        if let Some(fail) = pipe.step(&buf[..n], n == 0, &mut sink)? {
            sink.flush()?;
            return Ok((pipe.outcome(outcome), Some(fail)));
        }
        if n == 0 {
            break;
        }
    }
    sink.flush()?;
    Ok((pipe.outcome(outcome), None))
}

/// A decoder and an encoder joined by reused buffers.
struct Pipe {
    decoder: Repairer,
    encoder: TextEncoder,
    text: String,
    bytes: Vec<u8>,
    fits: Fits,
}

impl Pipe {
    /// A pipe for `plan`.
    fn new(plan: &Plan) -> Pipe {
        let decoder = plan.decoder().count_malformed_past(plan.decided_on);
        // Escapes are written back as their bytes in every encoding but
        // UTF-8, the text form that carries them.
        let raw_escapes = plan.errors == Errors::Escape && plan.output != Charset::Utf8;
        let encoder = TextEncoder::new(plan.output, plan.unmappable).raw_escapes(raw_escapes);
        let fits = Fits::new(plan.stale);
        Pipe { decoder, encoder, text: String::new(), bytes: Vec::new(), fits }
    }

    /// `outcome` completed with what the decoder met.
    fn outcome(&self, mut outcome: Outcome) -> Outcome {
        outcome.malformed = self.decoder.malformed().clone();
        outcome.escape_collisions = self.decoder.escape_collisions();
        outcome.findings = self.decoder.findings().clone();
        outcome.keep_fits = self.fits.fits();
        outcome.after.malformed = outcome.malformed.past().unwrap_or(0);
        outcome.after.first_offset = outcome
            .malformed
            .ranges
            .iter()
            .map(|r| r.offset)
            .find(|&o| o >= outcome.after.decided_on_bytes);
        outcome
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
        self.fits.check(&self.text, last);
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
