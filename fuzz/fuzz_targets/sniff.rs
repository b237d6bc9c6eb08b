//! Evidence gathering and the whatwg decision over arbitrary bytes and an
//! arbitrary Content-Type, whole and in chunks: no panic, and the same
//! result either way.
#![no_main]

use charsight::{label, sniff, Engine};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // First byte: how long the Content-Type is; then it; then the document.
    let Some((&n, rest)) = data.split_first() else { return };
    let (content_type, document) = rest.split_at(usize::from(n % 64).min(rest.len()));
    let _ = label::resolve(content_type);
    let _ = sniff::http::parse(content_type);
    let _ = sniff::meta::sniff(document);
    let _ = sniff::xml::autodetect(document);
    let _ = sniff::xml::declaration(document, 0, None);
    let engine = Engine::new().content_type(content_type).prefix_limit(4096);
    let whole = engine.detect(document);
    let mut session = engine.session();
    for chunk in document.chunks(usize::from(n % 7) + 1) {
        session.feed(chunk);
    }
    assert_eq!(session.finish(), whole);
});
