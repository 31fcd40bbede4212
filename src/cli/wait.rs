//! Opening a FIFO blocks until something writes to it: fine for a pipe, but a person at a
//! terminal is told what the command is waiting for.

use std::io::IsTerminal;
use std::path::Path;

/// The sentence to show before opening `path`, when it is a FIFO (named pipe).
pub fn fifo_notice(path: &Path, what: &str) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let is_fifo = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
        is_fifo.then(|| {
            format!(
                "waiting for a writer on the named pipe {} ({what}); Ctrl-C to stop",
                ladders::report::printable(&path.display().to_string())
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (path, what);
        None
    }
}

/// Prints [`fifo_notice`] on standard error when standard error is a terminal.
pub fn announce_fifo(path: &Path, what: &str) {
    if std::io::stderr().is_terminal() {
        if let Some(notice) = fifo_notice(path, what) {
            super::output::to_stderr(&notice);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_named_and_a_plain_file_is_not() {
        let dir = std::env::temp_dir().join(format!("ladders-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("board.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let notice = fifo_notice(&fifo, "the board").unwrap();
        assert!(
            notice.contains("named pipe") && notice.contains("board.fifo"),
            "{notice}"
        );
        assert_eq!(fifo_notice(Path::new("Cargo.toml"), "the board"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
