//! `charsight explain`: a diagnosis of one input in words, like a
//! validator's: what was declared where, what the bytes are, what `decode`
//! would do under each policy, each problem with its place and an excerpt,
//! and the repairs `charsight repair` would make.
//!
//! The input is read once: the decision is made on a prefix, then the whole
//! input goes through a repairer (every kind of repair) whose text is
//! dropped as it comes, so memory stays bounded. Font scopes (HTML elements
//! that put text in Symbol, Wingdings, …) are listed with the conversions
//! the `fonts` repair makes. Colour goes out on a
//! terminal only (and never with `NO_COLOR`), through `anstream`.

use std::fmt::Write as _;
use std::io::{self, Write};

use anstream::ColorChoice;
use anstyle::{AnsiColor, Style};
use anyhow::{Context, Result};
use charsight::decode::Errors;
use charsight::font::Declared;
use charsight::repair::{Finding, FontScope, Kind, Leftover, RepairPolicy, Repairer};
use charsight::{Candidate, Charset, Detection, Policy, Rule};

use crate::advice::{self, count, group, Fits};
use crate::args::ExplainArgs;
use crate::input::{self, decide, read_some, Decided, Input, CHUNK};
use crate::Status;

const HEAD: Style = Style::new().bold();
const GOOD: Style = AnsiColor::Green.on_default();
const BAD: Style = AnsiColor::Red.on_default().bold();
const WARN: Style = AnsiColor::Yellow.on_default();
const DIM: Style = Style::new().dimmed();

/// The policies whose decisions are shown side by side.
const POLICIES: [Policy; 3] = [Policy::Verify, Policy::Whatwg, Policy::Detect];

/// Explains each input in turn, a blank line between two; an input that
/// cannot be read is reported and the others go on.
pub fn run(args: &ExplainArgs, out: &mut impl Write) -> Result<Status> {
    let mut status = Status::Success;
    for (i, input) in input::expand(&args.paths)?.into_iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let explained = match input {
            Ok(named) => one(args, &named.input, out),
            Err((path, err)) => Err(anyhow::anyhow!("{}: {err}", path.display())),
        };
        match explained {
            Ok(done) => status = status.max(done),
            Err(err) if crate::is_broken_pipe(&err) => return Err(err),
            Err(err) => {
                out.flush()?;
                eprintln!("charsight: {err:#}");
                status = Status::Errors;
            }
        }
    }
    Ok(status)
}

/// Explains one input.
fn one(args: &ExplainArgs, input: &Input, out: &mut impl Write) -> Result<Status> {
    let name = input.name().display().to_string();
    // The engine asked for first, then each policy for comparison.
    let engine = args.engine.engine();
    let mut engines = vec![engine.clone()];
    engines.extend(POLICIES.map(|p| engine.clone().policy(p)));
    let Decided { mut detections, seen, mut reader, .. } =
        decide(input, &engines, true).with_context(|| name.clone())?;
    let policies: Vec<(Policy, Detection)> =
        POLICIES.into_iter().zip(detections.split_off(1)).collect();
    let detection = detections.remove(0);
    if seen.empty() {
        emit(out, &format!("{HEAD}{name}{HEAD:#}: empty (0 bytes), nothing to decide\n"))?;
        return Ok(Status::Success);
    }
    // Not text: what it is, and no decision, problems or repairs, which
    // would contradict that decode refuses it.
    if let Some(what) = crate::decode::undecodable(&detection) {
        let total = io::copy(&mut reader, &mut io::sink()).with_context(|| name.clone())?;
        let mut s = String::new();
        let w = &mut s;
        writeln!(w, "{HEAD}{name}{HEAD:#}: {}", count(total, "byte"))?;
        declared(w, &detection)?;
        bytes(w, &detection, seen.bytes)?;
        writeln!(
            w,
            "\n{HEAD}Decision{HEAD:#}: {BAD}{what}{BAD:#}, not decoded \
             (--force-encoding decodes it anyway)"
        )?;
        emit(out, &s)?;
        return Ok(Status::Negative);
    }

    // Every repair, over the whole input.
    let mut repairer =
        Repairer::for_detection(&detection, RepairPolicy::all(), Errors::Replace, Charset::Utf8);
    let mut text = String::new();
    let mut total = 0;
    // Whether --keep-encoding would work, for the advice.
    let in_document = advice::declared_in_document(&detection);
    let mut fits = Fits::new(in_document);
    let mut buf = vec![0; CHUNK];
    loop {
        text.clear();
        let n = read_some(&mut reader, &mut buf).with_context(|| name.clone())?;
        total += n as u64;
        repairer.repair(&buf[..n], n == 0, &mut text).expect("replace mode never fails");
        fits.check(&text, n == 0);
        if n == 0 {
            break;
        }
    }

    let mut s = String::new();
    let w = &mut s;
    writeln!(w, "{HEAD}{name}{HEAD:#}: {}", count(total, "byte"))?;
    declared(w, &detection)?;
    bytes(w, &detection, seen.bytes)?;
    decision(w, &detection, &policies)?;
    let keep = in_document.map(|d| (d, fits.fits()));
    let findings = repairer.findings().list.as_slice();
    problems(w, &detection, keep, findings, repairer.leftovers(), args.limit)?;
    fonts(w, repairer.font_scopes(), args.limit)?;
    repairs(w, &repairer, args.limit)?;
    let malformed = repairer.malformed().sequences;
    let found = repairer.findings().total();
    let status = if malformed > 0 || found > 0 || !verified(&detection) {
        Status::Negative
    } else {
        Status::Success
    };
    emit(out, &s)?;
    Ok(status)
}

