//! The single path's sums against the general rational route (Gaussian elimination over the
//! in-turn states, a second method), on every built-in board, on random boards and on heavily
//! loaded dice, and against turns worked by hand.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::board::{builtin, builtin_names, Board, RollAgain, RuleOverrides};
use crate::chain::compound::{compound_move_by, Route};
use crate::chain::{Chain, TurnModel};
use crate::game::{Capabilities, RollGame, SingleBoard, StatefulBoard};
use crate::test_util::{board, q};

/// Every reachable state's turn summed both ways: the same numbers, written the same
/// (each fraction in lowest terms with a positive denominator, so `==` on values is also
/// equality of numerators and denominators, which the chain's common denominator and every
/// printed fraction rely on).
/// Returns how many turns were compared.
fn same_every_way<G: RollGame + TurnModel<State = <G as RollGame>::State>>(game: &G) -> usize {
    let chain = Chain::build(game);
    let mut compared = 0;
    for s in &chain.states()[..chain.transient_count()] {
        let fast = compound_move_by(game, s, Route::Fast);
        let general = compound_move_by(game, s, Route::General);
        assert_eq!(fast, general, "state {s:?}");
        for turn in [&fast, &general] {
            let r = &turn.rewards;
            for p in turn.next.iter().map(|(_, p)| p).chain([
                &r.rolls, &r.snakes, &r.ladders, &r.climbed, &r.slid, &r.points,
            ]) {
                assert!(p.denom() > &BigInt::zero(), "state {s:?}");
                assert!(p.numer().gcd(p.denom()).is_one(), "state {s:?}: {p}");
            }
        }
        compared += 1;
    }
    compared
}

/// [`same_every_way`] on the game of `b` (stateful or not).
fn same_every_way_on(b: &Board) -> usize {
    if !Capabilities::of(b).stateless {
        same_every_way(&StatefulBoard::new(b))
    } else {
        same_every_way(&SingleBoard::new(b))
    }
}

/// `b` under `rule`, when its other rules allow it (a choice of dice needs one roll a turn).
fn with_roll_again(b: &Board, rule: RollAgain) -> Option<Board> {
    b.with_rules(&RuleOverrides {
        roll_again: Some(rule),
        ..RuleOverrides::default()
    })
    .ok()
}

#[test]
fn every_built_in_board_sums_each_turn_the_same_both_ways() {
    let mut boards = 0;
    for name in builtin_names() {
        let b = builtin(name).unwrap();
        for rule in [
            None,
            Some(RollAgain::Unlimited),
            Some(RollAgain::Forfeit(3)),
        ] {
            let Some(b) = rule.map_or_else(|| Some(b.clone()), |r| with_roll_again(&b, r)) else {
                assert_eq!(name, "course", "only the choice board refuses roll-again");
                continue;
            };
            boards += 1;
            assert!(same_every_way_on(&b) > 0, "{name} {rule:?}");
        }
    }
    assert_eq!(boards, 3 * builtin_names().count() - 2);
}

#[test]
fn a_run_of_top_throws_into_a_cycle_matches_the_hand_derivation() {
    // size 7, die 3, bounce, unlimited: from 3 a 3 -> 6, from 6 a 3 -> 9 bounces to 5,
    // from 5 a 3 -> 8 bounces to 6: levels 3 (k = 0), 6 (k = 1), 5 (k = 2), then back to
    // level 1, a cycle of 2 levels, ratio 1/9, so levels 1 and 2 are visited 9/8 times
    // their path weight: x = 1, 1/3 * 9/8 = 3/8, 1/9 * 9/8 = 1/8.
    // Ends: level 0 (on 3): 1 -> 4, 2 -> 5; level 1 (on 6): 1 -> 7 (finish), 2 -> 8 -> 6;
    // level 2 (on 5): 1 -> 6, 2 -> 7 (finish).
    // P(4) = 1/3, P(5) = 1/3, P(6) = 3/8/3 + 1/8/3 = 1/6, P(7) = 1/8 + 1/24 = 1/6.
    // Rolls: 1 + 3/8 + 1/8 = 3/2.
    let b =
        board("size = 7\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n");
    let game = SingleBoard::new(&b);
    for route in [Route::Fast, Route::General] {
        let turn = compound_move_by(&game, &3, route);
        assert_eq!(
            turn.next,
            vec![(4, q(1, 3)), (5, q(1, 3)), (6, q(1, 6)), (7, q(1, 6))]
        );
        assert_eq!(turn.rewards.rolls, q(3, 2));
    }
}

#[test]
fn a_long_run_is_one_power_of_the_die() {
    // size 40, die 3, no jumps, unlimited: from 0 the 3s run 0, 3, ..., 39 (level k on
    // 3k, 14 levels); a 1 or a 2 at level k ends on 3k + 1 or 3k + 2 with 3^-(k + 1), and
    // the 3 from 39 finishes (40 is passed: stay on 39, roll again; from 39 a 1 finishes).
    let b = board("size = 40\n[rules]\ndie = 3\nroll_again = \"unlimited\"\n");
    for route in [Route::Fast, Route::General] {
        let turn = compound_move_by(&SingleBoard::new(&b), &0, route);
        for k in 0..13i64 {
            let p = q(1, 3i64.pow(k as u32 + 1));
            let on = |s: i64| {
                turn.next
                    .iter()
                    .find(|(t, _)| i64::from(*t) == s)
                    .unwrap()
                    .1
                    .clone()
            };
            assert_eq!(on(3 * k + 1), p, "level {k}");
            assert_eq!(on(3 * k + 2), p, "level {k}");
        }
        let total: num_rational::BigRational = turn.next.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, q(1, 1));
    }
}

