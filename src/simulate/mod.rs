//! The fast seeded simulator and the statistical checks of simulations against the exact chain.
//!
//! (Not built yet.)
