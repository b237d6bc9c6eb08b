//! JIS X 0213:2004, the 94×94×2 Japanese set of EUC-JIS-2004 and
//! Shift_JIS-2004 (generated from glibc's `EUC-JISX0213`), and the encoder
//! both share.
//!
//! Twenty-five cells stand for two code points, a letter and a combining
//! mark (`か゚` at plane 1, row 4, cell 87 is U+304B U+309A): the decoders
//! write both, and the [`Encoder`] composes such a pair back into its cell,
//! holding a letter that may begin one until the next character shows
//! whether it does (as Python's encoders do).
//!
//! The decoders read as Python's `euc_jis_2004` and `shift_jis_2004` do
//! (their tests compare every sequence), which differ from glibc's charmap
//! in a few cells of plane 1, [`PYTHON_READINGS`]; the encoder writes those
//! characters there, and not glibc's.

use std::sync::OnceLock;

use charsight_tables::charmaps::{JISX0213_CELLS, JISX0213_PAIRS};

use super::{jis_x0212, shift_jis_2004, Step};

/// A code of JIS X 0213: plane (1 or 2), row and cell (each 0x21 to 0x7E).
pub(super) type Code = [u8; 3];

/// How a codec lays JIS X 0213 out in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// EUC-JIS-2004: ASCII, `8E` and a half-width katakana byte, plane 1
    /// as row|80 cell|80, plane 2 (and JIS X 0212) after `8F`.
    Euc,
    /// Shift_JIS-2004: JIS X 0201 (Roman and half-width katakana) in single
    /// bytes, both planes in two bytes.
    ShiftJis,
}

/// One cell Python reads otherwise than glibc's charmap.
struct Reading {
    row: u8,
    cell: u8,
    /// glibc's character, which Python neither decodes nor encodes here.
    glibc: char,
    /// Python's.
    python: char,
    /// Only in Shift_JIS-2004 (whose 0x5C and 0x7E are `¥` and `‾`).
    shift_jis_only: bool,
}

/// Where Python's `euc_jis_2004` and `shift_jis_2004` differ from glibc's
/// charmap, all in plane 1: the dash and the white parentheses as Python's
/// (and the Encoding Standard's) JIS X 0208 maps them, and, in
/// Shift_JIS-2004 only, the full-width reverse solidus and tilde as ASCII's
/// `\` and `~` (which its single bytes lack).
const PYTHON_READINGS: [Reading; 5] = [
    Reading { row: 0x21, cell: 0x3D, glibc: '\u{2014}', python: '\u{2015}', shift_jis_only: false },
    Reading { row: 0x22, cell: 0x56, glibc: '\u{FF5F}', python: '\u{2985}', shift_jis_only: false },
    Reading { row: 0x22, cell: 0x57, glibc: '\u{FF60}', python: '\u{2986}', shift_jis_only: false },
    Reading { row: 0x21, cell: 0x40, glibc: '\u{FF3C}', python: '\\', shift_jis_only: true },
    Reading { row: 0x22, cell: 0x32, glibc: '\u{FF5E}', python: '~', shift_jis_only: true },
];

