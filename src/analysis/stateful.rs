//! The analyses of one player on a stateful board (one-use jumps, point squares, lost and extra
//! turns): the chain over [`PlayerState`]s, the expectations and the distribution of T on it
//! (projected back to squares for the reports), and the exact law of the final score.
//!
//! # Formula
//!
//! The final states are one per set of eaten point squares, so the law of the final score is the
//! absorption law: with Q and R the transient and absorbing parts of the chain and
//! N = (I - Q)^-1, P(end in f) = (N R)[start, f], one exact solve with a right-hand side per final
//! state (Kemeny and Snell, *Finite Markov Chains*, theorem 3.3.7). The expected score is
//! sum_f P(end in f) score(f).

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::distribution::{distribution, Distribution, DistributionOptions, Mean, TooMuchWork};
use super::expectation::{expect_chain_with, expect_with, Expectation, Expectations};
use super::fundamental::expected_rewards;
use crate::board::{Board, Square};
use crate::chain::{Chain, PlayerState, StatefulBoard, TurnRewards};
use crate::exact::solve::{identity_minus, solve_exact, transient_matrix, Wanted};

/// The chain of one player on a stateful board.
pub fn stateful_chain(board: &Board) -> Chain<PlayerState> {
    Chain::build(&StatefulBoard::new(board))
}

/// The expectations on a stateful board; `per_square` gives the expected remaining turns from
/// each square reached with nothing used up, eaten or owed. Solved by verified lifting
/// ([`expected_rewards`]) when that route applies, else by the bounded routes.
pub fn expect_stateful(board: &Board, per_square: bool) -> Expectation<Square> {
    let chain = stateful_chain(board);
    let expectation = match by_verified_lifting(&chain, per_square) {
        Some(e) => Expectation::Finite(Box::new(e)),
        None => expect_chain_with(&chain, per_square),
    };
    match expectation {
        Expectation::Infinite(trap) => Expectation::Infinite(trap.map(|s| s.square)),
        Expectation::Finite(e) => {
            let e = *e;
            let fresh = |s: &PlayerState| s.progress == Default::default() && !s.owed;
            Expectation::Finite(Box::new(Expectations {
                per_square: e
                    .per_square
                    .into_iter()
                    .filter(|(s, _)| fresh(s))
                    .map(|(s, t)| (s.square, t))
                    .collect(),
                turns: e.turns,
                variance: e.variance,
                rolls: e.rolls,
                snakes: e.snakes,
                ladders: e.ladders,
                climbed: e.climbed,
                slid: e.slid,
            }))
        }
    }
}

/// Every expectation by one verified lifting ([`expected_rewards`]), when that route applies.
fn by_verified_lifting(
    chain: &Chain<PlayerState>,
    per_square: bool,
) -> Option<Expectations<PlayerState>> {
    let n = chain.transient_count();
    let fields: [fn(&TurnRewards) -> &BigRational; 5] = [
        |r| &r.rolls,
        |r| &r.snakes,
        |r| &r.ladders,
        |r| &r.climbed,
        |r| &r.slid,
    ];
    let rewards: Vec<Vec<BigRational>> = fields
        .iter()
        .map(|f| (0..n).map(|i| f(chain.rewards(i)).clone()).collect())
        .collect();
    let x = expected_rewards(chain, &rewards, true)?;
    let s = chain.start();
    let turns = x.expected[0].get(s);
    let second = x.second_moment(s).expect("asked for");
    let at = |k: usize| x.expected[k].get(s);
    Some(Expectations {
        variance: second - &turns * &turns,
        rolls: at(1),
        snakes: at(2),
        ladders: at(3),
        climbed: at(4),
        slid: at(5),
        turns,
        per_square: if per_square {
            (0..n)
                .map(|i| (chain.states()[i], x.expected[0].get(i)))
                .collect()
        } else {
            Vec::new()
        },
    })
}

/// The distribution of T on any board: on the square chain, or on the stateful chain with the
/// trap projected to its square. The mean is always exact: when the terms computed leave a tail,
/// it is E\[T\] from the exact expectation solve rather than an estimate of the tail's part.
///
/// # Errors
///
/// See [`distribution`].
pub fn board_distribution(
    board: &Board,
    options: &DistributionOptions,
) -> Result<Distribution<Square>, TooMuchWork> {
    let mut dist = if board.is_stateful() {
        distribution(&stateful_chain(board), options)?.map_states(|s| s.square)
    } else {
        distribution(&Chain::for_board(board), options)?
    };
    exact_mean(board, &mut dist.mean);
    Ok(dist)
}

/// Replaces an approximate mean by E\[T\] from the exact expectation solve of `board`.
pub fn exact_mean(board: &Board, mean: &mut Mean) {
    if let Mean::About(_) = mean {
        if let Expectation::Finite(e) = expect_with(board, false) {
            *mean = Mean::Exact(e.turns);
        }
    }
}

