//! Family `fonts`: symbol-font tables (byte -> Unicode) and the legacy Indic
//! font encodings (ordered replacement rules), from `../shared/fonts`.
//!
//! - `count fonts` reads the shared TSVs and writes one compact file per font
//!   into `data/fonts/<id>.tsv`: a provenance header (source file, its
//!   sha256, licence), then `byte<TAB>code points` rows (symbol fonts) or
//!   `legacy code points<TAB>unicode code points` rows (rule lists, in
//!   order). Code points are hex, space separated, so no cell needs escaping.
//! - `emit` turns those files into `generated/fonts.rs`: one `Font` per
//!   table with its display name, aliases, licence and mapping.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::emit::{data_dir, sha256, Output};

/// How a font's table maps text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// One byte (0x20-0xFF) -> one Unicode string.
    Bytes,
    /// Ordered plain-string replacements.
    Rules,
    /// Ordered replacements around the Kruti Dev reordering steps.
    KrutiDev,
}

/// A table and what is known of it. The aliases are the font names pages use.
struct Spec {
    id: &'static str,
    name: &'static str,
    file: &'static str,
    kind: Kind,
    licence: &'static str,
    aliases: &'static [&'static str],
}

const GPL_PANDOC: &str =
    "GPL-2.0-or-later (byte -> code point facts from pandoc's Docx Symbols.hs)";
const GPL_OPEN_TAMIL: &str =
    "GPL-3.0-or-later (tables by Arulalan.T in open-tamil 1.1 txt2unicode/encode2utf8.py)";

/// Tables whose only licence is the GPL are compiled in only with the
/// `gpl-fonts` feature of charsight-tables, so that a default build of the
/// library stays under its own permissive licence.
fn gpl_only(spec: &Spec) -> bool {
    spec.licence.starts_with("GPL-")
}

const SPECS: &[Spec] = &[
    Spec {
        id: "symbol",
        name: "Symbol",
        file: "symbol.tsv",
        kind: Kind::Bytes,
        licence: "Unicode vendor table terms / MIT (uniset-snapshots), Adobe Symbol v0.5",
        aliases: &["Symbol", "Symbol MT", "SymbolMT"],
    },
    Spec {
        id: "wingdings",
        name: "Wingdings",
        file: "wingdings.tsv",
        kind: Kind::Bytes,
        licence: GPL_PANDOC,
        aliases: &["Wingdings", "Wingdings 1"],
    },
    Spec {
        id: "wingdings2",
        name: "Wingdings 2",
        file: "wingdings2.tsv",
        kind: Kind::Bytes,
        licence: GPL_PANDOC,
        aliases: &["Wingdings 2", "Wingdings2"],
    },
    Spec {
        id: "wingdings3",
        name: "Wingdings 3",
        file: "wingdings3.tsv",
        kind: Kind::Bytes,
        licence: GPL_PANDOC,
        aliases: &["Wingdings 3", "Wingdings3"],
    },
    Spec {
        id: "webdings",
        name: "Webdings",
        file: "webdings.tsv",
        kind: Kind::Bytes,
        licence: GPL_PANDOC,
        aliases: &["Webdings"],
    },
    Spec {
        id: "zapf_dingbats",
        name: "Zapf Dingbats",
        file: "zapf_dingbats.tsv",
        kind: Kind::Bytes,
        licence:
            "facts from Unicode VENDORS/ADOBE/zdingbat.txt v0.3, cross-checked with Perl Encode",
        aliases: &["Zapf Dingbats", "ZapfDingbats", "ITC Zapf Dingbats", "Dingbats"],
    },
    Spec {
        id: "mac_symbol",
        name: "Mac Symbol",
        file: "mac_symbol.tsv",
        kind: Kind::Bytes,
        licence: "Perl Encode MacSymbol (Artistic-1.0 or GPL-1+), from Apple's SYMBOL.TXT",
        aliases: &["Mac Symbol"],
    },
    Spec {
        id: "mac_dingbats",
        name: "Mac Dingbats",
        file: "mac_dingbats.tsv",
        kind: Kind::Bytes,
        licence: "Perl Encode MacDingbats (Artistic-1.0 or GPL-1+), from Apple's DINGBATS.TXT",
        aliases: &["Mac Dingbats"],
    },
    Spec {
        id: "kruti_dev_010",
        name: "Kruti Dev 010",
        file: "hindi/kruti_dev_010_to_unicode.tsv",
        kind: Kind::KrutiDev,
        licence: "MIT (hinlegacy 1.0.1, (c) 2026 Satvik Mishra)",
        aliases: &["Kruti Dev 010", "KrutiDev010", "Kruti Dev", "DevLys 010", "DevLys010"],
    },
    Spec {
        id: "bamini",
        name: "Bamini",
        file: "tamil/bamini_to_unicode.tsv",
        kind: Kind::Rules,
        licence: GPL_OPEN_TAMIL,
        aliases: &["Bamini", "Baamini"],
    },
    Spec {
        id: "tab",
        name: "TAB",
        file: "tamil/tab_to_unicode.tsv",
        kind: Kind::Rules,
        licence: GPL_OPEN_TAMIL,
        aliases: &["TAB", "TAB-*"],
    },
    Spec {
        id: "tam",
        name: "TAM",
        file: "tamil/tam_to_unicode.tsv",
        kind: Kind::Rules,
        licence: GPL_OPEN_TAMIL,
        aliases: &["TAM", "TAM-*"],
    },
    Spec {
        id: "tscii",
        name: "TSCII",
        file: "tamil/tscii_to_unicode.tsv",
        kind: Kind::Rules,
        licence: GPL_OPEN_TAMIL,
        aliases: &["TSCII", "TSC-*", "TSCu-*"],
    },
];

