//! The `shortest` report: the shortest game with its rolls and probability, the fewest rolls,
//! the longest game, and the likeliest games, as text (their JSON is the serde form of
//! `analysis::json::ExtremesJson` and of `LikeliestTurns`).

use std::io::{self, Write};

use crate::analysis::likeliest::{GameTurns, LikeliestTurns};
use crate::analysis::shortest::{Extremes, Longest, TurnRolls};
use crate::board::Board;
use crate::chain::endless_turn_sentence;
use crate::num::decimal::probability;
use crate::report::text::{board_line, rules_line};

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// One turn as text: `turn 1: 6 6 1  (1 -> 7 -> 13 -> 14)`.
pub fn turn_line(number: usize, turn: &TurnRolls) -> String {
    let rolls: Vec<String> = turn.rolls.iter().map(u32::to_string).collect();
    let mut squares = vec![turn.from.to_string()];
    squares.extend(turn.squares.iter().map(u32::to_string));
    format!(
        "turn {number}: {}  ({})",
        rolls.join(" "),
        squares.join(" -> ")
    )
}

fn write_turns(out: &mut dyn Write, turns: &[TurnRolls], first: usize) -> io::Result<()> {
    for (k, t) in turns.iter().enumerate() {
        writeln!(out, "  {}", turn_line(first + k, t))?;
    }
    Ok(())
}

/// The shortest-game and longest-game lines (shared with `analyze`).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_extremes(
    out: &mut dyn Write,
    board: &Board,
    extremes: &Extremes,
    digits: usize,
    rolls_too: bool,
) -> io::Result<()> {
    match &extremes.shortest {
        None => writeln!(
            out,
            "Shortest game    none: the finish cannot be reached from the start"
        )?,
        Some(s) => {
            writeln!(
                out,
                "Shortest game    {}, probability {} = {}",
                plural(s.turns, "turn", "turns"),
                probability(&s.probability, digits),
                s.probability
            )?;
            write_turns(out, &s.witness, 1)?;
            if !s.events.is_empty() {
                writeln!(out, "  on the way it {}", s.events.join(", "))?;
            }
            if rolls_too {
                writeln!(out, "Fewest rolls     {}", plural(s.rolls, "roll", "rolls"))?;
                write_turns(out, &s.rolls_witness, 1)?;
            }
        }
    }
    match &extremes.longest {
        Longest::Unbounded { lead_in, cycle } => {
            let mut squares = vec![cycle[0].from.to_string()];
            squares.extend(cycle.iter().map(|t| t.to().to_string()));
            writeln!(
                out,
                "Longest game     unbounded: the game can go round {} for ever",
                squares.join(" -> ")
            )?;
            if !lead_in.is_empty() {
                writeln!(out, "  from the start:")?;
                write_turns(out, lead_in, 1)?;
            }
            writeln!(out, "  round the cycle:")?;
            write_turns(out, cycle, lead_in.len() + 1)?;
        }
        Longest::EndlessTurn { lead_in } => {
            let square = lead_in.last().map_or(board.rules().start, TurnRolls::to);
            writeln!(
                out,
                "Longest game     unbounded: {}",
                endless_turn_sentence(board, square)
            )?;
            if !lead_in.is_empty() {
                writeln!(out, "  from the start:")?;
                write_turns(out, lead_in, 1)?;
            }
        }
        Longest::Bounded { turns, witness } => {
            writeln!(
                out,
                "Longest game     {}: no game is longer",
                plural(*turns, "turn", "turns")
            )?;
            write_turns(out, witness, 1)?;
        }
    }
    Ok(())
}

/// Writes the text report.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    extremes: &Extremes,
    digits: usize,
) -> io::Result<()> {
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out)?;
    write_extremes(out, board, extremes, digits, true)
}

fn game_line(out: &mut dyn Write, title: &str, game: &GameTurns, digits: usize) -> io::Result<()> {
    writeln!(
        out,
        "{title}{}, probability {} = {}{}",
        plural(game.turns.len(), "turn", "turns"),
        probability(&game.probability, digits),
        game.probability,
        ties_note(game.ties)
    )?;
    write_turns(out, &game.turns, 1)
}

/// `(one of K games with this probability)` when other games tie, else nothing.
fn ties_note(ties: u128) -> String {
    match ties {
        0 | 1 => String::new(),
        u128::MAX => " (one of more than 10^38 games with this probability)".to_string(),
        k => format!(" (one of {k} games with this probability)"),
    }
}

/// The likeliest games (`None`: the game cannot end).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_likeliest(
    out: &mut dyn Write,
    likeliest: Option<&LikeliestTurns>,
    digits: usize,
) -> io::Result<()> {
    let Some(l) = likeliest else {
        return writeln!(out, "Likeliest game   none: the game cannot end");
    };
    game_line(out, "Likeliest fewest-turn game  ", &l.fewest, digits)?;
    let title = match l.within {
        None => "Likeliest game   ".to_string(),
        Some(n) => format!("Likeliest game within {}  ", plural(n, "turn", "turns")),
    };
    match &l.overall {
        Some(g) => game_line(out, &title, g, digits)?,
        None => writeln!(out, "{title}none: no game ends so soon")?,
    }
    writeln!(
        out,
        "  (a game is the squares at the ends of its turns; its probability sums every way\n   \
         to roll each turn; the rolls shown are one way)"
    )
}
