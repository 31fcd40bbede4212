//! Tests of the per-square answers: a board worked by hand, and each answer against a second
//! method (a separate absorbing solve per square and per jump, the expected turns, the exact
//! distribution's tail).

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::*;
use crate::analysis::distribution::board_distribution;
use crate::analysis::distribution::DistributionOptions;
use crate::analysis::visits::visits;
use crate::board::{builtin, builtin_names};
use crate::exact::solve::{SparseLu, SparseRows};
use crate::test_util::q;

fn board(name: &str) -> Board {
    builtin(name).unwrap()
}

#[test]
fn tiny_by_hand() {
    // Tiny (a coin on 4 squares): from 0, heads climbs 1 -> 3 and tails slides 2 -> 0; from 3,
    // heads finishes and tails is lost. Turns begun on 0 and on 3: 2 each (geometric waits).
    // Back on 0 after some turn: the first flip is tails, 1/2 (from 3 there is no way back).
    // 3 is reached for sure, as is the finish. The snake is taken once on average (2 turns on
    // 0, half of them tails) but at least once only when the first flip is tails: 1/2; the
    // ladder once, for sure. Remaining turns: 4 from 0, 2 from 3.
    let a = square_answers(&board("tiny")).unwrap();
    let rows: Vec<(Square, BigRational, Option<BigRational>, BigRational)> = a
        .squares
        .iter()
        .map(|s| {
            (
                s.square,
                s.visits.clone(),
                s.reach.clone(),
                s.remaining.clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (0, q(2, 1), Some(q(1, 2)), q(4, 1)),
            (3, q(2, 1), Some(q(1, 1)), q(2, 1)),
            (4, q(0, 1), Some(q(1, 1)), q(0, 1)),
        ]
    );
    let jumps = a.jumps.unwrap();
    assert_eq!(jumps[0].jump, Jump { from: 2, to: 0 });
    assert_eq!(
        (jumps[0].uses.clone(), jumps[0].taken.clone()),
        (q(1, 1), q(1, 2))
    );
    assert_eq!(jumps[1].jump, Jump { from: 1, to: 3 });
    assert_eq!(
        (jumps[1].uses.clone(), jumps[1].taken.clone()),
        (q(1, 1), q(1, 1))
    );
}

#[test]
fn tiny_after_two_turns_by_hand() {
    // After one turn: 0 or 3, 1/2 each. After two: 0 by tails twice (1/4); 3 by heads then
    // tails or tails then heads (1/2); finished by heads twice (1/4). P(T > 2) = 3/4.
    let law = occupancy(&board("tiny"), 2);
    assert_eq!(law, vec![(0, q(1, 4)), (3, q(1, 2)), (4, q(1, 4))]);
    assert_eq!(occupancy(&board("tiny"), 0), vec![(0, q(1, 1))]);
}

/// Q with column `j` set to zero: state j made a target, so that the solution of
/// `(I - Q') h = Q e_j` is the probability of reaching j after at least one turn.
fn target(q: &SparseRows, j: usize) -> (SparseRows, Vec<BigRational>) {
    let b = q
        .iter()
        .map(|row| {
            row.iter()
                .find(|(k, _)| *k == j)
                .map_or_else(BigRational::zero, |(_, p)| p.clone())
        })
        .collect();
    let cut = q
        .iter()
        .map(|row| row.iter().filter(|(k, _)| *k != j).cloned().collect())
        .collect();
    (cut, b)
}

#[test]
fn reach_agrees_with_a_separate_absorbing_solve_per_square() {
    // Second method: for each square j, a solve of its own with j made absorbing (the reference
    // rational LU, not the modular solver): the start's component is the probability of
    // reaching j after at least one turn.
    for name in ["milton-bradley", "random-tiles", "tiny"] {
        let b = board(name);
        let chain = Chain::for_board(&b);
        let qm = transient_matrix(&chain);
        let a = square_answers(&b).unwrap();
        for (j, answer) in a.squares[..chain.transient_count()].iter().enumerate() {
            let (cut, rhs) = target(&qm, j);
            let h = SparseLu::factor(&cut).unwrap().solve(&rhs);
            assert_eq!(
                answer.reach.as_ref(),
                Some(&h[chain.start()]),
                "{name} {}",
                answer.square
            );
        }
    }
}

#[test]
fn taken_agrees_with_a_separate_first_use_solve_per_jump() {
    // Second method: h_i = P(jump J ever taken from i) solves h = r + Q_not h, where r_i is the
    // chance that a roll from i takes J and Q_not leaves out those rolls (they end at e_J).
    let b = board("milton-bradley");
    let chain = Chain::for_board(&b);
    let qm = transient_matrix(&chain);
    let squares: Vec<Square> = chain.states()[..chain.transient_count()].to_vec();
    let (jumps, passes) = jump_passes(&b, &squares).unwrap();
    let answers = square_answers(&b).unwrap().jumps.unwrap();
    for ((jump, r), answer) in jumps.iter().zip(&passes).zip(&answers) {
        assert_eq!(*jump, answer.jump);
        let end = chain.index_of(&chain_end(&b, *jump)).unwrap();
        let not: SparseRows = qm
            .iter()
            .zip(r)
            .map(|(row, ri)| {
                row.iter()
                    .map(|(k, p)| (*k, if *k == end { p - ri } else { p.clone() }))
                    .collect()
            })
            .collect();
        let h = SparseLu::factor(&not).unwrap().solve(r);
        assert_eq!(answer.taken, h[chain.start()], "{jump:?}");
        assert!(answer.taken <= BigRational::one() && answer.taken <= answer.uses);
    }
}

#[test]
fn visits_sum_to_the_expected_turns_and_uses_match_the_visits_module() {
    for name in ["milton-bradley", "efi", "random-tiles"] {
        let b = board(name);
        let Expectation::Finite(e) = expect_with(&b, false) else {
            panic!("{name}")
        };
        let a = square_answers(&b).unwrap();
        let total: BigRational = a.squares.iter().map(|s| &s.visits).sum();
        assert_eq!(total, e.turns, "{name}");
        let expected_uses = visits(&b).unwrap().jumps;
        let uses = a
            .jumps
            .map(|j| j.into_iter().map(|j| (j.jump, j.uses)).collect::<Vec<_>>());
        assert_eq!(uses, expected_uses, "{name}");
    }
}

#[test]
fn occupancy_off_the_finish_is_the_distributions_tail() {
    // Second method: analysis::distribution's P(T > n), stepped on its own.
    let stateful = Board::from_toml_str(
        "size = 20\nsnakes = [[17, 3]]\nladders = [[4, 14]]\nonce = [4]\npoints = [[8, 5]]\n\
         lose_turn = [11]\nextra_turn = [6]\n",
        "stateful",
    )
    .unwrap();
    let mut boards: Vec<Board> = builtin_names()
        .map(board)
        .filter(|b| b.choice().is_none())
        .collect();
    boards.push(stateful);
    for b in &boards {
        let options = DistributionOptions {
            turns: Some(12),
            tail: BigRational::new(1.into(), 1_000_000.into()),
            min_turns: 0,
        };
        let dist = board_distribution(b, &options).unwrap();
        for term in dist.terms.iter().filter(|t| [1, 5, 12].contains(&t.n)) {
            let law = occupancy(b, term.n);
            let off: BigRational = law
                .iter()
                .filter(|(s, _)| *s != b.size())
                .map(|(_, p)| p)
                .sum();
            assert_eq!(off, term.survives, "{} n = {}", b.name(), term.n);
            let all: BigRational = law.iter().map(|(_, p)| p).sum();
            assert_eq!(all, BigRational::one(), "{}", b.name());
        }
    }
}

#[test]
fn a_forfeit_board_worked_by_hand() {
    // A coin (1, or the top face 2) on 3 squares from 0, a second 2 in a turn forfeits, a roll
    // past 3 stays. From 0: a 1 lands on 1 (the turn ends); a 2 lands on 2 and rolls again,
    // then a 1 finishes and a 2 forfeits back to 0 (no landing). So a turn from 0 lands on 1
    // w.p. 1/2, lands on 2 w.p. 1/2, and comes back to 0 with no landing on 1 w.p. 1/4:
    // reach(1) = (1/2) / (1 - 1/4) = 2/3. Square 2 is landed on from 0 by a 2 (1/2) or from
    // 1 by a 1 (from 1 a 2 finishes): reach(2) = 1/2 + (1/2)(1/2) = 3/4. A move never ends
    // on 0: reach(0) = 0. (tests/independent/rules_chain.py --reach agrees.)
    let b = Board::from_toml_str(
        "size = 3\n[rules]\ndie = 2\nroll_again = 2\novershoot = \"stay\"\n",
        "f",
    )
    .unwrap();
    let a = square_answers(&b).unwrap();
    let reach: Vec<(Square, Option<BigRational>)> = a
        .squares
        .iter()
        .map(|s| (s.square, s.reach.clone()))
        .collect();
    assert_eq!(
        reach,
        vec![
            (0, Some(q(0, 1))),
            (1, Some(q(2, 3))),
            (2, Some(q(3, 4))),
            (3, Some(q(1, 1)))
        ]
    );
    assert_eq!((a.no_reach, a.no_jumps), (None, Some(NoReach::Forfeits)));
}

#[test]
fn an_unlimited_roll_again_board_worked_by_hand() {
    // A coin on 4 squares from 0, ladder 1 -> 3, snake 2 -> 0, a 2 rolls again, past 4 stays.
    // From 0 a 2 takes the snake back to 0 (and rolls again), a 1 climbs to 3 and ends the
    // turn; from 3 a 1 finishes, a 2 stays on 3 and rolls again. So a turn begins on 0 once
    // and on 3 once, but a roll leaves the token on 0 again w.p. 1/2 (the first roll a 2):
    // reach(0) = 1/2, reach(3) = 1. Rolls from 0: a geometric wait for a 1, 2 on average, half
    // of them 2s: the snake is taken once on average, at least once w.p. 1/2; the ladder
    // once, for sure. (rules_chain.py --reach agrees on the reach.)
    let b = Board::from_toml_str(
        "size = 4\nladders = [[1, 3]]\nsnakes = [[2, 0]]\n[rules]\ndie = 2\n\
         roll_again = \"unlimited\"\novershoot = \"stay\"\n",
        "u",
    )
    .unwrap();
    let a = square_answers(&b).unwrap();
    let rows: Vec<(Square, BigRational, Option<BigRational>)> = a
        .squares
        .iter()
        .map(|s| (s.square, s.visits.clone(), s.reach.clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (0, q(1, 1), Some(q(1, 2))),
            (3, q(1, 1), Some(q(1, 1))),
            (4, q(0, 1), Some(q(1, 1)))
        ]
    );
    let jumps: Vec<(Jump, BigRational, BigRational)> = a
        .jumps
        .unwrap()
        .into_iter()
        .map(|j| (j.jump, j.uses, j.taken))
        .collect();
    assert_eq!(
        jumps,
        vec![
            (Jump { from: 2, to: 0 }, q(1, 1), q(1, 2)),
            (Jump { from: 1, to: 3 }, q(1, 1), q(1, 1))
        ]
    );
}

#[test]
fn with_unlimited_roll_again_the_landings_are_those_of_one_roll_a_turn() {
    // Second method: with no forfeit a roll's law does not depend on the turn it is in, so the
    // squares the rolls leave the token on follow one chain whatever the turns: efi's reach
    // and jump answers are those of efi with one roll a turn (the one-roll route, where every
    // H_j is one state).
    let efi = board("efi");
    let once = efi
        .with_rules(&crate::board::RuleOverrides {
            roll_again: Some(crate::board::RollAgain::None),
            ..Default::default()
        })
        .unwrap();
    let (a, b) = (
        square_answers(&efi).unwrap(),
        square_answers(&once).unwrap(),
    );
    let reach = |x: &SquareAnswers| -> BTreeMap<Square, BigRational> {
        x.squares
            .iter()
            .map(|s| (s.square, s.reach.clone().unwrap()))
            .collect()
    };
    let (ra, rb) = (reach(&a), reach(&b));
    for (s, r) in &ra {
        assert_eq!(Some(r), rb.get(s).or(Some(&BigRational::zero())), "{s}");
    }
    assert_eq!(a.jumps, b.jumps);
    assert!(a.jumps.is_some());
}

#[test]
fn boards_without_reach_say_why() {
    // Reach on every rule; the jumps' answers where a jump's uses after its first are those
    // from one state.
    let stateful =
        Board::from_toml_str("size = 20\nladders = [[4, 14]]\nonce = [4]\n", "s").unwrap();
    let a = square_answers(&stateful).unwrap();
    assert_eq!((a.no_reach, a.no_jumps), (None, Some(NoReach::Stateful)));
    assert!(a.squares.iter().all(|s| s.reach.is_some()));
    let again =
        Board::from_toml_str("size = 20\n[rules]\nroll_again = \"unlimited\"\n", "r").unwrap();
    let a = square_answers(&again).unwrap();
    assert_eq!((a.no_reach, a.no_jumps), (None, None));
    // Tiles: reach is computed, the jumps are not.
    let tiles = square_answers(&board("random-tiles")).unwrap();
    assert_eq!(
        (tiles.no_reach, tiles.no_jumps),
        (None, Some(NoReach::Draws))
    );
}
