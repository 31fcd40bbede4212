//! `ladders draw --svg FILE`: the board as an SVG picture, laid out as the text grid is (square 1
//! at the bottom left, rows alternating direction): one `rect` per square (class `cell`, the
//! square in `data-square`), one `path` per snake (class `snake`, a curve from head to tail) and
//! per ladder (class `ladder`, two rails and rungs), the special squares' marks, the heat map as
//! the cells' fill with a colour scale (class `scale`), and a title with the board's name and
//! rules. Cells shrink on large boards; numbers and marks are left out where they cannot fit.

use std::fmt::Write as _;

use super::draw::{columns_of, marks, square_at, DrawOptions, Heat};
use crate::board::{Board, Jump, Square};
use crate::report::text::{board_line, rules_line};

/// The board's width in pixels (cells are as wide as this allows, up to [`MAX_CELL`]).
const BOARD_WIDTH: f64 = 720.0;
/// The largest cell side in pixels.
const MAX_CELL: f64 = 64.0;
/// The smallest cell side that still gets a number.
const LABEL_CELL: f64 = 18.0;
/// Room above the board for the title.
const TOP: f64 = 56.0;
/// Room left, right and below the board.
const MARGIN: f64 = 12.0;
/// Room right of the board for the heat scale and its caption.
const SCALE_WIDTH: f64 = 140.0;

/// The height of one step of the heat scale.
const SCALE_STEP: f64 = 22.0;
/// The height of a line of the heat scale's caption.
const CAPTION_LINE: f64 = 12.0;
/// The most characters in a line of the heat scale's caption (10-pixel text in the scale's
/// width, about 5.5 pixels a character).
const CAPTION_CHARS: usize = 22;

