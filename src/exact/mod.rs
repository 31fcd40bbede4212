//! Exact arithmetic for the chain: the rational linear solver ([`solve`]), integer stepping of
//! the turn-count distribution ([`step`]) and correctly rounded decimals ([`decimal`]).
//! Everything here is exact; floats appear only in [`decimal::to_f64`], for display and checks.

pub(crate) mod certified;
pub mod decimal;
pub(crate) mod lehmer;
pub(crate) mod limbs;
pub(crate) mod scaled;
// Internal: public only for the ordering benchmark, its test and `examples/fill.rs`.
#[doc(hidden)]
pub mod order;
#[cfg(test)]
mod order_tests;
pub mod solve;
pub mod step;