/// `count fonts`: shared TSVs -> `data/fonts/<id>.tsv`.
pub fn count(out: &mut Output, shared: &Path) -> Result<()> {
    for spec in SPECS {
        let path = shared.join("fonts").join(spec.file);
        let raw = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let text = String::from_utf8(raw.clone())?;
        let mut compact = format!(
            "# {} <- ../shared/fonts/{} (sha256 {})\n# licence: {}\n",
            spec.name,
            spec.file,
            sha256(&raw),
            spec.licence
        );
        let rows = text.lines().filter(|l| !l.starts_with('#')).skip(1);
        for (n, row) in rows.enumerate() {
            let cells: Vec<&str> = row.split('\t').collect();
            let line = match spec.kind {
                Kind::Bytes => match cells.as_slice() {
                    [byte, unicode, ..] if !unicode.is_empty() => format!("{byte}\t{unicode}"),
                    [_, ..] => continue,
                    [] => bail!("{}: empty row {n}", spec.file),
                },
                Kind::Rules | Kind::KrutiDev => match cells.as_slice() {
                    [_, legacy, _, unicode, ..] => {
                        let legacy = legacy.replace("\\\\", "\\");
                        format!("{}\t{}", hex(&legacy), hex(unicode))
                    }
                    _ => bail!("{}: short row {n}", spec.file),
                },
            };
            compact.push_str(&line);
            compact.push('\n');
        }
        out.file(&data_dir().join("fonts").join(format!("{}.tsv", spec.id)), compact.as_bytes())?;
    }
    Ok(())
}

/// Code points of `s` as space-separated upper-case hex.
fn hex(s: &str) -> String {
    s.chars().map(|c| format!("{:04X}", u32::from(c))).collect::<Vec<_>>().join(" ")
}

/// Parses space-separated hex code points back into a string.
fn unhex(cells: &str) -> Result<String> {
    cells
        .split(' ')
        .filter(|c| !c.is_empty())
        .map(|c| {
            u32::from_str_radix(c, 16)
                .ok()
                .and_then(char::from_u32)
                .with_context(|| format!("bad code point {c:?}"))
        })
        .collect()
}

