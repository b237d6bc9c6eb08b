//! Stage 0: encoding labels to [`Charset`]s.
//!
//! Input: a label as found in a header, a `<meta>`, an XML declaration or on
//! a command line. Output: a [`Charset`], or a [`LabelError`] that says why
//! the label names none (empty, `none`, unknown).
//!
//! Resolution order:
//! 1. aliases seen in the wild that the WHATWG list lacks or maps somewhere
//!    charsight can do better (`cp932`, `UHC`, `UTF-32`, …), and the labels
//!    of the encodings outside the Encoding Standard (`cp437`, `x-mac-ce`,
//!    `johab`, `euc-tw`, …);
//! 2. the WHATWG Encoding Standard's [_get an encoding_] through
//!    `encoding_rs::Encoding::for_label`;
//! 3. the same names with separators dropped or changed (`ISO8859-1`,
//!    `UTF_8`, `win-1251`, `CP-1252`).
//!
//! Each charset answers to its IANA names and aliases, Python's codec names
//! and aliases (`cp037`, `mac_greek`, `latin9`) and the usual iconv and
//! Java names (`MAC-IS`, `EBCDIC-CP-US`, `x-IBM875`).
//!
//! The labels the Encoding Standard maps to `replacement` (a single U+FFFD,
//! to keep browsers from encodings nobody should send) depart from it on
//! purpose: `iso-2022-kr` (and `csiso2022kr`) names [`Charset::Iso2022Kr`],
//! `hz-gb-2312` [`Charset::HzGb2312`], `iso-2022-cn` (`csiso2022cn`)
//! [`Charset::Iso2022Cn`] and `iso-2022-cn-ext` (`csiso2022cnext`)
//! [`Charset::Iso2022CnExt`], which charsight decodes for real: a reader of
//! old mail and news wants the text. The `whatwg` policy reads all of them
//! as the standard does.
//!
//! [_get an encoding_]: https://encoding.spec.whatwg.org/#concept-encoding-get

use std::error::Error;
use std::fmt;

use encoding_rs::Encoding;

use crate::Charset;

/// Labels longer than this (after trimming) name no encoding.
const MAX_LABEL_LEN: usize = 48;

/// Resolves an encoding label to a [`Charset`].
///
/// Takes bytes rather than `&str` because labels come from documents and
/// headers of unknown encoding. Leading and trailing ASCII whitespace is
/// ignored and case does not matter. Never allocates.
///
/// # Errors
/// [`LabelError`] when the label is empty, is `none`, or names no encoding
/// charsight knows.
///
/// # Example
/// ```
/// use charsight::{label, Charset};
/// assert_eq!(label::resolve(b" Shift_JIS "), Ok(Charset::ShiftJis));
/// assert_eq!(label::resolve(b"cp936"), Ok(Charset::Gbk));
/// assert_eq!(label::resolve(b"ISO8859-1"), Ok(Charset::Windows1252));
/// assert_eq!(label::resolve(b"UTF-32LE"), Ok(Charset::Utf32Le));
/// assert!(label::resolve(b"nonsense").is_err());
/// ```
pub fn resolve(label: &[u8]) -> Result<Charset, LabelError> {
    let trimmed = label.trim_ascii();
    let error = |kind| LabelError { kind, label: String::from_utf8_lossy(trimmed).into_owned() };
    if trimmed.is_empty() {
        return Err(error(LabelErrorKind::Empty));
    }
    if trimmed.eq_ignore_ascii_case(b"none") {
        return Err(error(LabelErrorKind::None));
    }
    if trimmed.len() > MAX_LABEL_LEN {
        return Err(error(LabelErrorKind::Unknown));
    }
    let mut lower = [0u8; MAX_LABEL_LEN];
    let lower = &mut lower[..trimmed.len()];
    lower.copy_from_slice(trimmed);
    lower.make_ascii_lowercase();

    let mut squeezed = [0u8; MAX_LABEL_LEN];
    let squeezed_len = squeeze(lower, &mut squeezed);
    let squeezed = &squeezed[..squeezed_len];

    if let Some(charset) = alias(squeezed) {
        return Ok(charset);
    }
    if let Some(encoding) = Encoding::for_label(lower) {
        return Ok(Charset::from_encoding_rs(encoding));
    }
    by_pattern(squeezed).ok_or_else(|| error(LabelErrorKind::Unknown))
}

