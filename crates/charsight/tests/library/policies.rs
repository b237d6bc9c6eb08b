//! Declarations that lie, declarations that must be kept, and the four
//! policies on each (issue 4). Documents are built from the natural text in
//! `../shared/text`.

use crate::common;

use charsight::{Charset, Doubt, Engine, Note, Policy, Rule, Source};
use serde::Deserialize;

/// The first `n` lines of `../shared/text/<lang>.txt` of 40–200 characters
/// that `charset` can encode.
fn lines(lang: &str, n: usize, charset: Charset) -> Vec<String> {
    let path = testkit::shared_dir().join("text").join(format!("{lang}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| (40..200).contains(&l.chars().count()) && !charset.encode(l).1)
        .take(n)
        .map(str::to_owned)
        .collect()
}

fn html(head: &str, lines: &[String]) -> String {
    let body: String = lines.iter().map(|l| format!("<p>{l}</p>\n")).collect();
    format!("<!DOCTYPE html>\n<html><head>{head}<title>t</title></head>\n<body>\n{body}</body></html>\n")
}

/// What each policy decides for `bytes` in `context`.
struct Case<'a> {
    bytes: Vec<u8>,
    content_type: Option<&'a str>,
}

impl Case<'_> {
    fn run(&self, policy: Policy) -> charsight::Detection {
        let mut engine = Engine::new().policy(policy);
        if let Some(ct) = self.content_type {
            engine = engine.content_type(ct);
        }
        engine.detect(&self.bytes)
    }

    /// Checks whatwg, verify and detect, and that forcing wins over all
    /// while the evidence is still reported.
    fn check(&self, whatwg: Charset, verify: (Charset, Rule), detect: Charset) {
        let found = self.run(Policy::Whatwg);
        assert_eq!(found.charset, whatwg, "whatwg: {:?}", found.rule);
        assert!(
            matches!(found.rule, Rule::Declared | Rule::Bom | Rule::Detected),
            "{:?}",
            found.rule
        );
        let found = self.run(Policy::Verify);
        assert_eq!(
            (found.charset, found.rule),
            verify,
            "verify; candidates: {:#?}",
            found.candidates
        );
        let found = self.run(Policy::Detect);
        assert_eq!(found.charset, detect, "detect: {:?}", found.rule);
        let mut engine = Engine::new().force_encoding("windows-1250");
        if let Some(ct) = self.content_type {
            engine = engine.content_type(ct);
        }
        let forced = engine.detect(&self.bytes);
        assert_eq!(
            (forced.charset, forced.rule, forced.source),
            (Charset::Windows1250, Rule::Forced, Source::Forced)
        );
        let declared = forced.evidence.iter().filter(|e| e.source != Source::Forced).count();
        assert!(declared >= 1, "the evidence is still reported when forcing");
    }
}

/// A page of `data/policies.toml` (its header describes the fields).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Page {
    language: String,
    lines: usize,
    written: String,
    by: String,
    label: String,
    whatwg: String,
    verify: String,
    rule: String,
    doubt: Option<String>,
    detect: String,
    #[serde(default)]
    declared_malformed: bool,
}

#[derive(Deserialize)]
struct Pages {
    page: Vec<Page>,
}

fn charset(name: &str) -> Charset {
    charsight::label::resolve(name.as_bytes()).unwrap_or_else(|_| panic!("{name}: no charset"))
}

