//! The `expect` report: expected turns and the other expectations, as text or JSON.

use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::expectation::{Expectation, FloatExpectation};
use crate::board::{Board, Square};
use crate::chain::Trap;
use crate::exact::decimal::{fixed, sqrt_fixed};
use crate::report::json::{BoardJson, ExactJson, RulesJson};
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
    writeln!(out, "Rules            {}", rules_line(board))?;
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
    std_dev: S,
    variance: X,
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

/// Where an infinite game gets stuck.
#[derive(Debug, Serialize)]
struct TrapJson<'a> {
    cycle: &'a [Square],
    message: String,
    square: Square,
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
            trap: TrapJson {
                cycle: &trap.cycle,
                message: trap_sentence(trap),
                square: trap.state,
            },
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
        std_dev: sqrt_fixed(&e.variance, d),
        variance: x(&e.variance),
    }))
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
    writeln!(out, "Rules            {}", rules_line(board))?;
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
        std_dev: e.variance.max(0.0).sqrt(),
        variance: e.variance,
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
        let tiny = crate::board::builtin("tiny").unwrap().unwrap();
        let trapped = Board::from_toml_str(
            "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
            "t",
        )
        .unwrap();
        for board in [&tiny, &trapped] {
            for per_square in [false, true] {
                let options = ExpectOptions {
                    digits: 3,
                    per_square,
                };
                let exact = expect_with(board, per_square);
                assert_keys_sorted(&to_json(board, &exact, options));
                let float = expect_float(board, per_square);
                assert_keys_sorted(&float_to_json(board, &float, options));
            }
        }
    }
}
