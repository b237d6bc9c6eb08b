//! One block of text through the repairs: byte-level repairs on the decoded
//! text and its input bytes, then the text-level repairs (fonts, numeric
//! references, mojibake) in rounds until nothing more changes, then the text written out with a finding for every
//! edit and what stays malformed written as the caller's [`Errors`] mode
//! says.
//!
//! Edits are kept in the coordinates of the block's decoded text. A
//! text-level repair sees the text with the edits so far applied; its edits
//! are mapped back, and one that overlaps earlier edits is merged with them
//! (a layer of mojibake left under another, or mojibake in what the `mixed`
//! repair decoded), so that each finding covers a stretch of input bytes
//! and says every way it was changed.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;

use super::{
    fonts, mixed, mojibake, ncr, pua, score, Cause, Edit, Finding, Findings, FontScope, Kind,
    Leftover, RepairPolicy, EXCERPT_CHARS, MAX_LEFTOVERS, UNPLACED,
};
use crate::decode::{DecodeError, Errors, MalformedLog, OffsetMap, PieceKind};
use crate::font::Registry;
use crate::Charset;

/// A text-level repair: the edits it makes to a block's text.
type TextRepair<'a> = dyn Fn(&str) -> Vec<Edit> + 'a;

/// Rounds of text-level repairs at most. They go on until nothing changes
/// (a repair can make another one's context plausible, or text another
/// repairs: a C1 control read as windows-1252 completes a layer of mojibake,
/// whose undoing leaves another), so that the output is repaired to the end
/// and repairing it again changes nothing. Each round that changes the text
/// shortens it or turns a control into a letter (mojibake undone has fewer
/// characters), so rounds end within a few on any real text; the cap only
/// bounds the time on pathological input. (Four were too few: fuzzed bytes
/// in IBM01142 peeled a layer a round for five rounds.)
const ROUNDS: usize = 32;

/// A block of decoded text and what it came from.
pub(crate) struct Block<'a> {
    /// The text, malformed bytes written as escapes.
    pub text: &'a str,
    /// Its offset in the whole decoded text.
    pub base: u64,
    /// Its pieces, the last marking where it ends.
    pub map: &'a OffsetMap,
    /// Its input bytes.
    pub input: &'a [u8],
    /// The input offset of `input[0]`.
    pub input_base: u64,
    /// The input's encoding.
    pub charset: Charset,
}

/// One piece of the block: its text range (block offsets), input range, kind.
pub(crate) struct Segment {
    pub text: Range<usize>,
    pub input: Range<u64>,
    pub kind: PieceKind,
}

impl Block<'_> {
    /// The block's pieces as segments, in order.
    pub(crate) fn segments(&self) -> impl Iterator<Item = Segment> + '_ {
        let pieces = self.map.pieces();
        let end = self.text.len();
        pieces.iter().enumerate().filter_map(move |(i, p)| {
            let next = pieces.get(i + 1)?;
            let rel = |t: u64| usize::try_from(t.saturating_sub(self.base)).unwrap_or(end).min(end);
            Some(Segment {
                text: rel(p.text)..rel(next.text),
                input: p.input..next.input.max(p.input),
                kind: p.kind,
            })
        })
    }

    /// The input bytes of `range` (absolute offsets), as far as the block
    /// holds them.
    pub(crate) fn bytes(&self, range: Range<u64>) -> &[u8] {
        let at = |o: u64| {
            usize::try_from(o.saturating_sub(self.input_base)).unwrap_or(0).min(self.input.len())
        };
        &self.input[at(range.start)..at(range.end)]
    }

    /// The input bytes text `range` (block offsets) came from.
    pub(crate) fn input_range(&self, range: &Range<usize>) -> Range<u64> {
        let abs = self.base + range.start as u64..self.base + range.end as u64;
        self.map.input_range(self.text, self.base, abs)
    }
}

/// Where the repaired text and its findings go.
pub(crate) struct Sink<'a> {
    pub out: &'a mut String,
    /// Text written before this block.
    pub written: u64,
    /// Line breaks before this block.
    pub lines: u64,
    pub findings: &'a mut Findings,
    pub log: &'a mut MalformedLog,
    pub leftovers: &'a mut Vec<Leftover>,
    pub scopes: &'a mut Vec<FontScope>,
}

