//! Policy files: a table square -> choice that a user writes (docs/optimal-play.md, "Policy
//! files"), as CSV (`square,choice` lines) or TOML (a `[policy]` table).
//!
//! ```text
//! # CSV: a square, a range of squares, or * (every square not listed)
//! square,choice
//! *,keep
//! 27,flip
//! 40-45,flip
//! ```
//!
//! The square is the one the player stands on when the choice comes: the turn's square for
//! `choose_die`, `choose_face` and `pick`, the square the roll led to for `coin`. Choices:
//! `d4` (or `4`) for `choose_die`; `keep` or `flip` for `coin`; a face for `choose_face`; for
//! `pick`, `highest`, `lowest` or an order of preference such as `6>5>4>3>2>1` (the first face
//! shown in that order is moved); `take` or `decline` for `decline`, on the square of the jump.
//! [`runs`] writes a policy back as such lines, in runs of squares.

use crate::text::printable;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use thiserror::Error;

use super::{Choice, Game, NodeKey, Policy};
use crate::board::{ChoiceRule, Square};

/// A problem with a policy file: the file, the line when there is one, and what is wrong and
/// what is valid.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub struct PolicyFileError {
    /// The file's name.
    pub origin: String,
    /// The 1-based line, when the problem is on one.
    pub line: Option<usize>,
    /// What is wrong, and what is valid.
    pub message: String,
}

impl PolicyFileError {
    fn new(origin: &str, line: Option<usize>, message: String) -> PolicyFileError {
        PolicyFileError {
            origin: origin.to_string(),
            line,
            message,
        }
    }
}

impl fmt::Display for PolicyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", printable(&self.origin), self.message),
            None => write!(f, "{}: {}", printable(&self.origin), self.message),
        }
    }
}

/// One line of a policy file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    line: usize,
    /// Inclusive range of squares; `None` for `*`.
    squares: Option<(Square, Square)>,
    choice: String,
}

/// A policy file as read: its lines, not yet matched to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyFile {
    origin: String,
    entries: Vec<Entry>,
}

/// Reads a policy file: TOML when the name ends in `.toml`, CSV otherwise.
///
/// # Errors
///
/// A message naming the file, the line and what is valid.
pub fn load(path: &Path) -> Result<PolicyFile, PolicyFileError> {
    let origin = path.display().to_string();
    let text = read_capped(path, &origin)?;
    if path.extension().is_some_and(|e| e == "toml") {
        parse_toml(&text, &origin)
    } else {
        parse_csv(&text, &origin)
    }
}

