//! `ladders check BOARD --games N`: simulate, then compare with the exact answers (exit 1 on FAIL).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use ladders::report::expect::trap_sentence;
use ladders::report::simulate::{check_json, write_check};
use ladders::simulate::check::{compare, ExactLaw, Observed};

use super::board_args::BoardArgs;
use super::exit;
use super::simulate::{run_simulation, SimArgs};

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub sim: SimArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// Runs `check`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let board = args.board.load()?;
    let law = ExactLaw::new(&board, 0.1 / args.sim.games as f64).map_err(|trap| {
        anyhow!(
            "{}: the expected number of turns is infinite ({}), so there is nothing to check a simulation against",
            board.name(),
            trap_sentence(&trap)
        )
    })?;
    let (sim, timing) = run_simulation(&board, &args.sim)?;
    let observed = Observed::Counts {
        turns: &sim.turns,
        capped: sim.capped,
    };
    let comparison = compare(&law, observed, Some(&sim.rolls));
    if args.json {
        let v = check_json(&board, &sim, &law, &comparison, Some(timing));
        serde_json::to_writer_pretty(&mut *out, &v)?;
        writeln!(out)?;
    } else {
        write_check(out, &board, &sim, &law, &comparison, Some(timing))?;
    }
    Ok(exit::code(if comparison.pass {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}
