//! Certified intervals `[lo, hi]` of exact rationals, and the decimal digits an interval makes
//! certain.

use num_integer::Integer;
use num_rational::BigRational;
use num_traits::Signed;

use crate::num::decimal::{format_scaled, round_scaled};

/// A closed interval of rationals known to hold a true value; serialized as `{lo, hi}`, each
/// an exact number (`{decimal, denominator, numerator}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Interval {
    /// The lower bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub lo: BigRational,
    /// The upper bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub hi: BigRational,
}

impl Interval {
    /// `[lo, hi]`; `lo <= hi` is required.
    pub fn new(lo: BigRational, hi: BigRational) -> Interval {
        debug_assert!(lo <= hi, "empty interval");
        Interval { lo, hi }
    }

    /// The one-point interval of an exactly known value.
    pub fn exact(value: BigRational) -> Interval {
        Interval {
            lo: value.clone(),
            hi: value,
        }
    }

    /// `hi - lo`.
    pub fn width(&self) -> BigRational {
        &self.hi - &self.lo
    }

    /// True when `value` lies in the interval.
    pub fn contains(&self, value: &BigRational) -> bool {
        &self.lo <= value && value <= &self.hi
    }

    /// The interval of `self - other`.
    pub fn sub(&self, other: &Interval) -> Interval {
        Interval::new(&self.lo - &other.hi, &self.hi - &other.lo)
    }

    /// The interval of `self * k`.
    pub fn scale(&self, k: &BigRational) -> Interval {
        match k.is_negative() {
            true => Interval::new(&self.hi * k, &self.lo * k),
            false => Interval::new(&self.lo * k, &self.hi * k),
        }
    }

    /// The interval of `-self`.
    pub fn neg(&self) -> Interval {
        Interval::new(-&self.hi, -&self.lo)
    }

    /// The interval of `self * other`: the least and the greatest of the ends' four products.
    pub fn mul(&self, other: &Interval) -> Interval {
        let c = [
            &self.lo * &other.lo,
            &self.lo * &other.hi,
            &self.hi * &other.lo,
            &self.hi * &other.hi,
        ];
        let lo = c.iter().min().expect("four").clone();
        let hi = c.iter().max().expect("four").clone();
        Interval::new(lo, hi)
    }

    /// True when 0 lies outside the interval.
    pub fn excludes_zero(&self) -> bool {
        self.lo.is_positive() || self.hi.is_negative()
    }

    /// The interval of `1 / self`, or `None` when it holds 0.
    pub fn recip(&self) -> Option<Interval> {
        let apart = self.excludes_zero();
        apart.then(|| Interval::new(self.hi.recip(), self.lo.recip()))
    }

    /// The decimal digits every value in the interval shares, at most `digits` after the point
    /// (see [`certified_digits`]).
    pub fn certified(&self, digits: usize) -> CertifiedDigits {
        certified_digits(self, digits)
    }

    /// [`Interval::certified`] with at least 3 digits after the point, as `(digits, text)`:
    /// `None` when fewer are certain.
    pub fn agreed(&self, digits: usize) -> Option<(usize, String)> {
        let certain = self.certified(digits.max(3));
        (certain.digits >= 3).then_some((certain.digits, certain.text))
    }
}

/// The digits an interval makes certain.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CertifiedDigits {
    /// The decimal text, e.g. `0.513823`.
    pub text: String,
    /// How many digits after the point it has.
    pub digits: usize,
}

/// The decimal text, with as many digits after the point as possible up to `digits`, that is
/// the correctly rounded value of every number in the interval.
///
/// It is `round(x 10^k) / 10^k` (to nearest, ties to even, as [`crate::num::decimal::fixed`]
/// rounds) for the largest `k <= digits` at which `lo` and `hi` round to the same integer, so the true value, whatever it is in `[lo, hi]`, rounds to the
/// printed text: every printed digit is certain. (Truncated digits would be certain too, but a
/// value such as 4 exactly, approached from both sides, would never certify "4.000".) An
/// interval of one point prints `digits` digits.
///
/// [0.51382, 0.51384] certifies "0.5138"; the point 1 at 3 digits is "1.000" (the test below).
pub fn certified_digits(interval: &Interval, digits: usize) -> CertifiedDigits {
    if interval.lo == interval.hi {
        return CertifiedDigits {
            text: crate::num::decimal::fixed(&interval.lo, digits),
            digits,
        };
    }
    for k in (0..=digits).rev() {
        let a = round_scaled(&interval.lo, k);
        if a == round_scaled(&interval.hi, k) {
            return CertifiedDigits {
                text: format_scaled(&a, k),
                digits: k,
            };
        }
    }
    // Not one digit is certain: the interval itself, rounded outwards.
    CertifiedDigits {
        text: format!(
            "between {} and {} (no digit certified)",
            format_scaled(
                &(interval.lo.numer() * 1000u32).div_floor(interval.lo.denom()),
                3
            ),
            format_scaled(
                &(interval.hi.numer() * 1000u32).div_ceil(interval.hi.denom()),
                3
            )
        ),
        digits: 0,
    }
}

