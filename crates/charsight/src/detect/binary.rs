//! Stage 2, beside the readings: whether the bytes are text at all.
//!
//! Input: the first [`PREFIX`] bytes of the stream ([`Prefix`]). Output: a
//! [`Verdict`]: whether the bytes are not text (binary), whether they are
//! EBCDIC text (which no reading decodes), and which UTF-16 and UTF-32
//! forms they have the structure of. The readings' language models rank
//! encodings for text; they cannot tell that there is none, and a UTF-16
//! reading of random bytes (thousands of rare ideographs) or of EBCDIC
//! text (Hangul and CJK syllables) can still be their best. The verdict
//! vetoes such readings; the policy stays in [`super::Detector::guess`].
//!
//! Evidence, in order:
//!
//! 1. EBCDIC text: space `0x40` among the three commonest bytes and at
//!    least 8% of them, and below it (but for one byte in a hundred) only
//!    EBCDIC's line and tab controls (`0x05`, `0x0D`, `0x15`, `0x25`)
//!    ([`ebcdic`]).
//! 2. UTF-16 and UTF-32 without a byte order mark: the prefix decodes
//!    without a malformed unit or NUL, to characters that are text
//!    (letters, marks, digits, punctuation, symbols, spaces; at most one in
//!    a hundred controls, private-use, unassigned or noncharacters), in few
//!    256-character blocks or with words that repeat, and, when the prefix
//!    is the whole input and holds no zero byte, in whole code units
//!    ([`wide_structure`]).
//! 3. Binary: a file signature ([`signature`], from the
//!    [MIME Sniffing](https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern)
//!    image, audio/video, font and archive pattern tables and the `file`
//!    command's magic database), corroborated by a binary data byte when
//!    the pattern is printable (`%PDF-`, `OTTO`); else NULs, or one byte in
//!    twenty a control that text does not hold, or bytes spread over the
//!    byte values as random (compressed, encrypted) data is, with binary
//!    data bytes among them ([`random_like`]). None of this counts when
//!    the bytes have the structure of a wide form, whose NULs are its
//!    characters' zero bytes.

use crate::classify::{class, Class};

use crate::Charset;

/// How many leading bytes the verdict is made on.
pub(super) const PREFIX: usize = 16 * 1024;

/// The first [`PREFIX`] bytes of the stream, however they were chunked.
#[derive(Clone, Debug, Default)]
pub(super) struct Prefix {
    bytes: Vec<u8>,
    /// Bytes fed that did not fit.
    cut: bool,
}

impl Prefix {
    /// Keeps the bytes of `chunk` that still fit.
    pub fn feed(&mut self, chunk: &[u8]) {
        let room = PREFIX.saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.cut |= chunk.len() > room;
    }

    /// The bytes kept.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The verdict on the bytes kept; `ended` says the bytes fed are the
    /// whole input.
    pub fn verdict(&self, ended: bool) -> Verdict {
        verdict(&self.bytes, ended && !self.cut)
    }
}

/// EBCDIC text, which charsight recognises but does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ebcdic {
    /// Latin letters in their EBCDIC places (`a`–`i` at `0x81`–`0x89`,
    /// `A`–`I` at `0xC1`–`0xC9`, …): IBM037, IBM500, IBM1026, IBM1047 and
    /// their national variants.
    Latin,
    /// Space and digits in their EBCDIC places, letters elsewhere: IBM875
    /// (Greek), IBM424 (Hebrew) and the like.
    National,
}

