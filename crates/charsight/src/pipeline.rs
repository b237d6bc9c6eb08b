//! The pipeline: gathers evidence, asks the content, and decides by policy.
//!
//! [`Engine`] holds the context a caller knows (HTTP `Content-Type`,
//! default and forced encodings, hints). [`Engine::detect`] takes whole
//! bytes; [`Engine::session`] takes them in chunks with bounded memory. Both
//! give the same [`Detection`].
//!
//! All precedence lives here. The `whatwg` policy is the browser's:
//! forced > BOM > HTTP charset > in-document declaration > content > default
//! (the default still wins over content that it decodes alike, or when the
//! content detector is unsure),
//! where the in-document declaration of an HTML document is the UTF-16 XML
//! declaration pattern, then `<meta>` (including a late one), then an XML
//! declaration at the very start; and of an XML document (by media type, or
//! by starting with `<?xml`) the XML declaration or the Appendix F pattern.

use crate::detect::{Detector, Ebcdic, Guess, Plausibility};
use crate::font::{self, FontLayer};
use crate::sniff::{self, http, DocumentKind, Evidence, Note, Source};
use crate::verify::{verify, Verification};
use crate::Charset;

/// How many leading bytes evidence gathering reads by default.
pub const DEFAULT_PREFIX: usize = 64 * 1024;

/// The decision rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Policy {
    /// Browser-compatible: BOM > HTTP > in-document declaration > content >
    /// default; declarations are never second-guessed.
    Whatwg,
    /// Declarations are trusted unless the bytes contradict them: their
    /// decode is broken (malformed sequences, three or more) or implausible
    /// (C1 controls, bytes that are valid UTF-8, or text the detector's
    /// models find worse by a margin of byte evidence alone, no priors,
    /// that one byte value never reaches) while another candidate decodes
    /// cleanly and plausibly. Then the engine switches and reports
    /// "declared X, actual Y" ([`Rule::Overridden`]). A byte order mark
    /// stands unless the bytes after it are clearly another encoding.
    #[default]
    Verify,
    /// Declarations are ignored; the content decides (a BOM, being part of
    /// the content, still counts).
    Detect,
}

impl Policy {
    /// The policy's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Whatwg => "whatwg",
            Policy::Verify => "verify",
            Policy::Detect => "detect",
        }
    }
}

/// Which rule decided, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "rule", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Rule {
    /// The caller forced the encoding.
    Forced,
    /// A byte order mark.
    Bom,
    /// The declaration with the highest precedence, taken as it is
    /// (`whatwg` policy).
    Declared,
    /// The declaration with the highest precedence, borne out by the bytes
    /// (`verify` policy).
    Verified,
    /// The declaration failed verification and another candidate decoded
    /// cleanly and plausibly: "declared X, actual Y".
    Overridden {
        /// What the declaration said.
        declared: Charset,
        /// Why it was not believed.
        reason: Doubt,
    },
    /// The declaration failed verification, but no other candidate did
    /// better, so it was kept (with a low confidence); or it is a byte
    /// order mark, which the bytes after it did not clearly refute (kept
    /// with its damage reported in its candidate's verification).
    Unverified {
        /// What was wrong with it.
        reason: Doubt,
    },
    /// Nothing was declared (or the policy ignores declarations): the
    /// content decided.
    Detected,
    /// Nothing was declared (or the policy ignores declarations), and the
    /// bytes are UTF-8 though the detector ruled UTF-8 out or found it
    /// unlikely: valid UTF-8 of many multibyte sequences that reads poorly
    /// (mojibake), or UTF-8 with a few malformed sequences (stray bytes of
    /// another encoding) that reads better so than the detector's pick, or
    /// whose multibyte sequences read as UTF-8 by a wide margin (see
    /// [`Rule::Utf8Fragments`], which takes the bytes with more malformed
    /// sequences).
    /// Damage to repair (`repair::Kind::Mixed`, `repair::Kind::Mojibake`),
    /// not wholesale another encoding.
    MostlyUtf8,
    /// Nothing was declared (or the policy ignores declarations), and the
    /// bytes are in a legacy ASCII-compatible encoding with fragments of UTF-8
    /// in them (text pasted from a UTF-8 source): the encoding is the one
    /// the rest of the bytes read best in, with the fragments read as
    /// UTF-8 ([`Detection::detected`] is the detector's guess on the bytes
    /// without them). The fragments are damage to repair
    /// (`repair::Kind::Mixed`).
    Utf8Fragments,
    /// Nothing was declared (or the policy ignores declarations), and the
    /// encoding that read the bytes best until a few bytes it does not
    /// decode ruled it out ([`Guess::leader_ruled_out`]) reads them better,
    /// each malformed sequence charged, than the detector's pick: a
    /// document with stray bytes of another encoding, damage to repair
    /// (`repair::Kind::Mixed`), not wholesale another encoding.
    ///
    /// [`Guess::leader_ruled_out`]: crate::detect::Guess::leader_ruled_out
    StrayBytes,
    /// Nothing decided: the caller's default, or windows-1252.
    Default,
}

