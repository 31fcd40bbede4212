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
//!
//! Seed 003's own game (`--columns`, `--once-ladders`, `--apples`): the board is drawn in rows
//! of `columns` squares, so it has `rows = ceil(size / columns)` rows (seed 003: N = 20 rows of
//! M = 10). Seed 003's code redraws a jump while `head - tail <= N` (N the number of rows) and
//! says it means "not on the same line"; a jump here is longer than both the number of rows and
//! the row length, so both readings hold (on 20 x 10: longer than 20 squares). Without
//! `--columns` rows have `ceil(sqrt(size))` squares and there are no more rows than that, so the
//! rule is the one above and earlier files are unchanged. `--once-ladders` makes every ladder
//! one-use (seed 003's ladders break; its snakes do not). Apples are drawn after the jumps,
//! uniformly on the squares 1..N-1, redrawn on a snake head (seed 003's rule) and, so that the
//! file is valid, on a ladder's foot or another apple; each is red or black with probability 1/2
//! (seed 003's coin), and, as seed 003 gives no values, worth a number of points drawn uniformly
//! from 1 to `MAX_APPLE_POINTS`: plus for red, minus for black.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::board::{Board, BoardError, Rules, Square, Tiles, MAX_SIZE};
use crate::chain::{Chain, RollLevel};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The row length of the board as drawn (`columns` in the file); `None`: `ceil(sqrt(size))`
    /// and no `columns` line.
    pub columns: Option<Square>,
    /// Every ladder works once per game (seed 003's ladders that break).
    pub once_ladders: bool,
    /// Apples (point squares) to place, red (+) or black (-).
    pub apples: usize,
    /// The file's `source` line: how the caller made the board, in its own words (the command
    /// line writes the command that makes it again); `None`: no such line.
    pub source: Option<String>,
}

impl GenerateOptions {
    /// Snakes and ladders only, on the default rows, with the default rules.
    pub fn plain(size: Square, snakes: usize, ladders: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            size,
            snakes,
            ladders,
            seed,
            rules: Rules::default(),
            columns: None,
            once_ladders: false,
            apples: 0,
            source: None,
        }
    }
}

