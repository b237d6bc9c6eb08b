//! `charsight detect`: one line of report per input.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use charsight::{Detection, Evidence, Rule, Source};

use crate::args::{DetectArgs, Format};
use crate::batch;
use crate::input::{self, Seen};
use crate::json::{DetectLine, ErrorLine, PathField};
use crate::Status;

pub fn run(args: &DetectArgs, out: &mut impl Write) -> Result<Status> {
    let engine = args.engine.engine();
    let mut status = Status::Success;
    let inputs = input::expand(&args.paths)?;
    let work = |input: &input::Expanded| match input {
        Ok(named) => {
            let found = input::decide(&named.input, std::slice::from_ref(&engine), false);
            (named.input.name().to_path_buf(), found)
        }
        Err((path, err)) => (path.clone(), Err(io::Error::new(err.kind(), err.to_string()))),
    };
    batch::run(&inputs, args.jobs.jobs(), work, |result| {
        match result {
            (path, Ok(mut found)) => {
                let detection = found.detections.remove(0);
                write_detection(out, args.format, &path, &detection, found.seen)?
            }
            (path, Err(err)) => {
                status = Status::Errors;
                write_error(out, args.format, &path, &err)?;
            }
        }
        Ok(())
    })?;
    Ok(status)
}

fn write_detection(
    out: &mut impl Write,
    format: Format,
    path: &Path,
    found: &Detection,
    seen: Seen,
) -> Result<()> {
    match format {
        Format::Jsonl => {
            serde_json::to_writer(&mut *out, &DetectLine::new(path, found, seen))?;
            writeln!(out)?;
        }
        Format::Text => write_text(out, &path.display(), found, seen.empty(), seen.prefix())?,
    }
    Ok(())
}

/// The readable line of `found`, the detection of the input called `name`,
/// decided on its first `prefix` bytes if it was not read whole.
pub(crate) fn write_text(
    out: &mut impl Write,
    name: &dyn std::fmt::Display,
    found: &Detection,
    empty: bool,
    prefix: Option<u64>,
) -> Result<()> {
    if empty {
        writeln!(out, "{name}: empty")?;
        return Ok(());
    }
    // Bytes that are not text have no encoding to report, but one forced.
    if found.binary && found.source != Source::Forced {
        write!(out, "{name}: binary data, not text")?;
        write_evidence(out, found, prefix)?;
        return Ok(());
    }
    write!(
        out,
        "{name}: {} ({}, confidence {:.2})",
        found.charset,
        found.source.name(),
        found.confidence
    )?;
    match found.rule {
        Rule::Overridden { declared, reason } => {
            write!(out, " declared {declared}, actual {}: {}", found.charset, reason.name())?
        }
        Rule::Unverified { reason } => write!(out, " unverified: {}", reason.name())?,
        Rule::MostlyUtf8 => write!(out, " {}", found.utf8_damage())?,
        Rule::Utf8Fragments => write!(out, " with UTF-8 fragments")?,
        Rule::StrayBytes => write!(out, " with stray bytes")?,
        _ => {}
    }
    if let Some(language) = found.language {
        write!(out, " language {language}")?;
    }
    if found.ascii {
        write!(out, " ascii")?;
    }
    if found.binary {
        write!(out, " binary")?;
    }
    if let Some(ebcdic) = found.ebcdic {
        write!(out, " {}", ebcdic.name())?;
        if !found.charset.is_ebcdic() {
            write!(out, " (not decoded)")?;
        }
    }
    if let Some(font) = &found.font {
        write!(out, " font {} ({:.2})", font.name, font.confidence)?;
    }
    write_evidence(out, found, prefix)
}

/// The end of a text line: the declared evidence, and the prefix the
/// decision rests on.
fn write_evidence(out: &mut impl Write, found: &Detection, prefix: Option<u64>) -> Result<()> {
    if !found.evidence.is_empty() {
        let declared: Vec<String> = found.evidence.iter().map(describe).collect();
        write!(out, "; declared: {}", declared.join(", "))?;
    }
    if let Some(prefix) = prefix {
        write!(out, "; decided on the first {prefix} bytes")?;
    }
    writeln!(out)?;
    Ok(())
}

/// `meta "shift_jis"@27 -> Shift_JIS`, with notes in brackets.
fn describe(e: &Evidence) -> String {
    let mut s = format!("{} {:?}@{}", e.source.name(), e.label, e.offset);
    match e.charset {
        Some(c) => s += &format!(" -> {c}"),
        None => s += " -> ignored",
    }
    if !e.notes.is_empty() {
        let notes: Vec<&str> = e.notes.iter().map(|n| n.name()).collect();
        s += &format!(" [{}]", notes.join(", "));
    }
    s
}

fn write_error(
    out: &mut impl Write,
    format: Format,
    path: &Path,
    err: &std::io::Error,
) -> Result<()> {
    match format {
        Format::Jsonl => {
            let line = ErrorLine {
                version: charsight::REPORT_VERSION,
                path: PathField::new(path),
                error: err.to_string(),
            };
            serde_json::to_writer(&mut *out, &line)?;
            writeln!(out)?;
        }
        Format::Text => {}
    }
    out.flush()?;
    eprintln!("charsight: {}: {err}", path.display());
    Ok(())
}
