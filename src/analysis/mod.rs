//! Analyses: each a function from a chain (or a board) to a plain result struct. They compute;
//! they never print (see [`crate::report`]).

// Crate-internal; what the command line, tests and benchmarks still reach of them is in
// `crate::internals`, the answers the façade returns are re-exported below.
mod decay;
pub(crate) mod design;
pub(crate) mod distribution;
pub(crate) mod expectation;
pub(crate) mod float_trust;
mod fundamental;
pub(crate) mod json;
pub(crate) mod likeliest;
pub(crate) mod moments;
pub(crate) mod pgf;
pub(crate) mod shortest;
mod shortest_probability;
pub(crate) mod shown;
pub(crate) mod spectral;
pub(crate) mod squares;
pub(crate) mod stateful;
pub(crate) mod stateful_fits;
pub(crate) mod summary;
pub(crate) mod tail_law;
pub(crate) mod visits;

// The façade's answers ([`crate::Game`]'s methods) and the types their fields hold.
pub use crate::chain::Trap;
// What a refusal's `TooLarge::detail` (or a typed error) holds: each analysis's own estimate.
pub use crate::chain::ChainTooBig;
pub use design::SensitivityError;
pub use design::{DieSweep, DieTurns, Removal};
pub use distribution::TooMuchWork;
pub use distribution::{Decay, Distribution, DistributionOptions, Mean, Quantile, Stop, Term};
pub use expectation::SolveTooLong;
pub use expectation::{Expectation, Expectations, FloatExpectation, FloatExpectations};
pub use float_trust::{FloatUntrusted, Trust};
pub use likeliest::{GameTurns, LikeliestTurns};
pub use moments::MomentsError;
pub use moments::{Moments, Route};
pub use pgf::tail::DecayRate;
pub use pgf::PgfTooLong;
pub use pgf::{Pgf, Recurrence};
pub use shortest::{Extremes, Longest, Shortest, TurnRolls};
pub use shown::{ShownDistribution, ShownTerm};
pub use squares::SquaresTooLong;
pub use squares::{JumpAnswer, NoReach, Occupancy, SquareAnswer, SquareAnswers, SquareChance};
pub use stateful::Score;
pub use stateful_fits::StatefulTooBig;
pub use summary::Summary;
pub use tail_law::TailLaw;
pub use visits::Visits;