/// Repairs `block` as `policy` allows and writes it to `sink`.
pub(crate) fn repair(
    block: &Block,
    policy: RepairPolicy,
    errors: Errors,
    sink: Sink,
    registry: Option<&Registry>,
) -> Result<(), DecodeError> {
    if not_text(block) {
        // Repairs are for damaged text: on other bytes they would only
        // make changes up (and slowly: every byte looks like a stray).
        return write(block, &[], Vec::new(), errors, sink);
    }
    let fonts = registry.filter(|_| policy.allows(Kind::Fonts));
    // The fonts repairs of the decoded text, for the first round when no
    // repair before it changed the text.
    let mut first_fonts = None;
    if let Some(registry) = fonts {
        // The known fonts' scopes, as the decoded text has them.
        let (edits, scopes) = fonts::repair_text(block.text, registry);
        first_fonts = Some(edits);
        for (range, scope) in scopes {
            if sink.scopes.len() < MAX_LEFTOVERS {
                let range = block.input_range(&range);
                sink.scopes.push(FontScope { range, font: scope.font, declared: scope.declared });
            }
        }
    }
    let first_fonts = RefCell::new(first_fonts);
    // Mixed-in bytes, on the decoded text and its bytes.
    let mut edits = if policy.allows(Kind::Mixed) { mixed::repair(block) } else { Vec::new() };
    // Private-use characters a vendor table maps, before the text-level
    // repairs: they see the text as the output will have it.
    let private_use = policy.allows(Kind::PrivateUse);
    if private_use {
        edits.extend(pua::repair_text(block.text, block.charset, &edits).0);
        edits.sort_by_key(|e| e.range.start);
    }
    // Then the text-level repairs, in rounds until nothing changes: one can
    // make text another repairs (mojibake hiding Zawgyi, say).
    let font_repair = |text: &str| match first_fonts.borrow_mut().take() {
        Some(edits) if text == block.text => edits,
        _ => fonts.map_or_else(Vec::new, |r| fonts::repair_text(text, r).0),
    };
    let ncr_repair =
        |text: &str| if policy.allows(Kind::Ncr) { ncr::repair_text(text) } else { Vec::new() };
    // The possible mojibake repairs of the last text weighed (not made).
    let possible = RefCell::new(Vec::new());
    let mojibake_repair = |text: &str| {
        if !policy.allows(Kind::Mojibake) {
            return Vec::new();
        }
        let (made, maybe) = mojibake::repair_text(text);
        *possible.borrow_mut() = maybe;
        made
    };
    let text_repairs: [&TextRepair; 3] = [&font_repair, &ncr_repair, &mojibake_repair];
    let mut settled = false;
    for _ in 0..ROUNDS {
        let mut changed = false;
        for repair_text in text_repairs {
            let text = if edits.is_empty() {
                Cow::Borrowed(block.text)
            } else {
                Cow::Owned(apply(block.text, &edits))
            };
            let new = repair_text(&text);
            changed |= merge(&mut edits, new, &text);
        }
        if !changed {
            settled = true;
            break;
        }
    }
    let mut notes = Vec::new();
    if settled {
        // Weighed on the text as it is written: reported where they stand
        // apart from every repair made.
        notes.extend(apart(&edits, possible.into_inner()).into_iter().map(|e| Finding {
            kind: e.kind,
            range: block.input_range(&e.range),
            at: UNPLACED,
            line: 0,
            before: block.text[e.range].to_owned(),
            after: e.after,
            confidence: e.confidence,
            cause: e.cause,
            applied: false,
        }));
    }
    if private_use {
        // The private-use characters left: reported, not changed.
        let left = pua::repair_text(block.text, block.charset, &edits).1;
        notes.extend(left.into_iter().map(|(range, cause)| {
            let text = block.text[range.clone()].to_owned();
            Finding {
                kind: Kind::PrivateUse,
                range: block.input_range(&range),
                at: UNPLACED,
                line: 0,
                before: text.clone(),
                after: text,
                confidence: 1.0,
                cause,
                applied: false,
            }
        }));
    }
    write(block, &edits, notes, errors, sink)
}

