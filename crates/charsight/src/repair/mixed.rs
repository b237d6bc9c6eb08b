//! The `mixed` repair: bytes of another encoding inside a document, found
//! on the bytes themselves rather than by decoding the whole document
//! wrongly.
//!
//! - **Fragments**: in a legacy ASCII-compatible document (windows-1252,
//!   ISO-8859-x, Shift_JIS, …), stretches of the document's own bytes that
//!   are valid UTF-8 ([`Units::utf8_runs`] over the document's characters,
//!   malformed bytes included) are decoded as UTF-8 when that reads far more
//!   plausibly (the margin of the `mojibake` repair, of which this is the
//!   byte-level case; further layers are peeled the same way). Runs that
//!   chance makes in clean text are set aside first, as the `mojibake`
//!   repair sets them aside (a GBK character that is a UTF-8 sequence by
//!   itself, two Thai letters inside a Thai word): a line with no other run
//!   is not weighed.
//! - **Strays**: runs of bytes malformed in the document's encoding (stray
//!   windows-1252 quotes in UTF-8 are the common case) are decoded by each
//!   candidate encoding that decodes them cleanly (the legacy ones, and
//!   UTF-8 in a legacy document: a fragment too short for the margin above
//!   may be a malformed run of its own), and the most plausible
//!   reading replaces them when it beats the U+FFFD a plain decode writes by
//!   [`MARGIN`] bits. A multibyte candidate may take one ASCII byte after the
//!   run as its trail byte. After [`MAX_SCORED`] runs in a block, only the
//!   encoding chosen most often so far is tried, which bounds the work on
//!   inputs that are mostly malformed.
//! - **Surrogate pairs**: in UTF-8, a run of malformed bytes that is
//!   characters beyond U+FFFF written as CESU-8 is decoded so, with
//!   certainty.

use std::ops::Range;

use super::block::{Block, Segment};
use super::mojibake::{self, Proposal, Via};
use super::score::{self, Share, Verdicts, Window};
use super::utf8::{self, Units};
use super::{Cause, Edit, Kind, LEGACY};
use crate::decode::PieceKind;
use crate::Charset;

/// The gain (bits) a reading of stray bytes needs over U+FFFD. Stray bytes
/// are damage whatever is done, so a small margin: the most plausible
/// reading, unless U+FFFD is nearly as plausible.
pub(crate) const MARGIN: f32 = 2.0;

/// How much less plausible than U+FFFD (bits) the block's leading
/// encoding may make a run before the run is left: the models know little
/// of rare punctuation (a closing quote in Hindi), and U+FFFD is no reading
/// at all. Set on the tuning half of the held-out text.
pub(crate) const LEADER_SLACK: f32 = 8.0;

/// Runs of stray bytes scored against every candidate in a block.
pub(crate) const MAX_SCORED: usize = 256;

/// The `mixed` repairs of a block, as edits of its text.
pub(crate) fn repair(block: &Block) -> Vec<Edit> {
    if !block.charset.is_ascii_compatible() {
        return Vec::new();
    }
    let mut edits = fragments(block);
    edits.extend(surrogate_pairs(block));
    let strays = strays(block, &edits);
    edits.extend(strays);
    edits.sort_by_key(|e| e.range.start);
    edits
}

/// The line of `text` holding `range`: its start offset and text.
fn line_of<'t>(text: &'t str, range: &Range<usize>) -> (usize, &'t str) {
    let start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[range.end..].find('\n').map_or(text.len(), |i| range.end + i);
    (start, &text[start..end])
}

/// A character (or a piece that cannot be split) of the block and its
/// input bytes.
struct Unit {
    text: Range<usize>,
    input: Range<u64>,
    ascii: bool,
}

