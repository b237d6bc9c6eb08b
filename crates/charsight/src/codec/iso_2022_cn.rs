//! ISO-2022-CN and ISO-2022-CN-EXT (RFC 1922), the 7-bit Chinese of old
//! mail and news.
//!
//! ASCII, with 94×94 sets designated by escape sequences and invoked two
//! bytes at a time (row and cell, 0x21-0x7E):
//!
//! - `ESC $ ) A` (GB 2312, through [`super::hz`]'s table) or `ESC $ ) G`
//!   (CNS 11643 plane 1) as G1, which SO (0x0E) shifts to and SI (0x0F)
//!   back from;
//! - `ESC $ * H` (CNS 11643 plane 2) as G2, for the one character after
//!   SS2 (`ESC N`);
//! - in ISO-2022-CN-EXT only, `ESC $ + I` to `ESC $ + M` (CNS 11643 planes
//!   3 to 7) as G3, for the one character after SS3 (`ESC O`).
//!
//! The CNS 11643 planes are EUC-TW's ([`super::euc_tw`], glibc's tables).
//! The decoder reads as glibc's iconv does, byte for byte (its tests compare
//! every code of every set and random streams with `iconv`), except where
//! noted:
//!
//! - a designation keeps its effect across lines, as glibc reads it
//!   (RFC 1922 has writers designate again on each line, and the encoder
//!   does);
//! - SO before any G1 designation shifts to GB 2312 in ISO-2022-CN (as
//!   glibc does) and is malformed in ISO-2022-CN-EXT (glibc reports it one
//!   byte late, and a bad code after SS2 two bytes late, at the code); SS2
//!   needs no designation (G2 can only be plane 2), SS3 does;
//! - shifted, only pairs 0x21-0x7E (and ESC, SO, SI) are read: a newline or
//!   another control is malformed, as in glibc. DEL is malformed in
//!   ISO-2022-CN and ASCII in ISO-2022-CN-EXT, as glibc has them;
//! - differences on purpose: a designation made while shifted takes effect
//!   at once, as ISO 2022 has it (glibc's decoder waits for the next SO, so
//!   it reads its own encoder's `中們` back as `中辕`); an escape sequence
//!   charsight does not know is malformed (glibc passes its ESC through as
//!   U+001B outside SO), a complete designation of another set whole
//!   (ISO-IR-165's `ESC $ ) E`, which glibc's ISO-2022-CN-EXT reads:
//!   charsight has no ISO-IR-165 table); and the shared resynchronisation
//!   rule of [`super`] (glibc skips two bytes after a bad pair, charsight
//!   reads again the byte that cannot continue one).
//!
//! The encoder writes as RFC 1922 and glibc do: ASCII outside SO, each
//! other character in G1 if the set designated on this line (else GB 2312)
//! has it, then CNS 11643 plane 2 through SS2, then the other G1 set, then
//! (ISO-2022-CN-EXT) planes 3 to 7 through SS3, each designation written
//! once per line before its first use; SI before ASCII and at the end. After
//! a G1 designation it always writes SO (even when shifted already), so
//! that glibc reads the new set too; and it writes no SI where it never
//! shifted (glibc ends with one after SS2 or SS3). It is the ISO-2022 follower
//! ([`super::iso_2022::Follower`]) given no raw bytes: the same code writes
//! text and escaped switches back.

use super::{euc_tw, hz, ByteDecoder, Step};

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;
/// The final byte of SS2 (`ESC N`) and SS3 (`ESC O`).
const SS2: u8 = b'N';
const SS3: u8 = b'O';

/// A 94×94 set of ISO-2022-CN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    Gb2312,
    /// CNS 11643, plane 1 to 7.
    Cns(u8),
}

impl Set {
    /// The set that `ESC $ intermediate final` designates, if charsight
    /// reads it in this variant.
    fn designated(intermediate: u8, last: u8, ext: bool) -> Option<Set> {
        match (intermediate, last) {
            (b')', b'A') => Some(Set::Gb2312),
            (b')', b'G') => Some(Set::Cns(1)),
            (b'*', b'H') => Some(Set::Cns(2)),
            (b'+', b'I'..=b'M') if ext => Some(Set::Cns(last - b'I' + 3)),
            _ => None,
        }
    }

