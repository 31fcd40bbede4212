//! Tests of the outward-rounded dyadic numbers against exact fractions: hand-worked roundings,
//! and on random numbers the one property a bound needs (the rounded value lies on its side of
//! the exact one, within the bits kept).

use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;

use super::*;
use crate::test_util::q;

/// `m 2^e` as a fraction.
fn value(x: &Dyadic) -> BigRational {
    let m = BigRational::from_integer(x.m.clone());
    let two = BigRational::from_integer(BigInt::from(2));
    m * two.pow(i32::try_from(x.e).unwrap())
}

#[test]
fn fractions_over_powers_of_two_are_in_lowest_terms() {
    // By hand: 12/16 = 3/4, 5/8 stays, -8/4 = -2/1, 0/32 = 0/1, 96/2 = 48/1. Numerator and
    // denominator are compared, not only the value (a fraction not in lowest terms would
    // print differently).
    let parts = |m: i64, k: u64| {
        let r = over_power_of_two(BigInt::from(m), k);
        (r.numer().clone(), r.denom().clone())
    };
    let want = |n: i64, d: i64| (BigInt::from(n), BigInt::from(d));
    assert_eq!(parts(12, 4), want(3, 4));
    assert_eq!(parts(5, 3), want(5, 8));
    assert_eq!(parts(-8, 2), want(-2, 1));
    assert_eq!(parts(0, 5), want(0, 1));
    assert_eq!(parts(96, 1), want(48, 1));
}

#[test]
fn a_third_rounded_to_four_bits() {
    // By hand: 1/3 = 0.010101..._2; its first four significant bits and one more are 01010
    // over 2^5: down 10/32 = 5/16, up 11/32. A dyadic fraction is its own bound either way,
    // and 0 is 0.
    let (one, three) = (BigInt::from(1), BigInt::from(3));
    assert_eq!(bound(&one, &three, 4, false), q(5, 16));
    assert_eq!(bound(&one, &three, 4, true), q(11, 32));
    assert_eq!(bound(&BigInt::from(3), &BigInt::from(8), 4, true), q(3, 8));
    assert_eq!(bound(&BigInt::from(0), &three, 4, true), q(0, 1));
}

#[test]
fn products_and_powers_by_hand() {
    // 3 x 3 = 9 = 1001_2 kept to two bits: down 10_2 2^2 = 8, up 11_2 2^2 = 12. (3/4)^3 =
    // 27/64 = 11011_2 2^-6 to three bits: down 110_2 2^-4 = 3/8; up, the square 9/16 =
    // 1001_2 2^-4 rounds up to 101_2 2^-3 = 5/8 first, then 5/8 x 3/4 = 15/32 = 1111_2 2^-5
    // up to 1000_2 2^-4 = 1/2 (the carry lengthens the mantissa by one bit).
    let three = Dyadic::new(BigInt::from(3), 0);
    assert_eq!(value(&three.times(&three, 2, false)), q(8, 1));
    assert_eq!(value(&three.times(&three, 2, true)), q(12, 1));
    let three_quarters = Dyadic::new(BigInt::from(3), -2);
    assert_eq!(value(&three_quarters.clone().pow(3, 3, false)), q(3, 8));
    assert_eq!(value(&three_quarters.clone().pow(3, 3, true)), q(1, 2));
    assert_eq!(value(&three_quarters.pow(0, 3, true)), q(1, 1));
}

proptest! {
    #[test]
    fn a_bound_lies_on_its_side_within_the_bits_kept(
        n in 0u64..,
        d in 1u64..,
        bits in 1u64..100,
    ) {
        let (n, d) = (BigInt::from(n), BigInt::from(d));
        let x = BigRational::new(n.clone(), d.clone());
        let (lo, hi) = (bound(&n, &d, bits, false), bound(&n, &d, bits, true));
        prop_assert!(lo <= x && x <= hi);
        // One unit of the last bit kept apart at most, and x has at least `bits - 1` bits
        // above that unit: `hi - lo <= 2^(1 - bits) x`.
        let unit = BigRational::new(BigInt::from(2), BigInt::from(1) << bits as usize);
        prop_assert!(&hi - &lo <= &x * unit);
        let power_of_two = |d: &BigInt| d.trailing_zeros() == Some(d.bits() - 1);
        prop_assert!(power_of_two(lo.denom()) && power_of_two(hi.denom()));
    }

    #[test]
    fn a_rounded_power_lies_on_its_side_of_the_exact_one(
        m in 1u64..,
        e in -80i64..10,
        n in 0usize..40,
        bits in 8u64..120,
    ) {
        let x = Dyadic::new(BigInt::from(m), e);
        let exact = value(&x).pow(i32::try_from(n).unwrap());
        let lo = value(&x.clone().pow(n, bits, false));
        let hi = value(&x.clone().pow(n, bits, true));
        prop_assert!(lo <= exact && exact <= hi);
        // With room for every bit, nothing is rounded.
        prop_assert_eq!(value(&x.pow(n, 64 * 41, true)), exact);
    }
}
