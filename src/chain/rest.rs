//! The turns of one player under unlimited roll-again, each summed from the turn of the square
//! its top throw leads to, in machine words. [`super::compound`] finds the rolls from each
//! in-turn square ([`RollsFrom`], the one definition of what a roll does) and sums the turns
//! this file cannot; this file only adds up probabilities, and records for each square summed
//! from the next square's the link between the two ([`super::links`]), whatever route summed
//! the next square's turn.
//!
//! # Formula
//!
//! Under unlimited roll-again a turn is memoryless: after a top throw the rest of the turn is a
//! fresh turn from where it landed. So when the rolls from square x (over their common
//! denominator d) end on states with numerators `c` and go on to one square y with numerator
//! g, the turn from x is
//!
//! ```text
//! T(x) = c / d + (g / d) T(y),
//! ```
//!
//! for the law of where the turn ends and for each expected reward alike (a roll counts `d / d`).
//! A run of top throws from many squares passes the same squares (efi's 82 turns pass about
//! 620 in-turn squares, about 100 distinct), so each square's law is summed once, from the next
//! square's, and kept. Each amount of `T(y)` is a fraction `a / b` in lowest terms, so the new
//! amount `n / (d b)` with `n = c b + g a` needs no general gcd: `gcd(n, b) = gcd(g a, b) =
//! gcd(g, b)` (as `gcd(a, b) = 1`), and
//!
//! ```text
//! gcd(n, d b) = gcd(n, b) gcd(n / gcd(n, b), d),
//! ```
//!
//! two gcds with small words (for efi, g = 1 and d = 6). A square whose run closes a cycle
//! (a bounce back from the finish), whose rolls go on to more than one square, or whose numbers
//! do not fit a word is summed as a whole turn by [`super::compound`], as every turn was before;
//! the squares before it then take their laws from it as above, or are summed whole too when
//! it did not fit.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use super::compound::{compound_move_memo, rolls_at, RollScratch, RollsFrom, RollsMemo};
use super::links::{LinkRecord, LinkRecords};
use super::rows::Kept;
use super::words::{Frac, Law, WordRewards};
use super::{Turn, WordHasher};
use crate::game::{InTurn, RollGame};

/// A square's law: being worked out (on the current run), or known (`None`: the square's turn
/// is summed whole, and so are those of the squares whose runs pass it).
enum Slot<S> {
    Walking,
    Done(Option<Rc<Law<S>>>),
}

/// The laws of the squares seen so far, kept across the turns of one chain, the link of
/// each square summed from the next square's ([`super::links`]), and the buffers the sums
/// work in, reused from turn to turn.
pub(super) struct Laws<S> {
    laws: RefCell<HashMap<S, Slot<S>, BuildHasherDefault<WordHasher>>>,
    links: RefCell<LinkRecords<S>>,
    scratch: RefCell<Scratch<S>>,
}

/// The buffers of [`law`]: the rolls' ([`RollScratch`]), the run walked, and one square's
/// ending rolls as its turn ends them, sorted.
struct Scratch<S> {
    rolls: RollScratch<S>,
    walk: Vec<(S, Rc<RollsFrom<S>>)>,
    ends: Vec<(S, u128)>,
}

impl<S> Laws<S> {
    /// No law yet, with room for `squares` of them (no map grows while the turns are summed).
    pub(super) fn with_capacity(squares: usize) -> Laws<S> {
        Laws {
            laws: RefCell::new(HashMap::with_capacity_and_hasher(
                squares,
                Default::default(),
            )),
            links: RefCell::new(HashMap::with_capacity_and_hasher(
                squares,
                Default::default(),
            )),
            scratch: RefCell::new(Scratch {
                rolls: RollScratch::default(),
                walk: Vec::new(),
                ends: Vec::new(),
            }),
        }
    }

    /// The links recorded so far.
    pub(super) fn links(&self) -> std::cell::Ref<'_, LinkRecords<S>> {
        self.links.borrow()
    }
}

/// The turn from the non-final `state`, with the in-turn rolls in `rolls` and the squares' laws
/// in `laws`, for a game whose rolls from a state do not depend on where the turn began and
/// count no streak (one player under unlimited roll-again, as [`RollsMemo`] says): the same
/// turn as [`super::compound_move`], in words when its numbers fit them.
pub(super) fn turn<G: RollGame>(
    game: &G,
    state: &G::State,
    rolls: &RollsMemo<G::State>,
    laws: &Laws<G::State>,
) -> Kept<Rc<Law<G::State>>, Turn<G::State>> {
    if game.skip(state).is_none() {
        if let Some(law) = law(game, state, rolls, laws) {
            return Kept::Words(law);
        }
    }
    Kept::Big(compound_move_memo(game, state, rolls))
}