#[test]
fn declared_pages() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/library/data/policies.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let pages: Pages = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for page in &pages.page {
        let what =
            format!("{} in {} declared {} by {}", page.language, page.written, page.label, page.by);
        let written = charset(&page.written);
        let (head, content_type) = match page.by.as_str() {
            "meta" => (format!("<meta charset=\"{}\">", page.label), None),
            "http" => (String::new(), Some(format!("text/html; charset={}", page.label))),
            other => panic!("{what}: `by` is meta or http, not {other}"),
        };
        let html = html(&head, &lines(&page.language, page.lines, written));
        let case = Case {
            bytes: written.encode(&html).0.into_owned(),
            content_type: content_type.as_deref(),
        };
        let whatwg = charset(&page.whatwg);
        let rule = match (page.rule.as_str(), page.doubt.as_deref()) {
            ("verified", None) => Rule::Verified,
            ("overridden", Some(doubt)) => {
                let reason = match doubt {
                    "valid_utf8" => Doubt::ValidUtf8,
                    "malformed" => Doubt::Malformed,
                    "implausible" => Doubt::Implausible,
                    other => panic!("{what}: unknown doubt {other}"),
                };
                Rule::Overridden { declared: whatwg, reason }
            }
            (rule, doubt) => panic!("{what}: rule {rule} with doubt {doubt:?}"),
        };
        if page.declared_malformed {
            let found = case.run(Policy::Verify);
            let declared = found.candidates.iter().find(|c| c.charset == whatwg);
            let malformed = declared.map_or(0, |c| c.verification.malformed);
            assert!(malformed > 0, "{what}: the declared reading has malformed sequences");
        }
        case.check(whatwg, (charset(&page.verify), rule), charset(&page.detect));
    }
}

#[test]
fn feed_declared_utf8_whose_bytes_are_windows_1252() {
    let items: String = lines("fr", 5, Charset::Windows1252)
        .iter()
        .map(|l| {
            format!(
                "<item><title>“{}”</title><description>{l}</description></item>\n",
                &l[..l.char_indices().nth(20).unwrap().0]
            )
        })
        .collect();
    let feed = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>\n{items}</channel></rss>\n");
    let case =
        Case { bytes: Charset::Windows1252.encode(&feed).0.into_owned(), content_type: None };
    let overridden = Rule::Overridden { declared: Charset::Utf8, reason: Doubt::Malformed };
    case.check(Charset::Utf8, (Charset::Windows1252, overridden), Charset::Windows1252);
}

#[test]
fn utf8_page_with_a_few_stray_windows_1252_bytes_stays_utf8() {
    let mut page = html("<meta charset=\"utf-8\">", &lines("de", 8, Charset::Utf8)).into_bytes();
    // A pasted quote with windows-1252 curly quotes and an e-acute.
    let at = page.len() - 20;
    page.splice(at..at, b"<p>\x93Caf\xE9 au lait\x94, she said.</p>".iter().copied());
    let case = Case { bytes: page.clone(), content_type: None };
    case.check(Charset::Utf8, (Charset::Utf8, Rule::Verified), Charset::Utf8);
    // Undeclared, it is still UTF-8, never wholesale windows-1252.
    let undeclared = String::from_utf8_lossy(&page).replace("<meta charset=\"utf-8\">", "");
    let undeclared = undeclared.replace('\u{FFFD}', "");
    let mut bytes = undeclared.into_bytes();
    bytes.splice(40..40, b"\x93quoted\x94 ".iter().copied());
    for policy in [Policy::Whatwg, Policy::Verify, Policy::Detect] {
        let found = Engine::new().policy(policy).detect(&bytes);
        assert_eq!(found.charset, Charset::Utf8, "{policy:?}");
        // Said so, and sure of it, though the detector ruled UTF-8 out.
        assert_eq!(found.rule, Rule::MostlyUtf8, "{policy:?}");
        assert!(found.confidence >= 0.9, "{policy:?}: {}", found.confidence);
    }
}

