//! Validation of a [`BoardSpec`] into a [`Board`]: collects every problem at once, each with the
//! line of the board file it is on, so a user fixes a file in one pass.

use std::collections::BTreeMap;
use std::fmt;

use crate::text::{printable, unprintable, MAX_NAME_CHARS, MAX_SOURCE_CHARS};

use super::{validate_draws, validate_state};
use super::{
    Board, BoardSpec, ChoiceRule, Dice, Jump, Located, RollAgain, RollAgainSpec, RollOn, Rules,
    Square, SumSet, MAX_ROLL_AGAIN, MAX_SIZE,
};

/// One thing wrong with a board, with the line of the board file it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// The 1-based line, when the value came from a file.
    pub line: Option<usize>,
    /// What is wrong and what would be valid, lowercase, no trailing period.
    pub message: String,
}

impl Problem {
    /// A problem at `line`.
    pub fn new(line: Option<usize>, message: impl Into<String>) -> Problem {
        Problem {
            line,
            message: message.into(),
        }
    }
}

/// Everything wrong with one board file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BoardError {
    /// The file (or `builtin:NAME`) the problems are in.
    pub origin: String,
    /// The problems, in line order, at most `MAX_PROBLEMS_SHOWN` (50); never empty.
    pub problems: Vec<Problem>,
    /// How many more problems were found and not kept.
    pub more: usize,
}

/// At most this many problems are kept and printed; the rest are counted ("... and 2,799,950
/// more").
pub const MAX_PROBLEMS_SHOWN: usize = 50;

impl BoardError {
    /// An error with several problems (the first `MAX_PROBLEMS_SHOWN` (50) in line order kept).
    pub fn new(origin: &str, mut problems: Vec<Problem>) -> BoardError {
        problems.sort_by_key(|p| p.line);
        let more = problems.len().saturating_sub(MAX_PROBLEMS_SHOWN);
        problems.truncate(MAX_PROBLEMS_SHOWN);
        BoardError {
            origin: origin.to_string(),
            problems,
            more,
        }
    }

    /// An error with one problem.
    pub fn single(origin: &str, line: Option<usize>, message: String) -> BoardError {
        BoardError::new(origin, vec![Problem::new(line, message)])
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            // Messages quote values and keys from the file: escaped like the origin.
            let (origin, message) = (printable(&self.origin), printable(&p.message));
            match p.line {
                Some(line) => write!(f, "{origin}:{line}: {message}")?,
                None => write!(f, "{origin}: {message}")?,
            }
        }
        if self.more > 0 {
            let more = crate::text::count(self.more as u64, "more problem");
            write!(f, "\n{}: ... and {more}", printable(&self.origin))?;
        }
        Ok(())
    }
}

impl std::error::Error for BoardError {}

/// The jump starting on each square, with its kind, as written (for duplicate and cycle messages).
type JumpsBySquare<'a> = BTreeMap<i64, (&'a str, &'a Located<(i64, i64)>)>;

/// Whether the size is from 2 to [`MAX_SIZE`]; a problem when not.
fn size_fits(spec: &BoardSpec, problems: &mut Vec<Problem>) -> bool {
    let size = spec.size.value;
    let fits = (2..=i64::from(MAX_SIZE)).contains(&size);
    if !fits {
        problems.push(Problem::new(
            spec.size.line,
            if size < 2 {
                format!("size {size} is too small: a board needs a finish square of at least 2")
            } else {
                format!("size {size} is larger than the limit of {MAX_SIZE} squares")
            },
        ));
    }
    fits
}

