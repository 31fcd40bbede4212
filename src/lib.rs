//! `ladders`: exact answers about Snakes and Ladders (Chutes and Ladders) boards.
//!
//! The pipeline, one way from top to bottom:
//! 1. [`board`]: a TOML board file is read and validated into a [`board::Board`];
//! 2. [`game`]: the one model of a game: what a roll does, and the turn machine;
//! 3. [`chain`]: whole turns as an absorbing Markov chain over the reachable squares;
//! 4. [`analysis`] (with the exact arithmetic of [`exact`]): expected turns, distributions, ...;
//! 5. [`report`]: result structs as text or JSON, written to any `io::Write`.
//!
//! [`simulate`] plays the same [`game`] roll by roll, never from the chain, so it checks it;
//! [`race`] and [`choice`] are the analyses of several seats and of a player who chooses.
//!
//! ```
//! use ladders::analysis::expectation::{expect_chain, Expectation};
//! use ladders::board::Board;
//! use ladders::chain::Chain;
//! use ladders::report::expect::{write_text, ExpectOptions};
//! use num_rational::BigRational;
//!
//! // 1. Two squares and a coin; any roll past the finish still finishes.
//! let board = Board::from_toml_str("size = 2\n[rules]\ndie = 2\novershoot = \"allow\"\n", "example")?;
//! // 2-3. The turn chain, built from the rules.
//! let chain = Chain::for_board(&board);
//! // 4. The exact expected number of turns: 1 turn or 2, each half the time.
//! let expectation = expect_chain(&chain);
//! let Expectation::Finite(e) = &expectation else { unreachable!() };
//! assert_eq!(e.turns, BigRational::new(3.into(), 2.into()));
//! // 5. The report, as `ladders expect` prints it.
//! let mut text = Vec::new();
//! write_text(&mut text, &board, &expectation, ExpectOptions { digits: 4, per_square: false, exact: false })?;
//! assert!(String::from_utf8(text)?.contains("exact          3/2"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod analysis;
pub mod board;
pub mod chain;
pub mod choice;
pub mod exact;
pub mod game;
pub mod generate;
pub mod num;
pub mod prec;
pub mod progress;
pub mod race;
pub mod report;
pub mod simulate;
pub mod text;

#[cfg(test)]
mod test_util;