/// Writes `s`, in colour only on a terminal that takes it.
fn emit(out: &mut impl Write, s: &str) -> io::Result<()> {
    if anstream::AutoStream::choice(&io::stdout()) != ColorChoice::Never {
        out.write_all(s.as_bytes())
    } else {
        write!(out, "{}", anstream::adapter::strip_str(s))
    }
}

/// Whether the decision agrees with what was declared (or nothing was).
fn verified(detection: &Detection) -> bool {
    !matches!(detection.rule, Rule::Overridden { .. } | Rule::Unverified { .. })
}

/// At most `max` characters of `text`, control characters shown escaped.
fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

fn declared(w: &mut String, detection: &Detection) -> Result<()> {
    writeln!(w, "\n{HEAD}Declared{HEAD:#}")?;
    if detection.evidence.is_empty() {
        writeln!(
            w,
            "  nothing: no byte order mark, no HTTP charset, no <meta>, no XML declaration"
        )?;
    }
    for e in &detection.evidence {
        let target = match e.charset {
            Some(c) => format!("{c}"),
            None => format!("{BAD}ignored{BAD:#}"),
        };
        let at =
            if e.len > 0 { format!(" at byte {}", group(e.offset as u64)) } else { String::new() };
        write!(w, "  {} {:?}{at} → {target}", e.source.name(), e.label)?;
        if !e.notes.is_empty() {
            let notes: Vec<&str> = e.notes.iter().map(|n| n.name()).collect();
            write!(w, " {DIM}[{}]{DIM:#}", notes.join(", "))?;
        }
        writeln!(w)?;
    }
    Ok(())
}

fn bytes(w: &mut String, detection: &Detection, decided_on: u64) -> Result<()> {
    writeln!(
        w,
        "\n{HEAD}What the bytes are{HEAD:#} {DIM}(detector: first {}; verification: first {}){DIM:#}",
        count(decided_on, "byte"),
        count(detection.sample_len as u64, "byte")
    )?;
    if detection.binary {
        writeln!(
            w,
            "  {BAD}not text{BAD:#}: a binary format's signature, NUL or control bytes outside \
             UTF-16/32 patterns, or bytes spread like compressed data"
        )?;
    }
    if let Some(ebcdic) = detection.ebcdic.filter(|_| !detection.charset.is_ebcdic()) {
        writeln!(w, "  {BAD}{}{BAD:#}: recognised, not decoded", ebcdic.name())?;
    }
    if detection.ascii {
        writeln!(w, "  pure ASCII: every ASCII-compatible encoding reads it alike")?;
    }
    for c in &detection.candidates {
        writeln!(w, "  {}", candidate(c))?;
    }
    Ok(())
}

