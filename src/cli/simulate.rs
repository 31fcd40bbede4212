//! `ladders simulate BOARD --games N`: play games roll by roll, seeded, on all cores.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use ladders::board::Board;
use ladders::report::simulation_svg;
use ladders::report::write_race_simulation;
use ladders::report::{write_histogram_csv, write_simulation, Timing};
use ladders::report::{RaceSimulationJson, Report, SimulationJson};
use ladders::simulate::RaceSimulation;
use ladders::simulate::{SimOptions, Simulation, DEFAULT_MAX_TURNS};
use ladders::{Game, Meeting, MAX_GAMES};

use super::board_args::RuleArgs;
use super::distribution::chart_law_options;
use super::exit;
use super::output::write_json;
use super::output_args::Json;
use super::policy_arg::{write_report, PolicyArgs};
use super::race::seat_games;
use super::seat_args::{SeatArgs, SIMULATING};

/// The options every simulating command shares.
#[derive(clap::Args, Clone, Debug)]
pub struct SimArgs {
    /// Games to play: 1000000, 1_000_000, 1e6, 1M (k, M, G suffixes)
    #[arg(long, short = 'n', value_name = "N", default_value = "1M", value_parser = parse_games)]
    pub games: u64,
    /// Seed of the random streams; the same seed gives the same output on any number of threads
    /// (default: a random seed, printed)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Threads to use (default: all cores)
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Stop a game after this many turns and count it as capped
    #[arg(long, value_name = "TURNS", default_value_t = DEFAULT_MAX_TURNS, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub max_turns: u64,
}

/// What `simulate` and `check` both take: the seats (in these commands' words: [`SIMULATING`])
/// and the rule overrides, the games, the policy, the output format.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg(SIMULATING[0].0, SIMULATING[0].1),
    mut_arg(SIMULATING[1].0, SIMULATING[1].1),
    mut_arg(SIMULATING[2].0, SIMULATING[2].1),
    mut_arg(SIMULATING[3].0, SIMULATING[3].1)
)]
pub struct SampleArgs {
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub sim: SimArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub output: Json,
}

/// What the seat arguments ask for.
pub enum Seats {
    /// One player on one board (following a policy with `--policy`).
    One(Box<Game>),
    /// A race: the seats' games in playing order, and how they meet (several players on a
    /// board that changes during a game share it: the same game in every seat).
    Race(Vec<Game>, Meeting),
}

impl SampleArgs {
    /// Loads the board (with `--policy`, its player following that policy: `--policy` with a
    /// race is refused by [`super::config::sample`]), or the games of a race's seats.
    pub fn load(&self) -> Result<Seats> {
        let seats = &self.seats;
        if let Some(game) = self.policy.load(&self.rules, &seats.boards[0])? {
            return Ok(Seats::One(Box::new(game)));
        }
        if !seats.is_race() {
            let game = self.rules.game(&seats.boards[0])?;
            return Ok(Seats::One(Box::new(game)));
        }
        let players = seats.players.map_or(seats.default_players(), |p| p.from);
        let first = self.rules.game(&seats.boards[0])?;
        if first.changes_during_a_game() {
            if seats.boards.iter().any(|b| *b != seats.boards[0])
                || seats.knock_off
                || !seats.reverse_seat.is_empty()
            {
                bail!(
                    "{}: players on a board that changes during a game share it (a broken ladder \
                     is broken for everyone): give one board for all seats, without --knock-off \
                     or --reverse-seat",
                    first.board().origin()
                );
            }
            return Ok(Seats::Race(vec![first; players], Meeting::SharedBoard));
        }
        let games = seat_games(&seats.boards, &self.rules, &seats.reverse_seat, players)?;
        let meeting = match seats.knock_off {
            true => Meeting::KnockOff,
            false => Meeting::Never,
        };
        Ok(Seats::Race(games, meeting))
    }
}

/// Simulate games roll by roll
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders simulate milton-bradley -n 100k --seed 7",
    "ladders simulate efi --players 3 -n 10k --seed 1",
    "ladders simulate tiny -n 1k --seed 2 --histogram-csv -"
))]
pub struct Args {
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Write the turns histogram as CSV (`turns,games`) to this file (`-`: standard output,
    /// instead of the report)
    #[arg(long, value_name = "FILE")]
    pub histogram_csv: Option<String>,
    /// Also write a chart as SVG to FILE: the sample's share of games ending at each turn, over
    /// the exact law when it can be computed (`-`: standard output, instead of the report; one
    /// player)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

/// Reads a game count: digits with optional `_` or `,`, scientific `1e7`, or a k/M/G suffix.
pub fn parse_games(text: &str) -> Result<u64, String> {
    let t: String = text
        .trim()
        .chars()
        .filter(|&c| c != '_' && c != ',')
        .collect();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1e3),
        Some((i, 'M')) => (&t[..i], 1e6),
        Some((i, 'G' | 'B')) => (&t[..i], 1e9),
        _ => (t.as_str(), 1.0),
    };
    let bad = || {
        format!(
            "{} is not a number of games (examples: 1000000, 1_000_000, 1e6, 1M)",
            ladders::report::echo(text)
        )
    };
    let value = if let Ok(v) = num.parse::<u64>() {
        v as f64 * mult
    } else {
        num.parse::<f64>().map_err(|_| bad())? * mult
    };
    if !value.is_finite() || value < 1.0 || value.fract() != 0.0 {
        return Err(bad());
    }
    if value > MAX_GAMES as f64 {
        return Err(format!("{text}: at most {MAX_GAMES} games per run"));
    }
    Ok(value as u64)
}

