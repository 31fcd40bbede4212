//! Analyses: each a function from a chain (or a board) to a plain result struct. They compute;
//! they never print (see [`crate::report`]).

pub mod design;
pub mod distribution;
pub mod expectation;
pub mod float_trust;
mod fundamental;
pub mod likeliest;
pub mod moments;
pub mod pgf;
pub mod shortest;
mod shortest_probability;
pub mod shortest_state;
pub mod shown;
pub(crate) mod spectral;
pub mod squares;
pub mod stateful;
pub mod stateful_fits;
pub mod summary;
pub(crate) mod tail_law;
pub mod visits;
