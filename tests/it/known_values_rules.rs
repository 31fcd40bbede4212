//! The exact answers on small boards using every rule of docs/model.md (loaded dice, several
//! dice, chance squares, random tiles, one-use jumps, points, lost and extra turns, mixed with
//! roll-again, bounce and chains) against `tests/independent/rules_chain.py`, a pure-Python
//! roll-level chain written from the rules text, not from the Rust code. The boards are
//! `tests/fixtures/independent-boards/*.toml`, the Python's answers
//! `tests/fixtures/independent-rules/*.txt` (`tests/independent/regenerate.sh` rewrites them):
//! expectations, variance, P(T = n) for n = 1..6, and on point boards the expected final score
//! and its law, all compared with `==`.

use std::path::Path;

use ladders::analysis::distribution::DistributionOptions;
use ladders::analysis::expectation::{expect, Expectation};
use ladders::analysis::stateful::{board_distribution, score};
use ladders::board::Board;

use super::known_values::parse_fraction;

/// Checks one fixture; returns the number of values compared.
fn check_fixture(path: &Path) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let board_path = lines.next().unwrap().strip_prefix("args ").unwrap();
    let board = Board::load(&root.join(board_path)).expect("valid board");
    let Expectation::Finite(e) = expect(&board) else {
        panic!("{}: expected a finite game", path.display())
    };
    let options = DistributionOptions {
        turns: Some(6),
        ..DistributionOptions::default()
    };
    let law = board_distribution(&board, &options).expect("six turns are cheap");
    let final_score = score(&board);
    let mut compared = 0;
    let mut score_law = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        let (got, expected) = match words[..] {
            ["p_turns", n, value] => {
                let n: usize = n.parse().unwrap();
                let term = &law.terms[n - 1];
                assert_eq!(term.n, n);
                (term.p.clone(), parse_fraction(value))
            }
            ["score_law", v, value] => {
                score_law.push((v.parse::<i64>().unwrap(), parse_fraction(value)));
                continue;
            }
            ["score", value] => (
                final_score
                    .as_ref()
                    .expect("a points board")
                    .expected
                    .clone(),
                parse_fraction(value),
            ),
            [name, value] => {
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
                (got.clone(), parse_fraction(value))
            }
            _ => panic!("{}: bad line {line:?}", path.display()),
        };
        assert_eq!(got, expected, "{}: {line}", path.display());
        compared += 1;
    }
    if let Some(s) = final_score {
        assert_eq!(s.law, score_law, "{}: the score's law", path.display());
        compared += score_law.len();
    } else {
        assert!(
            score_law.is_empty(),
            "{}: no score computed",
            path.display()
        );
    }
    compared
}

#[test]
fn every_rule_equals_the_independent_python_derivation_on_small_boards() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/independent-rules");
    let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    fixtures.sort();
    let mut compared = 0;
    for path in &fixtures {
        // Every fixture holds at least the seven expectations and six terms of P(T = n).
        let n = check_fixture(path);
        assert!(n >= 13, "{}: only {n} values", path.display());
        compared += n;
    }
    // Six boards for issue 11's rules and six for issue 12's, at least.
    assert!(fixtures.len() >= 12, "only {} fixtures", fixtures.len());
    assert!(compared >= 12 * 13);
}
