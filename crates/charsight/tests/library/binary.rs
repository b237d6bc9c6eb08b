//! Binary data, EBCDIC text and UTF-16/32 without a byte order mark.
//!
//! - `../shared/corpus-wide`: its binary files (folder `None`) are binary,
//!   its EBCDIC files are reported as EBCDIC and read in an EBCDIC code page
//!   (which one: `xtask compare`), and its UTF-16/32 files, with and without
//!   BOM, are detected as their encoding.
//! - The reproductions of the report that binary and EBCDIC input read as
//!   UTF-16: random bytes, every byte value in turn, gzip, ELF, EBCDIC.

use std::collections::BTreeMap;
use std::io::Write;

use charsight::detect::{Detector, Ebcdic, Guess};
use charsight::{Charset, Engine};

fn guess(bytes: &[u8]) -> Guess {
    let mut detector = Detector::new();
    detector.feed(bytes, true);
    detector.guess()
}

/// Whether the detection of `bytes` labelled `encoding` is right: binary
/// for `binary`, EBCDIC read in an EBCDIC code page for
/// the EBCDIC code pages, the encoding itself for UTF-16/32.
fn right(bytes: &[u8], encoding: &str) -> bool {
    let found = Engine::new().detect(bytes);
    let no_text = found.confidence == 0.0 && found.language.is_none() && found.font.is_none();
    match encoding {
        "binary" => found.binary && found.ebcdic.is_none() && no_text,
        "IBM037" | "IBM500" | "IBM1026" | "IBM875" | "IBM424" => {
            found.ebcdic.is_some() && !found.binary && found.charset.is_ebcdic()
        }
        _ => {
            let truth = charsight::label::resolve(encoding.as_bytes()).expect("a UTF label");
            found.charset == truth && !found.binary && found.ebcdic.is_none()
        }
    }
}

#[test]
fn corpus_wide_binary_ebcdic_and_wide_files() {
    let dir = testkit::shared_dir().join("corpus-wide");
    let labels = std::fs::read_to_string(dir.join("labels.tsv")).expect("corpus-wide/labels.tsv");
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for line in labels.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (name, encoding, notes) = (fields[0], fields[1], fields.get(5).unwrap_or(&""));
        let wide = encoding.starts_with("UTF-16") || encoding.starts_with("UTF-32");
        let ebcdic = matches!(encoding, "IBM037" | "IBM500" | "IBM1026" | "IBM875" | "IBM424");
        if !(wide || ebcdic || encoding == "binary") {
            continue;
        }
        let bytes = std::fs::read(dir.join(name)).expect("corpus-wide file");
        let ok = right(&bytes, encoding);
        let bom = if !wide {
            ""
        } else if notes.contains("with BOM") {
            " BOM"
        } else {
            " no BOM"
        };
        let entry = tally.entry(format!("{encoding}{bom}")).or_default();
        entry.0 += 1;
        entry.1 += usize::from(ok);
        if !ok {
            misses.push(name.to_owned());
        }
    }
    let mut out = std::io::stdout().lock();
    for (kind, (n, ok)) in &tally {
        writeln!(out, "{kind:<20} {ok:>3}/{n}").unwrap();
    }
    let files: usize = tally.values().map(|t| t.0).sum();
    assert!(files >= 300, "{files} files");
    assert!(misses.is_empty(), "{misses:#?}");
}

#[test]
fn random_bytes_are_binary_not_utf16() {
    for seed in 1..=4 {
        for len in [64, 512, 4096, 65536] {
            let g = guess(&testkit::random_bytes(seed, len));
            assert!(g.binary, "seed {seed}, {len} bytes: {:?}", g.charset);
            assert_eq!((g.confidence, g.language), (0.0, None));
            assert!(g
                .candidates
                .iter()
                .all(|c| !c.charset.is_unicode() || c.charset == Charset::Utf8));
        }
    }
}

/// `bytes(range(256))*20 + random` read as UTF-16LE with confidence 0.99.
#[test]
fn every_byte_value_then_random_is_binary_not_utf16() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(256 * 20).collect();
    bytes.extend(testkit::random_bytes(1, 5000));
    let found = Engine::new().detect(&bytes);
    assert!(found.binary);
    assert!(!matches!(found.charset, Charset::Utf16Le | Charset::Utf16Be));
    assert_eq!((found.confidence, found.language, found.font.is_none()), (0.0, None, true));
}

