//! The size limit with every rule (issue 17 item 2, `benches/limits-audit.sh`): on boards of
//! 10,000 squares whose state is more than the square, whose turns are up to K rolls or whose
//! draws are long, each command answers or refuses (exit 2, with the estimate) within a minute.
//! Each test failed on the main of 2026-11-24 morning; the corpus (`hostile_corpus`) runs the
//! same commands under a CPU-time and a memory limit.

use predicates::prelude::*;

use crate::common::ladders;
use crate::hostile::hostile_board;

/// `ladders ARGS` under a limit of `seconds` of CPU time (`ulimit -t`: the kernel stops the
/// command, however loaded the machine, and it exits with no code), on Unix.
#[cfg(unix)]
pub fn within_cpu_seconds(seconds: u32, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -t {seconds}; exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("ladders"))
        .args(args)
        .write_stdin("");
    cmd
}

fn gen_10000() -> String {
    format!(
        "{}/benches/boards/gen-10000.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The full chain of `stateful_10000.toml` (1,228,364 states, about 1.8 GB) is counted, not
/// built, and refused (before: `shortest` answered after building it, 2.3 GB; `squares` ran out
/// of 4 GB).
#[test]
fn a_stateful_chain_past_the_memory_limit_is_refused_before_it_is_built() {
    let board = hostile_board("stateful_10000.toml");
    for command in ["shortest", "squares", "check", "verify"] {
        let mut cmd = ladders();
        cmd.args([command, &board]);
        if command == "verify" {
            cmd.args(["--mean", "1500", "-n", "100"]);
        }
        cmd.assert()
            .code(2)
            .stderr(predicate::str::contains("counted before building it"))
            .stderr(predicate::str::contains("`ladders simulate`"));
    }
}

/// The exact solve on the 153,573 states of `stateful_10000.toml` without its eaten apples is
/// estimated and refused (before: `expect` was killed at 60 s of CPU); the float solve and the
/// law's first turns answer, the mean then approximate.
#[test]
fn a_long_stateful_solve_is_refused_and_the_float_solve_answers() {
    let board = hostile_board("stateful_10000.toml");
    ladders()
        .args(["expect", &board])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("153,573 states"))
        .stderr(predicate::str::contains("`ladders expect --float`"));
    ladders()
        .args(["expect", &board, "--float"])
        .assert()
        .success();
    ladders()
        .args(["distribution", &board, "--turns", "5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(approximate"));
}

/// `roll_again = 3` on 10,000 squares: the per-square solves are estimated from the chain's
/// transitions and denominators and refused (before: killed at 60 s of CPU), and the law's first
/// turns leave out the exact mean's 30 s solve (before: 33 s for five turns).
#[test]
fn roll_again_k_at_the_limit_refuses_squares_and_skips_the_exact_mean() {
    let board = gen_10000();
    ladders()
        .args(["squares", &board, "--roll-again", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("estimated before starting"))
        .stderr(predicate::str::contains("--per-square"));
    ladders()
        .args(["distribution", &board, "--roll-again", "3", "--turns", "5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(approximate"));
}

/// `roll_again = 3` on 10,000 squares: `check`, `verify` and `expect --moments 2` refuse from
/// their estimates before the exact mean's solve (before: each refused with the same message
/// after it, 26 to 35 s of CPU; now about 0.2 s). Five seconds of CPU leave room for a loaded
/// machine and none for the solve.
#[cfg(unix)]
#[test]
fn roll_again_k_at_the_limit_refuses_before_the_exact_solve() {
    let board = gen_10000();
    let sample = hostile_board("../turns_sample.txt");
    let cases: [(&[&str], &str); 3] = [
        (
            &["check", "-n", "1000"],
            "the exact distribution would need about",
        ),
        (
            &["verify", "--file", &sample],
            "the exact distribution would need about",
        ),
        (
            &["expect", "--moments", "2"],
            "moments to order 2: too long",
        ),
    ];
    for (command, refusal) in cases {
        let mut args = vec![command[0], &board, "--roll-again", "3"];
        args.extend(&command[1..]);
        within_cpu_seconds(5, &args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(refusal))
            .stderr(predicate::str::contains("estimated before starting").or(
                predicate::str::contains("`ladders expect` gives the exact mean"),
            ));
    }
}

/// `roll_again = 3` on 10,000 squares: `expect` refuses from the turn chain's estimate (34 s)
/// before its exact solve (before: 25 to 34 s of CPU, most of it lifting through 1.4 million
/// entries of the factors 4,930 times), and names `--float`, which answers.
#[cfg(unix)]
#[test]
fn roll_again_k_at_the_limit_refuses_the_exact_expectation_and_answers_in_floats() {
    let board = gen_10000();
    within_cpu_seconds(5, &["expect", &board, "--roll-again", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the exact solve would take about 34 s",
        ))
        .stderr(predicate::str::contains("estimated before starting"))
        .stderr(predicate::str::contains("`ladders expect --float`"));
    within_cpu_seconds(5, &["expect", &board, "--roll-again", "3", "--float"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Expected turns"));
}

/// seed-003's rule variants (one-use ladders and apples) are each estimated before their work:
/// `verify` answers instead of running for over nine minutes of CPU (the variants with unlimited
/// roll-again solved the law of the score, 17 s each, which no variant's test uses; fitting
/// variants were compared over 14,000 exact terms). A hang guard, not a timing assertion.
#[test]
fn verify_on_seed_003_searches_the_rule_variants_without_hanging() {
    // Mean 1000 over 100 games fails, and fits no variant.
    within_cpu_seconds(
        60,
        &["verify", "seed-003", "--mean", "1000.0", "--games", "100"],
    )
    .assert()
    .code(1)
    .stdout(predicate::str::contains("Verdict          FAIL"))
    .stdout(predicate::str::contains(
        "the sample fits none of the usual rule variants",
    ));
    // Mean 40.0 passes (z = -3.54), fits every variant, and says which comparisons it left open.
    within_cpu_seconds(
        60,
        &["verify", "seed-003", "--mean", "40.0", "--games", "100"],
    )
    .assert()
    .code(0)
    .stdout(predicate::str::contains(
        "whether roll again = unlimited; start = 1;",
    ))
    .stdout(predicate::str::contains("was not decided"));
}
