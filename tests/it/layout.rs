//! The code's layout rules (`../shared/STYLE.md`, DESIGN.md section 5), kept by a test rather
//! than by memory: every file under `src/` opens with a `//!` module doc, no function has more
//! than 100 lines, the library's modules import one way down the layer table (DESIGN.md
//! section 5), and the library has at most 15 public modules (documented or not). Files are split by concept, never to meet a line count, so their
//! length is not checked. Functions are found as rustfmt lays them out: a line `fn name` (with
//! its qualifiers) whose body ends at the first later line that is its own indentation
//! followed by `}`.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_FUNCTION_LINES: usize = 100;

/// The crate's `src/`.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

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
fn every_source_file_has_a_module_doc_and_no_long_function() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable source file");
        let name = file.display();
        if !text.starts_with("//!") {
            problems.push(format!("{name}: no `//!` module doc on its first line"));
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

/// The layer table of DESIGN.md section 5, by a module's first name under `crate::`: a module
/// may use its own layer and the ones below. `exact` is today's solve and law layer.
/// `generate` makes random board files and checks each with the chain (its traps, its roll-level
/// form): a consumer of the board and the chain, used by the command line, the benchmarks and
/// tests, so it sits with the analyses, above what it reads and below what shows its boards.
/// `test_util` is test code (`#[cfg(test)]`), which this table does not bind.
const LAYERS: &[(&str, u32)] = &[
    ("num", 0),
    ("text", 0),
    ("prec", 0),
    ("progress", 0),
    ("error", 0),
    ("board", 1),
    ("game", 2),
    ("chain", 3),
    ("exact", 4),
    ("solve", 4),
    ("law", 4),
    ("analysis", 5),
    ("generate", 5),
    ("race", 6),
    ("choice", 6),
    ("simulate", 7),
    ("facade", 8),
    ("limits", 8),
    ("report", 9),
];

/// Upward imports in code another helper is reworking, allowed until that work lands: each
/// `(importing file under src/, imported module)`, with why. This list only shrinks.
const ALLOWED_UPWARD: &[(&str, &str)] = &[];

fn layer_of(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// A library source file reached from `lib.rs` through its `mod` declarations: its path, its
/// module's first name under the crate (`""` for `lib.rs`), and whether it is test code (a
/// module declared under `#[cfg(test)]`, or inside one).
struct ModuleFile {
    path: PathBuf,
    top: String,
    test: bool,
}

/// Every file of the library's module tree, from `lib.rs`.
fn library_files() -> Vec<ModuleFile> {
    let mut out = Vec::new();
    let mut stack = vec![ModuleFile {
        path: src().join("lib.rs"),
        top: String::new(),
        test: false,
    }];
    while let Some(file) = stack.pop() {
        let text = fs::read_to_string(&file.path).expect("a readable source file");
        for (name, path_attr, test) in module_declarations(&text) {
            let dir = file.path.parent().expect("a file in a folder");
            let path = match path_attr {
                Some(p) => dir.join(p),
                None => {
                    let stem = file.path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                    let base = match stem {
                        "lib" | "mod" | "main" => dir.to_path_buf(),
                        _ => dir.join(stem),
                    };
                    let flat = base.join(format!("{name}.rs"));
                    if flat.exists() {
                        flat
                    } else {
                        base.join(&name).join("mod.rs")
                    }
                }
            };
            let top = if file.top.is_empty() {
                name.clone()
            } else {
                file.top.clone()
            };
            stack.push(ModuleFile {
                path,
                top,
                test: file.test || test,
            });
        }
        out.push(file);
    }
    out
}

/// The `mod name;` declarations of a file (not inline modules): name, `#[path]`, and whether
/// `#[cfg(test)]` stands above it.
fn module_declarations(text: &str) -> Vec<(String, Option<String>, bool)> {
    let mut out = Vec::new();
    let (mut test, mut path) = (false, None);
    for line in text.lines().map(str::trim) {
        if line == "#[cfg(test)]" {
            test = true;
            continue;
        }
        if let Some(p) = line.strip_prefix("#[path = \"") {
            path = p.strip_suffix("\"]").map(str::to_string);
            continue;
        }
        if line.starts_with("#[") {
            continue;
        }
        let item = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .fold(line, |l, v| l.strip_prefix(v).unwrap_or(l));
        if let Some(name) = item.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
            out.push((name.to_string(), path.take(), test));
        }
        test = false;
        path = None;
    }
    out
}

/// The lines of `text` that are not test code: an item under `#[cfg(test)]` (to its `;` or
/// its closing brace at its own indentation) is dropped, and so are comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() == "#[cfg(test)]" {
            // Skip the attributes, then the item.
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            let item = lines.get(j).copied().unwrap_or("");
            let indent = &item[..item.len() - item.trim_start().len()];
            let close = format!("{indent}}}");
            i = if item.trim_end().ends_with('{') {
                lines[j + 1..]
                    .iter()
                    .position(|l| l.starts_with(&close))
                    .map_or(lines.len(), |k| j + 2 + k)
            } else {
                lines[j..]
                    .iter()
                    .position(|l| l.trim_end().ends_with(';'))
                    .map_or(lines.len(), |k| j + 1 + k)
            };
            continue;
        }
        out.push((i + 1, strip_comment(line).to_string()));
        i += 1;
    }
    out
}

