//! The report of `ladders optimize`: the optimal expected turns, the policy in runs of squares,
//! the gain over the always-the-same choices and over the user's policies, as text or JSON.

use std::io::{self, Write};

use num_rational::BigRational;
use serde_json::{json, Value};

use super::json::{board_rules_json, BoardJson, ExactJson};
use super::text::{board_line, exact_text, rules_line};
use crate::board::{Board, ChoiceRule, Square};
use crate::choice::{Choice, Evaluation, Game, NodeKey, Policy};
use crate::num::decimal::fixed;

/// A named policy and its exact value from the start.
#[derive(Clone, Debug)]
pub struct Scored {
    /// What the policy is ("never flip", a file name).
    pub name: String,
    /// Its expected turns from the start, or the square where it gets stuck.
    pub value: Result<BigRational, Square>,
}

impl Scored {
    /// The score of `evaluation` at the game's start.
    pub fn new(name: String, game: &Game, evaluation: Evaluation) -> Scored {
        let value = match evaluation {
            Evaluation::Finite(v) => Ok(game
                .start
                .and_then(|s| v[s].clone())
                .unwrap_or_else(|| BigRational::from_integer(0.into()))),
            Evaluation::Never(s) => Err(s),
        };
        Scored { name, value }
    }
}

/// Everything `optimize` prints.
#[derive(Clone, Debug)]
pub struct OptimizeReport<'a> {
    /// The board.
    pub board: &'a Board,
    /// Its decision process.
    pub game: &'a Game,
    /// What is optimised: `None` for expected turns, `Some(n)` for P(finish within n turns).
    pub within: Option<u32>,
    /// The optimal value at the start.
    pub value: BigRational,
    /// The optimal policy (for `within`, the first turn's).
    pub policy: &'a Policy,
    /// Exact evaluations made by policy iteration (0 for `within`).
    pub evaluations: usize,
    /// True when the Bellman equation was checked with `==` at every state.
    pub proved: bool,
    /// The always-the-same-choice policies, then the user's.
    pub others: Vec<Scored>,
    /// Digits after the point.
    pub digits: usize,
}

/// A run of squares with the same choice: (first, last, the choice as a policy file writes it).
pub type Run = (Square, Square, String);

/// The policy as runs of squares with the same choice (squares where no choice comes are
/// skipped, so a run may cover some). For `pick`, a square's choice is the order of preference
/// of the faces that the policy follows when two faces show.
pub fn runs(game: &Game, policy: &Policy) -> Vec<Run> {
    let mut by_square: std::collections::BTreeMap<Square, Vec<(Vec<u32>, Choice)>> =
        std::collections::BTreeMap::new();
    for (node, &a) in game.nodes.iter().zip(policy) {
        let choice = node.actions[a].choice;
        match &node.key {
            NodeKey::Done | NodeKey::Landed(_) => {}
            NodeKey::Before(s) | NodeKey::After(s) | NodeKey::Offered(s) => {
                by_square.entry(*s).or_default().push((Vec::new(), choice))
            }
            NodeKey::Shown(s, faces) => by_square
                .entry(*s)
                .or_default()
                .push((faces.clone(), choice)),
        }
    }
    let mut out: Vec<Run> = Vec::new();
    for (s, choices) in by_square {
        let text = match choices.as_slice() {
            [(faces, c)] if faces.is_empty() => c.to_string(),
            _ => preference(&choices),
        };
        match out.last_mut() {
            Some(last) if last.2 == text => last.1 = s,
            _ => out.push((s, s, text)),
        }
    }
    out
}

/// The order of preference a `pick` policy follows on one square: faces ranked by how many of
/// the two-face throws they are chosen in.
fn preference(choices: &[(Vec<u32>, Choice)]) -> String {
    let mut wins: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for (faces, c) in choices {
        for f in faces {
            wins.entry(*f).or_insert(0);
        }
        if let (2, Choice::Face(f)) = (faces.len(), c) {
            *wins.entry(*f).or_insert(0) += 1;
        }
    }
    let mut order: Vec<(usize, u32)> = wins.into_iter().map(|(f, w)| (w, f)).collect();
    order.sort_by(|a, b| b.cmp(a));
    order
        .iter()
        .map(|(_, f)| f.to_string())
        .collect::<Vec<_>>()
        .join(">")
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
    writeln!(out, "{}", board_line(r.board))?;
    writeln!(out, "rules: {}", rules_line(r.board))?;
    writeln!(out, "choice: {}", rule_line(&r.game.rule))?;
    writeln!(out)?;
    match r.within {
        None => {
            writeln!(
                out,
                "optimal expected turns: {}",
                exact_text(&r.value, r.digits)
            )?;
            writeln!(
                out,
                "  policy iteration, {} exact evaluation{}; the Bellman equation {} with == at all {} states",
                r.evaluations,
                if r.evaluations == 1 { "" } else { "s" },
                if r.proved { "holds" } else { "DOES NOT hold" },
                r.game.squares.len()
            )?;
        }
        Some(n) => writeln!(
            out,
            "best chance to finish within {n} turns: {}",
            exact_text(&r.value, r.digits)
        )?,
    }
    writeln!(out)?;
    match r.within {
        None => writeln!(out, "optimal policy (a policy file: square,choice):")?,
        Some(n) => writeln!(
            out,
            "best first choice with {n} turns left (square,choice):"
        )?,
    }
    for (a, b, c) in runs(r.game, r.policy) {
        writeln!(out, "  {},{c}", range(a, b))?;
    }
    if !r.others.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "other policies (expected turns, and how much more than the optimum):"
        )?;
        let width = r.others.iter().map(|o| o.name.len()).max().unwrap_or(0);
        for o in &r.others {
            match &o.value {
                Ok(v) => writeln!(
                    out,
                    "  {:width$}  {}  (+{})",
                    o.name,
                    fixed(v, r.digits),
                    fixed(&(v - &r.value), r.digits)
                )?,
                Err(s) => writeln!(
                    out,
                    "  {:width$}  never finishes (stuck from square {s})",
                    o.name
                )?,
            }
        }
    }
    Ok(())
}

/// The JSON report (documented in docs/json-output.md).
pub fn to_json(r: &OptimizeReport<'_>) -> Value {
    let policy: Vec<Value> = runs(r.game, r.policy)
        .into_iter()
        .map(|(a, b, c)| json!({"from": a, "to": b, "choice": c}))
        .collect();
    let others: Vec<Value> = r
        .others
        .iter()
        .map(|o| match &o.value {
            Ok(v) => json!({"name": o.name, "expected_turns": ExactJson::new(v, r.digits)}),
            Err(s) => json!({"name": o.name, "expected_turns": null, "stuck_from": s}),
        })
        .collect();
    let mut v = json!({
        "board": BoardJson::new(r.board),
        "rules": board_rules_json(r.board),
        "choice": r.game.rule.key(),
        "policy": policy,
        "others": others,
        "states": r.game.squares.len(),
    });
    match r.within {
        None => {
            v["optimal_expected_turns"] =
                serde_json::to_value(ExactJson::new(&r.value, r.digits)).expect("serialisable");
            v["evaluations"] = json!(r.evaluations);
            v["bellman_holds"] = json!(r.proved);
        }
        Some(n) => {
            v["within"] = json!(n);
            v["best_chance"] =
                serde_json::to_value(ExactJson::new(&r.value, r.digits)).expect("serialisable");
        }
    }
    v
}
