//! What to do about a library error, in the command line's words. The library's errors say what
//! went wrong and never name a flag or a command (the library does not know how it was called);
//! [`add`] recognises the typed errors that have a remedy on the command line and appends it,
//! for the subcommand that ran: `--state-limit` and `--max-turns` for `race`, `--turns`/`--tail` for
//! `distribution`, `--columns` for `generate`, dropping `--float` or a smaller `--moments` for
//! `expect`, `distribution` or `expect --moments` for a `pgf` too long to compute, `squares` and
//! `expect` for a `sensitivity` too long to compute, `expect --float` and `simulate` for a board
//! that changes during a game whose chain or exact solve is too large, or a turn chain's exact
//! solve too long, or a `squares` too long to compute, `optimize` for two players who choose on
//! too large a board.

use std::fmt;

use ladders::analysis::FloatUntrusted;
use ladders::analysis::{
    ChainTooBig, MomentsError, PgfTooLong, SensitivityError, SolveTooLong, SquaresTooLong,
    StatefulTooBig, TooMuchWork,
};
use ladders::choice::DuelTooLong;
use ladders::generate::GenerateError;
use ladders::race::RaceError;
use ladders::race::{KnockOffError, RelativeError, SharedError};

/// The subcommands whose remedies differ (their flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum For {
    /// `ladders race`: `--state-limit`, `--exact-limit`.
    Race,
    /// `ladders distribution`: `--turns`, `--tail`.
    Distribution,
    /// Any other subcommand.
    Other,
}

/// A library error with the command line's advice after it. The error is kept whole (its type
/// and its chain), so the advice adds to it and replaces nothing.
#[derive(Debug)]
pub struct Advised {
    /// The error as the library (and the command's context) gave it.
    pub error: anyhow::Error,
    /// The remedy: written before the error (`--`, making the library's `columns` the flag)
    /// and after it (starting with its own separator, `; ...`).
    pub advice: Remedy,
}

/// What the command line writes around a library error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remedy {
    /// Before the error.
    pub before: &'static str,
    /// After the error.
    pub after: String,
}

impl Remedy {
    fn after(text: impl Into<String>) -> Option<Remedy> {
        Some(Remedy {
            before: "",
            after: text.into(),
        })
    }
}

impl fmt::Display for Advised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Remedy { before, after } = &self.advice;
        write!(f, "{before}{:#}{after}", self.error)
    }
}

impl std::error::Error for Advised {}

/// `err` with the command line's remedy appended when it is one of the library errors that has
/// one for `command`; otherwise `err` unchanged.
pub fn add(err: anyhow::Error, command: For) -> anyhow::Error {
    match endless_turn_advice(&err).or_else(|| advice(&err, command)) {
        Some(advice) => anyhow::Error::new(Advised { error: err, advice }),
        None => err,
    }
}

/// The library's typed error `T` in `err`: the error itself, or the analysis's error a façade
/// refusal keeps ([`ladders::TooLarge::detail`], [`ladders::Uncertified::detail`],
/// [`ladders::Error::Untrusted`]).
fn typed<T: std::error::Error + Send + Sync + 'static>(err: &anyhow::Error) -> Option<&T> {
    if let Some(e) = err.downcast_ref::<T>() {
        return Some(e);
    }
    match err.downcast_ref::<ladders::Error>()? {
        ladders::Error::TooLarge(too_large) => too_large.detail()?.downcast_ref::<T>(),
        ladders::Error::Uncertified(race) => race.detail().downcast_ref::<T>(),
        ladders::Error::Untrusted(e) => {
            (e as &(dyn std::error::Error + 'static)).downcast_ref::<T>()
        }
        _ => None,
    }
}

/// The remedy for a simulation refused because a turn can go on for ever: the exact answers.
fn endless_turn_advice(err: &anyhow::Error) -> Option<Remedy> {
    match err.downcast_ref::<ladders::Error>()? {
        ladders::Error::EndlessTurn { .. } => Remedy::after(
            "; `ladders expect` and `ladders distribution` answer such a board exactly",
        ),
        _ => None,
    }
}

/// The remedies for the estimates made before long work: a duel of two players who choose,
/// `squares`, and a board that changes during a game.
fn estimate_advice(err: &anyhow::Error) -> Option<Remedy> {
    if typed::<DuelTooLong>(err).is_some() {
        return Remedy::after(
            "; `ladders optimize` gives one player's optimal policy and its expected turns",
        );
    }
    if typed::<SolveTooLong>(err).is_some() {
        return Remedy::after(
            "; `ladders expect --float` solves it in floating point, and `ladders simulate` \
             estimates it",
        );
    }
    if typed::<SquaresTooLong>(err).is_some() {
        return Remedy::after(
            "; `ladders expect --float --per-square` gives the expected turns from each square \
             in floating point, `ladders simulate` the rest",
        );
    }
    if let Some(e) = typed::<StatefulTooBig>(err) {
        return Remedy::after(match e {
            StatefulTooBig::Chain(_) => "; `ladders simulate` estimates it, game by game",
            StatefulTooBig::Score { .. } | StatefulTooBig::ScoreChain { .. } => {
                "; `ladders expect --float` gives the expectations without it, and `ladders \
                 simulate` estimates the score"
            }
            StatefulTooBig::Solve { .. } => {
                "; `ladders expect --float` solves it in floating point, and `ladders simulate` \
                 estimates the rest"
            }
        });
    }
    None
}

/// The remedy for a turn chain too large to build: `expect` where it answers roll by roll.
fn chain_remedy(too_big: &ChainTooBig) -> &'static str {
    match too_big.size.roll_level {
        true => {
            "; `ladders expect` answers exactly without it (roll by roll), and `ladders simulate` \
             estimates the rest"
        }
        false => "; `ladders simulate` estimates it, game by game",
    }
}

