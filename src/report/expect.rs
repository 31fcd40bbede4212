//! The `expect` report: expected turns and the other expectations, as text or JSON.

use std::io::{self, Write};

use serde_json::json;

use crate::analysis::expectation::{Expectation, FloatExpectation};
use crate::board::{Board, Square};
use crate::chain::Trap;
use crate::exact::decimal::{fixed, sqrt_fixed};
use crate::report::json::{rules_json, BoardJson, ExactJson};
use crate::report::text::{board_line, rules_line};

/// What to show in an `expect` report.
#[derive(Clone, Copy, Debug)]
pub struct ExpectOptions {
    /// Digits after the decimal point.
    pub digits: usize,
    /// Add the expected remaining turns from every reachable square.
    pub per_square: bool,
}

/// A sentence explaining a trap: where the game gets stuck and how.
pub fn trap_sentence(trap: &Trap<Square>) -> String {
    let cycle: Vec<String> = trap.cycle.iter().map(|s| s.to_string()).collect();
    format!(
        "from square {} the finish can never be reached: the token can go round {} forever",
        trap.state,
        cycle.join(" -> ")
    )
}

/// Writes the text report.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_text(
    out: &mut dyn Write,
    board: &Board,
    expectation: &Expectation,
    options: ExpectOptions,
) -> io::Result<()> {
    let d = options.digits;
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board.rules()))?;
    writeln!(out)?;
    match expectation {
        Expectation::Infinite(trap) => {
            writeln!(out, "Expected turns   infinite")?;
            writeln!(out, "                 {}", trap_sentence(trap))?;
        }
        Expectation::Finite(e) => {
            writeln!(out, "Expected turns   {}", fixed(&e.turns, d))?;
            writeln!(out, "  exact          {}", e.turns)?;
            writeln!(out, "Std deviation    {}", sqrt_fixed(&e.variance, d))?;
            writeln!(out, "Variance         {}", fixed(&e.variance, d))?;
            writeln!(out, "  exact          {}", e.variance)?;
            writeln!(out, "Expected rolls   {}", fixed(&e.rolls, d))?;
            writeln!(out, "Snakes taken     {}", fixed(&e.snakes, d))?;
            writeln!(out, "Ladders taken    {}", fixed(&e.ladders, d))?;
            writeln!(out, "Squares climbed  {}", fixed(&e.climbed, d))?;
            writeln!(out, "Squares slid     {}", fixed(&e.slid, d))?;
            if options.per_square {
                writeln!(out)?;
                writeln!(out, "{:>6}  expected remaining turns", "square")?;
                for (square, turns) in &e.per_square {
                    writeln!(out, "{square:>6}  {}", fixed(turns, d))?;
                }
            }
        }
    }
    Ok(())
}

/// The fields of an infinite game, for [`to_json`] and [`float_to_json`] alike.
fn insert_infinite(obj: &mut serde_json::Map<String, serde_json::Value>, trap: &Trap<Square>) {
    obj.insert("finite".into(), json!(false));
    obj.insert("expected_turns".into(), json!("infinite"));
    obj.insert("variance".into(), json!("infinite"));
    obj.insert("expected_rolls".into(), json!("infinite"));
    obj.insert(
        "trap".into(),
        json!({
            "square": trap.state,
            "cycle": trap.cycle,
            "message": trap_sentence(trap),
        }),
    );
}

