//! Random boards for tests and benchmarks (`ladders generate`): a board file in the project's
//! TOML format, with snakes and ladders placed at random under seed 003's constraints.
//!
//! Seed 003 (Vellios and Theologou's board) draws a snake's head and tail uniformly among the
//! squares and redraws until the snake is longer than a row of the board and its head is on no
//! other snake's head; a ladder likewise, and its foot must not touch another ladder's foot or a
//! snake's head. Here the board has rows of `ceil(sqrt(size))` squares, and, so that every
//! generated file is valid whatever the rules, no jump starts on the finish or on another jump's
//! start or end (so jumps never chain and never cycle). A layout from which the finish cannot be
//! reached is drawn again. The same options and seed always give the same file.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::board::{Board, BoardError, RollAgain, Rules, Square, Tiles, MAX_SIZE};
use crate::chain::{Chain, RollLevel};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The finish square N.
    pub size: Square,
    /// Number of snakes.
    pub snakes: usize,
    /// Number of ladders.
    pub ladders: usize,
    /// The seed of the random choices.
    pub seed: u64,
    /// The rules written in the `[rules]` table (`chain` is left at its default).
    pub rules: Rules,
}

/// Why a board could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The size is outside `2..=MAX_SIZE`.
    #[error("size {0} is outside 2..={MAX_SIZE}")]
    Size(Square),
    /// Too many jumps for the board.
    #[error(
        "{jumps} snakes and ladders do not fit on {size} squares under the placement constraints \
         (at most {max})"
    )]
    TooMany {
        /// Snakes plus ladders asked for.
        jumps: usize,
        /// The board size.
        size: Square,
        /// The most this generator places on that size.
        max: usize,
    },
    /// No layout that can be finished was found.
    #[error("no layout from which the finish can be reached was found in {0} attempts")]
    NoLayout(u32),
    /// The generated text did not validate (a bug: report it).
    #[error(transparent)]
    Invalid(#[from] BoardError),
}

/// A square uniform in `1..=n` from SplitMix64 (Lemire's multiply-shift; the bias is below
/// 2^-40 for n < 2^24). SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) is tiny, seeded and the
/// same on every platform, which is all a board needs.
fn random_square(rng: &mut SplitMix64, n: Square) -> Square {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as Square + 1
}

/// The largest number of jumps placed on a board of `size` squares: a third of the squares
/// strictly between the start and the finish, so rejection sampling ends quickly.
pub fn max_jumps(size: Square) -> usize {
    (size.saturating_sub(2) / 3) as usize
}

/// A generated board: the file's text and the validated board it describes.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The board file (TOML).
    pub text: String,
    /// The board.
    pub board: Board,
}

/// Generates a board file.
///
/// # Errors
///
/// See [`GenerateError`].
///
/// # Examples
///
/// ```
/// use ladders::board::Rules;
/// use ladders::generate::{generate, GenerateOptions};
/// let g = generate(&GenerateOptions {
///     size: 100, snakes: 8, ladders: 8, seed: 3, rules: Rules::default(),
/// }).unwrap();
/// assert_eq!(g.board.snakes().len(), 8);
/// assert!(g.board.snakes().iter().all(|s| s.from - s.to > 10));
/// ```
pub fn generate(options: &GenerateOptions) -> Result<Generated, GenerateError> {
    let n = options.size;
    if !(2..=MAX_SIZE).contains(&n) {
        return Err(GenerateError::Size(n));
    }
    let jumps = options.snakes + options.ladders;
    if jumps > max_jumps(n) {
        return Err(GenerateError::TooMany {
            jumps,
            size: n,
            max: max_jumps(n),
        });
    }
    // Rows of ceil(sqrt(N)) squares: a jump is longer than a row.
    let row = (1..=n).find(|w| w * w >= n).unwrap_or(n);
    let mut rng = SplitMix64::seed_from_u64(options.seed);
    const ATTEMPTS: u32 = 100;
    for _ in 0..ATTEMPTS {
        let Some((snakes, ladders)) = place(&mut rng, n, row, options) else {
            continue;
        };
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let name = format!(
            "Generated: {} squares, {} snake{}, {} ladder{}, seed {}",
            options.size,
            options.snakes,
            plural(options.snakes),
            options.ladders,
            plural(options.ladders),
            options.seed
        );
        let source = format!(
            "ladders generate --size {} --snakes {} --ladders {} --seed {} (seed 003's placement constraints)",
            options.size, options.snakes, options.ladders, options.seed
        );
        let text = write_toml(&name, &source, n, &options.rules, &snakes, &ladders);
        if let Some(g) = finishable(text)? {
            return Ok(g);
        }
    }
    Err(GenerateError::NoLayout(ATTEMPTS))
}

