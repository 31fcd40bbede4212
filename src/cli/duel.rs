//! `ladders race BOARD` on a board with a choice rule (two players who choose, each maximising
//! their own chance of winning: [`ladders::Game::duel`]), and `race --from A,B`: the race from
//! any positions, the first listed moving first.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::report::{write_duel as write_text, DuelJson, DuelReport, Report};

use super::exit;
use super::output::write_json;
use super::race::Args;
use super::seat_args::Players;

/// With a choice rule on the one board: the two-player game, answered and reported; otherwise
/// `None` (an ordinary race).
pub fn run_if_choosing(
    args: &Args,
    players: &Players,
    out: &mut dyn Write,
) -> Result<Option<ExitCode>> {
    if args.seats.boards.len() != 1 {
        return Ok(None);
    }
    let game = args.rules.game_with_choices(&args.seats.boards[0])?;
    let board = game.board();
    let Some(rule) = board.choice() else {
        return Ok(None);
    };
    if (players.from, players.to) != (2, 2)
        || args.seats.knock_off
        || !args.seats.reverse_seat.is_empty()
        || args.distribution
        || args.svg.is_some()
    {
        bail!(
            "{}: players who choose ({}) race two at a time, without --knock-off, --reverse-seat, --distribution or --svg",
            board.origin(),
            rule.key()
        );
    }
    let from = match args.from.as_deref() {
        Some([a, b]) => Some((*a, *b)),
        Some(_) => unreachable!("--from is checked against the players"),
        None => None,
    };
    let duel = game.duel(from)?;
    let certified = duel.pairs[0].first_wins.is_some();
    let report = DuelReport::new(board, &duel, usize::from(args.digits.unwrap_or(12)));
    if args.output.json {
        write_json(
            out,
            &Report::new(board, &DuelJson::new(&duel, report.digits), 12).with_rules(),
        )?;
    } else {
        write_text(out, &report)?;
    }
    Ok(Some(exit::code(if certified {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    })))
}

/// `race --from`: each seat's game starting where the seat stands (`--start` per seat).
pub fn positioned_games(args: &Args, from: &[u32]) -> Result<Vec<ladders::Game>> {
    let names: Vec<&String> = match args.seats.boards.len() {
        1 => vec![&args.seats.boards[0]; from.len()],
        k if k == from.len() => args.seats.boards.iter().collect(),
        k => bail!(
            "{k} boards given for {} positions: give one board, or one per position",
            from.len()
        ),
    };
    names
        .iter()
        .zip(from)
        .enumerate()
        .map(|(i, (name, &square))| {
            let mut rules = args.rules.clone();
            rules.start = Some(square);
            if args.seats.reverse_seat.contains(&(i + 1)) {
                rules.reverse = !rules.reverse;
            }
            let game = rules.game(name)?;
            super::board_args::square_state_only(&game, "race")?;
            Ok(game)
        })
        .collect()
}