/// A board of `size` squares with the `die` (a number of faces, or a list of weights), the
/// roll-again `rule`, the overshoot rule and the jumps (drawn as pairs of numbers, folded onto
/// the board), or `None` when the jumps chain into a cycle (an invalid board).
pub(in crate::chain) fn random_board(
    size: u32,
    die: &str,
    rule: RollAgain,
    overshoot: &str,
    jumps: &[(u32, u32)],
) -> Option<Board> {
    let mut snakes = Vec::new();
    let mut ladders = Vec::new();
    let mut used = std::collections::HashSet::new();
    for &(a, b) in jumps {
        let (a, b) = (1 + a % (size - 1), b % size);
        if a == b || !used.insert(a) {
            continue;
        }
        if a > b {
            snakes.push(format!("[{a}, {b}]"));
        } else {
            ladders.push(format!("[{a}, {b}]"));
        }
    }
    let again = rule.toml();
    let text = format!(
        "size = {size}\nsnakes = [{}]\nladders = [{}]\n[rules]\ndie = {die}\n\
         overshoot = \"{overshoot}\"\nroll_again = {again}\n",
        snakes.join(", "),
        ladders.join(", ")
    );
    Board::from_toml_str(&text, "test").ok()
}

/// Faces' weights as a loaded die's TOML list, or `None` when they are all 0 (no die).
pub(in crate::chain) fn loaded(weights: &[u64]) -> Option<String> {
    let list: Vec<String> = weights.iter().map(u64::to_string).collect();
    weights
        .iter()
        .any(|&w| w > 0)
        .then(|| format!("[{}]", list.join(", ")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_boards_with_roll_again_sum_each_turn_the_same_both_ways(
        size in 4u32..60,
        die in 2u32..7,
        forfeit in 0u32..5,
        overshoot in 0usize..3,
        jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..12),
    ) {
        let rule = if forfeit < 2 { RollAgain::Unlimited } else { RollAgain::Forfeit(forfeit) };
        let overshoot = ["stay", "bounce", "allow"][overshoot];
        if let Some(b) = random_board(size, &die.to_string(), rule, overshoot, &jumps) {
            prop_assert!(same_every_way_on(&b) > 0);
        }
    }

    /// Loaded dice of weights up to the format's 1,000,000 make each level's denominator up
    /// to about 2^23: long paths' sums run to hundreds of bits.
    #[test]
    fn random_boards_with_heavy_dice_sum_each_turn_the_same_both_ways(
        size in 4u32..40,
        weights in proptest::collection::vec(0u64..=1_000_000, 2..7),
        forfeit in 0u32..4,
        overshoot in 0usize..3,
        jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..8),
    ) {
        let rule = if forfeit < 2 { RollAgain::Unlimited } else { RollAgain::Forfeit(forfeit) };
        let overshoot = ["stay", "bounce", "allow"][overshoot];
        let die = loaded(&weights);
        if let Some(b) = die.and_then(|die| random_board(size, &die, rule, overshoot, &jumps)) {
            prop_assert!(same_every_way_on(&b) > 0);
        }
    }
}

#[test]
fn stateful_states_take_the_same_route() {
    // A one-use ladder makes the state more than a square; the turn is still one path.
    let b = board(
        "size = 30\nladders = [[4, 20]]\nsnakes = [[25, 2]]\nonce = [4]\n\
         [rules]\ndie = 3\nroll_again = \"unlimited\"\n",
    );
    assert!(!Capabilities::of(&b).stateless);
    assert!(same_every_way_on(&b) > 0);
}

/// Every turn of every built-in board (as it is, and under unlimited roll-again) summed in
/// words and in big integers: the same turn (the big integers are the route a turn takes when
/// a number does not fit a word; the heavy dice above reach it against the general route).
#[test]
fn words_and_big_integers_sum_each_turn_the_same() {
    use crate::chain::compound::in_turn_states;
    use crate::chain::run::{summed, Shape};
    use crate::game::{begin, Step};
    let mut in_words = 0;
    for name in builtin_names() {
        let b = builtin(name).unwrap();
        for b in [Some(b.clone()), with_roll_again(&b, RollAgain::Unlimited)]
            .into_iter()
            .flatten()
            .filter(|b| Capabilities::of(b).stateless)
        {
            let game = SingleBoard::new(&b);
            let chain = Chain::build(&game);
            for s in &chain.states()[..chain.transient_count()] {
                let Step::Continue(first) = begin(&game, *s) else {
                    continue;
                };
                let (states, rolls) = in_turn_states(&game, first, None);
                let Some(shape) = Shape::of(&states, &rolls) else {
                    continue;
                };
                let big = summed::<_, BigInt>(&shape, &rolls).expect("big integers fit");
                if let Some(words) = summed::<_, i128>(&shape, &rolls) {
                    assert_eq!(words, big, "{name}: state {s}");
                    in_words += 1;
                }
            }
        }
    }
    assert!(in_words > 500, "{in_words} turns in words");
}
