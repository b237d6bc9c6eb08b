//! Every charset outside the Encoding Standard decodes arbitrary bytes the
//! same whole and in chunks (text and malformed sequences), reports each
//! malformed byte once and in order, and text that decoded cleanly encodes
//! without unmappable characters back to text that decodes the same.
#![no_main]

use charsight::Charset;
use libfuzzer_sys::fuzz_target;

/// Decodes `bytes` in chunks of `chunk` bytes: the text (malformed
/// sequences replaced) and each malformed sequence's offset and bytes.
fn decode(charset: Charset, bytes: &[u8], chunk: usize) -> (String, Vec<(u64, Vec<u8>)>) {
    let mut decoder = charset.new_decoder();
    let mut text = String::new();
    let mut bad = Vec::new();
    let mut chunks = bytes.chunks(chunk).peekable();
    if bytes.is_empty() {
        decoder.decode_to_string(b"", &mut text, true, |_, _| {});
    }
    while let Some(piece) = chunks.next() {
        decoder.decode_to_string(piece, &mut text, chunks.peek().is_none(), |out, m| {
            out.push('\u{FFFD}');
            bad.push((m.offset, m.bytes().to_vec()));
        });
    }
    (text, bad)
}

fuzz_target!(|data: &[u8]| {
    // First byte: which charset and the chunk size; the rest: the bytes.
    let Some((&selector, bytes)) = data.split_first() else { return };
    let extra: Vec<Charset> = Charset::ALL.iter().copied().filter(|c| !c.is_whatwg()).collect();
    let charset = extra[usize::from(selector) % extra.len()];
    let chunk = usize::from(selector / 32) + 1;

    let whole = decode(charset, bytes, bytes.len().max(1));
    assert_eq!(decode(charset, bytes, chunk), whole, "{charset}: chunks of {chunk}");
    assert_eq!(charset.decode(bytes), (whole.0.as_str().into(), !whole.1.is_empty()));
    let mut next = 0;
    for (offset, bad) in &whole.1 {
        assert!(*offset >= next && !bad.is_empty(), "{charset}: {:?}", whole.1);
        assert_eq!(&bytes[*offset as usize..][..bad.len()], &bad[..]);
        next = offset + bad.len() as u64;
    }
    if whole.1.is_empty() {
        let (encoded, unmappable) = charset.encode(&whole.0);
        assert!(!unmappable, "{charset}: {:?}", whole.0);
        assert_eq!(charset.decode(&encoded), (whole.0.as_str().into(), false), "{charset}");
    }
});