/// The board of `text` when the finish can be reached from everywhere it can be reached.
fn finishable(text: String) -> Result<Option<Generated>, GenerateError> {
    let board = Board::from_toml_str(&text, "generated")?;
    let ends = match RollLevel::new(&board) {
        Some(rl) => rl.always_ends(),
        None => Chain::for_board(&board).always_ends(),
    };
    Ok(ends.then_some(Generated { text, board }))
}

/// What to draw for seed 002's other reading of its model: the board drawn once, then played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileBoardOptions {
    /// The finish square N.
    pub size: Square,
    /// The tile model: length f, snake chance p, ladder chance q.
    pub tiles: Tiles,
    /// The seed of the draw.
    pub seed: u64,
    /// The rules written in the `[rules]` table (`chain` is written as false).
    pub rules: Rules,
}

/// One fixed board drawn from seed 002's random-tile model: every square 1..N-1 independently
/// becomes a snake head to s - f (probability p, only above f), a ladder foot to min(s + f, N)
/// (probability q) or stays plain; `chain = false`, since in the model a tile's end is final. A
/// layout from which the finish cannot be reached is drawn again.
///
/// # Errors
///
/// See [`GenerateError`].
pub fn generate_tiles(options: &TileBoardOptions) -> Result<Generated, GenerateError> {
    let n = options.size;
    if !(2..=MAX_SIZE).contains(&n) {
        return Err(GenerateError::Size(n));
    }
    let t = &options.tiles;
    let mut rng = SplitMix64::seed_from_u64(options.seed);
    const ATTEMPTS: u32 = 100;
    for _ in 0..ATTEMPTS {
        let (mut snakes, mut ladders) = (Vec::new(), Vec::new());
        for s in 1..n {
            let draw = t.draw(s);
            let u = uniform_below(&mut rng, draw.total);
            if u < draw.snake {
                snakes.push((s, s - t.length));
            } else if u < draw.snake + draw.ladder {
                ladders.push((s, (s + t.length).min(n)));
            }
        }
        let name = format!(
            "Random tiles drawn once: n = {n}, f = {}, p = {}, q = {}, seed {}",
            t.length, t.snake, t.ladder, options.seed
        );
        let source = format!(
            "ladders generate --tiles --size {n} --length {} --snake {} --ladder {} --seed {} (seed 002's model, drawn once)",
            t.length, t.snake, t.ladder, options.seed
        );
        let rules = Rules {
            chain: false,
            ..options.rules
        };
        let text = write_toml(&name, &source, n, &rules, &snakes, &ladders);
        if let Some(g) = finishable(text)? {
            return Ok(g);
        }
    }
    Err(GenerateError::NoLayout(ATTEMPTS))
}

