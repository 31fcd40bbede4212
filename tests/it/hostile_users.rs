//! What users hand it (issue 40), one test per item: each failed on the main of 2026-11-29 and
//! shows the fix. The samples are in `tests/hostile/samples/` (1,000 games of `ladders simulate
//! tiny --seed 3`, shuffled, written as a user's program would write them) and run by the hostile
//! corpus too.

use predicates::prelude::*;

use crate::common::ladders;

/// A sample in tests/hostile/samples/.
fn sample(name: &str) -> String {
    format!(
        "{}/tests/hostile/samples/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Item 1: a per-game export (`game,turns`, pandas' `,turns`, R's `"","turns"`) was read as a
/// `turns,count` histogram: the 1,000 correct games of tiny became 4,113 games with mean about
/// 500, FAIL. The header now says which column holds the turns.
#[test]
fn a_per_game_export_with_a_header_is_read_one_game_per_line() {
    for file in [
        "tiny_pandas_index.csv",
        "tiny_game_turns.csv",
        "tiny_r_write_csv.csv",
        "tiny_turns_column.csv",
        "tiny_count_turns.csv",
    ] {
        ladders()
            .args(["verify", "tiny", "--file", &sample(file)])
            .assert()
            .code(0)
            .stdout(predicate::str::contains(
                "Sample           1,000 games from",
            ))
            .stdout(predicate::str::contains("Verdict          PASS"));
    }
}

/// Item 1: two columns without a header, the first counting 0, 1, 2, ...: both readings are
/// possible, and the file is refused naming both (as a histogram: 4,113 games; one game per
/// line: 1,000 games).
#[test]
fn two_columns_without_a_header_that_read_both_ways_are_refused_naming_both() {
    ladders()
        .args([
            "verify",
            "tiny",
            "--file",
            &sample("tiny_index_no_header.csv"),
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "tiny_index_no_header.csv:1: two columns",
        ))
        .stderr(predicate::str::contains("`turns,count`"))
        .stderr(predicate::str::contains("4113 games"))
        .stderr(predicate::str::contains("`game,turns`"))
        .stderr(predicate::str::contains("1000 games"));
}

/// Item 2: `--sd` was shown, never tested: an sd of 20 over 10,000 games passed against the
/// reversed Efi board's exact 34.7 (its mean given exactly). The sample variance is now tested
/// against the exact variance (standard error from the exact fourth moment).
#[test]
fn a_reported_sd_far_from_the_exact_one_fails() {
    let verify = |sd: &str, code: i32| {
        let args = [
            "verify",
            "efi",
            "--reverse",
            "--mean",
            "46.172",
            "--games",
            "10000",
            "--sd",
            sd,
        ];
        let out = ladders().args(args).assert().code(code);
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = verify("20", 1);
    assert!(
        text.contains("Variance turns   420.2500 vs exact 1203.9"),
        "{text}"
    );
    assert!(text.contains("Verdict          FAIL"), "{text}");
    let text = verify("34.7", 0);
    assert!(text.contains("Verdict          PASS"), "{text}");
    ladders()
        .args([
            "verify", "tiny", "--mean", "4", "--games", "100", "--sd", "-2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--sd \"-2\" is not a number of at least 0",
        ));
}

/// A board text past the 16 MiB limit: `size = 10`, a comment, then a snake after the limit.
fn board_past_the_limit() -> Vec<u8> {
    let mut text = b"size = 10\n# ".to_vec();
    text.resize(16 * 1024 * 1024 + 100, b'x');
    text.extend_from_slice(b"\nsnakes = [[9, 1]]\n");
    text
}

/// Item 3: a board piped on standard input was cut at 16 MiB and the rest ignored: the board
/// without its snake was answered, exit 0. Now it is refused with the size, as from a FIFO.
#[test]
fn a_board_past_the_size_limit_on_standard_input_is_refused_not_cut() {
    ladders()
        .args(["expect", "-"])
        .write_stdin(board_past_the_limit())
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("more than 16777216 bytes"));
}

/// Item 3 (also): a board read from a path whose size is not known in advance (`/dev/stdin`, a
/// FIFO, `<(cat big.toml)`) was cut the same way.
#[cfg(unix)]
#[test]
fn a_board_past_the_size_limit_from_a_pipe_path_is_refused_not_cut() {
    ladders()
        .args(["expect", "/dev/stdin"])
        .write_stdin(board_past_the_limit())
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("more than 16777216 bytes"));
}

/// Runs `ladders ARGS` through `sh -c` with `redirect` applied (`>&-`, `> /dev/full`, ...);
/// returns the exit code and standard error.
#[cfg(unix)]
fn redirected(args: &str, redirect: &str) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" {args} {redirect}"))
        .arg(bin)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Item 4: one rule for a failed write: exit 3 with a message where one can be written, never
