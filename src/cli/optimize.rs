//! `ladders optimize BOARD`: the exact optimal policy of a player who chooses.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use ladders::choice::{evaluate, optimize, policy_file, within, Game};
use ladders::report::optimize::{to_json, write_text, OptimizeReport, Scored};
use num_rational::BigRational;

use super::board_args::BoardArgs;
use super::exit;
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
    let board = args.board.rules.load_with_choices(&args.board.board)?;
    let Some(game) = Game::new(&board) else {
        bail!(
            "{}: the board has no choice rule: add one (choose_die = [4, 6], coin = true, pick = 2 \
             or choose_face = true in [rules], or --choose-die, --coin, --pick, --choose-face)",
            board.origin()
        );
    };
    let at_start = |values: &[BigRational]| {
        game.start.map_or_else(
            || BigRational::from_integer(0.into()),
            |s| values[s].clone(),
        )
    };
    let mut others: Vec<Scored> = Vec::new();
    let (value, policy, evaluations, proved) = match args.within {
        None => {
            let best = optimize(&game).map_err(|s| {
                anyhow!(
                    "{}: from square {s} no choice ever reaches the finish: the expected turns are infinite",
                    board.origin()
                )
            })?;
            for (name, p) in game.fixed_policies() {
                others.push(Scored::new(name, &game, evaluate(&game, &p, false)));
            }
            (
                at_start(&best.values),
                best.policy,
                best.evaluations,
                best.proved,
            )
        }
        Some(n) => {
            let w = within(&game, n);
            (at_start(&w.chances), w.first_turn, 0, false)
        }
    };
    for path in &args.policy {
        let file = policy_file::load(path)?;
        let p = file.policy(&game)?;
        others.push(Scored::new(
            path.display().to_string(),
            &game,
            evaluate(&game, &p, false),
        ));
    }
    let report = OptimizeReport {
        board: &board,
        game: &game,
        within: args.within,
        value,
        policy: &policy,
        evaluations,
        proved,
        others,
        digits: args.digits.get(),
    };
    if args.output.json {
        serde_json::to_writer_pretty(&mut *out, &to_json(&report))?;
        writeln!(out)?;
    } else {
        write_text(out, &report)?;
    }
    Ok(exit::code(if args.within.is_some() || proved {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}
