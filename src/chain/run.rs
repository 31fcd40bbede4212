//! The compound move of a turn whose rolls that go on follow one path (the standard game: one
//! top throw, no draw), summed in integers. [`super::compound`] finds the in-turn states and the
//! rolls from each ([`super::compound::RollsFrom`], the one definition of what a roll does);
//! this file only adds up their probabilities.
//!
//! # Formula
//!
//! Level k of the path has the rolls' common denominator `d_k`, the numerator `g_k` of its one
//! roll that goes on, and numerators `c` for what ends there (a square, a reward). Reaching level
//! k has probability `x_k = G_k / D_k` with `G_k = g_0 ... g_(k-1)` and `D_k = d_0 ... d_(k-1)`,
//! so an amount `c` at level k is worth `c G_k / D_(k+1)`. When the last level goes on to level j
//! (a cycle j..=L of top throws), the levels from j on are visited `Dc / (Dc - Gc)` times as
//! often (`Dc`, `Gc` the products of `d_i`, `g_i` over the cycle: the geometric series).
//!
//! Each amount (a square's probability, a reward) is kept as one integer numerator over
//! `D_(k+1)` for the last level k that added to it (Horner's rule: moving to a later level
//! multiplies by the `d_i` between) and reduced once at the end, by a gcd with a machine word
//! when the numerator is one (a square reached from one level: `c / D_(k+1)`) and Lehmer's
//! otherwise. Rational arithmetic on each level, the old way, paid a binary gcd of
//! `D_k`'s bits per addition: on a 999-square board with a 3-faced die whose 3s roll again,
//! paths have 333 levels and the turn chain took 3.6 s to build.

use std::collections::BTreeMap;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::compound::{InTurn, RollsFrom};
use super::{Turn, TurnRewards};
use crate::exact::lehmer;

/// An amount `num / D_(level+1)`.
#[derive(Clone)]
struct Acc {
    level: usize,
    num: BigInt,
}

/// One amount split at the cycle's first level `j`: the part added before j and the part added
/// from j on (to be multiplied by `Dc / (Dc - Gc)`).
#[derive(Clone, Default)]
struct Split {
    pre: Option<Acc>,
    cyc: Option<Acc>,
}

/// The path's levels: `d`, and the products the amounts need.
struct Levels {
    /// `d_k` per level.
    d: Vec<u128>,
    /// `D_(k+1)` per level.
    prefix: Vec<BigUint>,
    /// `G_k` per level.
    reach: Vec<BigUint>,
    /// The cycle's first level, with `Dc` and `Dc - Gc`.
    cycle: Option<(usize, BigUint, BigUint)>,
}

impl Levels {
    /// Adds `c G_k / D_(k+1)` at level `k` to `split` (levels come in increasing order).
    fn add(&self, split: &mut Split, k: usize, c: BigInt) {
        let on_cycle = self.cycle.as_ref().is_some_and(|(j, _, _)| k >= *j);
        let slot = if on_cycle {
            &mut split.cyc
        } else {
            &mut split.pre
        };
        let term = if self.reach[k].is_one() {
            c
        } else {
            c * BigInt::from(self.reach[k].clone())
        };
        match slot {
            None => {
                *slot = Some(Acc {
                    level: k,
                    num: term,
                })
            }
            Some(acc) => {
                for i in acc.level + 1..=k {
                    acc.num *= self.d[i];
                }
                acc.level = k;
                acc.num += term;
            }
        }
    }

    /// The exact value of `split`, reduced.
    fn value(&self, split: &Split) -> BigRational {
        let (num, den) = match (&split.pre, &split.cyc, &self.cycle) {
            (None, None, _) => return BigRational::zero(),
            (Some(p), None, _) => (p.num.clone(), self.prefix[p.level].clone()),
            (pre, Some(c), Some((_, dc, left))) => {
                let mut num = &c.num * BigInt::from(dc.clone());
                if let Some(p) = pre {
                    // D_(p+1) divides D_(c+1): bring the part before the cycle to it.
                    let lift: BigUint = self.d[p.level + 1..=c.level].iter().product();
                    num += &p.num * BigInt::from(lift * left);
                }
                (num, &self.prefix[c.level] * left)
            }
            (_, Some(_), None) => unreachable!("amounts on a cycle only when there is one"),
        };
        reduced(num, den)
    }
}

