//! Board design questions: how much each snake and ladder matters (the exact change in expected
//! turns when it is removed), and which die size makes the game shortest.
//!
//! Both are answered by solving the changed board exactly, once per snake or ladder, once per die
//! size (in parallel), each for E\[T\] alone ([`expected_turns`], the exact mean a distribution
//! shows).

use num_rational::BigRational;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

use super::expectation::expected_turns;
use super::stateful_fits::{check_stateful, Needs, StatefulTooBig};
use super::visits::all_jumps;
use crate::board::{Board, BoardError, DieChoice, Jump, RuleOverrides, Square};

/// One snake or ladder removed (serialized with the jump's squares and its `kind` beside
/// the answers).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Removal {
    /// The jump removed.
    #[serde(flatten, serialize_with = "crate::board::jump_with_kind")]
    pub jump: Jump,
    /// The expected turns without it (`None`: the game can then last forever).
    #[serde(serialize_with = "crate::num::json::exact_option")]
    pub turns: Option<BigRational>,
    /// `turns` minus the board's expected turns (`None` with `turns`).
    #[serde(serialize_with = "crate::num::json::exact_option")]
    pub change: Option<BigRational>,
}

/// The board without the jump from `from` (and without its `once` entry).
///
/// # Errors
///
/// The board without it does not validate (it always should: removing a jump breaks no rule).
pub fn without_jump(board: &Board, jump: Jump) -> Result<Board, BoardError> {
    let mut spec = board.spec().clone();
    let pair = (i64::from(jump.from), i64::from(jump.to));
    spec.snakes.retain(|j| j.value != pair);
    spec.ladders.retain(|j| j.value != pair);
    spec.once.retain(|s| s.value != i64::from(jump.from));
    spec.validate()
}

/// The estimated seconds past which [`sensitivity`] refuses before starting (what is left of a
/// minute for the board's own solve and the report).
pub const SENSITIVITY_SECONDS_LIMIT: f64 = 30.0;

/// The estimated CPU seconds of [`sensitivity`]: one exact solve of the changed board per jump,
/// each about `squares^2 / 6.5e7` s (measured, user CPU: `benches/boards/gen-1000.toml`, 40
/// jumps, 0.61 s; `expect` on the 10,000-square `gen-10000.toml` 1.6 s, so its 400 solves about
/// 10 minutes; fitted when each solve was every expectation's, E\[T\] alone takes about half:
/// the estimate errs high). A board whose state is more than the square (one-use jumps,
/// points, lost or extra turns) solves its larger chain, estimated as `expect`'s own solve is
/// ([`check_stateful`]: 64 one-use snakes on 220 squares, 11,773 states, ran past a minute and
/// 1.3 GB when it was estimated by its squares).
///
/// # Errors
///
/// [`StatefulTooBig`] when the board's chain is too large to build or one solve is too long.
pub fn sensitivity_seconds(board: &Board) -> Result<f64, StatefulTooBig> {
    let jumps = all_jumps(board).len() as f64;
    if let Some(estimate) = check_stateful(board, Needs::LawSolve)? {
        return Ok(jumps * estimate.solve_seconds());
    }
    let squares = f64::from(board.size()) + 1.0;
    Ok(jumps * squares * squares / 6.5e7)
}

/// Why `sensitivity` gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SensitivityError {
    /// A changed board did not validate (it always should: removing a jump breaks no rule).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The board's chain is too large, or one of its solves too long
    /// (`check_stateful`).
    #[error(transparent)]
    Stateful(#[from] StatefulTooBig),
    /// The solves would take too long (estimated before starting, `sensitivity_seconds`).
    #[error(
        "removing each of the {jumps} snakes and ladders would take about {seconds:.0} s (one \
         exact solve of {squares} squares each, estimated before starting; answered up to about \
         {SENSITIVITY_SECONDS_LIMIT:.0} s)"
    )]
    TooLong {
        /// The estimated seconds.
        seconds: f64,
        /// The snakes and ladders.
        jumps: usize,
        /// The board's squares.
        squares: u32,
    },
}

/// `Err(TooLong)` when [`sensitivity`] on `board` would take more than
/// [`SENSITIVITY_SECONDS_LIMIT`] ([`sensitivity_seconds`]): cheap, to be called before any
/// solve.
///
/// # Errors
///
/// [`SensitivityError::TooLong`] with the estimate.
pub fn sensitivity_fits(board: &Board) -> Result<(), SensitivityError> {
    let seconds = sensitivity_seconds(board)?;
    if seconds > SENSITIVITY_SECONDS_LIMIT {
        return Err(SensitivityError::TooLong {
            seconds,
            jumps: all_jumps(board).len(),
            squares: board.size(),
        });
    }
    Ok(())
}

