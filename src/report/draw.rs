//! `ladders draw`: the board as a grid of text, numbered as printed boards are (square 1 at the
//! bottom left, rows alternating direction), with every snake, ladder and chance square marked
//! and paired, a legend, and optionally a heat map of a per-square quantity.
//!
//! Marks: the k-th snake (snakes numbered by their head, lowest first) is `Sk` on its head and
//! `sk` on its tail; the k-th ladder is `Lk` on its foot and `lk` on its top (upper case where
//! the jump starts, lower case where it ends), followed by `!` when it works once per game; the
//! k-th chance square is `Ck`; a point square shows its points (`+5`, `-3`), a square that costs
//! the next turn `X` and one that gives one more roll `E`. Heat is shown as a
//! background colour, or, without colour, as one shade character per square (` .:-=+*#%@`, from
//! the smallest to the largest value).

use std::io::{self, Write};

use crate::board::{Board, Jump, Square};
use serde::Serialize;

use crate::report::json::Report;
use crate::report::text::{board_line, rules_line};

/// The shade characters of the plain heat map, lowest level first.
pub const SHADES: [char; 10] = [' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'];

/// The 256-colour palette of the coloured heat map (backgrounds), lowest level first.
const PALETTE: [u8; 10] = [231, 230, 229, 228, 221, 214, 208, 202, 196, 160];

/// The width of the legend's lines.
const LEGEND_WIDTH: usize = 78;

/// A per-square quantity to shade the squares by. The shading only needs an order of magnitude,
/// so values are floats here; the exact values are reported by the commands that compute them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Heat {
    /// What is shaded, for the legend (`expected visits`).
    pub name: String,
    /// `values[s]` for square s (`0..=size`); `None` where the quantity is not defined (a square
    /// never stood on).
    pub values: Vec<Option<f64>>,
}

impl Heat {
    /// The shade level 0..=9 of square `s`: 0 for no value or the value 0, else the value's
    /// share of the largest value in ten equal steps (the largest value is level 9).
    pub fn level(&self, s: Square) -> usize {
        let max = self.max();
        match self.values.get(s as usize).copied().flatten() {
            Some(v) if v > 0.0 && max > 0.0 => (((v / max) * 9.0).ceil() as usize).clamp(1, 9),
            _ => 0,
        }
    }

    /// The largest value (0 when there is none).
    pub fn max(&self) -> f64 {
        self.values
            .iter()
            .flatten()
            .fold(0.0_f64, |m, &v| if v > m { v } else { m })
    }
}

/// How to draw: the number of columns, the heat map, and whether to use colour (from `Default`,
/// then set field by field).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct DrawOptions<'a> {
    /// Squares per row (`None`: the board's own, [`Board::columns`]).
    pub columns: Option<u32>,
    /// The per-square quantity to shade by.
    pub heat: Option<&'a Heat>,
    /// ANSI colours (backgrounds) instead of shade characters.
    pub colour: bool,
}

/// The square drawn at row `row` (0 at the bottom) and column `col` (0 at the left) of a board
/// of `size` squares laid out `columns` wide, rows alternating direction: `None` past the finish.
pub fn square_at(size: Square, columns: u32, row: u32, col: u32) -> Option<Square> {
    let k = if row % 2 == 0 { col } else { columns - 1 - col };
    let s = row * columns + k + 1;
    (s <= size).then_some(s)
}

/// The marks of every square: `marks[s]` lists the labels of square s in a fixed order.
pub fn marks(board: &Board) -> Vec<Vec<String>> {
    let mut marks = vec![Vec::new(); board.size() as usize + 1];
    for (tag, jumps) in [('S', board.snakes()), ('L', board.ladders())] {
        for (k, j) in numbered(jumps) {
            marks[j.from as usize].push(format!("{tag}{k}{}", once_mark(board, j)));
            marks[j.to as usize].push(format!("{}{k}", tag.to_ascii_lowercase()));
        }
    }
    for (k, c) in numbered_chances(board) {
        marks[c as usize].push(format!("C{k}"));
    }
    for &(s, points) in board.point_squares() {
        marks[s as usize].push(format!("{points:+}"));
    }
    for s in board.lose_turn_squares() {
        marks[s as usize].push("X".to_string());
    }
    for s in board.extra_turn_squares() {
        marks[s as usize].push("E".to_string());
    }
    marks
}

