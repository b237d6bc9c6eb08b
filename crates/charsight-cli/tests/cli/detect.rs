//! `charsight detect`: the output contract and behaviour on bad input.

use std::fs;
use std::io::{Seek, SeekFrom, Write};

use charsight::Charset;
use predicates::prelude::*;
use serde_json::Value;

use crate::util::{charsight, detect_jsonl, detect_one, samples, text_lines};

#[test]
fn samples_in_text_format() {
    charsight()
        .arg("detect")
        .arg(samples())
        .assert()
        .success()
        .stdout(predicate::str::contains("ja-shift_jis.html: Shift_JIS (meta"))
        .stdout(predicate::str::contains("es-utf32be.xml: UTF-32BE (xml"))
        .stdout(predicate::str::contains("de-utf8-bom.txt: UTF-8 (bom"));
}

#[test]
fn jsonl_has_one_object_per_input_with_the_contract_fields() {
    let (lines, code) = detect_jsonl(&[samples().to_str().unwrap()], None);
    assert_eq!(code, 0);
    let files =
        fs::read_dir(samples()).unwrap().filter(|e| e.as_ref().unwrap().path().is_file()).count();
    assert_eq!(lines.len(), files);
    for line in &lines {
        for field in ["path", "encoding", "confidence", "source", "declared", "language"] {
            assert!(line.get(field).is_some(), "{field} missing in {line}");
        }
        let confidence = line["confidence"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&confidence));
    }
    let sjis =
        lines.iter().find(|l| l["path"].as_str().unwrap().ends_with("ja-shift_jis.html")).unwrap();
    assert_eq!(sjis["encoding"], "Shift_JIS");
    assert_eq!(sjis["source"], "meta");
    assert_eq!(sjis["declared"][0]["source"], "meta");
    assert_eq!(sjis["declared"][0]["label"], "Shift_JIS");
    assert_eq!(sjis["declared"][0]["encoding"], "Shift_JIS");
    assert!(sjis["declared"][0]["offset"].as_u64().unwrap() > 0);
}

#[test]
fn stdin_with_dash_and_with_no_operands() {
    let (lines, _) = detect_jsonl(&["-"], Some(b"<meta charset=koi8-r>"));
    assert_eq!(lines[0]["path"], "-");
    assert_eq!(lines[0]["encoding"], "KOI8-R");
    let (lines, _) = detect_jsonl(&[], Some(b"\xEF\xBB\xBFhi"));
    assert_eq!(lines[0]["source"], "bom");
}

#[test]
fn context_options() {
    let v = detect_one(
        b"<meta charset=utf-8>",
        &["--content-type", "text/html; charset=\"Shift_JIS\""],
    );
    assert_eq!(v["encoding"], "Shift_JIS");
    assert_eq!(v["source"], "http");
    let v = detect_one(b"h\xe9", &["--default-encoding", "ISO8859-2"]);
    assert_eq!(
        (v["encoding"].as_str(), v["source"].as_str()),
        (Some("ISO-8859-2"), Some("default"))
    );
    let v = detect_one(b"<meta charset=utf-8>", &["--force-encoding", "cp932"]);
    assert_eq!((v["encoding"].as_str(), v["source"].as_str()), (Some("Shift_JIS"), Some("forced")));
    let v = detect_one(b"hi", &["--content-type", "text/html; charset=none"]);
    assert_eq!(v["declared"][0]["encoding"], Value::Null);
    assert_eq!(v["declared"][0]["notes"][0], "none_label");
}

#[test]
fn bad_label_on_the_command_line_exits_2_naming_it() {
    charsight()
        .args(["detect", "--default-encoding", "nonsense"])
        .arg(samples())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'nonsense'"))
        .stdout("");
    charsight().args(["detect", "--force-encoding", ""]).arg(samples()).assert().code(2);
}

#[test]
fn unreadable_file_gives_an_error_line_and_exit_2_and_the_rest_goes_on() {
    let missing = samples().join("no-such-file.html");
    let present = samples().join("en-ascii.txt");
    let (lines, code) = detect_jsonl(&[missing.to_str().unwrap(), present.to_str().unwrap()], None);
    assert_eq!(code, 2);
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["error"].as_str().unwrap().contains("No such file"));
    assert_eq!(lines[1]["encoding"], "UTF-8");
    charsight()
        .arg("detect")
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-file.html"));
}

#[test]
fn empty_file() {
    let v = detect_one(b"", &[]);
    assert_eq!(v["ascii"], true);
    assert_eq!(v["binary"], false);
}

#[test]
fn binary_file() {
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00".to_vec();
    png.extend((0..4096u32).map(|i| (i * 7919 % 251) as u8));
    let v = detect_one(&png, &[]);
    assert_eq!(v["binary"], true);
    // A reading is given, with no confidence: no decoding of it is right.
    assert!(v["encoding"].is_string());
    assert_eq!(v["confidence"], 0.0);
    // UTF-16 without BOM has NULs too, but is text.
    let utf16: Vec<u8> =
        "plain words, nothing binary".encode_utf16().flat_map(u16::to_le_bytes).collect();
    let v = detect_one(&utf16, &[]);
    assert_eq!(v["binary"], false);
    assert_eq!(v["encoding"], "UTF-16LE");
}

