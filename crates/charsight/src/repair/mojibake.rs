//! The `mojibake` repair: text that went through a wrong decode and a
//! re-encode ("Ã©" for "é", "æ–‡å­—" for "文字", "РџСЂРёРІРµС‚" for
//! "Привет", "鏂囧瓧" for "文字"), once or more.
//!
//! UTF-8 bytes read as windows-1252 (or ISO-8859-1, whose C1 controls stand
//! for the bytes windows-1252 leaves undefined or maps elsewhere),
//! windows-1250, ISO-8859-2, windows-1251, KOI8-R, windows-1253, ISO-8859-7,
//! windows-1255, windows-1257, MacRoman, IBM437, IBM850, Shift_JIS or GBK give
//! characters that,
//! encoded back in that encoding, are valid UTF-8 again. So for each of these
//! encodings ([`Via`]) the repair encodes each run of non-ASCII characters
//! back, finds the stretches whose bytes are UTF-8 ([`Units::utf8_runs`]),
//! a space standing for a no-break space where that completes a sequence
//! (`Ã ` for `à`, once the no-break space became a space, or collapsed with
//! the space after it: see [`LostSpaces`]) and U+FFFD standing for a byte
//! windows-1252 leaves undefined (`â€�` for `”`: see [`UNDEFINED`]; or `?`
//! where a legacy store wrote the U+FFFD so: `â€?`), peels up to
//! [`MAX_DEPTH`] layers, and keeps the reading the scoring model
//! prefers — only when it is at least [`MARGIN`] bits cheaper than the text
//! as it stands. Where several encodings propose overlapping repairs, the
//! one with the larger gain wins.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::OnceLock;

use super::score::{self, Share, Window};
use super::utf8::{self, Units};
use super::{boundary, boundary_after, Cause, Edit, Kind};
use crate::classify::{class, is_cjk, is_letter, is_mark, CharTable, Class};
use crate::Charset;

/// How many times over text may have been garbled.
pub(crate) const MAX_DEPTH: usize = 3;

/// The gain (bits) a repair needs: measured so that no line of the clean
/// text is changed while held-out damage is repaired.
pub(crate) const MARGIN: f32 = 12.0;

/// The confidence a repair short of its margin needs to be listed as
/// possible ([`repair_text`]; `explain` shows them): within about six bits
/// of its margin.
pub(crate) const POSSIBLE: f32 = 0.02;

/// An encoding UTF-8 was wrongly read in: those whose readers most often
/// met UTF-8 (the web's legacy defaults, Mac and DOS consoles, Russian
/// mail). Not IBM866: its Cyrillic letters make UTF-8 by chance in every
/// line of clean Russian (р–я are lead bytes, а–п continuation bytes), and
/// weighing those lines made repair three times slower on Cyrillic text.
/// Not windows-1256 yet: clean Arabic, Persian and Urdu make it by chance
/// in many lines, and weighing them made repair of that text six to ten
/// times slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Via {
    /// windows-1252, with the C1 controls of ISO-8859-1 for bytes 0x80–0x9F.
    Windows1252,
    /// windows-1250 (Central European).
    Windows1250,
    /// ISO-8859-2 (Central European; its C1 controls as they are).
    Iso8859_2,
    /// windows-1251.
    Windows1251,
    /// KOI8-R.
    Koi8R,
    /// windows-1253 (Greek).
    Windows1253,
    /// ISO-8859-7 (Greek; its C1 controls as they are).
    Iso8859_7,
    /// windows-1255 (Hebrew).
    Windows1255,
    /// windows-1257 (Baltic).
    Windows1257,
    /// MacRoman (`macintosh`).
    Macintosh,
    /// IBM437, the DOS console's.
    Ibm437,
    /// IBM850, the DOS console's in Western Europe.
    Ibm850,
    /// Shift_JIS.
    ShiftJis,
    /// GBK.
    Gbk,
}

impl Via {
    pub(crate) const ALL: [Via; 14] = [
        Via::Windows1252,
        Via::Windows1250,
        Via::Iso8859_2,
        Via::Windows1251,
        Via::Koi8R,
        Via::Windows1253,
        Via::Iso8859_7,
        Via::Windows1255,
        Via::Windows1257,
        Via::Macintosh,
        Via::Ibm437,
        Via::Ibm850,
        Via::ShiftJis,
        Via::Gbk,
    ];

    pub(crate) fn charset(self) -> Charset {
        match self {
            Via::Windows1252 => Charset::Windows1252,
            Via::Windows1250 => Charset::Windows1250,
            Via::Iso8859_2 => Charset::Iso8859_2,
            Via::Windows1251 => Charset::Windows1251,
            Via::Koi8R => Charset::Koi8R,
            Via::Windows1253 => Charset::Windows1253,
            Via::Iso8859_7 => Charset::Iso8859_7,
            Via::Windows1255 => Charset::Windows1255,
            Via::Windows1257 => Charset::Windows1257,
            Via::Macintosh => Charset::Macintosh,
            Via::Ibm437 => Charset::Ibm437,
            Via::Ibm850 => Charset::Ibm850,
            Via::ShiftJis => Charset::ShiftJis,
            Via::Gbk => Charset::Gbk,
        }
    }

    /// Its place in [`Via::ALL`] (the order of the variants).
    fn index(self) -> usize {
        self as usize
    }

    /// Whether it writes every character in one byte (all but Shift_JIS
    /// and GBK).
    fn is_single_byte(self) -> bool {
        !matches!(self, Via::ShiftJis | Via::Gbk)
    }

    /// The encoding for a charset, when it is one of them.
    pub(crate) fn of(charset: Charset) -> Option<Via> {
        Via::ALL.into_iter().find(|v| v.charset() == charset)
    }

    /// The bytes of `c` in this encoding, when it has them (from the
    /// tables of [`encoded_table`] for the Basic Multilingual Plane).
    fn encode(self, c: char, buf: &mut [u8; 4]) -> Option<usize> {
        let u = c as usize;
        let entry = match (u.checked_sub(TABLED as usize), self) {
            (None, _) => encoded_table(self, false).get(u).copied(),
            // The double-byte encodings' tables beyond are made a block of
            // characters at a time: a line of Cyrillic with a dash needs
            // one block, not the whole plane (that took 20 ms).
            (Some(_), Via::ShiftJis) => Some(SHIFT_JIS.value(c)),
            (Some(_), Via::Gbk) => Some(GBK.value(c)),
            (Some(above), _) => encoded_table(self, true).get(above).copied(),
        };
        match entry {
            Some((len, bytes)) => {
                buf[..2].copy_from_slice(&bytes);
                (len > 0).then_some(usize::from(len))
            }
            // Beyond every character a single-byte encoding has.
            None if self.is_single_byte() => None,
            None => self.encode_uncached(c, buf),
        }
    }

    /// [`Via::encode_uncached`] of `c`, as a table has it.
    fn encoded(self, c: char) -> Encoded {
        let mut buf = [0; 4];
        let len = self.encode_uncached(c, &mut buf);
        len.map_or((0, [0; 2]), |len| (len as u8, [buf[0], buf[1]]))
    }

    /// [`Via::encode`] without the table: a single-byte encoding's
    /// [`reverse_table`], a double-byte one's encoder.
    fn encode_uncached(self, c: char, buf: &mut [u8; 4]) -> Option<usize> {
        if self.is_single_byte() {
            let table = reverse_table(self);
            let i = table.binary_search_by_key(&c, |&(k, _)| k).ok()?;
            buf[0] = table[i].1;
            return Some(1);
        }
        let mut src = [0; 4];
        let encoding = self.charset().to_encoding_rs()?;
        let (result, _, written) = encoding.new_encoder().encode_from_utf8_without_replacement(
            c.encode_utf8(&mut src),
            buf,
            true,
        );
        (result == encoding_rs::EncoderResult::InputEmpty).then_some(written)
    }

    /// The name in a finding's rule; windows-1252 is named ISO-8859-1 when
    /// the text used its C1 controls.
    fn name(self, text: &str) -> &'static str {
        match self {
            Via::Windows1252 if text.chars().any(is_c1_control) => "ISO-8859-1",
            v => v.charset().name(),
        }
    }
}

/// windows-1252's bit in masks over [`Via::ALL`].
const WINDOWS_1252: u16 = 1 << Via::Windows1252 as u16;
/// MacRoman's bit in masks over [`Via::ALL`].
const MACINTOSH: u16 = 1 << Via::Macintosh as u16;

/// Non-ASCII characters of a single-byte encoding and their bytes, sorted
/// by character: the encoding's own decoding of bytes 0x80–0xFF, plus for
/// windows-1252 the C1 controls as ISO-8859-1 has them.
fn reverse_table(via: Via) -> &'static [(char, u8)] {
    static TABLES: OnceLock<Vec<Vec<(char, u8)>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Via::ALL
            .iter()
            .map(|&v| {
                let mut table = Vec::new();
                if v.is_single_byte() {
                    for b in 0x80..=0xFFu8 {
                        if let (text, false) = v.charset().decode(&[b]) {
                            table.extend(text.chars().next().map(|c| (c, b)));
                        }
                        if v == Via::Windows1252 && b < 0xA0 {
                            table.push((char::from(b), b));
                        }
                    }
                }
                table.sort_unstable();
                table.dedup_by_key(|(c, _)| *c);
                table
            })
            .collect()
    });
    &tables[via.index()]
}

/// The characters below this have their bytes in each encoding in a first
/// table ([`encoded_table`]): the Latin, Greek, Cyrillic, Hebrew and Arabic
/// letters, which every line of text in those scripts is checked for. The
/// rest of the Basic Multilingual Plane is in a second table, made when a
/// line first has such a character: a single-byte encoding's up to the last
/// character it has, and Shift_JIS's and GBK's a block of characters at a
/// time ([`CharTable`]): each character of CJK text is checked in every
/// encoding.
const TABLED: u32 = 0x800;

/// A character's bytes in an encoding: how many (0: none), and they.
type Encoded = (u8, [u8; 2]);

/// The Shift_JIS and GBK bytes of the characters from [`TABLED`] on, by
/// block ([`Via::encode`]).
static SHIFT_JIS: CharTable<Encoded> = CharTable::new(|c| Via::ShiftJis.encoded(c));
static GBK: CharTable<Encoded> = CharTable::new(|c| Via::Gbk.encoded(c));

/// The characters below [`TABLED`] (or, `above`, from it on to the last
/// character of a single-byte `via`) and their bytes in `via`, as
/// [`Via::encode_uncached`] gives them (one or two: Shift_JIS and GBK write
/// no character in more); made on first use.
fn encoded_table(via: Via, above: bool) -> &'static [Encoded] {
    static TABLES: [[OnceLock<Vec<Encoded>>; 2]; Via::ALL.len()] =
        [const { [const { OnceLock::new() }; 2] }; Via::ALL.len()];
    TABLES[via.index()][usize::from(above)].get_or_init(|| {
        let end = match above {
            false => TABLED,
            true => reverse_table(via).last().map_or(TABLED, |&(c, _)| u32::from(c) + 1),
        };
        let start = if above { TABLED } else { 0 };
        let mut table = vec![(0, [0; 2]); end.saturating_sub(start) as usize];
        if via.is_single_byte() {
            for &(c, b) in reverse_table(via) {
                if let Some(entry) =
                    (u32::from(c).checked_sub(start)).and_then(|k| table.get_mut(k as usize))
                {
                    *entry = (1, [b, 0]);
                }
            }
            return table;
        }
        for (u, entry) in (start..).zip(table.iter_mut()) {
            let mut buf = [0; 4];
            if let Some(len) = char::from_u32(u).and_then(|c| via.encode_uncached(c, &mut buf)) {
                *entry = (len as u8, [buf[0], buf[1]]);
            }
        }
        table
    })
}

/// What a byte does to UTF-8 being read, in each encoding at once: masks
/// over [`Via::ALL`] (bit [`Via::index`]), in the lanes of [`Chains`],
/// which reads them.
#[derive(Clone, Copy, Debug, Default)]
struct ByteClass {
    /// The encodings that do not have this byte (a character's second byte
    /// is only in the double-byte encodings that write it in two), in
    /// every lane.
    absent: u64,
    /// A continuation byte (0x80–0xBF), in every lane.
    cont: u64,
    /// What it starts: an ASCII byte (the second of a double-byte
    /// character) a sequence complete, and a lead byte one that needs one,
    /// two or three continuation bytes, a lane each.
    starts: u64,
}

impl ByteClass {
    /// From its masks: the encodings that have it, and those where it is
    /// ASCII, a continuation byte, a lead byte needing one, two, three.
    fn new([present, ascii, cont, one, two, three]: [u16; 6]) -> ByteClass {
        ByteClass {
            absent: Chains::every_lane(!present),
            cont: Chains::every_lane(cont),
            starts: Chains::lanes([ascii, one, two, three]),
        }
    }

    /// The encodings that have it.
    fn present(&self) -> u16 {
        !self.absent as u16
    }

    /// Those where it is a continuation byte.
    fn cont(&self) -> u16 {
        self.cont as u16
    }

    /// Those where it is a lead byte that needs `more` continuation bytes
    /// (one to three).
    fn lead(&self, more: u32) -> u16 {
        (self.starts >> (16 * more)) as u16
    }

    /// Those where it is a lead byte.
    fn any_lead(&self) -> u16 {
        self.lead(1) | self.lead(2) | self.lead(3)
    }
}

/// A character's bytes in every encoding, as [`ByteClass`]es, and the
/// encodings in which it is a unit of [`encodable_runs`] (it has bytes
/// there, the first above 0x7F). In the others UTF-8 being read stops at
/// it.
#[derive(Clone, Copy, Debug, Default)]
struct CharClass {
    unit: u16,
    bytes: [ByteClass; 2],
    /// A letter ([`is_letter`]).
    letter: bool,
    /// A CJK letter (an ideograph, kana, hangul).
    cjk_letter: bool,
    /// The encodings in which it alone is a two-byte UTF-8 sequence.
    alone: u16,
    /// Those of them in which that sequence reads as a letter or a mark.
    reads_as_letter: u16,
    /// Those of them in which it reads as a Latin letter beyond ASCII.
    reads_as_latin: u16,
}

impl CharClass {
    fn of(c: char) -> CharClass {
        let letter = is_letter(c);
        let mut class =
            CharClass { letter, cjk_letter: is_cjk(c) && letter, ..CharClass::default() };
        let mut buf = [0; 4];
        // Each byte's masks, as [`ByteClass::new`] takes them.
        let mut bytes = [[0; 6]; 2];
        for via in Via::ALL {
            let bit = 1 << via.index();
            bytes[0][0] |= bit;
            match via.encode(c, &mut buf) {
                Some(len) if buf[0] >= 0x80 => {
                    class.unit |= bit;
                    let read = (len == 2).then(|| std::str::from_utf8(&buf[..2]).ok()).flatten();
                    if let Some(read) = read.and_then(|r| r.chars().next()) {
                        class.alone |= bit;
                        if is_letter(read) || is_mark(read) {
                            class.reads_as_letter |= bit;
                        }
                        if is_latin_beyond_ascii(read) {
                            class.reads_as_latin |= bit;
                        }
                    }
                    for (byte, &b) in bytes.iter_mut().zip(&buf[..len]) {
                        byte[0] |= bit;
                        let kind = match b {
                            0x00..=0x7F => 1,
                            0x80..=0xBF => 2,
                            0xC2..=0xDF => 3,
                            0xE0..=0xEF => 4,
                            0xF0..=0xF4 => 5,
                            _ => continue,
                        };
                        byte[kind] |= bit;
                    }
                }
                _ => {}
            }
        }
        class.bytes = bytes.map(ByteClass::new);
        class
    }

    /// [`CharClass::of`] by table look-up.
    fn look_up(c: char) -> CharClass {
        CHAR_CLASSES.value(c)
    }

    /// [`CharClass::look_up`] as a reference, beyond the Basic Multilingual
    /// Plane to `spare` made the class of `c`.
    fn look_up_in(c: char, spare: &mut CharClass) -> &CharClass {
        match CHAR_CLASSES.get(c) {
            Some(class) => class,
            None => {
                *spare = CharClass::of(c);
                spare
            }
        }
    }
}

/// The table of [`CharClass::look_up`].
static CHAR_CLASSES: CharTable<CharClass> = CharTable::new(CharClass::of);

/// What a character may be of UTF-8 in every encoding at once, at a
/// glance ([`worth_reading`]): masks over [`Via::ALL`]. A run starts at a
/// character's first byte, a lead byte, and goes on only through
/// continuation bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Glance {
    /// A run that starts at it needs the next character's bytes.
    open: u16,
    /// Its first byte is a continuation byte; or, in windows-1252, it is
    /// undecodable (a slot of a lost byte).
    continues: u16,
    /// It is a run on its own (two bytes); or, in windows-1252, a C1
    /// control.
    alone: u16,
    /// In windows-1252, it is a lead byte that needs one byte more.
    one_more: bool,
    /// A letter, and a CJK letter.
    letter: bool,
    cjk_letter: bool,
    /// The encodings in which it is a run alone that reads as a letter or
    /// a mark, and as a Latin letter beyond ASCII.
    reads_as_letter: u16,
    reads_as_latin: u16,
}

impl Glance {
    fn of(c: char) -> Glance {
        let class = CharClass::look_up(c);
        let [first, second] = class.bytes;
        let (two, one) = (second.present(), !second.present());
        let c1 = if is_c1_control(c) { WINDOWS_1252 } else { 0 };
        let lost = if score::is_undecodable(c) { WINDOWS_1252 } else { 0 };
        Glance {
            open: first.any_lead() & one | (first.lead(2) | first.lead(3)) & second.cont() & two,
            continues: first.cont() | lost,
            alone: class.alone | c1,
            one_more: first.lead(1) & WINDOWS_1252 != 0,
            letter: class.letter,
            cjk_letter: class.cjk_letter,
            reads_as_letter: class.reads_as_letter,
            reads_as_latin: class.reads_as_latin,
        }
    }

    /// Whether the runs this character alone makes ([`Glance::alone`]) are
    /// all chance as [`AlignedRuns`] judges them, the line being `before`
    /// it and `rest` after it, and `prev` the character before it (`None`:
    /// ASCII, or none); the runs open before it being the chance runs that
    /// `prev` alone makes (a glance that found any other has stopped). So
    /// are most of Chinese text's: `使用` in GBK is `ʹ` before `用`, `时，`
    /// `ʱ` before a comma.
    fn alone_by_chance(self, prev: Option<Glance>, before: &str, rest: &str) -> bool {
        if self.alone & WINDOWS_1252 != 0 {
            return false;
        }
        let started = self.alone & !prev.map_or(0, |p| p.alone);
        if started == 0 {
            return true;
        }
        let (after_cjk, left) = match prev {
            Some(p) if p.cjk_letter => (true, Left { cjk: !p.alone, ..Left::default() }),
            _ => (false, Left::before(before)),
        };
        let runs = Followed {
            after_cjk,
            left,
            letter: self.reads_as_letter & started,
            latin: self.reads_as_latin & started,
        };
        runs.by_chance(started, rest)
    }

    /// [`Glance::of`] by table look-up.
    fn look_up(c: char) -> Glance {
        static TABLE: CharTable<Glance> = CharTable::new(Glance::of);
        TABLE.value(c)
    }
}

/// The nearest letter before a character within [`score::CONTEXT`]
/// characters, as [`AlignedRuns`] sees it ([`Nearest`]), as masks over
/// [`Via::ALL`]: the encodings in which it is a CJK letter in no run; all
/// or none for an ASCII letter, and for no letter.
#[derive(Clone, Copy, Debug, Default)]
struct Left {
    cjk: u16,
    ascii: u16,
    none: u16,
}

