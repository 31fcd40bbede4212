//! The `ladders` command: parse the command line, call the library, print, and own the exit
//! code. Everything else lives in the library.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use cli::exit;
use cli::output::{to_stderr, Tracked, WriteFailed};

fn main() -> ExitCode {
    // Asked before anything opens a file, which could take the closed descriptor's number.
    let stdout_open = cli::output::stdout_is_open();
    let cli = cli::parse();
    let error = cli::colour::paint(
        "error",
        cli::colour::RED,
        cli::colour::stderr_colour(cli.color),
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(Tracked::open_or_closed(stdout.lock(), stdout_open));
    let result = cli::run(cli, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    // A failed write shows up here whichever layer (serde_json, a report, the flush) saw it.
    let write_error = out.get_mut().take_error();
    match (result, write_error) {
        (_, Some(err)) if err.kind() == io::ErrorKind::BrokenPipe => exit::code(exit::SUCCESS),
        (_, Some(err)) => {
            to_stderr(&format!("{error}: cannot write the output: {err}"));
            exit::code(exit::WRITE_FAILED)
        }
        (Ok(code), None) => code,
        (Err(err), None) => {
            drop(out);
            for line in format!("{err:#}").lines() {
                to_stderr(&format!("{error}: {line}"));
            }
            // A file the command was to write that could not be is a failed write too.
            match err.chain().any(|e| e.is::<WriteFailed>()) {
                true => exit::code(exit::WRITE_FAILED),
                false => exit::code(exit::BAD_INPUT),
            }
        }
    }
}
