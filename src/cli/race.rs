//! `ladders race BOARD [BOARD ...]`: several players, win probability per seat and the game's
//! length in rounds, every digit certified.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::board::Board;
use ladders::report::{
    write_race as write_text, write_race_table as write_table_text, RaceJson, RaceReportOptions,
    RaceTableJson,
};
use ladders::{Game, Meeting, RaceSettings};

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

/// The games of the seats, in playing order: one name for every seat or one per seat, each
/// loaded with `rules`, and the seats in `reverse_seat` (from 1) reversed.
pub fn seat_games(
    names: &[String],
    rules: &RuleArgs,
    reverse_seat: &[usize],
    players: usize,
) -> Result<Vec<Game>> {
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
            rules.game(name)
        })
        .collect()
}

/// How the seats meet, from the arguments and the boards: a board that changes during a game
/// is shared by every seat (one board for all, none of the flags that need seats apart).
fn meeting(args: &Args, games: &[Game]) -> Result<Meeting> {
    let shared = games.iter().any(Game::changes_during_a_game);
    if !shared
        && !args.seats.knock_off
        && (args.exact_limit.is_some() || args.state_limit.is_some())
    {
        bail!("--exact-limit and --state-limit are for joint chains: --knock-off, or a board that changes during a game");
    }
    if !shared {
        return Ok(match args.seats.knock_off {
            true => Meeting::KnockOff,
            false => Meeting::Never,
        });
    }
    if args.svg.is_some() {
        bail!(
            "--svg charts a race of seats that do not meet; on a board that changes during a \
             game the seats share it"
        );
    }
    let one_board =
        args.seats.boards.len() == 1 && args.seats.reverse_seat.is_empty() && args.from.is_none();
    if args.seats.knock_off || args.distribution || !one_board {
        bail!(
            "{}: a board that changes during a game is shared by every seat (a broken ladder is \
             broken for all): give one board for all seats, without --reverse-seat, --from, \
             --knock-off or --distribution",
            games[0].board().origin()
        );
    }
    Ok(Meeting::SharedBoard)
}

/// Runs `race`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let super::config::Race { players, digits } = super::config::race(args)?;
    if let Some(code) = super::duel::run_if_choosing(args, &players, out)? {
        return Ok(code);
    }
    let mut settings = RaceSettings::new(Meeting::Never).digits(digits);
    settings.max_turns = args.max_turns;
    settings.distribution = args.distribution;
    if players.from != players.to {
        let game = args.rules.game(&args.seats.boards[0])?;
        super::board_args::square_state_only(&game, "race")?;
        let races = game.race_table(players.from..=players.to, &settings)?;
        if args.output.json {
            // Through a `Value`: its keys sorted, as every report's.
            let table = RaceTableJson {
                board: game.board(),
                races: &races,
            };
            write_json(out, &serde_json::to_value(table)?)?;
        } else {
            write_table_text(out, game.board(), &races)?;
        }
        return Ok(exit::code(exit::SUCCESS));
    }
    let games = match &args.from {
        Some(from) => super::duel::positioned_games(args, from)?,
        None => seat_games(
            &args.seats.boards,
            &args.rules,
            &args.seats.reverse_seat,
            players.from,
        )?,
    };
    settings.meeting = meeting(args, &games)?;
    settings.exact_limit = args.exact_limit.unwrap_or(settings.exact_limit);
    settings.state_limit = args.state_limit;
    let result = Game::race_with(&games, &settings)?;
    let seats: Vec<&Board> = games.iter().map(Game::board).collect();
    if let Some(path) = &args.svg {
        if write_race_svg(path, &games, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    let mut report = RaceReportOptions::default();
    report.distribution = args.distribution;
    report.knock_off = args.seats.knock_off;
    if args.output.json {
        let json = RaceJson {
            boards: &seats,
            race: &result,
            knock_off: report.knock_off,
            distribution: report.distribution,
        };
        // Through a `Value`: its keys sorted, as every report's.
        write_json(out, &serde_json::to_value(json)?)?;
    } else {
        write_text(out, &seats, &result, report)?;
    }
    Ok(exit::code(exit::SUCCESS))
}

/// Writes the chart of each seat's chance of having won by each round to `path` (`-`: `out`),
/// from the seats' exact laws to P(T > n) below 1/10,000; true when it went to `out`.
fn write_race_svg(path: &str, games: &[Game], out: &mut dyn Write) -> Result<bool> {
    let laws = games
        .iter()
        .map(|g| g.distribution(&super::distribution::chart_law_options()))
        .collect::<Result<Vec<_>, _>>()?;
    let laws: Vec<&_> = laws.iter().collect();
    let seats: Vec<&Board> = games.iter().map(Game::board).collect();
    let svg = ladders::report::race_svg(&seats, &laws)?;
    super::draw::write_svg(path, &svg, out)
}
