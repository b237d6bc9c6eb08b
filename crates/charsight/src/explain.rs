//! Beside the pipeline: the diagnosis of one input in words, like a
//! validator's (`charsight explain`, the Python package's `explain`): what
//! was declared where, what the bytes are, what decoding would do under
//! each policy, each problem with its place and an excerpt, the font
//! scopes, and the repairs `charsight repair` would make.
//!
//! Input: the [`Detection`]s of the input under the caller's [`Engine`] and
//! under each of [`POLICIES`], made on a prefix (the caller's reading decides
//! how long), then the whole input from its first byte, in chunks. The
//! input goes through a [`Repairer`] with every kind of repair, whose text
//! is dropped as it comes, so memory stays bounded whatever the input's
//! size ([`Explainer`]). Output: an [`Explanation`], rendered as plain
//! text or with ANSI styles ([`Styling`]).
//!
//! # Example
//! ```
//! use charsight::explain::{explain, Styling};
//! use charsight::Engine;
//! let page = b"<meta charset=utf-8><p>Caf\xE9 cr\xE8me, cr\xE8me br\xFBl\xE9e, na\xEFve</p>";
//! let explanation = explain(&Engine::new(), page);
//! let text = explanation.render(Some("page.html"), 20, Styling::Plain);
//! assert!(text.starts_with("page.html: 58 bytes\n"));
//! assert!(text.contains("meta \"utf-8\" at byte 14 → UTF-8"));
//! assert!(text.contains("Decision (verify policy): windows-1252"));
//! assert!(!explanation.is_clean());
//! ```

use std::fmt::{self, Write as _};

use anstyle::{AnsiColor, Style};

use crate::decode::{Errors, Fits};
use crate::font::Declared;
use crate::pipeline::FAR_BEHIND_BITS;
use crate::repair::{Finding, FontScope, Kind, Leftover, RepairPolicy, Repairer};
use crate::{Candidate, Charset, Detection, Engine, Policy, Rule};

/// The policies whose decisions an explanation shows side by side.
pub const POLICIES: [Policy; 3] = [Policy::Verify, Policy::Whatwg, Policy::Detect];

/// How many problems, font scopes and repairs a rendering lists at most
/// each, unless told otherwise (`charsight explain --limit`).
pub const DEFAULT_LIMIT: usize = 20;

/// How a rendering is styled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Styling {
    /// Plain text.
    Plain,
    /// Headings bold, verdicts in colour, asides dimmed: ANSI escapes, for
    /// a terminal.
    Ansi,
}

/// The engines an explanation needs decisions from, in the order
/// [`Explainer::new`] takes them: `engine`, then `engine` under each of
/// [`POLICIES`]. They differ only in their policy, so they want the same
/// bytes.
pub fn engines(engine: &Engine) -> Vec<Engine> {
    let mut engines = vec![engine.clone()];
    engines.extend(POLICIES.map(|p| engine.clone().policy(p)));
    engines
}

/// The explanation of `bytes` under `engine`: decided on the whole of
/// them ([`Engine::detect`]), then explained. See the module docs for an
/// example.
pub fn explain(engine: &Engine, bytes: &[u8]) -> Explanation {
    let detections = engines(engine).iter().map(|e| e.detect(bytes)).collect();
    let mut explainer = Explainer::new(detections, bytes.len() as u64);
    explainer.feed(bytes, true);
    explainer.finish()
}

/// An explanation in progress: the decisions are made, the input streams
/// through (see the module docs).
///
/// # Example
/// ```
/// use charsight::explain::{engines, Explainer};
/// use charsight::{Engine, Session};
/// let input = "na\u{EF}ve caf\u{E9}".as_bytes();
/// let engines = engines(&Engine::new());
/// // Decide on a prefix (here all of it), fed as it is read…
/// let mut sessions: Vec<Session> = engines.iter().map(Engine::session).collect();
/// sessions.iter_mut().for_each(|s| s.feed(input));
/// let detections = sessions.into_iter().map(Session::finish).collect();
/// let mut explainer = Explainer::new(detections, input.len() as u64);
/// // …then read the input again from its start.
/// for chunk in input.chunks(4) {
///     explainer.feed(chunk, false);
/// }
/// explainer.feed(b"", true);
/// assert!(explainer.finish().is_clean());
/// ```
pub struct Explainer {
    explanation: Explanation,
    /// Whether the text fits the document's declared charset.
    fits: Fits,
    /// The repaired text of the current chunk, dropped after it.
    text: String,
}