/// a panic. Before: stdout closed exited 0 with nothing written; `completions bash > /dev/full`
/// and `2>/dev/full` on an error panicked (exit 101); an SVG or CSV that could not be written
/// exited 2.
#[cfg(unix)]
#[test]
fn every_failed_write_exits_3_and_never_panics() {
    for (args, redirect) in [
        ("expect tiny", ">&-"),
        ("expect tiny", "> /dev/full"),
        ("completions bash", "> /dev/full"),
        ("man", "> /dev/full"),
        ("boards --json", ">&-"),
    ] {
        let (code, stderr) = redirected(args, redirect);
        assert_eq!(code, Some(3), "{args} {redirect}: {stderr}");
        assert!(
            stderr.contains("cannot write the output"),
            "{args} {redirect}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args} {redirect}: {stderr}");
    }
    for (args, what) in [
        ("draw tiny --svg /dev/full", "/dev/full"),
        (
            "simulate tiny -n 1000 --seed 1 --histogram-csv /dev/full",
            "/dev/full",
        ),
        (
            "distribution tiny --svg /nonexistent-dir/d.svg",
            "/nonexistent-dir/d.svg",
        ),
        ("generate --size 20 --output /dev/full", "/dev/full"),
    ] {
        let (code, stderr) = redirected(args, "");
        assert_eq!(code, Some(3), "{args}: {stderr}");
        assert!(stderr.contains(what), "{args}: {stderr}");
    }
    // Standard error unwritable: the answer is still written (exit 0), an error still exits 2.
    assert_eq!(redirected("expect tiny", "2> /dev/full").0, Some(0));
    assert_eq!(
        redirected("expect no-such-board", "2> /dev/full").0,
        Some(2)
    );
    assert_eq!(
        redirected("expect tiny > /dev/full", "2> /dev/full").0,
        Some(3)
    );
    // A closed pipe stays a quiet success: cli_usage::a_closed_pipe_under_json_is_quiet.
}

