//! `ladders generate`: write a random board file (a student project's placement constraints,
//! "seed 003", and with `--columns`, `--once-ladders` and `--apples` that project's own game).

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use ladders::board::{Overshoot, Probability, RollAgain, Rules, Square, Tiles, MAX_DIE, MAX_SIZE};
use ladders::generate::{generate, generate_tiles, GenerateOptions, TileBoardOptions};
use ladders::report::Report;

use super::board_args::parse_overshoot;
use super::exit;
use super::output::write_json;

/// What `generate --json` reports beside the board and its rules.
#[derive(serde::Serialize)]
struct Written<'a> {
    /// The board file's text.
    file: &'a str,
    /// The seed it was generated from.
    seed: u64,
    /// Where it was written, if anywhere.
    written_to: Option<String>,
}

/// Write a random board file
#[derive(clap::Args, Debug)]
#[command(after_help = after_help!(
    "ladders generate --size 50 --snakes 5 --ladders 5 --seed 7",
    "ladders generate --size 100 --tiles --seed 2 --output board.toml",
    "ladders generate --size 30 --snakes 3 --ladders 2 --seed 1 --json",
    "ladders generate --size 200 --columns 10 --snakes 3 --ladders 3 --seed 3 --once-ladders --apples 6"
))]
pub struct Args {
    /// The finish square N (the board has squares 1..N)
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_SIZE)))]
    pub size: Square,
    /// Number of snakes
    #[arg(long, default_value_t = 0)]
    pub snakes: usize,
    /// Number of ladders
    #[arg(long, default_value_t = 0)]
    pub ladders: usize,
    /// Seed of the random placement (the same seed gives the same board)
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Start off the board (0) or standing on square 1 (1)
    #[arg(long, value_name = "0|1", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    pub start: u32,
    /// What a roll past the finish does
    #[arg(long, value_name = "stay|bounce|allow", default_value = "stay", value_parser = parse_overshoot)]
    pub overshoot: Overshoot,
    /// Number of faces of the die
    #[arg(long, value_name = "FACES", default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_DIE)))]
    pub die: u32,
    /// Whether the top face rolls again: none, unlimited, or K (the K-th in a row forfeits)
    #[arg(long, value_name = "none|unlimited|K", default_value = "none", value_parser = RollAgain::parse)]
    pub roll_again: RollAgain,
    /// The row length of the board as drawn (M of a student project's N x M board; written as `columns`): jumps are
    /// longer than both the row length and the number of rows (default: ceil(sqrt(size)))
    #[arg(long, value_name = "M", conflicts_with = "tiles")]
    pub columns: Option<Square>,
    /// Every ladder breaks after its first use (as in a student project's game; written as `once`)
    #[arg(long, conflicts_with = "tiles")]
    pub once_ladders: bool,
    /// Place this many apples (point squares), red (+1 to +10) or black (-1 to -10), none on a
    /// snake's head or a ladder's foot (as in a student project's game)
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "tiles")]
    pub apples: usize,
    /// Draw the board once from a blog post's random-tile model (every square a snake head with
    /// probability --snake, a ladder foot with --ladder, moving --length squares) instead of
    /// placing --snakes and --ladders
    #[arg(long, conflicts_with_all = ["snakes", "ladders"])]
    pub tiles: bool,
    /// With --tiles: how far a snake or ladder moves the token (f)
    #[arg(long, requires = "tiles", default_value_t = 10)]
    pub length: u32,
    /// With --tiles: the chance that a square is a snake head, exact ("1/10" or "0.1")
    #[arg(long, requires = "tiles", default_value = "1/10", value_parser = Probability::parse)]
    pub snake: Probability,
    /// With --tiles: the chance that a square is a ladder foot, exact ("1/10" or "0.1")
    #[arg(long, requires = "tiles", default_value = "1/10", value_parser = Probability::parse)]
    pub ladder: Probability,
    /// Write the board file here instead of to standard output (`-`: standard output)
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Print one JSON object (the board, its rules, the seed and the file's text) instead of
    /// the file (with --output FILE the file is still written)
    #[arg(long)]
    pub json: bool,
}

/// The generated file's `source` line: the command that makes the board again.
fn source(args: &Args) -> String {
    let mut source = format!("ladders generate --size {}", args.size);
    if let Some(c) = args.columns {
        let _ = write!(source, " --columns {c}");
    }
    let _ = write!(
        source,
        " --snakes {} --ladders {} --seed {}",
        args.snakes, args.ladders, args.seed
    );
    if args.once_ladders {
        source.push_str(" --once-ladders");
    }
    if args.apples > 0 {
        let _ = write!(source, " --apples {}", args.apples);
    }
    source.push_str(" (seed 003's placement constraints)");
    source
}

/// Runs `generate`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let mut rules = Rules::default();
    rules.start = args.start;
    rules.overshoot = args.overshoot;
    rules.die = args.die;
    rules.roll_again = args.roll_again;
    super::config::generate(args)?;
    let generated = if args.tiles {
        let (p, q) = (args.snake, args.ladder);
        let tiles = Tiles::new(args.length, p, q);
        let mut options = TileBoardOptions::new(args.size, tiles, args.seed);
        options.rules = rules;
        options.source = Some(format!(
            "ladders generate --tiles --size {} --length {} --snake {p} --ladder {q} --seed {} \
             (a blog post's model, drawn once)",
            args.size, args.length, args.seed
        ));
        generate_tiles(&options)?
    } else {
        let mut options = GenerateOptions::plain(args.size, args.snakes, args.ladders, args.seed);
        options.rules = rules;
        options.columns = args.columns;
        options.once_ladders = args.once_ladders;
        options.apples = args.apples;
        options.source = Some(source(args));
        generate(&options)?
    };
    // `-` is standard output, as everywhere else: never a file named `-`.
    let file = args.output.as_ref().filter(|path| path.as_os_str() != "-");
    match file {
        Some(path) => super::output::write_file(
            &path.display().to_string(),
            "board",
            generated.text.as_bytes(),
        )?,
        None if !args.json => out.write_all(generated.text.as_bytes())?,
        None => {}
    }
    if args.json {
        let body = Written {
            file: &generated.text,
            seed: args.seed,
            written_to: file.map(|p| p.display().to_string()),
        };
        write_json(out, &Report::new(&generated.board, &body, 0).with_rules())?;
    }
    Ok(exit::code(exit::SUCCESS))
}
