//! `charsight decode`: text out, errors modes, declarations, reports, memory.

use std::fs;
use std::io::Write;

use charsight::Charset;
use predicates::prelude::*;
use serde_json::Value;

use crate::util::{charsight, report, run_bounded, samples, text_lines, write};

#[test]
fn decodes_a_declared_legacy_page_to_utf8() {
    let page = samples().join("ja-shift_jis.html");
    let expected = Charset::ShiftJis.decode(&fs::read(&page).unwrap()).0.into_owned();
    charsight().arg("decode").arg(&page).assert().success().stdout(expected);
}

#[test]
fn output_file_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.html");
    let rep = dir.path().join("report.json");
    charsight()
        .arg("decode")
        .arg(samples().join("el-utf8-meta-says-latin1.html"))
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&rep)
        .assert()
        .success()
        .stdout("");
    let original = fs::read(samples().join("el-utf8-meta-says-latin1.html")).unwrap();
    assert_eq!(fs::read(&out).unwrap(), original, "UTF-8 in, UTF-8 out, unchanged");
    let r = report(&rep);
    assert_eq!(r["encoding"], "UTF-8");
    assert_eq!(r["rule"]["rule"], "overridden");
    assert_eq!(r["rule"]["declared"], "windows-1252");
    assert_eq!(r["rule"]["reason"], "valid_utf8");
    assert_eq!(r["declared"][0]["label"], "iso-8859-1");
    assert_eq!(r["candidates"][0]["encoding"], "UTF-8");
    assert_eq!(r["candidates"][0]["verification"]["malformed"], 0);
    assert_eq!(r["output"]["encoding"], "UTF-8");
    assert_eq!(r["malformed"]["sequences"], 0);
    assert!(r["bytes_in"].as_u64().unwrap() == original.len() as u64);
}

#[test]
fn report_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.html");
    let page = samples().join("el-utf8-meta-says-latin1.html");
    let assert = charsight()
        .arg("decode")
        .arg(&page)
        .arg("-o")
        .arg(&out)
        .args(["--report", "-"])
        .current_dir(dir.path())
        .assert()
        .success();
    let r: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(r["encoding"], "UTF-8");
    assert_eq!(fs::read(&out).unwrap(), fs::read(&page).unwrap());
    assert!(!dir.path().join("-").exists(), "no file named '-'");
    // The text and the report cannot both go to standard output.
    charsight()
        .arg("decode")
        .arg(&page)
        .args(["--report", "-"])
        .current_dir(dir.path())
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::contains("-o"));
}

