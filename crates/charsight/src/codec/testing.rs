//! Test helpers for the codecs: chunked decoding, malformed-sequence
//! checks, and the glibc oracles.

use std::collections::BTreeMap;

use charsight_tables::charmaps::Oracle;

use crate::Charset;

/// Text and malformed sequences (offset, bytes) of a decode.
pub(crate) type Decoded = (String, Vec<(u64, Vec<u8>)>);

/// Decodes `bytes` in chunks ending at each of `splits` (ascending offsets),
/// replacing each malformed sequence with U+FFFD.
pub(crate) fn decode_split(charset: Charset, bytes: &[u8], splits: &[usize]) -> Decoded {
    let mut decoder = charset.new_decoder();
    let mut text = String::new();
    let mut bad = Vec::new();
    let mut start = 0;
    let ends = splits.iter().copied().filter(|&s| s < bytes.len()).chain([bytes.len()]);
    for end in ends {
        let last = end == bytes.len();
        decoder.decode_to_string(&bytes[start..end.max(start)], &mut text, last, |out, m| {
            out.push('\u{FFFD}');
            bad.push((m.offset, m.bytes().to_vec()));
        });
        start = end.max(start);
    }
    (text, bad)
}

/// Checks that every character of a 94×94 set (rows and cells 0x21 to
/// 0x7E) encodes back to its own cell; the number of characters.
pub(crate) fn cells_round_trip(
    decode: fn(u8, u8) -> Option<char>,
    encode: fn(char) -> Option<(u8, u8)>,
) -> usize {
    let mut count = 0;
    for row in 0x21..=0x7E {
        for cell in 0x21..=0x7E {
            if let Some(c) = decode(row, cell) {
                count += 1;
                assert_eq!(encode(c), Some((row, cell)), "{row:#x} {cell:#x} {c}");
            }
        }
    }
    count
}

/// Decodes `bytes` in chunks of `chunk` bytes.
pub(crate) fn decode_in_chunks(charset: Charset, bytes: &[u8], chunk: usize) -> Decoded {
    let splits: Vec<usize> = (1..bytes.len()).filter(|i| i % chunk.max(1) == 0).collect();
    decode_split(charset, bytes, &splits)
}

/// Checks that one split anywhere, a split after every byte, and empty
/// chunks all decode as the whole does.
pub(crate) fn assert_every_split_agrees(charset: Charset, bytes: &[u8]) {
    let whole = decode_split(charset, bytes, &[]);
    assert_eq!(decode_in_chunks(charset, bytes, 1), whole, "{charset}: byte by byte");
    for split in 0..=bytes.len() {
        let got = decode_split(charset, bytes, &[split, split]);
        assert_eq!(got, whole, "{charset}: split at {split}");
    }
}

/// Checks that each text encodes to its bytes and the bytes decode to it,
/// cleanly.
pub(crate) fn assert_known(charset: Charset, cases: &[(&str, &[u8])]) {
    for &(text, bytes) in cases {
        assert_eq!(charset.decode(bytes), (text.into(), false), "{charset}: {text}");
        assert_eq!(charset.encode(text), (bytes.into(), false), "{charset}: {text}");
    }
}

/// Checks the text and the malformed sequences of decoding `bytes`.
pub(crate) fn assert_malformed(charset: Charset, bytes: &[u8], text: &str, bad: &[(u64, &[u8])]) {
    let expected = bad.iter().map(|&(offset, bytes)| (offset, bytes.to_vec())).collect();
    assert_eq!(decode_split(charset, bytes, &[]), (text.to_owned(), expected), "{charset}");
    assert_every_split_agrees(charset, bytes);
}

/// The one character `bytes` decode to alone, without error, if so.
pub(crate) fn decode_one(charset: Charset, bytes: &[u8]) -> Option<char> {
    let (text, malformed) = charset.decode(bytes);
    let mut chars = text.chars();
    match (malformed, chars.next(), chars.next()) {
        (false, Some(c), None) => Some(c),
        _ => None,
    }
}

