//! Character unigram frequencies per language, from the generated table
//! `charsight_tables::charfreq`.
//!
//! A frequency is given as a *cost*: `-log2 p` quantised to eighths of a bit
//! (`charsight_tables::charfreq::STEPS_PER_BIT` steps a bit), where `p` is the probability of the
//! character among the non-ASCII characters of the language's text. Common
//! characters cost little (the ideographic full stop 。 about 5 bits in
//! Japanese), rare ones much; characters missing from the table cost the
//! language's [floor](CharFreq::floor). ASCII is not in the table: every
//! encoding this is used to compare reads it alike.
//!
//! The costs of a string add up to its negative log-likelihood under a
//! unigram model, so readings of the same bytes in different encodings can be
//! compared by their total cost.

use charsight_tables::charfreq::LANGS;
#[cfg(any(test, feature = "unstable"))]
use charsight_tables::charfreq::{CHARS, COSTS, FLOORS, PAIR_COSTS, PAIR_SECOND, PAIR_START};

/// The character frequencies of one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CharFreq {
    column: usize,
}

impl CharFreq {
    /// Every language with a table: ja, ko, zh-Hans, zh-Hant.
    pub const ALL: [CharFreq; 4] = [
        CharFreq { column: 0 },
        CharFreq { column: 1 },
        CharFreq { column: 2 },
        CharFreq { column: 3 },
    ];

    /// The table for a BCP 47 language tag, compared case-insensitively:
    /// `ja`, `ko`, `zh-Hans` (also `zh`, `zh-CN`, `zh-SG`), `zh-Hant` (also
    /// `zh-TW`, `zh-HK`, `zh-MO`); `None` for a language without one.
    pub fn for_language(tag: &str) -> Option<CharFreq> {
        let tag = tag.to_ascii_lowercase();
        let name = match tag.as_str() {
            "zh" | "zh-cn" | "zh-sg" | "zh-hans-cn" => "zh-Hans",
            "zh-tw" | "zh-hk" | "zh-mo" | "zh-hant-tw" | "zh-hant-hk" => "zh-Hant",
            _ => LANGS.iter().find(|l| l.eq_ignore_ascii_case(&tag))?,
        };
        LANGS.iter().position(|&l| l == name).map(|column| CharFreq { column })
    }

    /// The language's canonical tag (`ja`, `ko`, `zh-Hans`, `zh-Hant`).
    pub fn language(self) -> &'static str {
        LANGS[self.column]
    }

    /// The cost of `c`, or `None` when the language's text did not show it
    /// often enough to have one (and for ASCII).
    #[cfg(any(test, feature = "unstable"))]
    pub fn get(self, c: char) -> Option<u8> {
        self.cost_at(index(c)?)
    }

    #[cfg(any(test, feature = "unstable"))]
    /// The cost of the character at `index` (from [`index`]).
    pub(crate) fn cost_at(self, index: usize) -> Option<u8> {
        Some(COSTS[self.column][index]).filter(|&cost| cost != u8::MAX)
    }

    /// The cost of `c`, the [floor](CharFreq::floor) when it has none.
    #[cfg(any(test, feature = "unstable"))]
    pub fn cost(self, c: char) -> u8 {
        self.get(c).unwrap_or(self.floor())
    }

    /// The joint cost of `first` directly followed by `second` (both
    /// non-ASCII), or `None` when the pair is not among the language's
    /// commonest (about 12,000 per language). The cost of `second` given
    /// `first` is this minus the cost of `first`.
    #[cfg(any(test, feature = "unstable"))]
    pub fn pair(self, first: char, second: char) -> Option<u8> {
        self.pair_at(index(first)?, second)
    }

    #[cfg(any(test, feature = "unstable"))]
    /// The joint cost of the character at `first` (an [`index`]) followed by
    /// `second`.
    pub(crate) fn pair_at(self, first: usize, second: char) -> Option<u8> {
        let starts = PAIR_START[self.column];
        let range = usize::from(starts[first])..usize::from(starts[first + 1]);
        let at = PAIR_SECOND[self.column][range.clone()].binary_search(&u32::from(second)).ok()?;
        Some(PAIR_COSTS[self.column][range.start + at])
    }

    #[cfg(any(test, feature = "unstable"))]
    /// The cost of a character the table does not have: half the probability
    /// of a character seen once in the training text. Every cost in the
    /// table is below it.
    pub fn floor(self) -> u8 {
        FLOORS[self.column]
    }
}

#[cfg(any(test, feature = "unstable"))]
/// Where `c` is in the table (the same place for every language), for the
/// `*_at` lookups that skip searching again.
pub(crate) fn index(c: char) -> Option<usize> {
    let code = u32::from(c);
    match bmp_index().get(code as usize) {
        Some(&slot) => usize::from(slot).checked_sub(1),
        None => CHARS.binary_search(&code).ok(),
    }
}

