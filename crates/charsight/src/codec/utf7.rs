//! UTF-7 (RFC 2152), the seven-bit Unicode of old mail.
//!
//! ASCII stands for itself, except `+`, which opens a run of modified
//! base64 (no `=` padding) carrying UTF-16 code units; `+-` is `+`. A run
//! ends at the first byte outside the base64 alphabet: a `-` there is
//! absorbed, any other byte is read as itself.
//!
//! The decoder reads as Python's `utf-7` codec does, byte for byte: every
//! byte 00-7F but `+` is itself (RFC 2152's direct and optional characters,
//! and the rest of ASCII too), a byte above 0x7F is malformed, and so are
//! `+` followed by a byte that is neither `-` nor base64 (both bytes), and
//! a run that ends with six bits or more of an unfinished code unit
//! ("partial character") or with padding bits that are not zero (the bytes
//! holding those bits and the byte that ended the run, which Python
//! swallows with them). Surrogate pairs may straddle anywhere in a run.
//! The tests compare 3,815 inputs (edge cases and random ones) and 800
//! texts with Python's answers (`tests/library/data/python-utf7.txt`, made
//! by the script beside it). The deliberate differences:
//!
//! - A surrogate on its own is malformed (its bytes: from the one after the
//!   previous character, or from the `+`): Python's `str` keeps lone
//!   surrogates (`+2AA-` is `'\ud800'`), Rust's text cannot.
//! - A `+` that ends the stream is malformed; Python reads it as nothing.
//! - Python reports a malformed run from its `+` on, over the characters it
//!   decoded too; charsight reports only the bytes that make no character,
//!   so the same U+FFFD stand in the text and the offsets differ.
//!
//! The encoder writes as Python's does: the direct and optional characters,
//! space, tab, CR and LF as themselves, `+` as `+-`, anything else in base64
//! runs, closed with `-` when the next character is base64 or `-`, and at
//! the end.
//!
//! For the lossless escaping of [`Errors::Escape`](crate::decode::Errors::Escape),
//! [`ExactReader`] and [`Follower`] agree on one way to write each
//! character: a run's characters come back as text when the run is exactly
//! what the follower writes for them (base64 of UTF-16 with zero padding,
//! opened where the first of them comes, closed with `-` only before a
//! base64 character or `-`, and at the end of the text without one), and
//! every other byte is escaped: a run holding ASCII, a `-` the follower
//! would not write (`+AOk-.`, or `+AOk-` ending the text), malformed bits.

use super::{ByteDecoder, Step, Unit};

/// The modified base64 alphabet of RFC 2152.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The six bits a base64 byte stands for.
fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Whether a run closed before `c` needs its `-` (Python's rule: `c` would
/// otherwise be read as base64, or absorbed).
fn needs_dash(c: char) -> bool {
    c == '-' || u8::try_from(c).ok().and_then(sextet).is_some()
}

/// Where the decoder is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Outside runs.
    #[default]
    Direct,
    /// After a `+`.
    Plus,
    /// In a base64 run.
    Run,
    /// A run has just ended with a malformed surrogate, reported before the
    /// byte that ended it: that byte, read again, is absorbed if `-`.
    Closing,
}

/// UTF-7 read as Python's `utf-7` reads it (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct Decoder {
    state: State,
    /// Bits of the code unit under way (fewer than 16), and how many.
    buffer: u32,
    bits: u8,
    /// A high surrogate waiting for its low one, and how many bytes it has.
    high: Option<(u16, u8)>,
    /// Bytes since the last character (the `+` of the run included, and the
    /// byte that completed the last one when it holds bits of what follows).
    count: u8,
}

