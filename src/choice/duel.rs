//! Two players who choose (docs/optimal-play.md, "Two players who choose"): an alternating-move
//! stochastic game on one board, each player choosing to maximise their own chance of winning,
//! knowing both positions. The first to reach the finish wins.
//!
//! # Formula
//!
//! With W(x, y) the chance that the player to move, on x, wins against the other on y (both
//! playing the strategies), the mover's turn is the single-player turn of [`Game`] with the value
//! of landing on x' being 1 at the finish and 1 - W(y, x') elsewhere (the other moves next):
//!
//! ```text
//! W(x, y) = sum_k (w_k / W_x) max_a sum_x' P_a(x') (x' = finish ? 1 : 1 - W(y, x'))
//! ```
//!
//! # Method, and what is proved
//!
//! 1. [`solve_float`]: value iteration in floats (Gauss-Seidel sweeps) for the equation above;
//!    the strategy is greedy in it ([`greedy`]), the same for both players (the game is
//!    symmetric: only the positions and whose turn it is matter).
//! 2. [`certify`]: the strategy pair is evaluated with a certified error bound. v, the float
//!    values rounded to multiples of 2^-60, is an exact rational vector; the residual
//!    r = T v - v of the pair's (affine) evaluation operator is computed exactly in integers. The
//!    error e = W - v satisfies e = -P e + r, P the pair's transition matrix between the
//!    (mover, other) states, so |e| <= (I - P)^-1 |r| <= max|r| u for any u >= 0 with
//!    u - P u >= 1, which is checked exactly in integers (u: the expected remaining turns, rounded
//!    up with a margin). Such a u exists only if the pair ends the game with probability 1, so
//!    the check proves that too. Hence W(start, start) lies in a certified interval.
//! 3. The check that neither player can improve: at every decision and every position of the
//!    other player, each other action's value under the certified W is compared with the chosen
//!    one's, exactly up to the certified radius; `gap` bounds what any single-turn deviation can
//!    gain. [`super::duel_proof`] turns that into a bound on deviations over any number of turns
//!    (the gap times a proved bound on the deviator's expected turns), so the value of the game
//!    lies in a certified interval.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::duel_proof::{prove, DeviationProof};
use super::{Game, Policy};
use crate::board::dice::lcm;
use crate::num::interval::Interval;

/// A strategy: for each decision node and each state of the other player, the action index.
pub type Strategy = Vec<Vec<usize>>;

/// The scale of the certified values: v = v_int / 2^60.
pub(crate) const SCALE_BITS: u32 = 60;

/// The chance of winning of the player to move, by (mover's state, other's state), `m * m` values
/// (`m` the game's states).
#[derive(Clone, Debug)]
pub struct FloatValues {
    /// W(x, y) at `x * m + y`.
    pub w: Vec<f64>,
    /// Sweeps made.
    pub sweeps: usize,
}

/// A certified evaluation of a strategy pair.
#[derive(Clone, Debug)]
pub struct CertifiedPair {
    /// v(x, y) * 2^60 at `x * m + y`: the center of each interval.
    pub(crate) center: Vec<i64>,
    /// u(x, y): the certified bound on the expected remaining turns.
    pub(crate) turns: Vec<i64>,
    /// max |T v - v|, exactly.
    pub(crate) residual: BigRational,
    /// The states of the game.
    pub(crate) m: usize,
    /// The most any single-turn deviation can gain (see the module's docs).
    pub gap: f64,
}

impl CertifiedPair {
    /// W(x, y) as a certified interval, by state indices.
    pub fn chance(&self, x: usize, y: usize) -> Interval {
        let i = x * self.m + y;
        let center = BigRational::new(self.center[i].into(), BigInt::from(1u8) << SCALE_BITS);
        let radius = &self.residual * BigRational::from_integer(self.turns[i].into());
        Interval::new(&center - &radius, center + radius)
    }

    /// The bound on the expected remaining turns of the pair from (x, y).
    pub fn turns_bound(&self, x: usize, y: usize) -> i64 {
        self.turns[x * self.m + y]
    }

