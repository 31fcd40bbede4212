//! `ladders expect BOARD`: exact expected turns and the other expectations.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::Moments;
use ladders::analysis::Score;
use ladders::report::exact_text;
use ladders::report::fixed;
use ladders::report::write_moments;
use ladders::report::{
    expect_float_json as float_to_json, expect_json as to_json, write_expect as write_text,
    write_expect_float as write_float_text, ExpectOptions,
};
use ladders::Expectations;

use super::board_args::BoardArgs;
use super::exit;
use super::output::write_json;
use super::output_args::Json;
use super::policy_arg::{policy_line, with_policy, GameArgs};

/// Exact expected turns, variance, rolls, snakes and ladders
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders expect milton-bradley",
    "ladders expect efi --per-square --digits 6",
    "ladders expect tiny --moments 4",
    "ladders expect milton-bradley --float"
))]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Add the expected remaining turns from every reachable square
    #[arg(long)]
    pub per_square: bool,
    #[command(flatten)]
    pub output: Json,
    /// Print every exact fraction whole (one of more than 1,000 characters is otherwise shown by
    /// its first digits and its digit counts; --json always has it whole)
    #[arg(long, conflicts_with = "float")]
    pub exact: bool,
    /// Floating point instead of exact fractions (fast on large boards, about 12 digits)
    #[arg(long)]
    pub float: bool,
    /// Add E[T^k] and the central moments for k = 1..K, the skewness and the excess kurtosis
    #[arg(long, value_name = "K", conflicts_with = "float",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub moments: Option<u16>,
    /// With --die LO..HI: the table as CSV (die,turns,best)
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// The final score's lines: its expectation and law.
/// A fraction past 1,000 characters is shown by its digit counts unless `whole` (`--exact`).
fn write_score(out: &mut dyn Write, s: &Score, digits: usize, whole: bool) -> Result<()> {
    writeln!(
        out,
        "Expected score   {}",
        exact_text(&s.expected, digits, whole)
    )?;
    let (lo, hi) = (s.law[0].0, s.law[s.law.len() - 1].0);
    writeln!(out, "Score range      {lo} to {hi}")?;
    for ((v, _), tail) in s.law.iter().zip(s.tails()) {
        writeln!(out, "  P(score >= {v:>3}) {}", fixed(&tail, digits))?;
    }
    Ok(())
}

/// Runs `expect`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    if let Some(range) = args.game.board.rules.die_range() {
        let format = match (args.output.json, args.csv) {
            (true, _) => DieTable::Json,
            (_, true) => DieTable::Csv,
            _ => DieTable::Text,
        };
        return die_table(&args.game.board, range, args.game.digits.get(), format, out);
    }
    if args.csv {
        anyhow::bail!("--csv writes the table of `expect --die LO..HI`; give a range of die sizes");
    }
    if args.float && args.game.policy.policy.is_some() {
        anyhow::bail!(
            "--float is not available with --policy (the exact answer is fast: drop --float)"
        );
    }
    let game = args.game.game()?;
    let board = game.board();
    let mut options = ExpectOptions::new(args.game.digits.get());
    options.per_square = args.per_square;
    options.exact = args.exact;
    if args.float {
        let expectation = game.expect_float(args.per_square).map_err(|e| match e {
            ladders::Error::Untrusted(_) => {
                anyhow::Error::new(e).context(board.origin().to_string())
            }
            other => other.into(),
        })?;
        if args.output.json {
            write_json(out, &float_to_json(board, &expectation, options))?;
        } else {
            write_float_text(out, board, &expectation, options)?;
        }
        return Ok(exit::code(exit::SUCCESS));
    }
    let Expectations {
        expectation,
        moments,
        score,
        ..
    } = game.expectations(args.per_square, args.moments.map(usize::from))?;
    if args.output.json {
        let mut value = serde_json::to_value(to_json(board, &expectation, options))?;
        if let (Some(m), Some(obj)) = (&moments, value.as_object_mut()) {
            obj.insert(
                "moments".into(),
                ladders::report::value_at_digits(m, options.digits)?,
            );
        }
        if let (Some(s), Some(map)) = (&score, value.as_object_mut()) {
            map.insert(
                "score".into(),
                ladders::report::value_at_digits(s, options.digits)?,
            );
        }
        write_json(out, &with_policy(&game, value))?;
    } else {
        policy_line(out, &game)?;
        write_text(out, board, &expectation, options)?;
        if let Some(m) = &moments {
            write_moments_text(out, m, options.digits)?;
        }
        if let Some(s) = &score {
            write_score(out, s, options.digits, options.exact)?;
        }
    }
    Ok(exit::code(exit::SUCCESS))
}

/// The moments section, and where its exact fractions are (the library's report names no flag).
fn write_moments_text(out: &mut dyn Write, m: &Moments, digits: usize) -> Result<()> {
    write_moments(out, m, digits)?;
    writeln!(
        out,
        "  (decimals correctly rounded; the exact fractions with --json)"
    )?;
    Ok(())
}

/// How [`die_table`] writes its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DieTable {
    Text,
    Json,
    Csv,
}

/// `expect --die LO..HI` and `analyze --die LO..HI`: the exact expected turns with each fair
/// die, the best marked.
pub(super) fn die_table(
    board_args: &BoardArgs,
    range: std::ops::RangeInclusive<u32>,
    digits: usize,
    format: DieTable,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let mut base = board_args.clone();
    base.rules.die = None;
    let game = base.rules.game(&base.board)?;
    let board = game.board();
    let sweep = game.die_sweep(range)?;
    match format {
        DieTable::Json => write_json(
            out,
            &ladders::report::Report::new(board, &sweep, digits).to_value()?,
        )?,
        DieTable::Csv => ladders::report::write_die_sweep_csv(out, &sweep, digits, false)?,
        DieTable::Text => ladders::report::write_die_sweep(out, board, &sweep, digits, false)?,
    }
    Ok(exit::code(exit::SUCCESS))
}
