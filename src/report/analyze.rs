//! The `analyze` report: one screen answering the common questions, as text (its JSON is the
//! serde form of `analysis::json::SummaryJson`).

use std::io::{self, Write};

use crate::analysis::expectation::Expectation;
use crate::analysis::summary::{Summary, WITHIN};
use crate::board::Board;
use crate::num::decimal::{fixed, probability, sqrt_fixed};
use crate::report::shortest::write_extremes;
use crate::report::text::{board_line, fraction_text, rules_line};

/// Writes the text report.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    summary: &Summary,
    digits: usize,
) -> io::Result<()> {
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out)?;
    match &summary.expectation {
        Expectation::Infinite(trap) => {
            writeln!(out, "Expected turns   infinite")?;
            writeln!(out, "                 {}", trap.sentence(board))?;
        }
        Expectation::Finite(e) => {
            writeln!(out, "Expected turns   {}", fixed(&e.turns, digits))?;
            writeln!(out, "  exact          {}", fraction_text(&e.turns, false))?;
            writeln!(out, "Std deviation    {}", sqrt_fixed(&e.variance, digits))?;
        }
    }
    let d = &summary.distribution;
    let q = |i: usize| match d.quantiles[i].turns {
        Some(t) => t.to_string(),
        None => format!("more than {}", d.turns()),
    };
    writeln!(
        out,
        "Median           {} turns (90 %: {}, 99 %: {})",
        q(0),
        q(1),
        q(2)
    )?;
    for n in WITHIN {
        if let Some(p) = d.within(n) {
            writeln!(
                out,
                "{:<17}{}",
                format!("Within {n} turns"),
                probability(&p, digits)
            )?;
        }
    }
    write_extremes(out, board, &summary.extremes, digits, false)?;
    if let Expectation::Finite(e) = &summary.expectation {
        writeln!(out, "Expected rolls   {}", fixed(&e.rolls, digits))?;
        writeln!(out, "Snakes taken     {}", fixed(&e.snakes, digits))?;
        writeln!(out, "Ladders taken    {}", fixed(&e.ladders, digits))?;
    }
    Ok(())
}
