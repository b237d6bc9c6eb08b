//! The `ncr` repair: runs of numeric character references whose code
//! points are really the bytes of a string in another encoding.
//!
//! A GBK string "你好" (C4 E3 BA C3) pasted into a form of a windows-1252
//! page comes back as `&#196;&#227;&#186;&#195;`, which a browser shows as
//! "ÄãºÃ"; UTF-8 "café" read as windows-1252 and written as references
//! comes back as `caf&#195;&#169;`. Each reference to a code point up to
//! U+00FF stands for that byte; references to the characters windows-1252
//! puts at 0x80–0x9F (`&#8364;` for 0x80) stand for those bytes. A run of
//! such references, with the short stretches of plain ASCII between them
//! (ASCII bytes of the string are written as themselves), is decoded in
//! each candidate encoding; the most plausible decode replaces the run when
//! it is at least [`MARGIN`] bits cheaper than what the references show.
//! Ordinary references (`caf&#233;`) show plausible text already and stay.

use std::collections::HashMap;
use std::ops::Range;

use super::score::{self, Share, Window};
use super::{Cause, Edit, Kind, LEGACY};
use crate::Charset;

/// The gain (bits) a repair needs.
pub(crate) const MARGIN: f32 = 12.0;

/// High bytes (other than no-break spaces) a line's runs need for a legacy
/// reading of them.
const MIN_LEGACY_BYTES: usize = 4;

/// Longest stretch of plain ASCII inside a run.
const MAX_GAP: usize = 16;

/// The encodings the bytes may be in: UTF-8 (mojibake written as
/// references, `caf&#195;&#169;`), and every legacy one but windows-1252,
/// whose reading is what the references show.
fn candidates() -> impl Iterator<Item = Charset> {
    let legacy = LEGACY.into_iter().filter(|&c| c != Charset::Windows1252);
    std::iter::once(Charset::Utf8).chain(legacy)
}

/// A reference at the start of `s` (`&#196;`, `&#xC4;`, `&Auml;`): its
/// length and the byte it stands for.
fn byte_reference(s: &str) -> Option<(usize, u8)> {
    let (len, code) = numeric_reference(s).or_else(|| named_reference(s))?;
    let byte = match code {
        0..=0x1F => return None,
        0x20..=0xFF => code as u8,
        _ => {
            let c = char::from_u32(code)?;
            let mut buf = [0; 4];
            let (bytes, unmappable) = Charset::Windows1252.encode(c.encode_utf8(&mut buf));
            match *bytes {
                [b] if !unmappable && b >= 0x80 => b,
                _ => return None,
            }
        }
    };
    Some((len, byte))
}

/// A numeric reference at the start of `s`: its length and code point.
fn numeric_reference(s: &str) -> Option<(usize, u32)> {
    let rest = s.strip_prefix("&#")?;
    let (digits, radix, skip) = match rest.strip_prefix(['x', 'X']) {
        Some(hex) => (hex, 16, 3),
        None => (rest, 10, 2),
    };
    let len = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    if len == 0 || len > 7 || !digits[len..].starts_with(';') {
        return None;
    }
    Some((skip + len + 1, u32::from_str_radix(&digits[..len], radix).ok()?))
}

/// Longest name of a named reference to a byte: the Latin-1 and
/// windows-1252 characters' names (`Atilde`, `hellip`).
const MAX_NAME: usize = 6;

/// A named reference at the start of `s` (`&Atilde;`, as PHP's
/// `htmlentities` wrote UTF-8 it took for ISO-8859-1): its length and the
/// code point HTML gives it (decoded by `html5gum`).
fn named_reference(s: &str) -> Option<(usize, u32)> {
    let rest = s.strip_prefix('&')?;
    let len = rest.find(|c: char| !c.is_ascii_alphanumeric())?;
    if len == 0 || len > MAX_NAME || !rest[len..].starts_with(';') {
        return None;
    }
    let reference = &s[..len + 2];
    let mut text = Vec::new();
    for token in html5gum::Tokenizer::new(reference).flatten() {
        if let html5gum::Token::String(part) = token {
            text.extend_from_slice(&part);
        }
    }
    let text = String::from_utf8(text).ok()?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c != '&' => Some((len + 2, u32::from(c))),
        _ => None,
    }
}

