//! The pipeline: gathers evidence, asks the content, and decides by policy
//! (gather → verify → decide), for [`Engine`](crate::Engine).
//!
//! All precedence lives here. The `whatwg` policy is the browser's:
//! forced > BOM > HTTP charset > in-document declaration > content > default
//! (the default still wins over content that it decodes alike, or when the
//! content detector is unsure),
//! where the in-document declaration of an HTML document is the UTF-16 XML
//! declaration pattern, then `<meta>` (including a late one), then an XML
//! declaration at the very start; and of an XML document (by media type, or
//! by starting with `<?xml`) the XML declaration or the Appendix F pattern.

use crate::damage::{self, too_malformed, weigh, weigh_within, UTF8_SEQUENCES, WEIGHED_BYTES};
use crate::detect::{Detector, Guess, Plausibility};
use crate::detection::{Candidate, Detection, Doubt, Policy, Rule};
use crate::font::{self, FontLayer};
use crate::sniff::{self, http, DocumentKind, Evidence, Source};
use crate::verify::{Sample, Verification};
use crate::Charset;

/// What the pipeline is told besides the bytes: an
/// [`Engine`](crate::Engine)'s settings.
pub(crate) struct Context<'a> {
    /// The HTTP `Content-Type` value.
    pub content_type: Option<&'a [u8]>,
    /// The labels of the user's default and forced encodings.
    pub default: Option<&'a [u8]>,
    pub forced: Option<&'a [u8]>,
    pub policy: Policy,
    /// The detector's hints.
    pub tld: Option<&'a str>,
    pub language: Option<&'a str>,
}

impl Context<'_> {
    /// A content detector with the context's hints. Under `whatwg` it
    /// does not read UTF-7 (the HTML standard forbids it: a page could
    /// smuggle script past filters in its runs), by label or by content,
    /// nor the wider members of ISO-2022-JP's family, which a browser reads
    /// as the Encoding Standard's ISO-2022-JP.
    pub(crate) fn detector(&self) -> Detector {
        use Charset::*;
        let detector = Detector::with_hints(self.tld, self.language);
        match self.policy {
            Policy::Whatwg => detector
                .leaving_out(|c| matches!(c, Utf7 | Iso2022Jp2 | Iso2022Jp3 | Iso2022Jp2004)),
            Policy::Verify | Policy::Detect => detector,
        }
    }
}

/// Gathers the evidence of `prefix` and the engine's context, in order.
fn gather(engine: &Context<'_>, prefix: &[u8]) -> (Vec<Evidence>, DocumentKind) {
    let mut evidence = Vec::new();
    let bom = sniff::bom::sniff(prefix);
    let content_type = engine.content_type.map(http::parse);
    let document = DocumentKind::of(content_type.as_ref().and_then(|c| c.kind), prefix);
    let (start, form) = match &bom {
        Some(bom) => (bom.len, bom.charset),
        None => (0, None),
    };
    evidence.extend(bom);
    if let Some(content_type) = content_type {
        evidence.extend(content_type.evidence);
    }
    let autodetected = if start == 0 { sniff::xml::autodetect(prefix) } else { None };
    let form = form.or(autodetected.as_ref().and_then(|e| e.charset));
    evidence.extend(autodetected);
    evidence.extend(sniff::xml::declaration(prefix, start, form));
    if form.is_none_or(Charset::is_ascii_compatible) {
        evidence.extend(sniff::meta::sniff(&prefix[start..]).into_iter().map(|mut e| {
            e.offset += start;
            e
        }));
        evidence.extend(sniff::coding::sniff(&prefix[start..]).map(|mut e| {
            e.offset += start;
            e
        }));
    }
    if engine.policy == Policy::Whatwg {
        evidence.iter_mut().for_each(as_a_browser_reads);
    }
    for (source, label) in [(Source::Default, engine.default), (Source::Forced, engine.forced)] {
        if let Some(label) = label {
            let mut e = Evidence::from_label(source, label, 0);
            e.len = 0;
            evidence.push(e);
        }
    }
    (evidence, document)
}

/// A declaration as a browser reads it, by the Encoding Standard's labels
/// only: one the standard lacks (`cp437`, `x-mac-ce`, `utf-32`) is ignored
/// ([`crate::sniff::Note::NotWhatwg`]), as is a coding comment, which no
/// browser reads, and one charsight reads otherwise means what the
/// standard says (`iso-2022-kr`: `replacement`). A label already rewritten
/// by its own rule (UTF-16 in a `<meta>` means UTF-8) keeps its reading.
fn as_a_browser_reads(e: &mut Evidence) {
    let declared = matches!(e.source, Source::Http | Source::Meta | Source::Xml);
    if e.source == Source::Coding && e.charset.is_some() {
        e.charset = None;
        e.notes.push(crate::sniff::Note::NotWhatwg);
    }
    if !declared || e.charset.is_none() {
        return;
    }
    match encoding_rs::Encoding::for_label(e.label.as_bytes()) {
        Some(encoding) if e.notes.is_empty() => {
            e.charset = Some(Charset::from_encoding_rs(encoding))
        }
        Some(_) => {}
        None => {
            e.charset = None;
            e.notes.push(crate::sniff::Note::NotWhatwg);
        }
    }
}

