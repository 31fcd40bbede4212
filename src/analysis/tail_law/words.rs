//! The tail law's integer work in machine words (`analysis::tail_law`): the geometric bounds'
//! row vector `U A` and their Collatz-Wielandt ratios compared in `u128` words with 256-bit
//! cross products. It computes exactly what the big integer route of `tail_law.rs` computes (the
//! same fractions in lowest terms) and declines, with `None`, whenever a number would
//! not fit, so the caller falls back to that route: the results never depend on which one ran.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{Bounds, Bounds128, BITS, TINY_BITS};
use crate::analysis::spectral::TransientQ;
use crate::num::dyadic::{self, over_power_of_two};
use crate::num::gcd::gcd;
use crate::num::limbs::{wide_mul, words_of};

/// A nonnegative ratio `n / d` (`d > 0`) kept as its two words.
type Ratio = (u128, u128);

/// Whether `x > y`, by cross multiplication.
fn above(x: Ratio, y: Ratio) -> bool {
    wide_mul(x.0, y.1) > wide_mul(y.0, x.1)
}

/// The larger (or smaller) of the best so far and `x`: the same value `extreme` keeps.
fn extreme(best: Option<Ratio>, x: Ratio, larger: bool) -> Option<Ratio> {
    Some(match best {
        Some(b) if above(x, b) != larger => b,
        _ => x,
    })
}

/// `U A` and `W A` (W: U on the states `kept`) in words, or `None` when an entry of A is not a
/// word or a sum overflows.
fn row_times(a: &TransientQ, big_u: &[u128], kept: &[bool]) -> Option<(Vec<u128>, Vec<u128>)> {
    let (mut uq, mut wq) = (vec![0u128; big_u.len()], vec![0u128; big_u.len()]);
    for (i, (&x, &keep)) in big_u.iter().zip(kept).enumerate().take(a.rows()) {
        if x == 0 {
            continue;
        }
        for k in a.entries(i) {
            let (j, coef) = (a.col(k), a.word(k)?);
            let product = x.checked_mul(u128::from(coef))?;
            uq[j] = uq[j].checked_add(product)?;
            if keep {
                wq[j] += product;
            }
        }
    }
    Some((uq, wq))
}

/// `n / d` in lowest terms (`n >= 0`, `d > 0`): `BigRational::new`'s fraction, with the common
/// power of two taken out by shifts and the gcd of the rest in words when `d`'s fits.
fn lowest(n: BigInt, d: BigInt) -> BigRational {
    if n.is_zero() {
        return BigRational::zero();
    }
    let twos = n
        .trailing_zeros()
        .unwrap_or(0)
        .min(d.trailing_zeros().unwrap_or(0)) as usize;
    let (n, d) = (n >> twos, d >> twos);
    let g = match d.to_u128() {
        Some(w) => BigInt::from(gcd_words((&n % &d).to_u128().unwrap_or(0), w)),
        None => gcd(&n, &d),
    };
    BigRational::new_raw(n / &g, d / g)
}

/// The greatest common divisor of two words, `b > 0` (binary: shifts and subtractions).
fn gcd_words(a: u128, b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    let twos = (a | b).trailing_zeros();
    let (mut a, mut b) = (a >> a.trailing_zeros(), b >> b.trailing_zeros());
    while a != b {
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        b >>= b.trailing_zeros();
    }
    a << twos
}

/// `geometric_bounds` in words: `Some` of its answer, or `None` when a number does not fit
/// (the caller then runs the big integer route). The same steps: `U A` and `W A`, the ratios
/// r, alpha, l and beta chosen by exact comparison, then the four fractions in lowest terms,
/// rounded as there.
pub(super) fn geometric_bounds(
    q: &TransientQ,
    u: &[f64],
    p: &[Bounds128],
) -> Option<Option<Bounds>> {
    let d = &q.d;
    if !d.is_positive() || q.rows() != u.len() || p.len() < u.len() {
        return None;
    }
    let big_u = words_of(u)?;
    let big = u.iter().cloned().fold(0.0, f64::max);
    let floor = big * 2f64.powi(-TINY_BITS);
    let kept: Vec<bool> = u.iter().map(|&f| f > floor).collect();
    let (uq, wq) = row_times(q, &big_u, &kept)?;
    let shift = p.first().map_or(0, |b| b.shift) as usize;
    let (mut r, mut alpha, mut l, mut beta) = (None, None, None, None);
    let (mut slack, mut total_u, mut total_w) = (0u128, 0u128, 0u128);
    for j in 0..u.len() {
        let x = big_u[j];
        total_u = total_u.checked_add(x)?;
        if x == 0 {
            if uq[j] != 0 {
                return Some(None);
            }
            slack = slack.checked_add(p[j].hi)?;
            continue;
        }
        r = extreme(r, (uq[j], x), true);
        if !kept[j] {
            slack = slack.checked_add(p[j].hi)?;
            continue;
        }
        total_w += x;
        alpha = extreme(alpha, (p[j].hi, x), true);
        l = extreme(l, (wq[j], x), false);
        beta = extreme(beta, (p[j].lo, x), false);
    }
    let (Some(r), Some(alpha), Some(l), Some(beta)) = (r, alpha, l, beta) else {
        return Some(None);
    };
    let big = BigInt::from;
    // (U A)_j / (D U_j); alpha (U 1) = p_j (U 1) / (U_j 2^shift) with p_j's bound over 2^shift.
    let ratio = |(n, x): Ratio| lowest(big(n), d * big(x));
    let scaled = |(n, x): Ratio, total: u128| lowest(big(n) * big(total), big(x) << shift);
    let round = |x: BigRational, up| dyadic::bound(x.numer(), x.denom(), BITS, up);
    Some(Some(Bounds {
        a: round(scaled(alpha, total_u), true),
        r: round(ratio(r), true),
        slack: round(over_power_of_two(big(slack), shift as u64), true),
        b: round(scaled(beta, total_w), false),
        l: round(ratio(l), false),
    }))
}

#[cfg(test)]
mod tests;
