//! The stateful encodings byte for byte, for lossless escaping.
//!
//! ISO-2022-JP(-2, -3, -2004), ISO-2022-KR, ISO-2022-CN and HZ-GB-2312 spell the same text
//! several ways: a redundant `ESC ( B`, `ESC $ @` for `ESC $ B`, `ESC ( J`
//! before plain ASCII, a missing final switch, a repeated designation or
//! shift, a character in another set than the encoder's, an empty `~{~}`, a
//! line continuation. So that
//! decoding with [`Errors::Escape`](crate::decode::Errors::Escape) and
//! encoding back gives the original bytes, an [`ExactReader`] reads every
//! switch (and every character its mode would not write back the same) as
//! bytes to escape, and a [`Follower`] encoder, given those bytes back raw,
//! follows the mode they set: it writes each character in the mode it is
//! in, and switches only where that mode cannot write it.
//!
//! Both run the codec's own decoder of each encoding as their state
//! machine: ISO-2022-JP's ([`super::iso_2022_jp`], the Encoding Standard's
//! machine, which `encoding_rs` decodes otherwise), ISO-2022-JP-2's, -3's
//! and -2004's, ISO-2022-KR's, ISO-2022-CN(-EXT)'s and HZ-GB-2312's. For
//! ISO-2022-JP-2, -3, -2004 and ISO-2022-CN the follower is also the usual
//! encoder.

use super::iso_2022_jp::Variant;
use super::{hz, iso_2022_cn, iso_2022_jp, iso_2022_kr, ksx1001, ByteDecoder, Codec, Step};
use crate::Charset;

const ESC: u8 = 0x1B;

/// One of the state machines.
enum Machine {
    /// ISO-2022-JP and ISO-2022-JP-2, -3 and -2004.
    Jp(iso_2022_jp::Decoder),
    Kr(iso_2022_kr::Decoder),
    Cn(iso_2022_cn::Decoder),
    Hz(hz::Decoder),
}

impl Machine {
    fn new(charset: Charset) -> Option<Machine> {
        match charset {
            Charset::Iso2022Jp => Some(Machine::Jp(iso_2022_jp::Decoder::new(Variant::Jp))),
            Charset::Iso2022Kr => Some(Machine::Kr(iso_2022_kr::Decoder::default())),
            Charset::Iso2022Cn => Some(Machine::Cn(iso_2022_cn::Decoder::new(false))),
            Charset::Iso2022CnExt => Some(Machine::Cn(iso_2022_cn::Decoder::new(true))),
            Charset::HzGb2312 => Some(Machine::Hz(hz::Decoder::default())),
            _ => match charset.codec() {
                Codec::Iso2022JpExt(variant) => {
                    Some(Machine::Jp(iso_2022_jp::Decoder::new(variant)))
                }
                _ => None,
            },
        }
    }

    fn step(&mut self, byte: u8) -> Step {
        match self {
            Machine::Jp(d) => d.step(byte),
            Machine::Kr(d) => d.step(byte),
            Machine::Cn(d) => d.step(byte),
            Machine::Hz(d) => d.step(byte),
        }
    }

    fn finish(&mut self) -> u8 {
        match self {
            Machine::Jp(d) => d.finish(),
            Machine::Kr(d) => d.finish(),
            Machine::Cn(d) => d.finish(),
            Machine::Hz(d) => d.finish(),
        }
    }

    /// No sequence is under way.
    fn idle(&self) -> bool {
        match self {
            Machine::Jp(d) => d.idle(),
            Machine::Kr(d) => d.idle(),
            Machine::Cn(d) => d.idle(),
            Machine::Hz(d) => d.idle(),
        }
    }

    /// Where a stream would start: ASCII (ISO-2022-KR and -CN not shifted,
    /// HZ outside `~{` … `~}`).
    fn at_start(&self) -> bool {
        match self {
            Machine::Jp(d) => d.at_start(),
            Machine::Kr(d) => !d.shifted(),
            Machine::Cn(d) => !d.shifted(),
            Machine::Hz(d) => !d.gb(),
        }
    }

