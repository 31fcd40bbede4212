//! LeetCode 909's board ("Snakes and Ladders") as a board file: an n x n grid whose squares are
//! numbered 1 to n^2 boustrophedon from the bottom left (the bottom row left to right, the row
//! above right to left, ...), where an entry is -1 (no jump) or the square a snake or ladder
//! there leads to. LeetCode's rules are `start = 1` (the token stands on square 1), one jump per
//! move at most (`chain = false`), and a move of 1 to 6 that may not pass n^2 (`overshoot =
//! "allow"`: a throw past the finish finishes, the same squares reached); its answer, the fewest
//! moves to n^2, is `ladders shortest` on the file. Sits beside [`super::format`]: text in, the
//! text of a board file out, validated as any other file.

use std::fmt::Write as _;

use super::{BoardError, Problem, MAX_SIZE};

/// The board file for the LeetCode grid in `text` (JSON: a list of n lists of n integers);
/// `origin` names the input in messages and in the file's first comment.
///
/// # Errors
///
/// The text is not such a grid, or an entry is neither -1 nor a square, or a jump starts on
/// square 1 or n^2 (LeetCode boards have none there): every problem at once, by row and column.
///
/// # Examples
///
/// ```
/// use ladders::board::Board;
/// use ladders::board::leetcode_board_file as board_file;
/// // LeetCode 909, example 2: the bottom row is squares 1, 2, the top row 4, 3; the entry 3
/// // on the bottom row's square 2 is a ladder 2 -> 3.
/// let text = board_file("[[-1,-1],[-1,3]]", "example").unwrap();
/// let board = Board::from_toml_str(&text, "example").unwrap();
/// assert_eq!(board.size(), 4);
/// assert_eq!(board.ladders().len(), 1); // square 2 -> 3
/// ```
pub fn board_file(text: &str, origin: &str) -> Result<String, BoardError> {
    let grid: Vec<Vec<i64>> = serde_json::from_str(text).map_err(|e| {
        BoardError::single(
            origin,
            Some(e.line()),
            format!(
                "not a LeetCode board: expected a JSON list of n lists of n integers, e.g. \
                 [[-1, -1], [-1, 3]] ({e})"
            ),
        )
    })?;
    let n = grid.len();
    let too_large = n * n > MAX_SIZE as usize;
    if n < 2 || too_large {
        let message = format!(
            "a LeetCode board of {n} x {n}: expected n from 2 to {} (at most {MAX_SIZE} squares)",
            (MAX_SIZE as f64).sqrt() as usize
        );
        return Err(BoardError::single(origin, None, message));
    }
    let last = (n * n) as i64;
    let mut problems = Vec::new();
    let mut snakes = Vec::new();
    let mut ladders = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        if row.len() != n {
            let message = format!(
                "row {} has {} entries: a LeetCode board is n x n, here {n} x {n}",
                r + 1,
                row.len()
            );
            problems.push(Problem::new(None, message));
            continue;
        }
        for (c, &to) in row.iter().enumerate() {
            let square = label(n, r, c);
            let place = format!("row {}, column {} (square {square})", r + 1, c + 1);
            if to == -1 || to == square {
                continue; // no jump, or a jump to its own square (it does nothing)
            }
            if !(1..=last).contains(&to) {
                problems.push(Problem::new(
                    None,
                    format!("{place}: {to} is not a square: expected -1 or 1 to {last}"),
                ));
            } else if square == 1 || square == last {
                problems.push(Problem::new(
                    None,
                    format!(
                        "{place}: a jump starts on square {square}; LeetCode boards have none on \
                         square 1 or on the finish"
                    ),
                ));
            } else if to < square {
                snakes.push((square, to));
            } else {
                ladders.push((square, to));
            }
        }
    }
    if !problems.is_empty() {
        return Err(BoardError::new(origin, problems));
    }
    snakes.sort_unstable();
    ladders.sort_unstable();
    Ok(write_file(origin, n, &snakes, &ladders))
}

/// The square of row `r` (from the top) and column `c` (from the left) of an n x n LeetCode
/// grid: rows are numbered from the bottom, left to right on the bottom row, then alternating.
fn label(n: usize, r: usize, c: usize) -> i64 {
    let from_bottom = n - 1 - r;
    let along = if from_bottom % 2 == 0 { c } else { n - 1 - c };
    (from_bottom * n + along + 1) as i64
}

