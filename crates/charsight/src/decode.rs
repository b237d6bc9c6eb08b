//! Stage 4: decoding — the bytes to text in the decided encoding, streaming,
//! with every malformed sequence accounted for; and the text to bytes in an
//! output encoding.
//!
//! [`TextDecoder`] takes chunks of any size and never holds more than a
//! few bytes of state, so a file of any size decodes in bounded memory.
//! What happens to a malformed sequence is the caller's [`Errors`] choice:
//!
//! - [`Errors::Replace`]: U+FFFD, and the range is logged;
//! - [`Errors::Strict`]: decoding stops with a [`DecodeError`] naming the
//!   first offending offset;
//! - [`Errors::Escape`]: each undecodable byte `NN` becomes the private-use
//!   code point U+10FE`NN` (plane 16, which real text practically never
//!   uses), so the original bytes stay recoverable: [`TextEncoder`] with
//!   [`TextEncoder::raw_escapes`] writes them back, and [`restore`] gives the
//!   original bytes. So do the bytes of a valid sequence whose text the
//!   encoder would not write back the same way (Shift_JIS `F0 40`, a
//!   private-use character, and `87 90`, NEC's copy of `81 E0`; GBK `A2 E3`,
//!   which reads as `€` like `80`; GB18030's four-byte form of a character
//!   of the escape range), so that the round trip is exact for every
//!   encoding. In the stateful ISO-2022-JP, ISO-2022-KR and HZ-GB-2312,
//!   whose switches have several spellings, the switches are escaped too, and the encoder
//!   writes each character in the mode the escaped switches set. In UTF-7,
//!   a base64 run reads as text only where the encoder writes it the same
//!   way (`codec/utf7.rs`); its other bytes are escaped.
//!
//! A decoder can also splice text over byte ranges (rewriting a declaration
//! so that the output is self-consistent: [`declaration_fixes`]), and record
//! where each piece of its text came from in the input ([`OffsetMap`]).

mod offsets;
mod round_trip;

use std::collections::VecDeque;
use std::error::Error;
use std::fmt;
use std::ops::Range;

use crate::codec::{Decoder, Encoder, ExactReader, Malformed, Unit};
use crate::sniff::{Note, Source};
use crate::{Charset, Detection};

use offsets::Width;
pub use offsets::{OffsetMap, Piece, PieceKind};
use round_trip::{Escaped, RoundTrip};

/// The first code point of the escape range: byte `NN` escapes to
/// `ESCAPE_BASE + NN` (U+10FE00–U+10FEFF).
pub const ESCAPE_BASE: u32 = 0x10FE00;

/// At most this many malformed ranges are logged; counts stay exact.
pub const MAX_LOGGED_RANGES: usize = 10_000;

/// What to do with a malformed byte sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Errors {
    /// Write U+FFFD for each malformed sequence and log it.
    #[default]
    Replace,
    /// Stop at the first malformed sequence.
    Strict,
    /// Write each undecodable byte as a code point of the escape range.
    Escape,
}

/// A run of malformed bytes (adjacent malformed sequences merged).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByteRange {
    /// Offset of the first byte in the input.
    pub offset: u64,
    /// Number of bytes.
    pub len: u64,
}

/// Every malformed sequence met, counted, and logged as ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MalformedLog {
    /// Malformed sequences.
    pub sequences: u64,
    /// Bytes in them.
    pub bytes: u64,
    /// The runs of malformed bytes, in order (the first
    /// [`MAX_LOGGED_RANGES`] of them).
    pub ranges: Vec<ByteRange>,
    /// Whether ranges were left out of the log.
    pub truncated: bool,
    /// The offset from which [`MalformedLog::past`] counts, and its count.
    #[cfg_attr(feature = "serde", serde(skip))]
    past: Option<(u64, u64)>,
}

impl MalformedLog {
    /// The malformed sequences recorded at or after the input offset given
    /// to [`TextDecoder::count_malformed_past`] or
    /// [`Repairer::count_malformed_past`](crate::repair::Repairer::count_malformed_past)
    /// (`None` if none was given).
    pub fn past(&self) -> Option<u64> {
        self.past.map(|(_, n)| n)
    }

    /// Counts the sequences met from input `offset` on, apart, from now on
    /// (a decision taken on a prefix, and what the rest showed).
    pub(crate) fn count_past(&mut self, offset: u64) {
        self.past = Some((offset, 0));
    }

    fn record(&mut self, m: &Malformed) {
        self.record_range(m.offset, m.len() as u64);
    }

    /// Records one malformed sequence of `len` bytes at `offset`.
    pub(crate) fn record_range(&mut self, offset: u64, len: u64) {
        self.sequences += 1;
        self.bytes += len;
        if let Some((from, n)) = &mut self.past {
            *n += u64::from(offset >= *from);
        }
        let full = self.ranges.len() >= MAX_LOGGED_RANGES;
        match self.ranges.last_mut() {
            Some(last) if last.offset + last.len == offset => last.len += len,
            _ if full => self.truncated = true,
            _ => self.ranges.push(ByteRange { offset, len }),
        }
    }
}

/// A malformed sequence met in [`Errors::Strict`] mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    charset: Charset,
    offset: u64,
    bytes: Vec<u8>,
}

impl DecodeError {
    pub(crate) fn new(charset: Charset, offset: u64, bytes: &[u8]) -> DecodeError {
        DecodeError { charset, offset, bytes: bytes.to_vec() }
    }

    /// Offset of the first malformed byte in the input.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The malformed bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: Vec<String> = self.bytes.iter().map(|b| format!("{b:02X}")).collect();
        write!(
            f,
            "malformed {} sequence {} at byte offset {}",
            self.charset,
            hex.join(" "),
            self.offset
        )
    }
}

impl Error for DecodeError {}

/// Text written in place of a byte range of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Splice {
    /// The input bytes replaced.
    pub range: Range<u64>,
    /// The text written instead.
    pub text: String,
}

