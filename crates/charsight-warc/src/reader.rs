//! WARC records from a byte stream: [WARC 1.0 and 1.1](https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/),
//! plain or gzip-compressed (one gzip member per record, as crawlers write
//! them, or the whole file in one member).
//!
//! Input: any [`Read`]. Output: [`Records`], an iterator of [`Record`]s in
//! file order, each with its headers and up to [`BLOCK_LIMIT`] bytes of its
//! block, or a [`Corrupt`] naming where a record could not be read. After a
//! corrupt record the reader finds the next one (the next gzip member, or
//! the next `WARC/1.` line), so one bad record never ends the file.
//!
//! Memory is bounded whatever the input: a header section is read up to
//! [`HEADER_LIMIT`] bytes, a block up to [`BLOCK_LIMIT`] (the rest is read
//! and dropped), and a corrupt gzip member is looked at again from up to
//! [`REWIND_LIMIT`] bytes back.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The bytes of a record's block kept; the rest is read past, and the
/// record says it was cut ([`Record::cut`]).
pub const BLOCK_LIMIT: usize = 16 << 20;

/// The longest header section read.
pub const HEADER_LIMIT: usize = 256 << 10;

/// After a corrupt gzip member the reader looks for the next member from
/// the corrupt one's start, if it began at most this many bytes back (else
/// from where the error was found).
pub const REWIND_LIMIT: usize = 8 << 20;

/// The first bytes of a gzip member with the deflate method.
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// One WARC record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Where the record starts in the file: its first byte, or in a
    /// gzip-compressed file the first byte of the gzip member it starts in
    /// (the offset CDX indexes give).
    pub offset: u64,
    /// The WARC version line's version (`1.0`, `1.1`).
    pub version: String,
    /// The named fields in order, values with their folding undone.
    pub headers: Vec<(String, String)>,
    /// The block, at most [`BLOCK_LIMIT`] bytes of it.
    pub block: Vec<u8>,
    /// The block's length, as its `Content-Length` says.
    pub block_len: u64,
}

impl Record {
    /// The first value of the named field (names are case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The record's `WARC-Type`, in lower case (`response`, `request`, …).
    pub fn warc_type(&self) -> String {
        self.header("WARC-Type").unwrap_or("").to_ascii_lowercase()
    }

    /// Whether the block was longer than [`BLOCK_LIMIT`] and was cut.
    pub fn cut(&self) -> bool {
        (self.block.len() as u64) < self.block_len
    }
}

/// A record that could not be read: where it started and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corrupt {
    /// Where the bad record (or gzip member) starts.
    pub offset: u64,
    /// What was wrong.
    pub reason: String,
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "corrupt record at offset {}: {}", self.offset, self.reason)
    }
}

/// What reading gives: a record, a corrupt one, or an I/O error of the
/// input itself (after which the iterator ends).
pub type Item = Result<Record, ReadError>;

/// Why a record was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The bytes are not a good record; reading goes on after it.
    Corrupt(Corrupt),
    /// The input could not be read; reading stops.
    Io(io::Error),
}

/// The records of a WARC file, in order. A file whose first bytes are a
/// gzip header is read member by member; anything else as plain WARC.
pub struct Records<R: Read> {
    source: Source<R>,
    /// Whether the first bytes were looked at.
    started: bool,
    /// After a corrupt record, until a good one: further failures are the
    /// same damage and are not reported again.
    resyncing: bool,
    done: bool,
}

impl<R: Read> Records<R> {
    /// Reads the records of `input`.
    pub fn new(input: R) -> Records<R> {
        Records {
            source: Source::Unknown(Some(Raw::new(input))),
            started: false,
            resyncing: false,
            done: false,
        }
    }

    /// How many bytes of the input have been consumed (for progress).
    pub fn position(&self) -> u64 {
        self.source.raw_position()
    }

    /// Whether the input is gzip-compressed (known once reading started).
    pub fn gzip(&self) -> bool {
        matches!(self.source, Source::Gzip(_))
    }

    fn start(&mut self) -> io::Result<()> {
        if let Source::Unknown(raw) = &mut self.source {
            let mut raw = raw.take().expect("a source");
            let gzip = raw.fill_buf()?.starts_with(&GZIP_MAGIC[..2]);
            self.source = if gzip { Source::Gzip(Members::new(raw)) } else { Source::Plain(raw) };
        }
        self.started = true;
        Ok(())
    }

