//! Double-byte encodings (Shift_JIS, EUC-JP, GBK, Big5, EUC-KR, …): a
//! legality state machine over generated tables that also give each
//! character's cost under its language's character frequencies. One
//! illegal sequence disqualifies the encoding.
//!
//! EUC-JP and Shift_JIS are each the narrowest of a family: a code that
//! JIS X 0208 (as the Encoding Standard reads it) leaves empty but
//! JIS X 0213 fills (and EUC-JP's `8F` code that JIS X 0212 leaves empty
//! but JIS X 0213's plane 2 fills) makes the reading EUC-JIS-2004 or
//! Shift_JIS-2004 ([`MultiScorer::widened`]) instead of ruling it out;
//! such a character costs the table's rarest (JIS X 0213's additions have
//! no frequencies), and the wider encoding [`score::WIDER_PRIOR`] once.
//!
//! ASCII in the ground state is plain ASCII (left out of the cost, as in
//! every ASCII-compatible reading); an ASCII byte that serves as a trail
//! byte is part of a character instead, so the reading gets back the
//! [`ASCII_COST`] it will be charged for it.

use super::score::{self, ascii_class, ASCII_COST, ODD_COST, WIDER_PRIOR};
use super::tables::ODD;
use super::tables::{
    MultiByte, EXT3, EXT4, FIRST_LEAD, FIRST_TRAIL, GB4, ILLEGAL, LEAD, MULTI_BYTE, TRAILS,
};
use crate::codec::{jis_x0213_has, jis_x0213_lead};
use crate::Charset;

/// Where a multi-byte sequence stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ground,
    /// After a lead byte.
    Lead(u8),
    /// This many more bytes 0xA1..=0xFE of a three- or four-byte sequence,
    /// whose last three bytes so far are `code`.
    Ext(u8, [u8; 3]),
    /// A gb18030 four-byte sequence: awaiting its third byte (0x81..=0xFE).
    Gb4Third,
    /// … its fourth (0x30..=0x39).
    Gb4Fourth,
}

/// One double-byte encoding's reading of the bytes.
#[derive(Clone, Debug)]
pub(super) struct MultiScorer {
    /// Index into `MULTI_BYTE`.
    table: usize,
    state: State,
    /// Cost so far, in steps, plus refunds of ASCII trail bytes subtracted.
    cost: u64,
    refund: u64,
    pub disqualified: bool,
    /// The wider encoding of the family (EUC-JIS-2004 for EUC-JP,
    /// Shift_JIS-2004 for Shift_JIS), and whether a code only it has was
    /// read.
    wider: Option<Charset>,
    widened: bool,
    /// Characters read (two or more bytes, or a single non-ASCII byte).
    pub chars: u32,
    /// The index of its language (see `score::LANGUAGES`).
    language: usize,
    /// The language's costs of edges between ASCII and its characters.
    edges: [u8; 5],
    /// What came last: one of its characters (`None`), or an ASCII letter
    /// or other ASCII (`Some(is_letter)`).
    last: Option<bool>,
}

impl MultiScorer {
    pub fn new(table: usize) -> MultiScorer {
        let language = score::cjk_language(MULTI_BYTE[table].language)
            .expect("a double-byte table's language has character frequencies");
        let wider = match MULTI_BYTE[table].charset {
            name if name == Charset::EucJp.name() => Some(Charset::EucJis2004),
            name if name == Charset::ShiftJis.name() => Some(Charset::ShiftJis2004),
            _ => None,
        };
        MultiScorer {
            table,
            state: State::Ground,
            cost: 0,
            refund: 0,
            disqualified: false,
            wider,
            widened: false,
            chars: 0,
            language,
            edges: score::cjk_edges(language),
            last: Some(false),
        }
    }

