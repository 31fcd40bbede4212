//! Tests of the decimal text: correct rounding against exact fractions, the byte writers
//! against the `String` routes, the integer shortcuts against the general ones.

use super::*;
use crate::test_util::q;

#[test]
fn fractions_over_powers_of_ten_are_in_lowest_terms() {
    // Second method: `BigRational::new`'s gcd. Numerators with every mix of the factors 2
    // and 5 (fewer, as many and more than the power of ten has), zero and negatives.
    for k in 0..12 {
        for m in [
            0i64,
            1,
            7,
            -3,
            2,
            5,
            10,
            40,
            125,
            1000,
            2_000_000,
            5i64.pow(14),
            3 << 20,
        ] {
            let parts = |r: BigRational| (r.numer().clone(), r.denom().clone());
            let want = BigRational::new(BigInt::from(m), BigInt::from(10u64.pow(k as u32)));
            assert_eq!(
                parts(over_power_of_ten(BigInt::from(m), k)),
                parts(want),
                "{m} / 10^{k}"
            );
        }
    }
}

#[test]
fn the_rounded_fraction_is_the_printed_decimal() {
    // 0.125 -> 0.12 and 0.375 -> 0.38 (ties to even), -0.125 -> -0.12, 2/3 -> 0.67.
    assert_eq!(rounded(&q(1, 8), 2), q(12, 100));
    assert_eq!(rounded(&q(3, 8), 2), q(38, 100));
    assert_eq!(rounded(&q(-1, 8), 2), q(-12, 100));
    assert_eq!(rounded(&q(2, 3), 2), q(67, 100));
    assert_eq!(rounded(&q(5, 2), 0), q(2, 1));
}

#[test]
fn rounds_to_nearest_with_ties_to_even() {
    assert_eq!(fixed(&q(1, 8), 2), "0.12"); // 0.125 -> even
    assert_eq!(fixed(&q(3, 8), 2), "0.38"); // 0.375 -> even
    assert_eq!(fixed(&q(1, 3), 0), "0");
    assert_eq!(fixed(&q(2, 3), 0), "1");
    assert_eq!(fixed(&q(-1, 3), 3), "-0.333");
    assert_eq!(fixed(&q(1, 1000), 2), "0.00");
    assert_eq!(fixed(&q(12345, 100), 1), "123.4"); // 123.45 -> even
    assert_eq!(fixed(&q(7, 1), 3), "7.000");
    assert_eq!(fixed(&q(-1, 1000), 5), "-0.00100");
    assert_eq!(fixed(&q(-123, 1), 0), "-123");
    // 10^25 does not fit in a u64: the general power.
    assert_eq!(fixed(&q(1, 3), 25), "0.3333333333333333333333333");
    assert_eq!(fixed(&q(2, 3), 20), "0.66666666666666666667");
}

#[test]
fn square_roots_are_correctly_rounded() {
    // sqrt(1/3) = 0.57735026918...
    assert_eq!(sqrt_fixed(&q(1, 3), 8), "0.57735027");
    // sqrt(0.0001) = 0.01 exactly
    assert_eq!(sqrt_fixed(&q(1, 10000), 4), "0.0100");
    assert_eq!(sqrt_fixed(&q(0, 1), 2), "0.00");
}

/// The definitions, written plainly in fractions (a second method for the integer code).
fn decade_by_fractions(r: &BigRational) -> i64 {
    let mut e = 0;
    while pow10(e) > *r {
        e -= 1;
    }
    while pow10(e + 1) <= *r {
        e += 1;
    }
    e
}

#[test]
fn decades_and_scientific_digits_agree_with_the_fractions() {
    let mut values = vec![q(1, 1), q(10, 1), q(1, 10), q(999, 1000), q(1000, 999)];
    for k in 1..60i64 {
        values.push(q(1, 1) / pow10(k) * q(7, 3));
        values.push(pow10(k) * q(99_999, 100_000));
        values.push(pow10(-k)); // exactly a power of ten
        values.push(q(1, 3).pow(k as i32));
        values.push(q(5, 1) * pow10(-k) * q(2, 1)); // 10^(1-k) as 5 x 2
        values.push(q(99_995, 100_000) * pow10(-k)); // rounds up to the next decade at 4
    }
    for r in &values {
        let e = decade_by_fractions(r);
        assert_eq!(decade(r), e, "{r}");
        // round(r / 10^(e - 3)) ties to even, by the fraction routine.
        let mut m = round_scaled(&(r * pow10(3 - e)), 0);
        let mut exponent = e;
        if m == BigInt::from(10_000) {
            m = BigInt::from(1_000);
            exponent += 1;
        }
        let expected = format!("{}e{exponent}", format_scaled(&m, 3));
        assert_eq!(scientific(r, 4), expected, "{r}");
    }
    assert_eq!(scientific(&q(99_995, 100_000), 4), "1.000e0");
    assert_eq!(scientific(&q(12_345, 10_000_000), 4), "1.234e-3"); // tie to even
}

