//! Font tables and the registry that finds them by name.
//!
//! A [`FontTable`] maps text typed for one font to Unicode: symbol fonts
//! map each byte (0x20-0xFF, or its private-use form U+F020-U+F0FF) to a
//! character; legacy Indic fonts apply ordered replacement rules. The
//! built-in tables are generated from `shared/fonts` (see
//! [`FontTable::licence`] for each source's licence). A [`Registry`] finds
//! tables by the names pages use (`font-family: "Kruti Dev 010"`), with
//! aliases, and takes tables of the caller's own.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use charsight_tables::fonts::{Map, FONTS};

use super::indic;

/// A table that maps one font's text to Unicode.
#[derive(Clone)]
pub struct FontTable {
    name: Arc<str>,
    licence: Arc<str>,
    map: TableMap,
}

#[derive(Clone)]
enum TableMap {
    Builtin(Map),
    Bytes(Arc<[Option<Box<str>>]>),
    Rules(Arc<[(Box<str>, Box<str>)]>),
}

impl fmt::Debug for FontTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FontTable").field("name", &self.name).finish_non_exhaustive()
    }
}

impl FontTable {
    /// A symbol-font table from (byte, Unicode text) pairs; bytes below 0x20
    /// are ignored (control codes are never glyphs of such fonts).
    ///
    /// # Example
    /// ```
    /// use charsight::font::FontTable;
    /// let table = FontTable::from_bytes("Arrows", [(b'a', "←"), (b'b', "→")]);
    /// assert_eq!(table.convert("ab!"), "←→!");
    /// assert_eq!(table.convert("\u{F061}"), "←"); // the private-use form
    /// ```
    pub fn from_bytes<'a>(name: &str, pairs: impl IntoIterator<Item = (u8, &'a str)>) -> FontTable {
        let mut map = vec![None; 224];
        for (byte, text) in pairs {
            if let Some(slot) = byte.checked_sub(0x20).and_then(|i| map.get_mut(usize::from(i))) {
                *slot = Some(text.into());
            }
        }
        FontTable {
            name: name.into(),
            licence: "user table".into(),
            map: TableMap::Bytes(map.into()),
        }
    }

    /// A legacy-font table of ordered replacement rules (legacy text as
    /// decoded with windows-1252, Unicode), applied one after another over
    /// the whole text, as the published converters do.
    ///
    /// # Example
    /// ```
    /// use charsight::font::FontTable;
    /// let table = FontTable::from_rules("Toy", [("ab", "x"), ("a", "y")]);
    /// assert_eq!(table.convert("aba"), "xy");
    /// ```
    pub fn from_rules<'a>(
        name: &str,
        rules: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> FontTable {
        let rules: Vec<_> = rules
            .into_iter()
            .filter(|(from, _)| !from.is_empty())
            .map(|(from, to)| (Box::from(from), Box::from(to)))
            .collect();
        FontTable {
            name: name.into(),
            licence: "user table".into(),
            map: TableMap::Rules(rules.into()),
        }
    }

    /// The font's display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name as a shared string, for results that keep it.
    pub fn shared_name(&self) -> Arc<str> {
        Arc::clone(&self.name)
    }

    /// Where the table came from and its licence.
    pub fn licence(&self) -> &str {
        &self.licence
    }

    /// Whether the table maps characters one by one (a symbol font), so that
    /// its private-use form U+F020-U+F0FF applies.
    pub fn is_symbol_font(&self) -> bool {
        matches!(self.map, TableMap::Bytes(_) | TableMap::Builtin(Map::Bytes(_)))
    }

    /// The Unicode for one symbol-font character: a byte value as text
    /// decoded with windows-1252 or ISO-8859-1, or the private-use form.
    /// `None` for characters the font does not map (or rule-based fonts).
    pub fn map_char(&self, c: char) -> Option<&str> {
        let index = usize::from(font_byte(c)?.checked_sub(0x20)?);
        let mapped = match &self.map {
            TableMap::Builtin(Map::Bytes(table)) => table[index],
            TableMap::Bytes(table) => table.get(index)?.as_deref()?,
            _ => return None,
        };
        (!mapped.is_empty()).then_some(mapped)
    }

    /// Converts text typed for this font to Unicode. Characters a symbol
    /// font does not map are kept.
    ///
    /// # Example
    /// ```
    /// use charsight::font::Registry;
    /// let registry = Registry::builtin();
    /// assert_eq!(registry.get("Symbol").unwrap().convert("abg"), "αβγ");
    /// assert_eq!(registry.get("Kruti Dev 010").unwrap().convert("fgUnh"), "हिन्दी");
    /// assert_eq!(registry.get("Bamini").unwrap().convert("jkpo;"), "தமிழ்");
    /// ```
    pub fn convert(&self, text: &str) -> String {
        match &self.map {
            TableMap::Builtin(Map::Bytes(_)) | TableMap::Bytes(_) => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    match self.map_char(c) {
                        Some(mapped) => out.push_str(mapped),
                        None => out.push(c),
                    }
                }
                out
            }
            TableMap::Builtin(Map::Rules(rules)) => {
                indic::apply_rules(text.to_owned(), rules.iter().copied())
            }
            TableMap::Builtin(Map::KrutiDev(rules)) => indic::kruti_dev(text, rules),
            TableMap::Rules(rules) => {
                indic::apply_rules(text.to_owned(), rules.iter().map(|(a, b)| (&**a, &**b)))
            }
        }
    }
}

