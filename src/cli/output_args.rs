//! The output options most subcommands share, declared once and flattened in: `--json` and
//! `--digits` (default 12). A subcommand whose option differs rewrites only that, with
//! `#[command(mut_arg(...))]` on its `Args`: the per-square tables of `squares` and
//! `sensitivity` default to [`TABLE_DIGITS`], `pgf`'s digits are those of E[T]. (Not a const
//! generic default: clap keeps a derived default in one static per field, shared by every
//! instance.) A report whose JSON always carries the exact fractions takes [`JsonExact`], the
//! same flag with its own help line. `race` certifies its digits (no fixed default), and
//! `boards` and `generate` print other JSON, so they declare their own.

/// `--json`: one JSON object instead of the text report.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Json {
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--json` for a report whose JSON carries the exact fractions even when the text shows
/// decimals (`distribution`, `squares`, `sensitivity`).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct JsonExact {
    /// Print one JSON object instead of text (always with the exact fractions)
    #[arg(long)]
    pub json: bool,
}

/// The default `--digits` of the per-square tables (`squares`, `sensitivity`).
pub const TABLE_DIGITS: &str = "6";

/// `--digits`: digits after the decimal point.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Digits {
    /// Digits after the decimal point (correctly rounded from the exact value)
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub digits: u16,
}

impl Digits {
    /// The digits asked for.
    pub fn get(self) -> usize {
        usize::from(self.digits)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Cli, Command};

    fn parse(args: &[&str]) -> Command {
        let cli = Cli::try_parse_from(std::iter::once("ladders").chain(args.iter().copied()));
        cli.unwrap().command.unwrap()
    }

    #[test]
    fn each_subcommand_gets_its_own_default_digits_from_the_one_declaration() {
        // squares and sensitivity default to 6 and the others to 12, whichever parses first.
        for _ in 0..2 {
            match parse(&["squares", "tiny"]) {
                Command::Squares(a) => assert_eq!(a.digits.get(), 6),
                _ => unreachable!(),
            }
            match parse(&["expect", "tiny"]) {
                Command::Expect(a) => assert_eq!(a.game.digits.get(), 12),
                _ => unreachable!(),
            }
            match parse(&["sensitivity", "tiny", "--digits", "3", "--json"]) {
                Command::Sensitivity(a) => assert_eq!((a.digits.get(), a.output.json), (3, true)),
                _ => unreachable!(),
            }
        }
    }

    #[test]
    fn pgf_refuses_json_with_a_format_either_way_round() {
        for args in [
            ["pgf", "tiny", "--json", "--format", "sympy"],
            ["pgf", "tiny", "--format", "sympy", "--json"],
        ] {
            let err = Cli::try_parse_from(std::iter::once("ladders").chain(args)).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict);
        }
    }
}
