//! A player who follows a fixed policy: the game with choices becomes an ordinary turn chain
//! over squares ([`PolicyModel`], a [`TurnModel`]), so every analysis of a chain (`expect`,
//! `distribution`, `shortest`, `check`) answers for that player.
//!
//! # Method
//!
//! The turn from square s is enumerated again from the rules ([`crate::game::roll`] and
//! [`crate::game::nudge`]), not from the [`Game`]'s merged weights: each throw of the dice
//! (for `choose_die` the die the policy picks; for `pick` the faces shown), each outcome of the
//! roll, and for `coin` the policy's keep or flip where the roll put the token and then each
//! side of the coin; for `decline` each throw of the dice, the policy taking or declining each
//! jump offered where it comes ([`crate::game::roll_deciding`]). Each branch keeps its probability, its faces, the squares it passed and
//! what it took (snakes, ladders, squares climbed and slid), so the chain has the rewards and
//! the `shortest` witnesses of an ordinary board. A turn is one roll.

use std::collections::BTreeMap;

use num_rational::BigRational;
use num_traits::Zero;

use super::{shown, Choice, Game, NodeKey, Policy};
use crate::analysis::shortest::TurnRolls;
use crate::board::{Board, ChoiceRule, Square};
use crate::chain::{Chain, Turn, TurnModel, TurnRewards};
use crate::game::{nudge, roll, roll_deciding, RollLaw, RollOutcome};

/// One way a turn can go under the policy.
#[derive(Clone, Debug)]
pub struct Branch {
    /// Its probability.
    pub p: BigRational,
    /// The faces (or the throw's sum with several dice) that made it.
    pub faces: Vec<u32>,
    /// The square after the roll, and with the coin flipped, the square after the flip.
    pub squares: Vec<Square>,
    /// Snakes, ladders, climbed and slid, summed over the roll and the flip.
    pub took: [u32; 4],
}

impl Branch {
    /// Where the turn ends.
    pub fn to(&self) -> Square {
        *self.squares.last().expect("a square")
    }
}

/// The single-player game of a board with a choice rule, played by a fixed policy.
#[derive(Clone, Debug)]
pub struct PolicyModel<'a> {
    board: &'a Board,
    game: &'a Game,
    /// The policy's choice in each slot of the game's nodes ([`Game`]'s places).
    choices: Vec<Option<Choice>>,
}

