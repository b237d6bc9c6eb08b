//! JIS X 0212, the supplementary 94×94 Japanese set, through `encoding_rs`'s
//! EUC-JP (which decodes it after `8F`, as the Encoding Standard's
//! `index-jis0212`, but never encodes it), for EUC-JIS-2004: Python's
//! `euc_jis_2004` reads `8F` sequences that JIS X 0213's plane 2 lacks as
//! JIS X 0212, and writes the characters only JIS X 0212 has that way.

use std::sync::OnceLock;

use encoding_rs::{DecoderResult, EUC_JP};

/// Python's tilde, and its row and cell.
const TILDE: (char, (u8, u8)) = ('~', (0x22, 0x37));

/// The character at `row` and `cell` (each 0x21 to 0x7E), if any.
pub(super) fn decode(row: u8, cell: u8) -> Option<char> {
    if !(0x21..=0x7E).contains(&row) || !(0x21..=0x7E).contains(&cell) {
        return None;
    }
    if (row, cell) == TILDE.1 {
        return Some(TILDE.0);
    }
    let mut decoder = EUC_JP.new_decoder_without_bom_handling();
    let mut utf8 = [0u8; 8];
    let bytes = [0x8F, row | 0x80, cell | 0x80];
    let (result, _, written) = decoder.decode_to_utf8_without_replacement(&bytes, &mut utf8, true);
    let text = std::str::from_utf8(&utf8[..written]).ok()?;
    let mut chars = text.chars();
    match (result, chars.next(), chars.next()) {
        (DecoderResult::InputEmpty, Some(c), None) => Some(c),
        _ => None,
    }
}

/// The row and cell (each 0x21 to 0x7E) of `c`, if JIS X 0212 has it.
pub(super) fn encode(c: char) -> Option<(u8, u8)> {
    static REVERSE: OnceLock<Vec<(char, (u8, u8))>> = OnceLock::new();
    let reverse = REVERSE.get_or_init(|| {
        let mut reverse: Vec<_> = (0x21..=0x7E)
            .flat_map(|row| (0x21..=0x7E).map(move |cell| [row, cell]))
            .filter_map(|[row, cell]| decode(row, cell).map(|c| (c, (row, cell))))
            .collect();
        // (Every character has one cell.)
        reverse.sort_unstable();
        reverse
    });
    let i = reverse.binary_search_by_key(&c, |&(c, _)| c).ok()?;
    Some(reverse[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_cells() {
        assert_eq!(decode(0x30, 0x21), Some('丂'));
        assert_eq!(decode(0x22, 0x2F), Some('˘'));
        assert_eq!(decode(0x21, 0x21), None);
        assert_eq!(decode(0x30, 0x7F), None);
        assert_eq!(encode('丂'), Some((0x30, 0x21)));
        assert_eq!(encode('亜'), None);
        assert_eq!(decode(0x22, 0x37), Some('~'));
    }

    #[test]
    fn every_cell_round_trips() {
        // The Encoding Standard's index-jis0212.
        assert_eq!(crate::codec::testing::cells_round_trip(decode, encode), 6067);
    }
}
