//! Streaming UTF-8 validation with `simdutf8`, across chunk boundaries.

/// Whether the bytes fed so far are valid UTF-8. Stops examining bytes once
/// they are invalid. A sequence cut by the end of the bytes is not held
/// against them: a truncated file is still UTF-8.
#[derive(Clone, Debug, Default)]
pub(super) struct Validator {
    invalid: bool,
    truncated: bool,
    /// The start of a sequence cut by the end of the previous chunk.
    carry: [u8; 4],
    carry_len: usize,
}

impl Validator {
    pub(super) fn feed(&mut self, mut chunk: &[u8], last: bool) {
        if self.invalid {
            return;
        }
        if self.carry_len > 0 {
            // Complete the cut sequence with bytes from this chunk.
            let need = (sequence_len(self.carry[0]) - self.carry_len).min(chunk.len());
            self.carry[self.carry_len..self.carry_len + need].copy_from_slice(&chunk[..need]);
            self.carry_len += need;
            chunk = &chunk[need..];
            match std::str::from_utf8(&self.carry[..self.carry_len]) {
                Ok(_) => self.carry_len = 0,
                Err(e) if e.error_len().is_none() => {
                    // Still incomplete.
                    self.truncated = last;
                    return;
                }
                Err(_) => {
                    self.invalid = true;
                    return;
                }
            }
        }
        match simdutf8::compat::from_utf8(chunk) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                let tail = &chunk[e.valid_up_to()..];
                self.carry[..tail.len()].copy_from_slice(tail);
                self.carry_len = tail.len();
                self.truncated = last;
            }
            Err(_) => self.invalid = true,
        }
    }

    pub(super) fn is_valid(&self) -> bool {
        !self.invalid
    }

    /// Whether the bytes ended inside a sequence (with `last` given).
    pub(super) fn is_truncated(&self) -> bool {
        self.truncated
    }
}

/// The valid stretches of `bytes` as UTF-8 and the malformed sequence after
/// each, exactly as [`<[u8]>::utf8_chunks`] delimits them, but the first
/// valid stretch found by `simdutf8`: a document in UTF-8 is one stretch,
/// validated many times faster than the standard library's chunker, which
/// looks at every byte alone; after a malformed sequence the rest is
/// chunked by the standard library, which is the faster where malformed
/// sequences are dense (legacy text read as UTF-8).
pub(crate) fn chunks(bytes: &[u8]) -> impl Iterator<Item = (&str, &[u8])> {
    let (valid, invalid, rest) = match simdutf8::compat::from_utf8(bytes) {
        Ok(text) => (text, &[][..], &[][..]),
        Err(e) => {
            let (valid, rest) = bytes.split_at(e.valid_up_to());
            // The malformed sequence, or the rest when it is cut short.
            let (invalid, rest) = rest.split_at(e.error_len().unwrap_or(rest.len()));
            // Valid, as found: a second pass of simdutf8 gives it as text.
            (simdutf8::basic::from_utf8(valid).unwrap_or_default(), invalid, rest)
        }
    };
    let first = (!bytes.is_empty()).then_some((valid, invalid));
    first.into_iter().chain(rest.utf8_chunks().map(|chunk| (chunk.valid(), chunk.invalid())))
}

/// The length of the sequence a lead byte starts (1 for anything invalid,
/// so that validation reports it).
pub(crate) fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn chunked(bytes: &[u8], sizes: &[usize]) -> (bool, bool) {
        let mut v = Validator::default();
        let mut rest = bytes;
        for &size in sizes.iter().cycle() {
            let n = size.min(rest.len());
            let (chunk, tail) = rest.split_at(n);
            rest = tail;
            v.feed(chunk, rest.is_empty());
            if rest.is_empty() {
                break;
            }
        }
        if bytes.is_empty() {
            v.feed(b"", true);
        }
        (v.is_valid(), v.truncated)
    }

    #[test]
    fn cut_sequences() {
        let text = "a€😀b".as_bytes();
        for size in 1..text.len() {
            assert_eq!(chunked(text, &[size]), (true, false), "size {size}");
        }
        // Cut by the end: valid, truncated.
        assert_eq!(chunked(b"ab\xE2\x82", &[3]), (true, true));
        assert_eq!(chunked(b"ab\xE2\x82", &[1]), (true, true));
        assert_eq!(chunked(b"ab\xE2\x82c", &[1]), (false, false));
        assert_eq!(chunked(b"abc", &[1]), (true, false));
    }

    proptest! {
        #[test]
        fn chunks_as_the_standard_library_delimits_them(bytes: Vec<u8>, text: String, at in 0usize..64) {
            // Text with bytes of any kind in it, so that valid stretches are long.
            let mut mixed = text.into_bytes();
            mixed.splice(at.min(mixed.len())..at.min(mixed.len()), bytes.iter().copied());
            for bytes in [&bytes, &mixed] {
                let ours: Vec<_> = chunks(bytes).collect();
                let std: Vec<_> = bytes.utf8_chunks().map(|c| (c.valid(), c.invalid())).collect();
                prop_assert_eq!(ours, std);
            }
        }

        #[test]
        fn any_chunking_agrees_with_std(bytes: Vec<u8>, sizes in proptest::collection::vec(1usize..9, 1..5)) {
            let (valid, truncated) = chunked(&bytes, &sizes);
            let std = std::str::from_utf8(&bytes);
            prop_assert_eq!(valid && !truncated, std.is_ok());
            prop_assert_eq!(valid, std.map_or_else(|e| e.error_len().is_none(), |_| true));
        }

        #[test]
        fn valid_text_in_any_chunking(text: String, sizes in proptest::collection::vec(1usize..9, 1..5)) {
            prop_assert_eq!(chunked(text.as_bytes(), &sizes), (true, false));
        }
    }
}