/// Why a label names no encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelError {
    kind: LabelErrorKind,
    label: String,
}

/// The kinds of [`LabelError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LabelErrorKind {
    /// The label was empty or only whitespace.
    Empty,
    /// The label was `none`, which some servers send to mean "not declared".
    None,
    /// The label names no encoding charsight knows.
    Unknown,
}

impl LabelError {
    /// What kind of failure this is.
    pub fn kind(&self) -> LabelErrorKind {
        self.kind
    }

    /// The label (trimmed, non-UTF-8 bytes replaced).
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            LabelErrorKind::Empty => f.write_str("empty encoding label"),
            LabelErrorKind::None => f.write_str("encoding label 'none' names no encoding"),
            LabelErrorKind::Unknown => {
                write!(f, "unknown encoding label '{}'", self.label.escape_debug())
            }
        }
    }
}

impl Error for LabelError {}

/// Copies `label` without `-`, `_`, `.`, `:`, spaces and tabs; returns the length.
fn squeeze(label: &[u8], out: &mut [u8; MAX_LABEL_LEN]) -> usize {
    let mut n = 0;
    for &b in label.iter().filter(|b| !matches!(b, b'-' | b'_' | b'.' | b':' | b' ' | b'\t')) {
        out[n] = b;
        n += 1;
    }
    n
}