/// `num / den` in lowest terms (`den` > 0), with one gcd: a machine word's when `num` fits one.
fn reduced(num: BigInt, den: BigUint) -> BigRational {
    if num.is_zero() {
        return BigRational::zero();
    }
    let g = match num.magnitude().to_u64() {
        Some(n) => BigUint::from(n.gcd(&(&den % n).to_u64().expect("below n"))),
        None => lehmer::gcd(&num, &BigInt::from(den.clone()))
            .to_biguint()
            .expect("a gcd is non-negative"),
    };
    if g.is_one() {
        BigRational::new_raw(num, BigInt::from_biguint(Sign::Plus, den))
    } else {
        BigRational::new_raw(num / BigInt::from(g.clone()), BigInt::from(den / g))
    }
}

/// The levels of a single path over `rolls` (in discovery order, so level k + 1 follows level k
/// until the last level, which ends the path or goes back to an earlier one), or `None` when
/// some level goes on in more than one way.
fn levels<S: Ord + Clone>(states: &[InTurn<S>], rolls: &[RollsFrom<S>]) -> Option<Levels> {
    let last = rolls.len().checked_sub(1)?;
    let mut d = Vec::with_capacity(rolls.len());
    let mut g = Vec::with_capacity(rolls.len());
    for (k, r) in rolls.iter().enumerate() {
        match r.goes_on.as_slice() {
            [] if k == last => g.push(0),
            [(s, p)] if k == last || *s == states[k + 1] => g.push(*p),
            _ => return None,
        }
        d.push(r.denom);
    }
    let cycle = match rolls[last].goes_on.as_slice() {
        [(s, _)] => {
            let j = states.iter().position(|t| t == s)?;
            let dc: BigUint = d[j..].iter().product();
            let gc: BigUint = g[j..].iter().product();
            Some((j, dc.clone(), dc - gc))
        }
        _ => None,
    };
    let mut prefix = Vec::with_capacity(d.len());
    let mut reach = Vec::with_capacity(d.len());
    let (mut dk, mut gk) = (BigUint::one(), BigUint::one());
    for k in 0..d.len() {
        reach.push(gk.clone());
        dk *= d[k];
        gk *= g[k];
        prefix.push(dk.clone());
    }
    Some(Levels {
        d,
        prefix,
        reach,
        cycle,
    })
}

