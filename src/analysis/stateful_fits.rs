//! What an analysis of a board that changes during a game (one-use jumps, apples, lost and extra
//! turns) will cost, known before it starts: its chain's states and transitions are counted
//! without building it ([`crate::chain::count`]), and a chain past the memory limit, or an exact
//! solve past about 30 s, is refused at once with the figures. The square-only boards have their
//! own estimate ([`crate::chain::ChainSize`]).
//!
//! Two chains serve these boards: the chain without the eaten apples
//! ([`super::stateful::law_chain`]: the law of T and the expectations) and the full chain
//! ([`super::stateful::stateful_chain`]: the shortest game, per-square answers, the sample
//! checks). On `tests/hostile/boards/stateful_10000.toml` (10,000 squares, four one-use jumps,
//! three apples, two lost-turn and two extra-turn squares) they have 153,573 and 1,228,364
//! states: about 230 MB and 1.8 GB.
//!
//! # Formula
//!
//! The exact solves on these chains (expected turns and rewards by lifting, the score's law by
//! inclusion and exclusion over the apples) take about `states x 2.5e-3` s
//! ([`stateful_solve_seconds`]), fitted on three generated boards with the same additions as
//! `stateful_10000.toml` (`ladders generate --size N --snakes N/50 --ladders N/50 --seed 3`, user
//! CPU of `ladders expect` at load average about 4): 1,000 squares (8,058 states) 12.7 s, 2,000
//! (30,550) 39.1 s, 3,000 (45,970) 105 s; the largest rate measured (2.3e-3 s a state) rounded
//! up. The rate varies: the same 1,000 and 2,000-square boards without their apples took 10.9
//! and 16.5 s.

use crate::board::Board;
use crate::chain::{check_counted, Counted, StatesTooMany, TurnModel};
use crate::game::{Capabilities, StatefulBoard};

/// The estimated seconds past which an exact solve on a board that changes during a game is
/// refused: what is left of a minute for building the chain and the report.
pub const STATEFUL_SECONDS_LIMIT: f64 = 30.0;

/// Seconds of exact solving per state of the chain (see the module documentation).
pub const SOLVE_SECONDS_PER_STATE: f64 = 2.5e-3;

/// Which chain of a board that changes during a game an analysis builds, and whether it solves
/// it exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The chain without the eaten apples (the law of T, the float expectations).
    Law,
    /// The full chain (the shortest game).
    Full,
    /// The chain without the eaten apples, solved exactly (the expectations, the score).
    LawSolve,
    /// The full chain, solved exactly (per-square answers, the sample checks).
    FullSolve,
}

/// Why an analysis of a board that changes during a game was refused before it started.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum StatefulTooBig {
    /// The chain would take too much memory.
    #[error(transparent)]
    Chain(#[from] StatesTooMany),
    /// The exact solve would take too long.
    #[error(
        "the exact solve on this board's {} states (one-use jumps, apples, lost or extra turns: \
         the state is the square and what the game remembers) would take about {seconds:.0} s \
         (estimated before starting; answered up to about {STATEFUL_SECONDS_LIMIT:.0} s)",
        crate::text::thousands(*states as u64)
    )]
    Solve {
        /// The chain's states.
        states: usize,
        /// The estimated seconds.
        seconds: f64,
    },
}

/// The estimated seconds of the exact solves on a chain of `states` states.
pub fn stateful_solve_seconds(states: usize) -> f64 {
    states as f64 * SOLVE_SECONDS_PER_STATE
}

/// Counts the chain `needs` names (nothing on a board whose state is the square) and refuses it
/// when it would not fit in memory or, when it is to be solved exactly, in about
/// [`STATEFUL_SECONDS_LIMIT`]; the count otherwise.
///
/// # Errors
///
/// [`StatefulTooBig`] with the count or the estimate.
pub fn check_stateful(board: &Board, needs: Needs) -> Result<Option<Counted>, StatefulTooBig> {
    if Capabilities::of(board).stateless {
        return Ok(None);
    }
    let game = match needs {
        Needs::Law | Needs::LawSolve => StatefulBoard::for_turns(board),
        Needs::Full | Needs::FullSolve => StatefulBoard::new(board),
    };
    let count = check_counted(&game, TurnModel::start(&game))?;
    let seconds = stateful_solve_seconds(count.states);
    if matches!(needs, Needs::LawSolve | Needs::FullSolve) && seconds > STATEFUL_SECONDS_LIMIT {
        return Err(StatefulTooBig::Solve {
            states: count.states,
            seconds,
        });
    }
    Ok(Some(count))
}

/// Whether the exact solves on `board`'s chain without the eaten apples fit in about
/// [`STATEFUL_SECONDS_LIMIT`] (true on a board whose state is the square).
pub fn law_solve_fits(board: &Board) -> bool {
    check_stateful(board, Needs::LawSolve).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{builtin, builtin_names};
    use crate::test_util::board;

    #[test]
    fn every_built_in_board_fits_every_need() {
        for name in builtin_names() {
            let b = builtin(name).unwrap();
            for needs in [Needs::Law, Needs::Full, Needs::LawSolve, Needs::FullSolve] {
                assert!(check_stateful(&b, needs).is_ok(), "{name} {needs:?}");
            }
        }
    }

    #[test]
    fn the_count_is_the_built_chains_states_and_transitions() {
        let b = builtin("seed-003").unwrap();
        let full = crate::analysis::stateful::stateful_chain(&b);
        let count = check_stateful(&b, Needs::Full).unwrap().unwrap();
        assert_eq!(count.states, full.states().len());
        let built: usize = full.rows().iter().map(Vec::len).sum();
        assert_eq!(count.transitions, built);
    }

    #[test]
    fn a_long_solve_is_refused_with_the_states_and_the_estimate() {
        // 8,000 squares, two one-use snakes and a lost-turn square: each square with either
        // snake used up or not and a turn owed or not, more than 12,000 states (30 s at
        // 2.5e-3 s a state).
        let big = board(
            "size = 8000\nsnakes = [[7000, 10], [6000, 20]]\nonce = [7000, 6000]\nlose_turn = [50]\n",
        );
        let err = check_stateful(&big, Needs::LawSolve).unwrap_err();
        let StatefulTooBig::Solve { states, seconds } = err else {
            panic!("{err:?}")
        };
        assert!(states > 12_000, "{states}");
        assert!(seconds > STATEFUL_SECONDS_LIMIT);
        assert!(
            err.to_string().contains("estimated before starting"),
            "{err}"
        );
        // The law alone fits.
        assert!(check_stateful(&big, Needs::Law).is_ok());
    }
}
