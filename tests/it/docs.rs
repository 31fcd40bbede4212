//! Every command shown in a ```console block of README.md and docs/*.md is run, and its output
//! must match what the page shows, so the docs cannot rot. A line `...` in the shown output
//! stands for any number of lines. A block opened with ```console,ignore is not run (commands
//! that take long, need tools CI does not have, or are not `ladders` commands), and the line
//! before it must say why in a comment `<!-- not run by tests/it/docs.rs: REASON -->`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

struct Example {
    file: PathBuf,
    line: usize,
    args: Vec<String>,
    expected: Vec<String>,
}

fn split_args(command: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    args.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            _ => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(current);
    }
    args
}

fn examples(file: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, line) in text.lines().enumerate() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.starts_with("```") {
            out.extend(current.take());
            in_block = false;
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            let args = split_args(command);
            if args.first().map(String::as_str) == Some("ladders") {
                current = Some(Example {
                    file: file.to_path_buf(),
                    line: i + 1,
                    args: args[1..].to_vec(),
                    expected: Vec::new(),
                });
            }
        } else if let Some(example) = current.as_mut() {
            example.expected.push(line.to_string());
        }
    }
    out
}

/// True when `actual` matches `expected`, where a `...` line skips any number of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a.trim_end() == first.trim_end() && matches(rest, more)),
    }
}

#[test]
fn every_console_example_in_the_docs_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = doc_files();
    let mut ran = 0;
    let mut failures = Vec::new();
    for file in &files {
        for ex in examples(file) {
            let output = Command::cargo_bin("ladders")
                .unwrap()
                .current_dir(root)
                .args(&ex.args)
                .output()
                .unwrap();
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            let actual: Vec<&str> = text.lines().collect();
            if !matches(&ex.expected, &actual) {
                failures.push(format!(
                    "{}:{}: ladders {}\n--- shown\n{}\n--- printed\n{}",
                    ex.file.display(),
                    ex.line,
                    ex.args.join(" "),
                    ex.expected.join("\n"),
                    text
                ));
            }
            ran += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 3, "only {ran} examples found");
}

/// The markdown files whose console examples are run: README.md and docs/*.md.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files
}

/// The ```console,ignore blocks of `text` whose previous line does not give the reason, by line.
fn unexplained_ignores(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i].trim_end() == "```console,ignore")
        .filter(|&i| {
            let before = if i == 0 { "" } else { lines[i - 1].trim() };
            let reason = before
                .strip_prefix("<!-- not run by tests/it/docs.rs:")
                .and_then(|r| r.strip_suffix("-->"));
            reason.is_none_or(|r| r.trim().is_empty())
        })
        .map(|i| i + 1)
        .collect()
}

#[test]
fn every_console_block_that_is_not_run_says_why() {
    let mut ignored = 0;
    let mut unexplained = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        ignored += text
            .lines()
            .filter(|l| l.trim_end() == "```console,ignore")
            .count();
        for line in unexplained_ignores(&text) {
            unexplained.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(
        unexplained.is_empty(),
        "```console,ignore without `<!-- not run by tests/it/docs.rs: REASON -->` on the line before: {}",
        unexplained.join(", ")
    );
    assert!(ignored >= 1, "the check saw no ignored block at all");
}

#[test]
fn an_ignored_block_needs_a_reason_on_the_line_before() {
    let ok = "<!-- not run by tests/it/docs.rs: needs perf -->\n```console,ignore\n$ perf\n```\n";
    assert!(unexplained_ignores(ok).is_empty());
    let bare = "text\n```console,ignore\n$ perf\n```\n";
    assert_eq!(unexplained_ignores(bare), [2]);
    let empty = "<!-- not run by tests/it/docs.rs: -->\n```console,ignore\n";
    assert_eq!(unexplained_ignores(empty), [2]);
}

#[test]
fn the_matcher_honours_ellipsis_lines() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&e(&["a", "..."]), &["a"]));
    assert!(!matches(&e(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&e(&["a"]), &["a", "b"]));
}
