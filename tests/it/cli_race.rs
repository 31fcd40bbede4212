//! Runs `ladders race`: certified win odds per seat, mixed boards, the players table, the
//! knock-off rule, JSON, and bad input.

use num_rational::BigRational;
use predicates::prelude::*;

use crate::common::{exact, json_of, ladders};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn two_coins_on_the_tiny_board_match_the_hand_derived_odds() {
    // Worked by hand in src/race/independent.rs: seat 1 wins 16/27, the game lasts 80/27 rounds.
    let v = json_of(&["race", "tiny", "--json", "--digits", "12"]);
    let seat1 = &v["seats"][0]["win"];
    assert!(exact(&seat1["lo"]) <= q(16, 27) && q(16, 27) <= exact(&seat1["hi"]));
    assert_eq!(seat1["certified"], "0.592592592593");
    assert_eq!(v["seats"][1]["win"]["certified"], "0.407407407407");
    assert_eq!(v["expected_rounds"]["certified"], "2.962962962963");
    assert_eq!(v["seats"][0]["board"], "Tiny (hand-solvable)");
    assert_eq!(v["method"], "series");
}

#[test]
fn seed_000s_races_are_within_their_simulation_error() {
    // Seed 000 simulated 10,000,000 games: the first of two on Efi won 5,138,231 (51.38 %), and
    // against reversed Efi 6,849,091 (68.49 %). One standard error is 0.016 points; the exact
    // answers must lie within 4 of them.
    for (args, simulated) in [
        (vec!["race", "efi", "--json"], 0.5138231),
        (
            vec!["race", "efi", "efi", "--reverse-seat", "2", "--json"],
            0.6849091,
        ),
    ] {
        let v = json_of(&args);
        let win: f64 = v["seats"][0]["win"]["certified"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((win - simulated).abs() < 4.0 * 0.00016, "{args:?}: {win}");
        // 15 certified digits by default.
        let text = v["seats"][0]["win"]["certified"].as_str().unwrap();
        assert_eq!(text.len(), "0.".len() + 15, "{text}");
    }
}

#[test]
fn the_players_table_answers_seed_001() {
    // Seed 001 simulated 39.3 (one million games), 26.4, 21.7, 19.2, 17.7 for 1..5 players
    // (10,000 games each: one standard error is about 0.25 turns or less).
    let v = json_of(&[
        "race",
        "milton-bradley",
        "--players",
        "1..5",
        "--json",
        "--digits",
        "6",
    ]);
    let races = v["races"].as_array().unwrap();
    assert_eq!(races.len(), 5);
    for (race, simulated) in races.iter().zip([39.29, 26.4, 21.7, 19.2, 17.7]) {
        let rounds: f64 = race["expected_rounds"]["certified"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((rounds - simulated).abs() < 0.5, "{rounds} vs {simulated}");
    }
    // One player: the expected turns of `ladders expect` (tests/fixtures/independent).
    assert_eq!(races[0]["expected_rounds"]["certified"], "39.225122");
}

#[test]
fn the_text_report_names_the_seats_and_says_the_digits_are_certified() {
    ladders()
        .args(["race", "efi", "efi", "--reverse-seat", "2", "--digits", "6"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Efi (reversed)"))
        .stdout(predicate::str::contains("certified"))
        .stdout(predicate::str::contains("Seat 1 - seat 2"));
}

#[test]
fn the_distribution_of_rounds_adds_up() {
    // Tiny board, one player: P(L = n) = (n - 1) / 2^n (boards/tiny.toml), so P(L = 3) = 1/4.
    let v = json_of(&[
        "race",
        "tiny",
        "--players",
        "1",
        "--distribution",
        "--json",
        "--digits",
        "10",
    ]);
    let rows = v["rounds_distribution"].as_array().unwrap();
    assert_eq!(rows[0]["p"]["certified"], "0.0000000000");
    assert_eq!(rows[2]["rounds"], 3);
    assert_eq!(rows[2]["p"]["certified"], "0.2500000000");
    assert_eq!(rows[2]["cdf"]["certified"], "0.5000000000");
}

#[test]
fn knock_off_on_a_small_board_is_exact() {
    // Tiny board with knock-off: solved exactly (the joint chain is small); the two seats'
    // exact probabilities sum to 1.
    let v = json_of(&["race", "tiny", "--knock-off", "--json"]);
    assert_eq!(v["method"], "exact");
    let a = exact(&v["seats"][0]["win"]["lo"]);
    let b = exact(&v["seats"][1]["win"]["lo"]);
    assert_eq!(a.clone() + b, q(1, 1));
    assert_eq!(v["seats"][0]["win"]["lo"], v["seats"][0]["win"]["hi"]);
    assert!(a > q(1, 2));
}

#[test]
fn bad_race_input_is_rejected_with_exit_code_2() {
    ladders()
        .args(["race", "tiny", "--players", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("number of players"));
    ladders()
        .args(["race", "tiny", "efi", "--players", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 boards given for 3 players"));
    ladders()
        .args(["race", "tiny", "--reverse-seat", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seats are numbered 1 to 2"));
    ladders()
        .args(["race", "tiny", "efi", "--knock-off"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("same squares"));
}

/// The gates boards' knock-off race lasts about 30,000 rounds, too long for the float candidate
/// of the stepping's bound: refused with the library's message and both remedies, the joint
/// chain's states named; an exact limit above them answers exactly.
#[test]
fn a_knock_off_race_that_cannot_be_certified_names_the_exact_limit_and_the_simulator() {
    let boards = [
        "tests/fixtures/race/gates-36.toml",
        "tests/fixtures/race/gates-36b.toml",
    ];
    let mut args = vec![
        "race",
        boards[0],
        boards[1],
        "--knock-off",
        "--exact-limit",
        "1",
    ];
    let err = crate::common::stderr_of(&args, 2);
    let (message, remedy) = err.trim_end().split_once("; ").expect("a remedy");
    assert_eq!(
        message,
        "error: could not certify a bound on the remaining length of the knock-off game (the \
         joint chain's expected times are too long for the float candidate)"
    );
    let states: usize = remedy
        .strip_prefix("try --exact-limit above ")
        .and_then(|rest| rest.split_once(','))
        .map(|(n, _)| n.parse().unwrap())
        .unwrap_or_else(|| panic!("{remedy}"));
    assert!(
        remedy.ends_with(
            ", or `ladders simulate --players 2 --knock-off` estimates it with standard errors"
        ),
        "{remedy}"
    );
    let above = (states + 1).to_string();
    args[5] = &above;
    let text = crate::common::stdout_of(&args);
    assert!(text.contains("Exact: the joint chain solved"), "{text}");
}

/// Two seats sharing Efi with jump turns: the shared race's certified solve refuses the turns'
/// denominators, and the simulator is named for the two seats.
#[test]
fn a_shared_race_that_cannot_be_certified_names_the_simulator() {
    let err = crate::common::stderr_of(
        &[
            "race",
            "tests/fixtures/turn-rules/efi-jump.toml",
            "--players",
            "2",
        ],
        2,
    );
    assert!(
        err.starts_with("error: the shared race could not be certified: "),
        "{err}"
    );
    assert!(
        err.trim_end()
            .ends_with("; `ladders simulate --players 2` estimates it with standard errors"),
        "{err}"
    );
}
