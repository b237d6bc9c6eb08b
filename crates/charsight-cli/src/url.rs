//! `charsight url`: rewrites the URLs in each line of a log (or a list of
//! URLs) so their non-ASCII parts read right, whatever encoding they were
//! escaped in.
//!
//! Every input line gives exactly one output line, in order; lines without
//! a URL, or whose URL needs nothing, come out byte for byte. Lines are read
//! in blocks of [`BLOCK`] bytes; pure-ASCII lines without escapes of
//! non-ASCII bytes take a fast path that copies them. With `--jobs N`, N
//! threads work on blocks while the output keeps the input's order; memory
//! stays bounded by a few blocks per thread.
//!
//! JSON Lines schema (version 2), one object per input line:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `version` | number | the schema's version, 2 |
//! | `input` | string | the line (without its line break); bytes that are not UTF-8 replaced |
//! | `input_base64` | string, optional | the line's raw bytes, only when they are not UTF-8 |
//! | `line` | string | the line as the text output gives it: its URLs rewritten (readable with `--iri`) |
//! | `url` | string or null | the line's first URL that escapes non-ASCII bytes, rewritten as UTF-8 percent-encoding; null when there is none |
//! | `iri` | string or null | that URL in readable form |
//! | `components` | array | per component that had non-ASCII bytes: `part` (`host`, `path[N]`, `query[N].key`, `query[N].value`, `fragment`), `encoding`, `confidence`, and `kept` (`low confidence` or `broken escapes`) when it was left as it was |
//! | `changed` | bool | whether `line` differs from the input |
//!
//! Version 1 gave the whole rewritten line as `url` and `iri`.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use base64::Engine as _;
use charsight::url::{is_url, needs_decoding, DecodedUrl, HostHints, UrlDecoder};
use serde::Serialize;

use crate::args::{Format, UrlArgs};
use crate::Status;
use charsight::round3;

/// Bytes read at a time; each block is processed whole.
const BLOCK: usize = 256 * 1024;

/// The built-in site hints plus those of `path`.
fn host_hints(path: &std::path::Path) -> Result<HostHints> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading host hints {}", path.display()))?;
    let mine = HostHints::parse(&text).with_context(|| format!("{}", path.display()))?;
    let mut hints = HostHints::built_in();
    hints.extend(mine);
    Ok(hints)
}

/// Which part of a line is the URL.
enum Selector {
    /// Every token that looks like a URL.
    Tokens,
    /// Whitespace-separated field N (0-based here).
    Field(usize),
    /// The first capture group of the first match.
    Regex(regex::bytes::Regex),
}

/// Everything a worker needs to rewrite lines.
struct Rewriter {
    decoder: UrlDecoder,
    selector: Selector,
    iri: bool,
    jsonl: bool,
}

/// Runs `charsight url`.
pub fn run(args: &UrlArgs, out: &mut impl Write) -> Result<Status> {
    let mut decoder = UrlDecoder::new().min_confidence(args.min_confidence);
    if let Some(tld) = &args.tld {
        decoder = decoder.tld(tld);
    }
    if let Some(path) = &args.host_hints {
        decoder = decoder.host_hints(host_hints(path)?);
    }
    let selector = match (&args.field, &args.regex) {
        (Some(n), _) => Selector::Field(*n as usize - 1),
        (None, Some(re)) => Selector::Regex(re.clone()),
        (None, None) => Selector::Tokens,
    };
    let rewriter =
        Rewriter { decoder, selector, iri: args.iri, jsonl: args.format == Format::Jsonl };
    let (input, name): (Box<dyn Read + Send>, String) = match &args.path {
        Some(path) if path.as_os_str() != "-" => {
            let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
            (Box::new(file), path.display().to_string())
        }
        _ => (Box::new(io::stdin()), "standard input".to_owned()),
    };
    // More threads than cores only cost memory (and too many cannot start).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = usize::from(args.jobs).min(cores);
    if jobs == 1 {
        let mut buf = Vec::with_capacity(BLOCK * 2);
        for_each_block(input, |block| {
            buf.clear();
            rewriter.block(&block, &mut buf);
            out.write_all(&buf)
        })
        .with_context(|| format!("reading {name}"))?;
    } else {
        parallel(&rewriter, (input, &name), jobs, out)?;
    }
    Ok(Status::Success)
}

/// The longest line rewritten; the rest of a longer line passes through as
/// it is, so memory stays bounded whatever the input.
const MAX_LINE: usize = 1024 * 1024;

/// A piece of the input: whole lines (the last one may lack its line
/// break), or, when `raw`, part of a line longer than [`MAX_LINE`] to pass
/// through untouched.
struct Block {
    bytes: Vec<u8>,
    raw: bool,
}

