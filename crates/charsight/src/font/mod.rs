//! Font-dependent encodings.
mod css;
mod indic;
pub mod table;
pub use table::{FontTable, Registry};
