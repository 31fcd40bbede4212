//! The `ladders` command: parse the command line, call the library, print, and own the exit
//! code. Everything else lives in the library.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use cli::exit;
use cli::output::Tracked;

fn main() -> ExitCode {
    let cli = cli::parse();
    let error = cli::colour::paint(
        "error",
        cli::colour::RED,
        cli::colour::stderr_colour(cli.color),
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(Tracked::new(stdout.lock()));
    let result = cli::run(cli, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    // A failed write shows up here whichever layer (serde_json, a report, the flush) saw it.
    let write_error = out.get_mut().take_error();
    match (result, write_error) {
        (_, Some(err)) if err.kind() == io::ErrorKind::BrokenPipe => exit::code(exit::SUCCESS),
        (_, Some(err)) => {
            eprintln!("{error}: cannot write the output: {err}");
            exit::code(exit::WRITE_FAILED)
        }
        (Ok(code), None) => code,
        (Err(err), None) => {
            drop(out);
            for line in format!("{err:#}").lines() {
                eprintln!("{error}: {line}");
            }
            exit::code(exit::BAD_INPUT)
        }
    }
}
