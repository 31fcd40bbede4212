//! Text building blocks shared by the text reports.

use num_rational::BigRational;

use crate::board::{Board, Rules};
use crate::exact::decimal::fixed;

/// One line naming the board and where it came from.
pub fn board_line(board: &Board) -> String {
    format!(
        "{} ({}, {} squares, {} snakes, {} ladders)",
        board.name(),
        board.origin(),
        board.size(),
        board.snakes().len(),
        board.ladders().len()
    )
}

/// One line describing the rules.
pub fn rules_line(rules: &Rules) -> String {
    let start = if rules.start == 0 {
        "off the board"
    } else {
        "on square 1"
    };
    format!(
        "start {start}, overshoot {}, d{} die, roll again {}, jumps {}",
        rules.overshoot,
        rules.die,
        rules.roll_again,
        if rules.chain { "chain" } else { "do not chain" }
    )
}

/// `value` as a decimal, followed by the exact fraction when it is not an integer.
pub fn exact_text(value: &BigRational, digits: usize) -> String {
    if value.is_integer() {
        format!("{} (exact)", value.numer())
    } else {
        format!(
            "{} = {}/{}",
            fixed(value, digits),
            value.numer(),
            value.denom()
        )
    }
}