/// `!` after the mark of a jump that works once per game, else nothing.
fn once_mark(board: &Board, jump: Jump) -> &'static str {
    if board.once_squares().contains(&jump.from) {
        "!"
    } else {
        ""
    }
}

/// The jumps numbered 1, 2, ... in order of the square they start from.
fn numbered(jumps: &[Jump]) -> Vec<(usize, Jump)> {
    let mut sorted = jumps.to_vec();
    sorted.sort_by_key(|j| (j.from, j.to));
    sorted
        .into_iter()
        .enumerate()
        .map(|(i, j)| (i + 1, j))
        .collect()
}

/// The chance squares numbered 1, 2, ... in square order.
fn numbered_chances(board: &Board) -> Vec<(usize, Square)> {
    let mut at: Vec<Square> = board.chances().iter().map(|c| c.at).collect();
    at.sort_unstable();
    at.into_iter()
        .enumerate()
        .map(|(i, s)| (i + 1, s))
        .collect()
}

/// The row length to draw: `--columns`, else the board's own, at most the board's size.
pub fn columns_of(board: &Board, options: &DrawOptions<'_>) -> u32 {
    options
        .columns
        .unwrap_or_else(|| board.columns())
        .clamp(1, board.size().max(1))
}

/// Writes the board as a grid with its legend (and heat scale when shading).
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_text(out: &mut dyn Write, board: &Board, options: &DrawOptions<'_>) -> io::Result<()> {
    let size = board.size();
    let columns = columns_of(board, options);
    let rows = size.div_ceil(columns);
    let marks = marks(board);
    let number_width = size.to_string().len();
    let mark_width = marks.iter().map(|m| m.concat().len()).max().unwrap_or(0);
    let shade_width = usize::from(options.heat.is_some() && !options.colour);
    for line in title_lines(board) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", rules_line(board))?;
    if let Some(rule) = board.choice() {
        writeln!(out, "choice: {}", super::optimize::rule_line(rule))?;
    }
    writeln!(out)?;
    for row in (0..rows).rev() {
        let mut line = String::new();
        for col in 0..columns {
            if col > 0 {
                line.push(' ');
            }
            let Some(s) = square_at(size, columns, row, col) else {
                line.push_str(&" ".repeat(number_width + mark_width + shade_width));
                continue;
            };
            let text = format!(
                "{s:>number_width$}{:<mark_width$}",
                marks[s as usize].concat()
            );
            match options.heat {
                None => line.push_str(&text),
                Some(heat) if options.colour => {
                    let colour = PALETTE[heat.level(s)];
                    line.push_str(&format!("\x1b[30;48;5;{colour}m{text}\x1b[0m"));
                }
                Some(heat) => {
                    line.push_str(&text);
                    line.push(SHADES[heat.level(s)]);
                }
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    write_legend(out, board, options)
}

/// The picture as JSON (documented in `docs/json-output.md`): the board and its rules, the grid
/// (`columns`, `rows`), every square's place in it (row 0 at the bottom, column 0 at the left,
/// rows alternating direction) with its marks as drawn, and the heat map's values when shaded.
///
/// # Errors
///
/// Serializing failed.
pub fn draw_json(
    board: &Board,
    options: &DrawOptions<'_>,
) -> Result<serde_json::Value, serde_json::Error> {
    let size = board.size();
    let columns = columns_of(board, options);
    let mut marks = marks(board);
    let squares: Vec<Place> = (0..size.div_ceil(columns))
        .flat_map(|row| (0..columns).map(move |col| (row, col)))
        .filter_map(|(row, column)| {
            let square = square_at(size, columns, row, column)?;
            let marks = std::mem::take(&mut marks[square as usize]);
            Some(Place {
                column,
                marks,
                row,
                square,
            })
        })
        .collect();
    let picture = Picture {
        columns,
        heat: options.heat,
        rows: size.div_ceil(columns),
        squares,
    };
    Report::new(board, &picture, 0).with_rules().to_value()
}

/// The grid [`draw_json`] writes (fields in alphabetical order, as the report's keys).
#[derive(Serialize)]
struct Picture<'a> {
    columns: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    heat: Option<&'a Heat>,
    rows: u32,
    squares: Vec<Place>,
}

/// One square's place in the grid and its marks.
#[derive(Serialize)]
struct Place {
    column: u32,
    marks: Vec<String>,
    row: u32,
    square: Square,
}

/// The legend: the jumps by number, the chance squares, the tiles, the start, the heat scale.
fn write_legend(out: &mut dyn Write, board: &Board, options: &DrawOptions<'_>) -> io::Result<()> {
    let pairs = |tag: char, jumps: &[Jump]| -> Vec<String> {
        numbered(jumps)
            .into_iter()
            .map(|(k, j)| format!("{tag}{k}{} {}->{}", once_mark(board, j), j.from, j.to))
            .collect()
    };
    if !board.snakes().is_empty() {
        let items = pairs('S', board.snakes());
        wrap(out, "snakes (S head, s tail):", &items)?;
    }
    if !board.ladders().is_empty() {
        let items = pairs('L', board.ladders());
        wrap(out, "ladders (L foot, l top):", &items)?;
    }
    for (k, at) in numbered_chances(board) {
        let chance = board.chance_at(at).expect("a chance square");
        let items: Vec<String> = chance
            .to
            .iter()
            .map(|(to, w)| format!("{to} ({w}/{})", chance.total))
            .collect();
        wrap(out, &format!("C{k} chance square {at}: goes to"), &items)?;
    }
    write_state_legend(out, board)?;
    if let Some(t) = board.tiles() {
        writeln!(
            out,
            "random tiles: a roll ending on a plain square draws a snake tile (back {}) with \
             probability {} or a ladder tile (forward {}) with probability {}",
            t.length, t.snake, t.length, t.ladder
        )?;
    }
    match board.rules().start {
        0 => writeln!(
            out,
            "start: off the board (square 0); finish: {}",
            board.size()
        )?,
        s => writeln!(out, "start: square {s}; finish: {}", board.size())?,
    }
    if let Some(heat) = options.heat {
        write_scale(out, heat, options.colour)?;
    }
    Ok(())
}

/// The legend of a stateful board's squares: one-use jumps, points, lost and extra turns.
fn write_state_legend(out: &mut dyn Write, board: &Board) -> io::Result<()> {
    if !board.once_squares().is_empty() {
        writeln!(
            out,
            "!: a one-use jump: it works the first time a move lands on it, then its square is plain"
        )?;
    }
    if !board.point_squares().is_empty() {
        let items: Vec<String> = board
            .point_squares()
            .iter()
            .map(|(s, p)| format!("{s} {p:+}"))
            .collect();
        wrap(
            out,
            "points (scored the first time a move ends there):",
            &items,
        )?;
    }
    let squares =
        |list: Vec<Square>| -> Vec<String> { list.iter().map(|s| s.to_string()).collect() };
    let lose = board.lose_turn_squares();
    if !lose.is_empty() {
        wrap(
            out,
            "X (ending a move here costs the next turn):",
            &squares(lose),
        )?;
    }
    let extra = board.extra_turn_squares();
    if !extra.is_empty() {
        wrap(
            out,
            "E (ending a move here gives one more roll):",
            &squares(extra),
        )?;
    }
    Ok(())
}

/// The heat scale: each level with the range of values it stands for.
fn write_scale(out: &mut dyn Write, heat: &Heat, colour: bool) -> io::Result<()> {
    let max = heat.max();
    let items: Vec<String> = (1..=9)
        .map(|level| {
            let upto = max * level as f64 / 9.0;
            let key = if colour {
                format!("\x1b[30;48;5;{}m  \x1b[0m", PALETTE[level])
            } else {
                format!("'{}'", SHADES[level])
            };
            format!("{key} <={}", short(upto))
        })
        .collect();
    let head = format!("heat: {} (blank: 0 or none)", heat.name);
    wrap(out, &head, &items)
}

/// A float with three significant digits, for the heat scale.
fn short(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if (0.001..1e6).contains(&v.abs()) {
        let decimals = (2 - v.abs().log10().floor() as i32).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.2e}")
    }
}

/// Writes `head` and then `items` separated by two spaces, wrapping lines at the legend width
/// (continuation lines indented by two).
fn wrap(out: &mut dyn Write, head: &str, items: &[String]) -> io::Result<()> {
    let mut line = head.to_string();
    for item in items {
        // ANSI sequences take no room on the screen.
        let visible = |s: &str| s.chars().filter(|c| !c.is_ascii_control()).count();
        if visible(&line) + 2 + visible(item) > LEGEND_WIDTH && line.trim() != "" {
            writeln!(out, "{line}")?;
            line = " ".to_string();
        }
        line.push_str("  ");
        line.push_str(item);
    }
    writeln!(out, "{line}")
}

/// The widest a title line may be (a terminal's 80 columns).
pub const TITLE_COLUMNS: usize = 80;

/// The board's title: [`board_line`] on one line when it fits in [`TITLE_COLUMNS`], else the
/// name on one line and the origin and counts (in parentheses) on the next.
pub fn title_lines(board: &Board) -> Vec<String> {
    let line = board_line(board);
    if line.chars().count() <= TITLE_COLUMNS {
        return vec![line];
    }
    let name = board.name();
    match line.strip_prefix(name).map(str::trim_start) {
        Some(rest) if !name.is_empty() => vec![name.to_string(), rest.to_string()],
        _ => vec![line],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 40 item 21: a title past 80 columns goes on two lines (Milton Bradley's was 95).
    #[test]
    fn a_long_title_takes_two_lines_of_at_most_80_columns() {
        let mb = crate::board::builtin("milton-bradley").unwrap();
        let lines = title_lines(&mb);
        assert_eq!(
            lines,
            [
                "Chutes and Ladders (Milton Bradley)",
                "(builtin:milton-bradley, 100 squares, 10 snakes, 9 ladders)"
            ]
        );
        let tiny = crate::board::builtin("tiny").unwrap();
        assert_eq!(title_lines(&tiny).len(), 1);
    }
    use crate::board::builtin;

    #[test]
    fn squares_are_laid_out_boustrophedon_from_the_bottom_left() {
        // 100 squares, 10 wide: the bottom row is 1..10 left to right, the next 20..11.
        assert_eq!(square_at(100, 10, 0, 0), Some(1));
        assert_eq!(square_at(100, 10, 0, 9), Some(10));
        assert_eq!(square_at(100, 10, 1, 0), Some(20));
        assert_eq!(square_at(100, 10, 1, 9), Some(11));
        assert_eq!(square_at(100, 10, 9, 0), Some(100));
        // 7 squares, 3 wide: the top row (row 2, left to right) holds only 7.
        assert_eq!(square_at(7, 3, 2, 0), Some(7));
        assert_eq!(square_at(7, 3, 2, 1), None);
    }

    #[test]
    fn every_jump_end_is_marked_once_and_paired() {
        let board = builtin("milton-bradley").unwrap();
        let marks = marks(&board);
        let all: Vec<&String> = marks.iter().flatten().collect();
        // Two marks per jump, no chance squares.
        assert_eq!(
            all.len(),
            2 * (board.snakes().len() + board.ladders().len())
        );
        // The snake 16 -> 6 has the lowest head: S1 on 16, s1 on 6.
        assert_eq!(marks[16], vec!["S1".to_string()]);
        assert_eq!(marks[6], vec!["s1".to_string()]);
        // The ladder 80 -> 100 has the highest foot of the nine.
        assert_eq!(marks[80], vec!["L9".to_string()]);
        assert_eq!(marks[100], vec!["l9".to_string()]);
    }

    fn stateful() -> Board {
        Board::from_toml_str(
            "size = 30\nsnakes = [[27, 3]]\nladders = [[4, 14], [9, 20]]\nonce = [9]\n\
             points = [[12, 5], [22, -3]]\nlose_turn = [17]\nextra_turn = [6, 25]\ncolumns = 5\n",
            "stateful",
        )
        .unwrap()
    }

    #[test]
    fn every_special_square_is_marked() {
        let board = stateful();
        let marks = marks(&board);
        // Ladders numbered by foot: L1 4 -> 14, L2 9 -> 20 (one-use: `!`); the snake S1.
        assert_eq!(marks[4], vec!["L1".to_string()]);
        assert_eq!(marks[9], vec!["L2!".to_string()]);
        assert_eq!(marks[20], vec!["l2".to_string()]);
        assert_eq!(marks[27], vec!["S1".to_string()]);
        assert_eq!(marks[12], vec!["+5".to_string()]);
        assert_eq!(marks[22], vec!["-3".to_string()]);
        assert_eq!(marks[17], vec!["X".to_string()]);
        assert_eq!(marks[6], vec!["E".to_string()]);
        assert_eq!(marks[25], vec!["E".to_string()]);
        // Nothing else: 2 marks per jump, 2 point squares, 1 + 2 turn squares.
        assert_eq!(marks.iter().flatten().count(), 6 + 2 + 3);
    }

    #[test]
    fn the_legend_names_every_special_square_and_the_rows_follow_the_file() {
        let mut out = Vec::new();
        write_text(&mut out, &stateful(), &DrawOptions::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("L2! 9->20"), "{text}");
        assert!(text.contains("!: a one-use jump"), "{text}");
        assert!(text.contains("12 +5  22 -3"), "{text}");
        assert!(text.contains("costs the next turn):  17"), "{text}");
        assert!(text.contains("one more roll):  6  25"), "{text}");
        // `columns = 5`: six rows of five; the top row (the sixth, so right to left) runs 30
        // down to 26.
        let grid: Vec<&str> = text.lines().skip(3).take(6).collect();
        assert!(grid[0].starts_with("30"), "{text}");
        assert!(grid[0].trim_end().ends_with("26"), "{text}");
        assert!(grid[5].starts_with(" 1"), "{text}");
    }

    #[test]
    fn the_default_row_length_is_the_boards() {
        // No `columns` in the file: 48 squares give ceil(sqrt(48)) = 7 per row (issue 12's
        // default), so seven rows, the top one holding 43 to 48.
        let board = Board::from_toml_str("size = 48\nsnakes = [[40, 2]]\n", "48").unwrap();
        assert_eq!(board.columns(), 7);
        let mut out = Vec::new();
        write_text(&mut out, &board, &DrawOptions::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows = text.lines().skip(3).take_while(|l| !l.is_empty()).count();
        assert_eq!(rows, 7, "{text}");
    }

    #[test]
    fn heat_levels_split_the_largest_value_in_nine() {
        let heat = Heat {
            name: "x".into(),
            values: vec![None, Some(0.0), Some(1.0), Some(4.5), Some(9.0)],
        };
        assert_eq!(heat.level(0), 0);
        assert_eq!(heat.level(1), 0);
        assert_eq!(heat.level(2), 1);
        assert_eq!(heat.level(3), 5); // 4.5 / 9 * 9 = 4.5, rounded up
        assert_eq!(heat.level(4), 9);
    }
}
