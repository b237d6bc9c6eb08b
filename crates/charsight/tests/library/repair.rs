//! Repair (issue 5): each kind on documents, and the properties — clean
//! text is never changed, repairing twice changes nothing more, nothing is
//! lost, and the chunking of the input does not matter.

use crate::common;

use charsight::decode::{Errors, TextDecoder};
use charsight::repair::{undo, Cause, Finding, Kind, RepairPolicy, Repairer};
use charsight::{Charset, Engine};
use proptest::prelude::*;

/// `bytes` in `charset` through `policy`, in chunks of `chunk` bytes: the
/// text and the findings.
fn repair_chunked(
    bytes: &[u8],
    charset: Charset,
    policy: RepairPolicy,
    chunk: usize,
) -> (String, Vec<Finding>) {
    let mut repairer = Repairer::new(charset, policy, Errors::Replace);
    let mut text = String::new();
    for piece in bytes.chunks(chunk.max(1)) {
        repairer.repair(piece, false, &mut text).unwrap();
    }
    repairer.repair(b"", true, &mut text).unwrap();
    (text, repairer.findings().list.clone())
}

fn repair_all(bytes: &[u8], charset: Charset) -> (String, Vec<Finding>) {
    repair_chunked(bytes, charset, RepairPolicy::all(), bytes.len())
}

/// What a plain decode gives.
fn plain(bytes: &[u8], charset: Charset) -> String {
    let mut text = String::new();
    TextDecoder::new(charset, Errors::Replace).decode(bytes, true, &mut text).unwrap();
    text
}

#[test]
fn stray_windows_1252_in_utf8() {
    let damaged = b"Il a dit \x93bonjour\x94 \xC3\xA0 tout le monde, caf\xE9 compris.\n";
    let (text, findings) = repair_all(damaged, Charset::Utf8);
    assert_eq!(text, "Il a dit “bonjour” à tout le monde, café compris.\n");
    assert_eq!(findings.len(), 3);
    assert!(findings
        .iter()
        .all(|f| f.kind == Kind::Mixed && f.cause.to_string().starts_with("windows-1252")));
    let e9 = damaged.iter().position(|&b| b == 0xE9).unwrap() as u64;
    assert_eq!(findings[2].range, e9..e9 + 1);
    assert_eq!(undo(&text, &findings), plain(damaged, Charset::Utf8));
}

#[test]
fn stray_windows_1252_punctuation_in_korean_utf8_is_no_box_drawing() {
    // KOI8-R reads 0x91, 0x92 and 0xB7 as `▒ ▓ ╥`, which the Korean model
    // prices below quotes: box drawing is a text screen's, not a stray's.
    let damaged: Vec<u8> = [
        "오늘은 날씨가 좋습니다. ".as_bytes(),
        b"\x91",
        "정말".as_bytes(),
        b"\x92",
        " 좋아요 ".as_bytes(),
        b"\xB7",
        " 내일도 맑음\n".as_bytes(),
    ]
    .concat();
    let (text, findings) = repair_all(&damaged, Charset::Utf8);
    assert_eq!(text, "오늘은 날씨가 좋습니다. ‘정말’ 좋아요 · 내일도 맑음\n");
    assert!(findings.iter().all(|f| f.cause.to_string().starts_with("windows-1252")));
}

/// `text` with its characters beyond U+FFFF written as CESU-8 (each half of
/// its surrogate pair as a three-byte sequence).
fn cesu8(text: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    for c in text.chars() {
        if c <= '\u{FFFF}' {
            bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        for unit in c.encode_utf16(&mut [0; 2]).iter().map(|&u| u32::from(u)) {
            bytes.extend(
                [0xE0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3F), 0x80 | (unit & 0x3F)]
                    .map(|b| b as u8),
            );
        }
    }
    bytes
}

#[test]
fn surrogate_pairs_in_utf8() {
    // Emoji and a CJK extension B character written as CESU-8, in a line
    // with nothing else beyond ASCII (GBK reads its bytes as characters) and
    // in one with UTF-8 accents.
    for line in ["Great day 😀🎉 see you soon\n", "Café 𠀋 ensemble, à bientôt 👍\n"] {
        let damaged = cesu8(line);
        assert!(std::str::from_utf8(&damaged).is_err());
        assert_eq!(Engine::new().detect(&damaged).charset, Charset::Utf8, "{line}");
        let (text, findings) = repair_all(&damaged, Charset::Utf8);
        assert_eq!(text, line);
        assert!(findings.iter().all(|f| f.cause == Cause::SurrogatePairs));
        assert_eq!(undo(&text, &findings), plain(&damaged, Charset::Utf8));
        // And garbled through windows-1252.
        let garbled = Charset::Windows1252.decode(&damaged).0.into_owned();
        assert_eq!(repair_all(garbled.as_bytes(), Charset::Utf8).0, line, "{garbled}");
    }
}