/// The units of the block, in order; `None` stands for a splice.
fn units(block: &Block) -> Vec<Option<Unit>> {
    let mut units = Vec::with_capacity(block.input.len());
    for Segment { text, input, kind } in block.segments() {
        let part = &block.text[text.clone()];
        let one_byte_each = kind == PieceKind::Malformed
            || (kind == PieceKind::Decoded && (block.charset.is_single_byte() || part.is_ascii()));
        if one_byte_each {
            // Escapes of malformed bytes, characters of a single-byte
            // encoding, or a run of ASCII: one byte each.
            for (at, (i, c)) in (input.start..).zip(part.char_indices()) {
                let t = text.start + i..text.start + i + c.len_utf8();
                let ascii = c.is_ascii();
                units.push(Some(Unit { text: t, input: at..at + 1, ascii }));
            }
        } else if kind == PieceKind::Decoded {
            units.push(Some(Unit { text, input, ascii: false }));
        } else {
            units.push(None);
        }
    }
    units
}

/// How many bytes at the start of `bytes` are multibyte UTF-8 sequences.
fn multibyte_utf8(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        let len = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => break,
        };
        match bytes.get(at..at + len).map(std::str::from_utf8) {
            Some(Ok(_)) => at += len,
            _ => break,
        }
    }
    at
}

