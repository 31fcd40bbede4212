//! The `distribution` report: the exact law of the number of turns as a summary with a table, a
//! bar chart or CSV (from a [`ShownDistribution`]: decimals decided by certified bounds, or
//! fractions); its JSON is the serde form of `analysis::json::DistributionJson` over the exact
//! law.

use std::io::{self, Write};

use crate::analysis::distribution::{Mean, Stop};
use crate::analysis::shown::ShownDistribution;
use crate::board::Board;
use crate::num::decimal::{fixed, push_integer, push_spaces, put_integer, to_f64};
use crate::report::text::{board_line, rules_line};

fn turns_word(n: usize) -> String {
    if n == 1 {
        "1 turn".to_string()
    } else {
        format!("{n} turns")
    }
}

/// The summary lines of the text report.
fn write_summary(out: &mut dyn Write, board: &Board, dist: &ShownDistribution) -> io::Result<()> {
    let digits = dist.digits;
    let n = dist.turns();
    let why = match dist.stop {
        Stop::Tail => format!("P(T > {n}) < {:e}", to_f64(&dist.tail_threshold)),
        Stop::Turns => "as asked".to_string(),
        Stop::TrapLimit => "the game can go on forever".to_string(),
    };
    writeln!(out, "Turns computed   1 to {n} ({why})")?;
    writeln!(out, "{:<17}{}", format!("P(T > {n})"), dist.tail)?;
    match &dist.mean {
        Mean::Exact(m) => writeln!(out, "Mean             {} (exact: {m})", fixed(m, digits))?,
        Mean::About(m) => writeln!(
            out,
            "Mean             {m:.3} (approximate: the terms plus a geometric tail)"
        )?,
        Mean::Infinite => writeln!(out, "Mean             infinite")?,
    }
    match &dist.mode {
        Some((m, Some(p))) => writeln!(out, "Mode             {} (P(T = {m}) = {p})", turns_word(*m))?,
        Some((m, None)) => writeln!(out, "Mode             {}", turns_word(*m))?,
        // Every term computed is 0: some later n is likelier than all of them.
        None if dist.all_zero => writeln!(out, "Mode             beyond the turns computed")?,
        None => writeln!(
            out,
            "Mode             not decided by the turns computed (P(T > {n}) could hold a likelier n)"
        )?,
    }
    for q in &dist.quantiles {
        let x = to_f64(&q.level);
        let label = if x == 0.5 {
            "Median".to_string()
        } else {
            format!("{} %", x * 100.0)
        };
        let value = match q.turns {
            Some(t) => turns_word(t),
            None => format!("more than {}", turns_word(n)),
        };
        writeln!(out, "{label:<17}{value}")?;
    }
    if let Some(decay) = &dist.decay {
        writeln!(out, "Decay rate       {}", decay.rho_text(6))?;
        writeln!(out, "                 {}", decay.sentence())?;
    }
    if let Some(law) = &dist.tail_law {
        writeln!(out, "Tail law         {}", law.sentence())?;
    }
    if let Some(trap) = &dist.trap {
        writeln!(out, "Endless games    {}", trap.sentence(board))?;
    }
    Ok(())
}

/// Writes the text report: the summary, then the table (or the bar chart); a table longer than
/// `SUMMARY_FIRST_ROWS` comes first and the summary after it.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    dist: &ShownDistribution,
    chart: bool,
) -> io::Result<()> {
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out)?;
    if chart {
        write_summary(out, board, dist)?;
        writeln!(out)?;
        return write_chart(out, dist, 80);
    }
    // A long table would scroll the summary off the screen: then the summary comes last, where
    // the terminal stops.
    if dist.terms.len() <= SUMMARY_FIRST_ROWS {
        write_summary(out, board, dist)?;
        writeln!(out)?;
        return write_table(out, dist);
    }
    writeln!(
        out,
        "Summary          below the table of {} rows",
        dist.terms.len()
    )?;
    writeln!(out)?;
    write_table(out, dist)?;
    writeln!(out)?;
    write_summary(out, board, dist)
}

