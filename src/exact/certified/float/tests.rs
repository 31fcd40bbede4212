//! Tests of the float tier (`float.rs`): its bounds against the exact integer stepping
//! (`exact::step`), its error bound against the widths it gives, and its refusal near underflow.

use num_bigint::BigInt;
use proptest::prelude::*;

use super::*;
use crate::board::{builtin, builtin_names, Board};
use crate::exact::certified::CertifiedChain;
use crate::exact::step::IntegerChain;
use crate::test_util::random_board;

/// Steps the float tier and the exact stepping side by side for `turns` turns (or until the
/// tier gives up) and checks every enclosure: P(T > n), P(T = n), and each state every
/// `every` turns. Returns the turns the tier played.
fn contains_the_exact_law<S: ChainState>(chain: &Chain<S>, turns: usize, every: usize) -> usize {
    let Some(fc) = FloatChain::new(chain) else {
        return 0;
    };
    let ic = IntegerChain::new(chain);
    let (mut f, mut e) = (fc.stepper(), ic.stepper());
    for _ in 0..turns {
        if !f.step() {
            break;
        }
        e.step();
        assert!(f.survives().contains(&e.p_survives()), "{}", f.turn());
        assert!(f.ends_now().contains(&e.p_ends_now()), "{}", f.turn());
        if f.turn() % every == 0 {
            let scale = BigRational::from_integer(e.scale().clone());
            for (b, m) in f.position().iter().zip(e.transient_mass()) {
                assert!(b.contains(&(BigRational::from_integer(m) / &scale)));
            }
        }
    }
    f.turn()
}

#[test]
fn the_bounds_contain_the_exact_law_on_every_builtin_board() {
    // Second method: the exact integer stepping of src/exact/step.rs.
    // Stateful boards (seed-003: one-use ladders, apples) on the chain the distribution steps.
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        let turns = match board.is_stateful() {
            true => contains_the_exact_law(&crate::analysis::stateful::law_chain(&board), 150, 25),
            false => contains_the_exact_law(&Chain::for_board(&board), 150, 25),
        };
        assert_eq!(turns, 150, "{name}: the tier gave up");
    }
}

#[test]
fn the_relative_width_is_within_the_stated_bound_which_is_small() {
    // The bound e_n grows by about (1 + k) 2^-53 a turn, k the most terms of one sum: on efi
    // (a six rolls again) at n = 500 it must stay below 1e-10, so that 12-digit decimals are
    // decided, and every enclosure must be no wider than the error it claims.
    for name in ["efi", "milton-bradley"] {
        let chain = Chain::for_board(&builtin(name).unwrap());
        let fc = FloatChain::new(&chain).unwrap();
        let mut f = fc.stepper();
        for _ in 0..500 {
            assert!(f.step(), "{name}");
            let e = f.error();
            let survive = compose(e, fc.sum_error);
            for (b, e) in [(f.ends_now(), e), (f.survives(), survive)] {
                if b.hi == 0 {
                    continue;
                }
                // hi - lo <= (3 e + 2^-49) x~ (the outward factors DOWN and UP), plus two
                // units of the floor and ceiling: relative to lo, (3 e + 2^-49) / (1 - e).
                let width = BigInt::from(b.hi - b.lo) - 2;
                let allowed = BigRational::from_float((3.0 * e + 2f64.powi(-48)) / (1.0 - e))
                    .unwrap()
                    * BigRational::from_integer(BigInt::from(b.lo));
                assert!(
                    BigRational::from_integer(width) <= allowed,
                    "{name}: {b:?} {e}"
                );
            }
        }
        let k = fc.grow / UNIT;
        assert!(
            f.error() < 1e-10 && f.error() > 0.0,
            "{name}: {}",
            f.error()
        );
        assert!(
            f.error() <= 500.0 * k * UNIT * 1.01,
            "{name}: {} vs k = {k}",
            f.error()
        );
    }
}

#[test]
fn the_float_tier_is_looser_than_the_u128_tier_but_agrees_with_it() {
    // Second method: the u128 tier; the two enclosures must overlap at every turn.
    let chain = Chain::for_board(&builtin("efi").unwrap());
    let (fc, cc) = (
        FloatChain::new(&chain).unwrap(),
        CertifiedChain::new(&chain),
    );
    let (mut f, mut c) = (fc.stepper(), cc.stepper());
    for _ in 0..300 {
        assert!(f.step());
        c.step();
        for (a, b) in [(f.survives(), c.survives()), (f.ends_now(), c.ends_now())] {
            assert!(a.cmp_bounds(&b).is_none(), "{a:?} {b:?}");
        }
    }
}

