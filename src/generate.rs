//! Random board generation (`ladders generate`).
//!
//! (Not built yet.)
