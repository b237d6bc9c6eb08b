//! The subcommands agree with each other and with themselves (issue 18).

use predicates::prelude::*;

use crate::util::{charsight, detect_one, samples, write};

/// 70,000 ASCII lines, then one line of Shift_JIS past the first megabyte.
fn ascii_then_shift_jis() -> (Vec<u8>, &'static str) {
    let line = "日本語のテキストです。これはテストです。";
    let mut bytes: Vec<u8> =
        (0..70_000).flat_map(|i| format!("line {i} ascii text here\n").into_bytes()).collect();
    bytes.extend_from_slice(&charsight::Charset::ShiftJis.encode(line).0);
    bytes.push(b'\n');
    (bytes, line)
}

/// Every command reads the same prefix and decides the same, from a file
/// and from standard input.
#[test]
fn r18_commands_decide_alike() {
    let (bytes, line) = ascii_then_shift_jis();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "late.txt", &bytes);
    assert_eq!(detect_one(&bytes, &[])["encoding"], "Shift_JIS");
    for command in ["decode", "repair"] {
        charsight()
            .args([command, &path])
            .assert()
            .success()
            .stdout(predicate::str::ends_with(format!("{line}\n")))
            .stderr("");
        charsight()
            .arg(command)
            .write_stdin(bytes.clone())
            .assert()
            .success()
            .stdout(predicate::str::ends_with(format!("{line}\n")));
    }
    let explained = charsight().args(["explain", &path]).output().unwrap();
    let text = String::from_utf8(explained.stdout).unwrap();
    assert!(text.contains("Decision (verify policy): Shift_JIS"), "{text}");
    assert!(!text.contains("pure ASCII"), "{text}");
    assert!(text.contains("whatwg  Shift_JIS"), "{text}");
}

/// Giving the documented default changes nothing, on ASCII or not.
#[test]
fn r18_the_documented_default_changes_nothing() {
    let detect = |bytes: &[u8], args: &[&str]| {
        let mut line = detect_one(bytes, args);
        line.as_object_mut().unwrap().remove("path");
        line
    };
    for bytes in [&b"hello world\n"[..], b"caf\xe9 cr\xe8me\n", b"\x8e\xa1\x8e\xa2 text\n"] {
        let plain = detect(bytes, &[]);
        for label in ["windows-1252", "latin1", "cp1252"] {
            assert_eq!(detect(bytes, &["--default-encoding", label]), plain, "{label}");
        }
    }
}

/// A default that reads ASCII as other characters is a usage error, not
/// "效汬⁯".
#[test]
fn r18_a_default_that_misreads_ascii_is_refused() {
    for label in ["utf-16le", "UTF-16BE", "utf-32le"] {
        charsight()
            .args(["decode", "--default-encoding", label])
            .write_stdin("hello world\n")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("does not read ASCII text as ASCII"));
    }
    charsight()
        .args(["decode", "--default-encoding", "iso-2022-jp"])
        .write_stdin("hello world\n")
        .assert()
        .success()
        .stdout("hello world\n");
}

/// A gzip header, then bytes spread as compressed data's are.
fn gzip_like() -> Vec<u8> {
    let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
    let mut x = 0x2545_f491_u32;
    gzip.extend((0..8192).map(|_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x.to_le_bytes()[0]
    }));
    gzip
}

/// JSON lines carry the schema's version, and `document` is `text` for
/// plain text and `binary` for compressed data, `html` only for markup.
#[test]
fn r18_json_has_its_version_and_the_kind_of_document() {
    let text = detect_one(b"plain text, caf\xc3\xa9\n", &[]);
    assert_eq!((text["version"].as_u64(), text["document"].as_str()), (Some(2), Some("text")));
    let html = detect_one(b"<p>caf\xc3\xa9</p>\n", &[]);
    assert_eq!(html["document"], "html");
    let utf16 = detect_one(b"\xff\xfe<\0p\0>\0", &[]);
    assert_eq!(utf16["document"], "html");
    let binary = detect_one(&gzip_like(), &[]);
    assert_eq!(
        (binary["binary"].as_bool(), binary["document"].as_str()),
        (Some(true), Some("binary"))
    );
}

