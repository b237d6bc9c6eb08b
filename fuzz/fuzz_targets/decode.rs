//! The whole pipeline over arbitrary bytes: every policy, every error mode,
//! declaration fixes, an output encoding; decoding in chunks must give the
//! same text as decoding whole, and nothing may panic.
#![no_main]

use charsight::decode::{declaration_fixes, Errors, TextDecoder, TextEncoder, OnUnmappable};
use charsight::{Charset, Engine, Policy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&[a, b], rest)) = data.split_first_chunk::<2>() else { return };
    let policy = [Policy::Whatwg, Policy::Verify, Policy::Detect][usize::from(a % 3)];
    let errors = [Errors::Replace, Errors::Strict, Errors::Escape][usize::from(a / 3 % 3)];
    let output = Charset::ALL[usize::from(b) % Charset::ALL.len()];
    let (content_type, document) = rest.split_at(usize::from(a / 9 % 32).min(rest.len()));
    let mut engine = Engine::new().policy(policy).content_type(content_type).prefix_limit(2048);
    if b & 0x80 != 0 {
        engine = engine.force_encoding(output);
    }
    let found = engine.detect(document);
    let fixes = declaration_fixes(&found, output);
    let decode = |chunk: usize| {
        let mut decoder =
            TextDecoder::new(found.charset, errors).skip(found.bom_len as u64).with_splices(fixes.clone());
        let mut text = String::new();
        let mut result = Ok(());
        for piece in document.chunks(chunk) {
            result = result.and_then(|_| decoder.decode(piece, false, &mut text));
        }
        let result = result.and_then(|_| decoder.decode(b"", true, &mut text));
        (text, result.map_err(|e| e.offset()), decoder.malformed().clone())
    };
    let whole = decode(document.len().max(1));
    let chunked = decode(usize::from(b % 13) + 1);
    assert_eq!(whole, chunked);
    if output != Charset::Replacement {
        let mut bytes = Vec::new();
        let _ = TextEncoder::new(output, OnUnmappable::Reference)
            .raw_escapes(errors == Errors::Escape)
            .encode(&whole.0, true, &mut bytes);
    }
});