impl Left {
    /// The nearest letter at the end of `before`.
    fn before(before: &str) -> Left {
        for b in before.chars().rev().take(score::CONTEXT) {
            if b.is_ascii_alphabetic() {
                return Left { ascii: !0, ..Left::default() };
            }
            let glance = Glance::look_up(b);
            if glance.letter {
                let cjk = if glance.cjk_letter { !glance.alone } else { 0 };
                return Left { cjk, ..Left::default() };
            }
        }
        Left { none: !0, ..Left::default() }
    }

    /// [`left_waiting`] for runs that read as a Latin letter in `latin`.
    fn waiting(self, latin: u16) -> u16 {
        left_waiting(self.cjk, self.ascii, self.none, latin)
    }
}

/// The runs that a character alone starts (one in each encoding where it
/// is a UTF-8 sequence by itself), followed through the text after it as
/// [`AlignedRuns`] follows them.
#[derive(Clone, Copy, Debug)]
struct Followed {
    /// They start right after a CJK letter.
    after_cjk: bool,
    left: Left,
    /// The encodings in which they read as a letter or a mark somewhere,
    /// and as a Latin letter beyond ASCII.
    letter: u16,
    latin: u16,
}

impl Followed {
    /// Whether the runs of the encodings `started`, going on where `rest`
    /// starts, are all chance: as [`AlignedRuns`] settles them, reading at
    /// most [`LOOK_AHEAD`] characters of `rest`. It may say no where they
    /// would say chance, never the other way.
    fn by_chance(mut self, started: u16, rest: &str) -> bool {
        let (mut open, mut pending) = (started, 0);
        // Where (in characters of `rest`) the first and the last of the
        // pending runs ended.
        let (mut first_end, mut last_end) = (usize::MAX, 0);
        for (k, d) in rest.chars().take(LOOK_AHEAD).enumerate() {
            if self.after_cjk {
                // Read as a letter right after a CJK letter: chance,
                // however it goes on.
                open &= !self.letter;
            }
            if open | pending == 0 {
                return true;
            }
            let glance = if d.is_ascii() { Glance::default() } else { Glance::look_up(d) };
            let ended = open & !glance.alone;
            if ended != 0 {
                let waiting = ended & !self.chance_at_end(ended, glance.cjk_letter);
                if waiting & !self.left.waiting(self.latin) != 0 {
                    return false;
                }
                if waiting != 0 {
                    (first_end, last_end) = (first_end.min(k), k);
                }
                pending |= waiting;
                open &= !ended;
            }
            let letter = if d.is_ascii() { d.is_ascii_alphabetic() } else { glance.letter };
            if letter && pending != 0 {
                // The nearest letter after them, near (within
                // `score::CONTEXT` characters) every one or none.
                let after = if d.is_ascii() {
                    After::Ascii
                } else if glance.cjk_letter {
                    After::Cjk(!glance.alone)
                } else {
                    After::Other
                };
                let near = if k - first_end < score::CONTEXT {
                    Some(after)
                } else if k - last_end >= score::CONTEXT {
                    None
                } else {
                    return false;
                };
                let chance = settled_by(near, self.left.cjk, self.latin);
                if pending & !chance != 0 {
                    return false;
                }
                (pending, first_end) = (0, usize::MAX);
            }
            // A run of theirs starting takes the letter after them as near.
            if glance.alone & pending != 0 {
                return false;
            }
            open &= glance.alone;
            self.letter |= open & glance.reads_as_letter;
            self.latin |= open & glance.reads_as_latin;
        }
        if rest.chars().nth(LOOK_AHEAD).is_some() {
            return false;
        }
        // The line ends them, and there is no letter after them.
        let waiting = open & !self.chance_at_end(open, false);
        waiting & !self.left.waiting(self.latin) == 0
            && (pending | waiting) & !settled_by(None, self.left.cjk, self.latin) == 0
    }

    /// [`chance_at_end`] for these runs.
    fn chance_at_end(self, ended: u16, cjk_next: bool) -> u16 {
        let after_cjk = if self.after_cjk { !0 } else { 0 };
        chance_at_end(ended, self.letter, after_cjk, cjk_next)
    }
}

/// How far [`Followed::by_chance`] reads.
const LOOK_AHEAD: usize = 2 * score::CONTEXT;

/// Whether [`suspects`] may find an encoding in `line`: every run it finds
/// is a character alone or one that opens a run followed by one that
/// continues it, and every windows-1252 slot it weighs follows a lead byte
/// (or is a C1 control). Most lines of clean text have none, and
/// this look is several times quicker than the reading it spares them.
/// Where a pair of characters could be the start of a run in an encoding
/// other than windows-1252 (`Ві` in windows-1251, `C2 B3`), the stretch of
/// non-ASCII text that holds it is read whole with [`Chains`] for a run
/// that ends: in Cyrillic text most such pairs start one that never ends
/// (`ві` is `E2 B3`, a lead byte that needs two continuation bytes).
fn worth_reading(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut i = encoding_rs::Encoding::ascii_valid_up_to(bytes);
    // The encodings in which a run started at the last character is open;
    // whether in windows-1252 it needs one byte more.
    let (mut open, mut one_more) = (0, false);
    // Where the stretch of non-ASCII text being read started, and up to
    // where one was read whole and held no run.
    let (mut stretch, mut read_whole) = (i, 0);
    // The last character, unless it was ASCII, and where it starts.
    let (mut prev, mut prev_at) = (None, i);
    while i < bytes.len() {
        if bytes[i].is_ascii() {
            if open & WINDOWS_1252 != 0 {
                // A slot: a question mark, or a space that a continuation
                // byte may have been (see [`suspects`]).
                let next =
                    || line[i + 1..].chars().next().map_or(0, |c| Glance::look_up(c).continues);
                match bytes[i] {
                    b'?' => return true,
                    b' ' if one_more || next() & WINDOWS_1252 != 0 => return true,
                    _ => {}
                }
            }
            (open, prev) = (0, None);
            i += ascii_run(&bytes[i..]);
            stretch = i;
            continue;
        }
        let c = line[i..].chars().next().unwrap_or_default();
        let glance = Glance::look_up(c);
        // A character that is a run alone (two bytes of a double-byte
        // encoding) ends one there and then, unless it is chance.
        let runs = open & glance.continues;
        if runs & WINDOWS_1252 != 0
            || glance.alone != 0
                && !glance.alone_by_chance(prev, &line[..i], &line[i + c.len_utf8()..])
        {
            return true;
        }
        if runs != 0 && i >= read_whole {
            // The stretch's runs, as the reading weighs them: windows-1252's
            // always, the others' unless each is chance whatever is around.
            // Every run it finds (a character alone is not one) holds a
            // pair like this: none ends before the first, where it starts.
            let end = i + ascii_run_start(&bytes[i..]);
            let ending = runs_ending(&line[prev_at..end]);
            if ending & WINDOWS_1252 != 0
                || ending & !chance_runs_only(line, stretch..end, ending) != 0
            {
                return true;
            }
            read_whole = end;
        }
        (open, one_more, prev, prev_at) = (glance.open, glance.one_more, Some(glance), i);
        i += c.len_utf8();
    }
    false
}

/// The length of the run of ASCII bytes `bytes` starts with: a word at a
/// time over the first few (in most text, ASCII runs between non-ASCII
/// characters are a few bytes long), then [`encoding_rs`]'s vector scan.
fn ascii_run(bytes: &[u8]) -> usize {
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    for (k, word) in bytes.chunks_exact(8).take(2).enumerate() {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default()) & HIGH;
        if word != 0 {
            return 8 * k + word.trailing_zeros() as usize / 8;
        }
    }
    let start = bytes.len().min(16) & !7;
    start + encoding_rs::Encoding::ascii_valid_up_to(&bytes[start..])
}

/// Where the first ASCII byte of `bytes` is (its length when none is).
fn ascii_run_start(bytes: &[u8]) -> usize {
    bytes.iter().position(u8::is_ascii).unwrap_or(bytes.len())
}

/// The encodings in which a run of [`Chains`] ends in `stretch`,
/// non-ASCII text, other than a character alone (which [`worth_reading`]
/// judges).
fn runs_ending(stretch: &str) -> u16 {
    let (mut chains, mut spare) = (Chains::default(), CharClass::default());
    let mut ending = 0;
    for c in stretch.chars() {
        let class = CharClass::look_up_in(c, &mut spare);
        ending |= chains.read(class) & !class.alone;
    }
    ending
}

/// UTF-8 being read in every encoding's bytes of a line at once, from
/// each unit boundary on: the encodings where bytes read from one form
/// valid UTF-8 so far and need no, one, two or three more continuation
/// bytes, as four lanes of 16 bits (masks over [`Via::ALL`]), read
/// together. (UTF-8 resynchronises: chains started at different
/// boundaries that need as many bytes read alike.)
#[derive(Clone, Copy, Debug, Default)]
struct Chains {
    need: u64,
}

impl Chains {
    /// The lanes of a mask each.
    fn lanes(masks: [u16; 4]) -> u64 {
        masks.iter().rev().fold(0, |lanes, &mask| lanes << 16 | u64::from(mask))
    }

    /// A mask in every lane.
    fn every_lane(mask: u16) -> u64 {
        u64::from(mask) * 0x0001_0001_0001_0001
    }

    /// The encodings where chains need no more bytes.
    fn complete(self) -> u16 {
        self.need as u16
    }

    /// Reads a character: returns the encodings where, after it, bytes
    /// from a unit boundary to its end are valid UTF-8 (a run).
    fn read(&mut self, class: &CharClass) -> u16 {
        // A chain may start at it; where it is no unit, every one stops.
        self.need = (self.need | u64::from(class.unit)) & Chains::every_lane(class.unit);
        for byte in &class.bytes {
            // A byte the encoding does not write keeps each chain as it
            // is; a continuation byte moves it a lane down; and a chain
            // that needs none goes on as the byte says.
            let none = Chains::every_lane(self.complete());
            self.need = self.need & byte.absent | self.need >> 16 & byte.cont | none & byte.starts;
        }
        self.complete() & class.unit
    }
}

/// The encodings of [`Via::ALL`] (bit [`Via::index`]) in which `line` may
/// hold mojibake to repair, found in one pass with a look-up a non-ASCII
/// character: those in which a stretch of characters from one unit
/// boundary of [`encodable_runs`] to another is UTF-8 (every run it finds
/// is, but one that [`without_stray_readings`] always drops: characters
/// of a double-byte encoding each a UTF-8 sequence on its own, touching no
/// other run, where the CJK letters near them say chance, see
/// [`AlignedRuns`]); and windows-1252 where the line has a C1 control, or a lead byte
/// is followed by what a [`Slot`] may read as a continuation byte: one (a
/// byte between them may have been dropped), a question mark or an
/// undecodable character, or a space (for a lead byte needing two or three
/// more, only with a continuation byte after the space). Most lines of
/// clean text have none, and nothing in them is weighed.
fn suspects(line: &str) -> u16 {
    if !worth_reading(line) {
        return 0;
    }
    let bytes = line.as_bytes();
    let (mut found, mut chains) = (0, Chains::default());
    // Where the stretch of non-ASCII text being read starts, and the
    // encodings whose runs in it were read ([`chance_runs_only`]).
    let (mut stretch, mut read_in_stretch) = (0, 0);
    // Runs of characters each a two-byte UTF-8 sequence alone, decided
    // when they end; whether the last character was a CJK letter.
    let (mut aligned, mut after_cjk) = (AlignedRuns::default(), false);
    // The nearest letter before, and where the loop is, in characters.
    let (mut nearest, mut at) = (Nearest::default(), 0);
    // What the last character's windows-1252 byte was: a lead byte (that
    // needs one more, or two more).
    let (mut lead, mut one_more, mut two_more) = (false, false, false);
    let mut spare = CharClass::default();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii() {
            // The character after: one whose windows-1252 byte is a
            // continuation byte.
            let continues = || {
                let next = line.get(i + 1..).and_then(|rest| rest.chars().next());
                next.is_some_and(|c| CharClass::look_up(c).bytes[0].cont() & WINDOWS_1252 != 0)
            };
            match bytes[i] {
                b'?' if lead => found |= WINDOWS_1252,
                b' ' if lead && (one_more || continues()) => found |= WINDOWS_1252,
                _ => {}
            }
            (chains, lead, one_more, two_more) = (Chains::default(), false, false, false);
            (found, after_cjk) = (found | aligned.end(aligned.open, false, at), false);
            let ascii = &bytes[i..i + ascii_run(&bytes[i..])];
            if let Some(first) = ascii.iter().position(u8::is_ascii_alphabetic) {
                found |= aligned.resolve(Some((at + first, After::Ascii)));
                let last = ascii.iter().rposition(u8::is_ascii_alphabetic).unwrap_or(first);
                nearest.ascii(at + last);
            }
            (i, at) = (i + ascii.len(), at + ascii.len());
            (stretch, read_in_stretch) = (i, 0);
            continue;
        }
        let c = line[i..].chars().next().unwrap_or_default();
        let class = CharClass::look_up_in(c, &mut spare);
        found |= aligned.end(aligned.open & !class.alone, class.cjk_letter, at);
        if class.letter {
            let after = if class.cjk_letter { After::Cjk(!class.alone) } else { After::Other };
            found |= aligned.resolve(Some((at, after)));
        }
        let first = &class.bytes[0];
        // A letter after a lead byte needing two more is a dropped byte's
        // slot that is not weighed without other damage in the line (see
        // [`spaced_runs`]; `áš` of `vášeň`); what a slot after it
        // may complete is seen at the next character.
        let letter_after_two = two_more && first.cont() & WINDOWS_1252 != 0 && c.is_alphabetic();
        let continues = first.cont() & WINDOWS_1252 != 0 && !letter_after_two;
        // A byte dropped between the lead and it: only where the
        // continuation bytes from it on are one fewer than the lead needs
        // ([`dropped_at`]; as many, and the chains find the run: `ôž` of
        // `môže` is neither).
        let dropped = lead && continues && {
            let rest = line[i + c.len_utf8()..].chars();
            let mut after = rest.map(|c| CharClass::look_up(c).bytes[0].cont() & WINDOWS_1252 != 0);
            match (one_more, two_more) {
                (true, _) => false,
                (_, true) => after.next() != Some(true),
                _ => after.next() == Some(true) && after.next() != Some(true),
            }
        };
        if is_c1_control(c) || (lead && score::is_undecodable(c)) || dropped {
            found |= WINDOWS_1252;
        }
        if is_c1_control(c) {
            // MacRoman's small accented letters are its bytes 0x87–0x9F.
            found |= MACINTOSH;
        }
        // Where a chain ended at its boundary, the character is in that run.
        let ended_here = chains.complete();
        let read = chains.read(class);
        found |= aligned.read(class, at, ended_here, after_cjk, nearest);
        if class.letter {
            nearest.letter(at, class);
        }
        // A run of them is found when it ends; but windows-1252's, unless
        // every run of the stretch is set aside whatever is around it.
        let ended = read & !aligned.open;
        let unread = ended & !WINDOWS_1252 & !read_in_stretch;
        if unread != 0 {
            let end = i + ascii_run_start(&bytes[i..]);
            found |= unread & !chance_runs_only(line, stretch..end, unread);
            read_in_stretch |= unread;
        }
        found |= ended & WINDOWS_1252;
        after_cjk = class.cjk_letter;
        // windows-1252 writes every character in one byte.
        lead = first.any_lead() & WINDOWS_1252 != 0;
        one_more = first.lead(1) & WINDOWS_1252 != 0;
        two_more = first.lead(2) & WINDOWS_1252 != 0;
        if letter_after_two {
            // The pair needs one more byte, as a lead byte needing one.
            (lead, one_more) = (true, true);
        }
        (i, at) = (i + c.len_utf8(), at + 1);
    }
    found | aligned.end(aligned.open, false, at) | aligned.resolve(None)
}

/// Runs of characters of which each alone is a two-byte UTF-8 sequence in a
/// double-byte encoding (GBK `CA B9` of 使 is `ʹ`), being read by
/// [`suspects`]: masks over [`Via::ALL`]. Such a run, touching no other
/// (the chains find those), reads as no CJK character, and
/// [`without_stray_readings`] always drops it when it reads as a letter or
/// a mark somewhere and a CJK letter is next to it, or, whatever it reads
/// as, when the nearest letters within [`score::CONTEXT`] characters on its
/// sides are CJK letters in no run or ASCII, one CJK at least (ASCII only
/// when it reads as no Latin letter beyond ASCII). Chinese text holds such
/// runs in most lines (`时，` is `ʱ` before a comma). A run whose side
/// after it is not yet known is pending until the next letter.
#[derive(Clone, Copy, Debug, Default)]
struct AlignedRuns {
    /// The encodings in which one is open (up to the last character).
    open: u16,
    /// Those whose run reads as a letter or a mark somewhere.
    letter: u16,
    /// Those whose run reads as a Latin letter beyond ASCII somewhere.
    latin: u16,
    /// Those whose run started right after a CJK letter.
    after_cjk: u16,
    /// Those whose nearest letter before is a CJK letter in no run, ASCII,
    /// or none ([`Nearest`] when the run started).
    left_cjk: u16,
    left_ascii: u16,
    left_none: u16,
    /// The encodings whose run ended and waits for the nearest letter
    /// after it, and where (in characters) each ended.
    pending: u16,
    ended_at: [usize; Via::ALL.len()],
}

/// The nearest letter before a character, as [`AlignedRuns`] sees it.
#[derive(Clone, Copy, Debug, Default)]
struct Nearest {
    /// Where it is, in characters, and plus one (0: none yet).
    after: usize,
    /// The encodings in which it is a CJK letter in no run of
    /// [`AlignedRuns`] (one that is a sequence alone there is in one).
    cjk: u16,
    /// An ASCII letter.
    ascii: bool,
}

impl Nearest {
    /// Reads the letter at `at` (characters).
    fn letter(&mut self, at: usize, class: &CharClass) {
        *self = Nearest {
            after: at + 1,
            cjk: if class.cjk_letter { !class.alone } else { 0 },
            ascii: false,
        };
    }

    /// Reads an ASCII letter at `at`.
    fn ascii(&mut self, at: usize) {
        *self = Nearest { after: at + 1, cjk: 0, ascii: true };
    }

    /// What it is to a character at `at`: the encodings where it is a CJK
    /// letter in no run, and whether it is ASCII; or, when there is none
    /// within [`score::CONTEXT`] characters, `None`.
    fn seen_from(&self, at: usize) -> Option<(u16, bool)> {
        (self.after > 0 && at + 1 - self.after <= score::CONTEXT).then_some((self.cjk, self.ascii))
    }
}

/// What the nearest letter after a pending run is ([`AlignedRuns::resolve`]).
#[derive(Clone, Copy, Debug)]
enum After {
    /// A CJK letter, in no run in the encodings given.
    Cjk(u16),
    Ascii,
    /// Another letter, or one in a run.
    Other,
}

/// Of the runs `ended` (masks over [`Via::ALL`]), those that are chance as
/// they end, at a CJK letter (`cjk_next`) or not: those that read as a
/// letter (`letter`) and started right after a CJK letter (`after_cjk`) or
/// end at one, and those that do both.
fn chance_at_end(ended: u16, letter: u16, after_cjk: u16, cjk_next: bool) -> u16 {
    let next = if cjk_next { ended } else { 0 };
    ended & ((letter & (after_cjk | next)) | (after_cjk & next))
}

/// The encodings whose runs, ended and not chance, wait for the nearest
/// letter after them, by the nearest letter before: a CJK letter in no run
/// (`cjk`), ASCII unless they read as a Latin letter beyond ASCII
/// (`ascii`, `latin`), or none (`none`). Any other letter keeps them.
fn left_waiting(cjk: u16, ascii: u16, none: u16, latin: u16) -> u16 {
    cjk | (ascii & !latin) | none
}

