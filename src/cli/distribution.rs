//! `ladders distribution BOARD`: the exact distribution of the number of turns.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use ladders::analysis::DistributionOptions;
use ladders::analysis::ShownDistribution;
use ladders::report::{
    write_distribution as write_text, write_distribution_csv as write_csv, DistributionJson, Report,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::exit;
use super::output::write_json;
use super::output_args::JsonExact;
use super::policy_arg::{policy_line, with_policy, GameArgs};

/// Exact distribution of the number of turns
#[derive(clap::Args, Debug)]
#[command(
    after_help = after_help!(
    "ladders distribution tiny --exact",
    "ladders distribution milton-bradley --turns 50 --csv",
    "ladders distribution efi --chart --tail 1e-3"
)
)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Compute exactly N turns (instead of stopping at the tail threshold)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub turns: Option<u32>,
    /// Stop at the first n with P(T > n) < EPS, decided exactly (default 1e-12)
    #[arg(long, value_name = "EPS", value_parser = parse_tail, conflicts_with = "turns")]
    pub tail: Option<BigRational>,
    /// Print the exact fractions instead of decimals
    #[arg(long)]
    pub exact: bool,
    /// A bar chart of P(T = n) instead of the table
    #[arg(long, conflicts_with_all = ["csv", "json", "exact"])]
    pub chart: bool,
    /// Print CSV: n,p,cdf,survives
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    #[command(flatten)]
    pub output: JsonExact,
    /// Also write a chart as SVG to FILE: P(T = n) bars, P(T <= n) line, quantiles marked (`-`:
    /// standard output, instead of the report)
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

/// Parses a decimal such as `1e-12` or `0.001` into an exact rational in (0, 1).
pub fn parse_tail(text: &str) -> Result<BigRational, String> {
    let bad = || format!("expected a number between 0 and 1 such as 1e-12, not {text:?}");
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().map_err(|_| bad())?),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
        || exponent.unsigned_abs() > 1000
    {
        return Err(bad());
    }
    let digits: BigInt = format!("{int}{frac}").parse().map_err(|_| bad())?;
    let scale = exponent - frac.len() as i32;
    let ten = BigInt::from(10);
    let value = if scale >= 0 {
        BigRational::from_integer(digits * ten.pow(scale as u32))
    } else {
        BigRational::new(digits, ten.pow(scale.unsigned_abs()))
    };
    if value.is_zero() || value >= BigRational::one() {
        return Err(bad());
    }
    Ok(value)
}

/// The law a chart needs: up to the first n with P(T > n) below 1/10,000 (charts show no more).
pub fn chart_law_options() -> DistributionOptions {
    DistributionOptions::tail(BigRational::new(BigInt::one(), BigInt::from(10_000)))
}

/// Runs `distribution`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<ExitCode> {
    let game = args.game.game()?;
    let board = game.board();
    let mut options = match &args.tail {
        Some(tail) => DistributionOptions::tail(tail.clone()),
        None => DistributionOptions::default(),
    };
    options.turns = args.turns.map(|n| n as usize);
    let digits = args.game.digits.get();
    if let Some(path) = &args.svg {
        // The chart is drawn from the exact law.
        let dist = game.distribution(&options)?;
        let svg = ladders::report::distribution_svg(board, &dist)?;
        if super::draw::write_svg(path, &svg, out)? {
            return Ok(exit::code(exit::SUCCESS));
        }
    }
    let shown = if args.output.json || args.exact {
        // The fractions: the exact integer stepping.
        let dist = game.distribution(&options)?;
        if args.output.json {
            let body = DistributionJson::new(board, &dist);
            let report = Report::new(board, &body, digits).with_rules().to_value()?;
            write_json(out, &with_policy(&game, report))?;
            return Ok(exit::code(exit::SUCCESS));
        }
        ShownDistribution::from_exact(dist, digits, true)
    } else {
        // Decimals only: certified bounds, exact only where they straddle a boundary.
        game.shown_distribution(&options, digits, args.chart)?
    };
    if args.csv {
        write_csv(out, &shown)?;
    } else {
        policy_line(out, &game)?;
        write_text(out, board, &shown, args.chart)?;
    }
    Ok(exit::code(exit::SUCCESS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_parse_exactly() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(parse_tail("1e-12").unwrap(), q(1, 1_000_000_000_000));
        assert_eq!(parse_tail("0.25").unwrap(), q(1, 4));
        assert_eq!(parse_tail("2.5E-1").unwrap(), q(1, 4));
        assert!(parse_tail("1").is_err());
        assert!(parse_tail("0").is_err());
        assert!(parse_tail("-0.1").is_err());
        assert!(parse_tail("abc").is_err());
        assert!(parse_tail("1e-99999").is_err());
    }
}