/// Whether a reference to `byte` may be text in another encoding: a high
/// byte other than the no-break space (`&nbsp;&nbsp;` is spacing, though
/// `A0 A0` is `牋` in GBK).
fn is_text(byte: u8) -> bool {
    byte >= 0x80 && byte != 0xA0
}

/// The runs of byte references in `line`: their byte range in the line,
/// the bytes they stand for, and whether two references to high bytes
/// stand side by side in it.
fn runs(line: &str) -> Vec<(Range<usize>, Vec<u8>, bool)> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = line[at..].find('&') {
        let start = at + i;
        let Some((len, byte)) = byte_reference(&line[start..]) else {
            at = start + 1;
            continue;
        };
        let mut bytes = vec![byte];
        let mut end = start + len;
        let mut paired = false;
        loop {
            let rest = &line[end..];
            let gap = rest
                .find(|c: char| !c.is_ascii() || matches!(c, '&' | '<' | '>'))
                .unwrap_or(rest.len());
            if gap > MAX_GAP {
                break;
            }
            let Some((len, next)) = byte_reference(&rest[gap..]) else { break };
            let last = bytes[bytes.len() - 1];
            let high = last >= 0x80 && next >= 0x80;
            paired |= gap == 0 && high && (is_text(last) || is_text(next));
            bytes.extend_from_slice(&rest.as_bytes()[..gap]);
            bytes.push(next);
            end += gap + len;
        }
        if bytes.iter().any(|&b| is_text(b)) {
            found.push((start..end, bytes, paired));
        }
        at = end;
    }
    found
}

/// The `ncr` repairs of a block of text, as edits of it.
pub(crate) fn repair_text(text: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    if memchr::memchr(b'&', text.as_bytes()).is_none() {
        return edits;
    }
    // A line that comes again in the block is repaired as it was the first
    // time, not weighed again.
    let mut seen: HashMap<&str, Vec<Edit>> = HashMap::new();
    let mut start = 0;
    for line in super::lines(text) {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if memchr::memchr(b'&', body.as_bytes()).is_some() {
            let repaired = seen.entry(body).or_insert_with(|| repair_line(body));
            edits.extend(
                repaired.iter().map(|e| Edit {
                    range: start + e.range.start..start + e.range.end,
                    ..e.clone()
                }),
            );
        }
        start += line.len();
    }
    edits
}

