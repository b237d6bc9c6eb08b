//! Damage analysis: what in the bytes is damage to repair rather than the
//! mark of another encoding. A page with a few stray bytes of another
//! encoding, a legacy document with UTF-8 pasted into it, UTF-8 garbled
//! into mojibake: each reads worse in its own encoding than some other
//! encoding reads it by chance, so the detector's ranking alone would
//! switch encodings. The [`pipeline`](crate::pipeline) asks this stage
//! before it decides by content ([`Rule::MostlyUtf8`](crate::Rule::MostlyUtf8),
//! [`Rule::Utf8Fragments`](crate::Rule::Utf8Fragments), [`Rule::StrayBytes`](crate::Rule::StrayBytes)) and when it weighs a
//! candidate the detector ruled out ([`weigh`], [`Candidate::behind`]).

use crate::detect::{Detector, Guess, Plausibility};
use crate::detection::Candidate;
use crate::sniff::Source;
use crate::verify::Sample;
use crate::{repair, Charset};

/// A declaration with fewer malformed sequences than this is not refuted
/// by their number ([`too_malformed`]): one or two are stray bytes, damage
/// to report and repair, and its text is weighed instead.
pub(crate) const REFUTING_MALFORMED: u64 = 3;

/// Valid UTF-8 with at least this many multibyte sequences is UTF-8.
pub(crate) const UTF8_SEQUENCES: u64 = 3;

/// A short UTF-8 text may hold a word of stray bytes of another encoding:
/// up to this many malformed sequences, though they outnumber the valid
/// ones ([`weighable_utf8`]).
const STRAY_SEQUENCES: u64 = 8;

/// Whether a candidate's decode has too many malformed sequences to be
/// the document's encoding with a few damaged bytes. Text in a legacy
/// encoding practically never forms valid UTF-8 multibyte sequences, so a
/// UTF-8 decode is broken only when malformed sequences outnumber valid
/// ones; other multibyte encodings often decode wrong bytes as valid pairs
/// by chance, so for them one malformed per five characters is too many.
/// A declaration also needs [`REFUTING_MALFORMED`] of them (`declared`),
/// but for UTF-8 with no valid sequence beyond ASCII, which has no evidence
/// for it but the label.
pub(crate) fn too_malformed(candidate: &Candidate, declared: bool) -> bool {
    let v = &candidate.verification;
    match candidate.charset {
        _ if v.malformed == 0 => false,
        // UTF-8 with no valid sequence beyond ASCII has nothing for it but
        // a label (a byte order mark is more: see `bom_refuted`).
        Charset::Utf8 if v.non_ascii == 0 && !candidate.sources.contains(&Source::Bom) => true,
        _ if declared && v.malformed < REFUTING_MALFORMED => false,
        Charset::Utf8 => v.malformed > v.non_ascii,
        _ => v.malformed * 5 > v.non_ascii,
    }
}

/// How many bytes of the sample a reading the detector ruled out is
/// weighed on ([`Candidate::behind`]): enough text to tell a wrong reading by
/// far. (At 64 KiB every decision of `declared-eval` and `compare` on the
/// corpora was the same, for four times the work.)
pub(crate) const WEIGHED_BYTES: usize = 16 * 1024;

/// How plausible the text `charset` decodes from the start of `sample`
/// ([`WEIGHED_BYTES`]) is, each malformed sequence a U+FFFD (which the
/// models charge as a control character).
pub(crate) fn weigh(charset: Charset, sample: &[u8]) -> Plausibility {
    crate::detect::plausibility(&weighed_text(charset, sample))
}

/// The bits of [`weigh`] when they are at most `limit`; `None` when they
/// are more (found in a fraction of the time when they are far more).
pub(crate) fn weigh_within(charset: Charset, sample: &[u8], limit: f32) -> Option<f32> {
    crate::detect::plausibility_bits_within(&weighed_text(charset, sample), limit)
}

/// The text [`weigh`] weighs.
fn weighed_text(charset: Charset, sample: &[u8]) -> std::borrow::Cow<'_, str> {
    charset.decode(&sample[..sample.len().min(WEIGHED_BYTES)]).0
}

