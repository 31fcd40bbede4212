//! A player who chooses: the game of a board with a choice rule as a Markov decision process
//! ([`Game`]), built from [`crate::game::roll`] and [`crate::game::nudge`] (docs/model.md,
//! "Choices"; docs/optimal-play.md).
//!
//! A turn from square s (roll_again = none) is: a random **situation** k with weight w_k out of
//! W_s, in which the player faces a **decision node**; the node's actions each lead to squares
//! with integer weights. With `choose_die` and `choose_face` the one situation is the square
//! itself (the choice comes before the roll); with `coin` the situations are the squares the roll
//! leads to (the choice comes after the move); with `pick` they are the sets of faces shown; with
//! `decline` they are where the roll stops: on a declinable jump's square, the jump offered, or
//! where the move ends with nothing offered (a node of one action). A
//! node is shared by every situation that leads to it (the coin's node is the square where the
//! roll put the token, whatever square the turn began on), so a policy, one action per node,
//! is a function of what the player sees when the choice comes.
//!
//! With `decline` and `chain = true` a jump taken may lead to another declinable jump, offered
//! in the same move: the actions of the node of the first are where the move stops, each jump
//! after it taken or declined (`take`, declining at each later one, or `decline`), and each
//! later jump has a node of its own. A policy names one choice per square, so
//! [`Game::by_square`] makes the first node's action agree with the later nodes' choices.
//!
//! The expected turns under the best policy satisfy the Bellman equation
//!
//! ```text
//! V(N) = 0,   V(s) = 1 + sum_k (w_k / W_s) min_a sum_s' P_a(s') V(s')
//! ```
//!
//! [`optimize`] solves it by policy iteration with exact policy evaluation.

mod chain;
// Crate-internal; what the command line, tests and benchmarks still reach of them is in
// `crate::internals`, the answers the façade returns are re-exported below.
pub(crate) mod duel;
pub(crate) mod duel_proof;
mod evaluate;
mod optimize;
pub(crate) mod policy_file;
mod within;

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::board::dice::lcm;
use crate::board::{Board, ChoiceRule, Square};
use crate::game::{nudge, roll, roll_to_offer, take_offer, RollLaw};

pub use chain::{Branch, PolicyModel};
pub use duel::DuelTooLong;
pub use evaluate::{evaluate, Evaluation};
pub use optimize::{bellman_holds, optimize, value_iteration, Optimum};
pub use within::{within, Within};

/// One choice the player can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Choice {
    /// Throw the die with this many faces (`choose_die`).
    Die(u32),
    /// Do not flip the coin (`coin`).
    Keep,
    /// Flip the coin (`coin`).
    Flip,
    /// Move by this face (`pick`, `choose_face`).
    Face(u32),
    /// Take the jump offered, and every declinable jump it leads to in the same move
    /// (`decline`).
    Take,
    /// Take the jump offered and the ones it leads to up to the one on this square, declined
    /// (`decline`, `chain = true`; written `take`: the later square has its own choice).
    TakeUntil(Square),
    /// Decline the jump offered: the token stays on its square (`decline`).
    Decline,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Die(faces) => write!(f, "d{faces}"),
            Choice::Keep => f.write_str("keep"),
            Choice::Flip => f.write_str("flip"),
            Choice::Face(v) => write!(f, "{v}"),
            Choice::Take | Choice::TakeUntil(_) => f.write_str("take"),
            Choice::Decline => f.write_str("decline"),
        }
    }
}

/// What the player sees when a choice comes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKey {
    /// Before the roll, on this square (`choose_die`, `choose_face`).
    Before(Square),
    /// After the roll's move, on this square (`coin`).
    After(Square),
    /// On this square, the dice show these faces (`pick`; distinct faces, ascending).
    Shown(Square, Vec<u32>),
    /// The move (or a jump) put the token on this square's declinable jump (`decline`).
    Offered(Square),
    /// The move ended on this square with no jump offered: nothing to choose (`decline`).
    Landed(Square),
    /// The roll finished the game: nothing to choose.
    Done,
}

/// One action of a node: where it leads, with integer weights out of `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The choice.
    pub choice: Choice,
    /// (state index, or `None` for the finish; weight), each target once.
    pub next: Vec<(Option<usize>, u64)>,
    /// The sum of the weights.
    pub total: u64,
}