#[test]
fn replace_lists_every_malformed_range() {
    let dir = tempfile::tempdir().unwrap();
    let input =
        write(dir.path(), "in.txt", b"<meta charset=utf-8>\nna\xC3\xAFve caf\xC3\xA9\n\xFF here, ");
    let mut bytes = fs::read(&input).unwrap();
    bytes.extend(b"\xE6\x97 and there.\n");
    fs::write(&input, &bytes).unwrap();
    let rep = dir.path().join("r.json");
    charsight()
        .args(["decode", &input, "--report", rep.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{FFFD} here, \u{FFFD} and there."));
    let r = report(&rep);
    let ranges = r["malformed"]["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2);
    assert_eq!(ranges[0]["offset"], 34);
    assert_eq!(ranges[1]["len"], 2);
    assert_eq!(r["malformed"]["sequences"], 2);
}

#[test]
fn strict_exits_1_with_the_offset_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", b"<meta charset=utf-8>\nfine\xC3\xA9 then \xFF bad");
    let out = dir.path().join("out.txt");
    charsight()
        .args(["decode", "--errors", "strict", &input, "-o", out.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("at byte offset 33"));
    assert!(!out.exists(), "nothing partial is written");
    // Standard output too: nothing at all.
    charsight().args(["decode", "--errors", "strict", &input]).assert().code(1).stdout("");
    // And from standard input (spooled between the two passes).
    let bytes = fs::read(&input).unwrap();
    charsight()
        .args(["decode", "--errors", "strict", "-"])
        .write_stdin(bytes)
        .assert()
        .code(1)
        .stdout("");
    let clean = "<meta charset=utf-8>\nfine\u{e9}".as_bytes();
    charsight()
        .args(["decode", "--errors", "strict", "-"])
        .write_stdin(clean)
        .assert()
        .success()
        .stdout("<meta charset=utf-8>\nfine\u{e9}");
}

#[test]
fn escape_keeps_undecodable_bytes_recoverable() {
    let dir = tempfile::tempdir().unwrap();
    let mut sjis =
        Charset::ShiftJis.encode("<meta charset=shift_jis>日本語のテキストです。").0.into_owned();
    sjis.extend(b"\x81\xFF end");
    let input = write(dir.path(), "in.html", &sjis);
    let output = charsight().args(["decode", "--errors", "escape", &input]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.ends_with("\u{10FE81}\u{10FEFF} end"), "{text:?}");
    // Written back in the input's encoding, the escapes become the bytes again.
    charsight()
        .args(["decode", "--errors", "escape", "--to", "Shift_JIS", &input])
        .assert()
        .success()
        .stdout(predicate::eq(sjis.as_slice()));
}

/// `decode --errors escape --force-encoding ENC` of `bytes`, then the text
/// decoded as UTF-8 with escapes and written in ENC again.
fn escape_round_trip(bytes: &[u8], encoding: &str) -> Vec<u8> {
    let text = charsight()
        .args(["decode", "--errors", "escape", "--force-encoding", encoding, "-"])
        .write_stdin(bytes)
        .output()
        .unwrap();
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    let back = charsight()
        .args(["decode", "--errors", "escape", "--force-encoding", "UTF-8", "--to", encoding, "-"])
        .write_stdin(text.stdout)
        .output()
        .unwrap();
    assert!(back.status.success(), "{}", String::from_utf8_lossy(&back.stderr));
    back.stdout
}

#[test]
fn r25_escape_round_trips_every_encoding_through_the_command() {
    let cases: [(&[u8], &str); 14] = [
        (b"a\xf0\x40\x87\x90\xee\x96b", "Shift_JIS"),
        // Switches in other spellings than the encoder's: ESC $ @, a
        // redundant ESC ( B, ESC ( J, katakana, no switch back at the end,
        // and an NEC row 13 character also in the IBM rows.
        (
            b"a\x1b$@\x30\x21\x1b$B\x30\x21\x1b(J\\~\x1b(B\x1b(B\n\x1b(I\x31\x1b$B\x2d\x62",
            "ISO-2022-JP",
        ),
        // No designation, a repeated one, a redundant SI, a shift ended by LF.
        (b"\x0e\x30\x21\x0f\x0f\x1b$)C\x1b$)C\x0e\x30\x21\n\x0e\t\x30\x21", "ISO-2022-KR"),
        // An empty run, a run left open over a line, a line continuation,
        // `~~` and a malformed `~x`.
        (b"a~~b ~{VP~}~{~}~{ND\n~x~\n", "HZ-GB-2312"),
        // A canonical run, a redundant `-`, ASCII in base64, a run left
        // open at the end of a line, non-zero padding, a lone surrogate.
        (b"Hi +AOk-! +AOk-. +AEE- +ZeVnLIqe\n+AOl-+2AA-~+", "UTF-7"),
        // A pair, a lone high surrogate, four-byte UTF-8, an overlong form.
        (b"\xed\xa0\xbd\xed\xb8\x80 \xed\xa0\x80 \xf0\x9f\x98\x80 \xc0\xaf", "CESU-8"),
        // `æ` then a combining grave accent, which the encoder would write
        // composed (AB C4); JIS X 0212 where JIS X 0213 has the character
        // too; `8F` before two bytes that are no character.
        (b"\xa9\xdc\xab\xdc\xab\xc4\x8f\xb0\xa1\x8f\xa2\xb7\x8fAB", "EUC-JIS-2004"),
        // The full-width reverse solidus, `\` there; a lone lead byte.
        (b"\x81\x5f\x5c\x82\xa9\x83\x4a\x86\x63\x81", "Shift_JIS-2004"),
        // A designation kept over a line, a redundant SO, SS2 undesignated,
        // plane 3, a designation of ISO-IR-165 (malformed).
        (b"\x1b$)A\x0eVP\x0f\n\x0e\x0eVP\x0f\x1bN!!\x1b$+I\x1bO!!\x1b$)E", "ISO-2022-CN-EXT"),
        (b"\xa2\xe3\xa3\xa0\x81\x30\x81\x30", "GBK"),
        (b"\xff\xfeh\x00\x00\xd8i\x00", "UTF-16LE"),
        (b"\x00h\xd8\x00", "UTF-16BE"),
        (b"\xef\xbb\xbfbom kept", "UTF-8"),
        (b"\x88\x62\x88\x66\xa4\x40", "Big5"),
    ];
    for (bytes, encoding) in cases {
        assert_eq!(escape_round_trip(bytes, encoding), bytes, "{encoding}");
    }
}

#[test]
fn to_a_legacy_encoding_uses_references_or_fails_in_strict_mode() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", "Grüße, 日本".as_bytes());
    charsight()
        .args(["decode", "--to", "windows-1252", &input])
        .assert()
        .success()
        .stdout(predicate::eq(&b"Gr\xFC\xDFe, &#26085;&#26412;"[..]));
    charsight()
        .args(["decode", "--to", "windows-1252", "--errors", "strict", &input])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("U+65E5"));
    charsight()
        .args(["decode", "--to", "UTF-16LE", &input])
        .assert()
        .success()
        .stdout(predicate::function(|out: &[u8]| out.starts_with(b"\xFF\xFEG\x00r\x00")));
    charsight()
        .args(["decode", "--to", "nonsense", &input])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'nonsense'"));
    charsight().args(["decode", "--to", "replacement", &input]).assert().code(2).stderr(
        predicate::str::contains("'--to <LABEL>'").and(predicate::str::contains("no encoder")),
    );
}

#[test]
fn fix_declaration_rewrites_meta_and_xml_declarations() {
    let dir = tempfile::tempdir().unwrap();
    let page = Charset::Windows1251.encode("<meta http-equiv=Content-Type content=\"text/html; charset=windows-1251\"><p>Привет, мир! Как дела? Всё хорошо.</p>").0.into_owned();
    let input = write(dir.path(), "ru.html", &page);
    charsight()
        .args(["decode", "--fix-declaration", &input])
        .assert()
        .success()
        .stdout("<meta http-equiv=Content-Type content=\"text/html; charset=UTF-8\"><p>Привет, мир! Как дела? Всё хорошо.</p>");
    let feed = samples().join("fr-utf16le-bom.xml");
    let output = charsight().args(["decode", "--fix-declaration"]).arg(&feed).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<notes>"), "{text:?}");
}

#[test]
fn keep_encoding_transcodes_into_the_declared_encoding_or_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let fr: String = text_lines("fr", 3)
        .iter()
        .filter(|l| !Charset::Windows1252.encode(l).1)
        .map(|l| format!("<p>{l}</p>"))
        .collect();
    let page = format!("<meta charset=\"iso-8859-1\">{fr}");
    let input = write(dir.path(), "fr.html", page.as_bytes());
    let expected = Charset::Windows1252.encode(&page).0.into_owned();
    charsight()
        .args(["decode", "--keep-encoding", &input])
        .assert()
        .success()
        .stdout(predicate::eq(expected.as_slice()));
    // Greek cannot be written in the declared ISO-8859-1.
    let greek = samples().join("el-utf8-meta-says-latin1.html");
    charsight()
        .args(["decode", "--keep-encoding"])
        .arg(&greek)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("cannot be written in windows-1252"));
    let undeclared = write(dir.path(), "plain.txt", "naïve".as_bytes());
    charsight()
        .args(["decode", "--keep-encoding", &undeclared])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("declares no encoding"));
    charsight().args(["decode", "--keep-encoding", "--to", "UTF-8", &undeclared]).assert().code(2);
}

