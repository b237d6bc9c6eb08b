//! The font pass over arbitrary text, as HTML and as plain text, the
//! Zawgyi detector and converters, and the private-use scan: no panic;
//! conversions inside the input, in order, without overlap, each with the
//! input's text as `before`; private-use reports on their characters.
#![no_main]

use charsight::font::{self, Markup, Registry};
use charsight::{pua, zawgyi, Charset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let registry = Registry::builtin();
    for markup in [Markup::Html, Markup::Text] {
        let pass = font::convert(&text, markup, &registry);
        let mut end = 0;
        for c in &pass.conversions {
            assert!(c.range.start >= end && c.range.end <= text.len());
            assert_eq!(&text[c.range.clone()], c.before);
            assert!((0.0..=1.0).contains(&c.confidence));
            end = c.range.end;
        }
        if pass.conversions.is_empty() {
            assert_eq!(pass.text, text);
        }
        for scope in &pass.scopes {
            assert!(scope.range.start <= scope.range.end && scope.range.end <= text.len());
        }
    }
    let _ = font::detect_layer(&text, &registry);
    if let Some(p) = zawgyi::probability(&text) {
        assert!((0.0..=1.0).contains(&p));
    }
    let _ = zawgyi::to_zawgyi(&zawgyi::to_unicode(&text));
    for found in pua::scan(&text, Some(Charset::ShiftJis)).iter().chain(&pua::scan(&text, None)) {
        assert_eq!(text[found.range.clone()].chars().next(), Some(found.code_point));
    }
});