impl Layout {
    fn readings(self) -> impl Iterator<Item = &'static Reading> {
        PYTHON_READINGS.iter().filter(move |r| self == Layout::ShiftJis || !r.shift_jis_only)
    }

    /// The text of `code` (one character, or a letter and a mark).
    pub(super) fn decode(self, code: Code) -> Option<(char, Option<char>)> {
        let [plane, row, cell] = code;
        let i = index(code)?;
        if let Some(r) = self.readings().find(|r| plane == 1 && (r.row, r.cell) == (row, cell)) {
            return Some((r.python, None));
        }
        match JISX0213_CELLS[i] {
            0 => {
                let p = JISX0213_PAIRS.binary_search_by_key(&(i as u16), |p| p.0).ok()?;
                let (_, base, mark) = JISX0213_PAIRS[p];
                Some((char::from_u32(base)?, Some(char::from_u32(mark)?)))
            }
            code_point => Some((char::from_u32(code_point)?, None)),
        }
    }

    /// What a decoder read at `code`: its text, or None if it has none.
    pub(super) fn step(self, code: Code) -> Option<Step> {
        match self.decode(code)? {
            (c, None) => Some(Step::Char(c)),
            (base, Some(mark)) => Some(Step::Pair(base, mark)),
        }
    }

    /// The code of `c` alone, if JIS X 0213 has it.
    pub(super) fn encode(self, c: char) -> Option<Code> {
        if let Some(r) = self.readings().find(|r| r.python == c) {
            return Some([1, r.row, r.cell]);
        }
        if self.readings().any(|r| r.glibc == c) {
            return None;
        }
        static REVERSE: OnceLock<Vec<(u32, u16)>> = OnceLock::new();
        let reverse = REVERSE.get_or_init(|| {
            let mut reverse: Vec<_> = (0..JISX0213_CELLS.len())
                .filter(|&i| JISX0213_CELLS[i] != 0)
                .map(|i| (JISX0213_CELLS[i], i as u16))
                .collect();
            reverse.sort_unstable();
            reverse
        });
        let i = reverse.binary_search_by_key(&u32::from(c), |&(cp, _)| cp).ok()?;
        Some(code_at(usize::from(reverse[i].1)))
    }

    /// Appends the bytes of `code`; false if the layout has none (a row of
    /// plane 2 that JIS X 0213 leaves empty, in Shift_JIS-2004).
    fn write(self, code: Code, dst: &mut Vec<u8>) -> bool {
        match (self, code) {
            (Layout::Euc, [1, row, cell]) => dst.extend_from_slice(&[row | 0x80, cell | 0x80]),
            (Layout::Euc, [_, row, cell]) => {
                dst.extend_from_slice(&[0x8F, row | 0x80, cell | 0x80])
            }
            (Layout::ShiftJis, code) => match shift_jis_2004::bytes(code) {
                Some(bytes) => dst.extend_from_slice(&bytes),
                None => return false,
            },
        }
        true
    }

    /// Appends the bytes of a character outside JIS X 0213, if the layout
    /// has it: ASCII (or JIS X 0201 Roman), half-width katakana, and in
    /// EUC-JIS-2004, JIS X 0212.
    fn write_other(self, c: char, dst: &mut Vec<u8>) -> bool {
        let katakana =
            ('\u{FF61}'..='\u{FF9F}').contains(&c).then(|| (u32::from(c) - 0xFEC0) as u8);
        match (self, c, katakana) {
            (Layout::Euc, _, Some(byte)) => dst.extend_from_slice(&[0x8E, byte]),
            (Layout::Euc, _, None) if c.is_ascii() => dst.push(c as u8),
            (Layout::Euc, _, None) => match jis_x0212::encode(c) {
                Some((row, cell)) => dst.extend_from_slice(&[0x8F, row | 0x80, cell | 0x80]),
                None => return false,
            },
            (Layout::ShiftJis, _, Some(byte)) => dst.push(byte),
            (Layout::ShiftJis, '¥', _) => dst.push(0x5C),
            (Layout::ShiftJis, '‾', _) => dst.push(0x7E),
            (Layout::ShiftJis, '\\' | '~', _) => return false,
            (Layout::ShiftJis, _, _) if c.is_ascii() => dst.push(c as u8),
            (Layout::ShiftJis, _, _) => return false,
        }
        true
    }
}

/// The index of `code` in `JISX0213_CELLS`.
fn index([plane, row, cell]: Code) -> Option<usize> {
    let offset = |b: u8| (0x21..=0x7E).contains(&b).then(|| usize::from(b - 0x21));
    let plane = usize::from(plane).checked_sub(1).filter(|&p| p < 2)?;
    Some((plane * 94 + offset(row)?) * 94 + offset(cell)?)
}

/// The code at index `i` of `JISX0213_CELLS`.
fn code_at(i: usize) -> Code {
    let (plane, rest) = (i / (94 * 94), i % (94 * 94));
    [plane as u8 + 1, (rest / 94) as u8 + 0x21, (rest % 94) as u8 + 0x21]
}

/// The cell of letter `base` followed by the combining `mark`, if one.
pub(super) fn compose(base: char, mark: char) -> Option<Code> {
    let p = JISX0213_PAIRS.iter().find(|p| (p.1, p.2) == (u32::from(base), u32::from(mark)))?;
    Some(code_at(usize::from(p.0)))
}

/// Whether `c` begins one of the pairs of [`JISX0213_PAIRS`].
pub(super) fn begins_pair(c: char) -> bool {
    JISX0213_PAIRS.iter().any(|p| p.1 == u32::from(c))
}

/// The encoder of EUC-JIS-2004 and Shift_JIS-2004.
pub(super) struct Encoder {
    layout: Layout,
    /// A letter held back: it may begin a pair with the next character.
    pending: Option<char>,
}

impl Encoder {
    pub(super) fn new(layout: Layout) -> Encoder {
        Encoder { layout, pending: None }
    }