/// Whether the bytes are UTF-8 though the detector's best reading is not
/// ([`Rule::MostlyUtf8`](crate::Rule::MostlyUtf8)), and if so the language of the UTF-8 text as the
/// repairs would leave it.
/// `utf8_larger` is set when the bytes hold UTF-8 fragments that read as
/// UTF-8 ([`without_fragments`]): whether their text is the larger part.
pub(crate) fn damaged_utf8(
    candidates: &[Candidate],
    guess: &Guess,
    sample: &[u8],
    utf8_larger: Option<bool>,
) -> Option<MostlyUtf8> {
    let best = guess.candidates.first().filter(|c| c.charset != Charset::Utf8)?;
    // Characters beyond U+FFFF written as CESU-8 are UTF-8 to a reader
    // (and the `mixed` repair), and no other encoding's text by chance.
    let valid = valid_utf8(candidates) || repair::is_utf8_with_surrogate_pairs(sample);
    if !valid && !weighable_utf8(candidates) {
        return None;
    }
    let utf8 = utf8_read(sample);
    // Valid UTF-8 needs no weighing. UTF-8 whose multibyte sequences were
    // found to read as UTF-8 is the document's encoding when it is the
    // larger part: the repairs read a few stray bytes in UTF-8, or a few
    // UTF-8 fragments in a legacy encoding, more surely than whole lines of
    // the other. Other UTF-8 is weighed against the best reading's decode.
    let reads_better =
        || utf8.bits < crate::detect::plausibility(&best.charset.decode(sample).0).bits;
    let utf8_is_it = match utf8_larger {
        Some(larger) => valid || larger,
        None => valid || reads_better(),
    };
    utf8_is_it.then_some(MostlyUtf8 { language: utf8.language })
}

/// Bytes that are UTF-8 though the detector's best reading is not
/// ([`damaged_utf8`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MostlyUtf8 {
    /// The language of the UTF-8 text as the repairs would leave it.
    pub language: Option<&'static str>,
}

/// The encoding the detector's leader was until a few bytes ruled it out
/// ([`Rule::StrayBytes`](crate::Rule::StrayBytes)), when it decodes the sample to likelier text,
/// each malformed sequence charged, than the detector's pick
/// ([`Candidate::behind`]), and not with too many malformed sequences;
/// never when the bytes are valid UTF-8. (UTF-8 is weighed apart, in
/// [`damaged_utf8`].)
pub(crate) fn stray_bytes(
    candidates: &[Candidate],
    guess: &Guess,
    sample: &[u8],
    leader_read: Option<Plausibility>,
) -> Option<Charset> {
    let leader = guess.leader_ruled_out?;
    let candidate = candidates.iter().find(|c| c.charset == leader)?;
    let reads_better = candidate.behind.is_some_and(|bits| bits < 0.0);
    if !reads_better || too_malformed(candidate, false) {
        return None;
    }
    // Valid UTF-8 is UTF-8 ([`UTF8_SEQUENCES`]), however oddly it reads: a
    // table of lone Cyrillic letters in quotes reads better as GBK, whose
    // stray bytes it then has. Bytes that read as UTF-8 with a few
    // malformed sequences (mojibake that lost bytes on the way) are
    // weighed as the repairs would leave them: the leader must read better
    // than that too. (`Ī¼ĪæĻ`, Greek UTF-8 read as windows-1257 with its
    // undefined bytes lost, reads as GBK better than as windows-1257.)
    if valid_utf8(candidates) {
        return None;
    }
    if weighable_utf8(candidates) {
        let sample = &sample[..sample.len().min(WEIGHED_BYTES)];
        if leader_read?.bits >= utf8_read(sample).bits {
            return None;
        }
    }
    Some(leader)
}

/// How plausible `sample` is as UTF-8 once its mojibake is repaired
/// (`fÃ¼r`), each malformed sequence a U+FFFD.
fn utf8_read(sample: &[u8]) -> Plausibility {
    crate::detect::plausibility(&repair::unmangled(&Charset::Utf8.decode(sample).0))
}

