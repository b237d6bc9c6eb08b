//! Command-line syntax (clap). Validation that needs the library, such as
//! resolving encoding labels, happens here too, so a bad label is a usage
//! error (exit 2) before any input is read.

use std::path::PathBuf;

use charsight::{label, Charset};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Find the character encoding of bytes whose encoding is unknown, missing or wrong.
#[derive(Parser, Debug)]
#[command(name = "charsight", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Report the encoding of each input, with every piece of evidence.
    ///
    /// Gathers the declared evidence (byte order mark, HTTP Content-Type
    /// charset, <meta> and XML declarations) from a bounded prefix of each
    /// input, looks at the content, and decides by browser rules: forced >
    /// BOM > HTTP > in-document declaration > content > default.
    Detect(DetectArgs),
    /// Rewrite the URLs of each line so their non-ASCII parts read right.
    ///
    /// Reads one URL or log line per line and decodes each URL component by
    /// component (path segments, query keys and values, fragment), each in
    /// the encoding its bytes fit best (UTF-8, GBK, Big5, Shift_JIS, EUC-JP,
    /// EUC-KR). Prints the line with its URLs as UTF-8 percent-encoding, or
    /// readable with --iri. Every line comes out, in order; lines without a
    /// URL come out unchanged.
    Url(crate::url::UrlArgs),
}

#[derive(Args, Debug)]
pub struct DetectArgs {
    /// Files or directories (walked recursively); '-' is standard input.
    ///
    /// With no PATH, standard input is read when it is not a terminal.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    ///
    /// 'text' prints one readable line per input. 'jsonl' prints one JSON
    /// object per input per line: path, encoding, confidence, source,
    /// declared, language, ascii, binary, bom_len, document; or path and
    /// error for an input that could not be read.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    #[command(flatten)]
    pub context: ContextArgs,
}

/// What the caller knows about the inputs.
#[derive(Args, Debug, Clone)]
pub struct ContextArgs {
    /// The HTTP Content-Type the inputs came with.
    ///
    /// Its charset parameter is evidence (RFC 9110 syntax; 'none' or an
    /// unknown label is reported and ignored). For XML media types it
    /// outranks the XML declaration (RFC 7303).
    #[arg(long, value_name = "VALUE")]
    pub content_type: Option<String>,

    /// Encoding to fall back to when nothing decides [default: windows-1252].
    ///
    /// Any WHATWG label or common alias (cp932, UHC, ISO8859-1, UTF-32LE, ...).
    #[arg(long, value_name = "LABEL", value_parser = parse_label)]
    pub default_encoding: Option<Charset>,

    /// Use this encoding whatever the evidence says (still reported).
    #[arg(long, value_name = "LABEL", value_parser = parse_label)]
    pub force_encoding: Option<Charset>,

    /// Top-level domain the inputs came from (jp, ru, ...), a prior for detection.
    #[arg(long, value_name = "TLD")]
    pub tld: Option<String>,

    /// Expected language as a BCP 47 tag (ja, ru, ...), a prior for detection.
    #[arg(long = "lang", value_name = "LANG")]
    pub language: Option<String>,
}

impl ContextArgs {
    /// The engine these options describe.
    pub fn engine(&self) -> charsight::Engine {
        let mut engine = charsight::Engine::new();
        if let Some(value) = &self.content_type {
            engine = engine.content_type(value);
        }
        if let Some(charset) = self.default_encoding {
            engine = engine.default_encoding(charset);
        }
        if let Some(charset) = self.force_encoding {
            engine = engine.force_encoding(charset);
        }
        if let Some(tld) = &self.tld {
            engine = engine.tld(tld.as_str());
        }
        if let Some(language) = &self.language {
            engine = engine.language(language.as_str());
        }
        engine
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One readable line per input.
    Text,
    /// One JSON object per input per line.
    Jsonl,
}

fn parse_label(label: &str) -> Result<Charset, label::LabelError> {
    label::resolve(label.as_bytes())
}
