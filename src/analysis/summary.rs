//! The one-screen summary of a board (`ladders analyze`): the expectations (one exact solve),
//! the start of the exact distribution (quantiles and the chance of finishing within 10, 25, 50
//! and 100 turns), and the shortest and longest game. The chain is built once and shared.

use num_bigint::BigInt;
use num_rational::BigRational;

use crate::analysis::distribution::{distribution, Distribution, DistributionOptions, TooMuchWork};
use crate::analysis::expectation::{expect, Expectation};
use crate::analysis::shortest::{extremes_of, Extremes};
use crate::board::Board;
use crate::chain::Chain;
use crate::game::SingleBoard;

/// The turn counts for "P(finish within n turns)".
pub const WITHIN: [usize; 4] = [10, 25, 50, 100];

/// Everything `analyze` shows.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Summary {
    /// Expected turns, variance, rolls, snakes, ladders.
    pub expectation: Expectation,
    /// The exact distribution up to at least 100 turns and the 99 % quantile.
    pub distribution: Distribution,
    /// The shortest and longest game.
    pub extremes: Extremes,
}

/// Summarizes `board`.
///
/// # Errors
///
/// [`TooMuchWork`] when the distribution up to the 99 % quantile is too slow to compute exactly.
///
/// On `tiny` the shortest game takes two turns (the test below); callers outside the crate ask
/// `Game::summary`.
pub fn summarize(board: &Board) -> Result<Summary, TooMuchWork> {
    let chain = Chain::for_board(board);
    let options = DistributionOptions {
        turns: None,
        tail: BigRational::new(BigInt::from(1), BigInt::from(100)),
        min_turns: WITHIN[WITHIN.len() - 1],
    };
    let distribution = distribution(&chain, &options)?;
    Ok(Summary {
        expectation: expect(board),
        extremes: extremes_of(board, &SingleBoard::new(board), &chain),
        distribution,
    })
}

#[cfg(test)]
mod tests {
    use super::summarize;
    use crate::board::builtin;

    #[test]
    fn tiny_is_won_in_two_turns_at_the_fewest() {
        let s = summarize(&builtin("tiny").unwrap()).unwrap();
        assert_eq!(s.extremes.shortest.unwrap().turns, 2);
    }
}