pub(super) fn validate(mut spec: BoardSpec) -> Result<Board, BoardError> {
    // What the reading found comes first, with everything else wrong with the board.
    let mut problems = std::mem::take(&mut spec.read_problems);
    check_text(&mut spec, &mut problems);
    let size = spec.size.value;
    let size_ok = size_fits(&spec, &mut problems);
    let dice = validate_draws::dice(&spec, &mut problems);
    let size_sq = size_ok.then_some(size as Square);
    validate_draws::start_and_bounce(&spec, size_sq, dice.as_ref(), &mut problems);
    let start = spec.start.value;
    let roll_again = roll_again(&spec, &mut problems);
    let (snakes, ladders, by_square) = jumps(&spec, size_ok.then_some(size), &mut problems);

    let choice = super::validate_choices::choice(
        &spec.choices,
        size_sq,
        spec.overshoot.value == super::Overshoot::Bounce,
        dice.as_ref(),
        roll_again,
        &mut problems,
    );
    let enter = enter(&spec, dice.as_ref(), choice.as_ref(), &mut problems);
    let roll_again_on = roll_again_on(&spec, &mut problems);
    jump_turns(
        &spec,
        &by_square,
        choice.as_ref(),
        roll_again,
        &mut problems,
    );
    let (chances, tiles, state) = match size_sq {
        Some(n) => {
            let chances = validate_draws::chances(&spec.chance, n, &by_square, &mut problems);
            let chance_squares = spec.chance.iter().map(|c| c.value.at.value).collect();
            let state =
                validate_state::state_squares(&spec, n, &by_square, &chance_squares, &mut problems);
            let tiles = validate_draws::tiles(spec.tiles.as_ref(), n, &mut problems);
            (chances, tiles, state)
        }
        None => (Vec::new(), None, Default::default()),
    };
    if let Some(rule) = &choice {
        let jumps = [&snakes[..], &ladders[..]].concat();
        let changes = !state.by_square.is_empty();
        choice_needs(&spec, rule, changes, &jumps, &chances, &mut problems);
    }
    if !problems.is_empty() {
        return Err(BoardError::new(&spec.origin, problems));
    }
    let dice = dice.expect("no problems, so the dice are valid");
    let dice = with_roll_again_on(dice, roll_again_on, roll_again);

    let size = size as Square;
    let mut chance_at = vec![u32::MAX; size as usize + 1];
    for (i, c) in chances.iter().enumerate() {
        chance_at[c.at as usize] = i as u32;
    }
    let mut jump_once: Vec<Square> = (0..=size).collect();
    for j in snakes.iter().chain(&ladders) {
        jump_once[j.from as usize] = j.to;
    }
    let chain = spec.chain.value;
    if chain {
        report_cycles(&jump_once, &by_square, &mut problems);
        if !problems.is_empty() {
            return Err(BoardError::new(&spec.origin, problems));
        }
    }

    let rules = Rules {
        start: start as Square,
        overshoot: spec.overshoot.value,
        die: dice.faces(),
        dice: dice.count(),
        roll_again,
        chain,
        enter,
        roll_again_on,
        jump_takes_turn: spec.jump_takes_turn.value,
    };
    let chained = resolve_chains(&rules, choice.as_ref(), &jump_once, &chance_at, &state);
    Ok(Board {
        spec,
        size,
        snakes,
        ladders,
        rules,
        jump_once,
        chained,
        dice,
        chances,
        chance_at,
        tiles,
        state,
        choice,
    })
}

/// The whole chain of fixed jumps from each square, resolved once (`chain = true`). A chain
/// through a chance square or a one-use jump depends on the game; a declinable jump ends a chain
/// where the player chooses, and a jump that takes a turn (`jump_takes_turn`) ends the move: no
/// chain is resolved ahead of them.
fn resolve_chains(
    rules: &Rules,
    choice: Option<&ChoiceRule>,
    jump_once: &[Square],
    chance_at: &[u32],
    state: &super::StateSquares,
) -> Vec<Option<super::chained::Chained>> {
    let declines = matches!(choice, Some(ChoiceRule::Decline(_)));
    if !rules.chain || declines || rules.jump_takes_turn {
        return Vec::new();
    }
    let once = |t: Square| state.by_square.get(t as usize).is_some_and(|b| b.0 > 0);
    super::chained::resolve(jump_once, &|t| chance_at[t as usize] != u32::MAX || once(t))
}

/// What a choice rule needs of the board (docs/model.md, "Choices"): no square that changes
/// the player's state (`changes`); for `decline` also no random tiles, and with `chain = true`
/// no jump ending on a chance square (a draw after a jump taken would come between two choices
/// of one move).
fn choice_needs(
    spec: &BoardSpec,
    rule: &super::ChoiceRule,
    changes: bool,
    jumps: &[Jump],
    chances: &[super::Chance],
    problems: &mut Vec<Problem>,
) {
    let line = spec.choices.line_of(rule);
    if changes {
        problems.push(Problem::new(
            line,
            format!(
                "{} needs a board without once, points, lose_turn or extra_turn squares \
                 (choices on a board that changes during the game are not modelled yet)",
                rule.key()
            ),
        ));
    }
    if !matches!(rule, super::ChoiceRule::Decline(_)) {
        return;
    }
    if spec.tiles.is_some() {
        problems.push(Problem::new(
            line,
            "decline needs a board without [tiles] (a tile drawn where the player may decline \
             is not modelled)"
                .to_string(),
        ));
    }
    let onto_chance = jumps
        .iter()
        .find(|j| spec.chain.value && chances.iter().any(|c| c.at == j.to));
    if let Some(j) = onto_chance {
        problems.push(Problem::new(
            line,
            format!(
                "decline with chain = true needs no jump ending on a chance square, found {} -> \
                 {} (a draw after a jump taken is not modelled)",
                j.from, j.to
            ),
        ));
    }
}

