//! `charsight warc`: the documents in web archives. Each WARC file is read
//! record by record in bounded memory (`charsight_warc::reader`); each
//! `response` (and text `resource`) is analysed with its HTTP
//! `Content-Type` as evidence, `--jobs` records at a time, and reported in
//! file order: one JSON object per record (`charsight_warc::Line`), or a
//! readable line. `--emit` writes a WARC of `conversion` records holding
//! each document as UTF-8, declarations fixed and repairs made.
//!
//! A corrupt record is reported on standard error with its offset and
//! skipped; the file goes on. Exit code 0 when every record was read, 1
//! when some were corrupt, 2 when an input could not be read.

use std::fs::{self, File};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use charsight::decode::{declaration_fixes, Errors};
use charsight::repair::{RepairPolicy, Repairer};
use charsight::{Charset, Engine};
use charsight_warc::reader::{ReadError, Record, Records};
use charsight_warc::{analyze, write_conversion, Analysis, Conversion, Outcome, Summary};
use flate2::write::GzEncoder;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::args::{Format, WarcArgs};
use crate::batch;
use crate::detect::write_text;
use crate::Status;

/// A batch of records read before they are analysed: this many, or
/// [`BATCH_BYTES`] of blocks, whichever comes first.
const BATCH_RECORDS: usize = 512;

/// The bytes of record blocks held at once, besides the one record that
/// may pass it.
const BATCH_BYTES: usize = 64 << 20;

/// Namespace of the conversion records' name-based (v5) UUIDs.
const CONVERSION_NAMESPACE: uuid::Uuid =
    uuid::Uuid::from_u128(0x1f0c_9d1e_5a3b_4c67_9b2e_c4a1_7d3f_8e05);

pub fn run(args: &WarcArgs, out: &mut impl Write) -> Result<Status> {
    let engine = args.engine.engine();
    let repairs = args.repair.unwrap_or(RepairPolicy::NONE);
    let emit_stdout = args.emit.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if let Some(dir) = args.emit.as_deref().filter(|_| !emit_stdout) {
        fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    let paths: Vec<PathBuf> =
        if args.paths.is_empty() { vec![PathBuf::from("-")] } else { args.paths.clone() };
    if paths.iter().any(|p| p.as_os_str() == "-") && io::stdin().is_terminal() {
        anyhow::bail!("no input: give one or more WARC FILEs, or '-' or a pipe for standard input");
    }
    let progress = progress();
    let mut total = Summary::default();
    let mut status = Status::Success;
    for path in &paths {
        let name = path.display().to_string();
        let input: Box<dyn Read + Send> = if path.as_os_str() == "-" {
            Box::new(io::stdin())
        } else {
            match File::open(path) {
                Ok(file) => Box::new(file),
                Err(err) => {
                    out.flush()?;
                    eprintln!("charsight: {name}: {err}");
                    status = Status::Errors;
                    continue;
                }
            }
        };
        let emit: Option<Box<dyn Write>> = match &args.emit {
            None => None,
            Some(_) if emit_stdout => None,
            Some(dir) => {
                let target = dir.join(emitted_name(path));
                let file =
                    File::create(&target).with_context(|| format!("{}", target.display()))?;
                Some(Box::new(io::BufWriter::new(file)))
            }
        };
        let mut sink = Sink { args, name: &name, out: &mut *out, emit, emit_stdout };
        let jobs = args.jobs.jobs();
        let (summary, failed) =
            one(Records::new(input), &engine, repairs, jobs, &progress, &mut sink)?;
        if let Some(emit) = sink.emit.as_mut() {
            emit.flush()?;
        }
        if summary.corrupt > 0 {
            status = status.max(Status::Negative);
        }
        if let Some(err) = failed {
            out.flush()?;
            eprintln!("charsight: {name}: {err}");
            status = Status::Errors;
        }
        total.add(&summary);
    }
    progress.finish_and_clear();
    out.flush()?;
    eprintln!("charsight: {total}");
    Ok(status)
}

/// Where one file's results go.
struct Sink<'a, W: Write> {
    args: &'a WarcArgs,
    name: &'a str,
    out: &'a mut W,
    /// The conversion records' file (`--emit DIR`).
    emit: Option<Box<dyn Write>>,
    /// The conversion records go to standard output (`--emit -`), instead
    /// of the report.
    emit_stdout: bool,
}

/// A record's result, made on a worker thread.
struct Done {
    warc_type: String,
    analysis: Option<Analysis>,
    /// The conversion record, ready to write (gzip-compressed for a
    /// directory).
    conversion: Option<Vec<u8>>,
}