impl Ebcdic {
    /// The family's name in reports.
    ///
    /// # Example
    /// ```
    /// use charsight::detect::Ebcdic;
    /// assert_eq!(Ebcdic::Latin.name(), "EBCDIC (IBM037/IBM500 family)");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Ebcdic::Latin => "EBCDIC (IBM037/IBM500 family)",
            Ebcdic::National => "EBCDIC (national variant, such as IBM875 or IBM424)",
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Ebcdic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What the prefix is, apart from the readings' scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Verdict {
    /// The bytes are not text: a file signature, NULs, or bytes spread like
    /// random data.
    pub binary: bool,
    /// More than one byte in twenty is a control that text does not hold
    /// ([`super::looks_binary`]): binary, unless the readings find text
    /// around them (see [`super::Detector::guess`]).
    pub controls: bool,
    /// The bytes are EBCDIC text.
    pub ebcdic: Option<Ebcdic>,
    /// The bytes have the structure of UTF-16LE, UTF-16BE, UTF-32LE,
    /// UTF-32BE text, in that order ([`WIDE`]).
    pub wide: [bool; 4],
}

/// The wide forms, in the order of [`Verdict::wide`].
const WIDE: [Charset; 4] = [Charset::Utf16Le, Charset::Utf16Be, Charset::Utf32Le, Charset::Utf32Be];

impl Verdict {
    /// Whether `charset` may be the bytes' encoding: a wide form only when
    /// the bytes have its structure, nothing for EBCDIC text or binary data
    /// but what the readings say.
    pub fn allows(&self, charset: Charset) -> bool {
        WIDE.iter().position(|&c| c == charset).is_none_or(|i| self.wide[i])
    }
}

/// The verdict on `bytes`, the whole input if `entire` (see the module
/// docs for the order).
fn verdict(bytes: &[u8], entire: bool) -> Verdict {
    let counts = byte_counts(bytes);
    let ebcdic = ebcdic(&counts, bytes.len());
    let wide = match ebcdic {
        Some(_) => [false; 4],
        None => WIDE.map(|c| wide_structure(bytes, c, entire)),
    };
    let text_like = ebcdic.is_none() && !wide.contains(&true);
    let binary = text_like
        && (signature(bytes).is_some() || counts[0] > 0 || random_like(&counts, bytes.len()));
    let controls = text_like && many_controls(&counts, bytes.len());
    Verdict { binary, controls, ebcdic, wide }
}

/// How often each byte value occurs in `bytes`.
fn byte_counts(bytes: &[u8]) -> [u32; 256] {
    let mut counts = [0u32; 256];
    bytes.iter().for_each(|&b| counts[usize::from(b)] += 1);
    counts
}

