//! Font-dependent encodings: text whose characters were chosen to look right
//! in one particular font, found and mapped to real Unicode.
//!
//! Stage: after decoding. Input: decoded text (`&str`) and whether it is
//! HTML; output: a [`FontPass`] with the converted text and every
//! [`Conversion`], each with its range in the input text, the font and rule
//! that fired, the text before and after, and a confidence. Nothing is
//! changed silently, and text outside every font's scope is left alone.
//!
//! - **Font scopes in HTML**: `<font face>`, `style="font-family: ..."` and
//!   `<style>` rules with simple selectors decide the font of each text node
//!   (see [`Scope`]); text and numeric character references inside a known
//!   font's scope go through its [`FontTable`]. A page that links external
//!   CSS, which is out of reach, and has text that looks font-encoded gets a
//!   [`PassNote::ExternalCss`].
//! - **Tables** ([`Registry::builtin`]): Symbol, Wingdings 1-3, Webdings, Zapf
//!   Dingbats, Mac Symbol, Mac Dingbats; Kruti Dev 010 (Hindi); Bamini, TAB,
//!   TAM, TSCII (Tamil). Callers add their own with [`Registry::add`].
//! - **Symbol fonts' private-use form**: U+F020-U+F0FF outside any scope is
//!   read as Symbol, with a low confidence (the font is not known).
//! - **Zawgyi**: each line that the Zawgyi model judges Zawgyi
//!   (probability at least [`ZAWGYI_THRESHOLD`]) has its Burmese runs
//!   converted to Unicode.
//!
//! # Example
//! ```
//! use charsight::font::{self, Markup, Registry};
//! let page = "<p>x = <font face=\"Symbol\">a+b</font> and a+b</p>";
//! let pass = font::convert(page, Markup::Html, &Registry::builtin());
//! assert_eq!(pass.text, "<p>x = <font face=\"Symbol\">α+β</font> and a+b</p>");
//! let c = &pass.conversions[0];
//! assert_eq!((&page[c.range.clone()], &*c.font, c.after.as_str()), ("a+b", "Symbol", "α+β"));
//! ```

#[cfg(feature = "fonts")]
mod css;
mod indic;
#[cfg(feature = "fonts")]
mod scope;
mod table;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

pub use table::{FontTable, Registry};

use crate::{zawgyi, Charset};

/// Lines judged Zawgyi with at least this probability are converted.
pub const ZAWGYI_THRESHOLD: f32 = 0.9;

/// Confidence of reading U+F020-U+F0FF outside any scope as Symbol.
const PRIVATE_USE_CONFIDENCE: f32 = 0.5;

/// What kind of text the pass reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Markup {
    /// An HTML page: font scopes apply, replacements are escaped.
    Html,
    /// Plain text: no scopes; only the private-use form and Zawgyi.
    Text,
}

/// What a conversion rests on: a font's scope, the private-use form of a
/// symbol font, or a line judged Zawgyi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Basis {
    /// Text inside a known font's scope, through its table.
    FontScope,
    /// U+F020-U+F0FF outside any scope, read as Symbol.
    SymbolPrivateUse,
    /// A Burmese run of a line judged Zawgyi.
    Zawgyi,
}

impl Basis {
    /// The basis's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Basis::FontScope => "font_scope",
            Basis::SymbolPrivateUse => "symbol_private_use",
            Basis::Zawgyi => "zawgyi",
        }
    }
}

/// One mapping of font-encoded text to Unicode.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Conversion {
    /// Byte range in the input text (for HTML, the source text node, with
    /// its character references).
    pub range: Range<usize>,
    /// The font whose table was used (`"Zawgyi"` for Zawgyi).
    pub font: Arc<str>,
    /// The input text of the range.
    pub before: String,
    /// The Unicode text (not HTML-escaped).
    pub after: String,
    /// Probability, from 0 to 1, that the conversion is right.
    pub confidence: f32,
    /// What it rests on.
    pub basis: Basis,
}

