//! Repair throughput (bytes per second of input, `repair all` with UTF-8
//! given) on the inputs of issues 20 and 25 where work per byte must stay
//! bounded: mojibake throughout (`Ã©tÃ© Ã  la plage, …` repeated), numeric
//! references to the high half (`&#128;…&#255;` repeated), random high
//! bytes, `a é E4 B8` repeated with no line break; and clean text from
//! `../shared/text`, which should pass at close to decode speed: French in
//! UTF-8, and Chinese in GBK (a legacy document's own bytes are searched
//! for UTF-8, and its characters mapped to them).

use charsight::decode::Errors;
use charsight::repair::{RepairPolicy, Repairer};
use charsight::Charset;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// Size of each damaged input: small, while repair of damage is slow.
const DAMAGED: usize = 16 << 10;
/// Size of the clean inputs.
const CLEAN: usize = 1 << 20;
/// Size of the clean input in a legacy encoding, slower to repair.
const CLEAN_LEGACY: usize = 256 << 10;

/// `unit` repeated to `size` bytes.
fn repeated(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

/// The text of `language`'s lines, to at least `size` bytes.
fn clean(language: &str, size: usize) -> String {
    let mut clean = String::new();
    for line in testkit::text_lines(language, false).iter().cycle() {
        if clean.len() >= size {
            break;
        }
        clean.push_str(line);
        clean.push('\n');
    }
    clean
}

/// Each input: its name, the encoding it is repaired in, its bytes.
fn inputs() -> Vec<(&'static str, Charset, Vec<u8>)> {
    let references: String = (128..=255).map(|b| format!("&#{b};")).collect();
    let utf8 = Charset::Utf8;
    vec![
        ("mojibake", utf8, repeated("Ã©tÃ© Ã  la plage, cafÃ© crÃ¨me. ".as_bytes(), DAMAGED)),
        ("references", utf8, repeated(references.as_bytes(), DAMAGED)),
        (
            "random-high-bytes",
            utf8,
            testkit::random_bytes(20, DAMAGED).iter().map(|b| b | 0x80).collect(),
        ),
        ("a-e-E4-B8-one-line", utf8, repeated(b"a\xc3\xa9\xe4\xb8", DAMAGED)),
        ("clean-fr", utf8, clean("fr", CLEAN).into_bytes()),
        (
            "clean-zh-gbk",
            Charset::Gbk,
            Charset::Gbk.encode(&clean("zh-Hans", CLEAN_LEGACY)).0.into_owned(),
        ),
    ]
}

fn repair(c: &mut Criterion) {
    let mut group = c.benchmark_group("repair");
    group.sample_size(10);
    for (name, charset, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &bytes, |b, bytes| {
            b.iter(|| {
                let mut repairer = Repairer::new(charset, RepairPolicy::all(), Errors::Replace);
                let mut text = String::with_capacity(bytes.len() * 2);
                repairer.repair(bytes, true, &mut text).expect("replace mode never fails");
                text.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, repair);
criterion_main!(benches);