/// Checks that `mappings` (bytes and character) are exactly glibc's
/// mapping summarised by `oracle` (see `charsight_tables::charmaps::Oracle`).
pub(crate) fn assert_oracle(
    name: &str,
    mappings: impl IntoIterator<Item = (Vec<u8>, char)>,
    oracle: &Oracle,
) {
    let sorted: BTreeMap<Vec<u8>, char> = mappings.into_iter().collect();
    let hash =
        testkit::mapping_fnv1a64(sorted.iter().map(|(bytes, &c)| (&bytes[..], u32::from(c))));
    assert_eq!(sorted.len(), oracle.mappings, "{name}: number of mappings");
    assert_eq!(hash, oracle.fnv1a64, "{name}: the mappings differ from glibc's");
}

/// The mappings of `charset` among `sequences`: each decoded alone.
pub(crate) fn mappings<B: AsRef<[u8]>>(
    charset: Charset,
    sequences: impl IntoIterator<Item = B>,
) -> impl Iterator<Item = (Vec<u8>, char)> {
    sequences.into_iter().filter_map(move |bytes| {
        let bytes = bytes.as_ref();
        decode_one(charset, bytes).map(|c| (bytes.to_vec(), c))
    })
}

/// A data file of the generator (`tools/gen-tables/data/charmaps/<name>`),
/// without its `#` comments.
pub(crate) fn charmaps_data(name: &str) -> Vec<String> {
    let path =
        format!("{}/../../tools/gen-tables/data/charmaps/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().filter(|l| !l.starts_with('#')).map(str::to_owned).collect()
}

/// A cell of the Python oracles: code points (hex) joined by `+`, `.` for
/// no text, `-` for an error (None).
fn python_text(cell: &str) -> Option<String> {
    match cell {
        "-" => None,
        "." => Some(String::new()),
        _ => Some(
            cell.split('+')
                .map(|hex| char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap())
                .collect(),
        ),
    }
}

/// How Python decodes each byte alone and after each of `prefixes`
/// (`python-<codec>.txt`, whose lines of errors only are left out): the
/// bytes and the text, None for an error.
pub(crate) fn python_sequences(
    codec: &str,
    prefixes: &[Vec<u8>],
) -> Vec<(Vec<u8>, Option<String>)> {
    let mut lines = BTreeMap::new();
    for line in charmaps_data(&format!("python-{codec}.txt")) {
        let (prefix, cells) = line.split_once(' ').unwrap();
        let prefix = if prefix == "." { Vec::new() } else { hex_bytes(prefix) };
        let cells: Vec<Option<String>> = cells.split(' ').map(python_text).collect();
        assert_eq!(cells.len(), 256, "{codec} {prefix:02X?}");
        lines.insert(prefix, cells);
    }
    let mut sequences = Vec::new();
    for prefix in std::iter::once(Vec::new()).chain(prefixes.iter().cloned()) {
        let cells = lines.remove(&prefix);
        for byte in 0..=u8::MAX {
            let text = cells.as_ref().and_then(|cells| cells[usize::from(byte)].clone());
            sequences.push(([&prefix[..], &[byte]].concat(), text));
        }
    }
    assert!(lines.is_empty(), "{codec}: prefixes not checked: {:02X?}", lines.keys());
    sequences
}

/// Checks that `charset` decodes every sequence of `python_sequences` as
/// Python does (text, or an error); how many sequences decode.
pub(crate) fn assert_python_sequences(
    charset: Charset,
    codec: &str,
    prefixes: &[Vec<u8>],
) -> usize {
    let mut decoded = 0;
    for (bytes, python) in python_sequences(codec, prefixes) {
        let (text, malformed) = charset.decode(&bytes);
        let ours = (!malformed).then(|| text.into_owned());
        assert_eq!(ours, python, "{charset} {bytes:02X?}");
        decoded += usize::from(python.is_some());
    }
    decoded
}

/// Random byte strings and how Python's `codec` decodes them with
/// `errors='replace'` (`python-jis-random.txt`).
pub(crate) fn python_random(codec: &str) -> Vec<(Vec<u8>, String)> {
    charmaps_data("python-jis-random.txt")
        .iter()
        .filter_map(|line| {
            let [name, bytes, text] = line.split(' ').collect::<Vec<_>>()[..] else {
                panic!("bad line {line}")
            };
            let bytes = if bytes == "." { Vec::new() } else { hex_bytes(bytes) };
            (name == codec).then(|| (bytes, python_text(text).unwrap()))
        })
        .collect()
}

pub(crate) fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}