fn q(n: u64, d: u64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn took(o: &RollOutcome) -> [u32; 4] {
    [o.snakes, o.ladders, o.climbed, o.slid]
}

impl<'a> PolicyModel<'a> {
    /// The game of `board` (whose [`Game`] is `game`) played by `policy`.
    pub fn new(board: &'a Board, game: &'a Game, policy: &'a Policy) -> PolicyModel<'a> {
        let mut choices = vec![None; game.places.node.len()];
        for (node, &a) in game.nodes.iter().zip(policy) {
            choices[game.places.slot(&node.key)] = Some(node.actions[a].choice);
        }
        PolicyModel {
            board,
            game,
            choices,
        }
    }

    /// The decision process the policy is played on.
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The chain of the squares the policy reaches from the start.
    pub fn chain(&self) -> Chain<Square> {
        Chain::build(self)
    }

    /// The policy's choice at the node the player sees as `key`.
    #[inline]
    pub fn choice(&self, key: &NodeKey) -> Choice {
        self.choices[self.game.places.slot(key)].expect("a node of the game")
    }

    /// The branches of one roll: `p` times each outcome of `law`, after `faces`.
    fn rolled(&self, p: &BigRational, faces: Vec<u32>, law: &RollLaw, out: &mut Vec<Branch>) {
        for &(w, o) in law.branches() {
            out.push(Branch {
                p: p * q(w, law.total()),
                faces: faces.clone(),
                squares: vec![o.to],
                took: took(&o),
            });
        }
    }

    /// Every way the turn from `s` can go under the policy.
    pub fn branches(&self, s: Square) -> Vec<Branch> {
        let board = self.board;
        let mut out = Vec::new();
        match &self.game.rule {
            ChoiceRule::ChooseDie(dice) => {
                let Choice::Die(f) = self.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_die chooses dice")
                };
                let d = dice.iter().find(|d| d.faces() == f).expect("a listed die");
                for t in d.throws() {
                    let p = q(t.weight, d.total());
                    self.rolled(&p, vec![t.sum], &roll(board, s, t.sum), &mut out);
                }
            }
            ChoiceRule::ChooseFace => {
                let Choice::Face(v) = self.choice(&NodeKey::Before(s)) else {
                    unreachable!("choose_face chooses faces")
                };
                self.rolled(&q(1, 1), vec![v], &roll(board, s, v), &mut out);
            }
            ChoiceRule::Pick(k) => {
                let weights = board.dice().weights();
                let total = weights.iter().sum::<u64>().pow(*k);
                for (faces, w) in shown(weights, *k) {
                    let Choice::Face(v) = self.choice(&NodeKey::Shown(s, faces.clone())) else {
                        unreachable!("pick chooses faces")
                    };
                    self.rolled(&q(w, total), vec![v], &roll(board, s, v), &mut out);
                }
            }
            ChoiceRule::Coin => self.coin_branches(s, &mut out),
            ChoiceRule::Decline(_) => {
                let dice = board.dice();
                for t in dice.throws() {
                    let law = roll_deciding(board, s, t.sum, |x| self.takes(x));
                    self.rolled(&q(t.weight, dice.total()), vec![t.sum], &law, &mut out);
                }
            }
        }
        out
    }

    /// Whether the policy takes the declinable jump on `square` when it is offered (`decline`;
    /// a square no throw of the game offers has no choice, and takes).
    pub fn takes(&self, square: Square) -> bool {
        let slot = self.game.places.slot(&NodeKey::Offered(square));
        self.choices.get(slot).copied().flatten() != Some(Choice::Decline)
    }

    /// The coin's turn: the roll, then keep or flip where it put the token.
    fn coin_branches(&self, s: Square, out: &mut Vec<Branch>) {
        let (board, n) = (self.board, self.board.size());
        let dice = board.dice();
        let mut rolled = Vec::new();
        for t in dice.throws() {
            self.rolled(
                &q(t.weight, dice.total()),
                vec![t.sum],
                &roll(board, s, t.sum),
                &mut rolled,
            );
        }
        for b in rolled {
            let at = b.to();
            if at == n || self.choice(&NodeKey::After(at)) == Choice::Keep {
                out.push(b);
                continue;
            }
            for heads in [true, false] {
                let law = nudge(board, at, heads);
                for &(w, o) in law.branches() {
                    let mut sum = b.took;
                    for (x, y) in sum.iter_mut().zip(took(&o)) {
                        *x += y;
                    }
                    out.push(Branch {
                        p: &b.p * q(w, 2 * law.total()),
                        faces: b.faces.clone(),
                        squares: vec![at, o.to],
                        took: sum,
                    });
                }
            }
        }
    }

    /// One turn from `from` to `to` under the policy (the first branch that goes there).
    pub fn witness(&self, from: Square, to: Square) -> Option<TurnRolls> {
        self.branches(from)
            .into_iter()
            .find(|b| b.to() == to)
            .map(|b| TurnRolls {
                from,
                rolls: b.faces,
                squares: b.squares,
            })
    }
}

impl TurnModel for PolicyModel<'_> {
    type State = Square;

    fn start(&self) -> Square {
        self.board.rules().start
    }

    fn is_final(&self, state: &Square) -> bool {
        *state == self.board.size()
    }

    fn turn(&self, state: &Square) -> Turn<Square> {
        let mut next: BTreeMap<Square, BigRational> = BTreeMap::new();
        let mut sums = [BigRational::zero(), BigRational::zero()];
        let mut rewards = TurnRewards {
            rolls: q(1, 1),
            ..TurnRewards::default()
        };
        let mut climbed_slid = sums.clone();
        for b in self.branches(*state) {
            let [snakes, ladders, climbed, slid] =
                b.took.map(|x| BigRational::from_integer(x.into()));
            sums[0] += &b.p * snakes;
            sums[1] += &b.p * ladders;
            climbed_slid[0] += &b.p * climbed;
            climbed_slid[1] += &b.p * slid;
            *next.entry(b.to()).or_insert_with(BigRational::zero) += b.p;
        }
        let [snakes, ladders] = sums;
        let [climbed, slid] = climbed_slid;
        rewards.snakes = snakes;
        rewards.ladders = ladders;
        rewards.climbed = climbed;
        rewards.slid = slid;
        Turn {
            next: next.into_iter().filter(|(_, p)| !p.is_zero()).collect(),
            rewards,
            // Choice rules need roll_again = "none": one roll, so the turn always ends.
            endless: false,
        }
    }
}
