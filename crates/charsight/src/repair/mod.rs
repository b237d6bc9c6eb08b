//! Stage 5: repair — damage inside a document whose encoding is known:
//! bytes of another encoding mixed in, mojibake, the bytes of a legacy
//! string written as numeric character references, and text written for a
//! font that draws other characters.
//!
//! Input: the bytes and the decided encoding (a [`Detection`]), and a
//! [`RepairPolicy`] naming the [`Kind`]s of repair allowed. Output: the
//! repaired text and a [`Finding`] for every change; nothing changes that is
//! not a finding.
//!
//! - [`Kind::Mixed`] works on the bytes: runs that are malformed in the
//!   document's encoding are decoded by the encoding that fits them (stray
//!   windows-1252 in UTF-8), and UTF-8 fragments inside a legacy document
//!   are decoded as UTF-8.
//! - [`Kind::Ncr`] decodes runs of numeric character references (`&#196;&#227;`)
//!   whose code points, taken as bytes, read far more plausibly in another
//!   encoding.
//! - [`Kind::Mojibake`] undoes wrong decodes and re-encodes of UTF-8 text,
//!   once or more.
//! - [`Kind::Fonts`] maps text written for a font that draws other
//!   characters (Symbol, Wingdings, Kruti Dev, Zawgyi, …) to real Unicode,
//!   by [`crate::font::convert`].
//! - [`Kind::PrivateUse`] replaces private-use characters that a vendor
//!   table maps to standard Unicode (NTT DoCoMo's emoji in Shift_JIS) and
//!   reports every other one, left as it is.
//! - [`Kind::Declaration`] reports an in-document declaration that the bytes
//!   contradict, with both ways out (rewrite it, or write the text in the
//!   encoding it declares); it changes the text only when the caller splices
//!   the rewrite in ([`crate::decode::declaration_fixes`]).
//!
//! Every decision between readings of the same bytes is made by the
//! detector's language models ([`crate::detect::language_costs`]): a repair
//! is made only where the repaired text is far more plausible than the text
//! as it stands, by a margin measured on held-out text, and larger where the
//! text around it is clean (mojibake comes in runs; a lone
//! mojibake-looking stretch in clean text is left).
//!
//! Every finding can be undone ([`undo`]): the repaired text and the
//! findings give back the plain decode exactly.
//!
//! # Findings and malformed bytes
//!
//! A malformed sequence that a `mixed` repair decodes is named in that
//! finding (its `before` shows it as U+FFFD, as a plain decode writes it);
//! every other malformed sequence is written as a plain decode writes it and
//! listed in the [`MalformedLog`], which therefore lists only what is still
//! broken. So every input byte is either decoded as usual, or named in a
//! finding, or listed in the log.
//!
//! # Streaming
//!
//! [`Repairer`] decodes chunk by chunk and repairs block by block; a block
//! ends at the first line break after [`BLOCK`] bytes of text (repairs never
//! look across a line break), so memory stays bounded by the block size
//! whatever the input's size, and the result does not depend on the
//! chunking. A line longer than [`MAX_BLOCK`] bytes of text is cut,
//! preferably at a space. The decoder's offset map
//! ([`TextDecoder::with_offsets`]) takes every repaired stretch of text back
//! to its input bytes.

mod block;
mod cause;
mod declaration;
mod fonts;
mod mixed;
mod mojibake;
mod ncr;
mod pua;
mod score;
mod utf8;

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::Arc;

use crate::decode::{DecodeError, Errors, MalformedLog, Splice, TextDecoder};
use crate::font::Registry;
use crate::{Charset, Detection};

pub use cause::Cause;
pub use declaration::declaration_finding;
pub use fonts::FontScope;
/// The gain (bits) a mojibake repair needs (the pipeline asks as much of
/// each UTF-8 fragment it reads in a legacy document).
pub(crate) use mojibake::MARGIN as MOJIBAKE_MARGIN;
pub(crate) use utf8::is_utf8_with_surrogate_pairs;

/// `text` with its mojibake repaired as the `mojibake` repair would (the
/// pipeline weighs a garbled UTF-8 reading by the text it repairs to).
pub(crate) fn unmangled(text: &str) -> String {
    block::apply(text, &mojibake::repair_text(text).0)
}