#[test]
fn scientific_dyadic_agrees_with_scientific_on_the_fraction() {
    // Second method: `scientific` on the fraction v / 2^k. Powers of two far below and
    // near 1, values just below a decade that round up to the next, ties (below), and
    // numbers at and above 1 (the general route).
    let mut cases: Vec<(BigInt, u64)> = vec![(BigInt::from(1), 11), (BigInt::from(1), 0)];
    for k in [1u64, 7, 40, 64, 127, 128, 200, 700] {
        for v in [1u128, 3, 5, 999, 1 << 60, u128::MAX, (1 << 127) + 1] {
            cases.push((BigInt::from(v), k));
        }
        // Just below a power of ten times 2^k, rounding up to the next decade.
        let near = (BigInt::one() << k as usize) * 99_999u32 / BigInt::from(10u32).pow(7);
        cases.push((near, k));
    }
    for (v, k) in cases {
        if v.is_zero() {
            continue;
        }
        let r = BigRational::new(v.clone(), BigInt::one() << k as usize);
        for significant in [1, 3, 4, 6] {
            assert_eq!(
                scientific_dyadic(&v, k, significant),
                scientific(&r, significant),
                "{v} / 2^{k} at {significant}"
            );
        }
    }
    // By hand: 2^-11 = 4.8828125e-4 rounds to 4.883e-4; 2^-3 = 1.25e-1 and 3 2^-3 =
    // 3.75e-1 are ties at 2 digits, to even: 1.2e-1 and 3.8e-1.
    assert_eq!(scientific_dyadic(&BigInt::from(1), 11, 4), "4.883e-4");
    assert_eq!(scientific_dyadic(&BigInt::from(1), 3, 2), "1.2e-1");
    assert_eq!(scientific_dyadic(&BigInt::from(3), 3, 2), "3.8e-1");
}

#[test]
fn fixed_text_of_scaled_integers_agrees_with_the_general_writer() {
    // Second method: `format_scaled` on the same integer (the writer of `fixed`).
    let values = [
        0u128,
        1,
        9,
        10,
        99,
        1234,
        10u128.pow(12),
        10u128.pow(19) - 1,
    ];
    let wide = [u128::from(u64::MAX), u128::from(u64::MAX) + 1, u128::MAX];
    for x in values.into_iter().chain(wide) {
        for digits in [0, 1, 3, 12, 19, 20, 30, 45, 60] {
            let want = format_scaled(&BigInt::from(x), digits);
            assert_eq!(fixed_scaled_u128(x, digits), want, "{x} at {digits}");
        }
    }
}

#[test]
fn byte_writers_write_what_the_formatter_writes() {
    // Second method: `format_scaled` (`fixed`'s writer) and `format!`, around every power
    // of ten and at every digit count to past the machine-word route's, after other text.
    let mut values = vec![0u64, 1, 5, 9, u64::MAX - 1, u64::MAX];
    for k in 1..20 {
        let p = 10u64.pow(k);
        values.extend([p - 1, p, p + 1, p / 2 - 1, p / 2]);
    }
    for &x in &values {
        for digits in 0..=FIXED_U64_DIGITS + 3 {
            let mut text = b"x".to_vec();
            push_fixed_scaled_u128(&mut text, x.into(), digits);
            let want = format!("x{}", format_scaled(&BigInt::from(x), digits));
            assert_eq!(text, want.into_bytes(), "{x} at {digits}");
        }
        for width in [0, 1, 5, 23, 24, 25, 50] {
            let mut text = Vec::new();
            push_integer(&mut text, x, width);
            assert_eq!(text, format!("{x:>width$}").into_bytes());
        }
    }
    for count in 0..70 {
        let mut text = b"x".to_vec();
        push_spaces(&mut text, count);
        assert_eq!(text, format!("x{:count$}", "").into_bytes());
    }
}

#[test]
fn probability_cells_are_fixed_then_probability_where_it_differs() {
    // Second method: `fixed` and `probability`, each rounding the fraction itself. Ties and
    // their neighbours (...4999, ...5, ...5001) at every digit, carries to 1 (0.9999995 at
    // 6 digits), 0, 1, values that round to 0 or 1 without being it, at every digit count
    // the certified route takes and a long one.
    let mut values = vec![q(0, 1), q(1, 1), q(1, 3), q(2, 3), q(9_999_995, 10_000_000)];
    values.extend([q(1, 302_330_880), q(302_330_879, 302_330_880)]);
    for k in 1..25 {
        let unit = pow10(-k);
        for near in [q(5, 1), q(49_999, 10_000), q(50_001, 10_000), q(7, 3)] {
            values.push(&unit * &near);
            values.push(q(1, 1) - &unit * &near);
        }
    }
    for r in &values {
        for digits in (0..=21).chain([45]) {
            let mut text = b"x".to_vec();
            let plain = push_probability_cells(&mut text, r, digits);
            let (csv, table) = text.split_at(plain);
            assert_eq!(csv, format!("x{}", fixed(r, digits)).as_bytes(), "{r}");
            let table = if table.is_empty() { &csv[1..] } else { table };
            assert_eq!(table, probability(r, digits).as_bytes(), "{r} at {digits}");
        }
    }
}

#[test]
fn converts_huge_rationals_to_f64() {
    let big = BigInt::from(10u32).pow(400);
    let r = BigRational::new(big.clone() * 3u32, big);
    assert_eq!(to_f64(&r), 3.0);
}

proptest::proptest! {
    #[test]
    fn fixed_scaled_u128_writes_what_the_formatter_writes(
        x in proptest::prelude::any::<u128>(),
        cut in 0u32..128,
        digits in 0usize..45,
    ) {
        let x = x >> cut;
        proptest::prop_assert_eq!(
            fixed_scaled_u128(x, digits),
            format_magnitude(false, &x.to_string(), digits)
        );
    }
}