/// Whether the block is not text, by the detector's rule for binary input
/// (NULs and control characters other than whitespace more than one in
/// twenty), counted on its characters with a run of undecodable ones as
/// one: the output writes that run as U+FFFD, and repairing the output
/// again must come to the same answer.
fn not_text(block: &Block) -> bool {
    use crate::detect::{looks_binary, nul_and_binary_controls};
    // The controls are ASCII, each its own byte.
    let controls = nul_and_binary_controls(block.text.as_bytes());
    if controls == 0 {
        return false;
    }
    let mut units = score::Units::default();
    block.text.chars().for_each(|c| units.add(c));
    looks_binary(controls as u64, units.counted as u64)
}

/// `text` with `edits` (sorted, not overlapping) applied.
pub(crate) fn apply(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for e in edits {
        out.push_str(&text[last..e.range.start]);
        out.push_str(&e.after);
        last = e.range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Adds `new` edits (sorted, not overlapping), made on `text` (the block's
/// text with `edits` applied), to `edits` (kept in the original
/// coordinates). A new edit that overlaps earlier ones is merged with them
/// into one: its range covers them all, its text is the text there now
/// with the new edit made (a second layer of mojibake undone, or mojibake
/// in what another repair decoded). Whether anything was added.
fn merge(edits: &mut Vec<Edit>, new: Vec<Edit>, text: &str) -> bool {
    let added = !new.is_empty();
    let new = match merge_apart(edits, new) {
        Ok(()) => return added,
        Err(new) => new,
    };
    // The text with the edits so far, kept in step as new ones are added
    // from the last (so that the earlier ones' coordinates still hold).
    let mut text = text.to_owned();
    for e in new.into_iter().rev() {
        let made = (e.range.clone(), e.after.clone());
        // Where each earlier edit's text is in `text`.
        let mut shift = 0_i64;
        let mut placed = Vec::with_capacity(edits.len());
        for x in edits.iter() {
            let start = (x.range.start as i64 + shift) as usize;
            placed.push(start..start + x.after.len());
            shift += x.after.len() as i64 - x.range.len() as i64;
        }
        let first = placed.partition_point(|r| r.end <= e.range.start);
        let last = placed.partition_point(|r| r.start < e.range.end);
        // The shift before a position of `text` outside every edit.
        let shift_before = |k: usize| -> i64 {
            edits[..k].iter().map(|x| x.after.len() as i64 - x.range.len() as i64).sum()
        };
        let back = |at: usize, k: usize| (at as i64 - shift_before(k)) as usize;
        if first == last {
            let range = back(e.range.start, first)..back(e.range.end, first);
            edits.insert(first, Edit { range, ..e });
            text.replace_range(made.0, &made.1);
            continue;
        }
        let start = e.range.start.min(placed[first].start);
        let end = e.range.end.max(placed[last - 1].end);
        let orig_start = if start == placed[first].start {
            edits[first].range.start
        } else {
            back(start, first)
        };
        let orig_end =
            if end == placed[last - 1].end { edits[last - 1].range.end } else { back(end, last) };
        let after =
            format!("{}{}{}", &text[start..e.range.start], e.after, &text[e.range.end..end]);
        let cause = edits[first..last]
            .iter()
            .map(|x| x.cause.clone())
            .reduce(Cause::then)
            .map_or(e.cause.clone(), |earlier| earlier.then(e.cause));
        let confidence =
            edits[first..last].iter().map(|x| x.confidence).fold(e.confidence, f32::min);
        let merged = Edit { range: orig_start..orig_end, after, kind: e.kind, cause, confidence };
        edits.splice(first..last, [merged]);
        text.replace_range(made.0, &made.1);
    }
    added
}

/// [`merge`] when no `new` edit overlaps an earlier one, in one pass: each
/// new edit goes in among the earlier ones, its range taken back to the
/// original coordinates. `new` is given back, and `edits` left, when some
/// new edit overlaps an earlier one.
fn merge_apart(edits: &mut Vec<Edit>, new: Vec<Edit>) -> Result<(), Vec<Edit>> {
    let placed = Placed::of(edits);
    // The earlier edits before each new one (as `merge` counts them).
    let Some(before) = new.iter().map(|e| placed.before(&e.range)).collect::<Option<Vec<_>>>()
    else {
        return Err(new);
    };
    let old = std::mem::take(edits);
    edits.reserve(old.len() + new.len());
    let mut old = old.into_iter().enumerate().peekable();
    for (e, first) in new.into_iter().zip(before) {
        while let Some((_, x)) = old.next_if(|&(i, _)| i < first) {
            edits.push(x);
        }
        edits.push(Edit { range: placed.back(&e.range, first), ..e });
    }
    edits.extend(old.map(|(_, x)| x));
    Ok(())
}

/// Of `found` (made on the block's text with `edits` applied), those that
/// overlap no edit, with their ranges taken back to the block's text.
fn apart(edits: &[Edit], found: Vec<Edit>) -> Vec<Edit> {
    let placed = Placed::of(edits);
    let back = |e: Edit| {
        let first = placed.before(&e.range)?;
        Some(Edit { range: placed.back(&e.range, first), ..e })
    };
    found.into_iter().filter_map(back).collect()
}

/// Where edits (sorted, not overlapping) are in the text with them made.
struct Placed {
    /// Each edit's text there.
    ranges: Vec<Range<usize>>,
    /// The bytes the edits before each added (one more: all of them).
    shifts: Vec<i64>,
}

impl Placed {
    fn of(edits: &[Edit]) -> Placed {
        let mut placed = Placed {
            ranges: Vec::with_capacity(edits.len()),
            shifts: Vec::with_capacity(edits.len() + 1),
        };
        let mut shift = 0_i64;
        for x in edits {
            let start = (x.range.start as i64 + shift) as usize;
            placed.ranges.push(start..start + x.after.len());
            placed.shifts.push(shift);
            shift += x.after.len() as i64 - x.range.len() as i64;
        }
        placed.shifts.push(shift);
        placed
    }

    /// How many edits come before `range` (of the text with them made);
    /// `None` when it overlaps one.
    fn before(&self, range: &Range<usize>) -> Option<usize> {
        let first = self.ranges.partition_point(|r| r.end <= range.start);
        (self.ranges.partition_point(|r| r.start < range.end) == first).then_some(first)
    }

    /// `range`, with `first` edits before it, in the text without them.
    fn back(&self, range: &Range<usize>, first: usize) -> Range<usize> {
        let back = |at: usize| (at as i64 - self.shifts[first]) as usize;
        back(range.start)..back(range.end)
    }
}

/// Writes the block with its edits; a finding for each edit, and what stays
/// malformed written by `errors` and logged. `notes` (problems reported,
/// not changed) and declarations reported before decoding get their place
/// in the output here. The block's findings are listed in input order.
fn write(
    block: &Block,
    edits: &[Edit],
    notes: Vec<Finding>,
    errors: Errors,
    sink: Sink,
) -> Result<(), DecodeError> {
    let Sink { out, written, lines, findings, log, leftovers, .. } = sink;
    let first = findings.list.len();
    for note in notes {
        findings.add(note);
    }
    let mut main = Main { log, leftovers, lines };
    let segments: Vec<Segment> = block.segments().collect();
    let start = out.len();
    let input_end = block.map.pieces().last().map_or(block.input_base, |p| p.input);
    let mut probes: Vec<(usize, usize)> = findings
        .list
        .iter()
        .enumerate()
        .filter(|(_, f)| f.at == UNPLACED)
        .filter(|(_, f)| f.range.start < input_end)
        .filter_map(|(i, f)| {
            let t = block.map.text_at(block.text, block.base, f.range.start)?;
            Some((i, usize::try_from(t.checked_sub(block.base)?).ok()?))
        })
        .collect();
    let mut place = |stretch: Range<usize>, out: &String, findings: &mut Findings| {
        probes.retain(|&(i, t)| {
            if !stretch.contains(&t) && t != stretch.end {
                return true;
            }
            let mut head = String::new();
            let _ = copy(block, &segments, stretch.start..t, errors, &mut head, None);
            findings.list[i].at = written + (out.len() - start + head.len()) as u64;
            findings.list[i].line = lines + 1 + block.text[..t].matches('\n').count() as u64;
            false
        });
    };
    let mut last = 0;
    let mut line = lines + 1;
    for e in edits {
        place(last..e.range.start, out, findings);
        copy(block, &segments, last..e.range.start, errors, out, Some(&mut main))?;
        line += block.text[last..e.range.start].matches('\n').count() as u64;
        let mut before = String::new();
        copy(block, &segments, e.range.clone(), errors, &mut before, None)?;
        findings.add(Finding {
            kind: e.kind,
            range: block.input_range(&e.range),
            at: written + (out.len() - start) as u64,
            line,
            before,
            after: e.after.clone(),
            confidence: e.confidence,
            cause: e.cause.clone(),
            applied: true,
        });
        line += block.text[e.range.clone()].matches('\n').count() as u64;
        out.push_str(&e.after);
        last = e.range.end;
    }
    place(last..block.text.len(), out, findings);
    if let Some(new) = findings.list.get_mut(first..) {
        new.sort_by_key(|f| f.range.start);
    }
    copy(block, &segments, last..block.text.len(), errors, out, Some(&mut main))
}

/// Where the main output's malformed sequences are logged.
struct Main<'a> {
    log: &'a mut MalformedLog,
    leftovers: &'a mut Vec<Leftover>,
    /// Line breaks before the block.
    lines: u64,
}

impl Main<'_> {
    /// Logs the malformed `segment` of `block`, written at the end of `out`
    /// (the block's output so far starts at `start` in `out`).
    fn record(&mut self, block: &Block, segment: &Segment, out: &str) {
        let input = &segment.input;
        self.log.record_range(input.start, input.end - input.start);
        if self.leftovers.len() >= MAX_LEFTOVERS {
            return;
        }
        let line_start = out.rfind('\n').map_or(0, |i| i + 1);
        let before: String = {
            let head = &out[line_start..];
            let skip = head.chars().count().saturating_sub(EXCERPT_CHARS);
            head.chars().skip(skip).collect()
        };
        let after: String = block.text[segment.text.end..]
            .chars()
            .take_while(|&c| c != '\n')
            .take(EXCERPT_CHARS)
            .map(|c| if crate::decode::is_escape(c) { '\u{FFFD}' } else { c })
            .collect();
        let line = self.lines + 1 + block.text[..segment.text.start].matches('\n').count() as u64;
        self.leftovers.push(Leftover {
            range: input.clone(),
            bytes: block.bytes(input.clone()).to_vec(),
            line,
            excerpt: format!("{before}\u{FFFD}{after}"),
        });
    }
}

/// Writes text `range` of the block as decoded: malformed sequences as
/// `errors` says (logged, when a log is given). With [`Errors::Strict`] and
/// a log, the first malformed sequence stops it.
fn copy(
    block: &Block,
    segments: &[Segment],
    range: Range<usize>,
    errors: Errors,
    out: &mut String,
    mut main: Option<&mut Main>,
) -> Result<(), DecodeError> {
    // The segments that end after the range starts (segments are in text
    // order): found by bisection, so that writing a block is linear in
    // its edits and segments together.
    let from = segments.partition_point(|s| s.text.end <= range.start);
    for s in segments[from..].iter().take_while(|s| s.text.start < range.end) {
        let part = s.text.start.max(range.start)..s.text.end.min(range.end);
        if part.start >= part.end {
            continue;
        }
        if s.kind != PieceKind::Malformed {
            out.push_str(&block.text[part]);
            continue;
        }
        if let Some(main) = main.as_deref_mut() {
            if errors == Errors::Strict {
                return Err(DecodeError::new(
                    block.charset,
                    s.input.start,
                    block.bytes(s.input.clone()),
                ));
            }
            main.record(block, s, out);
        }
        match errors {
            Errors::Escape => out.push_str(&block.text[part]),
            _ => out.push('\u{FFFD}'),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_apart_from_the_edits_is_taken_back_to_the_text() {
        let edit = |range: Range<usize>, after: &str| Edit {
            range,
            after: after.to_owned(),
            kind: Kind::Mojibake,
            cause: Cause::C1Control { bytes: Charset::Windows1252, guessed: false },
            confidence: 1.0,
        };
        // `xÃ©y z` with its `Ã©` made `é`: `xéy z`.
        let edits = [edit(1..5, "\u{E9}")];
        let found = vec![edit(0..1, "X"), edit(1..3, "E"), edit(5..6, "Z")];
        let apart: Vec<_> = apart(&edits, found).into_iter().map(|e| (e.range, e.after)).collect();
        assert_eq!(apart, [(0..1, "X".to_owned()), (7..8, "Z".to_owned())]);
    }
}
