//! Family `charfreq`: character unigram frequencies of CJK text, per
//! language, for scoring the readings of short byte strings.
//!
//! - `count charfreq --wordfreq DIR`: counts the non-ASCII characters of the
//!   training lines of `../shared/text/<lang>.txt` (the held-out fifth,
//!   `testkit::held_out`, is left out) and the character frequencies implied
//!   by wordfreq's web word lists (pinned in `inputs.toml`), and writes
//!   `data/charfreq/<lang>.tsv`: `code point (hex) TAB text count TAB web
//!   frequency in parts per billion`.
//! - `emit`: blends both sources half and half, quantises `-log2 p` to
//!   eighths of a bit and writes `generated/charfreq.rs`.
//!
//! wordfreq's Chinese list is Simplified; the zh-Hant web frequencies spread
//! each Simplified character's mass over the Traditional characters that
//! simplify to it (wordfreq's own mapping), weighted by how often each occurs
//! in the zh-Hant training text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::emit::{self, Output};

/// The languages, in the column order of the generated table.
const LANGS: [&str; 4] = ["ja", "ko", "zh-Hans", "zh-Hant"];

/// The share of the training text in the blended probability (the rest is
/// the web lists').
const TEXT_WEIGHT: f64 = 0.5;

/// Quantisation: costs are `-log2 p` in eighths of a bit.
const STEPS_PER_BIT: f64 = 8.0;

/// A Traditional character's weight in the zh-Hant spreading: its count in
/// the training text plus this.
const SPREAD_PRIOR: f64 = 0.5;

#[derive(Deserialize)]
struct Inputs {
    charfreq: Pins,
}

#[derive(Deserialize)]
struct Pins {
    text: BTreeMap<String, String>,
    wordfreq: WordfreqPins,
}

#[derive(Deserialize)]
struct WordfreqPins {
    files: BTreeMap<String, String>,
}

/// Counts for one language: text counts and web parts per billion.
#[derive(Default)]
struct Counts {
    text: BTreeMap<char, u64>,
    web: BTreeMap<char, f64>,
}

/// Counts of adjacent pairs of non-ASCII characters for one language.
#[derive(Default)]
struct Pairs {
    text: BTreeMap<(char, char), u64>,
    web: BTreeMap<(char, char), f64>,
}

/// How many pairs per language are kept: the likeliest by the blended
/// probability.
const PAIRS_KEPT: usize = 12_000;

impl Pairs {
    /// The intermediate form: a `total` row with the text's pair count, then
    /// the kept pairs (`first TAB second TAB text count TAB web parts per
    /// billion`), in code point order.
    fn tsv(&self, lang: &str) -> String {
        let text_total: u64 = self.text.values().sum();
        let keys: std::collections::BTreeSet<(char, char)> =
            self.text.keys().chain(self.web.keys()).copied().collect();
        let score = |k: &(char, char)| {
            let n = self.text.get(k).copied().unwrap_or(0) as f64 / text_total.max(1) as f64;
            TEXT_WEIGHT * n + (1.0 - TEXT_WEIGHT) * self.web.get(k).copied().unwrap_or(0.0)
        };
        let mut ranked: Vec<(char, char)> = keys.into_iter().collect();
        ranked.sort_by(|a, b| score(b).total_cmp(&score(a)).then(a.cmp(b)));
        ranked.truncate(PAIRS_KEPT);
        ranked.sort();
        let mut tsv = format!(
            "# charfreq pairs {lang}: adjacent non-ASCII characters, count in the training \
             lines of shared/text/{lang}.txt, web frequency (wordfreq 3.1.1) in parts per billion.\n\
             total\t-\t{text_total}\t1000000000\n"
        );
        for (a, b) in ranked {
            let n = self.text.get(&(a, b)).copied().unwrap_or(0);
            let ppb = (self.web.get(&(a, b)).copied().unwrap_or(0.0) * 1e9).round() as u64;
            writeln!(tsv, "{:X}\t{:X}\t{n}\t{ppb}", u32::from(a), u32::from(b))
                .expect("writing to a String");
        }
        tsv
    }
}

/// Adjacent pairs of non-ASCII characters.
fn non_ascii_pairs(text: &str) -> impl Iterator<Item = (char, char)> + '_ {
    text.chars().zip(text.chars().skip(1)).filter(|(a, b)| !a.is_ascii() && !b.is_ascii())
}