/// The law of the turn from `state`: walks the run of top throws from it until a square whose
/// law is known, a square whose rolls all end the turn, a branch or a cycle, then sums the
/// laws back along the run.
fn law<G: RollGame>(
    game: &G,
    state: &G::State,
    rolls: &RollsMemo<G::State>,
    laws: &Laws<G::State>,
) -> Option<Rc<Law<G::State>>> {
    let mut memo = laws.laws.borrow_mut();
    let mut links = laws.links.borrow_mut();
    let mut scratch = laws.scratch.borrow_mut();
    let Scratch {
        rolls: buffers,
        walk,
        ends,
    } = &mut *scratch;
    walk.clear();
    let mut at = state.clone();
    let mut last = loop {
        match memo.get(&at) {
            Some(Slot::Done(law)) => break law.clone(),
            Some(Slot::Walking) => {
                // The run closes a cycle: its last square's turn is summed whole.
                let (x, _) = walk.pop().expect("a square on the run was walked");
                let law = Law::of(&compound_move_memo(game, &x, rolls)).map(Rc::new);
                memo.insert(x, Slot::Done(law.clone()));
                break law;
            }
            None => {}
        }
        let first = InTurn {
            at: at.clone(),
            streak: 0,
        };
        let r = rolls_at(game, &at, first, Some(rolls), buffers);
        match r.goes_on.as_slice() {
            [] => {
                let law = law_from(&r, None, ends).map(Rc::new);
                memo.insert(at, Slot::Done(law.clone()));
                break law;
            }
            [(next, _)] => {
                let next = next.at.clone();
                memo.insert(at.clone(), Slot::Walking);
                walk.push((at, r));
                at = next;
            }
            _ => {
                memo.insert(at, Slot::Done(None));
                break None;
            }
        }
    };
    while let Some((x, r)) = walk.pop() {
        let (next, g) = r.goes_on[0].clone();
        let next = next.at;
        let record = LinkRecord {
            next,
            goes_on: g,
            ends: r.ends.clone(),
            denom: r.denom,
        };
        links.insert(x.clone(), record);
        last = last
            .and_then(|then| law_from(&r, Some((g, &then)), ends))
            .map(Rc::new);
        memo.insert(x, Slot::Done(last.clone()));
    }
    last
}

/// `c / d + (g / d) T(y)` for every amount, with `then` = `(g, T(y))` (none: g = 0), or `None`
/// when a number does not fit a word; `ends` is a buffer for the rolls' ends.
fn law_from<S: Ord + Clone>(
    r: &RollsFrom<S>,
    then: Option<(u128, &Law<S>)>,
    ends: &mut Vec<(S, u128)>,
) -> Option<Law<S>> {
    let d = r.denom;
    let (g, later, rewards) = match then {
        Some((g, law)) => (g, &law.next[..], law.rewards),
        None => (0, &[][..], WordRewards::ZERO),
    };
    ends.clear();
    ends.extend(r.ends.iter().cloned());
    // A roll's ends come nearly sorted (the faces in order, but for jumps): by insertion.
    for i in 1..ends.len() {
        let mut j = i;
        while j > 0 && ends[j - 1].0 > ends[j].0 {
            ends.swap(j - 1, j);
            j -= 1;
        }
    }
    // Merged by state: the few ending rolls into the later law's entries, each of which is
    // scaled by g / d (`Scale`), with the rolls' own numerators added where a state has both.
    let scale = Scale::new(d, g);
    let mut next = Vec::with_capacity(ends.len() + later.len());
    let (mut i, mut k) = (0, 0);
    while i < ends.len() {
        let s = &ends[i].0;
        let mut c = 0u128;
        while i < ends.len() && ends[i].0 == *s {
            c = c.checked_add(ends[i].1)?;
            i += 1;
        }
        while k < later.len() && later[k].0 < *s {
            next.push((later[k].0.clone(), scale.of(later[k].1)?));
            k += 1;
        }
        let x = match later.get(k) {
            Some((t, x)) if t == s => {
                k += 1;
                *x
            }
            _ => Frac::ZERO,
        };
        next.push((s.clone(), combine(c, d, g, x)?));
    }
    for (t, x) in &later[k..] {
        next.push((t.clone(), scale.of(*x)?));
    }
    let mut sums = [Frac::ZERO; 5];
    for ((sum, c), x) in sums
        .iter_mut()
        .zip([d].iter().chain(&r.counts))
        .zip(rewards.counts)
    {
        *sum = combine(*c, d, g, x)?;
    }
    Some(Law {
        next,
        rewards: WordRewards {
            counts: sums,
            points: combine_signed(r.points, d, g, rewards.points)?,
        },
    })
}