/// The candidates: every usable declaration in precedence order, the
/// detector's ranking, UTF-8 when the bytes are valid UTF-8, and the
/// default; one entry per charset, each verified on `sample`. With them,
/// how the detector's ruled-out leader reads, if it was weighed
/// ([`Candidate::behind`]).
fn candidates(
    evidence: &[Evidence],
    guess: &Guess,
    verifier: &Sample,
) -> (Vec<Candidate>, Option<Plausibility>) {
    let sample = verifier.bytes();
    let mut list: Vec<Candidate> = Vec::new();
    let mut add = |charset: Charset, source: Option<Source>| match list
        .iter_mut()
        .find(|c| c.charset == charset)
    {
        Some(c) => c.sources.extend(source.filter(|s| !c.sources.contains(s))),
        None => list.push(Candidate {
            charset,
            sources: source.into_iter().collect(),
            detector: guess.candidate(charset).map_or(0.0, |c| c.confidence),
            verification: Verification::default(),
            doubt: None,
            behind: None,
        }),
    };
    for source in
        [Source::Forced, Source::Bom, Source::Http, Source::Xml, Source::Meta, Source::Coding]
    {
        for e in evidence.iter().filter(|e| e.source == source) {
            if let Some(charset) = e.usable() {
                add(charset, Some(source));
            }
        }
    }
    for c in guess.candidates.iter().take(MAX_DETECTED_CANDIDATES) {
        add(c.charset, Some(Source::Detected));
    }
    if let Some(leader) = guess.leader_ruled_out {
        add(leader, Some(Source::Detected));
    }
    if !guess.ascii {
        add(Charset::Utf8, None);
    }
    let default = evidence.iter().find(|e| e.source == Source::Default).and_then(Evidence::usable);
    add(default.unwrap_or(Charset::Windows1252), Some(Source::Default));
    for c in &mut list {
        c.verification = verifier.verify(c.charset);
    }
    let utf8_sequences = list
        .iter()
        .find(|c| c.charset == Charset::Utf8 && c.verification.malformed == 0)
        .map_or(0, |c| c.verification.non_ascii);
    // The readings the detector ruled out that could still decide are
    // weighed by their text (not those too malformed to be taken at all,
    // nor bytes that are not text); the detector's pick's text, once if at
    // all.
    // A declaration the detector kept but ranks below a pick it is fairly
    // sure of is weighed by its text too: the detector's ranking counts the
    // encodings' priors, which are right for undeclared bytes and never
    // evidence against a declaration.
    let bits = |charset: Charset| weigh(charset, sample).bits;
    let best = std::cell::OnceCell::new();
    let declared = |s: &Source| {
        matches!(s, Source::Bom | Source::Http | Source::Meta | Source::Xml | Source::Coding)
    };
    let pick = guess.candidates.first();
    let mut leader_read = None;
    for c in &mut list {
        let leader = guess.leader_ruled_out == Some(c.charset);
        let is_declared = c.sources.iter().any(declared);
        let reading = guess.candidate(c.charset);
        let ruled_out = reading.is_none();
        let behind_pick = is_declared
            && pick.is_some_and(|p| p.confidence >= 0.5)
            && reading.is_some_and(|r| pick.is_some_and(|p| r.confidence < p.confidence));
        let text = !guess.binary && (c.charset != Charset::Utf8 || behind_pick);
        // A declaration the valid UTF-8 refutes is not weighed: its text
        // could not save it. (The leader is, for the stray bytes rule.)
        let needed = leader || (is_declared && !refuted_by_utf8(c, utf8_sequences));
        let weighed = needed && (ruled_out || behind_pick);
        if weighed && text && !too_malformed(c, is_declared) {
            let best = *best.get_or_init(|| pick.map(|b| bits(b.charset)));
            if leader {
                let read = weigh(c.charset, sample);
                c.behind = best.map(|best| read.bits - best);
                leader_read = leader_read.or(Some(read));
            } else {
                // Scored only as far as it takes to tell that it is far behind.
                let limit = best.map_or(f32::INFINITY, |best| best + FAR_BEHIND_BITS);
                let read = weigh_within(c.charset, sample, limit);
                c.behind = best.map(|best| read.map_or(FAR_BEHIND_BITS, |bits| bits - best));
            }
        }
        // A declaration is refuted by its text only by a margin that grows
        // with the byte values read differently from the pick. (Only a
        // reading weighed by its text has one to meet.)
        let margin = match pick {
            _ if c.behind.is_none() => None,
            Some(p) if is_declared => refuting_margin(sample, c.charset, p.charset),
            _ => Some(IMPLAUSIBLE_BITS),
        };
        c.doubt = doubt(c, is_declared, margin, utf8_sequences, guess);
    }
    (list, leader_read)
}

/// How far behind the detector's pick a weighed reading is scored
/// ([`Candidate::behind`]): a reading at least this many bits behind is
/// behind for every rule that weighs it (the widest margin, a declaration's
/// [`refuting_margin`], is 532 bits), so it is not scored to the end, and
/// its `behind` is this.
pub(crate) const FAR_BEHIND_BITS: f32 = 1000.0;
const _: () = assert!(FAR_BEHIND_BITS > IMPLAUSIBLE_BITS + 128.0 * IMPLAUSIBLE_BITS_PER_VALUE);

/// How many of the detector's runners-up become candidates.
const MAX_DETECTED_CANDIDATES: usize = 4;

/// A reading at least this many bits less likely than the detector's best
/// (2^20, a million times) is implausible. For a declaration, the bits are
/// those of its text alone, and the margin grows ([`refuting_margin`]).
const IMPLAUSIBLE_BITS: f32 = 20.0;

