//! The report of `ladders race BOARD` on a board with a choice rule: two players who choose,
//! the first mover's certified chance of winning with both optimal and with both following each
//! fixed policy, and the first mover's advantage.

use std::io::{self, Write};

use num_rational::BigRational;
use serde_json::{json, Value};

use super::json::{board_rules_json, BoardJson};
use super::optimize::rule_line;
use super::text::{board_line, rules_line};
use crate::board::{Board, Square};
use crate::choice::duel::Pair;
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
    }
    Ok(())
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
    json!({
        "board": BoardJson::new(r.board),
        "rules": board_rules_json(r.board),
        "choice": r.game.rule.key(),
        "from": [r.from.0, r.from.1],
        "pairs": pairs,
    })
}
