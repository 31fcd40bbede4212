//! Outward rounding to dyadic fractions `m / 2^k`: a fraction rounded down or up to a given
//! number of significant bits ([`bound`]), `m / 2^k` in lowest terms ([`over_power_of_two`]),
//! a probability on either side at a fixed point ([`round_outward`]), and the fixed-point
//! numbers of the races' stepping (integers over `2^bits`: their value [`unscaled`], products
//! rounded down or up, [`mul_down`] and [`mul_up`]). The proved statements
//! (the tail law's bounds, the generating function's enclosures) keep their numbers short this
//! way: rounding is monotone, so a bound rounded away from the value stays a bound. Products
//! and powers rounded one way are [`crate::num::scaled::Scaled::pow_rounded`]'s.

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// `n / d` (d > 0) rounded down (or up) to a dyadic fraction with about `bits` significant
/// bits: a one-sided bound with short numbers, found without a gcd of the long ones.
pub(crate) fn bound(n: &BigInt, d: &BigInt, bits: u64, up: bool) -> BigRational {
    if n.is_zero() {
        return BigRational::zero();
    }
    let shift = bits as i64 - (n.bits() as i64 - d.bits() as i64);
    let (n, d) = match shift >= 0 {
        true => (n << shift as usize, d.clone()),
        false => (n.clone(), d << shift.unsigned_abs() as usize),
    };
    let m = match up {
        true => -((-n).div_floor(&d)),
        false => n.div_floor(&d),
    };
    match shift >= 0 {
        true => over_power_of_two(m, shift as u64),
        false => BigRational::from_integer(m << shift.unsigned_abs() as usize),
    }
}

/// `m / 2^k` in lowest terms, reduced by `m`'s trailing zeros instead of a general gcd (the
/// same fraction `BigRational::new` gives, without its binary gcd's hundreds of big-integer
/// shifts).
pub(crate) fn over_power_of_two(m: BigInt, k: u64) -> BigRational {
    if m.is_zero() {
        return BigRational::zero();
    }
    let common = m.trailing_zeros().map_or(0, |z| z.min(k));
    BigRational::new_raw(m >> common as usize, BigInt::one() << (k - common) as usize)
}

/// `floor(p 2^bits)` and `ceil(p 2^bits)` for a probability `p` (or any `p >= 0`): the
/// fixed-point numbers on either side of it.
pub fn round_outward(p: &BigRational, bits: u32) -> (BigUint, BigUint) {
    let scaled = p.numer() << bits;
    let (q, r) = scaled.div_mod_floor(p.denom());
    let lo = q.to_biguint().expect("probabilities are nonnegative");
    let hi = if r.is_zero() { lo.clone() } else { &lo + 1u32 };
    (lo, hi)
}

/// `x >= 0` as the nearest `f64` at or above it (`up`) or at or below it, decided in integers
/// ([`compare_with_float`]); `None` when x is past `f64`'s range.
pub(crate) fn float_outward(x: &BigRational, up: bool) -> Option<f64> {
    if x.is_zero() {
        return Some(0.0);
    }
    // BigRational's own conversion rounds to nearest: one step at most to the side asked.
    let f = x.to_f64()?;
    match (up, compare_with_float(x, f)?) {
        (true, Ordering::Greater) => Some(f64::from_bits(f.to_bits() + 1)),
        (false, Ordering::Less) => Some(f64::from_bits(f.to_bits() - 1)),
        _ => Some(f),
    }
}

/// How `x >= 0` compares with a finite `f >= 0`, in integers: `f = m 2^e` exactly, so
/// `x = n / d` against it is `n 2^-e` against `m d` (one side shifted).
pub(crate) fn compare_with_float(x: &BigRational, f: f64) -> Option<Ordering> {
    if !f.is_finite() || f < 0.0 {
        return None;
    }
    let (m, e, _) = num_traits::Float::integer_decode(f);
    let (n, d) = (x.numer(), x.denom());
    let m = BigInt::from(m);
    Some(match e >= 0 {
        true => n.cmp(&((m << e as usize) * d)),
        false => (n << (-e) as usize).cmp(&(m * d)),
    })
}

/// The value `x / 2^bits` of the fixed-point number x, in lowest terms.
pub fn unscaled(x: &BigUint, bits: u32) -> BigRational {
    over_power_of_two(BigInt::from(x.clone()), u64::from(bits))
}

/// `floor(a b / 2^bits)`: the product of two fixed-point numbers rounded down.
pub fn mul_down(a: &BigUint, b: &BigUint, bits: u32) -> BigUint {
    (a * b) >> bits
}

/// `ceil(a b / 2^bits)`: the product of two fixed-point numbers rounded up.
pub fn mul_up(a: &BigUint, b: &BigUint, bits: u32) -> BigUint {
    shift_up(a * b, bits)
}

/// `ceil(x / 2^bits)`.
pub fn shift_up(x: BigUint, bits: u32) -> BigUint {
    let mask_is_zero = x.trailing_zeros().is_none_or(|t| t >= u64::from(bits));
    let q = x >> bits;
    if mask_is_zero {
        q
    } else {
        q + 1u32
    }
}

#[cfg(test)]
mod tests;
