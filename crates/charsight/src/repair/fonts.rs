//! The `fonts` repair: text written for a font that draws other characters
//! than its code points say (Symbol, Wingdings, Kruti Dev, Tamil fonts,
//! Zawgyi, the private-use form of symbol fonts), mapped to real Unicode by
//! [`crate::font::convert`]. Each conversion becomes an edit; a block that
//! looks like markup is read as HTML (font scopes, escaped replacements),
//! any other as plain text. Zawgyi is converted only where most of the
//! block's Burmese text is judged Zawgyi (a few Zawgyi lines among Unicode
//! Burmese are left as they are: clean text is never changed), and only
//! where the converted block no longer reads as Zawgyi anywhere.
//!
//! A font scope is found within one block: an element whose start tag and
//! content lie in different blocks (more than [`BLOCK`](super::BLOCK) bytes
//! of text apart) is not seen.

use std::ops::Range;
use std::sync::Arc;

use super::{Cause, Edit, Kind};
use crate::font::{self, Basis, Declared, Markup, Registry};
use crate::zawgyi;

/// A known font's scope in the input: an element that puts its content in
/// that font.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FontScope {
    /// The input bytes from the start tag to the end of the end tag.
    pub range: Range<u64>,
    /// The font.
    pub font: Arc<str>,
    /// How the element declared it.
    pub declared: Declared,
}

/// The fonts repairs of a block of text, as edits of it, and the font
/// scopes found (ranges in the text).
pub(crate) fn repair_text(
    text: &str,
    registry: &Registry,
) -> (Vec<Edit>, Vec<(Range<usize>, font::Scope)>) {
    if !font::may_have_layer(crate::Charset::Utf8, text.as_bytes(), registry) {
        return (Vec::new(), Vec::new());
    }
    let markup = if looks_like_markup(text) { Markup::Html } else { Markup::Text };
    let pass = font::convert(text, markup, registry);
    // Zawgyi comes a document at a time: a few lines judged Zawgyi among
    // Unicode Burmese (a quotation, a stray line) are left as they are.
    let burmese = text.chars().filter(|&c| zawgyi::is_myanmar(c)).count();
    let in_zawgyi: usize = pass
        .conversions
        .iter()
        .filter(|c| c.basis == Basis::Zawgyi)
        .map(|c| c.before.chars().filter(|&ch| zawgyi::is_myanmar(ch)).count())
        .sum();
    let zawgyi_document = 2 * in_zawgyi >= burmese;
    // U+F020-U+F0FF outside any scope is a symbol font's private-use form
    // only where the block puts text in a symbol font somewhere: icon fonts
    // (Font Awesome's link icon is U+F0C1) use the same code points. Left
    // alone, such characters are reported by the `pua` repair.
    let symbol_fonts =
        pass.scopes.iter().any(|s| registry.get(&s.font).is_some_and(|t| t.is_symbol_font()));
    let mut conversions: Vec<font::Conversion> = pass
        .conversions
        .into_iter()
        .filter(|c| c.basis != Basis::Zawgyi || zawgyi_document)
        .filter(|c| c.basis != Basis::SymbolPrivateUse || symbol_fonts)
        .collect();
    // The Zawgyi model judges lines, and a converted line can still read
    // as Zawgyi and convert again: then the block's Zawgyi conversions are
    // not trusted (repairs must be idempotent).
    if conversions.iter().any(|c| c.basis == Basis::Zawgyi) {
        let converted = font::apply(text, &conversions, markup);
        let again = font::convert(&converted, markup, registry);
        if again.conversions.iter().any(|c| c.basis == Basis::Zawgyi) {
            conversions.retain(|c| c.basis != Basis::Zawgyi);
        }
    }
    let edits = conversions
        .into_iter()
        .map(|c| Edit {
            after: match markup {
                Markup::Html => escape(&c.after),
                Markup::Text => c.after,
            },
            range: c.range,
            kind: Kind::Fonts,
            cause: Cause::Font { font: c.font, basis: c.basis },
            confidence: c.confidence,
        })
        .collect();
    let scopes = pass.scopes.into_iter().map(|s| (s.range.clone(), s)).collect();
    (edits, scopes)
}

/// Whether `text` has a tag: `<` then a letter, `/` or `!`.
fn looks_like_markup(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
}

/// `text` with `&`, `<` and `>` escaped, as HTML text.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    font::escape_into(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_and_private_use() {
        let registry = Registry::builtin();
        let page = "<p>x = <font face=\"Symbol\">a+b</font> and a+b</p>\n";
        let (edits, scopes) = repair_text(page, &registry);
        assert_eq!(edits.len(), 1);
        assert_eq!((&page[edits[0].range.clone()], edits[0].after.as_str()), ("a+b", "α+β"));
        assert_eq!(edits[0].cause.to_string(), "Symbol font (font_scope)");
        assert_eq!(&*scopes[0].1.font, "Symbol");
        let (edits, _) = repair_text("x \u{F061}\u{F062} y\n", &registry);
        assert!(edits.is_empty());
        let icon = "<p>Permalink \u{F0C1} here</p>\n";
        assert!(repair_text(icon, &registry).0.is_empty());
        let page = "<p><font face=Symbol>p</font> r = \u{F061}</p>\n";
        let (edits, _) = repair_text(page, &registry);
        assert_eq!(edits.iter().map(|e| e.after.as_str()).collect::<Vec<_>>(), ["π", "α"]);
        assert!(repair_text("plain text, no fonts\n", &registry).0.is_empty());
    }

    #[test]
    fn zawgyi_a_document_at_a_time() {
        let registry = Registry::builtin();
        let zawgyi = "ျမန္မာႏိုင္ငံ\n";
        let (edits, _) = repair_text(zawgyi, &registry);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].after, "မြန်မာနိုင်ငံ");
        let unicode = "မြန်မာနိုင်ငံ သည် အရှေ့တောင်အာရှ ရှိ နိုင်ငံ ဖြစ်သည်။\n".repeat(3);
        assert!(repair_text(&(unicode + zawgyi), &registry).0.is_empty());
    }

    #[test]
    fn html_replacements_are_escaped() {
        assert_eq!(escape("a<b&c"), "a&lt;b&amp;c");
        assert!(looks_like_markup("x <p> y"));
        assert!(!looks_like_markup("a < b"));
    }
}
