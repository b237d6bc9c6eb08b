//! `charsight warc`: a WARC built here from `../shared/corpus` files with
//! HTTP headers (true, absent and wrong charsets; gzip and chunked bodies),
//! a non-text record, `request` and `warcinfo` records and a truncated
//! record; its report, its conversion records, and corrupt input.

use std::io::Write;

use charsight::Charset;
use charsight_warc::reader::Records;
use flate2::write::GzEncoder;
use predicates::prelude::*;
use serde_json::Value;

use crate::util::{charsight, write};

/// A document served over HTTP.
struct Doc {
    /// A corpus file and its true encoding's label.
    name: &'static str,
    label: &'static str,
    /// The Content-Type sent.
    content_type: Option<&'static str>,
    gzip: bool,
    chunked: bool,
}

const DOCS: [Doc; 4] = [
    Doc {
        name: "KOI8-R/aug32.hole.ru.xml",
        label: "KOI8-R",
        content_type: Some("text/xml; charset=koi8-r"),
        gzip: false,
        chunked: false,
    },
    Doc {
        name: "EUC-KR/_ude_euc1.txt",
        label: "EUC-KR",
        content_type: Some("text/plain"),
        gzip: false,
        chunked: true,
    },
    Doc {
        name: "SHIFT_JIS/_ude_4.txt",
        label: "Shift_JIS",
        content_type: Some("text/plain; charset=iso-8859-1"),
        gzip: true,
        chunked: false,
    },
    Doc {
        name: "windows-1251-russian/_chromium_windows-1251_with_no_encoding_specified.html",
        label: "windows-1251",
        content_type: None,
        gzip: true,
        chunked: true,
    },
];