/// UTF-8 inside a legacy document. A run whose last UTF-8 sequence ends
/// inside a character of the document's encoding takes the characters up
/// to where the rest decodes again (a few at most). The margin grows with
/// the share of the line's and the block's non-ASCII text left as it is
/// ([`Share::margin`]).
fn fragments(block: &Block) -> Vec<Edit> {
    // Every run holds a whole multibyte UTF-8 sequence
    // ([`utf8::holds_multibyte`]): most blocks of legacy text have none (a
    // letter with an accent is a lead byte in windows-1252, and ASCII
    // follows it; in windows-1251 a small letter before `ё` or `»` is a
    // lead byte needing two continuation bytes, and what follows is no
    // second one), and no unit is read.
    if block.charset.is_unicode() || !utf8::holds_multibyte(block.input) {
        return Vec::new();
    }
    let via = Via::of(block.charset);
    let units = units(block);
    let unit = |i: usize| units.get(i).and_then(Option::as_ref);
    // Each run: its text range and its text.
    let mut runs: Vec<(Range<usize>, String)> = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let group_end =
            (i..units.len()).find(|&j| unit(j).is_none_or(|u| u.ascii)).unwrap_or(units.len());
        if group_end == i {
            i += 1;
            continue;
        }
        // A group whose bytes hold no whole multibyte sequence has no run
        // (a word of Cyrillic in windows-1251: its letters are lead bytes,
        // or no UTF-8 at all).
        // (A group's units are all read, and side by side in the input: a
        // splice ends it.)
        let input = |j: usize| unit(j).expect("a group's units are read").input.clone();
        let bytes = block.bytes(input(i).start..input(group_end - 1).end);
        if !utf8::holds_multibyte(bytes) {
            i = group_end;
            continue;
        }
        let group: Vec<&Unit> = (i..group_end).filter_map(unit).collect();
        let mut bytes = Units::with_capacity(bytes.len());
        for u in &group {
            bytes.push(block.bytes(u.input.clone()));
        }
        for run in bytes.utf8_runs() {
            let (first, last) = (group[run.start], group[run.end - 1]);
            let mut fixed = utf8::decode(bytes.bytes(run.clone()));
            let mut end = last.text.end;
            // The UTF-8 may run on into the next character.
            let next = i + run.end;
            if let Some(u) = unit(next) {
                let ahead = block.bytes(u.input.start..u.input.start + 16);
                let more = multibyte_utf8(ahead);
                if more > 0 {
                    if let Some((text, to)) =
                        resync(block, &units, u.input.start + more as u64, next)
                    {
                        fixed.push_str(&utf8::decode(&ahead[..more]));
                        fixed.push_str(&text);
                        end = to;
                    }
                }
            }
            runs.push((first.text.start..end, fixed));
        }
        i = group_end;
    }
    // A run may not end inside a malformed sequence (it would split what a
    // plain decode writes as one U+FFFD).
    let malformed: Vec<Range<usize>> =
        block.segments().filter(|s| s.kind == PieceKind::Malformed).map(|s| s.text).collect();
    let splits = |at: usize| malformed.iter().any(|m| m.start < at && at < m.end);
    runs.retain(|(range, _)| !splits(range.start) && !splits(range.end));
    // A run that took the characters after it up to a resynchronization
    // may reach into the next run: the first keeps them.
    let mut end = 0;
    runs.retain(|(range, _)| {
        let keep = range.start >= end;
        end = end.max(range.end);
        keep
    });
    // The characters the runs cover, summed in order: the runs are sorted
    // and apart, so those inside a range are a stretch of them (found by
    // bisection, not by a pass over every run for every line).
    debug_assert!(runs.windows(2).all(|w| w[0].0.end <= w[1].0.start));
    let mut sums = vec![0];
    for (r, _) in &runs {
        sums.push(sums.last().copied().unwrap_or(0) + block.text[r.clone()].chars().count());
    }
    let spans: Vec<Range<usize>> = runs.iter().map(|(r, _)| r.clone()).collect();
    let covered = |range: &Range<usize>| -> usize {
        let first = spans.partition_point(|r| r.start < range.start);
        let last = spans.partition_point(|r| r.end <= range.end);
        sums[last.max(first)] - sums[first]
    };
    let block_share = Share::of(block.text, covered(&(0..block.text.len())));
    // Line by line: each run judged with the line's other runs repaired.
    let mut edits = Vec::new();
    let mut k = 0;
    while k < runs.len() {
        let (start, line) = line_of(block.text, &runs[k].0);
        let end = start + line.len();
        let in_line = runs[k..].iter().take_while(|(r, _)| r.end <= end).count().max(1);
        // Runs chance makes in clean text (a double-byte character that is
        // a UTF-8 sequence by itself, beside letters that stay) are not
        // weighed, nor a line with only those.
        let own = runs[k..k + in_line]
            .iter_mut()
            .map(|(range, fixed)| (range.start - start..range.end - start, std::mem::take(fixed)));
        let kept = mojibake::without_stray_readings(line, own.collect());
        if kept.is_empty() {
            k += in_line;
            continue;
        }
        let (language, line_cost) = score::line_language_cost(line).unzip();
        let line_cost = line_cost.flatten();
        let proposals: Vec<Proposal> = kept
            .into_iter()
            .map(|(range, fixed)| {
                let mut p = Proposal::new(range, fixed, via);
                p.choose(line, language);
                p
            })
            .collect();
        // A line whose non-ASCII text is all UTF-8 is a line pasted from
        // a UTF-8 source, however clean the rest of the block.
        let share = Share::of(line, covered(&(start..end)));
        let witness = if share.left == 0 { share } else { block_share };
        let margin = share.margin(witness, mojibake::MARGIN);
        k += in_line;
        // Runs that, all decoded, leave the line no more plausible in its
        // language than it is are chance (the bytes of Thai text in
        // windows-874 form UTF-8 sequences everywhere).
        // (Under the line's language, only its models are scored.)
        let cost = |text: &str| match language {
            Some(l) => score::cost_in(text, l).unwrap_or(f32::INFINITY),
            None => score::costs(text).best().map_or(0.0, |b| b.1),
        };
        // (The line's own cost comes with its language, when it is scored
        // as it stands.)
        if cost(&mojibake::apply(line, &proposals).0) >= line_cost.unwrap_or_else(|| cost(line)) {
            continue;
        }
        for (p, gain) in mojibake::judge_in_place(line, proposals) {
            if gain < margin {
                continue;
            }
            let cause =
                Cause::Mixed { bytes: Charset::Utf8, document: block.charset, garbled: p.chosen };
            let confidence = score::confidence(gain, margin);
            let range = start + p.range.start..start + p.range.end;
            let after = p.after().to_owned();
            edits.push(Edit { range, after, kind: Kind::Mixed, cause, confidence });
        }
    }
    edits
}

