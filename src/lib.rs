//! `ladders`: exact answers about Snakes and Ladders (Chutes and Ladders) boards.
//!
//! The pipeline, one way from top to bottom:
//! 1. [`board`]: a TOML board file is read and validated into a [`board::Board`];
//! 2. [`rules`]: the one definition of a roll and a turn;
//! 3. [`chain`]: whole turns as an absorbing Markov chain over the reachable squares;
//! 4. [`analysis`] (with the exact arithmetic of [`exact`]): expected turns, distributions, ...;
//! 5. [`report`]: result structs as text or JSON.
//!
//! ```
//! use ladders::analysis::expectation::{expect, Expectation};
//! use ladders::board::Board;
//! use num_rational::BigRational;
//!
//! // Two squares and a coin; any roll past the finish still finishes.
//! let board = Board::from_toml_str("size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n", "example")?;
//! let Expectation::Finite(e) = expect(&board) else { unreachable!() };
//! assert_eq!(e.turns, BigRational::new(3.into(), 2.into())); // 1 turn or 2, each half the time
//! # Ok::<(), ladders::board::BoardError>(())
//! ```

pub mod analysis;
pub mod board;
pub mod chain;
pub mod choice;
pub mod exact;
pub mod generate;
pub mod prec;
pub mod progress;
pub mod race;
pub mod report;
pub mod rules;
pub mod simulate;
pub mod text;

#[cfg(test)]
mod test_util;