/// A streaming decoder from the input's encoding to text.
///
/// # Example
/// ```
/// use charsight::decode::{Errors, TextDecoder};
/// use charsight::Charset;
/// let mut decoder = TextDecoder::new(Charset::Utf8, Errors::Replace);
/// let mut text = String::new();
/// decoder.decode(b"caf\xC3", false, &mut text).unwrap();
/// decoder.decode(b"\xA9 \x92 ok", true, &mut text).unwrap();
/// assert_eq!(text, "café \u{FFFD} ok");
/// assert_eq!(decoder.malformed().ranges[0].offset, 6);
/// ```
pub struct TextDecoder {
    charset: Charset,
    decoder: Decoder,
    errors: Errors,
    splices: VecDeque<Splice>,
    /// Input bytes seen so far (fed or skipped).
    position: u64,
    /// Skip input bytes up to this offset (inside a splice).
    skip_until: u64,
    log: MalformedLog,
    /// Decoded characters that fall in the escape range.
    escape_collisions: u64,
    /// In [`Errors::Escape`] mode, the check that escapes valid sequences
    /// that do not encode back to their bytes.
    round_trip: Option<RoundTrip>,
    /// In [`Errors::Escape`] mode, the reading of a stateful encoding that
    /// escapes its switches too.
    exact: Option<ExactReader>,
    /// The decoder has been told the input ended.
    finished: bool,
    /// Where the text came from, when asked for.
    offsets: Option<OffsetMap>,
    /// Text written so far.
    text_len: u64,
    /// The map's characters are found by a walker ([`character_ends`]) where
    /// the encoding has one, not a byte at a time (the tests compare both).
    walk: bool,
}

impl TextDecoder {
    /// A decoder for `charset` with the given error handling.
    pub fn new(charset: Charset, errors: Errors) -> TextDecoder {
        TextDecoder {
            charset,
            decoder: charset.new_decoder(),
            errors,
            splices: VecDeque::new(),
            position: 0,
            skip_until: 0,
            log: MalformedLog::default(),
            escape_collisions: 0,
            round_trip: (errors == Errors::Escape).then(|| RoundTrip::new(charset)).flatten(),
            exact: (errors == Errors::Escape).then(|| ExactReader::new(charset)).flatten(),
            finished: false,
            offsets: None,
            text_len: 0,
            walk: true,
        }
    }

    /// Records where each piece of the text came from in the input
    /// ([`TextDecoder::offsets`]). Decoding a legacy multibyte encoding is
    /// slower then: its non-ASCII bytes are fed one at a time, so that each
    /// character's bytes are known. With the map, [`Errors::Escape`]
    /// escapes only malformed bytes: each decoded piece keeps its text (the
    /// repairs read it so).
    pub fn with_offsets(mut self) -> TextDecoder {
        self.offsets = Some(OffsetMap::new(self.charset));
        self.round_trip = None;
        self.exact = None;
        self
    }

    /// The map from text offsets to input offsets, if recorded
    /// ([`TextDecoder::with_offsets`]).
    pub fn offsets(&self) -> Option<&OffsetMap> {
        self.offsets.as_ref()
    }

    /// The map's pieces before text offset `at`, split off (with a last
    /// piece of no text marking where they end), if the map is recorded
    /// and `at` has an exact input offset. `text` is the decoded text from
    /// text offset `base` on, up to at least `at`.
    pub fn split_offsets(&mut self, text: &str, base: u64, at: u64) -> Option<OffsetMap> {
        self.offsets.as_mut()?.split_to(text, base, at)
    }

    /// How many bytes of text have been written so far.
    pub fn text_len(&self) -> u64 {
        self.text_len
    }

    /// Splices text over byte ranges of the input (sorted, not
    /// overlapping, at character boundaries), e.g. [`declaration_fixes`].
    pub fn with_splices(mut self, mut splices: Vec<Splice>) -> TextDecoder {
        splices.sort_by_key(|s| s.range.start);
        self.splices = splices.into();
        self
    }

    /// Skips the first `n` bytes of the input (a byte order mark).
    pub fn skip(mut self, n: u64) -> TextDecoder {
        self.skip_until = self.skip_until.max(n);
        self
    }