/// The document's own reading of its bytes from `from` (inside unit
/// `inside`, just past a UTF-8 run) to the end of a unit a few on, where it
/// decodes cleanly: the text, and where it ends in the block's text.
fn resync(
    block: &Block,
    units: &[Option<Unit>],
    from: u64,
    inside: usize,
) -> Option<(String, usize)> {
    let encoding = block.charset.to_encoding_rs()?;
    for u in units.iter().skip(inside).take(4) {
        let u = u.as_ref()?;
        if u.input.end <= from {
            continue;
        }
        let bytes = block.bytes(from..u.input.end);
        if let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(bytes) {
            return Some((text.into_owned(), u.text.end));
        }
    }
    None
}

/// The runs of malformed bytes of the block: text, input, and how many
/// malformed sequences each joins.
fn malformed_runs(block: &Block) -> Vec<(Range<usize>, Range<u64>, usize)> {
    let mut runs: Vec<(Range<usize>, Range<u64>, usize)> = Vec::new();
    for s in block.segments().filter(|s| s.kind == PieceKind::Malformed) {
        match runs.last_mut() {
            Some((text, input, n)) if text.end == s.text.start && input.end == s.input.start => {
                text.end = s.text.end;
                input.end = s.input.end;
                *n += 1;
            }
            _ => runs.push((s.text, s.input, 1)),
        }
    }
    runs
}

/// Runs of malformed bytes in UTF-8 that are surrogate pairs written as
/// two three-byte sequences each ([`utf8::surrogate_pair`]: CESU-8, from
/// Oracle's `UTF8`, Java, JSON escapes decoded one by one), as their
/// characters: no other reading of those bytes is text.
fn surrogate_pairs(block: &Block) -> Vec<Edit> {
    if block.charset != Charset::Utf8 {
        return Vec::new();
    }
    let mut edits = Vec::new();
    for (range, input, _) in malformed_runs(block) {
        let bytes = block.bytes(input);
        let pairs: Option<String> =
            bytes.chunks(6).map(utf8::surrogate_pair).collect::<Option<String>>();
        if let Some(after) = pairs.filter(|p| !p.is_empty()) {
            let cause = Cause::SurrogatePairs;
            edits.push(Edit { range, after, kind: Kind::Mixed, cause, confidence: 1.0 });
        }
    }
    edits
}

/// One run of malformed bytes and its readings.
struct Stray {
    /// The run's text (escapes) and the character after it, if a reading
    /// takes it as a trail byte.
    stretch: Range<usize>,
    run_end: usize,
    /// Each candidate that decodes it: the charset, the text of the stretch,
    /// whether it took the next character.
    readings: Vec<(Charset, String, bool)>,
    verdicts: Verdicts,
    /// A mojibake repair of its line takes the run in (as a byte the
    /// mojibake lost: `â€` then U+FFFD is `”`): the run is left to it.
    in_mojibake: bool,
}