/// Item 17: `ladders myboard.toml` said "unrecognized subcommand"; a board first (a path or a
/// built-in name) now runs `analyze` on it, as bare `ladders` does on the default board.
#[test]
fn a_board_first_runs_analyze_on_it() {
    let path = format!("{}/boards/tiny.toml", env!("CARGO_MANIFEST_DIR"));
    let analyze = crate::common::stdout_of(&["analyze", "tiny"]);
    assert_eq!(crate::common::stdout_of(&["tiny"]), analyze);
    assert_eq!(
        crate::common::stdout_of(&["--color", "never", &path]),
        crate::common::stdout_of(&["analyze", &path])
    );
    assert_eq!(
        crate::common::stdout_of(&["efi", "--json", "--digits", "3"]),
        crate::common::stdout_of(&["analyze", "efi", "--json", "--digits", "3"])
    );
    // A word that is neither a subcommand nor a board is still clap's to refuse.
    ladders()
        .args(["expct", "tiny"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unrecognized subcommand 'expct'"));
}

/// Item 19: "seed 000", "seed 003" in `ladders boards` and the help meant nothing to a user (and
/// collide with `--seed`): the boards name their sources (a Java newsletter, a student project).
#[test]
fn the_board_list_and_the_help_name_sources_not_seed_numbers() {
    let boards = crate::common::stdout_of(&["boards"]);
    assert!(boards.contains("a Java newsletter's simulator"), "{boards}");
    assert!(boards.contains("a student project's game"), "{boards}");
    for text in [
        boards,
        crate::common::stdout_of(&["--help"]),
        crate::common::stdout_of(&["generate", "--help"]),
    ] {
        assert!(!text.to_lowercase().contains("seed 00"), "{text}");
    }
}

/// Item 16: the quick start left no `ladders` command (`cargo run --release` installs nothing)
/// while every example uses `ladders`; it now installs it (or sets an alias), says the Rust
/// version Cargo.toml requires, and how long the build and the tests take.
#[test]
fn the_quick_start_gives_a_ladders_command_and_the_rust_version() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let quick = readme
        .split("## Quick start")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a Quick start section");
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("rust-version")
        .trim_matches('"');
    assert!(
        quick.contains(&format!("Rust {version} or newer")),
        "{quick}"
    );
    assert!(quick.contains("cargo install --path . --locked"), "{quick}");
    assert!(quick.contains("alias ladders="), "{quick}");
    assert!(
        quick.contains("A clean release build takes about"),
        "{quick}"
    );
    assert!(quick.contains("`cargo test --release`"), "{quick}");
    // Each `ladders` command of its code blocks runs as written (comments aside).
    let commands: Vec<&str> = quick
        .lines()
        .map(|l| l.split(" #").next().unwrap().trim())
        .filter(|l| l.split_whitespace().next() == Some("ladders"))
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    for command in commands {
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let out = crate::common::stdout_of(&args);
        assert!(out.starts_with("Board "), "{command}: {out}");
    }
}

/// Item 8: `RAYON_NUM_THREADS` sized the pool of every parallel part, `--threads` or not (3,000
/// threads ran; under a 2 GiB limit an intermittent abort). `--threads` now sizes it, and
/// without it a `RAYON_NUM_THREADS` past 1,024 is refused.
#[cfg(unix)]
#[test]
fn threads_come_from_threads_and_rayon_num_threads_is_bounded() {
    ladders()
        .env("RAYON_NUM_THREADS", "3000")
        .args(["verify", "tiny", "--mean", "4.5", "--games", "1000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "RAYON_NUM_THREADS=3000: expected a number of threads from 1 to 1024",
        ));
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" check tiny -n 100k --seed 1 --threads 2")
        .arg(bin)
        .env("RAYON_NUM_THREADS", "3000")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ladders()
        .env("RAYON_NUM_THREADS", "2")
        .args(["verify", "tiny", "--mean", "4.0", "--games", "1000"])
        .assert()
        .code(0);
}

/// Item 13: names printed U+200E/U+200F/U+061C marks, U+2028/U+2029 separators, tag characters
/// and U+FFF9-FFFB raw (now refused, named as escapes), and a path in an `--svg`,
/// `--histogram-csv` or `--policy` error printed a raw ESC (now escaped).
#[test]
fn names_and_paths_never_reach_the_terminal_with_marks_separators_or_escapes() {
    for (file, shown) in [
        ("mark_name.toml", "\\u{200e}"),
        ("separator_name.toml", "\\u{2028}"),
        ("tag_name.toml", "\\u{e0041}"),
        ("annotation_name.toml", "\\u{fff9}"),
    ] {
        let board = crate::hostile::hostile_board(file);
        let out = ladders().args(["expect", &board]).assert().code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(shown), "{file}: {stderr}");
    }
    let path = "/nonexistent-dir/\u{1b}[2J.svg";
    for args in [
        vec!["draw", "tiny", "--svg", path],
        vec!["simulate", "tiny", "-n", "1000", "--histogram-csv", path],
        vec!["expect", "course", "--policy", path],
    ] {
        let out = ladders().args(&args).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!stderr.contains('\u{1b}'), "{args:?}: {stderr:?}");
        assert!(stderr.contains("\\u{1b}[2J"), "{args:?}: {stderr:?}");
    }
}

/// Item 18: `expect` on 10,000 squares printed a 14,945-character fraction and a 29,871-character
/// variance line; a fraction past 1,000 characters is now its first digits and digit counts,
/// whole with `--exact`, and always whole in JSON.
#[test]
fn a_long_fraction_is_shown_by_its_digit_counts_unless_exact() {
    let board = crate::hostile::hostile_board("empty_10000.toml");
    let text = crate::common::stdout_of(&["expect", &board]);
    assert!(text.lines().all(|l| l.len() < 200), "{text}");
    assert!(text.contains("digits; --exact prints it whole)"), "{text}");
    let whole = crate::common::stdout_of(&["expect", &board, "--exact"]);
    assert!(whole.lines().any(|l| l.len() > 1000));
    assert!(!whole.contains("--exact prints it whole"));
    let json = crate::common::json_of(&["expect", &board, "--json"]);
    let numerator = json["expected_turns"]["numerator"].as_str().unwrap();
    assert!(numerator.len() > 1000, "{numerator}");
}