/// An interval in JSON: its exact bounds (`{decimal, denominator, numerator}`, the decimals at
/// `digits` after the point) and the correctly rounded decimal every value in it shares.
#[derive(Clone, Debug)]
pub struct CertifiedJson {
    digits: usize,
    interval: Interval,
}

impl CertifiedJson {
    /// `interval` with at most `digits` certified digits.
    pub fn new(interval: &Interval, digits: usize) -> CertifiedJson {
        CertifiedJson {
            digits,
            interval: interval.clone(),
        }
    }
}

impl serde::Serialize for CertifiedJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Form<'a> {
            certified: String,
            #[serde(serialize_with = "crate::num::json::exact")]
            hi: &'a BigRational,
            #[serde(serialize_with = "crate::num::json::exact")]
            lo: &'a BigRational,
        }
        let i = &self.interval;
        let form = Form {
            certified: i.certified(self.digits).text,
            hi: &i.hi,
            lo: &i.lo,
        };
        crate::num::json::with_digits(self.digits, || form.serialize(serializer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::q;

    #[test]
    fn digits_stop_where_the_bounds_round_apart() {
        let i = Interval::new(q(123_456, 1_000_000), q(123_499, 1_000_000));
        assert_eq!(i.certified(10).text, "0.1235");
        assert_eq!(i.certified(2).text, "0.12");
        // 0.4999 .. 0.5001 rounds to 0.500 at three digits, not at four.
        let j = Interval::new(q(4999, 10000), q(5001, 10000));
        assert_eq!(j.certified(10).text, "0.500");
        // Around 4 exactly, approached from both sides.
        let k = Interval::new(q(3_999_999, 1_000_000), q(4_000_001, 1_000_000));
        assert_eq!(k.certified(10).text, "4.00000");
        // Bounds straddling a rounding midpoint share nothing: the interval itself is shown,
        // rounded outwards (1/3 down to 0.333, 2/3 up to 0.667), never an empty answer.
        let m = Interval::new(q(4, 10), q(6, 10));
        assert_eq!(
            m.certified(10).text,
            "between 0.400 and 0.600 (no digit certified)"
        );
        assert_eq!(m.certified(10).digits, 0);
        let thirds = Interval::new(q(1, 3), q(2, 3));
        assert_eq!(
            thirds.certified(10).text,
            "between 0.333 and 0.667 (no digit certified)"
        );
    }

    #[test]
    fn products_reciprocals_and_negatives_enclose_every_value() {
        // Worked by hand: [-1, 2] [3, 4] = [min(-3, -4, 6, 8), max] = [-4, 8]; a negative
        // factor swaps the ends; 1 / [2, 4] = [1/4, 1/2]; [-1, 2] holds 0, so no reciprocal.
        let a = Interval::new(q(-1, 1), q(2, 1));
        let b = Interval::new(q(3, 1), q(4, 1));
        assert_eq!(a.mul(&b), Interval::new(q(-4, 1), q(8, 1)));
        assert_eq!(b.scale(&q(-1, 2)), Interval::new(q(-2, 1), q(-3, 2)));
        assert_eq!(a.neg(), Interval::new(q(-2, 1), q(1, 1)));
        let two_four = Interval::new(q(2, 1), q(4, 1));
        assert_eq!(two_four.recip(), Some(Interval::new(q(1, 4), q(1, 2))));
        assert!(!a.excludes_zero());
        assert_eq!(a.recip(), None);
    }

    #[test]
    fn an_exact_value_gets_every_digit_asked_for() {
        let i = Interval::exact(q(1, 3));
        assert_eq!(i.certified(5).text, "0.33333");
        assert_eq!(Interval::exact(q(26, 1)).certified(2).text, "26.00");
    }

    #[test]
    fn negative_and_straddling_intervals() {
        let i = Interval::new(q(-2764, 100_000), q(-2761, 100_000));
        assert_eq!(i.certified(10).text, "-0.0276");
        let z = Interval::new(q(-1, 10_000), q(2, 10_000));
        assert_eq!(z.certified(10).text, "0.000");
    }

    #[test]
    fn an_interval_prints_the_digits_both_ends_round_to() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let i = Interval::new(q(51382, 100000), q(51384, 100000));
        assert_eq!(certified_digits(&i, 15).text, "0.5138");
        assert_eq!(certified_digits(&Interval::exact(q(1, 1)), 3).text, "1.000");
    }
}
