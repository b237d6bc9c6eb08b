//! `charsight repair`, `decode --repair` and `charsight explain`.

use std::fs;
use std::io::Write;

use predicates::prelude::*;

use crate::util::{charsight, report, run_bounded, samples, write};

/// A UTF-8 document with stray windows-1252 quotes, a mojibake line and a
/// run of references to GBK bytes.
const DAMAGED: &[u8] = b"Il a dit \x93bonjour\x94 \xC3\xA0 tout le monde.\n\
Le caf\xC3\x83\xC2\xA9 est tr\xC3\x83\xC2\xA8s chaud.\n\
<p>&#196;&#227;&#186;&#195; &#202;&#192;&#189;&#231;</p>\n";

const REPAIRED: &str =
    "Il a dit “bonjour” à tout le monde.\nLe café est très chaud.\n<p>你好 世界</p>\n";

#[test]
fn repair_writes_the_repaired_text_and_lists_every_change() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", DAMAGED);
    let rep = dir.path().join("r.json");
    charsight()
        .args(["repair", &input, "--report", rep.to_str().unwrap()])
        .assert()
        .success()
        .stdout(REPAIRED)
        .stderr(predicate::str::contains("5 findings: mixed 2, mojibake 2, ncr 1"));
    let r = report(&rep);
    assert_eq!(r["repairs"]["policy"], "declaration,fonts,mixed,ncr,mojibake,pua");
    assert_eq!(r["repairs"]["counts"]["mixed"], 2);
    let findings = r["repairs"]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 5);
    assert_eq!(findings[0]["kind"], "mixed");
    assert_eq!(findings[0]["range"]["start"], 9);
    assert_eq!(findings[0]["before"], "\u{FFFD}");
    assert_eq!(findings[0]["after"], "“");
    assert_eq!(findings[2]["kind"], "mojibake");
    assert_eq!(findings[2]["rule"], "UTF-8 read as windows-1252");
    assert_eq!(findings[2]["range"]["start"], 43);
    assert_eq!(findings[4]["kind"], "ncr");
    assert_eq!(findings[4]["line"], 3);
    // The malformed bytes were repaired: none is left.
    assert_eq!(r["malformed"]["sequences"], 0);
}

#[test]
fn decode_repairs_only_what_it_is_asked_to() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", DAMAGED);
    let out = charsight().args(["decode", &input]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Il a dit \u{FFFD}bonjour\u{FFFD}"), "{text}");
    assert!(text.contains("Ã"), "no repair by default");
    let out = charsight().args(["decode", "--repair", "mixed,ncr", &input]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Il a dit “bonjour”"));
    assert!(text.contains("cafÃ©"), "mojibake left: {text}");
    assert!(text.contains("你好 世界"));
    charsight().args(["decode", "--repair", "all", &input]).assert().success().stdout(REPAIRED);
    charsight()
        .args(["decode", "--repair", "mixed,typo", &input])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown repair \"typo\""));
    // `repair --repair none` is a plain decode.
    let out = charsight().args(["repair", "--repair", "none", &input]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains('\u{FFFD}'));
}

#[test]
fn strict_fails_only_on_what_no_repair_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", b"caf\xE9 au lait\n");
    charsight()
        .args(["repair", "--errors", "strict", &input])
        .assert()
        .success()
        .stdout("café au lait\n");
    let input = write(dir.path(), "bad.txt", b"Le caf\xC3\x83\xC2\xA9 est chaud \xFF\n");
    charsight()
        .args(["decode", "--force-encoding", "utf-8", "--repair", "mojibake", "--errors", "strict"])
        .arg(&input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("at byte offset 21"));
}