/// The remedy for `err` run by `command`, when it has one.
fn advice(err: &anyhow::Error, command: For) -> Option<Remedy> {
    if typed::<PgfTooLong>(err).is_some() {
        return Remedy::after(
            "; the law itself: `ladders distribution`, its moments: `ladders expect --moments 2`",
        );
    }
    if let Some(SensitivityError::TooLong { .. } | SensitivityError::Stateful(_)) =
        typed::<SensitivityError>(err)
    {
        return Remedy::after(
            "; `ladders squares --csv --jumps` gives each jump's expected uses, and `ladders \
             expect` (or `expect --float`) on a copy of the board without a jump its expected \
             turns",
        );
    }
    if let Some(too_big) = typed::<ChainTooBig>(err) {
        return Remedy::after(chain_remedy(too_big));
    }
    if let Some(remedy) = estimate_advice(err) {
        return Some(remedy);
    }
    if typed::<FloatUntrusted>(err).is_some() {
        return Remedy::after("; drop --float: `ladders expect` answers exactly");
    }
    if typed::<TooMuchWork>(err).is_some() {
        return Remedy::after(match command {
            For::Distribution => {
                "; pass fewer --turns or a larger --tail, or estimate it with \
                                  `ladders simulate` (`ladders expect` gives the exact mean)"
            }
            _ => "; `ladders expect` gives the exact mean",
        });
    }
    if let Some(MomentsError::TooMuchWork { solved, .. }) = typed::<MomentsError>(err) {
        return Remedy::after(match solved {
            0 => "; `ladders expect` without --moments gives the exact mean and variance".into(),
            k => format!("; ask for --moments {k} or less (solved directly)"),
        });
    }
    if let Some(e) = typed::<GenerateError>(err) {
        return match e {
            GenerateError::Columns { .. } => Some(Remedy {
                before: "--",
                after: String::new(),
            }),
            GenerateError::TooShort { .. } => {
                Remedy::after(" (a larger --columns makes fewer rows)")
            }
            _ => None,
        };
    }
    if command != For::Race {
        return None;
    }
    if let Some(RaceError::TooLong {
        turns_within,
        players,
        ..
    }) = typed::<RaceError>(err)
    {
        return Remedy::after(format!(
            "; sum fewer turns with --max-turns {} (fewer digits certified), or{}",
            turns_within.max(&1),
            &simulate_instead(*players, "")[1..]
        ));
    }
    if let Some(e) = typed::<KnockOffError>(err) {
        return match e {
            KnockOffError::TooLarge(_) => Remedy::after(
                " (or a larger --state-limit), or `ladders simulate --players K --knock-off` \
                 estimates it with standard errors",
            ),
            KnockOffError::TooMuchMemory { players, .. } => Remedy::after(format!(
                ": a smaller --state-limit refuses it cleanly, or{}",
                &simulate_instead(*players, " --knock-off")[1..]
            )),
            KnockOffError::NoTailBound(states) => Remedy::after(format!(
                "; try --exact-limit above {states}{}",
                or_simulate(err, " --knock-off")
            )),
            KnockOffError::Relative(RelativeError::TooLarge { players, .. }) => {
                Remedy::after(simulate_instead(*players, " --knock-off"))
            }
            _ => None,
        };
    }
    match typed::<SharedError>(err)? {
        SharedError::TooLarge { players, .. } => Remedy::after(format!(
            "; a larger --state-limit, or{}",
            &simulate_instead(*players, "")[1..]
        )),
        SharedError::Layered(_, players) | SharedError::TooMuchMemory { players, .. } => {
            Remedy::after(simulate_instead(*players, ""))
        }
        _ => None,
    }
}

