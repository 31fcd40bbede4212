//! The integer stepping of [`super`] through a chain's links ([`crate::chain::Link`]): under
//! unlimited roll-again a turn is stepped as the rolls that end it and a fresh turn from the one
//! square its top throw leads to, as the certified tier does (`exact/certified/stepper/linked.rs`), but
//! exactly, with the same counts as the whole turns: on efi 406 ending entries and 78 links a
//! turn instead of 2,530 products. The same code steps a chain held as links only
//! ([`crate::chain::LinkedChain`], the boards whose whole turns do not fit: gen-10000-again
//! has 12 million entries with denominators up to 6^572, about 70,000 here); see "The links
//! form" below.
//!
//! # The step
//!
//! Write T = E + W T for the turn matrix (`crate::chain::links`): W has one entry `g_x / d`
//! per linked state x (to the state its link leads to), E is a linked state's ending rolls
//! (numerators c over d) and an unlinked state's whole turn. Then `v T = y E` with
//! `y = v + y W`, summed state by state in an order that puts every state before the one its
//! link leads to (Kahn's; the links never close a cycle). Every link here has the same
//! denominator d (the die's), else the whole turns are kept.
//!
//! With w the counts at scale s (w = s v) and D the whole turns' common denominator, the whole
//! turns' stepping makes `U = w (D T)`, the counts of the next turn at scale `s D` before the
//! content is removed. Here U is made from the links:
//!
//! - Let a(x) be the depth of x (the longest chain of links into it: 0 for a state no link
//!   leads into, `a(x) >= a(x') + 1` for every link `x' -> x`) and A the largest. By induction
//!   along the order, `d^a(x) s y_x` is an integer: it is `d^a(x) w_x` plus, for each link
//!   `x' -> x`, `g d^(a(x) - 1 - a(x')) (d^a(x') s y_x')`. So `Y_x = d^A s y_x` is an integer
//!   divisible by `d^(A - a(x))`, and by d when x has a link (then `a(x) <= A - 1`).
//! - The step computes `Y_x = d^A w_x + sum over links x' -> x of g (Y_x' / d)`, each `Y_x'`
//!   complete (every link into it already followed) when it is divided, exactly, by d (a shift
//!   for d's twos, Jebelean's exact division for its odd part). The linked states keep
//!   `Y_x / d`.
//! - `P_j = sum_x Y_x D E_xj`: for a linked x that is `(Y_x / d) (D c)` over its ending rolls;
//!   for an unlinked one `Y_x (D p)`, D p being the whole turns' integer coefficient. So
//!   `P = d^A s (y E) D = d^A U`, and `U = P / d^A` is an exact division (U is an integer: it
//!   is the whole turns' step).
//!
//! The counts are then exactly the whole turns' (same values at the same scale `s D`), and the
//! content is removed by the same code, so every count, scale and output is the same.
//!
//! # Room in the words
//!
//! `(I - W)^-1` has, from x to x', the product of the `g / d` along the one path of links
//! between them (each state has one link out), at most 1; so `y_x <= sum v <= 1` and
//! `Y_x <= d^A s`, and `P_j <= d^A D s`. The route is taken only when D, d^A and every
//! `D c` fit a word (one limb per coefficient, as the whole turns' single-limb route), and when
//! the ending rolls and links take fewer products than the whole turns.
//!
//! # The links form
//!
//! Without the whole turns there is no D; L, the least common multiple of the unlinked
//! states' whole turns' denominators, takes its place in the coefficients (`L c`, `L p`), and
//! P is not divided: `P = d^A L s (y E)` (integers: `Y_x / d` for a linked x as above, `L p`
//! for an unlinked one) are the next counts at scale `s d^A L`, so the
//! stepper's D is `d^A L` (every count and coefficient as many limbs as it needs, d^A
//! included). Without cancellation the counts grow by `bits(d^A L)` a turn (1,500 bits on
//! gen-10000-again, whose longest run of sixes is 571 rolls), so n turns cost about
//! `entries n^2 bits(d^A L) / 128` limb products, plus the `d^A` products of the sums Y.