/// The `ncr` repairs of `line` (no line break in it), as edits of it.
fn repair_line(line: &str) -> Vec<Edit> {
    if !line.contains('&') {
        return Vec::new();
    }
    let mut edits = Vec::new();
    // A line is weighed when two references to high bytes stand side by
    // side in it (a character of more than one byte, or two letters
    // together); a line of ordinary references to accented letters here
    // and there (`caf&#233;`, `&Yacute;mis`) is not.
    let runs = runs(line);
    if !runs.iter().any(|r| r.2) {
        return edits;
    }
    // Scored as a browser shows the line: every byte reference as its
    // character, so that the references around a run tell its language.
    let shown = Shown::new(line);
    let runs: Vec<Run> =
        runs.into_iter().map(|(range, bytes, _)| Run::new(line, range, bytes)).collect();
    // The hidden text of a line came one way, if any: the encoding whose
    // readings of all the runs cost least (a run it cannot read costs as
    // shown), when that is at least the margin less than the references
    // as they show.
    let mut totals: Vec<(Option<Charset>, f32)> = candidates().map(|c| (Some(c), 0.0)).collect();
    totals.push((None, 0.0));
    for run in &runs {
        let window = Window::new(&shown.text, shown.range(&run.stretch), None);
        let texts: Vec<&str> = run.readings.iter().map(|r| r.0.as_str()).collect();
        let verdicts = window.judge(&run.shown, &texts, false);
        for (charset, total) in &mut totals {
            *total += match run.readings.iter().position(|r| Some(r.1) == *charset) {
                Some(i) => verdicts.costs[i] + charset.map_or(0.0, score::prior),
                None => verdicts.original,
            };
        }
    }
    let as_shown = totals.iter().find(|(c, _)| c.is_none()).map_or(0.0, |&(_, t)| t);
    let Some(&(Some(leader), total)) = totals.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return edits;
    };
    // Each run is judged in the line as the leader reads all of them.
    let read: Vec<Option<usize>> =
        runs.iter().map(|run| run.readings.iter().position(|r| r.1 == leader)).collect();
    // Mojibake written as references needs the margin a mojibake repair
    // does: more where the line's other text is left as it is (a quoted
    // example of mojibake in a text about it).
    let margin = if leader == Charset::Utf8 {
        let covered = runs.iter().zip(&read).filter(|(_, i)| i.is_some());
        let shows = |run: &Run| run.shown.chars().filter(|&c| score::tells_language(c)).count();
        let covered = covered.map(|(run, _)| shows(run)).sum();
        Share::of(&shown.text, covered).margin(Share::default(), MARGIN)
    } else {
        MARGIN
    };
    if as_shown - total < margin {
        return edits;
    }
    // A legacy reading of a character or two, or of one byte over and
    // over, is chance: `&raquo;&raquo;` is `换` in GBK (`BB BB`), and so is
    // a row of them. UTF-8's own structure is evidence enough.
    let mut shown_text: Vec<char> = runs
        .iter()
        .zip(&read)
        .filter(|(_, i)| i.is_some())
        .flat_map(|(run, _)| run.shown.chars().filter(|&c| !c.is_ascii() && c != '\u{A0}'))
        .collect();
    let text_bytes = shown_text.len();
    shown_text.sort_unstable();
    shown_text.dedup();
    if leader != Charset::Utf8 && (text_bytes < MIN_LEGACY_BYTES || shown_text.len() < 2) {
        return edits;
    }
    let mut all = String::new();
    let mut last = 0;
    let mut at = Vec::new();
    for (run, &i) in runs.iter().zip(&read) {
        let range = shown.range(&run.stretch);
        all.push_str(&shown.text[last..range.start]);
        let start = all.len();
        all.push_str(i.map_or(run.shown.as_str(), |i| run.readings[i].0.as_str()));
        at.push(start..all.len());
        last = range.end;
    }
    all.push_str(&shown.text[last..]);
    for ((run, i), range) in runs.into_iter().zip(read).zip(at) {
        let Some(i) = i else { continue };
        let context = [&all[..range.start], &all[range.end..]].join(" ");
        let window = Window::new(&all, range, score::line_language(&context));
        let Some((_, gain)) = window.choose(&run.shown, &[&run.readings[i].0], true) else {
            continue;
        };
        if gain < margin {
            continue;
        }
        let (mut text, charset, took_next) = run.readings[i].clone();
        let range = if took_next {
            run.stretch
        } else {
            text.truncate(text.len() - run.tail_len);
            run.stretch.start..run.stretch.end - run.tail_len
        };
        edits.push(Edit {
            range,
            after: text,
            kind: Kind::Ncr,
            cause: Cause::References(charset),
            confidence: score::confidence(gain, margin),
        });
    }
    edits
}

/// A run of byte references and its readings.
struct Run {
    /// The run and the ASCII character after it, which a multibyte reading
    /// may take as its last trail byte (every reading covers it).
    stretch: Range<usize>,
    tail_len: usize,
    /// What the references show (windows-1252, as browsers map them), and
    /// the character after.
    shown: String,
    /// Each candidate that reads the bytes cleanly: the text of the
    /// stretch, the encoding, whether it took the character after.
    readings: Vec<(String, Charset, bool)>,
}

