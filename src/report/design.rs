//! The reports of the board design questions: `ladders sensitivity` (each snake and ladder
//! removed) and `ladders expect --die LO..HI` (expected turns per die size, the best marked).

use std::io::{self, Write};

use num_rational::BigRational;

use crate::analysis::design::{DieSweep, Removal};
use crate::board::Board;
use crate::num::decimal::fixed;
use crate::report::squares::write_heading;

/// A value as text: the decimal, or the exact fraction.
fn cell(value: Option<&BigRational>, digits: usize, exact: bool) -> String {
    match value {
        None => "endless".to_string(),
        Some(v) if exact => v.to_string(),
        Some(v) => fixed(v, digits),
    }
}

/// A change as text, with its sign.
fn signed(value: Option<&BigRational>, digits: usize, exact: bool) -> String {
    let text = cell(value, digits, exact);
    match value {
        Some(v) if *v >= BigRational::from_integer(0.into()) => format!("+{text}"),
        _ => text,
    }
}

/// Writes the sensitivity table: each jump, the expected turns without it and the change.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_sensitivity(
    out: &mut dyn Write,
    board: &Board,
    base: &BigRational,
    removals: &[Removal],
    digits: usize,
    exact: bool,
) -> io::Result<()> {
    write_heading(out, board)?;
    writeln!(out, "expected turns: {}", cell(Some(base), digits, exact))?;
    writeln!(
        out,
        "removing each snake or ladder (largest increase first):"
    )?;
    let rows: Vec<[String; 4]> = removals
        .iter()
        .map(|r| {
            [
                r.jump.kind().to_string(),
                format!("{}->{}", r.jump.from, r.jump.to),
                cell(r.turns.as_ref(), digits, exact),
                signed(r.change.as_ref(), digits, exact),
            ]
        })
        .collect();
    let head = ["removed", "squares", "turns", "change"];
    let width: Vec<usize> = (0..4)
        .map(|k| {
            rows.iter()
                .map(|r| r[k].len())
                .chain([head[k].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: [&str; 4]| -> String {
        let mut s = format!(
            "{:<w0$}  {:>w1$}",
            cells[0],
            cells[1],
            w0 = width[0],
            w1 = width[1]
        );
        s.push_str(&format!(
            "  {:>w$}  {:>v$}",
            cells[2],
            cells[3],
            w = width[2],
            v = width[3]
        ));
        s
    };
    writeln!(out, "{}", line(head))?;
    for r in &rows {
        writeln!(out, "{}", line([&r[0], &r[1], &r[2], &r[3]]))?;
    }
    Ok(())
}

/// The sensitivity table as CSV, one line per jump in the table's order:
/// `kind,from,to,turns,change` (decimals, or fractions with `exact`; `endless` where the game
/// can then last for ever).
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_sensitivity_csv(
    out: &mut dyn Write,
    removals: &[Removal],
    digits: usize,
    exact: bool,
) -> io::Result<()> {
    writeln!(out, "kind,from,to,turns,change")?;
    for r in removals {
        writeln!(
            out,
            "{},{},{},{},{}",
            r.jump.kind(),
            r.jump.from,
            r.jump.to,
            cell(r.turns.as_ref(), digits, exact),
            cell(r.change.as_ref(), digits, exact)
        )?;
    }
    Ok(())
}

/// Writes the expected turns per die size, the best marked with `<- best`.
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_die_sweep(
    out: &mut dyn Write,
    board: &Board,
    sweep: &DieSweep,
    digits: usize,
    exact: bool,
) -> io::Result<()> {
    write_heading(out, board)?;
    let cells: Vec<String> = sweep
        .dice
        .iter()
        .map(|d| cell(d.turns.as_ref(), digits, exact))
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0).max(5);
    writeln!(out, "{:>4}  {:>width$}", "die", "turns")?;
    for (d, c) in sweep.dice.iter().zip(&cells) {
        let f = d.die;
        let mark = if Some(f) == sweep.best {
            "  <- best"
        } else {
            ""
        };
        writeln!(out, "{f:>4}  {c:>width$}{mark}")?;
    }
    Ok(())
}

/// The die sweep as CSV: `die,turns,best` (decimals, or fractions with `exact`; `best` is 1 on
/// the best die's line).
///
/// # Errors
///
/// Writing to `out` failed.
pub fn write_die_sweep_csv(
    out: &mut dyn Write,
    sweep: &DieSweep,
    digits: usize,
    exact: bool,
) -> io::Result<()> {
    writeln!(out, "die,turns,best")?;
    for d in &sweep.dice {
        let mark = u8::from(Some(d.die) == sweep.best);
        writeln!(
            out,
            "{},{},{mark}",
            d.die,
            cell(d.turns.as_ref(), digits, exact)
        )?;
    }
    Ok(())
}
