//! The `race` report: win probabilities per seat, the first-mover advantage and the game's
//! length in rounds, every number with its certified digits; as text (its JSON is the serde
//! form of `RaceJson`).

use std::io::{self, Write};

use num_rational::BigRational;

use crate::board::Board;
use crate::race::{Interval, Method, Race};
use crate::report::text::rules_line;

/// What to show in a `race` report (from `Default`: neither, then set field by field).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct RaceReportOptions {
    /// Add the distribution of the game's length in rounds.
    pub distribution: bool,
    /// Whether the knock-off rule was played.
    pub knock_off: bool,
}

fn pp(interval: &Interval) -> Interval {
    interval.scale(&BigRational::from_integer(100.into()))
}

/// ` = p/q` for a one-point interval whose fraction is short enough to read.
fn fraction_suffix(interval: &Interval) -> String {
    if interval.lo != interval.hi {
        return String::new();
    }
    let text = interval.lo.to_string();
    if text.len() <= 40 {
        format!(" = {text}")
    } else {
        String::new()
    }
}

fn method_sentence(race: &Race) -> String {
    match race.method {
        Method::Series => format!(
            "Every digit shown is certified: the exact value lies in an interval of rationals \
             that rounds to it (series summed over {} turns per player, the rest bounded exactly).",
            race.turns_summed
        ),
        Method::ExactSolve => "Exact: the joint chain solved in rational arithmetic.".to_string(),
        Method::SteppedJoint => format!(
            "Every digit shown is certified: the joint chain's law stepped over {} turns (all \
             seats together) with outward rounding, the rest bounded exactly.",
            race.turns_summed
        ),
        Method::RelativePositions => "Every digit shown is certified: the joint values solved \
            over positions relative to the mover in floats, with an error bound checked exactly \
            in integers (the residual times a proved bound on the game's length)."
            .to_string(),
        Method::LayeredCertified => "Every digit shown is certified: the joint chain of the \
            shared board solved in floats one layer of used-up jumps at a time, with an error \
            bound checked exactly in integers (the residual times a proved bound on the game's \
            length)."
            .to_string(),
    }
}

/// The opening lines of every race report: the seats, the turn order and knock-off, and the
/// rules when every seat plays by the same ones (returned: whether they do).
pub(crate) fn write_race_header(
    out: &mut dyn Write,
    boards: &[&Board],
    knock_off: bool,
) -> io::Result<bool> {
    let k = boards.len();
    let rule = if knock_off { ", knock-off" } else { "" };
    writeln!(
        out,
        "Race             {k} player{}, whole turns in seat order, the first to finish wins{rule}",
        if k == 1 { "" } else { "s" }
    )?;
    let same_rules = boards.iter().all(|b| b.rules() == boards[0].rules());
    if same_rules {
        writeln!(out, "Rules            {}", rules_line(boards[0]))?;
    }
    Ok(same_rules)
}

/// The width of a race table's board column: the longest board name, at least that of `board`.
pub(crate) fn name_width(boards: &[&Board]) -> usize {
    boards
        .iter()
        .map(|b| b.name().len())
        .max()
        .unwrap_or(5)
        .max(5)
}

/// Writes the text report of one race.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    boards: &[&Board],
    race: &Race,
    options: RaceReportOptions,
) -> io::Result<()> {
    let d = race.digits;
    let same_rules = write_race_header(out, boards, options.knock_off)?;
    writeln!(out)?;
    let width = name_width(boards);
    writeln!(out, "seat  {:<width$}  wins", "board")?;
    for (seat, board) in race.seats.iter().zip(boards) {
        writeln!(
            out,
            "{:>4}  {:<width$}  {}{}",
            seat.seat,
            board.name(),
            seat.win.certified(d).text,
            fraction_suffix(&seat.win)
        )?;
        if !same_rules {
            writeln!(out, "      {:<width$}  {}", "", rules_line(board))?;
        }
    }
    writeln!(out)?;
    if let Some(adv) = race.first_mover_advantage() {
        writeln!(
            out,
            "Seat 1 - seat 2  {} percentage points",
            pp(&adv).certified(d.saturating_sub(2)).text
        )?;
    }
    writeln!(
        out,
        "Expected rounds  {}{}",
        race.expected_rounds.certified(d).text,
        fraction_suffix(&race.expected_rounds)
    )?;
    let moves = race.expected_moves();
    writeln!(
        out,
        "Expected moves   {}{} (the turns of all players together)",
        moves.certified(d).text,
        fraction_suffix(&moves)
    )?;
    for seat in &race.seats {
        if let Some(score) = &seat.score {
            writeln!(
                out,
                "Score seat {:<6}{}{}",
                seat.seat,
                score.certified(d).text,
                fraction_suffix(score)
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "{}", method_sentence(race))?;
    if race.seats.iter().any(|s| s.score.is_some()) {
        writeln!(
            out,
            "A seat's score is the sum over the point squares of their points times the chance \
             that its move is the first to end there, each chance from the chain of the race to \
             that square, solved the same way."
        )?;
    }
    if !race.complete && race.turns_summed > 0 {
        writeln!(
            out,
            "The sum stopped at --max-turns {} before every answer had {d} digits.",
            race.turns_summed
        )?;
    } else if !race.complete {
        writeln!(
            out,
            "The certified bound settles fewer than {d} digits of some answers; each shows the \
             digits it settles."
        )?;
    }
    if options.distribution && !race.rounds_at_least.is_empty() {
        writeln!(out)?;
        writeln!(out, "{:>6}  {:<10}  P(L <= n)", "rounds", "P(L = n)")?;
        for row in race.rounds_distribution() {
            writeln!(
                out,
                "{:>6}  {:<10}  {}",
                row.0,
                row.1.certified(8).text,
                row.2.certified(8).text
            )?;
        }
    }
    Ok(())
}

/// Writes the table of several races on one board with growing numbers of players.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_table_text(out: &mut dyn Write, board: &Board, races: &[Race]) -> io::Result<()> {
    writeln!(
        out,
        "Board            {}",
        crate::report::text::board_line(board)
    )?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out)?;
    let d = races.first().map_or(0, |r| r.digits);
    let rows: Vec<[String; 3]> = races
        .iter()
        .map(|r| {
            let last = r.seats.last().expect("at least one seat");
            [
                r.expected_rounds.certified(d).text,
                r.seats[0].win.certified(d).text,
                last.win.certified(d).text,
            ]
        })
        .collect();
    let headers = ["expected rounds", "seat 1 wins", "last seat wins"];
    let width = |c: usize| {
        rows.iter()
            .map(|r| r[c].len())
            .max()
            .unwrap_or(0)
            .max(headers[c].len())
    };
    let (w0, w1) = (width(0), width(1));
    writeln!(
        out,
        "players  {:<w0$}  {:<w1$}  {}",
        headers[0], headers[1], headers[2]
    )?;
    for (r, row) in races.iter().zip(&rows) {
        writeln!(
            out,
            "{:>7}  {:<w0$}  {:<w1$}  {}",
            r.seats.len(),
            row[0],
            row[1],
            row[2]
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Every digit shown is certified (series with an exact tail bound, see docs/race.md)."
    )?;
    Ok(())
}
