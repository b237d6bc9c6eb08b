//! The font pass over arbitrary text, as HTML and as plain text (with it
//! the Zawgyi detector and converter), and the converter back to Zawgyi:
//! no panic; conversions inside the input, in order, without overlap, each
//! with the input's text as `before`. (The private-use scan, internal
//! since the API was made smaller, is fuzzed through `repair`.)
#![no_main]

use charsight::font::{self, Markup, Registry};
use charsight::unstable::to_zawgyi;
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
    let _ = to_zawgyi(&font::convert(&text, Markup::Text, &registry).text);
});