/// A decision node: what the player sees, and the actions open to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// What the player sees.
    pub key: NodeKey,
    /// The actions (at least one).
    pub actions: Vec<Action>,
}

/// The decision process of a board with a choice rule.
#[derive(Clone, Debug)]
pub struct Game {
    /// The squares other than the finish reachable from the start under some policy, ascending.
    pub squares: Vec<Square>,
    /// The index of the start square (`None` when the game starts on the finish).
    pub start: Option<usize>,
    /// For each state, its situations: (weight, node index).
    pub situations: Vec<Vec<(u64, usize)>>,
    /// For each state, W_s: the sum of its situations' weights.
    pub totals: Vec<u64>,
    /// The decision nodes.
    pub nodes: Vec<Node>,
    /// The board's choice rule.
    pub rule: ChoiceRule,
    /// Where each node sits by what the player sees.
    places: NodePlaces,
}

/// The nodes of a [`Game`] by what the player sees: each [`NodeKey`] has a slot computed from
/// its parts (the finish first, then the square's slots), so finding a node is an index.
#[derive(Clone, Debug)]
struct NodePlaces {
    /// The slots of one square: 1, 2 with `decline` (offered, landed), or with `pick` one for
    /// each set of at most k faces.
    width: usize,
    /// The faces of the die (`pick`).
    sides: usize,
    /// The node in each slot, or `u32::MAX` for none.
    node: Vec<u32>,
}

impl NodePlaces {
    /// No node yet, on `board` with `rule`.
    fn new(board: &Board, rule: &ChoiceRule) -> NodePlaces {
        let sides = board.dice().weights().len();
        let width = match rule {
            ChoiceRule::Decline(_) => 2,
            ChoiceRule::Pick(k) => (1..=*k as usize).map(|j| binomial(sides, j)).sum(),
            _ => 1,
        };
        NodePlaces {
            width,
            sides,
            node: vec![u32::MAX; 1 + (board.size() as usize + 1) * width],
        }
    }

    /// The slot of `key`.
    #[inline]
    fn slot(&self, key: &NodeKey) -> usize {
        let at = |s: Square, k: usize| 1 + s as usize * self.width + k;
        match key {
            NodeKey::Done => 0,
            NodeKey::Before(s) | NodeKey::After(s) | NodeKey::Offered(s) => at(*s, 0),
            NodeKey::Landed(s) => at(*s, 1),
            NodeKey::Shown(s, faces) => at(*s, self.shown_rank(faces)),
        }
    }

    /// The place of a set of faces shown among the sets of at most k faces: by size, then
    /// colexicographically (the set a_1 < ... < a_j of j faces after those of fewer faces, at
    /// sum_t C(a_t - 1, t)). Kept out of line so that [`NodePlaces::slot`] stays small enough to
    /// inline into the simulator's roll.
    #[inline(never)]
    fn shown_rank(&self, faces: &[u32]) -> usize {
        let fewer: usize = (1..faces.len()).map(|j| binomial(self.sides, j)).sum();
        let rank: usize = (1..)
            .zip(faces)
            .map(|(t, &a)| binomial(a as usize - 1, t))
            .sum();
        fewer + rank
    }

    /// The node of `key`, if the game has it.
    fn get(&self, key: &NodeKey) -> Option<usize> {
        let k = *self.node.get(self.slot(key))?;
        (k != u32::MAX).then_some(k as usize)
    }
}

/// C(n, k), the number of sets of k of n things.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// A policy: one action index per node of a [`Game`].
pub type Policy = Vec<usize>;

/// Where a mixture of roll laws leads: `parts` are (weight, law); returns (square, weight)
/// merged by square, and the total.
fn mix(parts: Vec<(u64, RollLaw)>) -> (Vec<(Square, u64)>, u64) {
    let lcm = parts.iter().fold(1u64, |l, (_, law)| lcm(l, law.total()));
    let mut out: BTreeMap<Square, u64> = BTreeMap::new();
    let mut total = 0;
    for (w, law) in parts {
        let scale = w * (lcm / law.total());
        total += w * lcm;
        for &(bw, o) in law.branches() {
            *out.entry(o.to).or_insert(0) += scale * bw;
        }
    }
    (out.into_iter().collect(), total)
}

