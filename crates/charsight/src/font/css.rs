//! The little CSS the font-scope pass needs: `font-family` (and the `font`
//! shorthand) in declaration lists, and style-sheet rules whose selectors
//! are simple (an element, classes, an id, or a compound of them). Other
//! selectors (descendants, attributes, pseudo-classes) are skipped. Tokens
//! come from `cssparser`.

use cssparser::{Parser, Token};

/// At most this many rules are kept per style sheet, and at most this many
/// `@media`/`@supports` levels are entered, so that matching stays bounded.
const MAX_RULES: usize = 256;
const MAX_NESTING: usize = 4;

/// A simple selector: `p`, `.sym`, `#x`, `span.sym.big`, `*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    pub tag: Option<String>,
    pub id: Option<String>,
    pub classes: Vec<String>,
}

impl Selector {
    /// CSS specificity as (ids, classes, elements).
    pub fn specificity(&self) -> (usize, usize, usize) {
        (usize::from(self.id.is_some()), self.classes.len(), usize::from(self.tag.is_some()))
    }

    /// Whether an element with this tag, id and classes matches.
    pub fn matches(&self, tag: &str, id: Option<&str>, classes: &[&str]) -> bool {
        self.tag.as_deref().is_none_or(|t| t.eq_ignore_ascii_case(tag))
            && self.id.as_deref().is_none_or(|i| Some(i) == id)
            && self.classes.iter().all(|c| classes.contains(&c.as_str()))
    }

    /// The selector as CSS, for reports.
    pub fn to_css(&self) -> String {
        let mut s = self.tag.clone().unwrap_or_default();
        if let Some(id) = &self.id {
            s = s + "#" + id;
        }
        for class in &self.classes {
            s = s + "." + class;
        }
        if s.is_empty() {
            s.push('*');
        }
        s
    }
}

/// A rule that sets a font family.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rule {
    pub selector: Selector,
    /// The first family of the list: the one a browser that has it uses.
    pub family: String,
}

/// What a page's `<style>` elements say about fonts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StyleSheet {
    /// Rules in document order (later wins at equal specificity).
    pub rules: Vec<Rule>,
    /// `@import`ed style sheets, which are out of reach.
    pub imports: Vec<String>,
}

impl StyleSheet {
    /// Adds the rules of one `<style>` element's text.
    pub fn parse(&mut self, css: &str) {
        self.rules_in(&mut Parser::new(css), 0);
    }

    fn rules_in(&mut self, parser: &mut Parser<'_>, depth: usize) {
        let mut prelude: Vec<Piece> = Vec::new();
        let mut at_rule: Option<String> = None;
        loop {
            let token = match parser.next() {
                Ok(token) => token.clone(),
                Err(_) => return,
            };
            match token {
                Token::AtKeyword(name) if prelude.is_empty() => {
                    at_rule = Some(name.to_ascii_lowercase());
                }
                Token::Semicolon => {
                    prelude.clear();
                    at_rule = None;
                }
                Token::QuotedString(url) | Token::UnquotedUrl(url)
                    if at_rule.as_deref() == Some("import") =>
                {
                    self.imports.push(url.to_string());
                }
                Token::Function(name)
                    if at_rule.as_deref() == Some("import") && name.eq_ignore_ascii_case("url") =>
                {
                    let url = parser
                        .parse_nested_block(|p| {
                            p.expect_string()
                                .map(|s| s.to_string())
                                .map_err(Into::<cssparser::ParseError<()>>::into)
                        })
                        .unwrap_or_default();
                    self.imports.push(url);
                }
                Token::CurlyBracketBlock => {
                    match at_rule.take().as_deref() {
                        Some("media" | "supports" | "document" | "layer")
                            if depth < MAX_NESTING =>
                        {
                            let _ = parser.parse_nested_block(|p| {
                                self.rules_in(p, depth + 1);
                                Ok::<(), cssparser::ParseError<()>>(())
                            });
                        }
                        Some(_) => {}
                        None => {
                            let family = parser
                                .parse_nested_block(|p| {
                                    Ok::<_, cssparser::ParseError<()>>(declared_family(p))
                                })
                                .ok()
                                .flatten();
                            if let Some(family) = family {
                                for selector in selectors(&prelude) {
                                    if self.rules.len() < MAX_RULES {
                                        self.rules.push(Rule { selector, family: family.clone() });
                                    }
                                }
                            }
                        }
                    }
                    prelude.clear();
                }
                other => prelude.push(Piece::of(&other)),
            }
        }
    }
}

/// A prelude token, reduced to what simple selectors are made of.
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Name(String),
    Hash(String),
    Dot,
    Star,
    Comma,
    Other,
}

impl Piece {
    fn of(token: &Token<'_>) -> Piece {
        match token {
            Token::Ident(name) => Piece::Name(name.to_string()),
            Token::IDHash(name) | Token::Hash(name) => Piece::Hash(name.to_string()),
            Token::Delim('.') => Piece::Dot,
            Token::Delim('*') => Piece::Star,
            Token::Comma => Piece::Comma,
            _ => Piece::Other,
        }
    }
}

/// The simple selectors of a prelude (`parser.next()` skips whitespace, so
/// a descendant combinator shows as two compounds in a row: rejected).
fn selectors(prelude: &[Piece]) -> Vec<Selector> {
    let mut out = Vec::new();
    for part in prelude.split(|p| *p == Piece::Comma) {
        let mut selector = Selector { tag: None, id: None, classes: Vec::new() };
        let mut ok = !part.is_empty();
        let mut i = 0;
        while ok && i < part.len() {
            match (&part[i], part.get(i + 1)) {
                (Piece::Name(tag), _) if i == 0 => selector.tag = Some(tag.to_ascii_lowercase()),
                (Piece::Star, _) if i == 0 => {}
                (Piece::Hash(id), _) if selector.id.is_none() => selector.id = Some(id.clone()),
                (Piece::Dot, Some(Piece::Name(class))) => {
                    selector.classes.push(class.clone());
                    i += 1;
                }
                _ => ok = false,
            }
            i += 1;
        }
        if ok {
            out.push(selector);
        }
    }
    out
}

