//! Reading inputs and writing outputs safely.
//!
//! Nothing the user owns is lost: an existing file is never replaced without `--force`; every
//! file is written to a temporary name in the same directory and then moved into place, so a
//! crash leaves either the old file or the new one; private keys are created with mode 0600.

use crate::error::{CliError, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

/// Keys, signatures and mu values are small; refuse to slurp anything larger by mistake.
const SMALL_FILE_LIMIT: u64 = 1 << 20;

/// Inputs larger than this get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 4 << 20;

/// Reads a small input (key, signature, mu) whole; `-` is stdin.
pub fn read_small(path: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let read = if path == "-" {
        io::stdin()
            .lock()
            .take(SMALL_FILE_LIMIT + 1)
            .read_to_end(&mut buf)
    } else {
        File::open(path).and_then(|f| f.take(SMALL_FILE_LIMIT + 1).read_to_end(&mut buf))
    };
    read.map_err(|e| CliError::input(path, e))?;
    if buf.len() as u64 > SMALL_FILE_LIMIT {
        return Err(CliError::input(
            path,
            "larger than 1 MiB: not a key, signature or mu",
        ));
    }
    Ok(buf)
}

/// Streams the input at `path` (`-` is stdin) into `sink` in 64 KiB pieces, in constant memory,
/// with a progress bar for large files on a terminal. Returns the number of bytes.
pub fn stream_into(path: &str, sink: &mut dyn Write) -> Result<u64> {
    let (reader, size): (Box<dyn Read>, Option<u64>) = if path == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let f = File::open(path).map_err(|e| CliError::input(path, e))?;
        let size = f.metadata().ok().map(|m| m.len());
        (Box::new(f), size)
    };
    let mut reader = io::BufReader::with_capacity(64 << 10, reader);
    let bar = match size {
        Some(n) if n > PROGRESS_THRESHOLD && io::stderr().is_terminal() => {
            let bar = ProgressBar::new(n);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bytes}/{total_bytes} [{bar:30}] {bytes_per_sec} {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            Some(bar)
        }
        _ => None,
    };
    let copied = match &bar {
        Some(bar) => io::copy(&mut bar.wrap_read(&mut reader), sink),
        None => io::copy(&mut reader, sink),
    }
    .map_err(|e| CliError::input(path, e))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(copied)
}

/// Where an output goes: a file, or stdout when `path` is None or `-`.
pub struct Output<'a> {
    pub path: Option<&'a str>,
    pub force: bool,
    /// Secret material: created 0600, and never written to a terminal by accident.
    pub private: bool,
}

impl Output<'_> {
    /// Writes `data`, atomically and without clobbering (unless forced) for files.
    pub fn write(&self, data: &[u8]) -> Result<()> {
        match self.path {
            None | Some("-") => {
                if self.private && io::stdout().is_terminal() {
                    return Err(CliError::usage(
                        "refusing to print a private key to the terminal; use -o FILE or a pipe",
                    ));
                }
                let mut out = io::stdout().lock();
                out.write_all(data)
                    .and_then(|_| out.flush())
                    .map_err(|e| CliError::input("-", e))
            }
            Some(path) => {
                write_atomic(Path::new(path), data, self.force, self.private).map_err(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        CliError::input(path, "already exists; use --force to replace it")
                    } else {
                        CliError::input(path, e)
                    }
                })
            }
        }
    }
}

fn write_atomic(path: &Path, data: &[u8], force: bool, private: bool) -> io::Result<()> {
    match fs::metadata(path) {
        // A device, FIFO or socket (say /dev/null, /dev/stdout or a pipe): write into it. It holds
        // no file to lose, and renaming over it would replace the special file itself.
        Ok(meta) if !meta.is_file() => {
            if meta.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            return OpenOptions::new().write(true).open(path)?.write_all(data);
        }
        Ok(_) if !force => return Err(io::ErrorKind::AlreadyExists.into()),
        // An existing regular file, possibly behind symlinks: replace the file the links point
        // to, not the links.
        Ok(_) => return replace_file(&fs::canonicalize(path)?, data, true, private),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if path.symlink_metadata().is_ok() {
                return Err(io::Error::other("is a symbolic link to nothing"));
            }
        }
        Err(e) => return Err(e),
    }
    replace_file(path, data, force, private)
}

/// Writes `data` to a temporary file beside `path` and moves it into place.
fn replace_file(path: &Path, data: &[u8], force: bool, private: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or(io::ErrorKind::InvalidInput)?
        .to_string_lossy();
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{name}.tmp-{}-{nonce}", std::process::id()));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    let result = (|| {
        let mut f = options.open(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        if force {
            fs::rename(&tmp, path)
        } else {
            // A hard link fails if the name was taken meanwhile: no clobbering, even in a race.
            fs::hard_link(&tmp, path).and_then(|_| fs::remove_file(&tmp))
        }
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