use super::{Counts, Stepper};
use crate::chain::Link;
use crate::num::limbs::{inverse_mod_word, mac, significant};

/// An exact division by a word `2^shift odd`.
#[derive(Clone, Copy, Debug)]
struct ExactDivisor {
    shift: u32,
    odd: u64,
    inv: u64,
}

impl ExactDivisor {
    fn new(w: u64) -> ExactDivisor {
        let shift = w.trailing_zeros();
        let odd = w >> shift;
        ExactDivisor {
            shift,
            odd,
            inv: inverse_mod_word(odd),
        }
    }

    /// `x /= 2^shift odd`, which must divide `x`: the shift and Jebelean's exact division
    /// (as `limbs::divexact_odd`) in one pass, each limb shifted as it is read.
    fn divide(&self, x: &mut [u64]) {
        let (k, n) = (self.shift, x.len());
        let mut c = 0u64;
        for i in 0..n {
            let l = match (k, x.get(i + 1)) {
                (0, _) => x[i],
                (_, Some(&high)) => (x[i] >> k) | (high << (64 - k)),
                (_, None) => x[i] >> k,
            };
            let (s, b) = l.overflowing_sub(c);
            let q = s.wrapping_mul(self.inv);
            x[i] = q;
            c = ((u128::from(q) * u128::from(self.odd)) >> 64) as u64 + u64::from(b);
        }
        debug_assert_eq!(c, 0, "not an exact division");
    }
}

/// One link as the sums take it: (from, to, g).
type LinkStep = (usize, usize, u64);

/// A chain's turns through its links, as [`super::IntegerChain`] steps them.
#[derive(Clone, Debug)]
pub(super) struct LinkedTurns {
    /// The links' common denominator d.
    d: ExactDivisor,
    /// d^A, A the longest chain of links, little-endian limbs.
    d_pow: Vec<u64>,
    /// The exact division of P by d^A that brings the next counts to the whole turns' scale
    /// `s D`; `None` on the links form, whose counts stay at scale `s d^A L`.
    d_pow_div: Option<ExactDivisor>,
    /// The links in the order the sums take them.
    steps: Vec<LinkStep>,
    /// The sums over E: `D c` for a linked state's ending roll and `D p` for an unlinked
    /// state's entry; on the links form the ending rolls' `c` alone, from `L Y_x / d`.
    ends: Sums,
    /// On the links form, the unlinked states' whole turns (`L p`) and L (when above 1).
    whole: Option<(Sums, Vec<u64>)>,
}

/// Entries of E summed by target (as the whole turns' `by_target`): (source, coefficient
/// index), the entries into j at `by_target[col_start[j]..col_start[j + 1]]`.
#[derive(Clone, Debug)]
struct Sums {
    col_start: Vec<usize>,
    by_target: Vec<(usize, usize)>,
    /// `coef_limbs` little-endian limbs each.
    coef: Vec<u64>,
    coef_limbs: usize,
    /// Every column's coefficients are single limbs summing below 2^64 (see
    /// `Counts::sum_narrow`).
    lazy_carries: bool,
}

impl Sums {
    /// The sums of `entries` (target, source, coefficient limbs) into `states` states.
    fn new(mut entries: Vec<Entry>, states: usize) -> Sums {
        let coef_limbs = entries.iter().map(|e| e.2.len()).max().unwrap_or(1).max(1);
        entries.sort_unstable();
        let mut col_start = vec![0usize; states + 1];
        for e in &entries {
            col_start[e.0 + 1] += 1;
        }
        for j in 0..states {
            col_start[j + 1] += col_start[j];
        }
        let lazy_carries = coef_limbs == 1
            && (0..states).all(|j| {
                entries[col_start[j]..col_start[j + 1]]
                    .iter()
                    .try_fold(0u64, |sum, e| sum.checked_add(e.2[0]))
                    .is_some()
            });
        let mut coef = Vec::with_capacity(entries.len() * coef_limbs);
        for e in &entries {
            coef.extend_from_slice(&e.2);
            coef.resize(coef.len() + coef_limbs - e.2.len(), 0);
        }
        Sums {
            col_start,
            by_target: entries.iter().enumerate().map(|(k, e)| (e.1, k)).collect(),
            coef,
            coef_limbs,
            lazy_carries,
        }
    }