/// Item 18, the final score: seed 003's expected score is a fraction of about 1,600 characters;
/// its line shows the decimal, the first digits and the digit counts, and `--exact` prints it
/// whole (JSON always has it whole).
#[test]
fn a_long_score_fraction_is_shown_by_its_digit_counts_unless_exact() {
    let score_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Expected score"))
            .unwrap_or_else(|| panic!("no score line: {text}"))
            .to_string()
    };
    let short = score_line(&crate::common::stdout_of(&["expect", "seed-003"]));
    assert!(short.starts_with("Expected score   -0.128479"), "{short}");
    assert!(
        short.contains("digits; --exact prints it whole)"),
        "{short}"
    );
    assert!(short.len() < 200, "{short}");
    let whole = score_line(&crate::common::stdout_of(&[
        "expect", "seed-003", "--exact",
    ]));
    assert!(whole.len() > 1000, "{whole}");
    assert!(!whole.contains("--exact prints it whole"), "{whole}");
    let json = crate::common::json_of(&["expect", "seed-003", "--json"]);
    let exact = json["score"]["expected"]["exact"].as_str().unwrap();
    assert!(exact.len() > 1000, "{exact}");
    assert!(whole.ends_with(exact), "{whole}");
}

/// Item 5: on a board whose turn can go on for ever (every throw a 2 that rolls again; from
/// square 2 a 2 overshoots 3 and stays) `shortest`, `analyze` and bare `ladders` panicked
/// looking for the rolls of a turn that never ends, and `check`/`verify` spoke of a token going
/// round "0 -> 0". Every command now says that a turn can go on for ever, naming the square
/// and the throw.
#[test]
fn a_turn_that_can_go_on_for_ever_is_named_by_every_command_never_a_panic() {
    let board = crate::hostile::hostile_board("endless_turn.toml");
    let said = "a turn from square 0 can go on for ever: on square 2 a throw of 2 ends on square 2";
    for args in [
        vec![board.as_str()],
        vec!["analyze", &board],
        vec!["shortest", &board],
        vec!["shortest", &board, "--likeliest"],
        vec!["expect", &board],
    ] {
        let text = crate::common::stdout_of(&args);
        assert!(text.contains(said), "{args:?}: {text}");
        assert!(!text.contains("0 -> 0"), "{args:?}: {text}");
    }
    for args in [
        vec!["check", &board, "-n", "10"],
        vec!["verify", &board, "--mean", "3", "--games", "10"],
        vec!["race", &board, "--players", "2"],
        vec!["simulate", &board, "-n", "10"],
    ] {
        let stderr = crate::common::stderr_of(&args, 2);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("0 -> 0"), "{args:?}: {stderr}");
    }
    let json = crate::common::json_of(&["shortest", &board, "--json"]);
    assert_eq!(json["longest"]["endless_turn"], 0);
    assert!(json["shortest"].is_null());
}

