//! Reading inputs and writing outputs safely.
//!
//! Nothing the user owns is lost: an existing file is never replaced without `--force`; every
//! file is written to a temporary name in the same directory and then moved into place, so a
//! crash leaves either the old file or the new one; private keys are created with mode 0600.

use crate::error::{CliError, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// Keys, signatures and mu values are small; refuse to slurp anything larger by mistake.
const SMALL_FILE_LIMIT: u64 = 1 << 20;

/// Inputs larger than this get a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 4 << 20;

/// Set by `verify -q`: no progress bar and no notes, only the exit status.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the command silent (see [`QUIET`]).
pub fn set_quiet() {
    QUIET.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// Warns (as ssh does, which refuses) when a private key file is readable by group or others.
pub fn warn_if_readable_by_others(name: &str, meta: Option<fs::Metadata>) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.map_or(0, |m| {
            if m.is_file() {
                m.permissions().mode()
            } else {
                0
            }
        });
        if mode & 0o077 != 0 {
            eprintln!(
                "mldsa: warning: the private key {name} is readable by others (mode {:o}); \
                 chmod 600 it",
                mode & 0o777
            );
        }
    }
    #[cfg(not(unix))]
    let _ = (name, meta);
}

/// Metadata of what stdin or stdout is (a regular file, when redirected to one).
#[cfg(unix)]
fn stream_metadata(fd: impl std::os::fd::AsFd) -> Option<fs::Metadata> {
    File::from(fd.as_fd().try_clone_to_owned().ok()?)
        .metadata()
        .ok()
}