    /// The largest bound on the expected remaining turns, over all states.
    pub fn max_turns_bound(&self) -> i64 {
        self.turns.iter().copied().max().unwrap_or(0)
    }

    /// max |T v - v| as a float (for the report).
    pub fn residual_f64(&self) -> f64 {
        self.residual.to_f64().unwrap_or(f64::INFINITY)
    }
}

/// Why a strategy pair could not be certified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    /// The pair may never end the game (no bound on its length could be proved).
    #[error("the strategies may never end the game: no bound on its length could be proved")]
    Endless,
    /// From some positions the pair's moves never reach the finish (proved by a search).
    #[error("the strategies never end the game from some positions (their moves there never reach the finish)")]
    NeverEnds,
    /// The game starts on the finish.
    #[error("the game starts on the finish")]
    NoGame,
}

/// The value of an action for the mover, from the other's values `row` (W(y, .)).
fn action_value(next: &[(Option<usize>, u64)], total: u64, row: &[f64]) -> f64 {
    next.iter()
        .map(|&(t, u)| u as f64 * t.map_or(1.0, |t| 1.0 - row[t]))
        .sum::<f64>()
        / total as f64
}

/// The estimated seconds past which [`check_duel`] refuses.
pub const DUEL_SECONDS_LIMIT: f64 = 30.0;

/// The estimated seconds of a duel on `squares` squares (the squares of [`Game`]):
/// `11.6 (squares / 300)^4`. The pairs of positions are `squares^2`, and the float sweeps and the
/// certification grow with the board too; fitted on `ladders generate --size 300 --snakes 10
/// --ladders 10 --seed 3` with `--choose-die 4,6` (11.6 s of user CPU at load average 4); the
/// 500-square board of the same command (15 snakes and ladders) ran past 100 s (estimate 89 s),
/// `benches/boards/gen-1000.toml` past 100 s (estimate 1,400 s).
pub fn duel_seconds(squares: usize) -> f64 {
    11.6 * (squares as f64 / 300.0).powi(4)
}

/// A duel would take too long (estimated before starting).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "two players who choose on {squares} squares would take about {seconds:.0} s to solve \
     (every pair of positions, estimated before starting; answered up to about \
     {DUEL_SECONDS_LIMIT:.0} s)"
)]
pub struct DuelTooLong {
    /// The squares.
    pub squares: usize,
    /// The estimated seconds.
    pub seconds: f64,
}

/// Refuses, before any sweep, a duel estimated past [`DUEL_SECONDS_LIMIT`] ([`duel_seconds`]).
///
/// # Errors
///
/// [`DuelTooLong`] with the estimate.
pub fn check_duel(game: &Game) -> Result<(), DuelTooLong> {
    let squares = game.squares.len();
    let seconds = duel_seconds(squares);
    if seconds > DUEL_SECONDS_LIMIT {
        return Err(DuelTooLong { squares, seconds });
    }
    Ok(())
}

/// Value iteration in floats for the game where both players choose their best, at most
/// `max_sweeps` sweeps, stopping when no value moves by more than 1e-15 (the certification absorbs the rest).
pub fn solve_float(game: &Game, max_sweeps: usize) -> FloatValues {
    sweep_until(game, max_sweeps, None)
}

/// Value iteration, maximising at every node, or with a fixed `strategy`.
fn sweep_until(game: &Game, max_sweeps: usize, strategy: Option<&Strategy>) -> FloatValues {
    let m = game.squares.len();
    let mut w = vec![0.5f64; m * m];
    let mut sweeps = 0;
    while sweeps < max_sweeps {
        sweeps += 1;
        let mut moved = 0.0f64;
        for x in (0..m).rev() {
            let total = game.totals[x] as f64;
            for y in 0..m {
                let mut new = 0.0;
                for &(wk, k) in &game.situations[x] {
                    let node = &game.nodes[k];
                    let row = &w[y * m..(y + 1) * m];
                    let best = match strategy {
                        Some(s) => {
                            let a = &node.actions[s[k][y]];
                            action_value(&a.next, a.total, row)
                        }
                        None => node
                            .actions
                            .iter()
                            .map(|a| action_value(&a.next, a.total, row))
                            .fold(f64::NEG_INFINITY, f64::max),
                    };
                    new += wk as f64 / total * best;
                }
                moved = moved.max((new - w[x * m + y]).abs());
                w[x * m + y] = new;
            }
        }
        if moved <= crate::prec::SWEEP_SETTLED {
            break;
        }
    }
    FloatValues { w, sweeps }
}