    /// The escape sequence that designates this set.
    fn designation(self) -> [u8; 4] {
        match self {
            Set::Gb2312 => *b"\x1B$)A",
            Set::Cns(1) => *b"\x1B$)G",
            Set::Cns(2) => *b"\x1B$*H",
            Set::Cns(plane) => [ESC, b'$', b'+', b'I' + plane - 3],
        }
    }

    /// The character at `row` and `cell` (0x21-0x7E).
    fn decode(self, row: u8, cell: u8) -> Option<char> {
        match self {
            Set::Gb2312 => hz::decode_pair(row, cell),
            Set::Cns(plane) => euc_tw::decode_cell(plane, row | 0x80, cell | 0x80),
        }
    }

    /// The row and cell of `c` in this set.
    fn encode(self, c: char) -> Option<[u8; 2]> {
        match self {
            Set::Gb2312 => hz::encode_pair(c),
            Set::Cns(plane) => euc_tw::cells_of(c)
                .find(|&(p, _, _)| p == plane)
                .map(|(_, row, cell)| [row & 0x7F, cell & 0x7F]),
        }
    }
}

/// The sets designated as G1, G2 and G3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Designations {
    g1: Option<Set>,
    g2: bool,
    g3: Option<Set>,
}

impl Designations {
    fn designate(&mut self, set: Set) {
        match set {
            Set::Gb2312 | Set::Cns(1) => self.g1 = Some(set),
            Set::Cns(2) => self.g2 = true,
            Set::Cns(_) => self.g3 = Some(set),
        }
    }
}

pub(super) struct Decoder {
    /// ISO-2022-CN-EXT (planes 3 to 7).
    ext: bool,
    /// The designations in effect.
    designated: Designations,
    /// The designations made on this line, which RFC 1922 lets a writer
    /// rely on: what the encoder writes by.
    line: Designations,
    /// After SO, before SI.
    shifted: bool,
    /// The bytes of an unfinished escape sequence or pair.
    pending: [u8; 3],
    pending_len: u8,
}

impl Decoder {
    /// A decoder of ISO-2022-CN, or of ISO-2022-CN-EXT if `ext`.
    pub(super) fn new(ext: bool) -> Decoder {
        Decoder {
            ext,
            designated: Designations::default(),
            line: Designations::default(),
            shifted: false,
            pending: [0; 3],
            pending_len: 0,
        }
    }

    /// No sequence is under way.
    pub(super) fn idle(&self) -> bool {
        self.pending_len == 0
    }

    /// After SO, before SI.
    pub(super) fn shifted(&self) -> bool {
        self.shifted
    }

    /// The set SO shifts to: the G1 designated, or GB 2312 in ISO-2022-CN
    /// (as glibc reads an SO before any designation).
    fn g1(&self) -> Option<Set> {
        self.designated.g1.or((!self.ext).then_some(Set::Gb2312))
    }

    /// Whether `c` is written as its ASCII byte: not a shift or an escape,
    /// nor DEL in ISO-2022-CN.
    fn writes_ascii(&self, c: char) -> bool {
        c.is_ascii() && !matches!(c, '\u{0E}' | '\u{0F}' | '\u{1B}') && (self.ext || c != '\x7F')
    }

    /// The set and row and cell the encoder writes `c` in, by the order of
    /// the module docs.
    fn code(&self, c: char) -> Option<(Set, [u8; 2])> {
        let g1 = self.line.g1.unwrap_or(Set::Gb2312);
        let other = if g1 == Set::Gb2312 { Set::Cns(1) } else { Set::Gb2312 };
        let g3 = (3..=7).filter(|_| self.ext).map(Set::Cns);
        [g1, Set::Cns(2), other].into_iter().chain(g3).find_map(|s| Some((s, s.encode(c)?)))
    }

    /// The bytes of `c` in the current state without a designation or a
    /// shift, if the encoder would write it so (the decoder must be idle).
    pub(super) fn here(&self, c: char) -> Option<Vec<u8>> {
        if c.is_ascii() {
            return (!self.shifted && self.writes_ascii(c)).then(|| vec![c as u8]);
        }
        let (set, [row, cell]) = self.code(c)?;
        match set {
            Set::Gb2312 | Set::Cns(1) => {
                (self.shifted && self.line.g1 == Some(set)).then(|| vec![row, cell])
            }
            Set::Cns(2) => self.line.g2.then(|| vec![ESC, SS2, row, cell]),
            Set::Cns(_) => (self.line.g3 == Some(set)).then(|| vec![ESC, SS3, row, cell]),
        }
    }

