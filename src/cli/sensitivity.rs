//! `ladders sensitivity BOARD`: for every snake and ladder, the exact expected turns without it
//! and the change, sorted (largest increase first).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::report::Report;
use ladders::report::{write_sensitivity, write_sensitivity_csv};
use ladders::{Game, Sensitivity};

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;
use super::output_args::{Digits, JsonExact, TABLE_DIGITS};

/// Exact change in expected turns when each snake or ladder is removed, sorted
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("digits", |a| a.default_value(TABLE_DIGITS)),
    after_help = after_help!(
    "ladders sensitivity milton-bradley",
    "ladders sensitivity tiny --exact",
    "ladders sensitivity milton-bradley --csv"
)
)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub digits: Digits,
    /// Print the exact fractions instead of decimals
    #[arg(long)]
    pub exact: bool,
    /// Print CSV: kind,from,to,turns,change
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    #[command(flatten)]
    pub output: JsonExact,
}

/// Runs `sensitivity`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = Game::from_board(args.board.load()?);
    let sensitivity = game.sensitivity()?;
    let board = game.board();
    let digits = args.digits.get();
    let Sensitivity { base, removals, .. } = &sensitivity;
    if args.output.json {
        write_json(out, &Report::new(board, &sensitivity, digits))?;
    } else if args.csv {
        write_sensitivity_csv(out, removals, digits, args.exact)?;
    } else {
        write_sensitivity(out, board, base, removals, digits, args.exact)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
