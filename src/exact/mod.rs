//! Exact arithmetic for the chain: the rational linear solver ([`solve`]), integer stepping of
//! the turn-count distribution ([`step`]) and the certified bounds of a probability.
//! Everything here is exact; floats appear only for display, checks and the float tiers whose
//! errors are proved.

pub(crate) mod certified;
// Internal: public only for the ordering benchmark, its test and `examples/fill.rs`.
#[doc(hidden)]
pub mod order;
#[cfg(test)]
mod order_tests;
pub mod solve;
pub mod step;
