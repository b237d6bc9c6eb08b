//! The html5lib encoding-sniffing cases, read from `../shared/conformance`.
//!
//! Each case is a document with no BOM, no HTTP charset and the fallback
//! windows-1252; the answer must equal the expected label's encoding.

use charsight::{label, Engine, Policy};

#[test]
fn html5lib_encoding_cases() {
    let dir = testkit::shared_dir().join("conformance/html5lib-encoding");
    let mut total = 0;
    let mut failures = Vec::new();
    for file in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat", "scripted/tests1.dat"] {
        for case in testkit::encoding_cases(&dir.join(file)) {
            total += 1;
            // The scripted case writes its <meta> from script; without
            // script execution the answer is the default, as in html5lib.
            let expected =
                if file.starts_with("scripted/") { "windows-1252" } else { &case.expected };
            let expected = label::resolve(expected.as_bytes()).expect("expected label resolves");
            let found = Engine::new()
                .policy(Policy::Whatwg)
                .default_encoding("windows-1252")
                .detect(&case.data);
            if found.charset != expected {
                failures.push(format!(
                    "{}: expected {expected}, found {} ({:?})\n  {:?}",
                    case.name,
                    found.charset,
                    found.source,
                    String::from_utf8_lossy(&case.data[..case.data.len().min(160)])
                ));
            }
        }
    }
    println!("html5lib encoding cases: {} of {total} pass", total - failures.len());
    assert!(total >= 83, "only {total} cases found");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
