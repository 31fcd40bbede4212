//! Chains of jumps resolved once, when the board is validated: where a token that lands on a
//! square ends up after following every fixed jump (`chain = true`), with the snakes, ladders
//! and squares climbed and slid on the way. `game::roll`'s `follow` then takes a whole chain in one
//! lookup; before, it walked the chain on every roll, so a board whose jumps chain 100,000
//! squares long cost 100,000 steps per landing (`simulate -n 1 --max-turns 1` took 51 s).

use super::Square;

/// Where the fixed jumps from a square lead, and what they take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chained {
    /// The square the chain ends on (the square itself when it has no jump).
    pub to: Square,
    /// Snakes taken.
    pub snakes: u32,
    /// Ladders taken.
    pub ladders: u32,
    /// Squares climbed by the ladders.
    pub climbed: u32,
    /// Squares slid down by the snakes.
    pub slid: u32,
}

/// `chained[t]` for every square t: `None` when the chain from t meets a square whose effect
/// depends on the game (a chance square, a one-use jump), which `game::roll`'s `follow` walks as before.
/// `jump_once[t]` is the end of t's own jump (t itself for none); there is no cycle (validated).
/// Each square is walked once: O(size).
pub(crate) fn resolve(
    jump_once: &[Square],
    blocked: &dyn Fn(Square) -> bool,
) -> Vec<Option<Chained>> {
    // None inside: not yet known; Some(None): blocked; Some(Some(c)): resolved.
    let mut known: Vec<Option<Option<Chained>>> = vec![None; jump_once.len()];
    let mut path: Vec<Square> = Vec::new();
    for first in 0..jump_once.len() {
        let mut t = first as Square;
        // Walk forward until a square whose answer is known, or the chain's end.
        let mut end = loop {
            if let Some(k) = known[t as usize] {
                break k;
            }
            if blocked(t) {
                known[t as usize] = Some(None);
                break None;
            }
            let next = jump_once[t as usize];
            if next == t {
                let c = Chained {
                    to: t,
                    ..Chained::default()
                };
                known[t as usize] = Some(Some(c));
                break Some(c);
            }
            path.push(t);
            t = next;
        };
        // Unwind: each square on the path takes its jump, then what follows it.
        while let Some(from) = path.pop() {
            end = end.map(|mut c| {
                let to = jump_once[from as usize];
                if to > from {
                    c.ladders += 1;
                    c.climbed = c.climbed.wrapping_add(to - from);
                } else {
                    c.snakes += 1;
                    c.slid = c.slid.wrapping_add(from - to);
                }
                c
            });
            known[from as usize] = Some(end);
        }
    }
    known.into_iter().map(Option::flatten).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_taken_whole_and_a_blocked_square_stops_it() {
        // 1 -> 5 (ladder), 5 -> 2 (snake), 2 -> 9 (ladder); 7 -> 3 (snake), 3 blocked.
        let mut jump: Vec<Square> = (0..=10).collect();
        for (a, b) in [(1, 5), (5, 2), (2, 9), (7, 3)] {
            jump[a] = b;
        }
        let c = resolve(&jump, &|t| t == 3);
        // By hand: from 1, ladders 1 -> 5 and 2 -> 9 (climbed 4 + 7), snake 5 -> 2 (slid 3).
        let one = Chained {
            to: 9,
            snakes: 1,
            ladders: 2,
            climbed: 11,
            slid: 3,
        };
        assert_eq!(c[1], Some(one));
        assert_eq!(
            c[5],
            Some(Chained {
                to: 9,
                snakes: 1,
                ladders: 1,
                climbed: 7,
                slid: 3
            })
        );
        assert_eq!(
            c[9],
            Some(Chained {
                to: 9,
                ..Chained::default()
            })
        );
        assert_eq!(
            c[4],
            Some(Chained {
                to: 4,
                ..Chained::default()
            })
        );
        assert_eq!((c[3], c[7]), (None, None));
    }

    #[test]
    fn a_chain_as_long_as_the_board_is_resolved_in_one_pass() {
        // 1 -> 2 -> ... -> 99,999 (ladders of one square each).
        let n: Square = 100_000;
        let mut jump: Vec<Square> = (0..=n).collect();
        for t in 1..n - 1 {
            jump[t as usize] = t + 1;
        }
        let c = resolve(&jump, &|_| false);
        let want = Chained {
            to: n - 1,
            snakes: 0,
            ladders: n - 2,
            climbed: n - 2,
            slid: 0,
        };
        assert_eq!(c[1], Some(want));
        assert_eq!(c[n as usize - 2].unwrap().ladders, 1);
    }
}
