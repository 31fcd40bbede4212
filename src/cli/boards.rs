//! `ladders boards`: the built-in boards.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::board::{builtin, BUILTIN_BOARDS, DEFAULT_BOARD};
use serde_json::json;

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

/// Runs `boards`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    if args.json {
        let mut list = Vec::new();
        for b in BUILTIN_BOARDS {
            let board = builtin(b.name).expect("listed");
            list.push(json!({
                "name": b.name,
                "title": board.name(),
                "summary": b.summary,
                "size": board.size(),
                "default": b.name == DEFAULT_BOARD,
            }));
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