/// `--keep-encoding` writes in the declaration the engine weighed: for
/// HTML `<meta>` before an XML declaration (it took the first one).
#[test]
fn keep_encoding_takes_the_declaration_that_counts() {
    let dir = tempfile::tempdir().unwrap();
    let page = b"<?xml version=\"1.0\" encoding=\"iso-8859-2\"?><html><head>\
<meta charset=\"koi8-r\"></head><body>\xd0\xd2\xc9\xd7\xc5\xd4 \xcd\xc9\xd2</body></html>";
    let input = write(dir.path(), "page.html", page);
    charsight()
        .args(["decode", "--content-type", "text/html", "--keep-encoding", &input])
        .assert()
        .success()
        .stdout(predicate::eq(&page[..]));
}

#[test]
fn malformed_bytes_past_the_deciding_prefix_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    let mut file = fs::File::create(&path).unwrap();
    for _ in 0..30_000 {
        file.write_all("Ελληνικό κείμενο σε UTF-8, γραμμή.\n".as_bytes()).unwrap();
    }
    file.write_all(b"tail \xFF\n").unwrap();
    drop(file);
    let rep = dir.path().join("r.json");
    let out = dir.path().join("out.txt");
    charsight()
        .args([
            "decode",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--report",
            rep.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("past the first"));
    let r = report(&rep);
    assert_eq!(r["encoding"], "UTF-8");
    assert_eq!(r["after_decision"]["malformed"], 1);
    assert!(
        r["after_decision"]["first_offset"].as_u64().unwrap()
            > r["after_decision"]["decided_on_bytes"].as_u64().unwrap()
    );
}

