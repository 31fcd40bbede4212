//! The façade's race of independent seats: [`Game::race`], each seat's chance of finishing
//! first as a certified interval of exact rationals, through [`crate::race::race`].

use num_rational::BigRational;
use serde::Serialize;

use super::{Error, Game, TooLarge, Unit};
use crate::board::Board;
use crate::game::Capabilities;
use crate::race::independent::SERIES_SECONDS_LIMIT;
use crate::race::{race, Interval, RaceError, RaceOptions};

/// The most digits a race may certify.
pub const MAX_DIGITS: usize = 200;

/// A closed interval `[lo, hi]` of exact rationals known to hold the true value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Bounds {
    /// The lower bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub lo: BigRational,
    /// The upper bound.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub hi: BigRational,
}

impl From<&Interval> for Bounds {
    fn from(i: &Interval) -> Bounds {
        Bounds {
            lo: i.lo.clone(),
            hi: i.hi.clone(),
        }
    }
}

/// A race of independent seats, answered by [`Game::race`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RaceOdds {
    /// Per seat, in playing order, the chance of finishing first.
    pub wins: Vec<Bounds>,
    /// The expected length of the game in rounds (turns of the winner).
    pub expected_rounds: Bounds,
    /// Digits after the point asked for: every `hi - lo` is at most 10^-digits when `complete`.
    pub digits: usize,
    /// False when the sum stopped (after 100,000 turns per player) before every answer had its
    /// digits.
    pub complete: bool,
}

impl Game {
    /// Each seat's chance of finishing first when `seats` play in this order, each on its own
    /// board (they never meet), certified to `digits` digits after the point.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before the work, [`Error::NeedsPolicy`]; [`Error::Unanswerable`] for
    /// no seats, digits outside 1 to [`MAX_DIGITS`], a board that changes during a game (its
    /// seats share it: `ladders race`), or when no seat can be sure to finish.
    pub fn race(seats: &[Game], digits: usize) -> Result<RaceOdds, Error> {
        if !(1..=MAX_DIGITS).contains(&digits) {
            return Err(Error::Unanswerable(format!(
                "{digits} digits: from 1 to {MAX_DIGITS}"
            )));
        }
        for seat in seats {
            seat.no_choice()?;
            if !Capabilities::of(&seat.board).stateless {
                return Err(Error::Unanswerable(format!(
                    "{}: a board that changes during a game is shared by every seat, not raced \
                     on independently (`ladders race` answers the shared game)",
                    seat.board.origin()
                )));
            }
            seat.chain_fits()?;
        }
        let boards: Vec<&Board> = seats.iter().map(|s| &s.board).collect();
        let options = RaceOptions {
            digits,
            ..RaceOptions::default()
        };
        // A race is told to the first seat's listener, when it has one.
        let result = match seats.first() {
            Some(first) => first.watched(|| race(&boards, &options))??,
            None => race(&boards, &options)?,
        };
        Ok(RaceOdds {
            wins: result.seats.iter().map(|s| Bounds::from(&s.win)).collect(),
            expected_rounds: Bounds::from(&result.expected_rounds),
            digits,
            complete: result.complete,
        })
    }
}

impl From<RaceError> for Error {
    fn from(e: RaceError) -> Error {
        match e {
            RaceError::TooLong { seconds, .. } => Error::TooLarge(TooLarge::keeping(
                e,
                "race series",
                seconds as f64,
                SERIES_SECONDS_LIMIT,
                Unit::Seconds,
            )),
            other => Error::Unanswerable(other.to_string()),
        }
    }
}