/// The encodings whose waiting runs the nearest letter after them settles
/// as chance: it is `after`, or there is none near enough (`None`); the
/// one before is a CJK letter in no run in `left_cjk`, and `latin` read as
/// a Latin letter beyond ASCII.
fn settled_by(after: Option<After>, left_cjk: u16, latin: u16) -> u16 {
    match after {
        None => left_cjk,
        Some(After::Cjk(staying)) => staying,
        Some(After::Ascii) => left_cjk & !latin,
        Some(After::Other) => 0,
    }
}

impl AlignedRuns {
    /// Reads the character at `at` (characters), the nearest letter before
    /// it being `left`: it goes on the open runs where it is a sequence
    /// alone, and starts one where it is and no chain ended before it
    /// (`ended_here`; else it is in that chain's run, which the chains
    /// find). `after_cjk`: the character before it was a CJK letter.
    /// Returns the encodings whose pending run is not chance.
    fn read(
        &mut self,
        class: &CharClass,
        at: usize,
        ended_here: u16,
        after_cjk: bool,
        left: Nearest,
    ) -> u16 {
        if class.alone | self.open == 0 {
            // Nothing open or starting (the masks of closed runs are not read).
            return 0;
        }
        let going_on = class.alone & self.open;
        let started = class.alone & !self.open & !ended_here;
        // A run started where one is pending may be the nearest letter
        // after it: the pending one is taken as not chance.
        let crowded = self.pending & started;
        self.pending &= !crowded;
        let open = going_on | started;
        let cjk_before = if after_cjk { started } else { 0 };
        self.letter = ((self.letter & going_on) | class.reads_as_letter) & open;
        self.after_cjk = (self.after_cjk & going_on) | cjk_before;
        // The pending runs keep what they were.
        let kept = going_on | self.pending;
        let new = |was: u16, now: u16| (was & kept) | (now & started);
        self.latin = (self.latin & kept) | (class.reads_as_latin & open);
        let (cjk, ascii, none) = match left.seen_from(at) {
            Some((cjk, ascii)) => (cjk, if ascii { !0 } else { 0 }, 0),
            None => (0, 0, !0),
        };
        self.left_cjk = new(self.left_cjk, cjk);
        self.left_ascii = new(self.left_ascii, ascii);
        self.left_none = new(self.left_none, none);
        self.open = open;
        crowded
    }

    /// Ends the runs of `ended` before the character at `at`, which is a
    /// CJK letter (`cjk_next`) or not: returns the encodings whose run is
    /// not chance; those it cannot tell yet are pending.
    fn end(&mut self, ended: u16, cjk_next: bool, at: usize) -> u16 {
        if ended == 0 {
            return 0;
        }
        let chance = chance_at_end(ended, self.letter, self.after_cjk, cjk_next);
        self.open &= !ended;
        let ended = ended & !chance;
        let waiting = left_waiting(self.left_cjk, self.left_ascii, self.left_none, self.latin);
        let kept = ended & !waiting;
        let pending = ended & !kept;
        for k in crate::detect::bits(u128::from(pending)) {
            self.ended_at[k] = at;
        }
        self.pending |= pending;
        kept
    }

    /// Settles the pending runs: the nearest letter after is at `at`, and
    /// is `after`, or there is none (`None`). Returns the encodings whose
    /// run is not chance.
    fn resolve(&mut self, after: Option<(usize, After)>) -> u16 {
        if self.pending == 0 {
            return 0;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut chance = 0;
        for k in crate::detect::bits(u128::from(pending)) {
            let bit = 1 << k;
            let near = after.filter(|&(at, _)| at - self.ended_at[k] < score::CONTEXT);
            chance |= bit & settled_by(near.map(|(_, a)| a), self.left_cjk, self.latin);
        }
        pending & !chance
    }
}

/// One layer undone over all of `text`: every UTF-8 run of its non-ASCII
/// characters in `via` decoded. `None` when nothing changes.
fn peel(via: Via, text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for (range, ascii) in stretches(text) {
        let part = &text[range];
        match (ascii, encodable_runs(via, part)) {
            (false, runs) if !runs.is_empty() => {
                let mut last = 0;
                for (r, fixed) in runs {
                    out.push_str(&part[last..r.start]);
                    out.push_str(&fixed);
                    last = r.end;
                }
                out.push_str(&part[last..]);
                changed = true;
            }
            _ => out.push_str(part),
        }
    }
    changed.then_some(out)
}

/// The stretches of `text` alternately ASCII and not: (range, is ASCII).
fn stretches(text: &str) -> impl Iterator<Item = (Range<usize>, bool)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let rest = &text[start..];
        let ascii = rest.chars().next()?.is_ascii();
        let len = rest.find(|c: char| c.is_ascii() != ascii).unwrap_or(rest.len());
        let range = start..start + len;
        start += len;
        Some((range, ascii))
    })
}

/// In `part` (non-ASCII characters), the UTF-8 runs in `via` (byte ranges
/// of `part`) and their decoding. Characters `via` cannot encode split it.
fn encodable_runs(via: Via, part: &str) -> Vec<(Range<usize>, String)> {
    if !may_hold_utf8(via, part) {
        return Vec::new();
    }
    utf8_runs_in(via, part)
}

/// [`encodable_runs`] without the quick look for a lead byte before a
/// continuation byte: for text known to hold a run.
fn utf8_runs_in(via: Via, part: &str) -> Vec<(Range<usize>, String)> {
    let mut found = Vec::new();
    // The units of the characters since the last one that splits, and
    // where each is in `part`.
    // (A character of `part` outside ASCII has two bytes or more, and is
    // one or two bytes in `via`.)
    let mut units = Units::with_capacity(part.len());
    let mut at = Vec::with_capacity(part.len() / 2);
    let mut flush = |units: &mut Units, at: &mut Vec<usize>, end: usize| {
        for run in units.utf8_runs() {
            let text = utf8::decode(units.bytes(run.clone()));
            found.push((at[run.start]..at.get(run.end).copied().unwrap_or(end), text));
        }
        units.clear();
        at.clear();
    };
    let mut buf = [0; 4];
    for (i, c) in part.char_indices() {
        match via.encode(c, &mut buf) {
            Some(len) if !buf[..len].is_ascii() => {
                units.push(&buf[..len]);
                at.push(i);
            }
            _ => flush(&mut units, &mut at, i),
        }
    }
    flush(&mut units, &mut at, part.len());
    found
}

/// Whether `via` writes `part` with a UTF-8 lead byte followed by a
/// continuation byte somewhere (in one character's bytes, or from one
/// character's to the next): every stretch of UTF-8 starts so, and most
/// clean text has none (checked with a look-up a character).
fn may_hold_utf8(via: Via, part: &str) -> bool {
    let mut buf = [0; 4];
    // The byte before (none after a character that splits).
    let mut before = 0;
    for c in part.chars() {
        let Some(len) = via.encode(c, &mut buf) else {
            before = 0;
            continue;
        };
        for &byte in &buf[..len] {
            if utf8::opens_sequence(before, byte) {
                return true;
            }
            before = byte;
        }
    }
    false
}

/// Stretches of a line whose bytes are UTF-8, and their first layer undone.
type Runs = Vec<(Range<usize>, String)>;

/// How the no-break spaces of a block's text were lost, where mojibake
/// split one off a character (`à` is `C3 A0`: `Ã` and a no-break space in
/// windows-1252, which HTML and editors often turn into a plain space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LostSpaces {
    /// Each became a space: a space after `Ã` is the rest of `à`.
    Kept,
    /// Unknown: it may also have collapsed with a space after it into
    /// one, as text extracted from HTML has it (`Ã moins` for `à moins`);
    /// a space after `Ã` is then also the word break after `à`.
    MaybeCollapsed,
}

impl LostSpaces {
    /// `Kept` when the text shows a sequence that a no-break space would
    /// complete through `via` followed by two spaces (`Ã  ` for `à `): its
    /// no-break spaces became spaces and nothing collapsed.
    fn of(text: &str, via: Via) -> LostSpaces {
        let mut buf = [0; 4];
        let mut byte = |c: char| {
            let len = via.encode(c, &mut buf).filter(|_| !c.is_ascii());
            len.map_or(0, |_| buf[0])
        };
        for at in memchr::memmem::find_iter(text.as_bytes(), "  ") {
            // The bytes of up to three characters before, nearest first:
            // a lead byte with one continuation byte fewer than it needs.
            let before = text[..at].chars().rev().take(3).map(&mut byte);
            for (k, b) in before.enumerate() {
                let needs = match b {
                    0xC2..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF4 => 3,
                    _ => 0,
                };
                if needs == k + 1 {
                    return LostSpaces::Kept;
                }
                if !(0x80..=0xBF).contains(&b) {
                    break;
                }
            }
        }
        LostSpaces::MaybeCollapsed
    }
}

/// [`LostSpaces`] of a block's text through each encoding, found when a
/// line first needs it (most blocks need windows-1252's at most).
struct BlockSpaces<'a> {
    text: &'a str,
    by_via: [std::cell::OnceCell<LostSpaces>; Via::ALL.len()],
}

impl BlockSpaces<'_> {
    fn new(text: &str) -> BlockSpaces<'_> {
        BlockSpaces { text, by_via: Default::default() }
    }

    fn get(&self, via: Via) -> LostSpaces {
        *self.by_via[via.index()].get_or_init(|| LostSpaces::of(self.text, via))
    }
}

/// The C1 controls of the bytes windows-1252 leaves undefined. A decoder
/// that replaced them with U+FFFD (Python's `cp1252` with `errors=
/// "replace"`, many databases) lost which byte it was: `â€�` is `”`
/// (`E2 80 9D`) with its `9D` lost, `Ã�` one of `Á Í Ï Ð Ý`.
const UNDEFINED: [char; 5] = ['\u{81}', '\u{8D}', '\u{8F}', '\u{90}', '\u{9D}'];

/// What reading a byte as dropped costs (bits): damage that left no mark
/// is less likely than the text as it stands, whose other readings (a
/// no-break space that became a space) explain it as well. Set on the
/// tuning half of the held-out text.
const DROPPED_BITS: f32 = 8.0;

/// How much likelier (bits) the likeliest reading of the bytes behind a
/// U+FFFD must make the line than the next reading that also guesses them,
/// for the guess to be written: a letter or mark the bytes were lost from
/// reads as U+FFFD when the models can hardly tell which it was
/// (`българ�ки`: `я` a bit ahead of `с`, which was right; `Русский`, `с`
/// by 5 bits, is written). Set by hand (a guess 16 times likelier than
/// the next); `repair-eval`'s guesses closer than that were right 54% of
/// the time (239 of 441).
const LOST_GUESS_BITS: f32 = 4.0;

/// Lost bytes read as one or two bytes of [`UNDEFINED`] (by index).
type Undefined = (usize, Option<usize>);

/// A stretch of a group (see [`Group`]) that may stand for other bytes
/// than its own in windows-1252, and how it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A space, as a no-break space that became a space (see
    /// [`LostSpaces`]), or (`collapsed`) as a no-break space and a space
    /// collapsed into one.
    Space { collapsed: bool },
    /// A run of `len` bytes of U+FFFD or undecodable bytes (which the
    /// output writes as U+FFFD, so that repairing it again reads the same
    /// slot), read as lost bytes or as it is.
    Lost { len: usize, bytes: Option<Undefined> },
    /// One or two (`marks`) question marks after a character: lost bytes
    /// whose U+FFFD a legacy store wrote as `?` (`â€?` for `”`), one per
    /// byte, or (`None`) the first of them as it is.
    Marks { marks: usize, bytes: Option<Undefined> },
    /// The `len` bytes of the continuation characters (`chars` of them)
    /// after the lead of a character that misses one byte: an undefined
    /// byte dropped (by a decoder that ignores errors, or as the C1 control
    /// it decoded to), read as they are or with one of [`UNDEFINED`] (by
    /// index) before one of them (by index) or after them all.
    Dropped { len: usize, chars: usize, byte: Option<(usize, usize)> },
}

impl Slot {
    /// Its length in the line, as it is read.
    fn len_in_line(self) -> usize {
        match self {
            Slot::Space { .. } => 1,
            Slot::Lost { len, .. } => len,
            Slot::Marks { bytes: Some((_, Some(_))), .. } => 2,
            Slot::Marks { .. } => 1,
            Slot::Dropped { len, .. } => len,
        }
    }

    /// What its reading costs beyond the text it makes (bits): a dropped
    /// byte ([`DROPPED_BITS`]).
    fn prior(self) -> f32 {
        match self {
            Slot::Dropped { byte: Some(_), .. } => DROPPED_BITS,
            _ => 0.0,
        }
    }

    /// The most of the line any of its readings takes.
    fn span(self) -> usize {
        match self {
            Slot::Marks { marks, .. } => marks,
            slot => slot.len_in_line(),
        }
    }

    /// Writes its reading of `text` (its stretch of the line) to `part`;
    /// returns where the part of it that must be within a run ends: the
    /// no-break space of a space, the bytes of a lost run.
    fn read(self, text: &str, part: &mut String) -> usize {
        match self {
            Slot::Space { collapsed } => {
                part.push('\u{A0}');
                let core = part.len();
                if collapsed {
                    part.push(' ');
                }
                core
            }
            Slot::Lost { bytes: Some((first, second)), .. }
            | Slot::Marks { bytes: Some((first, second)), .. } => {
                part.push(UNDEFINED[first]);
                part.extend(second.map(|i| UNDEFINED[i]));
                part.len()
            }
            Slot::Lost { bytes: None, .. } | Slot::Marks { bytes: None, .. } => {
                part.push_str(text);
                part.len()
            }
            Slot::Dropped { byte, .. } => {
                for (k, c) in text.chars().enumerate() {
                    if byte.is_some_and(|(_, at)| at == k) {
                        part.extend(byte.map(|(i, _)| UNDEFINED[i]));
                    }
                    part.push(c);
                }
                if byte.is_some_and(|(_, at)| at == text.chars().count()) {
                    part.extend(byte.map(|(i, _)| UNDEFINED[i]));
                }
                part.len()
            }
        }
    }

    /// The readings of a slot of lost bytes at `pos` in `line`: each byte
    /// of [`UNDEFINED`], then, if its stretch ([`Slot::span`]) is more than
    /// one character, each two (`ã��`: both bytes after the lead of `き`
    /// lost); for a dropped byte, none or one byte at each place. None for
    /// a space.
    fn lost_readings(self, line: &str, pos: usize) -> Vec<Slot> {
        let n = UNDEFINED.len();
        let text = &line[pos..pos + self.span()];
        // One byte each; over more than one character, also two.
        let pairs = if text.chars().nth(1).is_some() { n * n } else { 0 };
        let bytes = (0..n).map(|i| (i, None)).chain((0..pairs).map(|k| (k / n, Some(k % n))));
        match self {
            Slot::Space { .. } => Vec::new(),
            Slot::Lost { len, .. } => bytes.map(|b| Slot::Lost { len, bytes: Some(b) }).collect(),
            Slot::Marks { marks, .. } => {
                bytes.map(|b| Slot::Marks { marks, bytes: Some(b) }).collect()
            }
            Slot::Dropped { len, chars, .. } => {
                let places = (0..=chars).flat_map(|at| (0..n).map(move |i| Some((i, at))));
                let readings = std::iter::once(None).chain(places);
                readings.map(|byte| Slot::Dropped { len, chars, byte }).collect()
            }
        }
    }
}

/// Where in `text` (a non-ASCII stretch) a byte may have been dropped
/// from a character whose other bytes are there, in windows-1252 (see
/// [`Slot::Dropped`]): a three- or four-byte sequence missing one byte,
/// with at least two of its bytes there (`â€` for `”`, `E2 80 9D`; `â¤`
/// for `❤`, `E2 9D A4`). The continuation characters after the lead
/// (offsets in `text`) and how many they are.
fn dropped_at(text: &str) -> Vec<(Range<usize>, usize)> {
    let mut buf = [0; 4];
    let bytes: Vec<(usize, Option<u8>)> = text
        .char_indices()
        .map(|(i, c)| (i, Via::Windows1252.encode(c, &mut buf).map(|_| buf[0])))
        .collect();
    let continues = |k: usize| matches!(bytes.get(k), Some((_, Some(0x80..=0xBF))));
    let offset = |k: usize| bytes.get(k).map_or(text.len(), |&(i, _)| i);
    let mut found = Vec::new();
    for (k, &(_, byte)) in bytes.iter().enumerate() {
        let needs = match byte {
            Some(0xE0..=0xEF) => 2,
            Some(0xF0..=0xF4) => 3,
            _ => continue,
        };
        let there = (k + 1..).take_while(|&j| continues(j)).count();
        if there + 1 == needs {
            found.push((offset(k + 1)..offset(k + 1 + there), there));
        }
    }
    found
}

/// The characters right before `end` in `line` that are continuation
/// bytes in `via` (`š` of `áš ` in windows-1252): those after a lead byte.
fn continuations_before(line: &str, end: usize, via: Via) -> &str {
    let mut buf = [0; 4];
    let mut start = end;
    for (i, c) in line[..end].char_indices().rev().take(3) {
        match via.encode(c, &mut buf) {
            Some(_) if (0x80..=0xBF).contains(&buf[0]) => start = i,
            _ => break,
        }
    }
    &line[start..end]
}

/// How many question marks right after `end` in `line` may be lost bytes
/// ([`Slot::Marks`]): one or two, or none (more are punctuation).
fn marks_after(line: &str, end: usize) -> usize {
    match line.as_bytes()[end..].iter().take_while(|&&b| b == b'?').count() {
        n @ 1..=2 => n,
        _ => 0,
    }
}

/// Non-ASCII stretches of a line with one space between them (after any
/// question marks that may be lost bytes) and maybe one after them, read
/// through a single-byte encoding with their spaces (and, in windows-1252,
/// their U+FFFD and question marks) as [`Slot`]s say.
struct Group {
    /// The encoding it is read through.
    via: Via,
    /// The group's bytes in the line (with the space after it).
    range: Range<usize>,
    /// Where each slot is in the line, and how it is read.
    slots: Vec<(usize, Slot)>,
    /// The UTF-8 runs (as [`encodable_runs`] gives them, in the line).
    runs: Runs,
    /// Whether each slot's reading is within a run: a space that completes
    /// a character may have had a space after it, and a lost byte is
    /// one that makes a character.
    inside: Vec<bool>,
    /// Whether each slot reads lost bytes by a guess too close to the next
    /// ([`LOST_GUESS_BITS`]): the letter they complete is written as U+FFFD
    /// ([`Group::unguessed`]).
    unsure: Vec<bool>,
}