/// One candidate and its verification figures, in a line.
fn candidate(c: &Candidate) -> String {
    let v = &c.verification;
    let sources: Vec<&str> = c.sources.iter().map(|s| s.name()).collect();
    let from =
        if sources.is_empty() { String::new() } else { format!(" ({})", sources.join(", ")) };
    let mut facts = Vec::new();
    if v.malformed > 0 {
        let first =
            v.first_malformed.map_or(String::new(), |o| format!(", first at byte {}", group(o)));
        facts.push(format!("{BAD}{}{BAD:#}{first}", count(v.malformed, "malformed sequence")));
    } else {
        facts.push(format!("{GOOD}decodes cleanly{GOOD:#}"));
    }
    facts.push(count(v.non_ascii, "non-ASCII character"));
    for (n, what) in [
        (v.c1_controls, "C1 control"),
        (v.private_use, "private-use character"),
        (v.unassigned, "unassigned character"),
    ] {
        if n > 0 {
            facts.push(format!("{WARN}{}{WARN:#}", count(n, what)));
        }
    }
    if v.round_trip == Some(false) {
        facts.push(format!("{WARN}round trip differs{WARN:#}"));
    }
    if c.detector > 0.0 {
        facts.push(format!("detector {:.2}", c.detector));
    }
    match c.behind {
        Some(bits) if bits < 0.0 => facts.push(format!("text {:.1} bits likelier", -bits)),
        Some(bits) => facts.push(format!("text {bits:.1} bits less likely")),
        None => {}
    }
    if let Some(doubt) = c.doubt {
        facts.push(format!("{BAD}doubted: {}{BAD:#}", doubt.name()));
    }
    format!("{:<14}{from}: {}", c.charset.name(), facts.join(", "))
}

/// The rule in words.
fn rule(detection: &Detection) -> String {
    match detection.rule {
        Rule::Overridden { declared, reason } => {
            format!("declared {declared}, actual {}: {}", detection.charset, reason.name())
        }
        Rule::Unverified { reason } => format!("declared, kept though doubted: {}", reason.name()),
        Rule::Declared | Rule::Verified => format!("declared by {}", detection.source.name()),
        Rule::MostlyUtf8 => {
            format!("UTF-8 {}: damage to repair", crate::detect::utf8_damage(detection))
        }
        Rule::Utf8Fragments => {
            "detected with its UTF-8 fragments left out: damage to repair".to_owned()
        }
        Rule::StrayBytes => {
            "the detector's leader until stray bytes ruled it out: damage to repair".to_owned()
        }
        r => r.name().to_owned(),
    }
}

fn decision(w: &mut String, detection: &Detection, policies: &[(Policy, Detection)]) -> Result<()> {
    let style = if verified(detection) { GOOD } else { WARN };
    writeln!(
        w,
        "\n{HEAD}Decision{HEAD:#} ({} policy): {style}{}{style:#}, confidence {:.2} — {}",
        detection.policy.name(),
        detection.charset,
        detection.confidence,
        rule(detection)
    )?;
    if let Some(language) = detection.language {
        writeln!(w, "  language: {language}")?;
    }
    writeln!(w, "\n{HEAD}What decode would do under each policy{HEAD:#}")?;
    for (policy, d) in policies {
        writeln!(w, "  {:<7} {:<14} {}", policy.name(), d.charset.name(), rule(d))?;
    }
    Ok(())
}

