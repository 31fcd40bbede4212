//! The exact expectations of the built-in boards (and rule variants) against values derived
//! independently: `tests/independent/roll_chain.py`, a pure-Python roll-level chain (a state is a
//! square plus the top faces rolled so far in the turn) solved with `fractions.Fraction`, written
//! separately from the Rust code. `tests/independent/regenerate.sh` rewrites the fixtures.

use std::path::Path;

use ladders::analysis::Expectation;
use ladders::board::{Board, Overshoot, RollAgain, RuleOverrides};
use ladders::internals::expect;
use num_bigint::BigInt;
use num_rational::BigRational;

/// Reads a fixture's `numerator/denominator`.
pub(crate) fn parse_fraction(text: &str) -> BigRational {
    let (n, d) = text.split_once('/').expect("n/d");
    BigRational::new(n.parse::<BigInt>().unwrap(), d.parse::<BigInt>().unwrap())
}

/// Loads the board a fixture's `args` line names, with its overrides.
fn board_for(args: &[&str]) -> Board {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut board = Board::load(&root.join(args[0])).expect("valid board");
    let mut overrides = RuleOverrides::default();
    let mut i = 1;
    while i < args.len() {
        match args[i] {
            "--reverse" => board = board.reversed().expect("reversible"),
            "--overshoot" => {
                i += 1;
                overrides.overshoot = Overshoot::from_name(args[i]);
            }
            "--start" => {
                i += 1;
                overrides.start = Some(args[i].parse().unwrap());
            }
            "--die" => {
                i += 1;
                overrides.die = Some(args[i].parse().unwrap());
            }
            "--roll-again" => {
                i += 1;
                overrides.roll_again = Some(RollAgain::parse(args[i]).unwrap());
            }
            other => panic!("unknown fixture argument {other}"),
        }
        i += 1;
    }
    board.with_rules(&overrides).expect("valid overrides")
}

#[test]
fn expectations_equal_the_independent_roll_level_derivation_on_every_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // optimal-*.txt are optimal_play.py's (tests/it/optimize.rs reads them).
        if path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("optimal-")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let args: Vec<&str> = lines
            .next()
            .unwrap()
            .strip_prefix("args ")
            .unwrap()
            .split_whitespace()
            .collect();
        let board = board_for(&args);
        let Expectation::Finite(e) = expect(&board) else {
            panic!("{}: expected a finite game", path.display())
        };
        for line in lines {
            let (name, value) = line.split_once(' ').unwrap();
            let expected = parse_fraction(value);
            let got = match name {
                "turns" => &e.turns,
                "rolls" => &e.rolls,
                "snakes" => &e.snakes,
                "ladders" => &e.ladders,
                "climbed" => &e.climbed,
                "slid" => &e.slid,
                "variance" => &e.variance,
                other => panic!("unknown quantity {other}"),
            };
            assert_eq!(got, &expected, "{}: {name}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures found");
}

#[test]
fn the_seed_figures_come_out_near_what_the_seeds_simulated() {
    // Seed 000: efi 26.9 turns, reversed 46.1, climb 55.7 / slide 51.6, reversed 91.3 / 176.2
    // (10,000,000 simulated games each; the standard error of such a mean is about 0.004 turns).
    // Seed 001: milton-bradley 39.290771 over 1,000,000 games (standard error 0.025).
    let near = |x: &BigRational, target: f64, tol: f64| {
        let v = ladders::report::to_f64(x);
        assert!(
            (v - target).abs() < tol,
            "{v} is not within {tol} of {target}"
        );
    };
    let efi = ladders::board::builtin("efi").unwrap();
    let Expectation::Finite(e) = expect(&efi) else {
        panic!()
    };
    near(&e.turns, 26.9, 0.05);
    near(&e.climbed, 55.7, 0.05);
    near(&e.slid, 51.6, 0.05);
    let Expectation::Finite(r) = expect(&efi.reversed().unwrap()) else {
        panic!()
    };
    near(&r.turns, 46.1, 0.1);
    near(&r.climbed, 91.3, 0.1);
    near(&r.slid, 176.2, 0.2);
    let mb = ladders::board::builtin("milton-bradley").unwrap();
    let Expectation::Finite(m) = expect(&mb) else {
        panic!()
    };
    near(&m.turns, 39.29, 0.1);
}