/// A seed from the operating system's randomness (std's hasher keys), for runs without --seed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Runs `body` (given the seed) on a pool of the asked thread count, timed.
fn in_pool<T: Send>(args: &SimArgs, body: impl FnOnce(u64) -> T + Send) -> Result<(T, Timing)> {
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(usize::from(t));
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    // The pool's threads hear the command's progress listener too.
    let listener = ladders::progress::carried();
    let result = pool.install(|| listener.run(|| body(seed)));
    let seconds = start.elapsed().as_secs_f64();
    Ok((result, Timing { seconds, threads }))
}

/// The options of the simulator for `seed`.
fn sim_options(args: &SimArgs, seed: u64) -> SimOptions {
    SimOptions::new(args.games, seed).max_turns(args.max_turns)
}

/// Plays one player's games ([`Game::simulation`]) with the thread count; the library's stage
/// shows the progress.
pub fn run_simulation(game: &Game, args: &SimArgs) -> Result<(Simulation, Timing)> {
    let (sim, timing) = in_pool(args, |seed| game.simulation(&sim_options(args, seed)))?;
    Ok((sim?, timing))
}

/// Plays races of `seats` ([`Game::race_simulation`]; the turn cap is a cap on rounds) with
/// the thread count; the library's stage shows the progress.
pub fn run_race_simulation(
    seats: &[Game],
    meeting: Meeting,
    args: &SimArgs,
) -> Result<(RaceSimulation, Timing)> {
    let (sim, timing) = in_pool(args, |seed| {
        Game::race_simulation(seats, meeting, &sim_options(args, seed))
    })?;
    Ok((sim?, timing))
}

/// Writes a race simulation's report (text or JSON).
fn write_race_report(
    out: &mut dyn Write,
    json: bool,
    seats: &[&Board],
    sim: &RaceSimulation,
    timing: Timing,
) -> Result<()> {
    if json {
        let body = RaceSimulationJson {
            boards: seats,
            simulation: sim,
            timing: Some(timing),
            check: None,
        };
        // Through a `Value`: its keys sorted, as every report's.
        write_json(out, &serde_json::to_value(body)?)?;
    } else {
        write_race_simulation(out, seats, sim, Some(timing))?;
    }
    Ok(())
}

/// Runs `simulate`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    super::config::simulate(args)?;
    let game = match args.sample.load()? {
        Seats::One(game) => *game,
        Seats::Race(games, meeting) => {
            let (sim, timing) = run_race_simulation(&games, meeting, &args.sample.sim)?;
            let seats: Vec<&Board> = games.iter().map(Game::board).collect();
            write_race_report(out, args.sample.output.json, &seats, &sim, timing)?;
            return Ok(exit::code(exit::SUCCESS));
        }
    };
    let board = game.board();
    let (sim, timing) = run_simulation(&game, &args.sample.sim)?;
    if let Some(path) = &args.histogram_csv {
        if path == "-" {
            write_histogram_csv(out, &sim.turns)?;
            return Ok(exit::code(exit::SUCCESS));
        }
        let mut csv = Vec::new();
        write_histogram_csv(&mut csv, &sim.turns)?;
        super::output::write_file(path, "CSV", &csv)?;
    }
    if let Some(path) = &args.svg {
        let exact = game.distribution(&chart_law_options()).ok();
        let svg = simulation_svg(board, &sim, exact.as_ref())?;
        if super::draw::write_svg(path, &svg, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    write_report(
        out,
        args.sample.output.json,
        &game,
        || {
            let body = SimulationJson {
                simulation: &sim,
                timing: Some(timing),
                check: None,
            };
            Ok(Report::new(board, &body, 12).with_rules().to_value()?)
        },
        |out| write_simulation(out, board, &sim, Some(timing)),
    )?;
    Ok(exit::code(exit::SUCCESS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_counts_are_read_in_every_usual_form() {
        for text in ["10M", "1e7", "10_000_000", "10,000,000", "10000k", "0.01G"] {
            assert_eq!(parse_games(text), Ok(10_000_000), "{text}");
        }
        for bad in ["0", "-5", "1.5", "ten", "1e13", "2.5e-7M"] {
            assert!(parse_games(bad).is_err(), "{bad}");
        }
    }
}
