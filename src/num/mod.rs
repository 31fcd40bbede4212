//! The foundation's numbers, importing nothing else in the crate: Lehmer's gcd and lcm and the
//! half-extended Euclid of rational reconstruction (`gcd`), word and limb arithmetic
//! (`limbs`), arithmetic modulo a word-size prime (`modular`), correctly rounded decimal text
//! of integers and rationals (`decimal`), the serde form of an exact number (`json`), outward
//! roundings to dyadic fractions (`dyadic`), certified intervals of rationals and the digits
//! they make certain (`interval`), and exact numbers `n / (2^a 5^b)` with powers rounded outward
//! (`scaled`); all crate-internal.

pub(crate) mod decimal;
pub(crate) mod dyadic;
pub(crate) mod gcd;
pub(crate) mod interval;
pub(crate) mod json;
pub(crate) mod limbs;
pub(crate) mod modular;
pub(crate) mod scaled;
