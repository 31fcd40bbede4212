//! The choice rules of a board (docs/model.md, "Choices"): `choose_die`, `coin`, `pick`,
//! `choose_face` and `decline` in the `[rules]` table, as written ([`ChoicesSpec`]) and once validated
//! ([`ChoiceRule`]). A board has at most one choice rule; the player who follows a policy is
//! modelled in [`crate::choice`].

use super::{Dice, Located, Problem, RollAgain, MAX_DIE};

/// The most dice `choose_die` may list.
pub const MAX_CHOOSE_DIE: usize = 8;
/// The most dice `pick` may roll.
pub const MAX_PICK: i64 = 6;
/// The largest number of equally likely throws `pick` may enumerate (faces^pick).
pub const MAX_PICK_THROWS: u64 = 1 << 20;

/// The choice rules as written in a board file or on the command line (none by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChoicesSpec {
    /// `choose_die = [4, 6]`: the fair dice to choose from before each roll.
    pub choose_die: Option<Located<Vec<i64>>>,
    /// `coin = true`: a coin the player may flip after each roll.
    pub coin: Option<Located<bool>>,
    /// `pick = 2`: roll this many dice, move by one of them.
    pub pick: Option<Located<i64>>,
    /// `choose_face = true`: the player picks the die's face.
    pub choose_face: Option<Located<bool>>,
    /// `decline = "ladders"`: the player may refuse the jumps of this kind a move lands on.
    pub decline: Option<Located<Declinable>>,
}

/// The jumps a player of the `decline` rule may refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declinable {
    /// `"ladders"`.
    Ladders,
    /// `"snakes"`.
    Snakes,
    /// `"jumps"`: both.
    Jumps,
}

impl Declinable {
    /// The kind named `name` in a board file.
    pub fn from_name(name: &str) -> Option<Declinable> {
        match name {
            "ladders" => Some(Declinable::Ladders),
            "snakes" => Some(Declinable::Snakes),
            "jumps" => Some(Declinable::Jumps),
            _ => None,
        }
    }

    /// The kind's name in a board file.
    pub fn name(self) -> &'static str {
        match self {
            Declinable::Ladders => "ladders",
            Declinable::Snakes => "snakes",
            Declinable::Jumps => "jumps",
        }
    }

    /// Whether the jump from `from` to `to` is of this kind.
    pub fn covers(self, from: u32, to: u32) -> bool {
        match self {
            Declinable::Ladders => to > from,
            Declinable::Snakes => to < from,
            Declinable::Jumps => true,
        }
    }
}

impl ChoicesSpec {
    /// Replaces the rules set in `other`.
    pub fn merge(&mut self, other: &ChoicesSpec) {
        if other.choose_die.is_some() {
            self.choose_die.clone_from(&other.choose_die);
        }
        if other.coin.is_some() {
            self.coin.clone_from(&other.coin);
        }
        if other.pick.is_some() {
            self.pick.clone_from(&other.pick);
        }
        if other.choose_face.is_some() {
            self.choose_face.clone_from(&other.choose_face);
        }
        if other.decline.is_some() {
            self.decline.clone_from(&other.decline);
        }
    }

    /// The line that sets `rule`, when it was read from a file.
    pub fn line_of(&self, rule: &ChoiceRule) -> Option<usize> {
        match rule {
            ChoiceRule::ChooseDie(_) => self.choose_die.as_ref().and_then(|l| l.line),
            ChoiceRule::Coin => self.coin.as_ref().and_then(|l| l.line),
            ChoiceRule::Pick(_) => self.pick.as_ref().and_then(|l| l.line),
            ChoiceRule::ChooseFace => self.choose_face.as_ref().and_then(|l| l.line),
            ChoiceRule::Decline(_) => self.decline.as_ref().and_then(|l| l.line),
        }
    }
}

/// A validated choice rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChoiceRule {
    /// Before each roll the player picks one of these dice (fair, thrown `dice` at a time, in
    /// the order written); the board's own `die` is not used.
    ChooseDie(Vec<Dice>),
    /// After each roll's move (and its jumps and draw), unless the game is over, the player may
    /// flip a fair coin: heads one square forward, tails one back ([`crate::game::nudge`]).
    Coin,
    /// The player throws this many of the board's dice and moves by the one they choose.
    Pick(u32),
    /// The player picks the face of the board's die (a face of weight 0 cannot be picked).
    ChooseFace,
    /// The player may refuse a jump of this kind that a move lands on (or, with `chain = true`,
    /// that a jump leads to): the token stays on its square ([`crate::game::roll_deciding`]).
    Decline(Declinable),
}

impl ChoiceRule {
    /// The rule's key in a board file.
    pub fn key(&self) -> &'static str {
        match self {
            ChoiceRule::ChooseDie(_) => "choose_die",
            ChoiceRule::Coin => "coin",
            ChoiceRule::Pick(_) => "pick",
            ChoiceRule::ChooseFace => "choose_face",
            ChoiceRule::Decline(_) => "decline",
        }
    }
}