#[test]
fn undeclared_short_utf8_line_with_one_stray_byte_is_utf8() {
    // One accented letter in UTF-8, one in windows-1252: GBK reads both
    // (the stray byte with the `r` after it) as Chinese characters.
    let bytes = b"G\xC3\xBCltige Werte f\xFCr Modus sind:";
    let found = Engine::new().detect(bytes);
    assert_eq!((found.charset, found.rule), (Charset::Utf8, Rule::MostlyUtf8));
    // A word of stray bytes outnumbers the letters in UTF-8.
    assert_eq!(Engine::new().detect(b"Mik\xC3\xA4 on Super-n\xE4pp\xE4in?").charset, Charset::Utf8);
    // Curly quotes in windows-1252 and a letter in UTF-8, which reads far
    // better so than as windows-1252's `Ã¨`.
    let found = Engine::new().detect(b"Vero se \x93file\x94 esiste ed \xC3\xA8 leggibile.");
    assert_eq!((found.charset, found.rule), (Charset::Utf8, Rule::MostlyUtf8));
    // Valid UTF-8 with one garbled letter: read as the text it repairs to.
    let garbled = "Kurzform fÃ¼r --check-inhibitors=no.".as_bytes();
    assert_eq!(Engine::new().detect(garbled).charset, Charset::Utf8);
    // Legacy text alone is not taken for UTF-8, though this GBK line forms
    // more valid UTF-8 sequences than malformed ones.
    for text in ["中文", "以表示失败的状态值退出。"] {
        let gbk = Charset::Gbk.encode(text).0;
        assert_eq!(Engine::new().detect(&gbk).charset, Charset::Gbk, "{text}");
    }
}

#[test]
fn undeclared_garbled_utf8_is_utf8_and_clean_utf8_is_detected() {
    // UTF-8 read as ISO-8859-1 and written back twice: valid UTF-8 full of
    // C1 controls, which the language models find less likely than GBK;
    // its many valid sequences outweigh them.
    let text = lines("fr", 3, Charset::Utf8).join("\n");
    let mut garbled = text.clone();
    for _ in 0..2 {
        garbled = garbled.bytes().map(char::from).collect();
    }
    for policy in [Policy::Whatwg, Policy::Verify, Policy::Detect] {
        let found = Engine::new().policy(policy).detect(garbled.as_bytes());
        assert_eq!(found.charset, Charset::Utf8, "{policy:?}");
        let clean = Engine::new().policy(policy).detect(text.as_bytes());
        assert_eq!((clean.charset, clean.rule), (Charset::Utf8, Rule::Detected), "{policy:?}");
    }
}

#[test]
fn legacy_documents_with_a_utf8_line_keep_their_encoding() {
    // Lines in a legacy encoding and one pasted in UTF-8. The UTF-8 line's
    // bytes rule out the legacy encoding (UTF-8 Thai holds bytes that
    // windows-874 leaves undefined) or make it read worse than UTF-16, whose
    // garbage costs no more than any: each was once read as UTF-16.
    for (lang, charset, utf8_line) in [
        ("th", Charset::Windows874, 3),
        ("th", Charset::Windows874, 0),
        ("ko", Charset::EucKr, 0),
        ("ja", Charset::ShiftJis, 0),
        ("zh-Hant", Charset::Big5, 0),
    ] {
        let bytes = common::with_utf8_lines(&lines(lang, 4, charset), &[utf8_line], charset);
        for policy in [Policy::Verify, Policy::Detect] {
            let found = Engine::new().policy(policy).detect(&bytes);
            assert_eq!((found.charset, found.rule), (charset, Rule::Utf8Fragments), "{lang}");
            assert_eq!(found.language, Some(lang), "{lang}");
        }
    }
    // Where the UTF-8 text fills more lines, the document is UTF-8 and the
    // legacy line its stray bytes.
    let bytes = common::with_utf8_lines(
        &lines("th", 4, Charset::Windows874),
        &[1, 2, 3],
        Charset::Windows874,
    );
    let found = Engine::new().detect(&bytes);
    assert_eq!((found.charset, found.rule), (Charset::Utf8, Rule::MostlyUtf8));
}