/// The most bytes a policy file may have (one line per square: a few kilobytes on the largest
/// boards); `/dev/zero` is refused after this many, not at the memory limit.
pub const MAX_POLICY_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The policy file's text, refused with its size past [`MAX_POLICY_FILE_BYTES`] (a file's size
/// is checked before reading; a pipe or a device is read no further than the limit).
fn read_capped(path: &Path, origin: &str) -> Result<String, PolicyFileError> {
    let fail = |message: String| PolicyFileError::new(origin, None, message);
    let cannot_read = |e: std::io::Error| fail(format!("cannot read the file: {e}"));
    let file = std::fs::File::open(path).map_err(cannot_read)?;
    let len = file.metadata().map_err(cannot_read)?.len();
    if len > MAX_POLICY_FILE_BYTES {
        return Err(fail(format!(
            "the file is {} bytes, more than the limit of {} for a policy file",
            crate::text::thousands(len),
            crate::text::thousands(MAX_POLICY_FILE_BYTES)
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_POLICY_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot_read)?;
    if bytes.len() as u64 > MAX_POLICY_FILE_BYTES {
        return Err(fail(format!(
            "more than {} bytes, the limit for a policy file",
            crate::text::thousands(MAX_POLICY_FILE_BYTES)
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "byte {} is not UTF-8 text",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

fn squares(
    text: &str,
    origin: &str,
    line: usize,
) -> Result<Option<(Square, Square)>, PolicyFileError> {
    let text = text.trim();
    if text == "*" {
        return Ok(None);
    }
    let bad = || {
        let message = format!(
            "{} is not a square: expected a square (27), a range (40-45) or *",
            crate::text::echo(text)
        );
        PolicyFileError::new(origin, Some(line), message)
    };
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: Square = a.trim().parse().map_err(|_| bad())?;
    let b: Square = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    Ok(Some((a, b)))
}

/// Parses CSV text (`square,choice` per line; `#` comments; an optional header).
///
/// # Errors
///
/// A message naming the line.
pub fn parse_csv(text: &str, origin: &str) -> Result<PolicyFile, PolicyFileError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() || body.eq_ignore_ascii_case("square,choice") {
            continue;
        }
        let Some((sq, choice)) = body.split_once(',') else {
            return Err(PolicyFileError::new(
                origin,
                Some(line),
                format!(
                    "expected `square,choice` (for example `27,flip`), found {}",
                    crate::text::echo(body)
                ),
            ));
        };
        entries.push(Entry {
            line,
            squares: squares(sq, origin, line)?,
            choice: choice.trim().to_string(),
        });
    }
    Ok(PolicyFile {
        origin: origin.to_string(),
        entries,
    })
}

/// Parses TOML text with a `[policy]` table of `"square" = "choice"`.
///
/// # Errors
///
/// A message naming what is wrong.
pub fn parse_toml(text: &str, origin: &str) -> Result<PolicyFile, PolicyFileError> {
    let value: toml::Table = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().replace('\n', " ");
        PolicyFileError::new(origin, None, format!("not TOML: {message}"))
    })?;
    let Some(toml::Value::Table(policy)) = value.get("policy") else {
        return Err(PolicyFileError::new(
            origin,
            None,
            "expected a [policy] table of \"square\" = \"choice\" lines".to_string(),
        ));
    };
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.trim_start().trim_start_matches('"').starts_with(key))
            .map_or(0, |i| i + 1)
    };
    let mut entries = Vec::new();
    for (key, v) in policy {
        let line = line_of(key);
        let choice = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            other => {
                return Err(PolicyFileError::new(
                    origin,
                    Some(line),
                    format!(
                        "the choice for {} is {}, expected a string such as \"flip\"",
                        crate::text::echo(key),
                        crate::text::echo_plain(&other.to_string())
                    ),
                ))
            }
        };
        entries.push(Entry {
            line,
            squares: squares(key, origin, line)?,
            choice,
        });
    }
    Ok(PolicyFile {
        origin: origin.to_string(),
        entries,
    })
}

impl PolicyFile {
    /// The choice text for `square`: the last line covering it, else `*`.
    fn choice_for(&self, square: Square) -> Option<&Entry> {
        let covers = |e: &&Entry| e.squares.is_some_and(|(a, b)| (a..=b).contains(&square));
        self.entries
            .iter()
            .rev()
            .find(covers)
            .or_else(|| self.entries.iter().rev().find(|e| e.squares.is_none()))
    }

    /// The policy this file describes on `game`.
    ///
    /// # Errors
    ///
    /// A square where a choice comes is not covered, or a choice is not one of the rule's.
    pub fn policy(&self, game: &Game) -> Result<Policy, PolicyFileError> {
        let policy = game
            .nodes
            .iter()
            .map(|node| {
                let square = match &node.key {
                    NodeKey::Done | NodeKey::Landed(_) => return Ok(0),
                    NodeKey::Before(s)
                    | NodeKey::After(s)
                    | NodeKey::Shown(s, _)
                    | NodeKey::Offered(s) => *s,
                };
                let entry = self.choice_for(square).ok_or_else(|| {
                    let message = format!(
                        "square {square} has no line, and there is no `*` line for the other \
                         squares"
                    );
                    PolicyFileError::new(&self.origin, None, message)
                })?;
                let at_line =
                    |message| PolicyFileError::new(&self.origin, Some(entry.line), message);
                let wanted = parse_choice(&game.rule, &entry.choice).map_err(|valid| {
                    at_line(format!(
                        "{} is not a choice of {}: expected {valid}",
                        crate::text::echo(&entry.choice),
                        game.rule.key()
                    ))
                })?;
                let found = wanted
                    .iter()
                    .find_map(|c| node.actions.iter().position(|a| a.choice == *c));
                found.ok_or_else(|| {
                    at_line(format!(
                        "{} cannot be chosen on square {square} (open: {})",
                        crate::text::echo(&entry.choice),
                        node.actions
                            .iter()
                            .map(|a| a.choice.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })
            })
            .collect::<Result<Policy, PolicyFileError>>()?;
        Ok(game.by_square(policy))
    }
}

/// The choices a text stands for, in order of preference, or what would be valid.
fn parse_choice(rule: &ChoiceRule, text: &str) -> Result<Vec<Choice>, String> {
    let t = text.trim().to_ascii_lowercase();
    let number = |s: &str| s.trim().parse::<u32>().ok();
    match rule {
        ChoiceRule::ChooseDie(dice) => number(t.trim_start_matches('d'))
            .filter(|f| dice.iter().any(|d| d.faces() == *f))
            .map(|f| vec![Choice::Die(f)])
            .ok_or_else(|| {
                dice.iter()
                    .map(|d| format!("d{}", d.faces()))
                    .collect::<Vec<_>>()
                    .join(" or ")
            }),
        ChoiceRule::Decline(_) => match t.as_str() {
            "take" => Ok(vec![Choice::Take]),
            "decline" => Ok(vec![Choice::Decline]),
            _ => Err("take or decline".to_string()),
        },
        ChoiceRule::Coin => match t.as_str() {
            "flip" => Ok(vec![Choice::Flip]),
            "keep" => Ok(vec![Choice::Keep]),
            _ => Err("keep or flip".to_string()),
        },
        ChoiceRule::ChooseFace => number(&t)
            .map(|f| vec![Choice::Face(f)])
            .ok_or_else(|| "a face of the die".to_string()),
        ChoiceRule::Pick(_) => {
            let faces = 1..=100u32;
            match t.as_str() {
                "highest" => Ok(faces.rev().map(Choice::Face).collect()),
                "lowest" => Ok(faces.map(Choice::Face).collect()),
                order => order
                    .split('>')
                    .map(|f| number(f).map(Choice::Face))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        "highest, lowest or an order of faces such as 6>5>4>3>2>1".to_string()
                    }),
            }
        }
    }
}

/// A run of squares with the same choice: (first, last, the choice as a policy file writes it).
pub type Run = (Square, Square, String);

/// The policy as runs of squares with the same choice (squares where no choice comes are
/// skipped, so a run may cover some). For `pick`, a square's choice is the order of preference
/// of the faces that the policy follows when two faces show.
pub fn runs(game: &Game, policy: &Policy) -> Vec<Run> {
    let mut by_square: BTreeMap<Square, Vec<(Vec<u32>, Choice)>> = BTreeMap::new();
    for (node, &a) in game.nodes.iter().zip(policy) {
        let choice = node.actions[a].choice;
        match &node.key {
            NodeKey::Done | NodeKey::Landed(_) => {}
            NodeKey::Before(s) | NodeKey::After(s) | NodeKey::Offered(s) => {
                by_square.entry(*s).or_default().push((Vec::new(), choice))
            }
            NodeKey::Shown(s, faces) => by_square
                .entry(*s)
                .or_default()
                .push((faces.clone(), choice)),
        }
    }
    let mut out: Vec<Run> = Vec::new();
    for (s, choices) in by_square {
        let text = match choices.as_slice() {
            [(faces, c)] if faces.is_empty() => c.to_string(),
            _ => preference(&choices),
        };
        match out.last_mut() {
            Some(last) if last.2 == text => last.1 = s,
            _ => out.push((s, s, text)),
        }
    }
    out
}

/// The order of preference a `pick` policy follows on one square: faces ranked by how many of
/// the two-face throws they are chosen in.
fn preference(choices: &[(Vec<u32>, Choice)]) -> String {
    let mut wins: BTreeMap<u32, usize> = BTreeMap::new();
    for (faces, c) in choices {
        for f in faces {
            wins.entry(*f).or_insert(0);
        }
        if let (2, Choice::Face(f)) = (faces.len(), c) {
            *wins.entry(*f).or_insert(0) += 1;
        }
    }
    let mut order: Vec<(usize, u32)> = wins.into_iter().map(|(f, w)| (w, f)).collect();
    order.sort_by(|a, b| b.cmp(a));
    order
        .iter()
        .map(|(_, f)| f.to_string())
        .collect::<Vec<_>>()
        .join(">")
}