/// Reads `input` in blocks and hands each to `f`.
fn for_each_block(
    mut input: impl Read,
    mut f: impl FnMut(Block) -> io::Result<()>,
) -> io::Result<()> {
    let mut carry = Vec::new();
    // Inside a line longer than MAX_LINE: pass through up to its end.
    let mut skipping = false;
    loop {
        let mut bytes = std::mem::take(&mut carry);
        let start = bytes.len();
        bytes.resize(start + BLOCK, 0);
        let n = loop {
            match input.read(&mut bytes[start..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        bytes.truncate(start + n);
        if n == 0 {
            return if bytes.is_empty() { Ok(()) } else { f(Block { bytes, raw: skipping }) };
        }
        if skipping {
            let Some(end) = memchr::memchr(b'\n', &bytes) else {
                f(Block { bytes, raw: true })?;
                continue;
            };
            carry = bytes.split_off(end + 1);
            skipping = false;
            f(Block { bytes, raw: true })?;
        } else if let Some(end) = memchr::memrchr(b'\n', &bytes) {
            carry = bytes.split_off(end + 1);
            f(Block { bytes, raw: false })?;
        } else if bytes.len() > MAX_LINE {
            skipping = true;
            f(Block { bytes, raw: true })?;
        } else {
            carry = bytes;
        }
    }
}

/// `jobs` threads rewrite blocks; the calling thread writes them in order.
/// Each block travels with the channel its result comes back on, and those
/// channels queue in input order, so at most a few blocks per thread are in
/// flight.
fn parallel(
    rewriter: &Rewriter,
    (input, name): (Box<dyn Read + Send>, &str),
    jobs: usize,
    out: &mut impl Write,
) -> Result<()> {
    type Work = (Block, SyncSender<Vec<u8>>);
    let (work_tx, work_rx) = sync_channel::<Work>(jobs);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (order_tx, order_rx) = sync_channel::<Receiver<Vec<u8>>>(jobs * 2);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            scope.spawn(move || loop {
                let next = work_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((block, done))) = next else { return };
                let mut buf = Vec::with_capacity(block.bytes.len() + block.bytes.len() / 4);
                rewriter.block(&block, &mut buf);
                if done.send(buf).is_err() {
                    return;
                }
            });
        }
        let reader = scope.spawn(move || {
            for_each_block(input, |block| {
                let (done_tx, done_rx) = sync_channel(1);
                let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "output closed");
                order_tx.send(done_rx).map_err(|_| closed())?;
                work_tx.send((block, done_tx)).map_err(|_| closed())
            })
        });
        let mut written = Ok(());
        for done in order_rx {
            let Ok(buf) = done.recv() else { break };
            written = out.write_all(&buf);
            if written.is_err() {
                break;
            }
        }
        // Dropping the receiver (on an early stop) ends the reader.
        let read = reader.join().expect("the reader thread does not panic");
        written?;
        match read {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other.with_context(|| format!("reading {name}")),
        }
    })
}

impl Rewriter {
    /// Rewrites a block of whole lines into `out`, one output line per line.
    fn block(&self, block: &Block, out: &mut Vec<u8>) {
        if block.raw {
            out.extend_from_slice(&block.bytes);
            return;
        }
        let block = &block.bytes[..];
        let mut start = 0;
        while start < block.len() {
            let end = memchr::memchr(b'\n', &block[start..]).map_or(block.len(), |i| start + i + 1);
            let with_break = &block[start..end];
            let line = with_break.strip_suffix(b"\n").unwrap_or(with_break);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line_break = &with_break[line.len()..];
            if !self.jsonl && !needs_decoding(line) {
                out.extend_from_slice(with_break);
            } else {
                self.line(line, out);
                out.extend_from_slice(line_break);
            }
            start = end;
        }
    }

