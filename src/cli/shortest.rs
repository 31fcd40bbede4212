//! `ladders shortest BOARD`: the shortest game (with its rolls and probability), the fewest
//! rolls, and the longest game.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::shortest::{extremes, extremes_by};
use ladders::analysis::shortest_state::stateful_extremes;
use ladders::chain::Chain;
use ladders::report::shortest::{to_json, write_text};

use super::board_args::BoardArgs;
use super::exit;
use super::policy_arg::{write_report, PolicyArgs};

/// Shortest game (with the rolls that achieve it) and longest game
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders shortest milton-bradley",
    "ladders shortest efi --json"
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Digits after the decimal point (correctly rounded from the exact value)
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub digits: u16,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// Runs `shortest`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let chosen = args.policy.load(&args.board.rules, &args.board.board)?;
    let (board, e) = match &chosen {
        Some(c) => {
            let model = c.model();
            let e = extremes_by(&model.chain(), &|&a, &b| model.witness(a, b), None, None);
            (c.board.clone(), e)
        }
        None => {
            let board = args.board.load()?;
            let e = if board.is_stateful() {
                stateful_extremes(&board)
            } else {
                extremes(&board, &Chain::for_board(&board))
            };
            (board, e)
        }
    };
    let digits = usize::from(args.digits);
    write_report(
        out,
        args.json,
        chosen.as_ref(),
        || Ok(serde_json::to_value(to_json(&board, &e, digits))?),
        |out| write_text(out, &board, &e, digits),
    )?;
    Ok(exit::code(exit::SUCCESS))
}
