//! Test helpers shared by charsight's crates (not published).
//!
//! The reference data lives in a read-only folder beside the checkout,
//! `../shared` (see its `README.md`). [`shared_dir`] finds it.

use std::path::{Path, PathBuf};

/// The shared data folder: `$CHARSIGHT_SHARED` if set, else the first
/// `shared` folder beside the workspace or one of its ancestors, else
/// `/work/shared`.
///
/// # Panics
/// If none exists: tests that need the data must not pass without it.
pub fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHARSIGHT_SHARED") {
        return PathBuf::from(dir);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let found = workspace
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared"))
        .chain([PathBuf::from("/work/shared")])
        .find(|dir| dir.join("README.md").is_file());
    found.unwrap_or_else(|| {
        panic!("the shared data folder (../shared) was not found; set CHARSIGHT_SHARED to its path")
    })
}

/// The train/held-out split of `shared/text`: whether a line is held out of
/// every model's training, for evaluation. About one line in five is held
/// out, chosen by an FNV-1a hash of the line's bytes, so the split is fixed,
/// independent of line order and the same for every crate that uses it.
pub fn held_out(line: &str) -> bool {
    fnv1a64(line.bytes(), 0).is_multiple_of(5)
}

/// FNV-1a, 64 bits, of `bytes`, from the offset basis xor `salt` (0 for
/// plain FNV-1a). The one hash of the workspace's tools and tests: the
/// held-out split, the evaluations' seeded choices, the mapping oracles.
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>, salt: u64) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325 ^ salt, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// [`fnv1a64`] of a character mapping, each entry as (length byte, bytes,
/// code point little-endian), in the order given: the summary of a whole
/// mapping table that `gen-tables` records from glibc and the codec tests
/// check against.
pub fn mapping_fnv1a64<'a>(mappings: impl IntoIterator<Item = (&'a [u8], u32)>) -> u64 {
    let bytes = mappings.into_iter().flat_map(|(bytes, code_point)| {
        std::iter::once(bytes.len() as u8)
            .chain(bytes.iter().copied())
            .chain(code_point.to_le_bytes())
    });
    fnv1a64(bytes, 0)
}

