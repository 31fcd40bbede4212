//! One row of the distribution's table from certified bounds (part of `exact/certified.rs`):
//! P(T = n), P(T <= n) and P(T > n) as [`Bounds::push_cells`] writes each, from the bounds of
//! P(T = n) and P(T > n), with the work the cells share done once ([`RowCells`]): each bound
//! rounded to the decimals once (P(T <= n) = 1 - P(T > n) is 10^digits less P(T > n)'s
//! rounding), and the scientific digits of P(T > n), which both of those cells show in a long
//! tail (`1 - 3.200e-21` and `3.200e-21`), found once. Also the scientific digits of a dyadic
//! number in machine words ([`scientific_u128`]), which the single cells use too.

use super::{fraction_below, round_half_even, round_scaled, scaled, Bounds, Fraction};
use crate::num::decimal::{pow10_u64, push_fixed_to_one, push_scientific_u64};

/// The significant digits of a table's scientific cell (`3.308e-9`), as
/// [`crate::num::decimal::probability`] writes them.
const SIGNIFICANT: usize = 4;

/// The cells of one row, decided from the bounds of P(T = n) and P(T > n) and written column
/// by column ([`RowCells::push`]): the same text, and the same undecided cells, as
/// [`Bounds::push_cells`] of P(T = n), of 1 - P(T > n) and of P(T > n) (the tests hold it to
/// that, and to the fractions' own decimals).
pub(crate) struct RowCells {
    /// The bounds of P(T = n).
    p: Bounds,
    /// The bounds of P(T > n).
    s: Bounds,
    digits: usize,
    /// 10^digits.
    one: u64,
    /// Per column, round(x 10^digits) when both bounds agree on it.
    rounded: [Option<u128>; 3],
    /// P(T > n)'s scientific digits, once a column has asked for them.
    tail: Option<Scientific>,
}

/// The scientific digits of a value, from its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scientific {
    /// Both bounds have these digits and this exponent.
    Digits(u64, i64),
    /// The bounds differ in them (or the lower is 0): the cell is undecided.
    Undecided,
    /// Not found in machine words: the single cell's route (big integers) decides.
    Big,
}

impl Scientific {
    /// The digits of a positive `b` ([`SIGNIFICANT`] of them).
    fn of(b: &Bounds) -> Scientific {
        if b.lo == 0 {
            // 0 shows as a plain decimal, anything above it does not.
            return Scientific::Undecided;
        }
        let digits = |x: u128| scientific_u128(x, b.shift, SIGNIFICANT);
        match (digits(b.lo), digits(b.hi)) {
            (Some((m, e)), Some(hi)) if (m, e) == hi => match u64::try_from(m) {
                Ok(m) => Scientific::Digits(m, e),
                Err(_) => Scientific::Big,
            },
            (Some(_), Some(_)) => Scientific::Undecided,
            _ => Scientific::Big,
        }
    }
}

impl RowCells {
    /// The row of `p` (P(T = n)) and `s` (P(T > n)) at `digits` decimals; `None` above 19
    /// digits (then each cell is [`Bounds::push_cells`]'s, which declines too).
    pub(crate) fn new(p: Bounds, s: Bounds, digits: usize) -> Option<RowCells> {
        let one = pow10_u64(digits)?;
        let agree = |lo: u128, hi: u128| (lo == hi).then_some(lo);
        let round = |b: Bounds| {
            let round = |x: u128| rounded(x, b.shift, one);
            agree(round(b.lo), round(b.hi))
        };
        let survives = round(s);
        // With 10^digits even, rounding 1 - x to nearest, ties to even, is 10^digits less
        // x rounded so (a tie of x is one of 1 - x, and 10^digits - q is even when q is).
        let ends = match digits {
            0 => {
                let round = |x: u128| round_scaled(scaled(x, s.shift, one), one, true);
                agree(round(s.lo), round(s.hi))
            }
            _ => survives.and_then(|q| u128::from(one).checked_sub(q)),
        };
        let rounded = [round(p), ends, survives];
        Some(RowCells {
            p,
            s,
            digits,
            one,
            rounded,
            tail: None,
        })
    }