/// Validates the choice rules against the board's dice, size and roll-again rule.
pub(super) fn choice(
    spec: &ChoicesSpec,
    size: Option<u32>,
    bounce: bool,
    dice: Option<&Dice>,
    roll_again: RollAgain,
    problems: &mut Vec<Problem>,
) -> Option<ChoiceRule> {
    let mut rules: Vec<(Option<usize>, ChoiceRule)> = Vec::new();
    if let Some(list) = &spec.choose_die {
        if let Some(r) = choose_die(list, size, bounce, dice, problems) {
            rules.push((list.line, r));
        }
    }
    if let Some(Located { value: true, line }) = &spec.coin {
        rules.push((*line, ChoiceRule::Coin));
    }
    if let Some(Located { value: true, line }) = &spec.choose_face {
        rules.push((*line, ChoiceRule::ChooseFace));
    }
    if let Some(Located { value, line }) = &spec.decline {
        rules.push((*line, ChoiceRule::Decline(*value)));
    }
    if let Some(pick) = &spec.pick {
        let faces = dice.map_or(1, |d| u64::from(d.faces()));
        match pick.value {
            k if !(2..=MAX_PICK).contains(&k) => problems.push(Problem::new(
                pick.line,
                format!("pick {k} is not a rule: the player throws from 2 to {MAX_PICK} dice"),
            )),
            k if faces
                .checked_pow(k as u32)
                .is_none_or(|t| t > MAX_PICK_THROWS) =>
            {
                problems.push(Problem::new(
                    pick.line,
                    format!(
                        "pick {k} with a {faces}-sided die has more than {MAX_PICK_THROWS} \
                         throws to enumerate: throw fewer dice or use a smaller die"
                    ),
                ))
            }
            k => rules.push((pick.line, ChoiceRule::Pick(k as u32))),
        }
    }
    let (line, rule) = match rules.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [first, second, ..] => {
            problems.push(Problem::new(
                second.0,
                format!(
                    "{} and {} are both set: a board has at most one choice rule",
                    first.1.key(),
                    second.1.key()
                ),
            ));
            return None;
        }
    };
    if roll_again != RollAgain::None {
        problems.push(Problem::new(
            line,
            format!(
                "{} needs roll_again = \"none\" (choices inside a turn of several rolls are not \
                 modelled yet), found roll_again = {roll_again}",
                rule.key()
            ),
        ));
    }
    let several = dice.is_some_and(|d| d.count() > 1);
    if several && matches!(rule, ChoiceRule::Pick(_) | ChoiceRule::ChooseFace) {
        problems.push(Problem::new(
            line,
            format!("{} needs dice = 1 (one die per throw)", rule.key()),
        ));
    }
    Some(rule)
}

fn choose_die(
    list: &Located<Vec<i64>>,
    size: Option<u32>,
    bounce: bool,
    dice: Option<&Dice>,
    problems: &mut Vec<Problem>,
) -> Option<ChoiceRule> {
    let count = dice.map_or(1, Dice::count);
    let bad = |message: String, problems: &mut Vec<Problem>| {
        problems.push(Problem::new(list.line, message));
        None
    };
    if !(2..=MAX_CHOOSE_DIE).contains(&list.value.len()) {
        return bad(
            format!(
                "choose_die {} lists {} dice: list from 2 to {MAX_CHOOSE_DIE} numbers of \
                 faces, e.g. choose_die = [4, 6]",
                crate::text::echo_plain(&format!("{:?}", list.value)),
                list.value.len()
            ),
            problems,
        );
    }
    let mut out = Vec::new();
    for (i, &f) in list.value.iter().enumerate() {
        if !(2..=i64::from(MAX_DIE)).contains(&f) || list.value[..i].contains(&f) {
            return bad(
                format!(
                    "choose_die {}: each die is a different number of faces from 2 to {MAX_DIE}, \
                     found {f}",
                    crate::text::echo_plain(&format!("{:?}", list.value))
                ),
                problems,
            );
        }
        let Ok(d) = Dice::fair(f as u32, count) else {
            return bad(
                format!("choose_die: {count} dice of {f} faces are too many to enumerate"),
                problems,
            );
        };
        if let (true, Some(n)) = (bounce, size) {
            if d.max_sum() > n + 1 {
                return bad(
                    format!(
                        "choose_die: a throw of {} would bounce below square 0 on a board of \
                         size {n} (with overshoot = \"bounce\" the largest throw is at most {})",
                        d.max_sum(),
                        n + 1
                    ),
                    problems,
                );
            }
        }
        out.push(d);
    }
    Some(ChoiceRule::ChooseDie(out))
}