/// What a declaration's text must cost more than the detector's pick's, per
/// non-ASCII byte value the two read differently, on top of
/// [`IMPLAUSIBLE_BITS`], for the declaration to be implausible
/// ([`refuting_margin`]): a wrong reading pays for every occurrence of each
/// byte it misreads, a right but unusual one (a symbol, a name) about as
/// much per byte value however often it recurs.
const IMPLAUSIBLE_BITS_PER_VALUE: f32 = 1.0;

/// The most non-ASCII byte values, each standing alone (between spaces,
/// digits or punctuation, as a symbol stands: `© 2024`, `12 €`, `News ђ
/// today`) and a symbol in one of the two readings, that can never refute a
/// declaration however the models read them: a symbol of one encoding is
/// often a letter or another symbol of the other, and the models know
/// symbols far less well than letters in words. (A letter alone in both
/// readings is a word, Italian `è` read as `č`, and is weighed.)
const LONE_VALUES: usize = 2;

/// What a declaration's text may cost beyond the detector's pick's, on top
/// of its margin, for each occurrence of a byte it reads as a letter of a
/// capitalised word while the pick reads it otherwise, where every
/// occurrence of that byte value is so: a name (`Žibert`, `Gradiška` on a
/// German page declared ISO-8859-15, windows-1252's `´ibert`, `Gradi¨ka`).
/// The detector allows a name as much over the best reading of its letters
/// ([`crate::detect`]'s names allowance); the models price a letter no
/// language of the page writes far above a symbol, and names are where
/// pages have them.
const NAME_BITS: f32 = 12.0;

/// The most occurrences [`NAME_BITS`] are counted for: a declaration whose
/// every differing byte is in names is still refuted by text far worse.
const MAX_NAMED: usize = 32;
const _: () = assert!(
    FAR_BEHIND_BITS
        > IMPLAUSIBLE_BITS + 128.0 * IMPLAUSIBLE_BITS_PER_VALUE + MAX_NAMED as f32 * NAME_BITS
);

/// The margin in bits by which a declaration's text must read worse than
/// the detector's pick's to be implausible: [`IMPLAUSIBLE_BITS`],
/// [`IMPLAUSIBLE_BITS_PER_VALUE`] for each non-ASCII byte value the two
/// read differently and [`NAME_BITS`] for each byte of a name; `None` when
/// those are at most [`LONE_VALUES`] that each stand alone, which the
/// models never refute a declaration on. `declared` is the declaration's
/// encoding, `pick` the detector's.
fn refuting_margin(sample: &[u8], declared: Charset, pick: Charset) -> Option<f32> {
    let d = differing_byte_values(sample, declared, pick);
    let named = d.named.min(MAX_NAMED) as f32;
    (d.values > LONE_VALUES || d.lone < d.values).then_some(
        IMPLAUSIBLE_BITS + IMPLAUSIBLE_BITS_PER_VALUE * d.values as f32 + NAME_BITS * named,
    )
}

/// The non-ASCII byte values of the start of a sample that two encodings
/// read differently ([`differing_byte_values`]).
#[derive(Debug, Default, PartialEq)]
struct Differing {
    /// How many distinct values.
    values: usize,
    /// How many of those always stand alone (no letter and no other
    /// non-ASCII byte beside them) and are a symbol in at least one of the
    /// two readings.
    lone: usize,
    /// How many occurrences there are of the values that the first
    /// encoding reads, every time, as a letter of a capitalised word (an
    /// uppercase letter, then lowercase ones), and the second as no letter.
    named: usize,
}

/// What a byte reads as, for telling a name ([`differing_byte_values`]).
#[derive(Clone, Copy, Debug, Default)]
struct Case {
    upper: bool,
    lower: bool,
    /// Whether the other encoding reads it as a letter.
    other_letter: bool,
}

impl Case {
    /// The case of `text`, a byte's reading: a letter's, or none.
    fn of(text: &str) -> Case {
        let letter = text.chars().all(crate::classify::is_letter);
        let first = text.chars().next();
        Case {
            upper: letter && first.is_some_and(char::is_uppercase),
            lower: letter && first.is_some_and(char::is_lowercase),
            other_letter: false,
        }
    }

    /// The case of an ASCII byte.
    fn of_ascii(byte: u8) -> Case {
        Case {
            upper: byte.is_ascii_uppercase(),
            lower: byte.is_ascii_lowercase(),
            other_letter: false,
        }
    }
}

