//! Percent-decoding of one URL component into the bytes to detect, keeping
//! where each byte came from so the component can be rewritten exactly.
//!
//! Input: the component's bytes as they stand in the URL (raw bytes, `%XX`
//! escapes, `+`). Output: [`Unescaped`]: the decoded bytes, for each the
//! span of input it came from, and what was odd about the input (malformed
//! escapes, raw and escaped non-ASCII bytes mixed).

/// One decoded byte's origin in the component's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The byte stood as itself.
    Raw,
    /// The byte was a `%XX` escape (three input bytes).
    Escaped,
    /// A `+` in a query, read as a space.
    Plus,
}

impl Origin {
    /// How many input bytes the decoded byte took.
    pub(crate) fn input_len(self) -> usize {
        match self {
            Origin::Escaped => 3,
            Origin::Raw | Origin::Plus => 1,
        }
    }
}

/// A component's decoded bytes and their origins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unescaped {
    /// The bytes after percent-decoding (and `+` to space in queries).
    pub bytes: Vec<u8>,
    /// For each byte of `bytes`, where it came from.
    pub origins: Vec<Origin>,
    /// Offsets (in the component's input) of `%` signs not followed by two
    /// hex digits; each stays a literal `%`.
    pub bad_escapes: Vec<usize>,
    /// Whether some non-ASCII bytes stood raw and others were escaped.
    pub mixed: bool,
}

/// Whether `input` may have anything for [`unescape`] to decode: a
/// non-ASCII byte, raw or escaped (`%8`–`%F` followed by anything). False
/// means the component is pure ASCII and stays as it is.
pub(crate) fn may_have_non_ascii(input: &[u8]) -> bool {
    if !input.is_ascii() {
        return true;
    }
    memchr::memchr_iter(b'%', input)
        .any(|i| matches!(input.get(i + 1), Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')))
}

fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Percent-decodes a component. `plus_is_space` is true in queries
/// (`application/x-www-form-urlencoded`).
pub(crate) fn unescape(input: &[u8], plus_is_space: bool) -> Unescaped {
    let mut out = Unescaped {
        bytes: Vec::with_capacity(input.len()),
        origins: Vec::with_capacity(input.len()),
        ..Unescaped::default()
    };
    let (mut raw_high, mut escaped_high) = (false, false);
    let mut i = 0;
    while i < input.len() {
        let byte = input[i];
        let escape = match (byte, input.get(i + 1..i + 3)) {
            (b'%', Some(&[h, l])) => hex(h).zip(hex(l)).map(|(h, l)| h << 4 | l),
            _ => None,
        };
        let (decoded, origin) = match escape {
            Some(decoded) => (decoded, Origin::Escaped),
            None if byte == b'+' && plus_is_space => (b' ', Origin::Plus),
            None => {
                if byte == b'%' {
                    out.bad_escapes.push(i);
                }
                (byte, Origin::Raw)
            }
        };
        if decoded >= 0x80 {
            raw_high |= origin == Origin::Raw;
            escaped_high |= origin == Origin::Escaped;
        }
        out.bytes.push(decoded);
        out.origins.push(origin);
        i += origin.input_len();
    }
    out.mixed = raw_high && escaped_high;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_raw_bytes_and_plus() {
        let u = unescape(b"a%E4%b8+\xAD%41", true);
        assert_eq!(u.bytes, b"a\xE4\xB8 \xAD\x41");
        use Origin::*;
        assert_eq!(u.origins, [Raw, Escaped, Escaped, Plus, Raw, Escaped]);
        assert!(u.mixed);
        assert!(u.bad_escapes.is_empty());
    }

    #[test]
    fn plus_outside_queries_is_a_plus() {
        assert_eq!(unescape(b"a+b", false).bytes, b"a+b");
    }

    #[test]
    fn malformed_escapes_stay_literal() {
        for (input, bad) in
            [(&b"%G1"[..], vec![0]), (b"x%", vec![1]), (b"%4", vec![0]), (b"%%41", vec![0])]
        {
            let u = unescape(input, false);
            assert_eq!(u.bad_escapes, bad, "{input:?}");
            assert_eq!(u.bytes.len(), u.origins.len());
        }
        assert_eq!(unescape(b"%%41", false).bytes, b"%A");
        assert_eq!(unescape(b"%G1", false).bytes, b"%G1");
    }

    #[test]
    fn truncated_escape_at_the_end() {
        let u = unescape(b"%E4%B", false);
        assert_eq!(u.bytes, b"\xE4%B");
        assert_eq!(u.bad_escapes, [3]);
        assert!(!u.mixed);
    }

    #[test]
    fn non_ascii_is_found_raw_or_escaped() {
        assert!(may_have_non_ascii(b"/a\xE4"));
        assert!(may_have_non_ascii(b"/a%e4"));
        assert!(may_have_non_ascii(b"/a%8"));
        assert!(!may_have_non_ascii(b"/a%20%7E?q=x%"));
    }
}