#[test]
fn windows_1252_page_with_a_utf8_sentence_stays_windows_1252() {
    // A French page in windows-1252 with a sentence pasted from a UTF-8
    // source. Read whole, its `Ã©` pairs cost less as windows-1256
    // (`أ©`: an Arabic letter pays no case inside a French word).
    let french = lines("fr", 4, Charset::Utf8);
    let mut page = html("", &french[..3]).into_bytes();
    let at = page.len() - "</body></html>\n".len();
    let pasted = format!("<p>{}</p>\n", french[3]);
    page.splice(at..at, pasted.bytes());
    let page: Vec<u8> = String::from_utf8(page)
        .unwrap()
        .split_inclusive('\n')
        .flat_map(|l| {
            if l.contains(&french[3]) {
                l.as_bytes().to_vec()
            } else {
                Charset::Windows1252.encode(l).0.into_owned()
            }
        })
        .collect();
    for policy in [Policy::Verify, Policy::Detect] {
        let found = Engine::new().policy(policy).detect(&page);
        assert_eq!(
            (found.charset, found.rule),
            (Charset::Windows1252, Rule::Utf8Fragments),
            "{policy:?}"
        );
        assert_eq!(found.language, Some("fr"), "{policy:?}");
    }
    // Declared, the declaration is borne out.
    let declared = Case { bytes: page, content_type: Some("text/html; charset=windows-1252") };
    declared.check(
        Charset::Windows1252,
        (Charset::Windows1252, Rule::Verified),
        Charset::Windows1252,
    );
    // Ukrainian in KOI8-U forms chance UTF-8 (`бі`, the bytes of `¦`): it
    // reads worse so, and the detector's reading stands.
    let ukrainian = lines("uk", 100, Charset::Koi8U);
    let koi8u: Vec<&str> =
        ukrainian.iter().map(String::as_str).filter(|l| l.contains("бі")).take(3).collect();
    assert_eq!(koi8u.len(), 3);
    let text = koi8u.join("\n");
    let bytes = Charset::Koi8U.encode(&text).0;
    let found = Engine::new().detect(&bytes);
    assert_eq!((found.charset, found.rule), (Charset::Koi8U, Rule::Detected));
}

#[test]
fn a_declaration_that_reads_the_bytes_as_the_best_reading_does_is_kept() {
    // English with curly quotes: windows-1250 and windows-1252 decode it
    // alike, though English is one of windows-1252's languages only.
    let text = "Please refer to Section 2, “Common Features”, and to “Alpha to Selection”.\n";
    let text = text.repeat(4) + &lines("en", 4, Charset::Windows1250).join("\n");
    for (charset, content_type) in [
        (Charset::Windows1250, "text/plain; charset=windows-1250"),
        (Charset::Windows1252, "text/plain; charset=windows-1252"),
    ] {
        let bytes = charset.encode(&text).0.into_owned();
        let case = Case { bytes, content_type: Some(content_type) };
        let found = case.run(Policy::Verify);
        assert_eq!((found.charset, found.rule), (charset, Rule::Verified), "{charset}");
    }
}

#[test]
fn correct_windows_1251_declaration_with_odd_text_is_kept() {
    // Valid Russian, but odd: keyboard rows, abbreviations, capitals.
    let mut text = lines("ru", 2, Charset::Windows1251);
    text.push(
        "ЙЦУКЕН ФЫВАПР ЯЧСМИТ — ЪЁ, ЭЮЖ: ЩЗХЪ ЁЁЁ №5, ГОСТ Р 7.0.97—2016, ЦНИИ «ЭВМ»".to_owned(),
    );
    let page = html("<meta charset=\"windows-1251\">", &text);
    let case =
        Case { bytes: Charset::Windows1251.encode(&page).0.into_owned(), content_type: None };
    case.check(Charset::Windows1251, (Charset::Windows1251, Rule::Verified), Charset::Windows1251);
}

#[test]
fn a_few_stray_bytes_do_not_move_a_single_byte_page_to_another_encoding() {
    // Undefined bytes read as C1 controls; another encoding that defines
    // them (windows-1256 reads French letters alike) reads the page worse.
    for (lang, charset) in [("fr", Charset::Windows1252), ("el", Charset::Windows1253)] {
        let page = html(&format!("<meta charset=\"{charset}\">"), &lines(lang, 3, charset));
        let mut bytes = charset.encode(&page).0.into_owned();
        let at = bytes.iter().rposition(|&b| b >= 0x80).expect("a non-ASCII letter");
        bytes.insert(at, 0x81);
        let case = Case { bytes, content_type: None };
        let found = case.run(Policy::Verify);
        assert_eq!((found.charset, found.rule), (charset, Rule::Verified), "{lang}");
    }
}

