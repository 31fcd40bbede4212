//! The config stage (fd's `cli.rs` -> `config.rs`, ripgrep's low and high arguments): a
//! subcommand's parsed arguments turned into what it runs, every combination that the arguments
//! alone can decide checked here, before any board is read or any work starts. Combinations
//! clap judges by itself stay on the declarations (`conflicts_with`, `requires`); the ones that
//! depend on the board (a choice rule, a board that changes during a game) are judged where it
//! is loaded.

use anyhow::{bail, Result};
use ladders::simulate::MeanInterval;

use super::draw::{self, HeatQuantity};
use super::generate;
use super::verify;

use super::race;
use super::seat_args::Players;
use super::simulate::{self, SampleArgs};

/// Refuses two outputs that would both go to standard output: `claims` pairs whether an option
/// writes there with how to name it (`--json`, `--svg -`).
pub fn one_writer_to_stdout(claims: &[(bool, &str)]) -> Result<()> {
    let clash: Vec<&str> = claims.iter().filter(|c| c.0).map(|c| c.1).collect();
    if clash.len() > 1 {
        bail!(
            "{} both write to standard output: give a file name, or drop one",
            clash[..2].join(" and ")
        );
    }
    Ok(())
}

/// Checks what `simulate` and `check` share: `--policy` plays one player on one board.
pub fn sample(args: &SampleArgs) -> Result<()> {
    if args.policy.policy.is_some() && args.seats.is_race() {
        bail!("--policy is for one player on one board (not a race)");
    }
    Ok(())
}

/// Checks `simulate`'s arguments: one writer to standard output, [`sample`]'s, and a chart or
/// a histogram only of one player's games.
pub fn simulate(args: &simulate::Args) -> Result<()> {
    one_writer_to_stdout(&[
        (args.sample.output.json, "--json"),
        (
            args.histogram_csv.as_deref() == Some("-"),
            "--histogram-csv -",
        ),
        (args.svg.as_deref() == Some("-"), "--svg -"),
    ])?;
    sample(&args.sample)?;
    if args.sample.seats.is_race() {
        if args.svg.is_some() {
            bail!("--svg charts one player's games (`ladders race --svg` charts a race)");
        }
        if args.histogram_csv.is_some() {
            bail!("--histogram-csv is for one player (a race reports its rounds in --json)");
        }
    }
    Ok(())
}

/// Checks `draw`'s arguments: `--after N` goes with `--heat after`, `--within N` with `--heat
/// likeliest`, and one writer to standard output.
pub fn draw(args: &draw::Args) -> Result<()> {
    one_writer_to_stdout(&[
        (args.json.json, "--json"),
        (args.svg.as_deref() == Some("-"), "--svg -"),
    ])?;
    if args.after.is_some() != (args.heat == Some(HeatQuantity::After)) {
        bail!("--heat after and --after N go together (N: the number of turns)");
    }
    if args.within.is_some() && args.heat != Some(HeatQuantity::Likeliest) {
        bail!("--within N is for --heat likeliest (the likeliest game of at most N turns)");
    }
    Ok(())
}

/// Checks `generate`'s arguments: a tile length below the size, tile chances that add up to at
/// most 1, and one writer to standard output.
pub fn generate(args: &generate::Args) -> Result<()> {
    if args.tiles {
        if args.length == 0 || args.length >= args.size {
            bail!(
                "--length {} is not a tile length: expected 1 to {}",
                args.length,
                args.size - 1
            );
        }
        let (p, q) = (args.snake, args.ladder);
        if p.numer() * q.denom() + q.numer() * p.denom() > p.denom() * q.denom() {
            bail!("--snake {p} and --ladder {q} add up to more than 1");
        }
    }
    if args.json
        && args
            .output
            .as_ref()
            .is_some_and(|path| path.as_os_str() == "-")
    {
        bail!("--json and --output - both write to standard output: give --output a file name, or drop one");
    }
    Ok(())
}

/// `verify` without a sample.
pub const NO_SAMPLE: &str =
    "give a file of turn counts (--file FILE, `-` for standard input) or --mean X --games N";

