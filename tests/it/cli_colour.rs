//! `--color` on every command and progress on standard error (issue 19, items 12 and 13):
//! verdicts coloured only when asked or on a terminal, never with NO_COLOR, never in JSON; the
//! word `error` in red on a coloured standard error; bars only on a terminal (a pseudo-terminal
//! from `script`), nothing on a pipe.

use predicates::prelude::*;

use crate::cli_help::SUBCOMMANDS;
use crate::common::ladders;

const ESCAPE: &str = "\x1b[";

/// Every subcommand's help lists `--color` with its values, and bare `ladders` takes it too.
#[test]
fn every_command_takes_color() {
    for sc in SUBCOMMANDS {
        ladders()
            .args([sc, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("--color <WHEN>"))
            .stdout(predicate::str::contains(
                "[possible values: auto, always, never]",
            ));
    }
    ladders().args(["--color", "never"]).assert().success();
    ladders()
        .args(["boards", "--color", "always"])
        .assert()
        .success();
    ladders()
        .args(["expect", "tiny", "--color", "sometimes"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("always"));
}

/// `--color` is global: before the subcommand it works as after it (here colouring check's
/// verdicts, or keeping them plain), while the other options of bare `ladders` given before a
/// subcommand are refused with exit 2, naming them, instead of being dropped.
#[test]
fn color_before_the_subcommand_works_as_after_it() {
    let check = ["check", "tiny", "-n", "2000", "--seed", "1"];
    ladders()
        .args(["--color", "always"])
        .args(check)
        .assert()
        .success()
        .stdout(predicate::str::contains("\x1b[32mPASS\x1b[0m\n"));
    ladders()
        .args(["--color", "never"])
        .args(check)
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS\n"))
        .stdout(predicate::str::contains(ESCAPE).not());
    // E[T] = 4 on tiny (P(T = n) = (n - 1) / 2^n, worked in tests/it/cli_honest.rs).
    ladders()
        .args(["--color", "never", "expect", "tiny", "--digits", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("4.00"));
    ladders()
        .args(["--color", "never", "--digits", "3", "expect", "tiny"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--digits before the subcommand 'expect'",
        ));
}

/// check's verdicts: green PASS and ok with `--color always`; plain text with `never`, with
/// `auto` on a pipe, and with NO_COLOR; JSON never coloured.
#[test]
fn verdicts_are_coloured_only_when_asked() {
    let check = ["check", "tiny", "-n", "2000", "--seed", "1"];
    ladders()
        .args(check)
        .args(["--color", "always"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\x1b[32mPASS\x1b[0m\n"))
        .stdout(predicate::str::contains("\x1b[32mok\x1b[0m\n"));
    for (choice, no_color) in [("never", ""), ("auto", ""), ("auto", "1")] {
        ladders()
            .args(check)
            .args(["--color", choice])
            .env("NO_COLOR", no_color)
            .assert()
            .success()
            .stdout(predicate::str::contains("PASS\n"))
            .stdout(predicate::str::contains(ESCAPE).not());
    }
    ladders()
        .args(check)
        .args(["--json", "--color", "always"])
        .assert()
        .success()
        .stdout(predicate::str::contains(ESCAPE).not());
}

/// A failed check's FAIL is red: tiny's mean is 4, a sample of ten games of 40 turns fails.
#[test]
fn a_failed_verdict_is_red_and_an_error_says_error_in_red() {
    ladders()
        .args(["verify", "tiny", "--file", "-", "--color", "always"])
        .write_stdin("40,1000\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\x1b[1;31mFAIL\x1b[0m\n"));
    ladders()
        .args(["expect", "no-such-board", "--color", "always"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("\x1b[1;31merror\x1b[0m: "));
    ladders()
        .args(["expect", "no-such-board", "--color", "never"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error: "));
}

/// Runs `ladders ARGS` on a pseudo-terminal of 60 columns (`script`), with bars shown at once;
/// returns what the terminal received.
fn on_a_terminal(args: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let command = format!("stty rows 30 cols 60; {} {args}", bin.display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("LADDERS_PROGRESS_DELAY", "0")
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The messages of every stage the library reports (`ladders::progress::Stage::begin`) and of
/// the simulator's bar.
const STAGES: [&str; 30] = [
    "per-square answers",
    "bounding the game's length",
    "ordering the unknowns",
    "factorising",
    "eliminating modulo primes",
    "lifting the exact solution",
    "lifting a solution vector",
    "lifting until it checks",
    "summing the race series",
    "stepping the joint chain",
    "solving the race",
    "stepping the distribution",
    "solving square by square",
    "solving without each jump",
    "simulating",
    "building the joint chain",
    "sweeping layer by layer",
    "the race to each apple",
    "solving each pair",
    "stepping the series",
    "recurrence modulo primes",
    "exact undecided terms",
    "stepping certified bounds",
    "the tail's decay rate",
    "building the turn chain",
    "improving the policy",
    "counting the fill",
    "an exact solution vector",
    "the best chance turn by turn",
    "the score's sets of apples",
];

/// Each command with the stages it must show on a terminal.
fn progress_cases() -> Vec<(String, &'static [&'static str])> {
    let board = format!(
        "{}/benches/boards/gen-1000.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let big = |command: &str| format!("{command} {board}");
    // Each command with the stages it must show. The bars are drawn at most 20 times a second
    // after a first burst, so only stages that begin early or last long are sure to be seen.
    let shared = format!(
        "race {}/tests/fixtures/sim/shared-two.toml --exact-limit 1",
        env!("CARGO_MANIFEST_DIR")
    );
    vec![
        (
            big("expect"),
            &[
                "ordering the unknowns",
                "factorising",
                "lifting the exact solution",
            ],
        ),
        ("simulate tiny -n 200000 --seed 1".into(), &["simulating"]),
        (
            "race tiny --players 3 --knock-off --exact-limit 1".into(),
            &["solving the race"],
        ),
        ("race tiny efi".into(), &["summing the race series"]),
        (
            "race efi milton-bradley --knock-off --exact-limit 1 --digits 4".into(),
            &["stepping the joint chain"],
        ),
        (
            big("squares"),
            &[
                "per-square answers",
                "solving square by square",
                "eliminating modulo primes",
            ],
        ),
        (
            "draw efi --heat visits".into(),
            &["lifting a solution vector"],
        ),
        ("sensitivity efi".into(), &["solving without each jump"]),
        (
            shared,
            &[
                "building the joint chain",
                "sweeping layer by layer",
                "the race to each apple",
            ],
        ),
        ("race milton-bradley --coin".into(), &["solving each pair"]),
        (
            big("pgf"),
            &["stepping the series", "recurrence modulo primes"],
        ),
        (
            format!(
                "distribution {}/tests/fixtures/die3-again-400.toml --turns 50",
                env!("CARGO_MANIFEST_DIR")
            ),
            &["exact undecided terms"],
        ),
        (
            big("distribution"),
            &["building the turn chain", "stepping certified bounds"],
        ),
        ("optimize course".into(), &["improving the policy"]),
        (
            "optimize course --within 2000".into(),
            &["the best chance turn by turn"],
        ),
        ("expect seed-003".into(), &["the score's sets of apples"]),
    ]
}

/// Long work shows a bar on a terminal (here at once: the delay is set to 0), no wider than
/// the terminal, and nothing on a pipe: the exact solve's ordering, factorisation and lifting
/// steps, the simulator's games, a race's sweeps, its series and its stepped joint chain, the
/// per-square solves of `squares` and of `draw --heat`, `sensitivity`'s solve per jump, the
/// shared board's joint chain (built, swept layer by layer, raced to each apple) and the pairs
/// of two players who choose, the generating function's series and its recurrence modulo primes,
/// the exact stepping that settles a distribution's terms too close to a rounding boundary, the
/// turn chain's build and the certified stepping of `distribution` (on 10,000 squares, 7.5 s
/// without a bar before 2026-11-24), `optimize`'s policy search (10 s without one) and its turns
/// of `--within N` (on 10,000 squares, 3,000 turns ran past a minute with nothing shown), and
/// the final score's one solve per set of apples (a minute on a 51-square board).
#[test]
fn progress_shows_on_a_terminal_and_never_on_a_pipe() {
    for (args, bars) in progress_cases() {
        let seen = on_a_terminal(&args);
        for bar in bars {
            assert!(STAGES.contains(bar), "{bar}");
            assert!(seen.contains(bar), "{args}: {bar}: {seen}");
        }
        // Sized to the terminal: no line of a bar is wider than its 60 columns (the report's
        // own lines, such as an exact fraction, may be longer). Nested stages are drawn on
        // lines of their own, reached by cursor moves: an escape other than a colour (`m`)
        // ends a line as a line feed does.
        let mut lines = vec![String::new()];
        let mut escape = false;
        for c in seen.chars() {
            match (escape, c) {
                (false, '\x1b') => escape = true,
                (false, '\r' | '\n') => lines.push(String::new()),
                (false, c) => lines.last_mut().expect("one line").push(c),
                (true, 'm') => escape = false,
                (true, c) if c.is_ascii_alphabetic() => {
                    escape = false;
                    lines.push(String::new());
                }
                _ => {}
            }
        }
        // A bar exactly as wide as the terminal is followed by the next without a line feed
        // (the terminal wraps): a line is cut again where a bar's message begins.
        for line in &lines {
            let mut starts: Vec<usize> = STAGES
                .iter()
                .flat_map(|b| line.match_indices(b).map(|(i, _)| i))
                .collect();
            starts.sort_unstable();
            for (k, &start) in starts.iter().enumerate() {
                let end = starts.get(k + 1).copied().unwrap_or(line.len());
                // The next bar's spinner (a braille character and a space) comes before its
                // message: it belongs to that bar, not to this one.
                let bar = &line[start..end];
                let bar = match bar.char_indices().rev().nth(1) {
                    Some((i, c))
                        if bar.ends_with(' ') && ('\u{2800}'..='\u{28ff}').contains(&c) =>
                    {
                        &bar[..i]
                    }
                    _ => bar,
                };
                assert!(bar.chars().count() <= 60, "{args}: {bar:?}");
            }
        }
        ladders()
            .args(args.split(' '))
            .env("LADDERS_PROGRESS_DELAY", "0")
            .assert()
            .success()
            .stderr(predicate::str::is_empty());
    }
}

/// Issue 40, item 15: on a 10 x 5 terminal the simulator's bar (`simulating [...] 0%
/// 1,234/1,000,000,000,000 games, ...`) wrapped into more rows than the terminal has, and
/// indicatif drew nothing: hours of `simulate -n 1e12` showed no progress. The line now fits
/// the terminal's width.
#[test]
fn the_bar_shows_on_a_terminal_too_small_for_its_whole_line() {
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let command = format!(
        "stty rows 5 cols 10; timeout 3 {} simulate milton-bradley -n 1e12",
        bin.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("LADDERS_PROGRESS_DELAY", "0")
        .output()
        .expect("script (util-linux) runs");
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert!(terminal.contains('%'), "{terminal:?}");
}

/// Issue 40 item 9: `squares --after N` and `draw --heat after --after N` on a large board, and
/// a 16-player knock-off simulation, ran past a minute with nothing shown; they show their
/// turns ("the law turn by turn") and games on a terminal.
#[test]
fn the_law_after_n_turns_and_a_knock_off_simulation_show_progress_on_a_terminal() {
    let board = format!(
        "{}/benches/boards/gen-1000.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    for (args, bar) in [
        (
            format!("squares {board} --after 300"),
            "the law turn by turn",
        ),
        (
            format!("draw {board} --heat after --after 300"),
            "the law turn by turn",
        ),
        (
            "simulate efi --players 16 --knock-off -n 20000 --seed 1".to_string(),
            "simulating",
        ),
    ] {
        let seen = on_a_terminal(&args);
        assert!(seen.contains(bar), "{args}: {bar}: {seen}");
    }
}
