//! The game: the one model of how a game is played, between the validated [`crate::board`] and
//! the turn chain ([`crate::chain`]) (DESIGN.md sections 1, 2 and 5). `roll` what one roll
//! does from a square; [`RollGame`] a game as a state and what one roll does to it (one player
//! on a board, [`SingleBoard`] and [`StatefulBoard`], and the joint games of several players);
//! the turn machine of `turn.rs` ([`begin`], [`throw_into`]), where roll-again, forfeits, extra
//! rolls and lost turns live; and the [`Capabilities`] record the fast routes read. The
//! chain's compound move, the simulator and the witnesses all play games through it.

mod capabilities;
mod roll;
mod state;
mod turn;

use std::fmt::Debug;
use std::hash::Hash;

pub use capabilities::Capabilities;
pub use roll::{
    nudge, roll, roll_deciding, roll_to_offer, roll_with, take_offer, Progress, RollLaw,
    RollOutcome,
};
pub use state::{OnSquare, PlayerState, StatefulBoard};
pub use turn::{
    begin, next_streak, play_throw, throw_effect, throw_into, turn_step, turn_steps, InTurn, Step,
    ThrowEffect, Thrown,
};

use crate::board::{Board, Dice, RollAgain, Square};

/// The outcomes of one roll: (weight, next state, what the roll did).
pub type Branches<S> = Vec<(u64, S, RollOutcome)>;

/// A game whose turns are made of rolls: the state between rolls, and what one roll does.
pub trait RollGame {
    /// A state of the game (between rolls, and so between turns).
    type State: Clone + Eq + Hash + Ord + Debug;
    /// The dice thrown by the player to move in `state`.
    fn dice(&self, state: &Self::State) -> &Dice;
    /// The roll-again rule of the player to move in `state`.
    fn roll_again(&self, state: &Self::State) -> RollAgain;
    /// True when the game is over in `state`.
    fn is_final(&self, state: &Self::State) -> bool;
    /// One roll of a throw with sum `sum` from the non-final `state`, written into `out`
    /// (cleared first): each next state with its weight and what the roll did; returns the
    /// weights' total. The simulator reuses one `out` for all its rolls, so a roll allocates
    /// nothing.
    fn roll_into(&self, state: &Self::State, sum: u32, out: &mut Branches<Self::State>) -> u64;
    /// [`RollGame::roll_into`] into a new vector: the branches and the weights' total.
    fn roll(&self, state: &Self::State, sum: u32) -> (Branches<Self::State>, u64) {
        let mut out = Vec::new();
        let total = self.roll_into(state, sum, &mut out);
        (out, total)
    }
    /// The state after a forfeit in `now`, the turn having begun in `began`.
    fn forfeit(&self, began: &Self::State, now: &Self::State) -> Self::State;
    /// The state once a turn has ended in the non-final `state` (the next player to move).
    fn end_turn(&self, state: Self::State) -> Self::State;
    /// The points a roll scored (seed 003's apples); 0 for games without points.
    fn points(&self, _outcome: &RollOutcome) -> i64 {
        0
    }
    /// When the player to move in `state` must skip this turn (a lost turn), the state after the
    /// skipped turn; a skipped turn counts as a turn, with no roll.
    fn skip(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }
}

/// One player on one board: the state is the square the token stands on.
#[derive(Clone, Copy, Debug)]
pub struct SingleBoard<'a> {
    board: &'a Board,
}

impl<'a> SingleBoard<'a> {
    /// The single-player model of `board`.
    pub fn new(board: &'a Board) -> SingleBoard<'a> {
        SingleBoard { board }
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.board
    }
}

impl RollGame for SingleBoard<'_> {
    type State = Square;

    fn dice(&self, _: &Square) -> &Dice {
        self.board.dice()
    }

    fn roll_again(&self, _: &Square) -> RollAgain {
        self.board.rules().roll_again
    }

    fn is_final(&self, state: &Square) -> bool {
        *state == self.board.size()
    }

    fn roll_into(&self, state: &Square, sum: u32, out: &mut Branches<Square>) -> u64 {
        let law = roll(self.board, *state, sum);
        out.clear();
        out.extend(law.branches().iter().map(|(w, o)| (*w, o.to, *o)));
        law.total()
    }

    fn forfeit(&self, began: &Square, _: &Square) -> Square {
        *began
    }

    fn end_turn(&self, state: Square) -> Square {
        state
    }
}
