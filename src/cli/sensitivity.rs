//! `ladders sensitivity BOARD`: for every snake and ladder, the exact expected turns without it
//! and the change, sorted (largest increase first).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::analysis::design::{expected_turns, sensitivity};
use ladders::report::design::{sensitivity_json, write_sensitivity};

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;

/// Exact change in expected turns when each snake or ladder is removed, sorted
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders sensitivity milton-bradley",
    "ladders sensitivity tiny --exact"
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Digits after the decimal point (correctly rounded from the exact value)
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub digits: u16,
    /// Print the exact fractions instead of decimals
    #[arg(long)]
    pub exact: bool,
    /// Print one JSON object instead of text (always with the exact fractions)
    #[arg(long)]
    pub json: bool,
}

/// Runs `sensitivity`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let board = args.board.load()?;
    let Some(base) = expected_turns(&board) else {
        bail!(
            "{}: the game can go on forever, so its expected turns are infinite",
            board.origin()
        );
    };
    let removals = sensitivity(&board, &base)?;
    let digits = usize::from(args.digits);
    if args.json {
        write_json(out, &sensitivity_json(&board, &base, &removals, digits))?;
    } else {
        write_sensitivity(out, &board, &base, &removals, digits, args.exact)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
