//! Games played by a player who follows a policy ([`crate::choice`]), roll by roll from the
//! rules, seeded: the simulation `simulate --policy` and `check --policy` compare with the exact
//! chain.
//!
//! # How a turn is played
//!
//! The throw is drawn exactly by its integer weight (`Weighted` over `Dice::uniform`): the
//! die the policy picks (`choose_die`), the board's dice (`coin`), or each of the `pick` dice
//! one by one; the roll's outcome is drawn by its weight from [`crate::game::roll`]; with the
//! coin, the policy is asked where the roll put the token and a flip draws heads or tails, then
//! the outcome of [`crate::game::nudge`]; with `decline`, the roll's outcome is drawn from
//! [`crate::game::roll_deciding`] with the policy's answers. The policy is looked up by what the player sees (the
//! [`NodeKey`]); the chain's compound turns are never used, so a simulation checks them.
//!
//! The games are the engine's ([`super::engine::simulate_one`]) with a player who follows the
//! policy: games are cut into chunks of [`CHUNK_GAMES`](super::engine::CHUNK_GAMES), each on its own stream of the seed,
//! merged in order: the result depends on the seed only, not on the thread count.

use super::engine::{simulate_one, Player, Roll};
use super::stateful::Throws;
use super::stream::{Dice, Weighted};
use super::table::RollTally;
use super::{SimOptions, Simulation};
use crate::board::{Board, ChoiceRule, Square};
use crate::choice::{Choice, NodeKey, PolicyModel};
use crate::game::{nudge, roll, roll_deciding, RollLaw, RollOutcome};

/// A pick among a roll's outcomes.
struct Law {
    pick: Weighted,
    outcomes: Vec<RollOutcome>,
}

impl Law {
    fn new(law: &RollLaw) -> Law {
        Law {
            pick: Weighted::new(law.branches().iter().map(|(w, _)| *w)),
            outcomes: law.branches().iter().map(|(_, o)| *o).collect(),
        }
    }

    fn draw(&self, dice: &mut Dice) -> RollOutcome {
        self.outcomes[self.pick.pick(dice)]
    }
}

/// Everything a game needs, drawn up once.
struct PolicyPlayer<'a> {
    board: &'a Board,
    model: &'a PolicyModel<'a>,
    /// The throws of each die of `choose_die` (by faces), or of the board's dice under the key 0.
    throws: Vec<(u32, Throws)>,
    /// The faces of one of the board's dice (for `pick`).
    face: Weighted,
    /// The largest sum thrown: `rolls[s * (max_sum + 1) + v]` is the roll of sum v from s.
    max_sum: u32,
    rolls: Vec<Option<Law>>,
    /// `nudges[2 s + heads]`: the coin's nudge from s.
    nudges: Vec<Option<Law>>,
}

