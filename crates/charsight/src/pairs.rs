//! Byte pairs: where the first pair of bytes a test accepts is, at vector
//! speed. The stages scan for the bytes that open what they look for (a
//! private-use character, Burmese or a symbol font's characters, a UTF-8
//! sequence inside legacy text), and most text has none.

/// Where the first byte of `bytes` is, from `from` up, that with the byte
/// after it (0 at the end) `wanted` accepts: [`CHUNK`] bytes at a time
/// (tests of them all at once run on vectors when `wanted` has no
/// short-circuit), pairs only in the chunks that have such a byte (most
/// text has none), then byte by byte in the chunk that holds the pair.
pub(crate) fn first_pair(bytes: &[u8], from: u8, wanted: impl Fn(u8, u8) -> bool) -> Option<usize> {
    let pair =
        |i: usize| bytes[i] >= from && wanted(bytes[i], bytes.get(i + 1).copied().unwrap_or(0));
    // The whole chunks whose every byte has one after it; the rest byte by byte.
    let whole = bytes.len().saturating_sub(1) / CHUNK;
    let leads = bytes[..whole * CHUNK].chunks_exact(CHUNK);
    let nexts = bytes.get(1..).unwrap_or_default().chunks_exact(CHUNK);
    for (k, (lead, next)) in leads.zip(nexts).enumerate() {
        if lead.iter().fold(0, |found, &a| found | u8::from(a >= from)) == 0 {
            continue;
        }
        let test = |found, (&a, &b)| found | u8::from((a >= from) & wanted(a, b));
        if lead.iter().zip(next).fold(0, test) != 0 {
            return (k * CHUNK..(k + 1) * CHUNK).find(|&i| pair(i));
        }
    }
    (whole * CHUNK..bytes.len()).find(|&i| pair(i))
}

/// Bytes [`first_pair`] tests at once.
const CHUNK: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_pair_is_found_in_any_chunk() {
        // A lead byte of private use in UTF-8 (`EE`), whatever follows.
        let private_use_lead = |a: u8, _: u8| a == 0xEE;
        for len in [0, 1, 63, 64, 65, 200] {
            let mut bytes = vec![b'a'; len];
            assert_eq!(first_pair(&bytes, 0xEE, private_use_lead), None);
            for at in (0..len).step_by(7).chain(len.checked_sub(1)) {
                bytes[at] = 0xEE;
                assert_eq!(first_pair(&bytes, 0xEE, private_use_lead), Some(at), "{len} {at}");
                bytes[at] = 0xED;
            }
            assert_eq!(first_pair(&bytes, 0xEE, private_use_lead), None);
            // A pair across two chunks, and one whose second byte is past the end.
            let across = |a: u8, b: u8| a == 0xEF && b == 0xA3;
            for at in [62, 63, 64].into_iter().filter(|&at| at + 1 < len) {
                bytes[at..at + 2].copy_from_slice(&[0xEF, 0xA3]);
                assert_eq!(first_pair(&bytes, 0xEF, across), Some(at), "{len} {at}");
                bytes[at..at + 2].copy_from_slice(b"aa");
            }
            let last = |a: u8, b: u8| a == b'a' && b == 0;
            assert_eq!(first_pair(&vec![b'a'; len], b'a', last), len.checked_sub(1), "{len}");
        }
    }
}