    /// The entries into state j.
    fn entries_into(&self, j: usize) -> &[(usize, usize)] {
        &self.by_target[self.col_start[j]..self.col_start[j + 1]]
    }

    /// The limbs a sum into j may take, from the sources' counts `len`: 0 when it is 0.
    fn width(&self, j: usize, len: &[usize]) -> usize {
        let top = self
            .entries_into(j)
            .iter()
            .map(|&(i, _)| len[i])
            .max()
            .unwrap_or(0);
        match top {
            0 => 0,
            top => top + self.coef_limbs + 1,
        }
    }

    /// `out = sum into j of count(i) * coefficient`, `out` as long as [`Sums::width`] or
    /// longer.
    fn sum(
        &self,
        j: usize,
        counts: &Counts,
        (wide, over): (&mut Vec<u128>, &mut Vec<u64>),
        out: &mut [u64],
    ) {
        let entries = self.entries_into(j);
        if self.lazy_carries {
            let top = entries
                .iter()
                .map(|&(i, _)| counts.len[i])
                .max()
                .unwrap_or(0);
            counts.sum_narrow(entries, &self.coef, top, wide, out);
        } else {
            counts.sum_wide(entries, &self.coef, self.coef_limbs, wide, over, out);
        }
    }
}

/// The whole turns a [`LinkedTurns`] is built from: the common denominator D (a word), the
/// rows' targets `col` and coefficients `coef` (D p, one limb each), row i at
/// `row_start[i]..row_start[i + 1]`, and the number of states.
pub(super) struct WholeTurns<'a> {
    pub(super) d: u64,
    pub(super) row_start: &'a [usize],
    pub(super) col: &'a [usize],
    pub(super) coef: &'a [u64],
    pub(super) states: usize,
}

/// An entry of E as [`LinkedTurns::assemble`] takes it: (target, source, coefficient limbs).
pub(super) type Entry = (usize, usize, Vec<u64>);

impl LinkedTurns {
    /// The stepping through `links` (one per transient state) of a chain whose whole turns
    /// are `whole`, or `None` when no state has a link, the links' denominators differ, a
    /// number outgrows a word or the links do not take fewer products than the whole turns.
    pub(super) fn new(links: &[Option<&Link>], whole: &WholeTurns) -> Option<LinkedTurns> {
        let d = links.iter().flatten().next()?.denom;
        let count = links.iter().flatten().count();
        let (steps, depth) = order(links)?;
        let d_pow = d.checked_pow(u32::try_from(depth).ok()?)?;
        let mut entries: Vec<Entry> = Vec::new();
        for (i, link) in links.iter().enumerate() {
            match link {
                Some(link) => {
                    for &(j, c) in &link.ends {
                        entries.push((j, i, vec![whole.d.checked_mul(c)?]));
                    }
                }
                None => {
                    let row = whole.row_start[i]..whole.row_start[i + 1];
                    entries.extend(row.map(|k| (whole.col[k], i, vec![whole.coef[k]])));
                }
            }
        }
        if d < 2
            || entries.len() + count >= whole.col.len()
            || entries.iter().any(|e| e.0 >= whole.states)
        {
            return None;
        }
        Some(LinkedTurns {
            d: ExactDivisor::new(d),
            d_pow: vec![d_pow],
            d_pow_div: Some(ExactDivisor::new(d_pow)),
            steps,
            ends: Sums::new(entries, whole.states),
            whole: None,
        })
    }