#[test]
fn windows_1252_quotes_in_a_page_labelled_iso_8859_2_are_not_c1_controls() {
    // One curly quote: ISO-8859-2 reads it as a C1 control, the rest of
    // the Spanish text as windows-1252 does.
    let text = lines("es", 2, Charset::Iso8859_2).join(" ") + " «Hola», dijo “él”.";
    let page = html("<meta charset=\"iso-8859-2\">", &[text]);
    let case =
        Case { bytes: Charset::Windows1252.encode(&page).0.into_owned(), content_type: None };
    let overridden = Rule::Overridden { declared: Charset::Iso8859_2, reason: Doubt::C1Controls };
    case.check(Charset::Iso8859_2, (Charset::Windows1252, overridden), Charset::Windows1252);
}

#[test]
fn an_undeclared_page_with_a_stray_byte_keeps_its_encoding() {
    // One byte no double-byte encoding starts a character with, after two
    // paragraphs, rules the page's encoding out; the readings left
    // (UTF-16, single-byte ones) decode it to garbage. (Before the first
    // character of the text, it is not found: the encoding never led.)
    for (lang, charset) in
        [("ko", Charset::EucKr), ("zh-Hans", Charset::Gbk), ("el", Charset::Windows1253)]
    {
        let page = html("", &lines(lang, 4, charset));
        let mut bytes = charset.encode(&page).0.into_owned();
        let mut paragraphs = bytes.windows(3).enumerate().filter(|(_, w)| w == b"<p>");
        let (at, _) = paragraphs.nth(2).expect("four paragraphs");
        bytes.insert(at, 0xFF);
        let found = Engine::new().detect(&bytes);
        assert_eq!(found.detected.leader_ruled_out, Some(charset), "{lang}");
        assert_eq!((found.charset, found.rule), (charset, Rule::StrayBytes), "{lang}");
        assert_eq!(found.language, Some(lang));
        // Without the stray byte, the detector decides alone.
        bytes.remove(at);
        let found = Engine::new().detect(&bytes);
        assert_eq!((found.charset, found.rule), (charset, Rule::Detected), "{lang}");
    }
}

#[test]
fn valid_utf8_that_a_legacy_reading_led_on_stays_utf8() {
    // A table of lone Cyrillic letters in quotes (a language model written
    // as source code) reads better as GBK, two bytes an ideograph, to the
    // language models; `№` (three bytes) is malformed there. Its letters
    // being valid UTF-8 one after another is evidence of their own: the GBK
    // reading never leads.
    let mut source = String::from("MODEL = {\n");
    for (i, letter) in ('А'..='я').enumerate() {
        source.push_str(&format!("    {i}: 0,  # '{letter}'\n"));
    }
    source.push_str("    99: 0,  # '№'\n}\n");
    let found = Engine::new().detect(source.as_bytes());
    assert_eq!(found.detected.leader_ruled_out, None);
    assert_eq!((found.charset, found.rule), (Charset::Utf8, Rule::Detected));
    // The character-frequency tables of Chinese, Japanese and Korean price
    // every other script alike and cheaply: they cannot name the language
    // of text without their characters, nor rule out the models that can.
    let cjk = matches!(found.language, Some("ja" | "ko" | "zh-Hans" | "zh-Hant"));
    assert!(!cjk, "{:?}", found.language);
}