/// The byte values of the start of `sample` ([`WEIGHED_BYTES`]) that `a`
/// and `b` read differently ([`Differing`]): for two single-byte
/// encodings, the bytes they decode to different characters; otherwise
/// every one, none alone or named (a multibyte encoding reads a byte by its
/// neighbours).
fn differing_byte_values(sample: &[u8], a: Charset, b: Charset) -> Differing {
    let sample = &sample[..sample.len().min(WEIGHED_BYTES)];
    let single = a.is_single_byte() && b.is_single_byte();
    // A word's bytes: ASCII letters and every byte beyond ASCII.
    let in_word = |b: &u8| *b >= 0x80 || b.is_ascii_alphabetic();
    let read = |charset: Charset, byte: u8| charset.decode(&[byte]).0.into_owned();
    // Each byte beyond ASCII of the sample as `a` reads it: a letter, an
    // uppercase one, a lowercase one; and whether `b` reads it as a letter.
    let mut case = [Case::default(); 128];
    if single {
        let mut present = [false; 128];
        for &byte in sample.iter().filter(|&&b| b >= 0x80) {
            present[usize::from(byte - 0x80)] = true;
        }
        for (k, entry) in case.iter_mut().enumerate().filter(|&(k, _)| present[k]) {
            *entry = Case::of(&read(a, 0x80 + k as u8));
            entry.other_letter = read(b, 0x80 + k as u8).chars().all(crate::classify::is_letter);
        }
    }
    let case_of = |byte: u8| match byte {
        0x80.. => case[usize::from(byte - 0x80)],
        _ => Case::of_ascii(byte),
    };
    let (mut seen, mut joined) = ([0usize; 128], [false; 128]);
    // Whether every occurrence so far is a name's letter ([`Differing`]).
    let mut named = [single; 128];
    for word in sample.split(|b| !in_word(b)) {
        // Capitalised: an uppercase letter, then lowercase ones only.
        let capitalised = word.first().is_some_and(|&b| case_of(b).upper)
            && word.iter().skip(1).all(|&b| case_of(b).lower);
        for &byte in word.iter().filter(|&&b| b >= 0x80) {
            let k = usize::from(byte - 0x80);
            seen[k] += 1;
            let here = word.len() > 1;
            joined[k] |= here;
            named[k] &= here && capitalised && !case[k].other_letter;
        }
    }
    let mut d = Differing::default();
    for byte in (0x80..=0xFFu8).filter(|&byte| seen[usize::from(byte - 0x80)] > 0) {
        if !single {
            d.values += 1;
            continue;
        }
        let (x, y) = (read(a, byte), read(b, byte));
        if x == y {
            continue;
        }
        let k = usize::from(byte - 0x80);
        d.values += 1;
        // A letter standing alone in both readings is a word (Italian `è`),
        // which the models weigh like any other; a symbol in either is not.
        let symbol = |text: &str| !text.chars().all(crate::classify::is_letter);
        d.lone += usize::from(!joined[k] && (symbol(&x) || symbol(&y)));
        if named[k] {
            d.named += seen[k];
        }
    }
    d
}

/// Whether the bytes' valid UTF-8 (`utf8_sequences` multibyte sequences, or
/// 0 where they are not valid UTF-8) refutes `candidate`, a legacy
/// ASCII-compatible reading of bytes beyond ASCII ([`Doubt::ValidUtf8`]):
/// whatever its text reads like.
fn refuted_by_utf8(candidate: &Candidate, utf8_sequences: u64) -> bool {
    let v = &candidate.verification;
    candidate.charset != Charset::Utf8
        && candidate.charset.is_ascii_compatible()
        && (v.non_ascii > 0 || v.malformed > 0)
        && utf8_sequences >= UTF8_SEQUENCES
}

/// Why `candidate`'s decode is not believed, if it is not. A `declared`
/// one's text must read worse than the detector's pick's by `margin`
/// ([`refuting_margin`]; `None`: the models cannot refute it; looked at
/// only for a reading weighed by its text, [`Candidate::behind`]).
fn doubt(
    candidate: &Candidate,
    declared: bool,
    margin: Option<f32>,
    utf8_sequences: u64,
    guess: &Guess,
) -> Option<Doubt> {
    let v = &candidate.verification;
    if too_malformed(candidate, declared) {
        return Some(Doubt::Malformed);
    }
    if v.non_ascii == 0 && v.malformed == 0 && candidate.charset.is_ascii_compatible() {
        // ASCII reads alike in every ASCII-compatible encoding.
        return None;
    }
    if refuted_by_utf8(candidate, utf8_sequences) {
        return Some(Doubt::ValidUtf8);
    }
    if guess.ascii {
        // Seven-bit bytes say nothing against a declared ISO-2022 encoding.
        return None;
    }
    if guess.binary {
        // Bytes that are not text have no right reading: the models say
        // nothing against a declaration (x-user-defined for binary data).
        return None;
    }
    if candidate.charset == Charset::Utf8 && utf8_sequences >= UTF8_SEQUENCES {
        // That much valid UTF-8 is UTF-8 (see above): text in it that the
        // models find unlikely is garbled (mojibake), damage to repair.
        return None;
    }
    let best = guess.candidates.first()?;
    let Some(reading) = guess.candidate(candidate.charset) else {
        // The detector ruled it out: it does not decode some bytes, gives
        // C1 controls, or fell far behind. (A few stray bytes in a UTF-8
        // page are weighed apart, in `damaged_utf8`.)
        if candidate.charset == Charset::Utf8 {
            return None;
        }
        let c1 = candidate.charset.is_single_byte() && v.c1_controls > 0;
        let reason = if c1 { Doubt::C1Controls } else { Doubt::Implausible };
        // A declaration, which a page damaged here and there must keep when
        // it reads the page's other text better than any other encoding,
        // was weighed by its text (`Candidate::behind`): a Cyrillic page
        // declared Big5 decodes to rare ideographs between a few malformed
        // pairs; EUC-JP declared Shift_JIS, to half-width katakana. C1
        // controls are never text: a single-byte reading with them is
        // wrong at those bytes, whatever the label, so a reading that
        // decodes the text better (curly quotes for windows-1252 labelled
        // ISO-8859-15, `š` and `ť` for windows-1250 labelled ISO-8859-2)
        // needs half the margin. (Not none: a stray byte and a letter
        // beside it make one Shift_JIS character that may read better.)
        // Otherwise a declaration needs the margin its differing byte
        // values set. A reading neither declared nor weighed stays ruled
        // out.
        let margin = if c1 { Some(IMPLAUSIBLE_BITS / 2.0) } else { margin };
        return match (candidate.behind, margin) {
            (Some(bits), Some(margin)) => (bits > margin).then_some(reason),
            (Some(_), None) => None,
            (None, _) => Some(reason),
        };
    };
    if declared {
        // A declaration the detector ranks below its pick: its text alone
        // (`Candidate::behind`, no priors), by the margin.
        let implausible = candidate.behind.zip(margin).is_some_and(|(bits, m)| bits > m);
        return implausible.then_some(Doubt::Implausible);
    }
    // The detector's models: a reading far less likely than the best one,
    // while the best is fairly sure. A reading that decodes the bytes as
    // the best does (the same confidence) reads the same text, however its
    // own language models rate it (windows-1250's Central European models,
    // English text with curly quotes).
    let implausible = best.confidence >= 0.5
        && reading.bits_behind >= IMPLAUSIBLE_BITS
        && reading.confidence < best.confidence;
    implausible.then_some(Doubt::Implausible)
}