    /// The stepping of a chain held as links only: `links` (one per transient state), the
    /// ending rolls `ends` (numerators c) and the unlinked states' whole turns `whole` scaled
    /// by `l` (L, the least common multiple of their denominators), into `states` states. The
    /// next counts are at scale `s d^A L`; returns A too. `None` when the links' denominators
    /// differ or an entry's target is out of range.
    pub(super) fn of_links(
        links: &[Option<&Link>],
        (ends, whole, l): (Vec<Entry>, Vec<Entry>, Vec<u64>),
        states: usize,
    ) -> Option<(LinkedTurns, u32)> {
        if ends.iter().chain(&whole).any(|e| e.0 >= states) {
            return None;
        }
        let d = links.iter().flatten().next().map_or(1, |l| l.denom);
        let (steps, depth) = order(links)?;
        let depth = u32::try_from(depth).ok()?;
        let turns = LinkedTurns {
            d: ExactDivisor::new(d),
            d_pow: num_bigint::BigUint::from(d).pow(depth).to_u64_digits(),
            d_pow_div: None,
            steps,
            ends: Sums::new(ends, states),
            whole: Some((Sums::new(whole, states), l)),
        };
        Some((turns, depth))
    }

    /// The limbs of a coefficient.
    pub(super) fn coef_limbs(&self) -> usize {
        let whole = self
            .whole
            .as_ref()
            .map_or(1, |w| w.0.coef_limbs + w.1.len());
        self.ends.coef_limbs.max(whole)
    }

    /// The entries held: the ending rolls, the whole turns' entries and the links.
    pub(super) fn entries(&self) -> usize {
        let whole = self.whole.as_ref().map_or(0, |w| w.0.by_target.len());
        self.ends.by_target.len() + whole + self.steps.len()
    }
}

/// The links in an order that puts every state before the one its link leads to
/// ([`crate::chain::link_order`]), as (from, to, g), and the longest chain of links A; `None`
/// on a cycle, when the denominators differ or a link goes on with more than its denominator.
fn order(links: &[Option<&Link>]) -> Option<(Vec<LinkStep>, usize)> {
    let d = links.iter().flatten().next().map_or(1, |l| l.denom);
    if links
        .iter()
        .flatten()
        .any(|l| l.denom != d || l.goes_on > d)
    {
        return None;
    }
    let mut depth = vec![0usize; links.len()];
    let mut steps = Vec::new();
    for i in crate::chain::link_order(links)? {
        let link = links[i]?;
        steps.push((i, link.next, link.goes_on));
        depth[link.next] = depth[link.next].max(depth[i] + 1);
    }
    Some((steps, depth.into_iter().max().unwrap_or(0)))
}

/// `dst = src * c`, every limb of `dst` written (`dst` longer than `src` by `c`'s limbs).
fn mul_into(dst: &mut [u64], src: &[u64], c: &[u64]) {
    if let [c] = c {
        let mut carry = 0u64;
        let (low, high) = dst.split_at_mut(src.len());
        for (d, &s) in low.iter_mut().zip(src) {
            let t = u128::from(s) * u128::from(*c) + u128::from(carry);
            *d = t as u64;
            carry = (t >> 64) as u64;
        }
        high[0] = carry;
        high[1..].fill(0);
        return;
    }
    dst.fill(0);
    for (k, &c) in c.iter().enumerate() {
        mac(&mut dst[k..], src, c);
    }
}

/// The stepper's room for the sums: Y (`y_stride` limbs per transient state) and one row of P.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    y: Vec<u64>,
    y_len: Vec<usize>,
    y_stride: usize,
    row: Vec<u64>,
    row_whole: Vec<u64>,
    wide: Vec<u128>,
    overflows: Vec<u64>,
}

