//! docs/json-output.md is true (issue 19, item 14): for every section, commands are run and each
//! key its tables list must be in their JSON; single-board reports carry `board` and `rules`; the
//! page's EXACT example is what `expect tiny` prints (E[T] = 4, boards/tiny.toml) and its INTERVAL
//! example what `race tiny --players 2` prints (holding 80/27, worked by hand); no other page has
//! a JSON block.

use std::collections::BTreeSet;

use num_rational::BigRational;
use serde_json::Value;

use crate::common::{exact, json_of, ladders};

/// The page's sections: heading -> the keys of each of its tables, in order.
fn sections() -> Vec<(String, Vec<Vec<String>>)> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json-output.md"))
        .unwrap();
    let mut out: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    let mut in_table = false;
    for line in page.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((h.to_string(), Vec::new()));
            in_table = false;
        } else if line.starts_with("| key |") {
            if let Some((_, tables)) = out.last_mut() {
                tables.push(Vec::new());
            }
            in_table = true;
        } else if in_table && line.starts_with("| `") {
            let first = line.split('|').nth(1).unwrap();
            let keys = first.split('`').skip(1).step_by(2).map(str::to_string);
            out.last_mut().unwrap().1.last_mut().unwrap().extend(keys);
        } else if !line.starts_with('|') {
            in_table = false;
        }
    }
    out
}

/// The keys of `v` (or of `v[under]`), as a set.
fn keys(v: &Value, under: Option<&str>) -> BTreeSet<String> {
    let v = match under {
        Some(k) => &v[k],
        None => v,
    };
    v.as_object().expect("an object").keys().cloned().collect()
}

/// A board whose finish cannot be reached from square 1 (3 and 4 slide to 1): `trap`.
const TRAP: &str = "size = 5\nsnakes = [[3, 1], [4, 1]]\n[rules]\ndie = 2\n";

fn json_with_stdin(args: &[&str], stdin: &str) -> Value {
    let out = ladders()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

/// The commands whose outputs, together, must show every key of one table.
struct Case {
    heading: &'static str,
    table: usize,
    runs: Vec<Value>,
    under: Option<&'static str>,
    one_board: bool,
}

fn cases() -> Vec<Case> {
    let case = |heading, table, runs, under, one_board| Case {
        heading,
        table,
        runs,
        under,
        one_board,
    };
    let j = |args: &[&str]| json_of(args);
    vec![
        case(
            "`expect`",
            0,
            vec![
                j(&["expect", "efi", "--json", "--per-square", "--moments", "2"]),
                json_with_stdin(&["expect", "-", "--json"], TRAP),
            ],
            None,
            true,
        ),
        case(
            "`distribution`",
            0,
            vec![
                j(&["distribution", "tiny", "--json"]),
                json_with_stdin(&["distribution", "-", "--json"], TRAP),
            ],
            None,
            true,
        ),
        case(
            "`shortest`",
            0,
            vec![j(&["shortest", "efi", "--likeliest", "--json"])],
            None,
            true,
        ),
        case("`pgf`", 0, vec![j(&["pgf", "tiny", "--json"])], None, true),
        case(
            "`draw`",
            0,
            vec![j(&["draw", "tiny", "--heat", "visits", "--json"])],
            None,
            true,
        ),
        case(
            "`analyze`",
            0,
            vec![j(&["analyze", "efi", "--json"])],
            None,
            true,
        ),
        case(
            "`simulate`",
            0,
            vec![
                j(&["simulate", "tiny", "-n", "1000", "--seed", "1", "--json"]),
                // A board with point squares adds `score`.
                j(&[
                    "simulate",
                    "tests/fixtures/sim/stateful-all.toml",
                    "-n",
                    "1000",
                    "--seed",
                    "1",
                    "--json",
                ]),
            ],
            None,
            true,
        ),
        case(
            "`check`",
            0,
            vec![
                j(&["check", "tiny", "-n", "1000", "--seed", "1", "--json"]),
                // A board with point squares adds the score test.
                j(&[
                    "check",
                    "tests/fixtures/sim/stateful-all.toml",
                    "-n",
                    "1000",
                    "--seed",
                    "1",
                    "--json",
                ]),
            ],
            Some("check"),
            true,
        ),
        case(
            "`verify`",
            0,
            vec![j(&[
                "verify", "tiny", "--mean", "4.0", "--games", "1000", "--sd", "2", "--json",
            ])],
            None,
            true,
        ),
        case(
            "`race`",
            0,
            vec![
                j(&["race", "tiny", "efi", "--json"]),
                j(&["race", "tiny", "--distribution", "--json"]),
            ],
            None,
            false,
        ),
        case(
            "`generate`",
            0,
            vec![j(&["generate", "--size", "20", "--snakes", "2", "--json"])],
            None,
            true,
        ),
        case(
            "`simulate --players K` and `check --players K`",
            0,
            vec![
                j(&[
                    "simulate",
                    "tiny",
                    "--players",
                    "2",
                    "-n",
                    "1000",
                    "--seed",
                    "1",
                    "--json",
                ]),
                j(&[
                    "simulate",
                    "seed-003",
                    "--players",
                    "2",
                    "-n",
                    "1000",
                    "--seed",
                    "1",
                    "--json",
                ]),
            ],
            None,
            false,
        ),
        case(
            "`simulate --players K` and `check --players K`",
            1,
            vec![j(&[
                "check",
                "tiny",
                "--players",
                "2",
                "-n",
                "1000",
                "--seed",
                "1",
                "--json",
            ])],
            Some("check"),
            false,
        ),
    ]
}

#[test]
fn every_key_the_json_page_lists_is_in_the_output() {
    let sections = sections();
    let mut tables_checked = 0;
    for case in cases() {
        let (_, tables) = sections
            .iter()
            .find(|(h, _)| h == case.heading)
            .unwrap_or_else(|| panic!("no section {}", case.heading));
        let documented = &tables[case.table];
        assert!(!documented.is_empty(), "{}", case.heading);
        let mut seen = BTreeSet::new();
        for run in &case.runs {
            seen.extend(keys(run, case.under));
            if case.one_board {
                assert!(
                    run["board"]["name"].is_string() && run["rules"]["die"].is_number(),
                    "{}",
                    case.heading
                );
            }
        }
        for key in documented {
            assert!(
                seen.contains(key),
                "{} documents {key:?}; printed {seen:?}",
                case.heading
            );
        }
        tables_checked += 1;
    }
    // Every table on the page is covered.
    let tables: usize = sections.iter().map(|(_, t)| t.len()).sum();
    assert_eq!(tables_checked, tables);
}

/// The ```json blocks of `text`, in order.
fn json_blocks(text: &str) -> Vec<&str> {
    text.split("```json\n")
        .skip(1)
        .map(|rest| rest.split("\n```").next().unwrap())
        .collect()
}

/// The page's JSON examples, parsed.
fn page_examples() -> Vec<Value> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json-output.md"))
        .unwrap();
    let blocks = json_blocks(&page);
    blocks
        .iter()
        .map(|b| serde_json::from_str(b).unwrap())
        .collect()
}

