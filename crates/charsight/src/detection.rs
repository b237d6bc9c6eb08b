//! What the engine reports: the [`Detection`] of a document's encoding, the
//! [`Candidate`]s it weighed, the [`Rule`] that decided under which
//! [`Policy`], and why a candidate was doubted ([`Doubt`]).
//!
//! These types sit below the stages that make and use them: the
//! [`pipeline`](crate::pipeline) fills them in, [`decode`](crate::decode) and
//! [`repair`](crate::repair) read them.

use crate::detect::{Ebcdic, Guess};
use crate::font::FontLayer;
use crate::sniff::{DocumentKind, Evidence, Source};
use crate::verify::Verification;
use crate::Charset;

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
    /// unless too many of its sequences are malformed to take it at all or
    /// (a declaration) the bytes' valid UTF-8 refutes it whatever its text
    /// ([`Doubt::ValidUtf8`]):
    /// how many bits the text it decodes costs more than the text of the
    /// detector's pick, each malformed sequence and C1 control charged as a
    /// control character (less than 0 when it reads better); at most 1000:
    /// a reading that far behind is behind for every rule, and is not
    /// scored further.
    ///
    /// [`Guess::leader_ruled_out`]: crate::detect::Guess::leader_ruled_out
    pub behind: Option<f32>,
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
    /// The bytes are EBCDIC text (its family): the detector reads it in the
    /// EBCDIC code pages, and `charset` is the one whose text reads best
    /// unless another was forced, declared (an EBCDIC XML declaration) or is
    /// the default and reads it alike.
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
    /// Indic font), when one is found; see [`crate::font::detect_layer`].
    pub font: Option<FontLayer>,
    /// What the content says on its own: the detector's guess with every
    /// candidate it did not rule out, ranked. When a declaration decided,
    /// this is the other opinion (how plausible the declared charset is
    /// next to the best reading: [`Guess::candidates`]).
    pub detected: Guess,
}

impl Detection {
    /// The in-document declaration that counts (`<meta>`, the XML
    /// declaration), by the precedence of [`Detection::document`]'s kind:
    /// the one the pipeline weighed. `None` when the document declares
    /// nothing usable.
    ///
    /// # Example
    /// ```
    /// use charsight::{Charset, Engine, Source};
    /// let page = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><meta charset=utf-8><a/>";
    /// let found = Engine::new().detect(page);
    /// let declared = found.declaration().unwrap();
    /// assert_eq!((declared.source, declared.charset), (Source::Xml, Some(Charset::Windows1252)));
    /// ```
    pub fn declaration(&self) -> Option<&Evidence> {
        self.document.declaration(&self.evidence)
    }

    /// The charset the document's own declaration names (what `decode
    /// --keep-encoding` writes): that of [`Detection::declaration`], if it
    /// counts ([`Evidence::usable`]).
    ///
    /// # Example
    /// ```
    /// use charsight::{Charset, Engine};
    /// let found = Engine::new().detect(b"<meta charset=koi8-r><p>\xF0\xD2\xC9");
    /// assert_eq!(found.document_charset(), Some(Charset::Koi8R));
    /// assert_eq!(Engine::new().detect(b"plain").document_charset(), None);
    /// ```
    pub fn document_charset(&self) -> Option<Charset> {
        self.declaration().and_then(Evidence::usable)
    }

    /// Why the input is not text to decode, in words, unless its encoding
    /// was forced: binary data, or EBCDIC text (which charsight recognises
    /// but does not decode). `None` for text.
    ///
    /// # Example
    /// ```
    /// use charsight::Engine;
    /// let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
    /// assert_eq!(Engine::new().detect(png).undecodable().as_deref(), Some("binary data, not text"));
    /// assert_eq!(Engine::new().detect(b"text").undecodable(), None);
    /// ```
    pub fn undecodable(&self) -> Option<String> {
        if self.source == Source::Forced || self.charset.is_ebcdic() {
            return None;
        }
        match self.ebcdic {
            Some(ebcdic) => Some(format!("{} text", ebcdic.name())),
            None => self.binary.then(|| "binary data, not text".to_owned()),
        }
    }