/// `line` without a `//` comment (one outside a string literal).
fn strip_comment(line: &str) -> &str {
    let mut quotes = 0;
    let bytes = line.as_bytes();
    for (k, &b) in bytes.iter().enumerate() {
        match b {
            b'"' if k == 0 || bytes[k - 1] != b'\\' => quotes += 1,
            b'/' if quotes % 2 == 0 && bytes.get(k + 1) == Some(&b'/') => return &line[..k],
            _ => {}
        }
    }
    line
}

/// The first names of the `crate::` paths on a line of code (`crate::chain::Chain` gives
/// `chain`); a grouped `crate::{...}` gives `{`, which the test refuses to read.
fn crate_paths(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find("crate::") {
        let before = rest[..k].chars().next_back();
        rest = &rest[k + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `ladders_crate::`, not this crate
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        out.push(if end == 0 { &rest[..1] } else { &rest[..end] });
    }
    out
}

#[test]
fn the_library_imports_only_its_own_layer_and_the_ones_below() {
    let files = library_files();
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut problems = Vec::new();
    for file in files.iter().filter(|f| !f.test) {
        let text = fs::read_to_string(&file.path).expect("a readable source file");
        let name = file
            .path
            .strip_prefix(src())
            .unwrap_or(&file.path)
            .display()
            .to_string();
        let Some(own) = layer_of(&file.top) else {
            if !file.top.is_empty() {
                problems.push(format!(
                    "src/{name}: module `{}` is not in the layer table",
                    file.top
                ));
            }
            continue;
        };
        for (line, code) in code_lines(&text) {
            for used in crate_paths(&code) {
                let Some(layer) = layer_of(used) else {
                    problems.push(format!(
                        "src/{name}:{line}: `crate::{used}` is not in the layer table"
                    ));
                    continue;
                };
                let allowed = ALLOWED_UPWARD.contains(&(name.as_str(), used));
                if layer > own && !allowed {
                    problems.push(format!(
                        "src/{name}:{line}: `{}` (layer {own}) imports `crate::{used}` (layer {layer})",
                        file.top
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Only the board and the game know the rule variants and which boards change during a game:
/// every other module, the command line's too, reads the capability record
/// (`game::Capabilities`) or runs once, generic over the player's state
/// (`chain::on_player_chain!`). Test code may ask (it builds boards of each kind), and naming a
/// rule's value is not asking (the rule variants `check` tries, clap's `RollAgain::parse`): a
/// line that names a `RollAgain::` variant and matches or compares (`=>`, `==`, `!=`,
/// `matches!`, `if let`) is.
#[test]
fn only_the_board_and_the_game_match_roll_again_variants_or_ask_is_stateful() {
    let variants = [
        "RollAgain::None",
        "RollAgain::Unlimited",
        "RollAgain::Forfeit",
    ];
    let tests = ["=>", "==", "!=", "matches!", "if let", "let Some(RollAgain"];
    let asks = |code: &str| {
        code.contains("is_stateful()")
            || (variants.iter().any(|v| code.contains(v)) && tests.iter().any(|t| code.contains(t)))
    };
    let library = library_files();
    let mut files: Vec<PathBuf> = library
        .iter()
        .filter(|f| !f.test && f.top != "board" && f.top != "game")
        .map(|f| f.path.clone())
        .collect();
    rust_files(&src().join("cli"), &mut files);
    files.push(src().join("main.rs"));
    let mut problems = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).expect("a readable source file");
        for (line, code) in code_lines(&text).into_iter().filter(|(_, c)| asks(c)) {
            problems.push(format!("{}:{line}: {}", path.display(), code.trim()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The reader itself: test items, comments and strings are not code, and a path's first name is
/// its module.
#[test]
fn the_layer_reader_skips_tests_and_comments_and_reads_first_names() {
    let text = "use crate::board::Board;\n// crate::report in a comment\nfn f() {\n    let s = \"a // b\"; crate::chain::Chain::x(); // crate::cli\n}\n#[cfg(test)]\nmod tests {\n    use crate::analysis::expect;\n}\n#[cfg(test)]\nuse crate::report::text;\nuse crate::num::gcd;\n";
    let found: Vec<(usize, Vec<String>)> = code_lines(text)
        .iter()
        .map(|(n, l)| {
            (
                *n,
                crate_paths(l)
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, p)| !p.is_empty())
        .collect();
    assert_eq!(
        found,
        vec![
            (1, vec!["board".to_string()]),
            (4, vec!["chain".to_string()]),
            (12, vec!["num".to_string()]),
        ]
    );
    let decls =
        module_declarations("#[cfg(test)]\n#[path = \"x_tests.rs\"]\nmod tests;\npub mod a;\n");
    assert_eq!(
        decls,
        vec![
            ("tests".to_string(), Some("x_tests.rs".to_string()), true),
            ("a".to_string(), None, false),
        ]
    );
}

/// The most modules the library documents (rustdoc's list: the crate's root and every `pub
/// mod` reached through documented modules, `#[doc(hidden)]` ones left out). A caller meets the
/// façade and a few modules of answers; what the command line still reaches into is hidden.
const MAX_DOCUMENTED_MODULES: usize = 15;

/// The public modules under the module in `file` named `path`, depth first: the documented
/// ones, or with `hidden` the `#[doc(hidden)]` ones too (every module a caller can name). A
/// module written inline (`pub mod internals { ... }`) counts, without looking inside.
fn public_modules(file: &Path, path: &str, hidden: bool, out: &mut Vec<String>) {
    out.push(path.to_string());
    let text = fs::read_to_string(file).expect("a readable source file");
    let mut is_hidden = false;
    for line in text.lines().map(str::trim) {
        if line == "#[doc(hidden)]" {
            is_hidden = true;
            continue;
        }
        if line.starts_with("#[") || line.starts_with("//") {
            continue;
        }
        let counted = !is_hidden || hidden;
        is_hidden = false;
        let Some(rest) = line.strip_prefix("pub mod ") else {
            continue;
        };
        if let Some(name) = rest.strip_suffix(" {") {
            if counted {
                out.push(format!("{path}::{name}"));
            }
            continue;
        }
        let Some(name) = rest.strip_suffix(';') else {
            continue;
        };
        if counted {
            let dir = file.parent().expect("a file in a folder");
            let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let base = match stem {
                "lib" | "mod" => dir.to_path_buf(),
                _ => dir.join(stem),
            };
            let flat = base.join(format!("{name}.rs"));
            let child = match flat.exists() {
                true => flat,
                false => base.join(name).join("mod.rs"),
            };
            public_modules(&child, &format!("{path}::{name}"), hidden, out);
        }
    }
}

/// The most public modules a caller can name, `#[doc(hidden)]` ones included: what the command
/// line, the tests and the benchmarks need below the façade is items in `internals`, not modules.
const MAX_PUBLIC_MODULES: usize = 15;

#[test]
fn the_library_has_at_most_fifteen_public_modules_hidden_ones_included() {
    let mut modules = Vec::new();
    public_modules(&src().join("lib.rs"), "ladders", true, &mut modules);
    // Today: the documented ones and `internals`.
    assert!(
        modules.contains(&"ladders::internals".to_string()),
        "{modules:?}"
    );
    assert!(
        modules.len() <= MAX_PUBLIC_MODULES,
        "{} public modules (at most {MAX_PUBLIC_MODULES}): {modules:#?}; make a module \
         pub(crate) and re-export at its parent, or in `internals`, the items its users need",
        modules.len()
    );
}

#[test]
fn the_library_documents_at_most_fifteen_modules() {
    let mut modules = Vec::new();
    public_modules(&src().join("lib.rs"), "ladders", false, &mut modules);
    // Today: the root (the façade), board, analysis, choice, generate, progress, race, report,
    // simulate.
    assert!(
        modules.contains(&"ladders::analysis".to_string()),
        "{modules:?}"
    );
    assert!(
        modules.len() <= MAX_DOCUMENTED_MODULES,
        "{} documented public modules (at most {MAX_DOCUMENTED_MODULES}): {modules:#?}; make a \
         module private or pub(crate), and re-export the items its users need",
        modules.len()
    );
}
