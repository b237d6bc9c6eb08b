//! The `declaration` finding: an in-document declaration (`<meta>` charset,
//! the XML declaration's `encoding`) that the bytes contradict. The finding
//! states the facts; advice on what to do is the caller's to phrase.

use super::{Cause, Finding, Kind, UNPLACED};
use crate::sniff::Note;
use crate::{Charset, Detection, Rule};

/// The finding for an in-document declaration that the decision overrode
/// ("declared X, actual Y"), for text written in `output`: its range is the
/// declared label, `before` the label, `after` what a rewrite of the
/// declaration would write there (the output encoding's name), and the rule
/// says what was declared where and what the bytes are. The two ways to make
/// the output self-consistent (write the text in the declared encoding, or
/// rewrite the declaration) are the caller's to offer. Not applied until the
/// rewrite is spliced in ([`Repairer::with_splices`](super::Repairer::with_splices)).
/// `None` when no in-document declaration was overridden.
///
/// # Example
/// ```
/// use charsight::repair::declaration_finding;
/// use charsight::{Charset, Engine};
/// let feed = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>caf\xE9 cr\xE8me, d\xE9j\xE0 vu</a>";
/// let found = Engine::new().detect(feed);
/// assert_eq!(found.charset, Charset::Windows1252);
/// let finding = declaration_finding(&found, Charset::Utf8).unwrap();
/// assert_eq!(finding.range, 30..35);
/// assert_eq!(finding.before, "UTF-8");
/// assert!(!finding.applied);
/// assert!(finding.cause.to_string().starts_with("declared UTF-8 (xml at byte 30), but the bytes are windows-1252"));
/// ```
pub fn declaration_finding(detection: &Detection, output: Charset) -> Option<Finding> {
    let Rule::Overridden { declared, reason } = detection.rule else { return None };
    // (The Appendix F pattern has no label to rewrite.)
    let evidence = detection.declaration().filter(|e| {
        e.len > 0 && !e.notes.contains(&Note::Autodetected) && e.usable() == Some(declared)
    })?;
    let actual = detection.charset;
    let cause = Cause::Declaration {
        declared,
        source: evidence.source,
        offset: evidence.offset,
        actual,
        reason,
        output,
    };
    Some(Finding {
        kind: Kind::Declaration,
        range: evidence.offset as u64..(evidence.offset + evidence.len) as u64,
        at: UNPLACED,
        line: 1,
        before: evidence.label.clone(),
        after: output.name().to_owned(),
        confidence: detection.confidence,
        cause,
        applied: false,
    })
}
