//! `--color auto|always|never`, accepted by every command, and NO_COLOR: the one place that
//! decides whether to write colour, and the painter that colours a text report's verdicts
//! (`PASS`, `ok` green, `FAIL` red) on the way to standard output. JSON and CSV have no verdict
//! words at the end of a line, so they pass unchanged.

use std::io::{self, IsTerminal, Write};

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    // No doc comments here: clap would list each value on its own line and switch every
    // subcommand's help to the long layout.
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether to write colour: the one place this is decided.
pub fn use_colour(choice: ColorChoice, is_terminal: bool, no_color: Option<&str>) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        // https://no-color.org: a NO_COLOR that is set and not empty turns colour off.
        ColorChoice::Auto => is_terminal && no_color.is_none_or(str::is_empty),
    }
}

/// Whether to colour standard output.
pub fn stdout_colour(choice: ColorChoice) -> bool {
    let no_color = std::env::var("NO_COLOR").ok();
    use_colour(choice, io::stdout().is_terminal(), no_color.as_deref())
}

/// Whether to colour standard error.
pub fn stderr_colour(choice: ColorChoice) -> bool {
    let no_color = std::env::var("NO_COLOR").ok();
    use_colour(choice, io::stderr().is_terminal(), no_color.as_deref())
}

/// Green.
pub const GREEN: &str = "\x1b[32m";
/// Red, bold.
pub const RED: &str = "\x1b[1;31m";
/// Back to plain text.
pub const RESET: &str = "\x1b[0m";

/// `text` in `colour` when `on`.
pub fn paint(text: &str, colour: &str, on: bool) -> String {
    if on {
        format!("{colour}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// One line of a text report with its verdict word coloured: a line that ends in `PASS` or
/// `  ok` (green) or `FAIL` (red) after a space.
fn paint_line(line: &str) -> Option<String> {
    let body = line.trim_end_matches(['\n', '\r']);
    let end = &line[body.len()..];
    for (word, colour) in [(" PASS", GREEN), ("  ok", GREEN), (" FAIL", RED)] {
        if let Some(head) = body.strip_suffix(word) {
            let space = word.len() - word.trim_start().len();
            return Some(format!(
                "{head}{}{colour}{}{RESET}{end}",
                &word[..space],
                word.trim_start()
            ));
        }
    }
    None
}

/// A writer that colours the verdict words of each complete line (see the module doc).
pub struct Painter<'a> {
    inner: &'a mut dyn Write,
    line: Vec<u8>,
}

impl<'a> Painter<'a> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut dyn Write) -> Painter<'a> {
        Painter {
            inner,
            line: Vec::new(),
        }
    }

    fn write_line(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        match std::str::from_utf8(&line).ok().and_then(paint_line) {
            Some(painted) => self.inner.write_all(painted.as_bytes()),
            None => self.inner.write_all(&line),
        }
    }
}

impl Write for Painter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for chunk in buf.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(chunk);
            if chunk.ends_with(b"\n") {
                self.write_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_line()?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_follows_the_choice_the_terminal_and_no_color() {
        assert!(use_colour(ColorChoice::Always, false, Some("1")));
        assert!(!use_colour(ColorChoice::Never, true, None));
        assert!(use_colour(ColorChoice::Auto, true, None));
        assert!(use_colour(ColorChoice::Auto, true, Some("")));
        assert!(!use_colour(ColorChoice::Auto, true, Some("1")));
        assert!(!use_colour(ColorChoice::Auto, false, None));
    }

    #[test]
    fn verdict_words_at_the_end_of_a_line_are_painted_and_nothing_else() {
        let mut out = Vec::new();
        {
            let mut painter = Painter::new(&mut out);
            write!(painter, "Verdict          PASS\nMean turns  z = 0.1  ").unwrap();
            write!(painter, "ok\nA PASSage\n\"verdict\": \"FAIL\",\nSeat  FAIL").unwrap();
            painter.flush().unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "Verdict          \x1b[32mPASS\x1b[0m\nMean turns  z = 0.1  \x1b[32mok\x1b[0m\n\
             A PASSage\n\"verdict\": \"FAIL\",\nSeat  \x1b[1;31mFAIL\x1b[0m"
        );
    }
}
