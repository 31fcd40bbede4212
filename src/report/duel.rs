//! The report of `ladders race BOARD` on a board with a choice rule: two players who choose,
//! the first mover's certified chance of winning with both optimal and with both following each
//! fixed policy, and the first mover's advantage.

use std::io::{self, Write};

use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde_json::{json, Value};

use super::json::{board_rules_json, BoardJson};
use super::optimize::rule_line;
use super::text::{board_line, rules_line};
use crate::board::{Board, Square};
use crate::choice::duel::Pair;
use crate::choice::duel_proof::DeviationProof;
use crate::choice::Game;
use crate::race::interval::{certified_digits, Interval};

/// What the report shows.
pub struct DuelReport<'a> {
    /// The board.
    pub board: &'a Board,
    /// Its decision process.
    pub game: &'a Game,
    /// The squares the two players stand on; the first moves first.
    pub from: (Square, Square),
    /// Both optimal first, then each fixed policy.
    pub pairs: Vec<Pair>,
    /// Digits to certify.
    pub digits: usize,
}

/// The first mover's advantage in percentage points: 100 (2p - 1), the game ending for sure.
fn advantage(p: &Interval) -> Interval {
    let k = |n: i64| BigRational::from_integer(n.into());
    Interval::new(
        (&p.lo * k(2) - k(1)) * k(100),
        (&p.hi * k(2) - k(1)) * k(100),
    )
}

/// Writes the text report.
///
/// # Errors
///
/// Writing fails.
pub fn write_text(out: &mut dyn Write, r: &DuelReport<'_>) -> io::Result<()> {
    writeln!(out, "{}", board_line(r.board))?;
    writeln!(out, "rules: {}", rules_line(r.board))?;
    writeln!(out, "choice: {}", rule_line(&r.game.rule))?;
    writeln!(
        out,
        "two players alternate, the first on {} moving first, the other on {}; the first to finish wins",
        r.from.0, r.from.1
    )?;
    writeln!(out)?;
    let width = r.pairs.iter().map(|p| p.name.len()).max().unwrap_or(0) + 5;
    writeln!(
        out,
        "{:<width$}first mover wins    advantage (points)",
        "both play"
    )?;
    for p in &r.pairs {
        match &p.result {
            Ok((chance, _)) => writeln!(
                out,
                "{:<width$}{:<20}{:+}",
                p.name,
                certified_digits(chance, r.digits).text,
                certified_digits(&advantage(chance), r.digits.saturating_sub(2)).text
            )?,
            Err(e) => writeln!(out, "{:<width$}{e}", p.name)?,
        }
    }
    if let Some(Ok((_, c))) = r.pairs.first().map(|p| &p.result) {
        writeln!(out)?;
        writeln!(
            out,
            "optimal strategies: value iteration ({} sweeps), then the pair evaluated with a \
             certified bound (residual {:.1e}, expected remaining turns at most {}); no single-turn \
             deviation gains more than {:.1e}",
            r.pairs[0].sweeps,
            c.residual_f64(),
            c.max_turns_bound(),
            c.gap
        )?;
        write_proof(out, r.pairs[0].proof.as_ref(), r.digits)?;
    }
    Ok(())
}

/// The line on deviations over any number of turns.
fn write_proof(
    out: &mut dyn Write,
    proof: Option<&DeviationProof>,
    digits: usize,
) -> io::Result<()> {
    match proof {
        Some(
            p @ DeviationProof {
                turns: Some((first, second)),
                ..
            },
        ) => writeln!(
            out,
            "over any number of turns, no deviation by either player gains more than {:.1e} \
             (a deviator's expected turns are at most {first} and {second}): the value of the \
             game is {}",
            upper_f64(&p.total_gain()),
            certified_digits(&p.value, digits).text
        ),
        Some(p) => writeln!(
            out,
            "every other choice is worse at every decision, so no deviation, over any number of \
             turns, gains anything: the value of the game is {}",
            certified_digits(&p.value, digits).text
        ),
        None => writeln!(
            out,
            "over several turns: not proved (no bound on the turns of a deviating player was found)"
        ),
    }
}

/// A float at least `x` (for bounds shown to two digits).
fn upper_f64(x: &BigRational) -> f64 {
    let f = x.to_f64().unwrap_or(f64::INFINITY);
    if f > 0.0 {
        f * (1.0 + crate::prec::SHOWN_UPWARD)
    } else {
        f
    }
}

/// The JSON report.
pub fn to_json(r: &DuelReport<'_>) -> Value {
    let interval = |i: &Interval, digits: usize| {
        json!({
            "lo": i.lo.to_string(),
            "hi": i.hi.to_string(),
            "certified": certified_digits(i, digits).text,
        })
    };
    let pairs: Vec<Value> = r
        .pairs
        .iter()
        .map(|p| match &p.result {
            Ok((chance, c)) => json!({
                "name": p.name,
                "first_wins": interval(chance, r.digits),
                "advantage_points": interval(&advantage(chance), r.digits.saturating_sub(2)),
                "sweeps": p.sweeps,
                "residual": c.residual_f64(),
                "turns_bound": c.max_turns_bound(),
                "deviation_gain_bound": c.gap,
            }),
            Err(e) => json!({"name": p.name, "error": e.to_string()}),
        })
        .collect();
    let proof = r.pairs.first().and_then(|p| p.proof.as_ref()).map(|p| {
        json!({
            "turn_gain": p.turn_gain.to_string(),
            "deviator_turns_bound": p.turns.map(|(a, b)| [a, b]),
            "total_gain_bound": upper_f64(&p.total_gain()),
            "game_value": interval(&p.value, r.digits),
        })
    });
    json!({
        "board": BoardJson::new(r.board),
        "rules": board_rules_json(r.board),
        "choice": r.game.rule.key(),
        "from": [r.from.0, r.from.1],
        "pairs": pairs,
        "optimal_proof": proof,
    })
}