/// How an element declared its font.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Declared {
    /// `<font face="...">`.
    FontFace,
    /// `style="font-family: ..."` (or `font: ...`).
    InlineStyle,
    /// A `<style>` rule, with its selector.
    StyleRule(String),
}

/// An element that puts its content in a known font.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Scope {
    /// From the start tag to the end of the end tag (or of the text).
    pub range: Range<usize>,
    /// The font.
    pub font: Arc<str>,
    /// How it was declared.
    pub declared: Declared,
}

/// Something the pass could not act on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PassNote {
    /// The page links a style sheet (out of reach) and has `suspicious`
    /// characters (private use, C1 controls) outside every known scope.
    ExternalCss {
        /// The style sheet's address as written.
        href: String,
        /// How many suspicious characters were seen.
        suspicious: usize,
    },
}

/// The result of [`convert`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FontPass {
    /// The text with every conversion applied (replacements HTML-escaped
    /// for [`Markup::Html`]).
    pub text: String,
    /// The conversions, in text order, not overlapping.
    pub conversions: Vec<Conversion>,
    /// The known-font scopes of an HTML page, in document order.
    pub scopes: Vec<Scope>,
    /// What could not be done.
    pub notes: Vec<PassNote>,
}

/// The font layer a text was written for, from [`detect_layer`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FontLayer {
    /// The font (`"Zawgyi"`, `"Symbol"`, `"Kruti Dev 010"`, ...).
    pub name: Arc<str>,
    /// Probability, from 0 to 1, that the text uses it.
    pub confidence: f32,
}

/// Finds font-encoded text and maps it to Unicode.
///
/// Time is linear in the text's length (for fixed tables); memory is a
/// bounded multiple of it.
pub fn convert(text: &str, markup: Markup, registry: &Registry) -> FontPass {
    convert_with(text, markup, registry, true)
}

/// [`convert`], with or without the Zawgyi conversion (detection needs
/// only the Zawgyi probabilities, not the converted text).
fn convert_with(text: &str, markup: Markup, registry: &Registry, zawgyi: bool) -> FontPass {
    let (mut conversions, scopes, notes, unscoped): (_, _, _, Vec<Range<usize>>) = match markup {
        #[cfg(feature = "fonts")]
        Markup::Html => {
            let found = scope::pass(text, registry);
            (found.conversions, found.scopes, found.notes, found.unscoped)
        }
        // Without the `fonts` feature, markup is not parsed for font scopes.
        _ => (Vec::new(), Vec::new(), Vec::new(), std::iter::once(0..text.len()).collect()),
    };
    if let Some(symbol) = registry.get("Symbol").filter(|t| t.is_symbol_font()) {
        for range in &unscoped {
            conversions.extend(private_use_runs(text, range.clone(), symbol));
        }
    }
    if zawgyi {
        conversions.extend(zawgyi_runs(text));
    }
    conversions.sort_by_key(|c| (c.range.start, c.range.end));
    let mut end = 0;
    conversions.retain(|c| {
        let keep = c.range.start >= end;
        if keep {
            end = c.range.end;
        }
        keep
    });
    let text = apply(text, &conversions, markup);
    FontPass { text, conversions, scopes, notes }
}

/// Runs of U+F020-U+F0FF in `text[range]`, read as Symbol.
fn private_use_runs(text: &str, range: Range<usize>, symbol: &FontTable) -> Vec<Conversion> {
    let is_symbol_pua = |c: char| ('\u{F020}'..='\u{F0FF}').contains(&c);
    runs(text, range, is_symbol_pua, |_| false)
        .into_iter()
        .map(|run| Conversion {
            before: text[run.clone()].to_owned(),
            after: symbol.convert(&text[run.clone()]),
            range: run,
            font: symbol.shared_name(),
            confidence: PRIVATE_USE_CONFIDENCE,
            basis: Basis::SymbolPrivateUse,
        })
        .collect()
}

