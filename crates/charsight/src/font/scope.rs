//! The HTML font-scope pass: which font applies to each text node.
//!
//! The page is tokenized with `html5gum` (twice: first to read the
//! `<style>` elements, whose rules apply to the whole page, then to follow
//! the elements). A stack of open elements, each with the font it
//! resolves to, follows the markup the way a browser's tree would in the
//! common cases: void elements are not pushed, an end tag closes up to its
//! element, formatting elements (`<font>`, `<b>`, ...) closed by another's
//! end tag are reopened (the adoption agency's effect), and a block start
//! tag closes an open `<p>`. The stack's depth is bounded.
//!
//! An element's font is, by precedence: its `style` attribute's
//! `font-family`, the most specific matching `<style>` rule (the later one
//! at equal specificity), its `<font face>` (the first family of the
//! list), else its parent's. Only the first family counts, as in a browser
//! that has that font; a family the registry does not know ends a scope.

use std::ops::Range;

use html5gum::{DefaultEmitter, Token, Tokenizer};

use super::css::{face_family, font_family, StyleSheet};
use super::{Basis, Conversion, Declared, PassNote, Registry, Scope};

/// Maximum depth of the element stack.
const MAX_DEPTH: usize = 512;

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];
const FORMATTING: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "div",
    "dl",
    "fieldset",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];
/// Elements whose text is not page text.
const NOT_TEXT: &[&str] =
    &["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "template"];

/// One open element.
struct Open {
    name: String,
    /// Index of the registry table in force, if any.
    font: Option<usize>,
    /// Index into the scopes found, when this element opened one.
    scope: Option<usize>,
}

/// Confidence of a conversion inside a declared font's scope.
const SCOPE_CONFIDENCE: f32 = 0.95;

/// What the pass found.
pub(crate) struct Found {
    pub conversions: Vec<Conversion>,
    pub scopes: Vec<Scope>,
    pub notes: Vec<PassNote>,
    /// Byte ranges of text outside every known font's scope.
    pub unscoped: Vec<Range<usize>>,
}

fn tokens(html: &str) -> impl Iterator<Item = Token<usize>> + '_ {
    let mut emitter = DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    Tokenizer::new_with_emitter(html, emitter).filter_map(Result::ok)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the pass over an HTML page.
pub(crate) fn pass(html: &str, registry: &Registry) -> Found {
    let (sheet, links) = read_styles(html);
    let mut found = Found {
        conversions: Vec::new(),
        scopes: Vec::new(),
        notes: Vec::new(),
        unscoped: Vec::new(),
    };
    let mut stack: Vec<Open> = Vec::new();
    for token in tokens(html) {
        match token {
            Token::StartTag(tag) => {
                let name = text(&tag.name).to_ascii_lowercase();
                if CLOSES_P.contains(&name.as_str()) && stack.iter().any(|o| o.name == "p") {
                    close(&mut stack, "p", tag.span.start, &mut found.scopes);
                }
                if VOID.contains(&name.as_str()) || stack.len() >= MAX_DEPTH {
                    continue;
                }
                let attr = |key: &str| tag.attributes.get(key.as_bytes()).map(|v| text(v));
                let parent = stack.last().and_then(|o| o.font);
                let declared = declared_font(&name, &attr, &sheet);
                let (font, scope) = match declared {
                    Some((family, how)) => match registry.index(&family) {
                        Some(index) => {
                            found.scopes.push(Scope {
                                range: tag.span.start..html.len(),
                                font: registry.table(index).shared_name(),
                                declared: how,
                            });
                            (Some(index), Some(found.scopes.len() - 1))
                        }
                        None if is_inherit(&family) => (parent, None),
                        None => (None, None),
                    },
                    None => (parent, None),
                };
                stack.push(Open { name, font, scope });
            }
            Token::EndTag(tag) => {
                let name = text(&tag.name).to_ascii_lowercase();
                close(&mut stack, &name, tag.span.end, &mut found.scopes);
            }
            Token::String(s) => {
                let range = s.span.start..s.span.end;
                if html.get(range.clone()).is_none() {
                    continue;
                }
                let innermost = stack.last();
                if innermost.is_some_and(|o| NOT_TEXT.contains(&o.name.as_str())) {
                    continue;
                }
                match innermost.and_then(|o| o.font) {
                    Some(index) => {
                        let table = registry.table(index);
                        let decoded = text(&s.value);
                        let after = table.convert(&decoded);
                        if after != decoded {
                            found.conversions.push(Conversion {
                                before: html[range.clone()].to_owned(),
                                range,
                                font: table.shared_name(),
                                after,
                                confidence: SCOPE_CONFIDENCE,
                                basis: Basis::FontScope,
                            });
                        }
                    }
                    None => found.unscoped.push(range),
                }
            }
            _ => {}
        }
    }
    if !links.is_empty() {
        let suspicious: usize = found
            .unscoped
            .iter()
            .map(|r| html[r.clone()].chars().filter(|&c| is_suspicious(c)).count())
            .sum();
        if suspicious > 0 {
            found
                .notes
                .extend(links.into_iter().map(|href| PassNote::ExternalCss { href, suspicious }));
        }
    }
    found
}

/// The `<style>` rules and the external style sheets of a page.
fn read_styles(html: &str) -> (StyleSheet, Vec<String>) {
    let mut sheet = StyleSheet::default();
    let mut links = Vec::new();
    let mut in_style = false;
    for token in tokens(html) {
        match token {
            Token::StartTag(tag) if tag.name.as_slice() == b"style" => in_style = true,
            Token::StartTag(tag) if tag.name.as_slice() == b"link" => {
                let rel =
                    tag.attributes.get(b"rel".as_slice()).map(|v| text(v)).unwrap_or_default();
                let is_sheet =
                    rel.split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("stylesheet"));
                if let Some(href) = tag.attributes.get(b"href".as_slice()).filter(|_| is_sheet) {
                    links.push(text(href));
                }
            }
            Token::EndTag(tag) if tag.name.as_slice() == b"style" => in_style = false,
            Token::String(s) if in_style => sheet.parse(&text(&s.value)),
            _ => {}
        }
    }
    links.append(&mut sheet.imports);
    (sheet, links)
}