/// The detector's guess on `sample` with its UTF-8 fragments left out, and
/// which part is the larger, when the sample has some: it is not UTF-8 (it
/// has malformed sequences), that guess picks a legacy ASCII-compatible
/// encoding (single-byte, Shift_JIS, GBK, …), and the multibyte UTF-8
/// sequences among the bytes read as UTF-8 more plausibly than in that
/// encoding (see [`fragments_read_as_utf8`]).
///
/// Where the detector's own pick is a legacy encoding, the fragments are
/// weighed in it first, and the detector runs again only if they pass: a
/// fragment reads as letters and symbols of any single-byte encoding,
/// `protÃ©ger` in windows-1252, `protأ©ger` in windows-1256, whose Arabic
/// letter inside a French word pays no case, so a French page with a UTF-8
/// sentence read as windows-1256. Where it is not (UTF-16 or UTF-32 without
/// a byte order mark), the fragments' bytes may have ruled out every legacy
/// reading, as UTF-8 Thai does windows-874 (whose C1 area is undefined):
/// the text of both halves then reads as UTF-16 no worse than as any
/// survivor, so the guess without the fragments names the encoding to
/// weigh them in.
pub(crate) fn without_fragments(
    detector: impl FnOnce() -> Detector,
    sample: &Sample,
    guess: &Guess,
) -> Option<Fragmented> {
    let first = guess.candidates.first()?.charset;
    if first == Charset::Utf8 {
        return None;
    }
    let fragments = utf8_fragments(sample)?;
    let sample = sample.bytes();
    if is_legacy(first) && !fragments_read_as_utf8(sample, &fragments, first) {
        return None;
    }
    let mut masked = sample.to_vec();
    for range in &fragments {
        masked[range.clone()].fill(b' ');
    }
    let mut detector = detector();
    detector.feed(&masked, true);
    let refined = detector.guess();
    let pick = refined.candidates.first().map(|c| c.charset).filter(|&c| is_legacy(c))?;
    if !is_legacy(first) && !fragments_read_as_utf8(sample, &fragments, pick) {
        return None;
    }
    let (utf8, legacy) = lines_of_each(sample, &fragments);
    Some(Fragmented { guess: refined, utf8_larger: utf8 >= legacy })
}

/// How many lines of `sample` hold UTF-8 `fragments`, and how many hold
/// other high bytes (the legacy text).
fn lines_of_each(sample: &[u8], fragments: &[std::ops::Range<usize>]) -> (usize, usize) {
    let (mut utf8, mut legacy) = (0, 0);
    let mut fragments = fragments.iter().peekable();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', sample).chain([sample.len()]) {
        // The fragments' bytes are all high ones, and no fragment holds a
        // line break.
        let mut in_fragments = 0;
        while let Some(f) = fragments.next_if(|f| f.start < end) {
            in_fragments += f.len();
        }
        let high = sample[start..end].iter().filter(|&&b| b >= 0x80).count();
        utf8 += usize::from(in_fragments > 0);
        legacy += usize::from(high > in_fragments);
        start = end + 1;
    }
    (utf8, legacy)
}

/// A sample with UTF-8 fragments that read as UTF-8, in a legacy encoding
/// (see [`without_fragments`]).
pub(crate) struct Fragmented {
    /// The detector's guess with the fragments left out.
    pub guess: Guess,
    /// The UTF-8 text is the larger part: it is in at least as many lines
    /// as the legacy text.
    pub utf8_larger: bool,
}

/// Whether `charset` is a legacy ASCII-compatible encoding: one that UTF-8
/// fragments can be mixed into.
fn is_legacy(charset: Charset) -> bool {
    charset != Charset::Utf8 && charset.is_ascii_compatible()
}

/// Whether the UTF-8 `fragments` of `sample` read as UTF-8 more plausibly
/// than in `charset`, each by the margin a mojibake repair needs (scored in
/// a window of [`FRAGMENT_CONTEXT`] bytes each side; the first
/// [`FRAGMENTS_SCORED`] fragments). Legacy text forms UTF-8 by chance: `бі`
/// in KOI8-U is the bytes of `¦`, and reads worse so; `ФА` in ISO-8859-5 is
/// those of `İ`, which reads a few bits better than two capitals, far from
/// the margin.
fn fragments_read_as_utf8(
    sample: &[u8],
    fragments: &[std::ops::Range<usize>],
    charset: Charset,
) -> bool {
    let scored = &fragments[..fragments.len().min(FRAGMENTS_SCORED)];
    let (mut whole, mut mixed) = (String::new(), String::new());
    let window_of = |fragment: &std::ops::Range<usize>| {
        window_start(sample, fragment.start.saturating_sub(FRAGMENT_CONTEXT), charset)
    };
    let mut i = 0;
    while i < scored.len() {
        // A window, and the fragments within it.
        let start = window_of(&scored[i]);
        let mut end = i + 1;
        while end < scored.len() && window_of(&scored[end]) < scored[end - 1].end + FRAGMENT_CONTEXT
        {
            end += 1;
        }
        let stop = (scored[end - 1].end + FRAGMENT_CONTEXT).min(sample.len());
        whole.push_str(&charset.decode(&sample[start..stop]).0);
        let mut at = start;
        for range in &scored[i..end] {
            mixed.push_str(&charset.decode(&sample[at..range.start]).0);
            let Ok(fragment) = std::str::from_utf8(&sample[range.clone()]) else {
                return false;
            };
            mixed.push_str(fragment);
            at = range.end;
        }
        mixed.push_str(&charset.decode(&sample[at..stop]).0);
        whole.push('\n');
        mixed.push('\n');
        i = end;
    }
    let plausibility = |text: &str| crate::detect::plausibility(text).bits;
    let margin = repair::MOJIBAKE_MARGIN * scored.len() as f32;
    plausibility(&whole) - plausibility(&mixed) >= margin
}