impl Decoder {
    /// Reads one base64 byte of a run.
    fn base64(&mut self, value: u8) -> Step {
        let buffer = self.buffer << 6 | u32::from(value);
        let bits = self.bits + 6;
        if bits >= 16 {
            let unit = (buffer >> (bits - 16)) as u16;
            if let Some((_, high_len)) = self.high.filter(|_| !(0xDC00..=0xDFFF).contains(&unit)) {
                // The unit after a high surrogate is no low one: the high
                // one stands alone (Python writes it so), and the unit is
                // read afresh from this byte.
                self.high = None;
                return Step::MalformedEarlier { len: high_len, kept: self.count };
            }
        }
        self.count += 1;
        if bits < 16 {
            (self.buffer, self.bits) = (buffer, bits);
            return Step::Pending;
        }
        self.bits = bits - 16;
        let unit = (buffer >> self.bits) as u16;
        self.buffer = buffer & ((1 << self.bits) - 1);
        let count = std::mem::replace(&mut self.count, u8::from(self.bits > 0));
        if let Some((high, _)) = self.high.take() {
            let code_point = 0x10000 + (u32::from(high - 0xD800) << 10) + u32::from(unit - 0xDC00);
            return Step::Char(char::from_u32(code_point).expect("a surrogate pair is a scalar"));
        }
        match unit {
            0xD800..=0xDBFF => {
                // Its bytes are told apart from those of the unit after it.
                self.high = Some((unit, count));
                self.count = 0;
                Step::Pending
            }
            0xDC00..=0xDFFF => {
                self.count = 0;
                Step::Malformed(count)
            }
            _ => Step::Char(char::from_u32(u32::from(unit)).expect("not a surrogate")),
        }
    }

    /// The run is left unfinished: bits of a unit, padding bits that are not
    /// zero, or a high surrogate.
    fn unfinished(&self) -> bool {
        self.bits >= 6 || self.buffer != 0 || self.high.is_some()
    }

    /// Bytes of the run that make no character yet.
    fn unaccounted(&self) -> u8 {
        self.high.map_or(0, |(_, len)| len) + self.count
    }

    /// Reads the byte that ends a run.
    fn end_run(&mut self, byte: u8) -> Step {
        let bad_bits = self.bits >= 6 || self.buffer != 0;
        let count = self.unaccounted();
        let high = self.high.take();
        (self.buffer, self.bits, self.count, self.state) = (0, 0, 0, State::Direct);
        if bad_bits || (high.is_some() && byte >= 0x80) {
            // Python swallows the byte that ended the run with its error.
            return Step::Malformed(count + 1);
        }
        if high.is_some() {
            self.state = State::Closing;
            return Step::MalformedBefore(count);
        }
        match byte {
            b'-' => Step::Pending,
            _ => self.step(byte),
        }
    }
}

impl ByteDecoder for Decoder {
    fn step(&mut self, byte: u8) -> Step {
        match self.state {
            State::Direct => match byte {
                b'+' => {
                    (self.state, self.count) = (State::Plus, 1);
                    Step::Pending
                }
                0x00..=0x7F => Step::Char(char::from(byte)),
                _ => Step::Malformed(1),
            },
            State::Plus => {
                self.state = State::Direct;
                match (byte, sextet(byte)) {
                    (b'-', _) => Step::Char('+'),
                    (_, Some(value)) => {
                        self.state = State::Run;
                        self.base64(value)
                    }
                    _ => Step::Malformed(2),
                }
            }
            State::Run => match sextet(byte) {
                Some(value) => self.base64(value),
                None => self.end_run(byte),
            },
            State::Closing => {
                self.state = State::Direct;
                match byte {
                    b'-' => Step::Pending,
                    _ => self.step(byte),
                }
            }
        }
    }

    fn finish(&mut self) -> u8 {
        let pending = match self.state {
            State::Plus => 1,
            State::Run if self.unfinished() => self.unaccounted(),
            _ => 0,
        };
        *self = Decoder::default();
        pending
    }
}

/// UTF-7 as the content detector reads it: the decoder's characters, each
/// byte told apart as text written as itself or part of a base64 run, so
/// that a reading can price the runs apart from the text around them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reader {
    decoder: Decoder,
}

/// What one byte of UTF-7 was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// A character written as itself (`+-`'s `-` stands for `+`).
    Direct(char),
    /// A byte of a base64 run: its `+`, its base64 bytes, the `-` that
    /// closes it; with the character it completed, if any.
    Run(Option<char>),
    /// The run ended with a byte read as itself, this character.
    RunEnd(char),
    Malformed,
}

