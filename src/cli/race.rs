//! `ladders race BOARD [BOARD ...]`: several players, win probability per seat and the game's
//! length in rounds, every digit certified.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::analysis::stateful::board_distribution;
use ladders::board::Board;
use ladders::game::Capabilities;
use ladders::race::knockoff::{knock_off_race, KnockOffOptions};
use ladders::race::shared::{shared_race, SharedOptions};
use ladders::race::{race, Race, RaceOptions};
use ladders::report::race::{table_json, to_json, write_table_text, write_text, RaceReportOptions};

use super::board_args::RuleArgs;
use super::exit;
use super::output::write_json;
use super::output_args::Json;
use super::seat_args::SeatArgs;

/// Several players: exact win odds per seat and game length
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders race milton-bradley --players 3",
    "ladders race tiny efi",
    "ladders race tiny --knock-off"
))]
pub struct Args {
    #[command(flatten)]
    pub seats: SeatArgs,
    /// With --knock-off or a board that changes during a game: solve the joint chain exactly
    /// when it has at most this many states (otherwise certified bounds)
    /// [default: 2000]
    #[arg(long, value_name = "N")]
    pub exact_limit: Option<usize>,
    /// With --knock-off or a board that changes during a game: refuse joint chains with more
    /// states than this [default: 200000 with --knock-off, 2000000 on a shared board]
    #[arg(long, value_name = "N")]
    pub state_limit: Option<usize>,
    /// Digits after the point to certify, the sum running as far as needed (default 15, or 12
    /// with --knock-off)
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub digits: Option<u16>,
    /// Give up on more digits after this many turns per player
    #[arg(long, default_value_t = 100_000, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_turns: usize,
    /// Add the distribution of the game's length in rounds (seats without knock-off)
    #[arg(long, conflicts_with = "knock_off")]
    pub distribution: bool,
    #[command(flatten)]
    pub output: Json,
    /// Also write a chart of each seat's chance of having won by each round as SVG to FILE
    /// (`-`: standard output, instead of the report); seats that do not meet (no --knock-off,
    /// not a board that changes during a game)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// The squares the players stand on, in playing order (the first listed moves first)
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub from: Option<Vec<u32>>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The boards of the seats, in playing order: one name for every seat or one per seat, each
/// loaded with `rules`, and the seats in `reverse_seat` (from 1) reversed.
pub fn seat_boards(
    names: &[String],
    rules: &RuleArgs,
    reverse_seat: &[usize],
    players: usize,
) -> Result<Vec<Board>> {
    let names: Vec<&String> = if names.len() == 1 {
        vec![&names[0]; players]
    } else if names.len() == players {
        names.iter().collect()
    } else {
        bail!(
            "{} boards given for {players} players: give one board for every seat, or one for all",
            names.len()
        )
    };
    for &seat in reverse_seat {
        if seat == 0 || seat > players {
            bail!("--reverse-seat {seat}: seats are numbered 1 to {players}");
        }
    }
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut rules = rules.clone();
            if reverse_seat.contains(&(i + 1)) {
                rules.reverse = !rules.reverse;
            }
            let board = rules.load(name)?;
            ladders::chain::check_fits(&board)?;
            Ok(board)
        })
        .collect()
}

/// Memory of the knock-off joint chain per state, with its transitions and the stepping vectors:
/// measured 66 MB peak for the about 30,000 states of three players on a 30-square board
/// (`/usr/bin/time -v ladders race b30.toml --knock-off --players 3 --exact-limit 0`), rounded up.
const BYTES_PER_JOINT_STATE: f64 = 2_500.0;

/// The most memory a knock-off race may plan for before it starts building the joint chain.
const KNOCK_OFF_MEMORY: f64 = 2.0 * (1u64 << 30) as f64;

/// Refuses, before anything is allocated, a knock-off race whose joint chain could need more
/// than [`KNOCK_OFF_MEMORY`]: the states are at most the product of the seats' squares (start
/// included) times the seats (whose turn it is), and `--state-limit` caps them.
fn knock_off_memory_fits(seats: &[&Board], state_limit: usize) -> Result<()> {
    let bound = seats.len() as f64
        * seats
            .iter()
            .map(|b| f64::from(b.size()) + 1.0)
            .product::<f64>();
    let states = bound.min(state_limit as f64);
    let bytes = states * BYTES_PER_JOINT_STATE;
    if bytes > KNOCK_OFF_MEMORY {
        bail!(
            "the knock-off joint chain may need up to {states:.3e} states, about {:.1} GB of memory \
             (the limit is {:.0} GB): a smaller --state-limit refuses it cleanly, or \
             `ladders simulate --players {} --knock-off` estimates it with standard errors",
            bytes / 1e9,
            KNOCK_OFF_MEMORY / 1e9,
            seats.len()
        );
    }
    Ok(())
}

