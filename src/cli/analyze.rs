//! `ladders analyze BOARD` (and `ladders` alone): one screen of the common answers.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::board_args::BoardArgs;

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// `analyze` on the default board.
    pub fn default_board() -> Args {
        Args {
            board: BoardArgs::default_board(),
            json: false,
        }
    }
}

/// Runs `analyze` (for now: the expectations).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    super::expect::run(
        &super::expect::Args {
            board: args.board.clone(),
            digits: 12,
            per_square: false,
            json: args.json,
            float: false,
        },
        out,
    )
}
