//! The `shortest` report.
//!
//! (Not built yet.)
