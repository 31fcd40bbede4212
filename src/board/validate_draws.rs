//! Validation of the parts of a board beyond its squares and jumps: the dice (`die`, `dice`),
//! the start square, the chance squares (`[[chance]]`) and the random tiles (`[tiles]`). Each
//! function adds every problem it finds to the list, as [`super::validate`] does.

use std::collections::BTreeMap;

use super::dice::{Dice, DiceError, MAX_THROW_TOTAL};
use super::draws::{Chance, Probability, Tiles};
use super::{
    BoardSpec, DieSpec, Located, Overshoot, ProbabilitySpec, Problem, Square, MAX_DICE, MAX_DIE,
    MAX_WEIGHT,
};

/// The dice of `spec`, or `None` after adding the problems.
pub(super) fn dice(spec: &BoardSpec, problems: &mut Vec<Problem>) -> Option<Dice> {
    let line = spec.die.line;
    let before = problems.len();
    let weights: Vec<u64> = match &spec.die.value {
        DieSpec::Faces(f) => {
            if !(2..=i64::from(MAX_DIE)).contains(f) {
                problems.push(Problem::new(
                    line,
                    format!("die {f} is not a die: expected a number of faces from 2 to {MAX_DIE}"),
                ));
            }
            vec![1; (*f).clamp(0, i64::from(MAX_DIE)) as usize]
        }
        DieSpec::Weights(w) => {
            if !(2..=MAX_DIE as usize).contains(&w.len()) {
                let values: Vec<i64> = w.iter().map(|v| v.value).collect();
                problems.push(Problem::new(
                    line,
                    format!(
                        "die {values:?} has {} faces: a loaded die has 2 to {MAX_DIE} face weights",
                        w.len()
                    ),
                ));
            }
            let bad: Vec<&Located<i64>> = w
                .iter()
                .filter(|v| !(0..=MAX_WEIGHT as i64).contains(&v.value))
                .collect();
            for v in &bad {
                problems.push(Problem::new(
                    v.line.or(line),
                    format!(
                        "die weight {} is not a weight: expected an integer from 0 to {MAX_WEIGHT}",
                        v.value
                    ),
                ));
            }
            if bad.is_empty() && w.iter().all(|v| v.value == 0) {
                problems.push(Problem::new(
                    line,
                    "die weights are all 0: at least one face must be able to come up".to_string(),
                ));
            }
            w.iter()
                .map(|v| v.value.clamp(0, MAX_WEIGHT as i64) as u64)
                .collect()
        }
    };
    let count = spec.dice.value;
    if !(1..=i64::from(MAX_DICE)).contains(&count) {
        problems.push(Problem::new(
            spec.dice.line,
            format!("dice {count} is not a number of dice: expected 1 to {MAX_DICE}"),
        ));
    }
    if problems.len() > before {
        return None;
    }
    match Dice::new(weights.clone(), count as u32) {
        Ok(d) => Some(d),
        Err(DiceError::AllZero) => None, // reported above
        Err(DiceError::TooHeavy) => {
            let total: u64 = weights.iter().sum();
            problems.push(Problem::new(
                spec.dice.line.or(line),
                format!(
                    "{count} dice of total weight {total} each give a throw law heavier than {MAX_THROW_TOTAL} \
                     (the sum of the face weights to the power of the dice): use fewer dice or \
                     smaller weights"
                ),
            ));
            None
        }
    }
}

/// Checks the start square (0 to N - 1) and, with `bounce`, that no throw can bounce below 0.
pub(super) fn start_and_bounce(
    spec: &BoardSpec,
    size: Option<Square>,
    dice: Option<&Dice>,
    problems: &mut Vec<Problem>,
) {
    let start = spec.start.value;
    let Some(size) = size else { return };
    if !(0..i64::from(size)).contains(&start) {
        problems.push(Problem::new(
            spec.start.line,
            format!(
                "start {start} is not a start: expected 0 (off the board) or a square from 1 to {}",
                size - 1
            ),
        ));
    }
    if let (Overshoot::Bounce, Some(d)) = (spec.overshoot.value, dice) {
        // The largest throw that can come up: a top face of weight 0 never does.
        let largest = d.throws().last().map_or(0, |t| t.sum);
        if largest > size + 1 {
            problems.push(Problem::new(
                spec.overshoot.line.or(spec.die.line),
                format!(
                    "overshoot = \"bounce\" with a largest throw of {} on {size} squares could \
                     bounce below square 0: with bounce the largest throw may be at most {} \
                     (size + 1); use \"stay\" or \"allow\", or a smaller die",
                    largest,
                    size + 1
                ),
            ));
        }
    }
}

