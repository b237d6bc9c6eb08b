//! Streaming decoders for every [`Charset`]: `encoding_rs` for the WHATWG
//! encodings, and charsight's own codecs for the rest (UTF-32, …).
//!
//! [`Decoder`] reports each malformed byte sequence with its offset in the
//! whole stream and its bytes, so callers can replace it, escape it, list it
//! in a report, or stop; nothing is dropped silently.

mod utf32;

use encoding_rs::DecoderResult;

use crate::Charset;

/// A malformed byte sequence met while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Offset of the first malformed byte from the start of the stream.
    pub offset: u64,
    len: u8,
    bytes: [u8; 8],
}

impl Malformed {
    /// The malformed bytes themselves (one to eight bytes).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// How many bytes are malformed.
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
}

/// A streaming decoder for one [`Charset`], made by [`Charset::new_decoder`].
///
/// # Example
/// ```
/// use charsight::Charset;
/// let mut decoder = Charset::Utf8.new_decoder();
/// let mut text = String::new();
/// let mut bad = Vec::new();
/// decoder.decode_to_string(b"caf\xC3", &mut text, false, |_, m| bad.push(m.offset));
/// decoder.decode_to_string(b"\xA9 \xFF!", &mut text, true, |out, m| {
///     bad.push(m.offset);
///     out.push('\u{FFFD}');
/// });
/// assert_eq!(text, "café \u{FFFD}!");
/// assert_eq!(bad, [6]);
/// ```
pub struct Decoder {
    kind: Kind,
    /// Bytes consumed before the current call.
    consumed: u64,
    /// The last bytes of earlier calls, newest last, for reporting a
    /// malformed sequence that began in an earlier chunk.
    history: [u8; 8],
}

enum Kind {
    Whatwg(encoding_rs::Decoder),
    Utf32(utf32::Utf32Decoder),
}

impl Decoder {
    pub(crate) fn new(charset: Charset) -> Decoder {
        let kind = match charset.to_encoding_rs() {
            Some(encoding) => Kind::Whatwg(encoding.new_decoder_without_bom_handling()),
            None => match charset {
                Charset::Utf32Le => Kind::Utf32(utf32::Utf32Decoder::new(false)),
                Charset::Utf32Be => Kind::Utf32(utf32::Utf32Decoder::new(true)),
                _ => unreachable!("every charset outside encoding_rs has a codec"),
            },
        };
        Decoder { kind, consumed: 0, history: [0; 8] }
    }

    /// Passes over `n` bytes of the stream without decoding them (a BOM, or
    /// bytes a caller replaces), keeping later offsets right. Call it only
    /// between characters.
    pub fn skip(&mut self, n: u64) {
        self.consumed += n;
    }

    /// How many bytes this decoder has consumed so far.
    pub fn position(&self) -> u64 {
        self.consumed
    }

    /// Decodes `src` (the next chunk of the stream), appending the text to
    /// `dst`. For each malformed sequence, `on_malformed` is called with
    /// `dst` (to write a replacement, an escape, or nothing) and the
    /// sequence. `last` says that `src` ends the stream: an incomplete
    /// sequence at its end is then malformed.
    pub fn decode_to_string(
        &mut self,
        src: &[u8],
        dst: &mut String,
        last: bool,
        mut on_malformed: impl FnMut(&mut String, Malformed),
    ) {
        let mut pos = 0;
        loop {
            let (result, read) = match &mut self.kind {
                Kind::Whatwg(d) => {
                    let want = d
                        .max_utf8_buffer_length_without_replacement(src.len() - pos)
                        .unwrap_or(src.len() - pos);
                    dst.reserve(want);
                    d.decode_to_string_without_replacement(&src[pos..], dst, last)
                }
                Kind::Utf32(d) => d.decode_to_string(&src[pos..], dst, last),
            };
            pos += read;
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => continue,
                DecoderResult::Malformed(bad, after) => {
                    // `after` may count bytes of earlier chunks (gb18030
                    // re-reads three bytes when a four-byte sequence fails
                    // on its last one), so the sequence may start before `src`.
                    let start = pos as i64 - i64::from(after) - i64::from(bad);
                    let malformed = self.malformed(src, start, usize::from(bad).min(8));
                    on_malformed(dst, malformed);
                }
            }
        }
        self.remember(src);
    }

    /// The malformed sequence of `len` bytes at `start`, an offset into the
    /// current `src` that may be negative (the sequence began earlier).
    fn malformed(&self, src: &[u8], start: i64, len: usize) -> Malformed {
        let mut bytes = [0; 8];
        for (i, byte) in bytes.iter_mut().enumerate().take(len) {
            let at = start + i as i64;
            *byte = if at >= 0 { src[at as usize] } else { self.history[(8 + at).max(0) as usize] };
        }
        Malformed { offset: (self.consumed as i64 + start) as u64, len: len as u8, bytes }
    }

    fn remember(&mut self, src: &[u8]) {
        self.consumed += src.len() as u64;
        if src.len() >= 8 {
            self.history.copy_from_slice(&src[src.len() - 8..]);
        } else {
            self.history.rotate_left(src.len());
            self.history[8 - src.len()..].copy_from_slice(src);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_chunks(
        charset: Charset,
        bytes: &[u8],
        chunk: usize,
    ) -> (String, Vec<(u64, Vec<u8>)>) {
        let mut decoder = charset.new_decoder();
        let mut text = String::new();
        let mut bad = Vec::new();
        let mut chunks = bytes.chunks(chunk.max(1)).peekable();
        if bytes.is_empty() {
            decoder.decode_to_string(b"", &mut text, true, |_, _| {});
        }
        while let Some(c) = chunks.next() {
            decoder.decode_to_string(c, &mut text, chunks.peek().is_none(), |out, m| {
                out.push('\u{FFFD}');
                bad.push((m.offset, m.bytes().to_vec()));
            });
        }
        (text, bad)
    }

    #[test]
    fn malformed_offsets_are_stream_offsets_for_every_chunking() {
        let bytes = b"ab\xE6\x97\xA5\xE6\x97 cd\xFF";
        let whole = decode_in_chunks(Charset::Utf8, bytes, bytes.len());
        assert_eq!(whole.0, "ab日\u{FFFD} cd\u{FFFD}");
        assert_eq!(whole.1, vec![(5, vec![0xE6, 0x97]), (10, vec![0xFF])]);
        for chunk in 1..bytes.len() {
            assert_eq!(decode_in_chunks(Charset::Utf8, bytes, chunk), whole, "chunk {chunk}");
        }
    }

    #[test]
    fn gb18030_four_byte_failure_reaches_back_into_earlier_chunks() {
        // 81 30 81 then 00: the 0x81 is malformed and 30 81 00 are read
        // again, so the report points two chunks back.
        let bytes = b"\x81\x30\x81\x00";
        let whole = decode_in_chunks(Charset::Gb18030, bytes, 4);
        assert_eq!(whole.1[0], (0, vec![0x81]));
        for chunk in 1..4 {
            assert_eq!(decode_in_chunks(Charset::Gb18030, bytes, chunk), whole, "chunk {chunk}");
        }
    }

    #[test]
    fn truncated_sequence_at_end_is_malformed() {
        let (text, bad) = decode_in_chunks(Charset::ShiftJis, b"a\x93", 1);
        assert_eq!(text, "a\u{FFFD}");
        assert_eq!(bad, vec![(1, vec![0x93])]);
    }
}