/// The strategy greedy in the values `w`. Ties (values within 1e-12) go to the action with the
/// fewest expected turns left for a player alone under the single-player optimum (`alone`, from
/// [`super::value_iteration`]; 0 at the finish), then to the first: a player sure to
/// win (or to lose) whatever they pick still makes progress, so a tie cannot make the pair
/// loop for ever (with the face of choice a winner would otherwise dawdle on the first face).
pub fn greedy(game: &Game, w: &FloatValues, alone: &[f64]) -> Strategy {
    let m = game.squares.len();
    let left = |a: &super::Action| {
        a.next
            .iter()
            .map(|&(t, u)| u as f64 * t.map_or(0.0, |t| alone[t]))
            .sum::<f64>()
            / a.total as f64
    };
    game.nodes
        .iter()
        .map(|node| {
            let lefts: Vec<f64> = node.actions.iter().map(left).collect();
            (0..m)
                .map(|y| {
                    let row = &w.w[y * m..(y + 1) * m];
                    let values: Vec<f64> = node
                        .actions
                        .iter()
                        .map(|a| action_value(&a.next, a.total, row))
                        .collect();
                    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    (0..values.len())
                        .filter(|&i| values[i] >= best - crate::prec::TIE)
                        .min_by(|&i, &j| lefts[i].total_cmp(&lefts[j]).then(i.cmp(&j)))
                        .unwrap_or(0)
                })
                .collect()
        })
        .collect()
}

/// The strategy that follows a single-player policy whatever the other's position.
pub fn from_policy(game: &Game, policy: &Policy) -> Strategy {
    let m = game.squares.len();
    policy.iter().map(|&a| vec![a; m]).collect()
}

/// Each state's integer form of the pair's turn: (den, [(weight, target, u)]) with
/// T v (x, y) = sum weight * u * F(target) / (den * scale).
struct Rows {
    m: usize,
    /// For (x, y): the common denominator W_x L and the terms (factor, target).
    rows: Vec<Row>,
}

/// One state's common denominator and terms (factor, target).
type Row = (i128, Vec<(i128, Option<usize>)>);

fn rows(game: &Game, strategy: &Strategy) -> Rows {
    let m = game.squares.len();
    let mut rows = Vec::with_capacity(m * m);
    for (sits, &total) in game.situations.iter().zip(&game.totals) {
        (0..m).for_each(|y| {
            let chosen = |k: usize| &game.nodes[k].actions[strategy[k][y]];
            let l = sits.iter().fold(1u64, |l, &(_, k)| lcm(l, chosen(k).total));
            let den = i128::from(total) * i128::from(l);
            let mut terms = Vec::new();
            for &(wk, k) in sits {
                let a = chosen(k);
                let f = i128::from(wk) * i128::from(l / a.total);
                terms.extend(a.next.iter().map(|&(t, u)| (f * i128::from(u), t)));
            }
            rows.push((den, terms));
        });
    }
    Rows { m, rows }
}

