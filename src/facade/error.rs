//! The façade's one error type: what a caller of [`Game`](super::Game) can meet, each kind a
//! variant it can match, with the message the command line prints.

use std::fmt;
use std::sync::Arc;

use crate::analysis::design::{SensitivityError, SENSITIVITY_SECONDS_LIMIT};
use crate::analysis::distribution::TooMuchWork;
use crate::analysis::expectation::SolveTooLong;
use crate::analysis::float_trust::FloatUntrusted;
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
    /// The game can go on for ever (a reachable square from which the finish cannot be
    /// reached), so the question has no finite answer: the board and the trap in words.
    #[error("{name}: the expected number of turns is infinite ({trap})")]
    Endless {
        /// The board's name.
        name: String,
        /// The trap: where the game can be caught, in one sentence.
        trap: String,
    },
    /// A turn can go on for ever (the chance that it never ends is above 0), so a game played
    /// roll by roll might never end: a simulation is refused (the exact answers are not).
    #[error(
        "{origin}: {turn} (the chance that it never ends is above 0), so a simulated game might \
         never end"
    )]
    EndlessTurn {
        /// The board's origin.
        origin: String,
        /// The turn that can go on for ever, and the throws that keep it going, in words.
        turn: String,
    },
    /// Games stopped at the turn cap: the sample is censored (their lengths are unknown), so
    /// neither its mean nor its law may be tested against the whole game's.
    #[error(
        "{capped} of {games} games reached the cap of {cap} turns and were stopped: a censored \
         sample cannot be checked against the exact law of the whole game (the exact mean is \
         {mean:.1} turns, sd {sd:.1})"
    )]
    Censored {
        /// The games stopped.
        capped: u64,
        /// The games played (finished or stopped).
        games: u64,
        /// The turn cap.
        cap: u64,
        /// The exact mean number of turns.
        mean: f64,
        /// The exact standard deviation of the number of turns.
        sd: f64,
    },
    /// Races stopped at the round cap: the sample is censored (their lengths and winners are
    /// unknown), so neither the win shares nor the rounds may be tested against the whole race's.
    #[error(
        "{capped} of {races} races reached the cap of {cap} rounds and were stopped: a censored \
         sample cannot be checked against the exact law of the whole race (the exact expected \
         length is {rounds:.1} rounds)"
    )]
    CensoredRace {
        /// The races stopped.
        capped: u64,
        /// The races played (finished or stopped).
        races: u64,
        /// The round cap.
        cap: u64,
        /// The exact expected length of the race in rounds.
        rounds: f64,
    },
    /// A floating-point answer failed its own check (the exact answer is not refused).
    #[error(transparent)]
    Untrusted(#[from] FloatUntrusted),
    /// The question has no finite answer or cannot be asked of this game, said in words.
    #[error("{0}")]
    Unanswerable(String),
    /// A race of seats that meet whose answer could not be certified (no bound on the game's
    /// length was proved); a simulation estimates it. Keeps the race's own error.
    #[error(transparent)]
    Uncertified(Uncertified),
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
#[derive(Clone, Debug, thiserror::Error, serde::Serialize)]
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
    /// The analysis's own error, when the refusal came from one (its figures in full).
    #[serde(skip)]
    pub(super) detail: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl TooLarge {
    /// The analysis's own typed error behind the refusal, when it came from one (a caller
    /// that knows the analyses can read its figures: the moments' orders solved directly, a
    /// chain's count); `None` for a refusal by [`Limits`](super::Limits) alone.
    pub fn detail(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.detail.as_deref()
    }

    /// `error`, an analysis's refusal, as a `TooLarge` that keeps it as its detail.
    pub(crate) fn keeping<E: std::error::Error + Send + Sync + 'static>(
        error: E,
        what: &'static str,
        estimate: f64,
        limit: f64,
        unit: Unit,
    ) -> TooLarge {
        TooLarge {
            what,
            estimate,
            limit,
            unit,
            message: error.to_string(),
            detail: Some(Arc::new(error)),
        }
    }
}

/// A race whose bounds could not be certified: the seats, and the race's own typed error
/// ([`Uncertified::detail`]: a knock-off race's `race::knockoff::KnockOffError`, a shared
/// board's `race::shared::SharedError`), whose message it shows.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{detail}")]
#[non_exhaustive]
pub struct Uncertified {
    /// The seats of the race.
    pub players: usize,
    detail: Arc<dyn std::error::Error + Send + Sync>,
}

impl Uncertified {
    /// The race's own typed error (a caller that knows the races can read its figures: the
    /// joint chain's states).
    pub fn detail(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.detail.as_ref()
    }