/// A malformed byte inside the prefix that decided is not reported as met
/// past it, with repairs on (which hold text back until a block ends) as
/// without.
#[test]
fn malformed_bytes_in_the_deciding_prefix_are_not_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "short.txt", b"caf\xC3\xA9, cr\xC3\xA8me \xFF\xFE fin\n");
    for repair in ["none", "ncr"] {
        let rep = dir.path().join("r.json");
        charsight()
            .args(["decode", "--repair", repair, &input, "--report", rep.to_str().unwrap()])
            .assert()
            .success()
            .stderr(predicate::str::contains("past the first").not());
        let r = report(&rep);
        assert_eq!(r["after_decision"]["malformed"], 0, "--repair {repair}");
        assert_eq!(r["after_decision"]["decided_on_bytes"], 21);
    }
}

/// A 256 MB input decodes under a 120 MB address-space limit: memory does
/// not grow with the input.
#[test]
fn memory_stays_bounded_on_a_large_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let mut file = fs::File::create(&path).unwrap();
    let block = "Съешь же ещё этих мягких французских булок, да выпей чаю. ".repeat(1000);
    let block = Charset::Windows1251.encode(&block).0.into_owned();
    let mut written = 0;
    file.write_all(b"<meta charset=windows-1251>").unwrap();
    while written < 256 << 20 {
        file.write_all(&block).unwrap();
        written += block.len();
    }
    drop(file);
    assert!(run_bounded("decode", &path, 20).contains("чаю."));
}

#[test]
fn detect_shows_policy_rule_and_verification() {
    let greek = samples().join("el-utf8-meta-says-latin1.html");
    let output = charsight()
        .args(["detect", "--format", "jsonl", "--policy", "whatwg"])
        .arg(&greek)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (v["encoding"].as_str(), v["rule"]["rule"].as_str()),
        (Some("windows-1252"), Some("declared"))
    );
    assert_eq!(v["policy"], "whatwg");
    let c1 = v["candidates"][0]["verification"]["c1_controls"].as_u64().unwrap();
    assert!(c1 > 0, "UTF-8 Greek read as windows-1252 shows C1 controls");
    charsight()
        .args(["detect", "--policy", "verify"])
        .arg(&greek)
        .assert()
        .success()
        .stdout(predicate::str::contains("declared windows-1252, actual UTF-8: valid_utf8"));
    charsight().args(["detect", "--policy", "nonsense"]).arg(&greek).assert().code(2);
}