fn write_file(origin: &str, n: usize, snakes: &[(i64, i64)], ladders: &[(i64, i64)]) -> String {
    let pairs = |list: &[(i64, i64)]| {
        let items: Vec<String> = list.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
        format!("[{}]", items.join(", "))
    };
    let mut out = String::new();
    let origin = crate::text::printable(origin);
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "# A LeetCode 909 board, read from {origin}.\n\
         # Squares are numbered boustrophedon from the bottom left. LeetCode's rules: the token\n\
         # starts on square 1, takes at most one jump per move,\n\
         # and moves 1 to 6 squares, never past the finish. `ladders shortest` gives LeetCode's\n\
         # answer (the fewest moves), the other commands the odds with a fair die."
    );
    let _ = writeln!(out, "name = \"LeetCode board ({n} x {n})\"");
    let _ = writeln!(out, "size = {}", n * n);
    let _ = writeln!(out, "columns = {n}");
    let _ = writeln!(out, "snakes = {}", pairs(snakes));
    let _ = writeln!(out, "ladders = {}", pairs(ladders));
    let _ = writeln!(out);
    let _ = writeln!(out, "[rules]");
    let _ = writeln!(out, "start = 1");
    let _ = writeln!(out, "overshoot = \"allow\"");
    let _ = writeln!(out, "chain = false");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn squares_are_numbered_boustrophedon_from_the_bottom_left() {
        // A 3 x 3 grid, as LeetCode draws it:  7 8 9 / 6 5 4 / 1 2 3.
        let grid: Vec<Vec<i64>> = (0..3)
            .map(|r| (0..3).map(|c| label(3, r, c)).collect())
            .collect();
        assert_eq!(grid, [[7, 8, 9], [6, 5, 4], [1, 2, 3]]);
        // A 4 x 4 grid: the top row runs right to left.
        assert_eq!(label(4, 0, 0), 16);
        assert_eq!(label(4, 0, 3), 13);
        assert_eq!(label(4, 3, 0), 1);
    }

    /// LeetCode 909 example 1: the 6 x 6 board whose jumps are the ladders 2 -> 15 and
    /// 14 -> 35 and the snake 17 -> 13 (LeetCode's explanation of its answer, 4 moves, takes
    /// all three).
    #[test]
    fn leetcode_example_one_reads_as_its_jumps() {
        let text = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],\
                    [-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";
        let file = board_file(text, "ex1").unwrap();
        let board = Board::from_toml_str(&file, "ex1").unwrap();
        // Row 6 (bottom) column 2 is square 2 -> 15. Row 4 is the third from the bottom, left
        // to right: squares 13 to 18, so column 2 is square 14 -> 35 and column 5 is 17 -> 13.
        let jumps = |list: &[crate::board::Jump]| -> Vec<(u32, u32)> {
            list.iter().map(|j| (j.from, j.to)).collect()
        };
        assert_eq!(jumps(board.ladders()), [(2, 15), (14, 35)]);
        assert_eq!(jumps(board.snakes()), [(17, 13)]);
        assert_eq!(board.size(), 36);
        assert_eq!(board.rules().start, 1);
        assert!(!board.rules().chain);
    }

    #[test]
    fn bad_grids_are_refused_with_every_problem() {
        let err = board_file("[[-1, 99, -1], [-1, -1], [4, -1, -1]]", "g").unwrap_err();
        let text = err.to_string();
        // Row 1, column 2 is square 8; row 3, column 1 is square 1.
        assert!(
            text.contains("row 1, column 2 (square 8): 99 is not a square"),
            "{text}"
        );
        assert!(text.contains("row 2 has 2 entries"), "{text}");
        assert!(
            text.contains("row 3, column 1 (square 1): a jump starts on square 1"),
            "{text}"
        );
        assert!(board_file("not json", "g")
            .unwrap_err()
            .to_string()
            .contains("not a LeetCode board"));
        assert!(board_file("[[1]]", "g")
            .unwrap_err()
            .to_string()
            .contains("expected n from 2 to 100"));
    }

    #[test]
    fn a_jump_to_its_own_square_is_no_jump() {
        // Square 3 (row 1, column 2 of a 2 x 2 grid: the top row is 4 3) -> 3.
        let file = board_file("[[-1, 3], [-1, -1]]", "g").unwrap();
        let board = Board::from_toml_str(&file, "g").unwrap();
        assert!(board.snakes().is_empty() && board.ladders().is_empty());
    }
}