#[cfg(any(test, feature = "unstable"))]
/// For each code point of the Basic Multilingual Plane, one more than its
/// place in [`CHARS`], or 0: built on first use from the generated table,
/// so a lookup is one read instead of a binary search.
fn bmp_index() -> &'static [u16] {
    static INDEX: std::sync::OnceLock<Box<[u16]>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = vec![0u16; 0x10000].into_boxed_slice();
        for (i, &code) in CHARS.iter().enumerate() {
            if let Some(slot) = index.get_mut(code as usize) {
                *slot = u16::try_from(i + 1).expect("fewer than 65535 characters");
            }
        }
        index
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(freq: CharFreq, text: &str) -> u32 {
        text.chars().filter(|c| !c.is_ascii()).map(|c| u32::from(freq.cost(c))).sum()
    }

    #[test]
    fn tags_resolve_case_insensitively() {
        for (tag, want) in [
            ("JA", "ja"),
            ("ko", "ko"),
            ("zh-hans", "zh-Hans"),
            ("zh-TW", "zh-Hant"),
            ("zh", "zh-Hans"),
        ] {
            assert_eq!(CharFreq::for_language(tag).map(CharFreq::language), Some(want), "{tag}");
        }
        assert_eq!(CharFreq::for_language("en"), None);
        assert_eq!(CharFreq::ALL.map(CharFreq::language), LANGS);
    }

    #[test]
    fn table_is_sorted_and_costs_are_below_the_floor() {
        assert!(CHARS.windows(2).all(|w| w[0] < w[1]));
        assert!(CHARS.iter().all(|&c| c >= 0x80));
        for freq in CharFreq::ALL {
            let column = &COSTS[freq.column];
            assert!(column.iter().all(|&c| c < freq.floor() || c == u8::MAX));
            // Each language has thousands of characters.
            assert!(column.iter().filter(|&&c| c != u8::MAX).count() > 1000, "{}", freq.language());
        }
    }

    #[test]
    fn each_language_prefers_its_own_text() {
        let samples = [
            ("ja", "日本語の文字コードを判定します"),
            ("ko", "한국어 문자 인코딩을 판별합니다"),
            ("zh-Hans", "简体中文的字符编码检测"),
            ("zh-Hant", "繁體中文的字元編碼偵測"),
        ];
        for (lang, text) in samples {
            let own = CharFreq::for_language(lang).unwrap();
            for other in CharFreq::ALL.into_iter().filter(|&f| f != own) {
                assert!(
                    total(own, text) < total(other, text),
                    "{text} should cost less in {lang} than in {}",
                    other.language()
                );
            }
        }
    }

    #[test]
    fn pairs_are_sorted_and_common_words_are_in_them() {
        for freq in CharFreq::ALL {
            let (starts, seconds) = (PAIR_START[freq.column], PAIR_SECOND[freq.column]);
            assert_eq!(starts.len(), CHARS.len() + 1);
            assert!(starts.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(usize::from(starts[CHARS.len()]), seconds.len());
            for w in starts.windows(2) {
                let run = &seconds[usize::from(w[0])..usize::from(w[1])];
                assert!(run.windows(2).all(|p| p[0] < p[1]));
            }
            assert_eq!(seconds.len(), PAIR_COSTS[freq.column].len());
        }
        for (lang, a, b) in [("ja", 'で', 'す'), ("ko", '한', '국'), ("zh-Hant", '中', '國')]
        {
            assert!(CharFreq::for_language(lang).unwrap().pair(a, b).is_some(), "{lang} {a}{b}");
        }
    }

    #[test]
    fn the_fast_index_agrees_with_the_table() {
        for (i, &code) in CHARS.iter().enumerate() {
            assert_eq!(index(char::from_u32(code).unwrap()), Some(i));
        }
        assert_eq!(index('a'), None);
        assert_eq!(index('\u{10FFFF}'), None);
    }

    #[test]
    fn ascii_has_no_cost() {
        for freq in CharFreq::ALL {
            assert_eq!(freq.get('a'), None);
        }
    }

    #[test]
    fn example_char_freq() {
        use self::CharFreq;
        let ja = CharFreq::for_language("ja").unwrap();
        // The hiragana の is far commoner in Japanese than the rare kanji 鬱.
        assert!(ja.cost('の') < ja.cost('鬱'));
        // Hangul is missing from Japanese text: it costs the floor.
        assert_eq!(ja.get('한'), None);
        assert_eq!(ja.cost('한'), ja.floor());
    }

    #[test]
    fn example_pair() {
        use self::CharFreq;
        let zh = CharFreq::for_language("zh-Hans").unwrap();
        let pair = zh.pair('中', '国').unwrap();
        // Given 中, 国 costs far less than on its own.
        assert!(pair - zh.cost('中') < zh.cost('国'));
        assert_eq!(zh.pair('国', 'の'), None);
    }

    #[test]
    fn example_common_character() {
        let common = CharFreq::for_language("zh-Hans").unwrap().get('的').unwrap();
        assert!(common < 6 * 8, "的 is the commonest character, under 6 bits");
        assert_eq!(CharFreq::for_language("fr"), None);
    }
}