/// Applies the policy to the evidence and the content's guess.
pub(crate) fn decide(
    engine: &Context<'_>,
    prefix: &[u8],
    complete: bool,
    guess: Guess,
) -> Detection {
    let (evidence, document) = gather(engine, prefix);
    let first =
        |source: Source| evidence.iter().find(|e| e.source == source).and_then(Evidence::usable);
    let bom =
        evidence.iter().find(|e| e.source == Source::Bom).and_then(|e| Some((e.usable()?, e.len)));
    let sample = &prefix[bom.map_or(0, |(_, len)| len)..];
    // Bytes that are not text hold no damage to weigh (their decode is wrong
    // throughout), nor EBCDIC text any that the analysis knows (stray bytes
    // and UTF-8 fragments in ASCII-based text).
    let unread = guess.binary || guess.ebcdic.is_some();
    let verifier = Sample::new(sample, complete);
    let fragments = match unread {
        true => None,
        false => damage::without_fragments(|| engine.detector(), &verifier, &guess),
    };
    let utf8_larger = fragments.as_ref().map(|f| f.utf8_larger);
    let guess = fragments.map_or(guess, |f| f.guess);
    let (mut candidates, leader_read) = candidates(&evidence, &guess, &verifier);
    let find = |candidates: &[Candidate], charset: Charset| {
        candidates
            .iter()
            .position(|c| c.charset == charset)
            .expect("every decided charset is a candidate")
    };
    // The HTTP charset that counts is the one `sniff::http` left usable, not
    // the first one listed: of comma-joined values, Fetch's "extract a MIME
    // type" keeps the last, and the others carry `Note::Superseded`.
    let http = evidence.iter().filter(|e| e.source == Source::Http).find_map(Evidence::usable);
    let declared = bom
        .map(|(c, _)| (c, Source::Bom))
        .or_else(|| http.map(|c| (c, Source::Http)))
        .or_else(|| document.declaration(&evidence).and_then(|e| Some((e.usable()?, e.source))));
    // Worked out once, when the content decides: the decision's language too.
    let damaged = std::cell::OnceCell::new();
    let by_content = || {
        let weigh_damage = || damage::damaged_utf8(&candidates, &guess, sample, utf8_larger);
        if !unread && damaged.get_or_init(weigh_damage).is_some() {
            return (Charset::Utf8, Source::Detected, Rule::MostlyUtf8);
        }
        let stray = || damage::stray_bytes(&candidates, &guess, sample, leader_read);
        if let Some(leader) = (!unread).then(stray).flatten() {
            return (leader, Source::Detected, Rule::StrayBytes);
        }
        let Some(best) = guess.candidates.first() else {
            let default = first(Source::Default).unwrap_or(Charset::Windows1252);
            return (default, Source::Default, Rule::Default);
        };
        // The caller's default wins when it reads the bytes as the
        // detector's choice does, or when the detector is unsure and the
        // default is not ruled out.
        let fallback = first(Source::Default)
            .and_then(|d| guess.candidate(d))
            .filter(|d| d.confidence >= best.confidence || best.confidence < 0.5);
        match fallback {
            Some(d) => (d.charset, Source::Default, Rule::Default),
            None if utf8_larger.is_some() => (best.charset, Source::Detected, Rule::Utf8Fragments),
            None => (best.charset, Source::Detected, Rule::Detected),
        }
    };
    let (charset, source, rule) = if let Some(forced) = first(Source::Forced) {
        (forced, Source::Forced, Rule::Forced)
    } else if let (Some((c, _)), Policy::Detect) = (bom, engine.policy) {
        (c, Source::Bom, Rule::Bom)
    } else if engine.policy == Policy::Detect {
        by_content()
    } else if let Some(default) = first(Source::Default)
        // ASCII bytes in a default that reads them as ASCII; EBCDIC or
        // UTF-16 would make them other text, so the content decides then.
        .filter(|d| guess.ascii && declared.is_none() && d.is_ascii_compatible())
    {
        (default, Source::Default, Rule::Default)
    } else {
        match (declared, engine.policy) {
            (None, _) => by_content(),
            (Some((c, Source::Bom)), Policy::Whatwg) => (c, Source::Bom, Rule::Bom),
            (Some((c, source)), Policy::Whatwg) => (c, source, Rule::Declared),
            (Some((c, source)), _) => {
                let declared = &candidates[find(&candidates, c)];
                match declared.doubt {
                    None if source == Source::Bom => (c, source, Rule::Bom),
                    None => (c, source, Rule::Verified),
                    Some(reason) => match alternative(&candidates, c) {
                        // A byte order mark stands unless the bytes after it
                        // are clearly another encoding's; damage after it is
                        // reported with it.
                        Some(alt)
                            if source == Source::Bom
                                && !bom_refuted(declared, &candidates[alt], sample, &guess) =>
                        {
                            (c, source, Rule::Unverified { reason })
                        }
                        Some(alt) => {
                            let alt = &candidates[alt];
                            let alt_source =
                                alt.sources.first().copied().unwrap_or(Source::Detected);
                            (alt.charset, alt_source, Rule::Overridden { declared: c, reason })
                        }
                        None => (c, source, Rule::Unverified { reason }),
                    },
                }
            }
        }
    };
    let chosen = find(&candidates, charset);
    candidates[..=chosen].rotate_right(1);
    let confidence = confidence(&candidates[0], source, rule, &guess);
    // A byte order mark is never text: skipped whether it decided or the
    // bytes after it overrode it (only a forced encoding reads it as its own).
    let bom_len =
        bom.filter(|(c, _)| *c == charset || rule != Rule::Forced).map_or(0, |(_, len)| len);
    let font =
        if unread { None } else { font_layer(charset, &prefix[bom_len.min(prefix.len())..]) };
    let language = match rule {
        _ if guess.binary => None,
        Rule::MostlyUtf8 => damaged.get().copied().flatten().and_then(|d| d.language),
        Rule::StrayBytes => leader_read.and_then(|read| read.language),
        _ => guess.candidates.iter().find(|c| c.charset == charset).and_then(|c| c.language),
    };
    Detection {
        charset,
        confidence,
        source,
        rule,
        policy: engine.policy,
        language,
        bom_len,
        ascii: guess.ascii,
        binary: guess.binary,
        ebcdic: guess.ebcdic,
        document,
        sample_len: prefix.len(),
        evidence,
        font,
        candidates,
        detected: guess,
    }
}

