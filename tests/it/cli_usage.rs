//! The command line a user expects (issue 19): boards from standard input, suggestions for
//! mistyped names, bare `ladders` with options, exit codes for write errors, quiet broken pipes,
//! and words that agree with their numbers.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use num_rational::BigRational;
use predicates::prelude::*;

use crate::common::{exact, json_of, ladders, stdout_of};

fn tiny_text() -> String {
    std::fs::read_to_string(format!("{}/boards/tiny.toml", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A fresh empty directory under the target directory, for tests that look at the working
/// directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_board_is_read_from_standard_input_with_a_dash() {
    // The tiny board (boards/tiny.toml, solved by hand there): E[T] = 4.
    let out = ladders()
        .args(["expect", "-", "--json"])
        .write_stdin(tiny_text())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        exact(&v["expected_turns"]),
        BigRational::from_integer(4.into())
    );
    assert_eq!(v["board"]["origin"], "-");
}

#[test]
fn standard_input_is_read_only_once() {
    ladders()
        .args(["verify", "-", "--file", "-"])
        .write_stdin(tiny_text())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input can be read only once",
        ));
}

#[test]
fn a_mistyped_board_name_gets_the_near_names() {
    ladders()
        .args(["expect", "milton"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "did you mean milton-bradley or milton-bradley-48?",
        ));
}

#[test]
fn a_board_name_without_its_extension_suggests_the_file() {
    let dir = scratch("usage-myboard");
    std::fs::write(dir.join("myboard.toml"), tiny_text()).unwrap();
    ladders()
        .current_dir(&dir)
        .args(["expect", "myboard"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "did you mean the file myboard.toml?",
        ));
}

#[test]
fn a_file_shadowed_by_a_built_in_board_is_named() {
    let dir = scratch("usage-shadow");
    std::fs::write(dir.join("efi"), tiny_text()).unwrap();
    ladders()
        .current_dir(&dir)
        .args(["expect", "efi", "--digits", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("builtin:efi"))
        .stderr(predicate::str::contains(
            "note: efi is the built-in board; for the file of that name, write ./efi",
        ));
}

#[test]
fn a_jump_to_its_own_square_goes_nowhere() {
    for (kind, text) in [
        ("ladder", "size = 10\nladders = [[5, 5]]\n"),
        ("snake", "size = 10\nsnakes = [[5, 5]]\n"),
    ] {
        ladders()
            .args(["expect", "-"])
            .write_stdin(text)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "-:2: {kind} 5 -> 5 goes nowhere"
            )))
            .stderr(predicate::str::contains("goes down").not())
            .stderr(predicate::str::contains("goes up").not());
    }
}

#[test]
fn bare_ladders_takes_the_options_of_analyze() {
    // milton-bradley's E[T] = 39.2251223... (tests/fixtures/independent/milton-bradley.txt).
    let v = json_of(&["--json", "--digits", "3"]);
    assert_eq!(v["expected_turns"]["decimal"], "39.225");
    assert_eq!(v["board"]["origin"], "builtin:milton-bradley");
    ladders()
        .args(["--overshoot", "bounce", "--digits", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("overshoot bounce"));
    ladders()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "With no subcommand, `ladders` runs `analyze`",
        ));
    ladders()
        .args(["--json", "expect", "tiny"])
        .assert()
        .code(2);
}

#[test]
fn a_write_error_has_its_own_exit_code() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(assert_cmd::cargo::cargo_bin("ladders"))
        .arg("boards")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("error: cannot write the output"),
        "{stderr}"
    );
}

#[test]
fn a_closed_pipe_under_json_is_quiet() {
    // 1.4 MB of JSON: far more than a pipe holds, so the writer meets the closed end.
    let board = format!(
        "{}/benches/boards/gen-1000.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("ladders"))
        .args(["expect", &board, "--per-square", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "{\n");
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn counts_agree_with_their_nouns() {
    ladders()
        .args(["expect", "tiny", "--digits", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("4 squares, 1 snake, 1 ladder)"));
    // A game of 1 turn is impossible on tiny (the shortest takes 2): the sample fails.
    ladders()
        .args(["verify", "tiny", "--file", "-"])
        .write_stdin("1\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Sample           1 game from -"))
        .stdout(predicate::str::contains("1 game of 1 turn: impossible"))
        .stdout(predicate::str::contains("on 1 bin ("));
    ladders()
        .args(["verify", "tiny", "--mean", "4", "--games", "1"])
        .assert()
        .stdout(predicate::str::contains("over 1 game"));
}

#[test]
fn percentiles_are_written_one_way() {
    let sim = stdout_of(&["simulate", "tiny", "--games", "1000", "--seed", "1"]);
    assert!(
        sim.contains(", 90 %: ") && sim.contains(", 99 %: "),
        "{sim}"
    );
    assert!(!sim.contains("90% "), "{sim}");
    ladders()
        .args(["analyze", "tiny"])
        .assert()
        .stdout(predicate::str::contains("(90 %: "));
}