impl Explainer {
    /// Starts explaining an input from its decisions: `detections` holds one
    /// detection for each engine of [`engines`], in order, made on the
    /// input's first `decided_on` bytes.
    ///
    /// # Panics
    /// If `detections` does not hold one detection per engine of [`engines`].
    pub fn new(mut detections: Vec<Detection>, decided_on: u64) -> Explainer {
        assert_eq!(detections.len(), 1 + POLICIES.len(), "one detection per engine of engines()");
        let policies = POLICIES.into_iter().zip(detections.split_off(1)).collect();
        let detection = detections.remove(0);
        let repairer = Repairer::for_detection(
            &detection,
            RepairPolicy::all(),
            Errors::Replace,
            Charset::Utf8,
        );
        let in_document = detection.document_charset();
        Explainer {
            explanation: Explanation {
                not_text: detection.undecodable(),
                detection,
                policies,
                decided_on,
                total: 0,
                repairer,
                keep: None,
            },
            fits: Fits::new(in_document),
            text: String::new(),
        }
    }

    /// Feeds the next chunk of the input (from its first byte); `last` ends
    /// it.
    pub fn feed(&mut self, chunk: &[u8], last: bool) {
        let e = &mut self.explanation;
        e.total += chunk.len() as u64;
        // Not text: only its length is told.
        if e.not_text.is_some() {
            return;
        }
        self.text.clear();
        let repaired = e.repairer.repair(chunk, last, &mut self.text);
        debug_assert!(repaired.is_ok(), "replace mode never fails");
        self.fits.check(&self.text, last);
    }

    /// The explanation, once the input has been fed to its end.
    pub fn finish(mut self) -> Explanation {
        let in_document = self.explanation.detection.document_charset();
        self.explanation.keep = in_document.map(|d| (d, self.fits.fits()));
        self.explanation
    }
}

/// The diagnosis of one input, made by [`explain`] or an [`Explainer`].
pub struct Explanation {
    /// The decision under the engine asked.
    detection: Detection,
    /// The decision under each of [`POLICIES`].
    policies: Vec<(Policy, Detection)>,
    /// How many bytes the decisions read.
    decided_on: u64,
    /// How long the input is.
    total: u64,
    /// Why the input is not text to decode, if it is not.
    not_text: Option<String>,
    /// Every repair, over the whole input (unused when not text).
    repairer: Repairer,
    /// The encoding the document declares, if any, and whether its text
    /// can be written in it.
    keep: Option<(Charset, bool)>,
}

impl Explanation {
    /// Whether nothing is wrong: the input is empty, or it is text whose
    /// decision agrees with what was declared (or nothing was), with no
    /// malformed sequence and nothing to repair.
    pub fn is_clean(&self) -> bool {
        if self.total == 0 {
            return true;
        }
        self.not_text.is_none()
            && self.repairer.malformed().sequences == 0
            && self.repairer.findings().total() == 0
            && verified(&self.detection)
    }

    /// The explanation in words, headed by the input's `name` if given;
    /// problems, font scopes and repairs are listed `limit` at most each
    /// (all are counted).
    pub fn render(&self, name: Option<&str>, limit: usize, styling: Styling) -> String {
        Rendering { explanation: self, name, limit, palette: Palette::new(styling) }.to_string()
    }
}

/// The styles of a rendering (each empty in plain text).
#[derive(Clone, Copy)]
struct Palette {
    head: Style,
    good: Style,
    bad: Style,
    warn: Style,
    dim: Style,
}

impl Palette {
    fn new(styling: Styling) -> Palette {
        match styling {
            Styling::Plain => Palette {
                head: Style::new(),
                good: Style::new(),
                bad: Style::new(),
                warn: Style::new(),
                dim: Style::new(),
            },
            Styling::Ansi => Palette {
                head: Style::new().bold(),
                good: AnsiColor::Green.on_default(),
                bad: AnsiColor::Red.on_default().bold(),
                warn: AnsiColor::Yellow.on_default(),
                dim: Style::new().dimmed(),
            },
        }
    }
}

/// An [`Explanation`] as [`Explanation::render`] writes it.
struct Rendering<'a> {
    explanation: &'a Explanation,
    name: Option<&'a str>,
    limit: usize,
    palette: Palette,
}

