//! Tests of the `u128` tier (`stepper.rs`): its bounds against the exact integer stepping
//! (`exact::step`), the choice of route, and the arithmetic helpers against big integers.

use num_bigint::BigInt;

use super::*;
use crate::board::Board;
use crate::chain::{Chain, ChainState};
use crate::exact::step::IntegerChain;

/// A loaded two-faced die whose top face (weight 1 in 1,000,001) rolls again up to 63 times:
/// the turn that forfeits after 64 tops has probability 1,000,001^-64, about 2^-1276, below
/// the smallest `f64`.
fn tiny_odds_board() -> Board {
    Board::from_toml_str(
        "size = 30\n[rules]\ndie = [1000000, 1]\nroll_again = 64\n",
        "tiny-odds",
    )
    .unwrap()
}

#[test]
fn every_float_upper_bound_is_above_its_probability_even_below_the_float_range() {
    let chain = Chain::for_board(&tiny_odds_board());
    let mut smallest: Option<BigRational> = None;
    for (_, p) in chain.rows().iter().flatten() {
        let hat = upper_bound(p);
        assert!(hat >= UPPER_FLOOR && hat.is_normal());
        assert!(BigRational::from_float(hat).unwrap() >= *p, "{p}");
        if smallest.as_ref().is_none_or(|s| p < s) {
            smallest = Some(p.clone());
        }
    }
    // The board has a transition the nearest f64 would round to 0 (so `to_f64(p) * (1 +
    // 2^-50)` alone would have been below p).
    let smallest = smallest.unwrap();
    assert_eq!(to_f64(&smallest), 0.0, "{smallest}");
}

#[test]
fn fixed_point_probabilities_by_long_division_agree_with_big_integers() {
    // Second method: `round_outward`'s floor in big integers. Ends of the range, a
    // power of two (exact), thirds and sixths, and the largest words.
    let cases = [
        (0u64, 1u64),
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 3),
        (5, 6),
        (1, 6u64.pow(20)),
        (u64::MAX, u64::MAX),
        (1, u64::MAX),
        (u64::MAX - 1, u64::MAX),
        (12_345_678_901, 98_765_432_109),
    ];
    for (n, d) in cases {
        let p = BigRational::new(n.into(), d.into());
        let (lo, _) = round_outward(&p, COEF_BITS);
        assert_eq!(floor_scaled(n, d), lo.to_u128().unwrap(), "{n}/{d}");
    }
}

#[test]
fn a_nonzero_error_bound_is_never_tiny_and_zero_stays_zero() {
    assert_eq!(no_underflow(0.0), 0.0);
    assert_eq!(no_underflow(f64::MIN_POSITIVE), ERROR_FLOOR);
    assert_eq!(no_underflow(3.5), 3.5);
    assert_eq!(ERROR_FLOOR, 2f64.powi(-600));
    assert_eq!(UPPER_FLOOR, 2f64.powi(-400));
    // The least product of the two is a normal number.
    assert!((ERROR_FLOOR * UPPER_FLOOR).is_normal());
}

#[test]
fn the_bounds_contain_the_exact_law_on_a_board_with_odds_below_the_float_range() {
    // Second method: the exact integer stepping.
    let chain = Chain::for_board(&tiny_odds_board());
    let (cc, ic) = (CertifiedChain::new(&chain), IntegerChain::new(&chain));
    let (mut c, mut e) = (cc.stepper(), ic.stepper());
    for _ in 0..40 {
        c.step();
        e.step();
        for (b, x) in [
            (c.survives(), e.p_survives()),
            (c.ends_now(), e.p_ends_now()),
        ] {
            assert!(b.contains(&x));
        }
    }
}

/// Two two-faced dice, face 1 of weight a and face 2 of weight b (gcd 1), on a 30-square
/// board with two snakes and a ladder: a chain whose common denominator is `(a + b)^2` when
/// `a^2` has no factor in common with it (the throw of two 1s has probability `a^2 / (a + b)^2`).
fn two_dice_board(a: u64, b: u64) -> Board {
    let text = format!(
        "size = 30\nsnakes = [[27, 5], [19, 2]]\nladders = [[4, 14]]\n\
         [rules]\ndie = [{a}, {b}]\ndice = 2\n"
    );
    Board::from_toml_str(&text, "two-dice").unwrap()
}

/// `(2^20 - 1)^2 = 2^40 - 2^21 + 1` (40 bits, the largest square below 2^40: the counts
/// route's last), from `2^19 - 1` (a prime) and `2^19`.
fn below_the_bound() -> Board {
    two_dice_board((1 << 19) - 1, 1 << 19)
}

/// `(2^20)^2 = 2^40` (the first denominator past the bound), from the odd `2^19 - 1` and
/// `2^19 + 1`.
fn at_the_bound() -> Board {
    two_dice_board((1 << 19) - 1, (1 << 19) + 1)
}

/// The common denominator the counts route divides by, or `None` on the fixed-point route
/// (checked against the reciprocal it keeps).
fn counts_denominator<S: ChainState>(chain: &Chain<S>) -> Option<u64> {
    let d = match MergedRows::fractions(chain).probabilities {
        Probabilities::Fractions(p) => small_denominator(&p),
        Probabilities::Counts { .. } => unreachable!("the fraction route"),
    };
    match CertifiedChain::from_rows(&MergedRows::new(chain)).weights {
        Weights::Counts { reciprocal, .. } => {
            assert_eq!(Some(reciprocal), d.map(|d| (1u128 << 127) / u128::from(d)));
            d
        }
        Weights::Fixed(_) => None,
    }
}