impl<'a> PolicyPlayer<'a> {
    fn new(board: &'a Board, model: &'a PolicyModel<'a>) -> PolicyPlayer<'a> {
        let mut throws = vec![(0, Throws::of(board.dice()))];
        if let ChoiceRule::ChooseDie(dice) = &model.game().rule {
            for d in dice {
                throws.push((d.faces(), Throws::of(d)));
            }
        }
        let max_sum = throws
            .iter()
            .flat_map(|(_, t)| t.throws().iter().map(|t| t.sum))
            .max()
            .unwrap_or(1);
        let squares = board.size() as usize + 1;
        let mut rolls: Vec<Option<Law>> = (0..squares * (max_sum as usize + 1))
            .map(|_| None)
            .collect();
        let mut nudges: Vec<Option<Law>> = (0..2 * squares).map(|_| None).collect();
        for &s in &model.game().squares {
            for v in 1..=max_sum {
                let law = match model.game().rule {
                    ChoiceRule::Decline(_) => roll_deciding(board, s, v, |x| model.takes(x)),
                    _ => roll(board, s, v),
                };
                rolls[s as usize * (max_sum as usize + 1) + v as usize] = Some(Law::new(&law));
            }
            if model.game().rule == ChoiceRule::Coin {
                for heads in [true, false] {
                    nudges[2 * s as usize + usize::from(heads)] =
                        Some(Law::new(&nudge(board, s, heads)));
                }
            }
        }
        PolicyPlayer {
            board,
            model,
            throws,
            face: Weighted::new(board.dice().weights().iter().copied()),
            max_sum,
            rolls,
            nudges,
        }
    }

    /// The throws of the die with `faces` faces (0: the board's dice).
    fn throws(&self, faces: u32) -> &Throws {
        &self
            .throws
            .iter()
            .find(|(f, _)| *f == faces)
            .expect("a die of the rule")
            .1
    }

    /// The roll of sum `v` from `s`.
    fn law(&self, s: Square, v: u32) -> &Law {
        self.rolls[s as usize * (self.max_sum as usize + 1) + v as usize]
            .as_ref()
            .expect("a square and a sum of the game")
    }

    /// One turn from `s`: its roll (the face moved, the outcome).
    fn roll(&self, s: Square, dice: &mut Dice) -> Roll {
        let roll = |v: u32, dice: &mut Dice| (v, self.law(s, v).draw(dice));
        let (v, o) = match &self.model.game().rule {
            ChoiceRule::ChooseDie(_) => {
                let Choice::Die(f) = self.model.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_die chooses dice")
                };
                let v = self.throws(f).draw(dice).sum;
                roll(v, dice)
            }
            ChoiceRule::ChooseFace => {
                let Choice::Face(v) = self.model.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_face chooses faces")
                };
                roll(v, dice)
            }
            ChoiceRule::Pick(k) => {
                let mut shown: Vec<u32> =
                    (0..*k).map(|_| self.face.pick(dice) as u32 + 1).collect();
                shown.sort_unstable();
                shown.dedup();
                let Choice::Face(v) = self.model.choice(&NodeKey::Shown(s, shown)) else {
                    unreachable!("pick chooses faces")
                };
                roll(v, dice)
            }
            ChoiceRule::Decline(_) => {
                let v = self.throws(0).draw(dice).sum;
                roll(v, dice)
            }
            ChoiceRule::Coin => {
                let v = self.throws(0).draw(dice).sum;
                let (v, o) = roll(v, dice);
                if o.to == self.board.size()
                    || self.model.choice(&NodeKey::After(o.to)) == Choice::Keep
                {
                    (v, o)
                } else {
                    let heads = dice.uniform(2, 0) == 0;
                    let f = self.nudges[2 * o.to as usize + usize::from(heads)]
                        .as_ref()
                        .expect("a square of the game")
                        .draw(dice);
                    let mut tally = RollTally::of(&o);
                    tally.add(&RollTally::of(&f));
                    return Roll {
                        sum: v,
                        from: s,
                        to: f.to,
                        tally,
                        ..Roll::default()
                    };
                }
            }
        };
        Roll {
            sum: v,
            from: s,
            to: o.to,
            tally: RollTally::of(&o),
            ..Roll::default()
        }
    }
}

/// A player who follows the policy: one roll per turn.
impl Player for PolicyPlayer<'_> {
    type State = Square;
    type Shared = ();
    type Scratch = ();

    fn start(&self) -> Square {
        self.board.rules().start
    }

    fn square(&self, s: &Square) -> Square {
        *s
    }

    fn is_final(&self, s: &Square) -> bool {
        *s == self.board.size()
    }

    fn turn(&self, s: Square, dice: &mut Dice, _: &mut (), seen: &mut impl FnMut(&Roll)) -> Square {
        let roll = self.roll(s, dice);
        seen(&roll);
        roll.to
    }
}

/// Plays `options.games` games of the policy of `model` on `board` (one roll per turn) with
/// rayon's current thread pool; `progress` is called with the games of each finished chunk.
pub fn simulate_policy(
    board: &Board,
    model: &PolicyModel<'_>,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    let (sim, _) = simulate_one(&PolicyPlayer::new(board, model), options, 0, progress);
    sim
}
