//! Exact numbers in the results' serde form: a rational as `{decimal, denominator,
//! numerator}` (the fields sorted, as every JSON report writes them), the one helper the
//! result types' exact fields name with `#[serde(serialize_with = "...")]`. The decimal has
//! [`DECIMAL_DIGITS`] digits after the point, or a report's own within [`with_digits`].

use std::cell::Cell;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use super::decimal::{fixed, scientific};

/// Digits after the point of a serialized exact number's `decimal`.
pub const DECIMAL_DIGITS: usize = 12;

thread_local! {
    /// The digits after the point of the decimals serialized on this thread, when a report
    /// asked for its own ([`with_digits`]).
    static REPORT_DIGITS: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `serialize` with every exact number's decimal rounded to nearest at `digits` after
/// the point (a report's `--digits`, the tiny values too), then restores the default form.
pub fn with_digits<T>(digits: usize, serialize: impl FnOnce() -> T) -> T {
    /// Puts the digits before back when dropped, also if `serialize` panics.
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            REPORT_DIGITS.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(REPORT_DIGITS.with(|d| d.replace(Some(digits))));
    serialize()
}

/// The digits after the point of a decimal serialized now: the report's ([`with_digits`]) or
/// [`DECIMAL_DIGITS`] (for a decimal that is not an exact number's, such as a square root).
pub fn decimal_digits() -> usize {
    REPORT_DIGITS.with(Cell::get).unwrap_or(DECIMAL_DIGITS)
}

/// The serde form of one exact number.
#[derive(Serialize)]
struct Form {
    decimal: String,
    denominator: String,
    numerator: String,
}

impl Form {
    fn of(value: &BigRational) -> Form {
        let report_digits = REPORT_DIGITS.with(Cell::get);
        let mut decimal = fixed(value, report_digits.unwrap_or(DECIMAL_DIGITS));
        // Outside a report, a nonzero value that rounds to zero keeps its digits in scientific
        // form; a report rounds every decimal at its own digits.
        let vanished = !value.is_zero() && decimal.trim_start_matches(['-', '0', '.']).is_empty();
        if report_digits.is_none() && vanished {
            decimal = match value.is_negative() {
                true => format!("-{}", scientific(&-value, DECIMAL_DIGITS + 1)),
                false => scientific(value, DECIMAL_DIGITS + 1),
            };
        }
        Form {
            decimal,
            denominator: value.denom().to_string(),
            numerator: value.numer().to_string(),
        }
    }
}

/// `value` as `{decimal, denominator, numerator}`.
///
/// # Errors
///
/// The serializer's.
///
/// 3/2 is `{"decimal":"1.500000000000","denominator":"2","numerator":"3"}` (the test below).
pub fn exact<S: Serializer>(value: &BigRational, serializer: S) -> Result<S::Ok, S::Error> {
    Form::of(value).serialize(serializer)
}

/// A list of exact numbers.
///
/// # Errors
///
/// The serializer's.
pub fn exact_list<S: Serializer>(values: &[BigRational], serializer: S) -> Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(Some(values.len()))?;
    for value in values {
        seq.serialize_element(&Form::of(value))?;
    }
    seq.end()
}

/// An exact number that may be absent (`null`).
///
/// # Errors
///
/// The serializer's.
pub fn exact_option<S: Serializer>(
    value: &Option<BigRational>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value.as_ref().map(Form::of).serialize(serializer)
}

/// An exact interval `(low, high)` that may be absent, as `{low, high}` or `null`.
///
/// # Errors
///
/// The serializer's.
pub fn exact_interval_option<S: Serializer>(
    value: &Option<(BigRational, BigRational)>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Interval {
        high: Form,
        low: Form,
    }
    value
        .as_ref()
        .map(|(low, high)| Interval {
            high: Form::of(high),
            low: Form::of(low),
        })
        .serialize(serializer)
}

