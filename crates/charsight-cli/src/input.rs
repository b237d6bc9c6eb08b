//! Inputs: files, directories walked recursively, and standard input; and
//! the one decision every command makes on them, reading each input only as
//! far as detection needs.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use charsight::sniff::TagScan;
use charsight::{Detection, Engine, Session};
use tempfile::SpooledTempFile;

/// One input to process.
#[derive(Debug)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name to print: `-` for standard input.
    pub fn name(&self) -> &Path {
        match self {
            Input::Stdin => Path::new("-"),
            Input::File(path) => path,
        }
    }
}

/// An input, and the name its output takes under an output directory: the
/// file's name, or its path under the directory that was walked to find it.
#[derive(Debug)]
pub struct Named {
    pub input: Input,
    pub name: PathBuf,
}

/// An input, or the path that could not be walked and why.
pub type Expanded = std::result::Result<Named, (PathBuf, io::Error)>;

/// The inputs named by `paths`, directories expanded in name order, or
/// standard input when `paths` is empty and it is not a terminal. A path
/// that cannot be walked comes back as an error for that path.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Expanded>> {
    let stdin = || Named { input: Input::Stdin, name: PathBuf::from("-") };
    if paths.is_empty() {
        if io::stdin().is_terminal() {
            bail!("no input: give one or more PATHs, or '-' or a pipe for standard input");
        }
        return Ok(vec![Ok(stdin())]);
    }
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Ok(stdin()));
            continue;
        }
        if !path.is_dir() {
            let name = path.file_name().map_or_else(|| path.clone(), PathBuf::from);
            inputs.push(Ok(Named { input: Input::File(path.clone()), name }));
            continue;
        }
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            // A symbolic link to a file is followed; one to a directory is
            // not (walking it could leave the tree, or loop); a dangling
            // one is an error for its path.
            let file = entry.as_ref().map_or(Ok(false), |entry| match entry.file_type() {
                t if t.is_symlink() => std::fs::metadata(entry.path()).map(|m| m.is_file()),
                t => Ok(t.is_file()),
            });
            match (entry, file) {
                (Ok(entry), Ok(true)) => {
                    let name = entry.path().strip_prefix(path).unwrap_or(entry.path()).to_owned();
                    inputs.push(Ok(Named { input: Input::File(entry.into_path()), name }))
                }
                (Ok(entry), Err(err)) => inputs.push(Err((entry.into_path(), err))),
                (Ok(_), Ok(false)) => {}
                (Err(err), _) => {
                    let at = err.path().unwrap_or(path).to_path_buf();
                    inputs.push(Err((at, err.into())));
                }
            }
        }
    }
    Ok(inputs)
}

/// Every command reads at most this many bytes to decide: as far as the
/// engine wants more (a long run of ASCII leaves the content detector
/// undecided), then no further, so a huge file costs one bounded pass.
pub const DECIDE_LIMIT: u64 = 64 << 20;

/// Standard input read to decide is kept in memory up to this size, then in
/// a temporary file, so that it can be read again from its start.
const SPOOL_IN_MEMORY: usize = 1 << 20;

/// The read size of every command.
pub const CHUNK: usize = 64 * 1024;

/// What [`decide`] found.
pub struct Decided {
    /// One detection for each engine asked, in order.
    pub detections: Vec<Detection>,
    /// What the reading saw.
    pub seen: Seen,
    /// The whole input from its first byte, when [`decide`] was asked to
    /// replay it (else empty).
    pub reader: Box<dyn Read + Send>,
    /// For a regular file, a second handle on the file opened (sharing its
    /// position), to read it again from its start: the same file even if
    /// its path is replaced meanwhile.
    pub rewind: Option<File>,
}

/// What reading an input to decide saw, besides the detections.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    /// How many bytes of the input the detections looked at.
    pub bytes: u64,
    /// Whether the input's first [`CHUNK`] bytes hold a tag (markup).
    pub markup: bool,
    /// Whether the reading reached the end of the input (else the decision
    /// rests on a prefix: the engines wanted no more, or [`DECIDE_LIMIT`]
    /// was reached).
    pub whole: bool,
}

impl Seen {
    /// Whether the input is empty.
    pub fn empty(self) -> bool {
        self.bytes == 0 && self.whole
    }

    /// The length of the prefix the decision rests on, if the input went
    /// on past it (or may have: a pipe is not read to its end).
    pub fn prefix(self) -> Option<u64> {
        (!self.whole).then_some(self.bytes)
    }
}

