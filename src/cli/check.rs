//! `ladders check`: not built yet.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};

use super::board_args::BoardArgs;

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
}

/// Runs `check`.
pub fn run(args: &Args, _out: &mut dyn Write) -> Result<ExitCode> {
    let _ = &args.board;
    bail!("ladders check is not built yet")
}