    /// The next record, or `Ok(None)` at the end of the input.
    fn read_record(&mut self) -> Result<Option<Record>, ReadError> {
        if !self.started {
            self.start().map_err(ReadError::Io)?;
        }
        // Records are separated by CRLF CRLF; be lenient about how many.
        loop {
            let at_end = match skip_line_ends(&mut self.source) {
                Ok(at_end) => at_end,
                Err(e) => return Err(self.source.fail(e)),
            };
            if !at_end {
                break;
            }
            match &mut self.source {
                Source::Gzip(members) => match members.next_member() {
                    Ok(true) => continue,
                    Ok(false) => return Ok(None),
                    Err(e) => return Err(ReadError::Io(e)),
                },
                _ => return Ok(None),
            }
        }
        let offset = self.source.record_offset();
        let corrupt = |reason: String| ReadError::Corrupt(Corrupt { offset, reason });
        let line = read_line(&mut self.source, 64).map_err(|e| self.source.fail(e))?;
        let version = match line.as_deref().and_then(|l| l.strip_prefix(b"WARC/")) {
            Some(v) if v.starts_with(b"1.") || v.starts_with(b"0.") => {
                String::from_utf8_lossy(v).into_owned()
            }
            _ => return Err(corrupt("no WARC version line".to_owned())),
        };
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut header_bytes = 0;
        loop {
            let Some(line) =
                read_line(&mut self.source, HEADER_LIMIT).map_err(|e| self.source.fail(e))?
            else {
                return Err(corrupt("truncated in the header".to_owned()));
            };
            header_bytes += line.len() + 2;
            if header_bytes > HEADER_LIMIT {
                return Err(corrupt(format!("header longer than {HEADER_LIMIT} bytes")));
            }
            if line.is_empty() {
                break;
            }
            let text = String::from_utf8_lossy(&line);
            if line[0] == b' ' || line[0] == b'\t' {
                match headers.last_mut() {
                    Some((_, value)) => {
                        if !value.is_empty() {
                            value.push(' ');
                        }
                        value.push_str(text.trim());
                    }
                    None => return Err(corrupt("header starts with a continuation".to_owned())),
                }
                continue;
            }
            match text.split_once(':') {
                Some((name, value)) => {
                    headers.push((name.trim().to_owned(), value.trim().to_owned()))
                }
                None => return Err(corrupt(format!("header line without a colon: {text:.60}"))),
            }
        }
        let length = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"));
        let Some(block_len) = length.and_then(|(_, v)| v.parse::<u64>().ok()) else {
            return Err(corrupt("no valid Content-Length".to_owned()));
        };
        let keep = block_len.min(BLOCK_LIMIT as u64) as usize;
        let mut block = Vec::with_capacity(keep.min(1 << 20));
        let mut taken = (&mut self.source).take(block_len);
        let kept = taken.by_ref().take(keep as u64).read_to_end(&mut block);
        let read = kept.and_then(|n| Ok(n as u64 + io::copy(&mut taken, &mut io::sink())?));
        match read {
            Ok(n) if n == block_len => {}
            Ok(n) => {
                return Err(corrupt(format!("truncated: {n} of {block_len} block bytes")));
            }
            Err(e) => return Err(self.source.fail(e)),
        }
        Ok(Some(Record { offset, version, headers, block, block_len }))
    }

    /// Moves past a corrupt record: to the next gzip member, or in plain
    /// WARC to the next line that starts a record.
    fn skip_damage(&mut self) -> io::Result<()> {
        match &mut self.source {
            Source::Gzip(members) => members.skip_member(),
            Source::Plain(raw) => skip_to_record(raw),
            Source::Unknown(_) => Ok(()),
        }
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        while !self.done {
            match self.read_record() {
                Ok(Some(record)) => {
                    self.resyncing = false;
                    return Some(Ok(record));
                }
                Ok(None) => self.done = true,
                Err(ReadError::Corrupt(corrupt)) => {
                    if let Err(e) = self.skip_damage() {
                        self.done = true;
                        return Some(Err(ReadError::Io(e)));
                    }
                    if !std::mem::replace(&mut self.resyncing, true) {
                        return Some(Err(ReadError::Corrupt(corrupt)));
                    }
                }
                Err(ReadError::Io(e)) => {
                    self.done = true;
                    return Some(Err(ReadError::Io(e)));
                }
            }
        }
        None
    }
}

/// The input: not looked at yet, plain, or gzip members.
enum Source<R: Read> {
    Unknown(Option<Raw<R>>),
    Plain(Raw<R>),
    Gzip(Members<R>),
}

impl<R: Read> Source<R> {
    fn raw_position(&self) -> u64 {
        match self {
            Source::Unknown(_) => 0,
            Source::Plain(raw) => raw.position,
            Source::Gzip(members) => members.raw_position(),
        }
    }

