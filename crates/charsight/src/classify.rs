//! Character classes shared by the detector's runtime and the table
//! generator (through `charsight::unstable`), so both classify alike.
//!
//! The class of every code point is a generated table (`gen-tables`, family
//! `classes`, from the Unicode data of the Rust standard library and of the
//! `unicode-properties` and `unicode-normalization` crates): one look-up in
//! two levels instead of a search per character.

use std::sync::OnceLock;

use charsight_tables::classes::{BLOCKS, BLOCK_BITS, BLOCK_INDEX};

/// What a code point is, as far as text plausibility cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Class {
    /// A letter of text: alphabetic, and not a compatibility form of another
    /// letter (`ª`, `º`, `µ`, `ⁿ`: their compatibility decomposition is not
    /// their canonical one), which text uses as a symbol (`1º`, `10 µm`).
    Letter = 0,
    /// A control character (general category Cc).
    Control = 1,
    /// An invisible format character (Cf), such as U+200B or U+2064.
    Format = 2,
    /// A private-use code point (Co).
    PrivateUse = 3,
    /// A code point with no character assigned (Cn), noncharacters included.
    Unassigned = 4,
    /// Anything else: marks, digits, punctuation, symbols, spaces and the
    /// alphabetic compatibility forms.
    Other = 5,
}

impl Class {
    /// Every class, in the order of their numbers (the generated table's).
    pub const ALL: [Class; 6] = [
        Class::Letter,
        Class::Control,
        Class::Format,
        Class::PrivateUse,
        Class::Unassigned,
        Class::Other,
    ];
}

/// The flag of a mark (general category M) in a code point's number in the
/// table, beside its class.
pub const MARK: u8 = 8;

/// The number of `c` in the generated table.
#[inline]
fn number(c: char) -> u8 {
    let c = c as usize;
    let block = usize::from(BLOCK_INDEX[c >> BLOCK_BITS]);
    BLOCKS[(block << BLOCK_BITS) | (c & ((1 << BLOCK_BITS) - 1))]
}

/// The class of `c`.
#[inline]
pub fn class(c: char) -> Class {
    Class::ALL[usize::from(number(c) & !MARK)]
}

/// Whether `c` is a mark (a combining character: general category Mn, Mc
/// or Me), whatever its class.
#[inline]
pub fn is_mark(c: char) -> bool {
    number(c) & MARK != 0
}

/// Whether `c` is a letter of text (the generator's rule too): see
/// [`Class::Letter`].
#[inline]
pub fn is_letter(c: char) -> bool {
    class(c) == Class::Letter
}

/// What a character is to the detector's language models when they have no
/// entry of their own for it: the rule the table generator and the runtime
/// both apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// Not text: a control character, a private-use character of the Basic
    /// Multilingual Plane or U+FFFD.
    Odd,
    /// A letter of text ([`is_letter`]).
    Letter,
    /// Anything else: digits, punctuation, symbols, spaces, marks.
    Symbol,
}

/// The [`TextKind`] of `c`.
#[inline]
pub fn text_kind(c: char) -> TextKind {
    match class(c) {
        Class::Control => TextKind::Odd,
        _ if ('\u{E000}'..='\u{F8FF}').contains(&c) || c == '\u{FFFD}' => TextKind::Odd,
        Class::Letter => TextKind::Letter,
        _ => TextKind::Symbol,
    }
}

/// Whether `c` belongs to CJK text: a Han ideograph (the unified ones, their
/// extensions and compatibility forms), kana, a Hangul syllable or jamo,
/// CJK punctuation, or a full-width or half-width form.
#[inline]
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'
        | '\u{2E80}'..='\u{2FDF}'
        | '\u{3000}'..='\u{303F}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3130}'..='\u{318F}'
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF00}'..='\u{FFEF}'
        | '\u{20000}'..='\u{3FFFF}')
}

/// Characters in a block of a [`CharTable`].
const TABLE_BLOCK: u32 = 128;

/// A value of every character made by a function, `of(c)`, looked up in a
/// table in the Basic Multilingual Plane: the table is made a block of
/// [`TABLE_BLOCK`] characters at a time, when a text first has one of them
/// (a short input pays for the few blocks it uses). Beyond the plane, the
/// value is made each time.
pub(crate) struct CharTable<T: 'static> {
    of: fn(char) -> T,
    blocks: [OnceLock<Box<[T]>>; 0x10000 / TABLE_BLOCK as usize],
}

impl<T: Default> CharTable<T> {
    pub(crate) const fn new(of: fn(char) -> T) -> CharTable<T> {
        CharTable { of, blocks: [const { OnceLock::new() }; 0x10000 / TABLE_BLOCK as usize] }
    }

    /// The value of `c` in the table, in the Basic Multilingual Plane (a
    /// reference: the hottest loops read a few fields of large ones).
    pub(crate) fn get(&'static self, c: char) -> Option<&'static T> {
        let u = u32::from(c);
        let block = self.blocks.get((u / TABLE_BLOCK) as usize)?.get_or_init(|| {
            let start = u - u % TABLE_BLOCK;
            let of = |u| char::from_u32(u).map_or_else(T::default, self.of);
            (start..start + TABLE_BLOCK).map(of).collect()
        });
        Some(&block[(u % TABLE_BLOCK) as usize])
    }
}

impl<T: Copy + Default> CharTable<T> {
    /// The value of `c`.
    pub(crate) fn value(&'static self, c: char) -> T {
        self.get(c).copied().unwrap_or_else(|| (self.of)(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_characters() {
        for c in ['中', '𠀋', 'か', 'カ', 'ｶ', '한', 'ㄱ', '。', '，', '豈'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'é', 'Ж', 'λ', 'ʹ', '֤', '—', '€', '\u{FFFD}'] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn a_char_table_gives_each_character_its_value() {
        static NEXT: CharTable<u32> = CharTable::new(|c| u32::from(c) + 1);
        for c in ['\0', 'a', '\u{7F}', '\u{80}', '中', '\u{D7FF}', '\u{E000}', '\u{FFFF}', '😀']
        {
            assert_eq!(NEXT.value(c), u32::from(c) + 1, "{c:?}");
            assert_eq!(NEXT.get(c).is_some(), c <= '\u{FFFF}', "{c:?}");
        }
    }

    #[test]
    fn classes_of_examples() {
        for (c, expected) in [
            ('a', Class::Letter),
            ('Ж', Class::Letter),
            ('中', Class::Letter),
            ('\u{93F}', Class::Letter), // Devanagari vowel sign i: alphabetic
            ('ª', Class::Other),
            ('µ', Class::Other),
            ('1', Class::Other),
            ('©', Class::Other),
            ('\u{85}', Class::Control),
            ('\u{200B}', Class::Format),
            ('\u{E000}', Class::PrivateUse),
            ('\u{10FFFD}', Class::PrivateUse),
            ('\u{378}', Class::Unassigned),
            ('\u{FFFF}', Class::Unassigned),
            ('\u{10FFFF}', Class::Unassigned),
            ('😀', Class::Other),
            ('𠀀', Class::Letter),
        ] {
            assert_eq!(class(c), expected, "{c:?} U+{:04X}", c as u32);
        }
        assert!(is_mark('\u{102C}') && class('\u{102C}') == Class::Letter); // Myanmar vowel sign aa
        assert!(is_mark('\u{301}') && !is_mark('a') && !is_mark('\u{1090}'));
    }
}