impl Rule {
    /// The rule's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Forced => "forced",
            Rule::Bom => "bom",
            Rule::Declared => "declared",
            Rule::Verified => "verified",
            Rule::Overridden { .. } => "overridden",
            Rule::Unverified { .. } => "unverified",
            Rule::Detected => "detected",
            Rule::MostlyUtf8 => "mostly_utf8",
            Rule::Utf8Fragments => "utf8_fragments",
            Rule::StrayBytes => "stray_bytes",
            Rule::Default => "default",
        }
    }
}

/// Why a candidate's decode is not believed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Doubt {
    /// Many of its sequences are malformed.
    Malformed,
    /// The bytes are valid UTF-8 with several multibyte sequences, which
    /// text in another encoding practically never is.
    ValidUtf8,
    /// Its single-byte decode contains C1 control characters (and, for a
    /// declaration, another reading's text is likelier).
    C1Controls,
    /// The detector's models find its reading far less likely than another
    /// (for a reading they ruled out, its decoded text).
    Implausible,
}

impl Doubt {
    /// The reason's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Doubt::Malformed => "malformed",
            Doubt::ValidUtf8 => "valid_utf8",
            Doubt::C1Controls => "c1_controls",
            Doubt::Implausible => "implausible",
        }
    }
}

/// A candidate encoding: who proposed it and what decoding with it gave.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Candidate {
    /// The encoding.
    #[cfg_attr(feature = "serde", serde(rename = "encoding"))]
    pub charset: Charset,
    /// Every source that proposed it, in precedence order.
    pub sources: Vec<Source>,
    /// The content detector's confidence in it (0 when not ranked).
    pub detector: f32,
    /// Decoding the sample with it.
    pub verification: Verification,
    /// Why it is doubted, if it is.
    pub doubt: Option<Doubt>,
    /// For a declared encoding the detector ruled out or ranks below its
    /// pick, and for the detector's leader that was ruled out
    /// ([`Guess::leader_ruled_out`]),
    /// unless too many of its sequences are malformed to take it at all:
    /// how many bits the text it decodes costs more than the text of the
    /// detector's pick, each malformed sequence and C1 control charged as a
    /// control character (less than 0 when it reads better).
    ///
    /// [`Guess::leader_ruled_out`]: crate::detect::Guess::leader_ruled_out
    pub behind: Option<f32>,
}