fn corpus_file(name: &str) -> Vec<u8> {
    let path = testkit::shared_dir().join("corpus").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn record(warc_type: &str, id: usize, uri: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{id:012}>\r\n\
         WARC-Date: 2026-01-0{}T00:00:00Z\r\nWARC-Target-URI: {uri}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n\r\n",
        id % 9 + 1,
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(id: usize, doc: &Doc) -> Vec<u8> {
    let mut body = corpus_file(doc.name);
    let mut head = String::from("HTTP/1.1 200 OK\r\n");
    if let Some(ct) = doc.content_type {
        head += &format!("Content-Type: {ct}\r\n");
    }
    if doc.gzip {
        body = gzip(&body);
        head += "Content-Encoding: gzip\r\n";
    }
    if doc.chunked {
        let mut chunked = Vec::new();
        for chunk in body.chunks(1000) {
            chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            chunked.extend_from_slice(chunk);
            chunked.extend_from_slice(b"\r\n");
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        body = chunked;
        head += "Transfer-Encoding: chunked\r\n";
    }
    let mut block = (head + "\r\n").into_bytes();
    block.extend_from_slice(&body);
    record(
        "response",
        id,
        &format!("http://example.com/{id}"),
        "application/http; msgtype=response",
        &block,
    )
}

/// The test WARC's records, each a gzip member: warcinfo, then a request
/// and a response for each document, a PNG, and a response cut short.
fn members() -> Vec<Vec<u8>> {
    let mut members =
        vec![gzip(&record("warcinfo", 0, "", "application/warc-fields", b"software: test\r\n"))];
    for (i, doc) in DOCS.iter().enumerate() {
        let uri = format!("http://example.com/{}", i + 1);
        let request = format!("GET /{} HTTP/1.1\r\nHost: example.com\r\n\r\n", i + 1);
        members.push(gzip(&record(
            "request",
            100 + i,
            &uri,
            "application/http; msgtype=request",
            request.as_bytes(),
        )));
        members.push(gzip(&response(i + 1, doc)));
    }
    let png = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    members.push(gzip(&record(
        "response",
        9,
        "http://example.com/logo.png",
        "application/http",
        png,
    )));
    let cut = gzip(&response(10, &DOCS[0]));
    members.push(cut[..cut.len() / 2].to_vec());
    members
}

fn run_jsonl(args: &[&str]) -> (Vec<Value>, String, i32) {
    let output = charsight().arg("warc").args(args).output().unwrap();
    let lines = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    (lines, String::from_utf8(output.stderr).unwrap(), output.status.code().unwrap())
}

#[test]
fn jsonl_reports_each_response_and_skips_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let members = members();
    let file = write(dir.path(), "test.warc.gz", &members.concat());
    let (lines, stderr, code) = run_jsonl(&[&file]);
    assert_eq!(code, 1, "a corrupt record gives exit code 1: {stderr}");
    assert_eq!(lines.len(), DOCS.len() + 1);
    for (line, (i, doc)) in lines.iter().zip(DOCS.iter().enumerate()) {
        assert_eq!(line["uri"], format!("http://example.com/{}", i + 1));
        assert_eq!(line["record_id"], format!("<urn:uuid:00000000-0000-0000-0000-{:012}>", i + 1));
        assert_eq!(line["path"], file.as_str());
        assert_eq!(line["encoding"], doc.label, "{}: {line}", doc.name);
        assert_eq!(line["content_type"].as_str(), doc.content_type);
        for field in
            ["date", "http_charset", "confidence", "source", "declared", "language", "rule"]
        {
            assert!(line.get(field).is_some(), "{field} missing in {line}");
        }
    }
    assert_eq!(lines[0]["http_charset"], "koi8-r");
    assert_eq!(lines[0]["source"], "http");
    assert_eq!(lines[1]["http_charset"], Value::Null);
    assert_eq!(lines[2]["rule"]["rule"], "overridden", "the wrong charset is overridden");
    assert_eq!(lines[2]["declared"][0]["label"], "iso-8859-1");
    let png = &lines[4];
    assert_eq!((png["binary"].as_bool(), png.get("encoding")), (Some(true), None));
    // The offsets are the gzip members'.
    let offset: usize = members[..4].iter().map(Vec::len).sum();
    assert_eq!(lines[1]["offset"], offset);
    let cut_at: usize = members[..members.len() - 1].iter().map(Vec::len).sum();
    assert!(stderr.contains(&format!("corrupt record at offset {cut_at}")), "{stderr}");
    assert!(
        stderr.contains("10 records: 4 analysed, 1 binary, 0 failed, 5 skipped (request 4, warcinfo 1); 1 corrupt"),
        "{stderr}"
    );
}

#[test]
fn the_same_detection_as_detect_on_the_payload() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "one.warc", &response(1, &DOCS[0]));
    let (lines, _, code) = run_jsonl(&[&file]);
    assert_eq!(code, 0);
    let payload = write(dir.path(), "payload", &corpus_file(DOCS[0].name));
    let output = charsight()
        .args([
            "detect",
            "--format",
            "jsonl",
            "--content-type",
            DOCS[0].content_type.unwrap(),
            &payload,
        ])
        .output()
        .unwrap();
    let mut detect: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut line = lines[0].clone();
    // A record's payload is read whole (`truncated` says when its block was
    // cut), so its line has no `prefix`: detect's says the file was read whole.
    assert_eq!(detect["prefix"], Value::Null);
    for field in [
        "path",
        "offset",
        "record_id",
        "uri",
        "date",
        "content_type",
        "http_charset",
        "truncated",
        "prefix",
    ] {
        line.as_object_mut().unwrap().remove(field);
        detect.as_object_mut().unwrap().remove(field);
    }
    assert_eq!(line, detect);
}

#[test]
fn jobs_keep_the_record_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "test.warc.gz", &members().concat());
    let (one, _, _) = run_jsonl(&[&file]);
    let (three, _, _) = run_jsonl(&["--jobs", "3", &file]);
    assert_eq!(one, three);
}

#[test]
fn text_format_and_standard_input() {
    let plain: Vec<u8> = DOCS.iter().enumerate().flat_map(|(i, d)| response(i + 1, d)).collect();
    charsight()
        .args(["warc", "--format", "text", "-"])
        .write_stdin(plain)
        .assert()
        .success()
        .stdout(predicate::str::contains("http://example.com/1 [-@0]: KOI8-R (http, confidence"))
        .stdout(
            predicate::str::contains("http://example.com/3 [-@")
                .and(predicate::str::contains("declared windows-1252, actual Shift_JIS")),
        )
        .stderr(predicate::str::contains("4 records: 4 analysed"));
}