impl fmt::Display for Rendering<'_> {
    fn fmt(&self, w: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Rendering { explanation: e, limit, palette: p, .. } = *self;
        let Palette { head, bad, .. } = p;
        let d = &e.detection;
        if let Some(name) = self.name {
            write!(w, "{head}{name}{head:#}: ")?;
        }
        if e.total == 0 {
            return writeln!(w, "empty (0 bytes), nothing to decide");
        }
        writeln!(w, "{}", count(e.total, "byte"))?;
        declared(w, p, d)?;
        bytes(w, p, d, e.decided_on)?;
        // Not text: what it is, and no decision, problems or repairs, which
        // would contradict that decode refuses it.
        if let Some(what) = &e.not_text {
            return writeln!(
                w,
                "\n{head}Decision{head:#}: {bad}{what}{bad:#}, not decoded \
                 (--force-encoding decodes it anyway)"
            );
        }
        decision(w, p, d, &e.policies)?;
        let r = &e.repairer;
        problems(w, p, d, e.keep, &r.findings().list, r.leftovers(), limit)?;
        fonts(w, p, r.font_scopes(), limit)?;
        repairs(w, p, r, limit)
    }
}

/// `… and N more`, for a list of `len` items of which `limit` were listed.
fn more(w: &mut fmt::Formatter<'_>, len: usize, limit: usize) -> fmt::Result {
    if len > limit {
        writeln!(w, "  … and {} more", len - limit)?;
    }
    Ok(())
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
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// `n` things, grouped by thousands: `1 byte`, `1,234 bytes` (`what` takes
/// an `s`).
///
/// # Example
/// ```
/// use charsight::explain::count;
/// assert_eq!(count(1, "byte"), "1 byte");
/// assert_eq!(count(2345, "finding"), "2,345 findings");
/// ```
pub fn count(n: u64, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{} {what}s", group(n)),
    }
}

/// `1234567` as `1,234,567`.
///
/// # Example
/// ```
/// assert_eq!(charsight::explain::group(1234567), "1,234,567");
/// ```
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What to do about a document that declares `declared` in itself, written
/// in `output`, in the words of `charsight decode`'s options; `keep_fits`
/// says whether its text can be written in `declared` ([`Fits`]). Nothing
/// when the output is in the declared encoding.
///
/// # Example
/// ```
/// use charsight::explain::declaration_advice;
/// use charsight::Charset;
/// let advice = declaration_advice(Charset::Windows1252, Charset::Utf8, false).unwrap();
/// assert!(advice.starts_with("decode with --fix-declaration to rewrite it to name UTF-8"));
/// assert_eq!(declaration_advice(Charset::Utf8, Charset::Utf8, true), None);
/// ```
pub fn declaration_advice(declared: Charset, output: Charset, keep_fits: bool) -> Option<String> {
    if declared == output {
        return None;
    }
    let fix = format!("decode with --fix-declaration to rewrite it to name {output}");
    Some(match keep_fits {
        true => format!("{fix}, or with --keep-encoding to write the text in {declared}"),
        false => format!("{fix} (--keep-encoding cannot: some characters have no {declared} form)"),
    })
}

fn declared(w: &mut fmt::Formatter<'_>, p: Palette, detection: &Detection) -> fmt::Result {
    let Palette { head, bad, dim, .. } = p;
    writeln!(w, "\n{head}Declared{head:#}")?;
    if detection.evidence.is_empty() {
        writeln!(
            w,
            "  nothing: no byte order mark, no HTTP charset, no <meta>, no XML declaration"
        )?;
    }
    for e in &detection.evidence {
        let target = match e.charset {
            Some(c) => format!("{c}"),
            None => format!("{bad}ignored{bad:#}"),
        };
        let at =
            if e.len > 0 { format!(" at byte {}", group(e.offset as u64)) } else { String::new() };
        write!(w, "  {} {:?}{at} → {target}", e.source.name(), e.label)?;
        if !e.notes.is_empty() {
            let notes: Vec<&str> = e.notes.iter().map(|n| n.name()).collect();
            write!(w, " {dim}[{}]{dim:#}", notes.join(", "))?;
        }
        writeln!(w)?;
    }
    Ok(())
}