/// `-o` onto something that is not a regular file (a FIFO here; a device
/// such as /dev/null in use) writes into it and leaves it in place.
#[test]
fn output_to_a_fifo_or_device_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let input = write(dir.path(), "in.txt", "naïve café".as_bytes());
    charsight().args(["decode", &input, "-o", fifo.to_str().unwrap()]).assert().success();
    assert_eq!(reader.join().unwrap(), "naïve café".as_bytes());
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
}

/// `-o` through a symbolic link replaces the file it points to, not the link.
#[test]
fn output_through_a_symlink_replaces_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let input = write(dir.path(), "in.txt", "naïve café".as_bytes());
    charsight().args(["decode", &input, "-o", link.to_str().unwrap()]).assert().success();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), "naïve café");
}

/// Random bytes decoded to CJK garbage with exit 0.
#[test]
fn refuses_binary_input_unless_the_encoding_is_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "random.bin", &testkit::random_bytes(1, 8000));
    charsight()
        .arg("decode")
        .arg(&path)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("binary data, not text"))
        .stderr(predicate::str::contains("--force-encoding"));
    let out = charsight()
        .args(["decode", "--force-encoding", "windows-1252", &path])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let expected = Charset::Windows1252.decode(&testkit::random_bytes(1, 8000)).0.into_owned();
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn hz_gb_2312_forced_declared_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "hz.txt", b"a~~b ~{VPND~} ok~\nc\n");
    charsight()
        .args(["decode", "--force-encoding", "HZ-GB-2312", &path])
        .assert()
        .success()
        .stdout("a~b 中文 okc\n");
    // Not a fallback: it does not read ASCII as ASCII (`~~`).
    charsight().args(["decode", "--default-encoding", "HZ-GB-2312", &path]).assert().code(2);
    // Declared, it is decoded; as a browser reads it, it is `replacement`.
    let page = write(dir.path(), "hz.html", b"<meta charset=hz-gb-2312><p>~{VPND~}</p>");
    charsight()
        .args(["decode", "--keep-encoding", &page])
        .assert()
        .success()
        .stdout(predicate::eq(&b"<meta charset=hz-gb-2312><p>~{VPND~}</p>"[..]));
    charsight()
        .args(["decode", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("<p>中文</p>"));
    charsight()
        .args(["decode", "--policy", "whatwg", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{FFFD}").and(predicate::str::contains("中文").not()));
    let text = write(dir.path(), "in.txt", "中文 a~b €\n".as_bytes());
    charsight()
        .args(["decode", "--to", "HZ-GB-2312", &text])
        .assert()
        .success()
        .stdout(predicate::eq(&b"~{VPND~} a~~b &#8364;\n"[..]));
}

#[test]
fn utf_7_forced_declared_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "utf7.txt", b"Hi Mom -+Jjo--! +ZeVnLIqe- a+-b\n");
    charsight()
        .args(["decode", "--force-encoding", "UTF-7", &path])
        .assert()
        .success()
        .stdout("Hi Mom -☺-! 日本語 a+b\n");
    // Not a fallback: it does not read ASCII as ASCII (`+`).
    charsight().args(["decode", "--default-encoding", "UTF-7", &path]).assert().code(2);
    // Declared, it is decoded; a browser does not honour the label.
    let page = write(dir.path(), "utf7.html", b"<meta charset=utf-7><p>+ZeVnLIqe-</p>");
    charsight()
        .args(["decode", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("<p>日本語</p>"));
    charsight()
        .args(["decode", "--policy", "whatwg", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("<p>+ZeVnLIqe-</p>"));
    let text = write(dir.path(), "in.txt", "日本語 a+b~\n".as_bytes());
    charsight()
        .args(["decode", "--to", "UTF-7", &text]) // as Python writes it
        .assert()
        .success()
        .stdout(predicate::eq(&b"+ZeVnLIqe a+-b+AH4\n"[..]));
}

#[test]
fn cesu_8_forced_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "cesu.txt", b"caf\xc3\xa9 \xed\xa0\xbd\xed\xb8\x80\n");
    charsight()
        .args(["decode", "--force-encoding", "CESU-8", &path])
        .assert()
        .success()
        .stdout("café 😀\n");
    let text = write(dir.path(), "in.txt", "é😀\n".as_bytes());
    charsight()
        .args(["decode", "--to", "CESU-8", &text])
        .assert()
        .success()
        .stdout(predicate::eq(&b"\xc3\xa9\xed\xa0\xbd\xed\xb8\x80\n"[..]));
}

