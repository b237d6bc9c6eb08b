//! A parser for the subset of ICU transliterator rules that the CLDR
//! Zawgyi transforms use, turning rule text into Rust data for the
//! interpreter in `charsight::zawgyi`.
//!
//! Supported: `#` comments, `$var = ...;` definitions (textual
//! substitution), `::Null;` phase breaks, forward rules (`>` or `→`) with a
//! left side made of `\uXXXX` literals, `[...]` sets (ranges, `^`
//! negation), `( )` capture groups, the quantifiers `* + ?`, and the
//! anchors `^` and `$`; a right side made of literals, `$N` group
//! references and one `|` cursor. Anything else (contexts `{ }`, reverse
//! rules, other `::` filters) is rejected, so a rule file that needs more
//! fails loudly instead of being misread.

use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One element of a rule's left side.
#[derive(Debug, PartialEq)]
pub enum Elem {
    /// A code point set, matched `min..=max` times (possessively, as ICU does).
    Set { ranges: Vec<(char, char)>, negated: bool, min: u8, max: u8 },
    /// Start of capture group N (1-based).
    Open(u8),
    /// End of capture group N.
    Close(u8),
}

/// One item of a rule's right side.
#[derive(Debug, PartialEq)]
pub enum Out {
    Text(String),
    Group(u8),
    Cursor,
}

/// A parsed rule.
#[derive(Debug, PartialEq)]
pub struct Rule {
    pub start: bool,
    pub end: bool,
    pub pattern: Vec<Elem>,
    pub output: Vec<Out>,
}

/// Parses a rule file into phases of rules.
pub fn parse(text: &str) -> Result<Vec<Vec<Rule>>> {
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    let mut phases = vec![Vec::new()];
    let stripped: String = text.lines().map(|l| strip_comment(l).to_owned() + "\n").collect();
    for statement in stripped.split(';') {
        let statement = statement.trim();
        if statement.is_empty() {
            continue;
        }
        if let Some(filter) = statement.strip_prefix("::") {
            if filter.trim() != "Null" {
                bail!("unsupported filter rule {statement:?}");
            }
            phases.push(Vec::new());
            continue;
        }
        if let Some(def) = statement.strip_prefix('$') {
            if let Some((name, value)) = def.split_once('=') {
                let name = name.trim();
                if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    vars.insert(name.to_owned(), substitute(value.trim(), &vars)?);
                    continue;
                }
            }
        }
        let rule = parse_rule(statement, &vars).with_context(|| format!("rule {statement:?}"))?;
        phases.last_mut().expect("at least one phase").push(rule);
    }
    phases.retain(|p| !p.is_empty());
    Ok(phases)
}

fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(code, _)| code)
}

/// Replaces `$name` by its definition; leaves `$1` and a lone `$` alone.
fn substitute(text: &str, vars: &BTreeMap<String, String>) -> Result<String> {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|n| n.is_ascii_alphabetic()) {
            let mut name = String::new();
            while let Some(&n) = chars.peek().filter(|n| n.is_ascii_alphanumeric() || **n == '_') {
                name.push(n);
                chars.next();
            }
            out.push_str(vars.get(&name).with_context(|| format!("undefined ${name}"))?);
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn parse_rule(statement: &str, vars: &BTreeMap<String, String>) -> Result<Rule> {
    let statement = substitute(statement, vars)?;
    let (lhs, rhs) = split_arrow(&statement)?;
    let mut rule = Rule { start: false, end: false, pattern: Vec::new(), output: Vec::new() };
    let mut chars = lhs.chars().peekable();
    let mut groups = 0u8;
    let mut open = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {}
            '^' if rule.pattern.is_empty() && !rule.start => rule.start = true,
            '$' => rule.end = true,
            '(' => {
                groups += 1;
                open.push((groups, rule.pattern.len()));
                rule.pattern.push(Elem::Open(groups));
            }
            ')' => {
                let (n, at) = open.pop().context("unbalanced )")?;
                rule.pattern.push(Elem::Close(n));
                if let Some(&q) = chars.peek().filter(|q| matches!(q, '*' | '+' | '?')) {
                    chars.next();
                    // A quantified group of one set: quantify the set.
                    match &mut rule.pattern[at + 1..] {
                        [Elem::Set { min, max, .. }, Elem::Close(_)] if (*min, *max) == (1, 1) => {
                            (*min, *max) = quantifier(q);
                        }
                        _ => bail!("quantifier on a group of several elements"),
                    }
                }
            }
            '[' => {
                let (ranges, negated) = parse_set(&mut chars)?;
                rule.pattern.push(Elem::Set { ranges, negated, min: 1, max: 1 });
            }
            '*' | '+' | '?' => match rule.pattern.last_mut() {
                Some(Elem::Set { min, max, .. }) if (*min, *max) == (1, 1) => {
                    (*min, *max) = quantifier(c);
                }
                _ => bail!("quantifier {c} after nothing quantifiable"),
            },
            '\\' => {
                let lit = escape(&mut chars)?;
                rule.pattern.push(Elem::Set {
                    ranges: vec![(lit, lit)],
                    negated: false,
                    min: 1,
                    max: 1,
                });
            }
            '{' | '}' | '|' => bail!("unsupported {c:?} on the left side"),
            _ => rule.pattern.push(Elem::Set {
                ranges: vec![(c, c)],
                negated: false,
                min: 1,
                max: 1,
            }),
        }
        if rule.end && chars.clone().any(|c| !c.is_whitespace()) {
            bail!("`$` anchor before the end of the pattern");
        }
    }
    if !open.is_empty() {
        bail!("unbalanced (");
    }
    let mut chars = rhs.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {}
            '|' => rule.output.push(Out::Cursor),
            '$' => {
                let d = chars.next().and_then(|d| d.to_digit(10)).context("$ without a digit")?;
                let n = u8::try_from(d)?;
                if n == 0 || n > groups {
                    bail!("reference ${n} to no group");
                }
                rule.output.push(Out::Group(n));
            }
            '\\' => push_text(&mut rule.output, escape(&mut chars)?),
            '{' | '}' | '[' | '(' => bail!("unsupported {c:?} on the right side"),
            _ => push_text(&mut rule.output, c),
        }
    }
    Ok(rule)
}