    /// Decodes the next chunk, appending to `out`; `last` ends the input.
    ///
    /// # Errors
    /// In [`Errors::Strict`] mode, the first malformed sequence; `out` then
    /// holds exactly the text before it. Do not call again after an error.
    pub fn decode(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<(), DecodeError> {
        let mut rest = chunk;
        loop {
            // Bytes under a splice (or a skipped BOM) are not decoded.
            if self.skip_until > self.position {
                let n = (self.skip_until - self.position).min(rest.len() as u64);
                rest = &rest[n as usize..];
                self.position += n;
                self.decoder.skip(n);
            }
            let skipping = self.skip_until > self.position;
            if !skipping && self.splices.front().is_some_and(|s| s.range.start <= self.position) {
                let splice = self.splices.pop_front().expect("checked above");
                if let Some(map) = &mut self.offsets {
                    let input = splice.range.start;
                    map.push(Piece { text: self.text_len, input, kind: PieceKind::Spliced });
                }
                self.text_len += splice.text.len() as u64;
                out.push_str(&splice.text);
                self.skip_until = splice.range.end;
                continue;
            }
            if rest.is_empty() {
                if last && !self.finished {
                    self.decode_run(b"", true, out)?;
                }
                return Ok(());
            }
            let run = match self.splices.front() {
                Some(s) => ((s.range.start - self.position) as usize).min(rest.len()),
                None => rest.len(),
            };
            self.decode_run(&rest[..run], last && run == rest.len(), out)?;
            self.position += run as u64;
            rest = &rest[run..];
        }
    }

    /// Decodes a run of input bytes that starts at `self.position`.
    fn decode_run(
        &mut self,
        bytes: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<(), DecodeError> {
        let Some(map) = &mut self.offsets else {
            return self.decode_span(bytes, last, out);
        };
        // After a splice (or at the start) a new piece of decoded text begins.
        if map.last().is_none_or(|p| p.kind != PieceKind::Decoded) {
            map.push(Piece { text: self.text_len, input: self.position, kind: PieceKind::Decoded });
        }
        if map.width() != Width::Pieces {
            return self.decode_span(bytes, last, out);
        }
        // One piece per character: feed non-ASCII bytes one at a time and
        // start a piece after each that completes some text. Runs of ASCII
        // fed while no sequence is pending decode as themselves (except in a
        // stateful encoding).
        let ascii_runs = self.charset.is_ascii_compatible() && !self.charset.is_stateful();
        // Where the decoder is between characters, the characters that
        // follow are found by a walker of the same encoding (see
        // [`character_ends`]) and decoded in one call.
        let walker = self.charset.to_encoding_rs().filter(|_| {
            ascii_runs && self.exact.is_none() && self.round_trip.is_none() && self.walk
        });
        let mut ends = Vec::new();
        let mut i = 0;
        loop {
            let at = self.position + i as u64;
            let synced = self
                .offsets
                .as_ref()
                .and_then(OffsetMap::last)
                .is_some_and(|p| p.input == at && p.text == self.text_len);
            if let Some(encoding) = walker.filter(|_| synced) {
                character_ends(encoding, &bytes[i..], &mut ends);
                if let Some(&(end, _)) = ends.last() {
                    let (start, text) = (i, self.text_len);
                    i += end;
                    self.decode_span(&bytes[start..i], last && i == bytes.len(), out)?;
                    let map = self.offsets.as_mut().expect("recording offsets");
                    for &(end, len) in &ends {
                        let input = self.position + (start + end) as u64;
                        map.push(Piece { text: text + len, input, kind: PieceKind::Decoded });
                    }
                    debug_assert_eq!(text + ends.last().map_or(0, |e| e.1), self.text_len);
                    if i >= bytes.len() {
                        return Ok(());
                    }
                    continue;
                }
            }
            let n = match bytes[i..].iter().position(|&b| b >= 0x80) {
                _ if !(synced && ascii_runs) => 1,
                Some(n) => n.max(1),
                None => bytes.len() - i,
            };
            let n = n.min(bytes.len() - i);
            let end = i + n;
            self.decode_span(&bytes[i..end], last && end == bytes.len(), out)?;
            i = end;
            let map = self.offsets.as_mut().expect("recording offsets");
            if map.last().is_some_and(|p| p.text < self.text_len) {
                // The next piece starts at the bytes the decoder still holds
                // (EUC-JIS-2004 writes a byte read again while holding the
                // one after it).
                let input = self.position + i as u64 - self.decoder.held();
                map.push(Piece { text: self.text_len, input, kind: PieceKind::Decoded });
            }
            if i >= bytes.len() {
                return Ok(());
            }
        }
    }

    /// Decodes `bytes`, recording malformed sequences in the log and the map.
    fn decode_span(
        &mut self,
        bytes: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<(), DecodeError> {
        if let Some(reader) = &mut self.exact {
            let (log, start) = (&mut self.log, out.len());
            reader.read(bytes, self.decoder.position(), last, |unit| match unit {
                Unit::Char(c) => out.push(c),
                Unit::Bytes { offset, bytes, malformed } => {
                    if malformed {
                        log.record_range(offset, bytes.len() as u64);
                    }
                    out.extend(bytes.iter().map(|&b| escape(b)));
                }
            });
            self.decoder.skip(bytes.len() as u64);
            self.finished |= last;
            self.text_len += (out.len() - start) as u64;
            return Ok(());
        }
        let (errors, log, charset) = (self.errors, &mut self.log, self.charset);
        let mut map = self.offsets.as_mut();
        let text_len = self.text_len;
        let mut failure = None;
        let mut cut = None;
        let mut escapes = 0;
        let mut escaped = Vec::new();
        let checking = self.round_trip.is_some();
        let offset = self.decoder.position();
        let start = out.len();
        self.decoder.decode_to_string(bytes, out, last, |out, m| {
            if failure.is_some() {
                // Strict decoding ends at the first offence: what follows
                // is neither text nor logged, whatever the chunking.
                return;
            }
            log.record(&m);
            let text = |out: &String| text_len + (out.len() - start) as u64;
            if let Some(map) = map.as_deref_mut() {
                map.push(Piece { text: text(out), input: m.offset, kind: PieceKind::Malformed });
            }
            match errors {
                Errors::Replace => out.push('\u{FFFD}'),
                Errors::Escape => {
                    escapes += m.len() as u64;
                    let at = out.len() - start;
                    out.extend(m.bytes().iter().map(|&b| escape(b)));
                    if checking {
                        let text = at..out.len() - start;
                        escaped.push(Escaped { offset: m.offset, len: m.len(), text });
                    }
                }
                Errors::Strict => {
                    cut.get_or_insert(out.len());
                    failure.get_or_insert(DecodeError {
                        charset,
                        offset: m.offset,
                        bytes: m.bytes().to_vec(),
                    });
                }
            }
            if let Some(map) = map.as_deref_mut() {
                let input = m.offset + m.len() as u64;
                map.push(Piece { text: text(out), input, kind: PieceKind::Decoded });
            }
        });
        self.finished |= last;
        if let Some(failure) = failure {
            // The text stops where the first offence is, whatever the chunking.
            out.truncate(cut.unwrap_or(out.len()));
            self.text_len += (out.len() - start) as u64;
            return Err(failure);
        }
        if let Some(check) = &mut self.round_trip {
            // Characters of the escape range are escaped too: not collisions.
            check.check(bytes, offset, last, &escaped, out, start);
        } else if errors == Errors::Escape {
            // The escape range is in plane 16, whose characters start with 0xF4.
            let text = &out[start..];
            let in_range = match memchr::memchr(0xF4, text.as_bytes()) {
                Some(first) => text[first..].chars().filter(|&c| is_escape(c)).count() as u64,
                None => 0,
            };
            self.escape_collisions += in_range - escapes;
        }
        self.text_len += (out.len() - start) as u64;
        Ok(())
    }

    /// The malformed sequences met so far.
    pub fn malformed(&self) -> &MalformedLog {
        &self.log
    }

    /// Also counts the malformed sequences from input `offset` on
    /// ([`MalformedLog::past`]): what the bytes after a decision prefix
    /// showed.
    pub fn count_malformed_past(mut self, offset: u64) -> TextDecoder {
        self.log.count_past(offset);
        self
    }

    /// In [`Errors::Escape`] mode, how many characters decoded from a
    /// Unicode encoding were already in the escape range (and so cannot be
    /// told from escaped bytes; from other encodings, their bytes are
    /// escaped).
    pub fn escape_collisions(&self) -> u64 {
        self.escape_collisions
    }
}

/// The ends of the characters at the start of `bytes` (a decoder of
/// `encoding`, ASCII-compatible and stateless, is between characters
/// there), with the length of the text up to each, into `ends`: each run of
/// ASCII counts as one, as [`TextDecoder`]'s map keeps them. It stops
/// before a malformed sequence and before a character the bytes end inside
/// of, which the decoder then reads a byte at a time. A character of one
/// byte or two is looked up ([`CharLengths`]); the others are fed to a
/// walker of the encoding a byte at a time: a character ends where it
/// writes text.
fn character_ends(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
    ends: &mut Vec<(usize, u64)>,
) {
    ends.clear();
    let lengths = CharLengths::of(encoding);
    let mut walker = encoding.new_decoder_without_bom_handling();
    let mut units = [0u16; 4];
    let (mut i, mut start, mut text) = (0, 0, 0);
    while i < bytes.len() {
        if i == start {
            if bytes[i] < 0x80 {
                let n = bytes[i..].iter().position(|&b| b >= 0x80).unwrap_or(bytes.len() - i);
                (i, start, text) = (i + n, i + n, text + n as u64);
                ends.push((i, text));
                continue;
            }
            if let Some((len, written)) = lengths.and_then(|l| l.at(&bytes[i..])) {
                (i, start, text) = (i + len, i + len, text + u64::from(written));
                ends.push((i, text));
                continue;
            }
        }
        let (result, _, written) =
            walker.decode_to_utf16_without_replacement(&bytes[i..=i], &mut units, false);
        i += 1;
        match result {
            encoding_rs::DecoderResult::InputEmpty if written == 0 => {}
            encoding_rs::DecoderResult::InputEmpty => {
                text += utf8_len(&units[..written]);
                start = i;
                ends.push((i, text));
            }
            _ => return,
        }
    }
}

/// The length in UTF-8 of the text of UTF-16 `units`.
fn utf8_len(units: &[u16]) -> u64 {
    let chars = char::decode_utf16(units.iter().copied());
    chars.map(|c| c.map_or(3, char::len_utf8) as u64).sum()
}

/// How a double-byte encoding's characters of one byte or two beyond ASCII
/// decode, as its decoder reads them from between characters: made once per
/// encoding from the decoder itself (so that [`character_ends`] need not
/// call it for each), with the characters of three bytes or more and the
/// malformed sequences left to the decoder.
struct CharLengths {
    /// By byte `0x80..`: the UTF-8 length of the text the byte writes on its
    /// own, [`CharLengths::LEAD`] if it starts a character of two bytes or
    /// more, 0 if malformed.
    single: [u8; 128],
    /// By lead byte `0x80..` and next byte: the UTF-8 length of the text
    /// the two write, 0 if they do not make a character.
    pairs: Vec<[u8; 256]>,
}

impl CharLengths {
    const LEAD: u8 = u8::MAX;

    /// The lengths for `encoding`, if it is a double-byte encoding.
    fn of(encoding: &'static encoding_rs::Encoding) -> Option<&'static CharLengths> {
        use encoding_rs::{BIG5, EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS};
        use std::sync::OnceLock;
        static MADE: [OnceLock<CharLengths>; 6] = [const { OnceLock::new() }; 6];
        let all = [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GBK, GB18030];
        let k = all.iter().position(|&e| e == encoding)?;
        Some(MADE[k].get_or_init(|| CharLengths::made(encoding)))
    }

    fn made(encoding: &'static encoding_rs::Encoding) -> CharLengths {
        let mut units = [0u16; 8];
        // What a decoder fed `bytes` one at a time writes after the last:
        // `None` if some byte is malformed or an earlier byte writes text.
        let mut read = |bytes: &[u8]| {
            let mut decoder = encoding.new_decoder_without_bom_handling();
            let mut written = 0;
            for (k, b) in bytes.iter().enumerate() {
                let (result, _, n) = decoder.decode_to_utf16_without_replacement(
                    std::slice::from_ref(b),
                    &mut units,
                    false,
                );
                let early = n > 0 && k + 1 < bytes.len();
                if result != encoding_rs::DecoderResult::InputEmpty || early {
                    return None;
                }
                written = n;
            }
            Some(utf8_len(&units[..written]) as u8)
        };
        let mut single = [0; 128];
        let mut pairs = vec![[0; 256]; 128];
        for lead in 0x80..=0xFF_u8 {
            let k = usize::from(lead - 0x80);
            single[k] = match read(&[lead]) {
                Some(0) => CharLengths::LEAD,
                Some(n) => n,
                None => 0,
            };
            if single[k] == CharLengths::LEAD {
                for next in 0..=0xFF_u8 {
                    pairs[k][usize::from(next)] = read(&[lead, next]).unwrap_or(0);
                }
            }
        }
        CharLengths { single, pairs }
    }

    /// The character of one or two bytes `bytes` starts with, from between
    /// characters: its length in bytes and the UTF-8 length of its text.
    #[inline]
    fn at(&self, bytes: &[u8]) -> Option<(usize, u8)> {
        let k = usize::from(bytes[0].checked_sub(0x80)?);
        match self.single[k] {
            0 => None,
            CharLengths::LEAD => {
                let n = self.pairs[k][usize::from(*bytes.get(1)?)];
                (n > 0).then_some((2, n))
            }
            n => Some((1, n)),
        }
    }
}

pub(crate) fn escape(byte: u8) -> char {
    char::from_u32(ESCAPE_BASE + u32::from(byte)).expect("plane 16 private use is a valid scalar")
}

pub(crate) fn is_escape(c: char) -> bool {
    (ESCAPE_BASE..ESCAPE_BASE + 0x100).contains(&u32::from(c))
}

/// What to do with a character the output encoding cannot represent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OnUnmappable {
    /// Write it as a decimal numeric character reference (`&#8364;`), as
    /// the Encoding Standard's encoders do.
    #[default]
    Reference,
    /// Stop with an [`EncodeError`].
    Fail,
}

/// A character the output encoding cannot represent, met with
/// [`OnUnmappable::Fail`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    charset: Charset,
    character: char,
    offset: u64,
}

impl EncodeError {
    /// The character.
    pub fn character(&self) -> char {
        self.character
    }

    /// Its offset in the text, in UTF-8 bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "character {:?} (U+{:04X}) at text offset {} cannot be written in {}",
            self.character, self.character as u32, self.offset, self.charset
        )
    }
}