/// Pair probabilities implied by word frequencies, each character mapped
/// by `map`.
fn web_pairs(words: &[(String, f64)], map: impl Fn(char) -> char) -> BTreeMap<(char, char), f64> {
    let mut mass: BTreeMap<(char, char), f64> = BTreeMap::new();
    for (word, freq) in words {
        for (a, b) in non_ascii_pairs(word) {
            *mass.entry((map(a), map(b))).or_insert(0.0) += freq;
        }
    }
    let total: f64 = mass.values().sum();
    mass.values_mut().for_each(|v| *v /= total);
    mass
}

/// For each Simplified character, its likeliest Traditional form: the one
/// of the forms that simplify to it seen most in the zh-Hant training text.
fn traditional_forms(
    simplified: &BTreeMap<char, char>,
    text: &BTreeMap<char, u64>,
) -> BTreeMap<char, char> {
    let count = |c: &char| text.get(c).copied().unwrap_or(0);
    let mut best: BTreeMap<char, char> = BTreeMap::new();
    for (&traditional, &simple) in simplified {
        let current = best.entry(simple).or_insert(simple);
        if count(&traditional) > count(current) {
            *current = traditional;
        }
    }
    best
}

/// The `count` step.
/// Reads a wordfreq file of the wheel unpacked in `dir`, checked against
/// its pin in `inputs.toml`: its words and their frequencies.
pub fn read_wordfreq(dir: &Path, name: &str) -> Result<Vec<(String, f64)>> {
    let inputs = read_inputs()?;
    let path = format!("wordfreq/data/{name}.msgpack.gz");
    read_cbpack(&read_pinned(dir, &path, &inputs.charfreq.wordfreq.files)?)
}

fn read_inputs() -> Result<Inputs> {
    Ok(toml::from_str(&std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml"),
    )?)?)
}

/// The bytes of `root/name`, checked against its pin.
fn read_pinned(root: &Path, name: &str, pins: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    let want = pins.get(name).with_context(|| format!("{name} is not pinned"))?;
    emit::read_pinned(&root.join(name), name, want)
}

pub fn count(out: &mut Output, wordfreq: &Path) -> Result<()> {
    let inputs = read_inputs()?;
    let shared = testkit::shared_dir();
    let web_files = &inputs.charfreq.wordfreq.files;
    let web = |name: &str| read_wordfreq(wordfreq, name);
    let simplified = read_mapping(&read_pinned(
        wordfreq,
        "wordfreq/data/_chinese_mapping.msgpack.gz",
        web_files,
    )?)?;
    let zh_words = web("large_zh")?;
    let zh_web = web_chars(&zh_words);
    for lang in LANGS {
        let bytes = read_pinned(&shared, &format!("text/{lang}.txt"), &inputs.charfreq.text)?;
        let mut counts = Counts::default();
        let mut pairs = Pairs::default();
        for line in String::from_utf8(bytes)?.lines().filter(|l| !testkit::held_out(l)) {
            for c in line.chars().filter(|c| !c.is_ascii()) {
                *counts.text.entry(c).or_default() += 1;
            }
            for pair in non_ascii_pairs(line) {
                *pairs.text.entry(pair).or_default() += 1;
            }
        }
        let words = match lang {
            "ja" => web("large_ja")?,
            "ko" => web("small_ko")?,
            _ => Vec::new(),
        };
        (counts.web, pairs.web) = match lang {
            "zh-Hans" => (zh_web.clone(), web_pairs(&zh_words, |c| c)),
            "zh-Hant" => {
                let traditional = traditional_forms(&simplified, &counts.text);
                let to_traditional = |c| traditional.get(&c).copied().unwrap_or(c);
                (
                    spread_to_traditional(&zh_web, &simplified, &counts.text),
                    web_pairs(&zh_words, to_traditional),
                )
            }
            _ => (web_chars(&words), web_pairs(&words, |c| c)),
        };
        let dir = emit::data_dir().join("charfreq");
        out.file(&dir.join(format!("{lang}.tsv")), write_tsv(lang, &counts).as_bytes())?;
        out.file(&dir.join(format!("{lang}.pairs.tsv")), pairs.tsv(lang).as_bytes())?;
    }
    Ok(())
}

/// Reads a wordfreq `cB` pack: a header, then lists of words whose
/// frequency is `10^(-i/100)` for the list at index `i`.
fn read_cbpack(gz: &[u8]) -> Result<Vec<(String, f64)>> {
    let value = read_msgpack(gz)?;
    let rmpv::Value::Array(items) = value else { bail!("a cB pack is an array") };
    let Some(rmpv::Value::Map(header)) = items.first() else { bail!("no cB header") };
    let is = |key: &str, want: rmpv::Value| {
        header.iter().any(|(k, v)| k.as_str() == Some(key) && *v == want)
    };
    if !is("format", "cB".into()) || !is("version", 1.into()) {
        bail!("unexpected cB header {header:?}");
    }
    let mut words = Vec::new();
    for (i, bucket) in items.iter().enumerate().skip(1) {
        let freq = 10f64.powf(-((i - 1) as f64) / 100.0);
        for word in bucket.as_array().context("a cB bucket is an array")? {
            words.push((word.as_str().context("a word is a string")?.to_owned(), freq));
        }
    }
    Ok(words)
}

