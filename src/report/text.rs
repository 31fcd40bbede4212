//! Text building blocks shared by the text reports.

use num_rational::BigRational;

use crate::board::Board;
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

/// One line describing the board's rules: the [`crate::board::Rules`], the dice, chance squares and tiles.
pub fn rules_line(board: &Board) -> String {
    let rules = board.rules();
    let start = if rules.start == 0 {
        "off the board".to_string()
    } else {
        format!("on square {}", rules.start)
    };
    let dice = board.dice();
    let die = if dice.is_fair() {
        format!("d{}", rules.die)
    } else {
        let w: Vec<String> = dice.weights().iter().map(|w| w.to_string()).collect();
        format!("d{} loaded {}", rules.die, w.join(":"))
    };
    let die = match dice.count() {
        1 => format!("{die} die"),
        k => format!("{k} {die} dice"),
    };
    let mut line = format!(
        "start {start}, overshoot {}, {die}, roll again {}, jumps {}",
        rules.overshoot,
        rules.roll_again,
        if rules.chain { "chain" } else { "do not chain" }
    );
    match board.chances().len() {
        0 => {}
        1 => line.push_str(", 1 chance square"),
        k => line.push_str(&format!(", {k} chance squares")),
    }
    if let Some(t) = board.tiles() {
        line.push_str(&format!(
            ", random tiles (length {}, snake {}, ladder {})",
            t.length, t.snake, t.ladder
        ));
    }
    line
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
