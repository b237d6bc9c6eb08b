//! `charsight url`: every option, and the pass-through guarantees (one output
//! line per input line, in order; lines without a URL unchanged).

use proptest::prelude::*;
use serde_json::Value;

use crate::util::charsight;

fn url(args: &[&str], stdin: &[u8]) -> (Vec<u8>, i32) {
    let output = charsight().arg("url").args(args).write_stdin(stdin).output().unwrap();
    (output.stdout, output.status.code().unwrap())
}

fn url_text(args: &[&str], stdin: &[u8]) -> String {
    let (out, code) = url(args, stdin);
    assert_eq!(code, 0);
    String::from_utf8(out).unwrap()
}

const LOG: &[u8] =
    b"1.2.3.4 - - \"GET /s?wd=%B1%B1%BE%A9%CC%EC%C6%F8 HTTP/1.1\" 200 http://example.jp/%93%FA%96%7B\n\
not a url at all\n\
\n\
/wiki/%E6%97%A5%E6%9C%AC\n";

#[test]
fn default_rewrites_every_url_token_as_utf8_escapes() {
    assert_eq!(
        url_text(&[], LOG),
        "1.2.3.4 - - \"GET /s?wd=%E5%8C%97%E4%BA%AC%E5%A4%A9%E6%B0%94 HTTP/1.1\" 200 http://example.jp/%E6%97%A5%E6%9C%AC\n\
         not a url at all\n\
         \n\
         /wiki/%E6%97%A5%E6%9C%AC\n"
    );
}

#[test]
fn iri_prints_readable_urls() {
    assert_eq!(
        url_text(&["--iri"], LOG),
        "1.2.3.4 - - \"GET /s?wd=北京天气 HTTP/1.1\" 200 http://example.jp/日本\n\
         not a url at all\n\
         \n\
         /wiki/日本\n"
    );
}

#[test]
fn jsonl_has_exactly_the_contract_fields() {
    let out = url_text(&["--format", "jsonl"], LOG);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    for line in &lines {
        let mut keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["changed", "components", "input", "iri", "line", "url", "version"]);
        assert_eq!(line["version"], 2);
    }
    let first = &lines[0];
    assert_eq!(first["changed"], true);
    // `url` and `iri` are the (first) URL, `line` the whole line (issue 18).
    assert_eq!(first["url"], "/s?wd=%E5%8C%97%E4%BA%AC%E5%A4%A9%E6%B0%94");
    assert_eq!(first["iri"], "/s?wd=北京天气");
    assert_eq!(
        first["line"],
        "1.2.3.4 - - \"GET /s?wd=%E5%8C%97%E4%BA%AC%E5%A4%A9%E6%B0%94 HTTP/1.1\" 200 http://example.jp/%E6%97%A5%E6%9C%AC"
    );
    let parts: Vec<(&str, &str)> = first["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["part"].as_str().unwrap(), c["encoding"].as_str().unwrap()))
        .collect();
    assert_eq!(parts, [("query[1].value", "GBK"), ("path[1]", "Shift_JIS")]);
    let confidence = first["components"][0]["confidence"].as_f64().unwrap();
    assert!((0.5..=1.0).contains(&confidence));
    assert_eq!(lines[1]["changed"], false);
    assert_eq!(lines[1]["line"], "not a url at all");
    assert_eq!(lines[1]["url"], Value::Null);
    assert_eq!(lines[1]["components"], Value::Array(vec![]));
    // Already UTF-8 escapes: nothing changes.
    assert_eq!(lines[3]["changed"], false);
    assert_eq!(lines[3]["iri"], "/wiki/日本");
}

#[test]
fn jsonl_gives_raw_lines_in_base64_too() {
    let out = url_text(&["--format", "jsonl"], b"x \xFF /a?q=\xD6\xD0\xCE\xC4\n");
    let line: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(line["input_base64"], "eCD/IC9hP3E91tDOxA==");
    assert_eq!(line["iri"], "/a?q=中文");
    assert_eq!(line["line"], "x \u{FFFD} /a?q=%E4%B8%AD%E6%96%87");
}

#[test]
fn field_picks_the_url_and_leaves_the_rest() {
    let log = b"GET /s?q=%C4%E3%BA%C3 /t?q=%C4%E3%BA%C3\nshort\n";
    assert_eq!(
        url_text(&["--field", "3", "--iri"], log),
        "GET /s?q=%C4%E3%BA%C3 /t?q=你好\nshort\n"
    );
    // A field that is not a path or scheme URL is still taken as one.
    assert_eq!(url_text(&["--field", "1", "--iri"], b"q=%C4%E3%BA%C3 x\n"), "q=你好 x\n");
}