/// gzip and ELF had a language and "UTF-8 fragments".
#[test]
fn gzip_and_elf_have_no_language_and_no_fragments() {
    let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
    gzip.extend(testkit::random_bytes(5, 3000));
    let mut elf = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00".to_vec();
    elf.extend((0..4000u32).map(|i| if i % 5 == 0 { 0 } else { (i * 37 % 256) as u8 }));
    elf.extend("Grüße, café, naïve".as_bytes());
    for bytes in [gzip, elf] {
        let found = Engine::new().detect(&bytes);
        assert!(found.binary);
        assert_eq!((found.confidence, found.language), (0.0, None));
        assert_eq!(found.rule, charsight::Rule::Detected);
    }
}

/// cp037 text read as UTF-16LE with confidence 1.00.
#[test]
fn ebcdic_text_is_ebcdic_not_utf16() {
    let bytes = testkit::ebcdic_sample();
    let found = Engine::new().detect(&bytes);
    assert_eq!(found.ebcdic, Some(Ebcdic::Latin));
    assert!(!found.binary);
    // English reads alike in IBM037, IBM500 and IBM01140: the commonest.
    // (Its text is pure ASCII once decoded: no language, as for ASCII.)
    assert_eq!((found.charset, found.language), (Charset::Ibm037, None));
    assert!(found.confidence > 0.9, "{}", found.confidence);
}

#[test]
fn ebcdic_text_reads_in_an_ebcdic_default_or_declaration() {
    let bytes = testkit::ebcdic_sample();
    let found = Engine::new().default_encoding("cp500").detect(&bytes);
    assert_eq!((found.charset, found.ebcdic), (Charset::Ibm500, Some(Ebcdic::Latin)));
    assert!(found.confidence > 0.0);
    // An ASCII-compatible default does not read it.
    let found = Engine::new().default_encoding("windows-1252").detect(&bytes);
    assert!(found.charset.is_ebcdic());
    // Nor does an EBCDIC default read ASCII text.
    let found = Engine::new().default_encoding("IBM037").detect(b"plain ASCII text");
    assert!(found.charset.is_ascii_compatible());
    // An EBCDIC XML declaration names the code page.
    let mut xml =
        Charset::Ibm01141.encode("<?xml version='1.0' encoding='IBM01141'?><r>").0.into_owned();
    xml.extend(&bytes);
    let found = Engine::new().detect(&xml);
    assert_eq!(found.charset, Charset::Ibm01141);
}

#[test]
fn wide_text_without_bom_is_still_wide() {
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю. 日本語も少し。";
    for charset in [Charset::Utf16Le, Charset::Utf16Be, Charset::Utf32Le, Charset::Utf32Be] {
        let g = guess(&charset.encode(text).0);
        assert_eq!(g.charset, Some(charset));
        assert!(!g.binary && g.ebcdic.is_none() && g.confidence > 0.5);
    }
}

/// A few bytes of Big5-HKSCS (CPython's codec test line: ideographs of
/// plane 2, `Ê̄`, which WHATWG's Big5 decodes as a letter and a mark) were
/// UTF-16BE at confidence 1.00: 23 bytes, so the last one no code unit, and
/// without the letter and mark pairs Big5 was ruled out.
#[test]
fn hkscs_bytes_are_big5_not_utf16() {
    let bytes =
        b"\x88\x45\x88\x5c\x8a\x73\x8b\xda\x8d\xd8\n\x88\x66\x88\x62\x88\xa7 \x88\xa7\x88\xa3\n";
    let found = Engine::new().detect(bytes);
    assert_eq!(found.charset, Charset::Big5);
    assert!(found.confidence < 0.9, "{}", found.confidence);
    let text = Engine::new().decode(bytes).0;
    assert_eq!(text, "\u{2010C}\u{11A}鵮罓洆\nÊÊ\u{304}ê ê\u{EA}\u{304}\n");
}

#[test]
fn binary_declared_by_http_stays_binary() {
    let bytes = testkit::random_bytes(11, 2000);
    let found = Engine::new()
        .content_type("text/plain; charset=windows-1251")
        .policy(charsight::Policy::Whatwg)
        .detect(&bytes);
    assert!(found.binary);
    assert_eq!(found.charset, Charset::Windows1251);
    assert_eq!((found.confidence, found.language), (0.0, None));
}