/// Where a window of [`fragments_read_as_utf8`] meant to start at `at`
/// starts, so that `charset` reads it from the first byte of a character:
/// anywhere in a single-byte encoding; in a multibyte one, after the last
/// byte below `0x30` (space, line break, most ASCII punctuation) within
/// [`ALIGNMENT`] bytes before, as none of them has such a byte inside a
/// character (Shift_JIS, GBK and Big5 trail bytes start at `0x40`,
/// gb18030's four-byte ones hold digits). Read from inside a character,
/// EUC-JP stays out of step until the next ASCII byte, and the garbage
/// would make any fragment after it look like UTF-8.
fn window_start(sample: &[u8], at: usize, charset: Charset) -> usize {
    if charset.is_single_byte() {
        return at;
    }
    let from = at.saturating_sub(ALIGNMENT);
    sample[from..at].iter().rposition(|&b| b < 0x30).map_or(at, |p| from + p + 1)
}

/// How far back [`window_start`] looks for a character boundary.
const ALIGNMENT: usize = 256;

/// Bytes of context scored on each side of a UTF-8 fragment.
const FRAGMENT_CONTEXT: usize = 24;

/// How many UTF-8 fragments of a legacy document are scored, at most.
const FRAGMENTS_SCORED: usize = 64;

/// How many byte pairs [`utf8_fragments`] looks at at once for a lead and a
/// continuation byte.
const PAIR_BLOCK: usize = 256;

/// The byte ranges of the multibyte sequences of `bytes` that are valid
/// UTF-8, when there are some and `bytes` is not UTF-8 (a sequence cut by
/// the end of the bytes does not count as malformed), but for chains of
/// them (sequences with nothing between them) that touch a malformed one.
/// Legacy multibyte text forms UTF-8 by chance between its malformed bytes
/// (EUC-KR `…C7 [C3 A4] B1…`), in chains of up to six sequences (Shift_JIS
/// hiragana, each trail byte and the next `82` lead); taken out of the
/// legacy text, they would break its characters. UTF-8 pasted into a
/// legacy document is set off from its text by ASCII: line breaks, spaces,
/// markup.
fn utf8_fragments(sample: &Sample) -> Option<Vec<std::ops::Range<usize>>> {
    let bytes = sample.bytes();
    // A multibyte sequence starts with a lead byte and a continuation byte:
    // legacy text often has no such pair at all (a French page's `é` and
    // `ç` are never followed by one), and then needs no more.
    // (Branch-free over each block, which the compiler vectorises.)
    let pair = |(&a, &b): (&u8, &u8)| (a.wrapping_sub(0xC2) <= 0xF4 - 0xC2) & (b & 0xC0 == 0x80);
    let mut blocks = (0..bytes.len().saturating_sub(1)).step_by(PAIR_BLOCK);
    let paired = |at: usize| {
        let end = bytes.len().min(at + PAIR_BLOCK + 1);
        bytes[at..end].iter().zip(&bytes[at + 1..end]).fold(false, |any, p| any | pair(p))
    };
    if !blocks.any(paired) {
        return None;
    }
    // The malformed sequences, but for one cut by the end; between the
    // invalid stretches, valid UTF-8, where each lead byte starts a
    // sequence as long as it says.
    let (invalid, cut) = sample.utf8_invalid();
    let malformed = &invalid[..invalid.len() - usize::from(cut)];
    if malformed.is_empty() {
        return None;
    }
    let mut sequences = Vec::new();
    let mut start = 0;
    for range in invalid.iter().chain([&(bytes.len()..bytes.len())]) {
        let valid = &bytes[start..range.start];
        if !valid.is_ascii() {
            for (i, &b) in valid.iter().enumerate().filter(|(_, &b)| b >= 0xC0) {
                sequences.push(start + i..start + i + crate::detect::sequence_len(b));
            }
        }
        start = range.end;
    }
    // The malformed sequences are in order and apart: searchable by either end.
    let touched = |chain: &[std::ops::Range<usize>]| {
        let (start, end) = (chain[0].start, chain[chain.len() - 1].end);
        malformed.binary_search_by_key(&start, |m| m.end).is_ok()
            || malformed.binary_search_by_key(&end, |m| m.start).is_ok()
    };
    let fragments: Vec<_> = sequences
        .chunk_by(|a, b| a.end == b.start)
        .filter(|chain| !touched(chain))
        .flatten()
        .cloned()
        .collect();
    (!fragments.is_empty()).then_some(fragments)
}

