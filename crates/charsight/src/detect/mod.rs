//! Stage 2: what the content itself says.
//!
//! Input: the bytes, fed in chunks of any size. Output: a [`Guess`]: the
//! likeliest charset from the content alone, how sure, whether the bytes are
//! pure ASCII, whether they look binary.
//!
//! The detector stops wanting bytes once more cannot change its answer
//! ([`Detector::wants_more`]); feeding it further is allowed and cheap.

mod utf8;

use crate::Charset;

/// How many leading bytes the shape statistics (NULs, controls) look at.
const SHAPE_SAMPLE: usize = 64 * 1024;

/// A streaming content detector.
///
/// # Example
/// ```
/// use charsight::detect::Detector;
/// use charsight::Charset;
/// let mut detector = Detector::new();
/// detector.feed("Grüße".as_bytes(), true);
/// let guess = detector.guess();
/// assert_eq!(guess.charset, Some(Charset::Utf8));
/// assert!(!guess.ascii);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Detector {
    utf8: utf8::Validator,
    shape: Shape,
    finished: bool,
}

/// What the detector concluded.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Guess {
    /// The likeliest charset, or `None` when the content gives no answer
    /// (bytes that are not valid UTF-8, before the statistical models).
    pub charset: Option<Charset>,
    /// Probability, from 0 to 1, that decoding with `charset` gives the
    /// right text.
    pub confidence: f32,
    /// The bytes are all ASCII (0x00–0x7F): every ASCII-compatible encoding
    /// decodes them alike.
    pub ascii: bool,
    /// The bytes are clearly not text: NULs or control bytes outside the
    /// patterns of UTF-16 and UTF-32.
    pub binary: bool,
    /// Every encoding considered and not disqualified, best first.
    pub candidates: Vec<Candidate>,
}

/// One encoding the detector considered, with its score.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Candidate {
    /// The encoding.
    #[cfg_attr(feature = "serde", serde(rename = "encoding"))]
    pub charset: Charset,
    /// Probability, from 0 to 1, that it is the right one.
    pub confidence: f32,
    /// The language whose model scored best with it, as a BCP 47 tag.
    pub language: Option<&'static str>,
}

impl Guess {
    /// The detector's confidence in `charset`: its score among the
    /// candidates, 0 if it was disqualified or not considered.
    pub fn confidence_of(&self, charset: Charset) -> f32 {
        self.candidates.iter().find(|c| c.charset == charset).map_or(0.0, |c| c.confidence)
    }
}

impl Detector {
    /// A detector that has seen nothing.
    pub fn new() -> Detector {
        Detector::default()
    }

    /// Feeds the next chunk; `last` marks the end of the bytes.
    pub fn feed(&mut self, chunk: &[u8], last: bool) {
        self.shape.feed(chunk);
        self.utf8.feed(chunk, last);
        self.finished |= last;
    }

    /// Whether more bytes could change the guess.
    pub fn wants_more(&self) -> bool {
        if self.finished {
            return false;
        }
        if self.shape.seen < SHAPE_SAMPLE {
            return true;
        }
        let binary = self.shape.wide_form().is_none() && self.shape.looks_binary();
        self.utf8.is_valid() && !binary
    }

    /// The guess from what has been fed so far.
    pub fn guess(&self) -> Guess {
        let ascii = self.utf8.is_valid() && !self.utf8.saw_non_ascii();
        let wide = self.shape.wide_form();
        let binary = wide.is_none() && self.shape.looks_binary();
        let (charset, confidence) = match wide {
            Some(charset) => (Some(charset), 0.8),
            None if ascii => (Some(Charset::Utf8), 1.0),
            None if self.utf8.is_valid() => (Some(Charset::Utf8), 0.95),
            None => (None, 0.0),
        };
        let candidates = charset
            .map(|charset| Candidate { charset, confidence, language: None })
            .into_iter()
            .collect();
        Guess { charset, confidence, ascii, binary, candidates }
    }
}

/// Counts of NULs and control bytes over the first [`SHAPE_SAMPLE`] bytes.
#[derive(Clone, Debug, Default)]
struct Shape {
    seen: usize,
    /// NULs by offset modulo 4.
    zeros: [usize; 4],
    /// C0 controls other than TAB, LF, FF, CR and ESC, excluding NUL.
    controls: usize,
}

impl Shape {
    fn feed(&mut self, chunk: &[u8]) {
        let take = chunk.len().min(SHAPE_SAMPLE - self.seen);
        for (i, &b) in chunk[..take].iter().enumerate() {
            if b == 0 {
                self.zeros[(self.seen + i) % 4] += 1;
            } else if b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | 0x1B) {
                self.controls += 1;
            }
        }
        self.seen += take;
    }

    /// UTF-16 or UTF-32 without BOM, told by where the NULs of ASCII
    /// characters fall: all on one parity (UTF-16), or on three of every
    /// four positions (UTF-32).
    fn wide_form(&self) -> Option<Charset> {
        let [z0, z1, z2, z3] = self.zeros;
        let total = z0 + z1 + z2 + z3;
        let per_slot = self.seen / 4;
        if total < 8 || per_slot == 0 {
            return None;
        }
        let mostly = |n: usize| n * 10 >= per_slot * 6;
        let rarely = |n: usize| n * 20 <= per_slot;
        if mostly(z1) && mostly(z2) && mostly(z3) && rarely(z0) {
            return Some(Charset::Utf32Le);
        }
        if mostly(z0) && mostly(z1) && mostly(z2) && rarely(z3) {
            return Some(Charset::Utf32Be);
        }
        let (even, odd) = (z0 + z2, z1 + z3);
        if even * 50 <= total && odd >= 4 {
            return Some(Charset::Utf16Le);
        }
        if odd * 50 <= total && even >= 4 {
            return Some(Charset::Utf16Be);
        }
        None
    }

    fn looks_binary(&self) -> bool {
        let nuls: usize = self.zeros.iter().sum();
        nuls > 0 || self.controls * 20 > self.seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guess(bytes: &[u8]) -> Guess {
        let mut d = Detector::new();
        d.feed(bytes, true);
        d.guess()
    }

    #[test]
    fn ascii_utf8_and_other() {
        let g = guess(b"plain text");
        assert!(g.ascii && !g.binary);
        assert_eq!(g.charset, Some(Charset::Utf8));
        assert_eq!(guess("żółw".as_bytes()).charset, Some(Charset::Utf8));
        assert_eq!(guess(b"\xBF\xE0 \xE8").charset, None);
        assert!(!guess(b"").binary);
    }

    #[test]
    fn wide_forms_without_bom() {
        let text = "Hello, wide world. Привет.";
        for c in [Charset::Utf16Le, Charset::Utf16Be, Charset::Utf32Le, Charset::Utf32Be] {
            let g = guess(&c.encode(text).0);
            assert_eq!(g.charset, Some(c));
            assert!(!g.binary, "{c}");
        }
    }

    #[test]
    fn binary() {
        assert!(
            guess(b"\x7FELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00").binary
        );
        assert!(
            guess(b"GIF89a\x01\x00\x01\x00\x80\x01\x00\x00\x00\x00\xff\xff\xff!\xf9\x04").binary
        );
        assert!(!guess(b"\x1b$B$3$s$K$A$O\x1b(B").binary);
    }
}