    /// Appends `c`, or holds it back if it may begin a pair; false if the
    /// encoding has no bytes for it (a letter held back is written first).
    pub(super) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        if let Some(base) = self.pending.take() {
            if let Some(code) = compose(base, c) {
                return self.layout.write(code, dst);
            }
            self.write_char(base, dst);
        }
        if begins_pair(c) {
            self.pending = Some(c);
            return true;
        }
        self.write_char(c, dst)
    }

    fn write_char(&self, c: char, dst: &mut Vec<u8>) -> bool {
        match self.layout.encode(c) {
            Some(code) => self.layout.write(code, dst),
            None => self.layout.write_other(c, dst),
        }
    }

    /// Whether a letter is held back.
    pub(super) fn holds(&self) -> bool {
        self.pending.is_some()
    }

    /// Writes the letter held back, if any: at the end of the text, and
    /// before raw bytes.
    pub(super) fn finish(&mut self, dst: &mut Vec<u8>) {
        if let Some(base) = self.pending.take() {
            self.write_char(base, dst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::testing;

    #[test]
    fn cells_pairs_and_readings() {
        let layout = Layout::Euc;
        assert_eq!(layout.decode([1, 0x30, 0x21]), Some(('亜', None)));
        assert_eq!(layout.decode([1, 0x24, 0x77]), Some(('か', Some('\u{309A}'))));
        assert_eq!(layout.decode([2, 0x21, 0x21]), Some(('\u{20089}', None)));
        assert_eq!(layout.decode([2, 0x22, 0x21]), None);
        assert_eq!(layout.decode([3, 0x21, 0x21]), None);
        assert_eq!(layout.decode([1, 0x21, 0x3D]), Some(('―', None)));
        assert_eq!(Layout::Euc.decode([1, 0x21, 0x40]), Some(('＼', None)));
        assert_eq!(Layout::ShiftJis.decode([1, 0x21, 0x40]), Some(('\\', None)));
        assert_eq!(Layout::Euc.encode('＼'), Some([1, 0x21, 0x40]));
        assert_eq!(Layout::ShiftJis.encode('＼'), None);
        assert_eq!(Layout::Euc.encode('—'), None);
        assert_eq!(compose('か', '\u{309A}'), Some([1, 0x24, 0x77]));
        assert_eq!(compose('か', '\u{3099}'), None);
    }

    #[test]
    fn every_cell_encodes_back() {
        for layout in [Layout::Euc, Layout::ShiftJis] {
            let mut cells = 0;
            for plane in 1..=2 {
                for row in 0x21..=0x7E {
                    for cell in 0x21..=0x7E {
                        let code = [plane, row, cell];
                        let mut encoder = Encoder::new(layout);
                        let (mut expected, mut got) = (Vec::new(), Vec::new());
                        match layout.decode(code) {
                            Some((c, None)) => assert_eq!(layout.encode(c), Some(code), "{c}"),
                            Some((base, Some(mark))) => {
                                assert!(encoder.encode_char(base, &mut got));
                                assert!(got.is_empty(), "{base} is held back");
                                assert!(encoder.encode_char(mark, &mut got));
                                assert!(layout.write(code, &mut expected));
                                assert_eq!(got, expected);
                            }
                            None => continue,
                        }
                        cells += 1;
                    }
                }
            }
            // glibc's 11,233 (11,208 of one code point and the pairs).
            assert_eq!(cells, 11_233, "{layout:?}");
        }
    }

    /// The mappings to one code point of `layout`'s codes, as glibc's
    /// charmap has them (Python's readings undone), with the half-width
    /// katakana of EUC's `8E`.
    fn glibc_mappings(layout: Layout) -> Vec<(Vec<u8>, char)> {
        let mut mappings = Vec::new();
        for i in 0..2 * 94 * 94 {
            let code = code_at(i);
            let Some((c, None)) = layout.decode(code) else { continue };
            let reading = layout.readings().find(|r| code == [1, r.row, r.cell]);
            let mut bytes = Vec::new();
            assert!(layout.write(code, &mut bytes));
            mappings.push((bytes, reading.map_or(c, |r| r.glibc)));
        }
        if layout == Layout::Euc {
            mappings.extend(
                (0xA1..=0xDF_u8)
                    .map(|b| (vec![0x8E, b], char::from_u32(0xFEC0 + u32::from(b)).unwrap())),
            );
        }
        mappings
    }

    #[test]
    fn agrees_with_glibc_but_for_pythons_readings() {
        use charsight_tables::charmaps::{EUC_JISX0213_ORACLE, SHIFT_JISX0213_ORACLE};
        let euc = glibc_mappings(Layout::Euc);
        testing::assert_oracle("EUC-JISX0213", euc, &EUC_JISX0213_ORACLE);
        let shift_jis = glibc_mappings(Layout::ShiftJis);
        testing::assert_oracle("SHIFT_JISX0213", shift_jis, &SHIFT_JISX0213_ORACLE);
    }

    #[test]
    fn a_held_letter_comes_out_before_what_follows() {
        let mut encoder = Encoder::new(Layout::Euc);
        let mut bytes = Vec::new();
        for c in "かa゚æ̀˩˥˩".chars() {
            assert_eq!(encoder.encode_char(c, &mut bytes), c != '\u{309A}', "{c}");
        }
        encoder.finish(&mut bytes);
        assert_eq!(bytes, b"\xa4\xaba\xab\xc4\xab\xe5\xab\xe4");
        // Before a character it lacks, too (so its replacement follows).
        let mut bytes = Vec::new();
        assert!(encoder.encode_char('か', &mut bytes));
        assert!(!encoder.encode_char('가', &mut bytes));
        assert_eq!(bytes, b"\xa4\xab");
    }
}