/// The square root of `value` (not negative) as a decimal string rounded at the digits of an
/// exact number's decimal ([`decimal_digits`]): a standard deviation from its exact variance.
///
/// # Errors
///
/// The serializer's.
pub fn square_root<S: Serializer>(value: &BigRational, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&super::decimal::sqrt_fixed(value, decimal_digits()))
}

/// `value` as the text `n/d` of its reduced fraction, or `n` for an integer (`BigRational`'s
/// own `Display`; the generating function's report writes its exact numbers so).
///
/// # Errors
///
/// The serializer's.
pub fn fraction<S: Serializer>(value: &BigRational, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// `value` as `{decimal, exact}`: its decimal at the report's digits ([`decimal_digits`]) and
/// its fraction as [`fraction`] writes it (the final score's law in `expect --json`).
///
/// # Errors
///
/// The serializer's.
pub fn fraction_with_decimal<S: Serializer>(
    value: &BigRational,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Form<'a> {
        decimal: String,
        #[serde(serialize_with = "fraction")]
        exact: &'a BigRational,
    }
    Form {
        decimal: fixed(value, decimal_digits()),
        exact: value,
    }
    .serialize(serializer)
}

/// A list of exact numbers, each as [`fraction`] writes it.
///
/// # Errors
///
/// The serializer's.
pub fn fraction_list<S: Serializer>(
    values: &[BigRational],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter().map(ToString::to_string))
}

/// Integers of any size as decimal strings (a polynomial's coefficients).
///
/// # Errors
///
/// The serializer's.
pub fn integers<S: Serializer>(values: &[BigInt], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter().map(|v| v.to_string()))
}

/// Pairs of a state (a square) and an exact number, as `[{state, value}]`.
///
/// # Errors
///
/// The serializer's.
pub fn exact_by_state<T: Serialize, S: Serializer>(
    values: &[(T, BigRational)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Entry<'a, T> {
        state: &'a T,
        value: Form,
    }
    let mut seq = serializer.serialize_seq(Some(values.len()))?;
    for (state, value) in values {
        seq.serialize_element(&Entry {
            state,
            value: Form::of(value),
        })?;
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_nonzero_value_keeps_its_digits() {
        // 1/3^30 is about 4.9e-15: fixed at 12 digits would print zeros.
        let tiny = BigRational::new(1.into(), num_bigint::BigInt::from(3).pow(30));
        let form = Form::of(&tiny);
        assert!(form.decimal.starts_with("4.8"), "{}", form.decimal);
        assert_eq!(form.numerator, "1");
        assert_eq!(Form::of(&BigRational::zero()).decimal, "0.000000000000");
        assert_eq!(
            Form::of(&BigRational::new((-1).into(), 4.into())).decimal,
            "-0.250000000000"
        );
    }

    #[test]
    fn a_report_rounds_every_decimal_at_its_own_digits_then_the_default_returns() {
        let tiny = BigRational::new(1.into(), num_bigint::BigInt::from(3).pow(30));
        let third = BigRational::new(1.into(), 3.into());
        let (a, b) = with_digits(4, || (Form::of(&third).decimal, Form::of(&tiny).decimal));
        // Worked by hand: 1/3 is 0.3333 at four digits, 1/3^30 (about 4.9e-15) rounds to 0.
        assert_eq!((a.as_str(), b.as_str()), ("0.3333", "0.0000"));
        assert_eq!(Form::of(&third).decimal, "0.333333333333");
        let nested = with_digits(2, || with_digits(6, || Form::of(&third).decimal));
        assert_eq!(nested, "0.333333");
    }

    #[test]
    fn three_halves_is_written_as_numerator_denominator_and_decimal() {
        #[derive(serde::Serialize)]
        struct Answer {
            #[serde(serialize_with = "crate::num::json::exact")]
            turns: BigRational,
        }
        let answer = Answer {
            turns: BigRational::new(3.into(), 2.into()),
        };
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            r#"{"turns":{"decimal":"1.500000000000","denominator":"2","numerator":"3"}}"#
        );
    }
}
