//! The report of `ladders race BOARD` on a board with a choice rule: two players who choose,
//! the first mover's certified chance of winning with both optimal and with both following each
//! fixed policy, and the first mover's advantage (its JSON is the serde form of `DuelJson`).

use std::io::{self, Write};

use super::optimize::rule_line;
use super::text::{board_line, rules_line};
use crate::board::Board;
use crate::facade::{advantage, upper_f64, Duel, DuelPair, DuelProof};
use crate::num::interval::certified_digits;

/// What the report shows ([`DuelReport::new`]).
#[non_exhaustive]
pub struct DuelReport<'a> {
    /// The board.
    pub board: &'a Board,
    /// The façade's answer.
    pub duel: &'a Duel,
    /// Digits to certify.
    pub digits: usize,
}

impl<'a> DuelReport<'a> {
    /// The report of `duel` on `board`, certified to `digits` digits.
    pub fn new(board: &'a Board, duel: &'a Duel, digits: usize) -> DuelReport<'a> {
        DuelReport {
            board,
            duel,
            digits,
        }
    }
}

/// Writes the text report.
///
/// # Errors
///
/// Writing fails.
pub fn write_text(out: &mut dyn Write, r: &DuelReport<'_>) -> io::Result<()> {
    let d = r.duel;
    writeln!(out, "{}", board_line(r.board))?;
    writeln!(out, "rules: {}", rules_line(r.board))?;
    if let Some(rule) = r.board.choice() {
        writeln!(out, "choice: {}", rule_line(rule))?;
    }
    writeln!(
        out,
        "two players alternate, the first on {} moving first, the other on {}; the first to finish wins",
        d.from[0], d.from[1]
    )?;
    writeln!(out)?;
    let width = d.pairs.iter().map(|p| p.name.len()).max().unwrap_or(0) + 5;
    writeln!(
        out,
        "{:<width$}first mover wins    advantage (points)",
        "both play"
    )?;
    for p in &d.pairs {
        match (&p.first_wins, &p.error) {
            (Some(chance), _) => writeln!(
                out,
                "{:<width$}{:<20}{:+}",
                p.name,
                certified_digits(chance, r.digits).text,
                certified_digits(&advantage(chance), r.digits.saturating_sub(2)).text
            )?,
            (None, e) => writeln!(out, "{:<width$}{}", p.name, e.as_deref().unwrap_or(""))?,
        }
    }
    if let Some(
        first @ DuelPair {
            first_wins: Some(_),
            ..
        },
    ) = d.pairs.first()
    {
        writeln!(out)?;
        writeln!(
            out,
            "optimal strategies: value iteration ({} sweeps), then the pair evaluated with a \
             certified bound (residual {:.1e}, expected remaining turns at most {}); no single-turn \
             deviation gains more than {:.1e}",
            first.sweeps, first.residual, first.turns_bound, first.deviation_gain_bound
        )?;
        write_proof(out, d.proof.as_ref(), r.digits)?;
    }
    Ok(())
}

/// The line on deviations over any number of turns.
fn write_proof(out: &mut dyn Write, proof: Option<&DuelProof>, digits: usize) -> io::Result<()> {
    match proof {
        Some(
            p @ DuelProof {
                deviator_turns_bound: Some([first, second]),
                ..
            },
        ) => writeln!(
            out,
            "over any number of turns, no deviation by either player gains more than {:.1e} \
             (a deviator's expected turns are at most {first} and {second}): the value of the \
             game is {}",
            upper_f64(&p.total_gain),
            certified_digits(&p.game_value, digits).text
        ),
        Some(p) => writeln!(
            out,
            "every other choice is worse at every decision, so no deviation, over any number of \
             turns, gains anything: the value of the game is {}",
            certified_digits(&p.game_value, digits).text
        ),
        None => writeln!(
            out,
            "over several turns: not proved (no bound on the turns of a deviating player was found)"
        ),
    }
}
