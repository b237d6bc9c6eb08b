//! Character encodings charsight knows: every encoding of the WHATWG Encoding
//! Standard (decoded by `encoding_rs`) plus the ones real files still carry
//! outside it (decoded by [`crate::codec`]).
//!
//! [`Charset`] is a small `Copy` value. Its [`name`](Charset::name) is the
//! canonical WHATWG name where one exists (`UTF-8`, `Shift_JIS`,
//! `windows-1252`) and the usual IANA-style name otherwise (`UTF-32LE`,
//! `IBM437`, `EUC-TW`). Two names are charsight's choice: `x-mac-ce` for
//! Mac OS Central European (Mozilla's old name, in the style of WHATWG's
//! `x-mac-cyrillic`; IANA registers none) and `Johab` (as chardet and
//! uchardet report it). The other Mac OS encodings follow it: `x-mac-greek`,
//! `x-mac-turkish`, `x-mac-icelandic`, `x-mac-croatian`, `x-mac-romanian`,
//! `x-mac-arabic` (the names Mozilla and Windows use). Code page 720 is
//! `DOS-720`, Windows' name for it (IBM never had a code page 720). The EBCDIC
//! code pages have their IANA names (`IBM037`, `IBM500`, and `IBM01140` to
//! `IBM01149` for the euro updates); IBM856 and IBM875, which IANA lacks,
//! are named the same way.
//!
//! EBCDIC code pages are single-byte but not ASCII-compatible
//! ([`Charset::is_ebcdic`]); they map byte 0x25 to LF and 0x15 to U+0085
//! NEXT LINE, as IBM, Python and glibc do.

use std::borrow::Cow;
use std::fmt;

use charsight_tables::charmaps;
use encoding_rs::Encoding;

use crate::codec::{Codec, Decoder, Encoder, JpVariant};