#[test]
fn the_page_exact_example_is_what_expect_tiny_prints() {
    // E[T] = 4 on tiny, worked by hand in boards/tiny.toml.
    assert_eq!(
        json_of(&["expect", "tiny", "--json"])["expected_turns"],
        page_examples()[0]
    );
}

#[test]
fn the_page_interval_example_is_what_race_tiny_prints_and_holds_the_truth() {
    // Two seats on tiny: the game lasts at least n rounds when neither has finished before, so
    // E[rounds] = sum_(m >= 0) P(T > m)^2 with P(T > m) = (m + 1)/2^m (tests/it/cli_distribution):
    // sum (m + 1)^2 x^m = (1 + x)/(1 - x)^3 at x = 1/4 is (5/4)/(27/64) = 80/27.
    let example = &page_examples()[1];
    let v = json_of(&["race", "tiny", "--players", "2", "--digits", "3", "--json"]);
    assert_eq!(&v["expected_rounds"], example);
    let truth = BigRational::new(80.into(), 27.into());
    assert!(exact(&example["lo"]) <= truth && truth <= exact(&example["hi"]));
    assert_eq!(example["certified"], "2.963"); // 80/27 = 2.96296...
}

#[test]
fn every_json_block_in_the_docs_is_one_of_the_pages_checked_examples() {
    // The two blocks of docs/json-output.md are checked above; any other would be unchecked.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        files.push(entry.unwrap().path());
    }
    let mut found = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        let n = json_blocks(&text).len();
        if n > 0 {
            found.push((file.file_name().unwrap().to_string_lossy().into_owned(), n));
        }
    }
    assert_eq!(found, [("json-output.md".to_string(), 2)]);
    assert_eq!(page_examples().len(), 2);
}

#[test]
fn optimize_and_boards_print_the_keys_their_prose_names() {
    // The optimize and boards sections are prose: their keys, as the page names them.
    let v = json_of(&["optimize", "course", "--json"]);
    for key in [
        "choice",
        "states",
        "policy",
        "others",
        "optimal_expected_turns",
        "evaluations",
        "bellman_holds",
        "board",
        "rules",
    ] {
        assert!(v.get(key).is_some(), "optimize: {key}");
    }
    let v = json_of(&["optimize", "course", "--within", "5", "--json"]);
    for key in ["within", "best_chance", "policy"] {
        assert!(v.get(key).is_some(), "optimize --within: {key}");
    }
    let v = json_of(&["boards", "--json"]);
    for b in v.as_array().unwrap() {
        assert_eq!(
            keys(b, None),
            ["default", "name", "size", "summary", "title"]
                .map(String::from)
                .into()
        );
    }
    let v = json_of(&["race", "tiny", "--players", "2..3", "--json"]);
    assert_eq!(
        keys(&v, None),
        ["board", "races", "rules"].map(String::from).into()
    );
}

#[test]
fn generate_json_describes_the_file_it_would_write() {
    let v = json_of(&[
        "generate",
        "--size",
        "20",
        "--snakes",
        "2",
        "--ladders",
        "1",
        "--seed",
        "5",
        "--json",
    ]);
    let plain = ladders()
        .args([
            "generate",
            "--size",
            "20",
            "--snakes",
            "2",
            "--ladders",
            "1",
            "--seed",
            "5",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(v["file"].as_str().unwrap().as_bytes(), plain.as_slice());
    assert_eq!(v["seed"], 5);
    assert_eq!(v["board"]["snakes"].as_array().unwrap().len(), 2);
    assert_eq!(v["board"]["ladders"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["board"]["name"],
        "Generated: 20 squares, 2 snakes, 1 ladder, seed 5"
    );
    assert!(v["written_to"].is_null());
    let out = ladders()
        .args(["generate", "--size", "20", "--json", "--output", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