#[test]
fn utf8_fragments_in_legacy_documents() {
    // A windows-1252 line with one word in UTF-8.
    let mut bytes = Charset::Windows1252.encode("Le menu du jour : ").0.into_owned();
    bytes.extend_from_slice("crème brûlée".as_bytes());
    bytes.extend_from_slice(&Charset::Windows1252.encode(" et café.").0);
    let (text, findings) = repair_all(&bytes, Charset::Windows1252);
    assert_eq!(text, "Le menu du jour : crème brûlée et café.", "{findings:?}");
    assert!(
        findings.iter().all(|f| f.cause
            == Cause::Mixed { bytes: Charset::Utf8, document: Charset::Windows1252, garbled: 0 }),
        "{findings:?}"
    );
    // A Shift_JIS line with a few characters in UTF-8.
    let mut bytes = Charset::ShiftJis.encode("これは日本語の").0.into_owned();
    bytes.extend_from_slice("文章です".as_bytes());
    bytes.extend_from_slice(&Charset::ShiftJis.encode("。ほかの部分はシフトJISです。").0);
    let (text, findings) = repair_all(&bytes, Charset::ShiftJis);
    assert_eq!(text, "これは日本語の文章です。ほかの部分はシフトJISです。");
    assert_eq!(undo(&text, &findings), plain(&bytes, Charset::ShiftJis));
    // Thai in windows-874 makes UTF-8 every few letters by chance (`่งค` of
    // `แห่งความ` is `觤`): left as it is, while a word in UTF-8 is read.
    let clean = "สิทธิมนุษยชนเป็นสิ่งที่ทุกคนพึงมี และเป็นรากฐานแห่งความเสมอภาค";
    let bytes = Charset::Windows874.encode(clean).0.into_owned();
    let (text, findings) = repair_all(&bytes, Charset::Windows874);
    assert_eq!((text.as_str(), findings.len()), (clean, 0));
    let mut bytes = Charset::Windows874.encode("ประชาชนทุกคนมี").0.into_owned();
    bytes.extend_from_slice(" เสรีภาพ ".as_bytes());
    bytes.extend_from_slice(&Charset::Windows874.encode("ในการแสดงความคิดเห็น").0);
    let (text, findings) = repair_all(&bytes, Charset::Windows874);
    assert_eq!(text, "ประชาชนทุกคนมี เสรีภาพ ในการแสดงความคิดเห็น", "{findings:?}");
}

#[test]
fn a_utf8_line_in_a_legacy_document() {
    let documents = [
        // Clean German in windows-1252 and a line pasted from UTF-8 whose
        // only accent is `ü`: however clean the rest, a line whose non-ASCII
        // text is all UTF-8 was pasted whole.
        (
            Charset::Windows1252,
            [
                "Die Größe der Datei ändert sich, während sie übertragen wird; für Überprüfungen.",
                "Bitte prüfen.",
                "Schön, dass Sie da sind: Grüße aus München, Köln und Düsseldorf, gemäß Wünschen.",
            ],
        ),
        // In EUC-JP, the UTF-8 `。` after `)` is a malformed run of its own,
        // too short a fragment to clear the fragment repair's margin: read
        // as a stray run, UTF-8 is among its readings (it was `ã€‚`).
        (
            Charset::EucJp,
            [
                "これは日本語の文章です。",
                "ソースファイルを指定する ('--' は標準入力)。",
                "括弧の深さ。",
            ],
        ),
    ];
    for (charset, lines) in documents {
        let bytes = common::with_utf8_lines(&lines, &[1], charset);
        let (text, findings) = repair_all(&bytes, charset);
        assert_eq!(text, lines.map(|l| format!("{l}\n")).concat(), "{findings:?}");
        assert_eq!(undo(&text, &findings), plain(&bytes, charset));
    }
}

#[test]
fn fragments_reaching_into_the_next_run() {
    // UTF-8 bytes inside Shift_JIS where a run's resynchronization reaches
    // into the following run (found by the evaluation).
    let line = "NcFTPについて私に連絡する必要が生じた場合には、 version コマンドに慣れて欲しい。";
    for cut in [8, 12, 17, 25, 31] {
        let at = line.char_indices().nth(cut).map_or(line.len(), |(i, _)| i);
        let end = line.char_indices().nth(cut + 5).map_or(line.len(), |(i, _)| i);
        let mut bytes = Charset::ShiftJis.encode(&line[..at]).0.into_owned();
        bytes.extend_from_slice(&line.as_bytes()[at..end]);
        bytes.extend_from_slice(&Charset::ShiftJis.encode(&line[end..]).0);
        let (text, findings) = repair_all(&bytes, Charset::ShiftJis);
        assert_eq!(undo(&text, &findings), plain(&bytes, Charset::ShiftJis));
    }
}

