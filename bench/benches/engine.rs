//! The engine as users call it: `Engine::detect` and `Engine::decode` on
//! whole files (the inputs of the `detect` bench), and `Engine::detect` on
//! short inputs of 32 and 128 bytes and empty ones (per call).

use charsight::Engine;
use charsight_bench::{inputs, short};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn whole_files(c: &mut Criterion) {
    let engine = Engine::new();
    let mut group = c.benchmark_group("engine");
    for (name, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("detect", name), &bytes, |b, bytes| {
            b.iter(|| engine.detect(bytes))
        });
        group.bench_with_input(BenchmarkId::new("decode", name), &bytes, |b, bytes| {
            b.iter(|| engine.decode(bytes).0.len())
        });
    }
    group.finish();
}

fn short_inputs(c: &mut Criterion) {
    let engine = Engine::new();
    let mut group = c.benchmark_group("engine-short");
    for len in [0, 32, 128] {
        let inputs = short(len);
        group.throughput(Throughput::Elements(inputs.len() as u64));
        group.bench_with_input(BenchmarkId::new("detect", len), &inputs, |b, inputs| {
            b.iter(|| inputs.iter().map(|bytes| engine.detect(bytes).confidence).sum::<f32>())
        });
    }
    group.finish();
}

criterion_group!(benches, whole_files, short_inputs);
criterion_main!(benches);