#[test]
fn a_chain_with_odds_below_the_float_range_is_declined() {
    // The loaded die of stepper.rs: a turn with probability about 2^-1276.
    let board = Board::from_toml_str(
        "size = 30\n[rules]\ndie = [1000000, 1]\nroll_again = 64\n",
        "tiny-odds",
    )
    .unwrap();
    assert!(FloatChain::new(&Chain::for_board(&board)).is_none());
}

#[test]
fn the_tier_gives_up_before_an_entry_underflows() {
    // A loaded two-faced die (the 2 has weight 1 in 1,000,001) on 200 squares: square 1 + 2n
    // is reached in n turns only by n twos, probability 10^-6n, about 2^-19.93 n; below
    // 2^-900 of the surviving mass from n = 46. The tier must stop there, its bounds still
    // holding until then.
    let board =
        Board::from_toml_str("size = 200\n[rules]\ndie = [1000000, 1]\n", "loaded").unwrap();
    let chain = Chain::for_board(&board);
    let played = contains_the_exact_law(&chain, 80, 5);
    assert!((40..=46).contains(&played), "{played}");
}

/// Steps the `u128` tier `first` turns, starts the float tier from its position there
/// ([`FloatChain::stepper_at`]) and checks every enclosure against the exact stepping for
/// `turns` more turns; returns the starting position (for the caller's checks), or `None`
/// when the float tier declined it.
fn contains_the_exact_law_from_u128<S: ChainState>(
    chain: &Chain<S>,
    first: usize,
    turns: usize,
) -> Option<Vec<Bounds>> {
    let fc = FloatChain::new(chain)?;
    let cc = CertifiedChain::new(chain);
    let ic = IntegerChain::new(chain);
    let (mut c, mut e) = (cc.stepper(), ic.stepper());
    for _ in 0..first {
        c.step();
        e.step();
    }
    let position = c.position();
    let mut f = fc.stepper_at(first, &position)?;
    assert_eq!(f.turn(), first);
    for _ in 0..turns {
        if !f.step() {
            break;
        }
        e.step();
        assert!(f.survives().contains(&e.p_survives()), "{}", f.turn());
        assert!(f.ends_now().contains(&e.p_ends_now()), "{}", f.turn());
        if f.turn() % 10 == 0 {
            let scale = BigRational::from_integer(e.scale().clone());
            for (b, m) in f.position().iter().zip(e.transient_mass()) {
                assert!(b.contains(&(BigRational::from_integer(m) / &scale)));
            }
        }
    }
    Some(position)
}

#[test]
fn a_tier_started_from_the_u128_position_contains_the_exact_law() {
    // Second method: the exact integer stepping, from turn 0 on. On every built-in board, from
    // turns 1, 30 and 90; the starting error bound is the u128 enclosure's width, far below the
    // float tier's own growth.
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        match board.is_stateful() {
            true => starts_on(name, &crate::analysis::stateful::law_chain(&board)),
            false => starts_on(name, &Chain::for_board(&board)),
        }
    }
}

/// Steps `chain`'s float tier for `turns` turns, checking before each step that [`spread`]
/// gives every sum bit for bit as the plain loop (one transition after another) does.
fn spread_is_the_plain_loop<S: ChainState>(chain: &Chain<S>, turns: usize) {
    let fc = FloatChain::new(chain).unwrap();
    let t = fc.transient;
    let mut f = fc.stepper();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for _ in 0..turns {
        let mut plain = vec![0.0; t + 1];
        for (row, &x) in fc.row_start.windows(2).zip(&f.x) {
            if x != 0.0 {
                for e in &fc.entries[row[0]..row[1]] {
                    plain[e.j as usize] += x * e.q;
                }
            }
        }
        let mut next = vec![0.0; t + 1];
        spread(&fc, &f.x, &mut next);
        assert_eq!(bits(&next[..=t]), bits(&plain), "turn {}", f.turn());
        assert!(next[t + 1..].iter().all(|&x| x == 0.0));
        assert!(f.step());
    }
}