#[test]
fn mojibake_once_and_twice() {
    let text =
        "Příliš žluťoučký kůň úpěl ďábelské ódy.\nЧто-то пошло не так.\n日本語のテキストです。\n";
    for charset in [Charset::Windows1252, Charset::Windows1251, Charset::Macintosh] {
        let once = charset.decode(text.as_bytes()).0.into_owned();
        let twice = charset.decode(once.as_bytes()).0.into_owned();
        for garbled in [once, twice] {
            let (out, findings) = repair_all(garbled.as_bytes(), Charset::Utf8);
            assert_eq!(out, text, "{charset}: {garbled}");
            assert!(findings.iter().all(|f| f.kind == Kind::Mojibake));
            assert_eq!(undo(&out, &findings), garbled);
        }
    }
}

#[test]
fn numeric_references_to_legacy_bytes() {
    let gbk = Charset::Gbk.encode("中文字符编码").0;
    let refs: String = gbk.iter().map(|b| format!("&#{b};")).collect();
    let page = format!("<p>{refs}</p>\n<p>caf&#233; &amp; cr&#232;me</p>\n");
    let (out, findings) = repair_all(page.as_bytes(), Charset::Utf8);
    assert_eq!(out, "<p>中文字符编码</p>\n<p>caf&#233; &amp; cr&#232;me</p>\n");
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].kind, Kind::Ncr);
    assert_eq!(findings[0].range, 3..3 + refs.len() as u64);
}

#[test]
fn font_encoded_text() {
    let page = "<p>x = <font face=\"Symbol\">a+b</font>, y = \u{F061}</p>\n";
    let mut repairer = Repairer::new(Charset::Utf8, RepairPolicy::all(), Errors::Replace);
    let mut text = String::new();
    repairer.repair(page.as_bytes(), true, &mut text).unwrap();
    assert_eq!(text, "<p>x = <font face=\"Symbol\">α+β</font>, y = α</p>\n");
    let findings = &repairer.findings().list;
    assert_eq!(findings.len(), 2);
    assert!(findings.iter().all(|f| f.kind == Kind::Fonts));
    assert_eq!(findings[0].range, 27..30);
    assert_eq!(&*repairer.font_scopes()[0].font, "Symbol");
    assert_eq!(undo(&text, findings), page);
}

/// Found by the fuzz target: bytes in IBM01142 whose C1 controls, read as
/// windows-1252, complete layer after layer of mojibake, one a round; with
/// four rounds the output still held one (`Ÿß`, MacRoman for `٧`) that a
/// second repair undid. (Which layers are undone depends on the weighing;
/// that a second repair finds nothing more does not.)
#[test]
fn r25_layers_uncovered_round_after_round_are_all_repaired() {
    let bytes = b"\x3a\x8f\x8b\x2c\x2c\x3a\x8f\x8b\x2c\x3a\x8f\x8b\x8b\x8f\x5b\x5b\x8b\xeb\x92\x9c\xcf\xbf\
        \xbd\x30\xc3\xc3\xc3\xc3\xc3\xc3\xc3\xc3\xc3\xff\x59\xc3\xbf\xc3\xbf\xc3\x8a\xff\xff\x5b\x2c\xbf\xff\
        \x49\xff\xc3\xbf\xc3\xbf\xc3\xaf\x8b\x2c\x59\x28\x8b\x8b\xc8";
    let (once, findings) = repair_all(bytes, Charset::Ibm01142);
    assert_eq!(undo(&once, &findings), plain(bytes, Charset::Ibm01142));
    assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
}

/// Found by the fuzz target: Zawgyi converted again, or only, on a second
/// run (a conversion whose result still read as Zawgyi; Zawgyi that a
/// mojibake repair uncovered after the fonts repair had run).
#[test]
fn r5_zawgyi_conversions_are_idempotent() {
    let bytes = b"<p>x\xff\xff\xff95 \x83@\xa986cy = \xef\x81\xa1</p>\n\xe1\x80\xbb\x00\xe8\xe1\x80\x94\
        \xe1\x99\x80\x80\xe1\xb9\xe1\x80\x99\xe1\x80\xac\xe1\x82\x80\x84\xe1\x80\xb9\xe1\x80\x84\xe1\x80\xb6\n";
    let again = b"<p>x = <font face=\"Symbol\">a+b<ol\">a+b</font>\xd4\xdf\x86\xd6= \xef\x81\xa1</p>\n\
        \xe1\x80\xbb\xe1\x80\x99\xe1\x80\x94\xe1\x80J\x00\x00\x00\xe1\x80\xac\xe1\x82\x80\x84\xe1\x80\xb9\
        \xe1\x80\x84\xe1\x80\xb6\n";
    // Zawgyi that a mojibake repair uncovers (UTF-8 read as windows-1251).
    let uncovered = b"\x9e\x9e\x9e\x9e\x9e\x9e\x9e\x9e\x00\x00\x01\x05<p>x\xff\xff\xff95 \x83@\xa986cy = \
        \xef\x81\xa1I\x00</p>\n\xe1\x80\xbb\xe1\x80\x99\xe1\x80\x94\xe1\x80\xb9\xe1\x80\x00\x00I\x00I\x99";
    for (bytes, charset) in [
        (&bytes[..], Charset::Utf8),
        (&again[..], Charset::Utf8),
        (&uncovered[..], Charset::Windows1251),
    ] {
        let (once, _) = repair_all(bytes, charset);
        assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
    }
}

