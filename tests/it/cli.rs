//! Runs the real binary: built-in boards, `expect` text and JSON, rule overrides, and bad input.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{json_of, ladders, stderr_of};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/bad/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Reads an EXACT object back into (numerator, denominator).
fn fraction(v: &Value) -> (num_bigint::BigInt, num_bigint::BigInt) {
    let n = v["numerator"].as_str().unwrap().parse().unwrap();
    let d = v["denominator"].as_str().unwrap().parse().unwrap();
    (n, d)
}

#[test]
fn expect_on_the_tiny_board_prints_the_hand_derived_answer() {
    // boards/tiny.toml: T is the sum of two geometric(1/2) waits, E = 4 and Var = 4 (sd 2).
    ladders()
        .args(["expect", "tiny", "--digits", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected turns   4.000"))
        .stdout(predicate::str::contains("Std deviation    2.000"));
}

#[test]
fn expect_json_round_trips_the_exact_fraction() {
    // 4 turns exactly on the tiny board (worked by hand in boards/tiny.toml).
    let v = json_of(&["expect", "tiny", "--json"]);
    assert_eq!(fraction(&v["expected_turns"]), (4.into(), 1.into()));
    assert_eq!(fraction(&v["variance"]), (4.into(), 1.into()));
    assert_eq!(v["rules"]["die"], 2);
    assert_eq!(v["board"]["size"], 4);
    assert!(v["expected_rolls"].is_object());
}

#[test]
fn expect_json_fraction_for_milton_bradley_matches_the_independent_value() {
    // tests/fixtures/independent/milton-bradley.txt (pure-Python roll-level chain).
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/independent/milton-bradley.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let line = text.lines().find(|l| l.starts_with("turns ")).unwrap();
    let (n, d) = line[6..].split_once('/').unwrap();
    let v = json_of(&["expect", "milton-bradley", "--json"]);
    assert_eq!(v["expected_turns"]["numerator"], n);
    assert_eq!(v["expected_turns"]["denominator"], d);
    assert!(v["expected_turns"]["decimal"]
        .as_str()
        .unwrap()
        .starts_with("39.2251223"));
}

#[test]
fn digits_are_correctly_rounded_from_the_exact_value() {
    // milton-bradley's exact mean is 39.22512230823...: 2 digits round down, 6 digits round up
    // (39.225122|308 -> 39.225122, 39.2251223|08 -> 39.2251223).
    ladders()
        .args(["expect", "milton-bradley", "--digits", "2"])
        .assert()
        .stdout(predicate::str::contains("Expected turns   39.23\n"));
    ladders()
        .args(["expect", "milton-bradley", "--digits", "7"])
        .assert()
        .stdout(predicate::str::contains("Expected turns   39.2251223\n"));
}

#[test]
fn per_square_lists_every_reachable_square() {
    // tiny: from 0 the expected remaining turns are 4, from 3 they are 2 (hand derivation).
    let v = json_of(&["expect", "tiny", "--per-square", "--json"]);
    let rows = v["per_square"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["square"], 0);
    assert_eq!(fraction(&rows[0]["expected_turns"]), (4.into(), 1.into()));
    assert_eq!(rows[1]["square"], 3);
    assert_eq!(fraction(&rows[1]["expected_turns"]), (2.into(), 1.into()));
}

#[test]
fn rule_overrides_change_the_answer() {
    // tiny with overshoot allow: from 3 any roll finishes, so E = 2 (wait for a 1) + 1 = 3.
    let v = json_of(&["expect", "tiny", "--overshoot", "allow", "--json"]);
    assert_eq!(fraction(&v["expected_turns"]), (3.into(), 1.into()));
    assert_eq!(v["rules"]["overshoot"], "allow");
}

#[test]
fn an_unwinnable_board_is_infinite_and_names_its_trap() {
    // tiny reversed: the ladder 1 -> 3 becomes a snake 3 -> 1 and the snake 2 -> 0 a ladder
    // 0 -> 2, which is invalid (square 0 is not a square): the reverse is rejected with exit 2.
    ladders()
        .args(["expect", "tiny", "--reverse"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "ladder 0 -> 2 starts outside the board",
        ));
    // A coin on 6 squares whose rolls from 3 land on snakes back to 2: the finish is unreachable.
    let dir = std::env::temp_dir().join("ladders-cli-trap");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trap.toml");
    std::fs::write(
        &path,
        "size = 6\nsnakes = [[4, 2], [5, 2]]\n[rules]\ndie = 2\n",
    )
    .unwrap();
    ladders()
        .args(["expect", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected turns   infinite"))
        .stdout(predicate::str::contains("can never be reached"));
    let v = json_of(&["expect", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["finite"], false);
    assert_eq!(v["expected_turns"], "infinite");
    assert!(v["trap"]["cycle"].as_array().unwrap().len() >= 2);
}

#[test]
fn boards_lists_every_builtin_board() {
    ladders()
        .arg("boards")
        .assert()
        .success()
        .stdout(predicate::str::contains("milton-bradley "))
        .stdout(predicate::str::contains("milton-bradley-48"))
        .stdout(predicate::str::contains("efi"))
        .stdout(predicate::str::contains("random-tiles"))
        .stdout(predicate::str::contains("tiny"))
        .stdout(predicate::str::contains("course"))
        .stdout(predicate::str::contains("seed-003"));
    let v = json_of(&["boards", "--json"]);
    assert_eq!(v.as_array().unwrap().len(), 7);
}

#[test]
fn fails_for_an_unknown_board_name() {
    ladders()
        .args(["expect", "no-such-board"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no-such-board: no such board file",
        ))
        .stderr(predicate::str::contains("milton-bradley"));
}

/// Each bad board exits 2 and names the file, the line and the offending value.
#[test]
fn bad_board_files_exit_2_with_file_line_and_value() {
    let cases = [
        ("unknown_key.toml", 2, "unknown key \"sise\""),
        ("unknown_key.toml", 2, "did you mean \"size\"?"),
        ("unknown_rule_key.toml", 3, "did you mean \"overshoot\"?"),
        ("snake_goes_up.toml", 3, "snake 10 -> 20 goes up"),
        (
            "ladder_past_finish.toml",
            4,
            "ladder 12 -> 120 ends outside the board",
        ),
        ("two_jumps_on_one_square.toml", 3, "square 47 has two jumps"),
        (
            "jump_from_finish.toml",
            2,
            "snake 100 -> 80 starts on the finish",
        ),
        ("cycle_of_jumps.toml", 2, "cycle 30 -> 50 -> 30"),
        ("size_too_small.toml", 1, "size 1 is too small"),
        ("size_too_large.toml", 1, "larger than the limit of 10000"),
        ("die_too_small.toml", 3, "die 1 is not a die"),
        (
            "bad_overshoot.toml",
            3,
            "overshoot \"bouncy\" is not a rule",
        ),
        ("roll_again_one.toml", 3, "roll_again 1 is not a rule"),
        ("not_toml.toml", 2, "unclosed array"),
        ("jump_not_a_pair.toml", 2, "found 3 numbers"),
        ("missing_size.toml", 1, "missing key \"size\""),
        ("size_not_integer.toml", 1, "expected an integer"),
    ];
    for (file, line, message) in cases {
        let path = fixture(file);
        ladders()
            .args(["expect", &path])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{path}:{line}: ")))
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn every_problem_in_a_board_file_is_reported_at_once() {
    let path = fixture("many_problems.toml");
    let text = stderr_of(&["expect", &path], 2);
    assert_eq!(text.lines().count(), 5, "{text}");
    for needle in [
        "snake 3 -> 5 goes up",
        "snake 20 -> 1 starts outside the board",
        "ladder 4 -> 2 goes down",
        "die 0 is not a die",
        "start 10 is not a start",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn bad_usage_exits_2() {
    ladders()
        .args(["expect", "tiny", "--die", "1"])
        .assert()
        .code(2);
    ladders()
        .args(["expect", "tiny", "--overshoot", "up"])
        .assert()
        .code(2);
    ladders()
        .args(["expect", "tiny", "--roll-again", "1"])
        .assert()
        .code(2);
    ladders().args(["frobnicate"]).assert().code(2);
}

#[test]
fn no_subcommand_prints_the_summary_of_milton_bradley() {
    ladders()
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Chutes and Ladders (Milton Bradley)",
        ))
        .stdout(predicate::str::contains("39.2251223"));
}

#[test]
fn every_problem_with_dice_chance_squares_and_tiles_is_reported_at_once() {
    let path = fixture("draws.toml");
    let text = stderr_of(&["expect", &path], 2);
    for (line, needle) in [
        // Each on the line of its own value (`at = 5`, `to = ...`, `length = 12`,
        // `snake = 0.1`), not on its table's header (issue 40 item 11).
        (4, "chance square 5 is also where a snake or ladder starts"),
        (5, "chance 5: destination 11 is outside the board"),
        (8, "chance 6: the weights add up to 0"),
        (10, "tiles length 12 is not a length: expected 1 to 9"),
        (11, "tiles snake: 0.1 is a float, which is not exact"),
        (14, "die weights are all 0"),
        (15, "dice 11 is not a number of dice"),
    ] {
        assert!(
            text.contains(&format!("draws.toml:{line}: {needle}")),
            "{needle}\n{text}"
        );
    }
    assert_eq!(text.lines().count(), 7, "{text}");
}

#[test]
fn a_bounce_past_square_zero_is_refused_and_a_start_square_is_accepted() {
    let dir = tempfile_dir();
    let bounce = dir.join("bounce.toml");
    std::fs::write(
        &bounce,
        "size = 10\n[rules]\ndice = 2\novershoot = \"bounce\"\n",
    )
    .unwrap();
    ladders()
        .args(["expect", bounce.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "largest throw of 12 on 10 squares could bounce below square 0",
        ));
    // Standing on square 99 of milton-bradley: a 1 finishes, anything else is lost (stay), so
    // the game is a geometric wait of mean 6 (worked by hand).
    ladders()
        .args(["expect", "milton-bradley", "--start", "99", "--digits", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected turns   6.000"));
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ladders-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_stateful_board_is_answered_by_expect_and_refused_by_commands_that_do_not_know_it() {
    let dir = tempfile_dir();
    let path = dir.join("points.toml");
    // Worked by hand (src/analysis/stateful.rs): a coin on 2 squares, allow; square 1 scores 5:
    // half the games score 5.
    std::fs::write(
        &path,
        "size = 2\npoints = [[1, 5]]\n[rules]\ndie = 2\novershoot = \"allow\"\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    ladders()
        .args(["expect", p, "--digits", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected score   2.50 = 5/2"))
        .stdout(predicate::str::contains("1 point square"));
    let v = json_of(&["expect", p, "--json"]);
    assert_eq!(v["score"]["expected"]["exact"], "5/2");
    // shortest answers it over the full state; analyze does not know it yet.
    ladders().args(["shortest", p]).assert().success();
    {
        ladders()
            .args(["analyze", p])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "one-use jumps, points, lost or extra turns",
            ));
    }
}

/// A one-use snake that starts past the finish panicked the validation (an index out of bounds,
/// found by tests/it/fuzz.rs): it is the snake's problem, named with its line, exit 2.
#[test]
fn a_one_use_jump_past_the_finish_is_refused_not_a_panic() {
    ladders()
        .args(["expect", "-"])
        .write_stdin("size = 20\nsnakes = [[27, 3]]\nonce = [27]\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "-:2: snake 27 -> 3 starts outside the board: squares are 1 to 20",
        ));
}
