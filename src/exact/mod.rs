//! Exact arithmetic for the chain: the rational linear solver ([`solve`]), integer stepping of
//! the turn-count distribution ([`step`]) and correctly rounded decimals ([`decimal`]).
//! Everything here is exact; floats appear only in [`decimal::to_f64`], for display and checks.

pub mod certified;
pub mod decimal;
pub mod lehmer;
pub(crate) mod limbs;
pub mod order;
pub mod solve;
pub mod step;
