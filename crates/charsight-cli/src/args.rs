//! Command-line syntax (clap). Validation that needs the library, such as
//! resolving encoding labels, happens here too, so a bad label is a usage
//! error (exit 2) before any input is read.

use std::path::PathBuf;

use charsight::repair::RepairPolicy;
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
    /// charset, <meta> and XML declarations, coding comments) from a bounded
    /// prefix of each input, looks at the content, verifies each candidate
    /// by decoding, and decides by the policy (--policy).
    Detect(DetectArgs),
    /// Decode inputs to text (UTF-8, or --to ENC), with a report.
    ///
    /// Decides the encoding from a prefix (as `detect` does), then streams
    /// the whole input through the decoder in bounded memory. Malformed
    /// bytes are replaced with U+FFFD and listed in the report (--errors
    /// replace), stop the run with exit code 1 and no output (--errors
    /// strict), or are kept recoverable (--errors escape: byte NN becomes the
    /// private-use character U+10FENN; written back with --to the input's
    /// encoding, the text gives the input's bytes back). Several inputs (or a directory)
    /// are written into the directory -o DIR, --jobs at a time.
    Decode(DecodeArgs),
    /// Rewrite the URLs of each line so their non-ASCII parts read right.
    ///
    /// Reads one URL or log line per line and decodes each URL component by
    /// component (path segments, query keys and values, fragment), each in
    /// the encoding its bytes fit best of those web forms submit in: UTF-8;
    /// windows-1250, -1251, -1252, -1253 and -1254 (ISO-8859-1 and -9 read
    /// as their supersets); ISO-8859-2, -7 and -15; KOI8-R and KOI8-U; GBK,
    /// Big5, Shift_JIS, EUC-JP and EUC-KR. A component whose
    /// reading is less likely than --min-confidence is kept as it was, and
    /// so are broken escapes (a lone '%', a cut sequence). Prints the line with its URLs as UTF-8
    /// percent-encoding, or readable with --iri. Every line comes out, in
    /// order; lines without a URL come out unchanged.
    Url(UrlArgs),
    /// Decode inputs and repair them (decode --repair all).
    ///
    /// Repairs, each listed in the report (--report) with its byte range,
    /// the text before and after, and a confidence: bytes of another
    /// encoding mixed in (stray windows-1252 in UTF-8, UTF-8 inside a legacy
    /// document), mojibake (UTF-8 read as windows-1252, ISO-8859-1,
    /// windows-1250, ISO-8859-2, windows-1251, KOI8-R, windows-1253,
    /// ISO-8859-7, windows-1255, windows-1257, MacRoman, IBM437, IBM850,
    /// Shift_JIS or GBK, once or more),
    /// numeric character references holding the bytes of a string in
    /// another encoding, text in font-dependent encodings, and private-use
    /// characters a vendor table maps. Repairs are made only where the
    /// repaired text is far more plausible; nothing changes that is not
    /// listed.
    Repair(DecodeArgs),
    /// Explain what is wrong with each input, in words.
    ///
    /// Like a validator: what was declared where, what the bytes really
    /// are, what decode would do under each policy, each problem with its
    /// place and a short excerpt, and which repairs would apply. Colour on
    /// a terminal, plain when piped (NO_COLOR is respected).
    Explain(ExplainArgs),
    /// Report the encoding of every document in web archives (WARC files).
    ///
    /// Reads WARC 1.0 and 1.1 files, plain or gzip-compressed per record,
    /// record by record in bounded memory. Each `response` record's HTTP
    /// payload (de-chunked and decompressed as its headers say) and each
    /// `resource` record of a text type is analysed as `detect` analyses a
    /// file, with the HTTP Content-Type as evidence; `request`, `metadata`,
    /// `revisit` and `warcinfo` records are skipped and counted in a summary
    /// on standard error; media types that are not text are reported as
    /// binary without analysis. A corrupt record is reported on standard
    /// error with its offset and skipped; the run goes on, and ends with
    /// exit code 1.
    Warc(WarcArgs),
    /// Print a shell completion script to standard output.
    ///
    /// For example, for bash: `charsight completions bash >
    /// ~/.local/share/bash-completion/completions/charsight`; for zsh, write
    /// `_charsight` into a directory of your $fpath.
    Completions(CompletionsArgs),
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
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
    /// declared, language, ascii, binary, bom_len, document, prefix (the
    /// bytes the decision rests on when the input went on); or path and
    /// error for an input that could not be read.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    #[command(flatten)]
    pub jobs: JobsArg,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// How many inputs to work on at once.
#[derive(Args, Debug)]
pub struct JobsArg {
    /// Inputs to work on at once, each on its own thread; the output keeps
    /// the inputs' order. A progress bar shows on standard error when it is
    /// a terminal and there are many inputs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
}

