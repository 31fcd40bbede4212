//! What an analysis of a board that changes during a game (one-use jumps, apples, lost and extra
//! turns) will cost, known before it starts: its chain's states and transitions are counted
//! without building it (`crate::chain::count`), and a chain past the memory limit, or an exact
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
//! inclusion and exclusion over the apples) go layer by layer: a layer is the states with the
//! same one-use jumps used up (and apples eaten), which a game never takes back, so `I - Q` is
//! block triangular with a block per layer. They take about `sum over the layers of states^2 x
//! 7e-7` s ([`Estimate::solve_seconds`]; the layers are counted with the states), fitted on
//! `ladders expect` (user CPU, load about 7) on a generated board with the same additions as
//! `stateful_10000.toml` (`ladders generate --size 1000 --snakes 20 --ladders 20 --seed 3`,
//! its first two ladders and snakes one-use, two lost-turn and two extra-turn squares: 8,058
//! states in 16 layers, 5.1 s). The same board on 2,000 squares (30,550 states) took 10.8 s
//! (estimate 41 s), and one of 100 squares with 12 one-use snakes (90,107 states in 4,096
//! layers of about 22) 0.8 s (estimate 2 s); counting by states alone (2.5e-3 s a state, until
//! 2026-11-29) refused that one as 225 s while `sensitivity` solved it 13 times in 6 s.

use crate::board::Board;
use crate::chain::{check_counted_layers, Counted, StatesTooMany, TurnModel};
use crate::game::{Capabilities, PlayerState, StatefulBoard};

/// The estimated seconds past which an exact solve on a board that changes during a game is
/// refused: what is left of a minute for building the chain and the report.
pub const STATEFUL_SECONDS_LIMIT: f64 = 30.0;

/// Seconds of exact solving per squared state of a layer (see the module documentation).
pub const SOLVE_SECONDS_PER_LAYER_STATE2: f64 = 7e-7;

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
    /// The law of the final score would take too long or too much memory
    /// (`super::score::score_fits`).
    #[error(
        "the law of the final score over {apples} point squares would take about {} \
         (one exact solve per set of point squares eaten on {} states, estimated before \
         starting; answered up to about {STATEFUL_SECONDS_LIMIT:.0} s and {} MB)",
        score_cost(*seconds, *bytes),
        crate::text::thousands(*states as u64),
        crate::text::thousands((crate::chain::CHAIN_BYTES_LIMIT / 1e6) as u64)
    )]
    Score {
        /// The board's point squares.
        apples: usize,
        /// The states of the chain solved.
        states: usize,
        /// The estimated seconds.
        seconds: f64,
        /// The estimated bytes.
        bytes: f64,
    },
    /// The chain the law of the final score is solved on would take too much memory.
    #[error(
        "the law of the final score over {apples} point squares needs the chain that remembers \
         the squares eaten, and {chain}"
    )]
    ScoreChain {
        /// The board's point squares.
        apples: usize,
        /// The count, stopped past the limit.
        chain: StatesTooMany,
    },
}

/// "12,345 s", "12,345 s and 3,456 MB" (the memory when it is past the limit).
fn score_cost(seconds: f64, bytes: f64) -> String {
    let mut text = format!(
        "{} s",
        crate::text::thousands(seconds.min(1e18).round() as u64)
    );
    if bytes > crate::chain::CHAIN_BYTES_LIMIT {
        let mb = crate::text::thousands((bytes / 1e6).min(1e18).round() as u64);
        text.push_str(&format!(" and {mb} MB"));
    }
    text
}

/// A chain of a board that changes during a game, counted before it is built, with the size of
/// its layers (the states with the same jumps used up and squares eaten, which a game never
/// takes back).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The count.
    pub count: Counted,
    /// The sum over the layers of their states squared: an exact solve's work, which goes
    /// layer by layer, each about its states squared (see the module documentation).
    pub layer_work: f64,
}

impl Estimate {
    /// The count, and the work of the layers whose states are `layers`.
    pub fn new(count: Counted, layers: &[usize]) -> Estimate {
        let layer_work = layers.iter().map(|&n| (n as f64).powi(2)).sum();
        Estimate { count, layer_work }
    }

    /// The estimated seconds of one exact solve of the chain.
    pub fn solve_seconds(&self) -> f64 {
        self.layer_work * SOLVE_SECONDS_PER_LAYER_STATE2
    }
}

/// Counts the chain `needs` names (nothing on a board whose state is the square) and refuses it
/// when it would not fit in memory or, when it is to be solved exactly, in about
/// [`STATEFUL_SECONDS_LIMIT`]; the count otherwise.
///
/// # Errors
///
/// [`StatefulTooBig`] with the count or the estimate.
pub fn check_stateful(board: &Board, needs: Needs) -> Result<Option<Estimate>, StatefulTooBig> {
    if Capabilities::of(board).stateless {
        return Ok(None);
    }
    let game = match needs {
        Needs::Law | Needs::LawSolve => StatefulBoard::for_turns(board),
        Needs::Full | Needs::FullSolve => StatefulBoard::new(board),
    };
    let (count, layers) =
        check_counted_layers(&game, TurnModel::start(&game), |s: &PlayerState| s.progress)?;
    let estimate = Estimate::new(count, &layers);
    let seconds = estimate.solve_seconds();
    if matches!(needs, Needs::LawSolve | Needs::FullSolve) && seconds > STATEFUL_SECONDS_LIMIT {
        return Err(StatefulTooBig::Solve {
            states: count.states,
            seconds,
        });
    }
    Ok(Some(estimate))
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
        let count = check_stateful(&b, Needs::Full).unwrap().unwrap().count;
        assert_eq!(count.states, full.states().len());
        let built: usize = full.rows().iter().map(Vec::len).sum();
        assert_eq!(count.transitions, built);
    }

    #[test]
    fn a_long_solve_is_refused_with_the_states_and_the_estimate() {
        // 8,000 squares, two one-use snakes and a lost-turn square: each square with either
        // snake used up or not and a turn owed or not, more than 12,000 states in four layers
        // (30 s at 7e-7 s per squared state of a layer: 6,500 states in each).
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
