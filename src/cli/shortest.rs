//! `ladders shortest BOARD`: the shortest game (with its rolls and probability), the fewest
//! rolls, the longest game, and with `--likeliest` the likeliest games.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::LikeliestTurns;
use ladders::report::{write_likeliest, write_shortest as write_text, ExtremesJson, Report};

use super::exit;
use super::output_args::Json;
use super::policy_arg::{write_report, GameArgs};

/// Shortest game (with the rolls that achieve it) and longest game
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders shortest milton-bradley",
    "ladders shortest efi --json",
    "ladders shortest milton-bradley --likeliest --within 20"
))]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Also the likeliest game: among the fewest-turn games, and among all games (exact
    /// probabilities; a game is the squares at the ends of its turns)
    #[arg(long)]
    pub likeliest: bool,
    /// With --likeliest: the likeliest game among those of at most N turns
    #[arg(long, value_name = "N", requires = "likeliest")]
    pub within: Option<usize>,
    #[command(flatten)]
    pub output: Json,
}

/// The JSON report: the shortest and longest game, and the likeliest games when asked
/// (`null` when the game cannot end).
#[derive(serde::Serialize)]
struct ShortestJson<'a> {
    #[serde(flatten)]
    extremes: ExtremesJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    likeliest: Option<Option<&'a LikeliestTurns>>,
}

/// Runs `shortest`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = args.game.game()?;
    let board = game.board();
    let e = game.shortest()?;
    let likely = match args.likeliest {
        true => Some(game.likeliest(args.within)?),
        false => None,
    };
    let digits = args.game.digits.get();
    write_report(
        out,
        args.output.json,
        &game,
        || {
            let body = ShortestJson {
                extremes: ExtremesJson::new(board, &e),
                likeliest: likely.as_ref().map(Option::as_ref),
            };
            Ok(Report::new(board, &body, digits).with_rules().to_value()?)
        },
        |out| {
            write_text(out, board, &e, digits)?;
            match &likely {
                Some(l) => write_likeliest(out, l.as_ref(), digits),
                None => Ok(()),
            }
        },
    )?;
    Ok(exit::code(exit::SUCCESS))
}
