//! One player on a board whose state is more than a square (seed 003 and popular editions):
//! one-use jumps that break once taken, point squares eaten the first time a move ends there,
//! squares that cost the next turn or give one more roll. The state remembers what has been
//! used up and eaten and whether a turn is owed (lost, or spent following a jump under
//! `jump_takes_turn`); the roll is [`super::roll_with`] and the turn the one turn machine, like
//! every other game.
//!
//! [`StatefulBoard::for_turns`] is the same game with the eaten point squares forgotten: an
//! eaten apple changes no move (point squares are never on a jump or a chance square, and the
//! effects of a landing do not depend on what was eaten), so the chain whose state drops them is
//! the lumped chain of the full one (Kemeny and Snell, *Finite Markov Chains*, theorem 6.3.2):
//! from every full state its turn law, summed over the states that differ only in what was
//! eaten, is the lumped state's. The law of T and every reward but the points are the same on
//! both, on up to 2^(point squares) times fewer states.

use std::fmt::Debug;
use std::hash::Hash;

use super::roll::jump_turn;
use super::{roll_with, Branches, Progress, RollGame, RollOutcome};
use crate::board::{Board, Dice, RollAgain, Square};

/// One player's state between turns as the per-square answers see it: the square its token
/// stands on (the projection), whether nothing else is remembered, and what a turn changed.
/// A square is such a state ([`super::SingleBoard`]); so is a [`PlayerState`].
pub trait OnSquare: Clone + Eq + Hash + Ord + Debug {
    /// The square the token stands on.
    fn square(&self) -> Square;
    /// True when the state remembers nothing but its square (nothing used up, eaten or owed):
    /// the states per-square answers speak of.
    fn is_fresh(&self) -> bool;
    /// What a turn from `self` to `after` did besides moving, in words (the one-use jumps it
    /// broke, the point squares it ate, a turn it lost); none on a board that remembers nothing.
    fn turn_events(&self, _board: &Board, _after: &Self) -> Vec<String> {
        Vec::new()
    }
}

impl OnSquare for Square {
    fn square(&self) -> Square {
        *self
    }

    fn is_fresh(&self) -> bool {
        true
    }
}

impl OnSquare for PlayerState {
    fn square(&self) -> Square {
        self.square
    }

    fn is_fresh(&self) -> bool {
        self.progress == Progress::default() && !self.owed
    }

    fn turn_events(&self, board: &Board, after: &PlayerState) -> Vec<String> {
        let (a, b) = (self, after);
        let mut out = Vec::new();
        let used = b.progress.used & !a.progress.used;
        for (i, &sq) in board.once_squares().iter().enumerate() {
            if used >> i & 1 == 1 {
                let kind = if board.jump_from(sq).is_some_and(|to| to > sq) {
                    "ladder"
                } else {
                    "snake"
                };
                out.push(format!("breaks the {kind} on {sq}"));
            }
        }
        let eaten = b.progress.eaten & !a.progress.eaten;
        for (i, &(sq, points)) in board.point_squares().iter().enumerate() {
            if eaten >> i & 1 == 1 {
                out.push(format!("eats the point square {sq} ({points:+})"));
            }
        }
        // Under jump_takes_turn a turn owed on a jump's start is the jump's own turn, which the
        // witness shows (no roll, the token moved).
        let jump_turn = board.rules().jump_takes_turn && board.jump_from(b.square).is_some();
        if b.owed && !a.owed && !jump_turn {
            out.push(format!("loses its next turn on {}", b.square));
        }
        out
    }
}

/// A player's state on a stateful board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerState {
    /// The square the token stands on.
    pub square: Square,
    /// One-use jumps used up and point squares eaten so far.
    pub progress: Progress,
    /// True when the player's next turn has no roll: it is skipped (a lost-turn square was
    /// reached) or, under `jump_takes_turn`, spent following the jump the token stopped on (a
    /// turn cannot end owing both: validation refuses such boards).
    pub owed: bool,
}