    /// The bytes of `c` in the current mode, without a switch, if it has
    /// them (the machine must be idle).
    fn here(&self, c: char) -> Option<Vec<u8>> {
        let byte = u8::try_from(c).ok().filter(|&b| !matches!(b, 0x0E | 0x0F | ESC));
        match self {
            Machine::Jp(d) => d.here(c),
            Machine::Kr(d) if !d.shifted() => byte.filter(|&b| b < 0x80).map(|b| vec![b]),
            Machine::Kr(_) => match byte {
                Some(b @ 0x00..=0x1F) => Some(vec![b]),
                _ => ksx1001::encode(c).map(|(row, cell)| vec![row, cell]),
            },
            Machine::Cn(d) => d.here(c),
            Machine::Hz(d) if d.gb() => hz::encode_pair(c).map(Vec::from),
            Machine::Hz(_) => hz_ascii(c),
        }
    }

    /// Whether `bytes`, read as `c` just now, are what the current mode
    /// writes for `c`: a two-byte character of a table with duplicates may
    /// not be (JIS X 0208's NEC and IBM rows), nor an ISO-2022-CN character
    /// in another set than the encoder's or in one not designated on its line.
    fn writes_back(&self, c: char, bytes: &[u8]) -> bool {
        match (self, bytes) {
            (Machine::Cn(d), _) => d.here(c).as_deref() == Some(bytes),
            (Machine::Jp(d), _) => d.writes_back(c, bytes),
            (Machine::Kr(_), &[row, cell]) => ksx1001::encode(c) == Some((row, cell)),
            (Machine::Hz(d), &[row, cell]) if d.gb() => hz::encode_pair(c) == Some([row, cell]),
            _ => true,
        }
    }
}

/// Reads a stateful encoding in [`Errors::Escape`](crate::decode::Errors::Escape)
/// mode: characters, and the bytes of switches, malformed sequences and
/// characters that would not encode back, to escape.
pub(crate) struct ExactReader {
    machine: Machine,
    /// The bytes of the unit under way.
    pending: Vec<u8>,
}

/// What an [`ExactReader`] read.
pub(crate) enum Unit<'a> {
    /// A character.
    Char(char),
    /// Bytes to escape, from stream offset `offset`; `malformed` if they
    /// are not a switch or a character.
    Bytes { offset: u64, bytes: &'a [u8], malformed: bool },
}

impl ExactReader {
    /// The reader for `charset`, if it is stateful.
    pub(crate) fn new(charset: Charset) -> Option<ExactReader> {
        Some(ExactReader { machine: Machine::new(charset)?, pending: Vec::new() })
    }

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
            loop {
                // The stream offset of the first pending byte (bytes before
                // one read again are gone from `pending` by now).
                let from = (offset + i as u64 + 1).saturating_sub(self.pending.len() as u64);
                let bytes =
                    |malformed| Unit::Bytes { offset: from, bytes: &self.pending, malformed };
                match self.machine.step(byte) {
                    Step::Char(c) if self.machine.writes_back(c, &self.pending) => {
                        unit(Unit::Char(c));
                    }
                    Step::Char(_) | Step::Pair(..) => unit(bytes(false)),
                    Step::Pending if self.machine.idle() => unit(bytes(false)),
                    Step::Pending => break,
                    Step::Malformed(_) => unit(bytes(true)),
                    Step::MalformedBefore(_) => {
                        let before = &self.pending[..self.pending.len() - 1];
                        unit(Unit::Bytes { offset: from, bytes: before, malformed: true });
                        self.pending.clear();
                        self.pending.push(byte);
                        continue;
                    }
                    Step::MalformedEarlier { kept, .. } => {
                        let bad = self.pending.len() - 1 - usize::from(kept);
                        let before = &self.pending[..bad];
                        unit(Unit::Bytes { offset: from, bytes: before, malformed: true });
                        self.pending.drain(..bad);
                        continue;
                    }
                }
                self.pending.clear();
                break;
            }
        }
        if last && !self.pending.is_empty() {
            self.machine.finish();
            let from = (offset + src.len() as u64).saturating_sub(self.pending.len() as u64);
            unit(Unit::Bytes { offset: from, bytes: &self.pending, malformed: true });
            self.pending.clear();
        }
    }
}

/// An encoder to a stateful encoding that follows the raw bytes written
/// between its characters (escapes written back): each character goes in
/// the mode the stream is in when it has bytes there, after the encoding's
/// usual switch otherwise.
pub(crate) struct Follower {
    machine: Machine,
    charset: Charset,
    /// The mode was last set by this encoder (not by raw bytes), so the end
    /// of the text switches back.
    switched: bool,
    /// ISO-2022-KR's designation has been written or passed.
    designated: bool,
    /// It writes a letter and a combining mark as JIS X 0213's one code
    /// (the usual encoder of ISO-2022-JP-3 and -2004).
    composes: bool,
    /// A letter held back: it may begin such a pair with the next character.
    held: Option<char>,
}

