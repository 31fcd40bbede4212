//! Analyses: each a function from a chain (or a board) to a plain result struct. They compute;
//! they never print (see [`crate::report`]).

// The command line's routes, public until it runs on the façade alone; hidden from the docs
// (the results it returns are re-exported below).
#[doc(hidden)]
mod decay;
pub mod design;
#[doc(hidden)]
pub mod distribution;
#[doc(hidden)]
pub mod expectation;
#[doc(hidden)]
pub mod float_trust;
mod fundamental;
#[doc(hidden)]
pub mod json;
pub(crate) mod likeliest;
#[doc(hidden)]
pub mod moments;
#[doc(hidden)]
pub mod pgf;
#[doc(hidden)]
pub mod shortest;
mod shortest_probability;
#[doc(hidden)]
pub mod shown;
pub(crate) mod spectral;
#[doc(hidden)]
pub mod squares;
#[doc(hidden)]
pub mod stateful;
#[doc(hidden)]
pub mod stateful_fits;
pub(crate) mod summary;
pub(crate) mod tail_law;
#[doc(hidden)]
pub mod visits;

// The façade's answers ([`crate::Game`]'s methods) and the types their fields hold.
pub use crate::chain::Trap;
pub use design::{DieSweep, DieTurns, Removal};
pub use distribution::{Decay, Distribution, DistributionOptions, Mean, Quantile, Stop, Term};
pub use expectation::{Expectation, Expectations, FloatExpectation, FloatExpectations};
pub use float_trust::{FloatUntrusted, Trust};
pub use likeliest::{GameTurns, LikeliestTurns};
pub use moments::{Moments, Route};
pub use pgf::tail::DecayRate;
pub use pgf::{Pgf, Recurrence};
pub use shortest::{Extremes, Longest, Shortest, TurnRolls};
pub use shown::{ShownDistribution, ShownTerm};
pub use squares::{JumpAnswer, NoReach, Occupancy, SquareAnswer, SquareAnswers, SquareChance};
pub use stateful::Score;
pub use summary::Summary;
pub use tail_law::TailLaw;
pub use visits::Visits;