/// A binary data byte ([MIME Sniffing](https://mimesniff.spec.whatwg.org/#binary-data-byte)):
/// 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F.
fn is_binary_data_byte(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// Whether more than one byte in twenty is a control that text does not
/// hold ([`super::looks_binary`]).
fn many_controls(counts: &[u32; 256], len: usize) -> bool {
    let controls: u64 = (0..=255u8)
        .filter(|&b| super::is_binary_control(b))
        .map(|b| u64::from(counts[usize::from(b)]))
        .sum();
    super::looks_binary(controls, len as u64)
}

/// Whether the byte values are spread as random (compressed, encrypted)
/// data's are: at least [`RANDOM_MIN`] bytes, one in fifty of them binary
/// data bytes, a quarter of them or more above 0x7F (random data's half,
/// less the chance of a few bytes), as many distinct values as nearly
/// [`RANDOM_SHARE`] of what uniform random bytes would show, and an entropy
/// within [`RANDOM_BITS`] of theirs. Text in a single-byte encoding uses an
/// alphabet of at most a hundred or so values; double-byte text (GBK, Big5)
/// spreads wider but stays near 7 bits per byte, and has no binary data
/// bytes. (A few dozen bytes of any text show nearly as many distinct
/// values as random ones: 41 bytes of a seven-bit ISO-2022-CN page, with
/// its shifts, were binary.)
fn random_like(counts: &[u32; 256], len: usize) -> bool {
    if len < RANDOM_MIN {
        return false;
    }
    let high: u32 = counts[0x80..].iter().sum();
    if (high as usize) * 4 < len {
        return false;
    }
    let data: u32 =
        (0..=255u8).filter(|&b| is_binary_data_byte(b)).map(|b| counts[usize::from(b)]).sum();
    if (data as usize) * 50 < len {
        return false;
    }
    let n = len as f64;
    // Distinct values expected of `n` uniform random bytes.
    let expected = 256.0 * (1.0 - (1.0 - 1.0 / 256.0f64).powf(n));
    let distinct = counts.iter().filter(|&&c| c > 0).count() as f64;
    let entropy: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum();
    distinct >= RANDOM_SHARE * expected && entropy >= expected.log2() - RANDOM_BITS
}

/// The fewest bytes [`random_like`] judges.
const RANDOM_MIN: usize = 32;
/// The share of random data's distinct byte values that [`random_like`] needs.
const RANDOM_SHARE: f64 = 0.7;
/// How far below random data's entropy (in bits per byte) [`random_like`] goes.
const RANDOM_BITS: f64 = 0.6;

/// A file signature: its format, the bytes at its offset (`None` for any
/// byte), and the offset.
struct Signature {
    format: &'static str,
    at: usize,
    pattern: &'static [Option<u8>],
}

/// Builds a pattern from a byte string; `?` stands for any byte (no
/// pattern below has a literal `?`).
const fn pattern<const N: usize>(bytes: &[u8; N]) -> [Option<u8>; N] {
    let mut out = [None; N];
    let mut i = 0;
    while i < N {
        if bytes[i] != b'?' {
            out[i] = Some(bytes[i]);
        }
        i += 1;
    }
    out
}

macro_rules! signatures {
    ($($format:literal $at:literal $bytes:literal,)*) => {
        &[$(Signature { format: $format, at: $at, pattern: &pattern($bytes) },)*]
    };
}

/// File signatures of binary formats. Images, audio and video, fonts and
/// archives as MIME Sniffing's pattern tables have them
/// (<https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern>
/// and the sections after it); executables, office, database and other
/// formats from the `file` command's magic database (`magic/Magdir/elf`,
/// `msdos`, `mach`, `cafebabe`, `python`, `ole2compounddocs`, `sqlite`,
/// `compress`, `archive`, `zip`, `webassembly`).
const SIGNATURES: &[Signature] = signatures![
    // Images.
    "GIF" 0 b"GIF87a",
    "GIF" 0 b"GIF89a",
    "PNG" 0 b"\x89PNG\r\n\x1a\n",
    "JPEG" 0 b"\xff\xd8\xff",
    "WebP" 0 b"RIFF????WEBPVP",
    "ICO" 0 b"\x00\x00\x01\x00",
    "CUR" 0 b"\x00\x00\x02\x00",
    "TIFF" 0 b"II*\x00",
    "TIFF" 0 b"MM\x00*",
    // Audio and video.
    "MP3" 0 b"ID3",
    "MP3" 0 b"\xff\xfb",
    "MP3" 0 b"\xff\xf3",
    "MP3" 0 b"\xff\xf2",
    "Ogg" 0 b"OggS\x00",
    "WAV" 0 b"RIFF????WAVE",
    "AVI" 0 b"RIFF????AVI ",
    "AIFF" 0 b"FORM????AIFF",
    "MIDI" 0 b"MThd\x00\x00\x00\x06",
    "FLAC" 0 b"fLaC",
    "MP4" 4 b"ftyp",
    "WebM" 0 b"\x1a\x45\xdf\xa3",
    // Fonts.
    "TrueType" 0 b"\x00\x01\x00\x00",
    "OpenType" 0 b"OTTO",
    "TrueType collection" 0 b"ttcf",
    "WOFF" 0 b"wOFF",
    "WOFF2" 0 b"wOF2",
    // Compressed data and archives.
    "gzip" 0 b"\x1f\x8b\x08",
    "zlib" 0 b"\x78\x01",
    "zlib" 0 b"\x78\x9c",
    "zlib" 0 b"\x78\xda",
    "bzip2" 0 b"BZh?1AY&SY",
    "xz" 0 b"\xfd7zXZ\x00",
    "zstd" 0 b"\x28\xb5\x2f\xfd",
    "LZ4" 0 b"\x04\x22\x4d\x18",
    "compress" 0 b"\x1f\x9d",
    "7-Zip" 0 b"7z\xbc\xaf\x27\x1c",
    "RAR" 0 b"Rar!\x1a\x07",
    "zip" 0 b"PK\x03\x04",
    "zip" 0 b"PK\x05\x06",
    "zip" 0 b"PK\x07\x08",
    "tar" 257 b"ustar",
    // Executables and bytecode.
    "ELF" 0 b"\x7fELF",
    "Mach-O" 0 b"\xfe\xed\xfa\xce",
    "Mach-O" 0 b"\xfe\xed\xfa\xcf",
    "Mach-O" 0 b"\xce\xfa\xed\xfe",
    "Mach-O" 0 b"\xcf\xfa\xed\xfe",
    "Java class or Mach-O universal" 0 b"\xca\xfe\xba\xbe",
    "WebAssembly" 0 b"\x00asm",
    "Dalvik" 0 b"dex\n",
    // Documents and databases.
    "PDF" 0 b"%PDF-",
    "OLE2 compound file" 0 b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
    "SQLite" 0 b"SQLite format 3\x00",
];

/// The format of the file signature `bytes` start with, when the
/// signature is corroborated: its pattern holds a binary data byte, or
/// the bytes do (a printable signature such as `%PDF-` or `OTTO` alone
/// does not make text binary). Besides the table, an MZ executable with
/// its `PE` header, and compiled Python (`.pyc`).
pub(super) fn signature(bytes: &[u8]) -> Option<&'static str> {
    let matches = |s: &Signature| {
        bytes
            .get(s.at..s.at + s.pattern.len())
            .is_some_and(|b| b.iter().zip(s.pattern).all(|(&b, p)| p.is_none_or(|p| p == b)))
    };
    let holds_data = || bytes.iter().any(|&b| is_binary_data_byte(b));
    let found = SIGNATURES.iter().find(|s| matches(s)).map(|s| {
        let binary_pattern = s.pattern.iter().flatten().any(|&b| is_binary_data_byte(b));
        (s.format, binary_pattern)
    });
    let found = found.or_else(|| {
        // An MZ header's `e_lfanew` (at 0x3C) points at the PE header.
        let pe = bytes.get(0x3C..0x40).map(|o| u32::from_le_bytes([o[0], o[1], o[2], o[3]]));
        let pe = pe.and_then(|o| bytes.get(o as usize..o as usize + 4));
        (bytes.starts_with(b"MZ") && pe == Some(b"PE\x00\x00")).then_some(("PE", true))
    });
    let found = found.or_else(|| {
        // Python 3 bytecode: a two-byte version magic number, then CR LF.
        let magic = bytes.get(..4).map(|m| (u16::from_le_bytes([m[0], m[1]]), &m[2..]));
        magic
            .is_some_and(|(version, crlf)| (3000..4000).contains(&version) && crlf == b"\r\n")
            .then_some(("Python bytecode", false))
    });
    found.and_then(|(format, binary_pattern)| (binary_pattern || holds_data()).then_some(format))
}