impl Follower {
    /// The encoder that follows raw bytes: each character as it comes, so
    /// that characters read from codes of their own are written so.
    pub(crate) fn new(charset: Charset) -> Option<Follower> {
        Some(Follower {
            machine: Machine::new(charset)?,
            charset,
            switched: false,
            designated: false,
            composes: false,
            held: None,
        })
    }

    /// The usual encoder, given no raw bytes: in ISO-2022-JP-3 and -2004 it
    /// composes a letter and a combining mark, as EUC-JIS-2004's does.
    pub(crate) fn usual(charset: Charset) -> Option<Follower> {
        let composes = matches!(charset, Charset::Iso2022Jp3 | Charset::Iso2022Jp2004);
        Some(Follower { composes, ..Follower::new(charset)? })
    }

    fn push(&mut self, bytes: &[u8], dst: &mut Vec<u8>) {
        for &byte in bytes {
            while let Step::MalformedBefore(_) | Step::MalformedEarlier { .. } =
                self.machine.step(byte)
            {}
        }
        dst.extend_from_slice(bytes);
    }

    /// Writes raw bytes (escapes written back), following the mode they set.
    pub(crate) fn raw(&mut self, bytes: &[u8], dst: &mut Vec<u8>) {
        let before = self.machine.at_start();
        self.push(bytes, dst);
        // (An escape sequence of ISO-2022-KR can only be its designation.)
        self.designated |= bytes.contains(&ESC);
        if self.machine.at_start() != before {
            self.switched = false;
        }
    }

    /// Appends `c`; false if the encoding has no bytes for it (the stream is
    /// then back where it starts, so a reference reads as ASCII).
    pub(crate) fn encode_char(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        if self.composes {
            if let (Some(base), Machine::Jp(d)) = (self.held.take(), &self.machine) {
                let (here, switch) = (d.here_pair(base, c), d.switch_for_pair(base, c));
                if switch.is_some() {
                    return self.write(here, switch, dst);
                }
                self.encode_one(base, dst);
            }
            if super::jis_x0213::begins_pair(c) {
                self.held = Some(c);
                return true;
            }
        }
        self.encode_one(c, dst)
    }

    fn encode_one(&mut self, c: char, dst: &mut Vec<u8>) -> bool {
        // (Raw bytes may have begun a switch that this character breaks:
        // its bytes in the mode before it end that, as when it was read.)
        let here = self.machine.here(c);
        let switch = if here.is_some() { None } else { self.switch_for(c) };
        self.write(here, switch, dst)
    }

    /// Writes a character's bytes in the current mode (`here`), or else
    /// with the switch to its mode (`switch`); false if it has neither.
    fn write(&mut self, here: Option<Vec<u8>>, switch: Option<Vec<u8>>, dst: &mut Vec<u8>) -> bool {
        if let Some(bytes) = here {
            self.push(&bytes, dst);
            return true;
        }
        match switch {
            // A switch from here straight to the character's mode (two
            // switches in a row would be an error).
            Some(bytes) if matches!(bytes.first(), Some(&(ESC | 0x0E))) => {
                self.push(&bytes, dst);
            }
            Some(bytes) => {
                self.reset(dst);
                self.push(&bytes, dst);
            }
            None => {
                self.reset(dst);
                return false;
            }
        }
        self.switched = !self.machine.at_start();
        true
    }

    /// The usual bytes for `c` from where the stream starts, with the
    /// switch to its mode first, if it needs one.
    fn switch_for(&mut self, c: char) -> Option<Vec<u8>> {
        match &self.machine {
            Machine::Cn(d) => return d.switch_for(c),
            Machine::Jp(d) if self.charset != Charset::Iso2022Jp => return d.switch_for(c),
            _ => {}
        }
        match self.charset {
            Charset::Iso2022Kr => {
                if c.is_ascii() && !matches!(c, '\u{0E}' | '\u{0F}' | '\u{1B}') {
                    return Some(vec![c as u8]);
                }
                let (row, cell) = ksx1001::encode(c)?;
                let mut bytes = Vec::new();
                if !std::mem::replace(&mut self.designated, true) {
                    bytes.extend_from_slice(iso_2022_kr::DESIGNATION);
                }
                bytes.extend_from_slice(&[0x0E, row, cell]);
                Some(bytes)
            }
            Charset::HzGb2312 => hz_ascii(c).or_else(|| {
                let [row, cell] = hz::encode_pair(c)?;
                Some(vec![b'~', b'{', row, cell])
            }),
            _ => {
                // encoding_rs's encoder from ASCII, without its switch back.
                let mut encoder = encoding_rs::ISO_2022_JP.new_encoder();
                let mut bytes = Vec::with_capacity(16);
                let (result, _) = encoder.encode_from_utf8_to_vec_without_replacement(
                    c.encode_utf8(&mut [0; 4]),
                    &mut bytes,
                    false,
                );
                (result == encoding_rs::EncoderResult::InputEmpty).then_some(bytes)
            }
        }
    }