macro_rules! charsets {
    (
        whatwg { $($wv:ident => $enc:ident,)* }
        extra { $($xv:ident => $xname:literal, $codec:expr, $xdoc:literal;)* }
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
                #[doc = concat!("`", $xname, "`: ", $xdoc, " Outside the Encoding Standard.")]
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

            /// How this charset is decoded and encoded.
            pub(crate) fn codec(self) -> Codec {
                match self {
                    $(Charset::$wv => Codec::Whatwg(encoding_rs::$enc),)*
                    $(Charset::$xv => $codec,)*
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
        Utf32Le => "UTF-32LE", Codec::Utf32 { big_endian: false }, "UTF-32, little-endian.";
        Utf32Be => "UTF-32BE", Codec::Utf32 { big_endian: true }, "UTF-32, big-endian.";
        Ibm437 => "IBM437", Codec::SingleByte(&charmaps::IBM437), "DOS Latin US.";
        Ibm737 => "IBM737", Codec::SingleByte(&charmaps::IBM737), "DOS Greek.";
        Ibm775 => "IBM775", Codec::SingleByte(&charmaps::IBM775), "DOS Baltic Rim.";
        Ibm850 => "IBM850", Codec::SingleByte(&charmaps::IBM850), "DOS Latin 1 (Western Europe).";
        Ibm852 => "IBM852", Codec::SingleByte(&charmaps::IBM852), "DOS Latin 2 (Central Europe).";
        Ibm855 => "IBM855", Codec::SingleByte(&charmaps::IBM855), "DOS Cyrillic.";
        Ibm857 => "IBM857", Codec::SingleByte(&charmaps::IBM857), "DOS Turkish.";
        Ibm858 => "IBM858", Codec::SingleByte(&charmaps::IBM858), "DOS Latin 1 with the euro sign.";
        Ibm860 => "IBM860", Codec::SingleByte(&charmaps::IBM860), "DOS Portuguese.";
        Ibm861 => "IBM861", Codec::SingleByte(&charmaps::IBM861), "DOS Icelandic.";
        Ibm862 => "IBM862", Codec::SingleByte(&charmaps::IBM862), "DOS Hebrew.";
        Ibm863 => "IBM863", Codec::SingleByte(&charmaps::IBM863), "DOS Canadian French.";
        Ibm864 => "IBM864", Codec::SingleByte(&charmaps::IBM864),
            "DOS Arabic (byte 0x25 is U+066A ARABIC PERCENT SIGN, as glibc and Microsoft map it).";
        Ibm865 => "IBM865", Codec::SingleByte(&charmaps::IBM865), "DOS Nordic.";
        Ibm869 => "IBM869", Codec::SingleByte(&charmaps::IBM869), "DOS Modern Greek.";
        Cp1125 => "CP1125", Codec::SingleByte(&charmaps::CP1125), "DOS Ukrainian (RUSCII).";
        XMacCe => "x-mac-ce", Codec::SingleByte(&charmaps::X_MAC_CE),
            "Mac OS Central European (Mac Latin 2, code page 10029).";
        Viscii => "VISCII", Codec::SingleByte(&charmaps::VISCII),
            "Vietnamese (RFC 1456); six C0 control bytes are letters.";
        Kz1048 => "KZ-1048", Codec::SingleByte(&charmaps::KZ_1048), "Kazakh (STRK1048-2002).";
        Ptcp154 => "PTCP154", Codec::SingleByte(&charmaps::PTCP154), "Cyrillic-Asian (Kazakh).";
        Armscii8 => "ARMSCII-8", Codec::SingleByte(&charmaps::ARMSCII_8), "Armenian.";
        GeorgianPs => "GEORGIAN-PS", Codec::SingleByte(&charmaps::GEORGIAN_PS), "Georgian.";
        Koi8T => "KOI8-T", Codec::SingleByte(&charmaps::KOI8_T), "Tajik.";
        Geostd8 => "GEOSTD8", Codec::SingleByte(&charmaps::GEOSTD8),
            "Georgian standard 8-bit (MySQL's and MariaDB's geostd8; not glibc's GEORGIAN-ACADEMY).";
        Tcvn5712_1 => "TCVN5712-1", Codec::SingleByte(&charmaps::TCVN5712_1),
            "Vietnamese (TCVN 5712:1993 VN3); tone marks after a letter stay combining marks.";
        Dos720 => "DOS-720", Codec::SingleByte(&charmaps::DOS_720), "DOS Arabic (code page 720).";
        Ibm856 => "IBM856", Codec::SingleByte(&charmaps::IBM856), "DOS Hebrew (IBM).";
        XMacArabic => "x-mac-arabic", Codec::SingleByte(&charmaps::X_MAC_ARABIC),
            "Mac OS Arabic (code page 10004).";
        XMacCroatian => "x-mac-croatian", Codec::SingleByte(&charmaps::X_MAC_CROATIAN),
            "Mac OS Croatian (code page 10082).";
        XMacGreek => "x-mac-greek", Codec::SingleByte(&charmaps::X_MAC_GREEK),
            "Mac OS Greek (code page 10006).";
        XMacIcelandic => "x-mac-icelandic", Codec::SingleByte(&charmaps::X_MAC_ICELANDIC),
            "Mac OS Icelandic (code page 10079).";
        XMacRomanian => "x-mac-romanian", Codec::SingleByte(&charmaps::X_MAC_ROMANIAN),
            "Mac OS Romanian (code page 10010).";
        XMacTurkish => "x-mac-turkish", Codec::SingleByte(&charmaps::X_MAC_TURKISH),
            "Mac OS Turkish (code page 10081).";
        XMacHebrew => "x-mac-hebrew", Codec::SingleByte(&charmaps::X_MAC_HEBREW),
            "Mac OS Hebrew (code page 10005); its right-to-left copies of ASCII punctuation read as ASCII.";
        Ibm037 => "IBM037", Codec::SingleByte(&charmaps::IBM037),
            "EBCDIC US/Canada (CECP 037).";
        Ibm273 => "IBM273", Codec::SingleByte(&charmaps::IBM273), "EBCDIC Germany/Austria.";
        Ibm277 => "IBM277", Codec::SingleByte(&charmaps::IBM277), "EBCDIC Denmark/Norway.";
        Ibm278 => "IBM278", Codec::SingleByte(&charmaps::IBM278), "EBCDIC Finland/Sweden.";
        Ibm280 => "IBM280", Codec::SingleByte(&charmaps::IBM280), "EBCDIC Italy.";
        Ibm284 => "IBM284", Codec::SingleByte(&charmaps::IBM284), "EBCDIC Spain/Latin America.";
        Ibm285 => "IBM285", Codec::SingleByte(&charmaps::IBM285), "EBCDIC United Kingdom.";
        Ibm297 => "IBM297", Codec::SingleByte(&charmaps::IBM297), "EBCDIC France.";
        Ibm424 => "IBM424", Codec::SingleByte(&charmaps::IBM424), "EBCDIC Hebrew.";
        Ibm500 => "IBM500", Codec::SingleByte(&charmaps::IBM500), "EBCDIC International.";
        Ibm871 => "IBM871", Codec::SingleByte(&charmaps::IBM871), "EBCDIC Iceland.";
        Ibm875 => "IBM875", Codec::SingleByte(&charmaps::IBM875), "EBCDIC Greek.";
        Ibm1026 => "IBM1026", Codec::SingleByte(&charmaps::IBM1026), "EBCDIC Turkish (Latin 5).";
        Ibm01140 => "IBM01140", Codec::SingleByte(&charmaps::IBM01140), "IBM037 with the euro sign.";
        Ibm01141 => "IBM01141", Codec::SingleByte(&charmaps::IBM01141), "IBM273 with the euro sign.";
        Ibm01142 => "IBM01142", Codec::SingleByte(&charmaps::IBM01142), "IBM277 with the euro sign.";
        Ibm01143 => "IBM01143", Codec::SingleByte(&charmaps::IBM01143), "IBM278 with the euro sign.";
        Ibm01144 => "IBM01144", Codec::SingleByte(&charmaps::IBM01144), "IBM280 with the euro sign.";
        Ibm01145 => "IBM01145", Codec::SingleByte(&charmaps::IBM01145), "IBM284 with the euro sign.";
        Ibm01146 => "IBM01146", Codec::SingleByte(&charmaps::IBM01146), "IBM285 with the euro sign.";
        Ibm01147 => "IBM01147", Codec::SingleByte(&charmaps::IBM01147), "IBM297 with the euro sign.";
        Ibm01148 => "IBM01148", Codec::SingleByte(&charmaps::IBM01148), "IBM500 with the euro sign.";
        Ibm01149 => "IBM01149", Codec::SingleByte(&charmaps::IBM01149), "IBM871 with the euro sign.";
        Johab => "Johab", Codec::Johab, "Korean, KS X 1001 annex 3 (code page 1361).";
        EucTw => "EUC-TW", Codec::EucTw, "Traditional Chinese, CNS 11643 planes 1-7 and 15.";
        Iso2022Kr => "ISO-2022-KR", Codec::Iso2022Kr,
            "Korean mail (RFC 1557), decoded for real where WHATWG maps it to `replacement`.";
        HzGb2312 => "HZ-GB-2312", Codec::Hz,
            "Simplified Chinese mail and news (RFC 1843), GB 2312 in 7 bits, decoded for real where WHATWG maps it to `replacement`.";
        Utf7 => "UTF-7", Codec::Utf7,
            "Unicode in 7 bits for mail (RFC 2152), decoded as Python's `utf-7` codec reads it.";
        Cesu8 => "CESU-8", Codec::Cesu8,
            "UTF-8 with supplementary characters as two three-byte surrogates (Unicode TR #26).";
        EucJis2004 => "EUC-JIS-2004", Codec::EucJis2004,
            "Japanese, EUC-JP extended to JIS X 0213:2004 (both planes; JIS X 0212 read after `8F` where plane 2 has nothing).";
        ShiftJis2004 => "Shift_JIS-2004", Codec::ShiftJis2004,
            "Japanese, Shift_JIS extended to JIS X 0213:2004 (both planes).";
        Iso2022Jp2 => "ISO-2022-JP-2", Codec::Iso2022JpExt(JpVariant::Jp2),
            "Multilingual Japanese mail (RFC 1554): ISO-2022-JP with JIS X 0212, GB 2312, KS X 1001 and the upper halves of ISO-8859-1 and -7.";
        Iso2022Jp3 => "ISO-2022-JP-3", Codec::Iso2022JpExt(JpVariant::Jp3),
            "Japanese, ISO-2022-JP with both planes of JIS X 0213:2000.";
        Iso2022Jp2004 => "ISO-2022-JP-2004", Codec::Iso2022JpExt(JpVariant::Jp2004),
            "Japanese, ISO-2022-JP with both planes of JIS X 0213:2004.";
        Iso2022Cn => "ISO-2022-CN", Codec::Iso2022Cn { ext: false },
            "Chinese mail (RFC 1922): GB 2312 and CNS 11643 planes 1-2 in 7 bits, decoded for real where WHATWG maps it to `replacement`.";
        Iso2022CnExt => "ISO-2022-CN-EXT", Codec::Iso2022Cn { ext: true },
            "ISO-2022-CN with CNS 11643 planes 3-7 (RFC 1922; not ISO-IR-165), decoded for real where WHATWG maps it to `replacement`.";
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
    /// False for UTF-16/32, ISO-2022-JP, -JP-2, -JP-3, -JP-2004, -KR, -CN and -CN-EXT, HZ-GB-2312 and
    /// UTF-7 (their escapes and shifts reuse ASCII bytes), `replacement` and EBCDIC. True, though
    /// not for every byte, for VISCII (six C0 control bytes are letters),
    /// IBM864 (0x25 is U+066A ARABIC PERCENT SIGN) and Shift_JIS-2004 (0x5C
    /// and 0x7E are `¥` and `‾`): markup reads the same in them.
    pub fn is_ascii_compatible(self) -> bool {
        match self.codec() {
            Codec::Whatwg(e) => e.is_ascii_compatible() && e != encoding_rs::REPLACEMENT,
            Codec::Utf32 { .. }
            | Codec::Iso2022JpExt(_)
            | Codec::Iso2022Kr
            | Codec::Iso2022Cn { .. }
            | Codec::Hz
            | Codec::Utf7 => false,
            Codec::SingleByte(table) => table.ascii_compatible,
            Codec::Johab
            | Codec::EucTw
            | Codec::Cesu8
            | Codec::EucJis2004
            | Codec::ShiftJis2004 => true,
        }
    }

    /// Whether this is an EBCDIC code page (`IBM037`, `IBM500`, …): single
    /// bytes with letters at 0x81–0xE9, digits at 0xF0–0xF9 and the space at
    /// 0x40.
    pub fn is_ebcdic(self) -> bool {
        matches!(self.codec(), Codec::SingleByte(table) if !table.ascii_compatible)
    }

    /// Whether every byte stands for one character on its own.
    pub fn is_single_byte(self) -> bool {
        match self.codec() {
            Codec::Whatwg(e) => e.is_single_byte(),
            Codec::SingleByte(_) => true,
            Codec::Utf32 { .. }
            | Codec::Johab
            | Codec::EucTw
            | Codec::Iso2022JpExt(_)
            | Codec::Iso2022Kr
            | Codec::Iso2022Cn { .. }
            | Codec::Hz
            | Codec::Utf7
            | Codec::Cesu8 => false,
            Codec::EucJis2004 | Codec::ShiftJis2004 => false,
        }
    }

    /// Whether this is one of the Unicode encodings (UTF-8, UTF-16, UTF-32).
    ///
    /// UTF-7 and CESU-8 carry Unicode too but are not counted: they are
    /// read when declared (never detected), and their text is checked
    /// like a legacy encoding's (a character of the escape range is
    /// escaped, not counted as a collision).
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
    /// before it (ISO-2022-JP, -JP-2, -JP-3, -JP-2004, -KR, -CN and -CN-EXT, HZ-GB-2312, UTF-7's `+`),
    /// so the same text has several encodings.
    pub fn is_stateful(self) -> bool {
        matches!(
            self,
            Charset::Iso2022Jp
                | Charset::Iso2022Jp2
                | Charset::Iso2022Jp3
                | Charset::Iso2022Jp2004
                | Charset::Iso2022Kr
                | Charset::Iso2022Cn
                | Charset::Iso2022CnExt
                | Charset::HzGb2312
                | Charset::Utf7
        )
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

    /// A new streaming encoder for this charset. It writes no BOM.
    pub fn new_encoder(self) -> Encoder {
        Encoder::new(self)
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
    /// character reference, as the Encoding Standard's encoders do; in
    /// EBCDIC, in EBCDIC's own `&`, `#`, digits and `;`, so that it reads as
    /// a reference once decoded). To learn which characters and where, use
    /// [`Charset::new_encoder`].
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
    /// assert_eq!(Charset::Ibm866.encode("Ж€"), (b"\x86&#8364;"[..].into(), true));
    /// ```
    pub fn encode(self, text: &str) -> (Cow<'_, [u8]>, bool) {
        let encoding = self.to_encoding_rs();
        if let Some(encoding) = encoding.filter(|e| e.output_encoding() == *e) {
            let (bytes, _, unmappable) = encoding.encode(text);
            return (bytes, unmappable);
        }
        let mut bytes = Vec::with_capacity(text.len());
        let mut unmappable = false;
        let codec = self.codec();
        self.new_encoder().encode_from_str(text, &mut bytes, true, |out, u| {
            unmappable = true;
            codec.push_reference(u.ch, out);
        });
        (Cow::Owned(bytes), unmappable)
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
        assert!(!Charset::Iso2022Jp2.is_ascii_compatible() && Charset::Iso2022Jp2.is_stateful());
        assert!(!Charset::Replacement.is_ascii_compatible());
        assert!(!Charset::Iso2022Kr.is_ascii_compatible());
        assert!(!Charset::HzGb2312.is_ascii_compatible());
        assert!(!Charset::Utf7.is_ascii_compatible());
        assert!(!Charset::Iso2022Cn.is_ascii_compatible());
        assert!(!Charset::Iso2022CnExt.is_ascii_compatible());
        for c in [Charset::Johab, Charset::EucTw, Charset::Ibm437, Charset::Viscii, Charset::Cesu8]
        {
            assert!(c.is_ascii_compatible(), "{c}");
        }
        for c in [Charset::Ibm037, Charset::Ibm424, Charset::Ibm875, Charset::Ibm01149] {
            assert!(!c.is_ascii_compatible() && c.is_ebcdic() && c.is_single_byte(), "{c}");
        }
    }

    #[test]
    fn extra_charsets() {
        let extra: Vec<_> = Charset::ALL.iter().filter(|c| !c.is_whatwg()).collect();
        assert_eq!(extra.len(), 72);
        assert_eq!(extra.iter().filter(|c| c.is_single_byte()).count(), 57);
        assert_eq!(extra.iter().filter(|c| c.is_ebcdic()).count(), 23);
        for c in [
            Charset::Johab,
            Charset::EucTw,
            Charset::Iso2022Kr,
            Charset::HzGb2312,
            Charset::Utf7,
            Charset::Cesu8,
            Charset::EucJis2004,
            Charset::ShiftJis2004,
            Charset::Iso2022Jp2,
            Charset::Iso2022Jp3,
            Charset::Iso2022Jp2004,
            Charset::Iso2022Cn,
            Charset::Iso2022CnExt,
        ] {
            assert!(!c.is_single_byte() && !c.is_unicode(), "{c}");
        }
        // Markup in ASCII reads the same in every ASCII-compatible charset.
        let markup = "<meta charset=\"x\"> &#1; <a href='/?q=1'>";
        for &c in Charset::ALL.iter().filter(|c| c.is_ascii_compatible()) {
            assert_eq!(c.decode(markup.as_bytes()), (markup.into(), false), "{c}");
            assert_eq!(c.encode(markup), (markup.as_bytes().into(), false), "{c}");
        }
    }
}
