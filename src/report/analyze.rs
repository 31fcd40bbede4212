//! The `analyze` report.
//!
//! (Not built yet.)
