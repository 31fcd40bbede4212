//! The foundation's numbers, importing nothing else in the crate: Lehmer's gcd and lcm and the
//! half-extended Euclid of rational reconstruction (`gcd`, crate-internal), word and limb
//! arithmetic (`limbs`, crate-internal), correctly rounded decimal text of integers and
//! rationals ([`decimal`]), the serde form of an exact number (`json`), outward roundings to dyadic fractions (`dyadic`,
//! crate-internal), certified intervals of rationals and the digits they make certain
//! (`interval`), and exact numbers `n / (2^a 5^b)` with powers rounded outward (`scaled`,
//! crate-internal).

pub mod decimal;
pub(crate) mod dyadic;
pub(crate) mod gcd;
pub(crate) mod interval;
pub(crate) mod json;
pub(crate) mod limbs;
pub(crate) mod scaled;
