//! The `analyze` report: one screen answering the common questions, as text or one JSON object.

use std::io::{self, Write};

use serde_json::json;

use crate::analysis::expectation::Expectation;
use crate::analysis::summary::{Summary, WITHIN};
use crate::board::Board;
use crate::num::decimal::{fixed, probability, sqrt_fixed};
use crate::report::distribution::summary_json;
use crate::report::json::{board_rules_json, BoardJson, ExactJson};
use crate::report::shortest::{extremes_json, write_extremes};
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

/// The JSON report (documented in `docs/json-output.md`).
pub fn to_json(board: &Board, summary: &Summary, digits: usize) -> serde_json::Value {
    let x = |r: &num_rational::BigRational| {
        serde_json::to_value(ExactJson::new(r, digits)).expect("serializes")
    };
    let d = &summary.distribution;
    let (shortest, longest) = extremes_json(board, &summary.extremes, digits);
    let within: Vec<serde_json::Value> = WITHIN
        .iter()
        .filter_map(|&n| d.within(n).map(|p| json!({"turns": n, "p": x(&p)})))
        .collect();
    let summary_d = summary_json(board, d, digits);
    let mut v = json!({
        "board": BoardJson::new(board),
        "rules": board_rules_json(board),
        "quantiles": summary_d["quantiles"],
        "within": within,
        "shortest": shortest,
        "longest": longest,
    });
    let obj = v.as_object_mut().expect("object");
    match &summary.expectation {
        Expectation::Infinite(trap) => {
            obj.insert("finite".into(), json!(false));
            obj.insert("expected_turns".into(), json!("infinite"));
            obj.insert(
                "trap".into(),
                json!({"square": trap.state, "cycle": trap.cycle, "message": trap.sentence(board)}),
            );
        }
        Expectation::Finite(e) => {
            obj.insert("finite".into(), json!(true));
            obj.insert("expected_turns".into(), x(&e.turns));
            obj.insert("variance".into(), x(&e.variance));
            obj.insert("std_dev".into(), json!(sqrt_fixed(&e.variance, digits)));
            obj.insert("expected_rolls".into(), x(&e.rolls));
            obj.insert("expected_snakes".into(), x(&e.snakes));
            obj.insert("expected_ladders".into(), x(&e.ladders));
        }
    }
    v
}
