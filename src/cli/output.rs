//! Output as every subcommand writes it: JSON written one way ([`write_json`]); a writer that
//! remembers whether a write failed ([`Tracked`]), so `main` can tell a failed write (exit 3, or
//! quiet success for a closed pipe) from bad input (exit 2); the files a command writes
//! ([`write_file`], whose failure is a [`WriteFailed`], exit 3 too); and standard error written
//! without panicking when it cannot be ([`to_stderr`]).

use std::io::{self, Write};

use ladders::report::printable;
use serde::Serialize;

/// Writes `value` as pretty JSON and a newline. An I/O error comes back as the `io::Error` it
/// was (serde_json wraps it in its own error, whose `source` hides it).
pub fn write_json<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

/// A file the command was asked to write (`--svg`, `--histogram-csv`, `generate --output`) that
/// could not be created or written: exit 3, as for standard output.
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot write the {what}: {reason}", printable(.path))]
pub struct WriteFailed {
    /// The path as given.
    pub path: String,
    /// What it was to hold ("SVG", "CSV", "board").
    pub what: &'static str,
    /// Why: in the message, and not a `source` (the error chain, printed after the message,
    /// would say it twice).
    pub reason: io::Error,
}

/// Writes `bytes` to the file `path` (created or truncated); its failure is a [`WriteFailed`].
pub fn write_file(path: &str, what: &'static str, bytes: &[u8]) -> Result<(), WriteFailed> {
    std::fs::write(path, bytes).map_err(|reason| WriteFailed {
        path: path.to_string(),
        what,
        reason,
    })
}

/// Writes `message` and a newline to standard error; a standard error that cannot be written
/// (`2>/dev/full`, closed) is let be: there is nowhere left to say so, and the exit code still
/// tells (`eprintln!` panicked there, exit 101).
pub fn to_stderr(message: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{message}");
}

/// Whether standard output is open (`ladders expect efi >&-` closes it). Rust's runtime opens
/// `/dev/null` read-write on a descriptor 0 to 2 that a program starts without, so every write
/// would then succeed unseen; a shell's `> /dev/null` opens it write-only. So on Linux, a
/// standard output on `/dev/null` opened read-write (its flags in `/proc/self/fdinfo/1`) was
/// closed. Elsewhere it is taken as open.
pub fn stdout_is_open() -> bool {
    #[cfg(target_os = "linux")]
    {
        !stdout_was_closed()
    }
    #[cfg(not(target_os = "linux"))]
    true
}

/// See [`stdout_is_open`].
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
        return true;
    };
    let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
        (a.dev(), a.ino(), a.rdev()) == (b.dev(), b.ino(), b.rdev())
    };
    match (
        std::fs::File::from(fd).metadata(),
        std::fs::metadata("/dev/null"),
    ) {
        (Ok(out), Ok(null)) if same(&out, &null) => {}
        _ => return false,
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
    // O_ACCMODE is 3, O_RDWR 2.
    flags.is_some_and(|f| f & 3 == 2)
}

/// A writer that records the first error any write or flush returned.
pub struct Tracked<W> {
    inner: W,
    failed: Option<io::Error>,
    /// Standard output was closed before the command ran: every write fails.
    closed: bool,
}

impl<W: Write> Tracked<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Tracked<W> {
        Tracked {
            inner,
            failed: None,
            closed: false,
        }
    }

    /// Wraps `inner`, whose every write fails when `open` is false (a closed standard output).
    pub fn open_or_closed(inner: W, open: bool) -> Tracked<W> {
        Tracked {
            closed: !open,
            ..Tracked::new(inner)
        }
    }

    /// The first error a write returned, if any (taken: a second call returns `None`).
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.failed.take()
    }

    fn record<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if self.failed.is_none() {
                self.failed = Some(io::Error::new(e.kind(), e.to_string()));
            }
        }
        result
    }
}

impl<W: Write> Write for Tracked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = match self.closed {
            true => Err(io::Error::other("standard output is closed")),
            false => self.inner.write(buf),
        };
        self.record(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.record(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails every write with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_json_write_is_the_io_error_and_is_recorded() {
        let mut out = Tracked::new(Failing(io::ErrorKind::BrokenPipe));
        let err = write_json(&mut out, &vec![1, 2, 3]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(
            out.take_error().map(|e| e.kind()),
            Some(io::ErrorKind::BrokenPipe)
        );
        assert!(out.take_error().is_none());
    }

    #[test]
    fn a_closed_standard_output_fails_every_write_and_a_file_names_its_path() {
        let mut out = Tracked::open_or_closed(Vec::new(), false);
        assert!(out.write_all(b"x").is_err());
        let err = out.take_error().unwrap();
        assert_eq!(err.to_string(), "standard output is closed");
        assert!(out.inner.is_empty());
        let err = write_file("/nonexistent-dir/x.svg", "SVG", b"<svg/>").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("/nonexistent-dir/x.svg: cannot write the SVG: "),
            "{err}"
        );
    }

    #[test]
    fn json_is_pretty_with_a_final_newline() {
        let mut out = Tracked::new(Vec::new());
        write_json(&mut out, &std::collections::BTreeMap::from([("a", 1)])).unwrap();
        assert_eq!(String::from_utf8(out.inner).unwrap(), "{\n  \"a\": 1\n}\n");
        assert!(out.failed.is_none());
    }
}
