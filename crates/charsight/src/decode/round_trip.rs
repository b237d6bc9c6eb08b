//! Lossless escaping: in [`Errors::Escape`](super::Errors::Escape) mode, a
//! valid sequence whose text does not encode back to the same bytes (a
//! private-use character the encoder does not write, one of two sequences
//! for the same character, a character of the escape range) is escaped
//! byte by byte like a malformed one, so that decoding and encoding back
//! gives the original bytes.
//!
//! The check is cheap when nothing needs escaping: the text between two
//! malformed sequences is encoded back whole and compared with its bytes.
//! Only a stretch that differs is decoded again one byte at a time (with a
//! fresh decoder: the encodings checked are stateless, and each stretch
//! starts at a character boundary), so that each sequence is compared with
//! its own text.
//!
//! An encoder that composes (EUC-JIS-2004 and Shift_JIS-2004 write `æ`
//! and a combining grave accent, two sequences, as one) is checked with
//! the character kept last before the text, so that a sequence it would
//! compose with that character is escaped.

use std::ops::Range;

use super::{escape, is_escape};
use crate::codec::Encoder;
use crate::Charset;

/// The longest unfinished sequence a decoder holds between calls.
const MAX_PENDING: usize = 8;

/// A malformed sequence escaped during one decoder call: its offset in the
/// input, its length, and where its escapes are in the call's text.
pub(super) struct Escaped {
    pub offset: u64,
    pub len: usize,
    pub text: Range<usize>,
}

/// The round-trip check of one stateless, non-Unicode charset.
pub(super) struct RoundTrip {
    charset: Charset,
    encoder: Encoder,
    /// Bytes fed to the decoder that no text accounts for yet (the start
    /// of a sequence that a later call completes).
    tail: Vec<u8>,
    /// Reused buffer of encoded text.
    encoded: Vec<u8>,
    /// The charset's encoder composes characters.
    composes: bool,
    /// The last character kept as text, while the encoder holds it (it may
    /// compose with the next) and no escape has followed it.
    prev: Option<char>,
}

impl RoundTrip {
    /// The check for `charset`, if it needs one: the Unicode encodings
    /// give every character back as it came (a character of the escape
    /// range is counted, not escaped: escaped text must itself read back
    /// as UTF-8), and the stateful ones and `replacement` cannot be
    /// checked a sequence at a time.
    pub fn new(charset: Charset) -> Option<RoundTrip> {
        let skip = charset.is_unicode() || charset.is_stateful() || charset == Charset::Replacement;
        let encoder = charset.new_encoder();
        (!skip).then(|| RoundTrip {
            charset,
            composes: encoder.composes(),
            encoder,
            tail: Vec::new(),
            encoded: Vec::new(),
            prev: None,
        })
    }

    /// Rewrites `out[start..]`, the text one decoder call wrote for `bytes`
    /// (fed at input offset `offset`; `last` if they end the input),
    /// escaping every sequence whose text does not encode back to it.
    /// `escaped` lists the call's malformed sequences, in order, with their
    /// text ranges relative to `start`.
    pub fn check(
        &mut self,
        bytes: &[u8],
        offset: u64,
        last: bool,
        escaped: &[Escaped],
        out: &mut String,
        start: usize,
    ) {
        let src_offset = offset.saturating_sub(self.tail.len() as u64);
        let mut src = std::mem::take(&mut self.tail);
        src.extend_from_slice(bytes);
        let text = &out[start..];
        let mut rebuilt = None;
        let (mut t, mut b) = (0, 0);
        for e in escaped {
            let end = usize::try_from(e.offset.saturating_sub(src_offset))
                .unwrap_or(usize::MAX)
                .clamp(b, src.len());
            let gap = t..e.text.start.max(t);
            self.gap(text, gap, &src[b..end], false, &mut rebuilt);
            if let Some(r) = &mut rebuilt {
                r.push_str(&text[e.text.clone()]);
            }
            self.prev = None;
            t = e.text.end.max(t);
            b = (end + e.len).min(src.len());
        }
        let pending = self.gap(text, t..text.len(), &src[b..], !last, &mut rebuilt);
        if let Some(r) = rebuilt {
            out.truncate(start);
            out.push_str(&r);
        }
        src.drain(..src.len() - pending);
        self.tail = src;
    }

