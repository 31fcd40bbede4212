//! Boards whose turn can go on for ever, found before any game is simulated: a simulation there
//! would never return (the turn cap counts turns, and such a turn never ends).
//!
//! A turn goes on only after a top throw (`roll_again = "unlimited"`; with `roll_again = K` the
//! K-th top throw ends it) or on an extra-turn square. With unlimited roll-again and no
//! extra-turn square, a turn can last for ever with positive probability only if the top throw
//! has probability 1 (otherwise a run of n top throws has probability P(top)^n -> 0); only then,
//! or when the board has extra-turn squares, is the one-player chain built, and its turn
//! function ([`super::compound_move`], the one definition) says which state's turn never
//! ends.

use super::{first_endless, Chain, TurnModel};
use crate::board::{Board, Square};
use crate::game::{Capabilities, StatefulBoard};

/// The square (nearest the start) where a reachable turn can go on for ever, if any.
pub fn endless_turn(board: &Board) -> Option<Square> {
    let dice = board.dice();
    let all_top = dice.throws().iter().all(|t| t.top || t.weight == 0);
    let caps = Capabilities::of(board);
    if !(caps.extra_rolls || (caps.rolls_again_unlimited() && all_top)) {
        return None;
    }
    if !caps.stateless {
        // Eaten apples change no move: the lumped game's turns are the full game's.
        let game = StatefulBoard::for_turns(board);
        first_endless(&game, TurnModel::start(&game)).map(|s| s.square)
    } else {
        Chain::for_board(board).endless_state().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::board;

    #[test]
    fn a_die_that_only_shows_its_top_face_never_ends_a_turn_that_cannot_finish() {
        // Every throw is a 6 and rolls again: 0 -> 6, then 6 + 6 = 12 overshoots 10 and stays,
        // for ever. With overshoot "allow" the second 6 finishes, so the turn ends.
        let stay = "size = 10\n[rules]\ndie = [0, 0, 0, 0, 0, 1]\nroll_again = \"unlimited\"\n";
        assert_eq!(endless_turn(&board(stay)), Some(0));
        let allow = stay.replace("unlimited\"", "unlimited\"\novershoot = \"allow\"");
        assert_eq!(endless_turn(&board(&allow)), None);
        // The third six forfeits: the turn ends.
        let forfeit = stay.replace("\"unlimited\"", "3");
        assert_eq!(endless_turn(&board(&forfeit)), None);
    }

    #[test]
    fn extra_turn_squares_that_every_roll_leads_back_to_never_end_the_turn() {
        // A coin: from 0 a roll ends on 1 (directly, or 2 -> 1 by the snake), an extra-turn
        // square; from 1 every roll ends on 1 again (2 -> 1, 3 -> 1). So the first turn, from
        // 0, never ends.
        let b = board("size = 6\nsnakes = [[2, 1], [3, 1]]\nextra_turn = [1]\n[rules]\ndie = 2\n");
        assert_eq!(endless_turn(&b), Some(0));
        // Without the extra turn the turn is one roll.
        let plain = board("size = 6\nsnakes = [[2, 1], [3, 1]]\n[rules]\ndie = 2\n");
        assert_eq!(endless_turn(&plain), None);
    }

    #[test]
    fn no_built_in_board_has_an_endless_turn() {
        for name in crate::board::builtin_names() {
            let b = builtin(name).unwrap();
            assert_eq!(endless_turn(&b), None, "{name}");
        }
    }
}
