//! `ladders optimize BOARD`: the exact optimal policy of a player who chooses.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::report::{write_optimize as write_text, OptimizeReport, OptimizedJson, Report};

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;
use super::output_args::{Digits, Json};

/// The exact optimal policy of a player who chooses (choose_die, coin, pick, choose_face)
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders optimize course",
    "ladders optimize course --within 20"
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Maximise the chance of finishing within N turns instead of minimising the expected turns
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub within: Option<u32>,
    /// Also evaluate the policy in FILE exactly (CSV square,choice or TOML [policy]); repeatable
    #[arg(long, value_name = "FILE")]
    pub policy: Vec<PathBuf>,
    #[command(flatten)]
    pub digits: Digits,
    #[command(flatten)]
    pub output: Json,
}

/// Runs `optimize`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = args.board.rules.game_with_choices(&args.board.board)?;
    let board = game.board();
    if board.choice().is_none() {
        bail!(
            "{}: the board has no choice rule: add one (choose_die = [4, 6], coin = true, pick = 2 \
             or choose_face = true in [rules], or --choose-die, --coin, --pick, --choose-face)",
            board.origin()
        );
    }
    let mut optimized = match args.within {
        None => game.optimize()?,
        Some(n) => game.optimize_within(n)?,
    };
    for path in &args.policy {
        optimized.others.push(game.score_policy(path)?);
    }
    let report = OptimizeReport::new(board, &optimized, args.digits.get());
    if args.output.json {
        let body = OptimizedJson::new(&optimized);
        write_json(out, &Report::new(board, &body, report.digits).with_rules())?;
    } else {
        write_text(out, &report)?;
    }
    Ok(exit::code(
        if optimized.within.is_some() || optimized.proved {
            exit::SUCCESS
        } else {
            exit::CHECK_FAILED
        },
    ))
}
