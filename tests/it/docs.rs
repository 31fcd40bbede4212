//! Every command shown in a ```console block of README.md and docs/*.md is run, and its output
//! must match what the page shows, so the docs cannot rot. A line `...` in the shown output
//! stands for any number of lines. A command may end in `> FILE`: its standard output goes to
//! FILE (only its standard error is compared), and every command of that block runs in a fresh
//! scratch directory, so a later command can read FILE and nothing is written into the
//! repository (such a block uses built-in boards or files it wrote). Every console block is
//! run: a block that shows `ladders`' output is a transcript and is checked, however long it
//! takes (the three-player knock-off race of docs/race.md, about 14 s, is the longest). Commands
//! a developer types that show no output (`cargo bench`, `perf`, `valgrind`,
//! `benches/peers.sh`) are not transcripts: they stand in ```sh blocks, without prompts, and are
//! not run; a ```console block may not be opened as anything else (`console,ignore`).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

struct Example {
    file: PathBuf,
    line: usize,
    args: Vec<String>,
    /// The file of `> FILE` at the end of the command, which takes its standard output.
    stdout_to: Option<String>,
    /// The line of the block's opening fence when a command of the block writes a file: the
    /// block then runs in a scratch directory of its own.
    scratch: Option<usize>,
    expected: Vec<String>,
}

/// The arguments of a shown command, and the file of a final `> FILE` (outside quotes).
fn command_args(command: &str) -> (Vec<String>, Option<String>) {
    if let Some((before, file)) = command.trim_end().rsplit_once(" > ") {
        let file = file.trim();
        let unquoted = before.matches('"').count() % 2 == 0;
        if unquoted && !file.is_empty() && !file.contains([' ', '"']) {
            return (split_args(before), Some(file.to_string()));
        }
    }
    (split_args(command), None)
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
    let mut block: Vec<Example> = Vec::new();
    let mut opened = 0;
    let mut current: Option<Example> = None;
    for (i, line) in text.lines().enumerate() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            opened = i + 1;
            continue;
        }
        if line.starts_with("```") {
            block.extend(current.take());
            if block.iter().any(|ex| ex.stdout_to.is_some()) {
                block.iter_mut().for_each(|ex| ex.scratch = Some(opened));
            }
            out.append(&mut block);
            in_block = false;
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            block.extend(current.take());
            let (args, stdout_to) = command_args(command);
            if args.first().map(String::as_str) == Some("ladders") {
                current = Some(Example {
                    file: file.to_path_buf(),
                    line: i + 1,
                    args: args[1..].to_vec(),
                    stdout_to,
                    scratch: None,
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
    let mut scratch = std::collections::BTreeSet::new();
    for file in &files {
        for ex in examples(file) {
            let dir = ex
                .scratch
                .map_or(root.to_path_buf(), |line| scratch_dir(file, line));
            if ex.scratch.is_some() {
                scratch.insert(dir.clone());
            }
            let output = Command::cargo_bin("ladders")
                .unwrap()
                .current_dir(&dir)
                .args(&ex.args)
                .output()
                .unwrap();
            let mut text = String::new();
            match &ex.stdout_to {
                Some(name) => std::fs::write(dir.join(name), &output.stdout).unwrap(),
                None => text.push_str(&String::from_utf8_lossy(&output.stdout)),
            }
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
    for dir in scratch {
        std::fs::remove_dir_all(dir).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 3, "only {ran} examples found");
}

/// The scratch directory of the block opened at `line` of `file` (under the system's temporary
/// directory, one per test process; the test removes it at the end).
fn scratch_dir(file: &Path, line: usize) -> PathBuf {
    let stem = file.file_stem().unwrap().to_string_lossy();
    let dir =
        std::env::temp_dir().join(format!("ladders-docs-{}-{stem}-{line}", std::process::id()));
    if !dir.exists() {
        std::fs::create_dir_all(&dir).unwrap();
    }
    dir
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

/// The lines (from 1) of the fences that open a console block other than ```console, which
/// the runner would skip (```console,ignore and the like).
fn unrun_console_blocks(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_end();
            l.starts_with("```console") && l != "```console"
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn every_console_block_is_run() {
    let mut unrun = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in unrun_console_blocks(&text) {
            unrun.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(
        unrun.is_empty(),
        "console blocks the docs test would not run (a transcript is run; commands without \
         output go in a ```sh block): {}",
        unrun.join(", ")
    );
}

#[test]
fn a_console_block_opened_as_anything_else_is_found() {
    let text = "```console\n$ ladders boards\n```\n```console,ignore\n$ perf\n```\n\
                ```sh\ncargo bench\n```\n";
    assert_eq!(unrun_console_blocks(text), [4]);
}

#[test]
fn a_redirected_command_writes_a_file_the_next_command_of_its_block_reads() {
    let text = "```console\n$ ladders a > out.csv\n$ ladders b out.csv\nshown\n```\n\
                ```console\n$ ladders c \">\" x\n```\n";
    let dir = std::env::temp_dir().join(format!("ladders-docs-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("page.md");
    std::fs::write(&file, text).unwrap();
    let found = examples(&file);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].args, ["a"]);
    assert_eq!(found[0].stdout_to.as_deref(), Some("out.csv"));
    assert_eq!(found[1].args, ["b", "out.csv"]);
    assert_eq!(found[1].stdout_to, None);
    assert_eq!(found[1].expected, ["shown"]);
    // The whole first block runs in one scratch directory, named by its opening line.
    assert_eq!((found[0].scratch, found[1].scratch), (Some(1), Some(1)));
    // A quoted `>` is an argument, and a block without a redirection runs in the repository.
    assert_eq!(found[2].args, ["c", ">", "x"]);
    assert_eq!(
        (found[2].stdout_to.as_deref(), found[2].scratch),
        (None, None)
    );
}

#[test]
fn the_matcher_honours_ellipsis_lines() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&e(&["a", "..."]), &["a"]));
    assert!(!matches(&e(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&e(&["a"]), &["a", "b"]));
}