/// `emit`: `data/fonts/*.tsv` -> `generated/fonts.rs`.
pub fn emit(out: &mut Output) -> Result<()> {
    let mut inputs = Vec::new();
    let mut body = String::from(
        "//! Font tables: symbol fonts (byte -> Unicode) and legacy Indic font\n\
         //! encodings (ordered replacement rules), with names, aliases and the\n\
         //! licence of each source (`Font::licence`): Wingdings 1-3 and Webdings\n\
         //! GPL-2.0-or-later (pandoc), Bamini/TAB/TAM/TSCII GPL-3.0-or-later\n\
         //! (open-tamil), Kruti Dev MIT (hinlegacy), the others Unicode, Adobe and\n\
         //! Apple vendor tables. Provenance: tools/gen-tables/data/fonts/*.tsv.\n\
         //! The GPL-only tables are compiled in with the `gpl-fonts` feature.\n\n\
         /// How a font's text maps to Unicode.\n\
         #[derive(Clone, Copy, Debug)]\n\
         pub enum Map {\n\
         /// Byte (or U+F000 + byte) 0x20..=0xFF -> Unicode; `\"\"` where the font has no mapping.\n\
         Bytes(&'static [&'static str; 224]),\n\
         /// Ordered plain-string replacements (legacy, Unicode), applied one after another.\n\
         Rules(&'static [(&'static str, &'static str)]),\n\
         /// Kruti Dev: the short-i and reph reordering steps, then ordered replacements.\n\
         KrutiDev(&'static [(&'static str, &'static str)]),\n\
         }\n\n\
         /// One font's table.\n\
         #[derive(Clone, Copy, Debug)]\n\
         pub struct Font {\n\
         /// Display name.\n\
         pub name: &'static str,\n\
         /// Names pages use for it; a trailing `*` matches any suffix.\n\
         pub aliases: &'static [&'static str],\n\
         /// Where the table came from and under which licence.\n\
         pub licence: &'static str,\n\
         /// The mapping.\n\
         pub map: Map,\n\
         }\n\n",
    );
    let mut list = String::from("/// Every built-in font table.\npub static FONTS: &[Font] = &[\n");
    for spec in SPECS {
        let path = data_dir().join("fonts").join(format!("{}.tsv", spec.id));
        let data = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}; run `count fonts` first", path.display()))?;
        inputs.extend_from_slice(data.as_bytes());
        let konst = spec.id.to_uppercase();
        let gate = if gpl_only(spec) { "#[cfg(feature = \"gpl-fonts\")]\n" } else { "" };
        body.push_str(gate);
        list.push_str(gate);
        let rows = data.lines().filter(|l| !l.starts_with('#')).map(|l| l.split_once('\t'));
        match spec.kind {
            Kind::Bytes => {
                let mut table = vec![String::new(); 224];
                for row in rows {
                    let (byte, unicode) = row.context("row without a tab")?;
                    let byte = u8::from_str_radix(byte, 16)?;
                    if byte < 0x20 {
                        bail!("{}: byte {byte:02X} below 0x20", spec.id);
                    }
                    table[usize::from(byte - 0x20)] = unhex(unicode)?;
                }
                writeln!(body, "static {konst}: [&str; 224] = {table:?};")?;
                writeln!(list, "Font {{ name: {:?}, aliases: &{:?}, licence: {:?}, map: Map::Bytes(&{konst}) }},", spec.name, spec.aliases, spec.licence)?;
            }
            Kind::Rules | Kind::KrutiDev => {
                let mut rules = Vec::new();
                for row in rows {
                    let (legacy, unicode) = row.context("row without a tab")?;
                    rules.push((unhex(legacy)?, unhex(unicode)?));
                }
                writeln!(body, "static {konst}: &[(&str, &str)] = &{rules:?};")?;
                let variant = if spec.kind == Kind::KrutiDev { "KrutiDev" } else { "Rules" };
                writeln!(list, "Font {{ name: {:?}, aliases: &{:?}, licence: {:?}, map: Map::{variant}({konst}) }},", spec.name, spec.aliases, spec.licence)?;
            }
        }
    }
    list.push_str("];\n");
    body.push('\n');
    body.push_str(&list);
    out.rust("fonts", "emit (data/fonts/ from `count fonts`)", &inputs, &body)
}