impl Group {
    /// The group of `stretches` in `line` through `via`, each space read as
    /// a no-break space that became a space, each U+FFFD and question mark
    /// as itself. Lost and dropped bytes are windows-1252's only: the
    /// bytes it leaves undefined.
    fn new(line: &str, stretches: &[Range<usize>], via: Via) -> Group {
        let lost_bytes = via == Via::Windows1252;
        // Each stretch's end with the question marks after it.
        let marks = |end: usize| if lost_bytes { marks_after(line, end) } else { 0 };
        let ends: Vec<usize> = stretches.iter().map(|r| r.end + marks(r.end)).collect();
        let last = ends[ends.len() - 1];
        let trailing = line[last..].starts_with(' ');
        let range = stretches[0].start..last + usize::from(trailing);
        let space = Slot::Space { collapsed: false };
        let mut slots: Vec<(usize, Slot)> = ends[..ends.len() - 1]
            .iter()
            .filter(|&&end| line[end..].starts_with(' '))
            .map(|&end| (end, space))
            .chain(trailing.then_some((last, space)))
            .collect();
        // A byte lost from a character follows the rest of it: a run of
        // U+FFFD that starts a stretch is left as it is.
        let undefined = if lost_bytes { stretches } else { &[] };
        for (r, &end) in undefined.iter().zip(&ends) {
            let runs = undecodable_runs(&line[r.clone()]).filter(|run| run.start > 0);
            let lost = |run: Range<usize>| Slot::Lost { len: run.len(), bytes: None };
            slots.extend(runs.map(|run| (r.start + run.start, lost(run))));
            if end > r.end {
                slots.push((r.end, Slot::Marks { marks: end - r.end, bytes: None }));
            }
            // Unless a lost byte's slot follows (the byte was not dropped).
            for (at, chars) in dropped_at(&line[r.clone()]) {
                let at = r.start + at.start..r.start + at.end;
                if !slots.iter().any(|&(pos, slot)| pos == at.end && slot != space) {
                    let dropped = Slot::Dropped { len: at.len(), chars, byte: None };
                    slots.push((at.start, dropped));
                }
            }
        }
        slots.sort_unstable_by_key(|s| s.0);
        let unsure = vec![false; slots.len()];
        let mut group = Group { via, range, slots, runs: Vec::new(), inside: Vec::new(), unsure };
        group.read(line);
        group
    }

    /// Whether it has a run that holds no space read as a no-break space:
    /// UTF-8 the text shows as it stands.
    fn has_plain_run(&self) -> bool {
        self.runs.iter().any(|(r, _)| !self.holds_space(r))
    }

    /// Whether run `r` holds a space read as a no-break space. (A run ends
    /// at a collapsed space's bytes when it holds its no-break space.)
    fn holds_space(&self, r: &Range<usize>) -> bool {
        let slots = self.slots.iter().zip(&self.inside);
        slots
            .filter(|&(&(_, slot), &inside)| inside && matches!(slot, Slot::Space { .. }))
            .any(|(&(pos, _), _)| r.start <= pos && pos <= r.end)
    }

    /// Finds the runs with the slots read as they say.
    fn read(&mut self, line: &str) {
        self.read_marking(line, false);
    }

    /// [`Group::read`], and with `unguessed`, each letter or mark whose
    /// lost bytes were guessed too closely ([`Group::unsure`]) written as
    /// U+FFFD in its run. Not punctuation: a guess that makes it may be a
    /// layer of deeper mojibake (`â€�` read `”` in `â”’`, which is `┒`),
    /// which a U+FFFD would cut short.
    fn read_marking(&mut self, line: &str, unguessed: bool) {
        let first = self.range.start;
        if self.slots.is_empty() {
            let runs = encodable_runs(self.via, &line[self.range.clone()]).into_iter();
            self.runs = runs.map(|(r, fixed)| (first + r.start..first + r.end, fixed)).collect();
            return;
        }
        let mut part = String::with_capacity(self.range.len() + self.slots.len());
        // Where each slot's reading starts and ends in `part`, and where
        // the part of it that must be within a run ends.
        let mut at = Vec::with_capacity(self.slots.len());
        let mut from = self.range.start;
        for &(pos, slot) in &self.slots {
            part.push_str(&line[from..pos]);
            let start = part.len();
            let core = slot.read(&line[pos..pos + slot.len_in_line()], &mut part);
            at.push((start, part.len(), core));
            from = pos + slot.len_in_line();
        }
        part.push_str(&line[from..self.range.end]);
        // A run that ends inside a slot's reading (after the no-break space
        // of a collapsed one) ends before the slot's bytes in the line.
        let in_line = |q: usize| {
            // The last slot whose reading starts before `q`.
            let n = at.partition_point(|&(start, _, _)| start < q);
            let Some(&(pos, slot)) = n.checked_sub(1).map(|i| &self.slots[i]) else {
                return self.range.start + q;
            };
            let end = at[n - 1].1;
            if q < end {
                pos
            } else {
                pos + slot.len_in_line() + (q - end)
            }
        };
        let mut runs = encodable_runs(self.via, &part);
        if unguessed {
            let unsure = at.iter().zip(&self.unsure).filter(|(_, &unsure)| unsure);
            for (&(start, _, _), _) in unsure {
                let Some((r, fixed)) = runs.iter_mut().find(|(r, _)| r.contains(&start)) else {
                    continue;
                };
                // A run's text is the windows-1252 bytes of its characters,
                // one each, read as UTF-8.
                let byte = part[r.start..start].chars().count();
                let held = fixed.char_indices().take_while(|&(i, _)| i <= byte).last();
                let Some((i, c)) = held else { continue };
                if crate::classify::is_letter(c) || crate::classify::is_mark(c) {
                    fixed.replace_range(i..i + c.len_utf8(), "\u{FFFD}");
                }
            }
        }
        self.inside = at
            .iter()
            .map(|&(start, _, core)| {
                let n = runs.partition_point(|(r, _)| r.start <= start);
                n.checked_sub(1).is_some_and(|i| core <= runs[i].0.end)
            })
            .collect();
        self.runs =
            runs.into_iter().map(|(r, fixed)| (in_line(r.start)..in_line(r.end), fixed)).collect();
    }

    /// Its runs, each letter or mark whose lost bytes were guessed too
    /// closely written as U+FFFD ([`Group::read_marking`]).
    fn unguessed(mut self, line: &str) -> Runs {
        if self.unsure.contains(&true) {
            self.read_marking(line, true);
        }
        self.runs
    }
}

/// The UTF-8 runs of `groups` of `line` through `via`, a single-byte
/// encoding (windows-1252 standing for ISO-8859-1 too), with the rest of
/// the line undone as chosen so far at each choice (a mojibake line reads
/// as its language only once repaired):
///
/// - in windows-1252, each U+FFFD, and each `?` or `??` right after a
///   non-ASCII character, read as the undefined byte ([`UNDEFINED`]) that
///   makes the line most plausible, among those that complete a character
///   (`â€�` and `â€?` read `”` after a word), or as it is;
/// - each space read as a no-break space that became a space (`via`'s
///   byte for it: `A0` in most, `CA` in MacRoman); where the block's
///   spaces may have collapsed ([`LostSpaces`]), each one that completes a
///   character is read as a no-break space and a space collapsed into one
///   where that makes the line more plausible. That tells `à la` from
///   `àla` and `Šiame` from `Š iame`, not `automàticament` from
///   `automà ticament`.
///
/// A run that chance makes of a word and a space ([`spaced_chance`]) is
/// neither weighed nor kept.
fn spaced_runs(line: &str, via: Via, groups: &[Vec<Range<usize>>], lost: LostSpaces) -> Runs {
    let groups = groups.iter().filter(|group| may_start_a_run(line, group, via));
    let mut groups: Vec<Group> = groups.map(|group| Group::new(line, group, via)).collect();
    if groups.iter().all(|g| g.slots.is_empty()) {
        return groups.into_iter().flat_map(|g| g.runs).collect();
    }
    // Lost bytes are chosen in the language the line reads as with its runs
    // undone as they stand, then again, with all the others as chosen, in
    // the language it reads as then (a Japanese line whose kana lost bytes
    // reads as Chinese until they are found).
    let mut language = Language::default();
    let lost_readings = |group: &Group, k: usize, slot: Slot| match slot {
        Slot::Lost { .. } | Slot::Marks { .. } => slot.lost_readings(line, group.slots[k].0),
        _ => Vec::new(),
    };
    for round in 0..2 {
        if !choose_all(line, &mut language, &mut groups, lost_readings) {
            break;
        }
        if round == 0 {
            language = Language::default();
        }
    }
    // Where the text shows damage only, as for a dropped byte below: a
    // lead and letters before a space (`áš ` of `Váš shell`, `íž ` of
    // `již`) are a word far more often than a character whose no-break
    // space became a space.
    let plain = |groups: &[Group]| groups.iter().any(Group::has_plain_run);
    if lost == LostSpaces::MaybeCollapsed {
        let space = Slot::Space { collapsed: false };
        let spaces = vec![space, Slot::Space { collapsed: true }];
        let plain = plain(&groups);
        let chance = spaced_chance(line, &groups);
        choose_all(line, &mut language, &mut groups, |group, k, slot| {
            if slot != space || !group.inside[k] {
                return Vec::new();
            }
            // Either way, the run reads the same character.
            let pos = group.slots[k].0;
            if chance.iter().any(|r| r.start <= pos && pos <= r.end) {
                return Vec::new();
            }
            let letters = continuations_before(line, group.slots[k].0, via);
            let word = !letters.is_empty() && letters.chars().all(char::is_alphabetic);
            if plain || !word {
                spaces.clone()
            } else {
                Vec::new()
            }
        });
    }
    // A dropped byte last, weighed against the spaces as chosen (`à¤ ` is
    // `ठ` with its no-break space turned into a space, or `ँ` and a space
    // with the `81` of `ँ` dropped).
    //
    // Only where the text shows damage: in a line with a run of its own
    // ([`Group::has_plain_run`]), or for continuation bytes that are not
    // all letters (`â€` of `”`, `à¥` of `्`). A lead and letters (`áš` of
    // `vášeň`, `íž`) are a word far more often, and weighing every such
    // pair made repair of clean Czech twice as slow.
    let plain = plain(&groups);
    choose_all(line, &mut language, &mut groups, |group, k, slot| match slot {
        Slot::Dropped { len, .. } => {
            let pos = group.slots[k].0;
            if plain || !line[pos..pos + len].chars().all(char::is_alphabetic) {
                slot.lost_readings(line, pos)
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    });
    let chance = spaced_chance(line, &groups);
    let runs = groups.into_iter().flat_map(|g| g.unguessed(line));
    runs.filter(|(r, _)| !chance.contains(r)).collect()
}

/// The runs of `groups` of `line` that chance makes of a word and a space
/// ([`spaced_runs`]): each holds a space read as a no-break space,
/// follows a Latin letter (ASCII or not) right before it, and reads as one
/// character, a letter or a mark outside Latin, that no run of another
/// shape vouches for (reads as CJK where it is CJK, or as a word of its
/// alphabet). Clean Czech has such runs in one line in thirty (`též ` is
/// `鞠` with its `E9 9E` and the space as `A0`, `virtuální” ` is
/// `virtuáln픠`, `ŘÍZENÍ ` ends in U+0360): a word of one script that goes
/// on in a letter of another, and only by a space that lost a no-break
/// space. Mojibake of text outside Latin has the rest of that text beside
/// it (`Linuxä½  æ˜¯` is `Linux你 是`).
fn spaced_chance(line: &str, groups: &[Group]) -> Vec<Range<usize>> {
    let mut shaped = Vec::new();
    let mut others = Vec::new();
    for group in groups {
        for (r, fixed) in &group.runs {
            let glued = after_latin_letter(line, r.start) && group.holds_space(r);
            match one_letter_of_another_script(fixed) {
                Some(c) if glued => shaped.push((r.clone(), c)),
                _ => others.push(fixed.as_str()),
            }
        }
    }
    let vouched = |c: char| {
        others.iter().any(|reading| {
            let letters = || reading.chars().filter(|&l| is_letter(l));
            if is_cjk(c) {
                reading.chars().any(is_cjk)
            } else {
                letters().count() > 1 && letters().any(|l| alphabet(l) == alphabet(c))
            }
        })
    };
    shaped.into_iter().filter(|&(_, c)| !vouched(c)).map(|(r, _)| r).collect()
}

/// Whether a run of [`spaced_runs`] through `via` may start in `group` of
/// `line`: it has a lead byte followed by what a run may go on with, a
/// continuation byte or a slot (a space; in windows-1252 also a question
/// mark or an undecodable character). Most groups of clean text have none
/// (`ř`, `š`, `í` before an ASCII letter), and nothing in them is read.
fn may_start_a_run(line: &str, group: &[Range<usize>], via: Via) -> bool {
    let (Some(first), Some(last)) = (group.first(), group.last()) else {
        return false;
    };
    // The group's characters and the one after it.
    let text = &line[first.start..boundary_after(line, last.end + 1)];
    let bit = 1 << via.index();
    let opens = |c: char| Glance::look_up(c).open & bit != 0;
    let goes_on = |c: char| matches!(c, ' ' | '?') || Glance::look_up(c).continues & bit != 0;
    text.chars().zip(text.chars().skip(1)).any(|(c, next)| opens(c) && goes_on(next))
}

/// The C1 controls of `line` outside `runs` that stand for a byte `via`
/// (windows-1252 or MacRoman) defines, each as that character: a byte of
/// the encoding decoded as ISO-8859-1 (`\u{84}Handwerk\u{93}` for
/// `„Handwerk“` in windows-1252, `tur\u{92}stico` for `turístico` in
/// MacRoman, whose small accented letters are its bytes 0x87–0x9F). Text
/// holds C1 controls far more rarely than the characters they stand for
/// ([`score::unseen`] charges them as invisible characters); which
/// encoding they stand for, the line's plausibility says
/// ([`c1_controls_of_one`]).
fn c1_controls(line: &str, runs: &Runs, via: Via) -> Runs {
    let mut found = Vec::new();
    for (i, c) in line.char_indices().filter(|&(_, c)| is_c1_control(c)) {
        if runs.iter().any(|(r, _)| r.start <= i && i < r.end) {
            continue;
        }
        // U+0080-U+009F is the byte itself in ISO-8859-1.
        let byte = [u32::from(c) as u8];
        // (A byte windows-1252 leaves undefined decodes to its C1 control.)
        let (fixed, malformed) = via.charset().decode(&byte);
        // MacRoman's are letters: one read so is glued to a letter of its
        // word (a control standing alone may be meant: `intentional \u{81}`
        // is no `Å`).
        let glued = line[..i].chars().next_back().is_some_and(char::is_alphabetic)
            || line[i + c.len_utf8()..].chars().next().is_some_and(char::is_alphabetic);
        if !malformed && !fixed.chars().any(is_c1_control) && (via == Via::Windows1252 || glued) {
            found.push((i..i + c.len_utf8(), fixed.into_owned()));
        }
    }
    found
}

/// `runs` (each encoding's, of `line`) with the line's C1 controls read
/// in one encoding only: the one whose reading of them all makes the line
/// most plausible (`\u{93}mañana\u{94}` is windows-1252's `“mañana”`, not
/// MacRoman's `ìmañanaî`; `tur\u{92}stico` is MacRoman's `turístico`). A line's C1
/// controls are the bytes of the one encoding it was written in, and each
/// read apart, the most plausible reading of one may be the other
/// encoding's.
fn c1_controls_of_one(line: &str, mut runs: Vec<(Via, Runs)>) -> Vec<(Via, Runs)> {
    let is_c1 =
        |(range, _): &(Range<usize>, String)| line[range.clone()].chars().all(is_c1_control);
    if !runs.iter().any(|(_, found)| found.iter().any(is_c1)) {
        return runs;
    }
    // Every C1 control of the line read in each (whatever runs hold some,
    // and in the rounds after a first repair).
    let bits = |via: Via| score::bits(&undone(line, &c1_controls(line, &Runs::new(), via)));
    let vias = [Via::Windows1252, Via::Macintosh];
    let best = vias.into_iter().min_by(|&a, &b| bits(a).total_cmp(&bits(b)));
    for (via, found) in &mut runs {
        if Some(*via) != best {
            found.retain(|run| !is_c1(run));
        }
    }
    runs.retain(|(_, found)| !found.is_empty());
    runs
}

/// Whether `c` is a C1 control (U+0080-U+009F).
fn is_c1_control(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// The language a line's slot choices are weighed in: the one it reads as
/// with its runs undone as they stand, found when a choice is first
/// weighed (in most lines none is).
#[derive(Default)]
struct Language(Option<Option<&'static str>>);

impl Language {
    fn get(&mut self, line: &str, groups: &[Group]) -> Option<&'static str> {
        *self.0.get_or_insert_with(|| {
            let runs: Runs = groups.iter().flat_map(|g| g.runs.iter().cloned()).collect();
            score::line_language(&undone(line, &runs))
        })
    }
}

/// Chooses, group by group, the reading of each slot that `options` gives
/// readings for (given its group, its index and the slot); whether any
/// changed.
fn choose_all(
    line: &str,
    language: &mut Language,
    groups: &mut [Group],
    options: impl Fn(&Group, usize, Slot) -> Vec<Slot>,
) -> bool {
    let mut changed = false;
    for g in 0..groups.len() {
        let mut changed_here = false;
        for k in 0..groups[g].slots.len() {
            let readings = options(&groups[g], k, groups[g].slots[k].1);
            if !readings.is_empty() {
                changed_here |= choose_slot(line, language, groups, g, k, &readings);
            }
        }
        if changed_here {
            groups[g].read(line);
            changed = true;
        }
    }
    changed
}

/// Runs of U+FFFD and undecodable bytes in `text` (see [`Slot::Lost`]).
fn undecodable_runs(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = chars.find(|&(_, c)| score::is_undecodable(c))?;
        let mut end = start;
        while let Some((i, c)) = chars.next_if(|&(_, c)| score::is_undecodable(c)) {
            end = i + c.len_utf8();
        }
        let first = text[start..].chars().next().map_or(0, char::len_utf8);
        Some(start..end.max(start + first))
    })
}

/// Bytes of the line on each side of a slot being chosen that the choice
/// is weighed in: enough for the language and the words around, and each
/// choice costs the same however long the line.
const SLOT_CONTEXT: usize = 128;

/// Bytes on each side of a slot that its readings are weighed in once the
/// line's language is known: a few words, all that tells them apart (the
/// models see a character and the ones beside it). As few as 8 chose the
/// same readings in every file of the corpora and every line of
/// `repair-eval`; [`SLOT_CONTEXT`] weighs five times as many bytes.
const SLOT_NEAR: usize = 24;

/// [`SLOT_NEAR`] bytes on each side of `slot` within `outer`, widened to
/// hold whole each of `runs` (within `outer`) that crosses an edge: every
/// reading is weighed on the same text.
fn near_slot<'a>(
    line: &str,
    slot: Range<usize>,
    outer: Range<usize>,
    runs: impl Iterator<Item = &'a Range<usize>> + Clone,
) -> Range<usize> {
    let mut lo = boundary(line, slot.start.saturating_sub(SLOT_NEAR)).max(outer.start);
    let mut hi = boundary_after(line, slot.end + SLOT_NEAR).min(outer.end);
    loop {
        let (was_lo, was_hi) = (lo, hi);
        for r in runs.clone() {
            if r.start < lo && lo < r.end {
                lo = r.start;
            }
            if r.start < hi && hi < r.end {
                hi = r.end;
            }
        }
        if (lo, hi) == (was_lo, was_hi) {
            return lo..hi;
        }
    }
}