/// The race of seats sharing one board that changes during a game ([`shared_race`]): every
/// seat on the same board, no knock-off.
fn run_shared(args: &Args, seats: &[&Board], digits: usize) -> Result<Race> {
    let board = seats[0];
    let one_board =
        args.seats.boards.len() == 1 && args.seats.reverse_seat.is_empty() && args.from.is_none();
    if args.seats.knock_off || args.distribution || !one_board {
        bail!(
            "{}: a board that changes during a game is shared by every seat (a broken ladder is \
             broken for all): give one board for all seats, without --reverse-seat, --from, \
             --knock-off or --distribution",
            board.origin()
        );
    }
    let options = SharedOptions {
        digits,
        exact_limit: args.exact_limit.unwrap_or(2000),
        state_limit: args
            .state_limit
            .unwrap_or(SharedOptions::default().state_limit),
        scores: true,
    };
    super::simulate::refuse_endless_shared(board, seats.len())?;
    Ok(shared_race(board, seats.len(), &options)?)
}

/// Runs `race`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let super::config::Race { players, digits } = super::config::race(args)?;
    if let Some(code) = super::duel::run_if_choosing(args, &players, out)? {
        return Ok(code);
    }
    let options = RaceOptions {
        digits,
        max_turns: args.max_turns.max(1),
        distribution: args.distribution,
    };
    if players.from != players.to {
        let board = args.rules.load(&args.seats.boards[0])?;
        super::board_args::square_state_only(&board, "race")?;
        ladders::chain::check_fits(&board)?;
        let mut races = Vec::new();
        for k in players.from..=players.to {
            let seats = vec![&board; k];
            races.push(race(&seats, &options)?);
        }
        if args.output.json {
            write_json(out, &table_json(&board, &races))?;
        } else {
            write_table_text(out, &board, &races)?;
        }
        return Ok(exit::code(exit::SUCCESS));
    }
    let boards = match &args.from {
        Some(from) => super::duel::positioned_boards(args, from)?,
        None => seat_boards(
            &args.seats.boards,
            &args.rules,
            &args.seats.reverse_seat,
            players.from,
        )?,
    };
    let seats: Vec<&Board> = boards.iter().collect();
    let stateful = seats.iter().any(|b| !Capabilities::of(b).stateless);
    if !stateful
        && !args.seats.knock_off
        && (args.exact_limit.is_some() || args.state_limit.is_some())
    {
        bail!("--exact-limit and --state-limit are for joint chains: --knock-off, or a board that changes during a game");
    }
    if stateful && args.svg.is_some() {
        bail!(
            "--svg charts a race of seats that do not meet; on a board that changes during a \
             game the seats share it"
        );
    }
    let result = if stateful {
        run_shared(args, &seats, digits)?
    } else if args.seats.knock_off {
        let state_limit = args.state_limit.unwrap_or(200_000);
        if !ladders::race::relative::applies(&seats) {
            knock_off_memory_fits(&seats, state_limit)?;
        }
        let options = KnockOffOptions {
            digits,
            max_turns: args.max_turns.max(1),
            state_limit,
            exact_limit: args.exact_limit.unwrap_or(2000),
        };
        knock_off_race(&seats, true, &options)?
    } else {
        race(&seats, &options)?
    };
    if let Some(path) = &args.svg {
        if write_race_svg(path, &seats, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    let report = RaceReportOptions {
        distribution: args.distribution,
        knock_off: args.seats.knock_off,
    };
    if args.output.json {
        write_json(out, &to_json(&seats, &result, report))?;
    } else {
        write_text(out, &seats, &result, report)?;
    }
    Ok(exit::code(exit::SUCCESS))
}

/// Writes the chart of each seat's chance of having won by each round to `path` (`-`: `out`),
/// from the seats' exact laws to P(T > n) below 1/10,000; true when it went to `out`.
fn write_race_svg(path: &str, seats: &[&Board], out: &mut dyn Write) -> Result<bool> {
    let laws = seats
        .iter()
        .map(|b| board_distribution(b, &super::distribution::chart_law_options()))
        .collect::<Result<Vec<_>, _>>()?;
    let laws: Vec<&_> = laws.iter().collect();
    let svg = ladders::report::chart::race_svg(seats, &laws)?;
    super::draw::write_svg(path, &svg, out)
}