/// `-o` gives a new file the mode a plain write gives (the umask applies),
/// keeps an existing file's, and errors name the user's path only.
#[cfg(unix)]
#[test]
fn r18_output_files_get_the_mode_of_a_plain_write() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::Builder::new().prefix("r18-").tempdir().unwrap();
    let input = write(dir.path(), "in.txt", b"caf\xc3\xa9\n");
    let plain = dir.path().join("plain");
    std::fs::write(&plain, b"").unwrap();
    let new = dir.path().join("new.txt");
    charsight().args(["decode", &input, "-o"]).arg(&new).assert().success();
    assert_eq!(mode(&new), mode(&plain));
    let existing = dir.path().join("existing.txt");
    std::fs::write(&existing, b"old").unwrap();
    std::fs::set_permissions(&existing, std::fs::Permissions::from_mode(0o640)).unwrap();
    charsight().args(["decode", &input, "-o"]).arg(&existing).assert().success();
    assert_eq!(mode(&existing), 0o640);
    assert_eq!(std::fs::read(&existing).unwrap(), "café\n".as_bytes());
    let missing = dir.path().join("no-such-dir").join("out.txt");
    let output = charsight().args(["decode", &input, "-o"]).arg(&missing).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains(missing.to_str().unwrap()), "{stderr}");
    assert!(!stderr.contains(".tmp") && !stderr.contains(".charsight"), "{stderr}");
}

/// `--lang` and `--tld` refuse what the detector does not know, listing
/// what it does.
#[test]
fn r18_unknown_hints_are_usage_errors_that_list_the_known_ones() {
    charsight()
        .args(["detect", "--lang", "xx"])
        .arg(samples())
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("'xx'").and(predicate::str::contains(" ja ")));
    charsight()
        .args(["decode", "--tld", "zz"])
        .write_stdin("x")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'zz'").and(predicate::str::contains(" jp ")));
    let known = detect_one(b"caf\xe9", &["--lang", "pt-BR", "--tld", "www.example.jp"]);
    assert_eq!(known["empty"], false);
}

/// An empty input is reported as empty by every command.
#[test]
fn r18_an_empty_file_is_reported_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "empty.txt", b"");
    assert_eq!(detect_one(b"", &[])["empty"], true);
    charsight().args(["detect", &path]).assert().success().stdout(format!("{path}: empty\n"));
    charsight()
        .args(["explain", &path])
        .assert()
        .success()
        .stdout(format!("{path}: empty (0 bytes), nothing to decide\n"));
    charsight().args(["decode", &path]).assert().success().stdout("");
}

/// Plain `decode` of a page whose declaration will not name the output's
/// encoding warns, offering `--keep-encoding` only when it works.
#[test]
fn r18_a_stale_declaration_is_warned_about_with_advice_that_works() {
    let shift_jis = samples().join("ja-shift_jis.html");
    charsight().arg("decode").arg(&shift_jis).assert().success().stderr(predicate::str::contains(
        "the document declares Shift_JIS in itself, but the output is UTF-8: decode with \
         --fix-declaration to rewrite it to name UTF-8, or with --keep-encoding to write the \
         text in Shift_JIS",
    ));
    for quiet in [&["--fix-declaration"][..], &["--keep-encoding"], &["--to", "shift_jis"]] {
        charsight().arg("decode").args(quiet).arg(&shift_jis).assert().success().stderr("");
    }
    // Greek UTF-8 declared ISO-8859-1: windows-1252 cannot hold it.
    let greek = samples().join("el-utf8-meta-says-latin1.html");
    let output = charsight().arg("decode").arg(&greek).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--keep-encoding cannot"), "{stderr}");
    assert!(!stderr.contains("with --keep-encoding"), "{stderr}");
}

/// `explain` offers only advice that works, in its own words (the
/// library's finding names no flag), with plurals right.
#[test]
fn r18_explain_advises_what_works_with_plurals_right() {
    let greek = samples().join("el-utf8-meta-says-latin1.html");
    let output = charsight().arg("explain").arg(&greek).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("but the bytes are UTF-8 (valid_utf8)\n"), "{text}");
    assert!(text.contains("decode with --fix-declaration"), "{text}");
    assert!(!text.contains("with --keep-encoding"), "{text}");
    assert!(text.contains("1 finding (declaration 1); 0 malformed sequences left"), "{text}");
    assert!(text.contains("1 malformed sequence, first at byte"), "{text}");
    assert!(!text.contains("(s)"), "{text}");
}