/// Reads slot `k` of group `g` in each way of `options` that puts it within
/// a run, and keeps the way (or the one it has) that makes the line around
/// it most plausible, with the other groups' runs there undone as chosen so
/// far (a mojibake line reads as its language only once repaired). Whether
/// it changed (the group's runs are then to be read again).
fn choose_slot(
    line: &str,
    language: &mut Language,
    groups: &mut [Group],
    g: usize,
    k: usize,
    options: &[Slot],
) -> bool {
    let (pos, current) = groups[g].slots[k];
    let lo = boundary(line, pos.saturating_sub(SLOT_CONTEXT));
    let hi = boundary_after(line, pos + current.span() + SLOT_CONTEXT);
    // The group within the window, with the slots it holds whole.
    let group = &groups[g];
    let range = group.range.start.max(lo)..group.range.end.min(hi);
    let skipped = group.slots.partition_point(|s| s.0 < range.start);
    let within = group.slots[skipped..].iter().take_while(|s| s.0 + s.1.span() <= range.end);
    let within: Vec<(usize, Slot)> = within.copied().collect();
    let unsure = vec![false; within.len()];
    let (via, runs, inside) = (group.via, Vec::new(), Vec::new());
    let mut local = Group { via, range, slots: within, runs, inside, unsure };
    // The other groups' runs in the window (groups are in line order).
    let near = groups.partition_point(|group| group.range.end <= lo);
    let others: Runs = (near..groups.len())
        .take_while(|&h| groups[h].range.start < hi)
        .filter(|&h| h != g)
        .flat_map(|h| groups[h].runs.iter())
        .filter(|(r, _)| lo <= r.start && r.end <= hi)
        .cloned()
        .collect();
    // The options that put the slot within a run, and the way it has.
    let mut valid: Vec<(Slot, Runs)> = Vec::with_capacity(options.len());
    for &option in options {
        local.slots[k - skipped].1 = option;
        local.read(line);
        if option == current || local.inside[k - skipped] {
            valid.push((option, std::mem::take(&mut local.runs)));
        }
    }
    if valid.iter().all(|(option, _)| *option == current) {
        return false;
    }
    let language = language.get(line, groups);
    let window = match language {
        Some(_) => {
            let runs = others.iter().chain(valid.iter().flat_map(|(_, own)| own));
            near_slot(line, pos..pos + current.span(), lo..hi, runs.map(|(r, _)| r))
        }
        None => lo..hi,
    };
    // Where a space may stand for a no-break space, the readings differ in
    // their words: a letter the choice leaves alone pays for standing as a
    // word ([`score::alone_bits`]).
    let spaces = options.iter().any(|o| matches!(o, Slot::Space { .. }));
    let bits = |own: &Runs| {
        let inside =
            |(r, _): &&(Range<usize>, String)| window.start <= r.start && r.end <= window.end;
        let mut runs: Runs = others.iter().chain(own).filter(inside).cloned().collect();
        for (r, _) in &mut runs {
            *r = r.start - window.start..r.end - window.start;
        }
        runs.sort_unstable_by_key(|r| r.0.start);
        let text = undone(&line[window.clone()], &runs);
        // (Without the line's language, in the reading's own.)
        let words = match language {
            _ if !spaces => 0.0,
            Some(language) => score::alone_bits(&text, language),
            None => score::costs(&text).best().map_or(0.0, |(l, _)| score::alone_bits(&text, l)),
        };
        score::bits_in(&text, language) + words
    };
    // A tie keeps the way it has: the models cannot tell the readings
    // apart (`❤` from `⍤`, two symbols they never saw).
    let mut best: Option<(f32, Slot)> = None;
    let mut tied = false;
    let mut costs = Vec::with_capacity(valid.len());
    for (option, own) in valid {
        let cost = bits(&own) + option.prior();
        costs.push((cost, option));
        match best {
            Some((b, _)) if cost > b => {}
            Some((b, _)) if cost == b => tied = true,
            _ => {
                best = Some((cost, option));
                tied = false;
            }
        }
    }
    let chosen = best.filter(|_| !tied).map_or(current, |(_, option)| option);
    // A guess of the bytes behind a U+FFFD close to another guess is not
    // written ([`LOST_GUESS_BITS`]).
    let guesses = |slot: Slot| matches!(slot, Slot::Lost { bytes: Some(_), .. });
    let next = costs.iter().filter(|(_, o)| *o != chosen && guesses(*o)).map(|c| c.0);
    let margin = best.map(|(b, _)| next.fold(f32::INFINITY, f32::min) - b);
    groups[g].unsure[k] = guesses(chosen) && margin.is_some_and(|m| m < LOST_GUESS_BITS);
    groups[g].slots[k].1 = chosen;
    chosen != current
}

/// `runs` (sorted) without those that chance makes in clean text. A
/// character of a double-byte encoding is often a UTF-8 sequence of two
/// bytes by chance (GBK `C2 A1` is `¡`, `D6 B8` is `ָ`), and so is a pair of
/// letters in a single-byte one (KOI8-R `лё`, `D7 A3`), so that clean text
/// has such runs every few characters or words; but text read in the wrong
/// encoding turns every non-ASCII character it had into a run, all of them
/// touching, between ASCII characters. A run that no other run touches goes
/// when its reading is not CJK text ([`reads_as_cjk_text`]: mojibake of
/// Chinese beside clean Chinese is; one ideograph alone, or beside letters
/// of other scripts, is chance: Shift_JIS `關的` is `萓I`) and
///
/// - a letter outside ASCII that is in no run is next to it (the rest of
///   its word stays as it is), the reading has letters or marks but no
///   letter of its alphabet
///   (`щё` of `ещё` in KOI8-R reads U+0323), and, unless that letter is
///   CJK, no run of the line reads as a word (two letters or more) of the
///   reading's alphabet (mojibake that lost bytes leaves pieces of
///   characters beside its runs, which read as words of one script), or
/// - the nearest letters on both sides within [`score::CONTEXT`]
///   characters are CJK in no run or ASCII, one of them CJK at least, and the
///   reading has no Latin letter outside ASCII where an ASCII letter is
///   near (the `é` of `caf茅` stays a run). A letter in a run set aside
///   stays as it is, for the runs near it, in a next round.
///
/// Weighing those runs made repair of clean text slow, and never repaired
/// a line.
pub(crate) fn without_stray_readings(line: &str, runs: Runs) -> Runs {
    // The alphabets of the readings of two letters or more (sorted): made
    // when first needed.
    let words = std::cell::OnceCell::new();
    let words = || {
        words.get_or_init(|| {
            let letters = |fixed: &String| fixed.chars().filter(|&c| is_letter(c)).count();
            let long = runs.iter().map(|(_, fixed)| fixed).filter(|fixed| letters(fixed) > 1);
            let mut found: Vec<u32> = long
                .flat_map(|fixed| fixed.chars().filter(|&c| is_letter(c)).map(alphabet))
                .collect();
            found.sort_unstable();
            found.dedup();
            found
        })
    };
    let vouched = |fixed: &str| {
        let letters = fixed.chars().filter(|&c| is_letter(c));
        letters.map(alphabet).any(|a| words().binary_search(&a).is_ok())
    };
    let stray = |k: usize, kept: &[bool]| {
        if let Some(stray) = stray_whatever_around(line, &runs, k, &vouched) {
            return stray;
        }
        let (range, fixed) = &runs[k];
        let OwnLetters { first, one_alphabet, reads_in_it, .. } =
            OwnLetters::of(&line[range.clone()], fixed);
        // The nearest letters, and whether each stays (is in no run).
        let in_run = |at: usize| {
            let k = runs.partition_point(|(r, _)| r.end <= at);
            runs.get(k).is_some_and(|(r, _)| r.start <= at) && kept[k]
        };
        let nearest = |chars: &mut dyn Iterator<Item = (usize, char)>| {
            let found = chars.take(score::CONTEXT).find(|&(_, c)| is_letter(c));
            found.map(|(at, c)| (c, !in_run(at)))
        };
        let sides = [
            nearest(&mut line[..range.start].char_indices().rev()),
            nearest(&mut line[range.end..].char_indices().map(|(i, c)| (range.end + i, c))),
        ];
        // Letters of one alphabet read as no letter of it, amid text in
        // it that stays (`дії` read as `䳿` in windows-1251, `Ці` as a
        // mark): mojibake of a line leaves none of it as it was. (ASCII
        // letters are left out: `Îš` of `Ί` between English words is
        // mojibake.)
        let own_text =
            |&(c, stays): &(char, bool)| stays && !c.is_ascii() && word_alphabet(c) == first;
        let alone_in_own =
            sides.iter().flatten().all(own_text) && sides.iter().any(Option::is_some);
        if one_alphabet && !reads_in_it && alone_in_own {
            return true;
        }
        let (mut cjk_sides, mut ascii) = (0, 0);
        for &(c, stays) in sides.iter().flatten() {
            match (is_cjk(c) && stays, c.is_ascii()) {
                (true, _) => cjk_sides += 1,
                (_, true) => ascii += 1,
                _ => return false,
            }
        }
        let latin = fixed.chars().any(is_latin_beyond_ascii);
        cjk_sides > 0 && (ascii == 0 || !latin)
    };
    let mut keep = vec![true; runs.len()];
    for _ in 0..STRAY_ROUNDS {
        let next: Vec<bool> = (0..runs.len()).map(|k| keep[k] && !stray(k, &keep)).collect();
        if next == keep {
            break;
        }
        keep = next;
    }
    runs.into_iter().zip(keep).filter_map(|(run, keep)| keep.then_some(run)).collect()
}

/// What [`without_stray_readings`] makes of run `k` of `runs` (sorted, of
/// `line`) whatever the letters near it are and whether they stay: kept
/// (`Some(false)`: it reads as CJK text, or touches another run), set aside
/// (`Some(true)`: its letters are glued to a word of their alphabet that
/// reads on in it, [`OwnLetters::glued_in_word`], or it reads as a letter or
/// a mark beside a letter whose alphabet its reading has no letter of,
/// which is CJK, or, the reading having no CJK, whose alphabet no run of
/// the line reads as a word of: `vouched` says whether one does), or
/// neither (`None`).
fn stray_whatever_around(
    line: &str,
    runs: &Runs,
    k: usize,
    vouched: &dyn Fn(&str) -> bool,
) -> Option<bool> {
    let (range, fixed) = &runs[k];
    let before = k.checked_sub(1).and_then(|j| runs.get(j));
    let touches = before.is_some_and(|(r, _)| r.end == range.start)
        || runs.get(k + 1).is_some_and(|(r, _)| r.start == range.end);
    if reads_as_cjk_text(fixed) || touches {
        return Some(false);
    }
    let own = OwnLetters::of(&line[range.clone()], fixed);
    if own.glued_in_word(line, range) || closes_a_word(line, range, fixed) {
        return Some(true);
    }
    let alien = |g: char| !fixed.chars().any(|c| is_letter(c) && alphabet(c) == alphabet(g));
    // Punctuation stands beside any letter (`«` of `Â«`).
    let wordlike = fixed.chars().any(|c| is_letter(c) || is_mark(c));
    let mut aliens = glued(line, range).filter(|&g| wordlike && alien(g));
    aliens.any(|g| is_cjk(g) || !own.cjk && !vouched(fixed)).then_some(true)
}

/// Whether run `range` of `line`, read as `fixed`, is a Latin word's last
/// letter and the punctuation that closes it (`ë…”` of `Brontë…” is`: one
/// Hangul syllable, `녔`, glued to `Bront`): a letter right after a Latin
/// letter, then only closing punctuation (`… ” “ ’ ‘ »`), then no letter, read
/// as one letter or mark of another script. Mojibake of such a character
/// rarely has closing punctuation for both its last bytes.
fn closes_a_word(line: &str, range: &Range<usize>, fixed: &str) -> bool {
    const CLOSING: [char; 6] = ['…', '”', '“', '’', '‘', '»'];
    let mut own = line[range.clone()].chars();
    let (Some(first), rest) = (own.next(), own) else { return false };
    let after = line[range.end..].chars().next().is_none_or(|c| !is_letter(c));
    let mut rest = rest.peekable();
    one_letter_of_another_script(fixed).is_some()
        && after_latin_letter(line, range.start)
        && after
        && is_latin_letter(first)
        && rest.peek().is_some()
        && rest.all(|c| CLOSING.contains(&c))
}

/// A Latin letter (ASCII or not).
fn is_latin_letter(c: char) -> bool {
    is_letter(c) && alphabet(c) == 0
}

/// Whether the character before `at` in `line` is a Latin letter: a run
/// there is glued to a Latin word.
fn after_latin_letter(line: &str, at: usize) -> bool {
    line[..at].chars().next_back().is_some_and(is_latin_letter)
}

/// The one character beyond ASCII of a run's reading `fixed`, where it is
/// a letter or a mark outside Latin.
fn one_letter_of_another_script(fixed: &str) -> Option<char> {
    let mut beyond = fixed.chars().filter(|c| !c.is_ascii());
    match (beyond.next(), beyond.next()) {
        (Some(c), None) if (is_letter(c) || is_mark(c)) && alphabet(c) != 0 => Some(c),
        _ => None,
    }
}

/// The letters and marks outside ASCII right before and after `range` of
/// `line`.
fn glued<'a>(line: &'a str, range: &Range<usize>) -> impl Iterator<Item = char> + 'a {
    let (prev, next) = (line[..range.start].chars().next_back(), line[range.end..].chars().next());
    [prev, next].into_iter().flatten().filter(|&c| !c.is_ascii() && (is_letter(c) || is_mark(c)))
}

/// A run's own characters and its reading, as [`without_stray_readings`]
/// weighs them.
struct OwnLetters {
    /// The alphabet of the first character.
    first: u32,
    /// Every character is a letter or a mark of that alphabet, beyond
    /// ASCII (or alphabetic: Thai `ำ` is no letter of text, being a
    /// compatibility form).
    one_alphabet: bool,
    /// The reading has a letter of it.
    reads_in_it: bool,
    /// The reading has a CJK character (it goes only beside CJK text).
    cjk: bool,
}

impl OwnLetters {
    fn of(own: &str, fixed: &str) -> OwnLetters {
        let first = own.chars().next().map_or(0, word_alphabet);
        OwnLetters {
            first,
            one_alphabet: own.chars().all(|c| {
                // (The generated tables first: the standard library's
                // alphabetic look-up is slow, and Thai text asks it often.)
                let wordlike = is_letter(c) || is_mark(c) || c.is_alphabetic();
                !c.is_ascii() && wordlike && word_alphabet(c) == first
            }),
            reads_in_it: fixed.chars().any(|c| is_letter(c) && word_alphabet(c) == first),
            cjk: fixed.chars().any(is_cjk),
        }
    }

    /// Letters of one alphabet, in a word that goes on in it as it stands
    /// (`range` of `line`), read as no letter of it (`Ві` of `Він`, read as
    /// `³` in windows-1251), or a mark beside them, even read as CJK
    /// (windows-874 `่งค` of `แห่งความ` is `觤`): chance, whatever is around.
    /// (Mojibake cut inside a word reads as its letters: `РџСЂ` of
    /// `РџСЂивет` is `Пр`.)
    fn glued_in_word(&self, line: &str, range: &Range<usize>) -> bool {
        self.one_alphabet
            && !self.reads_in_it
            && glued(line, range).any(|g| word_alphabet(g) == self.first)
    }
}

/// The encodings of `vias` in which every run of `stretch` of `line`,
/// non-ASCII text, is one that [`without_stray_readings`] sets aside
/// whatever is around it ([`stray_whatever_around`], taking every reading
/// as vouched for): Cyrillic text has runs in one line in five (`Ві` of
/// `Він` in windows-1251), and Chinese in Shift_JIS (`關的` is `萓I`).
/// Runs do not reach across ASCII, so the stretch's runs are the line's
/// there.
fn chance_runs_only(line: &str, stretch: Range<usize>, vias: u16) -> u16 {
    let mut only = 0;
    for via in Via::ALL.into_iter().filter(|via| vias >> via.index() & 1 == 1) {
        let mut runs = utf8_runs_in(via, &line[stretch.clone()]);
        for (r, _) in &mut runs {
            *r = stretch.start + r.start..stretch.start + r.end;
        }
        let chance = |k| stray_whatever_around(line, &runs, k, &|_| true) == Some(true);
        if (0..runs.len()).all(chance) {
            only |= 1 << via.index();
        }
    }
    only
}

/// Rounds of [`without_stray_readings`]: a letter in a run set aside in one
/// round stays as it is in the next.
const STRAY_ROUNDS: usize = 3;

/// Whether `fixed`, a run's reading, is CJK text of two characters or more
/// beyond ASCII: CJK characters, punctuation and symbols, one CJK
/// character at least, no other letter, mark, control or private-use
/// character (`萓I` of `關的` and `ӛ䛙n` of `記錄檔` are not).
fn reads_as_cjk_text(fixed: &str) -> bool {
    let mut beyond = fixed.chars().filter(|c| !c.is_ascii());
    let other = |c: char| class(c) == Class::Other && !is_mark(c);
    beyond.clone().any(is_cjk)
        && beyond.clone().nth(1).is_some()
        && beyond.all(|c| is_cjk(c) || other(c))
}

/// The alphabet of a letter, coarsely: Latin, Greek, Cyrillic, Armenian,
/// Hebrew and Arabic with their extensions; any other by its block of 128
/// code points.
fn alphabet(c: char) -> u32 {
    match u32::from(c) {
        0..=0x2AF | 0x1E00..=0x1EFF => 0,
        0x370..=0x3FF | 0x1F00..=0x1FFF => 1,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => 2,
        0x530..=0x58F => 3,
        0x590..=0x5FF | 0xFB1D..=0xFB4F => 4,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => 5,
        u => 0x100 + (u >> 7),
    }
}

/// The alphabet a word is written in: [`alphabet`], but the CJK
/// ideographs, which spread over many blocks, are one.
fn word_alphabet(c: char) -> u32 {
    match u32::from(c) {
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x2_0000..=0x3_FFFF => 6,
        _ => alphabet(c),
    }
}

/// A Latin letter with a diacritic or beyond ASCII's (Latin-1 to Latin
/// Extended-B, Latin Extended Additional).
fn is_latin_beyond_ascii(c: char) -> bool {
    matches!(c, '\u{C0}'..='\u{24F}' | '\u{1E00}'..='\u{1EFF}') && is_letter(c)
}

/// `line` with `runs` (sorted, not overlapping) undone once.
fn undone(line: &str, runs: &[(Range<usize>, String)]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (range, fixed) in runs {
        out.push_str(&line[last..range.start]);
        out.push_str(fixed);
        last = range.end;
    }
    out.push_str(&line[last..]);
    out
}

/// The text of `line` around `runs` (sorted, not overlapping), as it stands
/// and with the runs undone once: each run in its [`score::context`],
/// windows that overlap or touch merged, and the others joined by a space.
/// When the windows cover the line, the line itself.
fn around(line: &str, runs: &[(Range<usize>, String)]) -> (String, String) {
    let (mut as_is, mut undone) = (String::new(), String::new());
    let mut runs = runs.iter().peekable();
    while let Some(run) = runs.next() {
        let mut window = score::context(line, run.0.clone());
        let mut inside = vec![run];
        while let Some(next) = runs.next_if(|next| next.0.start <= window.end) {
            window.end = window.end.max(score::context(line, next.0.clone()).end);
            inside.push(next);
        }
        if !as_is.is_empty() {
            as_is.push(' ');
            undone.push(' ');
        }
        as_is.push_str(&line[window.clone()]);
        let mut last = window.start;
        for (range, fixed) in inside {
            undone.push_str(&line[last..range.start]);
            undone.push_str(fixed);
            last = range.end;
        }
        undone.push_str(&line[last..window.end]);
    }
    (as_is, undone)
}

/// A proposed repair of one stretch of a line.
pub(crate) struct Proposal {
    /// The stretch of the line.
    pub range: Range<usize>,
    /// Its text with one layer undone, two, …
    pub layers: Vec<String>,
    /// The layer chosen (0 for one layer undone).
    pub chosen: usize,
}

impl Proposal {
    /// A proposal for `range` whose first layer undone is `fixed`, with the
    /// further layers `via` peels off it.
    pub(crate) fn new(range: Range<usize>, fixed: String, via: Option<Via>) -> Proposal {
        let mut layers = vec![fixed];
        while layers.len() < MAX_DEPTH {
            let last = &layers[layers.len() - 1];
            match via.and_then(|via| peel(via, last)) {
                Some(next) => layers.push(next),
                None => break,
            }
        }
        Proposal { range, layers, chosen: 0 }
    }

    /// The repaired text.
    pub(crate) fn after(&self) -> &str {
        &self.layers[self.chosen]
    }

