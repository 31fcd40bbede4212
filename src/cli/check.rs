//! `ladders check BOARD --games N`: simulate, then compare with the exact answers (exit 1 on FAIL).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use ladders::board::Board;
use ladders::report::{write_check, write_race_check};
use ladders::report::{CheckJson, RaceSimulationJson, Report, SimulationJson};
use ladders::{Game, Meeting};

use super::exit;
use super::output::write_json;
use super::policy_arg::write_report;
use super::simulate::{run_race_simulation, run_simulation, SampleArgs, Seats};

/// Simulate and compare with the exact answers (exit 1 when they disagree)
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders check tiny -n 10k --seed 1",
    "ladders check milton-bradley --players 2 -n 20k --seed 3"
))]
pub struct Args {
    #[command(flatten)]
    pub sample: SampleArgs,
}

/// Runs `check`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let args = &args.sample;
    super::config::sample(args)?;
    let tail = 0.1 / args.sim.games as f64;
    let game = match args.load()? {
        Seats::One(game) => *game,
        Seats::Race(games, meeting) => return run_race(args, &games, meeting, out),
    };
    let board = game.board();
    let law = game.exact_law(tail).map_err(|e| match e {
        ladders::Error::Endless { .. } => anyhow!("{e}{NOTHING_TO_CHECK}"),
        other => other.into(),
    })?;
    let (sim, timing) = run_simulation(&game, &args.sim)?;
    let comparison = game.judge_simulation(&law, &sim).map_err(|e| match e {
        // The command line's words for the cap.
        ladders::Error::Censored {
            capped,
            games,
            cap,
            mean,
            sd,
        } => anyhow!(
            "{capped} of {games} games reached --max-turns {cap} and were stopped: a censored \
             sample cannot be checked against the exact law of the whole game; raise --max-turns \
             (the exact mean is {mean:.1} turns, sd {sd:.1})"
        ),
        other => other.into(),
    })?;
    write_report(
        out,
        args.output.json,
        &game,
        || {
            let body = SimulationJson {
                simulation: &sim,
                timing: Some(timing),
                check: Some(CheckJson {
                    law: &law,
                    comparison: &comparison,
                }),
            };
            Ok(Report::new(board, &body, 12).with_rules().to_value()?)
        },
        |out| write_check(out, board, &sim, &law, &comparison, Some(timing)),
    )?;
    Ok(exit::code(if comparison.pass {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}

/// What follows an infinite expected number of turns in `check`'s refusal.
const NOTHING_TO_CHECK: &str = ", so there is nothing to check a simulation against";

/// `check --players K`: the race simulated, then compared seat by seat with the exact race
/// (of seats sharing a board that changes during a game too, without their scores).
fn run_race(
    args: &SampleArgs,
    games: &[Game],
    meeting: Meeting,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let seats: Vec<&Board> = games.iter().map(Game::board).collect();
    let exact = Game::race_check_law(games, meeting)?;
    let (sim, timing) = run_race_simulation(games, meeting, &args.sim)?;
    let comparison = Game::judge_race_simulation(&exact, &sim).map_err(|e| match e {
        // The command line's words for the cap.
        ladders::Error::CensoredRace {
            capped,
            races,
            cap,
            rounds,
        } => anyhow!(
            "{capped} of {races} races reached --max-turns {cap} rounds and were stopped: a \
             censored sample cannot be checked against the exact law of the whole race; raise \
             --max-turns (the exact expected length is {rounds:.1} rounds)"
        ),
        other => other.into(),
    })?;
    if args.output.json {
        let body = RaceSimulationJson {
            boards: &seats,
            simulation: &sim,
            timing: Some(timing),
            check: Some((&exact, &comparison)),
        };
        // Through a `Value`: its keys sorted, as every report's.
        write_json(out, &serde_json::to_value(body)?)?;
    } else {
        write_race_check(out, &seats, &sim, &exact, &comparison, Some(timing))?;
    }
    Ok(exit::code(if comparison.pass {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}