/// The family an element declares, and how.
fn declared_font(
    name: &str,
    attr: &dyn Fn(&str) -> Option<String>,
    sheet: &StyleSheet,
) -> Option<(String, Declared)> {
    if let Some(family) = attr("style").as_deref().and_then(font_family) {
        return Some((family, Declared::InlineStyle));
    }
    let id = attr("id");
    let class = attr("class").unwrap_or_default();
    let classes: Vec<&str> = class.split_ascii_whitespace().collect();
    let best = sheet
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.selector.matches(name, id.as_deref(), &classes))
        .max_by_key(|(order, r)| (r.selector.specificity(), *order));
    if let Some((_, rule)) = best {
        return Some((rule.family.clone(), Declared::StyleRule(rule.selector.to_css())));
    }
    if name == "font" {
        if let Some(family) = attr("face").as_deref().and_then(face_family) {
            return Some((family, Declared::FontFace));
        }
    }
    None
}

fn is_inherit(family: &str) -> bool {
    family.eq_ignore_ascii_case("inherit")
}

/// Closes the innermost open element called `name`, if any; formatting
/// elements it closes on the way are reopened.
fn close(stack: &mut Vec<Open>, name: &str, at: usize, scopes: &mut [Scope]) {
    let Some(index) = stack.iter().rposition(|o| o.name == name) else { return };
    let closed: Vec<Open> = stack.drain(index..).collect();
    for open in &closed {
        if let Some(scope) = open.scope.and_then(|i| scopes.get_mut(i)) {
            scope.range.end = scope.range.end.min(at);
        }
    }
    let parent = stack.last().and_then(|o| o.font);
    for open in closed.into_iter().skip(1).filter(|o| FORMATTING.contains(&o.name.as_str())) {
        // A reopened element keeps its own font, or takes its new parent's.
        let font = if open.scope.is_some() { open.font } else { parent };
        stack.push(Open { font, scope: None, name: open.name });
    }
}

/// Characters that suggest a font layer the page's own markup does not
/// explain: private use and C1 controls (legacy-font bytes read as Latin-1).
pub(crate) fn is_suspicious(c: char) -> bool {
    matches!(u32::from(c), 0x80..=0x9F | 0xE000..=0xF8FF)
}
