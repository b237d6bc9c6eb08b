//! The HTTP message in a `response` record's block: its head, parsed with
//! `httparse`, and its body as the server meant it, with the transfer
//! coding (`chunked`) and the content codings (`gzip`, `deflate`) undone.
//!
//! Archives differ in what they store: most keep the bytes as they came
//! over the wire, some store the body already de-chunked or decompressed
//! and keep the header that says otherwise. So a coding is undone only
//! where the bytes bear it out (a chunk-size line, a gzip or zlib header);
//! otherwise the body is taken as it is.

use std::io::Read;

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use crate::reader::BLOCK_LIMIT;

/// The most header fields read from one HTTP head.
const MAX_HEADERS: usize = 256;

/// The head of an HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` value(s), joined by commas when repeated (as
    /// Fetch combines them), bytes that are not UTF-8 replaced.
    pub content_type: Option<String>,
    /// The `Transfer-Encoding` value, in lower case.
    pub transfer_encoding: Option<String>,
    /// The `Content-Encoding` value, in lower case.
    pub content_encoding: Option<String>,
    /// Where the body starts in the block.
    pub body_start: usize,
}

/// Parses the head of the HTTP response at the start of `block`.
///
/// # Errors
/// A message saying why the bytes are no HTTP response head.
pub fn parse_head(block: &[u8]) -> Result<Head, String> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let body_start = match response.parse(block) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err("HTTP head is truncated".to_owned()),
        Err(e) => return Err(format!("bad HTTP head: {e}")),
    };
    let joined = |name: &str| {
        let values: Vec<String> = response
            .headers
            .iter()
            .filter(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_owned())
            .collect();
        (!values.is_empty()).then(|| values.join(", "))
    };
    Ok(Head {
        status: response.code.unwrap_or(0),
        content_type: joined("Content-Type"),
        transfer_encoding: joined("Transfer-Encoding").map(|v| v.to_ascii_lowercase()),
        content_encoding: joined("Content-Encoding").map(|v| v.to_ascii_lowercase()),
        body_start,
    })
}

/// The body of `block` after `head`: de-chunked and decompressed where the
/// head says so and the bytes bear it out, at most [`BLOCK_LIMIT`] bytes.
///
/// # Errors
/// A content coding charsight cannot undo (`br`, `zstd`, `compress`).
pub fn body(block: &[u8], head: &Head) -> Result<Vec<u8>, String> {
    let raw = &block[head.body_start.min(block.len())..];
    let chunked = head.transfer_encoding.as_deref().is_some_and(|t| t.contains("chunked"));
    let dechunked = if chunked { dechunk(raw) } else { None };
    let body = dechunked.as_deref().unwrap_or(raw);
    let codings = head.content_encoding.as_deref().unwrap_or("");
    // Codings are listed in the order they were applied: undo the last first.
    let mut out: Option<Vec<u8>> = None;
    for coding in codings.split(',').map(str::trim).rev().filter(|c| !c.is_empty()) {
        let input = out.as_deref().unwrap_or(body);
        let decoded = match coding {
            "identity" => continue,
            "gzip" | "x-gzip" if input.starts_with(&[0x1f, 0x8b]) => {
                inflate(MultiGzDecoder::new(input))
            }
            "deflate" => match inflate(ZlibDecoder::new(input)) {
                Some(text) => Some(text),
                None => inflate(DeflateDecoder::new(input)),
            },
            "gzip" | "x-gzip" => None,
            other => return Err(format!("content-encoding {other} is not supported")),
        };
        if let Some(decoded) = decoded {
            out = Some(decoded);
        }
    }
    Ok(out.unwrap_or_else(|| body.to_vec()))
}