    /// Whether a run that starts now continues a sequence. Bytes skipped
    /// since the last one were plain ASCII, which no open sequence accepts
    /// except as a trail; `contiguous` says none were skipped.
    pub fn begin(&mut self, contiguous: bool, before: u8) {
        if !contiguous && self.state != State::Ground {
            self.disqualified = true;
        }
        if self.state == State::Ground {
            self.last = Some(before.is_ascii_alphabetic());
        }
    }

    /// Reads the bytes of a run, or the plain byte that closes one (a
    /// trail byte, or plain ASCII in the ground state).
    pub fn bytes(&mut self, run: &[u8]) {
        for &b in run {
            if self.disqualified {
                return;
            }
            self.byte(b);
        }
    }

    fn table(&self) -> &'static MultiByte {
        &MULTI_BYTE[self.table]
    }

    fn byte(&mut self, b: u8) {
        let t = self.table();
        self.state = match self.state {
            State::Ground if b < 0x80 => {
                if ascii_class(b) == ODD {
                    self.cost += u64::from(ODD_COST);
                }
                let letter = b.is_ascii_alphabetic();
                self.cost += u64::from(score::cjk_edge(&self.edges, self.last, Some(letter)));
                self.last = Some(letter);
                State::Ground
            }
            State::Ground => match t.singles[usize::from(b - 0x80)] {
                LEAD => State::Lead(b),
                EXT3 => State::Ext(2, [0, 0, b]),
                EXT4 => State::Ext(3, [0, 0, b]),
                // A row JIS X 0208 leaves empty (EUC-JP's AE) may be JIS X 0213's.
                ILLEGAL if self.wider.is_some_and(|w| jis_x0213_lead(w, b)) => State::Lead(b),
                ILLEGAL => return self.disqualify(),
                cost => {
                    self.char(cost);
                    State::Ground
                }
            },
            State::Lead(lead) => {
                if b < FIRST_TRAIL || b == 0xFF {
                    return self.disqualify();
                }
                let at = usize::from(lead - FIRST_LEAD) * TRAILS + usize::from(b - FIRST_TRAIL);
                if b < 0x80 {
                    self.refund += u64::from(ASCII_COST);
                }
                match t.doubles[at] {
                    ILLEGAL => match self.wider.filter(|&w| jis_x0213_has(w, &[lead, b])) {
                        Some(_) => {
                            self.widen();
                            self.char(t.rare);
                            State::Ground
                        }
                        None => return self.disqualify(),
                    },
                    GB4 => State::Gb4Third,
                    cost => {
                        self.char(cost);
                        State::Ground
                    }
                }
            }
            State::Ext(..) if !(0xA1..=0xFE).contains(&b) => return self.disqualify(),
            State::Ext(left, [_, a, c]) if left > 1 => State::Ext(left - 1, [a, c, b]),
            State::Ext(_, code) => {
                // EUC-JIS-2004's plane 2 where JIS X 0212 has nothing.
                let [_, a, c] = code;
                if self.wider.is_some_and(|w| jis_x0213_has(w, &[a, c, b])) {
                    self.widen();
                }
                self.char(t.rare);
                State::Ground
            }
            State::Gb4Third if (0x81..=0xFE).contains(&b) => State::Gb4Fourth,
            State::Gb4Fourth if b.is_ascii_digit() => {
                self.refund += u64::from(ASCII_COST);
                self.char(t.rare);
                State::Ground
            }
            State::Gb4Third | State::Gb4Fourth => return self.disqualify(),
        };
    }

    fn char(&mut self, cost: u8) {
        self.cost += u64::from(cost) + u64::from(score::cjk_edge(&self.edges, self.last, None));
        self.last = None;
        self.chars += 1;
    }

    /// A code only the wider encoding has was read: the reading is that
    /// encoding from now on, rarer than its base by [`WIDER_PRIOR`].
    fn widen(&mut self) {
        if !std::mem::replace(&mut self.widened, true) {
            self.cost += WIDER_PRIOR;
        }
    }

    fn disqualify(&mut self) {
        self.disqualified = true;
    }

    /// The cost so far (never below zero); bytes that end inside a
    /// character cost as much as an odd character.
    pub fn cost(&self) -> u32 {
        let cut = if self.state == State::Ground { 0 } else { u64::from(ODD_COST) };
        (self.cost + cut).saturating_sub(self.refund).min(u64::from(u32::MAX / 4)) as u32
    }

    /// The wider encoding the reading became, if a code only it has was
    /// read (EUC-JIS-2004, Shift_JIS-2004).
    pub fn widened(&self) -> Option<Charset> {
        self.wider.filter(|_| self.widened)
    }

    /// The index of the language of the character frequencies.
    pub fn language(&self) -> usize {
        self.language
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Charset;

    fn read(charset: Charset, bytes: &[u8]) -> MultiScorer {
        let table = MULTI_BYTE.iter().position(|m| m.charset == charset.name()).unwrap();
        let mut scorer = MultiScorer::new(table);
        scorer.bytes(bytes);
        scorer
    }

    #[test]
    fn legal_text_is_read_and_illegal_bytes_disqualify() {
        let (sjis, _) = Charset::ShiftJis.encode("日本語のテキスト");
        let s = read(Charset::ShiftJis, &sjis);
        assert!(!s.disqualified);
        assert_eq!(s.chars, 8);
        assert!(read(Charset::EucJp, &sjis).disqualified);
        assert!(read(Charset::EucKr, b"\xFF").disqualified);
    }

    #[test]
    fn jis_x0213_codes_widen_euc_jp_and_shift_jis() {
        // `ㇰ` and `俱` are JIS X 0213's, not JIS X 0208's; `𠂉` is plane 2.
        let text = "小さいㇰと俱の字";
        for (narrow, wide) in
            [(Charset::EucJp, Charset::EucJis2004), (Charset::ShiftJis, Charset::ShiftJis2004)]
        {
            let (bytes, unmapped) = wide.encode(text);
            assert!(!unmapped);
            let s = read(narrow, &bytes);
            assert!(!s.disqualified && s.widened() == Some(wide), "{narrow}: {s:?}");
            assert_eq!(s.chars, 8);
            let (ordinary, _) = narrow.encode("日本語のテキスト");
            assert_eq!(read(narrow, &ordinary).widened(), None);
        }
        let (plane2, _) = Charset::EucJis2004.encode("𠂉");
        assert_eq!(read(Charset::EucJp, &plane2).widened(), Some(Charset::EucJis2004));
        // JIS X 0212's `丂` (`8F B0 A1`) is EUC-JP's; bytes neither reads
        // still rule it out, and other tables never widen.
        assert_eq!(read(Charset::EucJp, b"\x8F\xB0\xA1").widened(), None);
        assert!(read(Charset::ShiftJis, b"\x83\x7F").disqualified);
        assert!(read(Charset::Gbk, b"\xA6\xEE").widened().is_none());
    }

    #[test]
    fn gb18030_four_byte_and_ascii_trails() {
        let (bytes, _) = Charset::Gbk.encode("中文");
        assert!(!read(Charset::Gbk, &bytes).disqualified);
        let s = read(Charset::Gbk, b"\x81\x30\x81\x30");
        assert!(!s.disqualified);
        assert_eq!(s.chars, 1);
        // Big5 trail bytes may be ASCII: the reading gets their cost back.
        let s = read(Charset::Big5, b"\xA4\x40");
        assert_eq!((s.chars, s.refund), (1, u64::from(ASCII_COST)));
    }

    #[test]
    fn cjk_text_costs_less_in_its_own_encoding() {
        let (euc, _) = Charset::EucKr.encode("대한민국의 수도는 서울입니다");
        let korean = read(Charset::EucKr, &euc);
        let chinese = read(Charset::Gbk, &euc);
        assert!(!korean.disqualified && !chinese.disqualified);
        assert!(korean.cost() < chinese.cost());
    }
}