impl Reader {
    /// Reads the next byte.
    pub(crate) fn read(&mut self, byte: u8) -> Read {
        let before = self.decoder.state;
        match (before, self.decoder.step(byte)) {
            (State::Plus, Step::Char(c)) if byte == b'-' => Read::Direct(c),
            (State::Direct | State::Closing, Step::Char(c)) => Read::Direct(c),
            (State::Run, Step::Char(c)) if sextet(byte).is_none() => Read::RunEnd(c),
            (_, Step::Char(c)) => Read::Run(Some(c)),
            (_, Step::Pending) => Read::Run(None),
            _ => Read::Malformed,
        }
    }

    /// Whether a base64 run is under way (after its `+`).
    pub(crate) fn in_run(&self) -> bool {
        matches!(self.decoder.state, State::Plus | State::Run)
    }

    /// Whether the bytes so far end inside a run that cannot end there: a
    /// lone `+`, six bits or more of a unit, padding that is not zero, a
    /// high surrogate.
    pub(crate) fn unfinished(&self) -> bool {
        match self.decoder.state {
            State::Plus => true,
            State::Run => self.decoder.unfinished(),
            State::Direct | State::Closing => false,
        }
    }
}

/// Base64 output: the bits of a run not yet written (fewer than six).
#[derive(Default)]
struct Bits {
    buffer: u32,
    bits: u8,
}

impl Bits {
    /// Appends the UTF-16 code units of `c`, writing each complete sextet.
    fn push(&mut self, c: char, dst: &mut Vec<u8>) {
        for &mut unit in c.encode_utf16(&mut [0; 2]) {
            self.buffer = self.buffer << 16 | u32::from(unit);
            self.bits += 16;
            while self.bits >= 6 {
                self.bits -= 6;
                dst.push(ALPHABET[(self.buffer >> self.bits & 0x3F) as usize]);
            }
            self.buffer &= (1 << self.bits) - 1;
        }
    }

    /// Writes the bits left, padded with zeros.
    fn flush(&mut self, dst: &mut Vec<u8>) {
        if self.bits > 0 {
            dst.push(ALPHABET[(self.buffer << (6 - self.bits) & 0x3F) as usize]);
        }
        *self = Bits::default();
    }
}

/// Whether Python's encoder writes `c` as itself: RFC 2152's direct and
/// optional characters, space, tab, CR and LF (not `+`, `\`, `~`, other
/// controls).
fn written_directly(c: char) -> bool {
    matches!(c, ' '..='}' | '\t' | '\n' | '\r') && !matches!(c, '+' | '\\')
}

/// UTF-7 written as Python's `utf-7` writes it.
#[derive(Default)]
pub(super) struct Encoder {
    /// In a run, and its bits not yet written.
    run: Option<Bits>,
}

impl Encoder {
    /// Appends `c` as Python writes it. Every character has bytes.
    pub(super) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        match &mut self.run {
            None if c == '+' => dst.extend_from_slice(b"+-"),
            None if written_directly(c) => dst.push(c as u8),
            None => {
                dst.push(b'+');
                self.run.insert(Bits::default()).push(c, dst);
            }
            Some(bits) if !written_directly(c) => bits.push(c, dst),
            Some(bits) => {
                bits.flush(dst);
                if needs_dash(c) {
                    dst.push(b'-');
                }
                self.run = None;
                dst.push(c as u8);
            }
        }
        true
    }

    /// At the end of the text: closes the run.
    pub(super) fn finish(&mut self, dst: &mut Vec<u8>) {
        if let Some(mut bits) = self.run.take() {
            bits.flush(dst);
            dst.push(b'-');
        }
    }
}

/// Reads UTF-7 in [`Errors::Escape`](crate::decode::Errors::Escape) mode:
/// characters where [`Follower`] writes them back the same, and the other
/// bytes to escape.
#[derive(Default)]
pub(crate) struct ExactReader {
    decoder: Decoder,
    /// Bytes read that no unit accounts for yet.
    pending: Vec<u8>,
    /// The run under way is, so far, what the follower writes for its
    /// characters.
    canonical: bool,
    /// A canonical run has ended with `-`, which the follower writes only
    /// before a base64 character or `-`: what follows tells (`pending`
    /// holds the `-`, and a `+` after it).
    dash: bool,
}