    /// Where a record starting at the current position starts.
    fn record_offset(&self) -> u64 {
        match self {
            Source::Gzip(members) => members.member_start,
            _ => self.raw_position(),
        }
    }

    /// An error met while reading: a gzip member that does not decompress
    /// is a corrupt record; anything else is the input's own error.
    fn fail(&mut self, e: io::Error) -> ReadError {
        match self {
            Source::Gzip(members) if is_corruption(&e) => {
                members.corrupt = true;
                ReadError::Corrupt(Corrupt {
                    offset: members.member_start,
                    reason: format!("gzip member does not decompress: {e}"),
                })
            }
            _ => ReadError::Io(e),
        }
    }
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: Read> BufRead for Source<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Source::Unknown(_) => Ok(&[]),
            Source::Plain(raw) => raw.fill_buf(),
            Source::Gzip(members) => members.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Source::Unknown(_) => {}
            Source::Plain(raw) => raw.consume(n),
            Source::Gzip(members) => members.consume(n),
        }
    }
}

/// Skips CR and LF bytes; whether the input (or the gzip member) ended.
fn skip_line_ends(input: &mut impl BufRead) -> io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(true);
        }
        let n = buf.iter().take_while(|&&b| b == b'\r' || b == b'\n').count();
        let more = n == buf.len();
        input.consume(n);
        if !more {
            return Ok(false);
        }
    }
}

/// The next line without its line end, or `None` at the end of the input.
/// A line longer than `limit` comes back cut after more than `limit` bytes
/// (the rest is left unread): longer than any caller takes.
fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let (n, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..n]);
        input.consume(n);
        if line.len() > limit + 2 {
            return Ok(Some(line));
        }
        if end {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(line));
        }
    }
}

/// Skips to the start of the next line that begins `WARC/1.` (or the end).
fn skip_to_record<R: Read>(raw: &mut Raw<R>) -> io::Result<()> {
    const START: &[u8] = b"\nWARC/1.";
    if raw.fill_buf()?.starts_with(&START[1..]) {
        return Ok(());
    }
    loop {
        let buf = raw.fill_buf()?;
        if buf.len() < START.len() {
            if raw.at_end()? {
                let n = raw.fill_buf()?.len();
                raw.consume(n);
                return Ok(());
            }
            continue;
        }
        match memchr::memmem::find(buf, START) {
            Some(i) => {
                raw.consume(i + 1);
                return Ok(());
            }
            // Keep what could be the start of the pattern.
            None => {
                let n = buf.len() - (START.len() - 1);
                raw.consume(n);
            }
        }
    }
}

/// The raw input, buffered, with its position; bytes can be put back to be
/// read again (a corrupt gzip member's, to look for the next member in).
struct Raw<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes consumed.
    position: u64,
    /// A copy of what was consumed since [`Raw::record`] began, while it is
    /// at most [`REWIND_LIMIT`] bytes (`None` once it outgrew that).
    history: Option<Vec<u8>>,
    eof: bool,
}

impl<R: Read> Raw<R> {
    fn new(inner: R) -> Raw<R> {
        Raw {
            inner,
            buf: vec![0; 64 << 10],
            start: 0,
            end: 0,
            position: 0,
            history: None,
            eof: false,
        }
    }

    /// Starts keeping a copy of the bytes consumed from here on.
    fn record(&mut self) {
        let mut history = self.history.take().unwrap_or_default();
        history.clear();
        self.history = Some(history);
    }

    /// Puts `bytes`, which were consumed just before the current position,
    /// back in front of the unread input.
    fn unread(&mut self, bytes: &[u8]) {
        let rest = &self.buf[self.start..self.end];
        let mut buf = Vec::with_capacity((bytes.len() + rest.len()).max(64 << 10));
        buf.extend_from_slice(bytes);
        buf.extend_from_slice(rest);
        self.end = buf.len();
        buf.resize(buf.len().max(64 << 10), 0);
        self.buf = buf;
        self.start = 0;
        self.position -= bytes.len() as u64;
    }

    /// Whether nothing is left, with fewer than a few bytes buffered: reads
    /// until the buffer grows or the input ends.
    fn at_end(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(true);
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let n = read_some(&mut self.inner, &mut self.buf[self.end..])?;
        self.end += n;
        self.eof = n == 0;
        Ok(self.eof)
    }
}

impl<R: Read> BufRead for Raw<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end && !self.eof {
            self.start = 0;
            self.end = read_some(&mut self.inner, &mut self.buf)?;
            self.eof = self.end == 0;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        if let Some(history) = &mut self.history {
            if history.len() + n <= REWIND_LIMIT {
                history.extend_from_slice(&self.buf[self.start..self.start + n]);
            } else {
                self.history = None;
            }
        }
        self.start += n;
        self.position += n as u64;
    }
}