/// For every snake and ladder, the expected turns without it and the change from the board's
/// own, sorted by the change, largest first (a removal that makes the game endless first).
///
/// # Errors
///
/// [`SensitivityError::TooLong`] at once when the solves would take more than
/// [`SENSITIVITY_SECONDS_LIMIT`] ([`sensitivity_fits`]); [`SensitivityError::Board`] when a
/// changed board did not validate.
pub fn sensitivity(board: &Board, base: &BigRational) -> Result<Vec<Removal>, SensitivityError> {
    sensitivity_fits(board)?;
    let jumps = all_jumps(board);
    let stage =
        crate::progress::Stage::begin("solving without each jump", Some(jumps.len() as u64));
    let done = AtomicU64::new(0);
    let listener = crate::progress::carried();
    let mut removals = jumps
        .par_iter()
        .map(|&jump| {
            stage.checkpoint();
            let changed = without_jump(board, jump)?;
            let turns = listener.run(|| expected_turns(&changed));
            stage.advance(done.fetch_add(1, Ordering::Relaxed) + 1);
            let change = turns.as_ref().map(|t| t - base);
            Ok(Removal {
                jump,
                turns,
                change,
            })
        })
        .collect::<Result<Vec<Removal>, SensitivityError>>()?;
    // None (endless) first, then the largest change; ties by the jump's squares.
    removals.sort_by(|a, b| {
        match (&a.change, &b.change) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, Some(_)) => std::cmp::Ordering::Less,
            (Some(_), None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => y.cmp(x),
        }
        .then_with(|| (a.jump.from, a.jump.to).cmp(&(b.jump.from, b.jump.to)))
    });
    Ok(removals)
}

/// The expected turns with a fair die of each size in `faces` (`None`: endless), in order.
///
/// # Errors
///
/// The board with that die does not validate (for example a dice total over the limit).
pub fn die_sweep(
    board: &Board,
    faces: std::ops::RangeInclusive<Square>,
) -> Result<Vec<(Square, Option<BigRational>)>, BoardError> {
    let faces: Vec<Square> = faces.collect();
    let listener = crate::progress::carried();
    faces
        .par_iter()
        .map(|&f| {
            let changed = board.with_rules(&RuleOverrides {
                die: Some(DieChoice::Fair(f)),
                ..RuleOverrides::default()
            })?;
            Ok((f, listener.run(|| expected_turns(&changed))))
        })
        .collect()
}

/// The expected turns with each fair die of a range in place of the board's: the answer of
/// `expect --die LO..HI` (`Game::die_sweep`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct DieSweep {
    /// The die with the fewest expected turns (the smallest on a tie); `None` when with every
    /// die the game can go on for ever.
    pub best: Option<Square>,
    /// Each die, the smallest first.
    pub dice: Vec<DieTurns>,
}

/// One die of a [`DieSweep`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct DieTurns {
    /// The die's faces.
    pub die: Square,
    /// The exact expected turns with it (`None`: the game can then go on for ever).
    #[serde(serialize_with = "crate::num::json::exact_option")]
    pub turns: Option<BigRational>,
}

impl DieSweep {
    /// The sweep `die_sweep` gives, with its best die.
    pub fn of(sweep: Vec<(Square, Option<BigRational>)>) -> DieSweep {
        DieSweep {
            best: best_die(&sweep),
            dice: sweep
                .into_iter()
                .map(|(die, turns)| DieTurns { die, turns })
                .collect(),
        }
    }
}

