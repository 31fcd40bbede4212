//! The heat maps of a board's picture (`ladders draw --heat`, the SVG's shading): which of the
//! façade's per-square answers a quantity is, and which route answers it (exact, or in floating
//! point above [`FLOAT_ABOVE`] squares), turned into a [`Heat`] of floats.

use crate::analysis::{Expectation, FloatExpectation};
use crate::num::decimal::{probability, to_f64};
use crate::report::draw::Heat;
use crate::text::count;
use crate::{Error, Game};

/// Above this many squares, [`HeatOf::Visits`] and [`HeatOf::Remaining`] are solved in floating
/// point: the picture shows three significant digits, far above the floats' error.
pub const FLOAT_ABOVE: u32 = 1_000;

/// A per-square quantity to shade a board's picture by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeatOf {
    /// The expected number of turns begun on the square.
    Visits,
    /// The probability that a roll's move ever ends on the square.
    Reach,
    /// The expected number of turns left from the square.
    Remaining,
    /// The probability that the token stands on the square after this many turns.
    After(u32),
    /// The likeliest game (of at most this many turns, when given): the turn that ends on the
    /// square.
    Likeliest(Option<usize>),
    /// The likeliest of the games with the fewest turns: the turn that ends on the square.
    LikeliestFewest,
}

impl Heat {
    /// A heat map named `name` (for the legend) with `values[s]` for square s (`0..=size`).
    pub fn new(name: impl Into<String>, values: Vec<Option<f64>>) -> Heat {
        Heat {
            name: name.into(),
            values,
        }
    }

    /// The heat map of `quantity` on `game`'s board.
    ///
    /// # Errors
    ///
    /// The façade's, and [`Error::Unanswerable`] where the quantity has no value to show: the
    /// remaining turns of a game that can go on for ever, the reach where it is not computed
    /// (the message starts `reach: `), a likeliest game where none ends (within the bound).
    pub fn of(game: &Game, quantity: HeatOf) -> Result<Heat, Error> {
        let board = game.board();
        if board.size() > FLOAT_ABOVE && matches!(quantity, HeatOf::Visits | HeatOf::Remaining) {
            return float_heat(game, quantity);
        }
        let mut values = vec![None; board.size() as usize + 1];
        let name = match quantity {
            HeatOf::Visits => {
                for (s, v) in game.square_visits()? {
                    values[s as usize] = Some(to_f64(&v));
                }
                "expected visits (turns begun on the square)".to_string()
            }
            HeatOf::Reach => {
                let answers = game.squares()?;
                if let Some(why) = answers.no_reach {
                    return Err(unanswerable(format!(
                        "reach: not computed on this board: {why}"
                    )));
                }
                for a in &answers.squares {
                    values[a.square as usize] = a.reach.as_ref().map(to_f64);
                }
                "probability that a move ever ends on the square".to_string()
            }
            HeatOf::Remaining => {
                let Expectation::Finite(e) = game.expect_per_square()? else {
                    return Err(endless());
                };
                for (s, v) in &e.per_square {
                    values[*s as usize] = Some(to_f64(v));
                }
                "expected remaining turns".to_string()
            }
            HeatOf::After(n) => {
                for c in game.squares_after(n as usize)?.law {
                    values[c.square as usize] = Some(to_f64(&c.p));
                }
                format!(
                    "probability of standing on the square after {}",
                    count(u64::from(n), "turn")
                )
            }
            HeatOf::Likeliest(within) => return likeliest_heat(game, false, within),
            HeatOf::LikeliestFewest => return likeliest_heat(game, true, None),
        };
        Ok(Heat::new(name, values))
    }
}

/// The question has no value to show, in words.
fn unanswerable(message: String) -> Error {
    Error::Unanswerable(message)
}

/// The remaining turns of a game that can go on for ever.
fn endless() -> Error {
    unanswerable("the game can go on forever: expected remaining turns are infinite".to_string())
}

/// The heat map of a likeliest game (`fewest`: among the fewest-turn games): each square its
/// game's turns end on shaded by the number of that turn (the later turn where a game ends two
/// turns on one square).
fn likeliest_heat(game: &Game, fewest: bool, within: Option<usize>) -> Result<Heat, Error> {
    let board = game.board();
    let Some(l) = game.likeliest(within)? else {
        return Err(unanswerable(format!(
            "{}: no game ever ends on this board",
            board.origin()
        )));
    };
    let (game, which) = if fewest {
        (
            Some(&l.fewest),
            "the likeliest of the fewest-turn games".to_string(),
        )
    } else {
        let which = match within {
            Some(n) => format!("the likeliest game of at most {n} turns"),
            None => "the likeliest game".to_string(),
        };
        (l.overall.as_ref(), which)
    };
    let Some(game) = game else {
        return Err(unanswerable(format!(
            "no game ends within {}",
            count(within.unwrap_or(0) as u64, "turn")
        )));
    };
    let mut values = vec![None; board.size() as usize + 1];
    for (k, turn) in game.turns.iter().enumerate() {
        values[turn.to() as usize] = Some((k + 1) as f64);
    }
    let name = format!(
        "turn of {which} that ends on the square ({}, probability {} = {})",
        count(game.turns.len() as u64, "turn"),
        probability(&game.probability, 6),
        game.probability
    );
    Ok(Heat::new(name, values))
}

/// The heat map of visits or remaining turns in floating point (boards above [`FLOAT_ABOVE`]).
fn float_heat(game: &Game, quantity: HeatOf) -> Result<Heat, Error> {
    let mut values = vec![None; game.board().size() as usize + 1];
    let name = if quantity == HeatOf::Visits {
        for (s, v) in game.visits_float()? {
            values[s as usize] = Some(v);
        }
        "expected visits (turns begun on the square; floats)"
    } else {
        let FloatExpectation::Finite(e) = game.expect_float(true)? else {
            return Err(endless());
        };
        for (s, v) in &e.per_square {
            values[*s as usize] = Some(*v);
        }
        "expected remaining turns (floats)"
    };
    Ok(Heat::new(name, values))
}