/// Whether the bytes after a byte order mark (`bom`, its candidate) are
/// clearly in the encoding of `alternative` and not in the BOM's: the BOM's
/// reading is in doubt and has no valid multibyte sequence (for UTF-8; the
/// doubt alone for UTF-16 and UTF-32, whose decode of 8-bit text is valid
/// garbage), the alternative decodes the sample cleanly and is the
/// detector's pick, which is fairly sure, and the sample has at least
/// [`BOM_REFUTING_BYTES`] non-ASCII bytes. A UTF-8 BOM glued to a long
/// windows-1251 file is; `BOM hello \xFF world`, whose one stray byte Big5
/// or windows-1251 decode, is not.
fn bom_refuted(bom: &Candidate, alternative: &Candidate, sample: &[u8], guess: &Guess) -> bool {
    let clearly_not =
        bom.doubt.is_some() && (bom.charset != Charset::Utf8 || bom.verification.non_ascii == 0);
    let high = sample.iter().filter(|&&b| b >= 0x80).count();
    let plausible = alternative.verification.is_clean()
        && guess.candidates.first().is_some_and(|p| {
            p.confidence >= 0.5
                && guess.candidate(alternative.charset).map(|a| a.confidence) == Some(p.confidence)
        });
    clearly_not && plausible && high >= BOM_REFUTING_BYTES
}

/// The fewest non-ASCII bytes after a byte order mark that can show it
/// wrong ([`bom_refuted`]): a few are stray bytes, damage to report.
const BOM_REFUTING_BYTES: usize = 16;

/// The best candidate other than `declared` that is not in doubt: the one
/// the detector rates highest; on a tie (encodings that decode the bytes
/// alike share one confidence) the first in the list, which puts
/// declarations first and then follows the detector's ranking.
fn alternative(candidates: &[Candidate], declared: Charset) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, c) in candidates.iter().enumerate() {
        let usable = c.charset != declared && c.doubt.is_none() && c.verification.malformed == 0;
        if usable && best.is_none_or(|b| c.detector > candidates[b].detector) {
            best = Some(i);
        }
    }
    best
}

/// The probability that `chosen` decodes the right text.
fn confidence(chosen: &Candidate, source: Source, rule: Rule, guess: &Guess) -> f32 {
    if guess.ascii && chosen.charset.is_ascii_compatible() {
        return 1.0;
    }
    let base: f32 = match (rule, source) {
        (Rule::Forced, _) => return 1.0,
        // Bytes that are not text, or EBCDIC text, have no right decoding
        // among the candidates, whatever was declared.
        _ if guess.binary || guess.ebcdic.is_some() && !chosen.charset.is_ebcdic() => return 0.0,
        // A byte order mark with a few damaged bytes after it: the text
        // around them is right.
        (Rule::Unverified { reason: Doubt::Malformed }, Source::Bom) => return 0.9,
        (_, Source::Bom) => 0.99,
        (Rule::Unverified { .. }, _) => 0.3,
        (Rule::Default, _) => 0.3,
        (Rule::Overridden { .. }, _) if chosen.charset == Charset::Utf8 => 0.95,
        // The detector rules UTF-8 out at the first malformed byte; the
        // rest of the text is right.
        (Rule::MostlyUtf8, _) => 0.9,
        // The detector ruled it out for its stray bytes only.
        (Rule::StrayBytes, _) => 0.8,
        (_, Source::Http) => 0.9,
        (_, Source::Meta | Source::Xml | Source::Coding) => 0.85,
        _ => 0.0,
    };
    let p = base.max(chosen.detector);
    if chosen.doubt.is_some() {
        p * 0.3
    } else {
        p
    }
}

