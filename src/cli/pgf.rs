//! `ladders pgf BOARD`: the probability generating function of the number of turns as N(z)/D(z)
//! and the minimal recurrence of P(T = n).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::report::{cas_line, write_pgf as write_text, PgfFormat, PgfJson, Report};
use ladders::{ClosedForm, Game};

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;
use super::output_args::{Digits, Json};

/// Closed form: the generating function N(z)/D(z) and the recurrence of P(T = n)
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("digits", |a| a.help("Digits after the decimal point of E[T] (correctly rounded from the exact value)")),
    after_help = after_help!(
    "ladders pgf tiny",
    "ladders pgf tiny --format sympy"
)
)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub digits: Digits,
    #[command(flatten)]
    pub output: Json,
    /// Print one line defining F for a computer algebra system
    #[arg(long, value_name = "sympy|maple|mathematica", value_parser = parse_format, conflicts_with = "json")]
    pub format: Option<PgfFormat>,
}

fn parse_format(text: &str) -> Result<PgfFormat, String> {
    match text {
        "sympy" => Ok(PgfFormat::Sympy),
        "maple" => Ok(PgfFormat::Maple),
        "mathematica" => Ok(PgfFormat::Mathematica),
        _ => Err("expected one of sympy, maple, mathematica".to_string()),
    }
}

/// Runs `pgf`: the façade's closed form, printed.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = Game::from_board(args.board.load()?);
    let ClosedForm { pgf, decay, .. } = game.pgf()?;
    let board = game.board();
    if args.output.json {
        write_json(
            out,
            &Report::new(board, &PgfJson::new(&pgf, decay.as_ref()), 12).with_rules(),
        )?;
    } else if let Some(format) = args.format {
        writeln!(out, "{}", cas_line(&pgf, format))?;
    } else {
        write_text(out, board, &pgf, decay.as_ref(), args.digits.get())?;
    }
    Ok(exit::code(exit::SUCCESS))
}
