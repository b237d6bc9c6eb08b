//! Every codec's decoder against an independent reference, and the escape
//! round trip as a property.
//!
//! - The WHATWG encodings: charsight's streaming decoder, in chunks, with
//!   its malformed-sequence reports, against `encoding_rs` decoding the
//!   bytes whole; its encoders against `encoding_rs`'s (but UTF-16, which
//!   charsight encodes to UTF-16, and `replacement`, which has none).
//! - The single-byte tables: against their source data, byte by byte:
//!   how Python decodes every byte (`tools/gen-tables/data/charmaps/python.txt`)
//!   where Python has the codec, else the glibc charmap the table was
//!   generated from (`tools/gen-tables/data/charmaps/NAME.txt`).
//! - UTF-32: against `char::from_u32` on each four-byte unit.
//! - Every charset but `replacement` (the stateful ISO-2022-JP/KR/CN/CN-EXT,
//!   HZ-GB-2312 and UTF-7 too, CESU-8, and EUC-JIS-2004 and Shift_JIS-2004,
//!   whose encoders compose a letter and a combining mark into one code):
//!   decoding with `Errors::Escape` and restoring gives the bytes back
//!   (unless a Unicode input held characters of the escape range).
#![no_main]

use std::collections::HashMap;
use std::sync::OnceLock;

use charsight::decode::{restore, Errors, TextDecoder};
use charsight::{label, Charset};
use libfuzzer_sys::fuzz_target;

/// What each byte decodes to (`None`: malformed), by charset.
type Tables = HashMap<Charset, [Option<char>; 256]>;

const CHARMAPS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/gen-tables/data/charmaps");

/// The reference tables: Python's decoding, else the glibc charmap's.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = Tables::new();
        let python = std::fs::read_to_string(format!("{CHARMAPS}/python.txt")).unwrap();
        for line in python.lines().filter(|l| !l.starts_with('#')) {
            let (codec, cells) = line.split_once(' ').unwrap();
            let mut table = [None; 256];
            for (slot, cell) in table.iter_mut().zip(cells.split(' ')) {
                *slot = u32::from_str_radix(cell, 16).ok().and_then(char::from_u32);
            }
            tables.insert(label::resolve(codec.as_bytes()).unwrap(), table);
        }
        for entry in std::fs::read_dir(CHARMAPS).unwrap() {
            let path = entry.unwrap().path();
            let Some(name) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            let Ok(charset) = label::resolve(name.as_bytes()) else { continue };
            if !charset.is_single_byte() || charset.is_whatwg() || tables.contains_key(&charset) {
                continue;
            }
            // `byte code-point` for bytes 80-FF and the bytes below 80 that
            // are not ASCII; a byte above 7F not listed has no character.
            let mut table: [Option<char>; 256] =
                std::array::from_fn(|b| (b < 0x80).then(|| char::from(b as u8)));
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let (byte, cell) = line.split_once(' ').unwrap();
                let byte = usize::from_str_radix(byte, 16).unwrap();
                table[byte] = u32::from_str_radix(cell, 16).ok().and_then(char::from_u32);
            }
            tables.insert(charset, table);
        }
        tables
    })
}

/// charsight's streaming decode in chunks of `chunk`, U+FFFD for each
/// malformed sequence.
fn decode(charset: Charset, bytes: &[u8], chunk: usize) -> String {
    let mut decoder = charset.new_decoder();
    let mut text = String::new();
    let mut chunks = bytes.chunks(chunk).peekable();
    if bytes.is_empty() {
        decoder.decode_to_string(b"", &mut text, true, |_, _| {});
    }
    while let Some(piece) = chunks.next() {
        decoder.decode_to_string(piece, &mut text, chunks.peek().is_none(), |out, _| {
            out.push('\u{FFFD}')
        });
    }
    text
}

/// The reference decode of `bytes`, if there is one for `charset`.
fn reference(charset: Charset, bytes: &[u8]) -> Option<String> {
    if let Some(encoding) = charset.to_encoding_rs() {
        return Some(encoding.decode_without_bom_handling(bytes).0.into_owned());
    }
    if let Some(table) = tables().get(&charset) {
        return Some(bytes.iter().map(|&b| table[usize::from(b)].unwrap_or('\u{FFFD}')).collect());
    }
    let big_endian = match charset {
        Charset::Utf32Le => false,
        Charset::Utf32Be => true,
        _ => return None,
    };
    let units = bytes.chunks_exact(4);
    let partial = !units.remainder().is_empty();
    let mut text: String = units
        .map(|u| {
            let unit = <[u8; 4]>::try_from(u).unwrap();
            let unit = if big_endian { u32::from_be_bytes(unit) } else { u32::from_le_bytes(unit) };
            char::from_u32(unit).unwrap_or('\u{FFFD}')
        })
        .collect();
    if partial {
        text.push('\u{FFFD}');
    }
    Some(text)
}

fuzz_target!(|data: &[u8]| {
    // First byte: the charset; second: the chunk size; the rest: the bytes.
    let Some((&[which, chunk], bytes)) = data.split_first_chunk::<2>() else { return };
    let charset = Charset::ALL[usize::from(which) % Charset::ALL.len()];
    let chunk = usize::from(chunk % 16) + 1;

    let ours = decode(charset, bytes, chunk);
    if let Some(expected) = reference(charset, bytes) {
        assert_eq!(ours, expected, "{charset}: decoded in chunks of {chunk}");
    }
    let encoding = charset.to_encoding_rs().filter(|e| e.output_encoding() == *e);
    if let Some(encoding) = encoding.filter(|_| charset != Charset::Replacement) {
        // The text, and characters no legacy encoding has, in pieces.
        let text = format!("{ours}\u{378}😀");
        let (expected, _, unmappable) = encoding.encode(&text);
        let mut encoder = charset.new_encoder();
        let (mut bytes, mut missing) = (Vec::new(), false);
        let mut pieces = text.char_indices().map(|(i, _)| i).step_by(chunk).peekable();
        while let Some(start) = pieces.next() {
            let end = pieces.peek().copied().unwrap_or(text.len());
            encoder.encode_from_str(&text[start..end], &mut bytes, end == text.len(), |out, u| {
                missing = true;
                out.extend_from_slice(format!("&#{};", u32::from(u.ch)).as_bytes());
            });
        }
        assert_eq!((&bytes[..], missing), (&expected[..], unmappable), "{charset}: encoded");
    }

    if charset == Charset::Replacement {
        return;
    }
    let mut decoder = TextDecoder::new(charset, Errors::Escape);
    let mut text = String::new();
    for piece in bytes.chunks(chunk) {
        decoder.decode(piece, false, &mut text).unwrap();
    }
    decoder.decode(b"", true, &mut text).unwrap();
    if decoder.escape_collisions() == 0 {
        assert_eq!(restore(&text, charset), bytes, "{charset}: escaped in chunks of {chunk}");
    }
});