/// EBCDIC text: see the module docs. Of the bytes other than space, the
/// Latin letters' places hold most in Latin EBCDIC text.
fn ebcdic(counts: &[u32; 256], len: usize) -> Option<Ebcdic> {
    if len < EBCDIC_MIN {
        return None;
    }
    let space = counts[0x40] as usize;
    if space * 100 < len * 8 {
        return None;
    }
    // Space is among the three commonest bytes (`e` and `a` may outnumber
    // it): fewer than three byte values are commoner.
    let commoner = counts.iter().filter(|&&n| n as usize > space).count();
    let sum = |range: &mut dyn Iterator<Item = usize>| -> usize {
        range.map(|b| counts[b] as usize).sum()
    };
    let line_controls = sum(&mut [0x05, 0x0D, 0x15, 0x25].into_iter());
    let low = sum(&mut (0..0x40)) - line_controls;
    if commoner >= 3 || low * 100 > len {
        return None;
    }
    let latin =
        sum(&mut [0x81..=0x89, 0x91..=0x99, 0xA2..=0xA9, 0xC1..=0xC9, 0xD1..=0xD9, 0xE2..=0xE9]
            .into_iter()
            .flatten());
    let others = len - space - line_controls;
    Some(if latin * 2 >= others { Ebcdic::Latin } else { Ebcdic::National })
}

