//! Tests of the geometric tier (`geometric.rs`): its bounds against the exact integer stepping
//! (`exact::step`) past the settled turn on every built-in board with a tail law, how narrow
//! they stay, the directed roundings, and the values it declines.

use num_bigint::BigInt;
use num_rational::BigRational;

use super::*;
use crate::analysis::stateful::law_chain;
use crate::analysis::tail_law::tail_law;
use crate::board::{builtin, builtin_names};
use crate::chain::{Chain, ChainState};
use crate::exact::step::IntegerChain;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Steps the tier from the law's start beside the exact stepping for `turns` turns, checking
/// both enclosures every turn (or until the tier gives up); returns the turns played and the
/// relative width of `P(T > n)` at the end. `None` when the chain has no law.
fn contains_the_exact_tail<S: ChainState>(chain: &Chain<S>, turns: usize) -> Option<(usize, f64)> {
    let law = tail_law(chain)?;
    let (a, r, s) = &law.upper;
    let (b, l) = &law.lower;
    let mut tier = GeometricTier::new(law.start, (a, r, s), (b, l)).expect("in range");
    let ic = IntegerChain::new(chain);
    let mut e = ic.stepper();
    (0..law.start).for_each(|_| e.step());
    for _ in 0..turns {
        if !tier.step() {
            break;
        }
        e.step();
        assert_eq!(tier.turn(), e.turn());
        assert!(tier.survives().contains(&e.p_survives()), "{}", tier.turn());
        assert!(tier.ends_now().contains(&e.p_ends_now()), "{}", tier.turn());
    }
    let s = tier.survives();
    Some((tier.turn() - law.start, (s.hi - s.lo) as f64 / s.lo as f64))
}

#[test]
fn the_bounds_contain_the_exact_tail_on_every_board_with_a_law() {
    // Second method: the exact integer stepping of src/exact/step.rs, 300 turns past the
    // settled turn (or as long as the tier goes on: it gives up when the tail has fallen so far
    // that the constant slack would swamp it); and the bounds stay narrow enough to decide
    // decimals (the law settles to 1e-13, so 300 turns widen them to about 3e-11 of the value).
    let mut laws = 0;
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        let played = match board.is_stateful() {
            true => contains_the_exact_tail(&law_chain(&board), 300),
            false => contains_the_exact_tail(&Chain::for_board(&board), 300),
        };
        if let Some((turns, width)) = played {
            assert!(width < 1e-9, "{name}: {width} after {turns} turns");
            assert!(turns >= 100, "{name}: gave up after {turns} turns");
            laws += 1;
        }
    }
    assert!(laws >= 5, "{laws}");
}

#[test]
fn an_exact_law_gives_exact_enough_bounds() {
    // One state that stays with probability 1/2: P(T > n) = 2^-n, a = b = 2^-m, r = l = 1/2,
    // s = 0: only the roundings' 2^-50 a turn widen the bounds.
    let chain = crate::test_util::matrix(vec![vec![(0, (1, 2))]]);
    let (turns, width) = contains_the_exact_tail(&chain, 1000).expect("a law");
    assert_eq!(turns, 1000);
    assert!(width < 1e-11, "{width}");
}

#[test]
fn roundings_are_directed() {
    for x in [q(1, 3), q(2, 3), q(1, 10), q(7, 1), q(1, 1 << 40) * q(1, 3)] {
        let (down, up) = (rounded(&x, false).unwrap(), rounded(&x, true).unwrap());
        assert!(BigRational::from_float(down).unwrap() <= x, "{x}");
        assert!(BigRational::from_float(up).unwrap() >= x, "{x}");
        assert!(up.to_bits() - down.to_bits() <= 1, "{x}");
    }
    assert_eq!(rounded(&q(1, 4), true), Some(0.25));
    assert_eq!(rounded(&q(1, 4), false), Some(0.25));
    assert_eq!(rounded(&q(0, 1), false), Some(0.0));
    assert_eq!(rounded(&q(0, 1), true), None);
    assert_eq!(rounded(&q(1000, 1), true), None);
}

#[test]
fn values_out_of_range_are_declined() {
    let (a, b, s) = (q(1, 2), q(1, 3), q(0, 1));
    assert!(GeometricTier::new(5, (&a, &q(1, 1), &s), (&b, &q(1, 2))).is_none());
    assert!(GeometricTier::new(5, (&b, &q(1, 2), &s), (&a, &q(1, 2))).is_none());
    assert!(GeometricTier::new(5, (&a, &q(-1, 2), &s), (&b, &q(1, 2))).is_none());
    let tiny = BigRational::new(BigInt::from(1), BigInt::from(1) << 2000);
    assert!(GeometricTier::new(5, (&tiny, &q(1, 2), &s), (&tiny, &q(1, 2))).is_none());
    assert!(GeometricTier::new(5, (&a, &q(1, 2), &s), (&b, &q(1, 3))).is_some());
}