/// A block of text ends at the first line break after this many bytes.
pub const BLOCK: usize = 16 * 1024;

/// A line longer than this many bytes of text is cut into blocks.
pub const MAX_BLOCK: usize = 64 * 1024;

/// At most this many findings are listed; counts stay exact.
pub const MAX_FINDINGS: usize = 10_000;

/// About this many bytes of `before` and `after` text at most are held by
/// the findings listed (a finding of a font conversion can span a whole block):
/// memory stays bounded whatever the input's size. Counts stay exact.
pub const MAX_FINDINGS_TEXT: usize = 8 * 1024 * 1024;

/// The legacy encodings other text turns up in: stray bytes in a
/// document, or the bytes that numeric references stand for. windows-1252
/// first, as the commonest (ties go to the earlier).
pub(crate) const LEGACY: [Charset; 17] = [
    Charset::Windows1252,
    Charset::Windows1250,
    Charset::Windows1251,
    Charset::Windows1253,
    Charset::Windows1254,
    Charset::Windows1255,
    Charset::Windows1256,
    Charset::Windows1257,
    Charset::Windows1258,
    Charset::Windows874,
    Charset::Koi8R,
    Charset::Koi8U,
    Charset::ShiftJis,
    Charset::EucJp,
    Charset::Gbk,
    Charset::Big5,
    Charset::EucKr,
];

/// The `at` of a finding whose place in the output is not known (yet).
pub const UNPLACED: u64 = u64::MAX;

/// A kind of repair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Kind {
    /// Bytes of another encoding inside the document.
    Mixed,
    /// Text decoded wrongly and re-encoded, once or more.
    Mojibake,
    /// Numeric character references that hold the bytes of a string in
    /// another encoding.
    Ncr,
    /// Text written for a font that draws other characters than its code
    /// points say ([`crate::font`]).
    Fonts,
    /// An in-document declaration that the bytes contradict.
    Declaration,
    /// Private-use characters (gaiji): mapped where a vendor table knows
    /// them, else reported and left.
    #[cfg_attr(feature = "serde", serde(rename = "pua"))]
    PrivateUse,
}

impl Kind {
    /// Every kind, in the order they run.
    pub const ALL: [Kind; 6] =
        [Kind::Declaration, Kind::Fonts, Kind::Mixed, Kind::Ncr, Kind::Mojibake, Kind::PrivateUse];

    /// The kind's name, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mixed => "mixed",
            Kind::Mojibake => "mojibake",
            Kind::Ncr => "ncr",
            Kind::Fonts => "fonts",
            Kind::Declaration => "declaration",
            Kind::PrivateUse => "pua",
        }
    }

    fn bit(self) -> u8 {
        1 << Kind::ALL.iter().position(|&k| k == self).unwrap_or(0)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kinds of repair allowed.
///
/// # Example
/// ```
/// use charsight::repair::{Kind, RepairPolicy};
/// let policy: RepairPolicy = "mixed,ncr".parse().unwrap();
/// assert!(policy.allows(Kind::Ncr) && !policy.allows(Kind::Mojibake));
/// assert_eq!("all".parse::<RepairPolicy>().unwrap(), RepairPolicy::all());
/// assert!("none".parse::<RepairPolicy>().unwrap().is_empty());
/// assert!("mixed,typo".parse::<RepairPolicy>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RepairPolicy {
    kinds: u8,
}

impl RepairPolicy {
    /// No repair.
    pub const NONE: RepairPolicy = RepairPolicy { kinds: 0 };

    /// Every kind of repair.
    pub fn all() -> RepairPolicy {
        Kind::ALL.iter().fold(RepairPolicy::NONE, |p, &k| p.with(k))
    }

    /// This policy and `kind`.
    pub fn with(self, kind: Kind) -> RepairPolicy {
        RepairPolicy { kinds: self.kinds | kind.bit() }
    }

    /// Whether `kind` is allowed.
    pub fn allows(self, kind: Kind) -> bool {
        self.kinds & kind.bit() != 0
    }

    /// Whether nothing is allowed.
    pub fn is_empty(self) -> bool {
        self.kinds == 0
    }

    /// The kinds allowed, in the order they run.
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.allows(k))
    }
}