/// Every throw of `count` dice with face weights `weights`, as (weight, distinct faces shown).
fn shown(weights: &[u64], count: u32) -> BTreeMap<Vec<u32>, u64> {
    let faces: Vec<(u32, u64)> = (1..)
        .zip(weights.iter().copied())
        .filter(|(_, w)| *w > 0)
        .collect();
    let mut out = BTreeMap::new();
    let mut tuple = vec![0usize; count as usize];
    loop {
        let mut set: Vec<u32> = tuple.iter().map(|&i| faces[i].0).collect();
        set.sort_unstable();
        set.dedup();
        let w: u64 = tuple.iter().map(|&i| faces[i].1).product();
        *out.entry(set).or_insert(0) += w;
        // Next tuple (odometer).
        let mut d = 0;
        loop {
            if d == tuple.len() {
                return out;
            }
            tuple[d] += 1;
            if tuple[d] < faces.len() {
                break;
            }
            tuple[d] = 0;
            d += 1;
        }
    }
}

impl Game {
    /// The decision process of `board`, or `None` when the board has no choice rule.
    pub fn new(board: &Board) -> Option<Game> {
        let rule = board.choice()?.clone();
        let n = board.size();
        let start = board.rules().start;
        let mut index: HashMap<Square, usize> = HashMap::new();
        let mut squares: Vec<Square> = Vec::new();
        if start != n {
            index.insert(start, 0);
            squares.push(start);
        }
        let mut places = NodePlaces::new(board, &rule);
        let mut raw_nodes: Vec<(NodeKey, Vec<RawAction>)> = Vec::new();
        let mut situations = Vec::new();
        let mut totals = Vec::new();
        let mut i = 0;
        while i < squares.len() {
            let (list, total) = situations_of(board, &rule, squares[i]);
            let mut row = Vec::with_capacity(list.len());
            for (w, key) in list {
                let mut keys = vec![key.clone()];
                while let Some(key) = keys.pop() {
                    if places.get(&key).is_some() {
                        continue;
                    }
                    let actions = actions_of(board, &rule, &key);
                    for (choice, next, _) in &actions {
                        // A later declinable jump of the same move has a node of its own.
                        if let Choice::TakeUntil(t) = choice {
                            keys.push(NodeKey::Offered(*t));
                        }
                        for &(s, _) in next {
                            if s != n && !index.contains_key(&s) {
                                index.insert(s, squares.len());
                                squares.push(s);
                            }
                        }
                    }
                    let slot = places.slot(&key);
                    places.node[slot] = raw_nodes.len() as u32;
                    raw_nodes.push((key, actions));
                }
                row.push((w, places.get(&key).expect("a node of the game")));
            }
            situations.push(row);
            totals.push(total);
            i += 1;
        }
        // Renumber the states in square order.
        let mut order: Vec<usize> = (0..squares.len()).collect();
        order.sort_unstable_by_key(|&k| squares[k]);
        let mut new_id = vec![0; squares.len()];
        for (new, &old) in order.iter().enumerate() {
            new_id[old] = new;
        }
        let nodes = raw_nodes
            .into_iter()
            .map(|(key, actions)| Node {
                key,
                actions: actions
                    .into_iter()
                    .map(|(choice, next, total)| Action {
                        choice,
                        next: next
                            .into_iter()
                            .map(|(s, w)| ((s != n).then(|| new_id[index[&s]]), w))
                            .collect(),
                        total,
                    })
                    .collect(),
            })
            .collect();
        Some(Game {
            start: (start != n).then_some(new_id[0]),
            squares: order.iter().map(|&k| squares[k]).collect(),
            situations: order.iter().map(|&k| situations[k].clone()).collect(),
            totals: order.iter().map(|&k| totals[k]).collect(),
            nodes,
            rule,
            places,
        })
    }

    /// The index of the state on `square`, if it is reachable.
    pub fn index_of(&self, square: Square) -> Option<usize> {
        self.squares.binary_search(&square).ok()
    }

    /// The policy that makes the same kind of choice everywhere: `pick(node)` is the action
    /// index for each node.
    pub fn policy_by(&self, pick: impl Fn(&Node) -> usize) -> Policy {
        self.nodes.iter().map(pick).collect()
    }

