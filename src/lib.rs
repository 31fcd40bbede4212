//! `ladders`: exact answers about Snakes and Ladders (Chutes and Ladders) boards.
//!
//! The pipeline, one way from top to bottom:
//! 1. [`board`]: a TOML board file is read and validated into a [`board::Board`];
//! 2. `game`: the one model of a game: what a roll does, and the turn machine;
//! 3. `chain`: whole turns as an absorbing Markov chain over the reachable squares;
//! 4. [`analysis`] (with the exact arithmetic of `exact`): expected turns, distributions, ...;
//! 5. [`report`]: result structs as text or JSON, written to any `io::Write`.
//!
//! [`simulate`] plays the same game roll by roll, never from the chain, so it checks it;
//! [`race`] and [`choice`] are the analyses of several seats and of a player who chooses.
//!
//! [`Game`] is the façade over all of it: load a board once, then ask one question per method;
//! every answer derives `Serialize`, every cost is checked before the work starts. The answers
//! are in [`analysis`] (and at the root, the façade's own); `game`, `chain`, `exact` and the
//! modules' parts are hidden from these docs (the command line still reaches into them) and not
//! part of the interface (docs/library.md, "What is public").
//!
//! ```
//! use ladders::analysis::Expectation;
//! use ladders::Game;
//! use num_rational::BigRational;
//!
//! // Two squares and a coin; any roll past the finish still finishes: 1 turn or 2.
//! let game = Game::from_toml("size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n", "example")?;
//! let Expectation::Finite(e) = game.expect()? else { unreachable!() };
//! assert_eq!(e.turns, BigRational::new(3.into(), 2.into()));
//! assert_eq!(serde_json::to_value(&*e)?["turns"]["decimal"], "1.500000000000");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod analysis;
pub mod board;
pub mod choice;
mod facade;
pub mod generate;
mod prec;
pub mod progress;
pub mod race;
pub mod report;
pub mod simulate;

// The pipeline's inner stages and the foundation: public for the command line, the integration
// tests and the benchmarks, which still reach into them, and hidden from the docs; a caller
// uses the façade ([`Game`]) and the result types re-exported beside it.
#[doc(hidden)]
pub mod chain;
#[doc(hidden)]
pub mod exact;
#[doc(hidden)]
pub mod game;
#[doc(hidden)]
pub mod num;
#[doc(hidden)]
pub mod text;

pub use facade::{
    ClosedForm, Duel, DuelPair, DuelProof, Error, Expectations, Game, Interval, Limits, Meeting,
    Method, Optimized, Played, PolicyRun, Race, RaceSettings, Sample, Scored, SeatResult,
    Sensitivity, TooLarge, Uncertified, Unit, Verdict, MAX_DIGITS, MAX_GAMES, SIMULATING,
};
// The command line's JSON form of the façade's answers that it writes otherwise than their own
// serde form (the Python and web shells may use them too).
#[doc(hidden)]
pub use facade::{DuelJson, OptimizedJson, RaceJson, RaceTableJson};

#[cfg(test)]
mod test_util;