impl ExactReader {
    /// Reads `src` (the next chunk, from stream offset `offset`; `last`
    /// ends the stream), calling `unit` for each unit in order.
    pub(crate) fn read(
        &mut self,
        src: &[u8],
        offset: u64,
        last: bool,
        mut unit: impl FnMut(Unit<'_>),
    ) {
        for (i, &byte) in src.iter().enumerate() {
            self.pending.push(byte);
            let end = offset + i as u64 + 1;
            loop {
                let before = self.decoder.state;
                match self.decoder.step(byte) {
                    Step::MalformedBefore(_) => {
                        // A lone high surrogate before the end of its run,
                        // which is read again.
                        self.emit(end, self.pending.len() - 1, true, &mut unit);
                        self.canonical = false;
                        continue;
                    }
                    Step::MalformedEarlier { kept, .. } => {
                        // A lone high surrogate before the unit under way.
                        let bad = self.pending.len() - 1 - usize::from(kept);
                        self.emit(end, bad, true, &mut unit);
                        self.canonical = false;
                        continue;
                    }
                    Step::Pending => self.pending_step(before, end, &mut unit),
                    Step::Char(c) => self.char_step(c, before, end, &mut unit),
                    Step::Pair(..) => unreachable!("UTF-7 decodes one character at a time"),
                    Step::Malformed(n) => {
                        let n = usize::from(n).min(self.pending.len());
                        self.emit(end, self.pending.len() - n, false, &mut unit);
                        self.emit(end, n, true, &mut unit);
                        (self.canonical, self.dash) = (false, false);
                    }
                }
                break;
            }
        }
        if last {
            let end = offset + src.len() as u64;
            // A canonical run's last bits are what the follower's end writes.
            let written = self.decoder.state == State::Run && self.canonical && !self.dash;
            let n = usize::from(self.decoder.finish()).min(self.pending.len());
            if n == 0 && written {
                self.pending.clear();
            }
            self.emit(end, self.pending.len() - n, false, &mut unit);
            self.emit(end, n, true, &mut unit);
            (self.canonical, self.dash) = (false, false);
        }
    }

    /// The first `n` pending bytes as bytes to escape; `end` is the stream
    /// offset just after the last pending byte.
    fn emit(&mut self, end: u64, n: usize, malformed: bool, unit: &mut impl FnMut(Unit<'_>)) {
        if n == 0 {
            return;
        }
        let offset = end - self.pending.len() as u64;
        unit(Unit::Bytes { offset, bytes: &self.pending[..n], malformed });
        self.pending.drain(..n);
    }

    /// After a byte that completed nothing, read in state `before`.
    fn pending_step(&mut self, before: State, end: u64, unit: &mut impl FnMut(Unit<'_>)) {
        let len = self.pending.len();
        match (before, self.decoder.state) {
            // A `-` ended a run.
            (State::Run, State::Direct) if self.canonical => self.dash = true,
            (State::Run | State::Closing, State::Direct) => self.emit(end, len, false, unit),
            (State::Plus, State::Run) => {
                // A run begins. After a canonical run's `-`, the follower
                // would have gone on with that run: the `-` is escaped.
                if std::mem::take(&mut self.dash) {
                    self.emit(end, len - 2, false, unit);
                }
                self.canonical = true;
            }
            _ => {}
        }
    }

    /// After a byte that completed `c`, read in state `before`.
    fn char_step(&mut self, c: char, before: State, end: u64, unit: &mut impl FnMut(Unit<'_>)) {
        let len = self.pending.len();
        if before == State::Run && self.decoder.state == State::Run {
            // (A character of the escape range would read back as an escape.)
            if self.canonical && !c.is_ascii() && !crate::decode::is_escape(c) {
                unit(Unit::Char(c));
                // The byte that completed it may hold bits of what follows.
                let carried = usize::from(self.decoder.bits > 0);
                self.pending.drain(..len - carried);
            } else {
                // The follower writes ASCII as itself.
                self.canonical = false;
                self.emit(end, len, false, unit);
            }
            return;
        }
        // A character outside runs, `+-`, or the byte that ended a run.
        let written_back = match std::mem::take(&mut self.dash) {
            true => needs_dash(c),
            false => before != State::Run || self.canonical,
        };
        if !written_back {
            self.emit(end, len - 1, false, unit);
        }
        unit(Unit::Char(c));
        self.pending.clear();
    }
}

/// An encoder to UTF-7 that follows the raw bytes written between its
/// characters (escapes written back): characters outside runs as
/// themselves (`+` as `+-`), the others in runs it opens and closes as
/// Python does, except that the end of the text writes no `-`.
#[derive(Default)]
pub(crate) struct Follower {
    /// A decoder fed every byte written, raw or not.
    machine: Decoder,
    /// The run this follower opened, with its bits not yet written.
    run: Option<Bits>,
}

/// Feeds `machine` the bytes of `dst` from `start` on.
fn feed(machine: &mut Decoder, dst: &[u8], start: usize) {
    for &byte in &dst[start..] {
        while let Step::MalformedBefore(_) = machine.step(byte) {}
    }
}

impl Follower {
    /// Writes raw bytes (escapes written back). In a run of its own, the
    /// first of them holds the bits the follower has not written yet when
    /// it is base64 (the reader escapes from that byte on).
    pub(crate) fn raw(&mut self, bytes: &[u8], dst: &mut Vec<u8>) {
        let start = dst.len();
        if let Some(mut bits) = self.run.take() {
            if bytes.first().and_then(|&b| sextet(b)).is_none() {
                bits.flush(dst);
            }
        }
        dst.extend_from_slice(bytes);
        feed(&mut self.machine, dst, start);
    }

    /// Appends `c`. Every character has bytes.
    pub(crate) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        let start = dst.len();
        match &mut self.run {
            Some(bits) if !c.is_ascii() => bits.push(c, dst),
            Some(bits) => {
                bits.flush(dst);
                if needs_dash(c) {
                    dst.push(b'-');
                }
                self.run = None;
                dst.push(c as u8);
                if c == '+' {
                    dst.push(b'-');
                }
            }
            // In a run raw bytes opened, a byte outside base64 ends it as
            // it is read; anything else closes it first.
            None if self.machine.state == State::Run && c.is_ascii() && !needs_dash(c) => {
                dst.push(c as u8)
            }
            None => {
                if self.machine.state != State::Direct {
                    dst.push(b'-');
                }
                match c {
                    '+' => dst.extend_from_slice(b"+-"),
                    _ if c.is_ascii() => dst.push(c as u8),
                    _ => {
                        dst.push(b'+');
                        self.run.insert(Bits::default()).push(c, dst);
                    }
                }
            }
        }
        feed(&mut self.machine, dst, start);
        true
    }

    /// At the end of the text: the bits left, without a `-`.
    pub(crate) fn finish(&mut self, dst: &mut Vec<u8>) {
        let start = dst.len();
        if let Some(mut bits) = self.run.take() {
            bits.flush(dst);
        }
        feed(&mut self.machine, dst, start);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::codec::testing;
    use crate::decode::{escape, is_escape};
    use crate::Charset;

    /// `crates/charsight/tests/library/data/python-utf7.txt`: how Python's
    /// `utf-7` decodes inputs (with `errors='replace'`) and encodes texts.
    const PYTHON: &str =
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/library/data/python-utf7.txt"));

    fn hex_bytes(field: &str) -> Vec<u8> {
        let field = if field == "-" { "" } else { field };
        (0..field.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&field[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Python's text, each lone surrogate (which Rust's text cannot hold,
    /// and charsight reads as malformed) as U+FFFD.
    fn python_text(field: &str) -> String {
        field
            .split(',')
            .filter(|f| *f != "-")
            .map(|f| char::from_u32(u32::from_str_radix(f, 16).unwrap()).unwrap_or('\u{FFFD}'))
            .collect()
    }

    #[test]
    fn decodes_as_python() {
        let (mut same, mut final_plus) = (0, 0);
        for line in PYTHON.lines().filter(|l| l.starts_with("D ")) {
            let mut fields = line.split(' ').skip(1);
            let bytes = hex_bytes(fields.next().unwrap());
            let expected = python_text(fields.next().unwrap());
            let got = testing::decode_split(Charset::Utf7, &bytes, &[]).0;
            if got == expected {
                same += 1;
            } else {
                // Python reads a final `+` as nothing; charsight as malformed.
                assert_eq!(got, expected.clone() + "\u{FFFD}", "{bytes:02x?} {expected:?}");
                assert!(bytes.ends_with(b"+"), "{bytes:02x?}");
                final_plus += 1;
            }
        }
        assert_eq!((same, final_plus), (3670, 145));
    }

    #[test]
    fn encodes_as_python() {
        let mut texts = 0;
        for line in PYTHON.lines().filter(|l| l.starts_with("E ")) {
            let mut fields = line.split(' ').skip(1);
            let text = python_text(fields.next().unwrap());
            let bytes = hex_bytes(fields.next().unwrap());
            assert_eq!(Charset::Utf7.encode(&text), (bytes.into(), false), "{text:?}");
            texts += 1;
        }
        assert_eq!(texts, 800);
    }

    #[test]
    fn the_detectors_reader_tells_runs_from_text() {
        let mut reader = Reader::default();
        let reads: Vec<Read> = b"a+AOk-+-+AOk.".iter().map(|&b| reader.read(b)).collect();
        use Read::*;
        let e = Some('é');
        let expected = [
            Direct('a'),
            Run(None),
            Run(None),
            Run(None),
            Run(e),
            Run(None),
            Run(None),
            Direct('+'),
            Run(None),
            Run(None),
            Run(None),
            Run(e),
            RunEnd('.'),
        ];
        assert_eq!(reads, expected);
        assert!(!reader.unfinished() && !reader.in_run());
        assert_eq!(reader.read(b'+'), Run(None));
        assert!(reader.in_run() && reader.unfinished());
        assert_eq!(reader.read(0xE9), Malformed);
    }

    #[test]
    fn known_strings() {
        // Checked with Python's utf-7 codec.
        testing::assert_known(
            Charset::Utf7,
            &[
                ("Hi Mom -☺-!", b"Hi Mom -+Jjo--!"),
                ("日本語", b"+ZeVnLIqe-"),
                ("a+b", b"a+-b"),
                ("é.é-é", b"+AOk.+AOk--+AOk-"),
                ("~\\😀", b"+AH4AXNg93gA-"),
                ("", b""),
            ],
        );
    }

    #[test]
    fn malformed_sequences() {
        // `+!` (both bytes); a byte above 0x7F; a partial unit (the byte
        // that ends the run with it); non-zero padding (the byte holding
        // it and the `-`); lone surrogates: a high one before `-` (the `-`
        // still absorbed) and a low one; a final `+`.
        testing::assert_malformed(
            Charset::Utf7,
            b"+!a\x80+AOkA-+AOl-+2AA-+3AA-x+",
            "\u{FFFD}a\u{FFFD}é\u{FFFD}é\u{FFFD}\u{FFFD}\u{FFFD}x\u{FFFD}",
            &[
                (0, b"+!"),
                (3, b"\x80"),
                (7, b"kA-"),
                (13, b"l-"),
                (15, b"+2AA"),
                (20, b"+3AA"),
                (26, b"+"),
            ],
        );
    }

    #[test]
    fn surrogate_pairs_straddle_anywhere_in_a_run() {
        // 😀 after zero, one and two characters of the run.
        for text in ["😀", "é😀", "éé😀", "ééé😀é"] {
            let bytes = Charset::Utf7.encode(text).0.into_owned();
            testing::assert_every_split_agrees(Charset::Utf7, &bytes);
            assert_eq!(Charset::Utf7.decode(&bytes), (text.into(), false), "{text}");
        }
        // A high surrogate then a character that is not a low one.
        testing::assert_malformed(Charset::Utf7, b"+2AAA6Q-", "\u{FFFD}é", &[(0, b"+2AA")]);
    }

    #[test]
    fn every_split_point_agrees() {
        testing::assert_every_split_agrees(
            Charset::Utf7,
            b"a+-+AOk-b+2D3eAA.+AOl-+2AA\x80+AOkA6QDp~+",
        );
    }

    /// Decodes with an [`ExactReader`] (escapes as U+10FE`NN`) in chunks,
    /// then encodes back with a [`Follower`].
    fn round_trip(bytes: &[u8], chunk: usize) -> (String, Vec<u8>) {
        let mut reader = ExactReader::default();
        let mut text = String::new();
        let chunks: Vec<&[u8]> = bytes.chunks(chunk.max(1)).collect();
        for (i, c) in chunks.iter().enumerate() {
            let offset = (i * chunk.max(1)) as u64;
            reader.read(c, offset, i + 1 == chunks.len(), |unit| match unit {
                Unit::Char(c) => text.push(c),
                Unit::Bytes { bytes, .. } => text.extend(bytes.iter().map(|&b| escape(b))),
            });
        }
        if chunks.is_empty() {
            reader.read(b"", 0, true, |_| {});
        }
        let mut follower = Follower::default();
        let mut out = Vec::new();
        for c in text.chars() {
            if is_escape(c) {
                follower.raw(&[(u32::from(c) - 0x10_FE00) as u8], &mut out);
            } else {
                assert!(follower.encode_char(c, &mut out), "{c:?}");
            }
        }
        follower.finish(&mut out);
        (text, out)
    }

    #[test]
    fn canonical_runs_read_as_text() {
        for (bytes, text) in [
            (&b"a+AOk.b"[..], "aé.b"),
            (b"+AOk-a+AOk-", "éaé\u{10FE6B}\u{10FE2D}"),
            (b"+AOk--x", "é-x"),
            (b"+AOk-+-", "é+"),
            (b"+AOk", "é"),
            (b"+ZeVnLIqe-.", "日本語\u{10FE2D}."),
            (b"+AOk-+AOk.", "é\u{10FE6B}\u{10FE2D}é."),
            (b"+AEE-", "\u{10FE2B}\u{10FE41}\u{10FE45}\u{10FE45}\u{10FE2D}"),
        ] {
            let (got, back) = round_trip(bytes, 100);
            assert_eq!(got, text, "{bytes:02x?}");
            assert_eq!(back, bytes);
        }
    }

    #[test]
    fn characters_of_the_escape_range_come_back_as_bytes() {
        let bytes = Charset::Utf7.encode("é\u{10FE41}é").0.into_owned();
        for chunk in 1..=bytes.len() {
            let (text, back) = round_trip(&bytes, chunk);
            assert!(text.starts_with('é'), "{text:?}");
            assert_eq!(back, bytes);
        }
    }

    #[test]
    fn every_short_sequence_comes_back() {
        // Every string of up to four bytes over UTF-7's pieces.
        let alphabet = b"+-A/k2.\x80";
        let mut level = vec![Vec::new()];
        let mut strings = level.clone();
        for _ in 0..4 {
            level = level
                .iter()
                .flat_map(|s| alphabet.iter().map(move |&b| [&s[..], &[b]].concat()))
                .collect();
            strings.extend(level.iter().cloned());
        }
        assert_eq!(strings.len(), 1 + 8 + 64 + 512 + 4096);
        for bytes in &strings {
            for chunk in 1..=bytes.len().max(1) {
                assert_eq!(round_trip(bytes, chunk).1, *bytes, "{bytes:02x?} in chunks of {chunk}");
            }
        }
    }

    fn utf7_bytes() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(b"+".to_vec()),
            Just(b"-".to_vec()),
            Just(b"+-".to_vec()),
            prop::sample::select(
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".to_vec()
            )
            .prop_map(|b| vec![b]),
            prop::sample::select(b". \n~\\\x80\xff".to_vec()).prop_map(|b| vec![b]),
            "[a-zé日😀~+\u{10FE41}-]{1,6}".prop_map(|t| Charset::Utf7.encode(&t).0.into_owned()),
        ];
        prop::collection::vec(piece, 0..14).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn any_bytes_come_back(bytes in utf7_bytes(), chunk in 1usize..9) {
            prop_assert_eq!(round_trip(&bytes, chunk).1, bytes);
        }

        #[test]
        fn follower_without_raw_bytes_reads_back(text in "[a-z+~\\\\\\-.é日😀\n]{0,12}") {
            let mut follower = Follower::default();
            let mut out = Vec::new();
            for c in text.chars() {
                follower.encode_char(c, &mut out);
            }
            follower.finish(&mut out);
            prop_assert_eq!(Charset::Utf7.decode(&out), (text.into(), false));
        }
    }
}
