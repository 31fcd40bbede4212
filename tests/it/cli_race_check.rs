//! Runs the real binary: `simulate --players K` and `check --players K [--knock-off]`. The race
//! simulation must pass seat by seat against the exact races at 10^6 games (fixed seeds), give
//! the same report on one thread and on two, and refuse bad seat arguments.

use serde_json::Value;

use crate::common::ladders;

const KNOCK_24: &str = "tests/fixtures/race/knock-24.toml";
const KNOCK_40: &str = "tests/fixtures/race/knock-40.toml";
const KNOCK_20: &str = "tests/fixtures/race/knock-20.toml";

/// Runs `args` with `--json`; returns the exit code and the JSON.
fn json_of(args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.push("--json");
    let out = ladders().args(&all).output().expect("runs");
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json)
}

/// `check ARGS --games 1M --seed S`: passes, every seat's test passes, and the seat count is K.
fn passes_seat_by_seat(args: &[&str], players: usize, knock_off: bool) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--games", "1M", "--seed", "2026"]);
    let (code, v) = json_of(&all);
    let check = &v["check"];
    assert_eq!(code, 0, "{args:?}: {check}");
    assert_eq!(check["verdict"], "PASS");
    assert_eq!(v["games"], 1_000_000);
    assert_eq!(v["knock_off"], knock_off);
    assert_eq!(v["players"], players);
    let seats = check["seats"].as_array().unwrap();
    assert_eq!(seats.len(), players);
    for s in seats {
        assert_eq!(s["share"]["pass"], true, "{s}");
    }
    assert_eq!(check["rounds"]["pass"], true);
    assert_eq!(check["chi_square"]["df"], players - 1);
    assert_eq!(check["tests"], players + 2);
    let wins: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins + v["capped"].as_u64().unwrap(), 1_000_000);
    if knock_off {
        assert!(v["totals"]["knock_offs"].as_u64().unwrap() > 0);
    } else {
        assert_eq!(v["totals"]["knock_offs"], 0);
    }
}

#[test]
fn check_passes_seat_by_seat_without_knock_off_at_a_million_games() {
    // Seed 000's two races: two players on efi, and efi against reversed efi.
    passes_seat_by_seat(&["efi", "--players", "2"], 2, false);
    passes_seat_by_seat(&["efi", "--reverse-seat", "2"], 2, false);
    passes_seat_by_seat(&["milton-bradley", "--players", "3"], 3, false);
}

#[test]
fn check_passes_seat_by_seat_with_knock_off_at_a_million_games() {
    // Two players with roll-again, forfeits and bounces (joint chain stepped with certified
    // bounds), and three on tiny (joint chain solved exactly).
    passes_seat_by_seat(&[KNOCK_24, "--knock-off"], 2, true);
    passes_seat_by_seat(&["tiny", "--players", "3", "--knock-off"], 3, true);
}

/// `race BOARD --players K --knock-off` is answered over positions relative to the mover and
/// certified, and `check` passes against it seat by seat.
fn relative_and_passes_check(board: &str, players: usize) {
    let k = players.to_string();
    let (code, v) = json_of(&["race", board, "--players", &k, "--knock-off"]);
    assert_eq!(code, 0);
    assert_eq!(v["method"], "relative");
    assert_eq!(v["complete"], true);
    passes_seat_by_seat(&[board, "--players", &k, "--knock-off"], players, true);
}

#[test]
fn three_players_with_knock_off_on_one_board_are_certified_by_relative_positions_and_pass_check() {
    // 3 x 38^3 joint states, beyond the exact solve: answered over positions relative to the
    // mover (race::relative, with roll-again mid-turn), and the simulation agrees seat by seat.
    relative_and_passes_check(KNOCK_40, 3);
}

#[test]
fn four_players_with_knock_off_on_one_board_are_certified_by_relative_positions_and_pass_check() {
    // 4 x 18^4 joint states: answered over positions relative to the mover, the chain generated
    // during the sweeps (race::relative), and the simulation agrees seat by seat.
    relative_and_passes_check(KNOCK_20, 4);
}

#[test]
fn four_players_with_knock_off_on_a_hundred_squares_are_refused_at_once_with_an_estimate() {
    ladders()
        .args(["race", "milton-bradley", "--players", "4", "--knock-off"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "43046721 states relative to the mover",
        ))
        .stderr(predicates::str::contains("MB of memory"))
        .stderr(predicates::str::contains(
            "ladders simulate --players 4 --knock-off",
        ));
}

#[test]
fn reverse_seat_reverses_the_named_seat_in_the_simulation_and_in_the_exact_race() {
    // Efi against reversed efi: the normal board wins 0.6849 (`ladders race efi efi
    // --reverse-seat 2`); with seat 1 reversed instead, seat 1 wins 0.3322 (`ladders race efi
    // --reverse-seat 1`): the seat named is the one reversed, in the simulation and the exact race.
    let (code, v) = json_of(&[
        "check",
        "efi",
        "--reverse-seat",
        "1",
        "--games",
        "100k",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0);
    let share = v["seats"][0]["share"].as_f64().unwrap();
    assert!((share - 0.332).abs() < 0.01, "{share}");
    assert_eq!(v["seats"][0]["board"], "Efi (reversed)");
    let exact = v["check"]["seats"][0]["exact_win"]["certified"]
        .as_str()
        .unwrap();
    assert!(exact.starts_with("0.3322366268"), "{exact}");
}

#[test]
fn one_thread_and_two_threads_give_the_same_race() {
    let run = |threads: &str| {
        let (code, mut v) = json_of(&[
            "simulate",
            KNOCK_24,
            "--knock-off",
            "--games",
            "150k",
            "--seed",
            "9",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0);
        v.as_object_mut().unwrap().remove("timing");
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn the_text_report_shows_every_seat_and_the_rounds() {
    let out = ladders()
        .args([
            "simulate",
            "tiny",
            "--players",
            "3",
            "--knock-off",
            "--games",
            "10k",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Race             3 players"), "{text}");
    assert!(text.contains("knock-off"));
    for seat in ["   1  Tiny", "   2  Tiny", "   3  Tiny"] {
        assert!(text.contains(seat), "{text}");
    }
    assert!(text.contains("Rounds           min "));
    assert!(text.contains("Knock-offs       mean "));
}

#[test]
fn bad_seat_arguments_are_refused_with_exit_2() {
    for args in [
        vec!["simulate", "tiny", "efi", "--knock-off", "-n", "10"],
        vec![
            "simulate",
            "efi",
            "--players",
            "2",
            "--reverse-seat",
            "3",
            "-n",
            "10",
        ],
        vec![
            "simulate",
            "efi",
            "efi",
            "efi",
            "--players",
            "2",
            "-n",
            "10",
        ],
        vec![
            "simulate",
            "efi",
            "--players",
            "2",
            "--histogram-csv",
            "-",
            "-n",
            "10",
        ],
        vec!["check", "tiny", "efi", "--knock-off", "-n", "10"],
        vec!["simulate", "efi", "--players", "17", "-n", "10"],
    ] {
        let out = ladders().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
