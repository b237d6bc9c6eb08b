//! `-o OUT`: the output written like a careful editor's save. A regular
//! file (or a path that does not exist yet) is written through a temporary
//! file beside it, which replaces it only if the run succeeds, and is
//! removed if the run fails or is interrupted (SIGINT, SIGTERM, SIGHUP).
//! A symbolic link is followed, so that its target, not the link, is
//! replaced. The new file keeps the old one's mode and, when the system
//! allows, its owner and group; a new file gets the mode a plain write
//! gives (0666 less the umask). A file the user could not write is not
//! replaced, nor one with other hard links (which would keep the old text).
//! Anything else (a device such as `/dev/null`, a FIFO) cannot be replaced
//! and is written directly. Errors name the user's path, never the
//! temporary file.

use std::fs::{self, File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::input::InputError;

/// Runs `write` into standard output, or into `path` (see the module's
/// doc); the file is kept only if `keep` says so of the result.
pub fn write_output<T>(
    path: Option<&Path>,
    stdout: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
    keep: impl FnOnce(&T) -> bool,
) -> Result<T> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return write(stdout).map_err(|e| naming(e, "standard output"));
    };
    let context = || format!("{}", path.display());
    let (target, existing) = match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            let file = fs::OpenOptions::new().write(true).open(path).with_context(context)?;
            let mut w = io::BufWriter::new(file);
            return write(&mut w)
                .and_then(|r| w.flush().map(|_| r))
                .map_err(|e| naming(e, context()));
        }
        Ok(meta) => {
            let target = fs::canonicalize(path).with_context(context)?;
            replaceable(&target, &meta).with_context(context)?;
            (target, Some(meta))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => (link_target(path), None),
        Err(e) => return Err(e).with_context(context),
    };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let (file, temp) = create_in(dir).with_context(context)?;
    if let Some(meta) = &existing {
        keep_owner(&file, meta);
        file.set_permissions(meta.permissions()).with_context(context)?;
    }
    let mut w = io::BufWriter::new(file);
    let result = write(&mut w).and_then(|r| w.flush().map(|_| r));
    drop(w);
    let result = result.map_err(|e| naming(e, context()))?;
    if keep(&result) {
        temp.persist(&target).map_err(|e| e.error).with_context(context)?;
    }
    Ok(result)
}

/// `err`, naming the output `name` unless it is an error reading the input
/// (which names the input).
fn naming(err: io::Error, name: impl std::fmt::Display + Send + Sync + 'static) -> anyhow::Error {
    match InputError::is(&err) {
        true => err.into(),
        false => anyhow::Error::new(err).context(name),
    }
}

/// Whether the existing regular file `target` may be replaced: the user
/// can write it (as the system decides: opened for writing, not truncated),
/// and it has no other hard links.
fn replaceable(target: &Path, meta: &Metadata) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            bail!(
                "not replaced: it has {} hard links, which would keep the old text (write to \
                 another file, or remove the other links)",
                meta.nlink()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    fs::OpenOptions::new().write(true).open(target).context("not replaced: cannot write it")?;
    Ok(())
}

/// Where a path that does not exist would be created: the target of a
/// dangling symbolic link (as a plain write would), else the path itself.
fn link_target(path: &Path) -> PathBuf {
    match fs::read_link(path) {
        Ok(to) => path.parent().map_or(to.clone(), |dir| dir.join(to)),
        Err(_) => path.to_path_buf(),
    }
}

/// Gives `file` the owner and group of the file it replaces, or at least
/// the group, as far as the system lets this user.
fn keep_owner(file: &File, meta: &Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(meta.gid()));
        }
    }
    #[cfg(not(unix))]
    let _ = (file, meta);
}

/// A new temporary file in `dir`, removed unless persisted, and removed
/// if the process is interrupted meanwhile. It is created with the mode a
/// plain create asks for (0666, less the umask); its errors are the
/// system's, without its name (tempfile's would add it).
fn create_in(dir: &Path) -> io::Result<(File, Temp)> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
    let mut attempt = 0;
    loop {
        let path = dir.join(format!(".charsight-{}-{attempt}.tmp", std::process::id()));
        let watched = interrupt::watch(&path);
        match options.open(&path) {
            Ok(file) => {
                let path = tempfile::TempPath::try_from_path(path)?;
                return Ok((file, Temp { path, _watched: watched }));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A temporary file: removed when dropped, and if the process is
/// interrupted, unless persisted.
struct Temp {
    path: tempfile::TempPath,
    _watched: interrupt::Watched,
}

impl Temp {
    fn persist(self, to: &Path) -> Result<(), tempfile::PathPersistError> {
        self.path.persist(to)
    }
}

/// Removing temporary files when the process is interrupted.
#[cfg(unix)]
mod interrupt {
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, Once};

    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

    /// The temporary files being written.
    static FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    /// Removes `path` if the process is interrupted before the guard is
    /// dropped.
    pub fn watch(path: &Path) -> Watched {
        static HANDLER: Once = Once::new();
        HANDLER.call_once(|| {
            // Without the handler (it cannot fail on Unix but for lack of
            // resources), an interrupt leaves the file, as before.
            if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            {
                std::thread::spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        let files = FILES.lock().unwrap_or_else(|e| e.into_inner());
                        files.iter().for_each(|f| drop(std::fs::remove_file(f)));
                        // Then die of the signal, as without the handler.
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                        std::process::exit(128 + signal);
                    }
                });
            }
        });
        lock().push(path.to_path_buf());
        Watched(path.to_path_buf())
    }

    fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
        FILES.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A file watched until dropped.
    pub struct Watched(PathBuf);

    impl Drop for Watched {
        fn drop(&mut self) {
            let mut files = lock();
            if let Some(i) = files.iter().position(|f| *f == self.0) {
                files.swap_remove(i);
            }
        }
    }
}

#[cfg(not(unix))]
mod interrupt {
    use std::path::Path;

    pub fn watch(_: &Path) -> Watched {
        Watched
    }

    pub struct Watched;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::NamedReader;

    /// A reader or writer that fails.
    struct Broken;

    impl io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("unreadable"))
        }
    }

    impl io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("unwritable"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn errors_name_the_input_or_the_output() {
        let mut input = NamedReader { reader: Broken, name: Path::new("in.txt") };
        let err = write_output(None, &mut Vec::new(), |w| io::copy(&mut input, w), |_| true);
        assert_eq!(format!("{:#}", err.unwrap_err()), "in.txt: unreadable");
        let mut input = NamedReader { reader: &b"text"[..], name: Path::new("in.txt") };
        let err = write_output(None, &mut Broken, |w| io::copy(&mut input, w), |_| true);
        assert_eq!(format!("{:#}", err.unwrap_err()), "standard output: unwritable");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let mut input = NamedReader { reader: Broken, name: Path::new("in.txt") };
        let err = write_output(Some(&out), &mut Vec::new(), |w| io::copy(&mut input, w), |_| true);
        assert_eq!(format!("{:#}", err.unwrap_err()), "in.txt: unreadable");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing left behind");
    }
}