/// A uniform integer in `0..bound` (bound > 0), exactly: Lemire's multiply-shift with rejection.
fn uniform_below(rng: &mut SplitMix64, bound: u64) -> u64 {
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(bound);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

type Jumps = Vec<(Square, Square)>;

/// One layout by rejection sampling; `None` when a jump cannot be placed after many draws.
fn place(
    rng: &mut SplitMix64,
    n: Square,
    row: Square,
    options: &GenerateOptions,
) -> Option<(Jumps, Jumps)> {
    // Squares a new jump may not start on or end on.
    let mut starts: BTreeSet<Square> = BTreeSet::new();
    let mut ends: BTreeSet<Square> = BTreeSet::new();
    let mut free = |from: Square, to: Square, starts: &mut BTreeSet<Square>| {
        from != n
            && from != to
            && from.abs_diff(to) > row
            && !starts.contains(&from)
            && !ends.contains(&from)
            && !starts.contains(&to)
            && {
                starts.insert(from);
                ends.insert(to);
                true
            }
    };
    const DRAWS: u32 = 100_000;
    let mut snakes = Vec::with_capacity(options.snakes);
    for _ in 0..options.snakes {
        let (head, tail) = (0..DRAWS).find_map(|_| {
            let (a, b) = (random_square(rng, n - 1), random_square(rng, n - 1));
            let (head, tail) = (a.max(b), a.min(b));
            free(head, tail, &mut starts).then_some((head, tail))
        })?;
        snakes.push((head, tail));
    }
    let mut ladders = Vec::with_capacity(options.ladders);
    for _ in 0..options.ladders {
        let (foot, top) = (0..DRAWS).find_map(|_| {
            let (a, b) = (random_square(rng, n - 1), random_square(rng, n));
            let (foot, top) = (a.min(b), a.max(b));
            free(foot, top, &mut starts).then_some((foot, top))
        })?;
        ladders.push((foot, top));
    }
    snakes.sort_unstable();
    ladders.sort_unstable();
    Some((snakes, ladders))
}

fn write_toml(
    name: &str,
    source: &str,
    size: Square,
    r: &Rules,
    snakes: &Jumps,
    ladders: &Jumps,
) -> String {
    let pairs = |js: &Jumps| -> String {
        let items: Vec<String> = js.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
        items.join(", ")
    };
    let roll_again = match r.roll_again {
        RollAgain::Forfeit(k) => k.to_string(),
        other => format!("\"{other}\""),
    };
    let mut s = String::new();
    let _ = writeln!(s, "name = \"{name}\"");
    let _ = writeln!(s, "source = \"{source}\"");
    let _ = writeln!(s, "size = {size}");
    let _ = writeln!(s, "snakes = [{}]", pairs(snakes));
    let _ = writeln!(s, "ladders = [{}]", pairs(ladders));
    let _ = writeln!(s, "\n[rules]");
    let _ = writeln!(s, "start = {}", r.start);
    let _ = writeln!(s, "overshoot = \"{}\"", r.overshoot);
    let _ = writeln!(s, "die = {}", r.die);
    let _ = writeln!(s, "roll_again = {roll_again}");
    if !r.chain {
        let _ = writeln!(s, "chain = false");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(size: Square, snakes: usize, ladders: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            size,
            snakes,
            ladders,
            seed,
            rules: Rules::default(),
        }
    }

    #[test]
    fn generated_boards_follow_the_constraints_and_are_reproducible() {
        for seed in 0..20 {
            let g = generate(&opts(400, 15, 12, seed)).unwrap();
            let b = &g.board;
            assert_eq!((b.snakes().len(), b.ladders().len()), (15, 12));
            // Rows of 20 squares: every jump is longer than a row.
            for j in b.snakes().iter().chain(b.ladders()) {
                assert!(j.from.abs_diff(j.to) > 20, "{j:?}");
                assert!(j.from != 400);
                // No jump starts where another ends: nothing chains.
                assert!(b.jump_from(j.to).is_none(), "{j:?} chains");
            }
            assert_eq!(generate(&opts(400, 15, 12, seed)).unwrap().text, g.text);
        }
        assert_ne!(
            generate(&opts(400, 15, 12, 1)).unwrap().text,
            generate(&opts(400, 15, 12, 2)).unwrap().text
        );
    }

    #[test]
    fn too_many_jumps_or_a_bad_size_are_errors() {
        assert!(matches!(
            generate(&opts(30, 5, 5, 0)),
            Err(GenerateError::TooMany { max: 9, .. })
        ));
        assert_eq!(
            generate(&opts(MAX_SIZE + 1, 0, 0, 0)).unwrap_err(),
            GenerateError::Size(MAX_SIZE + 1)
        );
    }
}
