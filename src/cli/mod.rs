//! The command line: clap's structs, one module per subcommand, and the dispatch. Each
//! subcommand's `run` loads its input, calls the library and writes a report; nothing more.

/// The text after a subcommand's help: its examples, then the exit codes (the README's table).
/// Every example line (`  ladders ...`) is run by the tests (tests/it/cli_help.rs).
macro_rules! after_help {
    ($($example:literal),+ $(,)?) => {
        concat!(
            "Examples:\n",
            $("  ", $example, "\n",)+
            "\nExit codes: 0 success, 1 a check failed, 2 bad usage or input, 3 the output could not \
             be written"
        )
    };
}

pub mod advice;
pub mod analyze;
pub mod board_args;
pub mod boards;
pub mod check;
pub mod colour;
pub mod completions;
pub mod config;
pub mod distribution;
pub mod draw;
pub mod duel;
pub mod exit;
pub mod expect;
pub mod generate;
pub mod import;
pub mod optimize;
pub mod output;
pub mod output_args;
pub mod pgf;
pub mod policy_arg;
pub mod progress;
pub mod race;
pub mod seat_args;
pub mod sensitivity;
pub mod shortest;
pub mod simulate;
pub mod squares;
pub mod verify;
pub mod wait;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exact answers about Snakes and Ladders boards.
#[derive(Parser, Debug)]
#[command(
    name = "ladders",
    version,
    about,
    long_about = "Exact answers about Snakes and Ladders boards.\n\n\
        With no subcommand, `ladders` runs `analyze` on the default board (milton-bradley) and \
        takes its options: `ladders --json` is `ladders analyze --json`. A board first, a \
        built-in name or a path, runs `analyze` on it: `ladders efi` is `ladders analyze efi`, \
        `ladders myboard.toml --json` is `ladders analyze myboard.toml --json`.",
    propagate_version = true,
    // Not `args_conflicts_with_subcommands`: clap would then refuse the global `--color` before a
    // subcommand. [`parse`] refuses the other options of bare `ladders` there instead.
    override_usage = "ladders [OPTIONS]\n       ladders <BOARD> [OPTIONS]\n       ladders [--color <WHEN>] <COMMAND>",
    after_help = after_help!("ladders", "ladders --digits 3 --json", "ladders expect efi", "ladders completions bash")
)]
pub struct Cli {
    /// Rule overrides for bare `ladders` (the default board)
    #[command(flatten)]
    pub rules: board_args::RuleArgs,
    /// Output options for bare `ladders`
    #[command(flatten)]
    pub output: analyze::Output,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never. Colours the
    /// verdicts of check, verify and race (PASS and ok green, FAIL red), `draw`'s heat map and
    /// the word `error`
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: colour::ColorChoice,
    /// What to compute
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
///
/// `defer`: each subcommand's arguments are only built when that subcommand runs (building every
/// argument of every subcommand took about 0.4 M instructions, a fifth of `ladders boards`). The
/// one-line description below is what the top-level help lists; the deferred part sets it again
/// from the doc comment of the subcommand's `Args` struct, so the two must be the same text (a
/// test checks it).
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum Command {
    /// One screen answering the common questions about a board
    Analyze(analyze::Args),
    /// Exact expected turns, variance, rolls, snakes and ladders
    Expect(expect::Args),
    /// Exact distribution of the number of turns
    Distribution(distribution::Args),
    /// Shortest game (with the rolls that achieve it) and longest game
    Shortest(shortest::Args),
    /// Simulate games roll by roll
    Simulate(simulate::Args),
    /// Simulate and compare with the exact answers (exit 1 when they disagree)
    Check(check::Args),
    /// Check a simulation you wrote against the exact answers (exit 1 when they disagree)
    Verify(verify::Args),
    /// Closed form: the generating function N(z)/D(z) and the recurrence of P(T = n)
    Pgf(pgf::Args),
    /// Several players: exact win odds per seat and game length
    Race(race::Args),
    /// Draw the board as a grid, optionally shaded by a per-square quantity
    Draw(draw::Args),
    /// Exact per-square answers: visits, reach, remaining turns; per jump: uses and P(taken)
    Squares(squares::Args),
    /// Exact change in expected turns when each snake or ladder is removed, sorted
    Sensitivity(sensitivity::Args),
    /// The exact optimal policy of a player who chooses (choose_die, coin, pick, choose_face)
    Optimize(optimize::Args),
    /// Write a random board file
    Generate(generate::Args),
    /// Convert a board from another format into a board file
    Import(import::Args),
    /// List the built-in boards
    Boards(boards::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions(completions::CompletionsArgs),
    /// Print a man page in roff: ladders(1), or one subcommand's ladders-SUBCOMMAND(1)
    Man(completions::ManArgs),
}

/// Parses the command line (clap's errors exit 2). `--color` is global: it may come before the
/// subcommand (`ladders --color never expect tiny`) as well as after it. The other options of
/// bare `ladders` (rule overrides, `--digits`, `--json`) are `analyze`'s on the default board, so
/// given before a subcommand they are refused, naming them, rather than silently dropped.
pub fn parse() -> Cli {
    let mut cmd = Cli::command();
    let matches = cmd
        .try_get_matches_from_mut(with_analyze(std::env::args_os().collect(), &cmd))
        .unwrap_or_else(|e| exit_on(e));
    if let Some((name, _)) = matches.subcommand() {
        let misplaced: Vec<String> = cmd
            .get_arguments()
            .filter(|a| !a.is_global_set())
            .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
            .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
            .collect();
        if !misplaced.is_empty() {
            let message = format!(
                "{} before the subcommand '{name}' is an option of bare `ladders`; put it after \
                 '{name}' (`ladders {name} ... {}`)",
                misplaced.join(", "),
                misplaced[0]
            );
            cmd.error(ErrorKind::ArgumentConflict, message).exit();
        }
    }
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_on(e))
}

/// The command line with `analyze` put before a board given first (`ladders efi`, `ladders
/// myboard.toml --json`, `ladders --color never efi`): a first word that is no subcommand but a
/// built-in board's name, `-`, or an existing file. Any other word is left for clap to refuse
/// (`ladders expct efi`: "unrecognized subcommand", with the near one).
fn with_analyze(mut args: Vec<OsString>, cmd: &clap::Command) -> Vec<OsString> {
    let mut at = 1;
    // Skip the global `--color WHEN` (or `--color=WHEN`) before it.
    while let Some(word) = args.get(at).and_then(|a| a.to_str()) {
        match word {
            "--color" => at += 2,
            w if w.starts_with("--color=") => at += 1,
            _ => break,
        }
    }
    let Some(first) = args.get(at) else {
        return args;
    };
    let is_command = first
        .to_str()
        .is_some_and(|w| w == "help" || cmd.get_subcommands().any(|sc| sc.get_name() == w));
    let is_board = first
        .to_str()
        .is_some_and(|w| w == "-" || ladders::board::builtin_names().any(|name| name == w))
        || std::path::Path::new(first).is_file();
    let looks_like_option = first
        .to_str()
        .is_some_and(|w| w.starts_with('-') && w != "-");
    if is_board && !is_command && !looks_like_option {
        args.insert(at, OsString::from("analyze"));
    }
    args
}

/// Exits on clap's error or its help and version text: help that cannot be written to standard
/// output (`ladders --help > /dev/full`, or closed) exits 3 with a message, as every failed
/// write does (clap's own `exit` let it pass as a success); a usage error goes to standard
/// error and exits 2.
fn exit_on(mut e: clap::Error) -> ! {
    shorten_echoed(&mut e);
    if e.use_stderr() {
        e.exit()
    }
    let written = match output::stdout_is_open() {
        false => Err(std::io::Error::other("standard output is closed")),
        true => e.print().and_then(|()| std::io::stdout().flush()),
    };
    if let Err(err) = written {
        output::to_stderr(&format!("error: cannot write the output: {err}"));
        std::process::exit(exit::WRITE_FAILED.into());
    }
    std::process::exit(e.exit_code())
}

/// The longest tip of clap's kept in an error (a tip that repeats a long word is left out).
const TIP_BYTES: usize = 200;

/// clap's error with the words it echoes (a value, an argument, a subcommand) cut as every
/// message of ours cuts them ([`ladders::report::echo_plain`]): a 10 MB value gives a line.
fn shorten_echoed(e: &mut clap::Error) {
    use clap::error::ContextValue;
    let cut = |words: &[String]| -> Option<Vec<String>> {
        let shown: Vec<String> = words
            .iter()
            .map(|w| ladders::report::echo_plain(w))
            .collect();
        (shown != words).then_some(shown)
    };
    let shortened: Vec<_> = e
        .context()
        .filter_map(|(kind, value)| match value {
            ContextValue::String(word) => cut(std::slice::from_ref(word))
                .map(|mut w| (kind, ContextValue::String(w.remove(0)))),
            ContextValue::Strings(words) => cut(words).map(|w| (kind, ContextValue::Strings(w))),
            // A tip that repeats a long word ("to pass '--xxx...' as a value, use '-- --xxx...'")
            // is left out.
            ContextValue::StyledStrs(tips) => {
                let short = |t: &&clap::builder::StyledStr| t.to_string().len() <= TIP_BYTES;
                let kept: Vec<_> = tips.iter().filter(short).cloned().collect();
                (kept.len() < tips.len()).then_some((kind, ContextValue::StyledStrs(kept)))
            }
            _ => None,
        })
        .collect();
    for (kind, value) in shortened {
        e.insert(kind, value);
    }
}

/// Runs the command line: its text through the [`colour::Painter`] when standard output is
/// coloured, with the library's long stages shown on standard error when it is a terminal.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<ExitCode> {
    set_threads(&cli)?;
    let colour = colour::stdout_colour(cli.color);
    let _progress = progress::install();
    if !colour {
        return dispatch(cli, false, out);
    }
    let mut painter = colour::Painter::new(out);
    let code = dispatch(cli, true, &mut painter);
    painter.flush()?;
    code
}

