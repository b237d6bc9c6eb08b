//! Content detection over arbitrary bytes, with hints, whole and in chunks:
//! no panic, the same guess either way, and a guess that holds together
//! (the first candidate the charset, the others ranked, confidences in
//! 0..=1).
#![no_main]

use charsight::detect::{plausibility, Detector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // First byte: chunk size and which hints; the rest: the document.
    let Some((&n, document)) = data.split_first() else { return };
    let tld = ["jp", "ru", "com", "tw"].get(usize::from(n >> 6));
    let language = (n & 0x20 != 0).then_some("el");
    let mut whole = Detector::with_hints(tld.copied(), language);
    whole.feed(document, true);
    let guess = whole.guess();
    let mut chunked = Detector::with_hints(tld.copied(), language);
    for chunk in document.chunks(usize::from(n % 31) + 1) {
        chunked.feed(chunk, false);
    }
    chunked.feed(b"", true);
    assert_eq!(chunked.guess(), guess);
    assert_eq!(guess.charset, guess.candidates.first().map(|c| c.charset));
    // First the reading of the likeliest decoding (not always the
    // cheapest: see `Guess::candidates`), then the others cheapest first.
    for pair in guess.candidates.get(1..).unwrap_or_default().windows(2) {
        assert!(pair[0].bits_behind <= pair[1].bits_behind, "{:?}", guess.candidates);
    }
    for c in &guess.candidates {
        assert!((0.0..=1.0).contains(&c.confidence), "{c:?}");
    }
    if let Ok(text) = std::str::from_utf8(document) {
        let p = plausibility(text);
        assert!(p.bits >= 0.0 && p.bits.is_finite());
    }
});