/// Item 5: where a turn can go on for ever only sometimes (from 0 a 2 reaches the extra-turn
/// square 2, which every roll leads back to; a 1 climbs to 5 and the game goes on) the shortest
/// game is still found: 0 -> 5 (a 1 up the ladder), 5 -> 7, 7 -> 8, each roll 1/2: 1/8 per roll
/// sequence, and two of them (1, 1, 2 as well as 1, 2, 1), 1/4; the longest is unbounded by the
/// endless turn. The game ends with probability 1/2 (the first roll), so `pgf` no longer calls
/// F'(1) = 2 the expected turns, and the squares name the endless turn.
#[test]
fn a_turn_that_only_sometimes_goes_on_for_ever_leaves_the_shortest_game_and_names_the_rest() {
    let board = crate::hostile::hostile_board("endless_turn_sometimes.toml");
    let text = crate::common::stdout_of(&["shortest", &board]);
    assert!(text.contains("Shortest game    3 turns, probability 0.250000000000 = 1/4"));
    assert!(text.contains(
        "Longest game     unbounded: a turn from square 0 can go on for ever: on square 2 a throw of 1 ends on square 2"
    ), "{text}");
    let pgf = crate::common::stdout_of(&["pgf", &board]);
    assert!(
        pgf.contains("F(1) = 1/2: the game ends with probability 1/2, so E[T] is infinite"),
        "{pgf}"
    );
    assert!(!pgf.contains("E[T] = 2"), "{pgf}");
    let json = crate::common::json_of(&["pgf", &board, "--json"]);
    assert_eq!(json["expected_turns"], "infinite");
    let squares = crate::common::stderr_of(&["squares", &board], 2);
    assert!(
        squares.contains("a turn from square 0 can go on for ever"),
        "{squares}"
    );
}

/// Item 7: a policy file had no size cap (`--policy /dev/zero` grew to 4.2 GB before an error;
/// under a 2 GiB limit it aborted). Now refused past 16 MiB with the size, from a device or a
/// pipe as from a file.
#[cfg(unix)]
#[test]
fn a_policy_file_past_its_cap_is_refused_with_its_size() {
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let out = assert_cmd::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" expect course --policy /dev/zero")
        .arg(&bin)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("/dev/zero: more than 16,777,216 bytes, the limit for a policy file"),
        "{stderr}"
    );
    // A file's size is read before its bytes: 17 MiB of nothing, in a sparse file.
    let dir = crate::hostile::scratch("policy-cap");
    let big = dir.join("big.csv");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(17 * 1024 * 1024)
        .unwrap();
    let stderr =
        crate::common::stderr_of(&["expect", "course", "--policy", big.to_str().unwrap()], 2);
    assert!(
        stderr.contains(
            "the file is 17,825,792 bytes, more than the limit of 16,777,216 for a policy file"
        ),
        "{stderr}"
    );
}

/// Item 7: messages echoed a value whole (a 1 MB unknown key gave 1 MB of standard error, and
/// so did a long --die, a long board name or a long policy choice). Every echoed value is now
/// its first 40 characters and its length (`ladders::report::echo`).
#[test]
fn an_echoed_value_is_cut_to_its_first_characters_and_its_length() {
    let dir = crate::hostile::scratch("echo");
    let long = "x".repeat(1_000_000);
    let key = dir.join("key.toml");
    std::fs::write(&key, format!("size = 10\n{long} = 1\n")).unwrap();
    let die = dir.join("die.toml");
    std::fs::write(&die, format!("size = 10\n[rules]\ndie = \"{long}\"\n")).unwrap();
    let policy = dir.join("policy.csv");
    std::fs::write(&policy, format!("1,{long}\n")).unwrap();
    let sample = dir.join("sample.csv");
    std::fs::write(&sample, format!("{long}\n")).unwrap();
    let forty = "x".repeat(40);
    let arg = "y".repeat(100_000);
    for (args, shown) in [
        (
            vec!["expect", key.to_str().unwrap()],
            format!("unknown key \"{forty}\"... (1,000,000 characters)"),
        ),
        (
            vec!["expect", die.to_str().unwrap()],
            format!("die \"{forty}\"... (1,000,000 characters) is not a die"),
        ),
        (
            vec!["expect", "course", "--policy", policy.to_str().unwrap()],
            format!("\"{forty}\"... (1,000,000 characters) is not a choice"),
        ),
        (
            vec!["verify", "tiny", "--file", sample.to_str().unwrap()],
            format!("header column \"{forty}\"... (1,000,000 characters)"),
        ),
        (
            vec!["expect", &arg],
            format!("{}... (100,000 characters): no such board file", &arg[..40]),
        ),
        (
            vec!["expect", "tiny", "--die", &arg],
            format!("found \"{}\"... (100,000 characters)", &arg[..40]),
        ),
        (
            vec!["expect", "tiny", "--overshoot", &arg],
            format!("invalid value '{}... (100,000 characters)'", &arg[..40]),
        ),
    ] {
        let stderr = crate::common::stderr_of(&args, 2);
        assert!(
            stderr.len() < 1_000,
            "{} bytes for {:?}",
            stderr.len(),
            &args[..2]
        );
        assert!(stderr.contains(&shown), "{stderr}");
    }
}

