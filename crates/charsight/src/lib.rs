//! charsight gets the right text out of bytes whose character encoding is
//! unknown, missing or lying.
//!
//! # Overview
//!
//! ```text
//!  bytes + context (Content-Type, default, forced, hints)
//!    │
//!    ├─ label      labels → Charset (WHATWG + aliases seen in the wild)
//!    ├─ sniff      declared evidence: BOM, HTTP charset, <meta>, XML declaration,
//!    │             coding comment
//!    ├─ detect     what the content says: statistical readings of 73 encodings
//!    │             (language models), ranked, with a calibrated confidence;
//!    │             binary and EBCDIC recognised
//!    ├─ (verify)   each candidate decoded: malformed sequences, C1 controls
//!    ├─ (damage)   stray bytes, UTF-8 fragments, mojibake: damage, not another encoding
//!    └─ pipeline   policy → Detection { charset, confidence, rule, evidence, candidates, font }
//!
//!  bytes + Detection
//!    ├─ decode     streaming decoder: text, offsets, malformed bytes accounted for
//!    └─ repair     mojibake, stray bytes, references, fonts (symbol, Indic, Zawgyi),
//!                  private use; every change a Finding
//! ```
//!
//! Beside the pipeline: [`url`] decodes URLs and other short byte strings
//! component by component, scored with the content detector's models;
//! [`explain`] puts the diagnosis of one input in words.
//!
//! Each stage only reports; the pipeline behind [`Engine`] decides. Every piece of
//! evidence is kept in the result, with where it was found and why it was
//! used or ignored.
//!
//! # Examples
//!
//! ```
//! use charsight::{Charset, Engine, Source};
//!
//! let page = b"<html><head><meta charset=\"shift_jis\"></head>\x93\xfa\x96\x7b";
//! let found = Engine::new().detect(page);
//! assert_eq!(found.charset, Charset::ShiftJis);
//! assert_eq!(found.source, Source::Meta);
//! assert_eq!(found.evidence[0].offset, 27);
//!
//! // A label nobody knows is evidence that was ignored, not an error.
//! let found = Engine::new().content_type("text/html; charset=nonsense").detect(b"hi");
//! assert_eq!(found.source, Source::Detected);
//! assert!(found.evidence[0].charset.is_none());
//! ```
//!
//! # Spec mapping
//!
//! | stage | specification |
//! | --- | --- |
//! | [`label`] | [Encoding Standard: get an encoding](https://encoding.spec.whatwg.org/#concept-encoding-get) |
//! | [`sniff::bom`] | [Encoding Standard: BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff) |
//! | [`sniff::http`] | [RFC 9110 §8.3](https://www.rfc-editor.org/rfc/rfc9110#section-8.3) |
//! | [`sniff::meta`] | [HTML: prescan a byte stream](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding) |
//! | [`sniff::xml`] | [XML 1.0 Appendix F](https://www.w3.org/TR/xml/#sec-guessing), [RFC 7303](https://www.rfc-editor.org/rfc/rfc7303) |
//! | [`Engine`] | [HTML: determining the character encoding](https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding) |
//!
//! # Confidence
//!
//! A confidence is the probability, from 0 to 1, that decoding with the
//! chosen charset gives the right text. Pure ASCII decodes alike in every
//! ASCII-compatible encoding, so its confidence is 1 whatever is chosen.
//! The content detector's confidence is calibrated on held-out text: among
//! its guesses with confidence about 0.9, about nine in ten are right.
//!
//! # Error reporting
//!
//! Malformed or surprising input is data, not an error: labels that name
//! nothing, contradictions and malformed bytes are reported in the result.
//! `Result` is for caller mistakes only, such as [`label::resolve`] on a
//! label the caller typed.
//!
//! # Panics
//!
//! No function panics on any input bytes; fuzz targets check this. A panic
//! would be a bug.
//!
//! # Features
//!
//! - `fonts` (default): font scopes in HTML and CSS (`<font face>`,
//!   `font-family`, `@font-face`), whose symbol- or legacy-font text the
//!   font pass converts; without it (and without `cssparser`) only the
//!   scope-free passes run (Zawgyi, symbol-font private use).
//! - `serde`: `Serialize` for the result types (the CLI's JSON output).
//! - `gpl-fonts`: the font tables whose only licence is the GPL (Wingdings
//!   1–3, Webdings, Bamini, TAB, TAM, TSCII); a build with them is covered by
//!   GPL-3.0-or-later. Without it the registry lacks them.
//! - `unstable`: internals for charsight's own tools (`charsight::unstable` when
//!   enabled); no stability promise.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod charset;
mod classify;
mod codec;
mod damage;
pub mod decode;
pub mod detect;
mod detection;
mod engine;
pub mod explain;
pub mod font;
pub mod label;
mod lang;
mod pairs;
mod pipeline;
mod pua;
pub mod repair;
pub mod sniff;
pub mod url;
mod verify;
mod zawgyi;

pub use charset::Charset;
#[cfg(feature = "serde")]
pub use detection::{round3, DetectionReport, ReportedDocument, REPORT_VERSION};
pub use detection::{Candidate, Detection, Doubt, Policy, Rule};
pub use engine::{EncodingChoice, Engine, Session};
pub use sniff::{Evidence, Note, Source};
pub use verify::Verification;

/// Internals that charsight's own tools build on: the table generator reads
/// the CJK character frequencies, classifies characters by the runtime's
/// rule and writes Burmese in Zawgyi with them.
/// Behind the `unstable` feature, with no stability promise: not for users.
#[cfg(feature = "unstable")]
pub mod unstable {
    pub use crate::classify::{class, is_letter, is_mark, text_kind, Class, TextKind, MARK};
    pub use crate::lang::CharFreq;
    pub use crate::zawgyi::to_zawgyi;
}

/// The README's Rust examples, run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
