//! The shortest and the longest game.
//!
//! (Not built yet.)