#[test]
fn emit_writes_conversion_records_of_utf8_text() {
    let dir = tempfile::tempdir().unwrap();
    let members = members();
    let file = write(dir.path(), "crawl.warc.gz", &members.concat());
    let out = dir.path().join("out");
    charsight().args(["warc", "--emit"]).arg(&out).arg(&file).assert().code(1);
    let emitted = std::fs::read(out.join("crawl.charsight.warc.gz")).unwrap();
    let records: Vec<_> = Records::new(&emitted[..]).map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), DOCS.len());
    for (record, (i, doc)) in records.iter().zip(DOCS.iter().enumerate()) {
        assert_eq!(record.warc_type(), "conversion");
        let refers = format!("<urn:uuid:00000000-0000-0000-0000-{:012}>", i + 1);
        assert_eq!(record.header("WARC-Refers-To"), Some(refers.as_str()));
        let charset = charsight::label::resolve(doc.label.as_bytes()).unwrap();
        assert_ne!(charset, Charset::Utf8);
        let bytes = corpus_file(doc.name);
        let (expected, _) = charset.decode(&bytes);
        // The XML declaration now names UTF-8.
        let expected = expected.replace("encoding=\"KOI8-R\"", "encoding=\"UTF-8\"");
        assert_eq!(std::str::from_utf8(&record.block).unwrap(), expected, "{}", doc.name);
        let media = doc.content_type.map_or("text/plain", |t| t.split(';').next().unwrap());
        assert_eq!(record.header("Content-Type"), Some(format!("{media}; charset=utf-8").as_str()));
    }
}

#[test]
fn emit_to_standard_output_fixes_the_declaration() {
    let html = b"<html><head><meta charset=\"windows-1251\"></head><body>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!</body></html>";
    let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
    block.extend_from_slice(html);
    let warc =
        record("response", 1, "http://example.ru/", "application/http; msgtype=response", &block);
    let output = charsight().args(["warc", "--emit", "-", "-"]).write_stdin(warc).output().unwrap();
    assert!(output.status.success());
    let records: Vec<_> = Records::new(&output.stdout[..]).map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), 1);
    let text = std::str::from_utf8(&records[0].block).unwrap();
    assert!(text.contains("<meta charset=\"UTF-8\">") && text.contains("Привет, мир!"), "{text}");
    assert_eq!(records[0].header("Content-Type"), Some("text/html; charset=utf-8"));
}

#[test]
fn corrupt_and_missing_input() {
    let dir = tempfile::tempdir().unwrap();
    let good = response(1, &DOCS[0]);
    let garbage =
        [b"not a WARC file\n".to_vec(), good.clone(), b"WARC/1.1\r\nbroken".to_vec()].concat();
    let file = write(dir.path(), "bad.warc", &garbage);
    let (lines, stderr, code) = run_jsonl(&[&file]);
    assert_eq!((lines.len(), code), (1, 1), "{stderr}");
    assert!(
        stderr.contains("bad.warc: corrupt record at offset 0: no WARC version line"),
        "{stderr}"
    );
    let at = 16 + good.len();
    assert!(
        stderr.contains(&format!("corrupt record at offset {at}: truncated in the header")),
        "{stderr}"
    );
    let missing = dir.path().join("missing.warc");
    let (lines, stderr, code) = run_jsonl(&[missing.to_str().unwrap(), &file]);
    assert_eq!((lines.len(), code), (1, 2));
    assert!(stderr.contains("missing.warc: No such file"), "{stderr}");
    // Random bytes neither panic nor stop the run.
    let noise = write(dir.path(), "noise.warc", &testkit::random_bytes(7, 100_000));
    let (lines, _, code) = run_jsonl(&[&noise]);
    assert_eq!((lines.len(), code), (0, 1));
}
