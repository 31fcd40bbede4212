//! `ladders boards`: the built-in boards.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::board::{builtin, BUILTIN_BOARDS, DEFAULT_BOARD};

use super::exit;
use super::output::write_json;

/// List the built-in boards
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders boards",
    "ladders boards --json"
))]
pub struct Args {
    /// Print one JSON array instead of text
    #[arg(long)]
    pub json: bool,
}

/// One built-in board in `boards --json` (fields in alphabetical order, as every report's keys).
#[derive(serde::Serialize)]
struct Listed {
    default: bool,
    name: &'static str,
    size: u32,
    summary: &'static str,
    title: String,
}

/// Runs `boards`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    if args.json {
        let mut list = Vec::new();
        for b in BUILTIN_BOARDS {
            let board = builtin(b.name).expect("listed");
            list.push(Listed {
                default: b.name == DEFAULT_BOARD,
                name: b.name,
                size: board.size(),
                summary: b.summary,
                title: board.name().to_string(),
            });
        }
        write_json(out, &list)?;
    } else {
        for b in BUILTIN_BOARDS {
            let default = if b.name == DEFAULT_BOARD {
                " (default)"
            } else {
                ""
            };
            writeln!(out, "{:<18} {}{default}", b.name, b.summary)?;
        }
    }
    Ok(exit::code(exit::SUCCESS))
}
