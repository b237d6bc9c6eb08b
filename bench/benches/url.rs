//! `charsight::url` on a synthetic access log (`testkit::url_log`: nine
//! ASCII request targets in ten): the per-line work of `charsight url`
//! (fast-path check, then component decoding of the lines that need it),
//! and short-string guessing alone.

use charsight::url::{self, UrlDecoder};
use charsight::Charset;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn log_lines(c: &mut Criterion) {
    let log = testkit::url_log(20_000);
    let lines: Vec<&[u8]> = log.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let decoder = UrlDecoder::new();
    let mut group = c.benchmark_group("url");
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.bench_function("log lines (90% ASCII)", |b| {
        b.iter(|| {
            let mut changed = 0;
            for line in &lines {
                if !url::needs_decoding(line) {
                    continue;
                }
                let tokens = line.split(u8::is_ascii_whitespace);
                for token in tokens.filter(|t| url::needs_decoding(t) && url::is_url(t)) {
                    changed += usize::from(decoder.decode(token).changed);
                }
            }
            changed
        })
    });
    let non_ascii: Vec<&[u8]> = lines.iter().copied().filter(|l| url::needs_decoding(l)).collect();
    group.throughput(Throughput::Elements(non_ascii.len() as u64));
    group.bench_function("non-ASCII log lines", |b| {
        b.iter(|| {
            non_ascii
                .iter()
                .flat_map(|line| line.split(u8::is_ascii_whitespace))
                .filter(|t| url::needs_decoding(t) && url::is_url(t))
                .map(|t| decoder.decode(t).components.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn short_strings(c: &mut Criterion) {
    let keywords: Vec<Vec<u8>> =
        [(Charset::Gbk, "北京天气"), (Charset::Utf8, "日本語"), (Charset::EucKr, "한국어")]
            .into_iter()
            .map(|(charset, text)| charset.encode(text).0.into_owned())
            .collect();
    let mut group = c.benchmark_group("url::guess");
    group.throughput(Throughput::Elements(keywords.len() as u64));
    group.bench_function("keywords of 3-4 characters", |b| {
        b.iter_batched(
            || keywords.clone(),
            |keywords| keywords.iter().map(|k| url::guess(k, None, &[]).confidence).sum::<f32>(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, log_lines, short_strings);
criterion_main!(benches);