    /// Checks `text[gap]`, decoded from `bytes`, writing it (or escapes) to
    /// `rebuilt` once a stretch has needed rewriting; `open` says that the
    /// bytes may end with an unfinished sequence. How many bytes are left
    /// unfinished.
    fn gap(
        &mut self,
        text: &str,
        gap: Range<usize>,
        bytes: &[u8],
        open: bool,
        rebuilt: &mut Option<String>,
    ) -> usize {
        if let Some(pending) = self.encodes_back(&text[gap.clone()], bytes, open) {
            if let Some(r) = rebuilt {
                r.push_str(&text[gap]);
            }
            return pending;
        }
        let r = rebuilt.get_or_insert_with(|| text[..gap.start].to_owned());
        self.sequence_by_sequence(bytes, open, r)
    }

    /// Whether `text` encodes back to `bytes` (to a prefix of them no more
    /// than an unfinished sequence short, when `open`): how many bytes are
    /// left over.
    /// On success, `text`'s last character is the one kept last.
    fn encodes_back(&mut self, text: &str, bytes: &[u8], open: bool) -> Option<usize> {
        if text.as_bytes().contains(&0xF4) && text.chars().any(is_escape) {
            return None;
        }
        self.encoded.clear();
        let mut unmappable = false;
        let mut on_unmappable = |_: &mut Vec<u8>, _| unmappable = true;
        // With the character kept last before it, when the encoder may
        // compose the two: the text's bytes must follow that character's.
        let mut alone = Vec::new();
        if let Some(prev) = self.prev.filter(|_| self.composes) {
            let prev = prev.encode_utf8(&mut [0; 4]).to_owned();
            self.encoder.encode_from_str(&prev, &mut alone, true, &mut on_unmappable);
            self.encoder.encode_from_str(&prev, &mut self.encoded, false, &mut on_unmappable);
        }
        self.encoder.encode_from_str(text, &mut self.encoded, false, &mut on_unmappable);
        // The last character may compose with what follows only if the
        // encoder holds it: one it wrote in a pair (`˥˩`) is spent.
        let holds = self.encoder.holds();
        self.encoder.encode_from_str("", &mut self.encoded, true, &mut on_unmappable);
        let encoded = self.encoded.strip_prefix(&alone[..])?;
        let rest = bytes.strip_prefix(encoded)?;
        let fits = !unmappable && (rest.is_empty() || (open && rest.len() <= MAX_PENDING));
        if fits {
            self.prev = holds.then(|| text.chars().next_back().or(self.prev)).flatten();
        }
        fits.then_some(rest.len())
    }

    /// Decodes `bytes` (from a character boundary) one sequence at a time,
    /// writing each sequence's text to `out` if it encodes back to it, else
    /// its bytes escaped. How many bytes at the end are unfinished (when
    /// `open`; else they are escaped too).
    fn sequence_by_sequence(&mut self, bytes: &[u8], open: bool, out: &mut String) -> usize {
        let mut decoder = self.charset.new_decoder();
        let mut piece = String::new();
        let mut from = 0;
        for i in 0..bytes.len() {
            let mut malformed = false;
            decoder.decode_to_string(&bytes[i..=i], &mut piece, false, |_, _| malformed = true);
            if piece.is_empty() && !malformed {
                continue;
            }
            let sequence = &bytes[from..=i];
            if !malformed && self.encodes_back(&piece, sequence, false).is_some() {
                out.push_str(&piece);
            } else {
                out.extend(sequence.iter().map(|&b| escape(b)));
                self.prev = None;
            }
            piece.clear();
            from = i + 1;
        }
        if !open && from < bytes.len() {
            out.extend(bytes[from..].iter().map(|&b| escape(b)));
            from = bytes.len();
            self.prev = None;
        }
        bytes.len() - from
    }
}
