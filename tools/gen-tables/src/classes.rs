//! The class of every code point (`charsight::unstable::Class`), as a
//! two-level table: the runtime looks a character up instead of searching
//! the Unicode data for it, and the generator's models classify with the
//! same table.
//!
//! The rule is written here once, from the Unicode data of the Rust standard
//! library (`Alphabetic`), `unicode-properties` (general category) and
//! `unicode-normalization` (decompositions); the header records their
//! Unicode versions, so `check` fails when a dependency's data changes.

use anyhow::{Context, Result};
use charsight::unstable::{Class, MARK};
use unicode_normalization::char::{decompose_canonical, decompose_compatible};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::emit::Output;

/// Code points per block of the table: 2^BLOCK_BITS.
const BLOCK_BITS: u32 = 7;

/// The class of `c` by the rule (see [`Class`]).
fn class_of(c: char) -> Class {
    if c.is_alphabetic() {
        let (mut canonical, mut compatible) = (Vec::new(), Vec::new());
        decompose_canonical(c, |d| canonical.push(d));
        decompose_compatible(c, |d| compatible.push(d));
        return if canonical == compatible { Class::Letter } else { Class::Other };
    }
    match c.general_category() {
        GeneralCategory::Control => Class::Control,
        GeneralCategory::Format => Class::Format,
        GeneralCategory::PrivateUse => Class::PrivateUse,
        GeneralCategory::Unassigned => Class::Unassigned,
        _ => Class::Other,
    }
}

/// The number of `c` in the table: its class, plus [`MARK`] for a mark
/// (general category M).
fn number(c: char) -> u8 {
    let mark = c.general_category_group() == GeneralCategoryGroup::Mark;
    class_of(c) as u8 | if mark { MARK } else { 0 }
}

/// The number of every code point (surrogates, which are not characters, as
/// [`Class::Unassigned`]).
fn classes() -> Vec<u8> {
    (0..=char::MAX as u32)
        .map(|cp| char::from_u32(cp).map_or(Class::Unassigned as u8, number))
        .collect()
}

pub fn emit(out: &mut Output) -> Result<()> {
    let classes = classes();
    let size = 1usize << BLOCK_BITS;
    let mut blocks: Vec<&[u8]> = Vec::new();
    let mut index = Vec::new();
    for block in classes.chunks(size) {
        let at = blocks.iter().position(|b| *b == block).unwrap_or_else(|| {
            blocks.push(block);
            blocks.len() - 1
        });
        index.push(u8::try_from(at).context("more than 256 distinct blocks: widen BLOCK_INDEX")?);
    }
    let versions = format!(
        "Unicode versions: std {:?}, unicode-properties {:?}, unicode-normalization {:?}",
        char::UNICODE_VERSION,
        unicode_properties::UNICODE_VERSION,
        unicode_normalization::UNICODE_VERSION,
    );
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(",");
    let body = format!(
        "//! The class of every code point (`charsight::classify::Class` by number, plus\n\
         //! `MARK` for a mark), in\n\
         //! blocks of 2^BLOCK_BITS code points. {versions}.\n\n\
         pub const BLOCK_BITS: u32 = {BLOCK_BITS};\n\n\
         /// For each block of code points, its contents' index in `BLOCKS` (in blocks).\n\
         pub static BLOCK_INDEX: [u8; {}] = [{}];\n\n\
         /// The distinct blocks, one class number per code point.\n\
         pub static BLOCKS: [u8; {}] = [{}];\n",
        index.len(),
        list(&mut index.iter().map(u8::to_string)),
        blocks.len() * size,
        list(&mut blocks.iter().flat_map(|b| b.iter()).map(u8::to_string)),
    );
    out.rust("classes", "emit", versions.as_bytes(), &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table the runtime reads is the rule's.
    #[test]
    fn runtime_table_matches_the_rule() {
        let table = classes();
        for (cp, &number) in table.iter().enumerate() {
            if let Some(c) = char::from_u32(cp as u32) {
                assert_eq!(charsight::unstable::class(c) as u8, number & !MARK, "U+{cp:04X}");
                assert_eq!(charsight::unstable::is_mark(c), number & MARK != 0, "U+{cp:04X}");
            }
        }
    }
}
