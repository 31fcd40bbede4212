//! Tests of a cell from certified bounds ([`Bounds::push_cells`]) against the fractions' own
//! decimals (`num::decimal`'s `fixed` and `probability`, long division on a `BigRational`).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use crate::exact::certified::Bounds;
use crate::num::decimal::{fixed, probability};
use crate::test_util::{q, seeded_words};

/// `x / 2^k` as a fraction.
fn over(x: u128, k: u32) -> BigRational {
    BigRational::new(BigInt::from(x), BigInt::one() << k)
}

/// What a cell of a value within `[lo, hi]` shows, from the fractions alone: the CSV's text
/// (`fixed`) and the table's (`probability`) of each end, decided when the ends agree on
/// both (each text is monotone in the value within its form, so the value between them shows
/// the same). The cells' form: the CSV's text, then the table's when it differs.
fn by_fractions(lo: &BigRational, hi: &BigRational, digits: usize) -> Option<String> {
    let texts = |x: &BigRational| (fixed(x, digits), probability(x, digits));
    let (csv, table) = texts(lo);
    (texts(hi) == (csv.clone(), table.clone())).then(|| match csv == table {
        true => csv,
        false => csv + &table,
    })
}

/// The cell of `b` (of `1 - b` with `complement`) as [`Bounds::push_cells`] writes it (the
/// CSV's text, then the table's when it differs), or `None` when undecided.
fn cell(b: Bounds, digits: usize, complement: bool) -> Option<String> {
    let mut text = b"x".to_vec();
    let cell = b.push_cells(digits, complement, &mut text).map(|csv| {
        assert!(csv > 1 && csv <= text.len(), "{b:?} {complement}");
        String::from_utf8(text[1..].to_vec()).unwrap()
    });
    if cell.is_none() {
        assert_eq!(text, b"x", "an undecided cell writes nothing");
    }
    cell
}

/// Checks a row's three cells, P(T = n) from `p` and P(T <= n) and P(T > n) from `s`, against
/// the fractions.
fn check_row(p: Bounds, s: Bounds, digits: usize) -> [Option<String>; 3] {
    let cells = [
        cell(p, digits, false),
        cell(s, digits, true),
        cell(s, digits, false),
    ];
    let one = BigRational::one();
    let (s_lo, s_hi) = (over(s.lo, s.shift), over(s.hi, s.shift));
    let want = [
        by_fractions(&over(p.lo, p.shift), &over(p.hi, p.shift), digits),
        by_fractions(&(&one - &s_hi), &(&one - &s_lo), digits),
        by_fractions(&s_lo, &s_hi, digits),
    ];
    assert_eq!(cells, want, "{p:?} {s:?} at {digits}");
    cells
}

/// Bounds `[x - below, x + above]` around `x` (kept in `[0, 2^k]`).
fn around(x: u128, k: u32, below: u128, above: u128) -> Bounds {
    let top = match k {
        0..128 => 1u128 << k,
        _ => u128::MAX,
    };
    let x = x.min(top);
    Bounds {
        lo: x.saturating_sub(below),
        hi: x.saturating_add(above).min(top),
        shift: k,
    }
}

/// `r 2^k` rounded down, for `0 <= r <= 1` (at most `u128::MAX`).
fn scaled_down(r: &BigRational, k: u32) -> u128 {
    let x = (r * BigRational::from_integer(BigInt::one() << k)).floor();
    x.to_integer().try_into().unwrap_or(u128::MAX)
}