/// The die size (from a sweep) with the fewest expected turns, the smallest size on a tie.
pub fn best_die(sweep: &[(Square, Option<BigRational>)]) -> Option<Square> {
    sweep
        .iter()
        .filter_map(|(f, t)| t.as_ref().map(|t| (t, *f)))
        .min()
        .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::chain::Chain;
    use crate::exact::solve::{transient_matrix, SparseLu};
    use crate::num::decimal::fixed;
    use num_traits::One;

    /// Second method: the expected turns by the reference rational LU on the turn chain of a
    /// board written out as TOML without the jump (not through `without_jump`).
    fn reference_turns(text: &str) -> BigRational {
        let board = Board::from_toml_str(text, "changed").unwrap();
        let chain = Chain::for_board(&board);
        let t = chain.transient_count();
        let x = SparseLu::factor(&transient_matrix(&chain))
            .unwrap()
            .solve(&vec![BigRational::one(); t]);
        x[chain.start()].clone()
    }

    fn pairs(jumps: &[Jump], skip: Jump) -> String {
        let items: Vec<String> = jumps
            .iter()
            .filter(|j| **j != skip)
            .map(|j| format!("[{}, {}]", j.from, j.to))
            .collect();
        format!("[{}]", items.join(", "))
    }

    #[test]
    fn removals_agree_with_solving_each_changed_board_separately() {
        let board = builtin("milton-bradley").unwrap();
        let base = expected_turns(&board).unwrap();
        let removals = sensitivity(&board, &base).unwrap();
        assert_eq!(removals.len(), 19);
        for r in &removals {
            let text = format!(
                "size = 100\nsnakes = {}\nladders = {}\n[rules]\novershoot = \"stay\"\n",
                pairs(board.snakes(), r.jump),
                pairs(board.ladders(), r.jump)
            );
            let turns = reference_turns(&text);
            assert_eq!(r.turns.as_ref(), Some(&turns), "{:?}", r.jump);
            assert_eq!(r.change.as_ref(), Some(&(turns - &base)), "{:?}", r.jump);
        }
        // Sorted by the change, largest first; removing a ladder lengthens the game.
        assert!(removals.windows(2).all(|w| w[0].change >= w[1].change));
        let first = removals[0].jump;
        assert!(first.to > first.from, "{first:?}");
        assert!(removals.last().unwrap().jump.to < removals.last().unwrap().jump.from);
    }

    #[test]
    fn a_removal_that_makes_the_game_endless_comes_first() {
        // A coin on 6 squares: from 0, heads climbs 1 -> 5 and tails slides 2 -> 0; from 5,
        // heads finishes and tails is lost. E0 = 1 + E5/2 + E0/2 with E5 = 2: E0 = 4. Without
        // the ladder, heads lands on 1, from where both faces hit a snake back to 0: endless.
        // The snake 3 -> 0 is never reached: no change. Without 2 -> 0, tails lands on 2; from
        // 2 heads hits 3 -> 0 and tails lands on 4, from where heads lands on 5 and
        // tails finishes: E4 = 1 + E5/2 = 2, E2 = 1 + E0/2 + E4/2 = 2 + E0/2,
        // E0 = 1 + E5/2 + E2/2 = 3 + E0/4, so E0 = 4 again: no change either.
        let wall = Board::from_toml_str(
            "size = 6\nsnakes = [[2, 0], [3, 0]]\nladders = [[1, 5]]\n[rules]\ndie = 2\n",
            "wall",
        )
        .unwrap();
        let base = expected_turns(&wall).unwrap();
        let removals = sensitivity(&wall, &base).unwrap();
        assert_eq!(removals[0].jump, Jump { from: 1, to: 5 });
        assert_eq!(removals[0].turns, None);
        assert_eq!(base, BigRational::from_integer(4.into()));
        let zero = Some(BigRational::from_integer(0.into()));
        // Equal changes in the order of their squares.
        assert_eq!(removals[1].jump, Jump { from: 2, to: 0 });
        assert_eq!(removals[1].change, zero);
        assert_eq!(removals[2].jump, Jump { from: 3, to: 0 });
        assert_eq!(removals[2].change, zero);
    }

    #[test]
    fn milton_bradley_is_shortest_with_a_spinner_of_15() {
        // Althoen, King and Schilling (College Mathematics Journal, 2011): 25.81 turns with 15.
        let board = builtin("milton-bradley").unwrap();
        let sweep = die_sweep(&board, 2..=40).unwrap();
        assert_eq!(sweep.len(), 39);
        assert_eq!(best_die(&sweep), Some(15));
        let fifteen = sweep.iter().find(|(f, _)| *f == 15).unwrap();
        assert_eq!(fixed(fifteen.1.as_ref().unwrap(), 2), "25.81");
        // Each entry is the board's own expectation with that die (second path: with_rules).
        let six = sweep.iter().find(|(f, _)| *f == 6).unwrap();
        assert_eq!(six.1, expected_turns(&board));
    }
}
