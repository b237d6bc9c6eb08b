//! URL decoding over arbitrary bytes, with and without a site hint: no
//! panic, an ASCII `url`, and nothing changed when there is nothing to
//! decode.
#![no_main]

use charsight::url::{self, UrlDecoder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // First byte: which site hint, if any; then the URL.
    let Some((&hint, input)) = data.split_first() else { return };
    let tld = ["", "cn", "tw", "jp", "kr", "com"][usize::from(hint % 6)];
    let decoder = if tld.is_empty() { UrlDecoder::new() } else { UrlDecoder::new().tld(tld) };
    let found = decoder.decode(input);
    assert!(found.url.is_ascii());
    assert_eq!(found.changed, found.url.as_bytes() != input);
    if !url::needs_decoding(input) {
        assert!(!found.changed);
        assert_eq!(found.iri.as_bytes(), input);
    }
    for component in &found.components {
        assert!((0.0..=1.0).contains(&component.confidence));
        assert!(component.span.end <= input.len());
    }
    let hinted = url::HostHints::built_in().get(tld.as_bytes());
    let guess = url::guess(input, Some(tld).filter(|t| !t.is_empty()), hinted.as_slice());
    assert!((0.0..=1.0).contains(&guess.confidence));
});