#[test]
fn jis_x0213_forced_declared_and_written() {
    let dir = tempfile::tempdir().unwrap();
    // か゚, U+20089 (plane 2), 丂 (JIS X 0212 after 8F).
    let path = write(dir.path(), "euc.txt", b"\xa4\xf7 \x8f\xa1\xa1 \x8f\xb0\xa1\n");
    charsight()
        .args(["decode", "--force-encoding", "EUC-JIS-2004", &path])
        .assert()
        .success()
        .stdout("か\u{309A} \u{20089} 丂\n");
    // Declared, it is decoded; under `--policy whatwg` the label names no
    // encoding of the standard and is passed over.
    let page = b"<meta charset=shift_jis-2004><p>\x82\xf5\x5c</p>";
    let page = write(dir.path(), "sjis.html", page);
    charsight()
        .args(["decode", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("<p>か\u{309A}¥</p>"));
    charsight()
        .args(["decode", "--policy", "whatwg", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("か\u{309A}").not());
    let text = write(dir.path(), "in.txt", "か\u{309A}¥\\ €가\n".as_bytes());
    charsight()
        .args(["decode", "--to", "Shift_JIS-2004", &text])
        .assert()
        .success()
        .stdout(predicate::eq(&b"\x82\xf5\x5c\x81\x5f \x85\x40&#44032;\n"[..]));
}

#[test]
fn iso_2022_cn_forced_declared_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "cn.txt", b"a \x1b$)A\x0eVPND\x0f\n\x1b$)G\x0eT/\x0f\n");
    for encoding in ["ISO-2022-CN", "csISO2022CNEXT"] {
        charsight()
            .args(["decode", "--force-encoding", encoding, &path])
            .assert()
            .success()
            .stdout("a 中文\n們\n");
    }
    // Declared, it is decoded; as a browser reads it, it is `replacement`.
    let page = write(dir.path(), "cn.html", b"<meta charset=iso-2022-cn><p>\x1b$)A\x0eVP\x0f</p>");
    charsight()
        .args(["decode", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("<p>中</p>"));
    charsight()
        .args(["decode", "--policy", "whatwg", "--fix-declaration", &page])
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{FFFD}").and(predicate::str::contains("中").not()));
    // Written with a designation on each line; what it lacks as references
    // (`iso-2022-cn` was refused as `replacement`, issue 25).
    let text = write(dir.path(), "in.txt", "中\n𠀀 €\n".as_bytes());
    charsight()
        .args(["decode", "--to", "ISO-2022-CN-EXT", &text])
        .assert()
        .success()
        .stdout(predicate::eq(&b"\x1b$)A\x0eVP\x0f\n\x1b$+K\x1bO!% &#8364;\n"[..]));
    charsight()
        .args(["decode", "--to", "iso-2022-cn", &text])
        .assert()
        .success()
        .stdout(predicate::eq(&b"\x1b$)A\x0eVP\x0f\n&#131072; &#8364;\n"[..]));
}

#[test]
fn decodes_ebcdic_text_in_the_code_page_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "ebcdic.txt", &testkit::ebcdic_sample());
    charsight()
        .arg("decode")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("This is a test of EBCDIC text. The quick"));
    charsight().args(["decode", "--force-encoding", "windows-1252", &path]).assert().success();
    for flag in ["--force-encoding", "--default-encoding"] {
        charsight()
            .args(["decode", flag, "cp037", &path])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("This is a test of EBCDIC text. The quick"));
    }
}