impl Run {
    fn new(line: &str, range: Range<usize>, bytes: Vec<u8>) -> Run {
        let next = line[range.end..].chars().next().filter(char::is_ascii_graphic);
        let tail = next.map(String::from).unwrap_or_default();
        let mut readings = Vec::new();
        for charset in candidates() {
            match decode(charset, &bytes) {
                Some(text) => readings.push((text + &tail, charset, false)),
                None if !charset.is_single_byte() => {
                    let Some(c) = next else { continue };
                    let mut longer = bytes.clone();
                    longer.push(c as u8);
                    if let Some(text) = decode(charset, &longer) {
                        readings.push((text, charset, true));
                    }
                }
                None => {}
            }
        }
        let shown = Charset::Windows1252.decode(&bytes).0.into_owned() + &tail;
        Run { stretch: range.start..range.end + tail.len(), tail_len: tail.len(), shown, readings }
    }
}

/// A line as a browser shows it: each byte reference replaced by the
/// character it shows (windows-1252 for bytes 0x80–0x9F).
struct Shown {
    text: String,
    /// For each reference: its start in the line, and how much longer the
    /// text is than the line before it and after it.
    marks: Vec<(usize, isize, isize)>,
}

impl Shown {
    fn new(line: &str) -> Shown {
        let mut text = String::with_capacity(line.len());
        let mut marks = Vec::new();
        let mut last = 0;
        let mut shift = 0_isize;
        while let Some(i) = line[last..].find('&') {
            let at = last + i;
            text.push_str(&line[last..at]);
            match byte_reference(&line[at..]) {
                Some((len, byte)) => {
                    let bytes = [byte];
                    let shown = Charset::Windows1252.decode(&bytes).0;
                    text.push_str(&shown);
                    let after = shift + shown.len() as isize - len as isize;
                    marks.push((at, shift, after));
                    shift = after;
                    last = at + len;
                }
                None => {
                    text.push('&');
                    last = at + 1;
                }
            }
        }
        text.push_str(&line[last..]);
        Shown { text, marks }
    }

    /// Where `range` of the line (its ends at references' starts or
    /// outside every reference) is in the text.
    fn range(&self, range: &Range<usize>) -> Range<usize> {
        self.at(range.start)..self.at(range.end)
    }

    /// Where offset `at` of the line (at a reference's start, or outside
    /// every reference) is in the text.
    fn at(&self, at: usize) -> usize {
        let shift = match self.marks.partition_point(|&(start, _, _)| start <= at).checked_sub(1) {
            None => 0,
            Some(j) if self.marks[j].0 == at => self.marks[j].1,
            Some(j) => self.marks[j].2,
        };
        (at as isize + shift) as usize
    }
}

