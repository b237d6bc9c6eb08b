//! The generated models (`charsight_tables::detect`), resolved to
//! [`Charset`]s once per process.

use std::sync::OnceLock;

use charsight_tables::detect::{Kind, ENCODINGS};

use crate::Charset;

pub(super) use charsight_tables::detect::{
    Model, MultiByte, SingleByte, ASCII_LETTER, ASCII_OTHER, ASCII_PAIRS, CJK_COSTS, DIGIT, EXT3,
    EXT4, FAR_LETTER, FAR_LETTER_EMISSION, FIRST_LEAD, FIRST_TRAIL, FOREIGN_COST, GB4, ILLEGAL,
    LAST_ASCII, LAST_ASCII_LETTER, LEAD, MODELS, MULTI_BYTE, ODD, OTHER_LETTER, PLAIN_PAIRS,
    SINGLE_BYTE, SPACING_DIACRITICS, STAY_STEPS_PER_BIT, STEPS_PER_BIT, SYMBOL, SYMBOLS,
    SYMBOL_CLASSES, SYMBOL_COST, SYMBOL_EMISSIONS, TLDS, TRAILS, UNSEEN_LETTER_EMISSIONS,
    UNSEEN_SYMBOL_EMISSIONS, UPPER,
};

/// One encoding the detector considers, with what scores it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub charset: Charset,
    /// Cost before any evidence, in steps.
    pub prior: u32,
    pub kind: Kind,
    /// Index into `SINGLE_BYTE` or `MULTI_BYTE` for those kinds.
    pub table: usize,
    /// For a single-byte encoding, the high bytes it does not decode (bit
    /// `b - 0x80`).
    pub illegal: u128,
}

/// Every encoding considered, in the generated order.
pub(super) fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        ENCODINGS
            .iter()
            .filter_map(|e| {
                let charset = by_name(e.charset)?;
                let table = match e.kind {
                    Kind::Single => SINGLE_BYTE.iter().position(|s| s.charset == e.charset)?,
                    Kind::Multi => MULTI_BYTE.iter().position(|m| m.charset == e.charset)?,
                    Kind::Unicode | Kind::Iso2022 => 0,
                };
                let illegal = match e.kind {
                    Kind::Single => (0..128)
                        .filter(|&b| SINGLE_BYTE[table].chars[b] == 0)
                        .fold(0, |mask, b| mask | 1 << b),
                    _ => 0,
                };
                Some(Entry { charset, prior: u32::from(e.prior), kind: e.kind, table, illegal })
            })
            .collect()
    })
}

/// The index of a charset's double-byte table in `MULTI_BYTE`, for the
/// seven-bit forms that reuse one (ISO-2022-JP uses EUC-JP's).
pub(super) fn multi_byte(charset: Charset) -> Option<usize> {
    MULTI_BYTE.iter().position(|m| m.charset == charset.name())
}

fn by_name(name: &str) -> Option<Charset> {
    Charset::ALL.iter().copied().find(|c| c.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_encoding_is_a_charset() {
        assert_eq!(entries().len(), ENCODINGS.len());
        assert!(multi_byte(Charset::EucJp).is_some());
        assert!(entries().iter().any(|e| e.charset == Charset::Utf8));
    }
}