    /// `error`, a race of `players` seats that could not be certified, kept.
    pub(crate) fn keeping<E: std::error::Error + Send + Sync + 'static>(
        error: E,
        players: usize,
    ) -> Uncertified {
        Uncertified {
            players,
            detail: Arc::new(error),
        }
    }
}

/// Two refusals are equal when their figures and messages are (the detail is not compared).
impl PartialEq for TooLarge {
    fn eq(&self, other: &TooLarge) -> bool {
        (
            self.what,
            self.estimate,
            self.limit,
            self.unit,
            &self.message,
        ) == (
            other.what,
            other.estimate,
            other.limit,
            other.unit,
            &other.message,
        )
    }
}

impl From<ChainTooBig> for TooLarge {
    fn from(e: ChainTooBig) -> TooLarge {
        let bytes = e.size.bytes;
        TooLarge::keeping(e, "turn chain", bytes, CHAIN_BYTES_LIMIT, Unit::Bytes)
    }
}

impl From<StatesTooMany> for TooLarge {
    fn from(e: StatesTooMany) -> TooLarge {
        let bytes = e.count.bytes();
        TooLarge::keeping(e, "chain of states", bytes, CHAIN_BYTES_LIMIT, Unit::Bytes)
    }
}

impl From<StatefulTooBig> for TooLarge {
    fn from(e: StatefulTooBig) -> TooLarge {
        let (what, estimate, limit, unit) = match e {
            StatefulTooBig::Chain(states) => (
                "chain of states",
                states.count.bytes(),
                CHAIN_BYTES_LIMIT,
                Unit::Bytes,
            ),
            StatefulTooBig::Solve { seconds, .. } => (
                "exact solve",
                seconds,
                STATEFUL_SECONDS_LIMIT,
                Unit::Seconds,
            ),
            StatefulTooBig::Score { bytes, .. } if bytes > CHAIN_BYTES_LIMIT => {
                ("law of the score", bytes, CHAIN_BYTES_LIMIT, Unit::Bytes)
            }
            StatefulTooBig::Score { seconds, .. } => (
                "law of the score",
                seconds,
                STATEFUL_SECONDS_LIMIT,
                Unit::Seconds,
            ),
            StatefulTooBig::ScoreChain { chain, .. } => (
                "law of the score",
                chain.count.bytes(),
                CHAIN_BYTES_LIMIT,
                Unit::Bytes,
            ),
        };
        TooLarge::keeping(e, what, estimate, limit, unit)
    }
}

impl From<PgfTooLong> for TooLarge {
    fn from(e: PgfTooLong) -> TooLarge {
        let (seconds, limit) = (e.seconds, e.limit);
        TooLarge::keeping(e, "generating function", seconds, limit, Unit::Seconds)
    }
}

impl From<SquaresTooLong> for TooLarge {
    fn from(e: SquaresTooLong) -> TooLarge {
        let (seconds, limit) = (e.seconds, SQUARES_SECONDS_LIMIT);
        TooLarge::keeping(e, "per-square answers", seconds, limit, Unit::Seconds)
    }
}

impl From<SolveTooLong> for TooLarge {
    fn from(e: SolveTooLong) -> TooLarge {
        let (seconds, limit) = (e.seconds, crate::analysis::moments::SECONDS_LIMIT);
        TooLarge::keeping(e, "exact solve", seconds, limit, Unit::Seconds)
    }
}

impl From<TooMuchWork> for TooLarge {
    fn from(e: TooMuchWork) -> TooLarge {
        let work = e.work;
        let limit = crate::analysis::distribution::WORK_LIMIT;
        TooLarge::keeping(e, "exact distribution", work, limit, Unit::Operations)
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
    SquaresTooLong,
    SolveTooLong
);

impl From<MomentsError> for Error {
    fn from(e: MomentsError) -> Error {
        match e {
            MomentsError::TooMuchWork {
                pgf_seconds,
                solve_seconds,
                ..
            } => Error::TooLarge(TooLarge::keeping(
                e,
                "moments",
                pgf_seconds.min(solve_seconds),
                crate::analysis::moments::SECONDS_LIMIT,
                Unit::Seconds,
            )),
            other => Error::Unanswerable(other.to_string()),
        }
    }
}

impl From<SensitivityError> for Error {
    fn from(e: SensitivityError) -> Error {
        match e {
            SensitivityError::Board(board) => Error::Board(board),
            SensitivityError::Stateful(inner) => {
                let figures = TooLarge::from(inner);
                Error::TooLarge(TooLarge::keeping(
                    e,
                    figures.what,
                    figures.estimate,
                    figures.limit,
                    figures.unit,
                ))
            }
            SensitivityError::TooLong { seconds, .. } => Error::TooLarge(TooLarge::keeping(
                e,
                "sensitivity",
                seconds,
                SENSITIVITY_SECONDS_LIMIT,
                Unit::Seconds,
            )),
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
