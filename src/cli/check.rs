//! `ladders check BOARD --games N`: simulate, then compare with the exact answers (exit 1 on FAIL).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use ladders::board::Board;
use ladders::report::json::Report;
use ladders::report::race_simulate::write_race_check;
use ladders::report::simulate::{write_check, Timing};
use ladders::simulate::json::{CheckJson, RaceSimulationJson, SimulationJson};
use ladders::simulate::race::{compare_race, RaceExact, RaceSimulation, CHECK_DIGITS};
use ladders::{Game, Meeting, RaceSettings};

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

/// With `--knock-off`, joint chains up to this many transient states are solved exactly; larger
/// ones are stepped to the certified digits a check needs.
const CHECK_EXACT_LIMIT: usize = 400;

/// `check --players K`: the race simulated, then compared seat by seat with the exact race
/// (of seats sharing a board that changes during a game too, without their scores).
fn run_race(
    args: &SampleArgs,
    games: &[Game],
    meeting: Meeting,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let seats: Vec<&Board> = games.iter().map(Game::board).collect();
    // Ten certified digits are far below any sampling error, and stepping the joint chain gets
    // them faster than the exact solve once the chain has more than a few hundred states.
    let mut settings = RaceSettings::new(meeting).digits(CHECK_DIGITS);
    settings.exact_limit = CHECK_EXACT_LIMIT;
    settings.scores = false;
    let exact = match meeting {
        Meeting::SharedBoard => {
            // No game of the simulation could end: said before the exact race is tried.
            games[0].refuse_endless_turn()?;
            RaceExact::from_race(Game::race_with(games, &settings)?)
        }
        _ => RaceExact::of_check(
            Game::race_with(games, &settings)?,
            &seats,
            meeting == Meeting::KnockOff,
        ),
    };
    let (sim, timing) = run_race_simulation(games, meeting, &args.sim)?;
    report_race_check(args, &seats, &sim, &exact, timing, out)
}

/// Compares a simulated race with the exact one, writes the report, and gives the exit code.
fn report_race_check(
    args: &SampleArgs,
    seats: &[&Board],
    sim: &RaceSimulation,
    exact: &RaceExact,
    timing: Timing,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    if sim.capped > 0 {
        // As for one player: the capped races' lengths and winners are unknown, so neither the
        // win shares nor the rounds of the uncapped race may be tested on the sample.
        bail!(
            "{} of {} races reached --max-turns {} rounds and were stopped: a censored sample \
             cannot be checked against the exact law of the whole race; raise --max-turns (the \
             exact expected length is {:.1} rounds)",
            sim.capped,
            sim.games(),
            sim.max_rounds,
            exact.rounds
        );
    }
    let comparison = compare_race(exact, sim);
    if args.output.json {
        let body = RaceSimulationJson {
            boards: seats,
            simulation: sim,
            timing: Some(timing),
            check: Some((exact, &comparison)),
        };
        // Through a `Value`: its keys sorted, as every report's.
        write_json(out, &serde_json::to_value(body)?)?;
    } else {
        write_race_check(out, seats, sim, exact, &comparison, Some(timing))?;
    }
    Ok(exit::code(if comparison.pass {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}