/// The Burmese runs of lines judged Zawgyi, converted.
fn zawgyi_runs(text: &str) -> Vec<Conversion> {
    let font: Arc<str> = Arc::from("Zawgyi");
    let mut out = Vec::new();
    for segment in zawgyi::segments(text).filter(|s| s.zawgyi >= ZAWGYI_THRESHOLD) {
        let joiner = |c: char| c == ' ' || c == '\u{200B}';
        for run in runs(text, segment.range, zawgyi::is_myanmar, joiner) {
            let after = zawgyi::to_unicode(&text[run.clone()]);
            if after != text[run.clone()] && zawgyi::words_start_well(&after) {
                out.push(Conversion {
                    before: text[run.clone()].to_owned(),
                    range: run,
                    font: Arc::clone(&font),
                    after,
                    confidence: segment.zawgyi,
                    basis: Basis::Zawgyi,
                });
            }
        }
    }
    out
}

/// Maximal runs in `text[range]` that start and end with a `member` and
/// have only members and `joiner`s between.
fn runs(
    text: &str,
    range: Range<usize>,
    member: impl Fn(char) -> bool,
    joiner: impl Fn(char) -> bool,
) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut current: Option<Range<usize>> = None;
    for (i, c) in text[range.clone()].char_indices() {
        let at = range.start + i;
        if member(c) {
            let run = current.get_or_insert(at..at);
            run.end = at + c.len_utf8();
        } else if !joiner(c) {
            out.extend(current.take());
        }
    }
    out.extend(current);
    out
}

/// The text with the (sorted, disjoint) conversions applied.
pub(crate) fn apply(text: &str, conversions: &[Conversion], markup: Markup) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for c in conversions {
        out.push_str(&text[at..c.range.start]);
        match markup {
            Markup::Html => escape_into(&mut out, &c.after),
            Markup::Text => out.push_str(&c.after),
        }
        at = c.range.end;
    }
    out.push_str(&text[at..]);
    out
}

pub(crate) fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

/// Whether bytes in `charset` could hold a font layer, tested on the bytes
/// so that ordinary input is not decoded for nothing: they open a font
/// scope (`<font`, or a `font:` or `font-family:` declaration, in any case)
/// and mention a font of `registry` ([`Registry::may_be_named_in`]), or,
/// in UTF-8, have a Myanmar-block or U+F000-U+F0FF lead (`E1 80`-`E1 82`,
/// `EF 80`-`EF 83`). UTF-16 and UTF-32 always qualify.
pub fn may_have_layer(charset: Charset, bytes: &[u8], registry: &Registry) -> bool {
    if !charset.is_ascii_compatible() {
        return true;
    }
    let at = |i: usize, len: usize| bytes.get(i..i + len).unwrap_or_default();
    let scope = |i: usize| {
        if !at(i, 4).eq_ignore_ascii_case(b"font") {
            return false;
        }
        let mut end = i + 4;
        if at(end, 7).eq_ignore_ascii_case(b"-family") {
            end += 7;
        }
        let colon = bytes[end.min(bytes.len())..].iter().find(|b| !b.is_ascii_whitespace());
        (i > 0 && bytes[i - 1] == b'<') || colon == Some(&b':')
    };
    let font = memchr::memchr2_iter(b'f', b'F', bytes).any(scope);
    let burmese_or_symbol = charset == Charset::Utf8
        && crate::pairs::first_pair(bytes, 0xE1, |a, b| {
            (a == 0xE1) & (0x80..=0x82).contains(&b) | (a == 0xEF) & (0x80..=0x83).contains(&b)
        })
        .is_some();
    (font && registry.may_be_named_in(bytes)) || burmese_or_symbol
}