/// The context of a document and the rules to decide its encoding by.
///
/// # Example
/// ```
/// use charsight::{Charset, Engine, Source};
/// let engine = Engine::new().content_type("text/html; charset=EUC-KR");
/// let found = engine.detect(b"<meta charset=utf-8>\xc7\xd1\xb1\xb9");
/// assert_eq!(found.charset, Charset::EucKr);
/// assert_eq!(found.source, Source::Http);
/// assert_eq!(found.evidence.len(), 2); // the HTTP charset and the <meta>
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    content_type: Option<Vec<u8>>,
    default: Option<Vec<u8>>,
    forced: Option<Vec<u8>>,
    tld: Option<String>,
    language: Option<String>,
    policy: Policy,
    prefix: usize,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with no context: `verify` policy, windows-1252 fallback.
    pub fn new() -> Engine {
        Engine {
            content_type: None,
            default: None,
            forced: None,
            tld: None,
            language: None,
            policy: Policy::default(),
            prefix: DEFAULT_PREFIX,
        }
    }

    /// The HTTP `Content-Type` value the bytes came with.
    pub fn content_type(mut self, value: impl AsRef<[u8]>) -> Engine {
        self.content_type = Some(value.as_ref().to_vec());
        self
    }

    /// The encoding to fall back to when nothing decides (default:
    /// windows-1252). Takes a label; a [`Charset`] works too. A label that
    /// names nothing is reported as ignored evidence.
    pub fn default_encoding(mut self, label: impl AsRef<[u8]>) -> Engine {
        self.default = Some(label.as_ref().to_vec());
        self
    }

    /// The encoding to use whatever the evidence says (which is still
    /// gathered and reported). A label that names nothing is reported as
    /// ignored evidence and forces nothing.
    pub fn force_encoding(mut self, label: impl AsRef<[u8]>) -> Engine {
        self.forced = Some(label.as_ref().to_vec());
        self
    }

    /// The top-level domain the bytes came from (`jp`, `ru`), a prior for
    /// content detection.
    pub fn tld(mut self, tld: impl Into<String>) -> Engine {
        self.tld = Some(tld.into());
        self
    }

    /// The expected language (BCP 47, `ja`, `ru`), a prior for content
    /// detection.
    pub fn language(mut self, language: impl Into<String>) -> Engine {
        self.language = Some(language.into());
        self
    }

    /// The decision policy.
    pub fn policy(mut self, policy: Policy) -> Engine {
        self.policy = policy;
        self
    }

    /// How many leading bytes evidence gathering reads (at least 1024;
    /// default [`DEFAULT_PREFIX`]). A `<meta>` past this is not seen.
    pub fn prefix_limit(mut self, bytes: usize) -> Engine {
        self.prefix = bytes.max(crate::sniff::meta::PRESCAN_WINDOW);
        self
    }

    /// Decides the encoding of `bytes`.
    pub fn detect(&self, bytes: &[u8]) -> Detection {
        let mut session = self.session();
        session.feed(bytes);
        session.finish()
    }

    /// A streaming detection: feed chunks, then finish.
    pub fn session(&self) -> Session<'_> {
        Session { engine: self, prefix: Vec::new(), detector: self.detector(), len: 0 }
    }

    /// A content detector with this engine's hints.
    fn detector(&self) -> Detector {
        Detector::with_hints(self.tld.as_deref(), self.language.as_deref())
    }
}

/// A detection in progress, made by [`Engine::session`]. Memory is bounded
/// by the engine's prefix limit, whatever is fed.
///
/// # Example
/// ```
/// use charsight::{Charset, Engine};
/// let engine = Engine::new();
/// let mut session = engine.session();
/// for chunk in "naïve café".as_bytes().chunks(3) {
///     session.feed(chunk);
/// }
/// assert_eq!(session.finish().charset, Charset::Utf8);
/// ```
pub struct Session<'e> {
    engine: &'e Engine,
    prefix: Vec<u8>,
    detector: Detector,
    len: u64,
}

impl Session<'_> {
    /// Feeds the next chunk of bytes.
    pub fn feed(&mut self, chunk: &[u8]) {
        let room = self.engine.prefix.saturating_sub(self.prefix.len());
        self.prefix.extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.detector.feed(chunk, false);
        self.len += chunk.len() as u64;
    }

    /// Whether more bytes could change the result. Once false, a caller
    /// may stop reading and [`finish`](Session::finish).
    pub fn wants_more(&self) -> bool {
        self.prefix.len() < self.engine.prefix || self.detector.wants_more()
    }

    /// The decision, from what was fed.
    pub fn finish(mut self) -> Detection {
        self.detector.feed(b"", true);
        let complete = self.len == self.prefix.len() as u64;
        decide(self.engine, &self.prefix, complete, self.detector.guess())
    }
}

