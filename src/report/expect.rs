//! The `expect` report: expected turns and the other expectations, as text or JSON.

use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::expectation::{Expectation, FloatExpectation};
use crate::analysis::json::TrapJson;
use crate::board::{Board, Square};
use crate::chain::Trap;
use crate::num::decimal::{fixed, sqrt_fixed};
use crate::report::json::{BoardJson, ExactJson, RulesJson};
use crate::report::text::{board_line, float_text, fraction_text, rules_line};

/// What to show in an `expect` report: [`ExpectOptions::new`], then the fields set one by one.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ExpectOptions {
    /// Digits after the decimal point.
    pub digits: usize,
    /// Add the expected remaining turns from every reachable square.
    pub per_square: bool,
    /// Print every fraction whole, however long (`fraction_text`).
    pub exact: bool,
}

impl ExpectOptions {
    /// Decimals with `digits` after the point; no per-square table, no whole fractions.
    pub fn new(digits: usize) -> ExpectOptions {
        ExpectOptions {
            digits,
            per_square: false,
            exact: false,
        }
    }
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
    writeln!(out, "Rules            {}", rules_line(board))?;
    writeln!(out)?;
    match expectation {
        Expectation::Infinite(trap) => {
            writeln!(out, "Expected turns   infinite")?;
            writeln!(out, "                 {}", trap.sentence(board))?;
        }
        Expectation::Finite(e) => {
            writeln!(out, "Expected turns   {}", fixed(&e.turns, d))?;
            writeln!(
                out,
                "  exact          {}",
                fraction_text(&e.turns, options.exact)
            )?;
            writeln!(out, "Std deviation    {}", sqrt_fixed(&e.variance, d))?;
            writeln!(out, "Variance         {}", fixed(&e.variance, d))?;
            writeln!(
                out,
                "  exact          {}",
                fraction_text(&e.variance, options.exact)
            )?;
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

/// The JSON report of `expect` (documented in `docs/json-output.md`), built by [`to_json`] and
/// [`float_to_json`] and written by `serde_json` as it stands, without a `serde_json::Value` in
/// between. The fields are declared in alphabetical order, the key order of every other report.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ExpectJson<'a, X, S> {
    /// The game ends: `X` is [`ExactJson`] (or `f64` with `--float`), `S` the standard deviation
    /// (a decimal string, or `f64`).
    Finite(Box<FiniteJson<'a, X, S>>),
    /// The expected length is infinite.
    Infinite(Box<InfiniteJson<'a>>),
}

/// The keys of a finite game (see [`ExpectJson`]).
#[derive(Debug, Serialize)]
pub struct FiniteJson<'a, X, S> {
    board: BoardJson<'a>,
    expected_climbed: X,
    expected_ladders: X,
    expected_rolls: X,
    expected_slid: X,
    expected_snakes: X,
    expected_turns: X,
    finite: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    float: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_square: Option<Vec<SquareJson<X>>>,
    rules: RulesJson<'a>,
    /// `expect --float`: the significant digits the solve stands behind.
    #[serde(skip_serializing_if = "Option::is_none")]
    significant_digits: Option<u32>,
    std_dev: S,
    variance: X,
    /// `expect --float`: the variance's significant digits (0: below what the solve resolves).
    #[serde(skip_serializing_if = "Option::is_none")]
    variance_significant_digits: Option<u32>,
}

/// One row of `per_square`.
#[derive(Debug, Serialize)]
pub struct SquareJson<X> {
    expected_turns: X,
    square: Square,
}

/// The keys of an infinite game (see [`ExpectJson`]).
#[derive(Debug, Serialize)]
pub struct InfiniteJson<'a> {
    board: BoardJson<'a>,
    expected_rolls: &'static str,
    expected_turns: &'static str,
    finite: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    float: Option<bool>,
    rules: RulesJson<'a>,
    trap: TrapJson<'a>,
    variance: &'static str,
}

impl<'a> InfiniteJson<'a> {
    fn new(board: &'a Board, trap: &'a Trap<Square>, float: Option<bool>) -> InfiniteJson<'a> {
        InfiniteJson {
            board: BoardJson::new(board),
            expected_rolls: "infinite",
            expected_turns: "infinite",
            finite: false,
            float,
            rules: RulesJson::of(board),
            trap: TrapJson::new(board, trap),
            variance: "infinite",
        }
    }
}

/// The JSON report (documented in `docs/json-output.md`).
pub fn to_json<'a>(
    board: &'a Board,
    expectation: &'a Expectation,
    options: ExpectOptions,
) -> ExpectJson<'a, ExactJson, String> {
    let d = options.digits;
    let e = match expectation {
        Expectation::Infinite(trap) => {
            return ExpectJson::Infinite(Box::new(InfiniteJson::new(board, trap, None)))
        }
        Expectation::Finite(e) => e,
    };
    let x = |r| ExactJson::new(r, d);
    ExpectJson::Finite(Box::new(FiniteJson {
        board: BoardJson::new(board),
        expected_climbed: x(&e.climbed),
        expected_ladders: x(&e.ladders),
        expected_rolls: x(&e.rolls),
        expected_slid: x(&e.slid),
        expected_snakes: x(&e.snakes),
        expected_turns: x(&e.turns),
        finite: true,
        float: None,
        per_square: options.per_square.then(|| {
            e.per_square
                .iter()
                .map(|(square, turns)| SquareJson {
                    expected_turns: x(turns),
                    square: *square,
                })
                .collect()
        }),
        rules: RulesJson::of(board),
        significant_digits: None,
        std_dev: sqrt_fixed(&e.variance, d),
        variance: x(&e.variance),
        variance_significant_digits: None,
    }))
}

