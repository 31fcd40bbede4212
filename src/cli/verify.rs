//! `ladders verify BOARD (FILE | --mean X --games N)`: check a simulation someone wrote against
//! the exact answers, and on a failure name the usual rule variant the sample fits instead.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use ladders::report::printable;
use ladders::report::{write_verify as write_text, CheckJson, Report, VerifyJson, VerifyReport};
use ladders::simulate::{parse_turns, read_sample};
use ladders::{Game, Sample};

use super::board_args::{claim_stdin, BoardArgs};
use super::exit;
use super::output::write_json;
use super::output_args::Json;
use super::simulate::parse_games;

/// Check a simulation you wrote against the exact answers (exit 1 when they disagree)
#[derive(clap::Args, Debug)]
#[command(after_help = concat!(
    "Sample files: a first line with no number in it is a header naming the columns: `turns`, \
     `count` (or `games`), and `game` (or `index`, `id`, an empty name as pandas writes `,turns`), \
     which is skipped. Without a header, one column is one game per line and two columns are \
     `turns,count`, except when the first column numbers the lines (0, 1, 2, ... or 1, 2, 3, \
     ...): both readings fit, and the file is refused until a header says which.\n\n",
    after_help!(
        "ladders verify milton-bradley --mean 39.2 --games 1000",
        "ladders verify tiny --mean 4.0 --games 500 --sd 2.0"
    )
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// A file of turn counts (`-`: standard input): one per line, `turns,count` lines, or
    /// `game,turns` lines (see "Sample files" below)
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "mean")]
    pub file: Option<String>,
    /// The mean number of turns your simulation reported (as printed: "46.1" means [46.05, 46.15))
    #[arg(long, value_name = "X", requires = "games", allow_hyphen_values = true)]
    pub mean: Option<String>,
    /// The number of games behind --mean
    #[arg(long, short = 'n', value_name = "N", value_parser = parse_games, requires = "mean")]
    pub games: Option<u64>,
    /// The standard deviation of the turns your simulation reported (tested: its square against
    /// the exact variance)
    #[arg(long, value_name = "S", requires = "mean", allow_hyphen_values = true)]
    pub sd: Option<String>,
    #[command(flatten)]
    pub output: Json,
}

/// Runs `verify`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let (mean, sd) = super::config::verify(args)?;
    let game = Game::from_board(args.board.load()?);
    let board = game.board();
    let turns = match &args.file {
        Some(path) => {
            let text = if path == "-" {
                claim_stdin()?;
                read_sample(std::io::stdin().lock(), path)?
            } else {
                super::wait::announce_fifo(path.as_ref(), "the turn counts");
                let file = std::fs::File::open(path)
                    .with_context(|| format!("{}: cannot read", printable(path)))?;
                read_sample(file, path)?
            };
            Some(parse_turns(&text, path)?)
        }
        None => None,
    };
    let sample = match (&turns, &mean, args.games) {
        (Some(h), _, _) => Sample::Counts(h),
        (None, Some(mean), Some(games)) => Sample::Summary {
            mean,
            games,
            sd: sd.as_ref(),
        },
        _ => bail!("{}", super::config::NO_SAMPLE),
    };
    let verdict = game.verify_sample(sample).map_err(|e| match e {
        ladders::Error::Endless { .. } => anyhow!("{e}, so no finite sample can fit it"),
        other => other.into(),
    })?;
    let observed = sample.observed();
    let (law, comparison) = (&verdict.law, &verdict.comparison);
    let mut report = VerifyReport::new(board, &verdict, observed);
    report.mean = mean.as_ref();
    report.sd = sd.as_ref();
    report.file = args.file.as_deref();
    if args.output.json {
        let body = VerifyJson {
            board,
            games: observed.games(),
            check: CheckJson { law, comparison },
            fits: report.fits,
            not_tried: report.not_tried,
            layouts: report.layouts,
            mean: report.mean,
            sd: report.sd,
        };
        write_json(out, &Report::new(board, &body, 12).with_rules())?;
    } else {
        write_text(out, &report)?;
    }
    Ok(exit::code(if comparison.pass {
        exit::SUCCESS
    } else {
        exit::CHECK_FAILED
    }))
}