#[test]
fn regex_picks_the_first_capture_group() {
    let log = b"ts=1 url=\"/s?q=%C4%E3%BA%C3\" ref=\"/r?q=%C4%E3%BA%C3\"\nno match here\n";
    assert_eq!(
        url_text(&["--regex", r#"url="([^"]*)""#, "--iri"], log),
        "ts=1 url=\"/s?q=你好\" ref=\"/r?q=%C4%E3%BA%C3\"\nno match here\n"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for args in
        [&["--regex", "no group"][..], &["--regex", "("], &["--field", "0"], &["--jobs", "0"]]
    {
        let (out, code) = url(args, b"/a\n");
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
    }
    let (_, code) = url(&["/no/such/file"], b"");
    assert_eq!(code, 2);
}

#[test]
fn tld_shifts_the_prior_of_single_characters() {
    let line = b"/s?q=%B0%A1\n";
    let floor = ["--iri", "--min-confidence", "0.9", "--tld"];
    assert_eq!(url_text(&[&floor[..], &["kr"]].concat(), line), "/s?q=가\n");
    assert_eq!(url_text(&[&floor[..], &["cn"]].concat(), line), "/s?q=啊\n");
}

#[test]
fn a_path_and_dash_read_the_same_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log");
    std::fs::write(&path, LOG).unwrap();
    let from_file = url_text(&[path.to_str().unwrap()], b"");
    assert_eq!(from_file, url_text(&["-"], LOG));
}

#[test]
fn jobs_keep_the_order_across_many_blocks() {
    let mut log = Vec::new();
    for i in 0..40_000 {
        match i % 4 {
            0 => log.extend_from_slice(format!("{i} GET /s?wd=%B1%B1%BE%A9&n={i}\n").as_bytes()),
            1 => log.extend_from_slice(format!("{i} GET /plain/ascii/{i}\n").as_bytes()),
            2 => log.extend_from_slice(format!("{i} /w/%E6%97%A5?x={i}\n").as_bytes()),
            _ => log.extend_from_slice(&[b"\xFF raw ", format!("{i}\n").as_bytes()].concat()),
        }
    }
    let one = url(&["--jobs", "1"], &log);
    let three = url(&["--jobs", "3"], &log);
    assert_eq!(one.1, 0);
    assert_eq!(one, three);
    assert_eq!(one.0.iter().filter(|&&b| b == b'\n').count(), 40_000);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// One output line per input line; lines that are pure ASCII with no
    /// escape of a non-ASCII byte come out unchanged.
    #[test]
    fn line_count_is_kept_and_ascii_lines_are_unchanged(
        lines in prop::collection::vec(
            prop_oneof![
                "[ -~]{0,40}",
                "/[a-z%0-9A-F]{0,12}\\?q=[%0-9A-F+]{0,24}",
                prop::collection::vec(any::<u8>(), 0..30)
                    .prop_map(|b| String::from_utf8_lossy(&b).replace(['\n', '\r'], "")),
            ],
            0..40,
        ),
        jobs in 1u8..3,
    ) {
        let input = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let (out, code) = url(&["--jobs", &jobs.to_string()], input.as_bytes());
        prop_assert_eq!(code, 0);
        let out_lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
        prop_assert_eq!(out_lines.len(), lines.len() + 1);
        for (line, got) in lines.iter().zip(&out_lines) {
            let escaped_high = line.as_bytes().windows(2).any(|w| w[0] == b'%' && w[1] >= b'8' && w[1].is_ascii_hexdigit());
            if line.is_ascii() && !escaped_high {
                prop_assert_eq!(line.as_bytes(), *got);
            }
        }
    }
}

/// Issue 21: European and Cyrillic escapes, read in their language.
#[test]
fn r21_single_byte_escapes_are_read() {
    let log = b"http://example.de/stra%DFe?q=M%FCnchen\n/wiki/d%E9j%E0-vu\n\
/wiki/Caf%E9_au_lait\n/wiki/%CC%EE%F1%EA%E2%E0\n";
    assert_eq!(
        url_text(&["--iri"], log),
        "http://example.de/straße?q=München\n/wiki/déjà-vu\n/wiki/Café_au_lait\n/wiki/Москва\n"
    );
}

fn first_component(args: &[&str], line: &[u8]) -> Value {
    let out = url_text(&[&["--format", "jsonl"], args].concat(), line);
    let record: Value = serde_json::from_str(out.trim_end()).unwrap();
    record["components"][0].clone()
}

#[test]
fn r21_broken_escapes_are_kept_byte_for_byte() {
    let log = b"/s?y=%E4%B8\n/s?y=%E4%B8%AD%E4\n/s?y=%E4%B8%AD%AD&q=%D6%D0%CE%C4\n";
    assert_eq!(
        url_text(&[], log),
        "/s?y=%E4%B8\n/s?y=%E4%B8%AD%E4\n/s?y=%E4%B8%AD%AD&q=%E4%B8%AD%E6%96%87\n"
    );
    assert_eq!(first_component(&[], b"/s?y=%E4%B8\n")["kept"], "broken escapes");
}

#[test]
fn r21_min_confidence_keeps_what_is_below_it() {
    let line = b"/s?q=%B0%A1\n";
    assert_eq!(url_text(&["--min-confidence", "1"], line), "/s?q=%B0%A1\n");
    let component = first_component(&["--min-confidence", "1"], line);
    assert_eq!(component["kept"], "low confidence");
    assert!(first_component(&["--min-confidence", "0"], line).get("kept").is_none());
    for bad in ["2", "-0.1", "x"] {
        let (out, code) = url(&["--min-confidence", bad], line);
        assert_eq!((out.len(), code), (0, 2), "{bad}");
    }
}

#[test]
fn r21_host_hints_add_sites_and_bad_lines_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let hints = dir.path().join("hints.tsv");
    std::fs::write(&hints, "# mine\nexample.com\tEUC-KR\n").unwrap();
    let line = b"http://www.example.com/s?q=%B0%A1 http://www.baidu.com/s?wd=%B0%A1\n";
    let args = ["--iri", "--min-confidence", "0.9", "--host-hints", hints.to_str().unwrap()];
    assert_eq!(
        url_text(&args, line),
        "http://www.example.com/s?q=가 http://www.baidu.com/s?wd=啊\n"
    );
    std::fs::write(&hints, "example.com\tEUC-KR\nexample.org EUC-KR\n").unwrap();
    let output = charsight().arg("url").args(args).write_stdin(&line[..]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains(hints.to_str().unwrap()) && message.contains("line 2"), "{message}");
    std::fs::write(&hints, "example.com\tklingon\n").unwrap();
    let output = charsight().arg("url").args(args).write_stdin(&line[..]).output().unwrap();
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains("line 1") && message.contains("klingon"), "{message}");
}