    /// The bytes of `c` from the current state with the designation and the
    /// shift it needs, SI excepted: the ASCII byte alone, which the caller
    /// shifts back to.
    pub(super) fn switch_for(&self, c: char) -> Option<Vec<u8>> {
        if c.is_ascii() {
            return self.writes_ascii(c).then(|| vec![c as u8]);
        }
        let (set, pair) = self.code(c)?;
        let mut bytes = Vec::with_capacity(9);
        match set {
            Set::Gb2312 | Set::Cns(1) => {
                if self.line.g1 != Some(set) {
                    bytes.extend_from_slice(&set.designation());
                }
                bytes.push(SO);
            }
            Set::Cns(2) | Set::Cns(_) => {
                let designated = match set {
                    Set::Cns(2) => self.line.g2,
                    _ => self.line.g3 == Some(set),
                };
                if !designated {
                    bytes.extend_from_slice(&set.designation());
                }
                bytes.extend_from_slice(&[ESC, if set == Set::Cns(2) { SS2 } else { SS3 }]);
            }
        }
        bytes.extend_from_slice(&pair);
        Some(bytes)
    }

    /// Reads the byte after `ESC` and up to two more (`pending` holds the
    /// bytes before it, ESC first); `None` if the byte continues the
    /// sequence.
    fn escape(&mut self, pending: &[u8], byte: u8) -> Option<Step> {
        let len = pending.len() as u8;
        let step = match (pending, byte) {
            ([_], b'$' | SS2) => return None,
            ([_], SS3) if self.ext => return None,
            ([_, b'$'], b')' | b'*') => return None,
            ([_, b'$'], b'+') if self.ext => return None,
            ([_, b'$', intermediate], _) => match Set::designated(*intermediate, byte, self.ext) {
                Some(set) => {
                    self.designated.designate(set);
                    self.line.designate(set);
                    Step::Pending
                }
                // A designation of a set charsight lacks (ISO-IR-165, …).
                None if (0x30..=0x7E).contains(&byte) => Step::Malformed(4),
                None => Step::MalformedBefore(3),
            },
            ([_, SS2 | SS3], 0x21..=0x7E) => return None,
            ([_, shift, row], 0x21..=0x7E) => {
                let set = match *shift {
                    SS2 => Some(Set::Cns(2)),
                    _ => self.designated.g3,
                };
                set.and_then(|s| s.decode(*row, byte)).map_or(Step::Malformed(4), Step::Char)
            }
            _ => Step::MalformedBefore(len),
        };
        Some(step)
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        let len = std::mem::take(&mut self.pending_len);
        let pending = self.pending;
        let pending = &pending[..usize::from(len)];
        let step = match pending.first() {
            Some(&ESC) => self.escape(pending, byte),
            Some(&lead) if (0x21..=0x7E).contains(&byte) => {
                let set = self.g1();
                Some(set.and_then(|s| s.decode(lead, byte)).map_or(Step::Malformed(2), Step::Char))
            }
            Some(_) => Some(Step::MalformedBefore(1)),
            None => match byte {
                ESC => None,
                SO if self.g1().is_none() => Some(Step::Malformed(1)),
                SO | SI => {
                    self.shifted = byte == SO;
                    Some(Step::Pending)
                }
                0x80..=0xFF => Some(Step::Malformed(1)),
                0x7F if !self.ext => Some(Step::Malformed(1)),
                _ if !self.shifted => {
                    if byte == b'\n' {
                        self.line = Designations::default();
                    }
                    Some(Step::Char(char::from(byte)))
                }
                0x21..=0x7E => None,
                _ => Some(Step::Malformed(1)),
            },
        };
        step.unwrap_or_else(|| {
            self.pending[usize::from(len)] = byte;
            self.pending_len = len + 1;
            Step::Pending
        })
    }