/// The turn over a single path of in-turn states, in integers: where it ends (each state mapped
/// by `end`, which [`super::compound`] makes [`super::RollGame::end_turn`] for non-final
/// states) and its rewards; `None` when the rolls that go on branch (then the caller solves the
/// general system). The turn must be able to end from every state (no endless part).
pub(super) fn single_path<S: Ord + Clone>(
    states: &[InTurn<S>],
    rolls: &[RollsFrom<S>],
    end: impl Fn(&S) -> S,
) -> Option<Turn<S>> {
    let levels = levels(states, rolls)?;
    let mut next: BTreeMap<S, Split> = BTreeMap::new();
    // rolls, snakes, ladders, climbed, slid, points.
    let mut rewards: [Split; 6] = Default::default();
    for (k, r) in rolls.iter().enumerate() {
        levels.add(&mut rewards[0], k, BigInt::from(r.denom));
        for (reward, c) in rewards[1..5].iter_mut().zip(r.counts) {
            if c != 0 {
                levels.add(reward, k, BigInt::from(c));
            }
        }
        if r.points != 0 {
            levels.add(&mut rewards[5], k, BigInt::from(r.points));
        }
        // Every state a roll ends on is listed, as the general route lists it.
        for (s, p) in &r.ends {
            levels.add(next.entry(end(s)).or_default(), k, BigInt::from(*p));
        }
    }
    let [rolls, snakes, ladders, climbed, slid, points] = rewards.map(|r| levels.value(&r));
    Some(Turn {
        next: next
            .iter()
            .map(|(s, split)| (s.clone(), levels.value(split)))
            .collect(),
        rewards: TurnRewards {
            rolls,
            snakes,
            ladders,
            climbed,
            slid,
            points,
        },
        endless: false,
    })
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use num_traits::{One, Zero};
    use proptest::prelude::*;

    use crate::board::{builtin, builtin_names, Board, RollAgain, RuleOverrides};
    use crate::chain::compound::compound_move_by;
    use crate::chain::{Chain, RollGame, SingleBoard, StatefulBoard, TurnModel};
    use crate::test_util::{board, q};

    /// Every reachable state's turn, summed in integers and by the general rational route
    /// (Gaussian elimination over the in-turn states, a second method): equal, numerators and
    /// denominators alike (both in lowest terms).
    fn same_both_ways<G: RollGame + TurnModel<State = <G as RollGame>::State>>(game: &G) -> usize {
        let chain = Chain::build(game);
        let mut checked = 0;
        for s in &chain.states()[..chain.transient_count()] {
            let fast = compound_move_by(game, s, true);
            let slow = compound_move_by(game, s, false);
            assert_eq!(fast, slow, "state {s:?}");
            // `==` compares values; the chain also needs lowest terms (its common denominator
            // is the lcm of the denominators).
            let r = &fast.rewards;
            for p in fast.next.iter().map(|(_, p)| p).chain([
                &r.rolls, &r.snakes, &r.ladders, &r.climbed, &r.slid, &r.points,
            ]) {
                assert!(p.denom() > &BigInt::zero(), "state {s:?}");
                assert!(p.numer().gcd(p.denom()).is_one(), "state {s:?}: {p}");
            }
            checked += 1;
        }
        checked
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
    fn every_built_in_board_sums_each_turn_as_the_general_route_does() {
        let mut boards = 0;
        for name in builtin_names() {
            let b = builtin(name).unwrap();
            for rule in [
                None,
                Some(RollAgain::Unlimited),
                Some(RollAgain::Forfeit(3)),
            ] {
                let Some(b) = rule.map_or_else(|| Some(b.clone()), |r| with_roll_again(&b, r))
                else {
                    assert_eq!(name, "course", "only the choice board refuses roll-again");
                    continue;
                };
                boards += 1;
                if b.is_stateful() {
                    assert!(
                        same_both_ways(&StatefulBoard::new(&b)) > 0,
                        "{name} {rule:?}"
                    );
                } else {
                    assert!(same_both_ways(&SingleBoard::new(&b)) > 0, "{name} {rule:?}");
                }
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
        let b = board(
            "size = 7\n[rules]\ndie = 3\novershoot = \"bounce\"\nroll_again = \"unlimited\"\n",
        );
        let turn = compound_move_by(&SingleBoard::new(&b), &3, true);
        assert_eq!(
            turn.next,
            vec![(4, q(1, 3)), (5, q(1, 3)), (6, q(1, 6)), (7, q(1, 6))]
        );
        assert_eq!(turn.rewards.rolls, q(3, 2));
    }

    #[test]
    fn a_long_run_is_one_power_of_the_die() {
        // size 40, die 3, no jumps, unlimited: from 0 the 3s run 0, 3, ..., 39 (level k on
        // 3k, 14 levels); a 1 or a 2 at level k ends on 3k + 1 or 3k + 2 with 3^-(k + 1), and
        // the 3 from 39 finishes (40 is passed: stay on 39, roll again; from 39 a 1 finishes).
        let b = board("size = 40\n[rules]\ndie = 3\nroll_again = \"unlimited\"\n");
        let turn = compound_move_by(&SingleBoard::new(&b), &0, true);
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

    fn random_board(
        size: u32,
        die: u32,
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
        let again = match rule {
            RollAgain::Forfeit(k) => k.to_string(),
            _ => "\"unlimited\"".to_string(),
        };
        let text = format!(
            "size = {size}\nsnakes = [{}]\nladders = [{}]\n[rules]\ndie = {die}\n\
             overshoot = \"{overshoot}\"\nroll_again = {again}\n",
            snakes.join(", "),
            ladders.join(", ")
        );
        // Jumps that chain into a cycle make an invalid board: skip those cases.
        Board::from_toml_str(&text, "test").ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_boards_with_roll_again_sum_each_turn_as_the_general_route_does(
            size in 4u32..60,
            die in 2u32..7,
            forfeit in 0u32..5,
            overshoot in 0usize..3,
            jumps in proptest::collection::vec((0u32..1000, 0u32..1000), 0..12),
        ) {
            let rule = if forfeit < 2 { RollAgain::Unlimited } else { RollAgain::Forfeit(forfeit) };
            let overshoot = ["stay", "bounce", "allow"][overshoot];
            if let Some(b) = random_board(size, die, rule, overshoot, &jumps) {
                prop_assert!(same_both_ways(&SingleBoard::new(&b)) > 0);
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
        assert!(b.is_stateful());
        assert!(same_both_ways(&StatefulBoard::new(&b)) > 0);
    }
}