/// The lines of `shared/text/<lang>.txt` on one side of [`held_out`]: the
/// held-out lines when `held` is true, the training lines otherwise.
///
/// # Panics
/// If the file cannot be read.
pub fn text_lines(lang: &str, held: bool) -> Vec<String> {
    let path = shared_dir().join("text").join(format!("{lang}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|line| held_out(line) == held).map(str::to_owned).collect()
}

/// A synthetic web server access log of `lines` lines in the combined log
/// format, for benchmarks: nine request targets in ten are ASCII (paths,
/// query strings, `%20` and `%2F` escapes); the tenth carries a search
/// keyword from the held-out lines of `shared/text` (zh-Hans, zh-Hant, ja,
/// ko) percent-escaped in UTF-8, GBK, Big5, Shift_JIS or EUC-KR. The same
/// `lines` always gives the same bytes.
///
/// # Panics
/// If `shared/text` cannot be read.
pub fn url_log(lines: usize) -> Vec<u8> {
    use std::fmt::Write as _;
    let sets = [
        ("zh-Hans", encoding_rs::GBK),
        ("zh-Hans", encoding_rs::UTF_8),
        ("zh-Hant", encoding_rs::BIG5),
        ("ja", encoding_rs::SHIFT_JIS),
        ("ko", encoding_rs::EUC_KR),
    ];
    let keywords: Vec<Vec<String>> = sets
        .iter()
        .map(|(lang, _)| {
            text_lines(lang, true)
                .iter()
                .flat_map(|l| l.split(|c: char| !c.is_alphanumeric() || c.is_ascii()))
                .filter(|w| (2..=6).contains(&w.chars().count()))
                .map(str::to_owned)
                .take(500)
                .collect()
        })
        .collect();
    let words = ["index", "search", "static", "api", "v2", "img", "news", "user", "list", "tag"];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut log = String::with_capacity(lines * 140);
    for i in 0..lines {
        let r = next();
        let ip = format!("10.{}.{}.{}", r % 256, (r >> 8) % 256, (r >> 16) % 256);
        let _ =
            write!(log, "{ip} - - [30/Nov/2026:06:{:02}:{:02} +0000] \"GET ", i / 60 % 60, i % 60);
        let (a, b) = (words[(r >> 24) as usize % 10], words[(r >> 28) as usize % 10]);
        if i % 10 == 9 {
            let set = (r >> 32) as usize % sets.len();
            let list = &keywords[set];
            let keyword = &list[(r >> 40) as usize % list.len()];
            let (bytes, _, _) = sets[set].1.encode(keyword);
            let _ = write!(log, "/{a}?q=");
            for byte in bytes.iter() {
                let _ = write!(log, "%{byte:02X}");
            }
        } else {
            let _ =
                write!(log, "/{a}/{b}/{}.html?id={}&q=a%20b%2Fc", r % 1000, (r >> 12) % 100_000);
        }
        let _ = writeln!(
            log,
            " HTTP/1.1\" 200 {} \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"",
            (r >> 44) % 50_000
        );
    }
    log.into_bytes()
}

/// One file of the labelled corpus (`shared/corpus/labels.tsv`).
#[derive(Clone, Debug)]
pub struct Labelled {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// Path relative to the corpus folder, as in `labels.tsv`.
    pub name: String,
    /// The true encoding's label (WHATWG canonical name where one exists).
    pub encoding: String,
    /// The language tag given in the labels.
    pub language: String,
}

/// Every labelled file of `shared/corpus`.
pub fn corpus() -> Vec<Labelled> {
    labelled("corpus")
}

/// Every labelled file of `shared/corpus-wide` (the long tail: EBCDIC,
/// DOS and Mac code pages, UTF-16/32, binary files labelled `binary`).
pub fn corpus_wide() -> Vec<Labelled> {
    labelled("corpus-wide")
}

/// Every labelled file of the corpus in `shared/<folder>` (`labels.tsv`).
fn labelled(folder: &str) -> Vec<Labelled> {
    let dir = shared_dir().join(folder);
    let labels = std::fs::read_to_string(dir.join("labels.tsv")).expect("labels.tsv");
    labels
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let name = fields.next()?.to_owned();
            let encoding = fields.next()?.to_owned();
            let language = fields.next().unwrap_or("").to_owned();
            Some(Labelled { path: dir.join(&name), name, encoding, language })
        })
        .collect()
}

/// One html5lib encoding case: the document's bytes and the expected label.
#[derive(Clone, Debug)]
pub struct EncodingCase {
    /// `file.dat#n`, for messages.
    pub name: String,
    /// The document.
    pub data: Vec<u8>,
    /// The expected encoding label.
    pub expected: String,
}