    fn finish(&mut self) -> u8 {
        std::mem::take(&mut self.pending_len)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use charsight_tables::charmaps::Oracle;

    use super::*;
    use crate::codec::testing;
    use crate::Charset;

    /// A line of `iconv-iso-2022-cn.txt`.
    fn iconv_lines(file: &str) -> impl Iterator<Item = Vec<&str>> {
        file.lines().filter(|l| !l.starts_with('#')).map(|l| l.split(' ').collect())
    }

    const SETS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tools/gen-tables/data/charmaps/iconv-iso-2022-cn.txt"
    ));

    const STREAMS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tools/gen-tables/data/charmaps/iconv-iso-2022-cn-streams.txt"
    ));

    fn charset(name: &str) -> Charset {
        match name {
            "ISO-2022-CN" => Charset::Iso2022Cn,
            "ISO-2022-CN-EXT" => Charset::Iso2022CnExt,
            _ => panic!("{name}"),
        }
    }

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn agrees_with_iconv_on_every_code_of_every_set() {
        let mut sets = 0;
        for fields in iconv_lines(SETS) {
            let [name, last, mappings, hash] = fields[..] else { panic!("{fields:?}") };
            let charset = charset(name);
            let ext = charset == Charset::Iso2022CnExt;
            let intermediate = match last {
                "A" | "G" => b')',
                "H" => b'*',
                _ => b'+',
            };
            let set = Set::designated(intermediate, last.as_bytes()[0], ext).unwrap();
            let mut found = Vec::new();
            for row in 0x21..=0x7E {
                for cell in 0x21..=0x7E {
                    let mut bytes = set.designation().to_vec();
                    match set {
                        Set::Gb2312 | Set::Cns(1) => bytes.extend_from_slice(&[SO, row, cell, SI]),
                        Set::Cns(2) => bytes.extend_from_slice(&[ESC, SS2, row, cell]),
                        Set::Cns(_) => bytes.extend_from_slice(&[ESC, SS3, row, cell]),
                    }
                    if let Some(c) = testing::decode_one(charset, &bytes) {
                        // The set has a code for it that reads back as it.
                        let back = set.encode(c).and_then(|[r, c]| set.decode(r, c));
                        assert_eq!(back, Some(c), "{name} {last}");
                        found.push((vec![row, cell], c));
                    }
                }
            }
            let oracle = Oracle {
                mappings: mappings.parse().unwrap(),
                fnv1a64: u64::from_str_radix(hash, 16).unwrap(),
            };
            testing::assert_oracle(&format!("{name} {last}"), found, &oracle);
            sets += 1;
        }
        assert_eq!(sets, 3 + 8);
    }

    #[test]
    fn agrees_with_iconv_on_random_streams() {
        // iconv stops at the first malformed sequence: the text before it and
        // its offset (`illegal@N`), or `incomplete` for an unfinished one at
        // the end, or `ok` and the whole text.
        let mut streams = BTreeMap::new();
        for fields in iconv_lines(STREAMS) {
            let [name, input, status, output] = fields[..] else { panic!("{fields:?}") };
            let charset = charset(name);
            let input = hex(input);
            let output = String::from_utf8(hex(output.trim_start_matches('='))).unwrap();
            let (text, bad) = testing::decode_split(charset, &input, &[]);
            let first = bad.first();
            let before = match first {
                Some(_) => text.split('\u{FFFD}').next().unwrap(),
                None => &text,
            };
            assert_eq!(before, output, "{name} {input:02x?}");
            match (status, first) {
                ("ok", None) => {}
                // glibc wants the four bytes of an escape sequence (or the
                // two of a pair) before it looks at them: the error is in the
                // last three.
                ("incomplete", Some((offset, _))) => {
                    assert!(input.len() - *offset as usize <= 3, "{input:02x?}")
                }
                (illegal, Some((offset, bytes))) => {
                    let at: u64 = illegal.strip_prefix("illegal@").unwrap().parse().unwrap();
                    // glibc's ISO-2022-CN-EXT reports an undesignated SO one
                    // byte late, and a bad code after SS2 at the code.
                    let late = match bytes[..] {
                        _ if charset == Charset::Iso2022Cn => 0,
                        [SO] => 1,
                        [ESC, SS2, ..] => 2,
                        _ => 0,
                    };
                    assert_eq!(at, offset + late, "{name} {input:02x?}");
                }
                _ => panic!("{name} {input:02x?}: iconv {status}, charsight {first:?}"),
            }
            *streams.entry(status.split('@').next().unwrap().to_owned()).or_insert(0) += 1;
        }
        assert!(streams.values().all(|&n| n >= 20), "{streams:?}");
    }

    #[test]
    fn known_strings() {
        // Checked with glibc's iconv (-t ISO-2022-CN-EXT, which writes the
        // same bytes for these).
        let cases: &[(&str, &[u8])] = &[
            ("中文 ok\n", b"\x1b$)A\x0e\x56\x50\x4e\x44\x0f ok\n"),
            ("中\n中", b"\x1b$)A\x0e\x56\x50\x0f\n\x1b$)A\x0e\x56\x50\x0f"),
            // 們 is in CNS 11643 plane 1, not in GB 2312; 乂 in plane 2.
            ("們乂", b"\x1b$)G\x0e\x54\x2f\x1b$*H\x1bN\x21\x21\x0f"),
            ("", b""),
        ];
        for charset in [Charset::Iso2022Cn, Charset::Iso2022CnExt] {
            testing::assert_known(charset, cases);
        }
        // 𠀀 is in plane 5 (glibc adds an SI at the end, though it never
        // shifted).
        testing::assert_known(Charset::Iso2022CnExt, &[("𠀀", b"\x1b$+K\x1bO\x21\x25")]);
        assert!(Charset::Iso2022Cn.encode("𠀀").1);
    }

    #[test]
    fn a_designation_while_shifted_takes_effect_at_once() {
        // After GB 2312's 中, CNS 11643 plane 1's 們 (glibc's decoder keeps
        // GB 2312 until the next SO: 辕).
        let bytes = b"\x1b$)A\x0e\x56\x50\x1b$)G\x54\x2f\x0f";
        assert_eq!(Charset::Iso2022Cn.decode(bytes), ("中們".into(), false));
        // charsight writes SO again after the designation.
        assert_eq!(
            Charset::Iso2022Cn.encode("中們").0[..],
            b"\x1b$)A\x0e\x56\x50\x1b$)G\x0e\x54\x2f\x0f"[..]
        );
    }

    #[test]
    fn lenient_where_glibc_is() {
        // SO without designation is GB 2312 in ISO-2022-CN; a designation
        // lasts across lines; SS2 needs none; DEL is ASCII in -EXT.
        assert_eq!(Charset::Iso2022Cn.decode(b"\x0e\x56\x50\x0f"), ("中".into(), false));
        let lines = b"\x1b$)G\x0e\x44\x63\x0f\n\x0e\x44\x63\x0f";
        assert_eq!(Charset::Iso2022CnExt.decode(lines), ("中\n中".into(), false));
        assert_eq!(Charset::Iso2022CnExt.decode(b"\x1bN\x21\x21"), ("乂".into(), false));
        assert_eq!(Charset::Iso2022CnExt.decode(b"a\x7f"), ("a\x7f".into(), false));
    }

    #[test]
    fn malformed_sequences() {
        // An undesignated SO (-EXT); ISO-IR-165's designation; an unknown
        // escape; a newline while shifted; a pair that is no character; a
        // lead before SI; SS3 undesignated; DEL; an 8-bit byte; a truncated
        // SS2 at the end.
        testing::assert_malformed(
            Charset::Iso2022CnExt,
            b"\x0e\x1b$)E\x1bx\x1b$)A\x0e\n\x7e\x7e\x56\x0f\x1bO\x21\x21\x0e\x7f\x0f\xa1\x1bN\x21",
            "\u{FFFD}\u{FFFD}\u{FFFD}x\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
            &[
                (0, b"\x0e"),
                (1, b"\x1b$)E"),
                (5, b"\x1b"),
                (12, b"\n"),
                (13, b"\x7e\x7e"),
                (15, b"\x56"),
                (17, b"\x1bO\x21\x21"),
                (22, b"\x7f"),
                (24, b"\xa1"),
                (25, b"\x1bN\x21"),
            ],
        );
        // SS3 and its designation are ISO-2022-CN-EXT's only.
        assert_eq!(
            testing::decode_split(Charset::Iso2022Cn, b"\x1b$+I\x1bO", &[]).1,
            [(0, b"\x1b$".to_vec()), (4, b"\x1b".to_vec())]
        );
    }

    #[test]
    fn encoder_returns_to_ascii_for_unmappable_characters() {
        let (bytes, unmappable) = Charset::Iso2022Cn.encode("中€\u{e}文");
        assert!(unmappable);
        assert_eq!(&bytes[..], b"\x1b$)A\x0e\x56\x50\x0f&#8364;&#14;\x0e\x4e\x44\x0f");
        assert_eq!(Charset::Iso2022Cn.encode("\x7f"), (b"&#127;"[..].into(), true));
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::Iso2022CnExt,
            b"a\x1b$)A\x0e\x56\x50\x1b$+I\x1bO\x21\x21\x1bN\x21\x21\x0f\x1b$)",
        );
    }
}