#[test]
fn x_user_defined_is_kept_for_binary_data_and_weighed_for_text() {
    // The HTTP label (in a document, `<meta>` x-user-defined means
    // windows-1252) is kept for bytes that are not text, which no model
    // can refute.
    let ct = Some("application/octet-stream; charset=x-user-defined");
    let binary: Vec<u8> = (0..=255u8).cycle().step_by(7).take(600).collect();
    let found = Case { bytes: binary, content_type: ct }.run(Policy::Verify);
    assert!(found.binary);
    assert_eq!((found.charset, found.rule), (Charset::XUserDefined, Rule::Verified));
    // French text so labelled reads as private-use characters.
    let text = lines("fr", 3, Charset::Windows1252).join("\n");
    let bytes = Charset::Windows1252.encode(&text).0.into_owned();
    let found = Case { bytes, content_type: ct }.run(Policy::Verify);
    let overridden =
        Rule::Overridden { declared: Charset::XUserDefined, reason: Doubt::Implausible };
    assert_eq!((found.charset, found.rule), (Charset::Windows1252, overridden));
}

#[test]
fn comma_joined_content_type_uses_the_charset_fetch_selects() {
    // Fetch's "extract a MIME type" keeps the last value's charset; the
    // first one is reported as superseded.
    let ct = "text/html; charset=utf-8, text/html; charset=koi8-r";
    let check_evidence = |found: &charsight::Detection| {
        let http: Vec<_> = found.evidence.iter().filter(|e| e.source == Source::Http).collect();
        assert_eq!(http.len(), 2, "{:#?}", found.evidence);
        assert_eq!((http[0].label.as_str(), http[0].charset), ("utf-8", Some(Charset::Utf8)));
        assert_eq!(http[0].notes, vec![Note::Superseded]);
        assert_eq!(http[0].usable(), None);
        assert_eq!((&ct[http[0].offset..][..http[0].len]), "utf-8");
        assert_eq!((http[1].label.as_str(), http[1].usable()), ("koi8-r", Some(Charset::Koi8R)));
        assert_eq!((&ct[http[1].offset..][..http[1].len]), "koi8-r");
    };
    // The user's report: UTF-8 Cyrillic so labelled.
    let utf8 = "<html><body>Привет hello</body></html>".as_bytes().to_vec();
    let case = Case { bytes: utf8, content_type: Some(ct) };
    let found = case.run(Policy::Whatwg);
    assert_eq!(
        (found.charset, found.source, found.rule),
        (Charset::Koi8R, Source::Http, Rule::Declared)
    );
    check_evidence(&found);
    // Under verify it is an ordinary declaration, weighed and refuted.
    let found = case.run(Policy::Verify);
    let overridden = Rule::Overridden { declared: Charset::Koi8R, reason: Doubt::ValidUtf8 };
    assert_eq!((found.charset, found.rule), (Charset::Utf8, overridden));
    let koi8 = found.candidates.iter().find(|c| c.charset == Charset::Koi8R).unwrap();
    assert!(koi8.sources.contains(&Source::Http), "{:#?}", found.candidates);
    check_evidence(&found);
    // A KOI8-R page so labelled is KOI8-R under both.
    let page = html("", &lines("ru", 6, Charset::Koi8R));
    let case = Case { bytes: Charset::Koi8R.encode(&page).0.into_owned(), content_type: Some(ct) };
    case.check(Charset::Koi8R, (Charset::Koi8R, Rule::Verified), Charset::Koi8R);
    assert_eq!(case.run(Policy::Whatwg).source, Source::Http);
}

