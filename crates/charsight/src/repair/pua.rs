//! The `pua` repair: private-use characters (gaiji). Those a vendor table
//! maps to standard Unicode (NTT DoCoMo's emoji in the Shift_JIS
//! user-defined rows) are replaced; every other one is reported where it
//! is and where it came from, and left as it is ([`crate::pua`]).

use std::ops::Range;

use super::{Cause, Edit, Kind};
use crate::decode::is_escape;
use crate::pua::{self, Origin, PrivateUse};
use crate::Charset;

/// The confidence of a vendor table's mapping: KDDI and SoftBank put
/// other emoji in some of the same Shift_JIS code points, and a page does
/// not say which carrier it was written for.
const VENDOR_CONFIDENCE: f32 = 0.9;

/// The private-use characters of `text` (a block's decoded text, from
/// `charset`) outside `edits`: edits for those a vendor table maps, and
/// the others' text ranges with what is known of them.
pub(crate) fn repair_text(
    text: &str,
    charset: Charset,
    edits: &[Edit],
) -> (Vec<Edit>, Vec<(Range<usize>, Cause)>) {
    let outside =
        |r: &Range<usize>| !edits.iter().any(|e| e.range.start < r.end && r.start < e.range.end);
    let mut mapped = Vec::new();
    let mut left = Vec::new();
    for found in pua::scan(text, Some(charset)) {
        // Undecodable bytes are carried as private-use escapes: not text.
        if is_escape(found.code_point) || !outside(&found.range) {
            continue;
        }
        let origin = describe(&found, charset);
        match (found.mapped, found.vendor) {
            (Some(after), Some(vendor)) => mapped.push(Edit {
                range: found.range,
                after: after.to_owned(),
                kind: Kind::PrivateUse,
                cause: Cause::Vendor { vendor, origin },
                confidence: VENDOR_CONFIDENCE,
            }),
            _ => {
                left.push((found.range, Cause::PrivateUse { code_point: found.code_point, origin }))
            }
        }
    }
    (mapped, left)
}

/// Where a private-use character came from, in words.
fn describe(found: &PrivateUse, charset: Charset) -> String {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(" ");
    match &found.origin {
        Origin::ShiftJisUserDefined(bytes) => {
            format!("Shift_JIS user-defined row, bytes {}", hex(bytes))
        }
        Origin::UserDefined(bytes) => format!("{charset} user-defined area, bytes {}", hex(bytes)),
        Origin::XUserDefined(byte) => format!("x-user-defined byte {byte:02X}"),
        Origin::SymbolFont(byte) => format!("a symbol font's private-use form of byte {byte:02X}"),
        _ => "origin unknown".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docomo_emoji_are_mapped_and_other_gaiji_reported() {
        let (text, _) = Charset::ShiftJis.decode(b"\x82\xa0\xf8\x9f\xf0\x40");
        let (mapped, left) = repair_text(&text, Charset::ShiftJis, &[]);
        assert_eq!(mapped.len(), 1);
        assert_eq!(mapped[0].after, "\u{2600}");
        assert_eq!(
            mapped[0].cause.to_string(),
            "NTT DoCoMo emoji, Shift_JIS user-defined row, bytes F8 9F"
        );
        assert_eq!(left.len(), 1);
        assert_eq!(&text[left[0].0.clone()], "\u{E000}");
        assert!(left[0].1.to_string().contains("F0 40"), "{}", left[0].1);
    }

    #[test]
    fn escapes_and_edited_text_are_not_reported() {
        let text = format!("\u{E000}{}", crate::decode::escape(0x80));
        let edit = Edit {
            range: 0..3,
            after: String::new(),
            kind: Kind::Fonts,
            cause: Cause::Font { font: "Symbol".into(), basis: crate::font::Basis::FontScope },
            confidence: 1.0,
        };
        assert_eq!(repair_text(&text, Charset::Utf8, &[edit]), (Vec::new(), Vec::new()));
        assert_eq!(repair_text(&text, Charset::Utf8, &[]).1.len(), 1);
    }
}
