//! The `simulate`, `check` and `verify` reports.
//!
//! (Not built yet.)
