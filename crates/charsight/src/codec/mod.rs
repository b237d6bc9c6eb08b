//! Streaming decoders and encoders for every [`Charset`]: `encoding_rs` for
//! the WHATWG encodings, and charsight's own codecs for the rest: UTF-32,
//! the single-byte tables generated from glibc's charmaps and CPython's
//! codecs (DOS, Mac OS and EBCDIC code pages, VISCII, …), Johab, EUC-TW,
//! ISO-2022-JP-2/-3/-2004, ISO-2022-KR, ISO-2022-CN(-EXT), HZ-GB-2312, UTF-7, CESU-8, EUC-JIS-2004 and
//! Shift_JIS-2004.
//!
//! [`Decoder`] reports each malformed byte sequence with its offset in the
//! whole stream and its bytes, and [`Encoder`] each character the encoding
//! cannot represent with its offset in the text, so callers can replace it,
//! escape it, list it in a report, or stop; nothing is dropped silently.
//!
//! The multi-byte decoders here share one rule for resynchronising: when a
//! byte cannot continue the sequence begun before it, the bytes before it
//! are malformed and the byte itself is read again as the start of what
//! follows (so `A1 41` in EUC-TW is a malformed `A1` and then `A`).

mod cesu8;
mod euc_jis_2004;
mod euc_tw;
mod hz;
mod iso_2022;
mod iso_2022_cn;
mod iso_2022_jp;
mod iso_2022_kr;
mod jis_x0212;
mod jis_x0213;
mod johab;
mod ksx1001;
mod shift_jis_2004;
mod single_byte;
mod utf32;
mod utf7;

use charsight_tables::charmaps::SingleByte;
use encoding_rs::{DecoderResult, EncoderResult, Encoding};

use crate::Charset;

pub(crate) use iso_2022::Unit;
pub(crate) use iso_2022_jp::{Mode as JpSet, Variant as JpVariant, G2 as JpG2};
pub(crate) use utf7::{Read as Utf7Read, Reader as Utf7Reader};

