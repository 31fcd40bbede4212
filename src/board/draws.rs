//! Squares with a random destination: chance squares (`[[chance]]`, a jump whose end is drawn
//! with integer weights) and seed 002's random tiles (`[tiles]`, every plain square drawn afresh
//! as a snake, a ladder or nothing each time a roll lands on it). The rules are in
//! docs/model.md; [`crate::game::roll`] applies them.

use std::fmt;

use serde::Serialize;

use super::dice::gcd;
use super::Square;

/// A chance square: a move that lands on `at` goes to one of `to` with probability
/// `weight / total`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Chance {
    /// The square that draws.
    pub at: Square,
    /// Each destination with its weight (positive weights only, in file order).
    pub to: Vec<(Square, u64)>,
    /// The sum of the weights.
    pub total: u64,
}

/// An exact probability `numer / denom`, reduced, between 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probability {
    numer: u64,
    denom: u64,
}

/// The largest denominator a probability may have (keeps exact work in machine words).
pub const MAX_DENOMINATOR: u64 = 1 << 20;

impl Probability {
    /// `numer / denom`, if it is a probability with a denominator up to `MAX_DENOMINATOR`
    /// once reduced.
    pub fn new(numer: u64, denom: u64) -> Option<Probability> {
        if denom == 0 || numer > denom {
            return None;
        }
        let g = gcd(numer, denom).max(1);
        let (numer, denom) = (numer / g, denom / g);
        (denom <= MAX_DENOMINATOR).then_some(Probability { numer, denom })
    }

    /// Parses `"a/b"` or a decimal such as `"0.1"` (read exactly: 1/10).
    ///
    /// # Errors
    ///
    /// A message saying what is wrong and what is accepted.
    pub fn parse(text: &str) -> Result<Probability, String> {
        let bad = || {
            format!(
                "{text:?} is not a probability: expected a fraction \"a/b\" or a decimal \"0.1\" \
                 between 0 and 1 (denominator at most {MAX_DENOMINATOR})"
            )
        };
        let t = text.trim();
        if t.is_empty() || t == "." {
            return Err(bad());
        }
        let (numer, denom) = match t.split_once('/') {
            Some((a, b)) => (
                a.trim().parse::<u64>().map_err(|_| bad())?,
                b.trim().parse::<u64>().map_err(|_| bad())?,
            ),
            None => {
                let (int, frac) = t.split_once('.').unwrap_or((t, ""));
                if frac.len() > 6 || !frac.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                let int: u64 = if int.is_empty() {
                    0
                } else {
                    int.parse().map_err(|_| bad())?
                };
                let scale = 10u64.pow(frac.len() as u32);
                let frac_value: u64 = if frac.is_empty() {
                    0
                } else {
                    frac.parse().map_err(|_| bad())?
                };
                let numer = int
                    .checked_mul(scale)
                    .and_then(|v| v.checked_add(frac_value))
                    .ok_or_else(bad)?;
                (numer, scale)
            }
        };
        Probability::new(numer, denom).ok_or_else(bad)
    }

    /// The numerator (reduced).
    pub fn numer(&self) -> u64 {
        self.numer
    }

    /// The denominator (reduced).
    pub fn denom(&self) -> u64 {
        self.denom
    }

    /// True for 0.
    pub fn is_zero(&self) -> bool {
        self.numer == 0
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

impl Serialize for Probability {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Seed 002's random tiles: a roll that lands on a plain square draws it as a snake (moving
/// `length` back, only on squares above `length`), a ladder (`length` forward, at most to the
/// finish) or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Tiles {
    /// How far a snake or ladder tile moves the token (f).
    pub length: u32,
    /// The chance that a square is a snake head (p).
    pub snake: Probability,
    /// The chance that a square is a ladder foot (q).
    pub ladder: Probability,
}

impl Tiles {
    /// Tiles of `length` squares, a snake with chance `snake` and a ladder with chance `ladder`
    /// (validation, or the generator, checks that they are a law).
    pub fn new(length: u32, snake: Probability, ladder: Probability) -> Tiles {
        Tiles {
            length,
            snake,
            ladder,
        }
    }
}

/// The law of one tile draw on a square, over a common denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TileDraw {
    /// Weight of a snake tile.
    pub snake: u64,
    /// Weight of a ladder tile.
    pub ladder: u64,
    /// Weight of a plain square.
    pub plain: u64,
    /// The common denominator (the sum of the three weights).
    pub total: u64,
}

impl Tiles {
    /// The common denominator of p and q.
    pub fn denominator(&self) -> u64 {
        let (a, b) = (self.snake.denom, self.ladder.denom);
        a / gcd(a, b) * b
    }

    /// The draw on square `t` (snakes only above `length`).
    pub fn draw(&self, t: Square) -> TileDraw {
        let d = self.denominator();
        let snake = if t > self.length {
            self.snake.numer * (d / self.snake.denom)
        } else {
            0
        };
        let ladder = self.ladder.numer * (d / self.ladder.denom);
        TileDraw {
            snake,
            ladder,
            plain: d - snake - ladder,
            total: d,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_parse_as_fractions_or_exact_decimals() {
        assert_eq!(
            Probability::parse("1/10"),
            Ok(Probability::new(1, 10).unwrap())
        );
        assert_eq!(
            Probability::parse("0.1"),
            Ok(Probability::new(1, 10).unwrap())
        );
        assert_eq!(Probability::parse("2/4").unwrap().to_string(), "1/2");
        assert_eq!(Probability::parse("0.125").unwrap().to_string(), "1/8");
        assert_eq!(Probability::parse("1").unwrap().to_string(), "1");
        assert_eq!(Probability::parse("0").unwrap().to_string(), "0");
        for bad in ["1.5", "3/2", "x", "1/0", "-1/2", "0.1.2", ""] {
            assert!(Probability::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_tile_draw_has_no_snake_on_the_low_squares() {
        // p = 1/10, q = 1/5, f = 10: on square 11, 1 + 2 + 7 out of 10; on square 10, 0 + 2 + 8.
        let tiles = Tiles {
            length: 10,
            snake: Probability::new(1, 10).unwrap(),
            ladder: Probability::new(1, 5).unwrap(),
        };
        assert_eq!(
            tiles.draw(11),
            TileDraw {
                snake: 1,
                ladder: 2,
                plain: 7,
                total: 10
            }
        );
        assert_eq!(tiles.draw(10).snake, 0);
        assert_eq!(tiles.draw(10).plain, 8);
    }
}