/// Steps the `u128` tier and the exact stepping side by side for `turns` turns, checking the
/// enclosures of P(T > n) and P(T = n) every turn and of each state every `every` turns.
pub(super) fn contains_the_exact_law(
    cc: &CertifiedChain,
    ic: &IntegerChain,
    turns: usize,
    every: usize,
) {
    let (mut c, mut e) = (cc.stepper(), ic.stepper());
    for _ in 0..turns {
        c.step();
        e.step();
        let n = c.turn();
        assert!(c.survives().contains(&e.p_survives()), "turn {n}");
        assert!(c.ends_now().contains(&e.p_ends_now()), "turn {n}");
        if n % every == 0 {
            let scale = BigRational::from_integer(e.scale().clone());
            for (b, m) in c.position().iter().zip(e.transient_mass()) {
                assert!(
                    b.contains(&(BigRational::from_integer(m) / &scale)),
                    "turn {n}"
                );
            }
        }
    }
}

#[test]
fn the_counts_route_takes_denominators_below_2_to_the_40_and_no_more() {
    // Worked by hand: (2^20 - 1)^2 has 40 bits, so V = 127 - 40 = 87; 2^40 is past the bound.
    let below = Chain::for_board(&below_the_bound());
    let d = ((1 << 20) - 1) * ((1 << 20) - 1);
    assert_eq!(counts_denominator(&below), Some(d));
    assert_eq!(CertifiedChain::new(&below).value_bits, 87);
    let at = Chain::for_board(&at_the_bound());
    assert_eq!(counts_denominator(&at), None);
    assert_eq!(CertifiedChain::new(&at).value_bits, FIXED_VALUE_BITS);
    // efi: D = 5 6^14 = 391,820,820,480 (39 bits), V = 88 on its whole turns (its links
    // take a bit off: `stepper/linked/tests.rs`).
    let efi = Chain::for_board(&crate::board::builtin("efi").unwrap());
    assert_eq!(counts_denominator(&efi), Some(5 * 6u64.pow(14)));
    let whole = CertifiedChain::from_rows(&MergedRows::new(&efi));
    assert_eq!(whole.value_bits, 88);
}

#[test]
fn a_common_denominator_past_a_word_is_not_taken_for_a_small_one() {
    // lcm(2, 2^63 + 1) = 2^64 + 2, which a wrapping product would take for 2.
    let q = |n: u64, d: u64| BigRational::new(n.into(), d.into());
    assert_eq!(small_denominator(&[q(1, 2), q(1, (1 << 63) + 1)]), None);
    assert_eq!(small_denominator(&[q(1, 2), q(1, 3), q(5, 12)]), Some(12));
    assert_eq!(
        small_denominator(&[q(1, (1 << 40) - 1)]),
        Some((1 << 40) - 1)
    );
    assert_eq!(small_denominator(&[q(1, 1 << 40)]), None);
}

#[test]
fn the_bounds_contain_the_exact_law_with_39_and_40_bit_denominators() {
    // Second method: the exact integer stepping. efi (39 bits, V = 88) for 300 turns, past
    // the tail law's turn (about 244); two dice whose denominator is the last below the bound
    // (40 bits, V = 87) and the first past it (the fixed-point route), for 200.
    let efi = Chain::for_board(&crate::board::builtin("efi").unwrap());
    contains_the_exact_law(
        &CertifiedChain::new(&efi),
        &IntegerChain::new(&efi),
        300,
        10,
    );
    for board in [below_the_bound(), at_the_bound()] {
        let chain = Chain::for_board(&board);
        let (cc, ic) = (CertifiedChain::new(&chain), IntegerChain::new(&chain));
        contains_the_exact_law(&cc, &ic, 200, 10);
    }
}

#[test]
fn every_state_of_efi_is_enclosed_tightly_where_the_tail_law_reads_it() {
    // The tail law reads each state's enclosure at turn m (about 244 on efi) and divides it by
    // a float vector: each must be narrow relative to its own value, not only to P(T > n).
    // Measured: 2^-69.4 at worst from turn 175 on ("How tight" in stepper.rs); 2^-64 asked.
    let efi = Chain::for_board(&crate::board::builtin("efi").unwrap());
    let cc = CertifiedChain::new(&efi);
    let mut c = cc.stepper();
    for _ in 0..300 {
        c.step();
        if c.turn() >= 200 {
            // A state that is never occupied (a snake's head) has a lower bound of 0 and an
            // upper bound of at most 1 unit, from error bounds far below one.
            for b in c.position() {
                match b.lo {
                    0 => assert!(b.hi <= 1, "turn {}: {b:?}", c.turn()),
                    _ => assert!((b.hi - b.lo) << 64 <= b.lo, "turn {}: {b:?}", c.turn()),
                }
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn the_division_by_the_reciprocal_loses_less_than_its_stated_units(
        x in 0u128..(1 << 127),
        d in 1u64..(1 << 40),
        cut in 0u32..127,
    ) {
        // Second method: u128 division. Sums of every length (x cut to 127 - cut bits).
        let (x, d128) = (x >> cut, u128::from(d));
        let q = mul_down(x, (1u128 << 127) / d128);
        // q <= x / d, and x / d - q < DIVIDE_LOSS, so the floor less q is below it too.
        proptest::prop_assert!(q <= x / d128 && x / d128 - q < DIVIDE_LOSS as u128);
    }

    #[test]
    fn the_fixed_point_product_is_at_most_3_below_the_exact_floor(
        v in 0u128..(1 << 127),
        c in 0u128..=(1 << 127),
        cut in 0u32..127,
    ) {
        // Second method: the product in big integers. Values of every length.
        let v = v >> cut;
        let exact = (BigInt::from(v) * BigInt::from(c)) >> 127u32;
        let down = BigInt::from(mul_down(v, c));
        proptest::prop_assert!(down <= exact && exact <= down + 3);
    }
}
