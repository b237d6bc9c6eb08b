//! Family `zawgyi`: the Zawgyi <-> Unicode conversion rules and the Zawgyi
//! detector's model.
//!
//! - `count zawgyi` copies the CLDR transforms (as plain ICU rule files from
//!   `../shared/fonts/zawgyi/myanmar-tools/`) into `data/zawgyi/`, then
//!   trains the detector: every line of `../shared/text/my.txt` that is not
//!   held out (`testkit::held_out`, one line in ten by hash) is counted
//!   twice, as it is (Unicode) and converted to Zawgyi with charsight's
//!   own converter (which runs the checked-in rules). The counts of
//!   character-class bigrams go to `data/zawgyi/bigrams.tsv`.
//! - `emit` writes `generated/zawgyi_rules.rs` (the parsed rules) and
//!   `generated/zawgyi_model.rs` (quantised log-likelihood ratios).
//!
//! The model is a first-order Markov chain over 161 classes: the 160 code
//! points of the Myanmar block U+1000-U+109F, and one class for anything
//! else (which also stands for the start and end of a line).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use crate::emit::{data_dir, sha256, Output};
use crate::icu_rules;

/// Classes of the model: 0 = not Myanmar, 1..=160 = U+1000..=U+109F.
const CLASSES: usize = 161;
/// Add-k smoothing of the bigram counts.
const SMOOTHING: f64 = 0.5;
/// Log ratios are stored as `round(ratio * SCALE)`, clamped to an i8.
const SCALE: f64 = 8.0;

/// The rule files: (data name, shared source, what they do).
const RULES: &[(&str, &str)] = &[
    ("to_unicode.txt", "icu-rules-my-t-my-s0-zawgyi.txt"),
    ("to_zawgyi.txt", "icu-rules-my-t-my-d0-zawgyi.txt"),
];

/// The model's class of a character.
fn class(c: char) -> usize {
    match u32::from(c) {
        cp @ 0x1000..=0x109F => (cp - 0x1000) as usize + 1,
        _ => 0,
    }
}

/// Counts the class bigrams of one line into `counts`, start and end included.
fn count_line(line: &str, counts: &mut [u64]) {
    let mut prev = 0;
    for c in line.chars().chain(std::iter::once(' ')) {
        let next = class(c);
        if prev != 0 || next != 0 {
            counts[prev * CLASSES + next] += 1;
        }
        prev = next;
    }
}

/// `count zawgyi`: copies the rules and counts the training lines.
pub fn count(out: &mut Output, shared: &Path) -> Result<()> {
    let dir = data_dir().join("zawgyi");
    for (name, source) in RULES {
        let path = shared.join("fonts/zawgyi/myanmar-tools").join(source);
        let rules = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        out.file(&dir.join(name), &rules)?;
    }
    let path = shared.join("text/my.txt");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut unicode = vec![0u64; CLASSES * CLASSES];
    let mut zawgyi = vec![0u64; CLASSES * CLASSES];
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.is_empty() && !testkit::held_out(l)) {
        count_line(line, &mut unicode);
        count_line(&charsight::unstable::to_zawgyi(line), &mut zawgyi);
        lines += 1;
    }
    let mut tsv = format!(
        "# Class bigram counts for the Zawgyi detector (class 0 = not U+1000-U+109F, n = U+0FFF+n).\n\
         # Trained on {lines} lines of ../shared/text/my.txt (sha256 {}) not held out by testkit::held_out;\n\
         # zawgyi = the same lines converted with the rules in data/zawgyi/to_zawgyi.txt.\n\
         # The text is Debian gettext catalogs and Firefox strings (GPL-2+, MPL-2.0; ../shared/text/SOURCES.md).\n\
         # model\tprev\tnext\tcount\n",
        sha256(text.as_bytes())
    );
    for (model, counts) in [("unicode", &unicode), ("zawgyi", &zawgyi)] {
        for (i, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
            writeln!(tsv, "{model}\t{}\t{}\t{n}", i / CLASSES, i % CLASSES)?;
        }
    }
    out.file(&dir.join("bigrams.tsv"), tsv.as_bytes())
}