/// One player on a stateful board.
#[derive(Clone, Copy, Debug)]
pub struct StatefulBoard<'a> {
    board: &'a Board,
    /// False for [`StatefulBoard::for_turns`]: eaten point squares are forgotten.
    scores: bool,
}

impl<'a> StatefulBoard<'a> {
    /// The single-player stateful game of `board`.
    pub fn new(board: &'a Board) -> StatefulBoard<'a> {
        StatefulBoard {
            board,
            scores: true,
        }
    }

    /// The same game with the eaten point squares forgotten (the state keeps `eaten = 0` and no
    /// roll scores): the lumped chain for the law of T and every reward but the points (see the
    /// module documentation). Not for the score.
    pub fn for_turns(board: &'a Board) -> StatefulBoard<'a> {
        StatefulBoard {
            board,
            scores: false,
        }
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The state the game begins in: the board's start, nothing used up, eaten or owed.
    pub fn start(&self) -> PlayerState {
        PlayerState {
            square: self.board.rules().start,
            progress: Progress::default(),
            owed: false,
        }
    }

    /// The points of a roll that ate a point square.
    pub fn points(&self, outcome: &RollOutcome) -> i64 {
        if !self.scores {
            return 0;
        }
        match outcome.eats {
            0 => 0,
            i => self.board.point_squares()[usize::from(i) - 1].1,
        }
    }

    /// The state after a roll from `state` that did `o`. A finished game keeps only what was
    /// eaten (the score), so the final states are one per set of eaten squares.
    fn after(&self, state: &PlayerState, o: &RollOutcome) -> PlayerState {
        let eaten = match o.eats {
            _ if !self.scores => 0,
            0 => state.progress.eaten,
            i => state.progress.eaten | 1 << (i - 1),
        };
        if o.to == self.board.size() {
            return PlayerState {
                square: o.to,
                progress: Progress { used: 0, eaten },
                owed: false,
            };
        }
        PlayerState {
            square: o.to,
            progress: Progress {
                used: o.used,
                eaten,
            },
            owed: state.owed || o.lose_turn || o.pending,
        }
    }
}

impl RollGame for StatefulBoard<'_> {
    type State = PlayerState;

    fn dice(&self, _: &PlayerState) -> &Dice {
        self.board.dice()
    }

    fn roll_again(&self, _: &PlayerState) -> RollAgain {
        self.board.rules().roll_again
    }

    fn is_final(&self, state: &PlayerState) -> bool {
        state.square == self.board.size()
    }

    fn roll_into(&self, state: &PlayerState, sum: u32, out: &mut Branches<PlayerState>) -> u64 {
        // A roll decided by its throw builds its law without allocating (RollLaw::sure).
        let law = roll_with(self.board, state.progress, state.square, sum);
        out.clear();
        out.extend(
            law.branches()
                .iter()
                .map(|(w, o)| (*w, self.after(state, o), *o)),
        );
        law.total()
    }

    fn points(&self, outcome: &RollOutcome) -> i64 {
        StatefulBoard::points(self, outcome)
    }

    /// Back to where the turn began; what was used up, eaten or owed on the way stays.
    fn forfeit(&self, began: &PlayerState, now: &PlayerState) -> PlayerState {
        PlayerState {
            square: began.square,
            ..*now
        }
    }

    fn end_turn(&self, state: PlayerState) -> PlayerState {
        state
    }

    /// An owed turn: the jump the token stopped on followed (`jump_takes_turn`), or the lost
    /// turn skipped.
    fn skip(&self, state: &PlayerState) -> Option<PlayerState> {
        if !state.owed {
            return None;
        }
        let paid = PlayerState {
            owed: false,
            ..*state
        };
        if !self.board.rules().jump_takes_turn {
            return Some(paid);
        }
        let at = RollOutcome {
            to: state.square,
            used: state.progress.used,
            ..RollOutcome::default()
        };
        Some(match jump_turn(self.board, at) {
            Some(jumped) => self.after(&paid, &jumped),
            None => paid,
        })
    }
}