/// Aliases the WHATWG list lacks, keyed by their squeezed form.
fn alias(squeezed: &[u8]) -> Option<Charset> {
    use Charset::*;
    let charset = match squeezed {
        b"utf8" | b"utf8mb3" | b"utf8mb4" | b"cp65001" | b"unicode20utf8" | b"xunicode20utf8" => {
            Utf8
        }
        b"utf16" | b"utf16le" | b"ucs2" | b"ucs2le" | b"unicodefeff" | b"cp1200" => Utf16Le,
        b"utf16be" | b"ucs2be" | b"unicodefffe" | b"cp1201" => Utf16Be,
        // Unmarked UTF-32 is big-endian (Unicode Standard, D99); a BOM or
        // the XML autodetection pattern overrides this in `sniff`.
        b"utf32" | b"utf32be" | b"ucs4" | b"ucs4be" | b"cp12001" | b"iso10646ucs4" => Utf32Be,
        b"utf32le" | b"ucs4le" | b"cp12000" => Utf32Le,
        b"windows31j" | b"ms932" | b"cp932" | b"xsjis" | b"sjis" | b"shiftjis" | b"mskanji"
        | b"pck" | b"sjisopen" | b"sjiswin" | b"xmscp932" | b"ibm943" => ShiftJis,
        b"xeuc" | b"eucjp" | b"xeucjp" | b"ujis" | b"eucjpms" | b"cp51932" | b"cp20932" => EucJp,
        b"cp936" | b"ms936" | b"windows936" | b"euccn" | b"xeuccn" | b"gbk" | b"gb2312"
        | b"cp20936" | b"gb231280" => Gbk,
        b"gb18030" | b"gb180302000" | b"gb180302005" | b"gb180302022" | b"cp54936" => Gb18030,
        b"cp949" | b"ms949" | b"uhc" | b"windows949" | b"euckr" | b"cp51949" | b"ksx1001"
        | b"xwindows949" => EucKr,
        b"cp950" | b"ms950" | b"windows950" | b"bigfive" | b"big5" | b"big5hkscs" | b"xbig5"
        | b"cp951" => Big5,
        b"macroman" | b"xmacroman" | b"cp10000" => Macintosh,
        // Mac OS Ukrainian is WHATWG's x-mac-cyrillic except for 0xFF (¤
        // in glibc's MAC-UK, € in WHATWG's table and Apple's later one).
        b"maccyrillic" | b"xmaccyrillic" | b"xmacukrainian" | b"macukrainian" | b"macuk"
        | b"macukraine" | b"cp10007" | b"cp10017" => XMacCyrillic,
        // IBM874 and Python's cp874 are windows-874 less the C1 controls
        // that WHATWG's table gives 0x81-0x9F's empty bytes.
        b"tis620" | b"iso885911" | b"cp874" | b"win874" | b"ms874" | b"ibm874" | b"thai"
        | b"isoir166" | b"tis62025290" | b"tis62025291" => Windows874,
        b"latin1" | b"iso88591" | b"88591" | b"cp819" | b"ibm819" | b"cp28591" => Windows1252,
        b"latin5" | b"iso88599" | b"88599" | b"cp28599" => Windows1254,
        b"latin" | b"8859" | b"iso8859" | b"isoir100" => Windows1252,
        b"latin7" | b"l7" => Iso8859_13,
        b"latin8" | b"l8" | b"isoceltic" | b"isoir199" => Iso8859_14,
        b"latin9" => Iso8859_15,
        b"latin10" | b"l10" | b"isoir226" => Iso8859_16,
        b"koi8" | b"koi8r" | b"cp20866" => Koi8R,
        b"koi8u" | b"koi8ru" | b"cp21866" => Koi8U,
        b"cp866" | b"ibm866" | b"866" | b"dos866" => Ibm866,
        // Outside the Encoding Standard: the DOS code pages, …
        b"cp437" | b"ibm437" | b"437" | b"cspc8codepage437" | b"dos437" => Ibm437,
        b"cp737" | b"ibm737" | b"737" => Ibm737,
        b"cp775" | b"ibm775" | b"775" | b"cspc775baltic" => Ibm775,
        b"cp850" | b"ibm850" | b"850" | b"cspc850multilingual" | b"dos850" => Ibm850,
        b"cp852" | b"ibm852" | b"852" | b"cspcp852" | b"dos852" => Ibm852,
        b"cp855" | b"ibm855" | b"855" | b"csibm855" => Ibm855,
        b"cp857" | b"ibm857" | b"857" | b"csibm857" => Ibm857,
        b"cp858"
        | b"ibm858"
        | b"858"
        | b"ibm00858"
        | b"ccsid00858"
        | b"cp00858"
        | b"csibm00858"
        | b"pcmultilingual850+euro" => Ibm858,
        b"cp860" | b"ibm860" | b"860" | b"csibm860" => Ibm860,
        b"cp861" | b"ibm861" | b"861" | b"cpis" | b"csibm861" => Ibm861,
        b"cp862" | b"ibm862" | b"862" | b"cspc862latinhebrew" => Ibm862,
        b"cp863" | b"ibm863" | b"863" | b"csibm863" => Ibm863,
        b"cp864" | b"ibm864" | b"864" | b"csibm864" => Ibm864,
        b"cp865" | b"ibm865" | b"865" | b"csibm865" => Ibm865,
        b"cp869" | b"ibm869" | b"869" | b"cpgr" | b"csibm869" => Ibm869,
        b"cp1125" | b"ibm1125" | b"cp866u" | b"ruscii" => Cp1125,
        b"dos720" | b"cp720" | b"ibm720" | b"720" | b"windows720" | b"transparentasmo" => Dos720,
        b"ibm856" | b"cp856" | b"856" | b"csibm856" => Ibm856,
        // … Mac OS Central European, …
        b"xmacce"
        | b"macce"
        | b"maccentraleurope"
        | b"xmaccentraleurroman"
        | b"maccentraleurroman"
        | b"maclatin2"
        | b"maccenteuro"
        | b"cp10029" => XMacCe,
        // … the other Mac OS encodings, …
        b"xmacarabic" | b"macarabic" | b"cp10004" => XMacArabic,
        b"xmaccroatian" | b"maccroatian" | b"cp10082" => XMacCroatian,
        b"xmacgreek" | b"macgreek" | b"cp10006" => XMacGreek,
        b"xmacicelandic" | b"macicelandic" | b"xmaciceland" | b"maciceland" | b"macis"
        | b"cp10079" => XMacIcelandic,
        b"xmacromanian" | b"macromanian" | b"macromania" | b"cp10010" => XMacRomanian,
        b"xmacturkish" | b"macturkish" | b"cp10081" => XMacTurkish,
        // … EBCDIC (IANA's, Python's, iconv's and Java's names), …
        b"ibm037" | b"cp037" | b"ibm37" | b"cp37" | b"037" | b"csibm037" | b"ebcdiccpus"
        | b"ebcdiccpca" | b"ebcdiccpwt" | b"ebcdiccpnl" | b"ibm039" | b"ebcdicus" => Ibm037,
        b"ibm273" | b"cp273" | b"273" | b"csibm273" => Ibm273,
        b"ibm277" | b"cp277" | b"277" | b"csibm277" | b"ebcdiccpdk" | b"ebcdiccpno" => Ibm277,
        b"ibm278" | b"cp278" | b"278" | b"csibm278" | b"ebcdiccpfi" | b"ebcdiccpse" => Ibm278,
        b"ibm280" | b"cp280" | b"280" | b"csibm280" | b"ebcdiccpit" => Ibm280,
        b"ibm284" | b"cp284" | b"284" | b"csibm284" | b"ebcdiccpes" => Ibm284,
        b"ibm285" | b"cp285" | b"285" | b"csibm285" | b"ebcdiccpgb" => Ibm285,
        b"ibm297" | b"cp297" | b"297" | b"csibm297" | b"ebcdiccpfr" => Ibm297,
        b"ibm424" | b"cp424" | b"424" | b"csibm424" | b"ebcdiccphe" => Ibm424,
        b"ibm500" | b"cp500" | b"500" | b"csibm500" | b"ebcdiccpbe" | b"ebcdiccpch" => Ibm500,
        b"ibm871" | b"cp871" | b"871" | b"csibm871" | b"ebcdiccpis" => Ibm871,
        b"ibm875" | b"cp875" | b"875" | b"xibm875" => Ibm875,
        b"ibm1026" | b"cp1026" | b"1026" | b"csibm1026" => Ibm1026,
        b"ibm01140" | b"ibm1140" | b"cp01140" | b"cp1140" | b"1140" | b"ccsid01140"
        | b"csibm01140" | b"ebcdicus37+euro" => Ibm01140,
        b"ibm01141" | b"ibm1141" | b"cp01141" | b"cp1141" | b"ccsid01141" | b"csibm01141"
        | b"ebcdicde273+euro" => Ibm01141,
        b"ibm01142" | b"ibm1142" | b"cp01142" | b"cp1142" | b"ccsid01142" | b"csibm01142"
        | b"ebcdicdk277+euro" | b"ebcdicno277+euro" => Ibm01142,
        b"ibm01143" | b"ibm1143" | b"cp01143" | b"cp1143" | b"ccsid01143" | b"csibm01143"
        | b"ebcdicfi278+euro" | b"ebcdicse278+euro" => Ibm01143,
        b"ibm01144" | b"ibm1144" | b"cp01144" | b"cp1144" | b"ccsid01144" | b"csibm01144"
        | b"ebcdicit280+euro" => Ibm01144,
        b"ibm01145" | b"ibm1145" | b"cp01145" | b"cp1145" | b"ccsid01145" | b"csibm01145"
        | b"ebcdices284+euro" => Ibm01145,
        b"ibm01146" | b"ibm1146" | b"cp01146" | b"cp1146" | b"ccsid01146" | b"csibm01146"
        | b"ebcdicgb285+euro" => Ibm01146,
        b"ibm01147" | b"ibm1147" | b"cp01147" | b"cp1147" | b"ccsid01147" | b"csibm01147"
        | b"ebcdicfr297+euro" => Ibm01147,
        b"ibm01148"
        | b"ibm1148"
        | b"cp01148"
        | b"cp1148"
        | b"ccsid01148"
        | b"csibm01148"
        | b"ebcdicinternational500+euro" => Ibm01148,
        b"ibm01149" | b"ibm1149" | b"cp01149" | b"cp1149" | b"ccsid01149" | b"csibm01149"
        | b"ebcdicis871+euro" => Ibm01149,
        // … and the rest.
        b"viscii" | b"csviscii" | b"viscii111" => Viscii,
        b"kz1048" | b"strk10482002" | b"rk1048" | b"cskz1048" => Kz1048,
        b"ptcp154" | b"pt154" | b"cp154" | b"csptcp154" | b"cyrillicasian" => Ptcp154,
        b"armscii8" => Armscii8,
        b"georgianps" => GeorgianPs,
        b"xmachebrew" | b"machebrew" | b"cp10005" => XMacHebrew,
        // Not `georgianacademy`: glibc's GEORGIAN-ACADEMY is another table.
        b"geostd8" => Geostd8,
        b"koi8t" => Koi8T,
        b"tcvn" | b"tcvn5712" | b"tcvn57121" | b"tcvn571211993" | b"tcvn3" | b"vn3" => Tcvn5712_1,
        b"johab" | b"cp1361" | b"ms1361" | b"xjohab" => Johab,
        b"euctw" | b"xeuctw" | b"cns11643" | b"cp964" | b"ibm964" => EucTw,
        // JIS X 0213:2004 (none is in IANA's registry). glibc's and iconv's
        // `EUC-JISX0213` and `SHIFT_JISX0213` are the 2004 edition; Python's
        // codecs of those names are the 2000 edition, without ten
        // characters, and `jisx0213` is its alias of `euc_jis_2004`.
        b"eucjis2004" | b"eucjisx0213" | b"jisx0213" => EucJis2004,
        b"shiftjis2004" | b"sjis2004" | b"shiftjisx0213" | b"sjisx0213" => ShiftJis2004,
        // WHATWG: `replacement`; see the module docs.
        b"iso2022kr" | b"csiso2022kr" | b"cp50225" => Iso2022Kr,
        b"hzgb2312" | b"hz" | b"hzgb" | b"cp52936" => HzGb2312,
        // Outside the Encoding Standard, which leaves UTF-7 out on purpose
        // (the `whatwg` policy does not honour these labels).
        b"utf7" | b"unicode11utf7" | b"csunicode11utf7" | b"xutf7" | b"cp65000" => Utf7,
        b"cesu8" | b"cscesu8" => Cesu8,
        // RFC 1554's name, IANA's alias, Python's and iconv's names; JIS X
        // 0213's (iconv's ISO-2022-JP-3 is the 2004 edition, Python's the
        // 2000 one, as the JIS standard names them).
        b"iso2022jp2" | b"csiso2022jp2" => Iso2022Jp2,
        b"iso2022jp3" => Iso2022Jp3,
        b"iso2022jp2004" => Iso2022Jp2004,
        b"iso2022cn" | b"csiso2022cn" => Iso2022Cn,
        b"iso2022cnext" | b"csiso2022cnext" => Iso2022CnExt,
        _ => return None,
    };
    Some(charset)
}