/// Reads, analyses and reports one file's records; its summary, and the
/// input's read error that ended it early, if one did.
fn one<W: Write>(
    mut records: Records<Box<dyn Read + Send>>,
    engine: &Engine,
    repairs: RepairPolicy,
    jobs: usize,
    progress: &ProgressBar,
    sink: &mut Sink<'_, W>,
) -> Result<(Summary, Option<io::Error>)> {
    let mut summary = Summary::default();
    let mut failed = None;
    let gzip_out = sink.emit.is_some();
    let convert = sink.emit.is_some() || sink.emit_stdout;
    let work = |record: &Result<Record, charsight_warc::reader::Corrupt>| match record {
        Ok(record) => {
            let analysis = analyze(record, engine);
            let conversion = analysis
                .as_ref()
                .filter(|_| convert)
                .and_then(|a| conversion(a, repairs, gzip_out));
            Ok(Done { warc_type: record.warc_type(), analysis, conversion })
        }
        Err(corrupt) => Err(corrupt.clone()),
    };
    loop {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < BATCH_RECORDS && bytes < BATCH_BYTES {
            match records.next() {
                None => break,
                Some(Ok(record)) => {
                    bytes += record.block.len();
                    batch.push(Ok(record));
                }
                Some(Err(ReadError::Corrupt(corrupt))) => batch.push(Err(corrupt)),
                Some(Err(ReadError::Io(err))) => {
                    failed = Some(err);
                    break;
                }
            }
        }
        if batch.is_empty() {
            break;
        }
        batch::run_with(&batch, jobs, progress, work, |done| {
            match done {
                Ok(done) => {
                    summary.count(done.analysis.as_ref(), &done.warc_type);
                    if let Some(analysis) = &done.analysis {
                        sink.report(analysis)?;
                    }
                    if let Some(record) = &done.conversion {
                        match sink.emit.as_mut() {
                            Some(emit) => emit.write_all(record)?,
                            None => sink.out.write_all(record)?,
                        }
                    }
                }
                Err(corrupt) => {
                    summary.corrupt += 1;
                    sink.out.flush()?;
                    eprintln!("charsight: {}: {corrupt}", sink.name);
                }
            }
            Ok(())
        })?;
        if failed.is_some() {
            break;
        }
    }
    Ok((summary, failed))
}

impl<W: Write> Sink<'_, W> {
    /// Writes the report of one record (nothing with `--emit -`).
    fn report(&mut self, analysis: &Analysis) -> Result<()> {
        if self.emit_stdout {
            return Ok(());
        }
        let out = &mut *self.out;
        match self.args.format {
            Format::Jsonl => {
                serde_json::to_writer(&mut *out, &analysis.line(self.name))?;
                writeln!(out)?;
            }
            Format::Text => {
                let name = format!(
                    "{} [{}@{}]",
                    analysis.uri.as_deref().unwrap_or("-"),
                    self.name,
                    analysis.offset
                );
                match &analysis.outcome {
                    Outcome::Analysed { detection, body, .. } => {
                        write_text(out, &name, detection, body.is_empty(), None)?
                    }
                    Outcome::Media => writeln!(
                        out,
                        "{name}: binary ({}), not analysed",
                        analysis.content_type.as_deref().unwrap_or("")
                    )?,
                    Outcome::Failed(why) => writeln!(out, "{name}: not analysed: {why}")?,
                }
            }
        }
        Ok(())
    }
}

/// The `conversion` record of an analysed document: its text as UTF-8,
/// declarations rewritten to say so, repairs made as `repairs` allows (the
/// decoder and repairer `charsight decode` uses); `None` for a document
/// that is not text to decode (binary data, EBCDIC). Gzip-compressed as a
/// member of its own when `gzip`.
fn conversion(analysis: &Analysis, repairs: RepairPolicy, gzip: bool) -> Option<Vec<u8>> {
    let Outcome::Analysed { detection, body, .. } = &analysis.outcome else { return None };
    if detection.undecodable().is_some() {
        return None;
    }
    let splices = declaration_fixes(detection, Charset::Utf8);
    let mut repairer = Repairer::for_detection(detection, repairs, Errors::Replace, Charset::Utf8)
        .with_splices(splices);
    let mut text = String::new();
    repairer.repair(body, true, &mut text).ok()?;
    let refers_to = analysis.record_id.as_deref();
    let name = format!("{}{repairs}", refers_to.unwrap_or(""));
    let record_id =
        format!("<urn:uuid:{}>", uuid::Uuid::new_v5(&CONVERSION_NAMESPACE, name.as_bytes()));
    let essence = analysis
        .content_type
        .as_deref()
        .and_then(|t| charsight::sniff::http::parse(t.as_bytes()).essence)
        .unwrap_or_else(|| "text/plain".to_owned());
    let date = utc_now();
    let header = Conversion {
        record_id: &record_id,
        date: &date,
        refers_to,
        uri: analysis.uri.as_deref(),
        media_type: &essence,
    };
    let mut record = Vec::with_capacity(text.len() + 512);
    write_conversion(&mut record, &header, &text).ok()?;
    if !gzip {
        return Some(record);
    }
    let mut gz =
        GzEncoder::new(Vec::with_capacity(record.len() / 3), flate2::Compression::default());
    gz.write_all(&record).ok()?;
    gz.finish().ok()
}

/// The file `--emit DIR` writes for the WARC file `path`:
/// `NAME.charsight.warc.gz`, NAME its name without `.gz` and `.warc`.
fn emitted_name(path: &Path) -> String {
    let name = match path.file_name() {
        Some(name) if path.as_os_str() != "-" => name.to_string_lossy().into_owned(),
        _ => "stdin".to_owned(),
    };
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let name = name.strip_suffix(".warc").unwrap_or(name);
    format!("{name}.charsight.warc.gz")
}

/// The time now as WARC-Date writes it (`2026-12-02T00:15:00Z`).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a count of days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A count of records done, drawn on standard error when it is a terminal.
fn progress() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos} records, {elapsed}, {per_sec}")
            .expect("a valid template"),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_789), (2026, 12, 2));
    }

    #[test]
    fn emitted_names() {
        assert_eq!(emitted_name(Path::new("a/CC-1.warc.gz")), "CC-1.charsight.warc.gz");
        assert_eq!(emitted_name(Path::new("x.warc")), "x.charsight.warc.gz");
        assert_eq!(emitted_name(Path::new("-")), "stdin.charsight.warc.gz");
    }
}
