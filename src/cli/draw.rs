//! `ladders draw BOARD`: the board as a grid in the terminal, with its snakes, ladders and every
//! special square marked (jumps paired), and optionally a heat map of a per-square quantity.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use ladders::analysis::{Expectation, FloatExpectation};
use ladders::report::board_svg;
use ladders::report::count;
use ladders::report::{draw_json, write_draw as write_text, DrawOptions, Heat};
use ladders::report::{probability, to_f64};
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
    let options = DrawOptions {
        columns: args.columns,
        heat: heat.as_ref(),
        colour,
    };
    if let Some(path) = &args.svg {
        let svg = board_svg(
            &board,
            &DrawOptions {
                colour: false,
                ..options.clone()
            },
        );
        if write_svg(path, &svg, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    match args.json.json {
        true => super::output::write_json(out, &draw_json(&board, &options)?)?,
        false => write_text(out, &board, &options)?,
    }
    Ok(exit::code(exit::SUCCESS))
}

/// Above this many squares, `--heat visits` and `--heat remaining` are solved in floating
/// point: the picture shows three significant digits, far above the floats' error.
pub const FLOAT_ABOVE: u32 = 1_000;

/// The heat map of `quantity` on `board` (`args`: `--after`, `--within`).
fn heat_of(game: &Game, quantity: HeatQuantity, args: &Args) -> Result<Heat> {
    let board = game.board();
    if board.size() > FLOAT_ABOVE
        && matches!(quantity, HeatQuantity::Visits | HeatQuantity::Remaining)
    {
        return float_heat_of(game, quantity);
    }
    let mut values = vec![None; board.size() as usize + 1];
    let name = match quantity {
        HeatQuantity::Visits => {
            for (s, v) in game.square_visits()? {
                values[s as usize] = Some(to_f64(&v));
            }
            "expected visits (turns begun on the square)".to_string()
        }
        HeatQuantity::Reach => {
            let answers = game.squares()?;
            if let Some(why) = answers.no_reach {
                bail!("--heat reach: not computed on this board: {why}");
            }
            for a in &answers.squares {
                values[a.square as usize] = a.reach.as_ref().map(to_f64);
            }
            "probability that a move ever ends on the square".to_string()
        }
        HeatQuantity::Remaining => {
            let Expectation::Finite(e) = game.expect_per_square()? else {
                bail!("the game can go on forever: expected remaining turns are infinite");
            };
            for (s, v) in &e.per_square {
                values[*s as usize] = Some(to_f64(v));
            }
            "expected remaining turns".to_string()
        }
        HeatQuantity::After => {
            let n = args.after.unwrap_or(0);
            for c in game.squares_after(n as usize)?.law {
                values[c.square as usize] = Some(to_f64(&c.p));
            }
            format!(
                "probability of standing on the square after {}",
                count(u64::from(n), "turn")
            )
        }
        HeatQuantity::Likeliest | HeatQuantity::LikeliestFewest => {
            return likeliest_heat(game, quantity, args.within);
        }
    };
    Ok(Heat { name, values })
}

/// The heat map of a likeliest game: each square its game's turns end on shaded by the number of
/// that turn (the later turn where a game ends two turns on one square).
fn likeliest_heat(game: &Game, quantity: HeatQuantity, within: Option<usize>) -> Result<Heat> {
    let board = game.board();
    let Some(l) = game.likeliest(within)? else {
        bail!("{}: no game ever ends on this board", board.origin());
    };
    let (game, which) = if quantity == HeatQuantity::LikeliestFewest {
        (
            Some(&l.fewest),
            "the likeliest of the fewest-turn games".to_string(),
        )
    } else {
        let which = match within {
            Some(n) => format!("the likeliest game of at most {n} turns"),
            None => "the likeliest game".to_string(),
        };
        (l.overall.as_ref(), which)
    };
    let Some(game) = game else {
        bail!(
            "no game ends within {}",
            count(within.unwrap_or(0) as u64, "turn")
        );
    };
    let mut values = vec![None; board.size() as usize + 1];
    for (k, turn) in game.turns.iter().enumerate() {
        values[turn.to() as usize] = Some((k + 1) as f64);
    }
    Ok(Heat {
        name: format!(
            "turn of {which} that ends on the square ({}, probability {} = {})",
            count(game.turns.len() as u64, "turn"),
            probability(&game.probability, 6),
            game.probability
        ),
        values,
    })
}

/// The heat map of visits or remaining turns in floating point (boards above [`FLOAT_ABOVE`]).
fn float_heat_of(game: &Game, quantity: HeatQuantity) -> Result<Heat> {
    let board = game.board();
    let mut values = vec![None; board.size() as usize + 1];
    let name = if quantity == HeatQuantity::Visits {
        for (s, v) in game.visits_float()? {
            values[s as usize] = Some(v);
        }
        "expected visits (turns begun on the square; floats)"
    } else {
        let FloatExpectation::Finite(e) = game.expect_float(true)? else {
            bail!("the game can go on forever: expected remaining turns are infinite");
        };
        for (s, v) in &e.per_square {
            values[*s as usize] = Some(*v);
        }
        "expected remaining turns (floats)"
    };
    Ok(Heat {
        name: name.to_string(),
        values,
    })
}