impl FromStr for RepairPolicy {
    type Err = PolicyError;

    /// `none`, `all`, or kind names separated by commas.
    fn from_str(s: &str) -> Result<RepairPolicy, PolicyError> {
        let mut policy = RepairPolicy::NONE;
        for name in s.split(',').map(str::trim) {
            policy = match name {
                "none" => policy,
                "all" => RepairPolicy::all(),
                _ => match Kind::ALL.iter().find(|k| k.name() == name) {
                    Some(&kind) => policy.with(kind),
                    None => return Err(PolicyError { name: name.to_owned() }),
                },
            };
        }
        Ok(policy)
    }
}

impl fmt::Display for RepairPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.kinds().map(Kind::name).collect();
        match names.is_empty() {
            true => f.write_str("none"),
            false => f.write_str(&names.join(",")),
        }
    }
}

/// A repair policy named a kind of repair that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyError {
    name: String,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        write!(f, "unknown repair {:?}; expected none, all, or {}", self.name, names.join(", "))
    }
}

impl std::error::Error for PolicyError {}

/// One change to the text (or, when not `applied`, a problem and how to fix
/// it).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Finding {
    /// What kind of repair.
    pub kind: Kind,
    /// The input bytes concerned.
    pub range: Range<u64>,
    /// Where `after` starts in the output text (UTF-8 bytes from its
    /// start); [`UNPLACED`] for a reported declaration that was never
    /// decoded (the input ended before it).
    pub at: u64,
    /// The line (from 1) of the text where the bytes are.
    pub line: u64,
    /// The text a plain decode gives for the bytes (malformed sequences as
    /// the chosen [`Errors`] mode writes them).
    pub before: String,
    /// The text written instead.
    pub after: String,
    /// Probability, from 0 to 1, that `after` is the right text.
    pub confidence: f32,
    /// What was found; in words (`UTF-8 read as windows-1252, 2 times`)
    /// its `Display`, the `rule` field of JSON.
    #[cfg_attr(feature = "serde", serde(rename = "rule"))]
    pub cause: Cause,
    /// Whether the change was made (false for a problem only reported).
    pub applied: bool,
}

impl Finding {
    /// Whether this is a repair that was possible but not made: mojibake
    /// whose repair fell short of its margin with a confidence still of 2%
    /// or more (`explain` lists them).
    pub fn possible(&self) -> bool {
        !self.applied && self.kind == Kind::Mojibake
    }
}

/// Every finding of a run: listed (the first [`MAX_FINDINGS`]) and counted.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Findings {
    /// The findings, in text order.
    pub list: Vec<Finding>,
    /// How many findings of each kind, listed or not, but the possible
    /// repairs.
    pub counts: BTreeMap<Kind, u64>,
    /// How many repairs were possible but not made ([`Finding::possible`]),
    /// listed or not.
    pub possible: u64,
    /// Whether findings were left out of the list.
    pub truncated: bool,
    /// Bytes of `before` and `after` text the list holds.
    #[cfg_attr(feature = "serde", serde(skip))]
    text: usize,
}

impl Findings {
    fn add(&mut self, finding: Finding) {
        match finding.possible() {
            true => self.possible += 1,
            false => *self.counts.entry(finding.kind).or_insert(0) += 1,
        }
        let text = finding.before.len() + finding.after.len();
        if self.list.len() < MAX_FINDINGS && self.text + text <= MAX_FINDINGS_TEXT {
            self.text += text;
            self.list.push(finding);
        } else {
            self.truncated = true;
        }
    }

    /// How many findings there are of `kind`.
    pub fn count(&self, kind: Kind) -> u64 {
        self.counts.get(&kind).copied().unwrap_or(0)
    }

    /// How many findings there are.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }
}

/// A malformed sequence that no repair decoded, where it is in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Leftover {
    /// The input bytes.
    pub range: Range<u64>,
    /// The bytes themselves.
    pub bytes: Vec<u8>,
    /// The line (from 1) of the text where they are.
    pub line: u64,
    /// The text around them as the output has it (at most
    /// [`EXCERPT_CHARS`] characters each side, within the line).
    pub excerpt: String,
}

