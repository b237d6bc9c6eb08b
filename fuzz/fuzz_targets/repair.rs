//! `repair all` over arbitrary bytes in any encoding: no panic; nothing is
//! lost (undoing every finding gives the plain decode back); the chunking
//! does not matter; and repairing the output again changes nothing.
#![no_main]

use charsight::decode::{Errors, TextDecoder};
use charsight::repair::{undo, Finding, RepairPolicy, Repairer};
use charsight::Charset;
use libfuzzer_sys::fuzz_target;

fn repair(bytes: &[u8], charset: Charset, chunk: usize) -> (String, Vec<Finding>) {
    let mut repairer = Repairer::new(charset, RepairPolicy::all(), Errors::Replace);
    let mut text = String::new();
    for piece in bytes.chunks(chunk.max(1)) {
        repairer.repair(piece, false, &mut text).expect("replace mode never fails");
    }
    repairer.repair(b"", true, &mut text).expect("replace mode never fails");
    (text, repairer.findings().list.clone())
}

fuzz_target!(|data: &[u8]| {
    let Some((&[a, b], bytes)) = data.split_first_chunk::<2>() else { return };
    // Mostly UTF-8 and the common legacy encodings, where repairs happen.
    let charset = match a % 4 {
        0 | 1 => Charset::Utf8,
        2 => [Charset::Windows1252, Charset::ShiftJis, Charset::Gbk, Charset::Windows1251][usize::from(a / 4 % 4)],
        _ => Charset::ALL[usize::from(a) % Charset::ALL.len()],
    };
    let (text, findings) = repair(bytes, charset, bytes.len());
    let mut plain = String::new();
    TextDecoder::new(charset, Errors::Replace).decode(bytes, true, &mut plain).unwrap();
    let undone = undo(&text, &findings);
    assert_eq!(undone, plain, "nothing lost");
    assert_eq!(repair(bytes, charset, usize::from(b) % 64 + 1), (text.clone(), findings), "chunking");
    assert_eq!(repair(text.as_bytes(), Charset::Utf8, text.len()).0, text, "idempotent");
});
