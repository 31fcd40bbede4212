//! `ladders shortest`: not built yet.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};

use super::board_args::BoardArgs;

/// Arguments of `shortest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
}

/// Runs `shortest`.
pub fn run(args: &Args, _out: &mut dyn Write) -> Result<ExitCode> {
    let _ = &args.board;
    bail!("ladders shortest is not built yet")
}
