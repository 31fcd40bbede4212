//! The code's layout rules (issue 15, `../shared/STYLE.md`), kept by a test rather than by
//! memory: every file under `src/` opens with a `//!` module doc and has at most 800 lines, and
//! no function has more than 100. Functions are found as rustfmt lays them out: a line
//! `fn name` (with its qualifiers) whose body ends at the first later line that is its own
//! indentation followed by `}`.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FUNCTION_LINES: usize = 100;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The indentation of a function's first line, or `None` when the line starts no function body.
fn function_start(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    let mut rest = trimmed;
    for qualifier in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let declaration = rest.strip_prefix("fn ")?;
    let named = declaration.starts_with(|c: char| c.is_alphabetic() || c == '_');
    // A declaration without a body (a trait method) ends with `;` on its own line.
    (named && !line.trim_end().ends_with(';')).then_some(indent)
}

/// Each function of `text` longer than the limit: its first line (1-based) and its length.
fn long_functions(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(indent) = function_start(line) else {
            continue;
        };
        if line.trim_end().ends_with('}') {
            continue; // a one-line function
        }
        let close = format!("{indent}}}");
        let end = lines[i + 1..]
            .iter()
            .position(|l| *l == close)
            .map_or(lines.len(), |k| i + 1 + k);
        let length = end - i + 1;
        if length > MAX_FUNCTION_LINES {
            long.push((i + 1, length));
        }
    }
    long
}

#[test]
fn every_source_file_has_a_module_doc_and_keeps_the_size_limits() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable source file");
        let name = file.display();
        if !text.starts_with("//!") {
            problems.push(format!("{name}: no `//!` module doc on its first line"));
        }
        let count = text.lines().count();
        if count > MAX_FILE_LINES {
            problems.push(format!("{name}: {count} lines"));
        }
        for (line, length) in long_functions(&text) {
            problems.push(format!("{name}:{line}: a function of {length} lines"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The function finder itself: it measures a body to its closing brace, skips one-liners and
/// bodiless declarations, and sees methods and qualified functions.
#[test]
fn the_function_finder_measures_bodies_to_their_closing_brace() {
    let body = |n: usize| "    let x = 1;\n".repeat(n);
    let text = format!(
        "fn short() {{\n{}}}\n\nimpl A {{\n    pub(crate) fn long(&self) {{\n{}    }}\n    fn one() {{}}\n    fn declared(&self);\n}}\n",
        body(98),
        body(99)
    );
    // `short` has 100 lines with its braces; `long` 101.
    assert_eq!(long_functions(&text), vec![(103, 101)]);
}
