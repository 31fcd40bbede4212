//! The `race` report.
//!
//! (Not built yet.)