/// Reads `input` until the engines have decided, or [`DECIDE_LIMIT`] bytes:
/// the one decision path of `detect`, `decode`, `repair` and `explain`, so
/// that they read the same bytes and reach the same decision. Memory stays
/// bounded: each engine keeps its own bounded prefix, a regular file is
/// read again from its start, and standard input (or a pipe) is kept in a
/// spool only when `replay` asks for the input back.
///
/// The engines differ only in their policy, so they want the same bytes.
pub fn decide(input: &Input, engines: &[Engine], replay: bool) -> io::Result<Decided> {
    let mut sessions: Vec<Session> = engines.iter().map(Engine::session).collect();
    let mut tags = TagScan::default();
    let mut rewind = None;
    let (read, reader): (Reading, Box<dyn Read + Send>) = match input {
        Input::File(path) => {
            // One open: what is read is this file, whatever happens to the
            // path later.
            let mut file = File::open(path)?;
            let meta = file.metadata()?;
            if !meta.is_file() {
                spooled(file, &mut sessions, &mut tags, replay)?
            } else {
                let mut read = feed(&mut file, &mut sessions, &mut tags, None)?;
                read.whole |= read.bytes >= meta.len();
                if replay {
                    file.seek(SeekFrom::Start(0))?;
                    rewind = Some(file.try_clone()?);
                    (read, Box::new(file))
                } else {
                    (read, Box::new(io::empty()))
                }
            }
        }
        Input::Stdin => spooled(io::stdin(), &mut sessions, &mut tags, replay)?,
    };
    let detections = sessions.into_iter().map(Session::finish).collect();
    let seen = Seen { bytes: read.bytes, markup: tags.seen(), whole: read.whole };
    Ok(Decided { detections, seen, reader, rewind })
}

/// [`decide`] for an input that cannot be read twice: what was read is
/// spooled, and read back before the rest.
fn spooled(
    mut reader: impl Read + Send + 'static,
    sessions: &mut [Session],
    tags: &mut TagScan,
    replay: bool,
) -> io::Result<(Reading, Box<dyn Read + Send>)> {
    if !replay {
        return Ok((feed(&mut reader, sessions, tags, None)?, Box::new(io::empty())));
    }
    let mut spool = tempfile::spooled_tempfile(SPOOL_IN_MEMORY);
    let read = feed(&mut reader, sessions, tags, Some(&mut spool))?;
    spool.seek(SeekFrom::Start(0))?;
    Ok((read, Box::new(spool.chain(reader))))
}

/// How far [`feed`] read.
struct Reading {
    bytes: u64,
    /// It met the end of the input.
    whole: bool,
}

/// Feeds `reader` to every session while they want more, up to
/// [`DECIDE_LIMIT`], and its first [`CHUNK`] bytes to `tags`, copying what
/// it reads to `copy`.
fn feed(
    reader: &mut impl Read,
    sessions: &mut [Session],
    tags: &mut TagScan,
    mut copy: Option<&mut SpooledTempFile>,
) -> io::Result<Reading> {
    let mut buf = vec![0; CHUNK];
    let mut read = 0;
    while read < DECIDE_LIMIT && sessions.iter().any(Session::wants_more) {
        let room = usize::try_from(DECIDE_LIMIT - read).unwrap_or(usize::MAX).min(CHUNK);
        let n = read_some(reader, &mut buf[..room])?;
        if n == 0 {
            return Ok(Reading { bytes: read, whole: true });
        }
        for session in sessions.iter_mut() {
            session.feed(&buf[..n]);
        }
        if read < CHUNK as u64 {
            tags.scan(&buf[..n.min(CHUNK - read as usize)]);
        }
        if let Some(copy) = copy.as_mut() {
            copy.write_all(&buf[..n])?;
        }
        read += n as u64;
    }
    Ok(Reading { bytes: read, whole: false })
}

/// One `read`, retried when interrupted.
pub fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

/// An error reading an input, naming it: where the text goes has errors of
/// its own, which name the output instead.
#[derive(Debug)]
pub struct InputError {
    name: PathBuf,
    source: io::Error,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name.display(), self.source)
    }
}

/// Its message holds its source's, so it has no other source.
impl std::error::Error for InputError {}

impl InputError {
    /// Whether `err` is an error reading an input (already naming it).
    pub fn is(err: &io::Error) -> bool {
        err.get_ref().is_some_and(|e| e.is::<InputError>())
    }
}

/// A reader whose errors are [`InputError`]s naming the input.
pub struct NamedReader<'a, R> {
    pub reader: R,
    pub name: &'a Path,
}

impl<R: Read> Read for NamedReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf).map_err(|source| {
            let kind = source.kind();
            io::Error::new(kind, InputError { name: self.name.to_path_buf(), source })
        })
    }
}
