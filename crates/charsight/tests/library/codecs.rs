//! The corpus files in encodings with charsight's own codecs (and two
//! WHATWG single-byte neighbours) decode without a malformed byte, and
//! encode back to the same bytes.

use charsight::{label, Charset};

#[test]
fn corpus_files_decode_cleanly_and_round_trip() {
    let wanted = ["IBM855", "IBM866", "Johab", "ISO-2022-KR", "x-mac-cyrillic"];
    let mut seen = Vec::new();
    for file in testkit::corpus().into_iter().filter(|f| wanted.contains(&f.encoding.as_str())) {
        let charset = label::resolve(file.encoding.as_bytes()).expect("corpus label resolves");
        let bytes = std::fs::read(&file.path).expect("corpus file");
        let mut decoder = charset.new_decoder();
        let mut text = String::new();
        let mut malformed = Vec::new();
        for (i, chunk) in bytes.chunks(1000).enumerate() {
            let last = (i + 1) * 1000 >= bytes.len();
            decoder.decode_to_string(chunk, &mut text, last, |_, m| malformed.push(m));
        }
        assert!(malformed.is_empty(), "{}: {charset}: {malformed:?}", file.name);
        assert_eq!(charset.decode(&bytes), (text.as_str().into(), false), "{}", file.name);
        let (encoded, unmappable) = charset.encode(&text);
        assert!(!unmappable, "{}", file.name);
        assert!(encoded == bytes, "{}: {charset} does not encode back", file.name);
        seen.push(charset);
    }
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(
        seen,
        [
            Charset::Ibm866,
            Charset::XMacCyrillic,
            Charset::Ibm855,
            Charset::Johab,
            Charset::Iso2022Kr
        ]
    );
}

#[test]
fn declared_extra_charsets_are_used() {
    use charsight::{Engine, Source};
    // ISO-2022-KR is not ASCII-compatible, but its declaration is ASCII and
    // the prescan reads it (as it reads ISO-2022-JP's).
    let page = b"\x1b$)C<meta charset=iso-2022-kr>\x0e\x30\x21\x0f";
    let found = Engine::new().detect(page);
    assert_eq!((found.charset, found.source), (Charset::Iso2022Kr, Source::Meta));
    assert_eq!(found.charset.decode(page).0, "<meta charset=iso-2022-kr>가");

    let found = Engine::new().content_type("text/plain; charset=cp437").detect(b"\x80");
    assert_eq!((found.charset, found.source), (Charset::Ibm437, Source::Http));
    let xml = b"<?xml version='1.0' encoding='EUC-TW'?><a>\xc4\xe3</a>";
    assert_eq!(Engine::new().detect(xml).charset, Charset::EucTw);
}
