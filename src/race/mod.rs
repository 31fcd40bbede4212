//! Several players: exact win odds per seat, game length, and the knock-off rule.
//!
//! (Not built yet.)