#[test]
fn the_step_computes_every_sum_as_the_plain_loop_does_to_the_bit() {
    // Second method: the loop before the step was unrolled and masked, on the law after 0 to
    // 59 turns of every builtin board (stateful ones on the chain the distribution steps).
    for name in builtin_names() {
        let board = builtin(name).unwrap();
        match board.is_stateful() {
            true => spread_is_the_plain_loop(&crate::analysis::stateful::law_chain(&board), 60),
            false => spread_is_the_plain_loop(&Chain::for_board(&board), 60),
        }
    }
}

/// The checks of `a_tier_started_from_the_u128_position_contains_the_exact_law` on one chain.
fn starts_on<S: ChainState>(name: &str, chain: &Chain<S>) {
    for first in [1, 30, 90] {
        let started = contains_the_exact_law_from_u128(chain, first, 60);
        assert!(started.is_some(), "{name} from {first}");
    }
    let fc = FloatChain::new(chain).unwrap();
    let cc = CertifiedChain::new(chain);
    let mut c = cc.stepper();
    (0..30).for_each(|_| c.step());
    // The starting error bound covers every carried state's relative width (exact), and the
    // states left out as slack are the wide ones.
    let position = c.position();
    let f = fc.stepper_at(30, &position).unwrap();
    let start_width = BigRational::from_float(START_WIDTH).unwrap();
    let error = BigRational::from_float(f.error()).unwrap();
    for b in position.iter().filter(|b| b.lo > 0) {
        let width = BigRational::new(BigInt::from(b.hi - b.lo), BigInt::from(b.lo));
        assert!(width > start_width || width <= error, "{name}: {b:?}");
    }
    assert!(f.error() <= START_WIDTH * 1.01, "{name}: {}", f.error());
}

#[test]
fn states_the_u128_tier_cannot_tell_from_0_become_slack() {
    // The loaded die of `the_tier_gives_up_before_an_entry_underflows`: square 1 + 2n after n
    // turns has probability 10^-6n; after 40 turns the u128 tier cannot tell the far squares
    // from 0 (lower bound 0, upper bound a few units). The float tier starts them at 0 and
    // carries their upper bounds as slack: its bounds must still contain the exact law.
    let board =
        Board::from_toml_str("size = 200\n[rules]\ndie = [1000000, 1]\n", "loaded").unwrap();
    let chain = Chain::for_board(&board);
    let position = contains_the_exact_law_from_u128(&chain, 40, 30).expect("started");
    assert!(
        position.iter().any(|b| b.lo == 0 && b.hi > 0),
        "no state below the u128 tier's resolution: the slack is not exercised"
    );
}

#[test]
fn a_wide_enclosure_is_slack_and_an_uneven_one_is_declined() {
    // One state that stays with probability 1/2. Bounds 2^-30 wide (relative) are above the
    // widest start: the state is slack, which leaves no mass to step; 2^-60 wide ones start,
    // and contain 2^-n after n turns, closely; positions of the wrong length are declined.
    let chain = crate::test_util::matrix(vec![vec![(0, (1, 2))]]);
    let fc = FloatChain::new(&chain).unwrap();
    let at = |lo: u128, hi: u128, shift: u32| Bounds { lo, hi, shift };
    let one = 1u128 << 100;
    assert!(fc
        .stepper_at(0, &[at(one, one + (one >> 30), 100)])
        .is_none());
    assert!(fc.stepper_at(0, &[]).is_none());
    assert!(fc
        .stepper_at(0, &[at(one, one, 100), at(one, one, 99)])
        .is_none());
    let mut f = fc
        .stepper_at(0, &[at(one, one + (one >> 60), 100)])
        .unwrap();
    for n in 1..=50 {
        assert!(f.step());
        let exact = BigRational::new(BigInt::from(1), BigInt::from(2).pow(n));
        assert!(f.survives().contains(&exact), "{n}");
        assert!(
            !f.survives().contains(
                &(&exact
                    * BigRational::new(BigInt::from(1_000_000_001), BigInt::from(1_000_000_000)))
            ),
            "{n}: too wide"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_bounds_contain_the_exact_law_on_random_boards(text in random_board()) {
        let board = Board::from_toml_str(&text, "random");
        prop_assume!(board.is_ok());
        let board = board.unwrap();
        prop_assume!(!board.is_stateful());
        contains_the_exact_law(&Chain::for_board(&board), 60, 10);
    }
}