#[test]
fn r21_idna_hosts_read_in_the_iri() {
    assert_eq!(url_text(&["--iri"], b"http://xn--fsq.com/a\n"), "http://例.com/a\n");
    assert_eq!(url_text(&[], b"http://xn--fsq.com/a\n"), "http://xn--fsq.com/a\n");
    assert_eq!(url_text(&[], "http://例.com/a\n".as_bytes()), "http://xn--fsq.com/a\n");
}

/// Issue 25: characters beyond U+FFFF show in the IRI.
#[test]
fn r25_iri_shows_emoji_and_extension_b() {
    assert_eq!(url_text(&["--iri"], b"/%F0%9F%98%80/%F0%A0%80%80\n"), "/😀/𠀀\n");
}

/// Issue 25: any number of jobs, at most the cores are used.
#[test]
fn r25_huge_jobs_do_not_abort() {
    let log = b"/s?wd=%B1%B1%BE%A9\n/a\n";
    for jobs in ["65535", "30000"] {
        assert_eq!(url_text(&["--jobs", jobs], log), url_text(&[], log));
    }
}

/// Issue 25: a directory is an error that names it.
#[test]
fn r25_a_directory_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = charsight().arg("url").arg(dir.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.contains(dir.path().to_str().unwrap()), "{message}");
}

/// Issue 25: a long non-ASCII component is read in linear time.
#[test]
fn r25_a_megabyte_component_is_rewritten() {
    let mut line = b"/s?q=".to_vec();
    line.extend_from_slice(&b"\xB1\xBE".repeat(524_000));
    line.push(b'\n');
    let started = std::time::Instant::now();
    let (out, code) = url(&[], &line);
    assert_eq!(code, 0);
    assert!(out.is_ascii() && out.ends_with(b"\n"));
    // Linear: seconds even unoptimised; it was minutes.
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}
