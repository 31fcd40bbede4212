//! Tests of the outward roundings to dyadic fractions against exact fractions: hand-worked
//! roundings, and on random numbers the one property a bound needs (the rounded value lies on
//! its side of the exact one, within the bits kept).

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use proptest::prelude::*;

use super::*;
use crate::test_util::q;

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
fn fixed_point_roundings_of_a_third_and_of_products() {
    // By hand: 2^4 / 3 = 5.33: floor 5, ceil 6; a dyadic probability is exact. ceil(17 / 16)
    // = 2, ceil(16 / 16) = 1. With 4 bits, 5/16 times 6/16 is 30/256: rounded down 1/16
    // (floor(30 / 16) = 1), up 2/16; 8/16 times 8/16 is 4/16 either way.
    let third = q(1, 3);
    let (five, six) = (BigUint::from(5u32), BigUint::from(6u32));
    assert_eq!(round_outward(&third, 4), (five.clone(), six.clone()));
    assert_eq!(round_outward(&q(1, 2), 4), (8u32.into(), 8u32.into()));
    assert_eq!(shift_up(17u32.into(), 4), 2u32.into());
    assert_eq!(shift_up(16u32.into(), 4), 1u32.into());
    assert_eq!(shift_up(0u32.into(), 4), 0u32.into());
    assert_eq!(mul_down(&five, &six, 4), 1u32.into());
    assert_eq!(mul_up(&five, &six, 4), 2u32.into());
    let eight = BigUint::from(8u32);
    assert_eq!(mul_down(&eight, &eight, 4), 4u32.into());
    assert_eq!(mul_up(&eight, &eight, 4), 4u32.into());
    // 12 / 2^4 = 3/4, in lowest terms.
    assert_eq!(unscaled(&12u32.into(), 4), q(3, 4));
}

#[test]
fn floats_on_either_side_of_a_fraction() {
    // 1/3 lies strictly between two neighbouring floats; 1/4 is a float, its own bound both
    // ways; the comparison in integers agrees with BigRational's own.
    for x in [q(1, 3), q(2, 3), q(1, 10), q(7, 1), q(1, 1 << 40) * q(1, 3)] {
        let (down, up) = (float_outward(&x, false), float_outward(&x, true));
        let (down, up) = (down.unwrap(), up.unwrap());
        assert!(BigRational::from_float(down).unwrap() <= x, "{x}");
        assert!(BigRational::from_float(up).unwrap() >= x, "{x}");
        assert!(up.to_bits() - down.to_bits() <= 1, "{x}");
    }
    let (down, up) = (
        float_outward(&q(1, 3), false),
        float_outward(&q(1, 3), true),
    );
    assert_eq!(up.unwrap().to_bits() - down.unwrap().to_bits(), 1);
    assert_eq!(float_outward(&q(1, 4), true), Some(0.25));
    assert_eq!(float_outward(&q(1, 4), false), Some(0.25));
    assert_eq!(float_outward(&q(0, 1), true), Some(0.0));
    for x in [q(1, 3), q(3, 1), q(5, 4), q(1, 1 << 50)] {
        for f in [0.0, 0.25, 1.0 / 3.0, 3.0, 1.25, 1e-15, 2f64.powi(-50)] {
            let exact = BigRational::from_float(f).unwrap();
            assert_eq!(compare_with_float(&x, f), Some(x.cmp(&exact)), "{x} {f}");
        }
    }
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
}