/// Runs of malformed bytes not covered by `taken`, decoded by the
/// encoding that fits them: the one that fits the block's runs best where
/// it decodes the run and clears the margin, else the run's own best.
fn strays(block: &Block, taken: &[Edit]) -> Vec<Edit> {
    let mut runs = malformed_runs(block);
    runs.retain(|(text, _, _)| {
        !taken.iter().any(|e| e.range.start < text.end && text.start < e.range.end)
    });
    let mut strays: Vec<Stray> = Vec::new();
    let mut totals: Vec<(Charset, f32)> = Vec::new();
    // The line of the last run, unmangled once per line.
    let mut unmangled: Option<Unmangled> = None;
    for (text, input, sequences) in runs.iter().cloned() {
        // In a legacy document, a run may be UTF-8 that the fragment repair
        // left (too little evidence to change valid text, but this run is
        // U+FFFD as it stands).
        let candidates: Vec<Charset> = if strays.len() < MAX_SCORED {
            LEGACY.iter().chain([&Charset::Utf8]).copied().filter(|&c| c != block.charset).collect()
        } else {
            leader(&totals).into_iter().collect()
        };
        let (start, line) = line_of(block.text, &text);
        let line = match unmangled.take() {
            Some(u) if u.start == start => u,
            _ => Unmangled::new(start, line),
        };
        let stray = read_stray(block, text, input, sequences, &candidates, &line);
        unmangled = Some(line);
        // Each encoding's cost over the runs so far: its reading, or the
        // run as it stands where it has none.
        for &charset in &candidates {
            let cost = match stray.readings.iter().position(|r| r.0 == charset) {
                Some(i) => stray.verdicts.costs[i],
                None => stray.verdicts.original,
            };
            match totals.iter_mut().find(|(c, _)| *c == charset) {
                Some((_, total)) => *total += cost,
                None => totals.push((charset, cost)),
            }
        }
        strays.push(stray);
    }
    let leader = leader(&totals);
    let mut edits = Vec::new();
    for stray in strays.into_iter().filter(|s| !s.in_mojibake) {
        // The leading encoding's reading unless it is far less plausible
        // than U+FFFD; else the run's own best if it clears the margin.
        let own = stray.readings.iter().position(|r| Some(r.0) == leader);
        let choice = own
            .map(|i| (i, stray.verdicts.gains[i]))
            .filter(|&(_, gain)| gain >= -LEADER_SLACK)
            .or_else(|| stray.verdicts.best().filter(|&(_, gain)| gain >= MARGIN));
        let Some((i, gain)) = choice else { continue };
        let (charset, mut after, took_next) = stray.readings[i].clone();
        let range = if took_next {
            stray.stretch
        } else {
            after.truncate(after.len() - (stray.stretch.end - stray.run_end));
            stray.stretch.start..stray.run_end
        };
        let cause = Cause::Mixed { bytes: charset, document: block.charset, garbled: 0 };
        let confidence = score::confidence(gain, MARGIN);
        edits.push(Edit { range, after, kind: Kind::Mixed, cause, confidence });
    }
    if block.charset == Charset::Utf8 {
        join_chance_utf8(block, &runs, &mut edits);
    }
    edits
}

/// Characters between two runs of stray bytes that may be stray bytes too.
const CHANCE_UTF8: usize = 3;

/// Bytes of input a stretch of runs joined across chance characters spans
/// at most (a word or a phrase of stray bytes; random bytes would join into
/// one).
const MAX_JOINED: u64 = 256;