impl Error for EncodeError {}

/// A streaming encoder from text to an output encoding, on top of
/// [`Charset::new_encoder`] (so stateful encodings keep their state across
/// chunks).
///
/// Unicode outputs take every character; legacy ones write what they cannot
/// represent as character references or fail ([`OnUnmappable`]).
///
/// # Example
/// ```
/// use charsight::decode::{OnUnmappable, TextEncoder};
/// use charsight::Charset;
/// let mut encoder = TextEncoder::new(Charset::Windows1252, OnUnmappable::Reference);
/// let mut bytes = Vec::new();
/// encoder.encode("café ☃", true, &mut bytes).unwrap();
/// assert_eq!(bytes, b"caf\xE9 &#9731;");
/// ```
pub struct TextEncoder {
    charset: Charset,
    encoder: Encoder,
    on_unmappable: OnUnmappable,
    raw_escapes: bool,
    /// Bytes of escapes written raw, which the codec's offsets do not count.
    raw_bytes: u64,
}

impl TextEncoder {
    /// An encoder to `charset`. `replacement` has no encoder: it writes UTF-8.
    pub fn new(charset: Charset, on_unmappable: OnUnmappable) -> TextEncoder {
        TextEncoder {
            charset,
            encoder: charset.new_encoder(),
            on_unmappable,
            raw_escapes: false,
            raw_bytes: 0,
        }
    }