/// What `decoder` gives, at most [`BLOCK_LIMIT`] bytes; `None` when it
/// gives nothing (the bytes are not in its format). Output past a
/// corruption is dropped, what came before it kept.
fn inflate(decoder: impl Read) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut limited = decoder.take(BLOCK_LIMIT as u64);
    let mut buf = vec![0; 64 << 10];
    loop {
        match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The data of a chunked body ([RFC 9112 §7.1](https://www.rfc-editor.org/rfc/rfc9112#section-7.1)),
/// or `None` when `raw` does not start with a chunk. A body cut short
/// gives the data up to the cut; the trailer section is dropped.
fn dechunk(raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = raw;
    let mut first = true;
    loop {
        let Some(line_end) = memchr::memchr(b'\n', rest) else {
            if first {
                return None;
            }
            break;
        };
        let line = &rest[..line_end];
        // chunk-size [ chunk-ext ] CRLF
        let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        let well_formed = matches!(line.get(digits), Some(b';' | b'\r' | b' ' | b'\t') | None);
        if digits == 0 || digits > 15 || !well_formed {
            if first {
                return None;
            }
            break;
        }
        first = false;
        let size = std::str::from_utf8(&line[..digits])
            .ok()
            .and_then(|d| usize::from_str_radix(d, 16).ok())?;
        rest = &rest[line_end + 1..];
        if size == 0 {
            break;
        }
        let take = size.min(rest.len()).min(BLOCK_LIMIT.saturating_sub(out.len()));
        out.extend_from_slice(&rest[..take]);
        if take < size {
            break;
        }
        rest = &rest[size..];
        // The CRLF after the data.
        rest = rest.strip_prefix(b"\r\n").or_else(|| rest.strip_prefix(b"\n")).unwrap_or(rest);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn head(block: &[u8]) -> Head {
        parse_head(block).unwrap()
    }

    #[test]
    fn parses_the_head_and_joins_repeated_content_types() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\ncontent-type: text/html; charset=koi8-r\r\n\r\nbody";
        let h = head(block);
        assert_eq!(h.status, 200);
        assert_eq!(h.content_type.as_deref(), Some("text/html, text/html; charset=koi8-r"));
        assert_eq!(&block[h.body_start..], b"body");
    }

    #[test]
    fn a_truncated_or_bad_head_is_an_error() {
        assert!(parse_head(b"HTTP/1.1 200 OK\r\nContent-Ty").unwrap_err().contains("truncated"));
        assert!(parse_head(b"\x00\x01 not http").is_err());
    }

    #[test]
    fn dechunks_chunked_bodies() {
        let block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX: y\r\n\r\n";
        assert_eq!(body(block, &head(block)).unwrap(), b"hello world");
    }

    #[test]
    fn a_body_already_dechunked_is_taken_as_it_is() {
        let block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>hello</html>";
        assert_eq!(body(block, &head(block)).unwrap(), b"<html>hello</html>");
    }

    #[test]
    fn a_cut_chunked_body_gives_what_came() {
        let block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nhello";
        assert_eq!(body(block, &head(block)).unwrap(), b"hello");
    }

    #[test]
    fn decompresses_gzip_and_deflate_after_dechunking() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all("caf\u{e9} cr\u{e8}me".as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        let mut block =
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec();
        block.extend_from_slice(format!("{:x}\r\n", gz.len()).as_bytes());
        block.extend_from_slice(&gz);
        block.extend_from_slice(b"\r\n0\r\n\r\n");
        assert_eq!(body(&block, &head(&block)).unwrap(), "caf\u{e9} cr\u{e8}me".as_bytes());

        for zlib in [true, false] {
            let data = if zlib {
                let mut z =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
                z.write_all(b"deflated").unwrap();
                z.finish().unwrap()
            } else {
                let mut z =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
                z.write_all(b"deflated").unwrap();
                z.finish().unwrap()
            };
            let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n".to_vec();
            block.extend_from_slice(&data);
            assert_eq!(body(&block, &head(&block)).unwrap(), b"deflated");
        }
    }

    #[test]
    fn a_body_stored_decompressed_is_taken_as_it_is() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<p>plain</p>";
        assert_eq!(body(block, &head(block)).unwrap(), b"<p>plain</p>");
    }

    #[test]
    fn unsupported_codings_are_errors() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x0b\x02";
        assert_eq!(body(block, &head(block)).unwrap_err(), "content-encoding br is not supported");
    }

    #[test]
    fn a_decompression_bomb_stops_at_the_limit() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b'a'; 1 << 20];
        for _ in 0..(BLOCK_LIMIT >> 20) + 2 {
            gz.write_all(&zeros).unwrap();
        }
        let gz = gz.finish().unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend_from_slice(&gz);
        assert_eq!(body(&block, &head(&block)).unwrap().len(), BLOCK_LIMIT);
    }
}
