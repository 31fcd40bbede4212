//! The chains of one player on a board that changes during a game (one-use jumps, point
//! squares, lost and extra turns), over [`PlayerState`]s: the full state and the lumped one
//! that forgets the eaten point squares.
//!
//! The law of T and the expectations are computed on [`turns_chain`], the lumped chain that
//! forgets the eaten point squares ([`StatefulBoard::for_turns`]: up to 2^(point squares) times
//! fewer states); the score ([`super::score`]) needs the full state, [`stateful_chain`]. When
//! the game can go on for ever the full chain is used throughout, so the trap named is the full
//! state's. The analyses reach these chains through [`crate::chain::PlayerChain`].

use crate::board::Board;
use crate::chain::{stateful_game, Chain, Memory};
use crate::game::{PlayerState, StatefulBoard};

/// The chain of one player on a stateful board, over the full state (what is used up, eaten or
/// owed).
pub fn stateful_chain(board: &Board) -> Chain<PlayerState> {
    stateful_game(board, Memory::Full).1
}

/// The chain of one player with the eaten point squares forgotten
/// ([`StatefulBoard::for_turns`]): the same law of T and the same rewards but the points. On a
/// board without point squares it is [`stateful_chain`].
pub fn turns_chain(board: &Board) -> Chain<PlayerState> {
    Chain::build(&StatefulBoard::for_turns(board))
}

/// [`turns_chain`] when the game always ends, else [`stateful_chain`] (whose trap names the full
/// state, as the reports show it): the tests' name for the chain [`crate::chain::PlayerChain`]
/// takes with [`Memory::Turns`].
#[cfg(test)]
pub fn law_chain(board: &Board) -> Chain<PlayerState> {
    stateful_game(board, Memory::Turns).1
}

#[cfg(test)]
pub(crate) mod tests {
    use num_rational::BigRational;
    use num_traits::{One, Zero};

    use super::*;
    use crate::analysis::distribution::{board_distribution, distribution, DistributionOptions};
    use crate::analysis::expectation::{
        by_verified_lifting, expect, expect_chain_with, Expectation, Expectations,
    };
    use crate::game::Capabilities;
    use crate::test_util::{board, q};

    fn finite(text: &str) -> Expectations {
        let b = Board::from_toml_str(text, "t").unwrap();
        assert!(!Capabilities::of(&b).stateless);
        match expect(&b) {
            Expectation::Finite(e) => *e,
            Expectation::Infinite(t) => panic!("infinite: {t:?}"),
        }
    }

    /// Boards mixing point squares with one-use jumps, lost and extra turns, chance squares,
    /// tiles, bounce, roll-again with forfeits and several dice (tests/fixtures, whose values
    /// tests/it/known_values_rules.rs compares with the Python derivation), and a larger one.
    pub(crate) const MIXED: [&str; 6] = [
        include_str!("../../tests/fixtures/independent-boards/everything.toml"),
        include_str!("../../tests/fixtures/independent-boards/extra-points-bounce.toml"),
        include_str!("../../tests/fixtures/independent-boards/once-chance-nochain.toml"),
        include_str!("../../tests/fixtures/independent-boards/points-chance-unlimited.toml"),
        include_str!("../../tests/fixtures/independent-boards/tiles-once-points.toml"),
        "size = 30\nsnakes = [[17, 4], [26, 20], [28, 2]]\nladders = [[3, 25], [12, 22]]\n\
         once = [3, 26]\npoints = [[8, 4], [21, -2], [27, 1]]\nlose_turn = [14]\n\
         extra_turn = [19]\n[rules]\nroll_again = 2\n",
    ];

