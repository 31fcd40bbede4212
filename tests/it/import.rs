//! `ladders import`: LeetCode 909 grids become board files whose shortest game is LeetCode's
//! answer (the expected answers are the ones LeetCode publishes with its examples).

use crate::common::{ladders, stdout_of};

fn fixture_path(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The board file `import leetcode` writes for a grid (given inline or as a file).
fn imported(grid: &str) -> String {
    stdout_of(&["import", "leetcode", grid])
}

/// The shortest game's line of `ladders shortest -` on a board file's text.
fn shortest(board: &str) -> String {
    let out = ladders()
        .args(["shortest", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find(|l| l.starts_with("Shortest game"))
        .expect("a shortest game")
        .to_string()
}

#[test]
fn leetcode_examples_give_leetcodes_answers() {
    // LeetCode 909, example 1: 4 moves (2 -> 15, 17 -> 13, 14 -> 35, 36).
    let one = imported(&fixture_path("leetcode/example-1.json"));
    assert!(
        shortest(&one).starts_with("Shortest game    4 turns"),
        "{one}"
    );
    // Example 2: 1 move (1 -> 4 with a 3).
    let two = imported(&fixture_path("leetcode/example-2.json"));
    assert!(
        shortest(&two).starts_with("Shortest game    1 turn,"),
        "{two}"
    );
    // The same grid given inline.
    assert_eq!(
        imported("[[-1,-1],[-1,3]]")
            .lines()
            .skip(1)
            .collect::<Vec<_>>(),
        two.lines().skip(1).collect::<Vec<_>>()
    );
}

#[test]
fn a_grid_that_is_not_a_leetcode_board_exits_2_naming_the_square() {
    let out = ladders()
        .args(["import", "leetcode", "[[-1,99],[-1,-1]]"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    // Row 1, column 2 of a 2 x 2 grid is square 3 (the top row is 4 3).
    assert!(
        err.contains("row 1, column 2 (square 3): 99 is not a square"),
        "{err}"
    );
}

/// The converted example the docs show is what `import` writes today.
#[test]
fn the_documented_conversion_is_current() {
    let written = imported(&fixture_path("leetcode/example-1.json"));
    let kept = std::fs::read_to_string(fixture_path("leetcode/example-1.toml")).unwrap();
    // The first line names the file read (here an absolute path).
    let body = |text: &str| text.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&written), body(&kept));
}