/// What the engine decided and why.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Detection {
    /// The encoding to decode with.
    #[cfg_attr(feature = "serde", serde(rename = "encoding"))]
    pub charset: Charset,
    /// Probability, from 0 to 1, that decoding with `charset` gives the
    /// right text (see the crate docs on confidence).
    pub confidence: f32,
    /// Where the chosen encoding came from.
    pub source: Source,
    /// Which rule decided, and why.
    pub rule: Rule,
    /// The policy that was applied.
    pub policy: Policy,
    /// The language of the text, as a BCP 47 tag, when known: the language
    /// the content detector's best model for `charset` stands for.
    pub language: Option<&'static str>,
    /// Bytes to skip before decoding, 0 if none: a BOM of the chosen
    /// encoding, or one that the bytes after it overrode (`verify`), which
    /// is not text in the chosen encoding.
    pub bom_len: usize,
    /// The bytes are pure ASCII: every ASCII-compatible encoding reads them alike.
    pub ascii: bool,
    /// The bytes are clearly not text (a binary format, compressed or
    /// random data): `confidence` is 0 unless the encoding was forced, and
    /// there is no language, font layer or damage to repair.
    pub binary: bool,
    /// The bytes are EBCDIC text, whose code page the detector does not
    /// tell: unless an EBCDIC `charset` was forced, declared (an EBCDIC XML
    /// declaration) or is the default, `charset` is only the best of the
    /// other readings, with confidence 0.
    pub ebcdic: Option<Ebcdic>,
    /// HTML or XML rules applied to in-document declarations.
    pub document: DocumentKind,
    /// How many bytes the evidence and the verification looked at.
    pub sample_len: usize,
    /// Every piece of evidence, in order: BOM, HTTP, in-document, default, forced.
    pub evidence: Vec<Evidence>,
    /// Every candidate, the chosen one first, with its verification figures.
    pub candidates: Vec<Candidate>,
    /// The font layer of the decoded prefix (Zawgyi, a symbol font, a legacy
    /// Indic font), when one is found; see [`font::detect_layer`].
    pub font: Option<FontLayer>,
    /// What the content says on its own: the detector's guess with every
    /// candidate it did not rule out, ranked. When a declaration decided,
    /// this is the other opinion (how plausible the declared charset is
    /// next to the best reading: [`Guess::candidates`]).
    pub detected: Guess,
}

/// Gathers the evidence of `prefix` and the engine's context, in order.
fn gather(engine: &Engine, prefix: &[u8]) -> (Vec<Evidence>, DocumentKind) {
    let mut evidence = Vec::new();
    let bom = sniff::bom::sniff(prefix);
    let content_type = engine.content_type.as_deref().map(http::parse);
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
    }
    for (source, label) in [(Source::Default, &engine.default), (Source::Forced, &engine.forced)] {
        if let Some(label) = label {
            let mut e = Evidence::from_label(source, label, 0);
            e.len = 0;
            evidence.push(e);
        }
    }
    (evidence, document)
}

