//! Repair throughput (bytes per second of input, `repair all` with UTF-8
//! given) on the inputs of issues 20 and 25 where work per byte must stay
//! bounded: mojibake throughout (`Ã©tÃ© Ã  la plage, …` repeated), numeric
//! references to the high half (`&#128;…&#255;` repeated), random high
//! bytes, `a é E4 B8` repeated with no line break; and clean French text
//! from `../shared/text`, which should pass at close to decode speed.

use charsight::decode::Errors;
use charsight::repair::{RepairPolicy, Repairer};
use charsight::Charset;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// Size of each damaged input: small, while repair of damage is slow.
const DAMAGED: usize = 16 << 10;
/// Size of the clean input.
const CLEAN: usize = 1 << 20;

/// `unit` repeated to `size` bytes.
fn repeated(unit: &[u8], size: usize) -> Vec<u8> {
    unit.iter().copied().cycle().take(size).collect()
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let references: String = (128..=255).map(|b| format!("&#{b};")).collect();
    let mut clean = String::new();
    for line in testkit::text_lines("fr", false).iter().cycle() {
        if clean.len() >= CLEAN {
            break;
        }
        clean.push_str(line);
        clean.push('\n');
    }
    vec![
        ("mojibake", repeated("Ã©tÃ© Ã  la plage, cafÃ© crÃ¨me. ".as_bytes(), DAMAGED)),
        ("references", repeated(references.as_bytes(), DAMAGED)),
        (
            "random-high-bytes",
            testkit::random_bytes(20, DAMAGED).iter().map(|b| b | 0x80).collect(),
        ),
        ("a-e-E4-B8-one-line", repeated(b"a\xc3\xa9\xe4\xb8", DAMAGED)),
        ("clean-fr", clean.into_bytes()),
    ]
}

fn repair(c: &mut Criterion) {
    let mut group = c.benchmark_group("repair");
    group.sample_size(10);
    for (name, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &bytes, |b, bytes| {
            b.iter(|| {
                let mut repairer =
                    Repairer::new(Charset::Utf8, RepairPolicy::all(), Errors::Replace);
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