/// Tables up to this many rows follow the summary; longer ones come before it.
pub const SUMMARY_FIRST_ROWS: usize = 40;

fn write_table(out: &mut dyn Write, dist: &ShownDistribution) -> io::Result<()> {
    let w = (dist.digits + 3).max(9);
    writeln!(
        out,
        "{:>5}  {:<w$}  {:<w$}  {:<w$}",
        "n", "P(T = n)", "P(T <= n)", "P(T > n)"
    )?;
    // Each row as `{:>5}  {:<w$}  {:<w$}  {:<w$}` writes it, without the formatter, and the
    // rows to `out` a few at a time.
    let mut text = Vec::with_capacity(CHUNK + 256);
    for t in &dist.terms {
        let cells = t.table();
        if !push_fitted_row(&mut text, t.n, cells, w) {
            push_row(&mut text, t.n, cells, w);
        }
        if text.len() >= CHUNK {
            out.write_all(&text)?;
            text.clear();
        }
    }
    out.write_all(&text)
}

/// A row of the table at the end of `text` when its number has at most five digits and its
/// cells are ASCII and at most `w` long (every row of decimals): a line of spaces, the number
/// and the cells copied into their columns; false (and `text` as it was) otherwise.
fn push_fitted_row(text: &mut Vec<u8>, n: usize, cells: [&str; 3], w: usize) -> bool {
    if !cells.iter().all(|c| c.len() <= w && c.is_ascii()) {
        return false;
    }
    let start = text.len();
    text.resize(start + 5 + 3 * (2 + w) + 1, b' ');
    let line = &mut text[start..];
    if !put_integer(&mut line[..5], n as u64) {
        text.truncate(start);
        return false;
    }
    for (k, cell) in cells.iter().enumerate() {
        let at = 7 + k * (w + 2);
        line[at..at + cell.len()].copy_from_slice(cell.as_bytes());
    }
    line[line.len() - 1] = b'\n';
    true
}

/// A row of the table at the end of `text`, any row: its pieces one after another.
fn push_row(text: &mut Vec<u8>, n: usize, cells: [&str; 3], w: usize) {
    push_integer(text, n as u64, 5);
    for cell in cells {
        text.extend_from_slice(b"  ");
        text.extend_from_slice(cell.as_bytes());
        // The formatter pads to a width in characters.
        let chars = match cell.is_ascii() {
            true => cell.len(),
            false => cell.chars().count(),
        };
        push_spaces(text, w.saturating_sub(chars));
    }
    text.push(b'\n');
}

/// About how many bytes of rows [`write_table`] and [`write_csv`] gather before they write
/// them (one call to `out` for many rows, not one for each).
const CHUNK: usize = 4096;

/// Writes a bar chart of P(T = n) no wider than `width` columns: one row per turn, or per
/// group of turns when there are more than 50 up to the 99.9 % quantile.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_chart(out: &mut dyn Write, dist: &ShownDistribution, width: usize) -> io::Result<()> {
    let last = dist
        .quantiles
        .last()
        .and_then(|q| q.turns)
        .unwrap_or(dist.turns())
        .clamp(1, dist.turns().max(1));
    let probs: Vec<f64> = dist.terms[..last.min(dist.terms.len())]
        .iter()
        .map(|t| t.p_f64)
        .collect();
    if probs.is_empty() {
        return Ok(());
    }
    let group = probs.len().div_ceil(50);
    let bins: Vec<(usize, usize, f64)> = probs
        .chunks(group)
        .enumerate()
        .map(|(b, c)| (b * group + 1, b * group + c.len(), c.iter().sum()))
        .collect();
    let top = bins.iter().map(|b| b.2).fold(0.0, f64::max);
    let label = |lo: usize, hi: usize| {
        if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo}-{hi}")
        }
    };
    let lw = bins
        .iter()
        .map(|b| label(b.0, b.1).len())
        .max()
        .unwrap_or(1);
    let bar_width = width.saturating_sub(lw + 2 + 9);
    let what = if group == 1 {
        "P(T = n)".to_string()
    } else {
        format!("P(T = n), {group} turns a row")
    };
    writeln!(out, "{:>lw$}  {what}", "n")?;
    for (lo, hi, p) in bins {
        let len = if top > 0.0 {
            (p / top * bar_width as f64).round() as usize
        } else {
            0
        };
        writeln!(
            out,
            "{:>lw$}  {:<bar_width$} {:>7.3}%",
            label(lo, hi),
            "#".repeat(len),
            p * 100.0
        )?;
    }
    Ok(())
}

