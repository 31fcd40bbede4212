//! One player's game on a board, as the chain over the state its rules need: the square alone
//! ([`SingleBoard`], whose chain has the fast builders of [`Chain::for_board`]) or the square
//! with what the game remembers ([`StatefulBoard`]). This is the one place that picks; an
//! analysis written once, generic over the state (projected to squares by
//! [`crate::game::OnSquare`]), answers on either through `on_player_chain!` (or, building a
//! chain of its own over the game, `on_player_game!`).

use super::Chain;
use crate::board::{Board, Square};
use crate::game::{Capabilities, PlayerState, SingleBoard, StatefulBoard};

/// What a question needs remembered on a board that changes during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Every state (the score, the events of a turn, per-square answers).
    Full,
    /// The eaten point squares forgotten ([`StatefulBoard::for_turns`]: the law of T and every
    /// reward but the points, on fewer states) when the game always ends; the full state when
    /// it can go on for ever, so that the trap named is the full state's.
    Turns,
}

/// One player's game on a board and its turn chain.
pub enum PlayerChain<'a> {
    /// The square is the whole state.
    Squares(SingleBoard<'a>, Chain<Square>),
    /// The state remembers more than the square.
    States(StatefulBoard<'a>, Chain<PlayerState>),
}

impl<'a> PlayerChain<'a> {
    /// The game of `board` and its chain, remembering what `memory` asks.
    pub fn of(board: &'a Board, memory: Memory) -> PlayerChain<'a> {
        match PlayerGame::of(board) {
            PlayerGame::Squares(game) => PlayerChain::Squares(game, Chain::for_board(board)),
            PlayerGame::States(_) => {
                let (game, chain) = stateful_game(board, memory);
                PlayerChain::States(game, chain)
            }
        }
    }
}

/// One player's game on a board, without its chain (the full state when it is more than the
/// square).
pub enum PlayerGame<'a> {
    /// The square is the whole state.
    Squares(SingleBoard<'a>),
    /// The state remembers more than the square.
    States(StatefulBoard<'a>),
}

impl<'a> PlayerGame<'a> {
    /// The game of `board`.
    pub fn of(board: &'a Board) -> PlayerGame<'a> {
        match Capabilities::of(board).stateless {
            true => PlayerGame::Squares(SingleBoard::new(board)),
            false => PlayerGame::States(StatefulBoard::new(board)),
        }
    }
}

/// The game of `board` over [`PlayerState`]s (what is used up, eaten and owed) and its chain,
/// remembering what `memory` asks.
pub fn stateful_game(board: &Board, memory: Memory) -> (StatefulBoard<'_>, Chain<PlayerState>) {
    if memory == Memory::Turns {
        let game = StatefulBoard::for_turns(board);
        let chain = Chain::build(&game);
        if chain.always_ends() || board.point_squares().is_empty() {
            return (game, chain);
        }
    }
    let game = StatefulBoard::new(board);
    let chain = Chain::build(&game);
    (game, chain)
}

/// `on_player_chain!(board, memory, |game, chain| body)`: `body` evaluated on the game of
/// `board` and its chain ([`PlayerChain::of`]), `game` a `&impl RollGame` and `chain` a
/// `&Chain<_>` of its state, whichever state that is (the body is written once, generic).
macro_rules! on_player_chain {
    ($board:expr, $memory:expr, |$game:pat, $chain:ident| $body:expr) => {
        match $crate::chain::PlayerChain::of($board, $memory) {
            $crate::chain::PlayerChain::Squares(game, chain) => {
                let ($game, $chain) = (&game, &chain);
                $body
            }
            $crate::chain::PlayerChain::States(game, chain) => {
                let ($game, $chain) = (&game, &chain);
                $body
            }
        }
    };
}
pub(crate) use on_player_chain;

/// `on_player_game!(board, |game| body)`: `body` evaluated on the game of `board`
/// ([`PlayerGame::of`]), `game` a `&impl RollGame + TurnModel` of its state, whichever state
/// that is, with no chain built (for an analysis that builds a chain of its own over the game).
macro_rules! on_player_game {
    ($board:expr, |$game:pat_param| $body:expr) => {
        match $crate::chain::PlayerGame::of($board) {
            $crate::chain::PlayerGame::Squares(game) => {
                let $game = &game;
                $body
            }
            $crate::chain::PlayerGame::States(game) => {
                let $game = &game;
                $body
            }
        }
    };
}
pub(crate) use on_player_game;