/// Item 14: a sample that counted rolls instead of turns (efi played with `roll again = none`)
/// got four hints, the simplest last, each "not start = 1" or "not overshoot = bounce" where
/// those make no difference. Now one hint per law, the fewest changes first, naming the rules
/// that change nothing in a parenthesis.
#[test]
fn rolls_counted_as_turns_get_one_hint_per_law_the_simplest_first() {
    let dir = crate::hostile::scratch("hints");
    let csv = dir.join("efi-rolls.csv");
    let csv = csv.to_str().unwrap();
    crate::common::stdout_of(&[
        "simulate",
        "efi",
        "--roll-again",
        "none",
        "-n",
        "20000",
        "--seed",
        "5",
        "--histogram-csv",
        csv,
    ]);
    let text = crate::common::stdout_with_code(&["verify", "efi", "--file", csv], 1);
    let hints: Vec<&str> = text.lines().filter(|l| l.starts_with("Hint")).collect();
    assert_eq!(hints.len(), 2, "{text}");
    assert_eq!(
        hints[0],
        "Hint             your sample matches roll again = none, not roll again = unlimited (on \
         this board the law is exactly the same with overshoot = stay: no sample can tell them \
         apart)"
    );
    assert!(hints[1].contains("your sample matches start = 0, roll again = none, not start = 1"));
}

/// Item 14: a mean of 39.6 on milton-bradley is milton-bradley-48's mean (39.598...): the
/// other common layout is named among the hints, as fitting too (10,000 games) or instead
/// (1,000,000 games, where the board's own law fails).
#[test]
fn a_sample_of_the_other_milton_bradley_layout_names_it() {
    let args = [
        "verify",
        "milton-bradley",
        "--mean",
        "39.6",
        "--games",
        "10000",
    ];
    let passed = crate::common::stdout_of(&args);
    assert!(
        passed.contains(
            "Hint             the sample also fits milton-bradley-48, this board's other common \
             layout (48 -> 26 instead of 47 -> 26): too few games to tell them apart"
        ),
        "{passed}"
    );
    let mut many = args;
    many[5] = "1000000";
    let failed = crate::common::stdout_with_code(&many, 1);
    assert!(
        failed.contains("Hint             your sample matches milton-bradley-48"),
        "{failed}"
    );
    let json = crate::common::json_of(&[&args[..], &["--json"]].concat());
    assert_eq!(json["variants"]["layouts"][0]["board"], "milton-bradley-48");
}

