//! The façade's duel: [`Game::duel`], two players who choose (a choice rule), each maximising
//! their own chance of finishing first, moving in turn from any two squares; the first mover's
//! certified chance with both optimal and with both following each fixed policy, and the bound
//! on what a deviation over any number of turns gains. Above [`crate::choice::duel`].

use num_rational::BigRational;
use serde::Serialize;

use super::{Error, Game, TooLarge, Unit};
use crate::board::Square;
use crate::choice::duel::{check_duel, compare, DuelTooLong, Pair, DUEL_SECONDS_LIMIT};
use crate::choice::optimize;
use crate::race::Interval;

/// Two players who choose, answered by [`Game::duel`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Duel {
    /// The choice rule's key.
    pub choice: &'static str,
    /// The squares the two players stand on; the first moves first.
    pub from: [Square; 2],
    /// Both optimal first, then both following each policy that always makes the same
    /// choice, then both following the single-player optimum.
    pub pairs: Vec<DuelPair>,
    /// With both optimal: what a deviation over any number of turns gains (`None` when no
    /// bound on a deviator's turns was found).
    pub proof: Option<DuelProof>,
}

/// One strategy pair (both players the same strategy), evaluated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct DuelPair {
    /// `optimal`, or the single-player policy both follow.
    pub name: String,
    /// The first mover's chance of winning, certified; `None` when it could not be
    /// (`error` says why).
    pub first_wins: Option<Interval>,
    /// Why the pair could not be certified.
    pub error: Option<String>,
    /// Float sweeps made.
    pub sweeps: usize,
    /// max |T v - v| of the certified values, as a float.
    pub residual: f64,
    /// The largest bound on the pair's expected remaining turns, over all positions.
    pub turns_bound: i64,
    /// The most a single turn's deviation gains (a float bound).
    pub deviation_gain_bound: f64,
}

/// What any deviation from the optimal pair, over any number of turns, gains.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct DuelProof {
    /// g: the most a single turn's deviation gains (exact).
    #[serde(serialize_with = "crate::num::json::exact")]
    pub turn_gain: BigRational,
    /// Bounds on a deviator's expected turns, (first deviating, second deviating); `None`
    /// when g is 0 (no single turn's deviation gains anything).
    pub deviator_turns_bound: Option<[i64; 2]>,
    /// g times the larger of them: the most any deviation gains.
    #[serde(serialize_with = "crate::num::json::exact")]
    pub total_gain: BigRational,
    /// The value of the game: what the first player can force against every strategy.
    pub game_value: Interval,
}

impl Game {
    /// Two players who choose, the first on `from.0` moving first, the other on `from.1` (both
    /// on the start when `None`); each maximising their own chance of finishing first.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] before any sweep (the duel's time, estimated from the squares);
    /// [`Error::Unanswerable`] when the board has no choice rule or a square is not one a
    /// player can stand on before a turn.
    pub fn duel(&self, from: Option<(Square, Square)>) -> Result<Duel, Error> {
        let game = self.choices()?;
        let (a, b) = from.unwrap_or((self.board.rules().start, self.board.rules().start));
        let index = |square: Square| {
            game.index_of(square).ok_or_else(|| {
                Error::Unanswerable(format!(
                    "{}: square {square}: a player can stand there before a turn only on a \
                     square the game reaches below the finish ({} of them, from {} to {})",
                    self.board.origin(),
                    game.squares.len(),
                    game.squares.first().copied().unwrap_or(0),
                    game.squares.last().copied().unwrap_or(0)
                ))
            })
        };
        let positions = (index(a)?, index(b)?);
        check_duel(&game)?;
        let pairs = self.watched(|| {
            let mut fixed = game.fixed_policies();
            if let Ok(best) = optimize(&game) {
                fixed.push(("the single-player optimum".to_string(), best.policy));
            }
            compare(&game, positions, &fixed)
        })?;
        let proof = pairs
            .first()
            .and_then(|p| p.proof.as_ref())
            .map(|p| DuelProof {
                turn_gain: p.turn_gain.clone(),
                deviator_turns_bound: p.turns.map(|(x, y)| [x, y]),
                total_gain: p.total_gain(),
                game_value: p.value.clone(),
            });
        Ok(Duel {
            choice: game.rule.key(),
            from: [a, b],
            pairs: pairs.iter().map(duel_pair).collect(),
            proof,
        })
    }
}

fn duel_pair(p: &Pair) -> DuelPair {
    match &p.result {
        Ok((chance, c)) => DuelPair {
            name: p.name.clone(),
            first_wins: Some(chance.clone()),
            error: None,
            sweeps: p.sweeps,
            residual: c.residual_f64(),
            turns_bound: c.max_turns_bound(),
            deviation_gain_bound: c.gap,
        },
        Err(e) => DuelPair {
            name: p.name.clone(),
            first_wins: None,
            error: Some(e.to_string()),
            sweeps: p.sweeps,
            residual: f64::INFINITY,
            turns_bound: 0,
            deviation_gain_bound: f64::INFINITY,
        },
    }
}

impl From<DuelTooLong> for Error {
    fn from(e: DuelTooLong) -> Error {
        let seconds = e.seconds;
        Error::TooLarge(TooLarge::keeping(
            e,
            "duel",
            seconds,
            DUEL_SECONDS_LIMIT,
            Unit::Seconds,
        ))
    }
}