    /// What a [`Rule::MostlyUtf8`] decision found wrong with the UTF-8, in
    /// words: stray bytes (malformed sequences), or text that reads poorly.
    pub fn utf8_damage(&self) -> &'static str {
        let utf8 = self.candidates.iter().find(|c| c.charset == Charset::Utf8);
        if utf8.is_some_and(|c| c.verification.malformed > 0) {
            "with stray bytes"
        } else {
            "that reads poorly (garbled?)"
        }
    }
}

/// A [`Detection`] as charsight's JSON reports show it (the CLI's `detect
/// --format jsonl` lines and `decode --report`, the Python package's
/// `to_dict()`): the decision's fields under their JSON names,
/// probabilities rounded to three decimals. Made by [`Detection::report`].
///
/// # Example
/// ```
/// use charsight::Engine;
/// let found = Engine::new().detect(b"caf\xC3\xA9");
/// let json = serde_json::to_value(found.report(false)).unwrap();
/// assert_eq!(json["encoding"], "UTF-8");
/// assert_eq!(json["source"], "detected");
/// ```
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
pub struct DetectionReport<'a> {
    /// The decided charset, by its canonical name.
    pub encoding: Charset,
    /// [`Detection::confidence`], rounded.
    pub confidence: f64,
    /// Where the decision came from.
    pub source: Source,
    /// Every piece of evidence ([`Detection::evidence`]).
    pub declared: &'a [Evidence],
    /// The text's language (BCP 47).
    pub language: Option<&'a str>,
    /// The bytes are pure ASCII.
    pub ascii: bool,
    /// The bytes are clearly not text.
    pub binary: bool,
    /// EBCDIC text, recognised (its family).
    pub ebcdic: Option<Ebcdic>,
    /// Bytes of byte order mark to skip before decoding.
    pub bom_len: usize,
    /// What the input is ([`ReportedDocument`]).
    pub document: ReportedDocument,
    /// The input is empty.
    pub empty: bool,
    /// The policy that decided.
    pub policy: Policy,
    /// Why.
    pub rule: Rule,
    /// Each candidate, the chosen one first.
    pub candidates: &'a [Candidate],
    /// The font layer found in the decoded prefix, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_encoding: Option<&'a str>,
    /// The font layer's confidence, rounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_confidence: Option<f64>,
}

/// The version of charsight's JSON reports (`detect --format jsonl`, `decode
/// --report`, `url --format jsonl`, the Python package's `to_dict()`).
#[cfg(feature = "serde")]
pub const REPORT_VERSION: u32 = 2;

/// What an input is, as the JSON reports say it: HTML or XML (the rules
/// applied to its in-document declarations), plain text (no tag in its first
/// bytes), or not text at all.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ReportedDocument {
    /// HTML rules; the input has markup.
    Html,
    /// XML rules.
    Xml,
    /// No markup.
    Text,
    /// Not text ([`Detection::binary`]).
    Binary,
}

#[cfg(feature = "serde")]
impl Detection {
    /// The detection as charsight's JSON reports show it; `markup` says
    /// whether the input's first bytes hold a tag ([`crate::sniff::TagScan`]).
    pub fn report(&self, markup: bool) -> DetectionReport<'_> {
        DetectionReport {
            encoding: self.charset,
            confidence: round3(self.confidence),
            source: self.source,
            declared: &self.evidence,
            language: self.language,
            ascii: self.ascii,
            binary: self.binary,
            ebcdic: self.ebcdic,
            bom_len: self.bom_len,
            document: match self.document {
                _ if self.binary => ReportedDocument::Binary,
                DocumentKind::Xml => ReportedDocument::Xml,
                _ if markup => ReportedDocument::Html,
                _ => ReportedDocument::Text,
            },
            empty: self.sample_len == 0,
            policy: self.policy,
            rule: self.rule,
            candidates: &self.candidates,
            font_encoding: self.font.as_ref().map(|f| &*f.name),
            font_confidence: self.font.as_ref().map(|f| round3(f.confidence)),
        }
    }
}

/// A probability rounded to three decimals, as charsight's JSON reports
/// write them: enough for a probability, and stable across platforms.
#[cfg(feature = "serde")]
pub fn round3(x: f32) -> f64 {
    (f64::from(x) * 1000.0).round() / 1000.0
}