/// Certifies the strategy pair's values from the float values `w` of the same pair.
///
/// # Errors
///
/// `DuelError::NeverEnds` when the pair's moves never reach the finish from some positions,
/// `DuelError::Endless` when no bound on the game's length could be proved otherwise.
pub fn certify(
    game: &Game,
    strategy: &Strategy,
    w: &FloatValues,
) -> Result<CertifiedPair, DuelError> {
    if game.start.is_none() {
        return Err(DuelError::NoGame);
    }
    let r = rows(game, strategy);
    let m = r.m;
    let one: i128 = 1 << SCALE_BITS;
    let mut center: Vec<i64> =
        w.w.iter()
            .map(|&v| (v.clamp(0.0, 1.0) * one as f64).round() as i64)
            .collect();
    refine(&r, &mut center);
    // The residual, exactly: (sum f F(t) - den v) / (den 2^60).
    let mut residual = BigRational::zero();
    for i in 0..m * m {
        let (n, den) = residual_at(&r, &center, i);
        let q = BigRational::new(BigInt::from(n.abs()), BigInt::from(den) << SCALE_BITS);
        if q > residual {
            residual = q;
        }
    }
    if !ends_surely(&r) {
        return Err(DuelError::NeverEnds);
    }
    let turns = turns_bound(&r).ok_or(DuelError::Endless)?;
    let mut out = CertifiedPair {
        center,
        turns,
        residual,
        m,
        gap: 0.0,
    };
    out.gap = super::duel_proof::gain_bound(game, strategy, &out)
        .to_f64()
        .unwrap_or(f64::INFINITY);
    Ok(out)
}

/// The residual T v - v at state `i`, in units of 2^-60, exactly as a fraction (numerator,
/// denominator).
fn residual_at(r: &Rows, center: &[i64], i: usize) -> (i128, i128) {
    let one: i128 = 1 << SCALE_BITS;
    let (den, terms) = &r.rows[i];
    let y = i % r.m;
    let tv: i128 = terms
        .iter()
        .map(|&(f, t)| f * t.map_or(one, |t| one - i128::from(center[y * r.m + t])))
        .sum();
    (tv - den * i128::from(center[i]), *den)
}

/// One step of iterative refinement of the centers: the error e = W - v solves e = r - P e
/// (r = T v - v, computed exactly, P the pair's moves), solved in floats by Gauss-Seidel and
/// added to v. The float values of v are good to about 1e-16; after the step the centers are
/// good to about the 2^-60 grid, so the certified intervals shrink about a hundredfold and
/// decide twelve digits almost always. Only the certified bound, computed afterwards from the
/// new centers, is relied on.
fn refine(r: &Rows, center: &mut [i64]) {
    let m = r.m;
    let res: Vec<f64> = (0..m * m)
        .map(|i| {
            let (n, d) = residual_at(r, center, i);
            n as f64 / d as f64
        })
        .collect();
    let mut e = res.clone();
    for _ in 0..MAX_SWEEPS {
        let mut moved = 0.0f64;
        for i in (0..m * m).rev() {
            let (den, terms) = &r.rows[i];
            let y = i % m;
            let pe: f64 = terms
                .iter()
                .filter_map(|&(f, t)| t.map(|t| f as f64 * e[y * m + t]))
                .sum();
            let new = res[i] - pe / *den as f64;
            moved = moved.max((new - e[i]).abs());
            e[i] = new;
        }
        if !moved.is_finite() {
            return;
        }
        if moved <= crate::prec::SWEEP_ROUGH {
            break;
        }
    }
    // In integers: a center near 2^60 has no units digit as an f64.
    for (c, de) in center.iter_mut().zip(&e) {
        *c = c
            .saturating_add(de.round() as i64)
            .clamp(0, 1 << SCALE_BITS);
    }
}

/// Whether the pair ends the game with probability 1: from every state (x, y) some sequence of
/// the pair's moves reaches the finish (a finite chain). A backward search over the moves, so an
/// endless pair is known at once, before any sweep.
fn ends_surely(r: &Rows) -> bool {
    let m = r.m;
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); m * m];
    let mut done = vec![false; m * m];
    let mut stack = Vec::new();
    for (i, (_, terms)) in r.rows.iter().enumerate() {
        let y = i % m;
        for &(f, t) in terms {
            match t {
                _ if f == 0 => {}
                None if !done[i] => {
                    done[i] = true;
                    stack.push(i);
                }
                None => {}
                Some(t) => into[y * m + t].push(i),
            }
        }
    }
    while let Some(j) = stack.pop() {
        for &i in &into[j] {
            if !done[i] {
                done[i] = true;
                stack.push(i);
            }
        }
    }
    done.iter().all(|&d| d)
}