impl JobsArg {
    /// The number of threads.
    pub fn jobs(&self) -> usize {
        usize::from(self.jobs)
    }
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// Input files or directories (walked recursively); '-' or nothing for
    /// standard input.
    ///
    /// Several inputs, or a directory, need -o DIR.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Write the text to this file instead of standard output (written in
    /// full or not at all, with the mode a plain write gives: an existing
    /// file keeps its own, and its owner when allowed; a file the user
    /// cannot write, or with other hard links, is not replaced).
    ///
    /// With several inputs or a directory, OUT is a directory (created if
    /// need be): each input's text goes to OUT/NAME, NAME being the file's
    /// name, or its path under the directory given. Inputs are never
    /// overwritten in place.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Encoding of the output [default: UTF-8].
    ///
    /// Characters it cannot represent are written as numeric character
    /// references (&#NNNN;), or stop the run with --errors strict.
    #[arg(long, value_name = "LABEL", value_parser = parse_output_label, conflicts_with = "keep_encoding")]
    pub to: Option<Charset>,

    /// Write a JSON report here: evidence, candidates, decision, every
    /// malformed byte range, declarations rewritten. '-' writes it to
    /// standard output, after the text has gone to a file (-o). With
    /// several inputs, one report per line (JSON Lines), in input order.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// What to do with bytes that are malformed in the input's encoding.
    #[arg(long, value_enum, default_value_t = ErrorsArg::Replace)]
    pub errors: ErrorsArg,

    /// Rewrite the document's own declarations (<meta charset>, the charset
    /// in <meta http-equiv> content, the XML declaration's encoding, a
    /// coding comment's label) to name the output encoding, so that the
    /// output is self-consistent.
    ///
    /// Not the default: decode changes nothing it is not asked to. Without
    /// it (or --keep-encoding, or --to the declared encoding), a document
    /// whose declaration will not name the output's encoding gets a warning
    /// on standard error, which offers --keep-encoding only when every
    /// character can be written in the declared encoding.
    #[arg(long)]
    pub fix_declaration: bool,

    /// Write the document in the encoding its own declaration names (the
    /// other way to make it self-consistent); fails if a character cannot
    /// be represented there.
    #[arg(long)]
    pub keep_encoding: bool,

    /// Repairs to make: none, all, or a comma-separated list of mixed,
    /// mojibake, ncr, fonts, declaration, pua [default: none; for `repair`,
    /// all].
    ///
    /// 'mixed': bytes malformed in the input's encoding decoded by the
    /// encoding that fits them, and UTF-8 inside a legacy document.
    /// 'mojibake': text decoded wrongly and re-encoded, once or more.
    /// 'ncr': runs of numeric character references to the bytes of another
    /// encoding. 'fonts': text written for a font that draws other
    /// characters (Symbol, Wingdings, Kruti Dev, Tamil fonts, Zawgyi) mapped
    /// to Unicode. 'declaration': report an in-document declaration the
    /// bytes contradict, with both ways to fix it. 'pua': private-use
    /// characters (gaiji) mapped where a vendor table knows them (NTT DoCoMo
    /// emoji in Shift_JIS), every other one reported and left. Every change
    /// is listed in the report's 'repairs'.
    #[arg(long, value_name = "KINDS", value_parser = parse_repairs)]
    pub repair: Option<RepairPolicy>,

    #[command(flatten)]
    pub jobs: JobsArg,

    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Args, Debug)]
pub struct WarcArgs {
    /// WARC files, plain or gzip-compressed; '-' is standard input.
    ///
    /// With no FILE, standard input is read when it is not a terminal.
    #[arg(value_name = "FILE")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    ///
    /// 'jsonl' prints one JSON object per analysed record: path (the WARC
    /// file), offset, record_id, uri, date, content_type (HTTP),
    /// http_charset, truncated, then the fields of `detect --format jsonl`;
    /// a record not analysed has binary: true (a media type that is not
    /// text) or error instead. 'text' prints one readable line per record.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,

    /// Write a WARC of `conversion` records, one for each document decoded:
    /// its text as UTF-8, its declarations rewritten to say so, repairs
    /// made as --repair says.
    ///
    /// Each conversion record refers to its response (WARC-Refers-To).
    /// DIR gets NAME.charsight.warc.gz for each input NAME.warc(.gz),
    /// gzip-compressed per record; '-' writes plain WARC to standard output
    /// instead of the report.
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,

    /// Repairs to make in the emitted text (--emit): none, all, or a
    /// comma-separated list of mixed, mojibake, ncr, fonts, declaration, pua
    /// [default: none].
    #[arg(long, value_name = "KINDS", value_parser = parse_repairs, requires = "emit")]
    pub repair: Option<RepairPolicy>,