    /// Chooses the most plausible layer for `line` (whose language is
    /// `language`).
    pub(crate) fn choose(&mut self, line: &str, language: Option<&'static str>) {
        // One layer is the only choice, whatever it weighs.
        if self.layers.len() == 1 {
            self.chosen = 0;
            return;
        }
        let window = Window::new(line, self.range.clone(), language);
        self.chosen = self.best_layer(&window, &line[self.range.clone()]).map_or(0, |c| c.0);
    }

    /// The most plausible layer in `window` whose text holds no C1 control
    /// (its index and gain over `original`). A layer that still holds one
    /// is not a repair's end: repairing its text again would read the
    /// control as the windows-1252 byte it stands for, and a repair made
    /// twice must change nothing more. `None` when every layer holds one.
    fn best_layer(&self, window: &Window, original: &str) -> Option<(usize, f32)> {
        let finished = |i: usize| !self.layers[i].chars().any(is_c1_control);
        window.judge(original, &self.layers, false).best_where(finished)
    }
}

/// Whether the ASCII stretch `ascii` of `line` joins the non-ASCII ones on
/// each side of it into a group: question marks that may be lost bytes of
/// the one before (`end`), a space, or both.
fn joins(line: &str, end: usize, ascii: Range<usize>) -> bool {
    let marks = marks_after(line, end);
    let space = line[..ascii.end].ends_with(' ');
    !ascii.is_empty() && ascii.len() == marks + usize::from(space)
}

/// The non-ASCII stretches of `line` in groups, with one space between
/// them, after any question marks that may be lost bytes (see [`Group`]).
fn groups(line: &str) -> Vec<Vec<Range<usize>>> {
    let parts: Vec<(Range<usize>, bool)> = stretches(line).collect();
    let mut groups: Vec<Vec<Range<usize>>> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        if parts[i].1 {
            i += 1;
            continue;
        }
        let mut group = vec![parts[i].0.clone()];
        let mut j = i + 1;
        while j + 1 < parts.len() && joins(line, parts[j - 1].0.end, parts[j].0.clone()) {
            group.push(parts[j + 1].0.clone());
            j += 2;
        }
        groups.push(group);
        i = j;
    }
    groups
}

/// The runs of `line`'s `groups` whose bytes in `via` are UTF-8, and their
/// first layer undone, without those chance makes in clean text.
///
/// In windows-1252 its spaces are read as no-break spaces that became
/// spaces, as `lost` says ([`spaced_runs`]); in the others, see
/// [`proposals`].
fn runs_in(line: &str, via: Via, groups: &[Vec<Range<usize>>], lost: LostSpaces) -> Runs {
    if via == Via::Windows1252 {
        // C1 controls are not UTF-8 by chance: none is set aside.
        let runs = spaced_runs(line, via, groups, lost);
        return with_c1_controls(line, via, runs);
    }
    let runs = groups.iter().flat_map(|group| {
        let (first, last) = (group[0].start, group[group.len() - 1].end);
        let runs = encodable_runs(via, &line[first..last]).into_iter();
        runs.map(move |(r, fixed)| (first + r.start..first + r.end, fixed))
    });
    with_c1_controls(line, via, runs.collect())
}

/// `runs` of `line` in `via` without those chance makes in clean text
/// ([`without_stray_readings`]), and, in windows-1252 and MacRoman, the C1
/// controls outside them ([`c1_controls`]; not UTF-8 by chance: none is
/// set aside).
fn with_c1_controls(line: &str, via: Via, runs: Runs) -> Runs {
    let c1 = match via {
        Via::Windows1252 | Via::Macintosh => c1_controls(line, &runs, via),
        _ => Vec::new(),
    };
    let mut runs = without_stray_readings(line, runs);
    if !c1.is_empty() {
        runs.extend(c1);
        runs.sort_unstable_by_key(|(r, _)| r.start);
    }
    runs
}

/// Each encoding's proposals for `line` (its stretches whose bytes are
/// UTF-8, each at its most plausible depth), found only in the encodings
/// the line [`suspects`] (`suspects`, not 0).
fn proposals(line: &str, suspects: u16, lost: &BlockSpaces) -> ByVia {
    let groups = groups(line);
    let runs: Vec<(Via, Runs)> = Via::ALL
        .into_iter()
        .filter(|via| suspects >> via.index() & 1 == 1)
        .map(|via| (via, runs_in(line, via, &groups, lost.get(Via::Windows1252))))
        .filter(|(_, found)| !found.is_empty())
        .collect();
    if runs.is_empty() {
        return Vec::new();
    }
    // An encoding whose stretches, all undone once, leave the line no more
    // plausible than it is has nothing to repair here. Only the text around
    // the stretches is weighed for that ([`around`]): a long line of clean
    // text with one stretch that chance made is not scored whole. CJK text
    // as it stands costs at most what its best character-frequency table
    // says ([`score::bits_at_most`]): most readings cost more, and are set
    // aside without scoring it under every model.
    let more_plausible = |found: &Runs| {
        let (as_is, undone) = around(line, found);
        match score::bits_at_most(&as_is) {
            Some(bound) => {
                score::bits_below(&undone, bound).is_some_and(|bits| bits < score::bits(&as_is))
            }
            None => score::bits_below(&undone, score::bits(&as_is)).is_some(),
        }
    };
    let runs: Vec<_> = runs.into_iter().filter(|(_, found)| more_plausible(found)).collect();
    if runs.is_empty() {
        return Vec::new();
    }
    // A single-byte encoding other than windows-1252 that the line shows
    // mojibake through (its stretches, more plausible undone, hold most of
    // the line's non-ASCII text) is read again with its spaces as no-break
    // spaces that became spaces ([`spaced_runs`]: `Р РѕСЃСЃРёСЏ` is
    // `Россия`, `Г lвЂ™ouest` is `à l’ouest`). Not elsewhere: in clean
    // text the letters before a space complete UTF-8 sequences with it by
    // chance (every capital in windows-1251, every small letter in KOI8-R),
    // and weighing each of them made repair of clean Russian five times
    // slower.
    let shows = |found: &Runs| {
        let covered = found.iter().map(|(r, _)| line[r.clone()].chars().count()).sum();
        let share = Share::of(line, covered);
        share.covered >= share.left
    };
    let runs = runs.into_iter().map(|(via, found)| match via {
        Via::Windows1252 => (via, found),
        _ if !via.is_single_byte() || !shows(&found) => (via, found),
        _ => (via, with_c1_controls(line, via, spaced_runs(line, via, &groups, lost.get(via)))),
    });
    let runs = c1_controls_of_one(line, runs.collect());
    let language = score::line_language(line);
    runs.into_iter()
        .map(|(via, found)| {
            let proposals = found
                .into_iter()
                .map(|(range, fixed)| {
                    let mut p = Proposal::new(range, fixed, Some(via));
                    p.choose(line, language);
                    p
                })
                .collect();
            (via, proposals)
        })
        .collect()
}

/// The mojibake repairs of a block of text, as edits of it.
///
/// Each encoding proposes to repair every stretch of a line whose bytes in
/// it are UTF-8. A proposal is kept when its gain, with the encoding's other
/// proposals in the line made around it, clears a margin that grows with
/// the share of the line's and the block's non-ASCII text that the encoding
/// leaves as it is ([`Share::margin`]), and by [`score::WITNESS_BITS`] for a
/// lone stretch that is weak evidence ([`is_weak`]: `√π`, `¬´` on their
/// own); once one clears it, the encoding's others in the line need only
/// [`MARGIN`]. Proposals gain no more than their line as a whole
/// ([`at_most_the_line_gains`]). An encoding whose stretches, all undone
/// once, leave the text around them ([`around`]) no more plausible than it
/// is proposes nothing.
/// Encodings are tried in order of how plausible the line is with all of
/// their proposals made, and a proposal overlapping one kept is dropped.
///
/// Returns the repairs made and, apart, the possible ones: proposals short
/// of their margin whose confidence is still [`POSSIBLE`] or more and that
/// overlap no repair made (listed, not made).
pub(crate) fn repair_text(text: &str) -> (Vec<Edit>, Vec<Edit>) {
    let lost = BlockSpaces::new(text);
    // Each distinct line is weighed once: a line that comes again in the
    // block (boilerplate, table rows, text garbled alike) has the same
    // proposals and the same repairs. Lines no encoding suspects (ASCII
    // lines among them) have none, and count only in the block's share.
    let mut distinct: Vec<(&str, ByVia)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut lines = Vec::new();
    let mut clean = Share::default();
    let mut line_start = 0;
    for line in super::lines(text) {
        let body = line.strip_suffix('\n').unwrap_or(line);
        for (offset, body) in pieces(body) {
            match suspects(body) {
                0 => clean.add(Share::of(body, 0)),
                suspects => {
                    let k = *index.entry(body).or_insert_with(|| {
                        distinct.push((body, proposals(body, suspects, &lost)));
                        distinct.len() - 1
                    });
                    lines.push((line_start + offset, k));
                }
            }
        }
        line_start += line.len();
    }
    // The block's share, per encoding, every line counted.
    let shares: Vec<Vec<Share>> = distinct
        .iter()
        .map(|(body, by_via)| {
            // Its non-ASCII characters counted once for every encoding.
            let all = Share::of(body, 0).left;
            let share = |via: Via| {
                let proposals = by_via.iter().find(|(v, _)| *v == via).map_or(&[][..], |(_, p)| p);
                let covered = covered(body, proposals);
                Share { left: all.saturating_sub(covered), covered }
            };
            Via::ALL.iter().map(|&via| share(via)).collect()
        })
        .collect();
    let mut block: Vec<(Via, Share)> = Via::ALL.iter().map(|&v| (v, clean)).collect();
    for &(_, k) in &lines {
        for ((_, share), &line) in block.iter_mut().zip(&shares[k]) {
            share.add(line);
        }
    }
    let repaired: Vec<(Vec<Edit>, Vec<Edit>)> =
        distinct.into_iter().map(|(body, by_via)| repair_line(body, by_via, &block)).collect();
    let (mut made, mut possible) = (Vec::new(), Vec::new());
    for (start, k) in lines {
        let at = |e: &Edit| Edit { range: start + e.range.start..start + e.range.end, ..e.clone() };
        made.extend(repaired[k].0.iter().map(at));
        possible.extend(repaired[k].1.iter().map(at));
    }
    (made, possible)
}

/// Bytes a line may have and be weighed whole ([`pieces`]).
const LONG_LINE: usize = 16 * 1024;

/// Bytes of a piece of a longer line, about.
const PIECE: usize = 256;

/// `line` as it is weighed: whole, with offset 0, or when it is longer than
/// [`LONG_LINE`] bytes (a document on one line: minified markup, text whose
/// line breaks were lost), in pieces of [`PIECE`] bytes or more, each with
/// its offset. A piece ends between two ASCII characters, the first not a
/// space or a question mark (which may be a slot of the stretch before),
/// where no run and no slot can be cut, within three [`PIECE`]s more; or,
/// in text with no such place, at a character boundary. Each piece then tells its own
/// language and share, and only the pieces with something to weigh are
/// weighed (a whole line would be scored for one stretch in it).
fn pieces(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let bytes = line.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start == line.len() {
            return None;
        }
        let rest = line.len() - start;
        let end = if start == 0 && rest <= LONG_LINE || rest <= 4 * PIECE {
            line.len()
        } else {
            let inside_ascii = |&i: &usize| {
                bytes[i].is_ascii()
                    && bytes[i - 1].is_ascii()
                    && !matches!(bytes[i - 1], b' ' | b'?')
            };
            let cut = boundary_after(line, start + 4 * PIECE);
            (start + PIECE..start + 4 * PIECE).find(inside_ascii).unwrap_or(cut)
        };
        let piece = (start, &line[start..end]);
        start = end;
        Some(piece)
    })
}

/// How many characters of `line` `proposals` cover.
fn covered(line: &str, proposals: &[Proposal]) -> usize {
    proposals.iter().map(|p| line[p.range.clone()].chars().count()).sum()
}

/// Each encoding's proposals for a line.
type ByVia = Vec<(Via, Vec<Proposal>)>;

/// The repairs of one line given each encoding's proposals for it and the
/// block's shares, and the possible ones ([`repair_text`]).
fn repair_line(line: &str, by_via: ByVia, block: &[(Via, Share)]) -> (Vec<Edit>, Vec<Edit>) {
    let mut ranked: Vec<(f32, Via, Vec<Proposal>)> = by_via
        .into_iter()
        .map(|(via, proposals)| (score::bits(&apply(line, &proposals).0), via, proposals))
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut edits, mut possible): (Vec<Edit>, Vec<Edit>) = (Vec::new(), Vec::new());
    // The ranges of the edits kept (start → end; they do not overlap).
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let overlaps = |taken: &BTreeMap<usize, usize>, r: &Range<usize>| {
        taken.range(..r.end).next_back().is_some_and(|(_, &end)| r.start < end)
    };
    let words = has_words(line);
    for (_, via, proposals) in ranked {
        let share = Share::of(line, covered(line, &proposals));
        let in_block = block.iter().find(|(v, _)| *v == via).map_or(share, |&(_, s)| s);
        let margin = share.margin(in_block, MARGIN);
        let judged = at_most_the_line_gains(line, judge_in_place(line, proposals), margin);
        // A stretch that is weak evidence ([`is_weak`]) is repaired only
        // beside another repair of the same encoding, or with the margin of
        // a stretch whose line vouches against it. Where a repair of the
        // encoding clears the line's margin, its mojibake is in the line,
        // and the others need only the base margin: the text left as it is
        // raised it against a lone mojibake-looking stretch, and correct
        // text beside mojibake (`Thành phố: SÃ£o TomÃ© và PrÃ­ncipe`) left
        // `TomÃ©` once `PrÃ­ncipe` was repaired.
        let mut passing = judged.iter().filter(|(_, gain)| *gain >= margin);
        let vouched = passing.clone().count() > 1 || passing.any(|(p, _)| !is_weak(line, p, words));
        for (p, gain) in judged {
            if overlaps(&taken, &p.range) {
                continue;
            }
            // A C1 control is damage whatever is done: the text left as it
            // is does not vouch against reading it so.
            let before = &line[p.range.clone()];
            let c1 = before.chars().all(is_c1_control);
            let margin = if c1 || vouched {
                MARGIN
            } else if is_weak(line, &p, words) {
                margin + score::WITNESS_BITS
            } else {
                margin
            };
            let confidence = score::confidence(gain, margin);
            if gain < margin && confidence < POSSIBLE {
                continue;
            }
            let guessed = via == Via::Windows1252 && guessed(before, &p.layers[0]);
            let cause = if c1 {
                Cause::C1Control { bytes: via.charset(), guessed }
            } else {
                Cause::Mojibake { read_as: via.name(before), layers: p.chosen + 1, guessed }
            };
            let after = p.after().to_owned();
            let edit = Edit { range: p.range, after, kind: Kind::Mojibake, cause, confidence };
            if gain < margin {
                possible.push(edit);
                continue;
            }
            taken.insert(edit.range.start, edit.range.end);
            edits.push(edit);
        }
    }
    edits.sort_by_key(|e| e.range.start);
    // The best possible reading of each stretch no repair took.
    possible.retain(|e| !overlaps(&taken, &e.range));
    possible.sort_by(|a, b| {
        a.range.start.cmp(&b.range.start).then(b.confidence.total_cmp(&a.confidence))
    });
    possible.dedup_by(|later, kept| later.range.start < kept.range.end);
    (edits, possible)
}

/// `judged` (one encoding's proposals for `line`, sorted, with their gains)
/// with no gain above the line's own: what the line gains with every
/// proposal that clears `margin` made, as it stands and so repaired each
/// read in its own most plausible language. Judged in place, proposals
/// vouch for each other (text garbled throughout reads as its language only
/// once repaired); text that is correct as it stands reads about as well as
/// its "repair" does, each in its own language (`HÅØYA ER BLÅØYD`,
/// Norwegian, and `HŨYA ER BLŨYD` through windows-1257, which the
/// Vietnamese model prices alike), and gains nothing as a whole.
fn at_most_the_line_gains(
    line: &str,
    mut judged: Vec<(Proposal, f32)>,
    margin: f32,
) -> Vec<(Proposal, f32)> {
    let passing: Vec<(Range<usize>, String)> = judged
        .iter()
        .filter(|(_, gain)| *gain >= margin)
        .map(|(p, _)| (p.range.clone(), p.after().to_owned()))
        .collect();
    if passing.len() < 2 {
        return judged;
    }
    let whole = score::bits(line) - score::bits(&undone(line, &passing));
    for (_, gain) in &mut judged {
        *gain = gain.min(whole);
    }
    judged
}

/// Whether proposal `p` for `line` is weak evidence of mojibake: one
/// two-byte UTF-8 sequence (one character below U+0800) read from visible
/// characters (no space or no-break space among them), where the
/// character read touches no letter or digit of the line, and is a symbol,
/// or a letter standing in a line without a word to judge it by (no two
/// ASCII letters side by side); or three letters, a word of their own,
/// read as one character that is no letter.
///
/// Two non-ASCII characters side by side make such a sequence by chance in
/// every legacy encoding (`√π`, `∆°`, `¬´` in MacRoman; `Āø` in
/// windows-1257), and a pair of symbols standing on its own is ordinary
/// text (math, quotes), which models trained on prose price above one
/// character. So do the letters of a DOS code page, where a capital and
/// small letters are lead and continuation bytes (`Ôôô` is `ⓓ` in
/// IBM850). A longer sequence, a character read inside a word or number
/// (`wei√ü`, `cafÃ©`, `ВЈ5`), a one-letter word among words (`questo √®
/// usato`), or a sequence whose second byte shows as a no-break space
/// (`Ã` + U+00A0 for `à`; ordinary text seldom puts one there) is rare by
/// chance. `words`: the line [`has_words`].
fn is_weak(line: &str, p: &Proposal, words: bool) -> bool {
    let before = &line[p.range.clone()];
    let mut read = p.after().chars();
    let (Some(c), None) = (read.next(), read.next()) else {
        return false;
    };
    let chars = before.chars().count();
    let pair = chars <= 2 && c.len_utf8() <= 2;
    let word = chars == 3 && before.chars().all(is_letter) && !is_letter(c) && !is_mark(c);
    if !(pair || word) || before.chars().any(char::is_whitespace) {
        return false;
    }
    let glued = |n: Option<char>| n.is_some_and(char::is_alphanumeric);
    let touches = glued(line[..p.range.start].chars().next_back())
        || glued(line[p.range.end..].chars().next());
    !touches && (word || !c.is_alphabetic() || !words)
}

/// Whether `line` has a word to judge a letter by: two ASCII letters side
/// by side (found once per line: [`is_weak`] asks for every proposal).
fn has_words(line: &str) -> bool {
    line.as_bytes().windows(2).any(|w| w.iter().all(u8::is_ascii_alphabetic))
}

/// Whether undoing windows-1252 mojibake `text` as `fixed` guessed bytes
/// that were lost ([`Slot`]): `fixed` holds more bytes windows-1252 leaves
/// undefined than `text` shows as C1 controls.
fn guessed(text: &str, fixed: &str) -> bool {
    let undefined = |b: &u8| UNDEFINED.iter().any(|&c| u32::from(*b) == u32::from(c));
    let shown = text.chars().filter(|c| UNDEFINED.contains(c)).count();
    fixed.as_bytes().iter().filter(|b| undefined(b)).count() > shown
}

