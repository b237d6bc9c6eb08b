//! Benchmarks of charsight live in `benches/`, one file per area; run them
//! with `cargo bench -p charsight-bench`.