    /// Writes characters of the escape range ([`Errors::Escape`]) back as
    /// the raw bytes they stand for.
    pub fn raw_escapes(mut self, yes: bool) -> TextEncoder {
        self.raw_escapes = yes;
        if yes {
            self.encoder = Encoder::with_raw_bytes(self.charset);
        }
        self
    }

    /// Encodes the next piece of text, appending to `out`; `last` ends it.
    ///
    /// # Errors
    /// With [`OnUnmappable::Fail`], the first character the output encoding
    /// cannot represent.
    pub fn encode(&mut self, text: &str, last: bool, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let mut rest = text;
        loop {
            let cut = if self.raw_escapes {
                rest.find(is_escape).unwrap_or(rest.len())
            } else {
                rest.len()
            };
            let (run, tail) = rest.split_at(cut);
            let (policy, charset, shift) = (self.on_unmappable, self.charset, self.raw_bytes);
            let mut failure = None;
            self.encoder.encode_from_str(
                run,
                out,
                last && tail.is_empty(),
                |dst, u| match policy {
                    OnUnmappable::Reference => charset.codec().push_reference(u.ch, dst),
                    OnUnmappable::Fail => {
                        failure.get_or_insert(EncodeError {
                            charset,
                            character: u.ch,
                            offset: u.offset + shift,
                        });
                    }
                },
            );
            if let Some(failure) = failure {
                return Err(failure);
            }
            let mut chars = tail.chars();
            let Some(escape) = chars.next() else { return Ok(()) };
            self.encoder.raw(&[(u32::from(escape) - ESCAPE_BASE) as u8], out);
            self.raw_bytes += escape.len_utf8() as u64;
            rest = chars.as_str();
        }
    }
}

/// Whether text can be written in an encoding, checked as it streams by
/// (what `--keep-encoding` needs: every character has a form in the
/// document's declared encoding).
///
/// # Example
/// ```
/// use charsight::decode::Fits;
/// use charsight::Charset;
/// let mut fits = Fits::new(Some(Charset::Windows1252));
/// fits.check("café", false);
/// assert!(fits.fits());
/// fits.check("Ελληνικά", true);
/// assert!(!fits.fits());
/// ```
pub struct Fits {
    encoder: Option<TextEncoder>,
    fits: bool,
    scratch: Vec<u8>,
}

impl Fits {
    /// A check of `charset`; with `None`, nothing is checked and nothing fits.
    pub fn new(charset: Option<Charset>) -> Fits {
        Fits {
            encoder: charset.map(|c| TextEncoder::new(c, OnUnmappable::Fail)),
            fits: charset.is_some(),
            scratch: Vec::new(),
        }
    }

    /// Checks the next piece of text; `last` ends it.
    pub fn check(&mut self, text: &str, last: bool) {
        if let Some(encoder) = &mut self.encoder {
            if encoder.encode(text, last, &mut self.scratch).is_err() {
                self.encoder = None;
                self.fits = false;
            }
            self.scratch.clear();
        }
    }

    /// Whether every character so far can be written.
    pub fn fits(&self) -> bool {
        self.fits
    }
}

/// The original bytes of text decoded from `charset` with
/// [`Errors::Escape`]: valid parts re-encoded, escapes written back raw.
/// Exact for every charset (the switches of ISO-2022-JP, ISO-2022-KR and
/// HZ-GB-2312 are escaped too, and UTF-7 runs the encoder would write
/// otherwise), unless a Unicode input held characters of the escape
/// range ([`TextDecoder::escape_collisions`]).
///
/// # Example
/// ```
/// use charsight::decode::{restore, Errors, TextDecoder};
/// use charsight::Charset;
/// let bytes = b"ok \xE6\x97 \xFF";
/// let mut text = String::new();
/// TextDecoder::new(Charset::Utf8, Errors::Escape).decode(bytes, true, &mut text).unwrap();
/// assert_eq!(restore(&text, Charset::Utf8), bytes);
/// ```
pub fn restore(text: &str, charset: Charset) -> Vec<u8> {
    let mut out = Vec::new();
    TextEncoder::new(charset, OnUnmappable::Reference)
        .raw_escapes(true)
        .encode(text, true, &mut out)
        .expect("references never fail");
    out
}