    /// Column `column`'s cells (0: P(T = n), 1: P(T <= n), 2: P(T > n)) at the end of `text`
    /// as [`Bounds::push_cells`] writes them: the CSV's cell, then the table's when it differs;
    /// returns where the CSV's cell ends, or `None` (and `text` as it was) when undecided.
    pub(crate) fn push(&mut self, column: usize, text: &mut Vec<u8>) -> Option<usize> {
        let (b, complement) = match column {
            0 => (self.p, false),
            1 => (self.s, true),
            _ => (self.s, false),
        };
        let q = self.rounded[column]?;
        let Ok(q_word) = u64::try_from(q) else {
            return b.push_cells(self.digits, complement, text);
        };
        // The table's own text, in the two forms a long tail takes: x rounds to 0 without
        // being 0 (P(T = n) or P(T > n) in scientific notation), or 1 - P(T > n) rounds to 1
        // without being 1 (`1 - ` and P(T > n) in scientific notation). The other forms (a
        // value near 1) are the single cell's.
        let scientific = match () {
            _ if q != 0 && q != u128::from(self.one) => None,
            _ if q == 0 && !complement => (b.hi != 0).then(|| self.scientific(column)),
            _ if q != 0 && complement => (b.hi != 0).then(|| self.scientific(column)),
            _ => return b.push_cells(self.digits, complement, text),
        };
        match scientific {
            None => {
                push_fixed_to_one(text, q_word, self.digits);
                Some(text.len())
            }
            Some(Scientific::Digits(m, e)) => {
                push_fixed_to_one(text, q_word, self.digits);
                let plain = text.len();
                if complement {
                    text.extend_from_slice(b"1 - ");
                }
                push_scientific_u64(text, m, e, SIGNIFICANT);
                Some(plain)
            }
            Some(Scientific::Undecided) => None,
            Some(Scientific::Big) => b.push_cells(self.digits, complement, text),
        }
    }

    /// The scientific digits column `column` shows: P(T = n)'s, or P(T > n)'s (found once for
    /// both columns that show them).
    fn scientific(&mut self, column: usize) -> Scientific {
        match column {
            0 => Scientific::of(&self.p),
            _ => *self.tail.get_or_insert_with(|| Scientific::of(&self.s)),
        }
    }
}

/// `x m / 2^k` (for `x <= 2^k`) rounded to nearest, ties to even: what
/// `round_half_even(scaled(x, k, m))` gives, with one shift of the 192-bit product (to bit
/// k - 1, the half's) and its trailing zeros (whether anything lies below the half).
fn rounded(x: u128, k: u32, m: u64) -> u128 {
    // x m below 2^(k - 1): less than one half.
    if (128 - x.leading_zeros()) + (64 - m.leading_zeros()) < k {
        return 0;
    }
    let (x1, x0) = (x >> 64, x & u128::from(u64::MAX));
    let (a, c) = (x0 * u128::from(m), x1 * u128::from(m));
    let (lo, carry) = a.overflowing_add(c << 64);
    let hi = (c >> 64) + u128::from(carry);
    let Some(j) = k.checked_sub(1) else {
        return lo;
    };
    // t = floor(x m / 2^(k - 1)): the integer part and, as its last bit, the half.
    let t = match j {
        0 => lo,
        1..128 => (lo >> j) | (hi << (128 - j)),
        _ => hi >> (j - 128),
    };
    let q = t >> 1;
    if t & 1 == 0 {
        return q;
    }
    let below = match lo {
        0 => 128 + hi.trailing_zeros(),
        _ => lo.trailing_zeros(),
    };
    // Above the half when a bit below it is set; on it, to even.
    q + u128::from(below < j || q & 1 == 1)
}

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
#[path = "cells_tests.rs"]
mod tests;