/// `jump_takes_turn = true`: refused where a jump turn is not defined (DESIGN.md section 1,
/// docs/model.md): with random tiles, with a choice rule, with `chain = true` and a jump ending
/// on a chance square, a jump ending on a points, lost-turn or extra-turn square (a jump turn has
/// no move for them to act on), and a lost-turn square a turn can go on from (a top throw there
/// rolls again, or it also gives an extra roll) on a board with jumps, where a turn could end
/// owing a lost turn with a jump pending.
fn jump_turns(
    spec: &BoardSpec,
    by_square: &JumpsBySquare<'_>,
    choice: Option<&ChoiceRule>,
    roll_again: RollAgain,
    problems: &mut Vec<Problem>,
) {
    let rule = &spec.jump_takes_turn;
    if !rule.value {
        return;
    }
    let mut fault = |line, message: String| problems.push(Problem::new(line, message));
    if spec.tiles.is_some() {
        fault(
            rule.line,
            "jump_takes_turn cannot be combined with [tiles]: a tile is a jump drawn where a \
             move lands, and which turn it would take is not defined"
                .to_string(),
        );
    }
    if let Some(c) = choice {
        fault(
            rule.line,
            format!(
                "jump_takes_turn cannot be combined with {} (a choice rule): a player who \
                 chooses on a board whose jumps take turns is not modelled yet",
                c.key()
            ),
        );
    }
    let listed = |list: &[Located<i64>], sq: i64| list.iter().any(|l| l.value == sq);
    let points = |sq: i64| spec.points.iter().any(|p| p.value.first() == Some(&sq));
    for (kind, jump) in by_square.values() {
        let (from, to) = jump.value;
        let chance = spec.chance.iter().any(|c| c.value.at.value == to);
        let (what, chained) = if spec.chain.value && chance {
            ("chance square", " and chain = true")
        } else if points(to) {
            ("points square", "")
        } else if listed(&spec.lose_turn, to) {
            ("lost-turn square", "")
        } else if listed(&spec.extra_turn, to) {
            ("extra-turn square", "")
        } else {
            continue;
        };
        fault(
            jump.line,
            format!(
                "{kind} {from} -> {to} ends on the {what} {to}: with jump_takes_turn{chained} a \
                 jump turn ending there is not defined (a jump turn has no roll)"
            ),
        );
    }
    if by_square.is_empty() {
        return;
    }
    for lose in &spec.lose_turn {
        let extra = listed(&spec.extra_turn, lose.value);
        if roll_again == RollAgain::None && !extra {
            continue;
        }
        let why = match extra {
            true => "it also gives an extra roll",
            false => "a top throw that ends there rolls again",
        };
        fault(
            lose.line,
            format!(
                "lose_turn {}: with jump_takes_turn a turn could end owing this lost turn with \
                 a jump pending ({why}, and that roll may stop on a jump), which is not defined",
                lose.value
            ),
        );
    }
}

/// The roll-again rule: K must be from 2 to [`MAX_ROLL_AGAIN`].
fn roll_again(spec: &BoardSpec, problems: &mut Vec<Problem>) -> RollAgain {
    match spec.roll_again.value {
        RollAgainSpec::None => RollAgain::None,
        RollAgainSpec::Unlimited => RollAgain::Unlimited,
        RollAgainSpec::Count(k) if (2..=i64::from(MAX_ROLL_AGAIN)).contains(&k) => {
            RollAgain::Forfeit(k as u32)
        }
        RollAgainSpec::Count(k) => {
            problems.push(Problem::new(
                spec.roll_again.line,
                format!(
                    "roll_again {k} is not a rule: the K-th top face in a row forfeits the turn, \
                     so K must be from 2 to {MAX_ROLL_AGAIN} (or \"none\", \"unlimited\")"
                ),
            ));
            RollAgain::None
        }
    }
}

