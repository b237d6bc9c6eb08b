//! Advice on a document whose own declaration (`<meta>` charset, the XML
//! declaration's `encoding`) does not name the encoding of the output. The
//! library states the facts; the command phrases the advice, and offers
//! `--keep-encoding` only when the text can be written in the declared
//! encoding.

use charsight::decode::{OnUnmappable, TextEncoder};
use charsight::{Charset, Detection};

/// The charset the document's own declaration names (what `--keep-encoding`
/// writes): the one that counts, as the engine weighed it
/// ([`Detection::declaration`]: `<meta>` before an XML declaration in HTML).
pub fn declared_in_document(detection: &Detection) -> Option<Charset> {
    detection.declaration().and_then(|e| e.usable())
}

/// Whether decoded text can be written in an encoding, checked as the text
/// streams by.
pub struct Fits {
    encoder: Option<TextEncoder>,
    fits: bool,
    scratch: Vec<u8>,
}

impl Fits {
    /// A check of `charset`; with `None`, nothing is checked and nothing fits.
    pub fn new(charset: Option<Charset>) -> Fits {
        Fits {
            encoder: charset.map(|c| TextEncoder::new(c, OnUnmappable::Fail)),
            fits: charset.is_some(),
            scratch: Vec::new(),
        }
    }

    /// Checks the next piece of text; `last` ends it.
    pub fn check(&mut self, text: &str, last: bool) {
        if let Some(encoder) = &mut self.encoder {
            if encoder.encode(text, last, &mut self.scratch).is_err() {
                self.encoder = None;
                self.fits = false;
            }
            self.scratch.clear();
        }
    }

    /// Whether every character so far can be written.
    pub fn fits(&self) -> bool {
        self.fits
    }
}

/// What to do about a document that declares `declared` in itself, written
/// in `output`; `keep_fits` says whether its text can be written in
/// `declared`. Nothing when the output is in the declared encoding.
pub fn declaration(declared: Charset, output: Charset, keep_fits: bool) -> Option<String> {
    if declared == output {
        return None;
    }
    let fix = format!("decode with --fix-declaration to rewrite it to name {output}");
    Some(match keep_fits {
        true => format!("{fix}, or with --keep-encoding to write the text in {declared}"),
        false => format!("{fix} (--keep-encoding cannot: some characters have no {declared} form)"),
    })
}

/// `n` things, grouped by thousands: `1 byte`, `1,234 bytes` (`what` takes
/// an `s`).
pub fn count(n: u64, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{} {what}s", group(n)),
    }
}

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_and_counted() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1234), "1,234");
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(count(1, "byte"), "1 byte");
        assert_eq!(count(0, "finding"), "0 findings");
        assert_eq!(count(2345, "byte"), "2,345 bytes");
    }

    #[test]
    fn text_fits_an_encoding_or_not() {
        let mut fits = Fits::new(Some(Charset::Windows1252));
        fits.check("café", false);
        assert!(fits.fits());
        fits.check("Ελληνικά", true);
        assert!(!fits.fits());
        assert!(!Fits::new(None).fits());
    }
}
