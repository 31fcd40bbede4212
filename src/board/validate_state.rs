//! Validation of the squares that give a player's state a memory or act on turns (seed 003 and
//! popular editions): one-use jumps (`once`), point squares (`points`), lost turns
//! (`lose_turn`), extra turns (`extra_turn`), and the board's drawn row length (`columns`).
//! Every problem is added to the list, as in [`super::validate`].

use std::collections::{BTreeMap, BTreeSet};

use super::{BoardSpec, Problem, Square, StateSquares};

/// The most one-use jumps, and the most point squares, a board may have (each is a bit of the
/// player's state).
pub const MAX_STATE_SQUARES: usize = 64;
/// The largest number of points on one square, either sign.
pub const MAX_POINTS: i64 = 1_000_000_000;

/// Checks the state squares of `spec` against the squares where jumps start and the chance
/// squares, and builds their tables.
pub(super) fn state_squares(
    spec: &BoardSpec,
    size: Square,
    jumps_from: &BTreeMap<i64, impl Sized>,
    chance_at: &BTreeSet<i64>,
    problems: &mut Vec<Problem>,
) -> StateSquares {
    // Problems are reported in this order: the row length first.
    let columns = columns(spec, size, problems);
    let plain = Plain {
        size,
        jumps_from,
        chance_at,
    };
    let once = once_squares(spec, jumps_from, problems);
    let points = point_squares(spec, &plain, problems);
    let lose = plain.flags(&spec.lose_turn, "lose_turn", problems);
    let extra = plain.flags(&spec.extra_turn, "extra_turn", problems);
    let by_square = by_square(size, &once, &points, &lose, &extra);
    StateSquares {
        columns,
        once,
        points,
        by_square,
    }
}

/// The one-use squares: each must be where a jump starts, and listed once.
fn once_squares(
    spec: &BoardSpec,
    jumps_from: &BTreeMap<i64, impl Sized>,
    problems: &mut Vec<Problem>,
) -> Vec<Square> {
    let mut once = Vec::new();
    let mut seen = BTreeSet::new();
    for o in &spec.once {
        let sq = o.value;
        if !jumps_from.contains_key(&sq) {
            problems.push(Problem::new(
                o.line,
                format!("once {sq}: no snake or ladder starts on square {sq}; `once` names the squares where one-use snakes and ladders start"),
            ));
        } else if !seen.insert(sq) {
            problems.push(Problem::new(o.line, format!("once {sq} is listed twice")));
        } else {
            once.push(sq as Square);
        }
    }
    if once.len() > MAX_STATE_SQUARES {
        problems.push(Problem::new(
            spec.once.first().and_then(|o| o.line),
            format!(
                "{} one-use jumps: at most {MAX_STATE_SQUARES} (each is remembered in the state)",
                once.len()
            ),
        ));
    }
    once
}

/// The point squares and their points: pairs, within [`MAX_POINTS`], on plain squares, each
/// listed once.
fn point_squares<J>(
    spec: &BoardSpec,
    plain: &Plain<'_, J>,
    problems: &mut Vec<Problem>,
) -> Vec<(Square, i64)> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for p in &spec.points {
        let [sq, points] = p.value.as_slice() else {
            problems.push(Problem::new(
                p.line,
                format!(
                    "points entry {} is not a pair [square, points]",
                    crate::text::echo_plain(&format!("{:?}", p.value))
                ),
            ));
            continue;
        };
        if !(-MAX_POINTS..=MAX_POINTS).contains(points) {
            problems.push(Problem::new(
                p.line,
                format!("points {points} on square {sq}: expected -{MAX_POINTS} to {MAX_POINTS}"),
            ));
        } else if plain.check("points", *sq, p.line, problems) {
            if seen.insert(*sq) {
                out.push((*sq as Square, *points));
            } else {
                problems.push(Problem::new(
                    p.line,
                    format!("points square {sq} is listed twice"),
                ));
            }
        }
    }
    if out.len() > MAX_STATE_SQUARES {
        problems.push(Problem::new(
            spec.points.first().and_then(|p| p.line),
            format!("{} point squares: at most {MAX_STATE_SQUARES}", out.len()),
        ));
    }
    out
}

/// What makes a square plain, for points and turn effects: on the board, not where a jump
/// starts, not a chance square.
struct Plain<'a, J> {
    size: Square,
    jumps_from: &'a BTreeMap<i64, J>,
    chance_at: &'a BTreeSet<i64>,
}

impl<J> Plain<'_, J> {
    /// Whether `sq` is plain; if not, the problem is added.
    fn check(&self, what: &str, sq: i64, line: Option<usize>, problems: &mut Vec<Problem>) -> bool {
        let problem = if !(1..i64::from(self.size)).contains(&sq) {
            format!(
                "{what} square {sq} is not on the board: expected 1 to {}",
                self.size - 1
            )
        } else if self.jumps_from.contains_key(&sq) {
            format!("{what} square {sq} is where a snake or ladder starts: it acts on the square a move ends on, so put it on a plain square")
        } else if self.chance_at.contains(&sq) {
            format!("{what} square {sq} is a chance square: put it on a plain square")
        } else {
            return true;
        };
        problems.push(Problem::new(line, problem));
        false
    }

    /// The squares of a list of flags (`lose_turn`, `extra_turn`): plain, each listed once.
    fn flags(
        &self,
        list: &[super::Located<i64>],
        what: &str,
        problems: &mut Vec<Problem>,
    ) -> Vec<Square> {
        let mut seen = BTreeSet::new();
        let mut squares = Vec::new();
        for x in list {
            if self.check(what, x.value, x.line, problems) {
                if seen.insert(x.value) {
                    squares.push(x.value as Square);
                } else {
                    problems.push(Problem::new(
                        x.line,
                        format!("{what} square {} is listed twice", x.value),
                    ));
                }
            }
        }
        squares
    }
}

/// The per-square table of [`StateSquares::by_square`]; empty when no square has a state effect.
fn by_square(
    size: Square,
    once: &[Square],
    points: &[(Square, i64)],
    lose: &[Square],
    extra: &[Square],
) -> Vec<(u8, u8, bool, bool)> {
    if once.is_empty() && points.is_empty() && lose.is_empty() && extra.is_empty() {
        return Vec::new();
    }
    let mut by_square = vec![(0, 0, false, false); size as usize + 1];
    for (i, &sq) in once.iter().enumerate().take(MAX_STATE_SQUARES) {
        // A one-use jump that starts past the finish is already a problem of its jump (the board
        // is refused); it has no place in the table.
        if let Some(cell) = by_square.get_mut(sq as usize) {
            cell.0 = i as u8 + 1;
        }
    }
    for (i, &(sq, _)) in points.iter().enumerate().take(MAX_STATE_SQUARES) {
        by_square[sq as usize].1 = i as u8 + 1;
    }
    for &sq in lose {
        by_square[sq as usize].2 = true;
    }
    for &sq in extra {
        by_square[sq as usize].3 = true;
    }
    by_square
}

/// `columns`, or its default: 10 for 100 squares, otherwise ceil(sqrt(size)).
fn columns(spec: &BoardSpec, size: Square, problems: &mut Vec<Problem>) -> Square {
    let default = if size == 100 {
        10
    } else {
        (1..=size).find(|w| w * w >= size).unwrap_or(size)
    };
    match &spec.columns {
        None => default,
        Some(c) if (1..=i64::from(size)).contains(&c.value) => c.value as Square,
        Some(c) => {
            problems.push(Problem::new(
                c.line,
                format!(
                    "columns {} is not a row length: expected 1 to {size}",
                    c.value
                ),
            ));
            default
        }
    }
}
