//! `ladders pgf BOARD`: the probability generating function of the number of turns as N(z)/D(z)
//! and the minimal recurrence of P(T = n).

use ladders::analysis::stateful_fits::{check_stateful, Needs};
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::pgf::tail::decay_rate;
use ladders::analysis::pgf::{pgf_within, PGF_SECONDS_LIMIT};
use ladders::analysis::stateful::law_chain;
use ladders::board::Board;
use ladders::chain::{Chain, ChainState};
use ladders::game::Capabilities;
use ladders::report::pgf::{cas_line, to_json, write_text, PgfFormat};

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

/// Runs `pgf`: on a board that changes during a game (one-use jumps, points, lost or extra
/// turns) over the chain of the player state without the eaten point squares (`law_chain`:
/// the same law of T), else over the squares.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let board = args.board.load()?;
    ladders::chain::check_fits(&board)?;
    check_stateful(&board, Needs::Law)?;
    if !Capabilities::of(&board).stateless {
        report(args, &board, &law_chain(&board), out)?;
    } else {
        report(args, &board, &Chain::for_board(&board), out)?;
    }
    Ok(exit::code(exit::SUCCESS))
}

fn report<S: ChainState>(
    args: &Args,
    board: &Board,
    chain: &Chain<S>,
    out: &mut dyn Write,
) -> Result<()> {
    let f = pgf_within(chain, PGF_SECONDS_LIMIT)?;
    if args.output.json {
        let rate = decay_rate(chain, &f);
        write_json(out, &to_json(board, &f, rate.as_ref()))?;
    } else if let Some(format) = args.format {
        writeln!(out, "{}", cas_line(&f, format))?;
    } else {
        let rate = decay_rate(chain, &f);
        write_text(out, board, &f, rate.as_ref(), args.digits.get())?;
    }
    Ok(())
}
