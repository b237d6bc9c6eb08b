//! The UTF-7 reading (RFC 2152): ASCII stands for itself, and `+` opens a
//! run of base64 UTF-16 closed by a `-` or any other byte outside base64.
//! Valid runs are no evidence on their own: `+Hello-`, `a+b-c`, a URL's or
//! an e-mail's base64 are well-formed often enough (about one `+word` in a
//! hundred of a length that leaves no stray bits). So the runs are a
//! reading like the others: their characters, decoded as the codec reads
//! them ([`crate::codec::Utf7Reader`]; one malformed run rules UTF-7 out),
//! are scored by every language model ([`TextScorer`], with the text
//! written as itself on either side for context), and the reading is given
//! back what the run's bytes cost as plain ASCII: a flat [`ASCII_COST`] for
//! its `+` and `-`, and for its base64 what those bytes would cost as plain
//! text ([`PlainCost`]), as the seven-bit ISO 2022 readings are, but no
//! more than random base64 costs ([`RANDOM_BASE64_COST`]). UTF-7 wins
//! only when its characters read as likelier text than its base64 does as
//! ASCII: `+ZeVnLIqe-` (日本語) against the random-looking letters it
//! spells, not `+Hello-` (U+1DE9 and stray bits) against an English word.

use super::score::{PlainCost, ASCII_COST};
use super::tables::STEPS_PER_BIT;
use super::text::TextScorer;
use crate::codec::{Utf7Read, Utf7Reader};

/// The cost of a run's shifts in and out, in steps: one bit.
const SHIFT_COST: u64 = 8;
/// What a base64 byte of random data costs, in steps: six bits. A run's
/// base64 costs no more than that a byte as plain ASCII, whatever the
/// model of plain text says of it: letters that read as no words may be a
/// key or a hash (`key: pqY+TtBbKa8`), not text. UTF-16 of random bits is
/// then no cheaper than its base64, while text's characters are (Japanese
/// costs 8 to 12 bits a character, 16 bits of base64; an accented letter in
/// its language a few).
const RANDOM_BASE64_COST: u64 = 6 * STEPS_PER_BIT as u64;

/// The UTF-7 reading of the bytes.
#[derive(Clone, Debug)]
pub(super) struct Utf7Reading {
    reader: Utf7Reader,
    /// The characters of its runs and the text around them.
    pub scorer: TextScorer,
    /// The last byte written as itself before the run under way.
    before: Option<u8>,
    /// The run under way has read a base64 byte (else it may be `+-`).
    opened: bool,
    /// A run was just closed by `-`: the next character is its context.
    closed: bool,
    cost: u64,
    /// The refund of the runs closed.
    refund: u64,
    /// What the base64 bytes of the run under way would cost as plain
    /// text, and how many there are.
    plain: PlainCost,
    base64: u64,
    /// A run decoded a character: the reading differs from ASCII.
    pub switched: bool,
    pub disqualified: bool,
}

impl Default for Utf7Reading {
    fn default() -> Utf7Reading {
        Utf7Reading {
            reader: Utf7Reader::default(),
            scorer: TextScorer::new(false),
            before: None,
            opened: false,
            closed: false,
            cost: 0,
            refund: 0,
            plain: PlainCost::default(),
            base64: 0,
            switched: false,
            disqualified: false,
        }
    }
}

impl Utf7Reading {
    /// Reads the next bytes of the stream (all of them).
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.disqualified {
            if !self.reader.in_run() && !self.closed {
                // Text written as itself until the next `+`.
                let at = memchr::memchr(b'+', bytes).unwrap_or(bytes.len());
                if !bytes[..at].is_ascii() {
                    self.disqualified = true;
                    return;
                }
                if at > 0 {
                    self.before = Some(bytes[at - 1]);
                }
                bytes = &bytes[at..];
                if bytes.is_empty() {
                    return;
                }
            }
            self.byte(bytes[0]);
            bytes = &bytes[1..];
        }
    }

    fn byte(&mut self, b: u8) {
        let in_run = self.reader.in_run();
        match self.reader.read(b) {
            Utf7Read::Malformed => self.disqualified = true,
            Utf7Read::Direct(c) => {
                if std::mem::take(&mut self.closed) {
                    self.scorer.push(c);
                }
                // `+-` is `+`: no run.
                self.opened = false;
                self.before = Some(b);
            }
            Utf7Read::RunEnd(c) => {
                self.end_run();
                self.scorer.push(c);
                self.before = Some(b);
            }
            // The `-` that closes a run.
            Utf7Read::Run(None) if in_run && b == b'-' => {
                self.end_run();
                self.refund += u64::from(ASCII_COST);
                self.closed = true;
                self.before = None;
            }
            // The `+` that opens one.
            Utf7Read::Run(None) if !in_run => {}
            Utf7Read::Run(c) => {
                if !std::mem::replace(&mut self.opened, true) {
                    self.cost += SHIFT_COST;
                    self.refund += u64::from(ASCII_COST);
                    if let Some(before) = self.before {
                        self.scorer.push(char::from(before));
                    }
                }
                self.plain.add(b);
                self.base64 += 1;
                if let Some(c) = c {
                    self.switched = true;
                    self.scorer.push(c);
                }
            }
        }
    }

    /// A run ends: its base64's refund is counted.
    fn end_run(&mut self) {
        self.refund += self.base64_refund();
        self.plain = PlainCost::default();
        self.base64 = 0;
        self.opened = false;
    }

    /// What the base64 of the run under way costs as plain ASCII: the model
    /// of plain text's cost, up to that of random data.
    fn base64_refund(&self) -> u64 {
        self.plain.cost().min(self.base64 * RANDOM_BASE64_COST)
    }

    /// Whether the bytes end inside a run that cannot end there (see
    /// [`Utf7Reader::unfinished`]).
    pub fn unfinished(&self) -> bool {
        self.reader.unfinished()
    }

    /// The cost of its runs' shifts (their characters are the scorer's).
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The plain-ASCII charge of its runs' bytes, which every reading pays
    /// and this one gives back: the flat charge of each `+` and closing
    /// `-`, and for the base64 what it would cost as plain text, at most
    /// [`RANDOM_BASE64_COST`] a byte.
    pub fn refund(&self) -> u64 {
        self.refund + self.base64_refund()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Charset;

    fn read(bytes: &[u8]) -> Utf7Reading {
        let mut r = Utf7Reading::default();
        r.feed(bytes);
        r
    }

    #[test]
    fn runs_are_read_as_the_codec_reads_them() {
        let (bytes, _) = Charset::Utf7.encode("日本語のテキスト, 1 + 1 = 2");
        let whole = read(&bytes);
        assert!(whole.switched && !whole.disqualified && !whole.unfinished(), "{whole:?}");
        assert!(whole.refund() > 0 && whole.cost() > 0);
        for split in 1..bytes.len() {
            let mut r = Utf7Reading::default();
            r.feed(&bytes[..split]);
            r.feed(&bytes[split..]);
            assert_eq!((r.cost(), r.refund(), r.switched), (whole.cost(), whole.refund(), true));
        }
        // `+-` is a plus sign, no run.
        let plus = read(b"1 +- 2");
        assert!(!plus.switched && !plus.disqualified && plus.refund() == 0);
        // Stray bits, a `+` before a space, a byte above ASCII, a lone
        // surrogate; a `+` left open at the end.
        for bad in [&b"+Hello- world"[..], b"a + b", b"+AOk- caf\xe9", b"+2AA-"] {
            assert!(read(bad).disqualified, "{bad:?}");
        }
        assert!(read(b"x +").unfinished());
    }
}