/// Found by the fuzz target: a chain of readings (a C1 control read as
/// windows-1252, then UTF-8 read as MacRoman) whose last layer still held a
/// C1 control (`\u{9B}µ¬Ü` → `ݵ\u{86}`), which a second run read as `†`.
/// A layer that holds one is not chosen.
#[test]
fn a_repair_leaves_no_c1_control_for_another_to_read() {
    let bytes = "\u{B5}\u{9F}\u{DC}\u{9B}\u{B5}\u{AC}\u{DC} \u{9A}".as_bytes();
    let (once, findings) = repair_all(bytes, Charset::Utf8);
    assert!(!once.contains('\u{86}'), "{findings:?}");
    assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
}

/// A no-break space in correct text is a space: `Å` before one is not the
/// windows-1252 reading of UTF-8 `C5 A0` (`Š`), while `Ã` before one, in a
/// word, is still that of `à`.
#[test]
fn a_no_break_space_is_a_space() {
    for line in ["DÅ\u{A0}OG NÅ\n", "Ä\u{A0}B\n", "Prix\u{A0}: 12\u{A0}€\n"] {
        let (text, findings) = repair_all(line.as_bytes(), Charset::Utf8);
        assert_eq!(text, line, "{findings:?}");
    }
    let (text, _) = repair_all(
        "Voil\u{C3}\u{A0} tout, d\u{C3}\u{A9}j\u{C3}\u{A0} vu\n".as_bytes(),
        Charset::Utf8,
    );
    assert_eq!(text, "Voilà tout, déjà vu\n");
}

/// Stray bytes in a line that also holds mojibake are read in the line's
/// language as the mojibake repair leaves it (French), not in one the
/// mojibake looks like (`Ã©` reads as Vietnamese; `é` as a Thai mark).
#[test]
fn stray_bytes_beside_mojibake() {
    let line = b"Caf\xe9 cr\xe8me and \x93quotes\x94 and D\xc3\x83\xc2\xa9j\xc3\x83\xc2\xa0 vu\n";
    let (text, findings) = repair_all(line, Charset::Utf8);
    assert_eq!(text, "Café crème and “quotes” and Déjà vu\n");
    assert_eq!(findings.iter().filter(|f| f.kind == Kind::Mixed).count(), 4);
    // Too few letters beyond ASCII to tell the language: the ASCII words
    // tell it, and the stray bytes are scored beside the mojibake repaired
    // (else GBK reads `\xEDa` and `\xFCr` as Chinese characters).
    for (damaged, repaired) in [
        (
            &b"elimina las l\xc3\x83\xc2\xadneas vac\xedas repetidas"[..],
            "elimina las líneas vacías repetidas",
        ),
        (b"G\xc3\x83\xc2\xbcltige Werte f\xfcr Modus sind:", "Gültige Werte für Modus sind:"),
    ] {
        assert_eq!(repair_all(damaged, Charset::Utf8).0, repaired);
    }
}

/// Found by the fuzz target: the repairs must weigh the text as the output
/// will have it, or repairing the output again reads it differently. An
/// undecodable byte is written as U+FFFD (here a stray byte read as
/// Shift_JIS, whose result is UTF-8 read as GBK).
#[test]
fn repairs_weigh_the_text_as_the_output_has_it() {
    let (once, findings) = repair_all(b"y\0\0\x9fy\x86", Charset::Utf8);
    assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
    assert_eq!(undo(&once, &findings), plain(b"y\0\0\x9fy\x86", Charset::Utf8));
    // A malformed sequence of several bytes is one U+FFFD in the output: a
    // run of undecodable bytes weighs as one, and so does a run of U+FFFD.
    let big5 = b"\0\0\0@\0\x17\x03\x92K\xa4\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\
        \xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xe0\xf0\xf0\xf0\xf0\x92I$!\x92\0\0\xf0\xf0\xef\x81\x85";
    let (once, _) = repair_all(big5, Charset::Big5);
    assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
    // The text-level repairs see a DoCoMo emoji already mapped, as the
    // output has it.
    let sjis = b"\xd6\xb6\xec\xff\xfd\xda\xb6A\xb6\xec\xff\xfd\xda\xb6A\x7fsymbolmt\xff\xf8\xf7o";
    let (once, _) = repair_all(sjis, Charset::ShiftJis);
    assert_eq!(repair_all(once.as_bytes(), Charset::Utf8).0, once);
    // An undecodable byte where mojibake lost a byte is read as U+FFFD,
    // which the output has there: as a lost byte (here `”`).
    let lost = b"He said \xc3\xa2\xe2\x82\xac\xc5\x93hi\xc3\xa2\xe2\x82\xac\xff and left.";
    let (once, _) = repair_all(lost, Charset::Utf8);
    assert_eq!(once, "He said \u{201C}hi\u{201D} and left.");
    let shown = "He said \u{201C}hi\u{e2}\u{20AC}\u{FFFD} and left.";
    assert_eq!(repair_all(shown.as_bytes(), Charset::Utf8).0, once);
}