/// The dice whose throws roll again as `roll_again_on` says: doubles change which throws roll
/// again, so only under a roll-again rule.
fn with_roll_again_on(dice: Dice, on: RollOn, roll_again: RollAgain) -> Dice {
    match (on, roll_again) {
        (RollOn::Double, RollAgain::Unlimited | RollAgain::Forfeit(_)) => dice.with_doubles(),
        _ => dice,
    }
}

/// `roll_again_on`: `"double"` needs two or more dice (a double is every die on one face).
fn roll_again_on(spec: &BoardSpec, problems: &mut Vec<Problem>) -> RollOn {
    let rule = spec.roll_again_on.value;
    if rule == RollOn::Double && spec.dice.value == 1 {
        problems.push(Problem::new(
            spec.roll_again_on.line,
            "roll_again_on = \"double\" needs two or more dice (dice = 2 or more): a double is \
             every die on the same face, so with one die every throw would be one",
        ));
    }
    rule
}

/// `enter = [sums]`: only with `start = 0` and no choice rule, a non-empty list of distinct
/// sums the dice can throw (`dice`, when they are valid).
fn enter(
    spec: &BoardSpec,
    dice: Option<&Dice>,
    choice: Option<&ChoiceRule>,
    problems: &mut Vec<Problem>,
) -> Option<SumSet> {
    let list = spec.enter.as_ref()?;
    let mut fault = |line, message: String| problems.push(Problem::new(line, message));
    if spec.start.value != 0 {
        fault(
            list.line,
            format!(
                "enter needs start = 0: it says which throws take a token off square 0 onto the \
                 board, and this board starts on square {}",
                spec.start.value
            ),
        );
    }
    if let Some(rule) = choice {
        fault(
            list.line,
            format!(
                "enter cannot be combined with {} (a move the player chooses): which throws \
                 enter is defined for the board's dice alone",
                rule.key()
            ),
        );
    }
    if list.value.is_empty() {
        fault(
            list.line,
            "enter = [] lets no throw enter the board: list the sums that enter, e.g. \
             enter = [6]"
                .to_string(),
        );
    }
    let possible: Vec<u32> = dice.map_or_else(Vec::new, |d| {
        d.throws().iter().map(|t| t.sum).collect::<Vec<_>>()
    });
    let mut seen = Vec::new();
    for sum in &list.value {
        let s = sum.value;
        if seen.contains(&s) {
            fault(
                sum.line,
                format!("enter lists the sum {s} twice: each sum once"),
            );
        } else if s > i64::from(SumSet::MAX) && dice.is_some() {
            fault(
                sum.line,
                format!(
                    "enter {s} is past the largest sum enter can list ({})",
                    SumSet::MAX
                ),
            );
        } else if dice.is_some() && !u32::try_from(s).is_ok_and(|s| possible.contains(&s)) {
            fault(
                sum.line,
                format!(
                    "enter {s} is not a sum the dice can throw: expected one of {}",
                    sums_text(&possible)
                ),
            );
        }
        seen.push(s);
    }
    let sums = seen.iter().filter_map(|&s| u32::try_from(s).ok());
    Some(SumSet::of(sums.filter(|s| possible.contains(s))))
}

/// Sums for a message: `1 to 6` when they run without a gap, else each of them.
fn sums_text(sums: &[u32]) -> String {
    match (sums.first(), sums.last()) {
        (Some(a), Some(b)) if (b - a) as usize + 1 == sums.len() && sums.len() > 2 => {
            format!("{a} to {b}")
        }
        _ => {
            let each: Vec<String> = sums.iter().map(u32::to_string).collect();
            each.join(", ")
        }
    }
}

