//! The scientific digits of a dyadic number in machine words ([`scientific_u128`]), with
//! which [`super::Bounds::push_cells`] writes a cell that rounds to 0 or 1 without being it
//! (`3.200e-21`, `1 - 3.200e-21`) from the bounds (part of `exact/certified.rs`; the cells'
//! tests, against the fractions' own decimals, are `cells/tests.rs`).

use super::{fraction_below, round_half_even, Fraction};
use crate::num::decimal::pow10_u64;

/// `5^p` for `p` up to 27, the last below 2^64.
const POWERS_OF_FIVE: [u64; 28] = crate::num::decimal::powers_of(5);

/// [`crate::num::decimal::scientific_parts`] of `v / 2^k` in machine words: the same
/// rounded `significant` digits and exponent, or `None` when they are not found so (`v = 0`,
/// more than 18 digits, a power of 5 above a `u64`, `2^k` below it, a number past 2^199), and
/// the big integers decide.
///
/// # How
///
/// With `x = v / 2^k` in `[2^(b - 1), 2^b)`, its decade is `e = floor((b - 1) log10 2)` or
/// one more (the two ends are less than a decade apart), and `e` is found from `b` in integers
/// (`log10 2` as 78913 / 2^18, exact in the floor for every `b` taken; the tests check each).
/// With `p = significant - 1 - e`, `x 10^p = v 5^p / 2^(k - p)`: one 192-bit product and a
/// shift give its integer part t and where its fraction lies. When t has one digit too many
/// the decade is `e + 1`: the last digit of t joins the fraction.
pub(crate) fn scientific_u128(v: u128, k: u32, significant: usize) -> Option<(u128, i64)> {
    let significant = significant.max(1);
    if v == 0 || significant > 18 {
        return None;
    }
    let (low, high) = (pow10_u64(significant - 1)?, pow10_u64(significant)?);
    let b = i64::from(128 - v.leading_zeros()) - i64::from(k);
    if !(-200..=200).contains(&b) {
        return None;
    }
    let e = ((b - 1) * 78_913) >> 18;
    let p = u32::try_from(significant as i64 - 1 - e).ok()?;
    let five = *POWERS_OF_FIVE.get(p as usize)?;
    let s = k.checked_sub(p)?;
    // n = v 5^p in 192 bits (hi, lo); t = n >> s, below 10^(significant + 1) by the choice of e.
    let (x1, x0) = (v >> 64, v & u128::from(u64::MAX));
    let (a, c) = (x0 * u128::from(five), x1 * u128::from(five));
    let (lo, carry) = a.overflowing_add(c << 64);
    let hi = (c >> 64) + u128::from(carry);
    let t = match s {
        0 if hi == 0 => lo,
        1..128 if hi >> s == 0 => (lo >> s) | (hi << (128 - s)),
        128..256 => hi >> (s - 128),
        256.. => 0,
        _ => return None,
    };
    let t = u64::try_from(t).ok()?;
    let fraction = fraction_below(hi, lo, s);
    let (t, fraction, e) = match t >= high {
        false => (t, fraction, e),
        true => (t / 10, tenth(t % 10, fraction), e + 1),
    };
    if t < low || t >= high {
        return None;
    }
    // To nearest, ties to even.
    let m = round_half_even((u128::from(t), fraction));
    Some(match m == u128::from(high) {
        true => (u128::from(low), e + 1),
        false => (m, e),
    })
}

/// Where `(r + f) / 10` lies against one half, for a digit `r` and a fraction `f` (a digit
/// moved from the integer part to the fraction).
fn tenth(r: u64, f: Fraction) -> Fraction {
    match r {
        0 if f == Fraction::Zero => Fraction::Zero,
        0..5 => Fraction::BelowHalf,
        5 if f == Fraction::Zero => Fraction::Half,
        _ => Fraction::AboveHalf,
    }
}

#[cfg(test)]
mod tests;
