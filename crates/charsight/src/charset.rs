//! Character encodings charsight knows: every encoding of the WHATWG Encoding
//! Standard (decoded by `encoding_rs`) plus the ones real files still carry
//! outside it (decoded by [`crate::codec`]).
//!
//! [`Charset`] is a small `Copy` value. Its [`name`](Charset::name) is the
//! canonical WHATWG name where one exists (`UTF-8`, `Shift_JIS`,
//! `windows-1252`) and the usual IANA-style name otherwise (`UTF-32LE`).

use std::borrow::Cow;
use std::fmt;

use encoding_rs::Encoding;

use crate::codec::Decoder;

macro_rules! charsets {
    (
        whatwg { $($wv:ident => $enc:ident,)* }
        extra { $($xv:ident => $xname:literal,)* }
    ) => {
        /// A character encoding.
        ///
        /// Every WHATWG encoding is here, plus encodings outside the WHATWG
        /// standard that charsight decodes itself (see [`Charset::is_whatwg`]).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Charset {
            $(
                #[doc = concat!("`", stringify!($enc), "` of the Encoding Standard.")]
                $wv,
            )*
            $(
                #[doc = concat!("`", $xname, "`, outside the Encoding Standard.")]
                $xv,
            )*
        }

        impl Charset {
            /// Every charset, WHATWG ones first, in a fixed order.
            pub const ALL: &'static [Charset] = &[$(Charset::$wv,)* $(Charset::$xv,)*];

            /// The `encoding_rs` encoding behind this charset, or `None` for
            /// an encoding outside the Encoding Standard.
            pub fn to_encoding_rs(self) -> Option<&'static Encoding> {
                match self {
                    $(Charset::$wv => Some(encoding_rs::$enc),)*
                    _ => None,
                }
            }

            /// The charset of an `encoding_rs` encoding.
            pub fn from_encoding_rs(encoding: &'static Encoding) -> Charset {
                $(if encoding == encoding_rs::$enc { return Charset::$wv; })*
                unreachable!("encoding_rs has no encodings beyond the Encoding Standard")
            }

            /// The canonical name: the WHATWG name for a WHATWG encoding
            /// (`Shift_JIS`, `windows-1252`), else the common IANA-style name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Charset::$wv => encoding_rs::$enc.name(),)*
                    $(Charset::$xv => $xname,)*
                }
            }
        }
    };
}

charsets! {
    whatwg {
        Utf8 => UTF_8,
        Ibm866 => IBM866,
        Iso8859_2 => ISO_8859_2,
        Iso8859_3 => ISO_8859_3,
        Iso8859_4 => ISO_8859_4,
        Iso8859_5 => ISO_8859_5,
        Iso8859_6 => ISO_8859_6,
        Iso8859_7 => ISO_8859_7,
        Iso8859_8 => ISO_8859_8,
        Iso8859_8I => ISO_8859_8_I,
        Iso8859_10 => ISO_8859_10,
        Iso8859_13 => ISO_8859_13,
        Iso8859_14 => ISO_8859_14,
        Iso8859_15 => ISO_8859_15,
        Iso8859_16 => ISO_8859_16,
        Koi8R => KOI8_R,
        Koi8U => KOI8_U,
        Macintosh => MACINTOSH,
        Windows874 => WINDOWS_874,
        Windows1250 => WINDOWS_1250,
        Windows1251 => WINDOWS_1251,
        Windows1252 => WINDOWS_1252,
        Windows1253 => WINDOWS_1253,
        Windows1254 => WINDOWS_1254,
        Windows1255 => WINDOWS_1255,
        Windows1256 => WINDOWS_1256,
        Windows1257 => WINDOWS_1257,
        Windows1258 => WINDOWS_1258,
        XMacCyrillic => X_MAC_CYRILLIC,
        Gbk => GBK,
        Gb18030 => GB18030,
        Big5 => BIG5,
        EucJp => EUC_JP,
        Iso2022Jp => ISO_2022_JP,
        ShiftJis => SHIFT_JIS,
        EucKr => EUC_KR,
        Replacement => REPLACEMENT,
        Utf16Be => UTF_16BE,
        Utf16Le => UTF_16LE,
        XUserDefined => X_USER_DEFINED,
    }
    extra {
        Utf32Le => "UTF-32LE",
        Utf32Be => "UTF-32BE",
    }
}

impl Charset {
    /// Whether this is an encoding of the WHATWG Encoding Standard.
    pub fn is_whatwg(self) -> bool {
        self.to_encoding_rs().is_some()
    }

    /// Whether bytes 0x00–0x7F mean ASCII in this encoding, so that ASCII
    /// markup (`<meta charset=…>`) reads the same in it as in ASCII.
    ///
    /// False for UTF-16/32, ISO-2022-JP (its escapes reuse ASCII bytes) and
    /// `replacement`.
    pub fn is_ascii_compatible(self) -> bool {
        match self.to_encoding_rs() {
            Some(e) => e.is_ascii_compatible() && e != encoding_rs::REPLACEMENT,
            None => !matches!(self, Charset::Utf32Le | Charset::Utf32Be),
        }
    }

