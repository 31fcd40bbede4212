//! The foundation's numbers, importing nothing else in the crate: Lehmer's gcd and lcm and the
//! half-extended Euclid of rational reconstruction (`gcd`, crate-internal), word and limb
//! arithmetic (`limbs`, crate-internal), correctly rounded decimal text of integers and
//! rationals ([`decimal`]), the serde form of an exact number (`json`), and nonnegative dyadic numbers rounded outward (`dyadic`,
//! crate-internal).

pub mod decimal;
pub(crate) mod dyadic;
pub(crate) mod gcd;
pub(crate) mod json;
pub(crate) mod limbs;