/// `bytes` decoded in `charset`, if they decode cleanly to text without
/// control characters.
fn decode(charset: Charset, bytes: &[u8]) -> Option<String> {
    let text =
        charset.to_encoding_rs()?.decode_without_bom_handling_and_without_replacement(bytes)?;
    (!text.chars().any(char::is_control)).then(|| text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` encoded in `charset`, each byte above 0x7F written as a
    /// reference (bytes 0x80–0x9F by their windows-1252 character).
    fn references(text: &str, charset: Charset) -> String {
        let shown = |b: u8| Charset::Windows1252.decode(&[b]).0.chars().next().map_or(0, u32::from);
        let bytes = charset.encode(text).0;
        bytes
            .iter()
            .map(|&b| if b < 0x80 { char::from(b).to_string() } else { format!("&#{};", shown(b)) })
            .collect()
    }

    #[test]
    fn lines_are_scored_as_shown() {
        let line = "a&#233;b &amp; &#x41;c";
        let shown = Shown::new(line);
        assert_eq!(shown.text, "aéb &amp; Ac");
        assert_eq!(shown.at(1), 1);
        assert_eq!(shown.at(7), 3);
        assert_eq!(shown.at(15), 11);
        assert_eq!(shown.at(line.len()), shown.text.len());
    }

    #[test]
    fn references_stand_for_bytes() {
        assert_eq!(byte_reference("&#196;x"), Some((6, 0xC4)));
        assert_eq!(byte_reference("&#xc4;"), Some((6, 0xC4)));
        assert_eq!(byte_reference("&#8364;"), Some((7, 0x80)));
        assert_eq!(byte_reference("&#9731;"), None, "a snowman is a character, not a byte");
        assert_eq!(byte_reference("&#196"), None);
        assert_eq!(byte_reference("&#10;"), None);
        assert_eq!(byte_reference("&Atilde;&copy;"), Some((8, 0xC3)));
        assert_eq!(byte_reference("&euro;"), Some((6, 0x80)));
        assert_eq!(byte_reference("&amp;"), None, "an ampersand");
        assert_eq!(byte_reference("&hearts;"), None, "a character, not a byte");
        assert_eq!(byte_reference("&nosuch;"), None);
    }

    #[test]
    fn runs_take_short_ascii_gaps() {
        let line = references("ソフトウェア Windows です", Charset::ShiftJis);
        let found = runs(&line);
        assert_eq!(found.len(), 1, "{line}");
        assert_eq!(found[0].1, Charset::ShiftJis.encode("ソフトウェア Windows です").0.to_vec());
    }

    #[test]
    fn decodes_references_to_legacy_bytes() {
        for (text, charset) in [
            ("你好，世界！这是一个测试。", Charset::Gbk),
            ("繁體中文的測試文字", Charset::Big5),
            ("안녕하세요, 세계! 시험입니다.", Charset::EucKr),
            ("こんにちは、世界。テストです。", Charset::ShiftJis),
            ("Привет, мир! Это тест.", Charset::Windows1251),
            // Mojibake written as references.
            ("Un café au lait, une crème brûlée.", Charset::Utf8),
            ("Съешь же ещё этих мягких булок.", Charset::Utf8),
            ("“Quoted” text, 5 €.", Charset::Utf8),
        ] {
            let mut line = format!("<p>{}</p>", references(text, charset));
            let edits = repair_line(&line);
            assert_eq!(edits.len(), 1, "{line}");
            assert_eq!(edits[0].cause, Cause::References(charset));
            line.replace_range(edits[0].range.clone(), &edits[0].after);
            assert_eq!(line, format!("<p>{text}</p>"));
        }
    }

    #[test]
    fn decodes_named_references_to_utf8_bytes() {
        // UTF-8 through PHP's `htmlentities` when it took ISO-8859-1.
        for (line, text) in [
            (
                "<p>Un caf&Atilde;&copy; cr&Atilde;&uml;me, na&Atilde;&macr;ve.</p>",
                "<p>Un café crème, naïve.</p>",
            ),
            (
                "It&acirc;&euro;&trade;s &acirc;&euro;&oelig;fine&acirc;&euro;&#157; today",
                "It’s “fine” today",
            ),
        ] {
            let mut repaired = line.to_owned();
            for e in repair_line(line).iter().rev() {
                repaired.replace_range(e.range.clone(), &e.after);
            }
            assert_eq!(repaired, text, "{line}");
        }
    }

    #[test]
    fn leaves_ordinary_references_alone() {
        for line in [
            "caf&#233; cr&#232;me br&#251;l&#233;e",
            "&#169; 2024 &#8212; all rights reserved",
            "Gr&#252;&#223;e aus K&#246;ln",
            "M&#228;rchen &#252;ber S&#246;hne",
            "caf&eacute; cr&egrave;me br&ucirc;l&eacute;e &amp; &copy; 2024 &mdash; &hellip;",
            "Gr&uuml;&szlig;e &amp; &laquo;Stra&szlig;e&raquo; &nbsp;&nbsp; &euro;5",
            // `A0 A0` is `牋` in GBK: runs of no-break spaces are spacing;
            // `BB BB` is `换`.
            "<p>更多&raquo;&raquo;</p><p>首页&nbsp;&raquo;&nbsp;新闻&nbsp;&copy;&nbsp;2024</p>",
            "<p>下一页&raquo;&raquo;&raquo;&raquo;</p>",
            "<p>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;中文的网页内容&#160;&#160;&#160;&#160;</p>",
            "<p>&nbsp;&nbsp;&nbsp;&nbsp;한국어 웹 페이지&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;</p>",
        ] {
            assert!(repair_line(line).is_empty(), "{line}");
        }
    }
}
