//! Where decoded text came from: offsets in the text → offsets in the input.
//!
//! A [`TextDecoder`](super::TextDecoder) made with
//! [`with_offsets`](super::TextDecoder::with_offsets) records an
//! [`OffsetMap`]: a list of [`Piece`]s, each a stretch of the decoded text
//! with the input offset it starts at and what it is (decoded characters, one
//! malformed sequence, or text spliced over input bytes). Inside a piece of
//! decoded characters, offsets follow from the characters and the input's
//! encoding: one input byte per text byte for UTF-8, one per character for
//! single-byte encodings, two per UTF-16 code unit, four per character for
//! UTF-32. For the legacy multibyte encodings no such rule holds (a
//! character takes one to four bytes, and a few byte pairs decode to two
//! characters), so the decoder records a piece per character there, except
//! for runs of ASCII.
//!
//! Text offsets count UTF-8 bytes of the decoded text from the start of the
//! decode (a `u64`, so a decode of any length fits); input offsets count
//! input bytes from the start of the input, BOM included.

use std::ops::Range;

use crate::Charset;

/// What a [`Piece`] of decoded text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PieceKind {
    /// Characters decoded from the input bytes.
    Decoded,
    /// One malformed sequence: what the decoder wrote for it (U+FFFD, or one
    /// escape per byte).
    Malformed,
    /// Text spliced in place of input bytes.
    Spliced,
}

/// A stretch of decoded text: where it starts in the text and in the input.
/// It ends where the next piece starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Offset of its first text byte.
    pub text: u64,
    /// Offset of its first input byte.
    pub input: u64,
    /// What it is.
    pub kind: PieceKind,
}

/// How many input bytes a piece of decoded characters takes, by encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// One input byte per text byte (UTF-8).
    Same,
    /// One input byte per character (single-byte encodings).
    Byte,
    /// Two input bytes per UTF-16 code unit.
    Utf16,
    /// Four input bytes per character.
    Utf32,
    /// No rule: one piece per character, or per run of ASCII.
    Pieces,
}

impl Width {
    pub(crate) fn of(charset: Charset) -> Width {
        match charset {
            Charset::Utf8 | Charset::Replacement => Width::Same,
            Charset::Utf16Le | Charset::Utf16Be => Width::Utf16,
            Charset::Utf32Le | Charset::Utf32Be => Width::Utf32,
            c if c.is_single_byte() => Width::Byte,
            _ => Width::Pieces,
        }
    }

    /// Input bytes of `text`, decoded characters all of one piece; `None`
    /// when they cannot be counted (characters of a legacy multibyte
    /// encoding, inside their piece).
    fn input_len(self, text: &str) -> Option<u64> {
        Some(match self {
            Width::Same => text.len() as u64,
            Width::Byte => text.chars().count() as u64,
            Width::Utf16 => 2 * text.chars().map(|c| c.len_utf16() as u64).sum::<u64>(),
            Width::Utf32 => 4 * text.chars().count() as u64,
            Width::Pieces if text.is_ascii() => text.len() as u64,
            Width::Pieces => return None,
        })
    }
}

/// Maps offsets in decoded text to offsets in the input (see the module
/// docs).
///
/// # Example
/// ```
/// use charsight::decode::{Errors, TextDecoder};
/// use charsight::Charset;
/// let bytes = b"caf\xE9 \x93ok\x94";
/// let mut decoder = TextDecoder::new(Charset::Windows1252, Errors::Replace).with_offsets();
/// let mut text = String::new();
/// decoder.decode(bytes, true, &mut text).unwrap();
/// assert_eq!(text, "café “ok”");
/// let map = decoder.offsets().unwrap();
/// // "ok" is text bytes 9..11 and input bytes 6..8.
/// assert_eq!(map.input_range(&text, 0, 9..11), 6..8);
/// ```
#[derive(Clone, Debug)]
pub struct OffsetMap {
    width: Width,
    pieces: Vec<Piece>,
}

impl OffsetMap {
    pub(crate) fn new(charset: Charset) -> OffsetMap {
        OffsetMap { width: Width::of(charset), pieces: Vec::new() }
    }