    #[command(flatten)]
    pub jobs: JobsArg,

    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Input files or directories (walked recursively), explained one after
    /// the other; '-' or nothing for standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Findings and problems listed at most (all are counted).
    #[arg(long, value_name = "N", default_value_t = charsight::explain::DEFAULT_LIMIT)]
    pub limit: usize,

    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ErrorsArg {
    /// U+FFFD for each malformed sequence, listed in the report.
    Replace,
    /// Stop at the first malformed sequence (exit 1, no output written).
    Strict,
    /// Lossless: each undecodable byte NN, and each byte of a valid
    /// sequence that would not encode back the same, becomes U+10FENN.
    Escape,
}

impl From<ErrorsArg> for charsight::decode::Errors {
    fn from(arg: ErrorsArg) -> Self {
        match arg {
            ErrorsArg::Replace => charsight::decode::Errors::Replace,
            ErrorsArg::Strict => charsight::decode::Errors::Strict,
            ErrorsArg::Escape => charsight::decode::Errors::Escape,
        }
    }
}

/// What the caller knows about the inputs, and how to decide.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// How declarations and content are weighed.
    ///
    /// 'verify': declarations are trusted unless the bytes contradict them
    /// (their decode is broken or implausible while another candidate is
    /// clean); then the report says "declared X, actual Y". 'whatwg': browser
    /// rules, BOM > HTTP > in-document > content, never second-guessed.
    /// 'detect': ignore declarations, the content decides.
    #[arg(long, value_enum, default_value_t = PolicyArg::Verify)]
    pub policy: PolicyArg,

    /// The HTTP Content-Type the inputs came with.
    ///
    /// Its charset parameter is evidence (RFC 9110 syntax; 'none' or an
    /// unknown label is reported and ignored). For XML media types it
    /// outranks the XML declaration (RFC 7303).
    #[arg(long, value_name = "VALUE")]
    pub content_type: Option<String>,

    /// Encoding to fall back to when nothing decides [default: windows-1252].
    ///
    /// Any WHATWG label or common alias (cp932, UHC, ISO8859-1, ...) of an
    /// encoding that reads ASCII as ASCII. Given, it also names pure ASCII
    /// input (which is otherwise reported as UTF-8); giving the default,
    /// windows-1252, changes nothing. UTF-16 and UTF-32 are refused: they
    /// would read ASCII text as other characters, and they are found by
    /// their own byte patterns.
    #[arg(long, value_name = "LABEL", value_parser = parse_default_label)]
    pub default_encoding: Option<Charset>,

    /// Use this encoding whatever the evidence says (still reported).
    #[arg(long, value_name = "LABEL", value_parser = parse_label)]
    pub force_encoding: Option<Charset>,

    /// Top-level domain the inputs came from (jp, ru, ...), a prior for detection.
    ///
    /// One whose languages the detector knows; an unknown one is an error
    /// that lists the known ones.
    #[arg(long, value_name = "TLD", value_parser = parse_tld)]
    pub tld: Option<String>,

    /// Expected language as a BCP 47 tag (ja, ru, ...), a prior for detection.
    ///
    /// One the detector has a model for; an unknown one is an error that
    /// lists the known ones.
    #[arg(long = "lang", value_name = "LANG", value_parser = parse_language)]
    pub language: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Trust declarations as far as the bytes bear them out.
    Verify,
    /// Browser rules: declarations are never second-guessed.
    Whatwg,
    /// Ignore declarations.
    Detect,
}