/// Writes CSV: `n,p,cdf,survives` with decimals (or fractions with `exact`).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_csv(out: &mut dyn Write, dist: &ShownDistribution) -> io::Result<()> {
    writeln!(out, "n,p,cdf,survives")?;
    // Each row as `{},{},{},{}` writes it, without the formatter, a few rows at a time.
    let mut text = Vec::with_capacity(CHUNK + 256);
    for t in &dist.terms {
        push_integer(&mut text, t.n as u64, 0);
        for cell in t.csv() {
            text.push(b',');
            text.extend_from_slice(cell.as_bytes());
        }
        text.push(b'\n');
        if text.len() >= CHUNK {
            out.write_all(&text)?;
            text.clear();
        }
    }
    out.write_all(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shown::ShownTerm;

    /// A distribution with the given rows and nothing else (the table and the CSV read only
    /// those and the digits).
    fn with_rows(terms: Vec<ShownTerm>, digits: usize) -> ShownDistribution {
        ShownDistribution {
            terms,
            digits,
            starts_finished: false,
            stop: Stop::Turns,
            tail_threshold: num_rational::BigRational::from_integer(0.into()),
            tail: String::new(),
            quantiles: Vec::new(),
            mode: None,
            all_zero: false,
            mean: Mean::Infinite,
            decay: None,
            tail_law: None,
            trap: None,
        }
    }

    #[test]
    fn rows_are_written_as_the_formatter_writes_them() {
        // Second method: the rows' format strings before the writers lost the formatter. Short
        // cells padded, cells as long as a narrow column (9) and one longer, cells longer than
        // the column (fractions), a non-ASCII cell (padded by characters), n of every width
        // (five digits fit the fitted rows, six do not), at a narrow and a wide column.
        let rows = [
            (99_999, ["123456789", "0.5", "x"], ["1", "2", "3"]),
            (100_000, ["0.5", "0.5", "0.5"], ["1", "2", "3"]),
            (9, ["0.5", "1234567890", "0.5"], ["1", "2", "3"]),
            (1, ["0.25", "0.25", "0.75"], ["0.25", "0.25", "0.75"]),
            (12, ["3.308e-9", "1 - 2.4e-5", "0.5"], ["0.0", "1.0", "0.5"]),
            (
                123_456,
                ["1/3", "2/3", "123456789012345/2"],
                ["1/3", "2/3", "x"],
            ),
            (7, ["½", "é ü", ""], ["½", "", "0"]),
        ];
        for digits in [0, 6, 12, 40] {
            let terms = rows
                .iter()
                .map(|&(n, table, csv)| ShownTerm::new(n, table, csv, 0.5))
                .collect();
            let dist = with_rows(terms, digits);
            let w = (digits + 3).max(9);
            let mut table = format!(
                "{:>5}  {:<w$}  {:<w$}  {:<w$}\n",
                "n", "P(T = n)", "P(T <= n)", "P(T > n)"
            );
            let mut csv = "n,p,cdf,survives\n".to_string();
            for (n, [a, b, c], [x, y, z]) in rows {
                table += &format!("{n:>5}  {a:<w$}  {b:<w$}  {c:<w$}\n");
                csv += &format!("{n},{x},{y},{z}\n");
            }
            let mut out = Vec::new();
            write_table(&mut out, &dist).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), table, "{digits}");
            let mut out = Vec::new();
            write_csv(&mut out, &dist).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), csv, "{digits}");
        }
    }
}