fn bytes(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    detection: &Detection,
    decided_on: u64,
) -> fmt::Result {
    let Palette { head, bad, dim, .. } = p;
    writeln!(
        w,
        "\n{head}What the bytes are{head:#} {dim}(detector: first {}; verification: first {}){dim:#}",
        count(decided_on, "byte"),
        count(detection.sample_len as u64, "byte")
    )?;
    if detection.binary {
        writeln!(
            w,
            "  {bad}not text{bad:#}: a binary format's signature, NUL or control bytes outside \
             UTF-16/32 patterns, or bytes spread like compressed data"
        )?;
    }
    if let Some(ebcdic) = detection.ebcdic.filter(|_| !detection.charset.is_ebcdic()) {
        writeln!(w, "  {bad}{}{bad:#}: recognised, not decoded", ebcdic.name())?;
    }
    if detection.ascii {
        writeln!(w, "  pure ASCII: every ASCII-compatible encoding reads it alike")?;
    }
    for c in &detection.candidates {
        writeln!(w, "  {}", candidate(p, c))?;
    }
    Ok(())
}

/// One candidate and its verification figures, in a line.
fn candidate(p: Palette, c: &Candidate) -> String {
    let Palette { good, bad, warn, .. } = p;
    let v = &c.verification;
    let sources: Vec<&str> = c.sources.iter().map(|s| s.name()).collect();
    let from =
        if sources.is_empty() { String::new() } else { format!(" ({})", sources.join(", ")) };
    let mut facts = Vec::new();
    if v.malformed > 0 {
        let first =
            v.first_malformed.map_or(String::new(), |o| format!(", first at byte {}", group(o)));
        facts.push(format!("{bad}{}{bad:#}{first}", count(v.malformed, "malformed sequence")));
    } else {
        facts.push(format!("{good}decodes cleanly{good:#}"));
    }
    facts.push(count(v.non_ascii, "non-ASCII character"));
    for (n, what) in [
        (v.c1_controls, "C1 control"),
        (v.private_use, "private-use character"),
        (v.unassigned, "unassigned character"),
    ] {
        if n > 0 {
            facts.push(format!("{warn}{}{warn:#}", count(n, what)));
        }
    }
    if v.round_trip == Some(false) {
        facts.push(format!("{warn}round trip differs{warn:#}"));
    }
    if c.detector > 0.0 {
        facts.push(format!("detector {:.2}", c.detector));
    }
    match c.behind {
        Some(bits) if bits < 0.0 => facts.push(format!("text {:.1} bits likelier", -bits)),
        Some(bits) if bits >= FAR_BEHIND_BITS => {
            facts.push(format!("text at least {bits:.0} bits less likely"))
        }
        Some(bits) => facts.push(format!("text {bits:.1} bits less likely")),
        None => {}
    }
    if let Some(doubt) = c.doubt {
        facts.push(format!("{bad}doubted: {}{bad:#}", doubt.name()));
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
        Rule::MostlyUtf8 => format!("UTF-8 {}: damage to repair", detection.utf8_damage()),
        Rule::Utf8Fragments => {
            "detected with its UTF-8 fragments left out: damage to repair".to_owned()
        }
        Rule::StrayBytes => {
            "the detector's leader until stray bytes ruled it out: damage to repair".to_owned()
        }
        r => r.name().to_owned(),
    }
}

fn decision(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    detection: &Detection,
    policies: &[(Policy, Detection)],
) -> fmt::Result {
    let Palette { head, good, warn, .. } = p;
    let style = if verified(detection) { good } else { warn };
    writeln!(
        w,
        "\n{head}Decision{head:#} ({} policy): {style}{}{style:#}, confidence {:.2} — {}",
        detection.policy.name(),
        detection.charset,
        detection.confidence,
        rule(detection)
    )?;
    if let Some(language) = detection.language {
        writeln!(w, "  language: {language}")?;
    }
    writeln!(w, "\n{head}What decode would do under each policy{head:#}")?;
    for (policy, d) in policies {
        writeln!(w, "  {:<7} {:<14} {}", policy.name(), d.charset.name(), rule(d))?;
    }
    Ok(())
}