/// The JSON report (documented in `docs/json-output.md`).
pub fn to_json(
    board: &Board,
    expectation: &Expectation,
    options: ExpectOptions,
) -> serde_json::Value {
    let d = options.digits;
    let mut v = json!({
        "board": BoardJson::new(board),
        "rules": rules_json(board.rules()),
    });
    let obj = v.as_object_mut().expect("object");
    match expectation {
        Expectation::Infinite(trap) => {
            insert_infinite(obj, trap);
        }
        Expectation::Finite(e) => {
            let x = |r| serde_json::to_value(ExactJson::new(r, d)).expect("serializes");
            obj.insert("finite".into(), json!(true));
            obj.insert("expected_turns".into(), x(&e.turns));
            obj.insert("variance".into(), x(&e.variance));
            obj.insert("std_dev".into(), json!(sqrt_fixed(&e.variance, d)));
            obj.insert("expected_rolls".into(), x(&e.rolls));
            obj.insert("expected_snakes".into(), x(&e.snakes));
            obj.insert("expected_ladders".into(), x(&e.ladders));
            obj.insert("expected_climbed".into(), x(&e.climbed));
            obj.insert("expected_slid".into(), x(&e.slid));
            if options.per_square {
                let rows: Vec<serde_json::Value> = e
                    .per_square
                    .iter()
                    .map(|(s, t)| json!({"square": s, "expected_turns": x(t)}))
                    .collect();
                obj.insert("per_square".into(), json!(rows));
            }
        }
    }
    v
}

/// Significant digits shown for floating-point results (f64 carries 15 to 17).
const FLOAT_DIGITS: usize = 12;

/// Writes the text report of `expect --float`: the same lines, floating point, no fractions.
///
/// # Errors
///
/// Only those of `out`.
pub fn write_float_text(
    out: &mut dyn Write,
    board: &Board,
    expectation: &FloatExpectation,
    options: ExpectOptions,
) -> io::Result<()> {
    let d = options.digits.min(FLOAT_DIGITS);
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board.rules()))?;
    writeln!(
        out,
        "Arithmetic       floating point (--float): about 12 significant digits"
    )?;
    writeln!(out)?;
    match expectation {
        FloatExpectation::Infinite(trap) => {
            writeln!(out, "Expected turns   infinite")?;
            writeln!(out, "                 {}", trap_sentence(trap))?;
        }
        FloatExpectation::Finite(e) => {
            writeln!(out, "Expected turns   {:.d$}", e.turns)?;
            writeln!(out, "Std deviation    {:.d$}", e.variance.max(0.0).sqrt())?;
            writeln!(out, "Variance         {:.d$}", e.variance)?;
            writeln!(out, "Expected rolls   {:.d$}", e.rolls)?;
            writeln!(out, "Snakes taken     {:.d$}", e.snakes)?;
            writeln!(out, "Ladders taken    {:.d$}", e.ladders)?;
            writeln!(out, "Squares climbed  {:.d$}", e.climbed)?;
            writeln!(out, "Squares slid     {:.d$}", e.slid)?;
            if options.per_square {
                writeln!(out)?;
                writeln!(out, "{:>6}  expected remaining turns", "square")?;
                for (square, turns) in &e.per_square {
                    writeln!(out, "{square:>6}  {turns:.d$}")?;
                }
            }
        }
    }
    Ok(())
}

/// The JSON report of `expect --float`: the keys of [`to_json`], with plain numbers instead of
/// exact objects and `"float": true`.
pub fn float_to_json(
    board: &Board,
    expectation: &FloatExpectation,
    options: ExpectOptions,
) -> serde_json::Value {
    let mut v = json!({
        "board": BoardJson::new(board),
        "rules": rules_json(board.rules()),
        "float": true,
    });
    let obj = v.as_object_mut().expect("object");
    match expectation {
        FloatExpectation::Infinite(trap) => {
            insert_infinite(obj, trap);
        }
        FloatExpectation::Finite(e) => {
            obj.insert("finite".into(), json!(true));
            obj.insert("expected_turns".into(), json!(e.turns));
            obj.insert("variance".into(), json!(e.variance));
            obj.insert("std_dev".into(), json!(e.variance.max(0.0).sqrt()));
            obj.insert("expected_rolls".into(), json!(e.rolls));
            obj.insert("expected_snakes".into(), json!(e.snakes));
            obj.insert("expected_ladders".into(), json!(e.ladders));
            obj.insert("expected_climbed".into(), json!(e.climbed));
            obj.insert("expected_slid".into(), json!(e.slid));
            if options.per_square {
                let rows: Vec<serde_json::Value> = e
                    .per_square
                    .iter()
                    .map(|(s, t)| json!({"square": s, "expected_turns": t}))
                    .collect();
                obj.insert("per_square".into(), json!(rows));
            }
        }
    }
    v
}
