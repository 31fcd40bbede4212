//! The report of `ladders optimize`: the optimal expected turns, the policy in runs of squares,
//! the gain over the always-the-same choices and over the user's policies, as text (its JSON is
//! the serde form of `OptimizedJson`).

use std::io::{self, Write};

use super::text::{board_line, exact_text, rules_line};
use crate::board::{Board, ChoiceRule, Square};
use crate::facade::Optimized;
use crate::num::decimal::fixed;

/// Everything `optimize` prints: the façade's answer on its board ([`OptimizeReport::new`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OptimizeReport<'a> {
    /// The board.
    pub board: &'a Board,
    /// The optimum, the policy and the other policies scored.
    pub optimized: &'a Optimized,
    /// Digits after the point.
    pub digits: usize,
}

impl<'a> OptimizeReport<'a> {
    /// The report of `optimized` on `board`, its decimals at `digits`.
    pub fn new(board: &'a Board, optimized: &'a Optimized, digits: usize) -> OptimizeReport<'a> {
        OptimizeReport {
            board,
            optimized,
            digits,
        }
    }
}

/// One line describing the choice rule.
pub fn rule_line(rule: &ChoiceRule) -> String {
    match rule {
        ChoiceRule::ChooseDie(dice) => format!(
            "before each roll the player chooses the die: {}",
            dice.iter()
                .map(|d| format!("d{}", d.faces()))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        ChoiceRule::Coin => {
            "after each roll the player may flip a coin: heads one square forward, tails one back"
                .to_string()
        }
        ChoiceRule::Pick(k) => format!("the player throws {k} dice and moves by the one they pick"),
        ChoiceRule::ChooseFace => "the player chooses the die's face".to_string(),
        ChoiceRule::Decline(kind) => {
            format!("the player may decline the {} a move lands on", kind.name())
        }
    }
}

fn range(a: Square, b: Square) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// Writes the text report.
///
/// # Errors
///
/// Writing fails.
pub fn write_text(out: &mut dyn Write, r: &OptimizeReport<'_>) -> io::Result<()> {
    let o = r.optimized;
    writeln!(out, "{}", board_line(r.board))?;
    writeln!(out, "rules: {}", rules_line(r.board))?;
    if let Some(rule) = r.board.choice() {
        writeln!(out, "choice: {}", rule_line(rule))?;
    }
    writeln!(out)?;
    match o.within {
        None => {
            writeln!(
                out,
                "optimal expected turns: {}",
                exact_text(&o.value, r.digits, true)
            )?;
            writeln!(
                out,
                "  policy iteration, {} exact evaluation{}; the Bellman equation {} with == at all {} states",
                o.evaluations,
                if o.evaluations == 1 { "" } else { "s" },
                if o.proved { "holds" } else { "DOES NOT hold" },
                o.states
            )?;
        }
        Some(n) => writeln!(
            out,
            "best chance to finish within {n} turns: {}",
            exact_text(&o.value, r.digits, true)
        )?,
    }
    writeln!(out)?;
    match o.within {
        None => writeln!(out, "optimal policy (a policy file: square,choice):")?,
        Some(n) => writeln!(
            out,
            "best first choice with {n} turns left (square,choice):"
        )?,
    }
    for run in &o.policy {
        writeln!(out, "  {},{}", range(run.from, run.to), run.choice)?;
    }
    if !o.others.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "other policies (expected turns, and how much more than the optimum):"
        )?;
        let width = o.others.iter().map(|p| p.name.len()).max().unwrap_or(0);
        for p in &o.others {
            match (&p.expected_turns, p.stuck_from) {
                (Some(v), _) => writeln!(
                    out,
                    "  {:width$}  {}  (+{})",
                    p.name,
                    fixed(v, r.digits),
                    fixed(&(v - &o.value), r.digits)
                )?,
                (None, s) => writeln!(
                    out,
                    "  {:width$}  never finishes (stuck from square {})",
                    p.name,
                    s.unwrap_or(0)
                )?,
            }
        }
    }
    Ok(())
}