/// Item 20: the README promised CSV from `sensitivity` and from `expect --die LO..HI` ("CSV and
/// JSON as elsewhere"); both refused `--csv`. On tiny (a coin, ladder 1 -> 3, snake 2 -> 0,
/// E[T] = 4), by hand: without the snake E0 = 1 + E3/2 + E2/2 with E3 = 2 (only a 1 finishes)
/// and E2 = 1 + E3/2 = 2, so 3 (change -1); without the ladder E0 = 1 + E1/2 + E0/2 and
/// E1 = 1 + E0/2 + E3/2, so E0 = 2 + 3 E0/4: 8 (change +4).
#[test]
fn sensitivity_and_the_die_table_write_csv() {
    let csv = crate::common::stdout_of(&["sensitivity", "tiny", "--csv", "--exact"]);
    assert_eq!(
        csv,
        "kind,from,to,turns,change\nladder,1,3,8,4\nsnake,2,0,3,-1\n"
    );
    let table = crate::common::stdout_of(&["expect", "milton-bradley", "--die", "4..8"]);
    let csv = crate::common::stdout_of(&["expect", "milton-bradley", "--die", "4..8", "--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "die,turns,best");
    assert_eq!(lines.len(), 6);
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        // The same figures as the text table, the best marked on the same die.
        assert!(
            table.contains(&format!("{:>4}  {}", cells[0], cells[1])),
            "{line}\n{table}"
        );
        let marked = table
            .lines()
            .any(|l| l.trim_start().starts_with(cells[0]) && l.ends_with("<- best"));
        assert_eq!(cells[2] == "1", marked, "{line}");
    }
    // The 6-sided die is the board's own: its E[T] as `expect` prints it.
    assert!(lines[3].starts_with("6,39.225122308235,"));
    let stderr = crate::common::stderr_of(&["expect", "tiny", "--csv"], 2);
    assert!(stderr.contains("--csv writes the table of `expect --die LO..HI`"));
}

/// Item 20: shell completion offered file names for rule values (`--overshoot <TAB>` listed the
/// directory); the rule options now say their values are words (`ValueHint::Other`).
#[test]
fn completion_offers_no_file_names_for_rule_values() {
    let bash = crate::common::stdout_of(&["completions", "bash"]);
    for option in [
        "--overshoot",
        "--die",
        "--start",
        "--roll-again",
        "--chain",
        "--dice",
    ] {
        let case = format!("                {option})");
        let at = bash.find(&case).unwrap_or_else(|| panic!("{option}"));
        let block = &bash[at..at + bash[at..].find(";;").unwrap()];
        assert!(!block.contains("compgen -f"), "{option}: {block}");
    }
}

/// Item 20: completion offered only file names where a board is expected; bash now offers the
/// built-in names for every board argument (`expect <TAB>`, each seat of `race`), and a word
/// that matches none still completes as a path (`complete -o default`). zsh and fish offer the
/// names and file names too (`completion_shells`).
#[test]
fn completion_offers_the_built_in_board_names_and_still_paths() {
    let bash = crate::common::stdout_of(&["completions", "bash"]);
    for command in ["expect", "race", "draw", "simulate"] {
        let case = format!("        ladders__subcmd__{command})");
        let at = bash.find(&case).unwrap_or_else(|| panic!("{command}"));
        let opts = bash[at..].lines().nth(1).unwrap();
        for name in ladders::board::builtin_names() {
            assert!(
                opts.split(['"', ' ']).any(|w| w == name),
                "{command}: {name}: {opts}"
            );
        }
    }
    assert!(bash.contains("complete -F _ladders -o nosort -o bashdefault -o default ladders"));
    let zsh = crate::common::stdout_of(&["completions", "zsh"]);
    assert!(
        zsh.contains("for standard input:_alternative "),
        "zsh: names and files"
    );
    assert!(zsh.contains("\"files\\:file\\:_files\"'"), "zsh: files");
}

/// Item 6: a chance square of total weight 2,048,576 on a loaded die (total 1,001,005) makes the
/// rolls' common denominator about 2^41, past the roll-level form's 2^40: `expect` solved the
/// turn chain's dense thousand-digit fractions and ran past 60 s with no estimate on 1,000
/// squares (1.9 s on 200). The roll-level form now takes it (the two routes agree on a smaller
/// board: `analysis::expectation`'s unit tests), and the floats' 7 digits agree here.
#[cfg(unix)]
#[test]
fn a_chance_square_past_2_pow_40_with_a_loaded_die_answers_within_seconds() {
    let board = format!(
        "{}/tests/hostile/boards/chance_2pow41_1000.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let run = |extra: &str| {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -t 10; exec \"$0\" expect \"$1\" {extra}"))
            .arg(&bin)
            .arg(&board)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("Expected turns"))
            .unwrap();
        line.split_whitespace().nth(2).unwrap().to_string()
    };
    let exact = run("");
    let float = run("--float");
    let (exact, float): (f64, f64) = (exact.parse().unwrap(), float.parse().unwrap());
    assert!((exact - float).abs() <= 0.05, "{exact} against {float}");
    assert!(exact > 1e5, "{exact}");
}