/// The first font family a declaration list sets (`font-family`, or the
/// family part of `font`), the last declaration winning.
///
/// `font-family: "Kruti Dev 010", serif` gives `Kruti Dev 010`.
pub(crate) fn font_family(declarations: &str) -> Option<String> {
    declared_family(&mut Parser::new(declarations))
}

fn declared_family(parser: &mut Parser<'_>) -> Option<String> {
    let mut found = None;
    loop {
        let name = match parser.next() {
            Ok(Token::Ident(name)) => name.to_ascii_lowercase(),
            Ok(_) => {
                skip_declaration(parser);
                continue;
            }
            Err(_) => return found,
        };
        if !matches!(parser.next(), Ok(Token::Colon)) {
            skip_declaration(parser);
            continue;
        }
        let value = parser.parse_until_after(cssparser::Delimiter::Semicolon, |p| {
            let mut tokens = Vec::new();
            while let Ok(token) = p.next() {
                tokens.push(token.clone());
            }
            Ok::<_, cssparser::ParseError<()>>(tokens)
        });
        let Ok(tokens) = value else { continue };
        let family = match name.as_str() {
            "font-family" => first_family(&tokens),
            "font" => {
                // The family list follows the size (and an optional `/ line-height`).
                let size = tokens.iter().position(|t| {
                    matches!(t, Token::Dimension { .. } | Token::Percentage { .. })
                        || matches!(t, Token::Ident(s) if is_size_keyword(s))
                });
                size.and_then(|at| {
                    let mut rest = &tokens[at + 1..];
                    if let [Token::Delim('/'), _, tail @ ..] = rest {
                        rest = tail;
                    }
                    first_family(rest)
                })
            }
            _ => None,
        };
        if family.is_some() {
            found = family;
        }
    }
}

fn skip_declaration(parser: &mut Parser<'_>) {
    let _ = parser.parse_until_after(cssparser::Delimiter::Semicolon, |p| {
        while p.next().is_ok() {}
        Ok::<_, cssparser::ParseError<()>>(())
    });
}

fn is_size_keyword(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "xx-small"
            | "x-small"
            | "small"
            | "medium"
            | "large"
            | "x-large"
            | "xx-large"
            | "smaller"
            | "larger"
    )
}

/// The first family of a `font-family` value: a string, or identifiers up
/// to the first comma joined by spaces.
fn first_family(tokens: &[Token<'_>]) -> Option<String> {
    match tokens.first()? {
        Token::QuotedString(s) => Some(s.trim().to_owned()),
        Token::Ident(_) => {
            let words: Vec<String> = tokens
                .iter()
                .map_while(|t| match t {
                    Token::Ident(word) => Some(word.to_string()),
                    Token::Number { int_value: Some(n), .. } => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            Some(words.join(" "))
        }
        _ => None,
    }
}

/// The first family of a `<font face>` list: `"Symbol, Arial"` gives `Symbol`.
pub(crate) fn face_family(face: &str) -> Option<String> {
    let first = face.split(',').next()?.trim().trim_matches(['"', '\'']).trim();
    (!first.is_empty()).then(|| first.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_from_declarations() {
        assert_eq!(font_family("font-family: Symbol").as_deref(), Some("Symbol"));
        assert_eq!(
            font_family("color:red; font-family:'Kruti Dev 010', serif;").as_deref(),
            Some("Kruti Dev 010")
        );
        assert_eq!(font_family("font-family: Wingdings 2, serif").as_deref(), Some("Wingdings 2"));
        assert_eq!(font_family("font: bold 12px/1.5 Webdings, serif").as_deref(), Some("Webdings"));
        assert_eq!(font_family("font: small \"Zapf Dingbats\"").as_deref(), Some("Zapf Dingbats"));
        assert_eq!(font_family("font-family: a; font-family: b").as_deref(), Some("b"));
        assert_eq!(font_family("color: red"), None);
        assert_eq!(font_family("font-family:; : ; {}} font-family"), None);
    }

    #[test]
    fn simple_rules_only() {
        let mut sheet = StyleSheet::default();
        sheet.parse(
            "/* c */ @import url(\"x.css\"); @import 'y.css';\n\
             .sym, p#g { font-family: Symbol } div p { font-family: Symbol }\n\
             @media screen { span.w { font: 10pt Wingdings } }\n\
             a:hover { font-family: Symbol } * { color: red }",
        );
        let rules: Vec<(String, &str)> =
            sheet.rules.iter().map(|r| (r.selector.to_css(), r.family.as_str())).collect();
        assert_eq!(
            rules,
            [(".sym".into(), "Symbol"), ("p#g".into(), "Symbol"), ("span.w".into(), "Wingdings")]
        );
        assert_eq!(sheet.imports, ["x.css", "y.css"]);
        let sel = &sheet.rules[2].selector;
        assert!(sel.matches("SPAN", None, &["x", "w"]));
        assert!(!sel.matches("div", None, &["w"]));
        assert_eq!(sel.specificity(), (0, 1, 1));
    }

    #[test]
    fn face_lists() {
        assert_eq!(face_family(" 'Symbol' , Arial").as_deref(), Some("Symbol"));
        assert_eq!(face_family(" , Arial"), None);
    }
}
