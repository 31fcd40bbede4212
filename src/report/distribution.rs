//! The `distribution` report: the exact law of the number of turns as a summary with a table, a
//! bar chart or CSV (from a [`ShownDistribution`]: decimals decided by certified bounds, or
//! fractions), or JSON (from the exact [`Distribution`]).

use std::io::{self, Write};

use num_rational::BigRational;
use serde_json::json;

use crate::analysis::distribution::{Decay, Distribution, Mean, Stop};
use crate::analysis::shown::ShownDistribution;
use crate::board::Board;
use crate::num::decimal::{fixed, push_integer, push_spaces, put_integer, to_f64};
use crate::report::json::{board_rules_json, BoardJson, ExactJson};
use crate::report::pgf::certified_digits;
use crate::report::text::{board_line, rules_line};

/// A sentence a person understands for the tail's decay.
///
/// rho = 0.9306 settled after 60 turns reads "beyond about 60 turns, each extra turn multiplies
/// the chance the game is still going by 0.931" (the tests below).
pub fn decay_sentence(decay: &Decay) -> String {
    let rho = rho_text(decay, 3);
    match decay.settles_after {
        Some(n) => format!(
            "beyond about {n} turns, each extra turn multiplies the chance the game is still going by {rho}"
        ),
        // No settled ratio: on a periodic chain P(T > n + 1) / P(T > n) oscillates, and with a
        // multiple root it tends to rho only slowly; the n-th root of P(T > n) tends to rho
        // whenever the game always ends.
        None => format!(
            "the chance the game is still going after n turns shrinks like {rho}^n in the long run (its n-th root tends to {rho}; the ratio of consecutive turns need not settle)"
        ),
    }
}

/// rho to the digits (at most `digits`, at least 3) that both its proved bounds round to, or
/// the estimate marked `about` when they differ at 3 digits.
///
/// Bounds 0.972291 and 0.972294 give "0.97229"; bounds 0.4 and 0.6 give "about 0.500" (the
/// tests below).
pub fn rho_text(decay: &Decay, digits: usize) -> String {
    let proved = match (
        BigRational::from_float(decay.low),
        BigRational::from_float(decay.high),
    ) {
        (Some(low), Some(high)) => certified_digits(&low, &high, digits).map(|(_, text)| text),
        _ => None,
    };
    proved.unwrap_or_else(|| format!("about {:.3}", decay.rho))
}

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
        writeln!(out, "Decay rate       {}", rho_text(decay, 6))?;
        writeln!(out, "                 {}", decay_sentence(decay))?;
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

/// The distribution's own JSON keys (shared with `analyze`).
pub fn summary_json(board: &Board, dist: &Distribution, digits: usize) -> serde_json::Value {
    let x = |r: &BigRational| serde_json::to_value(ExactJson::new(r, digits)).expect("serializes");
    let quantiles: serde_json::Map<String, serde_json::Value> = dist
        .quantiles
        .iter()
        .map(|q| (format!("{}", to_f64(&q.level)), json!(q.turns)))
        .collect();
    json!({
        "turns": dist.turns(),
        "stopped": match dist.stop {
            Stop::Tail => "tail",
            Stop::Turns => "turns",
            Stop::TrapLimit => "endless",
        },
        "tail": x(&dist.tail()),
        "mean": match &dist.mean {
            Mean::Exact(m) => json!({"exact": x(m)}),
            Mean::About(m) => json!({"about": m}),
            Mean::Infinite => json!("infinite"),
        },
        "mode": dist.mode,
        "quantiles": quantiles,
        "decay": dist.decay.map(|d| json!({
            "rho": d.rho,
            "low": d.low,
            "high": d.high,
            "proved": rho_text(&d, 6),
            "settles_after": d.settles_after,
            "sentence": decay_sentence(&d),
        })),
        "tail_law": dist.tail_law.as_ref().map(|l| json!({
            "c": l.c_text,
            "rho": l.rho_text,
            "within": l.within_text,
            "from": l.from,
            "sentence": l.sentence(),
        })),
        "trap": dist.trap.as_ref().map(|t| json!({
            "square": t.state,
            "cycle": t.cycle,
            "message": t.sentence(board),
        })),
    })
}

/// The JSON report (documented in `docs/json-output.md`).
pub fn to_json(board: &Board, dist: &Distribution, digits: usize) -> serde_json::Value {
    let x = |r: &BigRational| serde_json::to_value(ExactJson::new(r, digits)).expect("serializes");
    let mut v = json!({
        "board": BoardJson::new(board),
        "rules": board_rules_json(board),
    });
    let obj = v.as_object_mut().expect("object");
    if let serde_json::Value::Object(summary) = summary_json(board, dist, digits) {
        obj.extend(summary);
    }
    let terms: Vec<serde_json::Value> = dist
        .terms
        .iter()
        .map(|t| json!({"n": t.n, "p": x(&t.p), "cdf": x(&t.cdf())}))
        .collect();
    obj.insert("distribution".into(), json!(terms));
    v
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
            tail_threshold: BigRational::from_integer(0.into()),
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

    #[test]
    fn a_settled_decay_is_told_per_extra_turn() {
        let d = Decay {
            rho: 0.9306,
            low: 0.93059,
            high: 0.93061,
            settles_after: Some(60),
        };
        assert_eq!(
            decay_sentence(&d),
            "beyond about 60 turns, each extra turn multiplies the chance the game is still going by 0.931"
        );
    }

    #[test]
    fn rho_shows_the_digits_its_bounds_prove_or_about() {
        let d = Decay {
            rho: 0.97229,
            low: 0.972291,
            high: 0.972294,
            settles_after: None,
        };
        assert_eq!(rho_text(&d, 6), "0.97229");
        let wide = Decay {
            rho: 0.5,
            low: 0.4,
            high: 0.6,
            settles_after: None,
        };
        assert_eq!(rho_text(&wide, 6), "about 0.500");
    }
}
