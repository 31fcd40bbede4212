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
//! are in [`analysis`] (and at the root, the façade's own); `game`, `chain`, `exact`, the
//! foundation and the modules' parts are crate-internal (docs/library.md, "What is public").
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

// The pipeline's inner stages and the foundation: crate-internal; what the command line, the
// tests and the benchmarks still reach of them is in [`internals`].
pub(crate) mod chain;
pub(crate) mod exact;
pub(crate) mod game;
pub(crate) mod num;
pub(crate) mod text;

/// Not the library's interface: the items the integration tests, the benchmarks, the examples
/// and the doctests of crate-internal items still reach below the façade, each from the
/// crate-internal module that defines it. The command line and the Python and web shells use
/// the documented API only. A caller uses [`Game`] and the documented modules; an item leaves
/// this list when its last user does.
#[doc(hidden)]
pub mod internals {
    // The analyses' routes.
    pub use crate::analysis::distribution::board_distribution;
    pub use crate::analysis::distribution::distribution;
    pub use crate::analysis::expectation::{expect, expect_chain, expect_float, expect_with};
    pub use crate::analysis::pgf::pgf;
    pub use crate::analysis::score::score;
    pub use crate::analysis::shortest::{extremes, extremes_of};
    pub use crate::analysis::shown::{board_shown_distribution, certified_distribution};
    pub use crate::analysis::squares::square_answers;
    pub use crate::analysis::visits::{visits, visits_float};
    // The chain, the game's one model and the exact arithmetic.
    pub use crate::chain::{turn_loop, Chain, LinkedChain, Numbered, RollLevel};
    pub use crate::exact::order::{
        elimination_order, entries_after_fill, inverse, markowitz, permute_entries,
    };
    pub use crate::exact::solve::{solve, System, Wanted};
    pub use crate::exact::step::IntegerChain;
    pub use crate::game::{
        next_streak, nudge, roll, roll_deciding, throw_effect, turn_step, turn_steps, SingleBoard,
        ThrowEffect,
    };
    pub use crate::num::decimal::scientific;
    // Two players who choose, and races' own routes.
    pub use crate::choice::duel::{
        certify, evaluate_float, from_policy, greedy, solve_float, Strategy,
    };
    pub use crate::choice::duel_proof::prove;
    pub use crate::choice::policy_file::parse_csv as parse_policy_csv;
    pub use crate::race::knockoff::KnockOffOptions;
    pub use crate::race::relative::relative_race;
    pub use crate::race::shared::{shared_race, SharedOptions};
    // The simulator's parts (the benchmark's) and the race check's steps.
    pub use crate::simulate::engine::run_chunk;
    pub use crate::simulate::race::{compare_race, exact_race, simulate_race, RaceSimOptions};
    pub use crate::simulate::table::Table;
}

pub use facade::{
    ClosedForm, Duel, DuelPair, DuelProof, Error, Expectations, Game, Interval, Limits, Meeting,
    Method, Optimized, Played, PolicyRun, Race, RaceSettings, Sample, Scored, SeatResult,
    Sensitivity, TooLarge, Uncertified, Unit, Verdict, MAX_DIGITS, MAX_GAMES, SIMULATING,
};

#[cfg(test)]
mod test_util;