    /// Whether every byte stands for one character on its own.
    pub fn is_single_byte(self) -> bool {
        match self.to_encoding_rs() {
            Some(e) => e.is_single_byte(),
            None => false,
        }
    }

    /// Whether this is one of the Unicode encodings (UTF-8, UTF-16, UTF-32).
    pub fn is_unicode(self) -> bool {
        matches!(
            self,
            Charset::Utf8
                | Charset::Utf16Le
                | Charset::Utf16Be
                | Charset::Utf32Le
                | Charset::Utf32Be
        )
    }

    /// Whether the meaning of a byte depends on escape sequences seen
    /// before it (ISO-2022-JP), so the same text has several encodings.
    pub fn is_stateful(self) -> bool {
        matches!(self, Charset::Iso2022Jp)
    }

    /// The byte order mark of this encoding, if it has one.
    pub fn bom(self) -> Option<&'static [u8]> {
        match self {
            Charset::Utf8 => Some(b"\xEF\xBB\xBF"),
            Charset::Utf16Le => Some(b"\xFF\xFE"),
            Charset::Utf16Be => Some(b"\xFE\xFF"),
            Charset::Utf32Le => Some(b"\xFF\xFE\x00\x00"),
            Charset::Utf32Be => Some(b"\x00\x00\xFE\xFF"),
            _ => None,
        }
    }

    /// A new streaming decoder for this charset. It does not strip a BOM:
    /// callers that found one skip its bytes themselves.
    pub fn new_decoder(self) -> Decoder {
        Decoder::new(self)
    }

    /// Decodes `bytes` whole, replacing each malformed sequence with U+FFFD.
    /// Returns the text and whether anything was malformed. A BOM is not
    /// stripped (it decodes to U+FEFF).
    ///
    /// # Example
    /// ```
    /// use charsight::Charset;
    /// let (text, had_errors) = Charset::ShiftJis.decode(b"\x93\xfa\x96\x7b");
    /// assert_eq!(text, "日本");
    /// assert!(!had_errors);
    /// ```
    pub fn decode(self, bytes: &[u8]) -> (Cow<'_, str>, bool) {
        if let Some(encoding) = self.to_encoding_rs() {
            return encoding.decode_without_bom_handling(bytes);
        }
        let mut decoder = self.new_decoder();
        let mut text = String::new();
        let mut had_errors = false;
        decoder.decode_to_string(bytes, &mut text, true, |out, _| {
            had_errors = true;
            out.push('\u{FFFD}');
        });
        (Cow::Owned(text), had_errors)
    }

    /// Encodes `text` in this charset. Returns the bytes and whether some
    /// character had no mapping (it is then written as a decimal numeric
    /// character reference, as the Encoding Standard's encoders do).
    ///
    /// Unlike `encoding_rs`, UTF-16 encodes to UTF-16 (not to UTF-8), so the
    /// round trip `decode` → `encode` holds for every Unicode encoding.
    /// `replacement` has no encoder: it encodes to UTF-8.
    ///
    /// # Example
    /// ```
    /// use charsight::Charset;
    /// assert_eq!(&*Charset::Windows1252.encode("é€").0, b"\xe9\x80");
    /// assert_eq!(&*Charset::Utf16Be.encode("A").0, b"\x00A");
    /// ```
    pub fn encode(self, text: &str) -> (Cow<'_, [u8]>, bool) {
        let bytes: Vec<u8> = match self {
            Charset::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            Charset::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            Charset::Utf32Le => text.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect(),
            Charset::Utf32Be => text.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect(),
            _ => {
                let encoding = self.to_encoding_rs().expect("every extra charset is matched above");
                let (bytes, _, unmappable) = encoding.encode(text);
                return (bytes, unmappable);
            }
        };
        (Cow::Owned(bytes), false)
    }
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<&'static Encoding> for Charset {
    fn from(encoding: &'static Encoding) -> Charset {
        Charset::from_encoding_rs(encoding)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Charset {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_whatwg_encoding_maps_both_ways() {
        for &c in Charset::ALL {
            if let Some(e) = c.to_encoding_rs() {
                assert_eq!(Charset::from_encoding_rs(e), c);
                assert_eq!(c.name(), e.name());
            }
        }
        assert_eq!(Charset::ALL.iter().filter(|c| c.is_whatwg()).count(), 40);
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = Charset::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Charset::ALL.len());
    }

    #[test]
    fn unicode_round_trips() {
        let text = "Grüße, 日本語 😀";
        for c in
            [Charset::Utf8, Charset::Utf16Le, Charset::Utf16Be, Charset::Utf32Le, Charset::Utf32Be]
        {
            let (bytes, unmappable) = c.encode(text);
            assert!(!unmappable);
            let (back, had_errors) = c.decode(&bytes);
            assert!(!had_errors, "{c}");
            assert_eq!(back, text, "{c}");
        }
    }

    #[test]
    fn ascii_compatibility() {
        assert!(Charset::ShiftJis.is_ascii_compatible());
        assert!(!Charset::Utf16Le.is_ascii_compatible());
        assert!(!Charset::Utf32Be.is_ascii_compatible());
        assert!(!Charset::Iso2022Jp.is_ascii_compatible());
        assert!(!Charset::Replacement.is_ascii_compatible());
    }
}
