//! The capability record of a game: what its rules allow, read once from the board, for the
//! fast routes that only serve some games (the lockstep simulator, the roll-level solve, turns
//! summed square by square, the per-square answers). A fast route asks the record, not the
//! rule variants (`RollAgain::`) or the board's flags, so a new rule changes what the record
//! says in this one file and every fast route follows.

use crate::board::{Board, RollAgain};

/// What a game's rules allow, as the fast routes ask it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// One fair die: every face equally likely, one throw one face.
    pub single_fair_die: bool,
    /// Every roll decided by its throw: no chance square, no tile (one outcome per throw).
    pub deterministic: bool,
    /// The square is the player's whole state: no one-use jump, point square, lost or extra
    /// turn.
    pub stateless: bool,
    /// A top throw grants another roll in the same turn (`roll_again` unlimited or K).
    pub rolls_again: bool,
    /// The K-th top throw in a row forfeits the turn (`roll_again = K`): a turn's rolls then
    /// depend on the streak and on where the turn began. `None` when no throw forfeits.
    pub forfeit_after: Option<u32>,
    /// Some square grants one more roll (an extra-turn square).
    pub extra_rolls: bool,
}

impl Capabilities {
    /// The record of `board`'s game.
    pub fn of(board: &Board) -> Capabilities {
        let roll_again = board.rules().roll_again;
        Capabilities {
            single_fair_die: board.dice().is_single_fair(),
            deterministic: board.is_deterministic(),
            stateless: !board.is_stateful(),
            rolls_again: roll_again != RollAgain::None,
            forfeit_after: match roll_again {
                RollAgain::Forfeit(k) => Some(k),
                RollAgain::None | RollAgain::Unlimited => None,
            },
            extra_rolls: !board.extra_turn_squares().is_empty(),
        }
    }

    /// Every turn is one roll: no roll-again and no extra-turn square.
    pub fn one_roll_turns(&self) -> bool {
        !self.rolls_again && !self.extra_rolls
    }

    /// No throw forfeits: the rest of a turn after a roll that goes on is a fresh turn from
    /// where that roll ended (nothing counted, nothing sent back to the turn's start).
    pub fn memoryless_turns(&self) -> bool {
        self.forfeit_after.is_none()
    }

    /// Top throws roll again without limit (`roll_again = "unlimited"`): a turn can be any
    /// number of rolls, each rest of it a fresh turn.
    pub fn rolls_again_unlimited(&self) -> bool {
        self.rolls_again && self.memoryless_turns()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;
    use crate::test_util::board;

    #[test]
    fn the_built_in_boards_say_what_their_rules_are() {
        // efi: one d6, a six rolls again without limit (seed 000), nothing else.
        let efi = Capabilities::of(&builtin("efi").unwrap());
        assert!(efi.single_fair_die && efi.deterministic && efi.stateless);
        assert!(efi.rolls_again_unlimited() && !efi.one_roll_turns());
        // Milton Bradley: one d6 (boards/milton-bradley.toml), one roll a turn.
        let mb = Capabilities::of(&builtin("milton-bradley").unwrap());
        assert!(mb.single_fair_die && mb.one_roll_turns() && mb.memoryless_turns());
        // seed 003's board remembers what was used up and eaten.
        assert!(!Capabilities::of(&builtin("seed-003").unwrap()).stateless);
    }

    #[test]
    fn a_forfeit_rule_and_an_extra_turn_square_are_read() {
        let forfeit = Capabilities::of(&board("size = 10\n[rules]\nroll_again = 3\n"));
        assert_eq!(forfeit.forfeit_after, Some(3));
        assert!(forfeit.rolls_again && !forfeit.rolls_again_unlimited());
        let extra = Capabilities::of(&board("size = 10\nextra_turn = [4]\n"));
        assert!(extra.extra_rolls && !extra.one_roll_turns() && !extra.stateless);
        let chance = board("size = 10\n[[chance]]\nat = 3\nto = [[1, 1], [5, 1]]\n");
        assert!(!Capabilities::of(&chance).deterministic);
        let two = Capabilities::of(&board("size = 20\n[rules]\ndice = 2\n"));
        assert!(!two.single_fair_die);
    }
}
