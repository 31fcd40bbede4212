//! `ladders analyze BOARD` (and `ladders` alone): one screen of the common answers.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::analysis::summary::summarize;
use ladders::report::analyze::{to_json, write_text};

use super::board_args::BoardArgs;
use super::exit;

/// One screen answering the common questions about a board
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Digits after the decimal point (correctly rounded from the exact value)
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub digits: u16,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// `analyze` on the default board.
    pub fn default_board() -> Args {
        Args {
            board: BoardArgs::default_board(),
            digits: 12,
            json: false,
        }
    }
}

/// Runs `analyze`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let board = args.board.load()?;
    let summary = match summarize(&board) {
        Ok(s) => s,
        Err(e) => bail!("{e}"),
    };
    let digits = usize::from(args.digits);
    if args.json {
        // A string first, so a closed pipe is an io::Error that main treats as success.
        let text = serde_json::to_string_pretty(&to_json(&board, &summary, digits))?;
        writeln!(out, "{text}")?;
    } else {
        write_text(out, &board, &summary, digits)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