/// The problems: `keep` is the encoding the document declares, if any, and
/// whether its text can be written in it.
fn problems(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    detection: &Detection,
    keep: Option<(Charset, bool)>,
    findings: &[Finding],
    leftovers: &[Leftover],
    limit: usize,
) -> fmt::Result {
    let Palette { head, good, bad, warn, dim } = p;
    writeln!(w, "\n{head}Problems{head:#}")?;
    // Reported, not repaired: a contradicted declaration, private-use
    // characters no table maps.
    let reported: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.kind == Kind::Declaration || (f.kind == Kind::PrivateUse && !f.applied))
        .collect();
    let malformed = findings.iter().filter(|f| f.before.contains('\u{FFFD}')).count();
    if reported.is_empty() && leftovers.is_empty() && malformed == 0 {
        writeln!(w, "  {good}none{good:#} that a repair would not fix")?;
    }
    for f in reported.iter().take(limit) {
        writeln!(
            w,
            "  {warn}line {}, bytes {}..{}{warn:#}: {}",
            f.line,
            group(f.range.start),
            group(f.range.end),
            f.cause
        )?;
        if let (Kind::Declaration, Some((declared, fits))) = (f.kind, keep) {
            if let Some(advice) = declaration_advice(declared, Charset::Utf8, fits) {
                writeln!(w, "    {advice}")?;
            }
        }
    }
    more(w, reported.len(), limit)?;
    for l in leftovers.iter().take(limit) {
        let hex: Vec<String> = l.bytes.iter().map(|b| format!("{b:02X}")).collect();
        writeln!(
            w,
            "  {bad}line {}, byte {}{bad:#}: malformed {} sequence {} {dim}“{}”{dim:#}",
            l.line,
            group(l.range.start),
            detection.charset,
            hex.join(" "),
            excerpt(&l.excerpt, 80)
        )?;
    }
    more(w, leftovers.len(), limit)?;
    if malformed > 0 {
        writeln!(
            w,
            "  {} that the repairs below decode",
            count(malformed as u64, "malformed run")
        )?;
    }
    Ok(())
}

fn fonts(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    scopes: &[FontScope],
    limit: usize,
) -> fmt::Result {
    let Palette { head, dim, .. } = p;
    if scopes.is_empty() {
        return Ok(());
    }
    writeln!(
        w,
        "\n{head}Font scopes{head:#} {dim}(text in them is in the font's own encoding){dim:#}"
    )?;
    for s in scopes.iter().take(limit) {
        let how = match &s.declared {
            Declared::FontFace => "<font face>".to_owned(),
            Declared::InlineStyle => "style attribute".to_owned(),
            Declared::StyleRule(selector) => format!("<style> rule {selector}"),
        };
        writeln!(
            w,
            "  bytes {}..{}: {} ({how})",
            group(s.range.start),
            group(s.range.end),
            s.font
        )?;
    }
    more(w, scopes.len(), limit)?;
    Ok(())
}

fn repairs(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    repairer: &Repairer,
    limit: usize,
) -> fmt::Result {
    let Palette { head, good, .. } = p;
    let findings = repairer.findings();
    let applied: Vec<&Finding> = findings.list.iter().filter(|f| f.applied).collect();
    writeln!(w, "\n{head}Repairs `charsight repair` would make{head:#}")?;
    if applied.is_empty() {
        writeln!(w, "  none")?;
    }
    list_repairs(w, p, &applied, good, limit)?;
    let possible: Vec<&Finding> = findings.list.iter().filter(|f| f.possible()).collect();
    if !possible.is_empty() {
        writeln!(w, "\n{head}Possible repairs, not made (short of their margin){head:#}")?;
    }
    list_repairs(w, p, &possible, Style::new(), limit)?;
    let counts: Vec<String> = findings.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let left = repairer.malformed().sequences;
    let possible = match findings.possible {
        0 => String::new(),
        n => format!(", {} not made", count(n, "possible repair")),
    };
    writeln!(
        w,
        "\n{}{}{possible}; {} left as U+FFFD",
        count(findings.total(), "finding"),
        if counts.is_empty() { String::new() } else { format!(" ({})", counts.join(", ")) },
        count(left, "malformed sequence")
    )
}