/// The snakes and ladders whose ends are on the board (`size`, when it is valid) and go the
/// right way, and the jump from each square; a problem for each that does not, and for a square
/// with two jumps.
fn jumps<'a>(
    spec: &'a BoardSpec,
    size: Option<i64>,
    problems: &mut Vec<Problem>,
) -> (Vec<Jump>, Vec<Jump>, JumpsBySquare<'a>) {
    let mut by_square: JumpsBySquare = BTreeMap::new();
    let mut snakes = Vec::new();
    let mut ladders = Vec::new();
    for (kind, list, out) in [
        ("snake", &spec.snakes, &mut snakes),
        ("ladder", &spec.ladders, &mut ladders),
    ] {
        for jump in list {
            let (from, to) = jump.value;
            let before = problems.len();
            // Only formatted for a message: most boards have none.
            let name = || format!("{kind} {from} -> {to}");
            if let Some(size) = size {
                if from < 1 || from > size {
                    problems.push(Problem::new(
                        jump.line,
                        format!(
                            "{} starts outside the board: squares are 1 to {size}",
                            name()
                        ),
                    ));
                } else if from == size {
                    problems.push(Problem::new(
                        jump.line,
                        format!(
                            "{} starts on the finish ({size}): the game ends there",
                            name()
                        ),
                    ));
                }
                if to < 0 || to > size {
                    problems.push(Problem::new(
                        jump.line,
                        format!(
                            "{} ends outside the board: destinations are 0 (the start) to {size} (the finish)",
                            name()
                        ),
                    ));
                }
            }
            if to == from {
                problems.push(Problem::new(
                    jump.line,
                    format!(
                        "{} goes nowhere: a {kind} must end on another square",
                        name()
                    ),
                ));
            } else if kind == "snake" && to > from {
                problems.push(Problem::new(
                    jump.line,
                    format!(
                        "{} goes up: a snake goes down (to < from); is it a ladder?",
                        name()
                    ),
                ));
            }
            if kind == "ladder" && to < from {
                problems.push(Problem::new(
                    jump.line,
                    format!(
                        "{} goes down: a ladder goes up (to > from); is it a snake?",
                        name()
                    ),
                ));
            }
            if let Some((other_kind, other)) = by_square.get(&from) {
                let other_line = other
                    .line
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default();
                problems.push(Problem::new(
                    jump.line,
                    format!(
                        "square {from} has two jumps: {other_kind} {} -> {}{other_line} and {}",
                        other.value.0,
                        other.value.1,
                        name()
                    ),
                ));
            } else {
                by_square.insert(from, (kind, jump));
            }
            if problems.len() == before && size.is_some() {
                out.push(Jump {
                    from: from as Square,
                    to: to as Square,
                });
            }
        }
    }
    (snakes, ladders, by_square)
}

/// Free text is printed: an unnamed board's name (its file name) is escaped, a written `name`
/// or `source` must be printable and not longer than its limit.
fn check_text(spec: &mut BoardSpec, problems: &mut Vec<Problem>) {
    if spec.name == spec.origin {
        spec.name = printable(&spec.name);
    }
    spec.origin = printable(&spec.origin);
    let fields = [
        ("name", Some(spec.name.as_str()), MAX_NAME_CHARS),
        ("source", spec.source.as_deref(), MAX_SOURCE_CHARS),
    ];
    for (key, text, limit) in fields {
        let Some(text) = text else { continue };
        let chars = text.chars().count();
        if chars > limit {
            problems.push(Problem::new(
                None,
                format!("{key} has {chars} characters: the limit is {limit}"),
            ));
        }
        if let Some((at, c)) = unprintable(text) {
            problems.push(Problem::new(
                None,
                format!(
                    "{key} contains the control character {} at character {at}: {key} is \
                     printed as text, so it may not hold control characters or direction overrides",
                    c.escape_unicode()
                ),
            ));
        }
    }
}

/// Finds every cycle of jumps (each reported once, by its squares in jump order).
fn report_cycles(jump_once: &[Square], by_square: &JumpsBySquare, problems: &mut Vec<Problem>) {
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut mark = vec![0u8; jump_once.len()];
    for &first in by_square.keys() {
        let first = first as usize;
        if mark[first] != 0 {
            continue;
        }
        let mut path = Vec::new();
        let mut s = first;
        while mark[s] == 0 && jump_once[s] as usize != s {
            mark[s] = 1;
            path.push(s);
            s = jump_once[s] as usize;
        }
        if mark[s] == 1 {
            let at = path.iter().position(|&p| p == s).unwrap_or(0);
            let cycle = &path[at..];
            let squares: Vec<String> = cycle
                .iter()
                .chain(std::iter::once(&s))
                .map(|q| q.to_string())
                .collect();
            let line = by_square.get(&(s as i64)).and_then(|(_, j)| j.line);
            problems.push(Problem::new(
                line,
                format!(
                    "the jumps form a cycle {} (with chain = true a token would never stop); \
                     remove one of them or set chain = false",
                    squares.join(" -> ")
                ),
            ));
        }
        for p in path {
            mark[p] = 2;
        }
    }
}