/// Characters of context each side of a [`Leftover`]'s excerpt.
pub const EXCERPT_CHARS: usize = 30;

/// At most this many [`Leftover`]s are kept.
pub const MAX_LEFTOVERS: usize = 100;

/// A change a repair proposes to a text: a byte range of it and what to put
/// there.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Edit {
    pub range: Range<usize>,
    pub after: String,
    pub kind: Kind,
    pub cause: Cause,
    pub confidence: f32,
}

/// A streaming decoder that repairs as it goes.
///
/// # Example
/// ```
/// use charsight::decode::Errors;
/// use charsight::repair::{Kind, RepairPolicy, Repairer};
/// use charsight::Charset;
/// // UTF-8 with a stray windows-1252 quote pair.
/// let bytes = b"Il a dit \x93bonjour\x94 \xC3\xA0 tout le monde.\n";
/// let mut repairer = Repairer::new(Charset::Utf8, RepairPolicy::all(), Errors::Replace);
/// let mut text = String::new();
/// repairer.repair(bytes, true, &mut text).unwrap();
/// assert_eq!(text, "Il a dit “bonjour” à tout le monde.\n");
/// let findings = &repairer.findings().list;
/// assert_eq!(findings.len(), 2);
/// assert_eq!((findings[0].kind, findings[0].range.clone()), (Kind::Mixed, 9..10));
/// assert_eq!(findings[0].before, "\u{FFFD}");
/// assert_eq!(repairer.malformed().sequences, 0);
/// ```
pub struct Repairer {
    charset: Charset,
    policy: RepairPolicy,
    errors: Errors,
    decoder: TextDecoder,
    /// Decoded text not yet repaired, from text offset `base`.
    pending: String,
    base: u64,
    /// Input bytes from offset `input_base` on.
    input: Vec<u8>,
    input_base: u64,
    /// Text written so far.
    written: u64,
    /// Line breaks before `pending`.
    lines: u64,
    findings: Findings,
    log: MalformedLog,
    leftovers: Vec<Leftover>,
    /// Font tables, when the `fonts` repair is allowed.
    registry: Option<Arc<Registry>>,
    scopes: Vec<FontScope>,
    failed: bool,
}

impl Repairer {
    /// A repairer for input in `charset`, making the repairs `policy`
    /// allows, writing what stays malformed as `errors` says (with
    /// [`Errors::Strict`], a malformed sequence that no repair decodes stops
    /// the run). With an empty policy it is a plain [`TextDecoder`].
    pub fn new(charset: Charset, policy: RepairPolicy, errors: Errors) -> Repairer {
        let mut decoder =
            TextDecoder::new(charset, if policy.is_empty() { errors } else { Errors::Escape });
        if !policy.is_empty() {
            decoder = decoder.with_offsets();
        }
        Repairer {
            charset,
            policy,
            errors,
            decoder,
            pending: String::new(),
            base: 0,
            input: Vec::new(),
            input_base: 0,
            written: 0,
            lines: 0,
            findings: Findings::default(),
            log: MalformedLog::default(),
            leftovers: Vec::new(),
            registry: policy.allows(Kind::Fonts).then(|| Arc::new(Registry::builtin())),
            scopes: Vec::new(),
            failed: false,
        }
    }

    /// A repairer for the decided encoding of a detection: skips its BOM,
    /// and with [`Kind::Declaration`] allowed, reports the declaration it
    /// contradicts ([`declaration_finding`]) for output in `output`.
    pub fn for_detection(
        detection: &Detection,
        policy: RepairPolicy,
        errors: Errors,
        output: Charset,
    ) -> Repairer {
        let mut repairer = Repairer::new(detection.charset, policy, errors).skip(detection.bom_len);
        if policy.allows(Kind::Declaration) {
            if let Some(finding) = declaration_finding(detection, output) {
                repairer.findings.add(finding);
            }
        }
        repairer
    }

    /// Font tables for the `fonts` repair other than the built-in ones
    /// ([`Registry::builtin`]).
    pub fn with_fonts(mut self, registry: Arc<Registry>) -> Repairer {
        if self.policy.allows(Kind::Fonts) {
            self.registry = Some(registry);
        }
        self
    }