/// An apple is worth 1 to this many points (seed 003 leaves the values open).
pub(crate) const MAX_APPLE_POINTS: i64 = 10;

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
    /// `columns` is not a row length.
    #[error("columns {columns} is not a row length: expected 1 to {size}")]
    Columns {
        /// The row length asked for.
        columns: Square,
        /// The board size.
        size: Square,
    },
    /// Jumps cannot be longer than the placement rule asks on this board.
    #[error(
        "no snake or ladder longer than {min} squares fits on {size} squares (jumps must be \
         longer than the {rows} rows and the row length {columns}): use fewer rows or no jumps"
    )]
    TooShort {
        /// Jumps must be longer than this.
        min: Square,
        /// The board size.
        size: Square,
        /// Rows of the board.
        rows: Square,
        /// The row length.
        columns: Square,
    },
    /// Too many apples for the board.
    #[error(
        "{apples} apples do not fit on {size} squares with {jumps} snakes and ladders (at most \
         {max}: one per point square of the format, at most half the free squares)"
    )]
    TooManyApples {
        /// Apples asked for.
        apples: usize,
        /// Snakes plus ladders.
        jumps: usize,
        /// The board size.
        size: Square,
        /// The most apples placed.
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
pub(crate) fn max_jumps(size: Square) -> usize {
    (size.saturating_sub(2) / 3) as usize
}

/// A generated board: the file's text and the validated board it describes.
#[derive(Clone, Debug)]
#[non_exhaustive]
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
/// use ladders::generate::{generate, GenerateOptions};
/// let g = generate(&GenerateOptions::plain(100, 8, 8, 3)).unwrap();
/// assert_eq!(g.board.snakes().len(), 8);
/// assert!(g.board.snakes().iter().all(|s| s.from - s.to > 10));
/// // Seed 003's game: 20 rows of 10, one-use ladders, six apples.
/// let mut seed003 = GenerateOptions::plain(200, 3, 3, 1);
/// (seed003.columns, seed003.once_ladders, seed003.apples) = (Some(10), true, 6);
/// let g = generate(&seed003).unwrap();
/// assert_eq!((g.board.once_squares().len(), g.board.point_squares().len()), (3, 6));
/// assert!(g.board.ladders().iter().all(|l| l.to - l.from > 20));
/// ```
pub fn generate(options: &GenerateOptions) -> Result<Generated, GenerateError> {
    let n = options.size;
    let layout = Layout::of(options)?;
    let mut rng = SplitMix64::seed_from_u64(options.seed);
    const ATTEMPTS: u32 = 100;
    for _ in 0..ATTEMPTS {
        let Some((snakes, ladders)) = place(&mut rng, n, layout.min_length, options) else {
            continue;
        };
        let apples = place_apples(&mut rng, n, &snakes, &ladders, options.apples);
        let file = File {
            name: &name(options),
            source: options.source.as_deref(),
            size: n,
            rules: &options.rules,
            columns: options.columns,
            snakes: &snakes,
            ladders: &ladders,
            once: options.once_ladders,
            apples: &apples,
        };
        let text = write_toml(&file);
        // One-use ladders may all be gone: the game must end without them too.
        if options.once_ladders && !ladders.is_empty() {
            let without = write_toml(&File {
                ladders: &Vec::new(),
                once: false,
                ..file
            });
            if finishable(without)?.is_none() {
                continue;
            }
        }
        if let Some(g) = finishable(text)? {
            return Ok(g);
        }
    }
    Err(GenerateError::NoLayout(ATTEMPTS))
}

/// The board's rows as the placement rule sees them.
struct Layout {
    /// Every jump is longer than this.
    min_length: Square,
}

impl Layout {
    /// Checks the options against the board and finds the shortest jump allowed.
    fn of(options: &GenerateOptions) -> Result<Layout, GenerateError> {
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
        let columns = match options.columns {
            Some(c) if !(1..=n).contains(&c) => {
                return Err(GenerateError::Columns {
                    columns: c,
                    size: n,
                })
            }
            Some(c) => c,
            // Rows of ceil(sqrt(N)) squares: a jump is longer than a row.
            None => (1..=n).find(|w| w * w >= n).unwrap_or(n),
        };
        let rows = n.div_ceil(columns);
        let min_length = rows.max(columns);
        // A snake's head is at most N - 1 and its tail at least 1; a ladder's top at most N.
        let snakes_fit = options.snakes == 0 || n - 2 > min_length;
        let ladders_fit = options.ladders == 0 || n - 1 > min_length;
        if !(snakes_fit && ladders_fit) {
            return Err(GenerateError::TooShort {
                min: min_length,
                size: n,
                rows,
                columns,
            });
        }
        let max_apples = max_apples(n, jumps);
        if options.apples > max_apples {
            return Err(GenerateError::TooManyApples {
                apples: options.apples,
                jumps,
                size: n,
                max: max_apples,
            });
        }
        Ok(Layout { min_length })
    }
}

/// The most apples placed on `size` squares beside `jumps` snakes and ladders: half the squares
/// 1..N-1 where no jump starts, and no more than a board may have point squares.
pub(crate) fn max_apples(size: Square, jumps: usize) -> usize {
    let free = (size as usize).saturating_sub(1).saturating_sub(jumps);
    (free / 2).min(crate::board::MAX_STATE_SQUARES)
}

fn name(options: &GenerateOptions) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut name = format!(
        "Generated: {} squares, {} snake{}, {} ladder{}",
        options.size,
        options.snakes,
        plural(options.snakes),
        options.ladders,
        plural(options.ladders),
    );
    if options.once_ladders {
        name.push_str(" (one-use)");
    }
    if options.apples > 0 {
        let _ = write!(name, ", {} apple{}", options.apples, plural(options.apples));
    }
    let _ = write!(name, ", seed {}", options.seed);
    name
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
#[non_exhaustive]
pub struct TileBoardOptions {
    /// The finish square N.
    pub size: Square,
    /// The tile model: length f, snake chance p, ladder chance q.
    pub tiles: Tiles,
    /// The seed of the draw.
    pub seed: u64,
    /// The rules written in the `[rules]` table (`chain` is written as false).
    pub rules: Rules,
    /// The file's `source` line, as for [`GenerateOptions::source`].
    pub source: Option<String>,
}

impl TileBoardOptions {
    /// A board of `size` squares drawn from `tiles` with `seed`, with the default rules and no
    /// `source` line.
    pub fn new(size: Square, tiles: Tiles, seed: u64) -> TileBoardOptions {
        TileBoardOptions {
            size,
            tiles,
            seed,
            rules: Rules::default(),
            source: None,
        }
    }
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
        let rules = Rules {
            chain: false,
            ..options.rules
        };
        let text = write_toml(&File {
            name: &name,
            source: options.source.as_deref(),
            size: n,
            rules: &rules,
            columns: None,
            snakes: &snakes,
            ladders: &ladders,
            once: false,
            apples: &[],
        });
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
    min_length: Square,
    options: &GenerateOptions,
) -> Option<(Jumps, Jumps)> {
    // Squares a new jump may not start on or end on.
    let mut starts: BTreeSet<Square> = BTreeSet::new();
    let mut ends: BTreeSet<Square> = BTreeSet::new();
    let mut free = |from: Square, to: Square, starts: &mut BTreeSet<Square>| {
        from != n
            && from != to
            && from.abs_diff(to) > min_length
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

/// Apples on distinct squares 1..N-1, none on a snake's head (seed 003) or a ladder's foot (a
/// point square acts where a move ends), each red (+) or black (-) by a fair coin and worth 1 to
/// [`MAX_APPLE_POINTS`] points; sorted by square. [`Layout::of`] leaves room for them all.
fn place_apples(
    rng: &mut SplitMix64,
    n: Square,
    snakes: &Jumps,
    ladders: &Jumps,
    apples: usize,
) -> Vec<(Square, i64)> {
    let starts: BTreeSet<Square> = snakes.iter().chain(ladders).map(|j| j.0).collect();
    let mut placed: BTreeSet<Square> = BTreeSet::new();
    let mut out = Vec::with_capacity(apples);
    while out.len() < apples {
        let square = random_square(rng, n - 1);
        if starts.contains(&square) || !placed.insert(square) {
            continue;
        }
        let red = uniform_below(rng, 2) == 0;
        let points = uniform_below(rng, MAX_APPLE_POINTS as u64) as i64 + 1;
        out.push((square, if red { points } else { -points }));
    }
    out.sort_unstable();
    out
}

/// What a generated file says.
#[derive(Clone, Copy)]
struct File<'a> {
    name: &'a str,
    source: Option<&'a str>,
    size: Square,
    rules: &'a Rules,
    columns: Option<Square>,
    snakes: &'a Jumps,
    ladders: &'a Jumps,
    /// Every ladder is one-use.
    once: bool,
    apples: &'a [(Square, i64)],
}

fn write_toml(f: &File<'_>) -> String {
    let pairs = |js: &[(Square, Square)]| -> String {
        let items: Vec<String> = js.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
        items.join(", ")
    };
    let r = f.rules;
    let roll_again = r.roll_again.toml();
    let mut s = String::new();
    let _ = writeln!(s, "name = \"{}\"", f.name);
    if let Some(source) = f.source {
        let _ = writeln!(s, "source = \"{source}\"");
    }
    let _ = writeln!(s, "size = {}", f.size);
    if let Some(c) = f.columns {
        let _ = writeln!(s, "columns = {c}");
    }
    let _ = writeln!(s, "snakes = [{}]", pairs(f.snakes));
    let _ = writeln!(s, "ladders = [{}]", pairs(f.ladders));
    if f.once && !f.ladders.is_empty() {
        let feet: Vec<String> = f.ladders.iter().map(|l| l.0.to_string()).collect();
        let _ = writeln!(s, "once = [{}]", feet.join(", "));
    }
    if !f.apples.is_empty() {
        let items: Vec<String> = f
            .apples
            .iter()
            .map(|(q, p)| format!("[{q}, {p}]"))
            .collect();
        let _ = writeln!(s, "points = [{}]", items.join(", "));
    }
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
        GenerateOptions::plain(size, snakes, ladders, seed)
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
    fn seed003(seed: u64) -> GenerateOptions {
        GenerateOptions {
            columns: Some(10),
            once_ladders: true,
            apples: 6,
            ..opts(200, 3, 3, seed)
        }
    }

    /// Seed 003's placement rules, checked on the board as the file describes it.
    fn follows_seed_003(b: &Board, rows: Square, columns: Square) {
        let n = b.size();
        assert_eq!(b.columns(), columns);
        let min = rows.max(columns);
        let heads: Vec<Square> = b.snakes().iter().map(|s| s.from).collect();
        let feet: Vec<Square> = b.ladders().iter().map(|l| l.from).collect();
        for j in b.snakes().iter().chain(b.ladders()) {
            assert!(
                j.from.abs_diff(j.to) > min,
                "{j:?} is not longer than {min}"
            );
            // Head and tail (foot and top) on different rows of the drawn board.
            assert_ne!(
                (j.from - 1) / columns,
                j.to.saturating_sub(1) / columns,
                "{j:?}"
            );
            assert!(j.from != n && b.jump_from(j.to).is_none(), "{j:?}");
        }
        // Every ladder is one-use; snakes are not.
        let mut once = b.once_squares().to_vec();
        once.sort_unstable();
        assert_eq!(once, feet);
        for &(sq, points) in b.point_squares() {
            assert!((1..n).contains(&sq), "apple on {sq}");
            assert!(
                !heads.contains(&sq) && !feet.contains(&sq),
                "apple on a jump: {sq}"
            );
            assert!((1..=MAX_APPLE_POINTS).contains(&points.abs()), "{points}");
        }
    }

    #[test]
    fn seed_003_boards_follow_its_rules_and_are_reproducible() {
        let mut signs = [0, 0];
        for seed in 0..30 {
            let g = generate(&seed003(seed)).unwrap();
            let b = &g.board;
            assert_eq!((b.snakes().len(), b.ladders().len()), (3, 3));
            assert_eq!(b.point_squares().len(), 6);
            // 20 rows of 10: every jump is longer than 20 squares.
            follows_seed_003(b, 20, 10);
            for &(_, p) in b.point_squares() {
                signs[usize::from(p > 0)] += 1;
            }
            assert_eq!(generate(&seed003(seed)).unwrap().text, g.text);
        }
        // Red and black apples both occur (180 fair coins).
        assert!(signs[0] > 50 && signs[1] > 50, "{signs:?}");
        assert_ne!(
            generate(&seed003(1)).unwrap().text,
            generate(&seed003(2)).unwrap().text
        );
    }

    proptest::proptest! {
        #[test]
        fn generated_boards_follow_seed_003_on_any_seed(
            seed in proptest::prelude::any::<u64>(),
            size in 60u32..400,
            columns in 5u32..25,
            jumps in (0usize..5, 0usize..5),
            apples in 0usize..12,
        ) {
            let o = GenerateOptions {
                columns: Some(columns),
                once_ladders: true,
                apples,
                ..opts(size, jumps.0, jumps.1, seed)
            };
            match generate(&o) {
                Ok(g) => {
                    let b = &g.board;
                    proptest::prop_assert_eq!(b.point_squares().len(), apples);
                    follows_seed_003(b, size.div_ceil(columns), columns);
                }
                // Only a request that cannot fit is refused.
                Err(e) => proptest::prop_assert!(
                    matches!(e, GenerateError::TooShort { .. }),
                    "{}", e
                ),
            }
        }
    }

    #[test]
    fn impossible_seed_003_requests_are_errors() {
        // One column: 200 rows, so no jump is longer than 200 squares on 200.
        let one = GenerateOptions {
            columns: Some(1),
            ..opts(200, 1, 0, 0)
        };
        assert!(matches!(
            generate(&one),
            Err(GenerateError::TooShort {
                min: 200,
                rows: 200,
                ..
            })
        ));
        // No jumps: any column count is fine.
        let none = GenerateOptions {
            columns: Some(1),
            ..opts(200, 0, 0, 0)
        };
        assert!(generate(&none).is_ok());
        let wide = GenerateOptions {
            columns: Some(21),
            ..opts(20, 0, 0, 0)
        };
        assert_eq!(
            generate(&wide).unwrap_err(),
            GenerateError::Columns {
                columns: 21,
                size: 20
            }
        );
        // 20 squares, 2 jumps: 17 free squares, at most 8 apples.
        let apples = |k| GenerateOptions {
            apples: k,
            ..opts(20, 1, 1, 0)
        };
        assert_eq!(max_apples(20, 2), 8);
        assert!(generate(&apples(8)).is_ok());
        assert!(matches!(
            generate(&apples(9)),
            Err(GenerateError::TooManyApples { max: 8, .. })
        ));
        assert_eq!(max_apples(1000, 0), crate::board::MAX_STATE_SQUARES);
    }
}
