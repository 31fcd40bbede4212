//! The one-screen summary of a board (`ladders analyze`).
//!
//! (Not built yet.)