/// `(g / d) x` for the entries of a later law: [`combine`] with `c = 0`, and with g = 1 and a
/// small d (a die's faces) without a gcd. With `x = a / b` in lowest terms, `gcd(a, d b) =
/// gcd(a, d) = gcd(a mod d, d)` (a prime dividing a does not divide b), read from a table of
/// d entries made once per law: the usual 1 costs one remainder and no division.
struct Scale {
    d: u128,
    g: u128,
    /// `gcd(r, d)` for `r < d`, when g = 1 and d is below [`Scale::SMALL`].
    gcds: Option<[u8; Scale::SMALL]>,
}

impl Scale {
    const SMALL: usize = 64;

    fn new(d: u128, g: u128) -> Scale {
        let gcds = (g == 1 && d < Scale::SMALL as u128).then(|| {
            let mut gcds = [0u8; Scale::SMALL];
            for (r, h) in gcds.iter_mut().enumerate().take(d as usize) {
                // At most d, below SMALL.
                *h = gcd_words(r as u64, d as u64) as u8;
            }
            gcds
        });
        Scale { d, g, gcds }
    }

    /// `(g / d) x` in lowest terms, or `None` when it does not fit a word.
    fn of(&self, x: Frac) -> Option<Frac> {
        let Some(gcds) = &self.gcds else {
            return combine(0, self.d, self.g, x);
        };
        if x.num == 0 {
            return Some(Frac::ZERO);
        }
        let d = self.d as u64;
        let h = u64::from(gcds[(x.num % d) as usize]);
        let m = wide(d, x.den);
        Some(match h {
            1 => Frac {
                num: x.num,
                den: u64::try_from(m).ok()?,
            },
            _ => Frac {
                num: x.num / h,
                den: u64::try_from(m / u128::from(h)).ok()?,
            },
        })
    }
}

/// `c / d + (g / d) x` in lowest terms, or `None` when it does not fit a word. With
/// `x = a / b` in lowest terms the sum is `n / (d b)`, `n = c b + g a`, and its gcd with the
/// denominator takes two small gcds (this file's formula).
fn combine(c: u128, d: u128, g: u128, x: Frac) -> Option<Frac> {
    let (a, b) = (u128::from(x.num), u128::from(x.den));
    if let (Ok(c), Ok(d), Ok(g)) = (u64::try_from(c), u64::try_from(d), u64::try_from(g)) {
        // The usual case: every factor a word, so each product is one machine multiplication.
        let n = wide(c, x.den).checked_add(wide(g, x.num))?;
        if let (Ok(n), Ok(m)) = (u64::try_from(n), u64::try_from(wide(d, x.den))) {
            return Some(reduce_words(n, m, d, g, x.den));
        }
    }
    let n = c.checked_mul(b)?.checked_add(g.checked_mul(a)?)?;
    reduce(n, d, g, b)
}

/// `a b` in 128 bits.
fn wide(a: u64, b: u64) -> u128 {
    u128::from(a) * u128::from(b)
}

/// [`reduce`] when `n` and `m = d b` fit words (then so do `d` and `b`).
fn reduce_words(n: u64, m: u64, d: u64, g: u64, b: u64) -> Frac {
    if n == 0 {
        return Frac::ZERO;
    }
    let h1 = gcd_words(g, b);
    let h = h1 * gcd_words((n / h1) % d, d);
    Frac {
        num: n / h,
        den: m / h,
    }
}

/// `n / (d b)` in lowest terms, where `gcd(n, b) = gcd(g, b)`, or `None` when it does not fit a
/// word.
fn reduce(n: u128, d: u128, g: u128, b: u128) -> Option<Frac> {
    if n == 0 {
        return Some(Frac::ZERO);
    }
    let m = d.checked_mul(b)?;
    let h1 = gcd(g, b);
    let h = h1 * gcd((n / h1) % d, d);
    Some(Frac {
        num: u64::try_from(n / h).ok()?,
        den: u64::try_from(m / h).ok()?,
    })
}

/// [`combine`] for a signed numerator `c` and a signed `x` (the points): `(negative, |sum|)`.
fn combine_signed(c: i128, d: u128, g: u128, x: (bool, Frac)) -> Option<(bool, Frac)> {
    let (a, b) = (i128::from(x.1.num), u128::from(x.1.den));
    let ga = i128::try_from(g)
        .ok()?
        .checked_mul(if x.0 { -a } else { a })?;
    let n = c.checked_mul(i128::try_from(b).ok()?)?.checked_add(ga)?;
    Some((n < 0, reduce(n.unsigned_abs(), d, g, b)?))
}

/// Euclid's gcd (`gcd(0, b) = b`), in `u64` when both fit one.
fn gcd(a: u128, b: u128) -> u128 {
    if let (Ok(a), Ok(b)) = (u64::try_from(a), u64::try_from(b)) {
        return u128::from(gcd_words(a, b));
    }
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Euclid's gcd in words (`gcd(0, b) = b`; `gcd(1, b) = 1` at once, the usual `g`).
fn gcd_words(mut a: u64, mut b: u64) -> u64 {
    if a == 1 {
        return 1;
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests;
