//! Expected turns and the other expectations of a game on one board (DESIGN.md section 3).
//!
//! # Formula
//!
//! With Q the transient part of the turn chain and N = (I - Q)^-1:
//! - expected turns `t = N 1`, i.e. `(I - Q) t = 1`;
//! - second moment: `(I - Q) u = t`, `E[T^2] = 2u - t`, `Var T = 2u - t - t^2`;
//! - expected rolls, snakes, ladders, squares climbed and slid: `N r` for the per-turn reward r.
//!
//! Reference: J. G. Kemeny and J. L. Snell, *Finite Markov Chains* (1960), theorem 3.3.5.

use num_rational::BigRational;
use num_traits::One;

use crate::board::{Board, Square};
use crate::chain::{Chain, Trap, TurnRewards};
use crate::exact::solve::{transient_matrix, SparseLu};

/// The expectations of a game that ends with probability 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectations {
    /// E\[T\], turns from the start.
    pub turns: BigRational,
    /// Var\[T\].
    pub variance: BigRational,
    /// Expected rolls (forfeited rolls included).
    pub rolls: BigRational,
    /// Expected snakes taken.
    pub snakes: BigRational,
    /// Expected ladders taken.
    pub ladders: BigRational,
    /// Expected squares climbed by ladders.
    pub climbed: BigRational,
    /// Expected squares slid down by snakes.
    pub slid: BigRational,
    /// Expected remaining turns from every reachable square that is not the finish, by square.
    pub per_square: Vec<(Square, BigRational)>,
}

/// The answer to "how long is a game on this board?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The game ends with probability 1; here are its expectations.
    Finite(Box<Expectations>),
    /// From some reachable square the finish cannot be reached: the game can last forever with
    /// positive probability, and the expected length is infinite.
    Infinite(Trap<Square>),
}

/// Computes the exact expectations of one player's game on `board`.
///
/// # Examples
///
/// ```
/// use ladders::analysis::expectation::{expect, Expectation};
/// use ladders::board::builtin;
/// use num_rational::BigRational;
/// let tiny = builtin("tiny").unwrap().unwrap();
/// let Expectation::Finite(e) = expect(&tiny) else { panic!() };
/// assert_eq!(e.turns, BigRational::from_integer(4.into()));
/// assert_eq!(e.variance, BigRational::from_integer(4.into()));
/// ```
pub fn expect(board: &Board) -> Expectation {
    expect_chain(&Chain::for_board(board))
}

/// Computes the exact expectations from an already built single-board chain.
pub fn expect_chain(chain: &Chain<Square>) -> Expectation {
    if let Some(trap) = chain.trap() {
        return Expectation::Infinite(trap);
    }
    let n = chain.transient_count();
    let start = chain.start();
    if start >= n {
        // The game starts on the finish: nothing to play.
        let zero = BigRational::from_integer(0.into());
        return Expectation::Finite(Box::new(Expectations {
            turns: zero.clone(),
            variance: zero.clone(),
            rolls: zero.clone(),
            snakes: zero.clone(),
            ladders: zero.clone(),
            climbed: zero.clone(),
            slid: zero,
            per_square: Vec::new(),
        }));
    }
    let lu = SparseLu::factor(&transient_matrix(chain))
        .expect("every state reaches the finish, so I - Q is nonsingular");
    let ones = vec![BigRational::one(); n];
    let t = lu.solve(&ones);
    let u = lu.solve(&t);
    let reward = |f: fn(&TurnRewards) -> &BigRational| -> BigRational {
        let r: Vec<BigRational> = (0..n).map(|i| f(chain.rewards(i)).clone()).collect();
        lu.solve(&r)[start].clone()
    };
    let turns = t[start].clone();
    let second = &u[start] * BigRational::from_integer(2.into()) - &turns;
    let variance = second - &turns * &turns;
    Expectation::Finite(Box::new(Expectations {
        variance,
        rolls: reward(|r| &r.rolls),
        snakes: reward(|r| &r.snakes),
        ladders: reward(|r| &r.ladders),
        climbed: reward(|r| &r.climbed),
        slid: reward(|r| &r.slid),
        per_square: chain.states()[..n].iter().copied().zip(t).collect(),
        turns,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn a_board_without_jumps_and_overshoot_allow_is_a_sum_of_rolls() {
        // size 2, die 2, allow: from 0, a 1 -> 1 and a 2 -> 2 (finish); from 1 any roll finishes.
        // T = 1 with prob 1/2, 2 with prob 1/2: E = 3/2, Var = 1/4; rolls = turns.
        let b = Board::from_toml_str("size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n", "t")
            .unwrap();
        let Expectation::Finite(e) = expect(&b) else {
            panic!("finite")
        };
        assert_eq!(e.turns, q(3, 2));
        assert_eq!(e.variance, q(1, 4));
        assert_eq!(e.rolls, q(3, 2));
        assert_eq!(e.per_square, vec![(0, q(3, 2)), (1, q(1, 1))]);
    }

    #[test]
    fn the_tiny_board_matches_the_hand_derivation() {
        // boards/tiny.toml: T = G1 + G2, two independent geometric(1/2) waits.
        // E = 4, Var = 2 + 2 = 4. Each turn is one roll. Snakes: the number of tails before the
        // first head from 0, a geometric count with mean 1; ladders: exactly 1; climbed 2; slid 2.
        let b = crate::board::builtin("tiny").unwrap().unwrap();
        let Expectation::Finite(e) = expect(&b) else {
            panic!("finite")
        };
        assert_eq!(e.turns, q(4, 1));
        assert_eq!(e.variance, q(4, 1));
        assert_eq!(e.rolls, q(4, 1));
        assert_eq!(e.snakes, q(1, 1));
        assert_eq!(e.ladders, q(1, 1));
        assert_eq!(e.climbed, q(2, 1));
        assert_eq!(e.slid, q(2, 1));
    }

    #[test]
    fn an_unwinnable_board_is_infinite_with_its_trap() {
        let b = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        assert!(matches!(expect(&b), Expectation::Infinite(_)));
    }
}
