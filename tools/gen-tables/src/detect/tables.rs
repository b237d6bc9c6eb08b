//! Encoding tables, made by decoding bytes with `charsight::Charset`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::{Context, Result};
use charsight::unstable::CharFreq;
use charsight::Charset;

use super::model::{self, Model, ILLEGAL};
use super::Encoding;

/// A model is paired with a single-byte encoding that writes at least this
/// share of its non-ASCII letters.
const PAIR_COVERAGE: f64 = 0.97;

/// A reading of a single-byte encoding in a language that does not use it
/// (`users.tsv`) costs this many bits more: the odds, among documents in
/// that language, against this encoding rather than one its writers use.
const FOREIGN_BITS: f64 = 16.0;

/// Double-byte markers (costs stay below them).
const LEAD: u8 = 254;
const EXT3: u8 = 253;
const EXT4: u8 = 252;
const GB4: u8 = 251;
const MAX_COST: u8 = 250;
/// Private-use characters decode, but real text hardly has them.
const PRIVATE_USE_COST: u8 = 240;
/// A punctuation mark or symbol the character frequencies lack (they come
/// mostly from word lists) costs this, not the floor of unseen letters:
/// full-width brackets and marks are common in CJK text.
pub const SYMBOL_COST: u8 = 12 * 8;

const FIRST_LEAD: u8 = 0x81;
const FIRST_TRAIL: u8 = 0x30;
const LEADS: usize = 0xFE - 0x81 + 1;
const TRAILS: usize = 0xFE - 0x30 + 1;

/// The one character `bytes` decode to without error, if so.
fn decode_one(charset: Charset, bytes: &[u8]) -> Option<char> {
    let (text, had_errors) = charset.decode(bytes);
    let mut chars = text.chars();
    let c = chars.next()?;
    (!had_errors && chars.next().is_none()).then_some(c)
}