/// The chance squares, checked against the board's size and the squares where jumps start.
pub(super) fn chances(
    list: &[Located<super::ChanceSpec>],
    size: Square,
    jumps_from: &BTreeMap<i64, impl Sized>,
    problems: &mut Vec<Problem>,
) -> Vec<Chance> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<i64, Option<usize>> = BTreeMap::new();
    for c in list {
        let before = problems.len();
        let at = c.value.at.value;
        let at_line = c.value.at.line.or(c.line);
        let mut say = |line: Option<usize>, m: String| problems.push(Problem::new(line, m));
        if !(1..i64::from(size)).contains(&at) {
            say(
                at_line,
                format!(
                    "chance square {at} is not on the board: a chance square is from 1 to {}",
                    size - 1
                ),
            );
        }
        if jumps_from.contains_key(&at) {
            say(
                at_line,
                format!(
                    "chance square {at} is also where a snake or ladder starts: a square has one of them"
                ),
            );
        }
        if let Some(other) = seen.insert(at, at_line) {
            let other = other.map(|l| format!(" (line {l})")).unwrap_or_default();
            say(
                at_line,
                format!("chance square {at} is declared twice{other}"),
            );
        }
        let mut to = Vec::new();
        for entry in &c.value.to {
            let line = entry.line.or(c.line);
            match entry.value.as_slice() {
                [sq, w] => {
                    if !(0..=i64::from(size)).contains(sq) {
                        say(line, format!(
                            "chance {at}: destination {sq} is outside the board: destinations are 0 to {size}"
                        ));
                    }
                    if !(0..=MAX_WEIGHT as i64).contains(w) {
                        say(line, format!(
                            "chance {at}: weight {w} is not a weight: expected an integer from 0 to {MAX_WEIGHT}"
                        ));
                    }
                    if *w > 0 {
                        to.push((*sq as Square, *w as u64));
                    }
                }
                other => say(
                    line,
                    format!(
                        "chance {at}: each destination is a pair [square, weight], found {}",
                        crate::text::echo_plain(&format!("{other:?}"))
                    ),
                ),
            }
        }
        if to.is_empty() && c.value.to.iter().all(|e| e.value.len() == 2) {
            say(c.value.to.first().and_then(|e| e.line).or(at_line), format!(
                "chance {at}: the weights add up to 0: at least one destination needs a positive weight"
            ));
        }
        if problems.len() == before {
            let total = to.iter().map(|(_, w)| w).sum();
            out.push(Chance {
                at: at as Square,
                to,
                total,
            });
        }
    }
    out
}

/// The random tiles, if declared and valid.
pub(super) fn tiles(
    spec: Option<&Located<super::TilesSpec>>,
    size: Square,
    problems: &mut Vec<Problem>,
) -> Option<Tiles> {
    let t = spec?;
    let before = problems.len();
    let length = t.value.length.value;
    if !(1..i64::from(size)).contains(&length) {
        problems.push(Problem::new(
            t.value.length.line.or(t.line),
            format!(
                "tiles length {length} is not a length: expected 1 to {}",
                size - 1
            ),
        ));
    }
    let mut prob = |name: &str, p: &Located<ProbabilitySpec>| -> Option<Probability> {
        let line = p.line.or(t.line);
        let parsed = match &p.value {
            ProbabilitySpec::Text(s) => Probability::parse(s),
            ProbabilitySpec::Integer(i @ (0 | 1)) => Ok(Probability::new(*i as u64, 1).expect("0 or 1")),
            ProbabilitySpec::Integer(i) => Err(format!("{i} is not a probability: expected 0, 1 or a string such as \"1/10\"")),
            ProbabilitySpec::Float(f) => Err(format!(
                "{f} is a float, which is not exact: write the probability as a string, {name} = \"{f}\" or a fraction such as \"1/10\""
            )),
        };
        parsed
            .map_err(|m| problems.push(Problem::new(line, format!("tiles {name}: {m}"))))
            .ok()
    };
    let snake = prob("snake", &t.value.snake);
    let ladder = prob("ladder", &t.value.ladder);
    if let (Some(p), Some(q)) = (snake, ladder) {
        // p + q <= 1: a/b + c/d <= 1 <=> a d + c b <= b d (all below 2^20).
        if p.numer() * q.denom() + q.numer() * p.denom() > p.denom() * q.denom() {
            problems.push(Problem::new(
                t.value.ladder.line.or(t.line),
                format!("tiles snake {p} and ladder {q} add up to more than 1"),
            ));
        }
    }
    if problems.len() > before {
        return None;
    }
    Some(Tiles {
        length: length as u32,
        snake: snake?,
        ladder: ladder?,
    })
}
