//! Content detection throughput (bytes per second of input) on documents
//! built from `../shared/text`: an ASCII-heavy HTML page (English and French
//! in windows-1252 inside markup), Japanese text in Shift_JIS, Russian text
//! in windows-1251 (each about 256 KiB), whole and fed in 1 KiB chunks as
//! from a network. The detector reads only as much as its decision needs.

use charsight::detect::Detector;
use charsight::Charset;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const SIZE: usize = 256 << 10;

/// Lines of a language's text, repeated to about `SIZE` bytes.
fn text(language: &str, markup: bool) -> String {
    let lines = testkit::text_lines(language, false);
    let mut out = String::new();
    for (i, line) in lines.iter().cycle().enumerate() {
        if out.len() >= SIZE {
            break;
        }
        if markup {
            out.push_str(&format!(
                "<div class=\"item i{}\"><a href=\"/articles/{i}.html\" title=\"article {i}\">{i}</a> \
                 <span style=\"color: #333\">{line}</span></div>\n",
                i % 5
            ));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut html = text("en", true);
    html.push_str(&text("fr", true)[..SIZE / 8]);
    vec![
        ("html-windows-1252", Charset::Windows1252.encode(&html).0.into_owned()),
        ("ja-shift_jis", Charset::ShiftJis.encode(&text("ja", false)).0.into_owned()),
        ("ru-windows-1251", Charset::Windows1251.encode(&text("ru", false)).0.into_owned()),
    ]
}

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
