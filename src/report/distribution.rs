//! The `distribution` report.
//!
//! (Not built yet.)