/// Writes the text report of `expect --float`: the same lines, floating point, no fractions,
/// each figure with the significant digits the solve stands behind
/// (`crate::analysis::float_trust`) and at most `--digits` after the point.
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
    let d = options.digits;
    writeln!(out, "Board            {}", board_line(board))?;
    writeln!(out, "Rules            {}", rules_line(board))?;
    let e = match expectation {
        FloatExpectation::Infinite(trap) => {
            writeln!(out, "Arithmetic       floating point (--float)")?;
            writeln!(out)?;
            writeln!(out, "Expected turns   infinite")?;
            return writeln!(out, "                 {}", trap.sentence(board));
        }
        FloatExpectation::Finite(e) => e,
    };
    let trust = &e.trust;
    writeln!(
        out,
        "Arithmetic       floating point (--float): {} significant digits (condition number \
         about {:.0e})",
        trust.digits, trust.condition
    )?;
    writeln!(out)?;
    let f = |x: f64| float_text(x, trust.digits, d);
    writeln!(out, "Expected turns   {}", f(e.turns))?;
    if trust.variance_digits == 0 {
        let bound = trust.variance_bound;
        writeln!(
            out,
            "Std deviation    below {:.1e} (not resolved)",
            bound.sqrt()
        )?;
        writeln!(
            out,
            "Variance         below {bound:.1e} (not resolved in floating point)"
        )?;
    } else {
        let v = |x: f64| float_text(x, trust.variance_digits, d);
        writeln!(out, "Std deviation    {}", v(e.variance.sqrt()))?;
        writeln!(out, "Variance         {}", v(e.variance))?;
    }
    writeln!(out, "Expected rolls   {}", f(e.rolls))?;
    writeln!(out, "Snakes taken     {}", f(e.snakes))?;
    writeln!(out, "Ladders taken    {}", f(e.ladders))?;
    writeln!(out, "Squares climbed  {}", f(e.climbed))?;
    writeln!(out, "Squares slid     {}", f(e.slid))?;
    if options.per_square {
        writeln!(out)?;
        writeln!(out, "{:>6}  expected remaining turns", "square")?;
        for &(square, turns) in &e.per_square {
            let shown = float_text(turns, trust.digits_for(turns).max(1), d);
            writeln!(out, "{square:>6}  {shown}")?;
        }
    }
    Ok(())
}

/// The JSON report of `expect --float`: the keys of [`to_json`], with plain numbers instead of
/// exact objects and `"float": true`.
pub fn float_to_json<'a>(
    board: &'a Board,
    expectation: &'a FloatExpectation,
    options: ExpectOptions,
) -> ExpectJson<'a, f64, f64> {
    let e = match expectation {
        FloatExpectation::Infinite(trap) => {
            return ExpectJson::Infinite(Box::new(InfiniteJson::new(board, trap, Some(true))))
        }
        FloatExpectation::Finite(e) => e,
    };
    ExpectJson::Finite(Box::new(FiniteJson {
        board: BoardJson::new(board),
        expected_climbed: e.climbed,
        expected_ladders: e.ladders,
        expected_rolls: e.rolls,
        expected_slid: e.slid,
        expected_snakes: e.snakes,
        expected_turns: e.turns,
        finite: true,
        float: Some(true),
        per_square: options.per_square.then(|| {
            e.per_square
                .iter()
                .map(|&(square, expected_turns)| SquareJson {
                    expected_turns,
                    square,
                })
                .collect()
        }),
        rules: RulesJson::of(board),
        significant_digits: Some(e.trust.digits),
        std_dev: e.variance.max(0.0).sqrt(),
        variance: e.variance,
        variance_significant_digits: Some(e.trust.variance_digits),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::expectation::{expect_float, expect_with};

    /// The report written directly, and the same report through `serde_json::Value` (a sorted
    /// map, as every other report is built): the same text, so the keys are declared in order.
    fn assert_keys_sorted<T: Serialize>(report: &T) {
        let direct = serde_json::to_string_pretty(report).unwrap();
        let value = serde_json::to_value(report).unwrap();
        assert_eq!(direct, serde_json::to_string_pretty(&value).unwrap());
    }

    #[test]
    fn the_json_keys_come_in_alphabetical_order() {
        let tiny = crate::board::builtin("tiny").unwrap();
        let trapped = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        for board in [&tiny, &trapped] {
            for per_square in [false, true] {
                let mut options = ExpectOptions::new(3);
                options.per_square = per_square;
                let exact = expect_with(board, per_square);
                assert_keys_sorted(&to_json(board, &exact, options));
                let float = expect_float(board, per_square).unwrap();
                assert_keys_sorted(&float_to_json(board, &float, options));
            }
        }
    }
}