/// The exact law of the final score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// E[score].
    pub expected: BigRational,
    /// Each possible final score with its probability, ascending.
    pub law: Vec<(i64, BigRational)>,
}

impl Score {
    /// P(score >= s).
    pub fn at_least(&self, s: i64) -> BigRational {
        self.law
            .iter()
            .filter(|(v, _)| *v >= s)
            .map(|(_, p)| p.clone())
            .sum()
    }
}

/// The law of the final score on a board with point squares, when the game ends with
/// probability 1 (`None` otherwise, or without point squares).
pub fn score(board: &Board) -> Option<Score> {
    if board.point_squares().is_empty() {
        return None;
    }
    let chain = stateful_chain(board);
    if !chain.always_ends() {
        return None;
    }
    let points = |s: &PlayerState| -> i64 {
        board
            .point_squares()
            .iter()
            .enumerate()
            .filter(|(i, _)| s.progress.eaten & (1 << i) != 0)
            .map(|(_, (_, p))| p)
            .sum()
    };
    let n = chain.transient_count();
    let finals = &chain.states()[n..];
    let mut by_score: std::collections::BTreeMap<i64, BigRational> = Default::default();
    for (f, p) in finals.iter().zip(ending_laws(&chain)) {
        *by_score.entry(points(f)).or_insert_with(BigRational::zero) += p;
    }
    let law: Vec<(i64, BigRational)> = by_score.into_iter().filter(|(_, p)| !p.is_zero()).collect();
    let expected = law
        .iter()
        .map(|(v, p)| p * BigRational::from_integer((*v).into()))
        .sum();
    Some(Score { expected, law })
}

