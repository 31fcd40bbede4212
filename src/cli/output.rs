//! Standard output as every subcommand writes it: JSON written one way ([`write_json`]), and a
//! writer that remembers whether a write failed ([`Tracked`]), so `main` can tell a failed write
//! (exit 3, or quiet success for a closed pipe) from bad input (exit 2).

use std::io::{self, Write};

use serde::Serialize;

/// Writes `value` as pretty JSON and a newline. An I/O error comes back as the `io::Error` it
/// was (serde_json wraps it in its own error, whose `source` hides it).
pub fn write_json<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)
}

/// A writer that records the first error any write or flush returned.
pub struct Tracked<W> {
    inner: W,
    failed: Option<io::Error>,
}

impl<W: Write> Tracked<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Tracked<W> {
        Tracked {
            inner,
            failed: None,
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
        let result = self.inner.write(buf);
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
    fn json_is_pretty_with_a_final_newline() {
        let mut out = Tracked::new(Vec::new());
        write_json(&mut out, &serde_json::json!({"a": 1})).unwrap();
        assert_eq!(String::from_utf8(out.inner).unwrap(), "{\n  \"a\": 1\n}\n");
        assert!(out.failed.is_none());
    }
}