/// `emit`: the rules and the model.
pub fn emit(out: &mut Output) -> Result<()> {
    let dir = data_dir().join("zawgyi");
    let mut inputs = Vec::new();
    let mut body = String::from(
        "//! Zawgyi <-> Unicode conversion rules: the CLDR transforms\n\
         //! (Unicode-DFS-2016), parsed into phases of ICU transliterator rules.\n\n\
         /// One element of a rule's pattern.\n\
         #[derive(Clone, Copy, Debug)]\n\
         pub enum Elem {\n\
         /// A set of code point ranges (or its complement), matched possessively `min..=max` times (255 = no limit).\n\
         Set { ranges: &'static [(char, char)], negated: bool, min: u8, max: u8 },\n\
         /// Start of capture group N.\n\
         Open(u8),\n\
         /// End of capture group N.\n\
         Close(u8),\n\
         }\n\n\
         /// One item of a rule's replacement.\n\
         #[derive(Clone, Copy, Debug)]\n\
         pub enum Out {\n\
         /// Literal text.\n\
         Text(&'static str),\n\
         /// What capture group N matched.\n\
         Group(u8),\n\
         /// Where matching resumes (default: after the replacement).\n\
         Cursor,\n\
         }\n\n\
         /// A rule: anchored at the start and/or end of the text, a pattern, a replacement.\n\
         #[derive(Clone, Copy, Debug)]\n\
         pub struct Rule {\n\
         /// Matches only at the start of the text.\n\
         pub start: bool,\n\
         /// Matches only if the pattern ends at the end of the text.\n\
         pub end: bool,\n\
         /// The pattern.\n\
         pub pattern: &'static [Elem],\n\
         /// The replacement.\n\
         pub output: &'static [Out],\n\
         }\n\n",
    );
    for ((name, _), konst) in RULES.iter().zip(["TO_UNICODE", "TO_ZAWGYI"]) {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}; run `count zawgyi` first", path.display()))?;
        inputs.extend_from_slice(text.as_bytes());
        let phases = icu_rules::parse(&text).with_context(|| format!("parsing {name}"))?;
        writeln!(body, "/// Phases of rules from `data/zawgyi/{name}`.")?;
        body.push_str(&icu_rules::to_rust(konst, &phases));
    }
    out.rust("zawgyi_rules", "emit (data/zawgyi/*.txt)", &inputs, &body)?;

    let path = dir.join("bigrams.tsv");
    let tsv = std::fs::read_to_string(&path)
        .with_context(|| format!("reading {}; run `count zawgyi` first", path.display()))?;
    let mut counts: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for row in tsv.lines().filter(|l| !l.starts_with('#')) {
        let cells: Vec<&str> = row.split('\t').collect();
        let [model, prev, next, n] = cells.as_slice() else {
            anyhow::bail!("bad row {row:?}");
        };
        let table = counts.entry(model).or_insert_with(|| vec![0.0; CLASSES * CLASSES]);
        table[prev.parse::<usize>()? * CLASSES + next.parse::<usize>()?] = n.parse()?;
    }
    let empty = vec![0.0; CLASSES * CLASSES];
    let unicode = counts.get("unicode").unwrap_or(&empty);
    let zawgyi = counts.get("zawgyi").unwrap_or(&empty);
    let mut ratios = vec![0i8; CLASSES * CLASSES];
    for prev in 0..CLASSES {
        let row = prev * CLASSES..(prev + 1) * CLASSES;
        let total_u: f64 = unicode[row.clone()].iter().sum::<f64>() + SMOOTHING * CLASSES as f64;
        let total_z: f64 = zawgyi[row.clone()].iter().sum::<f64>() + SMOOTHING * CLASSES as f64;
        for i in row {
            let pu = (unicode[i] + SMOOTHING) / total_u;
            let pz = (zawgyi[i] + SMOOTHING) / total_z;
            let q = ((pz / pu).ln() * SCALE).round().clamp(-127.0, 127.0);
            ratios[i] = q as i8;
        }
    }
    let body = format!(
        "//! The Zawgyi detector's model: for each pair of character classes\n\
         //! (0 = not Myanmar, n = U+0FFF + n), round({SCALE} * ln(P_zawgyi / P_unicode))\n\
         //! of the second class following the first, from add-{SMOOTHING} smoothed bigram counts.\n\n\
         /// Number of classes.\npub const CLASSES: usize = {CLASSES};\n\
         /// The divisor that turns a stored ratio back into a natural log.\npub const SCALE: f32 = {SCALE:.1};\n\
         /// Quantised log-likelihood ratios, row = previous class, column = next class.\n\
         pub static LOG_RATIO: [i8; {}] = {ratios:?};\n",
        CLASSES * CLASSES
    );
    out.rust(
        "zawgyi_model",
        "emit (data/zawgyi/bigrams.tsv from `count zawgyi`)",
        tsv.as_bytes(),
        &body,
    )
}
