//! `ladders draw BOARD`: the board as a grid in the terminal, with its snakes, ladders and every
//! special square marked (jumps paired), and optionally a heat map of a per-square quantity.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use ladders::report::board_svg;
use ladders::report::{draw_json, write_draw as write_text, DrawOptions, Heat, HeatOf};
use ladders::Game;

use super::board_args::BoardArgs;
use super::exit;

/// Draw the board as a grid, optionally shaded by a per-square quantity
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders draw milton-bradley",
    "ladders draw efi --heat visits --color never"
))]
pub struct Args {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Squares per row (default: the board file's `columns`, else 10 for 100 squares and
    /// ceil(sqrt(size)) otherwise)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub columns: Option<u32>,
    /// Shade the squares by a per-square quantity (see the values below)
    #[arg(long, value_name = "QUANTITY")]
    pub heat: Option<HeatQuantity>,
    /// With --heat after: the number of turns N
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub after: Option<u32>,
    /// With --heat likeliest: the likeliest game among those of at most N turns
    #[arg(long, value_name = "N")]
    pub within: Option<usize>,
    /// Also write the picture as SVG to FILE (`-`: standard output, instead of the text)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    #[command(flatten)]
    pub json: super::output_args::Json,
}

/// Writes an SVG document to `path`, or to `out` when `path` is `-`. Returns true when it went
/// to `out` (so the command writes nothing else there).
///
/// # Errors
///
/// The file could not be created or written (the message names it).
pub fn write_svg(path: &str, svg: &str, out: &mut dyn Write) -> Result<bool> {
    if path == "-" {
        out.write_all(svg.as_bytes())?;
        return Ok(true);
    }
    super::output::write_file(path, "SVG", svg.as_bytes())?;
    Ok(false)
}

/// The per-square quantities `--heat` takes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeatQuantity {
    /// Expected number of turns begun on the square
    Visits,
    /// Probability that a roll's move ever ends on the square
    Reach,
    /// Expected number of turns left from the square
    Remaining,
    /// Probability that the token stands on the square after N turns (`--after N`)
    After,
    /// The likeliest game (of at most `--within N` turns): the turn that ends on the square
    Likeliest,
    /// The likeliest of the games with the fewest turns: the turn that ends on the square
    LikeliestFewest,
}

/// Runs `draw`; `colour`: whether standard output is coloured (`--color`).
pub fn run(args: &Args, colour: bool, out: &mut dyn Write) -> Result<ExitCode> {
    super::config::draw(args)?;
    // A picture of the board needs no policy; a heat map does.
    let board = match args.heat {
        None => args.board.load_with_choices()?,
        Some(_) => args.board.load()?,
    };
    let heat = match args.heat {
        None => None,
        Some(q) => Some(heat_of(&Game::from_board(board.clone()), q, args)?),
    };
    let mut options = DrawOptions::default();
    options.columns = args.columns;
    options.heat = heat.as_ref();
    if let Some(path) = &args.svg {
        let svg = board_svg(&board, &options);
        if write_svg(path, &svg, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    options.colour = colour;
    match args.json.json {
        true => super::output::write_json(out, &draw_json(&board, &options)?)?,
        false => write_text(out, &board, &options)?,
    }
    Ok(exit::code(exit::SUCCESS))
}

/// The heat map of `quantity` on `game`'s board (`args`: `--after`, `--within`).
fn heat_of(game: &Game, quantity: HeatQuantity, args: &Args) -> Result<Heat> {
    let of = match quantity {
        HeatQuantity::Visits => HeatOf::Visits,
        HeatQuantity::Reach => HeatOf::Reach,
        HeatQuantity::Remaining => HeatOf::Remaining,
        HeatQuantity::After => HeatOf::After(args.after.unwrap_or(0)),
        HeatQuantity::Likeliest => HeatOf::Likeliest(args.within),
        HeatQuantity::LikeliestFewest => HeatOf::LikeliestFewest,
    };
    Heat::of(game, of).map_err(|e| match e {
        // The quantity's name is the option's value.
        ladders::Error::Unanswerable(m) if of == HeatOf::Reach => anyhow!("--heat {m}"),
        other => other.into(),
    })
}
