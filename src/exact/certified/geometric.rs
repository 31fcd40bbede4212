//! The tail law's two geometric bounds as a tier of the certified stepping: once the law of the
//! position has settled at turn m, `b l^k <= P(T > m + k) <= a r^k + s` for every k
//! (`analysis/tail_law.rs` proves it, with dyadic a, r, s, b, l), so every later term's bounds
//! cost two multiplications a turn instead of a stepping of the chain.
//!
//! # Why the bounds hold
//!
//! a and r are rounded up to `f64`, b and l down (each checked against the exact fraction). The
//! upper and lower values are carried as `f64` times `2^-exponent`: each turn multiplies the
//! upper one by r and the product by `1 + 2^-50` (which makes up for both roundings to nearest,
//! as in `float.rs`), the lower one by l and `1 - 2^-50`; both are scaled back near 1 by exact
//! powers of two. So the upper value never falls below `a r^k`, nor the lower one above
//! `b l^k`. They become integer bounds at `2^(VALUE_BITS + exponent)` by an exact scaling and a
//! floor (lower) or ceiling (upper); s is added to every upper bound, rounded up.
//! `P(T = n) = P(T > n - 1) - P(T > n)` lies between the lower bound of the first less the upper
//! bound of the second and the other way round, in integers at one shift.
//!
//! The bounds widen like `(r / l)^k`, which is `1 + k 1e-13` or so when the law has settled to
//! 1e-13: enough for the decimals of the late terms; a term they leave undecided goes to the
//! `u128` tier like any other. s (the mass of the states too small to count, about 2^-120 of
//! `P(T > m)`) does not shrink with the tail: the tier gives up once it is 2^-30 of a term's
//! lower bound, or once a term's bounds are 2^-21 of it wide.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::float::{power_of_two, slack_units, DOWN, UP};
use super::Bounds;
use crate::num::dyadic::float_outward;

/// Bits of the integer bounds' values: a value near 1 becomes about `2^VALUE_BITS`.
const VALUE_BITS: u32 = 120;

/// Bounds of `P(T > n)` and `P(T = n)` from `b l^k <= P(T > m + k) <= a r^k + s`.
#[derive(Clone, Debug)]
pub struct GeometricTier {
    turn: usize,
    /// Upper and lower bounds of `a r^k` and `b l^k` times `2^exponent`.
    upper: f64,
    lower: f64,
    exponent: u32,
    r: f64,
    l: f64,
    /// s as `units / 2^shift`, rounded up.
    slack: (u128, u32),
    /// Bounds of P(T = n).
    ends: Bounds,
}

impl GeometricTier {
    /// The tier at n = m (`turn`), from `(a, r, s)` and `(b, l)`; `None` when a value is out
    /// of the tier's range (negative, r or l not below 1, `a` or `b` far below `f64`'s range).
    pub fn new(
        turn: usize,
        (a, r, s): (&BigRational, &BigRational, &BigRational),
        (b, l): (&BigRational, &BigRational),
    ) -> Option<GeometricTier> {
        let one = BigRational::one();
        if [a, r, s, b, l].iter().any(|x| x.is_negative()) || r >= &one || b > a {
            return None;
        }
        // a 2^exponent near 1: the same exact power of two for both values.
        let exponent = (a.denom().bits() as i64 - a.numer().bits() as i64).max(0);
        let exponent = u32::try_from(exponent).ok().filter(|&e| e < 900)?;
        let scale = BigRational::from_integer(BigInt::one() << exponent);
        let upper = rounded(&(a * &scale), true)?;
        let lower = rounded(&(b * &scale), false)?;
        // s as units / 2^at, rounded up, with about 100 bits when it is not 0.
        let bits = s.numer().bits() as i64 - s.denom().bits() as i64;
        let at = (100 - bits).clamp(0, 100_000) as u32;
        let units: BigInt = match s.is_zero() {
            true => BigInt::zero(),
            false => (s.numer() << at as usize) / s.denom() + 1,
        };
        Some(GeometricTier {
            turn,
            upper,
            lower,
            exponent,
            r: rounded(r, true)?,
            l: rounded(l, false)?,
            slack: (units.to_u128()?, at),
            ends: Bounds {
                lo: 0,
                hi: 0,
                shift: 0,
            },
        })
    }

    /// The number of turns played.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// One more turn; false when the bounds have run out of the tier's range, are too wide, or
    /// the slack s would swamp them, after which the tier must not be used.
    pub fn step(&mut self) -> bool {
        let before = self.integers();
        self.upper = self.upper * self.r * UP;
        self.lower = self.lower * self.l * DOWN;
        let now = self.integers();
        let s = slack_units(self.slack, self.shift());
        // P(T = n) = P(T > n - 1) - P(T > n).
        self.ends = Bounds {
            lo: before.0.saturating_sub(now.1.saturating_add(s)),
            hi: before.1.saturating_add(s).saturating_sub(now.0),
            shift: self.shift(),
        };
        // Back near 1 by an exact power of two.
        if self.upper > 0.0 && self.upper < 0.5 {
            let k = (-self.upper.log2().floor() as i32 - 1).clamp(0, 64);
            let scale = power_of_two(k);
            self.upper *= scale;
            self.lower *= scale;
            self.exponent += k as u32;
        }
        self.turn += 1;
        // The slack does not shrink with the tail: once it is above 2^-30 of a term's lower
        // bound, or a term's bounds are wider than 2^-21 of it (relative), the bounds decide
        // little and the tier gives up (the float tier's terms are never wider either).
        let swamped = [self.ends, self.survives()]
            .iter()
            .any(|b| slack_units(self.slack, b.shift) > b.lo >> 30 || b.hi - b.lo > b.lo >> 21);
        self.upper.is_normal() && self.exponent < 100_000 && !swamped
    }

    /// Bounds of P(T = n).
    pub fn ends_now(&self) -> Bounds {
        self.ends
    }

    /// Bounds of P(T > n).
    pub fn survives(&self) -> Bounds {
        let (lo, hi) = self.integers();
        let hi = hi.saturating_add(slack_units(self.slack, self.shift()));
        Bounds {
            lo,
            hi,
            shift: self.shift(),
        }
    }

    fn shift(&self) -> u32 {
        VALUE_BITS + self.exponent
    }

    /// The two values as integers at `2^shift`: floor of the lower, ceiling of the upper (both
    /// exact scalings of floats below 2^8, so below 2^128).
    fn integers(&self) -> (u128, u128) {
        let scale = power_of_two(VALUE_BITS as i32);
        let lo = (self.lower.max(0.0) * scale).floor() as u128;
        let hi = (self.upper * scale).ceil() as u128;
        (lo, hi)
    }
}

/// `x >= 0` as the nearest `f64` at or above it (`up`) or at or below it, when that is a
/// normal float below 2^8 (or 0 for a lower bound).
fn rounded(x: &BigRational, up: bool) -> Option<f64> {
    let f = float_outward(x, up)?;
    (f.is_normal() && f < 256.0 || f == 0.0 && !up).then_some(f)
}

#[cfg(test)]
mod tests;
