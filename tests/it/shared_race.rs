//! Two players sharing one board that changes during a game (issue 12 item 3): the exact race
//! of `ladders::race::shared` against `tests/independent/shared_race.py`, a pure-Python joint
//! chain written from the rules text (its own reading of a roll, `rules_chain.py`, and of the
//! sharing), compared with `==` on every seat's win probability, the expected rounds and each
//! seat's expected score (the Python keeps the eaten apples in its state; `ladders` sums one race
//! per apple). The
//! boards mix one-use jumps, points, lost and extra turns with roll-again (unlimited and
//! forfeits), bounce, chains and chance squares; the fixtures are
//! `tests/fixtures/independent-shared/*.txt` and `tests/fixtures/sim/shared-two.txt`
//! (`tests/independent/regenerate.sh` rewrites them). The certified float route, forced on the
//! same boards, must contain every exact value. A board whose endless turn only a shared game
//! reaches is refused.

use std::collections::BTreeMap;
use std::path::Path;

use ladders::board::Board;
use ladders::internals::{shared_race, SharedOptions};
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
        .filter(|(k, _)| ["win1", "win2", "rounds", "score1", "score2"].contains(k))
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
        // Each seat's expected score (the Python's own reward on its joint chain with the
        // eaten set in the state); no score on a board without point squares (the Python's 0).
        for (k, name) in ["score1", "score2"].into_iter().enumerate() {
            match &r.seats[k].score {
                Some(score) => {
                    assert_eq!(score.lo, score.hi);
                    assert_eq!(score.lo, want[name], "{}: {name}", board.name());
                }
                None => {
                    assert!(board.point_squares().is_empty(), "{}", board.name());
                    assert_eq!(want[name], BigRational::from_integer(0.into()));
                }
            }
        }
    }
    let scored = all.iter().filter(|(b, _)| !b.point_squares().is_empty());
    assert!(scored.count() >= 4, "boards with point squares");
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
        for (k, name) in ["score1", "score2"].into_iter().enumerate() {
            if let Some(score) = &r.seats[k].score {
                assert!(score.contains(&want[name]), "{}: {name}", board.name());
                assert!(score.width() < narrow, "{}: {name}", board.name());
            }
        }
        assert!(r.complete, "{}", board.name());
    }
}

/// `ladders race BOARD ARGS --json` on the shared board of `tests/fixtures/sim/shared-two.toml`.
fn race_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["race", "tests/fixtures/sim/shared-two.toml", "--json"];
    all.extend_from_slice(args);
    super::common::json_of(&all)
}

#[test]
fn race_on_a_shared_board_prints_the_exact_and_the_certified_answers() {
    let (_, want) = fixture(
        Path::new("tests/fixtures/sim/shared-two.txt"),
        Some("tests/fixtures/sim/shared-two.toml"),
    );
    let exact = race_json(&[]);
    assert_eq!(exact["method"], "exact");
    for (k, name) in ["win1", "win2"].into_iter().enumerate() {
        let win = &exact["seats"][k]["win"];
        assert_eq!(super::common::exact(&win["lo"]), want[name]);
        assert_eq!(super::common::exact(&win["hi"]), want[name]);
        let score = &exact["seats"][k]["score"];
        let name = ["score1", "score2"][k];
        assert_eq!(super::common::exact(&score["lo"]), want[name]);
        assert_eq!(super::common::exact(&score["hi"]), want[name]);
    }
    let layered = race_json(&["--exact-limit", "0"]);
    assert_eq!(layered["method"], "layered");
    let win = &layered["seats"][0]["win"];
    assert!(super::common::exact(&win["lo"]) <= want["win1"]);
    assert!(want["win1"] <= super::common::exact(&win["hi"]));
    let score = &layered["seats"][1]["score"];
    assert!(super::common::exact(&score["lo"]) <= want["score2"]);
    assert!(want["score2"] <= super::common::exact(&score["hi"]));
}

/// `check --players 2` at 10^6 games on the shared board with every feature (a one-use ladder
/// and snake, apples, a lost and an extra turn, roll-again with forfeits, bounce) passes against
/// the exact shared race.
#[test]
fn check_of_two_players_sharing_a_board_passes_against_the_exact_race() {
    let out = super::common::ladders()
        .args([
            "check",
            "tests/fixtures/sim/shared-two.toml",
            "--players",
            "2",
        ])
        .args(["-n", "1M", "--seed", "1"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Verdict          PASS"), "{text}");
    assert!(text.contains("0.549796"), "the exact win of seat 1: {text}");
    // A million games of the board with every feature at once (issue 12's "What must show").
    assert!(text.contains("1,000,000"), "{text}");
}

#[test]
fn a_shared_board_with_other_seats_or_knock_off_is_refused() {
    for args in [
        &["tests/fixtures/sim/shared-two.toml", "tiny"][..],
        &["tests/fixtures/sim/shared-two.toml", "--knock-off"][..],
    ] {
        super::common::ladders()
            .arg("race")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("shared by every seat"));
    }
}

/// `simulate`, `check` and `race` with two players refuse a board whose endless turn only a
/// shared game reaches (the one-player check passed it, and the simulation hung), while one
/// player alone is simulated as before.
#[test]
fn a_turn_that_never_ends_only_when_the_board_is_shared_is_refused_not_a_hang() {
    let board = "tests/fixtures/sim/shared-endless.toml";
    for args in [
        vec!["simulate", board, "--players", "2", "-n", "1000"],
        vec!["check", board, "--players", "2", "-n", "1000"],
        vec!["race", board],
    ] {
        super::common::ladders()
            .args(&args)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "2 players sharing the board can reach a turn that goes on for ever",
            ))
            .stderr(predicates::str::contains(
                "seat 2's turn with the seats on squares [9, 1]",
            ));
    }
    super::common::ladders()
        .args(["simulate", board, "-n", "1000", "--seed", "1"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
}
