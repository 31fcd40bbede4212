//! Nonnegative dyadic numbers `m 2^e` rounded outward: a fraction rounded down or up to a given
//! number of significant bits ([`bound`]), `m / 2^k` in lowest terms ([`over_power_of_two`]),
//! and products and powers rounded in one direction ([`Dyadic::times`], [`Dyadic::pow`]). The
//! proved statements (the tail law's bounds, the generating function's enclosures) keep their
//! numbers short this way: rounding is monotone, so a bound rounded away from the value stays
//! a bound.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A nonnegative dyadic number `m 2^e` (`m >= 0`, never reduced: `m` may be even).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dyadic {
    /// The mantissa.
    pub(crate) m: BigInt,
    /// The binary exponent.
    pub(crate) e: i64,
}

impl Dyadic {
    /// `m 2^e`, for `m >= 0`.
    pub(crate) fn new(m: BigInt, e: i64) -> Dyadic {
        debug_assert!(m >= BigInt::zero(), "a nonnegative mantissa");
        Dyadic { m, e }
    }

    /// `self other` rounded up (or down) to `bits` significant bits: the mantissa's bits past
    /// the first `bits` are dropped, and with `up` one unit of the last kept bit is added when
    /// any of them was set.
    pub(crate) fn times(&self, other: &Dyadic, bits: u64, up: bool) -> Dyadic {
        let m = &self.m * &other.m;
        let excess = m.bits().saturating_sub(bits);
        let kept = &m >> excess as usize;
        let inexact = up && (&kept << excess as usize) != m;
        Dyadic {
            m: if inexact { kept + 1 } else { kept },
            e: self.e + other.e + excess as i64,
        }
    }

    /// `self^n` by squaring, every product rounded up (or down) to `bits` significant bits
    /// ([`Dyadic::times`]): every factor is nonnegative, so the result is an upper (or lower)
    /// bound of the exact power, with numbers that stay short however large n is.
    pub(crate) fn pow(self, n: usize, bits: u64, up: bool) -> Dyadic {
        let mut base = self;
        let mut result = Dyadic::new(BigInt::one(), 0);
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.times(&base, bits, up);
            }
            k >>= 1;
            if k > 0 {
                base = base.times(&base, bits, up);
            }
        }
        result
    }
}

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

/// `floor(p 2^bits)` and `ceil(p 2^bits)` for a probability `p`: the fixed-point numbers on
/// either side of it.
pub fn round_outward(p: &BigRational, bits: u32) -> (BigUint, BigUint) {
    let scaled = p.numer() << bits;
    let (q, r) = scaled.div_mod_floor(p.denom());
    let lo = q.to_biguint().expect("probabilities are nonnegative");
    let hi = if r.is_zero() { lo.clone() } else { &lo + 1u32 };
    (lo, hi)
}

#[cfg(test)]
mod tests;
