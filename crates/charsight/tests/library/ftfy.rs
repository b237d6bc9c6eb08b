//! ftfy's test cases (`../shared/conformance/ftfy/test-cases`, ftfy's own
//! categories), each written as UTF-8 and repaired with every repair kind.
//!
//! A case whose `fixed-encoding` (or, without one, `fixed`) is its
//! `original` is text that must stay as it is; the others are fixed when
//! the output is exactly that text. A table per file is printed; the cases
//! charsight does not pass are listed with a reason in `docs/repair.md`.

use charsight::decode::Errors;
use charsight::repair::{RepairPolicy, Repairer};
use charsight::Charset;

/// Must-stay cases changed, at most (of 49), and fixable cases fixed, at
/// least (of 112): floors so that neither can regress.
const MAX_CHANGED: usize = 2;
const MIN_FIXED: usize = 98;

/// Tallies of one file's cases.
#[derive(Default)]
struct Tally {
    stay: usize,
    kept: usize,
    fixable: usize,
    fixed: usize,
}

fn repaired(text: &str) -> String {
    let mut repairer = Repairer::new(Charset::Utf8, RepairPolicy::all(), Errors::Replace);
    let mut out = String::new();
    repairer.repair(text.as_bytes(), true, &mut out).expect("replace mode never fails");
    out
}

#[test]
fn ftfy_test_cases() {
    let dir = testkit::shared_dir().join("conformance/ftfy/test-cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("ftfy test cases")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut total = Tally::default();
    let mut changed = Vec::new();
    let mut missed = Vec::new();
    println!("| ftfy file | must stay: kept | fixable: fixed |\n| --- | ---: | ---: |");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut tally = Tally::default();
        for case in &cases {
            let original = case["original"].as_str().unwrap();
            let expected = case.get("fixed-encoding").unwrap_or(&case["fixed"]).as_str().unwrap();
            let out = repaired(original);
            if original == expected {
                tally.stay += 1;
                if out == original {
                    tally.kept += 1;
                } else {
                    changed.push(format!("{name}: {original:?} -> {out:?}"));
                }
            } else {
                tally.fixable += 1;
                if out == expected {
                    tally.fixed += 1;
                } else {
                    missed.push(format!("{name}: {original:?} -> {out:?}, not {expected:?}"));
                }
            }
        }
        println!(
            "| {name} | {} / {} | {} / {} |",
            tally.kept, tally.stay, tally.fixed, tally.fixable
        );
        total.stay += tally.stay;
        total.kept += tally.kept;
        total.fixable += tally.fixable;
        total.fixed += tally.fixed;
    }
    println!("| all | {} / {} | {} / {} |", total.kept, total.stay, total.fixed, total.fixable);
    println!("changed:\n{}\nnot fixed:\n{}", changed.join("\n"), missed.join("\n"));
    assert!(total.stay >= 49 && total.fixable >= 112, "cases missing");
    assert!(changed.len() <= MAX_CHANGED, "{} must-stay cases changed", changed.len());
    assert!(total.fixed >= MIN_FIXED, "{} fixed", total.fixed);
}
