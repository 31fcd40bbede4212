//! The reports of `ladders squares`: the per-square and per-jump answers as a text table, CSV
//! or JSON, and the law of the token's square after n turns.

use std::io::{self, Write};

use num_rational::BigRational;

use crate::analysis::squares::{Occupancy, SquareAnswers};
use crate::board::Board;
use crate::num::decimal::fixed;
use crate::report::text::{board_line, rules_line};

/// How numbers are written: decimals with `digits` after the point, or exact fractions
/// ([`Format::new`], then `exact` set).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Format {
    /// Digits after the decimal point.
    pub digits: usize,
    /// Exact fractions instead of decimals.
    pub exact: bool,
}

impl Format {
    /// Decimals with `digits` after the point.
    pub fn new(digits: usize) -> Format {
        Format {
            digits,
            exact: false,
        }
    }

    fn cell(&self, value: &BigRational) -> String {
        if self.exact {
            value.to_string()
        } else {
            fixed(value, self.digits)
        }
    }

    fn optional(&self, value: Option<&BigRational>) -> String {
        value.map_or_else(|| "-".to_string(), |v| self.cell(v))
    }
}

/// Writes the board's two heading lines (name and counts, rules) and a blank line.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_heading(out: &mut dyn Write, board: &Board) -> io::Result<()> {
    writeln!(out, "{}", board_line(board))?;
    writeln!(out, "{}", rules_line(board))?;
    writeln!(out)
}

/// Writes the answers as two text tables (squares, then jumps) under the board's lines.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    answers: &SquareAnswers,
    format: Format,
) -> io::Result<()> {
    write_heading(out, board)?;
    let rows: Vec<[String; 4]> = answers
        .squares
        .iter()
        .map(|a| {
            [
                a.square.to_string(),
                format.cell(&a.visits),
                format.optional(a.reach.as_ref()),
                format.cell(&a.remaining),
            ]
        })
        .collect();
    table(out, &["square", "visits", "reach", "remaining"], &rows)?;
    writeln!(out)?;
    writeln!(
        out,
        "visits: expected turns begun on the square (they sum to the expected turns);\n\
         reach: probability that a roll's move ever ends there; remaining: expected turns left \
         from there"
    )?;
    if let Some(why) = answers.no_reach {
        writeln!(out, "reach not computed: {why}")?;
    }
    writeln!(out)?;
    match &answers.jumps {
        Some(jumps) => {
            let rows: Vec<[String; 4]> = jumps
                .iter()
                .map(|j| {
                    [
                        j.jump.kind().to_string(),
                        format!("{}->{}", j.jump.from, j.jump.to),
                        format.cell(&j.uses),
                        format.cell(&j.taken),
                    ]
                })
                .collect();
            table(out, &["jump", "squares", "uses", "taken"], &rows)?;
            writeln!(out)?;
            writeln!(
                out,
                "uses: expected times taken per game; taken: probability it is taken at least once"
            )
        }
        None => match answers.no_jumps {
            Some(why) => writeln!(out, "jumps' answers not computed: {why}"),
            None => Ok(()),
        },
    }
}

/// Writes a table with right-aligned columns.
fn table<const N: usize>(
    out: &mut dyn Write,
    head: &[&str; N],
    rows: &[[String; N]],
) -> io::Result<()> {
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .zip(&width)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(head.to_vec()))?;
    for row in rows {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

/// Writes the squares as CSV (`square,visits,reach,remaining`; an empty reach when it is not
/// computed), or with `jumps` the jumps (`from,to,kind,uses,taken`).
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_csv(
    out: &mut dyn Write,
    answers: &SquareAnswers,
    jumps: bool,
    format: Format,
) -> io::Result<()> {
    if jumps {
        writeln!(out, "from,to,kind,uses,taken")?;
        for j in answers.jumps.iter().flatten() {
            writeln!(
                out,
                "{},{},{},{},{}",
                j.jump.from,
                j.jump.to,
                j.jump.kind(),
                format.cell(&j.uses),
                format.cell(&j.taken)
            )?;
        }
        return Ok(());
    }
    writeln!(out, "square,visits,reach,remaining")?;
    for a in &answers.squares {
        let reach = a.reach.as_ref().map(|r| format.cell(r)).unwrap_or_default();
        writeln!(
            out,
            "{},{},{},{}",
            a.square,
            format.cell(&a.visits),
            reach,
            format.cell(&a.remaining)
        )?;
    }
    Ok(())
}

/// Writes the law of the square after a number of turns: text (a table) or CSV (`square,p`).
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_after(
    out: &mut dyn Write,
    board: &Board,
    occupancy: &Occupancy,
    format: Format,
    csv: bool,
) -> io::Result<()> {
    let law = &occupancy.law;
    if csv {
        writeln!(out, "square,p")?;
        for c in law {
            writeln!(out, "{},{}", c.square, format.cell(&c.p))?;
        }
        return Ok(());
    }
    write_heading(out, board)?;
    writeln!(out, "the token's square after {} turns:", occupancy.after)?;
    let rows: Vec<[String; 2]> = law
        .iter()
        .map(|c| [c.square.to_string(), format.cell(&c.p)])
        .collect();
    table(out, &["square", "p"], &rows)?;
    let unfinished: BigRational = law
        .iter()
        .filter(|c| c.square != board.size())
        .map(|c| &c.p)
        .sum();
    writeln!(out)?;
    writeln!(
        out,
        "P(T > {}) = {}",
        occupancy.after,
        format.cell(&unfinished)
    )
}