impl EngineArgs {
    /// The engine these options describe.
    pub fn engine(&self) -> charsight::Engine {
        let policy = match self.policy {
            PolicyArg::Verify => charsight::Policy::Verify,
            PolicyArg::Whatwg => charsight::Policy::Whatwg,
            PolicyArg::Detect => charsight::Policy::Detect,
        };
        let mut engine = charsight::Engine::new().policy(policy);
        if let Some(value) = &self.content_type {
            engine = engine.content_type(value);
        }
        // windows-1252 is the engine's own fallback: naming it changes nothing.
        if let Some(charset) = self.default_encoding.filter(|&c| c != Charset::Windows1252) {
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

/// Options of `charsight url`.
#[derive(Args, Debug)]
pub struct UrlArgs {
    /// The file to read, one URL or log line per line; '-' or nothing is
    /// standard input.
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,

    /// Print URLs in readable form (IRI) instead of UTF-8 percent-encoding.
    #[arg(long)]
    pub iri: bool,

    /// Output format.
    ///
    /// 'text' prints each line with its URLs rewritten. 'jsonl' prints one
    /// JSON object per line: version, input, line (as the text output gives
    /// it), url and iri (the first URL rewritten, or null), components
    /// (part, encoding, confidence, and kept when left as it was) and changed; input_base64 too when the
    /// line is not UTF-8.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// The URL is whitespace-separated field N (1-based) of each line.
    ///
    /// Without --field or --regex, every whitespace-separated token that
    /// looks like a URL (a scheme such as 'http:', or a leading '/') is one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "regex")]
    pub field: Option<u32>,

    /// The URL is the first capture group of the first match of RE.
    #[arg(long, value_name = "RE", value_parser = parse_regex)]
    pub regex: Option<regex::bytes::Regex>,

    /// Top-level domain of the site (cn, de, ru, jp, ...), a prior that
    /// overrides the URLs' own hosts.
    #[arg(long, value_name = "TLD")]
    pub tld: Option<String>,

    /// Rewrite a component only when its reading is at least this likely.
    ///
    /// Below it the component stays exactly as it was (JSON says kept: "low
    /// confidence"). The default keeps wrong rewrites below 1 in 1,000 on
    /// the development URLs; 0 rewrites every clean reading.
    #[arg(long, value_name = "P", default_value_t = charsight::url::DEFAULT_MIN_CONFIDENCE, value_parser = parse_probability)]
    pub min_confidence: f32,

    /// More site hints: lines of host<TAB>encoding (a host matches its
    /// subdomains too; '#' starts a comment).
    ///
    /// They add to the built-in table of large search engines and portals
    /// (and win over it): the hinted encoding gets a head start, as a
    /// country's top-level domain does.
    #[arg(long, value_name = "FILE")]
    pub host_hints: Option<PathBuf>,

    /// Threads to use, at most the cores available; the output keeps the
    /// input's order.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One readable line per input.
    Text,
    /// One JSON object per input per line.
    Jsonl,
}

fn parse_probability(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{text}' is not a probability from 0 to 1")),
    }
}

fn parse_regex(re: &str) -> Result<regex::bytes::Regex, String> {
    let compiled = regex::bytes::Regex::new(re).map_err(|e| e.to_string())?;
    if compiled.captures_len() < 2 {
        return Err("the regex needs a capture group around the URL".to_owned());
    }
    Ok(compiled)
}

fn parse_repairs(list: &str) -> Result<RepairPolicy, charsight::repair::PolicyError> {
    list.parse()
}

fn parse_tld(tld: &str) -> Result<String, String> {
    match charsight::detect::knows_tld(tld) {
        true => Ok(tld.to_owned()),
        false => Err(format!(
            "no languages known for this top-level domain; known: {}",
            charsight::detect::tlds().join(" ")
        )),
    }
}

fn parse_language(tag: &str) -> Result<String, String> {
    match charsight::detect::knows_language(tag) {
        true => Ok(tag.to_owned()),
        false => Err(format!(
            "no model for this language; known (BCP 47 tags, regions allowed: pt-BR): {}",
            charsight::detect::languages().join(" ")
        )),
    }
}

fn parse_label(label: &str) -> Result<Charset, label::LabelError> {
    label::resolve(label.as_bytes())
}

/// An encoding to write: any but `replacement` (no label names it since
/// ISO-2022-CN is decoded for real, but its own name does), which has no
/// encoder.
fn parse_output_label(label: &str) -> Result<Charset, String> {
    match parse_label(label).map_err(|e| e.to_string())? {
        Charset::Replacement => Err(format!(
            "{label} cannot be written: 'replacement' is the Encoding Standard's stand-in for \
             encodings it refuses to decode (a security measure), and has no encoder"
        )),
        charset => Ok(charset),
    }
}

/// A fallback: one that reads ASCII as ASCII, or an EBCDIC code page (the
/// engine gives it EBCDIC text, which the detector recognises without
/// telling its code page, never plain ASCII).
fn parse_default_label(label: &str) -> Result<Charset, String> {
    match parse_label(label).map_err(|e| e.to_string())? {
        charset if reads_ascii_as_ascii(charset) || charset.is_ebcdic() => Ok(charset),
        charset => Err(format!(
            "{charset} does not read ASCII text as ASCII, as a fallback must (UTF-16 and UTF-32 \
             are found by their own byte patterns; --force-encoding forces one)"
        )),
    }
}

/// Whether `charset` decodes printable ASCII to itself (not UTF-16 or
/// UTF-32, which pair its bytes, nor `replacement`).
fn reads_ascii_as_ascii(charset: Charset) -> bool {
    let ascii: Vec<u8> = (0x20..0x7F).collect();
    charset.decode(&ascii).0.as_bytes() == ascii
}