fn push_text(output: &mut Vec<Out>, c: char) {
    match output.last_mut() {
        Some(Out::Text(s)) => s.push(c),
        _ => output.push(Out::Text(c.to_string())),
    }
}

fn quantifier(q: char) -> (u8, u8) {
    match q {
        '*' => (0, u8::MAX),
        '+' => (1, u8::MAX),
        _ => (0, 1),
    }
}

/// Splits at the forward arrow outside brackets; rejects other arrows.
fn split_arrow(statement: &str) -> Result<(&str, &str)> {
    let mut depth = 0i32;
    let mut escaped = false;
    for (i, c) in statement.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => depth += 1,
            ']' => depth -= 1,
            '>' | '→' if depth == 0 => {
                return Ok((&statement[..i], &statement[i + c.len_utf8()..]));
            }
            '<' | '↔' | '←' if depth == 0 => bail!("reverse or two-way rule"),
            _ => {}
        }
    }
    bail!("no arrow")
}

/// Reads the escape after a backslash: `\uXXXX`, or the next char literally.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<char> {
    let c = chars.next().context("dangling backslash")?;
    if c != 'u' {
        return Ok(c);
    }
    let digits: String = (0..4).filter_map(|_| chars.next()).collect();
    u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32).context("bad \\u escape")
}

/// Reads a `[...]` set after its `[`.
fn parse_set(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
) -> Result<(Vec<(char, char)>, bool)> {
    let negated = chars.next_if_eq(&'^').is_some();
    let mut ranges: Vec<(char, char)> = Vec::new();
    loop {
        let c = match chars.next().context("unterminated set")? {
            ']' => break,
            '[' => bail!("nested sets"),
            ' ' | '\t' => continue,
            '\\' => escape(chars)?,
            c => c,
        };
        if chars.next_if_eq(&'-').is_some() {
            let hi = match chars.next().context("unterminated range")? {
                '\\' => escape(chars)?,
                hi => hi,
            };
            ranges.push((c, hi));
        } else {
            ranges.push((c, c));
        }
    }
    ranges.sort_unstable();
    Ok((ranges, negated))
}

/// Rust source for the phases as `&[&[Rule]]` of the runtime types.
pub fn to_rust(name: &str, phases: &[Vec<Rule>]) -> String {
    let mut s = format!("pub static {name}: &[&[Rule]] = &[\n");
    for phase in phases {
        s.push_str("&[\n");
        for rule in phase {
            let _ = write!(s, "Rule {{ start: {}, end: {}, pattern: &[", rule.start, rule.end);
            for elem in &rule.pattern {
                let _ = match elem {
                    Elem::Set { ranges, negated, min, max } => {
                        write!(s, "Elem::Set {{ ranges: &{ranges:?}, negated: {negated}, min: {min}, max: {max} }},")
                    }
                    Elem::Open(n) => write!(s, "Elem::Open({n}),"),
                    Elem::Close(n) => write!(s, "Elem::Close({n}),"),
                };
            }
            s.push_str("], output: &[");
            for out in &rule.output {
                let _ = match out {
                    Out::Text(t) => write!(s, "Out::Text({t:?}),"),
                    Out::Group(n) => write!(s, "Out::Group({n}),"),
                    Out::Cursor => write!(s, "Out::Cursor,"),
                };
            }
            s.push_str("] },\n");
        }
        s.push_str("],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_variables_groups_quantifiers_and_cursor() {
        let phases = parse(
            "$c = [\\u1000-\\u1021]; # consonants\n($c)+ \\u1031 → | $1 x;\n::Null;\n^ [^a] $ > ;",
        )
        .unwrap();
        assert_eq!(phases.len(), 2);
        let rule = &phases[0][0];
        assert_eq!(
            rule.pattern,
            vec![
                Elem::Open(1),
                Elem::Set {
                    ranges: vec![('\u{1000}', '\u{1021}')],
                    negated: false,
                    min: 1,
                    max: 255
                },
                Elem::Close(1),
                Elem::Set {
                    ranges: vec![('\u{1031}', '\u{1031}')],
                    negated: false,
                    min: 1,
                    max: 1
                },
            ]
        );
        assert_eq!(rule.output, vec![Out::Cursor, Out::Group(1), Out::Text("x".into())]);
        let anchored = &phases[1][0];
        assert!(anchored.start && anchored.end && anchored.output.is_empty());
    }

    #[test]
    fn rejects_what_it_does_not_understand() {
        assert!(parse("a < b;").is_err());
        assert!(parse("a { b } > c;").is_err());
        assert!(parse("::NFC;").is_err());
        assert!(parse("a > $1;").is_err());
        assert!(parse("(a b)+ > c;").is_err());
    }
}