/// `proposals` (sorted, not overlapping) for `line`, each judged with all
/// the others made around it (text garbled throughout reads as its
/// language only once repaired): its layer chosen again there, and its
/// gain.
pub(crate) fn judge_in_place(line: &str, proposals: Vec<Proposal>) -> Vec<(Proposal, f32)> {
    let (all, at) = apply(line, &proposals);
    let language = score::line_language(&all);
    // A lone proposal in a line that, repaired, has too little non-ASCII
    // text to tell its language must also clear the base margin when judged
    // conservatively: its reading in its own best language against the
    // text as it stands in its own (`ë…”` read as UTF-8 is `녔`, cheap in
    // Korean, while the line reads as English as it stands). Several
    // proposals vouch for each other.
    let lone = language.is_none() && proposals.len() == 1;
    proposals
        .into_iter()
        .zip(at)
        .map(|(mut p, start)| {
            let window = Window::new(&all, start..start + p.after().len(), language);
            let original = &line[p.range.clone()];
            let Some((i, gain)) = p.best_layer(&window, original) else {
                return (p, f32::NEG_INFINITY);
            };
            p.chosen = i;
            if lone {
                let conservative = window.judge(original, &p.layers, true).gains[i];
                if conservative < MARGIN {
                    return (p, conservative);
                }
            }
            (p, gain)
        })
        .collect()
}