/// P(the game ends in final state f) for every final state: `w . R[., f]` from the start's row
/// of the fundamental matrix when that route applies, else one exact solve with a right-hand
/// side per final state.
fn ending_laws(chain: &Chain<PlayerState>) -> Vec<BigRational> {
    let n = chain.transient_count();
    let finals = chain.states().len() - n;
    if chain.start() >= n {
        return (0..finals)
            .map(|f| {
                if n + f == chain.start() {
                    BigRational::one()
                } else {
                    BigRational::zero()
                }
            })
            .collect();
    }
    let column = |f: usize| -> Vec<(usize, BigRational)> {
        (0..n)
            .filter_map(|i| {
                chain
                    .row(i)
                    .iter()
                    .find(|(j, _)| *j == n + f)
                    .map(|(_, p)| (i, p.clone()))
            })
            .collect()
    };
    let dense = |f: usize| -> Vec<BigRational> {
        let mut d = vec![BigRational::zero(); n];
        for (i, p) in column(f) {
            d[i] = p;
        }
        d
    };
    let columns: Vec<Vec<BigRational>> = (0..finals).map(dense).collect();
    let a = identity_minus(&transient_matrix(chain));
    let b = columns;
    let start = [chain.start()];
    let wanted = vec![Wanted::Some(&start); finals];
    let x = solve_exact(&a, &b, &wanted, None).expect("the game ends, so I - Q is nonsingular");
    x.into_iter().map(|col| col[0].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::expectation::expect;
    use crate::test_util::q;

    fn finite(text: &str) -> Expectations {
        let b = Board::from_toml_str(text, "t").unwrap();
        assert!(b.is_stateful());
        match expect(&b) {
            Expectation::Finite(e) => *e,
            Expectation::Infinite(t) => panic!("infinite: {t:?}"),
        }
    }

    #[test]
    fn the_verified_lifting_agrees_with_the_bounded_solve() {
        // Two routes to the same numbers: the verified lifting (stopped early, proved by
        // substitution) and the chain solve lifted to Hadamard's bound; boards large enough for
        // the fill-reducing order, with every stateful feature and roll-again.
        for text in [
            "size = 60\nsnakes = [[17, 4], [33, 20], [58, 2]]\nladders = [[3, 25], [12, 40]]\n\
             once = [3, 33]\npoints = [[8, 4], [45, -2]]\nlose_turn = [22]\nextra_turn = [50]\n",
            "size = 48\nsnakes = [[30, 6], [47, 11]]\nladders = [[5, 29]]\nonce = [5, 47]\n\
             points = [[10, 1], [20, 2], [40, 3]]\n[rules]\nroll_again = 2\novershoot = \"bounce\"\n",
        ] {
            let b = Board::from_toml_str(text, "t").unwrap();
            let chain = stateful_chain(&b);
            assert!(chain.transient_count() > 300, "large enough to be reordered");
            let lifted = by_verified_lifting(&chain, true).expect("the verified route applies");
            let Expectation::Finite(bounded) = expect_chain_with(&chain, true) else {
                panic!("the game ends")
            };
            assert_eq!(lifted.turns, bounded.turns);
            assert_eq!(lifted.variance, bounded.variance);
            assert_eq!(lifted.rolls, bounded.rolls);
            assert_eq!(lifted.snakes, bounded.snakes);
            assert_eq!(lifted.ladders, bounded.ladders);
            assert_eq!(lifted.climbed, bounded.climbed);
            assert_eq!(lifted.slid, bounded.slid);
            let mut a = lifted.per_square.clone();
            let mut c = bounded.per_square.clone();
            a.sort();
            c.sort();
            assert_eq!(a, c);
        }
    }

    #[test]
    fn a_lost_turn_is_a_turn_without_a_roll() {
        // Worked by hand: size 2, a coin, allow; square 1 costs the next turn. A 2 finishes at
        // once (T = 1); a 1 reaches 1, the next turn is skipped, the third finishes (T = 3).
        // E = 2, E[T^2] = 1/2 + 9/2 = 5, Var = 1; rolls: 1/2 * 1 + 1/2 * 2 = 3/2.
        let e = finite("size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(2, 1));
        assert_eq!(e.variance, q(1, 1));
        assert_eq!(e.rolls, q(3, 2));
    }

    #[test]
    fn an_extra_turn_square_gives_one_more_roll_in_the_turn() {
        // Worked by hand: size 2, a coin, allow; square 1 gives one more roll, which always
        // finishes. T = 1 always; rolls 1/2 * 1 + 1/2 * 2 = 3/2 (without it E[T] would be 3/2).
        let e = finite("size = 2\nextra_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n");
        assert_eq!(e.turns, q(1, 1));
        assert_eq!(e.variance, q(0, 1));
        assert_eq!(e.rolls, q(3, 2));
    }

    #[test]
    fn a_one_use_snake_is_plain_once_taken() {
        // Worked by hand: size 3, a coin, stay; the snake 2 -> 0 works once. Once it is gone:
        // E(2) = 1 + E(2)/2 = 2, E(1) = 1 + E(2)/2 = 2, E(0) = 1 + E(1)/2 + E(2)/2 = 3. Before:
        // E(1) = 1 + E_gone(0)/2 = 5/2 (a 1 takes the snake, a 2 finishes), E(0) = 1 + E(1)/2 +
        // E_gone(0)/2 = 15/4. With the snake for ever E would be 6.
        let text = "size = 3\nsnakes = [[2, 0]]\nonce = [2]\n[rules]\ndie = 2\n";
        let e = finite(text);
        assert_eq!(e.turns, q(15, 4));
        // Snakes taken: exactly one unless... the game can finish without it: from 0 a 1 then a
        // 2 (1/4) avoids it, so E[snakes] = 3/4.
        assert_eq!(e.snakes, q(3, 4));
        let forever =
            Board::from_toml_str("size = 3\nsnakes = [[2, 0]]\n[rules]\ndie = 2\n", "t").unwrap();
        let Expectation::Finite(f) = expect(&forever) else {
            panic!()
        };
        assert_eq!(f.turns, q(6, 1));
    }

    #[test]
    fn points_are_scored_once_and_give_the_score_law() {
        // Worked by hand: size 2, a coin, allow; square 1 scores 5. Half the games pass through
        // 1: score 5 w.p. 1/2, 0 w.p. 1/2.
        let b = Board::from_toml_str(
            "size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let s = score(&b).unwrap();
        assert_eq!(s.law, vec![(0, q(1, 2)), (5, q(1, 2))]);
        assert_eq!(s.expected, q(5, 2));
        assert_eq!(s.at_least(5), q(1, 2));
        assert_eq!(s.at_least(1), q(1, 2));
        // Eaten once: a snake back to 0 from 2 (size 3) lets a player land on 1 again, but the
        // apple is gone, so the score is at most 5.
        let again = Board::from_toml_str(
            "size = 4\nsnakes = [[2, 0]]\npoints = [[1, 5]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        let s = score(&again).unwrap();
        assert_eq!(s.law.last().unwrap().0, 5);
        assert_eq!(
            s.law.iter().map(|(_, p)| p.clone()).sum::<BigRational>(),
            q(1, 1)
        );
    }

    #[test]
    fn the_distribution_of_a_lost_turn_board_skips_a_turn() {
        // Same board as the lost-turn test: P(T = 1) = 1/2, P(T = 2) = 0, P(T = 3) = 1/2.
        let b = Board::from_toml_str(
            "size = 2\nlose_turn = [1]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let options = DistributionOptions {
            turns: Some(3),
            ..DistributionOptions::default()
        };
        let d = board_distribution(&b, &options).unwrap();
        let p: Vec<BigRational> = d.terms.iter().map(|t| t.p.clone()).collect();
        assert_eq!(p, vec![q(1, 2), q(0, 1), q(1, 2)]);
    }
}
