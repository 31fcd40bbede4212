//! The help a user reads (issue 19, items 10 to 12): every subcommand's `--help` as an insta
//! snapshot, every example it shows run for real, the rule options' values and defaults, conflicting
//! options refused with exit 2, and the completions and man pages generated from the same clap
//! definition.

use std::process::Output;

use crate::common::{ladders, stdout_of};

/// Every subcommand, as `ladders --help` lists them.
pub(crate) const SUBCOMMANDS: [&str; 18] = [
    "analyze",
    "expect",
    "distribution",
    "shortest",
    "simulate",
    "check",
    "verify",
    "pgf",
    "race",
    "draw",
    "squares",
    "sensitivity",
    "optimize",
    "generate",
    "import",
    "boards",
    "completions",
    "man",
];

fn help(args: &[&str]) -> String {
    let all: Vec<&str> = args.iter().copied().chain(["--help"]).collect();
    stdout_of(&all)
}

#[test]
fn every_subcommand_help_matches_its_snapshot() {
    insta::assert_snapshot!("help_ladders", help(&[]));
    for name in SUBCOMMANDS {
        insta::assert_snapshot!(format!("help_{name}"), help(&[name]));
    }
}

#[test]
fn the_top_level_help_lists_exactly_these_subcommands() {
    let text = help(&[]);
    let listed: Vec<&str> = text
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert_eq!(listed, SUBCOMMANDS);
}

/// The example lines of a help text: `  ladders ...` after `Examples:`.
fn examples(text: &str) -> Vec<Vec<String>> {
    let section = text
        .split("Examples:\n")
        .nth(1)
        .expect("an Examples section");
    section
        .lines()
        .take_while(|l| l.starts_with("  ladders"))
        .map(|l| shell_words(l).into_iter().skip(1).collect())
        .collect()
}

/// A command line's words as a shell splits them: at spaces, except inside single quotes
/// (which are removed).
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn every_help_shows_examples_and_the_exit_codes_and_every_example_runs() {
    let dir = std::env::temp_dir().join(format!("ladders-help-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ran = 0;
    for name in std::iter::once("").chain(SUBCOMMANDS) {
        let args: Vec<&str> = if name.is_empty() { vec![] } else { vec![name] };
        let text = help(&args);
        assert!(
            text.contains("\nExit codes: 0 success, 1 a check failed, 2 bad usage or input, 3 the output could not be written\n"),
            "{name}: {text}"
        );
        let list = examples(&text);
        assert!(list.len() >= 2, "{name}: at least two examples");
        for example in list {
            if example.first().map(String::as_str) == Some(name) || name.is_empty() {
                let out: Output = ladders().args(&example).current_dir(&dir).output().unwrap();
                // 0, or 1 for a check that failed: never bad usage (2) or a crash.
                assert!(
                    matches!(out.status.code(), Some(0) | Some(1)),
                    "ladders {}: {:?}\n{}",
                    example.join(" "),
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                );
                // An answer on standard output, or the file named by --output.
                match example.iter().position(|a| a == "--output") {
                    Some(i) => assert!(dir.join(&example[i + 1]).is_file(), "{example:?}"),
                    None => assert!(!out.stdout.is_empty(), "ladders {}", example.join(" ")),
                }
                ran += 1;
            } else {
                panic!("{name}: example {example:?} is for another subcommand");
            }
        }
    }
    assert!(ran >= 35, "{ran} examples");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rule_options_show_their_values_and_that_the_board_rule_is_the_default() {
    let text = help(&["expect"]);
    assert!(
        text.contains("Rule overrides (default: the board's own rules):\n"),
        "{text}"
    );
    assert!(text.contains("--overshoot <stay|bounce|allow>"), "{text}");
    assert!(text.contains("--roll-again <none|unlimited|K>"), "{text}");
    // The output options stay under Options, not under the rules' heading.
    let options = text.split("Rule overrides").next().unwrap();
    assert!(
        options.contains("--digits <DIGITS>") && options.contains("[default: 12]"),
        "{text}"
    );
}

fn refused(args: &[&str], says: &str) {
    let out = ladders().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "ladders {}", args.join(" "));
    assert!(out.stdout.is_empty(), "ladders {}", args.join(" "));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(says), "ladders {}: {err}", args.join(" "));
}

#[test]
fn conflicting_options_are_refused_not_dropped() {
    refused(
        &[
            "simulate",
            "tiny",
            "-n",
            "10",
            "--json",
            "--histogram-csv",
            "-",
        ],
        "--json and --histogram-csv - both write to standard output",
    );
    refused(
        &["simulate", "tiny", "-n", "10", "--json", "--svg", "-"],
        "--json and --svg - both write to standard output",
    );
    refused(
        &["distribution", "tiny", "--turns", "5", "--tail", "1e-3"],
        "cannot be used with",
    );
    refused(
        &["distribution", "tiny", "--chart", "--exact"],
        "cannot be used with",
    );
    refused(
        &["race", "tiny", "--knock-off", "--distribution"],
        "cannot be used with",
    );
    refused(&["race", "tiny", "--state-limit", "10"], "--knock-off");
    refused(&["race", "tiny", "--exact-limit", "10"], "--knock-off");
    // A file for the histogram and JSON on standard output do not conflict.
    let path = std::env::temp_dir().join(format!("ladders-hist-{}.csv", std::process::id()));
    ladders()
        .args([
            "simulate",
            "tiny",
            "-n",
            "10",
            "--seed",
            "1",
            "--json",
            "--histogram-csv",
        ])
        .arg(&path)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("turns,games\n"));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn completions_cover_every_subcommand_and_option_in_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell}: {name}");
        }
        // Options of deferred subcommands are there too (built before generating).
        for option in ["overshoot", "knock-off", "histogram-csv", "per-square"] {
            assert!(script.contains(option), "{shell}: {option}");
        }
    }
    refused(&["completions", "tcsh"], "invalid value 'tcsh'");
}

#[test]
fn the_readme_installs_a_man_page_for_every_subcommand() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("for c in ")
        .expect("the README's man page loop");
    let end = start + readme[start..].find("; do").expect("its `; do`");
    let listed: Vec<&str> = readme[start + "for c in ".len()..end]
        .split_whitespace()
        .filter(|w| *w != "\\")
        .collect();
    assert_eq!(listed, SUBCOMMANDS);
}

#[test]
fn man_pages_are_roff_for_ladders_and_each_subcommand() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH ladders 1"), "{page}");
    for name in SUBCOMMANDS {
        assert!(page.contains(&format!("ladders\\-{name}")), "{name}");
    }
    let page = stdout_of(&["man", "expect"]);
    assert!(page.contains(".TH ladders-expect 1"), "{page}");
    assert!(page.contains("\\fB\\-\\-per\\-square\\fR"), "{page}");
    refused(
        &["man", "expekt"],
        "no subcommand \"expekt\": expected one of analyze, expect",
    );
}