/// The font byte a character stands for: U+0020-U+00FF as is, U+F020-U+F0FF
/// (the private-use form) minus U+F000, and windows-1252's characters for
/// bytes 0x80-0x9F.
fn font_byte(c: char) -> Option<u8> {
    let cp = u32::from(c);
    match cp {
        0x20..=0xFF => u8::try_from(cp).ok(),
        0xF020..=0xF0FF => u8::try_from(cp - 0xF000).ok(),
        _ => {
            let mut buf = [0; 4];
            let (bytes, _, errors) = encoding_rs::WINDOWS_1252.encode(c.encode_utf8(&mut buf));
            match *bytes {
                [b] if !errors && (0x80..0xA0).contains(&b) => Some(b),
                _ => None,
            }
        }
    }
}

/// Font tables by name.
///
/// Names match case-insensitively, with runs of spaces, `-` and `_` read as
/// one `-` (`"kruti dev 010"`, `"Kruti_Dev-010"`); an alias ending in `*`
/// matches every name it begins (`TAB-*` for `TAB-Anna`).
///
/// # Example
/// ```
/// use charsight::font::{FontTable, Registry};
/// let mut registry = Registry::builtin();
/// assert_eq!(registry.get("wingdings").unwrap().name(), "Wingdings");
/// assert_eq!(registry.get("TSCu_Paranar").unwrap().name(), "TSCII");
/// registry.add(FontTable::from_bytes("Arrows", [(b'a', "←")]), &["Arrows Pro", "MyArrows*"]);
/// assert_eq!(registry.get("MyArrows Bold").unwrap().convert("a"), "←");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Registry {
    tables: Vec<FontTable>,
    names: BTreeMap<String, usize>,
    prefixes: Vec<(String, usize)>,
    /// The first words of the names and prefixes, searched for at once.
    first_words: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>>,
}

impl Registry {
    /// A registry with no tables.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// A registry with every built-in table: Symbol, Wingdings 1-3,
    /// Webdings, Zapf Dingbats, Mac Symbol, Mac Dingbats, Kruti Dev 010,
    /// Bamini, TAB, TAM and TSCII.
    pub fn builtin() -> Registry {
        let mut registry = Registry::new();
        for font in FONTS {
            let table = FontTable {
                name: font.name.into(),
                licence: font.licence.into(),
                map: TableMap::Builtin(font.map),
            };
            registry.add(table, font.aliases);
        }
        registry
    }

    /// Adds a table under its own name and `aliases`. A later table wins a
    /// name that an earlier one had.
    pub fn add(&mut self, table: FontTable, aliases: &[&str]) {
        self.first_words = std::sync::OnceLock::new();
        let index = self.tables.len();
        for name in std::iter::once(table.name()).chain(aliases.iter().copied()) {
            match name.strip_suffix('*') {
                Some(prefix) => self.prefixes.push((normalize(prefix), index)),
                None => {
                    self.names.insert(normalize(name), index);
                }
            }
        }
        self.tables.push(table);
    }