/// Reads wordfreq's Traditional-to-Simplified mapping: code point to string
/// (or code point).
fn read_mapping(gz: &[u8]) -> Result<BTreeMap<char, char>> {
    let rmpv::Value::Map(entries) = read_msgpack(gz)? else { bail!("the mapping is a map") };
    let as_char = |v: &rmpv::Value| match v {
        rmpv::Value::Integer(n) => n.as_u64().and_then(|n| char::from_u32(n as u32)),
        rmpv::Value::String(s) => {
            let mut chars = s.as_str()?.chars();
            chars.next().filter(|_| chars.next().is_none())
        }
        _ => None,
    };
    Ok(entries.iter().filter_map(|(k, v)| Some((as_char(k)?, as_char(v)?))).collect())
}

fn read_msgpack(gz: &[u8]) -> Result<rmpv::Value> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut bytes)?;
    Ok(rmpv::decode::read_value(&mut &bytes[..])?)
}

/// Character probabilities (non-ASCII characters only) implied by word
/// frequencies.
fn web_chars(words: &[(String, f64)]) -> BTreeMap<char, f64> {
    let mut mass = BTreeMap::new();
    for (word, freq) in words {
        for c in word.chars().filter(|c| !c.is_ascii()) {
            *mass.entry(c).or_insert(0.0) += freq;
        }
    }
    normalise(mass)
}

/// Spreads Simplified probabilities over the Traditional characters that
/// simplify to each (a character that does not change simplifies to itself).
fn spread_to_traditional(
    simplified_web: &BTreeMap<char, f64>,
    simplified: &BTreeMap<char, char>,
    text: &BTreeMap<char, u64>,
) -> BTreeMap<char, f64> {
    let mut sources: BTreeMap<char, Vec<char>> = BTreeMap::new();
    for (&traditional, &simple) in simplified {
        sources.entry(simple).or_default().push(traditional);
    }
    let weight = |c: &char| text.get(c).map_or(0.0, |&n| n as f64) + SPREAD_PRIOR;
    let mut mass = BTreeMap::new();
    for (&simple, &p) in simplified_web {
        let mut forms = sources.get(&simple).cloned().unwrap_or_default();
        if !simplified.contains_key(&simple) {
            forms.push(simple);
        }
        let total: f64 = forms.iter().map(weight).sum();
        for form in forms {
            *mass.entry(form).or_insert(0.0) += p * weight(&form) / total;
        }
    }
    normalise(mass)
}

fn normalise(mut mass: BTreeMap<char, f64>) -> BTreeMap<char, f64> {
    let total: f64 = mass.values().sum();
    mass.values_mut().for_each(|v| *v /= total);
    mass
}

fn write_tsv(lang: &str, counts: &Counts) -> String {
    let mut tsv = format!(
        "# charfreq {lang}: code point, count in the training lines of shared/text/{lang}.txt, \
         web frequency (wordfreq 3.1.1) in parts per billion.\n"
    );
    let chars: std::collections::BTreeSet<char> =
        counts.text.keys().chain(counts.web.keys()).copied().collect();
    for c in chars {
        let n = counts.text.get(&c).copied().unwrap_or(0);
        let ppb = (counts.web.get(&c).copied().unwrap_or(0.0) * 1e9).round() as u64;
        if n > 0 || ppb > 0 {
            writeln!(tsv, "{:X}\t{n}\t{ppb}", u32::from(c)).expect("writing to a String");
        }
    }
    tsv
}

/// One language's blended table: costs of the characters cheaper than the
/// floor, and the floor.
struct Table {
    costs: BTreeMap<u32, u8>,
    floor: u8,
}