    /// Skips the first `n` bytes of the input (a byte order mark).
    pub fn skip(mut self, n: usize) -> Repairer {
        self.decoder = self.decoder.skip(n as u64);
        self
    }

    /// Splices text over byte ranges of the input
    /// ([`TextDecoder::with_splices`]); a splice over a reported
    /// declaration marks its finding applied.
    pub fn with_splices(mut self, splices: Vec<Splice>) -> Repairer {
        for f in self.findings.list.iter_mut().filter(|f| f.kind == Kind::Declaration) {
            if let Some(s) = splices.iter().find(|s| s.range == f.range) {
                f.applied = true;
                f.after.clone_from(&s.text);
            }
        }
        self.decoder = self.decoder.with_splices(splices);
        self
    }

    /// Decodes and repairs the next chunk, appending to `out`; `last` ends
    /// the input. Text is written a block at a time, so some of it may
    /// come out only with later chunks.
    ///
    /// # Errors
    /// With [`Errors::Strict`], the first malformed sequence that no repair
    /// decoded; `out` then holds exactly the text before it. Do not call
    /// again after an error.
    pub fn repair(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<(), DecodeError> {
        if self.policy.is_empty() {
            let start = out.len();
            let result = self.decoder.decode(chunk, last, out);
            self.written += (out.len() - start) as u64;
            return result;
        }
        if self.failed {
            return Ok(());
        }
        // The chunk is decoded [`MAX_BLOCK`] bytes at a time, each piece's
        // blocks repaired before the next: the text waiting for repair (and
        // the input kept for it) stays within a few blocks however much is
        // handed over at once, and each block is cut off a short buffer.
        // Blocks do not depend on the chunking, so neither does the result.
        let mut rest = chunk;
        loop {
            let (piece, tail) = rest.split_at(rest.len().min(MAX_BLOCK));
            rest = tail;
            let end = last && rest.is_empty();
            self.input.extend_from_slice(piece);
            self.decoder.decode(piece, end, &mut self.pending).expect("escapes never fail");
            while let Some(cut) = self.next_cut(end) {
                if let Err(e) = self.repair_block(cut, out) {
                    self.failed = true;
                    return Err(e);
                }
            }
            if rest.is_empty() {
                return Ok(());
            }
        }
    }

    /// Where the next block ends, if one is ready.
    ///
    /// A block ends at the first line break after [`BLOCK`] bytes of text,
    /// if it comes within [`MAX_BLOCK`] bytes; a longer line is cut near
    /// [`MAX_BLOCK`]. Both depend only on the text, never on how much of it
    /// has arrived (the end of the input too cuts only where the other
    /// rules would not), so that blocks, and the repairs made in them, do
    /// not depend on how the input was cut into chunks.
    fn next_cut(&self, last: bool) -> Option<usize> {
        let text = &self.pending;
        if text.is_empty() {
            return None;
        }
        // A line break is one byte and never inside a character: look for
        // it from byte BLOCK - 1 whether or not a character starts there.
        let window = text.as_bytes().get(BLOCK - 1..MAX_BLOCK.min(text.len())).unwrap_or(&[]);
        if let Some(nl) = memchr::memchr(b'\n', window) {
            return Some(BLOCK - 1 + nl + 1);
        }
        let long = if text.len() < MAX_BLOCK { None } else { self.long_line_cut() };
        long.or(last.then_some(text.len()))
    }

    /// Where to cut a line longer than [`MAX_BLOCK`] bytes of text: at the
    /// last space in the last quarter of its first [`MAX_BLOCK`] bytes, else
    /// at the last character boundary there where the input offset is exact.
    fn long_line_cut(&self) -> Option<usize> {
        let text = &self.pending;
        let exact = |at: usize| {
            let map = self.decoder.offsets()?;
            map.input_at(text, self.base, self.base + at as u64)
        };
        let (from, to) = (boundary(text, MAX_BLOCK * 3 / 4), boundary(text, MAX_BLOCK));
        let spaces = text[from..to].rmatch_indices(' ').map(|(i, _)| from + i + 1);
        let chars = text[from..to].char_indices().rev().map(|(i, _)| from + i);
        spaces.chain(chars).find(|&at| at > 0 && exact(at).is_some())
    }

    /// Repairs and writes the first `cut` bytes of pending text.
    fn repair_block(&mut self, cut: usize, out: &mut String) -> Result<(), DecodeError> {
        let end = self.base + cut as u64;
        let map = self
            .decoder
            .split_offsets(&self.pending, self.base, end)
            .expect("blocks end where the input offset is exact");
        let input_end = map.pieces().last().map_or(self.input_base, |p| p.input);
        let keep = usize::try_from(input_end.saturating_sub(self.input_base))
            .unwrap_or(usize::MAX)
            .min(self.input.len());
        let block = block::Block {
            text: &self.pending[..cut],
            base: self.base,
            map: &map,
            input: &self.input[..keep],
            input_base: self.input_base,
            charset: self.charset,
        };
        let start = out.len();
        let result = block::repair(
            &block,
            self.policy,
            self.errors,
            block::Sink {
                out,
                written: self.written,
                lines: self.lines,
                findings: &mut self.findings,
                log: &mut self.log,
                leftovers: &mut self.leftovers,
                scopes: &mut self.scopes,
            },
            self.registry.as_deref(),
        );
        self.written += (out.len() - start) as u64;
        self.lines += memchr::memchr_iter(b'\n', &self.pending.as_bytes()[..cut]).count() as u64;
        self.pending.drain(..cut);
        self.base = end;
        self.input.drain(..keep);
        self.input_base += keep as u64;
        result
    }

    /// The findings so far.
    pub fn findings(&self) -> &Findings {
        &self.findings
    }

    /// Also counts the malformed sequences from input `offset` on that no
    /// repair decodes ([`MalformedLog::past`]): what the bytes after a
    /// decision prefix showed.
    pub fn count_malformed_past(mut self, offset: u64) -> Repairer {
        self.decoder = self.decoder.count_malformed_past(offset);
        self.log.count_past(offset);
        self
    }

    /// The malformed sequences written as malformed (not repaired) so far.
    pub fn malformed(&self) -> &MalformedLog {
        if self.policy.is_empty() {
            self.decoder.malformed()
        } else {
            &self.log
        }
    }

    /// The first [`MAX_LEFTOVERS`] malformed sequences that no repair
    /// decoded, with their place in the text (none when the policy is
    /// empty: no repair, no diagnosis).
    pub fn leftovers(&self) -> &[Leftover] {
        &self.leftovers
    }

    /// The known fonts' scopes found so far (the first [`MAX_LEFTOVERS`]),
    /// with the `fonts` repair.
    pub fn font_scopes(&self) -> &[FontScope] {
        &self.scopes
    }

    /// How many bytes of text have been written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// In [`Errors::Escape`] mode, how many decoded characters were already
    /// in the escape range ([`TextDecoder::escape_collisions`]).
    pub fn escape_collisions(&self) -> u64 {
        if self.errors == Errors::Escape {
            self.decoder.escape_collisions()
        } else {
            0
        }
    }
}

/// The lines of `text`, each with its line feed (as `str::split_inclusive`
/// gives them), found with `memchr`.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let rest = text.get(start..).filter(|rest| !rest.is_empty())?;
        let end = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest.len(), |nl| nl + 1);
        start += end;
        Some(&rest[..end])
    })
}