/// Completion scripts for each shell clap_complete knows.
#[test]
fn r18_completions_for_each_shell() {
    for (shell, mark) in [
        ("bash", "_charsight()"),
        ("zsh", "#compdef charsight"),
        ("fish", "complete -c charsight"),
        ("elvish", "charsight"),
        ("powershell", "charsight"),
    ] {
        charsight().args(["completions", shell]).assert().success().stdout(
            predicate::str::contains(mark).and(predicate::str::contains("fix-declaration")),
        );
    }
    charsight().args(["completions", "tcsh"]).assert().code(2);
}

/// `detect --jobs N` over many files keeps the inputs' order and draws no
/// progress bar when standard error is not a terminal.
#[test]
fn r18_detect_jobs_keep_the_order() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..60 {
        let text =
            if i % 2 == 0 { "caf\u{e9}\n".as_bytes().to_vec() } else { b"caf\xe9\n".to_vec() };
        write(dir.path(), &format!("{i:03}.txt"), &text);
    }
    let run = |jobs: &str| {
        let output = charsight().args(["detect", "--jobs", jobs]).arg(dir.path()).output().unwrap();
        assert!(output.status.success());
        assert_eq!(output.stderr, b"");
        String::from_utf8(output.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 60);
    assert!(one.lines().next().unwrap().contains("000.txt: UTF-8"), "{one}");
    assert_eq!(run("4"), one);
    charsight().args(["detect", "--jobs", "0"]).arg(dir.path()).assert().code(2);
}

/// `decode` and `repair` take several inputs into `-o DIR`, `--jobs` at a
/// time, with one report line per input in order; `explain` explains each.
#[test]
fn r18_several_inputs_into_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(inputs.join("sub")).unwrap();
    write(&inputs, "a.txt", b"caf\xe9 cr\xe8me br\xfbl\xe9e\n");
    write(&inputs.join("sub"), "b.txt", "naïve\n".as_bytes());
    for (command, jobs) in [("decode", "1"), ("repair", "3")] {
        let out = dir.path().join(format!("out-{command}"));
        let rep = dir.path().join(format!("{command}.jsonl"));
        charsight()
            .args([command, "--jobs", jobs, "--report", rep.to_str().unwrap(), "-o"])
            .arg(&out)
            .arg(&inputs)
            .assert()
            .success();
        assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "café crème brûlée\n");
        assert_eq!(std::fs::read_to_string(out.join("sub/b.txt")).unwrap(), "naïve\n");
        let reports = std::fs::read_to_string(&rep).unwrap();
        let paths: Vec<String> = reports
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["path"].to_string())
            .collect();
        assert!(paths[0].ends_with("a.txt\"") && paths[1].ends_with("b.txt\""), "{paths:?}");
    }
    // Several inputs need a directory to write into.
    charsight()
        .arg("decode")
        .arg(inputs.join("a.txt"))
        .arg(inputs.join("sub/b.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("give -o DIR"));
    // Two inputs of one name: the second is not written over the first.
    let other = write(dir.path(), "a.txt", b"other\n");
    let out = dir.path().join("clash");
    charsight()
        .arg("decode")
        .arg(inputs.join("a.txt"))
        .arg(&other)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not written"));
    assert_eq!(std::fs::read_to_string(out.join("a.txt")).unwrap(), "café crème brûlée\n");
    let explained = charsight().arg("explain").arg(&inputs).output().unwrap();
    let text = String::from_utf8(explained.stdout).unwrap();
    let a = text.find("a.txt: 18 bytes").expect(&text);
    let b = text.find("b.txt: 7 bytes").expect(&text);
    assert!(a < b, "{text}");
}

/// `explain` does not contradict itself: no decision, problems or repairs
/// for data that `decode` refuses, and no advice to rewrite a declaration
/// that the output already matches.
#[test]
fn r18_explain_has_no_contradictory_lines() {
    let dir = tempfile::tempdir().unwrap();
    let gzip = write(dir.path(), "data.gz", &gzip_like());
    let output = charsight().args(["explain", &gzip]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("Decision: binary data, not text, not decoded"), "{text}");
    assert!(!text.contains("Problems") && !text.contains("Repairs"), "{text}");
    charsight().args(["decode", &gzip]).assert().code(1).stdout("");
    let lie = write(
        dir.path(),
        "lie.html",
        b"<meta charset=utf-8><p>caf\xe9 cr\xe8me br\xfbl\xe9e d\xe9j\xe0 vu</p>\n",
    );
    let output = charsight().args(["explain", &lie]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("the output, in UTF-8, matches the declaration"), "{text}");
    assert!(!text.contains("--fix-declaration"), "{text}");
}
