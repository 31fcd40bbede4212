//! `ladders expect BOARD`: exact expected turns and the other expectations.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::expectation::{expect_float, expect_with};
use ladders::report::expect::{
    float_to_json, to_json, write_float_text, write_text, ExpectOptions,
};

use super::board_args::BoardArgs;
use super::exit;

/// Exact expected turns, variance, rolls, snakes and ladders
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Digits after the decimal point (correctly rounded from the exact value)
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub digits: u16,
    /// Add the expected remaining turns from every reachable square
    #[arg(long)]
    pub per_square: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Floating point instead of exact fractions (fast on large boards, about 12 digits)
    #[arg(long)]
    pub float: bool,
}

/// Runs `expect`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let board = args.board.load()?;
    let options = ExpectOptions {
        digits: usize::from(args.digits),
        per_square: args.per_square,
    };
    if args.float {
        let expectation = expect_float(&board, args.per_square);
        if args.json {
            serde_json::to_writer_pretty(&mut *out, &float_to_json(&board, &expectation, options))?;
            writeln!(out)?;
        } else {
            write_float_text(out, &board, &expectation, options)?;
        }
        return Ok(exit::code(exit::SUCCESS));
    }
    let expectation = expect_with(&board, args.per_square);
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &to_json(&board, &expectation, options))?;
        writeln!(out)?;
    } else {
        write_text(out, &board, &expectation, options)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