/// The most threads `--threads` or `RAYON_NUM_THREADS` may ask for.
const MAX_THREADS: usize = 1024;

/// Sizes rayon's global pool, which every parallel part of a command runs on: `--threads T` when
/// the command takes it (it wins over `RAYON_NUM_THREADS`, which rayon would otherwise read for
/// that pool: `check --threads 2` ran 3,000 threads with `RAYON_NUM_THREADS=3000`), else
/// `RAYON_NUM_THREADS` as rayon reads it when it is a number from 0 (all cores) to
/// [`MAX_THREADS`].
///
/// # Errors
///
/// `RAYON_NUM_THREADS` is set to anything else.
fn set_threads(cli: &Cli) -> Result<()> {
    let given = match &cli.command {
        Some(Command::Simulate(a)) => a.sample.sim.threads,
        Some(Command::Check(a)) => a.sample.sim.threads,
        _ => None,
    };
    if let Some(t) = given {
        // Fails only when the pool was built already (never here: this runs first).
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(t))
            .build_global();
        return Ok(());
    }
    // Unset, or a number rayon reads as it is (its pool is built on first use, so a command
    // that runs nothing in parallel starts no thread).
    match std::env::var("RAYON_NUM_THREADS") {
        Err(_) => Ok(()),
        Ok(text) => match text.parse::<usize>() {
            Ok(t) if t <= MAX_THREADS => Ok(()),
            _ => anyhow::bail!(
                "RAYON_NUM_THREADS={}: expected a number of threads from 1 to {MAX_THREADS} (0: \
                 all cores), or give --threads",
                ladders::report::echo_plain(&text)
            ),
        },
    }
}

