//! Hostile input (issue 17 item 2): every command at the documented size limit answers or
//! refuses within a minute. Each test failed on the main of 2026-11-23 (the limit was 100,000
//! squares, where `expect` alone took about ten minutes and `shortest` minutes); the corpus
//! (`hostile_corpus`) runs the same boards under a CPU-time limit.

use num_bigint::BigInt;
use num_traits::Pow;
use predicates::prelude::*;

use crate::common::ladders;
use crate::hostile::hostile_board;

/// A board past the limit of 10,000 squares is refused at once by every command, naming the
/// limit (before: accepted, and `expect`, `distribution`, `analyze`, `check`, `verify`,
/// `squares` and `race` ran past 60 s of CPU on an empty 100,000-square board).
#[test]
fn a_board_past_the_size_limit_is_refused_at_once() {
    let board = hostile_board("empty_100000.toml");
    for command in ["expect", "distribution", "shortest", "simulate", "draw"] {
        ladders()
            .args([command, &board])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "size 100000 is larger than the limit of 10000 squares",
            ));
    }
}

/// `shortest` on the empty board at the limit: the shortest game's probability stepped the law
/// of every square for 1,667 turns (3.2 s at 10,000 squares, minutes at 100,000 before); now
/// only the squares on shortest games.
///
/// By hand: 1,666 turns reach at most 9,996, so the fewest turns are 1,667, and no roll of such
/// a game can be wasted (an overshoot stays put). 1,667 sixes make 10,002: the games are the
/// ways to be two pips short over 1,667 rolls, C(1,668, 2) = 1,668 * 1,667 / 2 = 1,390,278 of
/// the 6^1,667 equally likely roll sequences.
#[test]
fn shortest_at_the_size_limit_is_exact() {
    let out = ladders()
        .args(["shortest", &hostile_board("empty_10000.toml"), "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let shortest = &json["shortest"];
    assert_eq!(shortest["turns"], 1_667);
    let p = &shortest["probability"];
    let numer: BigInt = p["numerator"].as_str().unwrap().parse().unwrap();
    let denom: BigInt = p["denominator"].as_str().unwrap().parse().unwrap();
    let six: BigInt = 6.into();
    // Compared as fractions: numer * 6^1,667 == 1,390,278 * denom.
    assert_eq!(numer * six.pow(1_667u32), BigInt::from(1_390_278) * denom);
}

/// `race` on the largest benchmark board (10,000 squares, 200 snakes, 200 ladders) estimates its
/// series before stepping it (about 32,000 turns per player over 57,000 transitions: minutes)
/// and refuses at once with the figure and what to do instead, in both output forms (before:
/// killed at the 60 s CPU limit without a word).
#[test]
fn race_at_the_size_limit_refuses_at_once_with_its_estimate() {
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-10000.toml");
    for extra in [&[][..], &["--json"][..], &["--players", "3"][..]] {
        let players = if extra.contains(&"3") { "3" } else { "2" };
        ladders()
            .args(["race", board])
            .args(extra)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(
                "the race's series would take about",
            ))
            .stderr(predicate::str::contains("turns per player"))
            .stderr(predicate::str::contains("--max-turns"))
            .stderr(predicate::str::contains(format!(
                "`ladders simulate --players {players}`"
            )));
    }
}

/// `sensitivity` on the largest benchmark board solves the board once per snake and ladder (400
/// exact solves of 10,000 squares, each about 1.5 s: about 10 minutes); it is refused before
/// any solve, with the estimate and what to run instead (before: stopped by hand after 63 s of
/// CPU). The 1,000-square board (40 solves, about 0.6 s) is answered.
#[test]
fn sensitivity_at_the_size_limit_refuses_at_once_with_its_estimate() {
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-10000.toml");
    for extra in [&[][..], &["--json"][..]] {
        ladders()
            .args(["sensitivity", board])
            .args(extra)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(
                "removing each of the 400 snakes and ladders would take about",
            ))
            .stderr(predicate::str::contains("`ladders squares --csv --jumps`"));
    }
    let small = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/boards/gen-1000.toml");
    ladders()
        .args(["sensitivity", small])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("removing each snake or ladder"));
}
