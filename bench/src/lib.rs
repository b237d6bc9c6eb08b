//! Benchmarks of charsight live in `benches/`, one file per area; run them
//! with `cargo bench -p charsight-bench`. This library holds the inputs they
//! share, built from `../shared/text`.

use charsight::Charset;

/// The size of the whole-file inputs.
pub const SIZE: usize = 256 << 10;

/// Lines of a language's text, repeated to about [`SIZE`] bytes, as plain
/// lines or inside HTML markup.
pub fn text(language: &str, markup: bool) -> String {
    let lines = testkit::text_lines(language, false);
    let mut out = String::new();
    for (i, line) in lines.iter().cycle().enumerate() {
        if out.len() >= SIZE {
            break;
        }
        if markup {
            out.push_str(&format!(
                "<div class=\"item i{}\"><a href=\"/articles/{i}.html\" title=\"article {i}\">{i}</a> \
                 <span style=\"color: #333\">{line}</span></div>\n",
                i % 5
            ));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The whole-file inputs: an ASCII-heavy HTML page (English and French in
/// windows-1252 inside markup), Japanese text in Shift_JIS and Russian text
/// in windows-1251, each about [`SIZE`] bytes.
pub fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut html = text("en", true);
    html.push_str(&text("fr", true)[..SIZE / 8]);
    vec![
        ("html-windows-1252", Charset::Windows1252.encode(&html).0.into_owned()),
        ("ja-shift_jis", Charset::ShiftJis.encode(&text("ja", false)).0.into_owned()),
        ("ru-windows-1251", Charset::Windows1251.encode(&text("ru", false)).0.into_owned()),
    ]
}

/// Short inputs: the first `len` bytes of held-out lines of several
/// languages in their legacy encodings and in UTF-8 (cut at a character
/// boundary), 64 in all.
pub fn short(len: usize) -> Vec<Vec<u8>> {
    let sets = [
        ("en", Charset::Windows1252),
        ("fr", Charset::Windows1252),
        ("de", Charset::Utf8),
        ("ru", Charset::Windows1251),
        ("el", Charset::Iso8859_7),
        ("ja", Charset::ShiftJis),
        ("zh-Hans", Charset::Gbk),
        ("ko", Charset::EucKr),
    ];
    let mut out = Vec::new();
    for (language, charset) in sets {
        for line in testkit::text_lines(language, true).iter().filter(|l| l.len() >= len).take(8) {
            let mut end = len.min(line.len());
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            let mut bytes = charset.encode(&line[..end]).0.into_owned();
            bytes.truncate(len);
            out.push(bytes);
        }
    }
    out
}