/// `findings` (the first `limit`) one a line, their text `after` in the
/// `after` style.
fn list_repairs(
    w: &mut fmt::Formatter<'_>,
    p: Palette,
    findings: &[&Finding],
    after: Style,
    limit: usize,
) -> fmt::Result {
    let dim = p.dim;
    for f in findings.iter().take(limit) {
        writeln!(
            w,
            "  line {}, bytes {}..{}: {} “{}” → {after}“{}”{after:#} {dim}({}, confidence {:.2}){dim:#}",
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
    more(w, findings.len(), limit)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_visible() {
        assert_eq!(excerpt("a\nb\u{1}", 10), "a\\nb\\u{0001}");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }

    #[test]
    fn numbers_are_grouped_and_counted() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1234), "1,234");
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(count(1, "byte"), "1 byte");
        assert_eq!(count(0, "finding"), "0 findings");
        assert_eq!(count(2345, "byte"), "2,345 bytes");
    }

    /// A page in windows-1252 that declares UTF-8: the declaration, the
    /// decision overriding it, the problem.
    const LYING: &[u8] = b"<html><head><meta charset=\"utf-8\"></head>\n\
        <p>Le caf\xE9 cr\xE8me et la cr\xE8me br\xFBl\xE9e, d\xE9j\xE0 na\xEFve.</p>";

    #[test]
    fn a_lying_declaration_is_named_and_overridden() {
        let explanation = explain(&Engine::new(), LYING);
        let text = explanation.render(None, 20, Styling::Plain);
        assert!(text.starts_with("94 bytes\n\nDeclared\n  meta \"utf-8\" at byte 27 → UTF-8\n"));
        assert!(text.contains("\nDecision (verify policy): windows-1252, confidence"), "{text}");
        assert!(text.contains("declared UTF-8, actual windows-1252"), "{text}");
        assert!(text.contains("  whatwg  UTF-8"), "{text}");
        assert!(text.contains("\nProblems\n  line 1, bytes 27..32: declared UTF-8"), "{text}");
        assert!(text.contains("but the bytes are windows-1252"), "{text}");
        assert!(!text.contains('\u{1b}'));
        assert!(!explanation.is_clean());
    }

    #[test]
    fn a_repair_short_of_its_margin_is_listed_as_possible() {
        // Acute accents typed as closing quotes: `á´´` reads `ᴴ` in UTF-8,
        // not likely enough to be made.
        let line = "``hogwarts nao existe, voce nao vai pegar o trem pra l\u{E1}\u{B4}\u{B4}\n";
        let explanation = explain(&Engine::new(), line.as_bytes());
        let text = explanation.render(None, 20, Styling::Plain);
        assert!(text.contains("Repairs `charsight repair` would make\n  none\n"), "{text}");
        assert!(text.contains("Possible repairs, not made (short of their margin)\n"), "{text}");
        assert!(text.contains("mojibake “á´´” → “ᴴ” (UTF-8 read as windows-1252"), "{text}");
        assert!(text.contains("0 findings, 1 possible repair not made;"), "{text}");
        assert!(explanation.is_clean());
    }

    #[test]
    fn ansi_styling_only_adds_escapes() {
        let explanation = explain(&Engine::new(), LYING);
        let ansi = explanation.render(Some("page"), 20, Styling::Ansi);
        assert!(ansi.starts_with("\u{1b}[1mpage\u{1b}[0m: 94 bytes"));
        assert!(ansi.contains("\u{1b}[33mwindows-1252\u{1b}[0m, confidence"), "{ansi}");
        // Each escape, ESC [ … m, taken out: the plain text.
        let mut plain = String::new();
        let mut rest = ansi.as_str();
        while let Some((before, escape)) = rest.split_once('\u{1b}') {
            plain.push_str(before);
            rest = escape.split_once('m').map_or("", |(_, after)| after);
        }
        plain.push_str(rest);
        assert_eq!(plain, explanation.render(Some("page"), 20, Styling::Plain));
    }

    #[test]
    fn empty_and_binary_inputs_are_said_so() {
        let empty = explain(&Engine::new(), b"");
        assert_eq!(
            empty.render(Some("-"), 20, Styling::Plain),
            "-: empty (0 bytes), nothing to decide\n"
        );
        assert!(empty.is_clean());
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
        let binary = explain(&Engine::new(), png);
        let text = binary.render(None, 20, Styling::Plain);
        assert!(text.ends_with("\nDecision: binary data, not text, not decoded (--force-encoding decodes it anyway)\n"), "{text}");
        assert!(!binary.is_clean());
    }

    #[test]
    fn the_limit_bounds_each_list_and_counts_the_rest() {
        let line = "caf\u{C3}\u{A9} ".repeat(4);
        let page = format!("{line}\n").repeat(5);
        let text = explain(&Engine::new(), page.as_bytes()).render(None, 2, Styling::Plain);
        assert!(text.contains("  … and "), "{text}");
        let listed = text.lines().filter(|l| l.starts_with("  line ")).count();
        assert!(listed <= 2, "{text}");
    }
}
