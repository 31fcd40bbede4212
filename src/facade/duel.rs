//! The façade's duel: [`Game::duel`], two players who choose (a choice rule), each maximising
//! their own chance of finishing first, moving in turn from any two squares; the first mover's
//! certified chance with both optimal and with both following each fixed policy, and the bound
//! on what a deviation over any number of turns gains. Above [`crate::choice::duel`].

use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::Serialize;

use super::{Error, Game, TooLarge, Unit};
use crate::board::Square;
use crate::choice::duel::{check_duel, compare, DuelTooLong, Pair, DUEL_SECONDS_LIMIT};
use crate::choice::optimize;
use crate::race::{certified_digits, Interval};

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

/// `race --json` on a board with a choice rule (docs/json-output.md): [`Duel`] as the command
/// line writes it, each interval as `{lo, hi}` fractions with the digits it certifies (at
/// `digits`; the advantage in points at two fewer), a pair that could not be certified with its
/// `error`, and the proof's gain bounded by a float.
#[derive(Clone, Debug, Serialize)]
pub struct DuelJson<'a> {
    choice: &'static str,
    from: [Square; 2],
    optimal_proof: Option<ProofJson<'a>>,
    pairs: Vec<PairJson<'a>>,
}

impl<'a> DuelJson<'a> {
    /// `duel` with its chances certified to `digits` digits.
    pub fn new(duel: &'a Duel, digits: usize) -> DuelJson<'a> {
        DuelJson {
            choice: duel.choice,
            from: duel.from,
            optimal_proof: duel.proof.as_ref().map(|p| ProofJson {
                deviator_turns_bound: p.deviator_turns_bound,
                game_value: IntervalJson::new(p.game_value.clone(), digits),
                total_gain_bound: upper_f64(&p.total_gain),
                turn_gain: &p.turn_gain,
            }),
            pairs: duel
                .pairs
                .iter()
                .map(|p| match (&p.first_wins, &p.error) {
                    (Some(chance), _) => PairJson::Certified(Box::new(PairChances {
                        advantage_points: IntervalJson::new(
                            advantage(chance),
                            digits.saturating_sub(2),
                        ),
                        deviation_gain_bound: p.deviation_gain_bound,
                        first_wins: IntervalJson::new(chance.clone(), digits),
                        name: &p.name,
                        residual: p.residual,
                        sweeps: p.sweeps,
                        turns_bound: p.turns_bound,
                    })),
                    (None, error) => PairJson::Failed {
                        error: error.as_deref(),
                        name: &p.name,
                    },
                })
                .collect(),
        }
    }
}

/// A strategy pair: certified, or why not.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum PairJson<'a> {
    Certified(Box<PairChances<'a>>),
    Failed {
        error: Option<&'a str>,
        name: &'a str,
    },
}

/// A certified pair: the first mover's chance and advantage, and what the sweeps proved.
#[derive(Clone, Debug, Serialize)]
struct PairChances<'a> {
    advantage_points: IntervalJson,
    deviation_gain_bound: f64,
    first_wins: IntervalJson,
    name: &'a str,
    residual: f64,
    sweeps: usize,
    turns_bound: i64,
}

/// What a deviation from the optimal pair gains, and the value of the game.
#[derive(Clone, Debug, Serialize)]
struct ProofJson<'a> {
    deviator_turns_bound: Option<[i64; 2]>,
    game_value: IntervalJson,
    total_gain_bound: f64,
    #[serde(serialize_with = "crate::num::json::fraction")]
    turn_gain: &'a BigRational,
}

/// An interval as `{lo, hi}` fractions with the digits both ends certify.
#[derive(Clone, Debug, Serialize)]
struct IntervalJson {
    certified: String,
    #[serde(serialize_with = "crate::num::json::fraction")]
    hi: BigRational,
    #[serde(serialize_with = "crate::num::json::fraction")]
    lo: BigRational,
}

impl IntervalJson {
    fn new(interval: Interval, digits: usize) -> IntervalJson {
        IntervalJson {
            certified: certified_digits(&interval, digits).text,
            hi: interval.hi,
            lo: interval.lo,
        }
    }
}

/// The first mover's advantage in percentage points: 100 (2p - 1), the game ending for sure.
pub(crate) fn advantage(p: &Interval) -> Interval {
    let k = |n: i64| BigRational::from_integer(n.into());
    Interval::new(
        (&p.lo * k(2) - k(1)) * k(100),
        (&p.hi * k(2) - k(1)) * k(100),
    )
}

/// A float at least `x` (for bounds shown to two digits).
pub(crate) fn upper_f64(x: &BigRational) -> f64 {
    let f = x.to_f64().unwrap_or(f64::INFINITY);
    if f > 0.0 {
        f * (1.0 + crate::prec::SHOWN_UPWARD)
    } else {
        f
    }
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