#[cfg(not(unix))]
fn stream_metadata<T>(_: T) -> Option<fs::Metadata> {
    None
}

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
        if io::stdin().is_terminal() && !quiet() {
            eprintln!("mldsa: reading the message from stdin (end it with Ctrl-D)");
        }
        // Redirected from a file, stdin has a size, and so a progress bar.
        let size = stream_metadata(io::stdin())
            .filter(|m| m.is_file())
            .map(|m| m.len());
        (Box::new(io::stdin().lock()), size)
    } else {
        let f = File::open(path).map_err(|e| CliError::input(path, e))?;
        let size = f.metadata().ok().map(|m| m.len());
        (Box::new(f), size)
    };
    let mut reader = io::BufReader::with_capacity(64 << 10, reader);
    let bar = match size {
        Some(n) if n > PROGRESS_THRESHOLD && io::stderr().is_terminal() && !quiet() => {
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

/// Where an output really goes, once its path is looked at.
enum Target {
    Stdout,
    Stderr,
    /// A device, FIFO or socket, or anything under /dev or /proc (`/dev/fd/3`): written into,
    /// never replaced, since renaming over it would replace the special file itself.
    Special(PathBuf),
    /// A regular file (existing, and then replaced only with --force, or new): written to a
    /// temporary name beside it and moved into place.
    File {
        path: PathBuf,
        exists: bool,
    },
}

/// What identifies a file: its device and inode if it exists, else its directory and name.
#[derive(PartialEq)]
enum Identity {
    Inode(u64, u64),
    Named(PathBuf),
    Stream(&'static str),
}

fn inode(meta: &fs::Metadata) -> Identity {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Identity::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Identity::Named(PathBuf::new())
    }
}

impl Output<'_> {
    fn name(&self) -> &str {
        self.path.unwrap_or("-")
    }

    fn target(&self) -> Result<(Target, Identity)> {
        let path = match self.path {
            None | Some("-" | "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1") => {
                return Ok((Target::Stdout, Identity::Stream("stdout")));
            }
            Some("/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2") => {
                return Ok((Target::Stderr, Identity::Stream("stderr")));
            }
            Some(p) => p,
        };
        let err = |e: &dyn std::fmt::Display| CliError::input(path, e);
        let p = Path::new(path);
        match fs::metadata(p) {
            Ok(meta) if meta.is_dir() => Err(err(&"is a directory")),
            Ok(meta)
                if !meta.is_file() || path.starts_with("/dev/") || path.starts_with("/proc/") =>
            {
                Ok((Target::Special(p.to_path_buf()), inode(&meta)))
            }
            Ok(_) if !self.force => Err(err(&"already exists; use --force to replace it")),
            // An existing regular file, possibly behind symlinks: replace the file the links
            // point to, not the links.
            Ok(meta) => {
                let path = fs::canonicalize(p).map_err(|e| err(&e))?;
                Ok((Target::File { path, exists: true }, inode(&meta)))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if p.symlink_metadata().is_ok() {
                    return Err(err(&"is a symbolic link to nothing"));
                }
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let dir = fs::canonicalize(dir)
                    .map_err(|e| err(&format!("directory {}: {e}", dir.display())))?;
                if !dir.is_dir() {
                    return Err(err(&format!("{} is not a directory", dir.display())));
                }
                let name = p.file_name().ok_or_else(|| err(&"not a file name"))?;
                let id = Identity::Named(dir.join(name));
                let path = p.to_path_buf();
                Ok((
                    Target::File {
                        path,
                        exists: false,
                    },
                    id,
                ))
            }
            Err(e) => Err(err(&e)),
        }
    }
}

/// Writes all the outputs of one command, or none: each is checked first (not an existing file
/// without --force, a directory that exists, no two the same file or stream, none the same file
/// as one of the command's `inputs`, even with --force), then every file is written to a
/// temporary name beside it, then streams are written, and only then are the files moved into
/// place. If anything fails, no new file is left behind.
pub fn write_outputs(outputs: &[(Output, &[u8])], inputs: &[&str]) -> Result<()> {
    if outputs.iter().any(|(o, _)| o.force) && outputs.iter().all(|(o, _)| o.path.is_none()) {
        return Err(CliError::usage(
            "--force replaces output files, but there is none (-o)",
        ));
    }
    let mut targets = Vec::new();
    for (i, (out, _)) in outputs.iter().enumerate() {
        let (target, id) = out.target()?;
        if let Some(j) = targets.iter().position(|(_, other)| *other == id) {
            let (a, b) = (outputs[j].0.name(), out.name());
            return Err(CliError::usage(if a == b {
                format!("{a} is given for two outputs")
            } else {
                format!("{a} and {b} are the same output")
            }));
        }
        for input in inputs.iter().filter(|p| **p != "-") {
            let same = Path::new(input) == Path::new(out.name())
                || fs::metadata(input).is_ok_and(|m| inode(&m) == id && cfg!(unix));
            if same {
                return Err(CliError::input(
                    out.name(),
                    format!("is the input {input}: refusing to write over it, even with --force"),
                ));
            }
        }
        if matches!(target, Target::Stdout) && outputs[i].0.private && io::stdout().is_terminal() {
            return Err(CliError::usage(
                "refusing to print a private key to the terminal; use -o FILE or a pipe",
            ));
        }
        targets.push((target, id));
    }
    // Stage every file; on failure, remove what was staged.
    let mut staged: Vec<Option<PathBuf>> = Vec::new();
    let cleanup = |staged: &[Option<PathBuf>]| {
        for tmp in staged.iter().flatten() {
            let _ = fs::remove_file(tmp);
        }
    };
    for ((out, data), (target, _)) in outputs.iter().zip(&targets) {
        let tmp = match target {
            Target::File { path, .. } => match stage(path, data, out.private) {
                Ok(tmp) => Some(tmp),
                Err(e) => {
                    cleanup(&staged);
                    return Err(CliError::input(out.name(), e));
                }
            },
            _ => None,
        };
        staged.push(tmp);
    }
    // Streams and special files next: they cannot be taken back, so they come after every
    // check that can fail.
    for ((out, data), (target, _)) in outputs.iter().zip(&targets) {
        let written = match target {
            Target::Stdout => {
                if out.private {
                    warn_if_readable_by_others("on stdout", stream_metadata(io::stdout()));
                }
                let mut s = io::stdout().lock();
                s.write_all(data).and_then(|_| s.flush())
            }
            Target::Stderr => io::stderr().lock().write_all(data),
            Target::Special(path) => OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|mut f| f.write_all(data)),
            Target::File { .. } => Ok(()),
        };
        if let Err(e) = written {
            cleanup(&staged);
            return Err(CliError::input(out.name(), e));
        }
    }
    // Move the files into place; on failure, take back the new ones already placed.
    let mut placed: Vec<&Path> = Vec::new();
    for (i, (out, _)) in outputs.iter().enumerate() {
        let (Target::File { path, exists }, Some(tmp)) = (&targets[i].0, &staged[i]) else {
            continue;
        };
        let moved = if *exists {
            fs::rename(tmp, path)
        } else {
            // A hard link fails if the name was taken meanwhile: no clobbering, even in a race.
            fs::hard_link(tmp, path).and_then(|_| fs::remove_file(tmp))
        };
        if let Err(e) = moved {
            cleanup(&staged[i..]);
            for p in placed {
                let _ = fs::remove_file(p);
            }
            return Err(if e.kind() == io::ErrorKind::AlreadyExists {
                CliError::input(out.name(), "already exists; use --force to replace it")
            } else {
                CliError::input(out.name(), e)
            });
        }
        if !*exists {
            placed.push(path);
        }
    }
    Ok(())
}

/// Writes `data` to a new temporary file beside `path` (0600 if private) and syncs it.
fn stage(path: &Path, data: &[u8], private: bool) -> io::Result<PathBuf> {
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
    let result = options.open(&tmp).and_then(|mut f| {
        f.write_all(data)?;
        f.sync_all()
    });
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}