/// The font layer of the prefix decoded with the decided charset; the
/// prefix is decoded only when its bytes could hold one.
fn font_layer(charset: Charset, prefix: &[u8]) -> Option<FontLayer> {
    static BUILTIN: std::sync::OnceLock<font::Registry> = std::sync::OnceLock::new();
    let registry = BUILTIN.get_or_init(font::Registry::builtin);
    if !font::may_have_layer(charset, prefix, registry) {
        return None;
    }
    let (text, _) = charset.decode(prefix);
    font::detect_layer(&text, registry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sniff::Note;
    use crate::Engine;

    #[test]
    fn a_name_is_a_letter_of_a_capitalised_word_the_pick_reads_as_no_letter() {
        let (declared, pick) = (Charset::Iso8859_15, Charset::Windows1252);
        let names = |text: &str| {
            let (bytes, _) = declared.encode(text);
            differing_byte_values(&bytes, declared, pick).named
        };
        // `Š`, `Ž`, `ž`, `š` (`¦`, `´`, `¸`, `¨` in windows-1252), once each.
        assert_eq!(names("Šimunić und Žužek aus Ljubljana"), 3);
        assert_eq!(names("Šimunić und Žužek, Vukašin"), 4);
        // Not in a lowercase or all-capital word, nor where one
        // occurrence of the value is not in a name.
        assert_eq!(names("gibtŽs heute"), 0);
        assert_eq!(names("ŠIMUNIĆ UND ŽUŽEK"), 0);
        assert_eq!(names("Žužek und žužek"), 1);
        // Letters in both readings are weighed as letters: KOI8-R's
        // capitals are Cyrillic, windows-1251's small letters.
        let (bytes, _) = Charset::Koi8R.encode("Вася и Петя");
        assert_eq!(differing_byte_values(&bytes, Charset::Koi8R, Charset::Windows1251).named, 0);
    }

    #[test]
    fn precedence_whatwg() {
        let page = b"\xEF\xBB\xBF<meta charset=gbk>";
        let engine = || Engine::new().policy(Policy::Whatwg);
        let found = engine().content_type("text/html; charset=big5").detect(page);
        assert_eq!((found.charset, found.source, found.bom_len), (Charset::Utf8, Source::Bom, 3));
        let found = engine().force_encoding("koi8-r").detect(page);
        assert_eq!((found.charset, found.source), (Charset::Koi8R, Source::Forced));
        let found = engine().content_type("text/html; charset=big5").detect(&page[3..]);
        assert_eq!(found.source, Source::Http);
        let found = engine().detect(&page[3..]);
        assert_eq!((found.charset, found.source), (Charset::Gbk, Source::Meta));
    }

    #[test]
    fn whatwg_never_reads_utf7_by_content_either() {
        let (page, _) = Charset::Utf7.encode("<p>Привет, как дела у вас сегодня?</p>");
        let found = Engine::new().detect(&page);
        assert_eq!((found.charset, found.source), (Charset::Utf7, Source::Detected));
        let found = Engine::new().policy(Policy::Whatwg).detect(&page);
        assert_ne!(found.charset, Charset::Utf7);
        assert!(found.candidates.iter().all(|c| c.charset != Charset::Utf7), "{found:?}");
    }

    #[test]
    fn whatwg_reads_iso_2022_jp_as_the_encoding_standard_has_it() {
        // KS X 1001 (`ESC $ ( C`) is ISO-2022-JP-2's; a browser's ISO-2022-JP
        // has no such escape.
        let page = b"<p>\x1b$B$3$s$K$A$O\x1b(B \x1b$(C>H3gGO<<?d\x1b(B</p>";
        let found = Engine::new().detect(page);
        assert_eq!((found.charset, found.source), (Charset::Iso2022Jp2, Source::Detected));
        let found = Engine::new().policy(Policy::Whatwg).detect(page);
        assert!(found.candidates.iter().all(|c| c.charset != Charset::Iso2022Jp2), "{found:?}");
    }

    #[test]
    fn r25_whatwg_ignores_labels_the_encoding_standard_lacks() {
        let body = "<p>Fran\u{e7}ois</p>";
        let labels = [
            "cp437", "ibm850", "viscii", "johab", "euc-tw", "x-mac-ce", "utf-32", "utf-7", "cesu-8",
        ];
        for label in labels {
            let page = format!("<meta charset={label}>{body}");
            let page = Charset::Windows1252.encode(&page).0.into_owned();
            let found = Engine::new().policy(Policy::Whatwg).detect(&page);
            assert_ne!(found.source, Source::Meta, "{label}");
            let meta = &found.evidence[0];
            assert_eq!(
                (meta.charset, meta.notes.last()),
                (None, Some(&Note::NotWhatwg)),
                "{label}"
            );
            // The verify policy reads it.
            let found = Engine::new().detect(&page);
            assert!(found.evidence[0].charset.is_some(), "{label}");
        }
        // In HTTP too; a label the standard has is taken as it reads it.
        let found = Engine::new()
            .policy(Policy::Whatwg)
            .content_type("text/html; charset=cp850")
            .detect(b"<p>caf\xe9");
        assert_eq!(found.evidence[0].notes, [Note::NotWhatwg]);
        let found = Engine::new().policy(Policy::Whatwg).detect(b"<meta charset=iso-2022-kr>");
        assert_eq!((found.charset, found.source), (Charset::Replacement, Source::Meta));
        let found = Engine::new().policy(Policy::Whatwg).detect(b"<meta charset=latin1>");
        assert_eq!((found.charset, found.source), (Charset::Windows1252, Source::Meta));
    }

    #[test]
    fn xml_media_type_prefers_declaration_over_meta() {
        let doc = b"<?xml version='1.0' encoding='euc-jp'?><html><meta charset='utf-8'/>";
        let engine = || Engine::new().policy(Policy::Whatwg);
        let found = engine().detect(doc);
        assert_eq!(
            (found.charset, found.source, found.document),
            (Charset::EucJp, Source::Xml, DocumentKind::Xml)
        );
        let found = engine().content_type("text/html").detect(doc);
        assert_eq!((found.charset, found.source), (Charset::Utf8, Source::Meta));
        let found = engine().content_type("application/xhtml+xml; charset=gbk").detect(doc);
        assert_eq!((found.charset, found.source), (Charset::Gbk, Source::Http));
    }

    #[test]
    fn declarations_are_weighed_only_as_far_as_the_decision_needs() {
        let declared = |page: &[u8], charset: Charset| {
            let found = Engine::new().detect(page);
            let c = found.candidates.iter().find(|c| c.charset == charset).cloned().unwrap();
            (found.charset, c.doubt, c.behind)
        };
        let behind =
            |page: &[u8], a: Charset, b: Charset| weigh(a, page).bits - weigh(b, page).bits;
        let russian = "Это простой пример текста на русском языке, и ещё одна строка о погоде. ";
        // UTF-8 declared ISO-8859-1: the valid UTF-8 refutes it, unweighed.
        let page = format!("<meta charset=iso-8859-1><p>{russian}</p>");
        let found = declared(page.as_bytes(), Charset::Windows1252);
        assert_eq!(found, (Charset::Utf8, Some(Doubt::ValidUtf8), None));
        // windows-1251 declared ISO-8859-2 (a letter for every byte): far
        // behind, scored only until it is 1,000 bits behind.
        let page = format!("<meta charset=iso-8859-2><p>{}</p>", russian.repeat(4));
        let page = Charset::Windows1251.encode(&page).0.into_owned();
        let found = declared(&page, Charset::Iso8859_2);
        let far = (Charset::Windows1251, Some(Doubt::Implausible), Some(FAR_BEHIND_BITS));
        assert_eq!(found, far);
        assert!(behind(&page, Charset::Iso8859_2, Charset::Windows1251) > FAR_BEHIND_BITS);
        // Czech in windows-1250 declared ISO-8859-2, which reads its `š`
        // and `ť` as other letters: within the limit, exactly as far behind
        // as its text reads.
        let czech = "<meta charset=iso-8859-2><p>Šťastný člověk šel po ulici a těšil se.</p>";
        let page = Charset::Windows1250.encode(czech).0.into_owned();
        let (charset, _, bits) = declared(&page, Charset::Iso8859_2);
        let exact = behind(&page, Charset::Iso8859_2, charset);
        assert!((0.0..FAR_BEHIND_BITS).contains(&exact), "{exact}");
        assert_eq!(bits, Some(exact));
    }

    #[test]
    fn fallbacks() {
        let found = Engine::new().detect("hé".as_bytes());
        assert_eq!((found.charset, found.source), (Charset::Utf8, Source::Detected));
        // One byte: "hé" in most Latin encodings, but not certainly.
        let found = Engine::new().detect(b"h\xE9");
        assert_eq!((found.charset, found.source), (Charset::Windows1252, Source::Detected));
        assert!(found.confidence < 0.999, "{}", found.confidence);
        let found = Engine::new().default_encoding(Charset::ShiftJis).detect(b"ascii");
        assert_eq!(
            (found.charset, found.source, found.ascii),
            (Charset::ShiftJis, Source::Default, true)
        );
    }

    #[test]
    fn bad_labels_are_ignored_evidence() {
        let found = Engine::new().default_encoding("nonsense").force_encoding("").detect(b"h\xE9");
        assert_eq!(found.source, Source::Detected);
        assert_eq!(found.evidence.len(), 2);
        assert!(found.evidence.iter().all(|e| e.charset.is_none()));
    }

    #[test]
    fn utf32_end_to_end() {
        let mut doc = b"\xFF\xFE\x00\x00".to_vec();
        doc.extend(
            Charset::Utf32Le.encode("<?xml version='1.0' encoding='UTF-32'?><a>ü</a>").0.iter(),
        );
        let found = Engine::new().detect(&doc);
        assert_eq!((found.charset, found.bom_len), (Charset::Utf32Le, 4));
        let found = Engine::new().detect(&doc[4..]);
        assert_eq!((found.charset, found.source), (Charset::Utf32Le, Source::Xml));
        let decl = found.evidence.iter().find(|e| !e.notes.contains(&Note::Autodetected)).unwrap();
        assert_eq!(decl.label, "UTF-32");
    }

    #[test]
    fn font_layers_are_reported() {
        let found = Engine::new().detect("<p>ျမန္မာႏိုင္ငံ ေျပာပါတယ္</p>".as_bytes());
        assert_eq!(found.font.map(|f| f.name.to_string()).as_deref(), Some("Zawgyi"));
        let found = Engine::new().detect(b"<font face=Wingdings>J</font>");
        assert_eq!(found.font.map(|f| f.name.to_string()).as_deref(), Some("Wingdings"));
        assert_eq!(Engine::new().detect(b"<font face=Arial>J</font>").font, None);
        assert_eq!(Engine::new().detect("မြန်မာနိုင်ငံ".as_bytes()).font, None);
    }
}
