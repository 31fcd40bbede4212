//! The spectral bounds' integer work in machine words (`analysis::spectral`): a block's
//! Collatz-Wielandt ratios `(x Q_CC)_j / x_j` with x read as `u128` words and Q's entries as
//! `u64` counts, compared by 256-bit cross products, and the floats on either side of the two
//! chosen ratios. It finds the same two fractions as the big integer route of `spectral.rs`
//! (every comparison is exact, ties go the same way) and declines, with `None`, whenever a
//! number would not fit, so the caller falls back to that route: the bounds never depend on
//! which one ran.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::num::limbs::{wide_mul, words_of};

/// The exact Collatz-Wielandt bounds of a block, `min_j` and `max_j` of `(x Q_CC)_j / x_j`, as
/// `(numerator, denominator)` words: x positive and finite, `sums` the block's `S_j` from words
/// X (below), `d` the common denominator D. `None` when x's floats over one power of two, a sum
/// `S_j` (`sums` declines) or a denominator `D X_j` does not fit a word.
///
/// With `x_i = X_i 2^t` (the words of [`words_of`]), `(x Q_CC)_j / x_j = S_j / (D X_j)` where
/// `S_j = sum_i X_i (Q_ij D)`; two ratios compare as `S_a X_b` and `S_b X_a`, products of two
/// words. The big integer route scales x by another power of two, which multiplies both sides
/// of every comparison by the same power and cancels in every ratio.
pub(super) fn collatz_wielandt(
    x: &[f64],
    sums: impl FnOnce(&[u128]) -> Option<Vec<u128>>,
    d: &BigInt,
) -> Option<((u128, u128), (u128, u128))> {
    let xs = words_of(x)?;
    let d = d.to_u128()?;
    let s = sums(&xs)?;
    let less = |a: usize, b: usize| wide_mul(s[a], xs[b]) < wide_mul(s[b], xs[a]);
    let (mut lo, mut hi) = (0, 0);
    for j in 1..xs.len() {
        if less(j, lo) {
            lo = j;
        }
        if less(hi, j) {
            hi = j;
        }
    }
    let ratio = |j: usize| Some((s[j], d.checked_mul(xs[j])?));
    Some((ratio(lo)?, ratio(hi)?))
}

/// The floats on either side of `n / d` (`d > 0`): the largest at or below it and the smallest
/// at or above it, both `n / d` when it is a float.
///
/// Long division gives `q = floor(n 2^k / d)` with at least 55 significant bits and the
/// remainder r: `n / d = (q + r / d) 2^-k`. The top 53 bits of q are the float below; it is
/// exact when the bits under them and r are all zero, else one unit in the last place more is
/// the float above (`2^53`, when the 53 bits are all ones, is a float too). Every ratio of
/// words lies between `2^-128` and `2^128`, among the normal floats, so scaling by the power of
/// two is exact.
pub(super) fn quotient_floats(n: u128, d: u128) -> (f64, f64) {
    debug_assert!(d > 0);
    if n == 0 {
        return (0.0, 0.0);
    }
    let (mut q, mut r, mut k) = (n / d, n % d, 0i32);
    while q < 1 << 54 {
        // r < d: twice r is below 2^129, and at least d when it carries out of the word.
        let carry = r >> 127 == 1;
        r <<= 1;
        let bit = carry || r >= d;
        if bit {
            r = r.wrapping_sub(d);
        }
        q = q << 1 | u128::from(bit);
        k += 1;
    }
    let shift = 128 - q.leading_zeros() - 53;
    let m = (q >> shift) as u64;
    let exact = q & ((1 << shift) - 1) == 0 && r == 0;
    let e = shift as i32 - k;
    // 2^e, a normal float: the value is at least 2^-128 with m < 2^53, so e >= -181.
    let scale = f64::from_bits(((1023 + e) as u64) << 52);
    let low = m as f64 * scale;
    let high = if exact { low } else { (m + 1) as f64 * scale };
    (low, high)
}
