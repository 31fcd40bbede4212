//! Two players sharing one board that changes during a game (issue 12 item 3): the exact race
//! of `ladders::race::shared` against `tests/independent/shared_race.py`, a pure-Python joint
//! chain written from the rules text (its own reading of a roll, `rules_chain.py`, and of the
//! sharing), compared with `==` on every seat's win probability and the expected rounds. The
//! boards mix one-use jumps, points, lost and extra turns with roll-again (unlimited and
//! forfeits), bounce, chains and chance squares; the fixtures are
//! `tests/fixtures/independent-shared/*.txt` and `tests/fixtures/sim/shared-two.txt`
//! (`tests/independent/regenerate.sh` rewrites them). The certified float route, forced on the
//! same boards, must contain every exact value.

use std::collections::BTreeMap;
use std::path::Path;

use ladders::board::Board;
use ladders::race::shared::{shared_race, SharedOptions};
use ladders::race::Method;
use num_bigint::BigInt;
use num_rational::BigRational;

use super::known_values::parse_fraction;

/// The board and the Python's `name value` lines of one fixture.
fn fixture(path: &Path, board: Option<&str>) -> (Board, BTreeMap<String, BigRational>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    let mut lines = text.lines();
    let board_path = match board {
        Some(b) => b.to_string(),
        None => lines
            .next()
            .unwrap()
            .strip_prefix("args ")
            .unwrap()
            .to_string(),
    };
    let values = lines
        .filter_map(|l| l.split_once(' '))
        .filter(|(k, _)| ["win1", "win2", "rounds"].contains(k))
        .map(|(k, v)| (k.to_string(), parse_fraction(v)))
        .collect();
    let board = Board::load(&root.join(board_path)).expect("valid board");
    (board, values)
}

fn fixtures() -> Vec<(Board, BTreeMap<String, BigRational>)> {
    let mut all: Vec<_> = super::common::fixtures("independent-shared")
        .iter()
        .map(|p| fixture(p, None))
        .collect();
    all.push(fixture(
        Path::new("tests/fixtures/sim/shared-two.txt"),
        Some("tests/fixtures/sim/shared-two.toml"),
    ));
    all
}

#[test]
fn the_shared_race_equals_the_independent_python_joint_chain() {
    let all = fixtures();
    assert!(all.len() >= 7, "{} fixtures", all.len());
    let options = SharedOptions {
        exact_limit: 100_000,
        ..SharedOptions::default()
    };
    for (board, want) in &all {
        let r = shared_race(board, 2, &options).unwrap();
        assert_eq!(r.method, Method::ExactSolve, "{}", board.name());
        assert!(r.complete);
        for (k, name) in ["win1", "win2"].into_iter().enumerate() {
            assert_eq!(r.seats[k].win.lo, r.seats[k].win.hi);
            assert_eq!(r.seats[k].win.lo, want[name], "{}: {name}", board.name());
        }
        assert_eq!(r.expected_rounds.lo, want["rounds"], "{}", board.name());
    }
}

#[test]
fn the_certified_float_route_contains_every_exact_value_and_is_narrow() {
    let options = SharedOptions {
        exact_limit: 0,
        ..SharedOptions::default()
    };
    let narrow = BigRational::new(1.into(), BigInt::from(10u64.pow(13)));
    for (board, want) in fixtures() {
        let r = shared_race(&board, 2, &options).unwrap();
        assert_eq!(r.method, Method::LayeredCertified, "{}", board.name());
        for (k, name) in ["win1", "win2"].into_iter().enumerate() {
            let win = &r.seats[k].win;
            assert!(
                win.contains(&want[name]),
                "{}: {name} {win:?}",
                board.name()
            );
            assert!(win.width() < narrow, "{}: {name}", board.name());
        }
        assert!(
            r.expected_rounds.contains(&want["rounds"]),
            "{}",
            board.name()
        );
        assert!(r.expected_rounds.width() < narrow, "{}", board.name());
        assert!(r.complete, "{}", board.name());
    }
}