#[test]
fn declaration_mismatch_is_reported_with_both_routes() {
    let dir = tempfile::tempdir().unwrap();
    let feed = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<t>Cr\xE8me br\xFBl\xE9e, d\xE9j\xE0 vu, na\xEFve.</t>\n";
    let input = write(dir.path(), "feed.xml", feed);
    let rep = dir.path().join("r.json");
    charsight()
        .args(["repair", &input, "--report", rep.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("Crème brûlée"));
    let r = report(&rep);
    let f = &r["repairs"]["findings"][0];
    assert_eq!(f["kind"], "declaration");
    assert_eq!(f["applied"], false);
    assert_eq!(f["before"], "UTF-8");
    assert!(f["rule"].as_str().unwrap().starts_with("declared UTF-8 (xml at byte 30)"));
    // With the rewrite spliced in, the finding is applied.
    charsight()
        .args([
            "repair",
            &input,
            "--to",
            "windows-1252",
            "--fix-declaration",
            "--report",
            rep.to_str().unwrap(),
        ])
        .assert()
        .success();
    let r = report(&rep);
    let f = &r["repairs"]["findings"][0];
    assert_eq!((f["applied"].as_bool(), f["after"].as_str()), (Some(true), Some("windows-1252")));
}

#[test]
fn explain_reads_like_a_validator() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", DAMAGED);
    let out = charsight().args(["explain", &input]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "problems found");
    let text = String::from_utf8(out.stdout).unwrap();
    for section in [
        "Declared",
        "What the bytes are",
        "Decision (verify policy): UTF-8",
        "What decode would do under each policy",
        "Problems",
        "Repairs `charsight repair` would make",
        "line 2, bytes 43..47: mojibake “Ã©” → “é”",
        "5 findings (mixed 2, mojibake 2, ncr 1)",
    ] {
        assert!(text.contains(section), "{section:?} in\n{text}");
    }
    assert!(!text.contains('\u{1b}'), "no colour when piped");
    // A malformed sequence no repair decodes (a lone surrogate in UTF-16)
    // is shown with its place and an excerpt.
    let input = write(
        dir.path(),
        "bad.txt",
        b"\xFF\xFEo\x00k\x00\n\x00l\x00i\x00n\x00e\x00 \x00\x00\xD8!\x00\n\x00",
    );
    let out =
        charsight().args(["explain", "--force-encoding", "utf-16le", &input]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("line 2, byte 18: malformed UTF-16LE sequence 00 D8 “line \u{FFFD}!”"),
        "{text}"
    );
    assert!(text.contains("1 malformed sequence left"), "{text}");
    // Clean input: exit 0.
    let input = write(dir.path(), "ok.txt", "Grüße, clean UTF-8.\n".as_bytes());
    charsight()
        .args(["explain", &input])
        .assert()
        .success()
        .stdout(predicate::str::contains("none"));
}

/// A 48 MB input, damaged here and there, repairs under a 120 MB
/// address-space limit: memory does not grow with the input.
#[test]
fn repair_memory_stays_bounded_on_a_large_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let mut file = fs::File::create(&path).unwrap();
    let mut block = DAMAGED.to_vec();
    for _ in 0..2000 {
        block.extend_from_slice(
            b"Plain text of a long document, line after line, nothing to repair.\n",
        );
    }
    let mut written = 0;
    while written < 48 << 20 {
        file.write_all(&block).unwrap();
        written += block.len();
    }
    file.write_all(DAMAGED).unwrap();
    drop(file);
    let tail = run_bounded("repair", &path, 200);
    assert!(tail.ends_with(REPAIRED), "{tail}");
}

/// The damaged sample page: each kind of damage on it repaired, the rest
/// of the page as it was.
#[test]
fn the_damaged_sample_is_repaired() {
    let page = samples().join("fr-utf8-damaged.html");
    let out = charsight().arg("repair").arg(&page).assert().success();
    let out = out.stderr(predicate::str::contains("mixed 3, mojibake 1, ncr 1, fonts 1"));
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for repaired in ["“FICHIER1", "numéros", "d'inœud”", "autorisée", "这个参数的值同", "α + β = γ"]
    {
        assert!(text.contains(repaired), "{repaired} missing in {text}");
    }
    assert!(!text.contains('\u{FFFD}'));
    let original = String::from_utf8_lossy(&fs::read(&page).unwrap()).into_owned();
    assert_eq!(text.lines().count(), original.lines().count());
    assert!(text.starts_with(&original[..original.find("<p>").unwrap()]));
}

/// Private-use characters: a DoCoMo emoji mapped, another gaiji reported
/// with its bytes and left; `explain` lists the one left.
#[test]
fn private_use_characters_are_mapped_or_reported() {
    let dir = tempfile::tempdir().unwrap();
    let page =
        write(dir.path(), "i.html", b"<meta charset=shift_jis><p>\x82\xa0 \xf8\x9f \xf0\x40</p>\n");
    let rep = dir.path().join("r.json");
    let out =
        charsight().args(["repair", &page, "--report", rep.to_str().unwrap()]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("あ \u{2600} \u{E000}"), "{text}");
    let r = report(&rep);
    let findings = r["repairs"]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2);
    assert_eq!(findings[0]["kind"], "pua");
    assert_eq!(findings[0]["applied"], true);
    assert_eq!(findings[0]["range"]["start"], 30);
    assert_eq!(findings[1]["applied"], false);
    assert_eq!(findings[1]["range"]["start"], 33);
    assert!(findings[1]["rule"].as_str().unwrap().contains("bytes F0 40"));
    charsight()
        .args(["explain", &page])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("private use U+E000, Shift_JIS user-defined row"));
}