#[test]
fn a_contradicted_declaration_is_a_finding_of_facts() {
    let feed = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<t>Cr\xE8me br\xFBl\xE9e, d\xE9j\xE0 vu, na\xEFve.</t>\n";
    let found = Engine::new().detect(feed);
    assert_eq!(found.charset, Charset::Windows1252);
    let mut repairer =
        Repairer::for_detection(&found, RepairPolicy::all(), Errors::Replace, Charset::Utf8);
    let mut text = String::new();
    repairer.repair(feed, true, &mut text).unwrap();
    let f = &repairer.findings().list[0];
    assert_eq!((f.kind, f.range.clone(), f.applied), (Kind::Declaration, 30..35, false));
    // Facts, not command-line advice (issue 18).
    assert!(f
        .cause
        .to_string()
        .starts_with("declared UTF-8 (xml at byte 30), but the bytes are windows-1252"));
    assert!(!f.cause.to_string().contains("--"), "{}", f.cause);
    assert_eq!((f.at, f.line), (30, 1));
    // Rewriting it to the output's encoding makes it applied.
    let fixes = charsight::decode::declaration_fixes(&found, Charset::Windows1252);
    let mut repairer =
        Repairer::for_detection(&found, RepairPolicy::all(), Errors::Replace, Charset::Windows1252)
            .with_splices(fixes);
    let mut text = String::new();
    repairer.repair(feed, true, &mut text).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"windows-1252\"?>"));
    let f = &repairer.findings().list[0];
    assert!(f.applied);
    assert_eq!(undo(&text, &repairer.findings().list), plain(feed, Charset::Windows1252));
}

#[test]
fn a_word_in_another_encoding_is_decoded_whole() {
    // Six bytes of windows-1251, six malformed sequences in UTF-8: left as
    // U+FFFD they cost six times what one does.
    let mut damaged = "Привет, как дела? Всё хорошо, спасибо. ".as_bytes().to_vec();
    damaged.extend_from_slice(&Charset::Windows1251.encode("хорошо").0);
    damaged.extend_from_slice(" и ещё текст.\n".as_bytes());
    let (text, findings) = repair_all(&damaged, Charset::Utf8);
    assert_eq!(text, "Привет, как дела? Всё хорошо, спасибо. хорошо и ещё текст.\n");
    assert_eq!(findings.len(), 1);
    assert_eq!(
        findings[0].cause,
        Cause::Mixed { bytes: Charset::Windows1251, document: Charset::Utf8, garbled: 0 }
    );
}

#[test]
fn a_word_broken_by_chance_utf8_is_decoded_whole() {
    // A Thai phrase in windows-874 inside UTF-8 Thai: its bytes form valid
    // UTF-8 here and there (`\xD1\xB4` is `Ѵ`; `\xE3\xB9\xA1` is `㹡`),
    // which cuts it into runs too short to read apart.
    let phrase = "จะถูกตัดสัญชาติของตนโดยพลการ";
    let mut damaged = "บุคคลใด ๆ ".as_bytes().to_vec();
    damaged.extend_from_slice(&Charset::Windows874.encode(phrase).0);
    damaged.extend_from_slice(" หรือถูกปฏิเสธสิทธิที่จะเปลี่ยนสัญชาติไม่ได้\n".as_bytes());
    assert!(String::from_utf8_lossy(&damaged).contains(['Ѵ', '㹡']));
    let (text, findings) = repair_all(&damaged, Charset::Utf8);
    assert_eq!(text, format!("บุคคลใด ๆ {phrase} หรือถูกปฏิเสธสิทธิที่จะเปลี่ยนสัญชาติไม่ได้\n"));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(
        findings[0].cause,
        Cause::Mixed { bytes: Charset::Windows874, document: Charset::Utf8, garbled: 0 }
    );
    assert_eq!(undo(&text, &findings), plain(&damaged, Charset::Utf8));
    // A letter in UTF-8 between two stray quotes is not chance.
    let quoted = b"Thuas at\xC3\xA1 an chabhair agus anuas \x93at\xC3\xA1\x94 a haghaidh\n";
    let (text, _) = repair_all(quoted, Charset::Utf8);
    assert_eq!(text, "Thuas atá an chabhair agus anuas “atá” a haghaidh\n");
}

