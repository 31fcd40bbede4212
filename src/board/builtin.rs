//! The built-in boards: the files in `boards/`, embedded in the binary and usable by name.

use super::{Board, Jump};

/// A board shipped with `ladders`.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinBoard {
    /// The name to use on the command line.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// The board file's text.
    pub text: &'static str,
}

/// The board used when none is named.
pub const DEFAULT_BOARD: &str = "milton-bradley";

/// A built-in board: its name, its summary, and the text of `boards/<name>.toml`.
macro_rules! builtin {
    ($name:literal, $summary:literal) => {
        BuiltinBoard {
            name: $name,
            summary: $summary,
            text: include_str!(concat!("../../boards/", $name, ".toml")),
        }
    };
}

/// Every built-in board, in the order `ladders boards` lists them.
pub const BUILTIN_BOARDS: [BuiltinBoard; 7] = [
    builtin!("milton-bradley", "Chutes and Ladders as a 2011 programming exercise gives it (chute 47 -> 26): start off the board, a roll past 100 is lost"),
    builtin!("milton-bradley-48", "the same board in its other common layout, with the chute 48 -> 26"),
    builtin!("efi", "the Efi board of a Java newsletter's simulator (2021): start on square 1, bounce back from 100, a six rolls again"),
    builtin!("random-tiles", "a blog post's random-tile model: 20 squares, each landing draws a snake (1/10), a ladder (1/10) or nothing"),
    builtin!("course", "a dynamic-programming course's board: 50 squares, each turn the player chooses a d4 or a d6 (ladders optimize)"),
    builtin!("seed-003", "a student project's game: 20 x 10 squares, 3 snakes, 3 ladders that break after one use, 6 apples worth points"),
    builtin!("tiny", "four squares and a coin, small enough to solve by hand (E[T] = 4)"),
];

/// The names of the built-in boards.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN_BOARDS.iter().map(|b| b.name)
}

/// The built-in boards whose names are close to `name` (a likely typo or a shortened name such
/// as `milton`), closest first.
pub fn near_builtin_names(name: &str) -> Vec<&'static str> {
    let mut near: Vec<(f64, &'static str)> = builtin_names()
        .map(|b| (strsim::jaro_winkler(name, b), b))
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    near.sort_by(|a, b| b.0.total_cmp(&a.0));
    near.into_iter().map(|(_, b)| b).collect()
}

/// A built-in board that is another layout of a board: the same squares and rules, every snake
/// and ladder the same but one.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OtherLayout {
    /// The built-in board's name.
    pub name: &'static str,
    /// The board.
    pub board: Board,
    /// The jump of the board that the other layout does not have.
    pub here: Jump,
    /// The jump the other layout has instead.
    pub there: Jump,
}

/// The built-in boards that are another layout of `board` (Milton Bradley's chute 47 -> 26 or
/// 48 -> 26: two layouts circulate as "the" board): the same size, rules and dice, no chance
/// squares, tiles or stateful squares on either, and every snake and ladder the same but one.
pub fn other_layouts(board: &Board) -> Vec<OtherLayout> {
    let plain = |b: &Board| !b.is_stateful() && b.chances().is_empty() && b.tiles().is_none();
    let jumps = |b: &Board| -> std::collections::HashSet<Jump> {
        b.snakes().iter().chain(b.ladders()).copied().collect()
    };
    if !plain(board) {
        return Vec::new();
    }
    let mine = jumps(board);
    BUILTIN_BOARDS
        .iter()
        .filter_map(|b| {
            let other = builtin(b.name)?;
            let same_game = other.size() == board.size()
                && other.rules() == board.rules()
                && other.dice() == board.dice()
                && plain(&other);
            if !same_game {
                return None;
            }
            let theirs = jumps(&other);
            let here: Vec<&Jump> = mine.difference(&theirs).collect();
            let there: Vec<&Jump> = theirs.difference(&mine).collect();
            match (here.as_slice(), there.as_slice()) {
                ([&here], [&there]) => Some(OtherLayout {
                    name: b.name,
                    board: other,
                    here,
                    there,
                }),
                _ => None,
            }
        })
        .collect()
}

/// The built-in board called `name`, if there is one.
///
/// # Panics
///
/// Never: every shipped board is valid (`every_builtin_board_is_valid` and the invariant tests
/// over `boards/` check each one), so validation cannot fail here.
///
/// # Examples
///
/// ```
/// let tiny = ladders::board::builtin("tiny").expect("a built-in board");
/// assert_eq!(tiny.size(), 4);
/// assert!(ladders::board::builtin("no-such-board").is_none());
/// ```
pub fn builtin(name: &str) -> Option<Board> {
    let b = BUILTIN_BOARDS.iter().find(|b| b.name == name)?;
    let board = Board::from_toml_str(b.text, &format!("builtin:{}", b.name));
    Some(board.unwrap_or_else(|e| panic!("the built-in board {} is invalid: {e}", b.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_catch_typos_and_shortened_names() {
        assert_eq!(
            near_builtin_names("milton")[..2],
            ["milton-bradley", "milton-bradley-48"]
        );
        assert_eq!(near_builtin_names("tinny"), ["tiny"]);
        assert!(near_builtin_names("zzz").is_empty());
    }

    #[test]
    fn the_two_milton_bradley_layouts_are_each_others_other_layout() {
        let mb = builtin("milton-bradley").unwrap();
        let layouts = other_layouts(&mb);
        assert_eq!(layouts.len(), 1);
        assert_eq!(layouts[0].name, "milton-bradley-48");
        assert_eq!(layouts[0].here, Jump { from: 47, to: 26 });
        assert_eq!(layouts[0].there, Jump { from: 48, to: 26 });
        let back = other_layouts(&builtin("milton-bradley-48").unwrap());
        assert_eq!(
            back.iter().map(|l| l.name).collect::<Vec<_>>(),
            ["milton-bradley"]
        );
        // Other rules make another game, not another layout.
        let bounce = mb
            .with_rules(&crate::board::RuleOverrides {
                overshoot: Some(crate::board::Overshoot::Bounce),
                ..Default::default()
            })
            .unwrap();
        assert!(other_layouts(&bounce).is_empty());
        assert!(other_layouts(&builtin("efi").unwrap()).is_empty());
    }

    #[test]
    fn every_builtin_board_is_valid() {
        for b in BUILTIN_BOARDS {
            let board = builtin(b.name).expect("listed");
            assert!(board.size() >= 2, "{}", b.name);
        }
        assert!(builtin(DEFAULT_BOARD).is_some());
    }

    #[test]
    fn the_two_milton_bradley_layouts_differ_only_in_one_chute() {
        let a = builtin("milton-bradley").unwrap();
        let b = builtin("milton-bradley-48").unwrap();
        assert_eq!(a.jump_from(47), Some(26));
        assert_eq!(a.jump_from(48), None);
        assert_eq!(b.jump_from(48), Some(26));
        assert_eq!(b.jump_from(47), None);
        assert_eq!(a.ladders(), b.ladders());
        assert_eq!(a.rules(), b.rules());
    }
}