#[test]
fn a_utf8_bom_stands_against_a_few_malformed_bytes() {
    // The user's reports: one malformed sequence after a UTF-8 BOM, which
    // Big5 or windows-1251 decode, is damage to report, not another encoding.
    for (bytes, at) in
        [(&b"\xEF\xBB\xBFWORD\xE3\xABWORD2"[..], 4), (&b"\xEF\xBB\xBFhello \xFF world"[..], 6)]
    {
        for policy in [Policy::Verify, Policy::Whatwg, Policy::Detect] {
            let found = Engine::new().policy(policy).detect(bytes);
            assert_eq!(
                (found.charset, found.source, found.bom_len),
                (Charset::Utf8, Source::Bom, 3)
            );
        }
        let found = Engine::new().detect(bytes);
        assert_eq!(found.rule, Rule::Bom);
        // The malformed bytes are reported (offsets in the bytes after the BOM).
        let utf8 = &found.candidates[0];
        assert_eq!(utf8.charset, Charset::Utf8);
        assert_eq!((utf8.verification.malformed, utf8.verification.first_malformed), (1, Some(at)));
        assert!(found.confidence >= 0.9, "{}", found.confidence);
    }
    // More malformed sequences than valid ones, but too few non-ASCII bytes
    // to show the document is in another encoding: kept, in doubt.
    let found = Engine::new().detect(b"\xEF\xBB\xBFa \xFF b \xFE c \xE3\xAB d \xC3\xA9");
    assert_eq!(
        (found.charset, found.rule, found.bom_len),
        (Charset::Utf8, Rule::Unverified { reason: Doubt::Malformed }, 3)
    );
    assert_eq!(found.candidates[0].verification.malformed, 3);
    assert!(found.confidence >= 0.9, "{}", found.confidence);
}

#[test]
fn a_utf8_bom_glued_to_a_long_windows_1251_file_is_overridden_and_skipped() {
    // Lines whose windows-1251 bytes hold no valid UTF-8 sequence by chance.
    let russian: Vec<String> = lines("ru", 200, Charset::Windows1251)
        .into_iter()
        .filter(|l| {
            let bytes = Charset::Windows1251.encode(l).0;
            String::from_utf8_lossy(&bytes).chars().all(|c| c.is_ascii() || c == '\u{FFFD}')
        })
        .take(8)
        .collect();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(&Charset::Windows1251.encode(&russian.join("\n")).0);
    assert!(bytes.iter().filter(|&&b| b >= 0x80).count() > 200);
    let found = Engine::new().detect(&bytes);
    let overridden = Rule::Overridden { declared: Charset::Utf8, reason: Doubt::Malformed };
    assert_eq!((found.charset, found.rule), (Charset::Windows1251, overridden));
    let utf8 = found.candidates.iter().find(|c| c.charset == Charset::Utf8).unwrap();
    assert_eq!(utf8.verification.non_ascii, 0, "no valid UTF-8 sequence");
    // The BOM is not decoded into the text (`п»ї`).
    assert_eq!(found.bom_len, 3);
    let text = found.charset.decode(&bytes[found.bom_len..]).0;
    assert!(text.starts_with(&russian[0]), "{}", &text[..40]);
    // Under whatwg and detect, the BOM decides.
    for policy in [Policy::Whatwg, Policy::Detect] {
        let found = Engine::new().policy(policy).detect(&bytes);
        assert_eq!((found.charset, found.bom_len), (Charset::Utf8, 3), "{policy:?}");
    }
}

#[test]
fn one_byte_does_not_refute_a_declaration() {
    // The user's reports. An IBM855 feed whose one non-ASCII byte is `ђ`
    // (`€` in windows-1252).
    let feed = b"<?xml version=\"1.0\" encoding=\"855\"?><rss><channel><title>News \x80 today</title><item>Some text here</item></channel></rss>";
    let found = Engine::new().detect(feed);
    assert_eq!(
        (found.charset, found.source, found.rule),
        (Charset::Ibm855, Source::Xml, Rule::Verified)
    );
    // An English page declared ISO-8859-1 (windows-1252) whose one non-ASCII
    // byte is `©`.
    let page = b"<html><head><meta charset=\"iso-8859-1\"><title>Home</title></head><body><p>Welcome to our site.</p><footer>Copyright \xA9 2024 Example Ltd. All rights reserved.</footer></body></html>";
    let found = Engine::new().detect(page);
    assert_eq!((found.charset, found.rule), (Charset::Windows1252, Rule::Verified));
}