#[test]
fn ebcdic_round_trips_with_references_and_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", "Grüße € ☃".as_bytes());
    // IBM01141 has the euro sign; the snowman becomes a reference written
    // in EBCDIC, which reads as `&#9731;` once decoded.
    let output = charsight().args(["decode", "--to", "IBM01141", &input]).output().unwrap();
    assert!(output.status.success());
    let ebcdic = write(dir.path(), "de.ebcdic", &output.stdout);
    charsight()
        .args(["decode", "--force-encoding", "ebcdic-de-273+euro", &ebcdic])
        .assert()
        .success()
        .stdout("Grüße € &#9731;");
    // IBM424 leaves 0x70 empty: escaped, then written back as the byte.
    let bytes = b"\x41\x70\x71\x25";
    let hebrew = write(dir.path(), "he.ebcdic", bytes);
    charsight()
        .args(["decode", "--force-encoding", "cp424", "--errors", "escape", &hebrew])
        .assert()
        .success()
        .stdout("א\u{10FE70}ת\n");
    charsight()
        .args(["decode", "--force-encoding", "cp424", "--errors", "escape", "--to", "IBM424"])
        .arg(&hebrew)
        .assert()
        .success()
        .stdout(predicate::eq(&bytes[..]));
}

#[test]
fn a_utf8_bom_with_a_stray_byte_decodes_as_utf8_without_the_bom() {
    // The user's report: the stray byte made it windows-1251, and the BOM
    // was written out as `п»ї`.
    charsight()
        .arg("decode")
        .arg("-")
        .write_stdin(&b"\xEF\xBB\xBFhello \xFF world"[..])
        .assert()
        .code(0)
        .stdout("hello \u{FFFD} world");
    // A BOM the bytes after it override (a long windows-1251 text) is not
    // written out either.
    let russian: Vec<String> = text_lines("ru", 400)
        .into_iter()
        .filter(|l| {
            // No valid UTF-8 sequence by chance in its windows-1251 bytes.
            let (bytes, unmappable) = Charset::Windows1251.encode(l);
            let lossy = String::from_utf8_lossy(&bytes);
            !unmappable && lossy.chars().all(|c| c.is_ascii() || c == '\u{FFFD}')
        })
        .take(8)
        .collect();
    let text = russian.join("\n");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(&Charset::Windows1251.encode(&text).0);
    charsight().arg("decode").arg("-").write_stdin(bytes).assert().code(0).stdout(text);
}

/// Strict mode and `--keep-encoding` read their input once: from a FIFO or
/// a process substitution (`<(…)`), which cannot be read twice, they write
/// the whole text (neither hang nor fail with "Illegal seek").
#[test]
fn r25_strict_and_keep_encoding_read_a_pipe_once() {
    let dir = tempfile::tempdir().unwrap();
    let page = "<meta charset=iso-8859-1><p>naïve café</p>";
    let input = write(dir.path(), "in.html", &Charset::Windows1252.encode(page).0);
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let bin = assert_cmd::cargo::cargo_bin("charsight");
    for args in [&["--errors", "strict"][..], &["--keep-encoding"]] {
        let expected: &[u8] = match args[0] {
            "--keep-encoding" => &fs::read(&input).unwrap(),
            _ => page.as_bytes(),
        };
        let writer = {
            let (fifo, input) = (fifo.clone(), input.clone());
            std::thread::spawn(move || fs::write(fifo, fs::read(input).unwrap()).unwrap())
        };
        let output = charsight()
            .arg("decode")
            .args(args)
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        writer.join().unwrap();
        assert_eq!((output.status.code(), &output.stdout[..]), (Some(0), expected), "{args:?}");
        let script = format!("exec '{}' decode {} <(cat '{input}')", bin.display(), args.join(" "));
        let output = std::process::Command::new("bash").arg("-c").arg(script).output().unwrap();
        assert_eq!((output.status.code(), &output.stdout[..]), (Some(0), expected), "{args:?}");
    }
}