impl Stepper<'_> {
    /// Writes the next turn's counts at scale `scale() D` (before the content is removed) into
    /// `next`, through the links `l`: the sums Y, then `P = Y E` target by target, divided by
    /// d^A.
    pub(super) fn fill_linked(&mut self, l: &LinkedTurns) {
        let c = self.chain;
        let (t, states, stride) = (c.transient, c.transient + c.finals, self.stride);
        // Y_x <= d^A scale (times L, on the links form, once divided by d).
        let limbs =
            |x: &[u64]| 64 * x.len() as u64 - u64::from(x.last().map_or(64, |w| w.leading_zeros()));
        let l_bits = l.whole.as_ref().map_or(0, |w| limbs(&w.1));
        let ys = (self.scale.bits() + limbs(&l.d_pow) + l_bits) as usize / 64 + 2;
        let sc = &mut self.scratch;
        sc.y_stride = ys;
        // Every limb is written: no need to clear.
        sc.y.resize(t * ys, 0);
        sc.y_len.clear();
        sc.y_len.resize(t, 0);
        for i in 0..t {
            let w = &self.mass[i * stride..i * stride + self.len[i]];
            mul_into(&mut sc.y[i * ys..(i + 1) * ys], w, &l.d_pow);
        }
        for &(from, to, g) in &l.steps {
            let (y_from, y_to) = match from < to {
                true => {
                    let (a, b) = sc.y.split_at_mut(to * ys);
                    (&mut a[from * ys..(from + 1) * ys], &mut b[..ys])
                }
                false => {
                    let (a, b) = sc.y.split_at_mut(from * ys);
                    (&mut b[..ys], &mut a[to * ys..(to + 1) * ys])
                }
            };
            let n = significant(y_from);
            if n == 0 {
                continue;
            }
            l.d.divide(&mut y_from[..n]);
            let n = significant(&y_from[..n]);
            mac(y_to, &y_from[..n], g);
        }
        // On the links form the linked states' `Y_x / d` take L here, once, rather than in
        // each of their ending rolls' coefficients.
        if let Some((_, lm)) = l.whole.as_ref().filter(|w| w.1 != [1]) {
            for &(from, _, _) in &l.steps {
                let y = &mut sc.y[from * ys..(from + 1) * ys];
                let n = significant(y);
                if n > 0 {
                    sc.row.clear();
                    sc.row.extend_from_slice(&y[..n]);
                    mul_into(y, &sc.row, lm);
                }
            }
        }
        for i in 0..t {
            sc.y_len[i] = significant(&sc.y[i * ys..(i + 1) * ys]);
        }
        let counts = Counts {
            mass: &sc.y,
            len: &sc.y_len,
            stride: ys,
        };
        for j in 0..states {
            let ends = l.ends.width(j, &sc.y_len);
            let whole = l.whole.as_ref().map_or(0, |w| w.0.width(j, &sc.y_len));
            let width = ends.max(whole) + 1;
            if width == 1 {
                continue;
            }
            let scratch = (&mut sc.wide, &mut sc.overflows);
            sc.row.clear();
            sc.row.resize(width, 0);
            if ends > 0 {
                l.ends.sum(j, &counts, scratch, &mut sc.row[..ends]);
            }
            if let (Some((sums, _)), true) = (&l.whole, whole > 0) {
                sc.row_whole.clear();
                sc.row_whole.resize(whole, 0);
                let scratch = (&mut sc.wide, &mut sc.overflows);
                sums.sum(j, &counts, scratch, &mut sc.row_whole);
                let n = significant(&sc.row_whole);
                mac(&mut sc.row, &sc.row_whole[..n], 1);
            }
            let mut n = significant(&sc.row);
            if let Some(div) = &l.d_pow_div {
                div.divide(&mut sc.row[..n]);
                n = significant(&sc.row[..n]);
            }
            assert!(n <= stride, "a count outgrew its stride");
            self.next[j * stride..j * stride + n].copy_from_slice(&sc.row[..n]);
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod links_form_tests;
