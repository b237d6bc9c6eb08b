//! Zawgyi detection on held-out text and conversion against the CLDR test
//! pairs and Rabbit's samples (`shared/fonts/zawgyi`).

use crate::zawgyi;
use testkit::{held_out, shared_dir};

/// Length buckets (Burmese characters) of the accuracy table.
const BUCKETS: &[(usize, usize)] = &[(1, 4), (5, 9), (10, 19), (20, 49), (50, usize::MAX)];

/// Held-out lines of `text/my.txt` (never trained on) and, to get shorter
/// items, each of their space-separated phrases.
fn held_out_items() -> Vec<String> {
    let text = std::fs::read_to_string(shared_dir().join("text/my.txt")).unwrap();
    let mut items = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty() && held_out(l)) {
        items.push(line.to_owned());
        items.extend(
            line.split(' ').filter(|p| p.chars().any(zawgyi::is_myanmar)).map(str::to_owned),
        );
    }
    items
}

#[test]
fn detection_accuracy_on_held_out_text() {
    // (right, total, indistinguishable) per bucket.
    let mut table = vec![(0usize, 0usize, 0usize); BUCKETS.len()];
    for unicode in held_out_items() {
        let zawgyi_form = zawgyi::to_zawgyi(&unicode);
        let burmese = unicode.chars().filter(|&c| zawgyi::is_myanmar(c)).count();
        let Some(bucket) = BUCKETS.iter().position(|&(lo, hi)| (lo..=hi).contains(&burmese)) else {
            continue;
        };
        if zawgyi_form == unicode {
            // The same code points in both encodings: nothing to tell apart.
            table[bucket].2 += 2;
            continue;
        }
        for (text, is_zawgyi) in [(&unicode, false), (&zawgyi_form, true)] {
            let p = zawgyi::probability(text).unwrap();
            table[bucket].0 += usize::from((p > 0.5) == is_zawgyi);
            table[bucket].1 += 1;
        }
    }
    println!("Burmese chars | right / judged | accuracy | identical in both (not judged)");
    for (&(lo, hi), &(right, total, same)) in BUCKETS.iter().zip(&table) {
        let hi = if hi == usize::MAX { "+".to_owned() } else { format!("-{hi}") };
        let accuracy = right as f64 / total.max(1) as f64;
        println!("{lo}{hi} | {right} / {total} | {:.2}% | {same}", 100.0 * accuracy);
    }
    let (right, total) = table[2..].iter().fold((0, 0), |(r, t), &(a, b, _)| (r + a, t + b));
    let accuracy = right as f64 / total as f64;
    assert!(total > 500, "too few held-out items: {total}");
    assert!(accuracy >= 0.995, "accuracy {accuracy} on lines of >= 10 Burmese characters");
}

#[test]
fn cldr_test_pairs_convert_to_unicode() {
    let path = shared_dir().join("fonts/zawgyi/cldr/testData-my-t-my-s0-zawgyi.txt");
    let data = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in data.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (zawgyi_text, unicode) = line.split_once('\t').unwrap();
        count += 1;
        let got = zawgyi::to_unicode(zawgyi_text);
        if got != unicode {
            failures.push((zawgyi_text, unicode, got));
        }
    }
    assert_eq!(count, 93);
    assert!(failures.is_empty(), "{} of {count} pairs differ: {failures:?}", failures.len());
}

#[test]
fn rabbit_samples_are_detected_and_convert() {
    let path = shared_dir().join("fonts/zawgyi/rabbit/sample.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let zg = json["zg"].as_array().unwrap();
    let uni = json["uni"].as_array().unwrap();
    let mut converted = 0;
    for (z, u) in zg.iter().zip(uni) {
        let (z, u) = (z.as_str().unwrap(), u.as_str().unwrap());
        assert!(zawgyi::probability(z).unwrap() > 0.5, "{z} judged Unicode");
        assert!(zawgyi::probability(u).unwrap() < 0.5, "{u} judged Zawgyi");
        converted += usize::from(zawgyi::to_unicode(z) == u);
    }
    assert_eq!(converted, zg.len(), "samples that convert as Rabbit's expected Unicode");
}

#[test]
fn unicode_burmese_round_trips_through_zawgyi() {
    let text = std::fs::read_to_string(shared_dir().join("text/my.txt")).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| held_out(l)).collect();
    let back = lines.iter().filter(|l| zawgyi::to_unicode(&zawgyi::to_zawgyi(l)) == **l).count();
    assert!(back * 100 >= lines.len() * 95, "{back} of {} lines round-trip", lines.len());
}

#[test]
fn converted_held_out_zawgyi_starts_its_words_well() {
    let items = held_out_items();
    let ill: Vec<&String> = items
        .iter()
        .filter(|u| !zawgyi::words_start_well(&zawgyi::to_unicode(&zawgyi::to_zawgyi(u))))
        .collect();
    println!(
        "{} of {} held-out items, through Zawgyi and back, start a word with a mark",
        ill.len(),
        items.len()
    );
    assert!(ill.is_empty(), "{:?}", &ill[..ill.len().min(5)]);
}