#[test]
fn bytes_that_are_not_text_are_not_repaired() {
    // Bytes of a binary file: the stray-looking bytes in them are not
    // damage, and nothing of them is changed.
    let mut binary = Vec::new();
    let mut x: u32 = 2_463_534_242;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        binary.push(x as u8);
    }
    binary.extend_from_slice(b"\nIl a dit \x93bonjour\x94, caf\xC3\xA9.\n");
    let (text, findings) = repair_all(&binary, Charset::Utf8);
    assert_eq!(text, plain(&binary, Charset::Utf8));
    assert!(findings.is_empty(), "{findings:?}");
    // The same damage in a text block is repaired.
    let (_, findings) = repair_all(b"Il a dit \x93bonjour\x94, caf\xC3\xA9.\n", Charset::Utf8);
    assert!(!findings.is_empty());
    // Decided on the text, as the output has it (a fuzz case): seven
    // malformed bytes are seven bytes here, nine in the output's U+FFFD.
    let bytes = b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x06\xC5\xAB";
    let (text, _) = repair_all(bytes, Charset::Gbk);
    assert_eq!(repair_all(text.as_bytes(), Charset::Utf8).0, text);
}

#[test]
fn strict_stops_at_the_first_byte_no_repair_decodes() {
    // Mojibake is repaired; the stray byte, with `mixed` not allowed, is not.
    let mut bytes = "Le café est très chaud.\nLe cafÃ© ".as_bytes().to_vec();
    bytes.extend_from_slice(b"\xFF\n");
    let policy = RepairPolicy::NONE.with(Kind::Mojibake);
    let mut repairer = Repairer::new(Charset::Utf8, policy, Errors::Strict);
    let mut text = String::new();
    let err = repairer.repair(&bytes, true, &mut text).unwrap_err();
    assert_eq!(text, "Le café est très chaud.\nLe café ");
    assert_eq!(err.offset(), bytes.iter().position(|&b| b == 0xFF).unwrap() as u64);
}

/// Lines of every language of `../shared/text`.
fn languages() -> Vec<String> {
    let dir = testkit::shared_dir().join("text");
    let mut langs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".txt").map(str::to_owned))
        .collect();
    langs.sort();
    langs
}