/// The fewest bytes [`ebcdic`] judges.
const EBCDIC_MIN: usize = 16;

/// Whether `bytes` have the structure of text in the wide form `charset`
/// (see the module docs); `entire`: they are the whole input.
fn wide_structure(bytes: &[u8], charset: Charset, entire: bool) -> bool {
    let unit = if matches!(charset, Charset::Utf16Le | Charset::Utf16Be) { 2 } else { 4 };
    // Text of the form is whole code units. An input cut short keeps its
    // zero bytes (ASCII, Latin letters) as evidence; without one, the
    // characters' plausibility is all there is, and a length that is no
    // number of units says the bytes are something else (23 bytes of Big5
    // read as eleven ideographs and a Gujarati letter).
    if entire && !bytes.len().is_multiple_of(unit) && memchr::memchr(0, bytes).is_none() {
        return false;
    }
    let mut whole = &bytes[..bytes.len() / unit * unit];
    if unit == 2 {
        // A high surrogate cut from its low one by the end of the prefix.
        if let Some(last) = whole.rchunks(2).next() {
            let value = match charset {
                Charset::Utf16Le => u16::from_le_bytes([last[0], last[1]]),
                _ => u16::from_be_bytes([last[0], last[1]]),
            };
            if (0xD800..0xDC00).contains(&value) {
                whole = &whole[..whole.len() - 2];
            }
        }
    }
    // Each condition on the characters is a pass of its own over them, in
    // order of cost, decoded anew each time: no copy of them is kept.
    let chars = || wide_chars(whole, charset);
    // A unit each at most (a surrogate pair is two).
    let most = whole.len() / unit;
    let (mut len, mut odd) = (0, 0);
    for c in chars() {
        match c {
            None | Some('\0') => return false,
            Some(c) if !is_text_char(c) => {
                odd += 1;
                // Too many, however few characters the units make.
                if odd * 100 > most {
                    return false;
                }
            }
            Some(_) => {}
        }
        len += 1;
    }
    if len == 0 || odd * 100 > len {
        return false;
    }
    if len < WIDE_JUDGED {
        return true;
    }
    // Few blocks of 256 characters (one or two scripts and ASCII), or
    // characters that repeat as words do. The ideographs and the Hangul
    // syllables, thousands of characters each, count as one block each: a
    // short Chinese text has few repeats and spreads over dozens of blocks.
    let block = |c: char| match c {
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' => 0x4E,
        '\u{AC00}'..='\u{D7A3}' => 0xAC,
        c => c as usize >> 8,
    };
    let mut blocks = [0u32; 0x1100];
    chars().flatten().for_each(|c| blocks[block(c)] += 1);
    let mut top = [0u32; 4];
    for &count in &blocks {
        if count > top[3] {
            top[3] = count;
            top.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    if top.iter().sum::<u32>() as usize * 2 >= len {
        return true;
    }
    distinct(chars().flatten()) * 2 <= len
}

/// How many different characters `chars` holds: a bit for each in the BMP,
/// the others sorted.
fn distinct(chars: impl Iterator<Item = char>) -> usize {
    let mut bmp = vec![0u64; 0x10000 / 64];
    let mut others = Vec::new();
    for c in chars {
        match usize::try_from(u32::from(c)) {
            Ok(c) if c < 0x10000 => bmp[c / 64] |= 1 << (c % 64),
            _ => others.push(c),
        }
    }
    others.sort_unstable();
    others.dedup();
    let in_bmp: u32 = bmp.iter().map(|word| word.count_ones()).sum();
    in_bmp as usize + others.len()
}

/// The characters of whole code units `bytes` in the wide form `charset`,
/// `None` for each malformed unit (a lone surrogate, a value past
/// U+10FFFF), as its decoder reads them.
fn wide_chars(bytes: &[u8], charset: Charset) -> impl Iterator<Item = Option<char>> + '_ {
    let unit = move |chunk: &[u8]| -> u32 {
        match charset {
            Charset::Utf16Le => u32::from(u16::from_le_bytes([chunk[0], chunk[1]])),
            Charset::Utf16Be => u32::from(u16::from_be_bytes([chunk[0], chunk[1]])),
            Charset::Utf32Le => u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
            _ => u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
        }
    };
    let wide16 = matches!(charset, Charset::Utf16Le | Charset::Utf16Be);
    let units16 = bytes.chunks_exact(2).take(if wide16 { usize::MAX } else { 0 });
    let utf16 = char::decode_utf16(units16.map(move |c| unit(c) as u16)).map(Result::ok);
    let units32 = bytes.chunks_exact(4).take(if wide16 { 0 } else { usize::MAX });
    utf16.chain(units32.map(move |c| char::from_u32(unit(c))))
}

/// The fewest characters whose blocks and repetition [`wide_structure`] weighs.
const WIDE_JUDGED: usize = 64;

/// Whether `c` is a character of text: not a control other than
/// whitespace, not private-use, unassigned, a surrogate or a noncharacter.
fn is_text_char(c: char) -> bool {
    match class(c) {
        Class::Control => matches!(c, '\t' | '\n' | '\u{0C}' | '\r'),
        Class::PrivateUse | Class::Unassigned => false,
        Class::Letter | Class::Format | Class::Other => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(bytes: &[u8]) -> Verdict {
        let mut prefix = Prefix::default();
        prefix.feed(bytes);
        prefix.verdict(true)
    }

    const TEXT: &str = "The quick brown fox jumps over the lazy dog. Pack my box with five \
                        dozen liquor jugs. How vexingly quick daft zebras jump!\n";

    proptest::proptest! {
        /// The wide forms' characters are their decoders'.
        #[test]
        fn wide_chars_are_the_decoders(bytes: Vec<u8>) {
            for charset in WIDE {
                let unit = if matches!(charset, Charset::Utf16Le | Charset::Utf16Be) { 2 } else { 4 };
                let whole = &bytes[..bytes.len() / unit * unit];
                let (text, malformed) = charset.decode(whole);
                let expected = (!malformed).then(|| text.chars().collect::<Vec<_>>());
                proptest::prop_assert_eq!(wide_chars(whole, charset).collect::<Option<Vec<_>>>(), expected);
            }
        }
    }

    #[test]
    fn random_bytes_are_binary_at_every_size() {
        for seed in 1..=5 {
            for len in [64, 100, 256, 1000, 4096, 16 * 1024, 64 * 1024] {
                let v = judge(&testkit::random_bytes(seed, len));
                assert!(v.binary, "seed {seed}, {len} bytes");
                assert_eq!((v.ebcdic, v.wide), (None, [false; 4]), "seed {seed}, {len} bytes");
            }
        }
    }

    #[test]
    fn every_byte_value_in_turn_then_random_is_binary() {
        let mut bytes: Vec<u8> = (0..=255u8).cycle().take(256 * 20).collect();
        bytes.extend(testkit::random_bytes(1, 5000));
        let v = judge(&bytes);
        assert!(v.binary);
        assert_eq!(v.wide, [false; 4]);
    }

    #[test]
    fn signatures() {
        // Each signature with a few bytes after it, and a binary data byte.
        for s in SIGNATURES {
            let mut bytes = vec![b' '; s.at];
            bytes.extend(s.pattern.iter().map(|p| p.unwrap_or(b'x')));
            bytes.extend(b"\x01\x02 rest");
            assert_eq!(signature(&bytes), Some(s.format), "{}", s.format);
        }
        let mut pe = b"MZ".to_vec();
        pe.resize(0x3C, 0x90);
        pe.extend(64u32.to_le_bytes());
        pe.extend(b"PE\x00\x00\x4c\x01");
        assert_eq!(signature(&pe), Some("PE"));
        assert_eq!(signature(b"\x6f\x0d\x0d\x0a\x00\x00\x00\x00"), Some("Python bytecode"));
        // Printable signatures need a binary data byte to corroborate them.
        assert_eq!(signature(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj"), None);
        assert_eq!(signature(b"%PDF-1.4\n1 0 obj\nstream\nx\x9c\x03\x00"), Some("PDF"));
        assert_eq!(signature(b"OTTO was here, and so was Anna."), None);
        assert_eq!(signature(b"MZ is not an executable without its PE header"), None);
        assert!(!judge(b"OTTO was here, and so was Anna.").binary);
    }

    #[test]
    fn formats_are_binary() {
        let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
        gzip.extend(testkit::random_bytes(7, 2000));
        let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".to_vec();
        png.extend(testkit::random_bytes(8, 300));
        let mut pdf = b"%PDF-1.5\n%\xd0\xd4\xc5\xd8\n1 0 obj\n<< /Length 900 /Filter /FlateDecode >>\nstream\n"
            .to_vec();
        pdf.extend(testkit::random_bytes(9, 900));
        for bytes in [gzip, png, pdf] {
            assert!(judge(&bytes).binary);
        }
    }

    #[test]
    fn text_with_a_control_byte_is_text() {
        // A few dozen bytes of seven-bit text with its shifts, of odd length
        // (no UTF-16 structure to stand for it).
        let seven_bit = b"<meta charset=iso-2022-cn><p>\x1b$)A\x0eVP\x0f</p>";
        assert!(!judge(seven_bit).binary);
        let mut bytes = TEXT.repeat(3).into_bytes();
        bytes[40] = 0x01;
        let v = judge(&bytes);
        assert!(!v.binary && v.ebcdic.is_none());
        let (cyrillic, _) = Charset::Windows1251
            .encode("Съешь же ещё этих мягких французских булок, да выпей чаю.");
        let mut cyrillic = cyrillic.into_owned();
        cyrillic[10] = 0x1A;
        assert!(!judge(&cyrillic).binary);
        let (gbk, _) = Charset::Gbk.encode("中华人民共和国成立于一九四九年十月一日，首都是北京。这是一个测试文本，用来检查随机数据的判断。");
        let mut gbk = gbk.into_owned();
        gbk[20] = 0x02;
        assert!(!judge(&gbk).binary);
    }

    #[test]
    fn wide_text_without_bom_has_its_structure() {
        let texts = [
            TEXT,
            "Съешь же ещё этих мягких французских булок, да выпей же чаю.",
            "日本語のテキストです。これは試験のための文章で、句読点もあります。",
        ];
        for text in texts {
            for (i, charset) in WIDE.into_iter().enumerate() {
                let v = judge(&charset.encode(&text.repeat(4)).0);
                assert!(v.wide[i], "{charset}: {text}");
                assert!(!v.binary && v.ebcdic.is_none(), "{charset}: {text}");
                assert!(v.allows(charset) && v.allows(Charset::Utf8));
            }
        }
        // A short Chinese or Korean text repeats few characters and spreads
        // over dozens of blocks of 256: still text.
        for text in [
            "我们的团队多年来为小企业开发可靠的工具，每一份订单都会在两个工作日内发出，客服人员通过电话或电子邮件回答问题。我们相信好的软件应该简单易用，价格公道，并且诚实地说明它能做什么。",
            "우리 팀은 오랫동안 작은 기업을 위한 믿을 수 있는 도구를 만들어 왔으며 모든 주문은 이틀 안에 발송됩니다. 좋은 소프트웨어는 쓰기 쉽고 값이 공정하며 하는 일에 대해 정직해야 한다고 믿습니다.",
        ] {
            for (i, charset) in WIDE.into_iter().enumerate().take(2) {
                let v = judge(&charset.encode(text).0);
                assert!(v.wide[i] && !v.binary, "{charset}: {text}");
            }
        }
        // Read as UTF-16, UTF-32 has NULs; in the other byte order its
        // units are beyond Unicode.
        let v = judge(&Charset::Utf32Le.encode(TEXT).0);
        assert_eq!(v.wide, [false, false, true, false]);
    }

    #[test]
    fn a_whole_input_of_no_number_of_units_has_no_wide_structure() {
        let chinese = "我们的团队多年来为小企业提供可靠的工具，每份订单都会在两个工作日内发出。";
        for charset in [Charset::Utf16Le, Charset::Utf16Be] {
            let i = WIDE.iter().position(|&c| c == charset).unwrap_or_default();
            let mut bytes = charset.encode(chinese).0.into_owned();
            assert!(judge(&bytes).wide[i], "{charset}");
            bytes.push(b'\n');
            // The whole input: an odd byte and no zero byte.
            assert!(!judge(&bytes).wide[i], "{charset}");
            // A prefix of more to come may end anywhere.
            let mut prefix = Prefix::default();
            prefix.feed(&bytes);
            assert!(prefix.verdict(false).wide[i], "{charset}");
            // Cut short, text with zero bytes keeps its structure.
            let mut english = charset.encode(TEXT).0.into_owned();
            english.pop();
            assert!(judge(&english).wide[i], "{charset}");
        }
        // More than the prefix holds: the bytes kept are no whole input.
        let mut long = Charset::Utf16Be.encode(&chinese.repeat(400)).0.into_owned();
        long.truncate(PREFIX + 1);
        assert!(judge(&long).wide[1]);
    }

    /// IBM037 (`cp037`) and IBM500 (`cp500`) of the ASCII letters, digits,
    /// space, period, comma and newline.
    fn ebcdic_bytes(text: &str, cp500: bool) -> Vec<u8> {
        text.bytes()
            .map(|b| match b {
                b'a'..=b'i' => 0x81 + (b - b'a'),
                b'j'..=b'r' => 0x91 + (b - b'j'),
                b's'..=b'z' => 0xA2 + (b - b's'),
                b'A'..=b'I' => 0xC1 + (b - b'A'),
                b'J'..=b'R' => 0xD1 + (b - b'J'),
                b'S'..=b'Z' => 0xE2 + (b - b'S'),
                b'0'..=b'9' => 0xF0 + (b - b'0'),
                b'.' => 0x4B,
                b',' => 0x6B,
                b'!' if cp500 => 0x4F,
                b'!' => 0x5A,
                b'\n' => 0x25,
                _ => 0x40,
            })
            .collect()
    }

    #[test]
    fn ebcdic_text_is_recognised() {
        for cp500 in [false, true] {
            let v = judge(&ebcdic_bytes(&TEXT.repeat(3), cp500));
            assert_eq!(v.ebcdic, Some(Ebcdic::Latin));
            assert!(!v.binary && v.wide == [false; 4]);
            assert!(!v.allows(Charset::Utf16Le) && v.allows(Charset::Windows1252));
        }
        // Greek EBCDIC (IBM875): letters at 0x41–0x49, 0x51–0x59, 0x62–0x69.
        let greek: Vec<u8> = (0..600)
            .map(|i| match i % 6 {
                5 => 0x40,
                k => [0x41, 0x45, 0x52, 0x57, 0x63, 0x66][(i / 6 + k) % 6],
            })
            .collect();
        assert_eq!(judge(&greek).ebcdic, Some(Ebcdic::National));
        // ASCII with many `@` is not EBCDIC: it has spaces at 0x20.
        assert_eq!(judge(b"user@@example.org @@ @@ admin@@example.org").ebcdic, None);
    }

    #[test]
    fn prefix_is_bounded_and_chunk_independent() {
        let bytes = testkit::random_bytes(3, PREFIX + 1000);
        let mut whole = Prefix::default();
        whole.feed(&bytes);
        let mut chunked = Prefix::default();
        bytes.chunks(777).for_each(|c| chunked.feed(c));
        assert_eq!(whole.bytes, chunked.bytes);
        assert_eq!(whole.bytes.len(), PREFIX);
    }
}