#[test]
fn legacy_page_with_utf8_fragments_says_so() {
    // Three French lines in windows-1252, one pasted from a UTF-8 source.
    let lines = text_lines("fr", 20);
    let accented: Vec<&String> = lines.iter().filter(|l| l.contains('é')).take(4).collect();
    let mut bytes = Vec::new();
    for line in &accented[..3] {
        bytes.extend_from_slice(&Charset::Windows1252.encode(line).0);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(accented[3].as_bytes());
    let v = detect_one(&bytes, &[]);
    assert_eq!(v["encoding"], "windows-1252");
    assert_eq!(v["rule"]["rule"], "utf8_fragments");
    let dir = tempfile::tempdir().unwrap();
    let path = crate::util::write(dir.path(), "mixed.txt", &bytes);
    charsight()
        .args(["detect", &path])
        .assert()
        .success()
        .stdout(predicate::str::contains("windows-1252 (detected, confidence"))
        .stdout(predicate::str::contains("with UTF-8 fragments"));
}

#[test]
fn truncated_boms() {
    for bytes in [&b"\xEF\xBB"[..], b"\xFE", b"\xFF", b"\x00\x00\xFE"] {
        let v = detect_one(bytes, &[]);
        assert!(v["declared"].as_array().unwrap().is_empty(), "{bytes:?}: {v}");
        assert_ne!(v["source"], "bom");
    }
}

#[test]
fn meta_cut_off_at_byte_1023_is_found_late() {
    let mut page = b"<html><head>".to_vec();
    page.resize(1019, b' ');
    page.extend(b"<meta charset=\"euc-jp\">");
    let v = detect_one(&page, &[]);
    assert_eq!(v["encoding"], "EUC-JP");
    assert_eq!(v["declared"][0]["offset"], 1034);
    assert_eq!(v["declared"][0]["notes"][0], "late");
}

#[test]
fn hundred_megabytes_of_unterminated_markup() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.html");
    let mut file = fs::File::create(&path).unwrap();
    let block: Vec<u8> = b"<!--<meta ".iter().copied().cycle().take(1 << 20).collect();
    for _ in 0..100 {
        file.write_all(&block).unwrap();
    }
    drop(file);
    let (lines, code) = detect_jsonl(&[path.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert_eq!(lines[0]["encoding"], "UTF-8");
    assert_eq!(lines[0]["ascii"], true);
}

/// A 2 GB file (sparse: its tail is a hole of NULs) is read only as far as
/// needed, under a 300 MB address-space limit.
#[test]
fn two_gigabyte_file_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.html");
    let mut file = fs::File::create(&path).unwrap();
    file.write_all(b"<html><head><meta charset=windows-1251></head><body>").unwrap();
    file.seek(SeekFrom::Start(2 << 30)).unwrap();
    file.write_all(b"</body></html>").unwrap();
    drop(file);
    let bin = assert_cmd::cargo::cargo_bin("charsight");
    let script = format!(
        "ulimit -v 300000 && exec '{}' detect --format jsonl '{}'",
        bin.display(),
        path.display()
    );
    let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let v: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["encoding"], "windows-1251");
    assert_eq!(v["binary"], true);
}