/// Whether both players following `strategy` end the game with probability 1 (see
/// [`certify`], which needs it).
pub fn pair_ends(game: &Game, strategy: &Strategy) -> bool {
    ends_surely(&rows(game, strategy))
}

/// A vector u >= 0 with u - P u >= 1, checked exactly, or `None`.
fn turns_bound(r: &Rows) -> Option<Vec<i64>> {
    let m = r.m;
    // Float expected remaining turns by Gauss-Seidel: t(x, y) = 1 + sum p t(y, x').
    let t = length_sweep(m * m, true, crate::prec::LENGTH_SWEEP_SETTLED, |t, i| {
        let (den, terms) = &r.rows[i];
        let y = i % m;
        let s: f64 = terms
            .iter()
            .filter_map(|&(f, x)| x.map(|x| f as f64 * t[y * m + x]))
            .sum();
        s / *den as f64
    })?;
    integer_supersolution(&t, |u| {
        r.rows.iter().enumerate().all(|(i, (den, terms))| {
            let y = i % m;
            let pu: i128 = terms
                .iter()
                .filter_map(|&(f, x)| x.map(|x| f * i128::from(u[y * m + x])))
                .sum();
            den * i128::from(u[i]) - pu >= *den
        })
    })
}

/// Float expected remaining steps `t = 1 + (Q t)_i` (`q(t, i)` gives `(Q t)_i`) by Gauss-Seidel
/// sweeps from `t = 1`, over `0..n` (`backward`: from `n - 1` down), until no component moves
/// by more than `settled` (relative) or 100,000 sweeps; `None` when a value is not finite or
/// passes 1e12 (the steps do not end). The guess that [`integer_supersolution`] rounds up (and
/// the relative-position race's bound on its rolls).
pub(crate) fn length_sweep(
    n: usize,
    backward: bool,
    settled: f64,
    q: impl Fn(&[f64], usize) -> f64,
) -> Option<Vec<f64>> {
    let mut t = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut moved = 0.0f64;
        for k in 0..n {
            let i = if backward { n - 1 - k } else { k };
            let new = 1.0 + q(&t, i);
            moved = moved.max((new - t[i]).abs() / new);
            t[i] = new;
        }
        if !t.iter().all(|v| v.is_finite() && *v < 1e12) {
            return None;
        }
        if moved < settled {
            break;
        }
    }
    Some(t)
}

/// The float turns bound `t` rounded up with growing margins until the exact check `holds`
/// accepts it, or `None`.
pub(crate) fn integer_supersolution(t: &[f64], holds: impl Fn(&[i64]) -> bool) -> Option<Vec<i64>> {
    [1.01, 1.1, 1.5, 2.0, 4.0].into_iter().find_map(|margin| {
        let u: Vec<i64> = t.iter().map(|v| (v * margin).ceil() as i64 + 1).collect();
        holds(&u).then_some(u)
    })
}

/// The float values of a fixed strategy pair (for [`certify`]).
pub fn evaluate_float(game: &Game, strategy: &Strategy, max_sweeps: usize) -> FloatValues {
    sweep_until(game, max_sweeps, Some(strategy))
}

/// Sweeps allowed to the float value iterations of [`compare`].
pub const MAX_SWEEPS: usize = 20_000;

/// One strategy pair (both players the same strategy), evaluated.
#[derive(Clone, Debug)]
pub struct Pair {
    /// `optimal` (each maximising their own chance), or the single-player policy both follow.
    pub name: String,
    /// The chance that the first listed player, moving first, wins, and the certificate.
    pub result: Result<(Interval, CertifiedPair), DuelError>,
    /// Float sweeps made.
    pub sweeps: usize,
    /// For the optimal pair, the bound on what deviations over any number of turns gain
    /// (`None` for fixed pairs, or when no bound on a deviator's turns was found).
    pub proof: Option<DeviationProof>,
}