    /// The table for a font name, if any.
    pub fn get(&self, name: &str) -> Option<&FontTable> {
        self.tables.get(self.index(name)?)
    }

    /// Whether `bytes` could name one of the fonts: they hold, in any ASCII
    /// case, the first word of one of its names or prefixes (`kruti` of
    /// `Kruti Dev 010`). A test without false negatives for names written
    /// in ASCII (a name with other letters makes it always true), so that
    /// a page naming none of them is not searched for font scopes.
    pub fn may_be_named_in(&self, bytes: &[u8]) -> bool {
        let finder = self.first_words.get_or_init(|| {
            let keys = self.names.keys().chain(self.prefixes.iter().map(|(p, _)| p));
            let words: Vec<&str> = keys.map(|k| k.split('-').next().unwrap_or(k)).collect();
            if words.iter().any(|w| w.is_empty() || !w.is_ascii()) {
                return None;
            }
            let mut builder = aho_corasick::AhoCorasick::builder();
            builder.ascii_case_insensitive(true).build(words).ok()
        });
        finder.as_ref().is_none_or(|f| f.is_match(bytes))
    }

    /// The index of the table for a font name.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        let key = normalize(name);
        self.names.get(&key).copied().or_else(|| {
            self.prefixes.iter().rev().find(|(p, _)| key.starts_with(p.as_str())).map(|&(_, i)| i)
        })
    }

    /// The table at an index from [`Registry::index`].
    #[cfg(feature = "fonts")]
    pub(crate) fn table(&self, index: usize) -> &FontTable {
        &self.tables[index]
    }

    /// Every table, in the order added.
    pub fn tables(&self) -> impl Iterator<Item = &FontTable> {
        self.tables.iter()
    }
}

/// The matching form of a font name.
fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars() {
        if matches!(c, ' ' | '-' | '_' | '\t') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_bytes_in_every_form() {
        let registry = Registry::builtin();
        let symbol = registry.get("symbol").unwrap();
        assert_eq!(symbol.convert("a\u{F062}\u{E7}"), "αβ\u{239C}");
        let wingdings = registry.get("Wingdings").unwrap();
        assert_eq!(wingdings.convert("J"), "\u{263A}");
        // Byte 0x80 decoded with windows-1252 is the euro sign.
        assert_eq!(wingdings.map_char('€'), wingdings.map_char('\u{80}'));
        assert!(wingdings.map_char('\u{80}').is_some());
        assert_eq!(symbol.map_char('\u{1000}'), None);
    }

    #[test]
    fn names_and_aliases() {
        let registry = Registry::builtin();
        for (name, table) in [
            ("Kruti_Dev-010", "Kruti Dev 010"),
            ("ZapfDingbats", "Zapf Dingbats"),
            ("wingdings  2", "Wingdings 2"),
            ("TAB-Nila", "TAB"),
            ("tam-annamalai", "TAM"),
        ] {
            assert_eq!(registry.get(name).map(FontTable::name), Some(table), "{name}");
        }
        assert!(registry.get("Arial").is_none());
        assert!(registry.get("Tableau").is_none());
        assert_eq!(registry.tables().count(), 13);
    }

    #[test]
    fn tamil_tables() {
        let registry = Registry::builtin();
        // "Tamil" in TSCII 1.7 bytes, decoded as windows-1252 would.
        let (tscii, _) = crate::Charset::Windows1252.decode(b"\xbe\xc1\xa2\xfa");
        assert_eq!(registry.get("TSCII").unwrap().convert(&tscii), "தமிழ்");
        // A pre-base vowel sign typed first: Bamini "ne" is நெ.
        assert_eq!(registry.get("Bamini").unwrap().convert("ne"), "நெ");
    }

    #[test]
    fn user_tables_override() {
        let mut registry = Registry::builtin();
        registry.add(FontTable::from_rules("Symbol", [("a", "A")]), &[]);
        assert_eq!(registry.get("Symbol").unwrap().convert("a"), "A");
        assert!(!registry.get("Symbol").unwrap().is_symbol_font());
    }
}