#[test]
fn help_and_version() {
    charsight().arg("--help").assert().success().stdout(predicate::str::contains("detect"));
    charsight()
        .args(["detect", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--content-type"))
        .stdout(predicate::str::contains("--default-encoding"));
    charsight().arg("--version").assert().success();
    charsight().arg("frobnicate").assert().code(2);
}

#[test]
fn closed_pipe_exits_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("charsight");
    let script = format!(
        "'{}' detect '{}' '{}' | head -c 1 > /dev/null; exit ${{PIPESTATUS[0]}}",
        bin.display(),
        samples().display(),
        samples().display()
    );
    let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn font_layers_in_jsonl() {
    let line = detect_one("<p>ျမန္မာႏိုင္ငံ ေျပာပါတယ္</p>\n".as_bytes(), &[]);
    assert_eq!(line["font_encoding"], "Zawgyi");
    assert!(line["font_confidence"].as_f64().unwrap() > 0.9);
    let line = detect_one(b"<html><font face=\"Symbol\">abg</font></html>", &[]);
    assert_eq!(line["font_encoding"], "Symbol");
    let line = detect_one(b"<p>plain page</p>", &[]);
    assert!(line.get("font_encoding").is_none());
}

/// gzip and ELF files had a language and "with UTF-8 fragments".
#[test]
fn a_gzip_file_is_binary_with_no_confidence_or_language() {
    let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
    gzip.extend(testkit::random_bytes(2, 6000));
    let v = detect_one(&gzip, &[]);
    assert_eq!(v["binary"], true);
    assert_eq!(v["confidence"], 0.0);
    assert_eq!(v["language"], Value::Null);
    assert_eq!(v["ebcdic"], Value::Null);
    assert!(v.get("font_encoding").is_none());
    assert_eq!(v["rule"]["rule"], "detected");
    let dir = tempfile::tempdir().unwrap();
    let path = crate::util::write(dir.path(), "readme.gz", &gzip);
    charsight()
        .args(["detect", &path])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("readme.gz: binary data, not text\n"))
        .stdout(predicate::str::contains("fragments").not())
        .stdout(predicate::str::contains("language").not());
    // Forced, it has the encoding it was given.
    charsight()
        .args(["detect", "--force-encoding", "latin1", &path])
        .assert()
        .success()
        .stdout(predicate::str::contains(": windows-1252 (forced, confidence 1.00) binary"));
}

/// Random bytes and every byte value in turn read as UTF-16LE, confidence 0.99.
#[test]
fn every_byte_value_then_random_is_binary_not_utf16() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(256 * 20).collect();
    bytes.extend(testkit::random_bytes(1, 5000));
    let v = detect_one(&bytes, &[]);
    assert_eq!(v["binary"], true);
    assert_eq!(v["confidence"], 0.0);
    assert!(!v["encoding"].as_str().unwrap().starts_with("UTF-16"));
}

/// cp037 text read as UTF-16LE, confidence 1.00.
#[test]
fn ebcdic_text_is_reported_as_ebcdic() {
    let v = detect_one(&testkit::ebcdic_sample(), &[]);
    assert_eq!(v["ebcdic"], "EBCDIC (IBM037/IBM500 family)");
    assert_eq!(v["binary"], false);
    // English reads alike in IBM037, IBM500 and IBM01140.
    assert_eq!(v["encoding"], "IBM037");
    assert!(v["confidence"].as_f64().unwrap() > 0.9);
    let dir = tempfile::tempdir().unwrap();
    let path = crate::util::write(dir.path(), "ebcdic.txt", &testkit::ebcdic_sample());
    charsight().args(["detect", &path]).assert().success().stdout(
        predicate::str::contains("IBM037 (detected")
            .and(predicate::str::contains("EBCDIC (IBM037/IBM500 family)")),
    );
}

/// `yes | charsight detect -` ends: detection reads a bounded prefix (the
/// one every command decides on), says so, and with an encoding forced
/// stops after the first read.
#[test]
fn r25_detect_reads_a_bounded_prefix_and_says_so() {
    let bin = assert_cmd::cargo::cargo_bin("charsight");
    let run = |args: &str| {
        let script = format!("yes | timeout 60 '{}' detect --format jsonl {args} -", bin.display());
        let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    assert_eq!(run("")["prefix"], 64 << 20);
    let forced = run("--force-encoding latin1");
    assert_eq!(
        (forced["encoding"].as_str(), forced["source"].as_str()),
        (Some("windows-1252"), Some("forced"))
    );
    assert!(forced["prefix"].as_u64().is_some_and(|n| n > 0 && n <= 64 * 1024), "{forced}");
    // Read to its end, a file or a pipe rests on no prefix.
    assert_eq!(detect_one("naïve café".as_bytes(), &[])["prefix"], Value::Null);
    let (lines, _) = detect_jsonl(&["-"], Some("naïve café".as_bytes()));
    assert_eq!(lines[0]["prefix"], Value::Null);
    let script = format!("yes | head -c 100000000 | '{}' detect -", bin.display());
    let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
    let line = String::from_utf8(output.stdout).unwrap();
    assert!(line.ends_with("; decided on the first 67108864 bytes\n"), "{line}");
}

/// A directory walk follows symbolic links to files and reports dangling
/// ones by their path (exit 2), instead of skipping both silently.
#[test]
fn r25_walks_follow_links_to_files_and_report_dangling_ones() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("sub/real.txt"), "naïve").unwrap();
    std::os::unix::fs::symlink("sub/real.txt", dir.path().join("link.txt")).unwrap();
    std::os::unix::fs::symlink("nowhere", dir.path().join("dangling.txt")).unwrap();
    let (lines, code) = detect_jsonl(&[dir.path().to_str().unwrap()], None);
    let paths: Vec<&str> = lines.iter().map(|l| l["path"].as_str().unwrap()).collect();
    let dangling = dir.path().join("dangling.txt");
    let link = dir.path().join("link.txt");
    let real = dir.path().join("sub/real.txt");
    assert_eq!(paths, [dangling.to_str().unwrap(), link.to_str().unwrap(), real.to_str().unwrap()]);
    assert!(lines[0]["error"].as_str().unwrap().contains("No such file"));
    assert_eq!(lines[1]["encoding"], "UTF-8");
    assert_eq!(code, 2);
}