/// The heat scale's caption in lines of at most [`CAPTION_CHARS`] characters, broken at spaces
/// (a longer word keeps a line of its own); a part in parentheses starts a line of its own.
fn caption_lines(name: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let (main, aside) = match name.split_once(" (") {
        Some((main, aside)) => (main, Some(format!("({aside}"))),
        None => (name, None),
    };
    for part in std::iter::once(main).chain(aside.as_deref()) {
        let first = lines.len();
        for word in part.split_whitespace() {
            let open = lines.len() > first;
            match lines.last_mut() {
                Some(line)
                    if open && line.chars().count() + 1 + word.chars().count() <= CAPTION_CHARS =>
                {
                    line.push(' ');
                    line.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
    }
    lines
}

/// The heat colour ramp, lowest first: light yellow, orange, dark red.
const RAMP: [(f64, f64, f64); 3] = [
    (255.0, 255.0, 204.0),
    (253.0, 141.0, 60.0),
    (189.0, 0.0, 38.0),
];

/// The colour of a share `t` in [0, 1] of the largest value.
fn ramp(t: f64) -> String {
    let t = t.clamp(0.0, 1.0) * 2.0;
    let (a, b, u) = if t <= 1.0 {
        (RAMP[0], RAMP[1], t)
    } else {
        (RAMP[1], RAMP[2], t - 1.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Text made safe for SVG (XML) content and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The grid's geometry: cell side, columns, rows and where the board starts.
struct Layout {
    cell: f64,
    columns: u32,
    rows: u32,
    size: Square,
}

impl Layout {
    /// The centre of square `s` (0, the start off the board, sits left of square 1).
    fn centre(&self, s: Square) -> (f64, f64) {
        let k = s.max(1) - 1;
        let row = k / self.columns;
        let col = if row % 2 == 0 {
            k % self.columns
        } else {
            self.columns - 1 - k % self.columns
        };
        let x = MARGIN + (f64::from(col) + 0.5) * self.cell
            - if s == 0 { self.cell * 0.5 } else { 0.0 };
        let y = TOP + (f64::from(self.rows - 1 - row) + 0.5) * self.cell;
        (x, y)
    }
}

/// The board as an SVG document.
pub fn board_svg(board: &Board, options: &DrawOptions<'_>) -> String {
    let size = board.size();
    let columns = columns_of(board, options);
    let rows = size.div_ceil(columns);
    let cell = (BOARD_WIDTH / f64::from(columns)).min(MAX_CELL);
    let layout = Layout {
        cell,
        columns,
        rows,
        size,
    };
    let scale = if options.heat.is_some() {
        SCALE_WIDTH
    } else {
        0.0
    };
    let width = 2.0 * MARGIN + cell * f64::from(columns) + scale;
    // The heat scale (ten steps and its caption) may be taller than a small board.
    let scale_height = options.heat.map_or(0.0, |heat| {
        10.0 * SCALE_STEP + 20.0 + CAPTION_LINE * caption_lines(&heat.name).len() as f64
    });
    let height = TOP + MARGIN + (cell * f64::from(rows)).max(scale_height);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let title = board_line(board);
    let _ = writeln!(svg, "<title>{}</title>", escape(&title));
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text class="title" x="{MARGIN}" y="22" font-size="12" font-weight="bold">{}</text>"#,
        escape(&title)
    );
    let _ = writeln!(
        svg,
        r#"<text class="rules" x="{MARGIN}" y="42" font-size="10">{}</text>"#,
        escape(&rules_line(board))
    );
    write_cells(&mut svg, &layout, options.heat);
    write_jumps(&mut svg, board, &layout);
    write_marks(&mut svg, board, &layout);
    if let Some(heat) = options.heat {
        write_scale(&mut svg, heat, MARGIN + cell * f64::from(columns) + 16.0);
    }
    svg.push_str("</svg>\n");
    svg
}

/// One `rect` per square, with its number where it fits.
fn write_cells(svg: &mut String, layout: &Layout, heat: Option<&Heat>) {
    let cell = layout.cell;
    let max = heat.map_or(0.0, Heat::max);
    let font = (cell * 0.26).min(13.0);
    for row in 0..layout.rows {
        for col in 0..layout.columns {
            let Some(s) = square_at(layout.size, layout.columns, row, col) else {
                continue;
            };
            let x = MARGIN + f64::from(col) * cell;
            let y = TOP + f64::from(layout.rows - 1 - row) * cell;
            let fill = match heat {
                Some(h) => match h.values.get(s as usize).copied().flatten() {
                    Some(v) if max > 0.0 => ramp(v / max),
                    _ => "#ffffff".to_string(),
                },
                None if (row + col) % 2 == 0 => "#f3f0e6".to_string(),
                None => "#ffffff".to_string(),
            };
            let stroke = if cell >= LABEL_CELL {
                r##" stroke="#999" stroke-width="0.5""##
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<rect class="cell" data-square="{s}" x="{x:.2}" y="{y:.2}" width="{cell:.2}" height="{cell:.2}" fill="{fill}"{stroke}/>"#
            );
            if cell >= LABEL_CELL {
                let _ = writeln!(
                    svg,
                    r##"<text x="{:.2}" y="{:.2}" font-size="{font:.1}" fill="#333">{s}</text>"##,
                    x + 2.0,
                    y + font + 1.0
                );
            }
        }
    }
}

/// Each square's marks (`L1`, `s3`, ...), drawn after the snakes and ladders with a white halo
/// so that a ladder's top or a snake's tail never hides them.
fn write_marks(svg: &mut String, board: &Board, layout: &Layout) {
    let cell = layout.cell;
    if cell < LABEL_CELL {
        return;
    }
    let marks = marks(board);
    let font = (cell * 0.26).min(13.0);
    for row in 0..layout.rows {
        for col in 0..layout.columns {
            let Some(s) = square_at(layout.size, layout.columns, row, col) else {
                continue;
            };
            let mark = marks[s as usize].join(" ");
            if mark.is_empty() {
                continue;
            }
            let x = MARGIN + f64::from(col + 1) * cell - 2.0;
            let y = TOP + f64::from(layout.rows - row) * cell - 3.0;
            let _ = writeln!(
                svg,
                r##"<text class="mark" x="{x:.2}" y="{y:.2}" font-size="{font:.1}" text-anchor="end" fill="#000" stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
                escape(&mark)
            );
        }
    }
}

/// One `path` per snake (a curve) and per ladder (two rails and rungs), drawn over the cells.
fn write_jumps(svg: &mut String, board: &Board, layout: &Layout) {
    let width = (layout.cell * 0.12).clamp(1.0, 6.0);
    for jump in board.snakes() {
        let _ = writeln!(
            svg,
            r##"<path class="snake" data-from="{}" data-to="{}" d="{}" fill="none" stroke="#2e8b57" stroke-width="{width:.2}" stroke-linecap="round" opacity="0.85"/>"##,
            jump.from,
            jump.to,
            snake_path(layout, *jump)
        );
        // The head: a disc on the square the snake starts from, with an eye.
        let (x, y) = layout.centre(jump.from);
        let _ = writeln!(
            svg,
            r##"<circle class="snake-head" data-from="{}" cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#2e8b57"/><circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="#fff"/>"##,
            jump.from,
            width * 1.6,
            x + width * 0.5,
            y - width * 0.4,
            width * 0.35
        );
    }
    for jump in board.ladders() {
        let _ = writeln!(
            svg,
            r##"<path class="ladder" data-from="{}" data-to="{}" d="{}" fill="none" stroke="#8b5a2b" stroke-width="{:.2}" opacity="0.85"/>"##,
            jump.from,
            jump.to,
            ladder_path(layout, *jump),
            width * 0.6
        );
    }
}

/// A snake from head to tail: a cubic curve bent to one side and back (an S).
fn snake_path(layout: &Layout, jump: Jump) -> String {
    let (x1, y1) = layout.centre(jump.from);
    let (x2, y2) = layout.centre(jump.to);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let length = (dx * dx + dy * dy).sqrt().max(crate::prec::ARROW_LENGTH);
    // The normal to the line, scaled to a fraction of the length (at most two cells).
    let bend = (length * 0.25).min(layout.cell * 2.0);
    let (nx, ny) = (-dy / length * bend, dx / length * bend);
    format!(
        "M{x1:.2} {y1:.2} C{:.2} {:.2} {:.2} {:.2} {x2:.2} {y2:.2}",
        x1 + dx / 3.0 + nx,
        y1 + dy / 3.0 + ny,
        x1 + 2.0 * dx / 3.0 - nx,
        y1 + 2.0 * dy / 3.0 - ny
    )
}

/// A ladder from foot to top: two straight rails and a rung about every half cell.
fn ladder_path(layout: &Layout, jump: Jump) -> String {
    let (x1, y1) = layout.centre(jump.from);
    let (x2, y2) = layout.centre(jump.to);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let length = (dx * dx + dy * dy).sqrt().max(crate::prec::ARROW_LENGTH);
    let half = layout.cell * 0.12;
    let (nx, ny) = (-dy / length * half, dx / length * half);
    let mut d = format!(
        "M{:.2} {:.2} L{:.2} {:.2} M{:.2} {:.2} L{:.2} {:.2}",
        x1 + nx,
        y1 + ny,
        x2 + nx,
        y2 + ny,
        x1 - nx,
        y1 - ny,
        x2 - nx,
        y2 - ny
    );
    let rungs = ((length / (layout.cell * 0.5)).floor() as usize).clamp(1, 200);
    for k in 1..=rungs {
        let t = k as f64 / (rungs + 1) as f64;
        let (x, y) = (x1 + dx * t, y1 + dy * t);
        let _ = write!(
            d,
            " M{:.2} {:.2} L{:.2} {:.2}",
            x + nx,
            y + ny,
            x - nx,
            y - ny
        );
    }
    d
}

/// The heat scale: ten steps from 0 to the largest value, with the quantity's name.
fn write_scale(svg: &mut String, heat: &Heat, x: f64) {
    let max = heat.max();
    let step = SCALE_STEP;
    // The caption in full (the likeliest game's turns and probability included), in lines
    // that fit beside the board.
    for (i, line) in caption_lines(&heat.name).iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text class="caption" x="{x:.2}" y="{:.2}" font-size="10">{}</text>"#,
            TOP + 10.0 * step + 14.0 + CAPTION_LINE * i as f64,
            escape(line)
        );
    }
    for k in 0..10 {
        let t = f64::from(9 - k) / 9.0;
        let y = TOP + f64::from(k) * step;
        let _ = writeln!(
            svg,
            r##"<rect class="scale" x="{x:.2}" y="{y:.2}" width="18" height="{step}" fill="{}" stroke="#999" stroke-width="0.5"/>"##,
            ramp(t)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.2}" y="{:.2}" font-size="10">{:.3}</text>"#,
            x + 24.0,
            y + step * 0.65,
            max * t
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin;

    fn svg_of(name: &str, heat: Option<&Heat>) -> String {
        let board = builtin(name).unwrap();
        let options = DrawOptions {
            heat,
            ..DrawOptions::default()
        };
        board_svg(&board, &options)
    }

    /// Issue 40 item 21: a snake has a head, a disc on the square it starts from.
    #[test]
    fn every_snake_has_a_head_on_its_first_square() {
        let svg = svg_of("milton-bradley", None);
        let heads: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains("class=\"snake-head\""))
            .collect();
        assert_eq!(heads.len(), 10, "Milton Bradley has 10 snakes");
        assert!(heads.iter().any(|l| l.contains("data-from=\"98\"")));
    }

    /// Issue 40 item 21: the marks (`l9` at a ladder's top) come after the snakes and ladders,
    /// so none is drawn over them.
    #[test]
    fn the_marks_are_drawn_over_the_jumps() {
        let svg = svg_of("milton-bradley", None);
        let last_jump = svg.rfind("class=\"ladder\"").unwrap();
        let first_mark = svg.find("class=\"mark\"").unwrap();
        assert!(first_mark > last_jump);
        assert!(
            svg.contains(">l9</text>"),
            "the top of ladder 9 (80 -> 100)"
        );
    }

    /// Issue 40 item 21: the heat scale's caption is whole (the likeliest game's probability
    /// included), in lines that fit beside the board.
    #[test]
    fn the_caption_is_whole_in_lines_that_fit() {
        let name = "turn of the likeliest game that ends on the square (7 turns, probability \
                    0.000004 = 1/279936)";
        let lines = caption_lines(name);
        assert_eq!(
            lines,
            [
                "turn of the likeliest",
                "game that ends on the",
                "square",
                "(7 turns, probability",
                "0.000004 = 1/279936)"
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= CAPTION_CHARS));
        let heat = Heat {
            name: name.to_string(),
            values: vec![Some(1.0); 101],
        };
        let svg = svg_of("milton-bradley", Some(&heat));
        assert!(svg.contains(">0.000004 = 1/279936)</text>"));
        // The caption's last line lies inside the picture.
        let height: f64 = svg
            .split("height=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        let last_y = TOP + 10.0 * SCALE_STEP + 14.0 + CAPTION_LINE * 4.0;
        assert!(last_y < height, "{last_y} < {height}");
    }
}