/// Both players optimal, then both following each single-player policy in `fixed`, from the
/// states `from` (the first moves first).
pub fn compare(game: &Game, from: (usize, usize), fixed: &[(String, Policy)]) -> Vec<Pair> {
    let evaluate = |name: &str, strategy: &Strategy, w: FloatValues| Pair {
        name: name.to_string(),
        sweeps: w.sweeps,
        result: certify(game, strategy, &w).map(|c| (c.chance(from.0, from.1), c)),
        proof: None,
    };
    let endless = |name: &str| Pair {
        name: name.to_string(),
        sweeps: 0,
        result: Err(DuelError::NeverEnds),
        proof: None,
    };
    let stage = crate::progress::Stage::begin("solving each pair", Some(1 + fixed.len() as u64));
    let w = solve_float(game, MAX_SWEEPS);
    let alone = super::value_iteration(game, MAX_SWEEPS);
    let best = greedy(game, &w, &alone);
    let mut out = vec![if pair_ends(game, &best) {
        let mut pair = evaluate("optimal", &best, w);
        if let Ok((_, c)) = &pair.result {
            pair.proof = prove(game, &best, c, from);
        }
        pair
    } else {
        endless("optimal")
    }];
    for (name, policy) in fixed {
        stage.advance(out.len() as u64);
        let s = from_policy(game, policy);
        out.push(if pair_ends(game, &s) {
            let w = evaluate_float(game, &s, MAX_SWEEPS);
            evaluate(name, &s, w)
        } else {
            endless(name)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The first player's certified chance of winning from the start, and the pair's
    /// certificate.
    fn first_wins(
        game: &Game,
        strategy: &Strategy,
        w: &FloatValues,
    ) -> Result<(Interval, CertifiedPair), DuelError> {
        let c = certify(game, strategy, w)?;
        let s = game.start.ok_or(DuelError::NoGame)?;
        Ok((c.chance(s, s), c))
    }

    #[test]
    fn a_one_square_race_is_won_by_the_first_mover() {
        // size 1 from 0 with a choice of face: the first mover's first turn finishes.
        let b = Board::from_toml_str(
            "size = 2\n[rules]\ndie = 2\nchoose_face = true\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let game = Game::new(&b).unwrap();
        let w = solve_float(&game, 1000);
        let s = greedy(&game, &w, &crate::choice::value_iteration(&game, 10_000));
        let (p, c) = first_wins(&game, &s, &w).unwrap();
        assert!(p.contains(&BigRational::from_integer(1.into())));
        assert!(c.gap < 1e-12);
    }

    #[test]
    fn two_players_choosing_dice_on_a_two_square_board_match_the_hand_value() {
        // size 2, a fair coin as the die (faces 1, 2), overshoot allow, no choice that matters
        // (choose_die [2, 3]: a d3 from 0 reaches 2 or more with 2/3, a d2 with 1/2; from 1 any
        // throw finishes). Both choose d3 from 0. From (1, y) the mover wins at once: W(1, y) = 1.
        // From (0, 0): the mover wins with 2/3 at once; else (1/3) they are on 1 and the other
        // moves from 0 with the first on 1: the other wins with 2/3, else goes to 1 and loses
        // (the first, on 1, finishes). W(0,1) = 2/3 + 1/3 * 0 = 2/3 (landing on 1 gives the
        // other, on 1, the win). So W(0, 0) = 2/3 + 1/3 (1 - W(0, 1)) = 2/3 + 1/9 = 7/9.
        let b = Board::from_toml_str(
            "size = 2\n[rules]\nchoose_die = [2, 3]\novershoot = \"allow\"\n",
            "t",
        )
        .unwrap();
        let game = Game::new(&b).unwrap();
        let w = solve_float(&game, 10_000);
        let s = greedy(&game, &w, &crate::choice::value_iteration(&game, 10_000));
        let (p, c) = first_wins(&game, &s, &w).unwrap();
        let want = BigRational::new(7.into(), 9.into());
        assert!(p.contains(&want), "{p:?}");
        assert!(c.gap < 1e-12);
    }
}