fn blend(tsv: &str) -> Result<Table> {
    let mut rows = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split('\t');
        let mut next = || fields.next().context("a charfreq row has three fields");
        let code = u32::from_str_radix(next()?, 16)?;
        let n: u64 = next()?.parse()?;
        let ppb: u64 = next()?.parse()?;
        rows.push((code, n, ppb));
    }
    let text_total = rows.iter().map(|r| r.1).sum::<u64>() as f64;
    let web_total = rows.iter().map(|r| r.2).sum::<u64>() as f64;
    if text_total == 0.0 || web_total == 0.0 {
        bail!("empty charfreq counts");
    }
    let cost = |p: f64| (-p.log2() * STEPS_PER_BIT).round().clamp(0.0, 254.0) as u8;
    // Unseen characters: half the probability of a character seen once in
    // the text and never on the web.
    let floor = cost(TEXT_WEIGHT * 0.5 / text_total);
    let mut costs = BTreeMap::new();
    for (code, n, ppb) in rows {
        let p = TEXT_WEIGHT * n as f64 / text_total + (1.0 - TEXT_WEIGHT) * ppb as f64 / web_total;
        let c = cost(p);
        if c < floor {
            costs.insert(code, c);
        }
    }
    Ok(Table { costs, floor })
}

/// One language's pairs with their blended joint costs.
fn blend_pairs(tsv: &str) -> Result<Vec<((u32, u32), u8)>> {
    let mut rows = tsv.lines().filter(|l| !l.starts_with('#')).map(|line| {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[..] {
            [a, b, n, ppb] => Ok((a, b, n.parse::<u64>()?, ppb.parse::<u64>()?)),
            _ => bail!("a charfreq pairs row has four fields"),
        }
    });
    let (_, _, text_total, web_total) = match rows.next() {
        Some(Ok(("total", _, n, ppb))) if n > 0 && ppb > 0 => ("", "", n as f64, ppb as f64),
        _ => bail!("charfreq pairs start with a total row"),
    };
    let mut pairs = Vec::new();
    for row in rows {
        let (a, b, n, ppb) = row?;
        let key = (u32::from_str_radix(a, 16)?, u32::from_str_radix(b, 16)?);
        let p = TEXT_WEIGHT * n as f64 / text_total + (1.0 - TEXT_WEIGHT) * ppb as f64 / web_total;
        pairs.push((key, (-p.log2() * STEPS_PER_BIT).round().clamp(0.0, 254.0) as u8));
    }
    Ok(pairs)
}

/// Reads an intermediate file of `data/charfreq/`, adding its bytes to
/// `inputs` (hashed into the generated file's header).
fn read_data(name: &str, inputs: &mut Vec<u8>) -> Result<String> {
    let path = emit::data_dir().join("charfreq").join(name);
    let tsv = std::fs::read_to_string(&path)
        .with_context(|| format!("reading {} (run `count charfreq`)", path.display()))?;
    inputs.extend_from_slice(tsv.as_bytes());
    Ok(tsv)
}