/// The character `bytes` decode to in `charset` as its decoder writes it,
/// combining marks after it included: four Big5 (HKSCS) pairs are a letter
/// and a mark (`88 62` is `Ê̄`, U+00CA U+0304), and are legal.
fn decode_char(charset: Charset, bytes: &[u8]) -> Option<char> {
    let (text, had_errors) = charset.decode(bytes);
    let mut chars = text.chars();
    let c = chars.next()?;
    let mark = |m: char| ('\u{300}'..='\u{36F}').contains(&m);
    (!had_errors && chars.all(mark)).then_some(c)
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// The character of each high byte of a single-byte encoding (`None`: the
/// byte does not decode, or decodes to a C1 control).
fn high_half(charset: Charset) -> Vec<Option<char>> {
    (0x80..=0xFFu8).map(|b| decode_one(charset, &[b]).filter(|&c| !is_c1(c))).collect()
}

pub fn emit_single(
    body: &mut String,
    encodings: &[&Encoding],
    models: &[Model],
    cldr: &model::Cldr,
    users: &BTreeMap<String, Vec<String>>,
) -> Result<()> {
    let halves: Vec<Vec<Option<char>>> = encodings.iter().map(|e| high_half(e.charset)).collect();
    let mut symbols: BTreeSet<char> =
        models.iter().flat_map(|m| m.alphabet.iter().copied()).collect();
    for half in &halves {
        symbols.extend(half.iter().flatten().map(|&c| model::fold(c).0));
    }
    symbols.extend(model::NO_BREAK_SPACES);
    let emissions = model::emissions(models, &symbols, cldr);
    model::emit_symbols(body, &symbols, models, &emissions)?;

    writeln!(
        body,
        "/// A single-byte encoding: the character of each high byte and the class\n\
         /// tables of the models whose text it can write.\n\
         pub struct SingleByte {{\n\
         /// The charset's canonical name.\npub charset: &'static str,\n\
         /// The character of bytes 0x80..=0xFF; 0 where the byte is illegal.\npub chars: [u16; 128],\n\
         /// Per model that pairs with it: (index into [`MODELS`], class of bytes \
         0x80..=0xFF with [`UPPER`] or [`ILLEGAL`], their emissions (see \
         [`SYMBOL_EMISSIONS`])), in model order.\n\
         pub models: &'static [(u8, [u8; 128], [u8; 128])],\n\
         /// The models (bit per index into [`MODELS`]) of the languages that use it; \
         a reading in another language costs [`FOREIGN_COST`] more.\n\
         pub users: u64,\n}}"
    )?;
    writeln!(
        body,
        "/// What a single-byte reading in a language that does not use the encoding\n\
         /// costs on top of its text, in steps (`users.tsv`).\n\
         pub const FOREIGN_COST: u16 = {};",
        (FOREIGN_BITS * super::STEPS_PER_BIT) as u16
    )?;
    write!(
        body,
        "/// Every single-byte encoding considered.\npub static SINGLE_BYTE: [SingleByte; {}] = [",
        encodings.len()
    )?;
    for (encoding, half) in encodings.iter().zip(&halves) {
        let repertoire: BTreeSet<char> = half.iter().flatten().copied().collect();
        let chars: Vec<u16> = half
            .iter()
            .map(|c| c.map_or(Ok(0), |c| u16::try_from(u32::from(c))))
            .collect::<Result<_, _>>()
            .context("a single-byte character outside the BMP")?;
        write!(
            body,
            "SingleByte {{ charset: {:?}, chars: {chars:?}, models: &[",
            encoding.charset.name()
        )?;
        let languages = users.get(encoding.charset.name()).map_or(&[][..], Vec::as_slice);
        for (index, m) in models.iter().enumerate() {
            // The languages an encoding is used for are read in it even where
            // it lacks some of their letters (Ukrainian і in IBM866: writers
            // put и or a Latin i in their place).
            if m.coverage(&repertoire) < PAIR_COVERAGE && !languages.contains(&m.language) {
                continue;
            }
            let classes: Vec<u8> =
                half.iter().map(|c| c.map_or(ILLEGAL, |c| m.byte_class(c))).collect();
            let emission: Vec<u8> = half
                .iter()
                .map(|c| {
                    c.map_or(0, |c| {
                        let c = model::fold(c).0;
                        emissions.mark_as_letter.get(&c).unwrap_or(&emissions.of[&c])[index]
                    })
                })
                .collect();
            write!(body, "({index}, {classes:?}, {emission:?}),")?;
        }
        for language in languages {
            if !models.iter().any(|m| &m.language == language) {
                anyhow::bail!("users.tsv: {}: no model for {language}", encoding.charset.name());
            }
        }
        let users = models
            .iter()
            .enumerate()
            .filter(|(_, m)| languages.contains(&m.language))
            .fold(0u64, |mask, (i, _)| mask | 1 << i);
        write!(body, "], users: {users:#x} }},")?;
    }
    body.push_str("];\n");
    Ok(())
}

/// Emits the double-byte encodings; returns each one's table of two-byte
/// costs, to be written beside the generated file.
pub fn emit_multi(body: &mut String, encodings: &[&Encoding]) -> Result<Vec<(Charset, Vec<u8>)>> {
    for (name, value, doc) in [
        ("LEAD", LEAD, "Single-byte marker: a lead byte, look the pair up in `doubles`."),
        (
            "EXT3",
            EXT3,
            "Single-byte marker: starts a three-byte sequence (two more bytes 0xA1..=0xFE).",
        ),
        (
            "EXT4",
            EXT4,
            "Single-byte marker: starts a four-byte sequence (three more bytes 0xA1..=0xFE).",
        ),
        (
            "GB4",
            GB4,
            "Double-byte marker: a gb18030 four-byte sequence (then 0x81..=0xFE, 0x30..=0x39).",
        ),
        ("FIRST_LEAD", FIRST_LEAD, "The lowest lead byte of `doubles`."),
        (
            "SYMBOL_COST",
            SYMBOL_COST,
            "Cost of a CJK-text symbol missing from the character frequencies.",
        ),
        ("FIRST_TRAIL", FIRST_TRAIL, "The lowest trail byte of `doubles`."),
    ] {
        writeln!(body, "/// {doc}\npub const {name}: u8 = {value};")?;
    }
    writeln!(
        body,
        "/// Trail bytes per lead in `doubles` (0x30..=0xFE).\npub const TRAILS: usize = {TRAILS};"
    )?;
    writeln!(
        body,
        "/// A double-byte encoding: character costs by byte sequence.\n\
         pub struct MultiByte {{\n\
         /// The charset's canonical name.\npub charset: &'static str,\n\
         /// The language of the character frequencies (a `charfreq` language).\npub language: &'static str,\n\
         /// Cost of a three- or four-byte sequence (the language's rarest).\npub rare: u8,\n\
         /// Bytes 0x80..=0xFF alone: a character's cost, a marker, or [`ILLEGAL`].\npub singles: [u8; 128],\n\
         /// Two-byte sequences, `(lead - FIRST_LEAD) * TRAILS + trail - FIRST_TRAIL`:\n\
         /// a character's cost, [`GB4`], or [`ILLEGAL`].\npub doubles: &'static [u8; {}],\n}}",
        LEADS * TRAILS
    )?;
    let mut tables = Vec::new();
    write!(
        body,
        "/// Every double-byte encoding considered.\npub static MULTI_BYTE: [MultiByte; {}] = [",
        encodings.len()
    )?;
    for encoding in encodings {
        let charset = encoding.charset;
        let language = encoding.language.as_deref().context("a multi encoding needs a language")?;
        let freq = CharFreq::for_language(language)
            .with_context(|| format!("no charfreq table for {language}"))?;
        let cost = |c: char| -> u8 {
            if is_c1(c) || c.is_ascii() {
                ILLEGAL
            } else if ('\u{E000}'..='\u{F8FF}').contains(&c) {
                PRIVATE_USE_COST
            } else {
                match freq.get(c) {
                    Some(cost) => cost.min(MAX_COST),
                    None if !c.is_alphabetic() => SYMBOL_COST.min(freq.floor()),
                    None => freq.floor().min(MAX_COST),
                }
            }
        };
        let mut singles = [ILLEGAL; 128];
        for (i, single) in singles.iter_mut().enumerate() {
            let b = 0x80 + i as u8;
            *single = if let Some(c) = decode_one(charset, &[b]) {
                cost(c)
            } else if (FIRST_TRAIL..=0xFE).any(|t| decode_char(charset, &[b, t]).is_some()) {
                LEAD
            } else if decode_one(charset, &[b, 0xB0, 0xA1]).is_some() {
                EXT3
            } else if decode_one(charset, &[b, 0xA2, 0xA1, 0xA1]).is_some() {
                EXT4
            } else {
                ILLEGAL
            };
        }
        let mut doubles = vec![ILLEGAL; LEADS * TRAILS];
        for lead in FIRST_LEAD..=0xFE {
            if singles[usize::from(lead - 0x80)] != LEAD {
                continue;
            }
            for trail in FIRST_TRAIL..=0xFE {
                let at = usize::from(lead - FIRST_LEAD) * TRAILS + usize::from(trail - FIRST_TRAIL);
                doubles[at] = match decode_char(charset, &[lead, trail]) {
                    Some(c) => cost(c),
                    None if decode_one(charset, &[lead, trail, 0x81, 0x30]).is_some() => GB4,
                    None => ILLEGAL,
                };
            }
        }
        write!(
            body,
            "MultiByte {{ charset: {:?}, language: {:?}, rare: {}, singles: {singles:?}, \
             doubles: include_bytes!(\"detect/{}.bin\") }},",
            charset.name(),
            freq.language(),
            freq.floor(),
            super::file_stem(charset)
        )?;
        tables.push((charset, doubles));
    }
    body.push_str("];\n");
    Ok(tables)
}
