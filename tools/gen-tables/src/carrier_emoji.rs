//! Family `carrier-emoji`: Japanese mobile-carrier emoji (NTT DoCoMo's
//! private-use code points) to standard Unicode emoji.
//!
//! The raw input is `e4u/data/emoji4unicode.xml` from the PyPI package
//! `e4u` 0.2rc1 (BSD; the data is the emoji4unicode project's mapping,
//! Apache-2.0). Get it with `pip download --no-deps e4u==0.2rc1` and unpack
//! the sdist, then run `cargo run -p gen-tables -- count carrier-emoji
//! <path to emoji4unicode.xml>`.
//!
//! - `count` keeps the exact DoCoMo mappings (a `docomo` code without the
//!   `>` that marks an approximate fallback, and a `unicode` value) in
//!   `data/carrier_emoji/docomo.tsv`: `PUA<TAB>code points`.
//! - `emit` writes `generated/carrier_emoji.rs`, sorted by code point.
//!
//! Only DoCoMo is taken: its private-use code points are exactly what a
//! WHATWG Shift_JIS decoder makes of its bytes (rows F8-F9), while KDDI's
//! and SoftBank's would need their own byte tables, which this data lacks.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::emit::{data_dir, sha256, Output};

/// `count carrier-emoji <xml>`.
pub fn count(out: &mut Output, xml: &Path) -> Result<()> {
    let raw = std::fs::read(xml).with_context(|| format!("reading {}", xml.display()))?;
    let text = String::from_utf8(raw.clone())?;
    let mut map: BTreeMap<u32, String> = BTreeMap::new();
    for element in text.split("<e ").skip(1) {
        let head = element.split('>').next().unwrap_or_default();
        let attr = |name: &str| {
            let key = format!("{name}=\"");
            head.find(&key).map(|at| {
                let value = &head[at + key.len()..];
                value[..value.find('"').unwrap_or(value.len())].to_owned()
            })
        };
        let (Some(docomo), Some(unicode)) = (attr("docomo"), attr("unicode")) else { continue };
        let Ok(pua) = u32::from_str_radix(&docomo, 16) else { continue }; // "&gt;E63E": approximate
        let cps: Vec<String> = unicode
            .split('+')
            .filter(|s| !s.is_empty())
            .map(|s| format!("{:04X}", u32::from_str_radix(s, 16).unwrap_or(0)))
            .collect();
        if cps.iter().any(|c| c == "0000") {
            bail!("bad unicode value {unicode:?}");
        }
        if map.insert(pua, cps.join(" ")).is_some() {
            bail!("DoCoMo {pua:04X} mapped twice");
        }
    }
    let mut tsv = format!(
        "# NTT DoCoMo emoji (private use) -> Unicode, exact mappings only.\n\
         # Source: PyPI e4u 0.2rc1 (sdist sha256 0793204c89effd262388738e75b5fd3d77ae181b354f309f9d63cb98f57f426d),\n\
         # e4u/data/emoji4unicode.xml (sha256 {}); e4u is BSD, the data is the emoji4unicode project's (Apache-2.0).\n",
        sha256(&raw)
    );
    for (pua, cps) in &map {
        writeln!(tsv, "{pua:04X}\t{cps}")?;
    }
    out.file(&data_dir().join("carrier_emoji/docomo.tsv"), tsv.as_bytes())
}

/// `emit`: `data/carrier_emoji/docomo.tsv` -> `generated/carrier_emoji.rs`.
pub fn emit(out: &mut Output) -> Result<()> {
    let path = data_dir().join("carrier_emoji/docomo.tsv");
    let tsv = std::fs::read_to_string(&path)
        .with_context(|| format!("reading {}; run `count carrier-emoji` first", path.display()))?;
    let mut rows = Vec::new();
    for row in tsv.lines().filter(|l| !l.starts_with('#')) {
        let (pua, cps) = row.split_once('\t').context("row without a tab")?;
        let pua = char::from_u32(u32::from_str_radix(pua, 16)?).context("bad code point")?;
        let text: String = cps
            .split(' ')
            .map(|c| {
                u32::from_str_radix(c, 16).ok().and_then(char::from_u32).context("bad code point")
            })
            .collect::<Result<_>>()?;
        rows.push((pua, text));
    }
    let body = format!(
        "//! NTT DoCoMo emoji: private-use code point -> Unicode emoji, sorted by\n\
         //! code point (from e4u 0.2rc1's emoji4unicode.xml; BSD / Apache-2.0).\n\n\
         /// (DoCoMo private-use code point, Unicode text), sorted.\n\
         pub static DOCOMO: &[(char, &str)] = &{rows:?};\n"
    );
    out.rust(
        "carrier_emoji",
        "emit (data/carrier_emoji/docomo.tsv from `count carrier-emoji`)",
        tsv.as_bytes(),
        &body,
    )
}
