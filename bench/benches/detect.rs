//! Content detection throughput (bytes per second of input) on documents
//! built from `../shared/text`: an ASCII-heavy HTML page (English and French
//! in windows-1252 inside markup), Japanese text in Shift_JIS, Russian text
//! in windows-1251 (each about 256 KiB), whole and fed in 1 KiB chunks as
//! from a network. The detector reads only as much as its decision needs.

use charsight::detect::Detector;
use charsight_bench::inputs;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn detect(c: &mut Criterion) {
    let mut group = c.benchmark_group("detect");
    for (name, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("whole", name), &bytes, |b, bytes| {
            b.iter(|| {
                let mut detector = Detector::new();
                detector.feed(bytes, true);
                detector.guess()
            })
        });
        group.bench_with_input(BenchmarkId::new("chunks-1k", name), &bytes, |b, bytes| {
            b.iter(|| {
                let mut detector = Detector::new();
                for chunk in bytes.chunks(1024) {
                    if !detector.wants_more() {
                        break;
                    }
                    detector.feed(chunk, false);
                }
                detector.feed(b"", true);
                detector.guess()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, detect);
criterion_main!(benches);