/// The largest character boundary of `text` at or before `at`.
pub(crate) fn boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

/// The smallest character boundary of `text` at or after `at` (at most its
/// length).
pub(crate) fn boundary_after(text: &str, at: usize) -> usize {
    (at.min(text.len())..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len())
}

/// The text a plain decode gives, from repaired `text` and its `findings`:
/// each applied finding's `after` put back to its `before`. Nothing a
/// repair changes is lost: this gives the plain decode (with the same
/// [`Errors`] mode) exactly.
///
/// # Example
/// ```
/// use charsight::repair::{repair, undo, RepairPolicy};
/// use charsight::Engine;
/// let bytes = b"caf\xE9 cr\xE8me \xC3\xA0 la carte";
/// let found = Engine::new().force_encoding("utf-8").detect(bytes);
/// let repaired = repair(bytes, &found, RepairPolicy::all());
/// assert_eq!(repaired.text, "café crème à la carte");
/// assert_eq!(undo(&repaired.text, &repaired.findings.list), "caf\u{FFFD} cr\u{FFFD}me à la carte");
/// ```
pub fn undo(text: &str, findings: &[Finding]) -> String {
    let mut out = text.to_owned();
    let mut applied: Vec<&Finding> = findings.iter().filter(|f| f.applied).collect();
    applied.sort_by_key(|f| f.at);
    for f in applied.into_iter().rev() {
        let at = usize::try_from(f.at).unwrap_or(usize::MAX);
        if let Some(end) = at.checked_add(f.after.len()).filter(|&end| out.get(at..end).is_some()) {
            out.replace_range(at..end, &f.before);
        }
    }
    out
}