/// Reads runs of stray bytes whole with the few characters between them
/// ([`CHANCE_UTF8`], none ASCII) when those are a chance of the stray
/// bytes: a word in windows-874 in a UTF-8 page forms valid UTF-8 here and
/// there (`\xD1\xB4`, `Ѵ`, between two Thai letters), which breaks it into
/// runs too short to read apart. The most plausible reading of the whole
/// stretch replaces the runs' own readings (`edits`, with the characters
/// between them) when it beats them by the margin of a mojibake repair (it
/// reads valid UTF-8 otherwise).
fn join_chance_utf8(
    block: &Block,
    runs: &[(Range<usize>, Range<u64>, usize)],
    edits: &mut Vec<Edit>,
) {
    // A few characters decoded as they are in the input, none ASCII.
    let chance = |range: Range<usize>| {
        let text = &block.text[range.clone()];
        !text.is_empty()
            && text.chars().count() <= CHANCE_UTF8
            && text.chars().all(score::tells_language)
            && block.bytes(block.input_range(&range)) == text.as_bytes()
    };
    // Stretches of runs with chance characters between them: (text, input,
    // parts joined: runs, and chance characters at the ends).
    let mut stretches: Vec<(Range<usize>, Range<u64>, usize)> = Vec::new();
    for (text, input, _) in runs {
        match stretches.last_mut() {
            Some((t, i, n)) if input.end - i.start <= MAX_JOINED && chance(t.end..text.start) => {
                t.end = text.end;
                i.end = input.end;
                *n += 1;
            }
            _ => stretches.push((text.clone(), input.clone(), 1)),
        }
    }
    // A stretch also takes the chance characters at its ends, between it
    // and plain ASCII (or the start or end of the line).
    let mut last_end = 0;
    for (text, input, n) in &mut stretches {
        let before = block.text[last_end..text.start].chars().rev();
        let lead: usize =
            before.take_while(|&c| score::tells_language(c)).map(char::len_utf8).sum();
        let after = block.text[text.end..].chars().take_while(|&c| score::tells_language(c));
        let trail: usize = after.map(char::len_utf8).sum();
        let bounded = |at: usize| block.text[..at].chars().next_back().is_none_or(|c| c.is_ascii());
        let ends = |at: usize| block.text[at..].chars().next().is_none_or(|c| c.is_ascii());
        if chance(text.start - lead..text.start) && bounded(text.start - lead) {
            text.start -= lead;
            input.start -= lead as u64;
            *n += 1;
        }
        if chance(text.end..text.end + trail) && ends(text.end + trail) {
            text.end += trail;
            input.end += trail as u64;
            *n += 1;
        }
        last_end = text.end;
    }
    let joined = stretches.into_iter().filter(|s| s.2 > 1).take(MAX_SCORED);
    for (range, input, _) in joined {
        let inside: Vec<usize> = (0..edits.len())
            .filter(|&i| edits[i].range.start < range.end && range.start < edits[i].range.end)
            .collect();
        // The runs' own readings: the stretch with their edits made (one that
        // took the ASCII character after the stretch is left alone).
        if inside.iter().any(|&i| edits[i].range.end > range.end) {
            continue;
        }
        let mut apart = String::new();
        let mut at = range.start;
        for &i in &inside {
            apart.push_str(&block.text[at..edits[i].range.start]);
            apart.push_str(&edits[i].after);
            at = edits[i].range.end;
        }
        apart.push_str(&block.text[at..range.end]);
        let bytes = block.bytes(input);
        let readings: Vec<(Charset, String)> = LEGACY
            .iter()
            .filter(|&&c| c != block.charset)
            .filter_map(|&c| {
                let text = c
                    .to_encoding_rs()?
                    .decode_without_bom_handling_and_without_replacement(bytes)?;
                (!text.chars().any(char::is_control)).then(|| (c, text.into_owned()))
            })
            .collect();
        // The language of the line around the stretch (chance characters
        // are of any script: Thai bytes form CJK ones).
        let (start, line) = line_of(block.text, &range);
        let local = range.start - start..range.end - start;
        let around = format!("{} {}", &line[..local.start], &line[local.end..]);
        let window = Window::new(line, local, score::line_language(&around));
        let texts: Vec<&str> = readings.iter().map(|r| r.1.as_str()).collect();
        let Some((best, gain)) = window.choose(&apart, &texts, true) else { continue };
        if gain < mojibake::MARGIN {
            continue;
        }
        let (charset, after) = readings[best].clone();
        let cause = Cause::Mixed { bytes: charset, document: block.charset, garbled: 0 };
        let confidence = score::confidence(gain, mojibake::MARGIN);
        let edit = Edit { range: range.clone(), after, kind: Kind::Mixed, cause, confidence };
        edits.retain(|e| !(e.range.start < range.end && range.start < e.range.end));
        let at = edits.iter().position(|e| e.range.start >= range.end).unwrap_or(edits.len());
        edits.insert(at, edit);
    }
}

/// The encoding with the lowest total cost.
fn leader(totals: &[(Charset, f32)]) -> Option<Charset> {
    totals.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map(|&(c, _)| c)
}

/// A line as the mojibake repair would leave it, where its stray bytes are
/// scored: a line's mojibake (`Ã©` for `é`) would otherwise make its
/// language one whose letters the mojibake looks like, and the stray bytes
/// around it would be read in that language.
struct Unmangled {
    /// Where the line starts in the block's text.
    start: usize,
    text: String,
    /// The mojibake repairs made (ranges in the line as it stands).
    edits: Vec<Edit>,
    language: Option<&'static str>,
    /// It has box drawing or block elements: a stray byte may read as one.
    draws: bool,
}

impl Unmangled {
    fn new(start: usize, line: &str) -> Unmangled {
        let edits = mojibake::repair_text(line).0;
        let text = super::block::apply(line, &edits);
        let language = score::line_language(&text);
        let draws = text.chars().any(is_box_drawing);
        Unmangled { start, text, edits, language, draws }
    }