/// `line` with `proposals` (sorted, not overlapping) made, and where each
/// one's text starts in it.
pub(crate) fn apply(line: &str, proposals: &[Proposal]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(line.len());
    let mut starts = Vec::with_capacity(proposals.len());
    let mut last = 0;
    for p in proposals {
        out.push_str(&line[last..p.range.start]);
        starts.push(out.len());
        out.push_str(p.after());
        last = p.range.end;
    }
    out.push_str(&line[last..]);
    (out, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` garbled `depth` times through `via`.
    pub(crate) fn garble(text: &str, via: Via, depth: usize) -> String {
        let mut s = text.to_owned();
        for _ in 0..depth {
            s = via.charset().decode(s.as_bytes()).0.into_owned();
        }
        s
    }

    fn repair(line: &str) -> String {
        let mut out = line.to_owned();
        for e in repair_text(line).0.into_iter().rev() {
            out.replace_range(e.range, &e.after);
        }
        out
    }

    /// [`runs_ending`] by its definition, an encoding at a time: the
    /// encodings in which, at a character that is no sequence alone, the
    /// bytes from some unit boundary on (units all, [`CharClass::unit`])
    /// are sequences of a lead byte and as many continuation bytes as it
    /// needs, or ASCII, and end there.
    fn runs_ending_by_definition(stretch: &str) -> u16 {
        let well_formed = |bytes: &[u8]| {
            let mut need = 0;
            for &b in bytes {
                need = match (need, b) {
                    (0, 0x00..=0x7F) => 0,
                    (0, 0xC2..=0xDF) => 1,
                    (0, 0xE0..=0xEF) => 2,
                    (0, 0xF0..=0xF4) => 3,
                    (n, 0x80..=0xBF) if n > 0 => n - 1,
                    _ => return false,
                };
            }
            need == 0
        };
        let chars: Vec<char> = stretch.chars().collect();
        let mut ending = 0;
        for via in Via::ALL {
            let bit = 1 << via.index();
            let bytes = |c: char| {
                let mut buf = [0; 4];
                let len = via.encode(c, &mut buf).filter(|_| buf[0] >= 0x80)?;
                Some(buf[..len].to_vec())
            };
            for end in 0..chars.len() {
                let alone = bytes(chars[end]).is_some_and(|b| b.len() == 2 && well_formed(&b));
                let ends = (0..=end).any(|start| {
                    let units: Option<Vec<Vec<u8>>> =
                        chars[start..=end].iter().map(|&c| bytes(c)).collect();
                    units.is_some_and(|units| well_formed(&units.concat()))
                });
                if ends && !alone {
                    ending |= bit;
                }
            }
        }
        ending
    }

    proptest::proptest! {
        #[test]
        fn chains_end_as_defined(
            text in proptest::collection::vec(
                proptest::sample::select("éÃ©â€™ÐÑƒРџСЂ關的時讀取它目錄樹”，。ёΩαšœ€�".chars().collect::<Vec<_>>()),
                1..12,
            ),
        ) {
            let text: String = text.into_iter().collect();
            proptest::prop_assert_eq!(runs_ending(&text), runs_ending_by_definition(&text), "{}", text);
        }
    }

    #[test]
    fn each_encoding_is_at_its_index() {
        for (i, via) in Via::ALL.into_iter().enumerate() {
            assert_eq!(via.index(), i, "{via:?}");
        }
    }

    #[test]
    fn reverse_tables_cover_the_high_half() {
        assert_eq!(reverse_table(Via::Windows1251).len(), 128);
        // windows-1252's 128 characters and the 27 C1 controls it maps elsewhere.
        assert_eq!(reverse_table(Via::Windows1252).len(), 128 + 27);
        let mut buf = [0; 4];
        assert_eq!(Via::Windows1252.encode('\u{81}', &mut buf), Some(1));
        assert_eq!(Via::Windows1252.encode('\u{80}', &mut buf), Some(1));
        assert_eq!(buf[0], 0x80);
        assert_eq!(Via::ShiftJis.encode('日', &mut buf), Some(2));
        assert_eq!(Via::Gbk.encode('한', &mut buf), None);
    }

    #[test]
    fn the_encoded_table_is_the_encoders() {
        let mut tabled = [0; 4];
        let mut uncached = [0; 4];
        for via in Via::ALL {
            for c in (0..0x11000).filter_map(char::from_u32) {
                let len = via.encode(c, &mut tabled);
                assert_eq!(len, via.encode_uncached(c, &mut uncached), "{via:?} {c:?}");
                let n = len.unwrap_or(0);
                assert_eq!(tabled[..n], uncached[..n], "{via:?} {c:?}");
            }
        }
    }

    #[test]
    fn peels_layers() {
        assert_eq!(peel(Via::Windows1252, "ÃƒÂ©").as_deref(), Some("Ã©"));
        assert_eq!(peel(Via::Windows1252, "plain"), None);
    }

    #[test]
    fn repairs_common_mojibake() {
        for (text, via, depth) in [
            ("Le café est très chaud, n’est-ce pas ?", Via::Windows1252, 1),
            ("Le café est très chaud, n’est-ce pas ?", Via::Windows1252, 2),
            ("Привет, как дела? Всё хорошо.", Via::Windows1251, 1),
            ("日本語の文字コードを判定します。", Via::Windows1252, 1),
            ("Grüße aus Köln, schöne Straße", Via::Macintosh, 1),
            ("Zażółć gęślą jaźń, mówią w Łodzi.", Via::Windows1250, 1),
            ("Příliš žluťoučký kůň úpěl ďábelské ódy.", Via::Iso8859_2, 1),
            ("Съешь же ещё этих мягких французских булок.", Via::Koi8R, 1),
            ("Ελληνικά κείμενα εδώ και τώρα.", Via::Windows1253, 1),
            ("Ελληνικά γράμματα και λέξεις.", Via::Iso8859_7, 1),
            ("שלום עולם, מה שלומך היום?", Via::Windows1255, 1),
            ("Ąžuolas ir ėglė auga prie kelio.", Via::Windows1257, 1),
            ("Le café crème, déjà vu à la façade.", Via::Ibm437, 1),
            ("Größe und Übermaß, das Café am Meer", Via::Ibm850, 1),
        ] {
            let garbled = garble(text, via, depth);
            assert_ne!(garbled, text);
            assert_eq!(repair(&garbled), text, "{via:?} ×{depth}: {garbled}");
        }
        // A word of three letters reading as one symbol stands by chance
        // (`Ôôô` is `E2 93 93` in IBM850, `ⓓ`).
        assert_eq!(repair("Ôôô VIDA MINHA"), "Ôôô VIDA MINHA");
    }

    #[test]
    fn c1_controls_and_undefined_bytes() {
        // "Á" is C3 81; windows-1252 leaves 0x81 undefined, so it reads as U+0081.
        let garbled = garble("Árvíztűrő tükörfúrógép", Via::Windows1252, 1);
        assert!(garbled.contains('\u{81}'));
        assert_eq!(repair(&garbled), "Árvíztűrő tükörfúrógép");
        // ISO-8859-1 reads 0x80–0x9F as C1 controls: "’" (E2 80 99) as "â\u{80}\u{99}".
        let edits = repair_text("it\u{E2}\u{80}\u{99}s fine").0;
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].after, "’");
        assert_eq!(edits[0].cause.to_string(), "UTF-8 read as ISO-8859-1");
        // windows-1252 bytes read as ISO-8859-1, with no UTF-8 to undo.
        let line = "\u{84}Handwerk bringt dich \u{fc}berall hin\u{93}: Von der YOU bis nach Monaco";
        assert_eq!(repair(line), "„Handwerk bringt dich überall hin“: Von der YOU bis nach Monaco");
        let edits = repair_text(line).0;
        assert_eq!(
            edits[0].cause,
            Cause::C1Control { bytes: Charset::Windows1252, guessed: false }
        );
        // Beside mojibake, and undefined bytes left alone.
        assert_eq!(
            repair("ok \u{e2}\u{80}\u{9c}senza modifiche\u{94} qui"),
            "ok “senza modifiche” qui"
        );
        assert!(repair_text("x \u{81} y").0.is_empty());
    }

    #[test]
    fn c1_controls_of_macroman_text_are_its_letters() {
        // MacRoman's small accented letters are its bytes 0x87–0x9F: Spanish
        // from a Mac read as ISO-8859-1 (0x92 `í`, 0x87 `á`, 0x96 `ñ`).
        for (garbled, text) in [
            (
                "Llegaron al puerto en un autobus tur\u{92}stico desde la capital.",
                "Llegaron al puerto en un autobus turístico desde la capital.",
            ),
            ("El gu\u{92}a habl\u{97} con el capit\u{87}n.", "El guía habló con el capitán."),
            (
                "Habitantes de Coatl\u{87}n conf\u{92}an en el edil",
                "Habitantes de Coatlán confían en el edil",
            ),
            ("El ni\u{96}o y la ni\u{96}a", "El niño y la niña"),
        ] {
            assert_eq!(repair(garbled), text);
            let edits = repair_text(garbled).0;
            assert_eq!(
                edits[0].cause,
                Cause::C1Control { bytes: Charset::Macintosh, guessed: false }
            );
        }
        // A line's controls are one encoding's bytes, the one that reads best:
        // windows-1252's quotes here, not MacRoman's `ì…î`.
        assert_eq!(repair("Dijo \u{93}ma\u{f1}ana\u{94} y se fue."), "Dijo “mañana” y se fue.");
        // A control standing alone may be meant: it is no MacRoman letter.
        let meant = "These control characters \u{1a} are apparently intentional \u{81}";
        assert!(repair_text(meant).0.is_empty());
    }

    #[test]
    fn no_break_spaces_turned_into_spaces() {
        // `à` is C3 A0: `Ã` and a no-break space, which became a space.
        for text in [
            "Voilà tout, il est prêt à partir.",
            "Voilà, dit-il.",
            "Рано утром, до рассвета",
            "למנשק הדפדפן נא להשתמש",
        ] {
            let garbled = garble(text, Via::Windows1252, 1).replace('\u{A0}', " ");
            assert!(garbled.contains("Ã ") || garbled.contains("Ð ") || garbled.contains("× "));
            assert_eq!(repair(&garbled), text, "{garbled}");
        }
        // With a space after it collapsed into that one, the space may be
        // the word break after `à` too: the more plausible reading wins,
        // words of one letter weighed as words (`à` is one in Portuguese,
        // `s` is not; Catalan has no `à` alone).
        for text in [
            "Il est à la maison, prêt à partir.",
            "Šiame lange rasite visą sąrašą.",
            "Com especial atenção às crianças e à família.",
            "Aquesta àrea és petita però útil, també per a vós.",
        ] {
            let collapsed =
                garble(text, Via::Windows1252, 1).replace("\u{A0} ", " ").replace('\u{A0}', " ");
            assert_eq!(repair(&collapsed), text, "{collapsed}");
        }
        // `Ã  ` (two spaces) shows that nothing collapsed: every space after
        // `Ã` is then the rest of `à`, inside a word too.
        let text = "La màquina serà més ràpida.";
        let garbled = garble(text, Via::Windows1252, 1).replace('\u{A0}', " ");
        assert_eq!(LostSpaces::of(&garbled, Via::Windows1252), LostSpaces::Kept);
        assert_eq!(repair(&garbled), text, "{garbled}");
        let text = "A MINHA IRMÃ DE SÃO PAULO";
        assert_eq!(LostSpaces::of(text, Via::Windows1252), LostSpaces::MaybeCollapsed);
    }

    #[test]
    fn bytes_lost_as_u_fffd_or_question_marks() {
        // A decoder that replaced the bytes windows-1252 leaves undefined
        // with U+FFFD: `”` (E2 80 9D) as `â€�`, `č` (C4 8D) as `Ä�`, `с`
        // (D1 81) as `Ñ�`, `き` (E3 81 8D) as `ã��`.
        // Or a store that could not hold U+FFFD wrote `?` for each.
        // (A U+FFFD for a letter the models can hardly tell stays one: the
        // `き` that starts a line could as well be `く` or `そ`.)
        for (text, unguessed) in [
            ("He said “hello” and left.", None),
            ("Přijdu zítra večer.", None),
            ("Всё хорошо, спасибо за помощь.", None),
            ("きのうは雨でした。", Some("\u{FFFD}のうは雨でした。")),
        ] {
            let garbled = garble(text, Via::Windows1252, 1);
            for mark in ["\u{FFFD}", "?"] {
                let lost = garbled.replace(UNDEFINED, mark);
                assert!(lost.contains(mark), "{text}");
                let want = unguessed.filter(|_| mark == "\u{FFFD}").unwrap_or(text);
                assert_eq!(repair(&lost), want, "{lost}");
            }
        }
        for lost in ["He said â€œhelloâ€\u{FFFD} and left.", "He said â€œhelloâ€? and left."]
        {
            let edits = repair_text(lost).0;
            assert!(edits
                .iter()
                .any(|e| e.cause.to_string().ends_with("its undefined bytes lost (guessed)")));
        }
        // A U+FFFD or question mark that completes nothing is left, and so
        // are question marks after letters that would complete one only
        // by chance.
        for clean in [
            "Plain text with \u{FFFD} in it, café.",
            "Est-ce que tu viens à la fête, ou bien à la maison de René?",
            "Ты где? Я здесь?? Что??? Всё?",
            "QUEM É A MINHA IRMÃ? ONDE ESTÁ?",
        ] {
            assert!(repair_text(clean).0.is_empty(), "{clean}");
        }
    }

    #[test]
    fn a_lost_letter_the_models_cannot_tell_stays_u_fffd() {
        // The `с` of `български` lost (`Ñ\u{FFFD}`): `я` reads a bit better,
        // so neither is written. Both of `Русский`'s, 5 and 10 bits ahead,
        // are. (ftfy's language names.)
        assert_eq!(repair("Ð±ÑŠÐ»Ð³Ð°Ñ€Ñ\u{FFFD}ÐºÐ¸ ÐµÐ·Ð¸Ðº"), "българ\u{FFFD}ки език");
        assert_eq!(repair("Ð ÑƒÑ\u{FFFD}Ñ\u{FFFD}ÐºÐ¸Ð¹"), "Русский");
        // Punctuation is written whatever the margin: it may be a layer of
        // deeper mojibake (`â€\u{FFFD}` read `”` in `â”’`, `┒`).
        assert_eq!(repair("Ã¢â€\u{FFFD}â€™(Ã¢Å’Â£)"), "┒(⌣)");
    }

    #[test]
    fn bytes_dropped() {
        // Undefined bytes dropped (C1 controls stripped): `”` (E2 80 9D) as
        // `â€`, in a line with other mojibake and alone.
        for text in ["He said “hello” and left.", "She said “yes” to me."] {
            let dropped = garble(text, Via::Windows1252, 1).replace(UNDEFINED, "");
            assert_eq!(repair(&dropped), text, "{dropped}");
        }
        let edits = repair_text("She said yesâ€ to me.").0;
        assert_eq!(edits.len(), 1);
        assert!(edits[0].cause.to_string().ends_with("its undefined bytes lost (guessed)"));
        // `â¤ï¸` is `❤️` (E2 9D A4, EF B8 8F) with two bytes dropped, or
        // `⍤` (E2 8D A4) and another selector: the models cannot tell
        // symbols they never saw apart, and a tie leaves the text.
        assert!(repair_text("I love it â¤ï¸ so much").0.is_empty());
        // A lone lead byte is no evidence of a dropped byte.
        assert!(repair_text("Ãfrica e Ãsia são continentes").0.is_empty());
    }

    #[test]
    fn a_slot_is_weighed_near_it_with_whole_runs() {
        let line = format!("{}é{}", "a".repeat(99), "b".repeat(100));
        let outer = 0..line.len();
        // `SLOT_NEAR` bytes each side, at character boundaries.
        assert_eq!(SLOT_NEAR, 24);
        assert_eq!(near_slot(&line, 99..101, outer.clone(), [].iter()), 75..125);
        assert_eq!(near_slot(&line, 126..127, outer.clone(), [].iter()), 102..151);
        assert_eq!(near_slot(&line, 124..125, outer.clone(), [].iter()), 99..149);
        assert_eq!(near_slot(&line, 75..76, outer.clone(), [].iter()), 51..101);
        // Widened to the runs that cross an edge, and to those they reach.
        let runs = [70..80, 60..72, 120..130];
        assert_eq!(near_slot(&line, 99..101, outer, runs.iter()), 60..130);
        // Never beyond the outer window.
        assert_eq!(near_slot(&line, 99..101, 80..110, [].iter()), 80..110);
    }

    #[test]
    fn repairs_short_of_their_margin_are_possible() {
        let line = "``hogwarts nao existe, voce nao vai pegar o trem pra l\u{E1}\u{B4}\u{B4}";
        let (made, possible) = repair_text(line);
        assert!(made.is_empty());
        let [p] = &possible[..] else { panic!("{possible:?}") };
        assert_eq!((&line[p.range.clone()], p.after.as_str()), ("\u{E1}\u{B4}\u{B4}", "\u{1D34}"));
        assert!((POSSIBLE..0.5).contains(&p.confidence), "{}", p.confidence);
        // Clean text has none; a repair made is not also possible.
        assert_eq!(
            repair_text("Le caf\u{E9} est chaud, d\u{E9}j\u{E0}."),
            (Vec::new(), Vec::new())
        );
        let (made, possible) = repair_text("Le caf\u{C3}\u{A9} \u{C3}\u{A9}tait bon");
        assert_eq!((made.len(), possible.len()), (2, 0));
    }

    #[test]
    fn the_text_around_runs_is_their_windows() {
        let far = format!("{}é{}ü{}", "a".repeat(40), "b".repeat(60), "c".repeat(40));
        let (e, u) = (far.find('é').unwrap(), far.find('ü').unwrap());
        let runs = [(e..e + 2, "E".to_owned()), (u..u + 2, "U".to_owned())];
        let (as_is, undone) = around(&far, &runs);
        let context = |c: &str| c.repeat(score::CONTEXT);
        let (a, b, c) = (context("a"), context("b"), context("c"));
        assert_eq!(as_is, format!("{a}é{b} {b}ü{c}"));
        assert_eq!(undone, format!("{a}E{b} {b}U{c}"));
        // Windows that meet are one; a short line is itself.
        let near = "xé yü z";
        let runs = [(1..3, "E".to_owned()), (5..7, "U".to_owned())];
        assert_eq!(around(near, &runs), (near.to_owned(), "xE yU z".to_owned()));
    }

    #[test]
    fn a_glance_spares_most_clean_lines() {
        assert!(!worth_reading("Выводит содержимое файла на стандартный вывод"));
        assert!(!worth_reading("Příliš žluťoučký kůň úpěl ďábelské ódy"));
        assert!(!worth_reading("Tiếng Việt có dấu"));
        // `ві` is `E2 B3` in windows-1251, a run that `р` (`F0`) does not
        // go on; `Ві` is `C2 B3`, one that ends, but glued inside a word of
        // its alphabet and read as none of it (`³`): chance whatever is
        // around, as the reading would find. Mojibake of Cyrillic is read.
        assert!(!worth_reading("вірить історії"));
        assert!(!worth_reading("Віра"));
        assert!(worth_reading("РџСЂРёРІРµС‚"));
        // A slot after a lead byte, a C1 control, a run of two letters.
        for line in ["Fuß und", "x\u{85}y", "её", "cafÃ©"] {
            assert!(worth_reading(line), "{line}");
        }
    }

    #[test]
    fn a_glance_settles_the_chance_runs_of_chinese_text() {
        // Each has characters that are a UTF-8 sequence alone in GBK:
        // `使` (`ʹ`) before `用`; `时` (`ʱ`, no letter) before a comma, the
        // nearest letter after it `请`; `系统` (`ϵͳ`) after `到`; `图片`
        // after digits and before `来`.
        for line in ["使用说明", "在压缩时，请稍候", "已经达到系统上限", "451 图片来源"]
        {
            assert!(!worth_reading(line), "{line}");
            assert_eq!(suspects(line), 0, "{line}");
        }
        // Where the nearest letter after is in a run of its own (`没` after
        // `系,`), or the one before is (`示` before `,透`), they are read.
        for line in ["靠关系,没出息", "表示,透过十二"] {
            assert!(worth_reading(line), "{line}");
        }
    }

    #[test]
    fn groups_without_a_lead_byte_that_goes_on_are_not_read() {
        let starts =
            |line: &str| groups(line).iter().any(|g| may_start_a_run(line, g, Via::Windows1252));
        assert!(!starts("Příliš žluťoučký kůň"));
        for line in ["cafÃ© crÃ¨me", "á šel", "â€?", "Ã\u{FFFD}", "x\u{E9}\u{201C}"] {
            assert!(starts(line), "{line}");
        }
    }

    #[test]
    fn ascii_runs_end_at_the_first_byte_above_0x7f() {
        for len in 0..40 {
            let mut bytes = vec![b'a'; len];
            assert_eq!(ascii_run(&bytes), len);
            for at in 0..len {
                bytes[at] = 0xC3;
                assert_eq!(ascii_run(&bytes), at, "{len} {at}");
                bytes[at] = b'a';
            }
        }
    }

    #[test]
    fn runs_chance_makes_in_clean_text_are_not_weighed() {
        let kept = |via: Via, line: &str| {
            let runs = encodable_runs(via, line);
            assert!(!runs.is_empty(), "{via:?} {line}");
            without_stray_readings(line, runs).len()
        };
        // GBK `CA B9` of 使 and `D6 A4` of 证 are UTF-8 (`ʹ`, `֤`) among
        // ideographs; so is KOI8-R `щё` (U+0323) inside a Russian word.
        assert_eq!(kept(Via::Gbk, "采取这些措施使用户的证书有效"), 0);
        assert_eq!(kept(Via::Gbk, "如果 es 指明要删除"), 0);
        assert_eq!(kept(Via::Koi8R, "ещё раз"), 0);
        // Windows-1251 `Ві` (`C2 B3`) is `³` inside a Ukrainian word, while
        // mojibake cut inside a word reads as letters of the rest of it.
        assert_eq!(kept(Via::Windows1251, "Він сказав"), 0);
        assert_eq!(kept(Via::Windows1251, "РџСЂивет"), 1);
        // Mojibake stays a run: `é` after an ASCII letter, and Arabic read
        // as GBK, whose words are runs with runs beside them.
        assert_eq!(kept(Via::Gbk, "caf茅 au lait"), 1);
        assert_eq!(kept(Via::Gbk, "丕賱毓乇亘賷丞 賱睾丞"), 2);
        // Cut in the middle of a word, the rest in its alphabet: `Ø¨` (ب)
        // before `روفايلين`.
        assert_eq!(kept(Via::Windows1252, "Ø¨روفايلين"), 1);
        // One ideograph read beside ideographs that stay (Shift_JIS `關的`
        // is `萓I`), and a word read as an ideograph amid words of its
        // alphabet (windows-1251 `дії` is `䳿`).
        assert_eq!(kept(Via::ShiftJis, "開啟相關的選項"), 0);
        assert_eq!(kept(Via::Windows1251, "для дії програми"), 0);
        // Mojibake of Chinese beside Chinese that stays is CJK text, and
        // `Îš` (`Ί`) between English words is no word of its alphabet.
        assert_eq!(kept(Via::Gbk, "中文：浣犲ソ"), 1);
        assert_eq!(kept(Via::Windows1252, "the Îš index"), 1);
    }

    #[test]
    fn no_break_spaces_turned_into_spaces_in_other_encodings() {
        // `Р` is D0 A0, `à` C3 A0: in windows-1251 `Р` and `Г` before a
        // no-break space; in windows-1250 `à` is `Ă` before one.
        for (text, via) in [
            ("Россия и Русский язык", Via::Windows1251),
            ("Российская Федерация", Via::Windows1251),
            ("La région se trouve à l’ouest de l’Ukraine", Via::Windows1251),
            ("It was named\u{A0}„scars´ stones“ after it.", Via::Windows1250),
        ] {
            let garbled = garble(text, via, 1).replace('\u{A0}', " ");
            assert_eq!(repair(&garbled), text, "{garbled}");
            let collapsed = garble(text, via, 1).replace("\u{A0} ", " ").replace('\u{A0}', " ");
            assert_eq!(repair(&collapsed), text, "{collapsed}");
        }
        // Only in a line that shows mojibake through that encoding: the
        // capitals of clean Russian text before a space are lead bytes
        // there (`В ` is `C2 A0`, a no-break space).
        for line in ["В Москве и С Петербургом", "В Москве сегодня С…РѕСЂРѕС€Р°СЏ погода"]
        {
            assert!(repair(line).starts_with("В Москве"), "{line}");
        }
    }

    #[test]
    fn a_word_that_goes_on_in_another_script_by_a_lost_space_is_chance() {
        let runs = |line: &str, lost| {
            spaced_runs(line, Via::Windows1252, &groups(line), lost)
                .into_iter()
                .map(|(_, f)| f)
                .collect::<Vec<_>>()
        };
        // `též ` is `E9 9E A0` (`鞠`) with the space read as a no-break
        // space; `virtuální” ` ends in `픠`, `ŘÍZENÍ ` in U+0360.
        for line in ["je též možné", "Váš shell", "oddíly “virtuální” na", "ŘÍZENÍ PAMĚTI"]
        {
            for lost in [LostSpaces::Kept, LostSpaces::MaybeCollapsed] {
                assert_eq!(runs(line, lost), Vec::<String>::new(), "{line}");
            }
            assert_eq!(repair(line), line);
        }
        // Mojibake of a Latin letter (`à`) after a Latin word stays a run,
        assert_eq!(runs("voilÃ la", LostSpaces::MaybeCollapsed), ["à"]);
        // and so does an ideograph after one where another run reads as
        // CJK (`你` is `E4 BD A0`).
        let garbled = garble("Linux你 是", Via::Windows1252, 1).replace('\u{A0}', " ");
        assert_eq!(runs(&garbled, LostSpaces::Kept), ["你", "是"]);
    }

    #[test]
    fn repairs_that_vouch_for_each_other_gain_no_more_than_their_line() {
        // Norwegian capitals: `ÅØ` is `C5 A8` in windows-1257, `Ũ`, and
        // each stretch judged with the other made reads as Vietnamese.
        // The line as it stands reads as well in Norwegian as the "repair"
        // does in Vietnamese, so neither is made.
        for line in ["SKÅØYA OG BLÅØYD", "BLÅØYD OG BLÅØYD IGJEN"] {
            assert_eq!(repair(line), line);
        }
        // Mojibake throughout gains as a whole what it gains in part.
        let garbled = garble("Håøya og Tråøya i Oslofjorden", Via::Windows1252, 1);
        assert_eq!(repair(&garbled), "Håøya og Tråøya i Oslofjorden");
    }

    #[test]
    fn a_repair_made_in_a_line_vouches_for_the_others_of_its_encoding() {
        // Correct Vietnamese beside mojibake: the text left as it is
        // raises the margin, which `Ã­` clears and `Ã£`, `Ã©` alone do not.
        let line = "Thành phố: SÃ£o TomÃ© và PrÃ\u{AD}ncipe";
        assert_eq!(repair(line), "Thành phố: São Tomé và Príncipe");
    }

    #[test]
    fn a_repair_to_a_letter_no_text_showed_needs_more_evidence() {
        // Line art through IBM437: `┼┐` is `C5 BF`, the long s `ſ`, which
        // no language of the models writes.
        for line in ["┤e┼┐e┼┐e┼┐e", "│x┼┐y┼┐z│"] {
            assert_eq!(repair(line), line);
        }
        // Mojibake of text that writes it is still repaired.
        let text = "Die Wahrheit ſagt er, daß es ſo ſey.";
        assert_eq!(repair(&garble(text, Via::Windows1252, 1)), text);
    }

    #[test]
    fn a_word_closed_by_punctuation_is_not_one_letter_of_another_script() {
        // `ë…”` is `EB 85 94` in windows-1252, the Hangul syllable `녔`.
        for line in ["Brontë…” is great", "Charlotte Brontë…” 5×£35", "a naïve “Zoë” here"]
        {
            assert_eq!(repair(line), line);
        }
        // A letter that is not right after a Latin letter, or punctuation
        // that does not close a word, is weighed as before.
        let closes = |line: &str, fixed: &str| {
            let start = line.find('ë').unwrap_or_default();
            closes_a_word(line, &(start..line.find('”').unwrap_or_default() + 3), fixed)
        };
        assert!(closes("Bontë…” s", "녔"));
        assert!(!closes("x ë…” y", "녔"));
        assert!(!closes("Bontë…”s", "녔"));
        assert!(!closes("Bontë…” s", "é"));
    }

    /// Characters that make or end UTF-8 in the encodings' bytes: letters
    /// of the scripts they write, their punctuation and symbols, C1
    /// controls, U+FFFD, and the ASCII a slot reads (`?`, space).
    const PIECES: &str = "aZ ?? 1.é»àÃÂâ€™œ©«ßœŠ\u{A0}\u{81}\u{9D}\u{85}\u{FFFD}\
        ёщЁРСПрстТЖ»«–—№ΕΘαώÅÄÖåäöŁąęŚЯ╣▒░ÇüÉ文字使证书有效一路ウィキ鏂囧瓧偽ｱ縺";

    /// What [`suspects`] promises: an encoding it leaves out finds no run.
    fn assert_covered(line: &str) {
        let (suspects, groups) = (suspects(line), groups(line));
        for via in Via::ALL.into_iter().filter(|via| suspects >> via.index() & 1 == 0) {
            for lost in [LostSpaces::Kept, LostSpaces::MaybeCollapsed] {
                let runs = runs_in(line, via, &groups, lost);
                assert!(runs.is_empty(), "{via:?} {line:?}: {runs:?}");
            }
        }
    }

    #[test]
    fn suspects_cover_every_encoding_with_runs() {
        let pieces: Vec<char> = PIECES.chars().collect();
        // Every pair and triple of pieces, plain and garbled once and twice.
        let mut lines = Vec::new();
        for &a in &pieces {
            for &b in &pieces {
                lines.push(format!("{a}{b}"));
                lines.extend(pieces.iter().step_by(11).map(|&c| format!("x{a}{b}{c} ")));
            }
        }
        for line in lines {
            assert_covered(&line);
            for via in Via::ALL {
                assert_covered(&garble(&line, via, 1));
            }
            assert_covered(&garble(&line, Via::Windows1252, 2));
        }
    }

    /// Pieces of Chinese text whose GBK bytes are UTF-8 by chance, alone or
    /// with the next character, with punctuation, spaces and other letters.
    const CJK_PIECES: &str = "时目录路使一证要支的马打开，。（） a1ЯéÃ©图片学校系统透过没、!";

    proptest::proptest! {
        #[test]
        fn suspects_cover_cjk_lines(picks in proptest::collection::vec(0usize..1024, 0..72)) {
            let pieces: Vec<char> = CJK_PIECES.chars().collect();
            let line: String = picks.iter().map(|&k| pieces[k % pieces.len()]).collect();
            assert_covered(&line);
        }

        #[test]
        fn suspects_cover_any_mix(picks in proptest::collection::vec(0usize..1024, 0..24), via in 0usize..11) {
            let pieces: Vec<char> = PIECES.chars().collect();
            let line: String = picks.iter().map(|&k| pieces[k % pieces.len()]).collect();
            assert_covered(&line);
            assert_covered(&garble(&line, Via::ALL[via], 1));
        }
    }

    #[test]
    fn most_clean_text_is_suspected_in_no_encoding() {
        assert_eq!(suspects("naïve café, São Paulo, die Straße"), 0);
        // `ß»` is UTF-8 in windows-1252 (`DF BB`), and `ß ` may be `ß` and a
        // no-break space that became a space.
        let bits = |vias: &[Via]| vias.iter().fold(0, |m, v| m | 1 << v.index());
        assert_eq!(
            suspects("«Fuß»"),
            bits(&[Via::Windows1252, Via::Windows1250, Via::Windows1257])
        );
        assert_eq!(suspects("Fuß und"), 1 << Via::Windows1252.index());
        // `é` (`E9`) needs two more bytes: a no-break space and a
        // continuation byte, which `é` is not.
        assert_eq!(suspects("café écrit"), 0);
        assert_ne!(suspects("café “écrit”") & 1 << Via::Windows1252.index(), 0);
        assert_eq!(suspects("Это был первый раз"), 0);
        // `щё` is UTF-8 in KOI8-R, read as an Arabic letter glued to `е`:
        // chance wherever it is. `сё` reads as `ӣ`, a Cyrillic letter.
        assert_eq!(suspects("ещё раз"), 0);
        assert_eq!(suspects("всё равно"), 1 << Via::Koi8R.index());
        // `Ві` is `³` in windows-1251, glued to `н`; `Ві` alone is not.
        assert_eq!(suspects("Він сказав"), 0);
        assert_eq!(suspects("Ві сказав"), 1 << Via::Windows1251.index());
        // So is GBK `變` (`D7 83`, Hebrew `׃`) glued to `個` and `數`:
        // ideographs are one alphabet whatever their blocks.
        let line =
            "58 用於終止增量的搜尋，不再將字元當作命令執行的字串。如果這個變數沒有賦值，字串 Esc";
        assert_eq!(suspects(line), 0);
        // `ô` (`F4`) needs three more bytes: `ž` and a dropped byte are
        // two. `í“` (`ED 93`) may have lost one between them.
        assert_eq!(suspects("môže byť"), 0);
        assert_eq!(suspects("slovo „ahoj“ a"), 0);
        assert_eq!(suspects("nastavení“ na"), 1 << Via::Windows1252.index());
        // Shift_JIS `關的` (`E9 97 93 49`) is `萓I`, a letter beside
        // ideographs of other blocks.
        assert_eq!(suspects("這是關的問題") & 1 << Via::ShiftJis.index(), 0);
        // Mojibake of Cyrillic read as windows-1251 reads as its letters.
        assert_ne!(suspects("РџСЂРёРІРµС‚") & 1 << Via::Windows1251.index(), 0);
        assert_ne!(suspects("cafÃ© crÃ¨me") & 1 << Via::Windows1252.index(), 0);
        assert_ne!(suspects("\u{84}Handwerk\u{93}") & 1 << Via::Windows1252.index(), 0);
        assert_ne!(suspects("鏂囧瓧") & 1 << Via::Gbk.index(), 0);
        // GBK `D6 A4` of 证 is UTF-8 on its own (U+05A4, a mark): beside
        // an ideograph, chance. `C2 B7` of 路 is `·`: chance between
        // ideographs, and after one at the end of a line.
        assert_eq!(suspects("用户的证书有"), 0);
        assert_eq!(suspects("用户的证"), 0);
        assert_eq!(suspects("马路上"), 0);
        assert_eq!(suspects("马路"), 0);
        // `要支` (`D2 AA D6 A7`) is `Ҫ` and a mark: chance beside `需`.
        assert_eq!(suspects("我们需要支持") & 1 << Via::Gbk.index(), 0);
        // The nearest letters count, past punctuation and spaces: `时`
        // (`CA B1`) is `ʱ`, no letter (a compatibility form). `目` (`C4 BF`)
        // is `Ŀ`, a Latin letter: not chance before an ASCII word.
        let gbk = |line: &str| suspects(line) & 1 << Via::Gbk.index() != 0;
        assert!(!gbk("打开时，它会"));
        assert!(!gbk("用（时）户"));
        assert!(gbk("（时）"));
        assert!(!gbk("打开时 bash"));
        assert!(!gbk("目 的"));
        assert!(gbk("目 x"));
        assert!(gbk("Я时"));
        assert!(gbk("bash 时 bash"));
        // A letter in another run is not one that stays.
        assert!(gbk("时，目"));
    }

    #[test]
    fn leaves_clean_text_alone() {
        for line in [
            "«Fuß» und Straße",
            "ВІЙСЬКО СІЧНЯ",
            "naïve café, São Paulo",
            "A MINHA IRMÃ DE SÃO PAULO",
            "中文字符编码检测",
            "ｶﾀｶﾅとひらがな",
        ] {
            assert!(repair_text(line).0.is_empty(), "{line}");
        }
    }

    #[test]
    fn long_lines_are_weighed_in_pieces_cut_in_ascii_text() {
        let short = "Déjà vu. ".repeat(100);
        assert_eq!(pieces(&short).collect::<Vec<_>>(), [(0, &short[..])]);
        // Cut between two ASCII characters where the text has such places,
        // else at character boundaries.
        for (line, in_ascii) in
            [("Déjà vu, café. ".repeat(3000), true), ("中文字符编码检测。".repeat(3000), false)]
        {
            let found: Vec<(usize, &str)> = pieces(&line).collect();
            assert!(found.len() > 1);
            let mut at = 0;
            for &(offset, piece) in &found {
                assert_eq!(offset, at);
                assert!(piece.len() >= PIECE && piece.len() <= 8 * PIECE, "{}", piece.len());
                at += piece.len();
            }
            assert_eq!(at, line.len());
            for &(offset, _) in found.iter().skip(1).filter(|_| in_ascii) {
                let (before, after) = (line.as_bytes()[offset - 1], line.as_bytes()[offset]);
                assert!(before.is_ascii() && after.is_ascii() && before != b' ', "{offset}");
            }
        }
    }

    #[test]
    fn mojibake_in_a_long_line_is_repaired_throughout() {
        let text = "Déjà vu, café crème, naïve façade. ".repeat(2000);
        assert!(text.len() > LONG_LINE);
        let garbled = garble(&text, Via::Windows1252, 1);
        assert_eq!(repair(&garbled), text);
    }

    #[test]
    fn symbol_pairs_standing_alone_are_weak_evidence() {
        // Each pair is one two-byte sequence in MacRoman or windows-1257.
        for line in ["Γ(1/2) = √π ≈ 1,772", "Δ = 3 ∆° / h", "Area: Āø 12"] {
            assert_eq!(repair(line), line);
        }
        // The same pairs inside a word, or a one-letter word among words,
        // are repaired.
        for text in ["Sarà più bello così", "Er weiß es", "il file è stato scritto"] {
            assert_eq!(repair(&garble(text, Via::Macintosh, 1)), text);
        }
    }
}