    /// Rewrites one line (without its line break).
    fn line(&self, line: &[u8], out: &mut Vec<u8>) {
        let spans = self.urls(line);
        let decoded: Vec<(Range<usize>, DecodedUrl)> = spans
            .into_iter()
            .filter(|span| needs_decoding(&line[span.clone()]))
            .map(|span| {
                let found = self.decoder.decode(&line[span.clone()]);
                (span, found)
            })
            .collect();
        let form = |iri: bool| {
            let mut text = Vec::with_capacity(line.len() * 2);
            let mut at = 0;
            for (span, found) in &decoded {
                text.extend_from_slice(&line[at..span.start]);
                text.extend_from_slice(if iri {
                    found.iri.as_bytes()
                } else {
                    found.url.as_bytes()
                });
                at = span.end;
            }
            text.extend_from_slice(&line[at..]);
            text
        };
        let rewritten = form(self.iri);
        if !self.jsonl {
            out.extend_from_slice(&rewritten);
            return;
        }
        let first = decoded.first().map(|(_, found)| found);
        let record = JsonLine {
            version: charsight::REPORT_VERSION,
            input: String::from_utf8_lossy(line),
            input_base64: std::str::from_utf8(line)
                .is_err()
                .then(|| base64::engine::general_purpose::STANDARD.encode(line)),
            changed: rewritten != line,
            line: String::from_utf8_lossy(&rewritten).into_owned(),
            url: first.map(|found| found.url.clone()),
            iri: first.map(|found| found.iri.clone()),
            components: decoded
                .iter()
                .flat_map(|(_, found)| &found.components)
                .map(|c| JsonComponent {
                    part: c.part.to_string(),
                    encoding: c.charset.name(),
                    confidence: round3(c.confidence),
                    kept: c.kept.map(|kept| kept.as_str()),
                })
                .collect(),
        };
        serde_json::to_writer(&mut *out, &record).expect("writing JSON to a Vec");
    }

    /// The spans of the line that are URLs.
    fn urls(&self, line: &[u8]) -> Vec<Range<usize>> {
        match &self.selector {
            Selector::Tokens => tokens(line)
                .filter(|t| needs_decoding(&line[t.clone()]) && is_url(&line[t.clone()]))
                .collect(),
            Selector::Field(n) => tokens(line).nth(*n).into_iter().collect(),
            Selector::Regex(re) => {
                re.captures(line).and_then(|c| c.get(1)).map(|m| m.range()).into_iter().collect()
            }
        }
    }
}

/// The spans of the whitespace-separated tokens of a line.
fn tokens(line: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + line[at..].iter().position(|b| !b.is_ascii_whitespace())?;
        let end = line[start..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(line.len(), |i| start + i);
        at = end;
        Some(start..end)
    })
}

#[derive(Serialize)]
struct JsonLine<'a> {
    version: u32,
    input: std::borrow::Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_base64: Option<String>,
    line: String,
    url: Option<String>,
    iri: Option<String>,
    components: Vec<JsonComponent>,
    changed: bool,
}

#[derive(Serialize)]
struct JsonComponent {
    part: String,
    encoding: &'static str,
    confidence: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewriter(selector: Selector, iri: bool, jsonl: bool) -> Rewriter {
        Rewriter { decoder: UrlDecoder::new(), selector, iri, jsonl }
    }

    fn run_block(r: &Rewriter, input: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        r.block(&Block { bytes: input.to_vec(), raw: false }, &mut out);
        out
    }

    #[test]
    fn tokens_split_on_ascii_whitespace() {
        let line = b"  a\tbb  c ";
        let spans: Vec<_> = tokens(line).map(|r| &line[r]).collect();
        assert_eq!(spans, [&b"a"[..], b"bb", b"c"]);
        assert_eq!(tokens(b"   ").count(), 0);
    }

    #[test]
    fn line_breaks_and_a_missing_last_break_are_kept() {
        let r = rewriter(Selector::Tokens, true, false);
        let out = run_block(&r, b"/a?q=%D6%D0%CE%C4\r\nplain\n/x?q=%C4%E3%BA%C3");
        assert_eq!(String::from_utf8(out).unwrap(), "/a?q=中文\r\nplain\n/x?q=你好");
    }

    #[test]
    fn blocks_split_at_line_breaks_whatever_the_reads() {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(3).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let input = b"one\ntwo\n\nthree";
        let mut blocks = Vec::new();
        for_each_block(Trickle(input), |b| {
            assert!(!b.raw);
            blocks.push(b.bytes);
            Ok(())
        })
        .unwrap();
        assert!(blocks[..blocks.len() - 1].iter().all(|b| b.ends_with(b"\n")));
        assert_eq!(blocks.concat(), input);
    }

    #[test]
    fn an_endless_line_passes_through_in_bounded_blocks() {
        let mut input = vec![b'x'; MAX_LINE * 3];
        input.extend_from_slice(b"\n/a?q=%D6%D0%CE%C4\n");
        let mut raw = 0;
        let mut out = Vec::new();
        let r = rewriter(Selector::Tokens, true, false);
        for_each_block(&input[..], |b| {
            assert!(b.bytes.len() <= MAX_LINE + 2 * BLOCK);
            raw += usize::from(b.raw);
            r.block(&b, &mut out);
            Ok(())
        })
        .unwrap();
        assert!(raw >= 2);
        assert!(out.ends_with("\n/a?q=中文\n".as_bytes()));
        assert_eq!(out.len(), input.len() - 12 + "中文".len());
    }
}