    /// Back to where the stream starts, if this encoder left it.
    fn reset(&mut self, dst: &mut Vec<u8>) {
        if self.machine.idle() && !self.machine.at_start() {
            let back: &[u8] = match self.charset {
                Charset::Iso2022Kr | Charset::Iso2022Cn | Charset::Iso2022CnExt => b"\x0F",
                Charset::HzGb2312 => b"~}",
                _ => b"\x1B(B",
            };
            self.push(back, dst);
        }
        self.switched = false;
    }

    /// At the end of the text: the letter held back, then back to ASCII if
    /// this encoder left it.
    pub(crate) fn finish(&mut self, dst: &mut Vec<u8>) {
        if let Some(base) = self.held.take() {
            self.encode_one(base, dst);
        }
        if self.switched {
            self.reset(dst);
        }
    }
}

/// The bytes of an ASCII character in HZ's ASCII mode (`~~` for `~`).
fn hz_ascii(c: char) -> Option<Vec<u8>> {
    match c {
        '~' => Some(b"~~".to_vec()),
        _ => c.is_ascii().then(|| vec![c as u8]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Decodes with an [`ExactReader`] (escapes as U+10FE`NN`) in chunks,
    /// then encodes back with a [`Follower`].
    fn round_trip(charset: Charset, bytes: &[u8], chunk: usize) -> (String, Vec<u8>) {
        let mut reader = ExactReader::new(charset).unwrap();
        let mut text = String::new();
        let chunks: Vec<&[u8]> = bytes.chunks(chunk.max(1)).collect();
        for (i, c) in chunks.iter().enumerate() {
            let offset = (i * chunk.max(1)) as u64;
            reader.read(c, offset, i + 1 == chunks.len(), |unit| match unit {
                Unit::Char(c) => text.push(c),
                Unit::Bytes { bytes, .. } => {
                    text.extend(bytes.iter().map(|&b| crate::decode::escape(b)))
                }
            });
        }
        if chunks.is_empty() {
            reader.read(b"", 0, true, |_| {});
        }
        let mut follower = Follower::new(charset).unwrap();
        let mut out = Vec::new();
        for c in text.chars() {
            if crate::decode::is_escape(c) {
                follower.raw(&[(u32::from(c) - 0x10_FE00) as u8], &mut out);
            } else {
                assert!(follower.encode_char(c, &mut out), "{c:?}");
            }
        }
        follower.finish(&mut out);
        (text, out)
    }

    /// The units' offsets, in `bytes` read in one piece.
    fn offsets(charset: Charset, bytes: &[u8]) -> Vec<(u64, Vec<u8>, bool)> {
        let mut reader = ExactReader::new(charset).unwrap();
        let mut units = Vec::new();
        reader.read(bytes, 0, true, |unit| {
            if let Unit::Bytes { offset, bytes, malformed } = unit {
                units.push((offset, bytes.to_vec(), malformed));
            }
        });
        units
    }

    #[test]
    fn a_byte_read_again_is_at_its_own_offset() {
        // Shifted, `!` begins a pair that `80` cannot end: `!` is malformed,
        // and `80`, read again on its own, too, at offset 6.
        let units = offsets(Charset::Iso2022Kr, b"\x1b$)C\x0e!\x80");
        assert_eq!(units.last(), Some(&(6, vec![0x80], true)), "{units:?}");
        assert_eq!(units[units.len() - 2], (5, vec![b'!'], true), "{units:?}");
    }

    #[test]
    fn jp_switches_of_every_spelling_come_back() {
        for bytes in [
            &b"a\x1b$B\x30\x21\x1b(Bb"[..],
            b"\x1b$@\x30\x21\x1b$B\x30\x21",
            b"\x1b(J\\~a\x1b(B\x1b(B\n",
            b"\x1b(I\x31\x32\x1b(B",
            b"\x1b$B\x30\x21\nx\x1b(B\n",
            b"\x1b$B\x2d\x62\x79\x5a\x1b(B",
            b"\x1b$B\x30\n\x1b(\x1bx\xff\x1b$",
        ] {
            assert_eq!(round_trip(Charset::Iso2022Jp, bytes, 100).1, bytes, "{bytes:x?}");
        }
    }

    #[test]
    fn jp_text_is_the_standard_decoders() {
        let bytes = b"a\x1b$B\x30\x21\x34\x41\x1b(J\\\x1b(I\x31\x1b(B~\n";
        let (text, _) = round_trip(Charset::Iso2022Jp, bytes, 3);
        let plain: String = text.chars().filter(|&c| !crate::decode::is_escape(c)).collect();
        assert_eq!(plain, encoding_rs::ISO_2022_JP.decode_without_bom_handling(bytes).0);
    }

    #[test]
    fn kr_designations_and_shifts_come_back() {
        for bytes in [
            &b"\x1b$)Ca\x0e\x30\x21\x0f"[..],
            b"\x0e\x30\x21\x0f\x0f\x1b$)C\x1b$)C\x0e\x30\x21\n\x0e\t\x30\x21",
            b"abc",
            b"\x0e\x30\x21",
        ] {
            assert_eq!(round_trip(Charset::Iso2022Kr, bytes, 100).1, bytes, "{bytes:x?}");
        }
    }

    #[test]
    fn hz_switches_and_tildes_come_back() {
        for bytes in
            [&b"a~{VPND~}b"[..], b"~{~}~{VP~}~~~\n~{VP\nND", b"~x~{~~~\nVP!\x7f~}~", b"~{VP"]
        {
            assert_eq!(round_trip(Charset::HzGb2312, bytes, 100).1, bytes, "{bytes:x?}");
        }
    }

    #[test]
    fn cn_switches_of_every_spelling_come_back() {
        for bytes in [
            // A designation kept across lines; repeated ones; SO twice; a
            // designation while shifted; SI twice.
            &b"a\x1b$)A\x0e\x56\x50\x0f\n\x0e\x56\x50\x0f"[..],
            b"\x1b$)A\x1b$)A\x0e\x0e\x56\x50\x1b$)G\x44\x63\x0f\x0f",
            b"\x1b$)G\x0e\x44\x63\x1b$)A\x0e\x56\x50\x0f",
            // SS2 undesignated, then designated; a character of GB 2312 in
            // plane 2 too; planes 3 and 4.
            b"\x1bN\x21\x21\x1b$*H\x1bN\x21\x21\x1b$)A\x0e\x1bN\x21\x21\x0f",
            b"\x1b$+I\x1bO\x21\x21\x1b$+J\x1bO\x21\x21\x0f",
            // Malformed sequences; an unfinished shift.
            b"\x0e\x1b$)E\x1bx\x0e\n\x7e\x7e\x56\x0f\x1bO\x21\x21\xa1\x7f\x1bN\x21",
            b"\x0e\x56\x50",
        ] {
            for charset in [Charset::Iso2022Cn, Charset::Iso2022CnExt] {
                assert_eq!(round_trip(charset, bytes, 3).1, bytes, "{charset} {bytes:x?}");
            }
        }
    }

    /// Every pair of bytes between `before` (a switch) and `after` comes
    /// back through the escape round trip.
    fn every_pair_comes_back(charset: Charset, before: &[u8], after: &[u8]) {
        for lead in 0..=0xFF_u8 {
            for trail in 0..=0xFF_u8 {
                let bytes = [before, &[lead, trail], after].concat();
                let back = round_trip(charset, &bytes, 8).1;
                assert_eq!(back, bytes, "{charset} {lead:02x} {trail:02x}");
            }
        }
    }

    #[test]
    fn hz_every_two_byte_sequence_comes_back() {
        every_pair_comes_back(Charset::HzGb2312, b"~{", b"~}");
    }

    #[test]
    fn jp_every_two_byte_sequence_comes_back() {
        every_pair_comes_back(Charset::Iso2022Jp, b"\x1b$B", b"\x1b(B");
    }

    #[test]
    fn jp2_every_two_byte_sequence_comes_back() {
        for before in [&b"\x1b$(D"[..], b"\x1b$A", b"\x1b$(C", b"\x1b.F\x1bN"] {
            every_pair_comes_back(Charset::Iso2022Jp2, before, b"\x1b(B");
        }
        for before in [&b"\x1b$(O"[..], b"\x1b$(P", b"\x1b$B"] {
            every_pair_comes_back(Charset::Iso2022Jp3, before, b"\x1b(B");
        }
        every_pair_comes_back(Charset::Iso2022Jp2004, b"\x1b$(Q", b"\x1b(B");
    }

    #[test]
    fn cn_every_two_byte_sequence_comes_back() {
        for (charset, before) in [
            (Charset::Iso2022Cn, &b"\x1b$)A\x0e"[..]),
            (Charset::Iso2022Cn, b"\x1b$)G\x0e"),
            (Charset::Iso2022Cn, b"\x1b$*H\x1bN"),
            (Charset::Iso2022CnExt, b"\x1b$+M\x1bO"),
        ] {
            every_pair_comes_back(charset, before, b"\x0f");
        }
    }

    #[test]
    fn kr_every_two_byte_sequence_comes_back() {
        every_pair_comes_back(Charset::Iso2022Kr, b"\x1b$)C\x0e", b"\x0f");
    }

    fn stateful_bytes() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(b"\x1b$B".to_vec()),
            Just(b"\x1b$@".to_vec()),
            Just(b"\x1b(B".to_vec()),
            Just(b"\x1b(J".to_vec()),
            Just(b"\x1b(I".to_vec()),
            Just(b"\x1b$)C".to_vec()),
            Just(b"\x1b$(D".to_vec()),
            Just(b"\x1b$(C".to_vec()),
            Just(b"\x1b$A".to_vec()),
            Just(b"\x1b.A".to_vec()),
            Just(b"\x1b.F".to_vec()),
            Just(b"\x1b$(O".to_vec()),
            Just(b"\x1b$(P".to_vec()),
            Just(b"\x1b$(Q".to_vec()),
            Just(b"\x1b$)A".to_vec()),
            Just(b"\x1b$)G".to_vec()),
            Just(b"\x1b$*H".to_vec()),
            Just(b"\x1b$+K".to_vec()),
            Just(b"\x1bN".to_vec()),
            Just(b"\x1bO".to_vec()),
            Just(b"~{".to_vec()),
            Just(b"~}".to_vec()),
            Just(b"~".to_vec()),
            Just(vec![0x0E]),
            Just(vec![0x0F]),
            Just(b"\n".to_vec()),
            prop::collection::vec(0x21..0x7F_u8, 1..6),
            prop::collection::vec(any::<u8>(), 1..3),
        ];
        prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
    }

    #[test]
    fn a_g2_character_g0_also_has_comes_back() {
        // Found by `any_bytes_come_back`: `÷` read after SS2 (ISO-8859-1 in
        // G2) in JIS X 0208 mode, where the encoder writes JIS X 0208's.
        let bytes = b"\x1B$B\x1B.A\x1BNw";
        for chunk in 1..=bytes.len() {
            assert_eq!(round_trip(Charset::Iso2022Jp2, bytes, chunk).1, bytes, "{chunk}");
        }
    }

    proptest! {
        #[test]
        fn any_bytes_come_back(bytes in stateful_bytes(), chunk in 1usize..9, which in 0..8usize) {
            let charset = [
                Charset::Iso2022Jp,
                Charset::Iso2022Jp2,
                Charset::Iso2022Jp3,
                Charset::Iso2022Jp2004,
                Charset::Iso2022Kr,
                Charset::HzGb2312,
                Charset::Iso2022Cn,
                Charset::Iso2022CnExt,
            ][which];
            prop_assert_eq!(round_trip(charset, &bytes, chunk).1, bytes);
        }

        #[test]
        fn follower_without_raw_bytes_is_the_usual_encoder(text in "[a-z\\\\~¥‾ｱ-ﾝ亜-腕가-힣\n]{0,12}") {
            for charset in [Charset::Iso2022Jp, Charset::Iso2022Kr, Charset::HzGb2312] {
                let mut follower = Follower::new(charset).unwrap();
                let mut out = Vec::new();
                let mut usual = charset.new_encoder();
                let mut expected = Vec::new();
                // Unmappable characters as `?`, read as ASCII in both.
                usual.encode_from_str(&text, &mut expected, true, |dst, _| dst.push(b'?'));
                for c in text.chars() {
                    if !follower.encode_char(c, &mut out) {
                        out.push(b'?');
                    }
                }
                follower.finish(&mut out);
                // Both read back as the same text.
                prop_assert_eq!(charset.decode(&out).0, charset.decode(&expected).0);
            }
        }
    }
}