/// The `emit` step.
pub fn emit(out: &mut Output) -> Result<()> {
    let mut inputs = Vec::new();
    let mut tables = Vec::new();
    for lang in LANGS {
        tables.push(blend(&read_data(&format!("{lang}.tsv"), &mut inputs)?)?);
    }
    let chars: std::collections::BTreeSet<u32> =
        tables.iter().flat_map(|t| t.costs.keys().copied()).collect();
    let n = chars.len();
    let mut body = String::new();
    body.push_str(
        "//! Character unigram costs of CJK text, per language: `-log2 p` in eighths of a\n\
         //! bit, from the training lines of shared/text and wordfreq's web word lists.\n\n",
    );
    writeln!(body, "/// The languages (BCP 47 tags), in the order of [`COSTS`] and [`FLOORS`].")?;
    writeln!(body, "pub const LANGS: [&str; {}] = {LANGS:?};", LANGS.len())?;
    writeln!(body, "/// How many eighths of a bit one step of cost is.")?;
    writeln!(body, "pub const STEPS_PER_BIT: u8 = {};", STEPS_PER_BIT as u8)?;
    writeln!(body, "/// The cost of a character missing from a language's column.")?;
    let floors: Vec<u8> = tables.iter().map(|t| t.floor).collect();
    writeln!(body, "pub const FLOORS: [u8; {}] = {floors:?};", LANGS.len())?;
    writeln!(body, "/// The characters with a cost in some language, ascending code points.")?;
    write!(body, "pub static CHARS: [u32; {n}] = [")?;
    for c in &chars {
        write!(body, "0x{c:X},")?;
    }
    body.push_str("];\n");
    writeln!(body, "/// Costs per language, by index into [`CHARS`]; 255 where not seen.")?;
    write!(body, "pub static COSTS: [[u8; {n}]; {}] = [", LANGS.len())?;
    for table in &tables {
        body.push('[');
        for c in &chars {
            write!(body, "{},", table.costs.get(c).copied().unwrap_or(255))?;
        }
        body.push_str("],");
    }
    body.push_str("];\n");
    // Pairs, grouped by first character: PAIR_START[lang][i]..[i + 1] are
    // the pairs whose first character is CHARS[i]. Pairs whose first
    // character is not in CHARS cannot be found that way and are left out.
    let index: BTreeMap<u32, usize> = chars.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut pair_names = Vec::new();
    for lang in LANGS {
        let tsv = read_data(&format!("{lang}.pairs.tsv"), &mut inputs)?;
        let mut pairs: Vec<(usize, u32, u8)> = blend_pairs(&tsv)?
            .into_iter()
            .filter_map(|((a, b), cost)| Some((*index.get(&a)?, b, cost)))
            .collect();
        pairs.sort_unstable();
        let name = lang.to_uppercase().replace('-', "_");
        writeln!(body, "/// Where the pairs of {lang} starting with each of [`CHARS`] start.")?;
        write!(body, "pub static PAIR_START_{name}: [u16; {}] = [", n + 1)?;
        let mut at = 0;
        for i in 0..=n {
            while at < pairs.len() && pairs[at].0 < i {
                at += 1;
            }
            write!(body, "{at},")?;
        }
        body.push_str("];\n");
        writeln!(body, "/// The second characters of the pairs of {lang}, ascending per first.")?;
        write!(body, "pub static PAIR_SECOND_{name}: [u32; {}] = [", pairs.len())?;
        for (_, second, _) in &pairs {
            write!(body, "0x{second:X},")?;
        }
        body.push_str("];\n");
        writeln!(
            body,
            "/// Joint costs of the pairs of {lang}, in the order of [`PAIR_SECOND_{name}`]."
        )?;
        write!(body, "pub static PAIR_COSTS_{name}: [u8; {}] = [", pairs.len())?;
        for (_, _, cost) in &pairs {
            write!(body, "{cost},")?;
        }
        body.push_str("];\n");
        pair_names.push(name);
    }
    let list = |prefix: &str| {
        pair_names.iter().map(|n| format!("&{prefix}{n}")).collect::<Vec<_>>().join(", ")
    };
    writeln!(
        body,
        "/// Adjacent pairs of non-ASCII characters per language (order of [`LANGS`]), the\n\
         /// likeliest {PAIRS_KEPT}: for first character `CHARS[i]`, the second characters\n\
         /// are `PAIR_SECOND[lang][PAIR_START[lang][i]..PAIR_START[lang][i + 1]]`, ascending."
    )?;
    let langs = LANGS.len();
    writeln!(body, "pub static PAIR_START: [&[u16]; {langs}] = [{}];", list("PAIR_START_"))?;
    writeln!(body, "/// See [`PAIR_START`].")?;
    writeln!(body, "pub static PAIR_SECOND: [&[u32]; {langs}] = [{}];", list("PAIR_SECOND_"))?;
    writeln!(
        body,
        "/// `-log2 p` of each pair, in eighths of a bit, in the order of [`PAIR_SECOND`]."
    )?;
    writeln!(body, "pub static PAIR_COSTS: [&[u8]; {langs}] = [{}];", list("PAIR_COSTS_"))?;
    out.rust("charfreq", "emit", &inputs, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_keeps_characters_cheaper_than_the_floor() {
        let tsv = "# comment\n4E00\t1000\t500000000\n4E01\t1\t0\n4E02\t0\t500000000\n";
        let table = blend(tsv).unwrap();
        // 一: half of the text and half of the web: p = 0.998 / 2 + 0.5 / 2.
        assert_eq!(table.costs[&0x4E00], 3);
        // Seen once in the text only: exactly twice the floor's probability.
        assert_eq!(table.costs[&0x4E01] + 8, table.floor);
        assert!(table.costs[&0x4E02] < table.floor);
    }

    #[test]
    fn pairs_need_their_total_row() {
        assert!(blend_pairs("4E00\t4E01\t1\t1\n").is_err());
        let pairs = blend_pairs("total\t-\t10\t1000000000\n4E00\t4E01\t5\t500000000\n").unwrap();
        assert_eq!(pairs, [((0x4E00, 0x4E01), 8)]);
    }

    #[test]
    fn simplified_mass_spreads_over_traditional_forms_by_text_counts() {
        let web = BTreeMap::from([('后', 1.0)]);
        let simplified = BTreeMap::from([('後', '后')]);
        let text = BTreeMap::from([('後', 3), ('后', 1)]);
        let spread = spread_to_traditional(&web, &simplified, &text);
        assert!((spread[&'後'] - 3.5 / 5.0).abs() < 1e-9);
        assert!((spread[&'后'] - 1.5 / 5.0).abs() < 1e-9);
        assert_eq!(traditional_forms(&simplified, &text)[&'后'], '後');
    }
}
