//! The foundation's numbers, importing nothing else in the crate: Lehmer's gcd and lcm and the
//! half-extended Euclid of rational reconstruction (`gcd`, crate-internal), word and limb
//! arithmetic (`limbs`, crate-internal), and correctly rounded decimal text of integers and
//! rationals ([`decimal`]).

pub mod decimal;
pub(crate) mod gcd;
pub(crate) mod limbs;
