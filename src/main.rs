//! The `ladders` command: parse the command line, call the library, print, and own the exit
//! code. Everything else lives in the library.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = cli::run(cli, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => cli::exit::code(cli::exit::SUCCESS),
        Err(err) => {
            drop(out);
            for line in format!("{err:#}").lines() {
                eprintln!("error: {line}");
            }
            cli::exit::code(cli::exit::BAD_INPUT)
        }
    }
}

/// `ladders distribution efi | head` closes the pipe early: that is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