/// Checks `verify`'s arguments: a file of turn counts, or a mean and its number of games (clap
/// keeps `--mean`, `--games` and `--sd` together and apart from `--file`); returns the mean and
/// the standard deviation as the intervals their digits stand for.
pub fn verify(args: &verify::Args) -> Result<(Option<MeanInterval>, Option<MeanInterval>)> {
    if args.file.is_none() && args.mean.is_none() {
        bail!("{NO_SAMPLE}");
    }
    let mean = args.mean.as_deref().map(MeanInterval::parse).transpose()?;
    let sd = match args.sd.as_deref() {
        None => None,
        Some(text) => match MeanInterval::parse(text) {
            // Its square is tested: it must be finite too.
            Ok(sd) if !text.trim_start().starts_with('-') && (sd.high * sd.high).is_finite() => {
                Some(sd)
            }
            _ => bail!(
                "--sd {} is not a number of at least 0 whose square is finite",
                ladders::report::echo(text)
            ),
        },
    };
    Ok((mean, sd))
}

/// What `race` runs, from its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// The players: one count, or a range for a table.
    pub players: Players,
    /// The digits to certify (15, or 12 with `--knock-off`, unless given).
    pub digits: usize,
}

/// Checks `race`'s arguments: `--from` gives one square per player, `--svg` charts one race of
/// seats that do not meet, a range of players makes a table on one board.
pub fn race(args: &race::Args) -> Result<Race> {
    let players = args.seats.players.unwrap_or_else(|| {
        let k = args.seats.default_players();
        let k = args.from.as_ref().map_or(k, Vec::len);
        Players { from: k, to: k }
    });
    if let Some(from) = &args.from {
        if players.from != players.to || players.from != from.len() {
            bail!(
                "--from gives {} positions: one per player (--players {} or leave it out)",
                from.len(),
                from.len()
            );
        }
    }
    let table = players.from != players.to;
    if args.svg.is_some() && (args.seats.knock_off || table) {
        bail!(
            "--svg charts a race of seats that do not meet: one number of players, no --knock-off"
        );
    }
    if table
        && (args.seats.boards.len() > 1
            || !args.seats.reverse_seat.is_empty()
            || args.seats.knock_off)
    {
        bail!("a range of players makes a table on one board: give one board, no --reverse-seat and no --knock-off");
    }
    let digits = usize::from(
        args.digits
            .unwrap_or(if args.seats.knock_off { 12 } else { 15 }),
    );
    Ok(Race { players, digits })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Cli, Command};
    use super::*;

    fn race_config(args: &[&str]) -> Result<Race> {
        let all = ["ladders", "race"].into_iter().chain(args.iter().copied());
        match Cli::try_parse_from(all).unwrap().command {
            Some(Command::Race(a)) => race(&a),
            _ => unreachable!(),
        }
    }

    #[test]
    fn race_players_and_digits_default_from_the_arguments() {
        let one = |k| Players { from: k, to: k };
        let c = race_config(&["tiny"]).unwrap();
        assert_eq!(
            c,
            Race {
                players: one(2),
                digits: 15
            }
        );
        let c = race_config(&["tiny", "efi", "tiny", "--knock-off"]).unwrap();
        assert_eq!(
            c,
            Race {
                players: one(3),
                digits: 12
            }
        );
        let c = race_config(&["tiny", "--from", "1,2,3", "--digits", "4"]).unwrap();
        assert_eq!(
            c,
            Race {
                players: one(3),
                digits: 4
            }
        );
    }

    #[test]
    fn race_combinations_are_refused_from_the_arguments_alone() {
        // No board is read: a name that is no board still gets the combination's refusal.
        for (args, says) in [
            (
                &["nowhere", "--from", "1,2", "--players", "3"][..],
                "--from gives 2",
            ),
            (
                &["nowhere", "--players", "2..4", "--svg", "x.svg"],
                "--svg charts",
            ),
            (
                &["nowhere", "--knock-off", "--svg", "x.svg"],
                "--svg charts",
            ),
            (
                &["nowhere", "tiny", "--players", "2..3"],
                "a range of players",
            ),
            (
                &["nowhere", "--players", "2..3", "--reverse-seat", "1"],
                "a range of players",
            ),
        ] {
            let err = race_config(args).unwrap_err().to_string();
            assert!(err.contains(says), "{args:?}: {err}");
        }
    }

    /// The error of the config stage for `ladders ARGS` (the subcommand first), or `None`.
    fn refusal(args: &[&str]) -> Option<String> {
        let all = ["ladders"].into_iter().chain(args.iter().copied());
        let err = match Cli::try_parse_from(all).unwrap().command {
            Some(Command::Simulate(a)) => simulate(&a).err(),
            Some(Command::Check(a)) => sample(&a.sample).err(),
            Some(Command::Draw(a)) => draw(&a).err(),
            Some(Command::Generate(a)) => generate(&a).err(),
            Some(Command::Verify(a)) => verify(&a).err(),
            _ => unreachable!(),
        };
        err.map(|e| e.to_string())
    }

    #[test]
    fn other_commands_combinations_are_refused_from_the_arguments_alone() {
        // No board is read: a name that is no board still gets the combination's refusal.
        for (args, says) in [
            (
                &["simulate", "nowhere", "--players", "2", "--svg", "x.svg"][..],
                "--svg charts one player's games",
            ),
            (
                &["simulate", "nowhere", "efi", "--histogram-csv", "h.csv"],
                "--histogram-csv is for one player",
            ),
            (
                &["simulate", "nowhere", "--json", "--svg", "-"],
                "--json and --svg - both write",
            ),
            (
                &["check", "nowhere", "--knock-off", "--policy", "optimal"],
                "--policy is for one player",
            ),
            (
                &["draw", "nowhere", "--within", "5"],
                "--within N is for --heat likeliest",
            ),
            (
                &["draw", "nowhere", "--after", "5"],
                "--heat after and --after N go together",
            ),
            (
                &["generate", "--tiles", "--size", "20", "--length", "20"],
                "--length 20 is not a tile length",
            ),
            (
                &[
                    "generate", "--size", "20", "--tiles", "--snake", "0.6", "--ladder", "1/2",
                ],
                "add up to more than 1",
            ),
            (
                &["generate", "--size", "20", "--json", "--output", "-"],
                "--json and --output - both write",
            ),
            (&["verify", "nowhere"], "give a file of turn counts"),
            (
                &["verify", "nowhere", "--mean", "x", "--games", "10"],
                "mean \"x\" is not a number",
            ),
        ] {
            let err = refusal(args).unwrap_or_default();
            assert!(err.contains(says), "{args:?}: {err}");
        }
        for args in [
            &["simulate", "nowhere", "--svg", "x.svg"][..],
            &["check", "nowhere", "--policy", "optimal"],
            &["draw", "nowhere", "--heat", "likeliest", "--within", "5"],
            &["generate", "--size", "20", "--json", "--output", "x.toml"],
            &["verify", "nowhere", "--mean", "4.1", "--games", "10"],
        ] {
            assert_eq!(refusal(args), None, "{args:?}");
        }
    }

    #[test]
    fn simulate_takes_a_number_of_players_and_race_a_range_too() {
        let parse = |args: &[&str]| Cli::try_parse_from(args.iter().copied()).map(|_| ());
        assert!(parse(&["ladders", "race", "tiny", "--players", "2..4"]).is_ok());
        assert!(parse(&["ladders", "simulate", "tiny", "--players", "3"]).is_ok());
        for sub in ["simulate", "check"] {
            let err = parse(&["ladders", sub, "tiny", "--players", "2..4"]).unwrap_err();
            assert!(
                err.to_string()
                    .contains("expected a number of players from 1 to 16; found \"2..4\""),
                "{err}"
            );
            assert!(parse(&["ladders", sub, "tiny", "--players", "17"]).is_err());
        }
    }

    #[test]
    fn two_writers_to_standard_output_are_refused() {
        assert!(one_writer_to_stdout(&[(true, "--json"), (false, "--svg -")]).is_ok());
        let err = one_writer_to_stdout(&[(true, "--json"), (false, "--a"), (true, "--svg -")]);
        assert_eq!(
            err.unwrap_err().to_string(),
            "--json and --svg - both write to standard output: give a file name, or drop one"
        );
    }
}