/// Decodes and repairs the whole of `bytes`: the text, the findings and the
/// malformed sequences left.
///
/// # Example
/// ```
/// use charsight::repair::{repair, RepairPolicy};
/// use charsight::Engine;
/// let bytes = "Ã‡a marche trÃ¨s bien.".as_bytes();
/// let found = Engine::new().detect(bytes);
/// let repaired = repair(bytes, &found, RepairPolicy::all());
/// assert_eq!(repaired.text, "Ça marche très bien.");
/// assert_eq!(repaired.findings.list.len(), 2);
/// ```
pub fn repair(bytes: &[u8], detection: &Detection, policy: RepairPolicy) -> Repaired {
    let mut repairer = Repairer::for_detection(detection, policy, Errors::Replace, Charset::Utf8);
    let mut text = String::new();
    repairer.repair(bytes, true, &mut text).expect("replace mode never fails");
    let malformed = repairer.malformed().clone();
    Repaired { text, findings: repairer.findings, malformed }
}

/// The result of [`repair`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Repaired {
    /// The repaired text.
    pub text: String,
    /// Every change made, and problems reported.
    pub findings: Findings,
    /// Malformed sequences left, written as U+FFFD.
    pub malformed: MalformedLog,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_before_and_after() {
        let text = "aéb";
        let before: Vec<usize> = (0..=5).map(|at| boundary(text, at)).collect();
        let after: Vec<usize> = (0..=5).map(|at| boundary_after(text, at)).collect();
        assert_eq!((before, after), (vec![0, 1, 1, 3, 4, 4], vec![0, 1, 3, 3, 4, 4]));
    }

    #[test]
    fn lines_are_split_inclusive() {
        for text in ["", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "é\r\nü"] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.split_inclusive('\n').collect::<Vec<_>>()
            );
        }
    }

    /// Where `next_cut` cuts `bytes` (decoded whole, not yet repaired),
    /// with `last` false and true.
    fn cuts(bytes: &[u8]) -> (Option<usize>, Option<usize>) {
        let mut repairer = Repairer::new(Charset::Utf8, RepairPolicy::all(), Errors::Replace);
        repairer.input.extend_from_slice(bytes);
        repairer.decoder.decode(bytes, false, &mut repairer.pending).unwrap();
        (repairer.next_cut(false), repairer.next_cut(true))
    }

    /// CJK text after one byte of ASCII: byte `BLOCK - 1` is inside a
    /// character, and the cut is still at the next line break (issue 18).
    #[test]
    fn r18_the_line_break_after_a_block_is_found_from_inside_a_character() {
        let mut text = "x".to_owned();
        while text.len() < BLOCK + 100 {
            text.push_str("これは日本語の文章です");
        }
        let at = text.len() + 1;
        text.push_str("\n简体中文的字符编码检测\n");
        assert!(!text.is_char_boundary(BLOCK - 1));
        assert_eq!(cuts(text.as_bytes()), (Some(at), Some(at)));
    }

    /// The end of the input does not make one block of a line longer than
    /// `MAX_BLOCK`: it is cut where it would be in chunks (issue 18).
    #[test]
    fn r18_the_end_of_the_input_cuts_a_long_line_as_chunks_do() {
        let mut text = "x".to_owned();
        while text.len() < MAX_BLOCK + 1000 {
            text.push_str("これは 日本語の文章です");
        }
        let (chunked, last) = cuts(text.as_bytes());
        assert!(chunked.is_some_and(|at| at <= MAX_BLOCK), "{chunked:?}");
        assert_eq!(last, chunked);
    }
}