    pub(crate) fn width(&self) -> Width {
        self.width
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Starts a piece. A piece that would start where the last piece starts
    /// in the text replaces it when that one is decoded characters that hold
    /// nothing: no text, and no input before the new piece's (it may even
    /// start past it, where a decoder took bytes back to read again). One
    /// that held input bytes but no text (a shift or escape of a stateful
    /// encoding, `SO` before a malformed byte in ISO-2022-KR) stays: the
    /// pieces tile the input.
    pub(crate) fn push(&mut self, piece: Piece) {
        if let Some(last) = self.pieces.last_mut() {
            let empty = last.text == piece.text && last.input >= piece.input;
            if empty && last.kind == PieceKind::Decoded {
                *last = piece;
                return;
            }
        }
        self.pieces.push(piece);
    }

    /// The last piece, if there is one.
    pub(crate) fn last(&self) -> Option<&Piece> {
        self.pieces.last()
    }

    /// The index of the piece holding text offset `at`: the last one
    /// starting at or before it.
    fn find(&self, at: u64) -> Option<usize> {
        self.pieces.partition_point(|p| p.text <= at).checked_sub(1)
    }

    /// The input offset of text offset `at`, exactly, when it has one: at a
    /// piece boundary, or inside decoded characters whose bytes can be
    /// counted. `text` is the decoded text from text offset `base` on, up to
    /// at least `at`; `at` must be at a character boundary.
    pub fn input_at(&self, text: &str, base: u64, at: u64) -> Option<u64> {
        let piece = self.pieces[self.find(at)?];
        if piece.text == at {
            return Some(piece.input);
        }
        let from = usize::try_from(piece.text.checked_sub(base)?).ok()?;
        let to = usize::try_from(at - base).ok()?;
        let inside = text.get(from..to)?;
        let len = match piece.kind {
            PieceKind::Decoded => self.width.input_len(inside)?,
            // Malformed bytes written as escapes: one character per byte.
            PieceKind::Malformed if inside.chars().all(super::is_escape) => {
                inside.chars().count() as u64
            }
            _ => return None,
        };
        Some(piece.input + len)
    }

    /// The input bytes that text `range` came from, widened to whole pieces
    /// where an end falls inside one that cannot be split. `text` is the
    /// decoded text from text offset `base` on, covering `range`.
    pub fn input_range(&self, text: &str, base: u64, range: Range<u64>) -> Range<u64> {
        let start = self
            .input_at(text, base, range.start)
            .unwrap_or_else(|| self.find(range.start).map_or(0, |i| self.pieces[i].input));
        let end = self.input_at(text, base, range.end).unwrap_or_else(|| {
            // The end of the piece holding it: where the next one starts.
            self.find(range.end).and_then(|i| self.pieces.get(i + 1)).map_or(start, |p| p.input)
        });
        start..end.max(start)
    }

    /// The text offset of input offset `input`, when a character starts
    /// there (or a piece does). `text` is the decoded text from text offset
    /// `base` on, covering the piece that holds `input`.
    pub fn text_at(&self, text: &str, base: u64, input: u64) -> Option<u64> {
        let i = self.pieces.partition_point(|p| p.input <= input).checked_sub(1)?;
        // Of pieces starting at the same input offset, the first.
        let i = self.pieces[..=i].iter().rposition(|p| p.input < input).map_or(0, |j| j + 1).min(i);
        let piece = self.pieces[i];
        if piece.input == input {
            return Some(piece.text);
        }
        if piece.kind != PieceKind::Decoded {
            return None;
        }
        let end = self.pieces.get(i + 1).map_or(text.len() as u64 + base, |p| p.text);
        let from = usize::try_from(piece.text.checked_sub(base)?).ok()?;
        let to = usize::try_from(end.checked_sub(base)?).ok()?.min(text.len());
        let mut at = piece.input;
        for (k, c) in text.get(from..to)?.char_indices() {
            if at == input {
                return Some(piece.text + k as u64);
            }
            at += self.width.input_len(c.encode_utf8(&mut [0; 4]))?;
            if at > input {
                return None;
            }
        }
        (at == input).then_some(end)
    }

    /// Splits off the pieces of text before `at` (exclusive) and returns
    /// them, with a last piece of no text at `at` that marks where they end;
    /// this map keeps the rest, starting at `at`. `text` is the decoded text
    /// from `base` on, up to at least `at`. Returns `None`, changing nothing,
    /// when `at` has no exact input offset.
    pub(crate) fn split_to(&mut self, text: &str, base: u64, at: u64) -> Option<OffsetMap> {
        let input = self.input_at(text, base, at)?;
        let index = self.find(at).unwrap_or(0);
        let kind = self.pieces.get(index).map_or(PieceKind::Decoded, |p| p.kind);
        let keep_from =
            if self.pieces.get(index).is_some_and(|p| p.text == at) { index } else { index + 1 };
        let mut head: Vec<Piece> = self.pieces.drain(..keep_from).collect();
        head.push(Piece { text: at, input, kind: PieceKind::Decoded });
        if keep_from == index + 1 {
            // `at` falls inside a piece of decoded characters: the rest of it
            // starts a piece here.
            self.pieces.insert(0, Piece { text: at, input, kind });
        }
        Some(OffsetMap { width: self.width, pieces: head })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(width: Width, pieces: &[(u64, u64, PieceKind)]) -> OffsetMap {
        OffsetMap {
            width,
            pieces: pieces.iter().map(|&(text, input, kind)| Piece { text, input, kind }).collect(),
        }
    }

    #[test]
    fn widths_count_input_bytes() {
        assert_eq!(Width::Same.input_len("né"), Some(3));
        assert_eq!(Width::Byte.input_len("né"), Some(2));
        assert_eq!(Width::Utf16.input_len("n😀"), Some(6));
        assert_eq!(Width::Utf32.input_len("n😀"), Some(8));
        assert_eq!(Width::Pieces.input_len("ab"), Some(2));
        assert_eq!(Width::Pieces.input_len("日"), None);
    }

    #[test]
    fn ranges_inside_malformed_pieces_widen_to_the_piece() {
        // "a\u{FFFD}b" from input "a\xE6\x97b": the replacement is 3 text
        // bytes for 2 input bytes.
        let m = map(
            Width::Same,
            &[(0, 0, PieceKind::Decoded), (1, 1, PieceKind::Malformed), (4, 3, PieceKind::Decoded)],
        );
        let text = "a\u{FFFD}b";
        assert_eq!(m.input_at(text, 0, 4), Some(3));
        assert_eq!(m.input_at(text, 0, 5), Some(4));
        assert_eq!(m.input_range(text, 0, 1..4), 1..3);
        assert_eq!(m.input_range(text, 0, 0..5), 0..4);
    }

    #[test]
    fn input_offsets_back_to_text() {
        let m = map(
            Width::Byte,
            &[(0, 0, PieceKind::Decoded), (6, 4, PieceKind::Spliced), (11, 9, PieceKind::Decoded)],
        );
        let text = "aéé\nUTF-8bc";
        assert_eq!(m.text_at(text, 0, 2), Some(3));
        assert_eq!(m.text_at(text, 0, 4), Some(6));
        assert_eq!(m.text_at(text, 0, 10), Some(12));
        assert_eq!(m.text_at(text, 0, 5), None, "inside the splice");
    }

    #[test]
    fn split_keeps_both_sides_exact() {
        let mut m = map(Width::Byte, &[(0, 10, PieceKind::Decoded)]);
        let text = "é\nü\n";
        let head = m.split_to(text, 0, 3).unwrap();
        assert_eq!(head.pieces.last().unwrap().input, 12);
        assert_eq!(m.pieces, vec![Piece { text: 3, input: 12, kind: PieceKind::Decoded }]);
        assert_eq!(m.input_at(&text[3..], 3, 6), Some(14));
        // No exact offset inside a legacy multibyte character.
        let mut m = map(Width::Pieces, &[(0, 0, PieceKind::Decoded), (3, 2, PieceKind::Decoded)]);
        assert!(m.split_to("日", 0, 1).is_none());
    }
}