#[test]
fn one_or_two_symbol_bytes_never_override_a_latin_declaration() {
    let symbols = ['©', '®', '€', '£', '°', '§', '±', 'µ', '¶', '¤', '¥', '¦', '¬', '×', '÷'];
    let labels = [
        "windows-1252",
        "iso-8859-15",
        "windows-1250",
        "iso-8859-2",
        "iso-8859-3",
        "iso-8859-4",
        "iso-8859-10",
        "iso-8859-13",
        "iso-8859-14",
        "iso-8859-16",
        "windows-1254",
        "windows-1257",
        "macintosh",
        "ibm850",
        "ibm437",
    ];
    for label in labels {
        let charset = charsight::label::resolve(label.as_bytes()).unwrap();
        let own: Vec<char> =
            symbols.iter().copied().filter(|s| !charset.encode(&s.to_string()).1).collect();
        assert!(own.len() >= 2, "{label}");
        for pair in own.windows(2) {
            for symbols in [&pair[..1], pair] {
                let s: Vec<String> = symbols.iter().map(char::to_string).collect();
                let text = format!(
                    "<p>Prices are shown {} in the table below; see the notes {} for details.</p>",
                    s[0],
                    s.last().unwrap()
                );
                let page = html(&format!("<meta charset=\"{label}\">"), &[text]);
                let bytes = charset.encode(&page).0.into_owned();
                let found = Engine::new().detect(&bytes);
                assert_eq!(
                    (found.charset, found.rule),
                    (charset, Rule::Verified),
                    "{label} {symbols:?}: {:#?}",
                    found.candidates
                );
            }
        }
    }
}

/// A Python or Emacs coding comment is a source file's declaration: a
/// module with a Russian string in KOI8-R among English code read as a DOS
/// code page's box drawing (`≡╔╘╧╬` for `Питон`) at confidence 1.00 for
/// want of one. A browser does not read it; a lying one is overridden.
#[test]
fn a_coding_comment_declares_a_source_file() {
    let source = "# -*- coding: koi8-r -*-\n\"\"\"Greetings for the command line.\"\"\"\n\nimport sys\n\n\
                  GREETING = \"Привет\"\n\n\ndef main(argv):\n    name = argv[1] if len(argv) > 1 else \"Питон\"\n    \
                  print(f\"{GREETING}, {name}!\")\n    return 0\n\n\nif __name__ == \"__main__\":\n    \
                  sys.exit(main(sys.argv))\n";
    let bytes = Charset::Koi8R.encode(source).0.into_owned();
    let found = Engine::new().detect(&bytes);
    assert_eq!(
        (found.charset, found.source, found.rule),
        (Charset::Koi8R, Source::Coding, Rule::Verified)
    );
    let comment = found.evidence.iter().find(|e| e.source == Source::Coding).expect("evidence");
    assert_eq!((comment.label.as_str(), comment.offset, comment.len), ("koi8-r", 14, 6));
    // Its label is rewritten as the others are.
    let fixes = charsight::decode::declaration_fixes(&found, Charset::Utf8);
    assert_eq!((fixes[0].range.clone(), fixes[0].text.as_str()), (14..20, "UTF-8"));
    // A browser ignores it.
    let found = Engine::new().policy(Policy::Whatwg).detect(&bytes);
    assert_ne!(found.source, Source::Coding);
    let comment = found.evidence.iter().find(|e| e.source == Source::Coding).expect("reported");
    assert_eq!((comment.charset, comment.notes.as_slice()), (None, &[Note::NotWhatwg][..]));
    // UTF-8 that says Latin-1.
    let lying = source.replace("koi8-r", "latin-1");
    let found = Engine::new().detect(lying.as_bytes());
    assert_eq!(found.charset, Charset::Utf8);
    assert!(
        matches!(found.rule, Rule::Overridden { reason: Doubt::ValidUtf8, .. }),
        "{:?}",
        found.rule
    );
    // On the third line, or after a line of code, it is no declaration.
    let late = format!("import sys\n{source}");
    let found = Engine::new().detect(&Charset::Koi8R.encode(&late).0);
    assert!(found.evidence.iter().all(|e| e.source != Source::Coding));
}
