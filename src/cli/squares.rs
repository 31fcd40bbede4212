//! `ladders squares BOARD`: the exact per-square answers (expected visits, the probability that a
//! move ever ends there, expected remaining turns), each jump's expected uses and probability of
//! being taken, and with `--after N` the law of the token's square after N turns.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::report::Report;
use ladders::report::{
    write_squares as write_text, write_squares_after as write_after,
    write_squares_csv as write_csv, SquaresFormat as Format,
};
use ladders::Game;

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;
use super::output_args::{Digits, JsonExact, TABLE_DIGITS};

/// Exact per-square answers: visits, reach, remaining turns; per jump: uses and P(taken)
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("digits", |a| a.default_value(TABLE_DIGITS)),
    after_help = after_help!(
    "ladders squares tiny",
    "ladders squares milton-bradley --csv --jumps",
    "ladders squares milton-bradley --after 10"
)
)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Instead: the law of the token's square after N turns
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub after: Option<u32>,
    /// Print the exact fractions instead of decimals
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub digits: Digits,
    /// Print CSV: square,visits,reach,remaining (with --after: square,p)
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// With --csv: the jumps instead (from,to,kind,uses,taken)
    #[arg(long, requires = "csv", conflicts_with = "after")]
    pub jumps: bool,
    #[command(flatten)]
    pub output: JsonExact,
}

/// Runs `squares`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = Game::from_board(args.board.load()?);
    let board = game.board();
    let mut format = Format::new(args.digits.get());
    format.exact = args.exact;
    if let Some(n) = args.after {
        let occupancy = game.squares_after(n as usize)?;
        if args.output.json {
            write_json(out, &Report::new(board, &occupancy, format.digits))?;
        } else {
            write_after(out, board, &occupancy, format, args.csv)?;
        }
        return Ok(exit::code(exit::SUCCESS));
    }
    let answers = game.squares()?;
    if args.output.json {
        write_json(out, &Report::new(board, &answers, format.digits))?;
    } else if args.csv {
        write_csv(out, &answers, args.jumps, format)?;
    } else {
        write_text(out, board, &answers, format)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
