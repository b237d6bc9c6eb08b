//! The engine: the context a caller knows about some bytes (HTTP
//! `Content-Type`, default and forced encodings, hints, the policy) and the
//! entry points that decide their encoding. [`Engine::detect`] takes whole
//! bytes; [`Engine::session`] takes them in chunks with bounded memory; both
//! give the same [`Detection`], decided by the pipeline
//! (`pipeline::decide`).

use crate::detect::Detector;
use crate::detection::{Detection, Policy};
use crate::pipeline::{decide, Context};
use crate::Charset;

/// An encoding a caller names for [`Engine::default_encoding`] or
/// [`Engine::force_encoding`]: a [`Charset`], or a label as a document or a
/// user would give it (`"latin1"`, `b"Shift_JIS"`), resolved like one; a
/// label that names nothing is reported as ignored evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodingChoice {
    /// A charset.
    Charset(Charset),
    /// A label, resolved as [`label::resolve`](crate::label::resolve) does.
    Label(Vec<u8>),
}

impl EncodingChoice {
    /// The label the choice is reported with as evidence.
    pub(crate) fn label(&self) -> &[u8] {
        match self {
            EncodingChoice::Charset(charset) => charset.name().as_bytes(),
            EncodingChoice::Label(label) => label,
        }
    }
}

impl From<Charset> for EncodingChoice {
    fn from(charset: Charset) -> EncodingChoice {
        EncodingChoice::Charset(charset)
    }
}

impl From<&str> for EncodingChoice {
    fn from(label: &str) -> EncodingChoice {
        EncodingChoice::Label(label.as_bytes().to_vec())
    }
}

impl From<&[u8]> for EncodingChoice {
    fn from(label: &[u8]) -> EncodingChoice {
        EncodingChoice::Label(label.to_vec())
    }
}

impl From<String> for EncodingChoice {
    fn from(label: String) -> EncodingChoice {
        EncodingChoice::Label(label.into_bytes())
    }
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
    pub(crate) content_type: Option<Vec<u8>>,
    pub(crate) default: Option<EncodingChoice>,
    pub(crate) forced: Option<EncodingChoice>,
    pub(crate) tld: Option<String>,
    pub(crate) language: Option<String>,
    pub(crate) policy: Policy,
    pub(crate) prefix: usize,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// How many leading bytes evidence gathering reads by default
    /// ([`Engine::prefix_limit`]).
    pub const DEFAULT_PREFIX: usize = 64 * 1024;

    /// An engine with no context: `verify` policy, windows-1252 fallback.
    pub fn new() -> Engine {
        Engine {
            content_type: None,
            default: None,
            forced: None,
            tld: None,
            language: None,
            policy: Policy::default(),
            prefix: Engine::DEFAULT_PREFIX,
        }
    }

    /// The HTTP `Content-Type` value the bytes came with.
    pub fn content_type(mut self, value: impl AsRef<[u8]>) -> Engine {
        self.content_type = Some(value.as_ref().to_vec());
        self
    }

    /// The encoding to fall back to when nothing decides (default:
    /// windows-1252): a [`Charset`] or a label ([`EncodingChoice`]).
    pub fn default_encoding(mut self, encoding: impl Into<EncodingChoice>) -> Engine {
        self.default = Some(encoding.into());
        self
    }

    /// The encoding to use whatever the evidence says (which is still
    /// gathered and reported): a [`Charset`] or a label. A label that names
    /// nothing is reported as ignored evidence and forces nothing.
    pub fn force_encoding(mut self, encoding: impl Into<EncodingChoice>) -> Engine {
        self.forced = Some(encoding.into());
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
    /// default [`Engine::DEFAULT_PREFIX`]). A `<meta>` past this is not seen.
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

    /// Decides the encoding of `bytes` and decodes them with it: the text
    /// (without a byte order mark; each malformed sequence a U+FFFD, counted
    /// in the chosen candidate's verification) and the decision.
    ///
    /// # Example
    /// ```
    /// use charsight::{Charset, Engine};
    /// let (text, found) = Engine::new().decode(b"\xEF\xBB\xBFna\xC3\xAFve");
    /// assert_eq!(text, "naïve");
    /// assert_eq!(found.charset, Charset::Utf8);
    /// let (text, found) = Engine::new().decode(b"Fran\xE7ois et Ren\xE9e, caf\xE9 cr\xE8me");
    /// assert_eq!(text, "François et Renée, café crème");
    /// assert_eq!(found.charset, Charset::Windows1252);
    /// ```
    pub fn decode<'b>(&self, bytes: &'b [u8]) -> (std::borrow::Cow<'b, str>, Detection) {
        let found = self.detect(bytes);
        let (text, _) = found.charset.decode(&bytes[found.bom_len.min(bytes.len())..]);
        (text, found)
    }

    /// A streaming detection: feed chunks, then finish.
    pub fn session(&self) -> Session<'_> {
        let forced = self.forced.as_ref().is_some_and(|c| crate::label::resolve(c.label()).is_ok());
        Session { engine: self, prefix: Vec::new(), detector: self.detector(), len: 0, forced }
    }

    /// A content detector with this engine's hints.
    pub(crate) fn detector(&self) -> Detector {
        self.context().detector()
    }

    /// The settings the pipeline decides by.
    fn context(&self) -> Context<'_> {
        Context {
            content_type: self.content_type.as_deref(),
            default: self.default.as_ref().map(EncodingChoice::label),
            forced: self.forced.as_ref().map(EncodingChoice::label),
            policy: self.policy,
            tld: self.tld.as_deref(),
            language: self.language.as_deref(),
        }
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
    /// The engine forces an encoding: the content cannot change it.
    forced: bool,
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
    /// may stop reading and [`finish`](Session::finish). With an encoding
    /// forced ([`Engine::force_encoding`], a label that resolves), no more
    /// once something was fed: the evidence reported is what it holds.
    pub fn wants_more(&self) -> bool {
        if self.forced {
            return self.len == 0;
        }
        self.prefix.len() < self.engine.prefix || self.detector.wants_more()
    }

    /// The decision, from what was fed.
    pub fn finish(mut self) -> Detection {
        self.detector.feed(b"", true);
        let complete = self.len == self.prefix.len() as u64;
        decide(&self.engine.context(), &self.prefix, complete, self.detector.guess())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