/// `iso8859N`, `8859N`, and `windows`/`win`/`cp`/`ms` followed by a code
/// page number, retried through the WHATWG labels.
fn by_pattern(squeezed: &[u8]) -> Option<Charset> {
    let digits_after = |prefix: &[u8]| {
        squeezed.strip_prefix(prefix).filter(|rest| {
            !rest.is_empty() && rest.len() <= 5 && rest.iter().all(u8::is_ascii_digit)
        })
    };
    let retry = |prefix: &[u8], digits: &[u8]| {
        let mut buf = [0u8; 16];
        buf[..prefix.len()].copy_from_slice(prefix);
        buf[prefix.len()..prefix.len() + digits.len()].copy_from_slice(digits);
        Encoding::for_label(&buf[..prefix.len() + digits.len()]).map(Charset::from_encoding_rs)
    };
    if let Some(n) = digits_after(b"iso8859").or_else(|| digits_after(b"8859")) {
        return retry(b"iso-8859-", n);
    }
    for prefix in [&b"windows"[..], b"win", b"cp", b"ms", b"ansi"] {
        if let Some(n) = digits_after(prefix) {
            return retry(b"windows-", n).or_else(|| retry(b"cp", n)).or_else(|| retry(b"ibm", n));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Charset::*;

    #[test]
    fn whatwg_labels() {
        for (label, charset) in [
            (&b"utf-8"[..], Utf8),
            (b"unicode-1-1-utf-8", Utf8),
            (b"latin1", Windows1252),
            (b"us-ascii", Windows1252),
            (b"x-sjis", ShiftJis),
            (b"ks_c_5601-1987", EucKr),
            (b"x-gbk", Gbk),
            (b"iso-8859-8-i", Iso8859_8I),
            (b"utf-16", Utf16Le),
            (b"utf-16be", Utf16Be),
            (b"x-user-defined", XUserDefined),
            (b"\t\n KOI8-R \x0c", Koi8R),
        ] {
            assert_eq!(resolve(label), Ok(charset), "{}", String::from_utf8_lossy(label));
        }
    }

    #[test]
    fn aliases_from_the_wild() {
        for (label, charset) in [
            (&b"Windows-31J"[..], ShiftJis),
            (b"MS932", ShiftJis),
            (b"cp932", ShiftJis),
            (b"x-sjis", ShiftJis),
            (b"cp936", Gbk),
            (b"MS936", Gbk),
            (b"cp949", EucKr),
            (b"UHC", EucKr),
            (b"x-euc", EucJp),
            (b"utf8", Utf8),
            (b"UTF_8", Utf8),
            (b"ISO8859-1", Windows1252),
            (b"ISO_8859_2", Iso8859_2),
            (b"iso8859_15", Iso8859_15),
            (b"8859-5", Iso8859_5),
            (b"win-1251", Windows1251),
            (b"CP-1250", Windows1250),
            (b"windows1256", Windows1256),
            (b"UTF-32", Utf32Be),
            (b"UTF-32LE", Utf32Le),
            (b"utf-32be", Utf32Be),
            (b"MacRoman", Macintosh),
            (b"TIS-620", Windows874),
        ] {
            assert_eq!(resolve(label), Ok(charset), "{}", String::from_utf8_lossy(label));
        }
    }

    #[test]
    fn labels_outside_the_encoding_standard() {
        // glibc's GEORGIAN-ACADEMY differs from GEOSTD8 in 73 of the bytes
        // 80-FF: not an alias.
        assert!(resolve(b"GEORGIAN-ACADEMY").is_err());
        for (label, charset) in [
            (&b"cp437"[..], Ibm437),
            (b"GEOSTD8", Geostd8),
            (b"x-mac-hebrew", XMacHebrew),
            (b"MacHebrew", XMacHebrew),
            (b"mac-hebrew", XMacHebrew),
            (b"machebrew", XMacHebrew),
            (b"geostd8", Geostd8),
            (b"IBM437", Ibm437),
            (b"437", Ibm437),
            (b"csPC8CodePage437", Ibm437),
            (b"cp850", Ibm850),
            (b"IBM-850", Ibm850),
            (b"852", Ibm852),
            (b"csPCp852", Ibm852),
            (b"cp855", Ibm855),
            (b"IBM00858", Ibm858),
            (b"PC-Multilingual-850+euro", Ibm858),
            (b"CP857", Ibm857),
            (b"cp860", Ibm860),
            (b"cp861", Ibm861),
            (b"cp862", Ibm862),
            (b"cp863", Ibm863),
            (b"cp864", Ibm864),
            (b"cp865", Ibm865),
            (b"cp869", Ibm869),
            (b"cp737", Ibm737),
            (b"cp775", Ibm775),
            (b"x-mac-ce", XMacCe),
            (b"MacCentralEurope", XMacCe),
            (b"mac-centraleurope", XMacCe),
            (b"x-mac-centraleurroman", XMacCe),
            (b"cp10029", XMacCe),
            (b"VISCII", Viscii),
            (b"csVISCII", Viscii),
            (b"johab", Johab),
            (b"cp1361", Johab),
            (b"MS1361", Johab),
            (b"EUC-TW", EucTw),
            (b"cns11643", EucTw),
            (b"x-euc-tw", EucTw),
            (b"KZ-1048", Kz1048),
            (b"PT154", Ptcp154),
            (b"TCVN5712-1", Tcvn5712_1),
            (b"TCVN-5712", Tcvn5712_1),
            (b"cp720", Dos720),
            (b"DOS-720", Dos720),
            (b"cp856", Ibm856),
            (b"mac_greek", XMacGreek),
            (b"macgreek", XMacGreek),
            (b"x-mac-turkish", XMacTurkish),
            (b"mac-iceland", XMacIcelandic),
            (b"MAC-IS", XMacIcelandic),
            (b"mac_croatian", XMacCroatian),
            (b"mac_romanian", XMacRomanian),
            (b"mac_arabic", XMacArabic),
            (b"x-mac-ukrainian", XMacCyrillic),
            (b"MAC-UK", XMacCyrillic),
            (b"cp037", Ibm037),
            (b"ebcdic-cp-us", Ibm037),
            (b"csIBM037", Ibm037),
            (b"ibm-37", Ibm037),
            (b"IBM273", Ibm273),
            (b"EBCDIC-CP-DK", Ibm277),
            (b"ebcdic_cp_se", Ibm278),
            (b"CP280", Ibm280),
            (b"ebcdic-cp-es", Ibm284),
            (b"ebcdic-cp-gb", Ibm285),
            (b"ebcdic-cp-fr", Ibm297),
            (b"ebcdic-cp-he", Ibm424),
            (b"cp500", Ibm500),
            (b"ebcdic-cp-ch", Ibm500),
            (b"cp871", Ibm871),
            (b"cp875", Ibm875),
            (b"x-IBM875", Ibm875),
            (b"cp1026", Ibm1026),
            (b"cp1140", Ibm01140),
            (b"IBM01140", Ibm01140),
            (b"ebcdic-us-37+euro", Ibm01140),
            (b"CCSID01141", Ibm01141),
            (b"IBM1142", Ibm01142),
            (b"cp1143", Ibm01143),
            (b"ebcdic-it-280+euro", Ibm01144),
            (b"cp1145", Ibm01145),
            (b"cp1146", Ibm01146),
            (b"cp1147", Ibm01147),
            (b"ebcdic-international-500+euro", Ibm01148),
            (b"cp1149", Ibm01149),
            (b"ibm874", Windows874),
            (b"latin9", Iso8859_15),
            (b"latin-9", Iso8859_15),
            (b"l9", Iso8859_15),
            (b"iso8859_15", Iso8859_15),
            (b"latin7", Iso8859_13),
            (b"latin8", Iso8859_14),
            (b"latin10", Iso8859_16),
            (b"thai", Windows874),
            // The WHATWG labels of IBM866 keep naming it.
            (b"ibm866", Ibm866),
            (b"cp866", Ibm866),
            (b"866", Ibm866),
            (b"csibm866", Ibm866),
        ] {
            assert_eq!(resolve(label), Ok(charset), "{}", String::from_utf8_lossy(label));
        }
    }

    #[test]
    fn replacement_labels_are_decoded_not_replaced() {
        // The Encoding Standard maps these labels to `replacement`.
        for (label, charset) in [
            (&b"iso-2022-kr"[..], Iso2022Kr),
            (b"csiso2022kr", Iso2022Kr),
            (b"hz-gb-2312", HzGb2312),
            (b"iso-2022-cn", Iso2022Cn),
            (b"iso-2022-cn-ext", Iso2022CnExt),
        ] {
            assert_eq!(Encoding::for_label(label), Some(encoding_rs::REPLACEMENT));
            assert_eq!(resolve(label), Ok(charset));
        }
        assert_eq!(resolve(b"HZ"), Ok(HzGb2312));
        assert_eq!(resolve(b"csISO2022CN"), Ok(Iso2022Cn));
        assert_eq!(resolve(b"csISO2022CNEXT"), Ok(Iso2022CnExt));
        assert_eq!(resolve(b"ISO-2022-CN-EXT"), Ok(Iso2022CnExt));
    }

    #[test]
    fn iso_2022_jp_2_answers_to_its_names_outside_the_standard() {
        for label in [&b"iso-2022-jp-2"[..], b"csISO2022JP2", b"iso2022_jp_2", b"ISO2022JP2"] {
            assert_eq!(Encoding::for_label(label), None);
            assert_eq!(resolve(label), Ok(Iso2022Jp2));
        }
        assert_eq!(resolve(b"iso2022_jp_3"), Ok(Iso2022Jp3));
        assert_eq!(resolve(b"ISO-2022-JP-2004"), Ok(Iso2022Jp2004));
        // ISO-2022-JP stays the Encoding Standard's.
        assert_eq!(resolve(b"iso-2022-jp"), Ok(Iso2022Jp));
    }

    #[test]
    fn utf_7_and_cesu_8_labels() {
        // IANA's names and aliases, and the ones mail and Python use; the
        // Encoding Standard has neither encoding.
        for label in ["UTF-7", "utf7", "unicode-1-1-utf-7", "csUnicode11UTF7", "x-utf-7", "utf_7"] {
            assert_eq!(Encoding::for_label(label.as_bytes()), None, "{label}");
            assert_eq!(resolve(label.as_bytes()), Ok(Utf7), "{label}");
        }
        for label in ["CESU-8", "csCESU8", "cesu8", "cesu_8"] {
            assert_eq!(Encoding::for_label(label.as_bytes()), None, "{label}");
            assert_eq!(resolve(label.as_bytes()), Ok(Cesu8), "{label}");
        }
    }

    #[test]
    fn jis_x0213_labels() {
        // Outside the Encoding Standard, so left out by `--policy whatwg`.
        for (label, charset) in [
            (&b"Shift_JIS-2004"[..], ShiftJis2004),
            (b"sjis_2004", ShiftJis2004),
            (b"SHIFT_JISX0213", ShiftJis2004),
            (b"EUC-JIS-2004", EucJis2004),
            (b"euc_jis_2004", EucJis2004),
            (b"EUC-JISX0213", EucJis2004),
        ] {
            assert_eq!(Encoding::for_label(label), None);
            assert_eq!(resolve(label), Ok(charset));
        }
    }

    #[test]
    fn every_name_resolves_to_its_charset() {
        for &charset in Charset::ALL {
            assert_eq!(resolve(charset.name().as_bytes()), Ok(charset), "{charset}");
        }
    }

    #[test]
    fn non_labels() {
        assert_eq!(resolve(b"").unwrap_err().kind(), LabelErrorKind::Empty);
        assert_eq!(resolve(b"   ").unwrap_err().kind(), LabelErrorKind::Empty);
        assert_eq!(resolve(b"NONE").unwrap_err().kind(), LabelErrorKind::None);
        let err = resolve(b"nonsense").unwrap_err();
        assert_eq!(err.kind(), LabelErrorKind::Unknown);
        assert_eq!(err.to_string(), "unknown encoding label 'nonsense'");
        assert!(resolve(&[b'a'; 500]).is_err());
        assert!(resolve(b"\xff\xfe").is_err());
        assert!(resolve(b"cp99999999").is_err());
        assert!(resolve(b"iso8859-99").is_err());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(label: Vec<u8>) {
            let _ = resolve(&label);
        }
    }
}
