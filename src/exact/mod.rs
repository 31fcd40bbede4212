//! Exact arithmetic for the chain: the rational linear solver ([`solve`]), integer stepping of
//! the turn-count distribution ([`step`]) and the certified bounds of a probability.
//! Everything here is exact; floats appear only for display, checks and the float tiers whose
//! errors are proved.

pub(crate) mod certified;
// Its orders reach the ordering benchmark and `examples/fill.rs` through `crate::internals`.
pub(crate) mod order;
#[cfg(test)]
mod order_tests;
pub(crate) mod solve;
pub(crate) mod step;
