//! Snapshots (insta) of `simulate` and `check` on the built-in boards, text and JSON, with a
//! fixed seed and two threads (the same seed gives the same games on any number of threads; the
//! thread count is printed). The timing (games and rolls per second, seconds) is the one part
//! that changes from run to run: it is replaced by `[timing]` before the comparison.
//!
//! Kept apart from `snapshots` because a change of the simulator's engine that draws the random
//! numbers differently changes these games (then: `INSTA_UPDATE=always cargo test --release
//! --test it snapshots_simulate`, and check that every `check` snapshot still says PASS).
//! `course` runs with `--policy optimal` (it needs a policy). Every board is run: seed-003's
//! `check` is the slowest (about 2 s, twice).

use ladders::board::builtin_names;

use crate::common::stdout_of;

/// Standard output of `ladders ARGS` with the timing figures replaced by `[timing]`.
fn without_timing(args: &[&str]) -> String {
    let text = stdout_of(args);
    let mut out = String::new();
    for line in text.lines() {
        let key = line.trim_start().split(':').next().unwrap_or("");
        if line.starts_with("Throughput ") {
            out.push_str("Throughput       [timing]");
        } else if [
            "\"games_per_second\"",
            "\"rolls_per_second\"",
            "\"seconds\"",
        ]
        .contains(&key)
        {
            let comma = if line.ends_with(',') { "," } else { "" };
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!("{indent}{key}: \"[timing]\"{comma}"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// `ladders COMMAND BOARD -n 1000 --seed 7 --threads 2` (and `--policy optimal` on course),
/// text as `COMMAND_BOARD`, JSON as `COMMAND_BOARD_json`.
fn snapshot(command: &str, board: &str) {
    let mut args = vec![
        command,
        board,
        "-n",
        "1000",
        "--seed",
        "7",
        "--threads",
        "2",
    ];
    if board == "course" {
        args.extend(["--policy", "optimal"]);
    }
    insta::assert_snapshot!(format!("{command}_{board}"), without_timing(&args));
    args.push("--json");
    insta::assert_snapshot!(format!("{command}_{board}_json"), without_timing(&args));
}

#[test]
fn simulate_on_every_board() {
    for board in builtin_names() {
        snapshot("simulate", board);
    }
}

#[test]
fn check_on_every_board() {
    for board in builtin_names() {
        snapshot("check", board);
    }
}

#[test]
fn the_timing_and_only_the_timing_is_hidden() {
    let text = without_timing(&["simulate", "tiny", "-n", "10", "--seed", "1"]);
    assert!(text.contains("Throughput       [timing]\n"), "{text}");
    assert!(text.contains("Games            10 "), "{text}");
    let json = without_timing(&["simulate", "tiny", "-n", "10", "--seed", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("still JSON");
    assert_eq!(v["timing"]["seconds"], "[timing]");
    assert_eq!(v["timing"]["games_per_second"], "[timing]");
    assert_eq!(v["games"], 10, "{json}");
}