/// Every file of `../shared/text`, through every repair, comes out as it
/// went in.
#[test]
fn clean_text_is_never_changed() {
    let langs = languages();
    assert!(langs.len() >= 49);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = langs
            .chunks(langs.len().div_ceil(2))
            .map(|part| {
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for lang in part {
                        let path = testkit::shared_dir().join("text").join(format!("{lang}.txt"));
                        let bytes = std::fs::read(&path).unwrap();
                        let (out, findings) = repair_all(&bytes, Charset::Utf8);
                        if out.as_bytes() != bytes {
                            failures.push(format!("{lang}: {:?}", findings.first()));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{failures:?}");
}

/// The corpus files that repair still changes, and why (docs/repair.md):
/// listed so that the list cannot grow unseen, and must shrink when one is
/// fixed.
const CORPUS_KNOWN_CHANGES: [&str; 1] = [
    // A poem in half-width katakana, whose `ﾊｵﾛｵﾛｱﾙｷ` (CA B5 DB B5 DB B1
    // D9 B7) is valid UTF-8 (`ʵ۵۱ٷ`): the models price half-width katakana
    // above that mix of scripts.
    "cp932-japanese/5554s2a-cp932.txt",
];

/// Every file of `../shared/corpus` and `../shared/corpus-wide` whose label
/// names an encoding charsight decodes, and which decodes cleanly in it,
/// comes out of every repair as its plain decode, but for
/// [`CORPUS_KNOWN_CHANGES`].
#[test]
fn correctly_labelled_corpus_files_are_never_changed() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut known = Vec::new();
    for file in testkit::corpus().into_iter().chain(testkit::corpus_wide()) {
        let Ok(charset) = charsight::label::resolve(file.encoding.as_bytes()) else { continue };
        let bytes = std::fs::read(&file.path).unwrap();
        let bom = charset.bom().filter(|b| bytes.starts_with(b)).map_or(0, <[u8]>::len);
        let bytes = &bytes[bom..];
        let expected = plain(bytes, charset);
        if expected.contains('\u{FFFD}') {
            continue;
        }
        checked += 1;
        let (out, findings) = repair_all(bytes, charset);
        if out == expected {
            continue;
        }
        if CORPUS_KNOWN_CHANGES.contains(&file.name.as_str()) {
            known.push(file.name);
        } else {
            failures.push(format!("{}: {:?}", file.name, findings.first()));
        }
    }
    println!("{checked} correctly labelled corpus files checked");
    assert!(checked >= 650, "{checked}");
    assert!(failures.is_empty(), "{} changed: {failures:#?}", failures.len());
    assert_eq!(
        known.len(),
        CORPUS_KNOWN_CHANGES.len(),
        "now left as they are: remove from the list"
    );
}

/// The lines of the never-change battery that repair still changes, and
/// why (docs/repair.md, "Known problems"): listed so that the list cannot
/// grow unseen, and must shrink when one is fixed.
const BATTERY_KNOWN_CHANGES: [(&str, &str); 1] = [
    // A quoted mojibake example beside one `é`: one witness is too few.
    ("if (x <= y && y >= z) { return \"Ã©\"; } // the mojibake of é, as a test string", "Ã©"),
];

/// Correct text that looks like damage to a careless repairer (symbols,
/// math, code, URLs, emoticons and kaomoji, rare letters, CJK with its
/// punctuation, mixed scripts, box drawing), written for this test rather
/// than taken from the training text: no repair changes it, as a whole
/// or line by line (where a line has no neighbours to vouch for it), but
/// for [`BATTERY_KNOWN_CHANGES`].
#[test]
fn the_never_change_battery_is_never_changed() {
    let battery = include_str!("data/never-change.txt");
    let mut changes = Vec::new();
    for (whole, text) in std::iter::once((true, battery))
        .chain(battery.split_inclusive('\n').map(|line| (false, line)))
    {
        let (out, findings) = repair_all(text.as_bytes(), Charset::Utf8);
        if out != text {
            let at = if whole { "(whole battery)" } else { text.trim_end() };
            let applied = findings.iter().filter(|f| f.applied);
            changes.extend(applied.map(|f| (at, f.before.clone(), f.after.clone())));
        }
    }
    let known = |line: &str, before: &str| {
        BATTERY_KNOWN_CHANGES.iter().any(|&(l, b)| l == line && b == before)
    };
    let new: Vec<String> = changes
        .iter()
        .filter(|(line, before, _)| !known(line, before))
        .map(|(line, before, after)| format!("{line}: {before:?} -> {after:?}"))
        .collect();
    assert!(new.is_empty(), "{} changes:\n{}", new.len(), new.join("\n"));
    for (line, before) in BATTERY_KNOWN_CHANGES {
        let seen = changes.iter().any(|(l, b, _)| *l == line && *b == before);
        assert!(seen, "{line}: now left as it is; remove it from BATTERY_KNOWN_CHANGES");
    }
}

/// Sentences to damage in the property tests.
const SENTENCES: [&str; 8] = [
    "Le café est très chaud, n’est-ce pas ?",
    "Grüße aus Köln: schöne Straße, müde Füße.",
    "Съешь же ещё этих мягких французских булок.",
    "これは日本語の文章です。",
    "简体中文的字符编码检测",
    "Η γρήγορη καφέ αλεπού πηδάει.",
    "Żółć gęślą jaźń, pójdź kińże tę chmurność.",
    "plain ASCII line, nothing to do",
];

/// A damaged line: `how` picks the damage.
fn damage(line: &str, how: u8) -> Vec<u8> {
    match how % 9 {
        0 => line.as_bytes().to_vec(),
        1 => Charset::Windows1252.decode(line.as_bytes()).0.into_owned().into_bytes(),
        2 => Charset::Windows1251.decode(line.as_bytes()).0.into_owned().into_bytes(),
        3 => {
            let once = Charset::Windows1252.decode(line.as_bytes()).0.into_owned();
            Charset::Windows1252.decode(once.as_bytes()).0.into_owned().into_bytes()
        }
        4 => line
            .chars()
            .flat_map(|c| match Charset::Windows1252.encode(&c.to_string()) {
                (b, false) if b.len() == 1 => b.into_owned(),
                _ => c.to_string().into_bytes(),
            })
            .collect(),
        6..=8 => {
            // Read as windows-1252 by a decoder that lost its undefined
            // bytes, as U+FFFD, (stored in a legacy encoding) `?`, or
            // nothing.
            let undefined =
                |c: char| matches!(c, '\u{81}' | '\u{8D}' | '\u{8F}' | '\u{90}' | '\u{9D}');
            let once = Charset::Windows1252.decode(line.as_bytes()).0.into_owned();
            once.replace(undefined, ["\u{FFFD}", "?", ""][usize::from(how % 9 - 6)]).into_bytes()
        }
        _ => match Charset::Gbk.encode(line) {
            (b, false) => b
                .iter()
                .map(|&x| if x < 0x80 { char::from(x).to_string() } else { format!("&#{x};") })
                .collect::<String>()
                .into_bytes(),
            _ => line.as_bytes().to_vec(),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Repairing the output again changes nothing.
    #[test]
    fn repair_is_idempotent(picks in proptest::collection::vec((0usize..8, 0u8..9), 1..6)) {
        let mut doc = Vec::new();
        for (i, how) in picks {
            doc.extend(damage(SENTENCES[i], how));
            doc.push(b'\n');
        }
        let (once, _) = repair_all(&doc, Charset::Utf8);
        let (twice, findings) = repair_all(once.as_bytes(), Charset::Utf8);
        prop_assert_eq!(&twice, &once, "{:?}", findings);
    }

    /// Arbitrary bytes in any encoding: undoing the findings gives the plain
    /// decode back, and the chunking changes nothing.
    #[test]
    fn nothing_is_lost(bytes: Vec<u8>, index in 0usize..64, chunk in 1usize..40) {
        let charset = Charset::ALL[index % Charset::ALL.len()];
        let (text, findings) = repair_all(&bytes, charset);
        prop_assert_eq!(undo(&text, &findings), plain(&bytes, charset));
        let chunked = repair_chunked(&bytes, charset, RepairPolicy::all(), chunk);
        prop_assert_eq!(chunked, (text, findings));
    }

    /// The same on damaged text, where repairs happen.
    #[test]
    fn nothing_is_lost_in_repaired_text(picks in proptest::collection::vec((0usize..8, 0u8..6), 1..6), chunk in 1usize..64) {
        let mut doc = Vec::new();
        for (i, how) in picks {
            doc.extend(damage(SENTENCES[i], how));
            doc.push(if how % 2 == 0 { b'\n' } else { b' ' });
        }
        let (text, findings) = repair_all(&doc, Charset::Utf8);
        prop_assert_eq!(undo(&text, &findings), plain(&doc, Charset::Utf8));
        prop_assert_eq!(repair_chunked(&doc, Charset::Utf8, RepairPolicy::all(), chunk), (text, findings));
    }
}

/// A document of about `len` bytes cycling through clean CJK `lines`
/// (sentence, and a line break after it or not), after `pad` bytes of ASCII
/// that move where the block boundaries fall among multibyte characters,
/// with one sentence damaged as `damaged` says at about byte `at`.
fn long_document(
    lines: &[(usize, bool)],
    pad: usize,
    len: usize,
    damaged: (usize, u8),
    at: usize,
) -> Vec<u8> {
    let mut doc = vec![b'x'; pad];
    let mut pending = Some(damaged);
    for &(i, newline) in lines.iter().cycle() {
        if doc.len() >= len {
            break;
        }
        match pending.filter(|_| doc.len() >= at) {
            Some((d, how)) => {
                doc.extend(damage(SENTENCES[d], how));
                pending = None;
            }
            None => doc.extend_from_slice(SENTENCES[3 + i % 2].as_bytes()),
        }
        doc.push(if newline { b'\n' } else { b' ' });
    }
    doc
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    /// Streaming keeps its promise on long inputs (issue 18): lines over
    /// [`charsight::repair::MAX_BLOCK`] bytes and CJK text whose characters
    /// straddle the block boundaries repair the same one-shot as in 4 KiB
    /// chunks and in the CLI's 64 KiB chunks.
    #[test]
    fn r18_long_lines_and_cjk_repair_alike_in_any_chunks(
        lines in proptest::collection::vec((0usize..2, proptest::bool::weighted(0.01)), 1..6),
        pad in 0usize..4,
        len in 66_000usize..76_000,
        damaged in (0usize..8, 1u8..6),
        at in 10_000usize..70_000,
    ) {
        let doc = long_document(&lines, pad, len, damaged, at);
        let whole = repair_all(&doc, Charset::Utf8);
        for chunk in [4096, 64 * 1024] {
            let chunked = repair_chunked(&doc, Charset::Utf8, RepairPolicy::all(), chunk);
            prop_assert!(chunked == whole, "chunks of {} differ", chunk);
        }
    }
}

/// One line of about `len` bytes, every sentence of it damaged as `picks`
/// say in turn (issues 20 and 25: many repairs in every block).
fn damaged_line(picks: &[(usize, u8)], len: usize) -> Vec<u8> {
    let mut doc = Vec::new();
    for &(i, how) in picks.iter().cycle() {
        if doc.len() >= len {
            break;
        }
        doc.extend(damage(SENTENCES[i], how));
        doc.push(b' ');
    }
    doc
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    /// A line longer than two blocks, damaged throughout, repairs the same
    /// one-shot as in chunks of any size (issues 20 and 25).
    #[test]
    fn r25_a_long_damaged_line_repairs_alike_in_any_chunks(
        picks in proptest::collection::vec((0usize..8, 0u8..9), 1..8),
        chunk in 1_000usize..80_000,
    ) {
        let doc = damaged_line(&picks, 2 * charsight::repair::MAX_BLOCK + 5_000);
        let whole = repair_all(&doc, Charset::Utf8);
        let chunked = repair_chunked(&doc, Charset::Utf8, RepairPolicy::all(), chunk);
        prop_assert!(chunked == whole, "chunks of {} differ", chunk);
    }
}

/// A long damaged line, handed over whole, is repaired in time linear in
/// its length (issue 25): four times the text takes about four times as
/// long, not sixteen. The best of five runs of each, to ride out a busy
/// machine (the tests beside it, a fuzzer).
#[test]
fn r25_a_long_damaged_line_is_repaired_in_linear_time() {
    // Mojibake and stray windows-1252 letters between clean sentences:
    // repairs all along the line.
    let picks = [(0, 1), (7, 0), (0, 4), (4, 0)];
    let best = |len: usize| {
        let doc = damaged_line(&picks, len);
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                let (_, findings) = repair_all(&doc, Charset::Utf8);
                assert!(findings.len() > len / 200, "{} findings", findings.len());
                start.elapsed()
            })
            .min()
            .unwrap()
    };
    let (short, long) = (best(3 * 1024), best(12 * 1024));
    let ratio = long.as_secs_f64() / short.as_secs_f64();
    assert!(ratio < 8.0, "4x the text took {ratio:.1}x as long ({short:?}, then {long:?})");
}
