//! `ladders analyze BOARD` (and `ladders` alone): one screen of the common answers.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::report::{write_analyze as write_text, Report, SummaryJson};
use ladders::Game;

use ladders::board::DEFAULT_BOARD;

use super::board_args::{BoardArgs, RuleArgs};
use super::exit;
use super::output::write_json;
use super::output_args::{Digits, Json};

/// One screen answering the common questions about a board
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders analyze efi",
    "ladders analyze milton-bradley --overshoot bounce --digits 3",
    "ladders analyze tiny --json",
    "ladders analyze milton-bradley --die 13..17 --digits 2"
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub output: Output,
}

/// The output options of `analyze`, which bare `ladders` takes too.
#[derive(clap::Args, Debug)]
pub struct Output {
    #[command(flatten)]
    pub digits: Digits,
    #[command(flatten)]
    pub format: Json,
}

impl Args {
    /// `analyze` on the default board with these rule overrides and output options (bare
    /// `ladders`).
    pub fn default_board(rules: RuleArgs, output: Output) -> Args {
        Args {
            board: BoardArgs {
                board: DEFAULT_BOARD.to_string(),
                rules,
            },
            output,
        }
    }
}

/// Runs `analyze`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    if let Some(range) = args.board.rules.die_range() {
        let (digits, json) = (args.output.digits.get(), args.output.format.json);
        let format = match json {
            true => super::expect::DieTable::Json,
            false => super::expect::DieTable::Text,
        };
        return super::expect::die_table(&args.board, range, digits, format, out);
    }
    let game = Game::from_board(args.board.load()?);
    super::board_args::square_state_only(&game, "analyze")?;
    let summary = game.summary()?;
    let digits = args.output.digits.get();
    if args.output.format.json {
        let body = SummaryJson::new(game.board(), &summary);
        write_json(out, &Report::new(game.board(), &body, digits).with_rules())?;
    } else {
        write_text(out, game.board(), &summary, digits)?;
    }
    Ok(exit::code(exit::SUCCESS))
}