#[test]
fn cells_show_what_the_fractions_show_at_rounding_boundaries() {
    // Worked by hand: values on and beside the rounding boundaries of each digit count: ties
    // (j / 2^(d + 1) is ...5 exactly at d digits: 1/8 = 0.125), ...4999 and ...5001, carries
    // across 9s (0.0999999999995), 0.9999...5 rounding to 1, values that round to 0 or 1
    // without being it (near 1e-12 at 12 digits, where the table turns scientific), 0 and 1
    // themselves; exact bounds, bounds a unit apart and bounds far apart, at shifts below,
    // at and beyond 128 bits.
    let mut targets = vec![
        q(0, 1),
        q(1, 1),
        q(1, 2),
        q(1, 3),
        q(1, 8),
        q(3, 8),
        q(5, 16),
    ];
    for d in 1..20u32 {
        let unit = BigRational::new(1.into(), BigInt::from(10u32).pow(d));
        for near in [
            q(1, 2),
            q(4_999, 10_000),
            q(5_001, 10_000),
            q(1, 1),
            q(1, 7),
        ] {
            targets.push(&unit * &near);
            targets.push(q(1, 1) - &unit * &near);
        }
        targets.push(q(1, 10) - &unit * q(1, 2));
        targets.push(BigRational::new(1.into(), BigInt::one() << (d + 1)));
    }
    let mut decided = [0usize; 2];
    for r in &targets {
        for k in [40u32, 64, 100, 127, 128, 160, 250] {
            let x = scaled_down(r, k);
            for (below, above) in [(0, 0), (0, 1), (1, 0), (3, 5), (1 << 20, 1 << 20)] {
                let b = around(x, k, below, above);
                for digits in [0, 1, 2, 6, 12, 19] {
                    // The same bounds as P(T = n) and as P(T > n), and beside a plain row.
                    let plain = around(1 << 38, 40, 0, 0);
                    for cells in [check_row(b, b, digits), check_row(plain, b, digits)] {
                        for cell in cells {
                            decided[usize::from(cell.is_some())] += 1;
                        }
                    }
                }
            }
        }
    }
    // Both outcomes are exercised, many times.
    assert!(decided[0] > 1_000 && decided[1] > 10_000, "{decided:?}");
}

#[test]
fn a_long_tail_shows_its_scientific_digits_in_two_columns() {
    // Worked by hand: 2^-70 = 8.470329472543003e-22. At 12 digits it rounds to 0: the table
    // shows 8.470e-22 for P(T > n) and 1 - 8.470e-22 for P(T <= n); 2^-72 = 2.1175824e-22
    // and 2^-41 = 4.5474735e-13 likewise, while 2^-39 = 1.818989e-12 rounds to
    // 0.000000000002.
    let tail = |k: u32| Bounds {
        lo: 1 << (128 - k),
        hi: 1 << (128 - k),
        shift: 128,
    };
    let cells = check_row(tail(72), tail(70), 12);
    let want = [
        "0.0000000000002.118e-22",
        "1.0000000000001 - 8.470e-22",
        "0.0000000000008.470e-22",
    ];
    assert_eq!(cells, want.map(|c| Some(c.to_string())));
    let cells = check_row(tail(41), tail(39), 12);
    assert_eq!(cells[0].as_deref(), Some("0.0000000000004.547e-13"));
    assert_eq!(cells[1].as_deref(), Some("0.999999999998"));
    assert_eq!(cells[2].as_deref(), Some("0.000000000002"));
    // Bounds that differ in the fourth digit (8.470e-22 and 8.474e-22) decide neither tail
    // cell, and a lower bound of 0 decides no scientific cell.
    let wide = Bounds {
        lo: 1 << 58,
        hi: (1 << 58) + (1 << 47),
        shift: 128,
    };
    assert_eq!(check_row(tail(72), wide, 12)[1..], [None, None]);
    let from_zero = Bounds {
        lo: 0,
        hi: 1,
        shift: 128,
    };
    assert_eq!(check_row(from_zero, from_zero, 12), [None, None, None]);
    // Past 19 digits the bounds decide no cell (the fractions decide those).
    assert_eq!(cell(tail(1), 20, false), None);
    assert_eq!(cell(tail(1), 20, true), None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    #[test]
    fn cells_of_random_bounds_show_what_the_fractions_show(
        seed in 0u64..,
        shift in 0u32..260,
        cut in 0u32..128,
        width in 0u32..128,
        digits in 0usize..=19,
    ) {
        // Bounds of every length and width: near 0, near 1 and in between.
        let mut word = seeded_words(seed);
        let mut bound = || {
            let x = (u128::from(word()) << 64 | u128::from(word())) >> cut;
            let near_one = word() % 3 == 0 && shift < 128;
            let x = match shift {
                0..128 => x % ((1u128 << shift) + 1),
                _ => x,
            };
            let x = if near_one { (1u128 << shift) - x } else { x };
            around(x, shift, 0, (u128::from(word()) << 64 | u128::from(word())) >> width)
        };
        let (p, s) = (bound(), bound());
        check_row(p, s, digits);
    }
}