/// `, or` the advice to simulate, when `err` is a race the library could not certify (whose
/// seats it names); otherwise nothing.
fn or_simulate(err: &anyhow::Error, extra: &str) -> String {
    match err.downcast_ref::<ladders::Error>() {
        Some(ladders::Error::Uncertified(race)) => {
            format!(", or{}", &simulate_instead(race.players, extra)[1..])
        }
        _ => String::new(),
    }
}

/// The advice to estimate a race of `players` by simulation (`extra`: its other flags).
pub fn simulate_instead(players: usize, extra: &str) -> String {
    format!("; `ladders simulate --players {players}{extra}` estimates it with standard errors")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_advice_follows_the_library_message_and_keeps_the_error() {
        let err = anyhow::Error::new(KnockOffError::NoTailBound(2000)).context("tiny");
        let advised = add(err, For::Race);
        assert_eq!(
            format!("{advised:#}"),
            "tiny: could not certify a bound on the remaining length of the knock-off game (the \
             joint chain's expected times are too long for the float candidate); try \
             --exact-limit above 2000"
        );
        let kept = advised.downcast_ref::<Advised>().unwrap();
        assert_eq!(
            kept.error.downcast_ref::<KnockOffError>(),
            Some(&KnockOffError::NoTailBound(2000))
        );
    }

    #[test]
    fn race_flags_are_advised_only_to_race() {
        let err = || anyhow::Error::new(KnockOffError::NoTailBound(5));
        assert!(advice(&err(), For::Race).is_some());
        assert_eq!(advice(&err(), For::Other), None);
        assert_eq!(advice(&err(), For::Distribution), None);
    }

    #[test]
    fn the_shared_race_advice_names_the_players() {
        let err = anyhow::Error::new(SharedError::TooLarge {
            players: 3,
            bound: 1e9,
            limit: 10,
        });
        assert_eq!(
            advice(&err, For::Race).unwrap().after,
            "; a larger --state-limit, or `ladders simulate --players 3` estimates it with \
             standard errors"
        );
    }

    #[test]
    fn the_columns_of_generate_become_the_flag() {
        let err = anyhow::Error::new(GenerateError::Columns {
            columns: 21,
            size: 20,
        });
        assert_eq!(
            add(err, For::Other).to_string(),
            "--columns 21 is not a row length: expected 1 to 20"
        );
    }

    #[test]
    fn an_error_without_a_remedy_is_returned_unchanged() {
        let err = add(anyhow::anyhow!("plain"), For::Distribution);
        assert!(err.downcast_ref::<Advised>().is_none());
        assert_eq!(err.to_string(), "plain");
    }

    /// The `#[error(...)]` texts of the library's files under `dir` (not `src/cli`) that name a
    /// flag (`--` then a letter), as `file: text`.
    fn flags_in_library_errors(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.ends_with("cli") {
                flags_in_library_errors(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (start, _) in text.match_indices("#[error(") {
                    let attribute = &text[start..start + text[start..].find(")]\n").unwrap()];
                    let flag = attribute
                        .as_bytes()
                        .windows(3)
                        .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_lowercase());
                    if flag {
                        found.push(format!("{}: {attribute}", path.display()));
                    }
                }
            }
        }
    }

    #[test]
    fn library_errors_name_no_flag() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = Vec::new();
        flags_in_library_errors(&src, &mut found);
        assert!(found.is_empty(), "{}", found.join("\n"));
        // The scan sees the library's errors: it finds a flag in a copy of one.
        let dir = std::env::temp_dir().join(format!("ladders-advice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("e.rs"),
            "#[error(\"try --exact-limit {0}\")]\nA,\n",
        )
        .unwrap();
        flags_in_library_errors(&dir, &mut found);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1);
    }
}