/// Parses an html5lib encoding `.dat` file: `#data`, the bytes, a newline,
/// `#encoding`, the label.
pub fn encoding_cases(path: &Path) -> Vec<EncodingCase> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut cases = Vec::new();
    let mut rest = &bytes[..];
    while let Some(start) = find(rest, b"#data\n") {
        rest = &rest[start + 6..];
        let Some(end) = find(rest, b"\n#encoding\n") else { break };
        let data = rest[..end].to_vec();
        rest = &rest[end + 11..];
        let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let expected = String::from_utf8_lossy(&rest[..line_end]).trim().to_owned();
        cases.push(EncodingCase { name: format!("{file}#{}", cases.len() + 1), data, expected });
    }
    cases
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether a held-out line (see [`held_out`]) is for tuning (calibrating
/// confidence) rather than for testing: about half of them, by a second hash.
/// Evaluation uses the other half, so no figure is measured on the lines a
/// parameter was fitted to.
pub fn tuning_line(line: &str) -> bool {
    let hash =
        line.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    hash % 2 == 0
}

/// Vietnamese text in the form windows-1258 writes it: canonical
/// decomposition, then recomposition of the base letters that windows-1258
/// has precomposed (â ê ô ơ ư ă đ and the Latin-1 vowels with one accent),
/// leaving the tone marks that it lacks precomposed as combining marks.
pub fn windows_1258_form(text: &str) -> String {
    use unicode_normalization::char::{canonical_combining_class, compose};
    use unicode_normalization::UnicodeNormalization;

    let fits = |c: char| {
        let mut buf = [0; 4];
        let (bytes, _, unmappable) = encoding_rs::WINDOWS_1258.encode(c.encode_utf8(&mut buf));
        !unmappable && bytes.len() == 1
    };
    // The canonical composition algorithm, restricted to compositions that
    // windows-1258 has: a mark composes with the last starter unless an
    // uncomposed mark of the same or higher class stands between them.
    let mut out = String::with_capacity(text.len());
    let mut starter: Option<char> = None;
    let mut marks: Vec<char> = Vec::new();
    for c in text.nfd() {
        let class = canonical_combining_class(c);
        if let Some(base) = starter.filter(|_| class != 0) {
            let blocked = marks.iter().any(|&m| canonical_combining_class(m) >= class);
            if let Some(composed) = compose(base, c).filter(|&k| !blocked && fits(k)) {
                starter = Some(composed);
                continue;
            }
            marks.push(c);
            continue;
        }
        out.extend(starter.take());
        out.extend(marks.drain(..));
        if class == 0 {
            starter = Some(c);
        } else {
            out.push(c);
        }
    }
    out.extend(starter);
    out.extend(marks);
    out
}

/// `len` pseudo-random bytes from `seed` (xorshift64*): the same on every
/// platform, spread over all 256 values as compressed data is.
pub fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

/// "This is a test of EBCDIC text. The quick brown fox jumps over the lazy
/// dog. " in IBM037 (Python's `cp037`), five times.
pub fn ebcdic_sample() -> Vec<u8> {
    let line: &[u8] = b"\xe3\x88\x89\xa2\x40\x89\xa2\x40\x81\x40\xa3\x85\xa2\xa3\x40\x96\x86\x40\
\xc5\xc2\xc3\xc4\xc9\xc3\x40\xa3\x85\xa7\xa3\x4b\x40\xe3\x88\x85\x40\x98\xa4\x89\x83\x92\x40\
\x82\x99\x96\xa6\x95\x40\x86\x96\xa7\x40\x91\xa4\x94\x97\xa2\x40\x96\xa5\x85\x99\x40\xa3\x88\
\x85\x40\x93\x81\xa9\xa8\x40\x84\x96\x87\x4b\x40";
    line.repeat(5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_log_is_fixed_and_one_line_in_ten_is_not_ascii_after_unescaping() {
        let log = url_log(1000);
        assert_eq!(log, url_log(1000));
        let lines: Vec<&[u8]> = log.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 1000);
        let escaped_high = |l: &&&[u8]| l.windows(2).any(|w| w[0] == b'%' && w[1] >= b'8');
        assert_eq!(lines.iter().filter(escaped_high).count(), 100);
    }

    #[test]
    fn about_one_line_in_five_is_held_out() {
        let lines = text_lines("ja", true).len();
        let train = text_lines("ja", false).len();
        let share = lines as f64 / (lines + train) as f64;
        assert!((0.15..0.25).contains(&share), "{share}");
    }

    #[test]
    fn windows_1258_form_encodes_vietnamese() {
        let text = "Tiếng Việt có dấu: người, đường, phở";
        let form = windows_1258_form(text);
        let (bytes, _, unmappable) = encoding_rs::WINDOWS_1258.encode(&form);
        assert!(!unmappable, "{form:?}");
        let (back, _, _) = encoding_rs::WINDOWS_1258.decode(&bytes);
        assert_eq!(back, form);
        use unicode_normalization::UnicodeNormalization;
        assert_eq!(back.nfc().collect::<String>(), text);
        assert!(form.chars().count() > text.chars().count());
    }

    #[test]
    fn tuning_lines_are_half_the_held_out_ones() {
        let held = text_lines("ru", true);
        let tuning = held.iter().filter(|l| tuning_line(l)).count();
        assert!(
            tuning * 3 > held.len() && tuning * 3 < held.len() * 2,
            "{tuning} of {}",
            held.len()
        );
    }
}