/// Item 6: an estimate past what a machine word holds was printed saturated: `race BOARD
/// --players 6 --knock-off` on 10,000 squares said "about 18446744073709551615 MB of memory and
/// 18446744073709551615 s" (u64::MAX twice). The memory is now its figure in scientific form
/// (9,600 squares a token can stand on: 9600^6 states of 64 bytes, about 4.8e19 MB) and the
/// saturated seconds say "more than".
#[test]
fn an_estimate_past_a_machine_word_is_printed_as_its_figure_not_saturated() {
    let board = format!(
        "{}/benches/boards/gen-10000.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let err = crate::common::stderr_of(&["race", &board, "--players", "6", "--knock-off"], 2);
    assert!(!err.contains("18446744073709551615"), "{err}");
    assert!(err.contains("7.8e23 states relative to the mover"), "{err}");
    assert!(err.contains("about 4.8e19 MB of memory"), "{err}");
    assert!(err.contains("more than 1.8e19 s"), "{err}");
}

/// Item 4: a file that cannot be written said why twice ("cannot write the SVG: No such file or
/// directory (os error 2): No such file or directory (os error 2)"): once in the message and
/// once more as its chained cause. It says it once.
#[test]
fn a_file_that_cannot_be_written_says_why_once() {
    for (args, what) in [
        (
            vec!["draw", "efi", "--svg", "/nonexistent-dir/x.svg"],
            "SVG",
        ),
        (
            vec![
                "simulate",
                "tiny",
                "-n",
                "10",
                "--histogram-csv",
                "/nonexistent-dir/x.csv",
            ],
            "CSV",
        ),
    ] {
        let err = crate::common::stderr_of(&args, 3);
        assert!(err.contains(&format!("cannot write the {what}: ")), "{err}");
        assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
    }
}

/// Item 6: three chance squares on a loaded die make the rolls' common denominator about 2^77,
/// past the roll-level form's 2^62, so `expect` solves the turn chain, whose rows' denominators
/// grow with the board. Its estimate was the lifting's (for rows of machine words): 144 s on 200
/// squares, which take 1.8 s, so the board was refused; and the chain had no size estimate, so
/// 3,000 squares aborted past 2 GiB (`--float` too). The estimate now follows the route the
/// solve takes (multi-modular elimination over long rows): 200 squares answer, 1,000 squares
/// (about 1,700 s estimated; past 98 s measured) are refused with the figure and what to do
/// instead, and 3,000 squares' chain is refused from its size before it is built.
#[cfg(unix)]
#[test]
fn a_chance_past_2_pow_62_answers_when_small_and_is_refused_with_its_estimate_when_large() {
    let bin = assert_cmd::cargo::cargo_bin("ladders");
    let run = |size: u32, extra: &str| {
        let board = crate::hostile::hostile_board(&format!("chance_2pow77_{size}.toml"));
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1048576; ulimit -t 30; exec \"$0\" expect \"$1\" {extra}"
            ))
            .arg(&bin)
            .arg(&board)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let turns = |stdout: &str| -> f64 {
        let line = (stdout.lines())
            .find(|l| l.starts_with("Expected turns"))
            .unwrap_or_else(|| panic!("{stdout}"));
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    // 200 squares: answered exactly, and the floats' 7 digits agree.
    let (code, exact, err) = run(200, "");
    assert_eq!(code, Some(0), "{err}");
    let (code, float, err) = run(200, "--float");
    assert_eq!(code, Some(0), "{err}");
    let (exact, float) = (turns(&exact), turns(&float));
    assert!(
        (exact - float).abs() <= 1e-6 * exact,
        "{exact} against {float}"
    );
    // 1,000 squares: refused on time, before the solve, naming --float and simulate; --float
    // answers.
    let (code, _, err) = run(1000, "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the exact solve would take about"), "{err}");
    assert!(err.contains("`ladders expect --float`"), "{err}");
    assert!(err.contains("`ladders simulate`"), "{err}");
    let seconds: f64 = err
        .split("would take about ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((500.0..10_000.0).contains(&seconds), "{err}");
    let (code, float, err) = run(1000, "--float");
    assert_eq!(code, Some(0), "{err}");
    assert!(turns(&float) > 1e5, "{float}");
    // 3,000 squares: the chain's memory, exact or floats, and no promise that `expect` answers.
    for extra in ["", "--float"] {
        let (code, _, err) = run(3000, extra);
        assert_eq!(code, Some(2), "{extra}: {err}");
        assert!(
            err.contains("the turn chain of this board would hold about"),
            "{err}"
        );
        assert!(err.contains("MB of memory"), "{err}");
        assert!(err.contains("`ladders simulate` estimates it"), "{err}");
        assert!(!err.contains("answers exactly without it"), "{err}");
    }
}
