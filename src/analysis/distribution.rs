//! The exact distribution of the number of turns.
//!
//! (Not built yet.)
