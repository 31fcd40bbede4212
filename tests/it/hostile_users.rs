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