impl<R: Read> Read for Raw<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

/// `Read::read` of a reader that buffers: what its buffer holds.
fn read_buffered(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

impl<R: Read> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

/// One `read`, retried when interrupted.
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

/// Gzip members one after the other, each read to its end before the next
/// begins ([`Members::next_member`]), so that a record never runs on into
/// the next member unnoticed.
struct Members<R: Read> {
    /// The member being read (`None` only while it is replaced).
    state: Option<Box<GzDecoder<Raw<R>>>>,
    /// Where the current member starts in the raw input.
    member_start: u64,
    /// The current member failed to decompress.
    corrupt: bool,
    /// The input ended where the current member would start.
    ended: bool,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl<R: Read> Members<R> {
    fn new(mut raw: Raw<R>) -> Members<R> {
        raw.record();
        Members {
            member_start: raw.position,
            state: Some(Box::new(GzDecoder::new(raw))),
            corrupt: false,
            ended: false,
            buf: vec![0; 64 << 10],
            start: 0,
            end: 0,
        }
    }

    fn raw(&self) -> &Raw<R> {
        self.state.as_ref().expect("a state").get_ref()
    }

    fn raw_position(&self) -> u64 {
        self.raw().position
    }

    fn take_raw(&mut self) -> Raw<R> {
        self.state.take().expect("a state").into_inner()
    }

    /// Starts the next member, if there is one; false at the end.
    fn next_member(&mut self) -> io::Result<bool> {
        self.start = 0;
        self.end = 0;
        let raw = self.take_raw();
        self.begin(raw)?;
        Ok(!self.ended)
    }

    /// Starts a member at the raw input's position (or notes its end).
    fn begin(&mut self, mut raw: Raw<R>) -> io::Result<()> {
        self.ended = raw.fill_buf()?.is_empty();
        raw.record();
        self.member_start = raw.position;
        self.corrupt = false;
        self.state = Some(Box::new(GzDecoder::new(raw)));
        Ok(())
    }

    /// Drops the rest of the current member. A member that failed to
    /// decompress is looked at again from its second byte, for the next
    /// member's header.
    fn skip_member(&mut self) -> io::Result<()> {
        self.start = 0;
        self.end = 0;
        if let (false, Some(decoder)) = (self.corrupt, &mut self.state) {
            // A bad record in a good member: read the member to its end.
            match io::copy(decoder.as_mut(), &mut io::sink()) {
                Ok(_) => {
                    let raw = self.take_raw();
                    return self.begin(raw);
                }
                Err(e) if !is_corruption(&e) => return Err(e),
                Err(_) => {}
            }
        }
        let mut raw = self.take_raw();
        match raw.history.take() {
            Some(history) if history.is_empty() => {
                // Nothing was consumed: step past the member's first byte.
                raw.fill_buf()?;
                raw.consume(1);
            }
            Some(history) => raw.unread(&history[1..]),
            None => {}
        }
        find_member(&mut raw)?;
        self.begin(raw)
    }
}

/// Whether `e`, from a gzip decoder, came from the compressed data rather
/// than the input.
fn is_corruption(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput | io::ErrorKind::UnexpectedEof
    )
}

/// Skips the raw input to the next gzip header (or the end).
fn find_member<R: Read>(raw: &mut Raw<R>) -> io::Result<()> {
    loop {
        let buf = raw.fill_buf()?;
        if buf.len() < GZIP_MAGIC.len() {
            if raw.at_end()? {
                let n = raw.fill_buf()?.len();
                raw.consume(n);
                return Ok(());
            }
            continue;
        }
        match memchr::memmem::find(buf, &GZIP_MAGIC) {
            Some(i) => {
                raw.consume(i);
                return Ok(());
            }
            None => {
                let n = buf.len() - (GZIP_MAGIC.len() - 1);
                raw.consume(n);
            }
        }
    }
}

impl<R: Read> BufRead for Members<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end && !self.ended {
            self.start = 0;
            self.end = read_some(self.state.as_mut().expect("a state"), &mut self.buf)?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn record(id: u32, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
             WARC-Target-URI:\r\n  http://example.com/{id}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    /// Each item as `Ok(id)` or `Err(offset)`.
    fn read(file: &[u8]) -> Vec<Result<String, u64>> {
        Records::new(file)
            .map(|item| match item {
                Ok(r) => Ok(r.header("warc-record-id").unwrap().to_owned()),
                Err(ReadError::Corrupt(c)) => Err(c.offset),
                Err(ReadError::Io(e)) => panic!("{e}"),
            })
            .collect()
    }

    fn id(n: u32) -> Result<String, u64> {
        Ok(format!("<urn:uuid:{n}>"))
    }

    #[test]
    fn reads_plain_records_with_folded_headers() {
        let file = [record(1, b"one"), record(2, b"")].concat();
        let records: Vec<Record> = Records::new(&file[..]).map(|r| r.unwrap()).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].block, b"one");
        assert_eq!(records[0].header("WARC-Target-URI"), Some("http://example.com/1"));
        assert_eq!(records[0].version, "1.1");
        assert_eq!(records[1].offset, record(1, b"one").len() as u64);
    }

    #[test]
    fn reads_gzip_members_with_their_offsets() {
        let (a, b) = (gzip(&record(1, b"one")), gzip(&record(2, b"two")));
        let file = [a.clone(), b].concat();
        let records: Vec<Record> = Records::new(&file[..]).map(|r| r.unwrap()).collect();
        assert_eq!((records[0].offset, records[1].offset), (0, a.len() as u64));
        assert_eq!(records[1].block, b"two");
        // The whole file in one member.
        let file = gzip(&[record(1, b"one"), record(2, b"two")].concat());
        assert_eq!(read(&file), vec![id(1), id(2)]);
    }

    #[test]
    fn a_truncated_member_is_reported_and_the_next_one_read() {
        let a = gzip(&record(1, b"one"));
        let b = gzip(&record(2, &[b'x'; 5000]));
        let c = gzip(&record(3, b"three"));
        let file = [a.clone(), b[..b.len() / 2].to_vec(), c.clone()].concat();
        assert_eq!(read(&file), vec![id(1), Err(a.len() as u64), id(3)]);
        // Cut at the end of the file.
        let file = [a.clone(), c[..c.len() / 2].to_vec()].concat();
        assert_eq!(read(&file), vec![id(1), Err(a.len() as u64)]);
        // Only the trailer is cut: the record is whole, the member is not.
        let file = [a.clone(), c[..c.len() - 5].to_vec()].concat();
        assert_eq!(read(&file), vec![id(1), id(3), Err(a.len() as u64)]);
    }

    #[test]
    fn a_record_cut_inside_its_member_is_reported() {
        let whole = record(2, b"twenty bytes of it..");
        let cut = gzip(&whole[..whole.len() - 12]);
        let a = gzip(&record(1, b"one"));
        let file = [a.clone(), cut, gzip(&record(3, b"three"))].concat();
        assert_eq!(read(&file), vec![id(1), Err(a.len() as u64), id(3)]);
    }

    #[test]
    fn garbage_between_plain_records_is_skipped() {
        let one = record(1, b"one");
        let file =
            [one.clone(), b"garbage\nmore WARC/1.0 garbage\n".to_vec(), record(2, b"two")].concat();
        assert_eq!(read(&file), vec![id(1), Err(one.len() as u64), id(2)]);
    }

    #[test]
    fn a_plain_file_cut_short_ends_with_a_corrupt_record() {
        let one = record(1, b"one");
        let two = record(2, b"a longer block");
        let file = [one.clone(), two[..two.len() - 8].to_vec()].concat();
        assert_eq!(read(&file), vec![id(1), Err(one.len() as u64)]);
    }

    #[test]
    fn bad_headers_are_corrupt_records() {
        for bad in [
            &b"WARC/1.1\r\nContent-Length: x\r\n\r\n"[..],
            b"WARC/1.1\r\nno colon here\r\n\r\n",
            b"HTTP/1.1 200 OK\r\n\r\n",
        ] {
            let file = [bad.to_vec(), record(2, b"two")].concat();
            assert_eq!(read(&file), vec![Err(0), id(2)], "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn memory_stays_bounded_on_lines_without_end_and_huge_blocks() {
        let mut file = b"WARC/1.1\r\nX: ".to_vec();
        file.extend(std::iter::repeat_n(b'a', HEADER_LIMIT * 2));
        assert_eq!(read(&file), vec![Err(0)]);
        let huge = vec![b'z'; BLOCK_LIMIT + 10];
        let records: Vec<Record> =
            Records::new(&record(1, &huge)[..]).map(|r| r.unwrap()).collect();
        assert_eq!(records[0].block.len(), BLOCK_LIMIT);
        assert!(records[0].cut());
    }

    #[test]
    fn empty_and_blank_input_have_no_records() {
        assert!(read(b"").is_empty());
        assert!(read(b"\r\n\r\n").is_empty());
    }
}
