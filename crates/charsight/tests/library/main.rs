//! The library's integration tests, one binary: labelled corpora, the
//! conformance suites, policies, repair, fonts and codecs, through the
//! public API only.

mod binary;
mod codecs;
mod common;
mod conformance;
mod detect;
mod everyday;
mod fonts;
mod ftfy;
mod policies;
mod repair;