/// The in-document declaration that counts: for XML the declaration (or
/// the Appendix F pattern it refines); for HTML the UTF-16 XML pattern,
/// then `<meta>`, then an XML declaration at the very start.
fn in_document(evidence: &[Evidence], document: DocumentKind) -> Option<(Charset, Source)> {
    let xml = || evidence.iter().filter(|e| e.source == Source::Xml);
    let declaration =
        || xml().find(|e| !e.notes.contains(&Note::Autodetected)).and_then(Evidence::usable);
    let pattern =
        || xml().find(|e| e.notes.contains(&Note::Autodetected)).and_then(Evidence::usable);
    let meta = || evidence.iter().filter(|e| e.source == Source::Meta).find_map(Evidence::usable);
    match document {
        DocumentKind::Xml => declaration().or_else(pattern).map(|c| (c, Source::Xml)),
        DocumentKind::Html => pattern()
            .filter(|c| matches!(c, Charset::Utf16Le | Charset::Utf16Be))
            .map(|c| (c, Source::Xml))
            .or_else(|| meta().map(|c| (c, Source::Meta)))
            .or_else(|| declaration().map(|c| (c, Source::Xml))),
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
    sample: &[u8],
    complete: bool,
) -> (Vec<Candidate>, Option<Plausibility>) {
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
    for source in [Source::Forced, Source::Bom, Source::Http, Source::Xml, Source::Meta] {
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
        c.verification = verify(c.charset, sample, complete);
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
    let declared =
        |s: &Source| matches!(s, Source::Bom | Source::Http | Source::Meta | Source::Xml);
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
        let weighed = (leader || is_declared) && (ruled_out || behind_pick);
        if weighed && text && !too_malformed(c, is_declared) {
            let best = *best.get_or_init(|| pick.map(|b| bits(b.charset)));
            let read = weigh(c.charset, sample);
            c.behind = best.map(|best| read.bits - best);
            leader_read = leader_read.or(leader.then_some(read));
        }
        // A declaration is refuted by its text only by a margin that grows
        // with the byte values read differently from the pick.
        let margin = match pick {
            Some(p) if is_declared => refuting_margin(sample, c.charset, p.charset),
            _ => Some(IMPLAUSIBLE_BITS),
        };
        c.doubt = doubt(c, is_declared, margin, utf8_sequences, guess);
    }
    (list, leader_read)
}

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

/// A declaration with fewer malformed sequences than this is not refuted
/// by their number ([`too_malformed`]): one or two are stray bytes, damage
/// to report and repair, and its text is weighed instead.
const REFUTING_MALFORMED: u64 = 3;

/// The margin in bits by which a declaration's text must read worse than
/// the detector's pick's to be implausible: [`IMPLAUSIBLE_BITS`] and
/// [`IMPLAUSIBLE_BITS_PER_VALUE`] for each non-ASCII byte value the two
/// read differently; `None` when those are at most [`LONE_VALUES`] that
/// each stand alone, which the models never refute a declaration on.
fn refuting_margin(sample: &[u8], a: Charset, b: Charset) -> Option<f32> {
    let (values, lone) = differing_byte_values(sample, a, b);
    (values > LONE_VALUES || lone < values)
        .then_some(IMPLAUSIBLE_BITS + IMPLAUSIBLE_BITS_PER_VALUE * values as f32)
}

/// How many distinct non-ASCII byte values of the start of `sample`
/// ([`WEIGHED_BYTES`]) `a` and `b` read differently, and how many of those
/// always stand alone (no letter and no other non-ASCII byte beside them)
/// and are a symbol in at least one of the two:
/// for two single-byte encodings, the bytes they decode to different
/// characters; otherwise every one (a multibyte encoding reads a byte by
/// its neighbours, and none stands alone).
fn differing_byte_values(sample: &[u8], a: Charset, b: Charset) -> (usize, usize) {
    let sample = &sample[..sample.len().min(WEIGHED_BYTES)];
    let (mut seen, mut joined) = ([false; 128], [false; 128]);
    let word = |at: Option<&u8>| at.is_some_and(|&b| b >= 0x80 || b.is_ascii_alphabetic());
    for (i, &byte) in sample.iter().enumerate() {
        if byte >= 0x80 {
            seen[usize::from(byte - 0x80)] = true;
            let beside = word(i.checked_sub(1).and_then(|j| sample.get(j)));
            joined[usize::from(byte - 0x80)] |= beside || word(sample.get(i + 1));
        }
    }
    let single = a.is_single_byte() && b.is_single_byte();
    let (mut values, mut lone) = (0, 0);
    for byte in (0x80..=0xFFu8).filter(|&byte| seen[usize::from(byte - 0x80)]) {
        if !single {
            values += 1;
            continue;
        }
        let one = [byte];
        let (x, y) = (a.decode(&one).0, b.decode(&one).0);
        if x == y {
            continue;
        }
        values += 1;
        // A letter standing alone in both readings is a word (Italian `è`),
        // which the models weigh like any other; a symbol in either is not.
        let symbol = |text: &str| !text.chars().all(char::is_alphabetic);
        lone += usize::from(!joined[usize::from(byte - 0x80)] && (symbol(&x) || symbol(&y)));
    }
    (values, lone)
}

/// Valid UTF-8 with at least this many multibyte sequences is UTF-8.
const UTF8_SEQUENCES: u64 = 3;

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
fn too_malformed(candidate: &Candidate, declared: bool) -> bool {
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
/// weighed on ([`Candidate::behind`]): enough text to tell a wrong reading by far.
const WEIGHED_BYTES: usize = 64 * 1024;

/// How plausible the text `charset` decodes from the start of `sample`
/// ([`WEIGHED_BYTES`]) is, each malformed sequence a U+FFFD (which the
/// models charge as a control character).
fn weigh(charset: Charset, sample: &[u8]) -> Plausibility {
    let sample = &sample[..sample.len().min(WEIGHED_BYTES)];
    crate::detect::plausibility(&charset.decode(sample).0)
}

/// Why `candidate`'s decode is not believed, if it is not. A `declared`
/// one's text must read worse than the detector's pick's by `margin`
/// ([`refuting_margin`]; `None`: the models cannot refute it).
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
    if candidate.charset != Charset::Utf8
        && candidate.charset.is_ascii_compatible()
        && utf8_sequences >= UTF8_SEQUENCES
    {
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
fn decide(engine: &Engine, prefix: &[u8], complete: bool, guess: Guess) -> Detection {
    let (evidence, document) = gather(engine, prefix);
    let first =
        |source: Source| evidence.iter().find(|e| e.source == source).and_then(Evidence::usable);
    let bom =
        evidence.iter().find(|e| e.source == Source::Bom).and_then(|e| Some((e.usable()?, e.len)));
    let sample = &prefix[bom.map_or(0, |(_, len)| len)..];
    // Bytes that are not text, or EBCDIC text, hold no damage to weigh:
    // their decode is wrong throughout.
    let unread = guess.binary || guess.ebcdic.is_some();
    let fragments = if unread { None } else { without_fragments(engine, sample, &guess) };
    let utf8_larger = fragments.as_ref().map(|f| f.utf8_larger);
    let guess = fragments.map_or(guess, |f| f.guess);
    let (mut candidates, leader_read) = candidates(&evidence, &guess, sample, complete);
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
        .or_else(|| in_document(&evidence, document));
    // Worked out once, when the content decides: the decision's language too.
    let damaged = std::cell::OnceCell::new();
    let by_content = || {
        // EBCDIC text, which the detector recognises but does not read: the
        // caller's EBCDIC default reads it.
        let ebcdic_default = first(Source::Default).filter(|d| d.is_ebcdic());
        if let Some(default) = ebcdic_default.filter(|_| guess.ebcdic.is_some()) {
            return (default, Source::Default, Rule::Default);
        }
        let weigh_damage = || damaged_utf8(&candidates, &guess, sample, utf8_larger);
        if !unread && damaged.get_or_init(weigh_damage).is_some() {
            return (Charset::Utf8, Source::Detected, Rule::MostlyUtf8);
        }
        let stray = || stray_bytes(&candidates, &guess, sample, leader_read);
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
        _ if unread => None,
        Rule::MostlyUtf8 => damaged.get().copied().flatten().flatten(),
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

/// Whether the bytes are UTF-8 though the detector's best reading is not
/// ([`Rule::MostlyUtf8`]), and if so the language of the UTF-8 text as the
/// repairs would leave it (`Some(None)` for one with no language).
/// `utf8_larger` is set when the bytes hold UTF-8 fragments that read as
/// UTF-8 ([`without_fragments`]): whether their text is the larger part.
fn damaged_utf8(
    candidates: &[Candidate],
    guess: &Guess,
    sample: &[u8],
    utf8_larger: Option<bool>,
) -> Option<Option<&'static str>> {
    let best = guess.candidates.first().filter(|c| c.charset != Charset::Utf8)?;
    // Characters beyond U+FFFF written as CESU-8 are UTF-8 to a reader
    // (and the `mixed` repair), and no other encoding's text by chance.
    let valid = valid_utf8(candidates) || crate::repair::is_utf8_with_surrogate_pairs(sample);
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
    utf8_is_it.then_some(utf8.language)
}

/// The encoding the detector's leader was until a few bytes ruled it out
/// ([`Rule::StrayBytes`]), when it decodes the sample to likelier text,
/// each malformed sequence charged, than the detector's pick
/// ([`Candidate::behind`]), and not with too many malformed sequences.
/// (UTF-8 is weighed apart, in [`damaged_utf8`].)
fn stray_bytes(
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
    // Bytes that read as UTF-8 with a few malformed sequences (mojibake
    // that lost bytes on the way) are weighed as the repairs would leave
    // them: the leader must read better than that too. (`Ī¼ĪæĻ`, Greek
    // UTF-8 read as windows-1257 with its undefined bytes lost, reads as
    // GBK better than as windows-1257.)
    if valid_utf8(candidates) || weighable_utf8(candidates) {
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
    crate::detect::plausibility(&crate::repair::unmangled(&Charset::Utf8.decode(sample).0))
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
fn without_fragments(engine: &Engine, sample: &[u8], guess: &Guess) -> Option<Fragmented> {
    let first = guess.candidates.first()?.charset;
    if first == Charset::Utf8 {
        return None;
    }
    let fragments = utf8_fragments(sample)?;
    if is_legacy(first) && !fragments_read_as_utf8(sample, &fragments, first) {
        return None;
    }
    let mut masked = sample.to_vec();
    for range in &fragments {
        masked[range.clone()].fill(b' ');
    }
    let mut detector = engine.detector();
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
struct Fragmented {
    /// The detector's guess with the fragments left out.
    guess: Guess,
    /// The UTF-8 text is the larger part: it is in at least as many lines
    /// as the legacy text.
    utf8_larger: bool,
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
    let margin = crate::repair::MOJIBAKE_MARGIN * scored.len() as f32;
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
fn utf8_fragments(bytes: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let (mut sequences, mut malformed) = (Vec::new(), Vec::new());
    let mut at = 0;
    while at < bytes.len() {
        // The valid stretch from `at`, and where scanning goes on after it.
        let (valid, next) = match simdutf8::compat::from_utf8(&bytes[at..]) {
            Ok(_) => (bytes.len(), bytes.len()),
            Err(e) => {
                let valid = at + e.valid_up_to();
                match e.error_len() {
                    Some(bad) => {
                        malformed.push(valid..valid + bad);
                        (valid, valid + bad)
                    }
                    None => (valid, bytes.len()),
                }
            }
        };
        // Valid UTF-8: each lead byte says how long its sequence is.
        while at < valid {
            let len = crate::detect::sequence_len(bytes[at]);
            if len > 1 {
                sequences.push(at..at + len);
            }
            at += len;
        }
        at = next;
    }
    if malformed.is_empty() {
        return None;
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
        (_, Source::Meta | Source::Xml) => 0.85,
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
    if !font::may_have_layer(charset, prefix) {
        return None;
    }
    let (text, _) = charset.decode(prefix);
    font::detect_layer(&text, &font::Registry::builtin())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_fragments_are_valid_multibyte_sequences_among_malformed_ones() {
        let found = |bytes: &[u8]| {
            utf8_fragments(bytes).map(|f| f.iter().map(|r| (r.start, r.end)).collect::<Vec<_>>())
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
        let fragments = utf8_fragments(bytes).unwrap();
        assert_eq!(fragments, vec![3..5, 12..14]);
        assert_eq!(lines_of_each(bytes, &fragments), (2, 2));
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

    #[test]
    fn sessions_match_one_shot_and_stay_bounded() {
        let engine = Engine::new().prefix_limit(2048);
        let mut page = b"<html>".to_vec();
        page.extend(std::iter::repeat_n(b"<p>text</p>\n", 10_000).flatten());
        page.extend("<p>é</p>".as_bytes());
        let whole = engine.detect(&page);
        let mut session = engine.session();
        for chunk in page.chunks(777) {
            session.feed(chunk);
        }
        assert!(session.prefix.len() <= 2048);
        assert_eq!(session.finish(), whole);
    }
}
