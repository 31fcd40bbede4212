//! One player's game seen roll by roll: a chain whose steps are single rolls, over the turn
//! machine's in-turn states, each remembering the square the roll that led to it ended on. The
//! per-square answers read landings from it (a roll's move ending on a square, at any roll of a
//! turn: `analysis::squares`), on every rule: roll-again, forfeits, lost and extra turns, jump
//! turns (a turn without a roll is a step of its own), a state that is more than the square.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{Chain, ChainTooLarge, Turn, TurnModel, TurnRewards};
use crate::board::Square;
use crate::game::{begin, throw_into, Capabilities, InTurn, OnSquare, RollGame, Step};

/// The game between two rolls.
///
/// Ordered by where the token stands first, so that the chain's states come in square order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rolled<S> {
    /// The game's state and the turn's top throws in a row so far.
    pub at: InTurn<S>,
    /// Where the turn began, kept only when a forfeit can send the token back there (else
    /// `None`: the rest of a turn does not depend on it).
    pub began: Option<S>,
    /// The square the move of the roll that led here ended on; `None` at the start, after a
    /// forfeit (no move), after a turn without a roll and once the game is over.
    pub landed: Option<Square>,
    /// A turn without a roll (a lost turn, a jump turn) begins here: the next step spends it.
    pub skips: bool,
}

impl<S: OnSquare> OnSquare for Rolled<S> {
    fn square(&self) -> Square {
        self.at.at.square()
    }

    fn is_fresh(&self) -> bool {
        self.at.at.is_fresh()
    }
}

/// The roll-by-roll model of a game: one step is one roll ([`throw_into`]), a turn's end opens
/// the next ([`begin`]).
pub struct Rolls<'g, G> {
    game: &'g G,
    /// Whether a forfeit can send the token back to where its turn began.
    forfeits: bool,
}

impl<'g, G> Rolls<'g, G>
where
    G: RollGame + TurnModel<State = <G as RollGame>::State>,
{
    /// The roll-by-roll model of `game`, whose rules `capabilities` describes.
    pub fn new(game: &'g G, capabilities: &Capabilities) -> Rolls<'g, G> {
        Rolls {
            game,
            forfeits: !capabilities.memoryless_turns(),
        }
    }

    /// Its chain, or [`ChainTooLarge`] past `limit` states.
    ///
    /// # Errors
    ///
    /// [`ChainTooLarge`] when more than `limit` states are reachable.
    pub fn chain(
        &self,
        limit: usize,
    ) -> Result<Chain<Rolled<<G as RollGame>::State>>, ChainTooLarge> {
        Chain::build_limited(self, limit)
    }

    /// The state a turn that begins in `state` opens in, the last move having ended on
    /// `landed`: before its first roll, or before the turn without a roll it must spend first.
    fn turn_from(
        &self,
        state: <G as RollGame>::State,
        landed: Option<Square>,
    ) -> Rolled<<G as RollGame>::State> {
        let at = |at| InTurn { at, streak: 0 };
        if RollGame::is_final(self.game, &state) {
            return Rolled {
                at: at(state),
                began: None,
                landed: None,
                skips: false,
            };
        }
        match begin(self.game, state.clone()) {
            Step::Continue(now) => Rolled {
                at: now,
                began: self.forfeits.then_some(state),
                landed,
                skips: false,
            },
            Step::End(_) => Rolled {
                at: at(state),
                began: None,
                landed,
                skips: true,
            },
        }
    }
}

impl<G> TurnModel for Rolls<'_, G>
where
    G: RollGame + TurnModel<State = <G as RollGame>::State>,
{
    type State = Rolled<<G as RollGame>::State>;

    fn start(&self) -> Self::State {
        self.turn_from(TurnModel::start(self.game), None)
    }

    fn is_final(&self, state: &Self::State) -> bool {
        RollGame::is_final(self.game, &state.at.at)
    }

    /// One roll: every throw, every outcome of it (each probability `throw weight x outcome
    /// weight / (dice total x the throw's outcomes' total)`, summed per next state over one
    /// common denominator, with no gcd until the end).
    fn turn(&self, state: &Self::State) -> Turn<Self::State> {
        if state.skips {
            let Step::End(after) = begin(self.game, state.at.at.clone()) else {
                unreachable!("a skipped turn has no roll")
            };
            return Turn {
                next: vec![(self.turn_from(after, None), BigRational::one())],
                rewards: TurnRewards::default(),
                endless: false,
            };
        }
        let now = &state.at;
        let began = state.began.as_ref().unwrap_or(&now.at);
        let dice = self.game.dice(&now.at);
        let (mut rolled, mut thrown) = (Vec::new(), Vec::new());
        let mut weighed: Vec<(Self::State, u128, u64)> = Vec::new();
        for throw in dice.throws() {
            thrown.clear();
            let total = throw_into(self.game, began, now, throw, &mut rolled, &mut thrown);
            for t in &thrown {
                let landed = (!t.forfeited).then_some(t.outcome.to);
                let after = match &t.step {
                    Step::Continue(at) => Rolled {
                        at: at.clone(),
                        began: state.began.clone(),
                        landed,
                        skips: false,
                    },
                    Step::End(s) => self.turn_from(s.clone(), landed),
                };
                weighed.push((
                    after,
                    u128::from(throw.weight) * u128::from(t.weight),
                    total,
                ));
            }
        }
        // The outcomes' totals are mostly one and the same: a gcd only for a new one.
        let mut totals = BigInt::one();
        for (_, _, total) in &weighed {
            if !(&totals % *total).is_zero() {
                totals = totals.lcm(&BigInt::from(*total));
            }
        }
        let mut next: BTreeMap<Self::State, BigInt> = BTreeMap::new();
        for (after, weight, total) in weighed {
            *next.entry(after).or_default() += BigInt::from(weight) * (&totals / total);
        }
        let denominator = totals * dice.total();
        Turn {
            next: next
                .into_iter()
                .map(|(s, n)| (s, BigRational::new(n, denominator.clone())))
                .collect(),
            rewards: TurnRewards::default(),
            endless: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SingleBoard;
    use crate::test_util::board;

    #[test]
    fn a_forfeit_goes_back_without_landing_and_a_top_throw_lands_mid_turn() {
        // A coin (faces 1 and 2, 2 the top face) on 6 squares, start 0, roll_again = 2: from
        // the start, a 1 lands on 1 and ends the turn; a 2 lands on 2 and rolls again. From 2
        // in that turn, a 1 lands on 3 (the turn ends), a second 2 forfeits: back to 0, no
        // landing.
        let b = board("size = 6\n[rules]\ndie = 2\nroll_again = 2\n");
        let game = SingleBoard::new(&b);
        let model = Rolls::new(&game, &Capabilities::of(&b));
        let start = model.start();
        assert_eq!((start.landed, start.began), (None, Some(0)));
        let half = BigRational::new(1.into(), 2.into());
        let first = model.turn(&start);
        let mid = Rolled {
            at: InTurn { at: 2, streak: 1 },
            began: Some(0),
            landed: Some(2),
            skips: false,
        };
        assert!(first.next.contains(&(mid.clone(), half.clone())));
        let second = model.turn(&mid);
        let back = Rolled {
            at: InTurn { at: 0, streak: 0 },
            began: Some(0),
            landed: None,
            skips: false,
        };
        assert!(second.next.contains(&(back, half)));
    }
}