    #[test]
    fn the_chain_without_the_eaten_squares_has_the_same_law_of_t() {
        // Lumpability: the law of T and the rewards but the points are those of the full chain,
        // on fewer states.
        for text in MIXED {
            let b = Board::from_toml_str(text, "t").unwrap();
            let (full, lumped) = (stateful_chain(&b), turns_chain(&b));
            assert!(lumped.transient_count() < full.transient_count());
            // P(T = n) for n = 1..30, stepped in rationals on each chain.
            let law = |chain: &Chain<PlayerState>| -> Vec<BigRational> {
                let t = chain.transient_count();
                let mut p = vec![BigRational::zero(); t];
                p[chain.start()] = BigRational::one();
                (0..30)
                    .map(|_| {
                        let (mut next, mut ended) =
                            (vec![BigRational::zero(); t], BigRational::zero());
                        for (i, pi) in p.iter().enumerate().filter(|(_, x)| !x.is_zero()) {
                            for (j, q) in chain.row(i) {
                                match next.get_mut(*j) {
                                    Some(x) => *x += pi * q,
                                    None => ended += pi * q,
                                }
                            }
                        }
                        p = next;
                        ended
                    })
                    .collect()
            };
            assert_eq!(law(&lumped), law(&full));
            let solve = |chain: &Chain<PlayerState>| {
                by_verified_lifting(chain, false).unwrap_or_else(|| {
                    match expect_chain_with(chain, false) {
                        Expectation::Finite(e) => *e,
                        Expectation::Infinite(t) => panic!("the game ends: {t:?}"),
                    }
                })
            };
            let (a, c) = (solve(&lumped), solve(&full));
            assert_eq!(
                (a.turns, a.variance, a.rolls, a.snakes, a.ladders, a.climbed, a.slid),
                (c.turns, c.variance, c.rolls, c.snakes, c.ladders, c.climbed, c.slid)
            );
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
            let mut lifted =
                by_verified_lifting(&chain, true).expect("the verified route applies");
            let Expectation::Finite(mut bounded) = expect_chain_with(&chain, true) else {
                panic!("the game ends")
            };
            // Every expectation equal, and the same squares in any order.
            lifted.per_square.sort();
            bounded.per_square.sort();
            assert_eq!(lifted, *bounded);
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

    // The compound move's endless turns (chain/compound.rs), seen through the analyses.
    #[test]
    fn a_die_whose_only_face_is_the_top_one_never_ends_a_turn() {
        // Worked by hand: die = [0, 2] shows 2 every time, and under unlimited roll-again every
        // 2 rolls again: the first turn never ends, so T is infinite with probability 1.
        let b = board(
            "size = 10\nsnakes = [[4, 0]]\n[rules]\ndie = [0, 2]\nroll_again = \"unlimited\"\n",
        );
        let Expectation::Infinite(trap) = expect(&b) else {
            panic!("the game never ends")
        };
        assert_eq!(trap.state, 0);
        let chain = Chain::for_board(&b);
        let options = DistributionOptions {
            turns: Some(5),
            ..DistributionOptions::default()
        };
        let d = distribution(&chain, &options).unwrap();
        assert!(d.terms.iter().all(|t| t.p == q(0, 1)), "no game ends");
        assert!(d.trap.is_some());
    }
    #[test]
    fn an_endless_extra_turn_loop_keeps_its_chance_of_never_ending() {
        // Worked by hand: a coin from 0; a 1 reaches 1, the ladder 1 -> 6 finishes (T = 1, 1/2);
        // a 2 reaches 2, an extra-turn square that every roll leads back to (3 and 4 slide to
        // 2): that turn never ends (1/2). So P(T = 1) = 1/2, P(T = n) = 0 after, P(T > n) = 1/2.
        let b = board(
            "size = 6\nsnakes = [[3, 2], [4, 2]]\nladders = [[1, 6]]\nextra_turn = [2]\n\
             [rules]\ndie = 2\n",
        );
        let Expectation::Infinite(trap) = expect(&b) else {
            panic!("the game can last for ever")
        };
        assert_eq!(trap.state, 0);
        let chain = stateful_chain(&b);
        assert!(chain.trap().is_some());
        let options = DistributionOptions {
            turns: Some(4),
            ..DistributionOptions::default()
        };
        let d = board_distribution(&b, &options).unwrap();
        let p: Vec<BigRational> = d.terms.iter().map(|t| t.p.clone()).collect();
        assert_eq!(p, vec![q(1, 2), q(0, 1), q(0, 1), q(0, 1)]);
        // The turn's law keeps its mass: the chance of never ending stays on the start state.
        let rows: BigRational = chain
            .row(chain.start())
            .iter()
            .map(|(_, p)| p.clone())
            .sum();
        assert_eq!(rows, q(1, 1));
    }
}
