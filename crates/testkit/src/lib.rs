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
    let dir = shared_dir().join("corpus");
    let labels = std::fs::read_to_string(dir.join("labels.tsv")).expect("corpus/labels.tsv");
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

/// Whether a line of `shared/text` is held out of training: one line in ten,
/// chosen by a hash of its bytes (FNV-1a, 64 bit), so the split does not
/// depend on line order. Generators train on the other lines; accuracy
/// tests evaluate on these.
pub fn held_out(line: &str) -> bool {
    let hash = line
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    hash % 10 == 0
}
