//! Helpers shared by the integration tests.

use charsight::Charset;

/// `lines` in `charset`, but those at `pasted` in UTF-8, each ending in `\n`.
pub fn with_utf8_lines(lines: &[impl AsRef<str>], pasted: &[usize], charset: Charset) -> Vec<u8> {
    let charset = |i| if pasted.contains(&i) { Charset::Utf8 } else { charset };
    let line = |(i, l): (usize, &_)| [&charset(i).encode(l).0[..], b"\n"].concat();
    lines.iter().map(AsRef::as_ref).enumerate().flat_map(line).collect()
}
