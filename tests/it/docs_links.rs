//! The docs point at things that exist: every relative link of README.md and docs/*.md names a
//! file of the repository (and, with `#anchor`, one of its headings), every path quoted in
//! backticks under `src/`, `tests/`, `benches/` or `boards/` exists, and nothing cites a
//! directory outside the repository (the seed documents are cited by name).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(page: &Path) -> Vec<String> {
    std::fs::read_to_string(page)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// The `(target)` of every `[text](target)` on the page, with its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((i + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn relative_links_name_files_and_headings_that_exist() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            if target.starts_with("http") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let ok = path.exists()
                && (anchor.is_empty()
                    || path.is_dir()
                    || anchors(&path).iter().any(|a| a == anchor));
            if !ok {
                broken.push(format!("{}:{line}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn quoted_repository_paths_exist_and_nothing_outside_is_cited() {
    let mut missing = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("shared/") {
                missing.push(format!("{}:{}: cites shared/", page.display(), i + 1));
            }
            for (k, quoted) in line.split('`').enumerate() {
                let is_path = k % 2 == 1
                    && ["src/", "tests/", "benches/", "boards/"]
                        .iter()
                        .any(|p| quoted.starts_with(p))
                    && !quoted.contains([' ', '*', '<', '{']);
                if is_path && !root().join(quoted.split(':').next().unwrap()).exists() {
                    missing.push(format!("{}:{}: {quoted}", page.display(), i + 1));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited paths missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" Races: several players (--players K, --knock-off)"),
        "races-several-players---players-k---knock-off"
    );
    assert_eq!(
        slug(" Start-up: everything but the solve"),
        "start-up-everything-but-the-solve"
    );
}
