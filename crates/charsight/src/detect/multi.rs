//! Double-byte encodings (Shift_JIS, EUC-JP, GBK, Big5, EUC-KR, …): a
//! legality state machine over generated tables that also give each
//! character's cost under its language's character frequencies. One
//! illegal sequence disqualifies the encoding.
//!
//! ASCII in the ground state is plain ASCII (left out of the cost, as in
//! every ASCII-compatible reading); an ASCII byte that serves as a trail
//! byte is part of a character instead, so the reading gets back the
//! [`ASCII_COST`] it will be charged for it.

use super::score::{self, ascii_class, ASCII_COST, ODD_COST};
use super::tables::ODD;
use super::tables::{
    MultiByte, EXT3, EXT4, FIRST_LEAD, FIRST_TRAIL, GB4, ILLEGAL, LEAD, MULTI_BYTE, TRAILS,
};

/// Where a multi-byte sequence stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ground,
    /// After a lead byte.
    Lead(u8),
    /// This many more bytes 0xA1..=0xFE of a three- or four-byte sequence.
    Ext(u8),
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
        MultiScorer {
            table,
            state: State::Ground,
            cost: 0,
            refund: 0,
            disqualified: false,
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
                EXT3 => State::Ext(2),
                EXT4 => State::Ext(3),
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
                    ILLEGAL => return self.disqualify(),
                    GB4 => State::Gb4Third,
                    cost => {
                        self.char(cost);
                        State::Ground
                    }
                }
            }
            State::Ext(left) => {
                if !(0xA1..=0xFE).contains(&b) {
                    return self.disqualify();
                }
                if left == 1 {
                    self.char(t.rare);
                    State::Ground
                } else {
                    State::Ext(left - 1)
                }
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

    fn disqualify(&mut self) {
        self.disqualified = true;
    }

    /// The cost so far (never below zero); bytes that end inside a
    /// character cost as much as an odd character.
    pub fn cost(&self) -> u32 {
        let cut = if self.state == State::Ground { 0 } else { u64::from(ODD_COST) };
        (self.cost + cut).saturating_sub(self.refund).min(u64::from(u32::MAX / 4)) as u32
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
