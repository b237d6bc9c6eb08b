//! What a repair found: the damage a [`Finding`](super::Finding) names,
//! typed, and its wording.

use std::fmt;
use std::sync::Arc;

use crate::font::Basis;
use crate::{Charset, Doubt, Source};

/// Why a repair was made (or, for a finding not applied, proposed). Its
/// `Display` is the finding's rule in words (`UTF-8 read as windows-1252,
/// 2 times`), as `explain` and the JSON `rule` field give it.
///
/// # Example
/// ```
/// use charsight::repair::Cause;
/// use charsight::Charset;
/// let cause = Cause::Mixed { bytes: Charset::Windows1252, document: Charset::Utf8, garbled: 0 };
/// assert_eq!(cause.to_string(), "windows-1252 bytes in UTF-8");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Cause {
    /// UTF-8 decoded as a single-byte encoding, `layers` times over
    /// (`Ã©` for `é` is one layer).
    Mojibake {
        /// The encoding the bytes were read as (`ISO-8859-1` when the text
        /// has windows-1252's bytes as C1 controls).
        read_as: &'static str,
        /// How many times over (at least 1).
        layers: usize,
        /// Bytes that encoding leaves undefined were lost, and guessed.
        guessed: bool,
    },
    /// Text in an encoding that writes characters at bytes 0x80–0x9F read
    /// as ISO-8859-1: those characters became C1 controls (windows-1252's
    /// punctuation, MacRoman's small accented letters).
    C1Control {
        /// The encoding of the text (windows-1252 or macintosh).
        bytes: Charset,
        /// Bytes windows-1252 leaves undefined were lost, and guessed.
        guessed: bool,
    },
    /// Bytes of one encoding in a document in another.
    Mixed {
        /// The encoding of the bytes.
        bytes: Charset,
        /// The document's encoding.
        document: Charset,
        /// How many more times the bytes were garbled on top (0: none).
        garbled: usize,
    },
    /// UTF-16 surrogates encoded one by one (CESU-8) in UTF-8.
    SurrogatePairs,
    /// Numeric character references that hold the bytes of an encoding
    /// (`&#233;` for a UTF-8 page's `é` written as two references).
    References(Charset),
    /// Text written in a symbol or legacy font.
    Font {
        /// The font.
        font: Arc<str>,
        /// How the text was found to be in it.
        basis: Basis,
    },
    /// A private-use character that a vendor's table maps.
    Vendor {
        /// The vendor's set (`NTT DoCoMo emoji`).
        vendor: &'static str,
        /// Where the character came from, in words.
        origin: String,
    },
    /// A private-use character no table maps: left as it is.
    PrivateUse {
        /// The character.
        code_point: char,
        /// Where it came from, in words.
        origin: String,
    },
    /// The document's declaration names another encoding than its bytes'.
    Declaration {
        /// The declared encoding.
        declared: Charset,
        /// Where it was declared.
        source: Source,
        /// The declaration's byte offset.
        offset: usize,
        /// The encoding of the bytes.
        actual: Charset,
        /// Why the declaration was not believed.
        reason: Doubt,
        /// The encoding the text is written in.
        output: Charset,
    },
    /// Repairs made one over another, in order.
    Chain(Vec<Cause>),
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Mojibake { read_as, layers, guessed } => {
                write!(f, "UTF-8 read as {read_as}")?;
                if *layers > 1 {
                    write!(f, ", {layers} times")?;
                }
                if *guessed {
                    f.write_str(", its undefined bytes lost (guessed)")?;
                }
                Ok(())
            }
            Cause::C1Control { bytes, guessed } => {
                write!(f, "{bytes} read as ISO-8859-1 (a C1 control)")?;
                if *guessed {
                    f.write_str(", its undefined bytes lost (guessed)")?;
                }
                Ok(())
            }
            Cause::Mixed { bytes, document, garbled: 0 } => {
                write!(f, "{bytes} bytes in {document}")
            }
            Cause::Mixed { bytes, document, garbled: 1 } => {
                write!(f, "{bytes} bytes in {document}, garbled once more")
            }
            Cause::Mixed { bytes, document, garbled } => {
                write!(f, "{bytes} bytes in {document}, garbled {garbled} times more")
            }
            Cause::SurrogatePairs => f.write_str("surrogate pairs (CESU-8) in UTF-8"),
            Cause::References(charset) => {
                write!(f, "numeric character references to {charset} bytes")
            }
            Cause::Font { font, basis } => write!(f, "{font} font ({})", basis.name()),
            Cause::Vendor { vendor, origin } => write!(f, "{vendor}, {origin}"),
            Cause::PrivateUse { code_point, origin } => write!(
                f,
                "private use U+{:04X}, {origin}; no table: left as it is",
                u32::from(*code_point)
            ),
            Cause::Declaration { declared, source, offset, actual, reason, output } => {
                write!(
                    f,
                    "declared {declared} ({} at byte {offset}), but the bytes are {actual} ({})",
                    source.name(),
                    reason.name()
                )?;
                if output == declared {
                    write!(f, "; the output, in {output}, matches the declaration")?;
                }
                Ok(())
            }
            Cause::Chain(causes) => {
                for (i, cause) in causes.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; then ")?;
                    }
                    write!(f, "{cause}")?;
                }
                Ok(())
            }
        }
    }
}

impl Cause {
    /// The two causes as one, `self` first: a repair made over another.
    pub(crate) fn then(self, next: Cause) -> Cause {
        let mut causes = match self {
            Cause::Chain(causes) => causes,
            cause => vec![cause],
        };
        causes.push(next);
        Cause::Chain(causes)
    }
}

/// JSON has the words (the `rule` field).
#[cfg(feature = "serde")]
impl serde::Serialize for Cause {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        let mojibake =
            |layers, guessed| Cause::Mojibake { read_as: "windows-1252", layers, guessed };
        assert_eq!(mojibake(1, false).to_string(), "UTF-8 read as windows-1252");
        assert_eq!(
            mojibake(2, true).to_string(),
            "UTF-8 read as windows-1252, 2 times, its undefined bytes lost (guessed)"
        );
        let utf8 =
            Cause::Mixed { bytes: Charset::Utf8, document: Charset::Windows1252, garbled: 1 };
        assert_eq!(utf8.to_string(), "UTF-8 bytes in windows-1252, garbled once more");
        let chain = mojibake(1, false).then(Cause::References(Charset::Utf8)).then(utf8);
        assert_eq!(
            chain.to_string(),
            "UTF-8 read as windows-1252; then numeric character references to UTF-8 bytes; \
             then UTF-8 bytes in windows-1252, garbled once more"
        );
        let vendor = Cause::Vendor { vendor: "NTT DoCoMo emoji", origin: "bytes F8 9F".into() };
        assert_eq!(vendor.to_string(), "NTT DoCoMo emoji, bytes F8 9F");
        let left = Cause::PrivateUse { code_point: '\u{E000}', origin: "origin unknown".into() };
        assert_eq!(left.to_string(), "private use U+E000, origin unknown; no table: left as it is");
    }
}