/// The splices that rewrite each in-document declaration (`<meta charset>`,
/// the charset in `<meta http-equiv>` content, the XML declaration's
/// `encoding`) that does not name `output`, so that text written in
/// `output` declares what it is.
///
/// # Example
/// ```
/// use charsight::decode::declaration_fixes;
/// use charsight::{Charset, Engine};
/// let page = b"<meta charset=iso-8859-1><p>caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9e";
/// let found = Engine::new().detect(page);
/// assert_eq!(found.charset, Charset::Utf8); // declared ISO-8859-1, actual UTF-8
/// let fixes = declaration_fixes(&found, Charset::Utf8);
/// assert_eq!(fixes[0].range, 14..24);
/// assert_eq!(fixes[0].text, "UTF-8");
/// ```
pub fn declaration_fixes(detection: &Detection, output: Charset) -> Vec<Splice> {
    detection
        .evidence
        .iter()
        .filter(|e| matches!(e.source, Source::Meta | Source::Xml | Source::Coding) && e.len > 0)
        .filter(|e| !e.notes.contains(&Note::Autodetected))
        .filter(|e| crate::label::resolve(e.label.as_bytes()).ok() != Some(output))
        .map(|e| Splice {
            range: e.offset as u64..(e.offset + e.len) as u64,
            text: output.name().to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode_chunked(
        charset: Charset,
        errors: Errors,
        bytes: &[u8],
        chunk: usize,
        splices: Vec<Splice>,
    ) -> (String, MalformedLog) {
        let mut decoder = TextDecoder::new(charset, errors).with_splices(splices);
        let mut text = String::new();
        let chunks: Vec<&[u8]> = bytes.chunks(chunk.max(1)).collect();
        if chunks.is_empty() {
            decoder.decode(b"", true, &mut text).unwrap();
        }
        for (i, c) in chunks.iter().enumerate() {
            decoder.decode(c, i + 1 == chunks.len(), &mut text).unwrap();
        }
        (text, decoder.malformed().clone())
    }

    #[test]
    fn replace_logs_merged_ranges() {
        let (text, log) =
            decode_chunked(Charset::Utf8, Errors::Replace, b"a\xFF\xFEb\xE6\x97", 100, vec![]);
        assert_eq!(text, "a\u{FFFD}\u{FFFD}b\u{FFFD}");
        assert_eq!(log.sequences, 3);
        assert_eq!(
            log.ranges,
            vec![ByteRange { offset: 1, len: 2 }, ByteRange { offset: 4, len: 2 }]
        );
    }

    #[test]
    fn strict_stops_at_the_first_offence() {
        let mut decoder = TextDecoder::new(Charset::ShiftJis, Errors::Strict);
        let mut text = String::new();
        decoder.decode(b"\x93\xfa", false, &mut text).unwrap();
        let err = decoder.decode(b"\x96\x7b\xff\x93\xfa", true, &mut text).unwrap_err();
        assert_eq!(err.offset(), 4);
        assert_eq!(err.to_string(), "malformed Shift_JIS sequence FF at byte offset 4");
        assert_eq!(text, "日本");
    }

    #[test]
    fn strict_logs_only_the_first_offence_in_every_chunking() {
        let bytes = b"ok\xFF\xFE tail \xC3";
        for chunk in 1..=bytes.len() {
            let mut decoder = TextDecoder::new(Charset::Utf8, Errors::Strict);
            let mut text = String::new();
            let mut result = Ok(());
            for piece in bytes.chunks(chunk) {
                result = result.and_then(|_| decoder.decode(piece, false, &mut text));
            }
            let result = result.and_then(|_| decoder.decode(b"", true, &mut text));
            assert_eq!(result.unwrap_err().offset(), 2, "chunk {chunk}");
            assert_eq!((text.as_str(), decoder.malformed().sequences), ("ok", 1), "chunk {chunk}");
        }
    }

    #[test]
    fn splices_replace_byte_ranges_in_every_chunking() {
        let page = b"<meta charset=iso-8859-1><p>\xC3\xA9";
        let splice = || vec![Splice { range: 14..24, text: "UTF-8".into() }];
        for chunk in 1..=page.len() {
            let (text, _) = decode_chunked(Charset::Utf8, Errors::Replace, page, chunk, splice());
            assert_eq!(text, "<meta charset=UTF-8><p>é", "chunk {chunk}");
        }
        // A splice at the very end, and one past the end (never reached).
        let (text, _) = decode_chunked(
            Charset::Utf8,
            Errors::Replace,
            b"abc",
            2,
            vec![Splice { range: 2..3, text: "Z".into() }],
        );
        assert_eq!(text, "abZ");
        let (text, _) = decode_chunked(
            Charset::Utf8,
            Errors::Replace,
            b"abc",
            2,
            vec![Splice { range: 9..12, text: "Z".into() }],
        );
        assert_eq!(text, "abc");
    }

    #[test]
    fn skip_a_bom() {
        let mut decoder = TextDecoder::new(Charset::Utf16Le, Errors::Replace).skip(2);
        let mut text = String::new();
        decoder.decode(b"\xFF", false, &mut text).unwrap();
        decoder.decode(b"\xFEh\x00i\x00", true, &mut text).unwrap();
        assert_eq!(text, "hi");
    }

    #[test]
    fn encoder_fail_and_utf16_output() {
        let mut out = Vec::new();
        let err = TextEncoder::new(Charset::Iso8859_2, OnUnmappable::Fail)
            .encode("ab€c", true, &mut out)
            .unwrap_err();
        assert_eq!((err.character(), err.offset()), ('€', 2));
        let mut out = Vec::new();
        TextEncoder::new(Charset::Utf16Be, OnUnmappable::Fail)
            .encode("h☃", true, &mut out)
            .unwrap();
        assert_eq!(out, b"\x00h\x26\x03");
    }

    #[test]
    fn escape_collisions_are_counted() {
        let bytes = "x\u{10FE41}".as_bytes();
        let mut decoder = TextDecoder::new(Charset::Utf8, Errors::Escape);
        let mut text = String::new();
        decoder.decode(bytes, true, &mut text).unwrap();
        assert_eq!(decoder.escape_collisions(), 1);
    }

    proptest! {
        #[test]
        fn chunking_does_not_change_the_result(bytes: Vec<u8>, chunk in 1usize..17, index in 0..Charset::ALL.len()) {
            let charset = Charset::ALL[index];
            let whole = decode_chunked(charset, Errors::Replace, &bytes, bytes.len(), vec![]);
            prop_assert_eq!(decode_chunked(charset, Errors::Replace, &bytes, chunk, vec![]), whole);
        }

        #[test]
        fn offsets_tile_text_and_input(bytes: Vec<u8>, chunk in 1usize..9, index in 0..Charset::ALL.len()) {
            let charset = Charset::ALL[index];
            let (text, map) = decode_mapped(charset, &bytes, chunk);
            let plain = decode_chunked(charset, Errors::Replace, &bytes, bytes.len(), vec![]).0;
            prop_assert_eq!(&text, &plain);
            check_pieces(charset, &bytes, &text, &map);
        }

        /// The characters a walker finds ([`character_ends`]) make the same
        /// map as feeding the decoder a byte at a time: in text of a
        /// multibyte encoding with malformed and cut sequences strewn in,
        /// read whole and in chunks.
        #[test]
        fn walked_characters_map_as_bytes_fed_one_at_a_time(
            parts in prop::collection::vec((any::<char>(), prop::collection::vec(any::<u8>(), 0..3)), 0..24),
            chunk in 1usize..40,
            index in 0usize..6,
        ) {
            use Charset::*;
            let charset = [ShiftJis, EucJp, EucKr, Gbk, Gb18030, Big5][index];
            let mut bytes = Vec::new();
            for (c, stray) in &parts {
                // Characters the encoding has, and ASCII between them.
                let mut buf = [0; 4];
                let (encoded, _) = charset.encode(c.encode_utf8(&mut buf));
                bytes.extend_from_slice(&encoded);
                bytes.extend(stray.iter().map(|&b| if b % 3 == 0 { b } else { b'a' + b % 26 }));
            }
            for chunk in [chunk, bytes.len()] {
                let mapped = |walk: bool| {
                    let mut decoder = TextDecoder::new(charset, Errors::Replace).with_offsets();
                    decoder.walk = walk;
                    let mut text = String::new();
                    for piece in bytes.chunks(chunk.max(1)) {
                        decoder.decode(piece, false, &mut text).unwrap();
                    }
                    decoder.decode(b"", true, &mut text).unwrap();
                    (text, decoder.offsets().unwrap().pieces().to_vec())
                };
                prop_assert_eq!(mapped(true), mapped(false), "{}", charset);
            }
        }

        #[test]
        fn escape_then_restore_gives_the_bytes_back(
            bytes in prop::collection::vec(any::<u8>(), 0..64),
            chunk in 1usize..9,
        ) {
            for &charset in Charset::ALL.iter().filter(|&&c| restorable(c)) {
                let (text, _) = decode_chunked(charset, Errors::Escape, &bytes, chunk, vec![]);
                if bytes_have_no_collision(&bytes, charset) {
                    prop_assert_eq!(restore(&text, charset), &bytes[..], "{}", charset);
                }
            }
        }
    }

    /// Every charset whose escape round trip is exact for any input.
    fn restorable(charset: Charset) -> bool {
        charset != Charset::Replacement
    }

    /// Every pair of bytes after a lead byte, and the lead byte cut at the
    /// end, maps alike looked up ([`CharLengths`]) and fed a byte at a time.
    #[test]
    fn looked_up_characters_map_as_bytes_fed_one_at_a_time() {
        use Charset::*;
        for charset in [ShiftJis, EucJp, EucKr, Gbk, Gb18030, Big5] {
            let mut bytes = Vec::new();
            for lead in 0x80..=0xFF_u8 {
                for next in 0..=0xFF_u8 {
                    bytes.extend([lead, next, b' ']);
                }
            }
            bytes.push(0x81);
            let mapped = |walk: bool| {
                let mut decoder = TextDecoder::new(charset, Errors::Replace).with_offsets();
                decoder.walk = walk;
                let mut text = String::new();
                decoder.decode(&bytes, true, &mut text).unwrap();
                (text, decoder.offsets().unwrap().pieces().to_vec())
            };
            assert!(mapped(true) == mapped(false), "{charset}");
        }
    }

    #[test]
    fn r25_escape_keeps_sequences_that_do_not_encode_back() {
        // A private-use character, NEC's copy of U+2252 and an IBM
        // extension duplicated in NEC's selection.
        let bytes = b"a\xf0\x40\x87\x90\xee\x96b";
        let (text, _) = decode_chunked(Charset::ShiftJis, Errors::Escape, bytes, 3, vec![]);
        assert_eq!(text, "a\u{10FEF0}\u{10FE40}\u{10FE87}\u{10FE90}\u{10FEEE}\u{10FE96}b");
        assert_eq!(restore(&text, Charset::ShiftJis), bytes);
        // GBK: A2E3 reads as the euro sign, which encodes as 80; A3A0 as
        // U+E5E5, which encodes as A1A1. The canonical form stays text.
        let (text, _) =
            decode_chunked(Charset::Gbk, Errors::Escape, b"\xa2\xe3\x80\xa3\xa0", 1, vec![]);
        assert_eq!(text, "\u{10FEA2}\u{10FEE3}€\u{10FEA3}\u{10FEA0}");
        // GB18030's four-byte form of a character of the escape range.
        let bytes = Charset::Gb18030.encode("x\u{10FE41}y").0.into_owned();
        let (text, _) = decode_chunked(Charset::Gb18030, Errors::Escape, &bytes, 2, vec![]);
        assert_eq!(text.chars().filter(|&c| is_escape(c)).count(), 4);
        assert_eq!(restore(&text, Charset::Gb18030), bytes);
    }

    #[test]
    fn escape_keeps_a_letter_and_a_mark_the_encoder_would_compose_apart() {
        // `æ` and a combining grave accent, which EUC-JIS-2004 writes as
        // AB C4: the accent is escaped, in every chunking; the composed
        // form and a lone accent stay text.
        let bytes = b"\xa9\xdc\xab\xdc \xab\xc4\xab\xdc";
        for chunk in 1..=bytes.len() {
            let (text, _) =
                decode_chunked(Charset::EucJis2004, Errors::Escape, bytes, chunk, vec![]);
            assert_eq!(text, "æ\u{10FEAB}\u{10FEDC} æ\u{300}\u{300}", "chunk {chunk}");
            assert_eq!(restore(&text, Charset::EucJis2004), bytes);
        }
        let bytes = b"\x82\xa9\x83\x4a\x86\x63";
        let (text, _) = decode_chunked(Charset::ShiftJis2004, Errors::Escape, bytes, 1, vec![]);
        assert_eq!(text, "かカæ\u{300}");
        assert_eq!(restore(&text, Charset::ShiftJis2004), bytes);
    }

    /// A letter written in a pair is spent: the next chunk's first letter
    /// does not compose with it (`˥˩` twice is 86 86 86 86, never `˩˥`'s
    /// 86 85 in the middle). Found by the `decode` fuzz target.
    #[test]
    fn escape_does_not_compose_a_letter_already_in_a_pair() {
        let bytes = b"\x86\x86\x86\x86\x86\x86\x86";
        for chunk in 1..=bytes.len() {
            let (text, _) =
                decode_chunked(Charset::ShiftJis2004, Errors::Escape, bytes, chunk, vec![]);
            assert_eq!(text, "˥˩˥˩˥˩\u{10FE86}", "chunk {chunk}");
            assert_eq!(restore(&text, Charset::ShiftJis2004), bytes);
        }
    }

    #[test]
    fn r25_escape_round_trip_over_every_two_byte_sequence() {
        let multibyte = Charset::ALL
            .iter()
            .copied()
            .filter(|&c| restorable(c) && !c.is_single_byte() && !c.is_unicode());
        for charset in multibyte {
            for pair in 0..=u16::MAX {
                let bytes = pair.to_be_bytes();
                let (text, _) = decode_chunked(charset, Errors::Escape, &bytes, 2, vec![]);
                assert_eq!(restore(&text, charset), bytes, "{charset} {bytes:02X?}");
            }
            // All the pairs in one stream, in chunks that split sequences.
            let stream: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_be_bytes).collect();
            let (text, _) = decode_chunked(charset, Errors::Escape, &stream, 4093, vec![]);
            assert_eq!(restore(&text, charset), stream, "{charset}: every pair in a row");
        }
    }

    /// Decodes with offsets recorded, in chunks of `chunk` bytes.
    fn decode_mapped(charset: Charset, bytes: &[u8], chunk: usize) -> (String, OffsetMap) {
        let mut decoder = TextDecoder::new(charset, Errors::Replace).with_offsets();
        let mut text = String::new();
        for piece in bytes.chunks(chunk.max(1)) {
            decoder.decode(piece, false, &mut text).unwrap();
        }
        decoder.decode(b"", true, &mut text).unwrap();
        (text, decoder.offsets().unwrap().clone())
    }

    /// Checks that the pieces tile the text and the input, and that each
    /// piece of decoded characters decodes, on its own, to its text.
    fn check_pieces(charset: Charset, bytes: &[u8], text: &str, map: &OffsetMap) {
        let pieces = map.pieces();
        for (i, p) in pieces.iter().enumerate() {
            let (text_end, input_end) = match pieces.get(i + 1) {
                Some(next) => (next.text, next.input),
                None => (text.len() as u64, bytes.len() as u64),
            };
            assert!(p.text <= text_end && p.input <= input_end, "{pieces:?}");
            let own = &text[p.text as usize..text_end as usize];
            let input = &bytes[p.input as usize..input_end as usize];
            match p.kind {
                PieceKind::Malformed => assert_eq!(own, "\u{FFFD}"),
                PieceKind::Decoded if !charset.is_stateful() && charset != Charset::Replacement => {
                    assert_eq!(charset.decode(input).0, own, "{charset} piece {i} of {pieces:?}")
                }
                _ => {}
            }
        }
        assert_eq!(pieces.first().map_or(0, |p| p.input), 0);
    }

    /// ISO-2022-KR's `SO` makes no text; the malformed (shifted) space after
    /// it must not take its place in the map. EUC-JIS-2004 reads the `00`
    /// after a malformed `8F` again, after its decoder took in the `8E`
    /// that follows: the piece begun there holds nothing.
    #[test]
    fn pieces_tile_around_shifts_and_bytes_read_again() {
        for (charset, bytes, expected) in [
            (Charset::Iso2022Kr, &b"\x0E "[..], "\u{FFFD}"),
            (Charset::EucJis2004, b"\x8F\x00\x8E", "\u{FFFD}\0\u{FFFD}"),
            (Charset::EucJis2004, b"\x8F\x00\xA1\xA1", "\u{FFFD}\0\u{3000}"),
        ] {
            for chunk in 1..=bytes.len() {
                let (text, map) = decode_mapped(charset, bytes, chunk);
                assert_eq!(text, expected);
                check_pieces(charset, bytes, &text, &map);
            }
        }
    }

    #[test]
    fn offsets_of_each_width() {
        for (charset, text) in [
            (Charset::Utf8, "a日\u{1F600}b"),
            (Charset::Windows1252, "café “ok”"),
            (Charset::Utf16Le, "a日\u{1F600}b"),
            (Charset::Utf32Be, "a日b"),
            (Charset::ShiftJis, "日本語 ok ｶﾀｶﾅ"),
            (Charset::Gb18030, "中文 €"),
            (Charset::EucJp, "日本 ok"),
        ] {
            let bytes = charset.encode(text).0.into_owned();
            for chunk in [1, 2, 3, bytes.len()] {
                let (decoded, map) = decode_mapped(charset, &bytes, chunk);
                assert_eq!(decoded, text);
                check_pieces(charset, &bytes, &decoded, &map);
                // Every ASCII character maps exactly: the rest of the input
                // decodes, from there, to the rest of the text.
                for (at, _) in text.char_indices().filter(|(_, c)| c.is_ascii()) {
                    let input = map.input_at(&decoded, 0, at as u64).unwrap() as usize;
                    if !charset.is_stateful() {
                        assert_eq!(charset.decode(&bytes[input..]).0, &text[at..], "{charset}");
                    }
                }
                assert_eq!(
                    map.input_range(&decoded, 0, 0..text.len() as u64).end,
                    bytes.len() as u64
                );
            }
        }
    }

    #[test]
    fn offsets_around_splices_boms_and_malformed_bytes() {
        let page = b"\xEF\xBB\xBF<meta charset=latin1>\xC3\xA9\xFF!";
        let mut decoder = TextDecoder::new(Charset::Utf8, Errors::Replace)
            .skip(3)
            .with_splices(vec![Splice { range: 17..23, text: "UTF-8".into() }])
            .with_offsets();
        let mut text = String::new();
        decoder.decode(page, true, &mut text).unwrap();
        assert_eq!(text, "<meta charset=UTF-8>é\u{FFFD}!");
        let map = decoder.offsets().unwrap();
        let at = |s: &str| text.find(s).unwrap() as u64;
        assert_eq!(map.input_range(&text, 0, at("UTF-8")..at(">")), 17..23);
        assert_eq!(map.input_range(&text, 0, at("é")..at("!")), 24..27);
        assert_eq!(map.input_range(&text, 0, at("\u{FFFD}")..at("!")), 26..27);
        assert_eq!(map.input_at(&text, 0, 0), Some(3));
    }

    #[test]
    fn escaped_malformed_bytes_map_one_character_per_byte() {
        let mut decoder = TextDecoder::new(Charset::Utf8, Errors::Escape).with_offsets();
        let mut text = String::new();
        decoder.decode(b"ok \xE6\x97 end", true, &mut text).unwrap();
        let map = decoder.offsets().unwrap();
        let second = text.char_indices().nth(4).unwrap().0 as u64;
        assert_eq!(map.input_at(&text, 0, second), Some(4));
        // Split off the first line of a block, then map the rest.
        let mut decoder = TextDecoder::new(Charset::Windows1251, Errors::Replace).with_offsets();
        let mut text = String::new();
        decoder.decode(b"\xcf\xf0\n\xe8", false, &mut text).unwrap();
        let head = decoder.split_offsets(&text, 0, 5).unwrap();
        assert_eq!(head.pieces().last().map(|p| p.input), Some(3));
        assert_eq!(decoder.offsets().unwrap().input_at(&text[5..], 5, 7), Some(4));
    }

    fn bytes_have_no_collision(bytes: &[u8], charset: Charset) -> bool {
        let mut decoder = TextDecoder::new(charset, Errors::Escape);
        decoder.decode(bytes, true, &mut String::new()).unwrap();
        decoder.escape_collisions() == 0
    }
}