    /// `range` (in the block's text, inside the line) in the unmangled
    /// line; `None` if a repair overlaps it.
    fn map(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let local = range.start - self.start..range.end - self.start;
        let mut shift: isize = 0;
        for e in &self.edits {
            if e.range.end <= local.start {
                shift += e.after.len() as isize - e.range.len() as isize;
            } else if e.range.start < local.end {
                return None;
            }
        }
        let at = |offset: usize| offset.checked_add_signed(shift);
        Some(at(local.start)?..at(local.end)?)
    }
}

/// The readings of one run of malformed bytes in `candidates`, scored in
/// its line under `language`.
fn read_stray(
    block: &Block,
    text: Range<usize>,
    input: Range<u64>,
    sequences: usize,
    candidates: &[Charset],
    line: &Unmangled,
) -> Stray {
    let bytes = block.bytes(input);
    // The ASCII character after the run, which a multibyte reading may take
    // as its trail byte; the stretch scored takes it in every reading.
    let next = block.text[text.end..].chars().next().filter(char::is_ascii_graphic);
    let tail = next.map(String::from).unwrap_or_default();
    let mut readings = Vec::new();
    for &charset in candidates {
        let Some(encoding) = charset.to_encoding_rs() else { continue };
        let decode = |bytes: &[u8]| {
            encoding
                .decode_without_bom_handling_and_without_replacement(bytes)
                .filter(|t| !t.chars().any(char::is_control))
                .map(|t| t.into_owned())
        };
        match (decode(bytes), next) {
            (Some(t), _) => readings.push((charset, t + &tail, false)),
            (None, Some(c)) if !charset.is_single_byte() => {
                let mut longer = bytes.to_vec();
                longer.push(c as u8);
                if let Some(t) = decode(&longer) {
                    readings.push((charset, t, true));
                }
            }
            _ => {}
        }
    }
    // Box drawing and block elements (KOI8's bytes 0x80–0xBF) are a text
    // screen's: a stray byte reads as one only in a line that draws with
    // them already (`‘정말’` in Korean UTF-8 is windows-1252's quotes, which
    // the Korean model prices above KOI8-R's `▒정말▓`).
    if !line.draws {
        readings.retain(|(_, text, _)| !text.chars().any(is_box_drawing));
    }
    let stretch = text.start..text.end + tail.len();
    let in_mojibake = line.map(&stretch).is_none();
    // Scored in the unmangled line, unless a mojibake repair touches it.
    let window = match line.map(&stretch) {
        Some(range) => Window::new(&line.text, range, line.language),
        None => {
            let (start, text) = line_of(block.text, &stretch);
            Window::new(text, stretch.start - start..stretch.end - start, line.language)
        }
    };
    let shown = "\u{FFFD}".repeat(sequences) + &tail;
    let texts: Vec<&str> = readings.iter().map(|r| r.1.as_str()).collect();
    let mut verdicts = window.judge(&shown, &texts, false);
    // A plain decode writes one U+FFFD per malformed sequence, but the
    // scoring weighs a run of them as one (see `score::costs`): the others
    // cost what that one does here, or a word in another encoding (six
    // bytes, six sequences) would look cheaper left as it is.
    if sequences > 1 {
        // `verdicts.original` is what the window costs with `shown`.
        let one = verdicts.original - window.cost(&tail);
        let extra = (sequences - 1) as f32 * one.max(0.0);
        verdicts.original += extra;
        verdicts.gains.iter_mut().for_each(|g| *g += extra);
    }
    // Each reading costs its encoding's prior too.
    for (i, (charset, _, _)) in readings.iter().enumerate() {
        verdicts.costs[i] += score::prior(*charset);
        verdicts.gains[i] -= score::prior(*charset);
    }
    Stray { stretch, run_end: text.end, readings, verdicts, in_mojibake }
}

/// Whether `c` is a box-drawing character or a block element
/// (U+2500–U+259F).
fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{259F}').contains(&c)
}
