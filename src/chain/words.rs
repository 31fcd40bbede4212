//! A turn's law in machine words: fractions of words ([`Frac`]), where the turn ends and what
//! it collects in them ([`Law`], [`WordRewards`]), and the big rationals each stands for.
//! `chain::rest` sums one player's turns under unlimited roll-again in these; the chain takes
//! each as its big rationals ([`Law::turn`]).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::{Turn, TurnRewards};

/// A fraction `num / den` in lowest terms, `den > 0` (zero is `0 / 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Frac {
    pub(super) num: u64,
    pub(super) den: u64,
}

impl Frac {
    pub(super) const ZERO: Frac = Frac { num: 0, den: 1 };

    /// The fraction as a big rational (already in lowest terms: no gcd).
    pub(super) fn big(self) -> BigRational {
        if self.num == 0 {
            return BigRational::zero();
        }
        BigRational::new_raw(BigInt::from(self.num), BigInt::from(self.den))
    }

    /// `p` as a fraction of words, or `None` when it is negative or does not fit.
    pub(super) fn of(p: &BigRational) -> Option<Frac> {
        Some(Frac {
            num: p.numer().to_u64()?,
            den: p.denom().to_u64()?,
        })
    }
}

/// A turn's expected rewards in words ([`TurnRewards`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WordRewards {
    /// Rolls, snakes, ladders, climbed, slid.
    pub(super) counts: [Frac; 5],
    /// The expected points and whether they are negative.
    pub(super) points: (bool, Frac),
}

impl WordRewards {
    pub(super) const ZERO: WordRewards = WordRewards {
        counts: [Frac::ZERO; 5],
        points: (false, Frac::ZERO),
    };

    /// The rewards as big rationals.
    pub(super) fn big(&self) -> TurnRewards {
        let [rolls, snakes, ladders, climbed, slid] = self.counts.map(Frac::big);
        let points = self.points.1.big();
        TurnRewards {
            rolls,
            snakes,
            ladders,
            climbed,
            slid,
            points: if self.points.0 { -points } else { points },
        }
    }

    /// `r` in words, or `None` when a number does not fit one.
    pub(super) fn of(r: &TurnRewards) -> Option<WordRewards> {
        let mut counts = [Frac::ZERO; 5];
        for (f, p) in counts
            .iter_mut()
            .zip([&r.rolls, &r.snakes, &r.ladders, &r.climbed, &r.slid])
        {
            *f = Frac::of(p)?;
        }
        let negative = r.points < BigRational::zero();
        let points = Frac::of(&if negative {
            -&r.points
        } else {
            r.points.clone()
        })?;
        Some(WordRewards {
            counts,
            points: (negative, points),
        })
    }
}

/// The law of a turn (or of its rest, from an in-turn square) in words: where it ends, sorted
/// by state, and its expected rewards. Never endless.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Law<S> {
    pub(super) next: Vec<(S, Frac)>,
    pub(super) rewards: WordRewards,
}

impl<S: Clone> Law<S> {
    /// The law as a [`Turn`].
    pub(super) fn turn(&self) -> Turn<S> {
        Turn {
            next: self
                .next
                .iter()
                .map(|(s, p)| (s.clone(), p.big()))
                .collect(),
            rewards: self.rewards.big(),
            endless: false,
        }
    }

    /// The law of `turn`, or `None` when it can go on for ever or a number does not fit a word.
    pub(super) fn of(turn: &Turn<S>) -> Option<Law<S>> {
        if turn.endless {
            return None;
        }
        let next = turn
            .next
            .iter()
            .map(|(s, p)| Some((s.clone(), Frac::of(p)?)))
            .collect::<Option<_>>()?;
        Some(Law {
            next,
            rewards: WordRewards::of(&turn.rewards)?,
        })
    }
}