/// `-o` over a file with other hard links refuses (the links would keep the
/// old text), keeps an existing file's owner and mode, and never replaces a
/// file the user could not write, even in a directory they can write.
#[test]
fn r25_output_keeps_links_owner_and_permissions() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", "naïve café".as_bytes());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    fs::write(&a, "old").unwrap();
    fs::hard_link(&a, &b).unwrap();
    charsight().args(["decode", &input, "-o", a.to_str().unwrap()]).assert().code(2).stderr(
        predicate::str::contains(format!("{}: not replaced: it has 2 hard links", a.display())),
    );
    assert_eq!(fs::read_to_string(&b).unwrap(), "old");

    let root = fs::metadata(&input).unwrap().uid() == 0;
    if !root {
        return; // Giving files away and running as another user need root.
    }
    let owned = dir.path().join("owned");
    fs::write(&owned, "old").unwrap();
    std::os::unix::fs::chown(&owned, Some(1234), Some(4321)).unwrap();
    fs::set_permissions(&owned, fs::Permissions::from_mode(0o640)).unwrap();
    charsight().args(["decode", &input, "-o", owned.to_str().unwrap()]).assert().success();
    let meta = fs::metadata(&owned).unwrap();
    assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (1234, 4321, 0o640));

    // As nobody, in a world-writable directory, a root-owned read-only file.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
    fs::set_permissions(&input, fs::Permissions::from_mode(0o644)).unwrap();
    let protected = dir.path().join("protected");
    fs::write(&protected, "root's").unwrap();
    fs::set_permissions(&protected, fs::Permissions::from_mode(0o444)).unwrap();
    let output = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(assert_cmd::cargo::cargo_bin("charsight"))
        .args(["decode", &input, "-o", protected.to_str().unwrap()])
        .output();
    let Ok(output) = output else { return }; // no setpriv
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{}: not replaced: cannot write it", protected.display())));
    assert_eq!(fs::read_to_string(&protected).unwrap(), "root's");
}

/// Interrupted while writing `-o OUT`, the command leaves no temporary
/// file behind.
#[test]
fn r25_output_temporary_file_removed_on_sigterm_and_sigint() {
    for signal in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("charsight"))
            .args(["decode", "--force-encoding", "utf-8", "-", "-o", out.to_str().unwrap()])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Some text, then the pipe stays open: the command waits for more.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all("naïve café\n".repeat(1000).as_bytes()).unwrap();
        let temp = || {
            fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .any(|e| e.file_name().to_string_lossy().starts_with(".charsight-"))
        };
        let start = std::time::Instant::now();
        while !temp() && start.elapsed().as_secs() < 20 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(temp(), "the temporary file is being written");
        let kill = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let status = child.wait().unwrap();
        assert!(!status.success(), "{signal}: {status:?}");
        assert!(!temp(), "{signal}: the temporary file is removed");
        assert!(!out.exists());
    }
}

/// A report that cannot be written is an error (exit 2) naming its path,
/// for one input and for several.
#[test]
fn r25_report_write_errors_are_errors() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", "naïve".as_bytes());
    let b = write(dir.path(), "b.txt", "café".as_bytes());
    let (file, out) = (dir.path().join("a.out"), dir.path().join("out"));
    for (inputs, out) in [(vec![a.as_str()], file), (vec![a.as_str(), b.as_str()], out)] {
        charsight()
            .arg("decode")
            .args(&inputs)
            .args(["-o", out.to_str().unwrap(), "--report", "/dev/full"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("charsight: /dev/full: No space left on device"));
    }
}