/// The main font layer of a text (read as HTML), if any: the font with the
/// most converted characters, weighted by confidence.
///
/// # Example
/// ```
/// use charsight::font::{self, Registry};
/// let registry = Registry::builtin();
/// let layer = font::detect_layer("ျမန္မာႏိုင္ငံ", &registry).unwrap();
/// assert_eq!(&*layer.name, "Zawgyi");
/// assert!(layer.confidence > 0.9);
/// let page = "<span style='font-family: Wingdings'>J</span>";
/// assert_eq!(&*font::detect_layer(page, &registry).unwrap().name, "Wingdings");
/// assert_eq!(font::detect_layer("<p>plain</p>", &registry), None);
/// ```
pub fn detect_layer(text: &str, registry: &Registry) -> Option<FontLayer> {
    if !may_have_layer(Charset::Utf8, text.as_bytes(), registry) {
        return None;
    }
    let pass = convert_with(text, Markup::Html, registry, false);
    let mut weights: BTreeMap<Arc<str>, (f32, f32)> = BTreeMap::new();
    for c in &pass.conversions {
        let n = c.after.chars().count() as f32;
        let entry = weights.entry(Arc::clone(&c.font)).or_default();
        entry.0 += n * c.confidence;
        entry.1 += n;
    }
    for segment in zawgyi::segments(text).filter(|s| s.zawgyi >= ZAWGYI_THRESHOLD) {
        let entry = weights.entry(Arc::from("Zawgyi")).or_default();
        entry.0 += segment.burmese as f32 * segment.zawgyi;
        entry.1 += segment.burmese as f32;
    }
    let (name, (weight, count)) = weights.into_iter().max_by(|a, b| a.1 .0.total_cmp(&b.1 .0))?;
    Some(FontLayer { name, confidence: weight / count.max(1.0) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_join_and_split() {
        let text = "ab cd, e";
        let r = runs(text, 0..text.len(), |c| c.is_ascii_lowercase(), |c| c == ' ');
        assert_eq!(r, [0..5, 7..8]);
    }

    #[test]
    fn private_use_outside_scopes_reads_as_symbol() {
        let pass = convert("x \u{F061}\u{F062} y", Markup::Text, &Registry::builtin());
        assert_eq!(pass.text, "x αβ y");
        assert_eq!(pass.conversions[0].basis, Basis::SymbolPrivateUse);
        assert!(pass.conversions[0].confidence < 0.6);
    }

    #[test]
    fn shan_is_not_zawgyi() {
        // Shan (shn_MM) with its digits U+1090-U+1099: the Zawgyi model
        // knows only Burmese, and would make words begin with a medial.
        let shan = "ႁူဝ်ၼႃႈ ႑ ၸဵမ်ႁူဝ်ၼႃႈ ႒႐";
        let pass = convert(shan, Markup::Text, &Registry::builtin());
        assert!(pass.conversions.is_empty(), "{:?}", pass.conversions);
        let pass = convert("ျမန္မာႏိုင္ငံ", Markup::Text, &Registry::builtin());
        assert_eq!(pass.text, "မြန်မာနိုင်ငံ");
    }

    #[test]
    fn html_replacements_are_escaped() {
        let pass = convert("<font face=Symbol>&lt;</font>", Markup::Html, &Registry::builtin());
        assert!(pass.conversions.is_empty()); // Symbol's '<' is '<'
        let pass = convert("<font face=Symbol>\u{F03C}</font>", Markup::Html, &Registry::builtin());
        assert_eq!(pass.text, "<font face=Symbol>&lt;</font>");
        assert_eq!(pass.conversions[0].after, "<");
    }

    #[test]
    fn byte_precheck() {
        let registry = Registry::builtin();
        let may = |charset, bytes: &[u8]| may_have_layer(charset, bytes, &registry);
        assert!(!may(Charset::Utf8, "<p>hé</p>".as_bytes()));
        assert!(may(Charset::Utf8, "\u{1000}".as_bytes()));
        assert!(may(Charset::Utf8, "\u{F061}".as_bytes()));
        assert!(!may(Charset::Windows1252, b"\xE1\x80\x80"));
        assert!(may(Charset::Windows1252, b"<FONT FACE=WingDings>"));
        assert!(may(Charset::Windows1252, b"<p style='font-family: Kruti_Dev_010'>"));
        // A font scope that names no font of the registry holds no layer.
        assert!(!may(Charset::Windows1252, b"<p style='font-family: Arial'>"));
        // Nor does text about fonts.
        assert!(!may(Charset::Windows1252, b"<p>Fonts such as Symbol or Wingdings</p>"));
        assert!(may(Charset::Windows1252, b"p { FONT : 12px Symbol }"));
        assert!(may(Charset::Utf16Le, b""));
    }
}
