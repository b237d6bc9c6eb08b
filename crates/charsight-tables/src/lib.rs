//! Generated tables for charsight: language models and mapping data, kept in
//! their own crate so that the engine's rebuilds skip them.
//!
//! Everything under `generated/` is written by `cargo run -p gen-tables --
//! emit` from the intermediate data in `tools/gen-tables/data/`; do not edit
//! it by hand. Each file's header names the command and the hash of its
//! inputs.

#![no_std]
#![forbid(unsafe_code)]
#![allow(missing_docs)]

#[path = "generated/carrier_emoji.rs"]
pub mod carrier_emoji;
#[path = "generated/charfreq.rs"]
pub mod charfreq;
#[path = "generated/charmaps.rs"]
pub mod charmaps;
#[path = "generated/classes.rs"]
pub mod classes;
#[path = "generated/detect.rs"]
pub mod detect;
#[path = "generated/fonts.rs"]
pub mod fonts;
#[path = "generated/zawgyi_model.rs"]
pub mod zawgyi_model;
#[path = "generated/zawgyi_rules.rs"]
pub mod zawgyi_rules;