/// Runs the subcommand (`colour`: whether standard output is coloured); a library error that
/// has a remedy on the command line gets it ([`advice::add`]).
fn dispatch(cli: Cli, colour: bool, out: &mut dyn Write) -> Result<ExitCode> {
    let command = match &cli.command {
        Some(Command::Race(_)) => advice::For::Race,
        Some(Command::Distribution(_)) => advice::For::Distribution,
        _ => advice::For::Other,
    };
    run_command(cli, colour, out).map_err(|e| advice::add(e, command))
}

/// Runs the subcommand.
fn run_command(cli: Cli, colour: bool, out: &mut dyn Write) -> Result<ExitCode> {
    match cli.command {
        None => analyze::run(&analyze::Args::default_board(cli.rules, cli.output), out),
        Some(Command::Analyze(args)) => analyze::run(&args, out),
        Some(Command::Expect(args)) => expect::run(&args, out),
        Some(Command::Distribution(args)) => distribution::run(&args, out),
        Some(Command::Shortest(args)) => shortest::run(&args, out),
        Some(Command::Simulate(args)) => simulate::run(&args, out),
        Some(Command::Check(args)) => check::run(&args, out),
        Some(Command::Verify(args)) => verify::run(&args, out),
        Some(Command::Pgf(args)) => pgf::run(&args, out),
        Some(Command::Race(args)) => race::run(&args, out),
        Some(Command::Draw(args)) => draw::run(&args, colour, out),
        Some(Command::Squares(args)) => squares::run(&args, out),
        Some(Command::Sensitivity(args)) => sensitivity::run(&args, out),
        Some(Command::Optimize(args)) => optimize::run(&args, out),
        Some(Command::Generate(args)) => generate::run(&args, out),
        Some(Command::Import(args)) => import::run(&args, out),
        Some(Command::Boards(args)) => boards::run(&args, out),
        Some(Command::Completions(args)) => completions::run_completions(&args, out),
        Some(Command::Man(args)) => completions::run_man(&args, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn each_subcommand_has_one_description_listed_and_built() {
        // The listing comes from the enum's doc comments, the deferred build from each `Args`
        // struct's: `ladders --help` and `ladders expect --help` must say the same thing.
        let listed: Vec<(String, String)> = Cli::command()
            .get_subcommands()
            .map(|sc| (sc.get_name().to_string(), about(sc)))
            .collect();
        let mut built = Cli::command();
        built.build();
        assert_eq!(listed.len(), 18);
        for (name, listed_about) in listed {
            let sc = built.find_subcommand(&name).expect("listed");
            assert!(
                sc.get_arguments().any(|a| a.get_id() == "help"),
                "{name} built"
            );
            assert!(!listed_about.is_empty(), "{name}");
            assert_eq!(about(sc), listed_about, "{name}");
        }
    }

    fn about(cmd: &clap::Command) -> String {
        cmd.get_about().map(|s| s.to_string()).unwrap_or_default()
    }
}