/// Whether the bytes are valid UTF-8 of many multibyte sequences, which
/// legacy text practically never is: text in it that the models find
/// unlikely is garbled, damage to repair.
fn valid_utf8(candidates: &[Candidate]) -> bool {
    candidates.iter().any(|c| {
        c.charset == Charset::Utf8
            && c.doubt.is_none()
            && c.verification.malformed == 0
            && c.verification.non_ascii >= UTF8_SEQUENCES
    })
}

/// Whether UTF-8 that is not [`valid_utf8`] is to be weighed against the
/// detector's best reading (by plausibility, in [`damaged_utf8`]): a page
/// with a few stray bytes, a short line (`Gültige Werte f\xFCr`, which GBK
/// reads as two Chinese characters). The UTF-8 decode is scored with its
/// mojibake repaired (`fÃ¼r`) and each malformed sequence a U+FFFD (which
/// the models charge as a control character). Counting alone is not
/// enough: GBK and Big5 text often forms more valid UTF-8 sequences than
/// malformed ones.
fn weighable_utf8(candidates: &[Candidate]) -> bool {
    // (The models' doubt, and a word of stray bytes against a letter or two
    // in UTF-8, are what is weighed again; legacy text has far more.)
    candidates.iter().any(|c| {
        let v = &c.verification;
        c.charset == Charset::Utf8
            && v.non_ascii > 0
            && v.malformed <= v.non_ascii.max(STRAY_SEQUENCES)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_fragments_are_valid_multibyte_sequences_among_malformed_ones() {
        let found = |bytes: &[u8]| {
            let fragments = utf8_fragments(&Sample::new(bytes, true));
            fragments.map(|f| f.iter().map(|r| (r.start, r.end)).collect::<Vec<_>>())
        };
        // `café` in UTF-8, then `été` in windows-1252.
        assert_eq!(found(b"caf\xC3\xA9 \xE9t\xE9"), Some(vec![(3, 5)]));
        assert_eq!(found(b"\xE2\x80\x94 \xE9t \xC2\xBB"), Some(vec![(0, 3), (7, 9)]));
        // UTF-8 throughout, or no fragment, or a sequence cut by the end.
        assert_eq!(found("café".as_bytes()), None);
        assert_eq!(found(b"\xE9t\xE9"), None);
        assert_eq!(found(b"caf\xC3\xA9 \xE2\x80"), None);
        // Chains that a malformed sequence touches are legacy text's chance
        // UTF-8: EUC-KR `한` `국`, whose bytes `C7 D1 B1 B9` hold `D1 B1`;
        // Shift_JIS hiragana, each trail byte and the next `82` lead.
        assert_eq!(found(b"\xC7\xD1\xB1\xB9"), None);
        let hiragana = Charset::ShiftJis.encode("これはまとめて").0;
        assert_eq!(found(&hiragana), None);
        // A UTF-8 line in a Shift_JIS document.
        let mut mixed = hiragana.into_owned();
        mixed.extend_from_slice("\nまとめ\n".as_bytes());
        let at = mixed.len() - 10;
        assert_eq!(found(&mixed), Some(vec![(at, at + 3), (at + 3, at + 6), (at + 6, at + 9)]));
    }

    #[test]
    fn lines_of_each_count_the_lines_each_part_is_in() {
        // UTF-8 `é` in the first line, windows-1252 `é` in the second and
        // third (one of them also with UTF-8), none in the fourth.
        let bytes = b"caf\xC3\xA9\n\xE9t\xE9\n\xE9 \xC3\xA9\nplain";
        let fragments = utf8_fragments(&Sample::new(bytes, true)).unwrap();
        assert_eq!(fragments, vec![3..5, 12..14]);
        assert_eq!(lines_of_each(bytes, &fragments), (2, 2));
    }
}