    /// The always-the-same-choice policies of the rule, named (always each die, never or always
    /// flip, always the highest or the lowest face, always each face).
    pub fn fixed_policies(&self) -> Vec<(String, Policy)> {
        let by_choice = |c: Choice| {
            self.policy_by(|node| node.actions.iter().position(|a| a.choice == c).unwrap_or(0))
        };
        match &self.rule {
            ChoiceRule::ChooseDie(dice) => dice
                .iter()
                .map(|d| {
                    let c = Choice::Die(d.faces());
                    (format!("always {c}"), by_choice(c))
                })
                .collect(),
            ChoiceRule::Coin => vec![
                ("never flip".to_string(), by_choice(Choice::Keep)),
                ("always flip".to_string(), by_choice(Choice::Flip)),
            ],
            ChoiceRule::Pick(_) => vec![
                (
                    "always the highest".to_string(),
                    self.policy_by(|node| node.actions.len() - 1),
                ),
                ("always the lowest".to_string(), self.policy_by(|_| 0)),
            ],
            ChoiceRule::Decline(_) => vec![
                ("always take".to_string(), by_choice(Choice::Take)),
                ("always decline".to_string(), by_choice(Choice::Decline)),
            ],
            ChoiceRule::ChooseFace => {
                let faces: Vec<Choice> = self
                    .nodes
                    .iter()
                    .flat_map(|n| n.actions.iter().map(|a| a.choice))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                faces
                    .into_iter()
                    .map(|c| (format!("always {c}"), by_choice(c)))
                    .collect()
            }
        }
    }

    /// `policy` made one choice per square (`decline`; other rules' policies are returned as
    /// they are): at the node of a jump taken, the action that takes the later declinable jumps
    /// of the move up to the first one whose own node declines.
    pub fn by_square(&self, mut policy: Policy) -> Policy {
        if !matches!(self.rule, ChoiceRule::Decline(_)) {
            return policy;
        }
        let declines = |t: Square, policy: &Policy| {
            let k = self
                .places
                .get(&NodeKey::Offered(t))
                .expect("a node of the game");
            self.nodes[k].actions[policy[k]].choice == Choice::Decline
        };
        for (k, node) in self.nodes.iter().enumerate() {
            if node.actions[policy[k]].choice == Choice::Decline {
                continue;
            }
            let stop = node.actions.iter().position(|a| match a.choice {
                Choice::TakeUntil(t) => declines(t, &policy),
                _ => false,
            });
            let take_all = node.actions.iter().position(|a| a.choice == Choice::Take);
            if let Some(a) = stop.or(take_all) {
                policy[k] = a;
            }
        }
        policy
    }
}

/// The situations of a turn from `s` and their total weight.
fn situations_of(board: &Board, rule: &ChoiceRule, s: Square) -> (Vec<(u64, NodeKey)>, u64) {
    let n = board.size();
    match rule {
        ChoiceRule::ChooseDie(_) | ChoiceRule::ChooseFace => (vec![(1, NodeKey::Before(s))], 1),
        ChoiceRule::Coin => {
            let dice = board.dice();
            let parts = dice
                .throws()
                .iter()
                .map(|t| (t.weight, roll(board, s, t.sum)))
                .collect();
            let (to, total) = mix(parts);
            let list = to
                .into_iter()
                .map(|(t, w)| {
                    (
                        w,
                        if t == n {
                            NodeKey::Done
                        } else {
                            NodeKey::After(t)
                        },
                    )
                })
                .collect();
            (list, total)
        }
        ChoiceRule::Decline(_) => {
            let dice = board.dice();
            let parts = dice
                .throws()
                .iter()
                .map(|t| (t.weight, roll_to_offer(board, s, t.sum)))
                .collect::<Vec<_>>();
            let lcm = parts.iter().fold(1u64, |l, (_, law)| lcm(l, law.total()));
            let mut out: BTreeMap<NodeKey, u64> = BTreeMap::new();
            for (w, law) in &parts {
                for &(bw, o) in law.branches() {
                    let key = match o.to {
                        t if t == n => NodeKey::Done,
                        t if o.offered => NodeKey::Offered(t),
                        t => NodeKey::Landed(t),
                    };
                    *out.entry(key).or_insert(0) += w * (lcm / law.total()) * bw;
                }
            }
            let total = out.values().sum();
            (out.into_iter().map(|(key, w)| (w, key)).collect(), total)
        }
        ChoiceRule::Pick(k) => {
            let dice = board.dice();
            let list: Vec<(u64, NodeKey)> = shown(dice.weights(), *k)
                .into_iter()
                .map(|(faces, w)| (w, NodeKey::Shown(s, faces)))
                .collect();
            let total = list.iter().map(|(w, _)| w).sum();
            (list, total)
        }
    }
}

