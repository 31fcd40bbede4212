//! Runs the real binary: `generate` (board files that load and reproduce), `expect --float`
//! (agrees with the exact answer), and the exact answer on a generated board.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{json_of, ladders};

/// The exact value's correctly rounded decimal (numerator and denominator can overflow f64).
fn ratio(v: &Value) -> f64 {
    v["decimal"].as_str().unwrap().parse().unwrap()
}

#[test]
fn generate_writes_a_board_file_that_expect_reads() {
    let dir = std::env::temp_dir().join(format!("ladders-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.toml");
    let p = path.to_str().unwrap();
    ladders()
        .args([
            "generate",
            "--size",
            "200",
            "--snakes",
            "10",
            "--ladders",
            "10",
        ])
        .args(["--seed", "5", "--roll-again", "unlimited", "--output", p])
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("size = 200") && text.contains("roll_again = \"unlimited\""));
    // The same seed writes the same file to standard output.
    ladders()
        .args([
            "generate",
            "--size",
            "200",
            "--snakes",
            "10",
            "--ladders",
            "10",
        ])
        .args(["--seed", "5", "--roll-again", "unlimited"])
        .assert()
        .success()
        .stdout(text.clone());
    let v = json_of(&["expect", p, "--json"]);
    assert_eq!(v["finite"], true);
    assert_eq!(v["board"]["size"], 200);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_refuses_more_jumps_than_fit() {
    ladders()
        .args([
            "generate",
            "--size",
            "30",
            "--snakes",
            "9",
            "--ladders",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("do not fit on 30 squares"));
}

#[test]
fn float_expectations_agree_with_the_exact_ones() {
    // Exact fractions computed independently of the float path; the float solve must agree to
    // 1e-9 relative on every expectation (both roll-level and forfeit rules).
    for args in [
        vec!["efi"],
        vec!["milton-bradley"],
        vec!["efi", "--roll-again", "3"],
    ] {
        let exact = json_of(&[&["expect"], &args[..], &["--json"]].concat());
        let float = json_of(&[&["expect"], &args[..], &["--json", "--float"]].concat());
        assert_eq!(float["float"], true);
        for key in [
            "expected_turns",
            "variance",
            "expected_rolls",
            "expected_snakes",
            "expected_ladders",
            "expected_climbed",
            "expected_slid",
        ] {
            let e = ratio(&exact[key]);
            let f = float[key].as_f64().unwrap();
            assert!(((e - f) / e).abs() < 1e-9, "{args:?} {key}: {e} vs {f}");
        }
    }
}

#[test]
fn float_per_square_lists_the_same_squares_as_the_exact_report() {
    let exact = json_of(&["expect", "efi", "--json", "--per-square"]);
    let float = json_of(&["expect", "efi", "--json", "--per-square", "--float"]);
    let squares = |v: &Value| -> Vec<u64> {
        v["per_square"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["square"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(squares(&exact), squares(&float));
    assert!(!squares(&exact).is_empty());
}

#[test]
fn float_expectations_agree_with_the_exact_ones_on_generated_boards() {
    // A few hundred squares, with and without roll-again (the chained second solve): the float
    // path solves iteratively there (with a residual check), the exact path by primes and CRT.
    // Every expectation and every per-square value must agree to 1e-9 relative.
    let dir = std::env::temp_dir().join(format!("ladders-float-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (seed, again) in [("7", "none"), ("8", "unlimited"), ("9", "2")] {
        let path = dir.join(format!("g{seed}.toml"));
        let p = path.to_str().unwrap();
        ladders()
            .args(["generate", "--size", "300", "--snakes", "12"])
            .args(["--ladders", "12", "--seed", seed, "--roll-again", again])
            .args(["--output", p])
            .assert()
            .success();
        let exact = json_of(&["expect", p, "--json", "--per-square"]);
        let float = json_of(&["expect", p, "--json", "--per-square", "--float"]);
        for key in [
            "expected_turns",
            "variance",
            "expected_rolls",
            "expected_snakes",
            "expected_ladders",
            "expected_climbed",
            "expected_slid",
        ] {
            let e = ratio(&exact[key]);
            let f = float[key].as_f64().unwrap();
            assert!(((e - f) / e).abs() < 1e-9, "{again} {key}: {e} vs {f}");
        }
        let (es, fs) = (
            exact["per_square"].as_array().unwrap(),
            float["per_square"].as_array().unwrap(),
        );
        assert_eq!(es.len(), fs.len());
        assert!(es.len() > 250, "{again}: {} squares", es.len());
        for (e, f) in es.iter().zip(fs) {
            assert_eq!(e["square"], f["square"]);
            let (e, f) = (
                ratio(&e["expected_turns"]),
                f["expected_turns"].as_f64().unwrap(),
            );
            assert!(((e - f) / e).abs() < 1e-9, "{again}: {e} vs {f}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_seed_003_is_the_builtin_board_and_refuses_impossible_requests() {
    // The built-in seed-003 is this command's file (its name line replaced, comments added).
    let out = ladders()
        .args([
            "generate",
            "--size",
            "200",
            "--columns",
            "10",
            "--snakes",
            "3",
            "--ladders",
            "3",
            "--seed",
            "3",
            "--once-ladders",
            "--apples",
            "6",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let shipped = std::fs::read_to_string("boards/seed-003.toml").unwrap();
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("name ="))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(body(&text), body(&shipped));
    for (args, message) in [
        (
            vec!["--size", "200", "--columns", "1", "--snakes", "1"],
            "no snake or ladder longer than 200 squares fits",
        ),
        (
            vec!["--size", "20", "--apples", "10"],
            "10 apples do not fit",
        ),
        (
            vec!["--size", "20", "--columns", "21"],
            "--columns 21 is not a row length",
        ),
    ] {
        ladders()
            .arg("generate")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}
