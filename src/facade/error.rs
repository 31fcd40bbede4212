//! The façade's one error type: what a caller of [`Game`](super::Game) can meet, each kind a
//! variant it can match, with the message the command line prints.

use std::fmt;

use crate::analysis::distribution::TooMuchWork;
use crate::analysis::moments::MomentsError;
use crate::analysis::pgf::PgfTooLong;
use crate::analysis::squares::{SquaresTooLong, SQUARES_SECONDS_LIMIT};
use crate::analysis::stateful_fits::{StatefulTooBig, STATEFUL_SECONDS_LIMIT};
use crate::board::BoardError;
use crate::chain::{ChainTooBig, StatesTooMany, CHAIN_BYTES_LIMIT};

/// What went wrong, for any method of [`Game`](super::Game).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board is not valid (every problem of the file at once, with its line).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// No built-in board has this name and it is not a file.
    #[error("{name}: no such board file, and no built-in board has that name{}", near_text(.near))]
    NotFound {
        /// The name asked for.
        name: String,
        /// Built-in names near it.
        near: Vec<String>,
    },
    /// The question would take more than the library's limits allow (docs/limits.md): refused
    /// before the work starts, with its estimate.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The player chooses (a choice rule): the question needs a policy.
    #[error(
        "{origin}: the player chooses ({rule}), so the game needs a policy (optimize it first)"
    )]
    NeedsPolicy {
        /// The board's origin.
        origin: String,
        /// The choice rule's key.
        rule: &'static str,
    },
    /// The question has no finite answer or cannot be asked of this game, said in words.
    #[error("{0}")]
    Unanswerable(String),
    /// The game's listener stopped the work ([`Listener::cancelled`](crate::progress::Listener::cancelled)).
    #[error("cancelled")]
    Cancelled,
}

impl From<crate::progress::Cancelled> for Error {
    fn from(_: crate::progress::Cancelled) -> Error {
        Error::Cancelled
    }
}

fn near_text(near: &[String]) -> String {
    match near.is_empty() {
        true => String::new(),
        false => format!(" (did you mean {}?)", near.join(" or ")),
    }
}

/// The unit of an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Unit {
    /// Bytes of memory.
    Bytes,
    /// Seconds on one core of a current machine.
    Seconds,
    /// Word operations (limb multiply-adds) of exact arithmetic.
    Operations,
}

/// A question refused before its work started: what would grow too large, the estimate and
/// the limit, in one unit; the message says what to do instead.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize)]
#[error("{message}")]
#[non_exhaustive]
pub struct TooLarge {
    /// What would grow too large (`"turn chain"`, `"exact solve"`, ...).
    pub what: &'static str,
    /// The estimate, in `unit`.
    pub estimate: f64,
    /// The limit, in `unit`.
    pub limit: f64,
    /// The unit of both.
    pub unit: Unit,
    /// The whole message.
    pub message: String,
}

impl From<ChainTooBig> for TooLarge {
    fn from(e: ChainTooBig) -> TooLarge {
        TooLarge {
            what: "turn chain",
            estimate: e.size.bytes,
            limit: CHAIN_BYTES_LIMIT,
            unit: Unit::Bytes,
            message: e.to_string(),
        }
    }
}

impl From<StatesTooMany> for TooLarge {
    fn from(e: StatesTooMany) -> TooLarge {
        TooLarge {
            what: "chain of states",
            estimate: e.count.bytes(),
            limit: CHAIN_BYTES_LIMIT,
            unit: Unit::Bytes,
            message: e.to_string(),
        }
    }
}

impl From<StatefulTooBig> for TooLarge {
    fn from(e: StatefulTooBig) -> TooLarge {
        match e {
            StatefulTooBig::Chain(states) => states.into(),
            StatefulTooBig::Solve { seconds, .. } => TooLarge {
                what: "exact solve",
                estimate: seconds,
                limit: STATEFUL_SECONDS_LIMIT,
                unit: Unit::Seconds,
                message: e.to_string(),
            },
            StatefulTooBig::Score { bytes, .. } if bytes > CHAIN_BYTES_LIMIT => TooLarge {
                what: "law of the score",
                estimate: bytes,
                limit: CHAIN_BYTES_LIMIT,
                unit: Unit::Bytes,
                message: e.to_string(),
            },
            StatefulTooBig::Score { seconds, .. } => TooLarge {
                what: "law of the score",
                estimate: seconds,
                limit: STATEFUL_SECONDS_LIMIT,
                unit: Unit::Seconds,
                message: e.to_string(),
            },
            StatefulTooBig::ScoreChain { chain, .. } => TooLarge {
                message: e.to_string(),
                ..chain.into()
            },
        }
    }
}

impl From<PgfTooLong> for TooLarge {
    fn from(e: PgfTooLong) -> TooLarge {
        TooLarge {
            what: "generating function",
            estimate: e.seconds,
            limit: e.limit,
            unit: Unit::Seconds,
            message: e.to_string(),
        }
    }
}

impl From<SquaresTooLong> for TooLarge {
    fn from(e: SquaresTooLong) -> TooLarge {
        TooLarge {
            what: "per-square answers",
            estimate: e.seconds,
            limit: SQUARES_SECONDS_LIMIT,
            unit: Unit::Seconds,
            message: e.to_string(),
        }
    }
}

impl From<TooMuchWork> for TooLarge {
    fn from(e: TooMuchWork) -> TooLarge {
        TooLarge {
            what: "exact distribution",
            estimate: e.work,
            limit: crate::analysis::distribution::WORK_LIMIT,
            unit: Unit::Operations,
            message: e.to_string(),
        }
    }
}

macro_rules! too_large {
    ($($from:ty),*) => {$(
        impl From<$from> for Error {
            fn from(e: $from) -> Error {
                Error::TooLarge(e.into())
            }
        }
    )*};
}
too_large!(
    ChainTooBig,
    StatesTooMany,
    StatefulTooBig,
    TooMuchWork,
    PgfTooLong,
    SquaresTooLong
);

impl From<MomentsError> for Error {
    fn from(e: MomentsError) -> Error {
        match e {
            MomentsError::TooMuchWork {
                pgf_seconds,
                solve_seconds,
                ..
            } => Error::TooLarge(TooLarge {
                what: "moments",
                estimate: pgf_seconds.min(solve_seconds),
                limit: crate::analysis::moments::SECONDS_LIMIT,
                unit: Unit::Seconds,
                message: e.to_string(),
            }),
            other => Error::Unanswerable(other.to_string()),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Bytes => "bytes",
            Unit::Seconds => "seconds",
            Unit::Operations => "word operations",
        })
    }
}
