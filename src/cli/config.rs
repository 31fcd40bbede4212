//! The config stage (fd's `cli.rs` -> `config.rs`, ripgrep's low and high arguments): a
//! subcommand's parsed arguments turned into what it runs, every combination that the arguments
//! alone can decide checked here, before any board is read or any work starts. Combinations
//! clap judges by itself stay on the declarations (`conflicts_with`, `requires`); the ones that
//! depend on the board (a choice rule, a board that changes during a game) are judged where it
//! is loaded.

use anyhow::{bail, Result};

use super::race::{self, Players};

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
    let players = args.players.unwrap_or_else(|| {
        let k = if args.boards.len() > 1 {
            args.boards.len()
        } else {
            2
        };
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
    if args.svg.is_some() && (args.knock_off || table) {
        bail!(
            "--svg charts a race of seats that do not meet: one number of players, no --knock-off"
        );
    }
    if table && (args.boards.len() > 1 || !args.reverse_seat.is_empty() || args.knock_off) {
        bail!("a range of players makes a table on one board: give one board, no --reverse-seat and no --knock-off");
    }
    let digits = usize::from(args.digits.unwrap_or(if args.knock_off { 12 } else { 15 }));
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