type RawAction = (Choice, Vec<(Square, u64)>, u64);

/// The actions open at a node, with where each leads (by square).
fn actions_of(board: &Board, rule: &ChoiceRule, key: &NodeKey) -> Vec<RawAction> {
    let face = |s: Square, v: u32| {
        let (next, total) = mix(vec![(1, roll(board, s, v))]);
        (Choice::Face(v), next, total)
    };
    match (rule, key) {
        (_, NodeKey::Done) => vec![(Choice::Keep, vec![(board.size(), 1)], 1)],
        (ChoiceRule::ChooseDie(dice), NodeKey::Before(s)) => dice
            .iter()
            .map(|d| {
                let parts = d
                    .throws()
                    .iter()
                    .map(|t| (t.weight, roll(board, *s, t.sum)))
                    .collect();
                let (next, total) = mix(parts);
                (Choice::Die(d.faces()), next, total)
            })
            .collect(),
        (ChoiceRule::ChooseFace, NodeKey::Before(s)) => (1..)
            .zip(board.dice().weights())
            .filter(|(_, w)| **w > 0)
            .map(|(v, _)| face(*s, v))
            .collect(),
        (ChoiceRule::Coin, NodeKey::After(t)) => {
            let (next, total) = mix(vec![
                (1, nudge(board, *t, true)),
                (1, nudge(board, *t, false)),
            ]);
            vec![
                (Choice::Keep, vec![(*t, 1)], 1),
                (Choice::Flip, next, total),
            ]
        }
        (ChoiceRule::Pick(_), NodeKey::Shown(s, faces)) => {
            faces.iter().map(|&v| face(*s, v)).collect()
        }
        (ChoiceRule::Decline(_), NodeKey::Landed(t)) => vec![(Choice::Keep, vec![(*t, 1)], 1)],
        (ChoiceRule::Decline(_), NodeKey::Offered(t)) => offered_actions(board, *t),
        _ => unreachable!("each rule makes its own kind of node"),
    }
}

/// The actions of a declinable jump offered on `at`: take it and every declinable jump it leads
/// to in the same move, take them up to each later one and decline that one, or decline it.
fn offered_actions(board: &Board, at: Square) -> Vec<RawAction> {
    let mut later = Vec::new();
    let mut o = take_offer(board, at);
    while o.offered {
        later.push(o.to);
        o = take_offer(board, o.to);
    }
    let mut actions = vec![(Choice::Take, vec![(o.to, 1)], 1)];
    actions.extend(
        later
            .into_iter()
            .map(|t| (Choice::TakeUntil(t), vec![(t, 1)], 1)),
    );
    actions.push((Choice::Decline, vec![(at, 1)], 1));
    actions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dice_show_each_pair_of_faces_twice_and_each_double_once() {
        // Two fair d3: {1} 1, {2} 1, {3} 1, {1,2} 2, {1,3} 2, {2,3} 2 (total 9).
        let s = shown(&[1, 1, 1], 2);
        assert_eq!(s[&vec![1]], 1);
        assert_eq!(s[&vec![1, 3]], 2);
        assert_eq!(s.values().sum::<u64>(), 9);
        assert_eq!(s.len(), 6);
    }

    #[test]
    fn each_set_of_faces_shown_has_its_own_slot_of_the_square() {
        // pick 3 of a d5: 5 + 10 + 10 = 25 sets of one to three faces, each its slot of 0..25.
        let board = Board::from_toml_str("size = 10\n[rules]\ndie = 5\npick = 3\n", "t").unwrap();
        let places = NodePlaces::new(&board, board.choice().unwrap());
        assert_eq!(places.width, 25);
        let mut ranks: Vec<usize> = shown(&[1; 5], 3)
            .into_keys()
            .map(|faces| places.shown_rank(&faces))
            .collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (0..25).collect::<Vec<_>>());
    }
}