/// The problems: `keep` is the encoding the document declares, if any, and
/// whether its text can be written in it.
fn problems(
    w: &mut String,
    detection: &Detection,
    keep: Option<(Charset, bool)>,
    findings: &[Finding],
    leftovers: &[Leftover],
    limit: usize,
) -> Result<()> {
    writeln!(w, "\n{HEAD}Problems{HEAD:#}")?;
    // Reported, not repaired: a contradicted declaration, private-use
    // characters no table maps.
    let reported: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.kind == Kind::Declaration || (f.kind == Kind::PrivateUse && !f.applied))
        .collect();
    let malformed = findings.iter().filter(|f| f.before.contains('\u{FFFD}')).count();
    if reported.is_empty() && leftovers.is_empty() && malformed == 0 {
        writeln!(w, "  {GOOD}none{GOOD:#} that a repair would not fix")?;
    }
    for f in reported.iter().take(limit) {
        writeln!(
            w,
            "  {WARN}line {}, bytes {}..{}{WARN:#}: {}",
            f.line,
            group(f.range.start),
            group(f.range.end),
            f.cause
        )?;
        if let (Kind::Declaration, Some((declared, fits))) = (f.kind, keep) {
            if let Some(advice) = advice::declaration(declared, Charset::Utf8, fits) {
                writeln!(w, "    {advice}")?;
            }
        }
    }
    if reported.len() > limit {
        writeln!(w, "  … and {} more", reported.len() - limit)?;
    }
    for l in leftovers.iter().take(limit) {
        let hex: Vec<String> = l.bytes.iter().map(|b| format!("{b:02X}")).collect();
        writeln!(
            w,
            "  {BAD}line {}, byte {}{BAD:#}: malformed {} sequence {} {DIM}“{}”{DIM:#}",
            l.line,
            group(l.range.start),
            detection.charset,
            hex.join(" "),
            excerpt(&l.excerpt, 80)
        )?;
    }
    if leftovers.len() > limit {
        writeln!(w, "  … and {} more", leftovers.len() - limit)?;
    }
    if malformed > 0 {
        writeln!(
            w,
            "  {} that the repairs below decode",
            count(malformed as u64, "malformed run")
        )?;
    }
    Ok(())
}

fn fonts(w: &mut String, scopes: &[FontScope], limit: usize) -> Result<()> {
    if scopes.is_empty() {
        return Ok(());
    }
    writeln!(
        w,
        "\n{HEAD}Font scopes{HEAD:#} {DIM}(text in them is in the font's own encoding){DIM:#}"
    )?;
    for s in scopes.iter().take(limit) {
        let how = match &s.declared {
            Declared::FontFace => "<font face>".to_owned(),
            Declared::InlineStyle => "style attribute".to_owned(),
            Declared::StyleRule(selector) => format!("<style> rule {selector}"),
            _ => "declared".to_owned(),
        };
        writeln!(
            w,
            "  bytes {}..{}: {} ({how})",
            group(s.range.start),
            group(s.range.end),
            s.font
        )?;
    }
    if scopes.len() > limit {
        writeln!(w, "  … and {} more", scopes.len() - limit)?;
    }
    Ok(())
}

fn repairs(w: &mut String, repairer: &Repairer, limit: usize) -> Result<()> {
    let findings = repairer.findings();
    let applied: Vec<&Finding> = findings.list.iter().filter(|f| f.applied).collect();
    writeln!(w, "\n{HEAD}Repairs `charsight repair` would make{HEAD:#}")?;
    if applied.is_empty() {
        writeln!(w, "  none")?;
    }
    for f in applied.iter().take(limit) {
        writeln!(
            w,
            "  line {}, bytes {}..{}: {} “{}” → {GOOD}“{}”{GOOD:#} {DIM}({}, confidence {:.2}){DIM:#}",
            f.line,
            group(f.range.start),
            group(f.range.end),
            f.kind,
            excerpt(&f.before, 40),
            excerpt(&f.after, 40),
            f.cause,
            f.confidence
        )?;
    }
    if applied.len() > limit {
        writeln!(w, "  … and {} more", applied.len() - limit)?;
    }
    let counts: Vec<String> = findings.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let left = repairer.malformed().sequences;
    writeln!(
        w,
        "\n{}{}; {} left as U+FFFD",
        count(findings.total(), "finding"),
        if counts.is_empty() { String::new() } else { format!(" ({})", counts.join(", ")) },
        count(left, "malformed sequence")
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_visible() {
        assert_eq!(excerpt("a\nb\u{1}", 10), "a\\nb\\u{0001}");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
