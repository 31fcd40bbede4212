//! Snapshots (insta) of the text and JSON reports of every exact command on the built-in boards
//! (`boards/`), one test per command looping over the boards: a change in any figure, label or
//! key of a report fails here and shows the difference. The figures in the snapshots were
//! reviewed against docs/seed-answers.md (checked independently); the figures themselves are
//! asserted against independent derivations in `known_values*`, this file guards the reports.
//!
//! Snapshots are files in `tests/it/snapshots/`; a missing or changed one fails the test (CI runs
//! with `INSTA_UPDATE=no`). After an intended change: `INSTA_UPDATE=always cargo test --release
//! --test it snapshots`, then review the diff of the `.snap` files before committing.
//!
//! Skipped, to keep the run short (CI is near its time limit) or because the command refuses:
//! - `course` (a choice rule) needs `--policy optimal` for expect, distribution and shortest (so
//!   it is run with it); analyze, squares, sensitivity and pgf refuse it (exit 2: it needs a
//!   policy), and `expect --float` refuses `--policy`. Its own commands, optimize and the
//!   duel (`race course --players 2`), are snapshotted in `optimize_and_the_duel_on_course`.
//! - `seed-003` (stateful, 200 squares): the default form of each command, `expect --moments 4`
//!   (0.4 s since the moments come from the generating function; over 12 minutes by one solve
//!   after the other) and `distribution --turns 12` (the flags are covered on the other
//!   boards): `pgf` (over 2.5 minutes), `race` (about 30 s), `squares` and `sensitivity` (3 s each, twice) are skipped;
//!   `analyze` refuses stateful boards; `verify` on seed-003 took over 4 CPU minutes on a
//!   1,000-game file (check, which simulates the same games, takes 2 s).
//! - `verify` reads fixed samples (`tests/fixtures/verify/BOARD.csv`, written once by `simulate
//!   BOARD -n 1000 --seed 7 --histogram-csv`), so its snapshots do not move with the simulator.
//!   `simulate` and `check` are in `snapshots_simulate`.

use ladders::board::builtin_names;

use crate::common::{ladders, stdout_of};

/// Snapshots `ladders ARGS` as `NAME` and `ladders ARGS --json` as `NAME_json`.
fn text_and_json(name: &str, args: &[&str]) {
    text_and_json_by(name, args, stdout_of);
}

/// [`text_and_json`] with the standard output of `run(ARGS)`.
fn text_and_json_by(name: &str, args: &[&str], run: impl Fn(&[&str]) -> String) {
    insta::assert_snapshot!(name.to_string(), run(args));
    let json: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    insta::assert_snapshot!(format!("{name}_json"), run(&json));
}

/// The built-in boards without those in `skip` (which must be built-in names).
fn boards(skip: &[&str]) -> Vec<&'static str> {
    assert!(
        skip.iter().all(|s| builtin_names().any(|b| b == *s)),
        "{skip:?}"
    );
    builtin_names().filter(|b| !skip.contains(b)).collect()
}

/// `ladders COMMAND BOARD FLAGS`, with `--policy optimal` on `course`.
fn on(command: &'static str, board: &'static str, flags: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![command, board];
    if board == "course" {
        args.extend(["--policy", "optimal"]);
    }
    args.extend(flags);
    args
}

#[test]
fn expect_on_every_board() {
    for board in boards(&[]) {
        text_and_json(&format!("expect_{board}"), &on("expect", board, &[]));
        let moments = on("expect", board, &["--moments", "4"]);
        text_and_json(&format!("expect_moments_{board}"), &moments);
        if board == "seed-003" {
            continue; // the flags below are covered on the other boards; see the module doc
        }
        let per_square = on("expect", board, &["--per-square"]);
        text_and_json(&format!("expect_per_square_{board}"), &per_square);
        if board != "course" {
            let float = on("expect", board, &["--float"]);
            text_and_json(&format!("expect_float_{board}"), &float);
        }
    }
}

#[test]
fn distribution_on_every_board() {
    // The JSON of the whole law carries every P(T = n) as an exact fraction (about 1 MB on
    // milton-bradley): the JSON snapshots stop at 12 turns, the text ones show the whole law.
    for board in boards(&[]) {
        let whole = stdout_of(&on("distribution", board, &[]));
        insta::assert_snapshot!(format!("distribution_{board}"), whole);
        let turns = on("distribution", board, &["--turns", "12"]);
        text_and_json(&format!("distribution_turns_{board}"), &turns);
        if board == "seed-003" {
            continue; // the flags are covered on the other boards; see the module doc
        }
        let csv = stdout_of(&on("distribution", board, &["--turns", "12", "--csv"]));
        insta::assert_snapshot!(format!("distribution_csv_{board}"), csv);
    }
}

#[test]
fn shortest_on_every_board() {
    for board in boards(&[]) {
        text_and_json(&format!("shortest_{board}"), &on("shortest", board, &[]));
    }
}

#[test]
fn analyze_on_every_board_without_a_choice_or_a_state() {
    for board in boards(&["course", "seed-003"]) {
        text_and_json(&format!("analyze_{board}"), &["analyze", board]);
    }
}

#[test]
fn squares_and_sensitivity_on_every_board_without_a_choice() {
    for board in boards(&["course", "seed-003"]) {
        text_and_json(&format!("squares_{board}"), &["squares", board]);
        text_and_json(&format!("sensitivity_{board}"), &["sensitivity", board]);
    }
}

#[test]
fn pgf_on_every_board_without_a_choice() {
    for board in boards(&["course", "seed-003"]) {
        text_and_json(&format!("pgf_{board}"), &["pgf", board]);
    }
}

#[test]
fn race_of_two_and_knock_off() {
    // Race on the boards of hand size; seed-003's race takes about 30 s (see the module doc),
    // course's race is the duel, below.
    for board in ["tiny", "milton-bradley", "efi", "random-tiles"] {
        text_and_json(&format!("race_{board}"), &["race", board, "--players", "2"]);
    }
    let knock_off = ["race", "tiny", "--players", "2", "--knock-off"];
    text_and_json("race_knock_off_tiny", &knock_off);
}

#[test]
fn optimize_and_the_duel_on_course() {
    text_and_json("optimize_course", &["optimize", "course"]);
    text_and_json("duel_course", &["race", "course", "--players", "2"]);
}

#[test]
fn boards_and_generate() {
    text_and_json("boards", &["boards"]);
    let plain = [
        "generate",
        "--size",
        "30",
        "--snakes",
        "3",
        "--ladders",
        "3",
        "--seed",
        "5",
    ];
    text_and_json("generate", &plain);
    let seed_003 = [
        "generate",
        "--size",
        "40",
        "--snakes",
        "2",
        "--ladders",
        "2",
        "--once-ladders",
        "--apples",
        "3",
        "--seed",
        "5",
    ];
    text_and_json("generate_apples", &seed_003);
}

#[test]
fn verify_fixed_samples() {
    // Run in the fixtures' directory: the report names the file as given.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/verify");
    let in_dir = |args: &[&str]| {
        let out = ladders().current_dir(dir).args(args).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8")
    };
    for board in boards(&["course", "seed-003"]) {
        let file = format!("{board}.csv");
        text_and_json_by(
            &format!("verify_{board}"),
            &["verify", board, "--file", &file],
            in_dir,
        );
    }
}