/// How a charset is decoded and encoded.
#[derive(Clone, Copy)]
pub(crate) enum Codec {
    /// By `encoding_rs`.
    Whatwg(&'static Encoding),
    /// UTF-32 in either byte order.
    Utf32 { big_endian: bool },
    /// By a generated single-byte table.
    SingleByte(&'static SingleByte),
    /// Johab (Korean).
    Johab,
    /// EUC-TW (CNS 11643, Traditional Chinese).
    EucTw,
    /// ISO-2022-JP-2 (RFC 1554), ISO-2022-JP-3 or ISO-2022-JP-2004.
    Iso2022JpExt(JpVariant),
    /// ISO-2022-KR (RFC 1557).
    Iso2022Kr,
    /// ISO-2022-CN (RFC 1922), or ISO-2022-CN-EXT if `ext`.
    Iso2022Cn { ext: bool },
    /// HZ-GB-2312 (RFC 1843).
    Hz,
    /// UTF-7 (RFC 2152).
    Utf7,
    /// CESU-8 (Unicode Technical Report #26).
    Cesu8,
    /// EUC-JIS-2004 (JIS X 0213).
    EucJis2004,
    /// Shift_JIS-2004 (JIS X 0213).
    ShiftJis2004,
}

impl Codec {
    /// Appends `ch` as a decimal numeric character reference (`&#8364;`):
    /// in ASCII, or for EBCDIC in the table's own bytes of `&`, `#`, the
    /// digits and `;`, so that the reference reads as one once decoded.
    /// Stateful encoders are in their ASCII state when it is called.
    pub(crate) fn push_reference(self, ch: char, dst: &mut Vec<u8>) {
        let reference = format!("&#{};", u32::from(ch));
        match self {
            Codec::SingleByte(table) if !table.ascii_compatible => {
                dst.extend(reference.chars().map(|c| single_byte::byte_of(table, c)))
            }
            _ => dst.extend_from_slice(reference.as_bytes()),
        }
    }
}

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
    SingleByte(single_byte::Decoder),
    Johab(johab::Decoder),
    EucTw(euc_tw::Decoder),
    Iso2022JpExt(iso_2022_jp::Decoder),
    Iso2022Kr(iso_2022_kr::Decoder),
    Iso2022Cn(iso_2022_cn::Decoder),
    Hz(hz::Decoder),
    Utf7(utf7::Decoder),
    Cesu8(cesu8::Decoder),
    EucJis2004(euc_jis_2004::Decoder),
    ShiftJis2004(shift_jis_2004::Decoder),
}

impl Decoder {
    pub(crate) fn new(charset: Charset) -> Decoder {
        let kind = match charset.codec() {
            Codec::Whatwg(encoding) => Kind::Whatwg(encoding.new_decoder_without_bom_handling()),
            Codec::Utf32 { big_endian } => Kind::Utf32(utf32::Utf32Decoder::new(big_endian)),
            Codec::SingleByte(table) => Kind::SingleByte(single_byte::Decoder::new(table)),
            Codec::Johab => Kind::Johab(johab::Decoder::default()),
            Codec::EucTw => Kind::EucTw(euc_tw::Decoder::default()),
            Codec::Iso2022JpExt(v) => Kind::Iso2022JpExt(iso_2022_jp::Decoder::new(v)),
            Codec::Iso2022Kr => Kind::Iso2022Kr(iso_2022_kr::Decoder::default()),
            Codec::Iso2022Cn { ext } => Kind::Iso2022Cn(iso_2022_cn::Decoder::new(ext)),
            Codec::Hz => Kind::Hz(hz::Decoder::default()),
            Codec::Utf7 => Kind::Utf7(utf7::Decoder::default()),
            Codec::Cesu8 => Kind::Cesu8(cesu8::Decoder::default()),
            Codec::EucJis2004 => Kind::EucJis2004(euc_jis_2004::Decoder::default()),
            Codec::ShiftJis2004 => Kind::ShiftJis2004(shift_jis_2004::Decoder::default()),
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

    /// How many of the bytes consumed after the last character written
    /// belong to characters still to come ([`ByteDecoder::held`]): a
    /// decoder that reads bytes again may write a character while holding
    /// bytes it consumed after it.
    pub(crate) fn held(&self) -> u64 {
        match &self.kind {
            Kind::EucJis2004(d) => u64::from(d.held()),
            _ => 0,
        }
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
                Kind::SingleByte(d) => d.decode_to_string(&src[pos..], dst),
                Kind::Utf32(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Johab(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::EucTw(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Iso2022JpExt(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Iso2022Kr(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Iso2022Cn(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Hz(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Utf7(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::Cesu8(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::EucJis2004(d) => decode_bytes(d, &src[pos..], dst, last),
                Kind::ShiftJis2004(d) => decode_bytes(d, &src[pos..], dst, last),
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

/// What one byte did to a [`ByteDecoder`].
enum Step {
    /// It completed a character.
    Char(char),
    /// It completed a sequence that stands for two characters (a letter
    /// and a combining mark, in JIS X 0213).
    Pair(char, char),
    /// It began or continued a sequence, or changed the state, and there
    /// is nothing to write yet.
    Pending,
    /// It ended a malformed sequence of this many bytes, itself included.
    Malformed(u8),
    /// It cannot continue the sequence begun before it: those bytes (this
    /// many) are malformed, and the byte is read again on its own.
    MalformedBefore(u8),
    /// It cannot continue the sequence begun before it, whose first `len`
    /// bytes are malformed and whose last `kept` bytes the decoder now holds
    /// as the start of what follows; the byte is read again.
    MalformedEarlier { len: u8, kept: u8 },
}

/// A decoder that reads one byte at a time: UTF-32, Johab, EUC-TW,
/// ISO-2022-JP-2/-3/-2004, ISO-2022-KR, ISO-2022-CN(-EXT), HZ-GB-2312, UTF-7, CESU-8, EUC-JIS-2004,
/// Shift_JIS-2004.
trait ByteDecoder {
    /// Reads one byte. After a malformed sequence the decoder is back in a
    /// state where the next byte starts afresh.
    fn step(&mut self, byte: u8) -> Step;

    /// At the end of the stream: forgets an unfinished sequence, if any, and
    /// says how many bytes it had.
    fn finish(&mut self) -> u8;

    /// The next of the bytes that the decoder has taken back to read again,
    /// if any: a decoder whose malformed sequence is followed by bytes it
    /// has already consumed (EUC-JIS-2004's `8F` before two bytes that are
    /// no character: the `8F` alone is malformed) keeps them, and they are
    /// read before the next byte of the input. Such a decoder takes bytes
    /// back itself and never returns [`Step::MalformedBefore`].
    fn replay(&mut self) -> Option<u8> {
        None
    }

    /// How many bytes are waiting to be read again ([`ByteDecoder::replay`]).
    fn replaying(&self) -> u8 {
        0
    }

    /// How many of the bytes consumed so far are in no character yet: the
    /// sequence under way, and those waiting to be read again. Only a
    /// decoder that reads bytes again can hold any once it has written a
    /// character (its bytes read again then follow that character).
    fn held(&self) -> u8 {
        0
    }
}

/// Runs `decoder` over `src`. Same contract as
/// `encoding_rs::Decoder::decode_to_string_without_replacement`, except that
/// `dst` grows as needed, so the result is never `OutputFull`.
fn decode_bytes(
    decoder: &mut impl ByteDecoder,
    src: &[u8],
    dst: &mut String,
    last: bool,
) -> (DecoderResult, usize) {
    dst.reserve(src.len());
    let mut read = 0;
    loop {
        // (Bytes read again are the last ones read from `src`, or from
        // earlier chunks, so offsets count back from `read` past them.)
        let byte = match decoder.replay() {
            Some(byte) => byte,
            None => {
                let Some(&byte) = src.get(read) else { break };
                read += 1;
                byte
            }
        };
        match decoder.step(byte) {
            Step::Char(c) => dst.push(c),
            Step::Pair(a, b) => {
                dst.push(a);
                dst.push(b);
            }
            Step::Pending => {}
            Step::Malformed(len) => {
                return (DecoderResult::Malformed(len, decoder.replaying()), read)
            }
            Step::MalformedBefore(len) => return (DecoderResult::Malformed(len, 0), read - 1),
            Step::MalformedEarlier { len, kept } => {
                return (DecoderResult::Malformed(len, kept), read - 1)
            }
        }
    }
    let pending = if last { decoder.finish() } else { 0 };
    match pending {
        0 => (DecoderResult::InputEmpty, read),
        _ => (DecoderResult::Malformed(pending, 0), read),
    }
}

/// Encodes `src` one character at a time with `encode_char`, which appends
/// the character's bytes and says whether it has any; stops after the first
/// that has none. Same contract as
/// `encoding_rs::Encoder::encode_from_utf8_to_vec_without_replacement`, except
/// that `dst` grows as needed, so the result is never `OutputFull`.
fn encode_chars(
    src: &str,
    dst: &mut Vec<u8>,
    mut encode_char: impl FnMut(char, &mut Vec<u8>) -> bool,
) -> (EncoderResult, usize) {
    dst.reserve(src.len());
    for (i, c) in src.char_indices() {
        if !encode_char(c, dst) {
            return (EncoderResult::Unmappable(c), i + c.len_utf8());
        }
    }
    (EncoderResult::InputEmpty, src.len())
}

/// [`encode_chars`] for a stateful encoder, which `finish` takes back to
/// its initial state when `last` ends the text.
fn encode_stateful<E>(
    encoder: &mut E,
    encode_char: fn(&mut E, char, &mut Vec<u8>) -> bool,
    finish: fn(&mut E, &mut Vec<u8>),
    src: &str,
    dst: &mut Vec<u8>,
    last: bool,
) -> (EncoderResult, usize) {
    let result = encode_chars(src, dst, |c, dst| encode_char(encoder, c, dst));
    if last && result.0 == EncoderResult::InputEmpty {
        finish(encoder, dst);
    }
    result
}

/// A character that the target encoding cannot represent, met while
/// encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmappable {
    /// Offset of the character from the start of the text stream, in UTF-8
    /// bytes.
    pub offset: u64,
    /// The character.
    pub ch: char,
}

/// A streaming encoder for one [`Charset`], made by [`Charset::new_encoder`].
///
/// Unlike `encoding_rs`, it encodes UTF-16 to UTF-16 (not UTF-8), so that
/// decoding and encoding again gives the same bytes for every Unicode
/// encoding. `replacement` has no encoder of its own: it encodes to UTF-8.
///
/// # Example
/// ```
/// use charsight::Charset;
/// let mut encoder = Charset::Ibm437.new_encoder();
/// let mut bytes = Vec::new();
/// let mut missing = Vec::new();
/// encoder.encode_from_str("Ä ", &mut bytes, false, |_, u| missing.push(u.ch));
/// encoder.encode_from_str("€!", &mut bytes, true, |out, u| {
///     missing.push(u.ch);
///     out.push(b'?');
/// });
/// assert_eq!(bytes, b"\x8e ?!");
/// assert_eq!(missing, ['€']);
/// ```
pub struct Encoder {
    kind: EncoderKind,
    /// UTF-8 bytes of text consumed before the current call.
    consumed: u64,
}

enum EncoderKind {
    Whatwg(encoding_rs::Encoder),
    Utf16 {
        big_endian: bool,
    },
    Utf32 {
        big_endian: bool,
    },
    SingleByte(single_byte::Encoder),
    Johab,
    EucTw,
    Iso2022Kr(iso_2022_kr::Encoder),
    Hz(hz::Encoder),
    Utf7(utf7::Encoder),
    Cesu8,
    /// EUC-JIS-2004 and Shift_JIS-2004.
    JisX0213(jis_x0213::Encoder),
    /// A stateful encoding whose raw bytes are written too, and
    /// ISO-2022-JP-2/-3/-2004 and ISO-2022-CN(-EXT).
    Follower(iso_2022::Follower),
    /// UTF-7 with its raw bytes written too.
    Utf7Follower(utf7::Follower),
}

impl Encoder {
    pub(crate) fn new(charset: Charset) -> Encoder {
        let kind = match charset.codec() {
            Codec::Whatwg(encoding) if encoding == encoding_rs::UTF_16LE => {
                EncoderKind::Utf16 { big_endian: false }
            }
            Codec::Whatwg(encoding) if encoding == encoding_rs::UTF_16BE => {
                EncoderKind::Utf16 { big_endian: true }
            }
            Codec::Whatwg(encoding) => EncoderKind::Whatwg(encoding.new_encoder()),
            Codec::Utf32 { big_endian } => EncoderKind::Utf32 { big_endian },
            Codec::SingleByte(table) => EncoderKind::SingleByte(single_byte::Encoder::new(table)),
            Codec::Johab => EncoderKind::Johab,
            Codec::EucTw => EncoderKind::EucTw,
            Codec::Iso2022Kr => EncoderKind::Iso2022Kr(iso_2022_kr::Encoder::default()),
            // Their encoder is the follower given no raw bytes.
            Codec::Iso2022JpExt(_) | Codec::Iso2022Cn { .. } => EncoderKind::Follower(
                iso_2022::Follower::usual(charset).expect("they have state machines"),
            ),
            Codec::Hz => EncoderKind::Hz(hz::Encoder::default()),
            Codec::Utf7 => EncoderKind::Utf7(utf7::Encoder::default()),
            Codec::Cesu8 => EncoderKind::Cesu8,
            Codec::EucJis2004 => {
                EncoderKind::JisX0213(jis_x0213::Encoder::new(jis_x0213::Layout::Euc))
            }
            Codec::ShiftJis2004 => {
                EncoderKind::JisX0213(jis_x0213::Encoder::new(jis_x0213::Layout::ShiftJis))
            }
        };
        Encoder { kind, consumed: 0 }
    }

    /// An encoder to `charset` that raw bytes ([`Encoder::raw`]) are written
    /// through too: for a stateful encoding, each character is then written
    /// in the mode those bytes set where it can be (so escaped switches come
    /// back as they were).
    pub(crate) fn with_raw_bytes(charset: Charset) -> Encoder {
        let kind = match (charset.codec(), iso_2022::Follower::new(charset)) {
            (_, Some(follower)) => EncoderKind::Follower(follower),
            (Codec::Utf7, None) => EncoderKind::Utf7Follower(utf7::Follower::default()),
            _ => return Encoder::new(charset),
        };
        Encoder { kind, consumed: 0 }
    }

    /// Whether this encoder may write two characters as one sequence (a
    /// letter and a combining mark, in EUC-JIS-2004 and Shift_JIS-2004).
    pub(crate) fn composes(&self) -> bool {
        matches!(self.kind, EncoderKind::JisX0213(_))
    }

    /// Whether the encoder holds back a letter that may begin a pair with
    /// the next character ([`Encoder::composes`]).
    pub(crate) fn holds(&self) -> bool {
        matches!(&self.kind, EncoderKind::JisX0213(e) if e.holds())
    }

    /// Writes `bytes` as they are (escapes written back), after a letter
    /// the encoder held back.
    pub(crate) fn raw(&mut self, bytes: &[u8], dst: &mut Vec<u8>) {
        match &mut self.kind {
            EncoderKind::Follower(f) => f.raw(bytes, dst),
            EncoderKind::Utf7Follower(f) => f.raw(bytes, dst),
            EncoderKind::JisX0213(e) => {
                e.finish(dst);
                dst.extend_from_slice(bytes);
            }
            _ => dst.extend_from_slice(bytes),
        }
    }

    /// Encodes `src` (the next piece of the text), appending the bytes to
    /// `dst`. For each character the encoding cannot represent,
    /// `on_unmappable` is called with `dst` (to write a replacement, a
    /// numeric character reference, or nothing) and the character. `last`
    /// says that `src` ends the text, so a stateful encoding (ISO-2022-JP,
    /// ISO-2022-KR, ISO-2022-CN, HZ-GB-2312, UTF-7) returns to ASCII, and
    /// EUC-JIS-2004 and Shift_JIS-2004 write a letter held back for a
    /// combining mark that might follow.
    ///
    /// Stateful encoders are in their ASCII state when `on_unmappable` is
    /// called, so an ASCII replacement is read back as ASCII.
    pub fn encode_from_str(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
        mut on_unmappable: impl FnMut(&mut Vec<u8>, Unmappable),
    ) {
        let mut pos = 0;
        loop {
            let rest = &src[pos..];
            let (result, read) = match &mut self.kind {
                EncoderKind::Whatwg(e) => {
                    let want = e
                        .max_buffer_length_from_utf8_without_replacement(rest.len())
                        .unwrap_or(rest.len());
                    dst.reserve(want);
                    e.encode_from_utf8_to_vec_without_replacement(rest, dst, last)
                }
                EncoderKind::Utf16 { big_endian } => encode_chars(rest, dst, |c, dst| {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        let bytes =
                            if *big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() };
                        dst.extend_from_slice(&bytes);
                    }
                    true
                }),
                EncoderKind::Utf32 { big_endian } => encode_chars(rest, dst, |c, dst| {
                    let unit = u32::from(c);
                    let bytes = if *big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() };
                    dst.extend_from_slice(&bytes);
                    true
                }),
                EncoderKind::SingleByte(e) => {
                    encode_chars(rest, dst, |c, dst| e.encode_char(c, dst))
                }
                EncoderKind::Johab => encode_chars(rest, dst, johab::encode_char),
                EncoderKind::EucTw => encode_chars(rest, dst, euc_tw::encode_char),
                EncoderKind::Iso2022Kr(e) => encode_stateful(
                    e,
                    iso_2022_kr::Encoder::encode_char,
                    iso_2022_kr::Encoder::finish,
                    rest,
                    dst,
                    last,
                ),
                EncoderKind::Hz(e) => encode_stateful(
                    e,
                    hz::Encoder::encode_char,
                    hz::Encoder::finish,
                    rest,
                    dst,
                    last,
                ),
                EncoderKind::Utf7(e) => encode_stateful(
                    e,
                    utf7::Encoder::encode_char,
                    utf7::Encoder::finish,
                    rest,
                    dst,
                    last,
                ),
                EncoderKind::JisX0213(e) => encode_stateful(
                    e,
                    jis_x0213::Encoder::encode_char,
                    jis_x0213::Encoder::finish,
                    rest,
                    dst,
                    last,
                ),
                EncoderKind::Cesu8 => encode_chars(rest, dst, cesu8::encode_char),
                EncoderKind::Follower(f) => encode_stateful(
                    f,
                    iso_2022::Follower::encode_char,
                    iso_2022::Follower::finish,
                    rest,
                    dst,
                    last,
                ),
                EncoderKind::Utf7Follower(f) => encode_stateful(
                    f,
                    utf7::Follower::encode_char,
                    utf7::Follower::finish,
                    rest,
                    dst,
                    last,
                ),
            };
            pos += read;
            match result {
                EncoderResult::InputEmpty => break,
                // Only encoding_rs's encoders fill `dst`, reserved for the
                // worst case; more room ensures progress all the same.
                EncoderResult::OutputFull => dst.reserve(64),
                EncoderResult::Unmappable(_) => {
                    // The character just read; encoding_rs reports U+FFFD
                    // for some characters of ISO-2022-JP.
                    let Some(ch) = src[..pos].chars().next_back() else { break };
                    let offset = self.consumed + (pos - ch.len_utf8()) as u64;
                    on_unmappable(dst, Unmappable { offset, ch });
                }
            }
        }
        self.consumed += src.len() as u64;
    }
}

/// Reads a stateful encoding in [`Errors::Escape`](crate::decode::Errors::Escape)
/// mode: characters, and the bytes of switches, malformed sequences and
/// characters that would not encode back, to escape (see
/// [`Encoder::with_raw_bytes`], which writes them back).
pub(crate) enum ExactReader {
    /// ISO-2022-JP, ISO-2022-KR, HZ-GB-2312.
    Iso2022(iso_2022::ExactReader),
    /// UTF-7.
    Utf7(utf7::ExactReader),
}

impl ExactReader {
    /// The reader for `charset`, if it is stateful.
    pub(crate) fn new(charset: Charset) -> Option<ExactReader> {
        match charset.codec() {
            Codec::Utf7 => Some(ExactReader::Utf7(utf7::ExactReader::default())),
            _ => iso_2022::ExactReader::new(charset).map(ExactReader::Iso2022),
        }
    }

    /// Reads `src` (the next chunk, from stream offset `offset`; `last`
    /// ends the stream), calling `unit` for each unit in order.
    pub(crate) fn read(&mut self, src: &[u8], offset: u64, last: bool, unit: impl FnMut(Unit<'_>)) {
        match self {
            ExactReader::Iso2022(r) => r.read(src, offset, last, unit),
            ExactReader::Utf7(r) => r.read(src, offset, last, unit),
        }
    }
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::testing::{self, decode_in_chunks};
    use super::*;

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

    #[test]
    fn unmappable_offsets_are_stream_offsets() {
        for charset in [Charset::Iso2022Jp, Charset::Iso2022Kr, Charset::Ibm850, Charset::EucTw] {
            let mut encoder = charset.new_encoder();
            let mut bytes = Vec::new();
            let mut found = Vec::new();
            // U+0378 is unassigned: no encoding has it.
            for piece in ["a\u{378}", "😀", "", "\u{1}b\u{E}"] {
                encoder.encode_from_str(piece, &mut bytes, false, |_, u| found.push(u));
            }
            encoder.encode_from_str("", &mut bytes, true, |_, u| found.push(u));
            let offsets: Vec<(u64, char)> = found.iter().map(|u| (u.offset, u.ch)).collect();
            let mut expected = vec![(1, '\u{378}'), (3, '😀')];
            if !charset.is_ascii_compatible() {
                // SO would be read as a shift.
                expected.push((9, '\u{E}'));
            }
            assert_eq!(offsets, expected, "{charset}");
        }
    }

    /// Bytes that make the multi-byte codecs do something: leads, SS2,
    /// shifts, escapes, ASCII.
    fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            any::<u8>(),
            0xA1..=0xFEu8,
            0x84..=0xD3u8,
            0x21..=0x7Eu8,
            prop::sample::select(vec![0x8E, 0x0E, 0x0F, 0x1B, b'$', b')', b'C', b'\n', 0xD9, 0xE0]),
        ];
        prop::collection::vec(byte, 0..48)
    }

    fn extra_charsets() -> impl Iterator<Item = Charset> {
        Charset::ALL.iter().copied().filter(|c| !c.is_whatwg())
    }

    proptest! {
        #[test]
        fn chunked_decoding_equals_whole(
            bytes in interesting_bytes(),
            splits in prop::collection::vec(any::<usize>(), 0..6),
        ) {
            let mut splits: Vec<usize> = splits.iter().map(|s| s % (bytes.len() + 1)).collect();
            splits.sort_unstable();
            for charset in extra_charsets() {
                let whole = testing::decode_split(charset, &bytes, &[]);
                prop_assert_eq!(&testing::decode_split(charset, &bytes, &splits), &whole);
                // Every malformed byte is reported once, in order.
                let mut next = 0;
                for (offset, bad) in &whole.1 {
                    prop_assert!(*offset >= next && !bad.is_empty());
                    prop_assert_eq!(&bytes[*offset as usize..][..bad.len()], &bad[..]);
                    next = *offset + bad.len() as u64;
                }
            }
        }

        #[test]
        fn clean_decodes_encode_back(bytes in interesting_bytes()) {
            for charset in extra_charsets() {
                let (text, malformed) = charset.decode(&bytes);
                if !malformed {
                    let (encoded, unmappable) = charset.encode(&text);
                    prop_assert!(!unmappable, "{}", charset);
                    prop_assert_eq!(charset.decode(&encoded), (text.clone(), false), "{}", charset);
                }
            }
        }

        #[test]
        fn encoding_in_pieces_equals_whole(text: String, split: usize) {
            let split = text.char_indices().map(|(i, _)| i).nth(split % 8).unwrap_or(0);
            for charset in extra_charsets() {
                let whole = charset.encode(&text);
                let mut encoder = charset.new_encoder();
                let mut bytes = Vec::new();
                let mut unmappable = false;
                for (piece, last) in [(&text[..split], false), (&text[split..], true)] {
                    encoder.encode_from_str(piece, &mut bytes, last, |out, u| {
                        unmappable = true;
                        assert_eq!(text[u.offset as usize..].chars().next(), Some(u.ch));
                        charset.codec().push_reference(u.ch, out);
                    });
                }
                prop_assert_eq!((&bytes[..], unmappable), (&whole.0[..], whole.1), "{}", charset);
            }
        }
    }
}
