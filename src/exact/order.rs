//! Fill-reducing elimination orders for the sparse exact solver ([`super::solve`]).
//!
//! The solver eliminates the variables of `A x = b` from the last position to the first, without
//! pivoting (`Pattern` in `solve/factor.rs`). Its systems are nonsingular M-matrices (`F (I - S - R)`
//! from [`crate::chain::RollLevel`], or `I - Q`), and a symmetric permutation `P A P^T` of an
//! M-matrix is again one, so every exact pivot stays positive in any order: the order can be
//! chosen for fill alone. In square order, each snake that spans a square adds a column of fill
//! down to its tail (82 entries per row on 10,000 squares); [`elimination_order`] finds an order
//! with far less.
//!
//! # Method
//!
//! Diagonal Markowitz ordering on the unsymmetric pattern, simulated exactly: among the
//! variables not yet eliminated, the next pivot is the diagonal entry v that minimises
//! `(r_v - 1)(c_v - 1)`, where `r_v` and `c_v` count the entries of row v and column v in the
//! active submatrix (ties: smaller `r_v + c_v`, then smaller index; the candidates sit in a
//! binary heap whose keys change in place). Eliminating v adds the columns of its row to every
//! row with an entry in column v, exactly as the numeric elimination does, so the simulation
//! also counts the entries after fill. The last variables (at most 1,024, an eighth of them)
//! are eliminated on bit sets, where the active submatrix fills up, by the same rule. The order
//! is then compared with square order (the identity), and the identity is kept unless the
//! Markowitz order has fewer entries: the result is never worse than square order. Below
//! [`SMALL`] variables square order is kept without looking (ordering would cost more than it
//! saves).
//!
//! Why not a symmetric method: approximate minimum degree on `A + A^T`, minimum degree, reverse
//! Cuthill-McKee and nested dissection along the squares were measured on the same boards and
//! gave more fill (docs/solver.md, "Elimination order"). Without pivoting, entry (i, j) fills in
//! exactly when a directed path i -> ... -> j runs through variables eliminated before both
//! (Rose and Tarjan); moves go forward, so A is nearly triangular and most paths of `A + A^T`
//! run against the moves and never fill. A symmetric method pays for them anyway.
//!
//! References: H. M. Markowitz, "The elimination form of the inverse and its application to
//! linear programming", *Management Science* 3 (1957) 255-269; D. J. Rose, R. E. Tarjan,
//! "Algorithmic aspects of vertex elimination on directed graphs", *SIAM J. Appl. Math.* 34
//! (1978) 176-197; I. S. Duff, A. M. Erisman, J. K. Reid, *Direct Methods for Sparse Matrices*
//! (2nd ed., Oxford, 2017), the chapter on local pivotal strategies (Markowitz's criterion with
//! pivots on the diagonal).
//!
//! # Permutations
//!
//! A permutation is a `Vec<u32>` mapping each **new position to the old index**: row `k` of the
//! permuted matrix is old row `perm[k]`, and old column `j` becomes column `inverse(perm)[j]`.
//! The solver eliminates position `n - 1` first, so `perm[n - 1]` is the first pivot.

/// The inverse of a permutation: `inverse(perm)[old] = new`.
///
/// # Panics
///
/// When `perm` is not a permutation of `0..perm.len()`.
pub fn inverse(perm: &[u32]) -> Vec<u32> {
    let mut inv = vec![u32::MAX; perm.len()];
    for (new, &old) in perm.iter().enumerate() {
        let slot = inv
            .get_mut(old as usize)
            .expect("permutation entry out of range");
        assert_eq!(*slot, u32::MAX, "permutation repeats {old}");
        *slot = new as u32;
    }
    inv
}

/// The rows of `P A P^T` for entries `(column, value)`: row `k` is old row `perm[k]`, with its
/// columns renamed by the inverse permutation and sorted. Use it for A and C alike; right-hand
/// sides permute as `b_new[k] = b[perm[k]]`, solutions back as `x[perm[k]] = x_new[k]`.
///
/// # Panics
///
/// When `perm` is not a permutation of the rows, or a column is out of range.
pub fn permute_entries<T: Clone>(rows: &[Vec<(u32, T)>], perm: &[u32]) -> Vec<Vec<(u32, T)>> {
    assert_eq!(rows.len(), perm.len(), "permutation of the wrong size");
    let inv = inverse(perm);
    perm.iter()
        .map(|&old| {
            let mut r: Vec<(u32, T)> = rows[old as usize]
                .iter()
                .map(|(c, v)| (inv[*c as usize], v.clone()))
                .collect();
            r.sort_by_key(|(c, _)| *c);
            r
        })
        .collect()
}

/// The pattern of `P A P^T`, each row sorted, deduplicated and with its diagonal.
///
/// # Panics
///
/// When `perm` is not a permutation of the rows, or a column is out of range.
pub fn permute_pattern(rows: &[Vec<u32>], perm: &[u32]) -> Vec<Vec<u32>> {
    assert_eq!(rows.len(), perm.len(), "permutation of the wrong size");
    let inv = inverse(perm);
    perm.iter()
        .enumerate()
        .map(|(new, &old)| {
            let mut r: Vec<u32> = rows[old as usize]
                .iter()
                .map(|&c| inv[c as usize])
                .collect();
            r.push(new as u32);
            r.sort_unstable();
            r.dedup();
            r
        })
        .collect()
}

/// The number of stored entries (diagonal included) after eliminating `P A P^T` from the last
/// position to the first without pivoting: the same rule as the solver's `Pattern`, where
/// eliminating v merges the part of row v left of the diagonal into every row u < v that has
/// an entry in column v.
///
/// # Panics
///
/// When `perm` is not a permutation of the rows, or a column is out of range.
pub fn entries_after_fill(rows: &[Vec<u32>], perm: &[u32]) -> usize {
    entries_within(rows, perm, usize::MAX).expect("no limit")
}

/// [`entries_after_fill`], or `None` as soon as the count exceeds `limit`.
fn entries_within(rows: &[Vec<u32>], perm: &[u32], limit: usize) -> Option<usize> {
    let mut cols = permute_pattern(rows, perm);
    let n = cols.len();
    let mut total: usize = cols.iter().map(Vec::len).sum();
    if total > limit {
        return None;
    }
    // col_rows[c]: the rows u < c with an entry in column c (found so far).
    let mut col_rows: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, r) in cols.iter().enumerate() {
        for &c in r {
            if (c as usize) > i {
                col_rows[c as usize].push(i as u32);
            }
        }
    }
    let mut merged = Vec::new();
    let mut lower = Vec::new();
    for v in (0..n).rev() {
        let users = std::mem::take(&mut col_rows[v]);
        let lower_end = cols[v].partition_point(|&c| (c as usize) < v);
        if lower_end == 0 {
            continue;
        }
        lower.clear();
        lower.extend_from_slice(&cols[v][..lower_end]);
        for &u in &users {
            let row = &cols[u as usize];
            merged.clear();
            let (mut i, mut j) = (0, 0);
            while i < row.len() || j < lower.len() {
                let a = row.get(i).copied().unwrap_or(u32::MAX);
                let b = lower.get(j).copied().unwrap_or(u32::MAX);
                if a <= b {
                    merged.push(a);
                    i += 1;
                    j += usize::from(a == b);
                } else {
                    merged.push(b);
                    if b > u {
                        col_rows[b as usize].push(u);
                    }
                    j += 1;
                }
            }
            total += merged.len() - row.len();
            if total > limit {
                return None;
            }
            std::mem::swap(&mut cols[u as usize], &mut merged);
        }
    }
    Some(total)
}

/// Below this many variables [`elimination_order`] keeps square order without looking. On the
/// 100-square boards the Markowitz order saves at most 5 % of the entries (efi; on
/// milton-bradley it has more), of a solve that takes about 0.3 ms, while ordering and the
/// comparison with square order cost 0.05 to 0.1 ms (docs/solver.md, "Elimination order").
pub const SMALL: usize = 128;

/// A fill-reducing permutation (new position -> old index) for eliminating `A` from the last
/// position to the first without pivoting: the diagonal Markowitz order, or the identity when
/// that has no more entries after fill, or when A has fewer than `SMALL` rows (see the module
/// docs).
///
/// `rows[i]` lists the columns of row i (any order, duplicates and the diagonal allowed). The
/// result depends only on the pattern (deterministic), and with it [`entries_after_fill`] is
/// never larger than with the identity. Cost: 1 to 2 microseconds per row on the generated
/// boards (1.0 ms at 960 rows, 17.6 ms at 9,600).
///
/// # Panics
///
/// When a column is out of range.
pub fn elimination_order(rows: &[Vec<u32>]) -> Vec<u32> {
    let n = rows.len();
    let identity: Vec<u32> = (0..n as u32).collect();
    if n < SMALL {
        return identity;
    }
    let (perm, entries) = markowitz(rows);
    // Square order only needs to be counted up to the Markowitz order's count. Shown after a
    // second: the count fills as the elimination would (2 s at 10,000 squares whose sixes
    // forfeit at the third).
    let _stage = crate::progress::Stage::begin("counting the fill", None);
    match entries_within(rows, &identity, entries) {
        Some(_) => identity,
        None => perm,
    }
}

/// The diagonal Markowitz order alone (new position -> old index, see the module docs) and its
/// number of entries after fill, counted by the same simulation.
///
/// # Panics
///
/// When a column is out of range.
pub fn markowitz(rows: &[Vec<u32>]) -> (Vec<u32>, usize) {
    markowitz_with(rows, DENSE_TAIL.min(rows.len() / 8))
}

/// How many variables (at most; an eighth of them below 8,192) remain when [`markowitz`] moves
/// to bit sets (measured best at 9,600 rows among 256 to 2,048): by then the active
/// submatrix is filling up, and most of the work of a sparse simulation would be left.
const DENSE_TAIL: usize = 1024;

/// The ordering score of a variable with `r` other entries in its row and `c` in its column,
/// `(r c, r + c)` packed into one word (saturating far beyond any useful pivot): the variable
/// with the smallest (score, index) is the next pivot.
fn key(r: usize, c: usize) -> u64 {
    let product = (r as u64).saturating_mul(c as u64).min((1 << 40) - 1);
    let sum = ((r + c) as u64).min((1 << 24) - 1);
    (product << 24) | sum
}

/// A binary heap of variables by (key, index), with each variable's position so that a key can
/// change in place (no stale entries to wade through).
struct Queue {
    heap: Vec<u32>,
    pos: Vec<u32>,
    key: Vec<u64>,
}

impl Queue {
    fn new(key: Vec<u64>) -> Queue {
        let n = key.len();
        let mut q = Queue {
            heap: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            key,
        };
        for i in (0..n / 2).rev() {
            q.down(i);
        }
        q
    }

    fn less(&self, a: u32, b: u32) -> bool {
        (self.key[a as usize], a) < (self.key[b as usize], b)
    }

    fn place(&mut self, i: usize, v: u32) {
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.less(v, p) {
                break;
            }
            self.place(i, p);
            i = parent;
        }
        self.place(i, v);
    }

    fn down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let mut child = 2 * i + 1;
            if child >= n {
                break;
            }
            if child + 1 < n && self.less(self.heap[child + 1], self.heap[child]) {
                child += 1;
            }
            let c = self.heap[child];
            if !self.less(c, v) {
                break;
            }
            self.place(i, c);
            i = child;
        }
        self.place(i, v);
    }

    fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        if !self.heap.is_empty() {
            self.place(0, last);
            self.down(0);
        }
        self.pos[top as usize] = u32::MAX;
        Some(top)
    }

    /// Changes the key of a variable still in the queue.
    fn update(&mut self, v: u32, key: u64) {
        let i = self.pos[v as usize] as usize;
        let old = std::mem::replace(&mut self.key[v as usize], key);
        if key < old {
            self.up(i);
        } else if key > old {
            self.down(i);
        }
    }
}

/// [`markowitz`], switching to [`dense_tail`] once at most `dense_at` variables remain.
fn markowitz_with(rows: &[Vec<u32>], dense_at: usize) -> (Vec<u32>, usize) {
    let n = rows.len();
    // row[v]: the active columns of row v (sorted, diagonal excluded), exact.
    // col[v]: the rows with an entry in column v, possibly with eliminated rows left in;
    // col_count[v] is the exact active count.
    let mut row: Vec<Vec<u32>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r: Vec<u32> = r.iter().copied().filter(|&c| c as usize != i).collect();
            r.sort_unstable();
            r.dedup();
            if let Some(&last) = r.last() {
                assert!(
                    (last as usize) < n,
                    "column {last} outside a {n} x {n} matrix"
                );
            }
            r
        })
        .collect();
    let mut col: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, r) in row.iter().enumerate() {
        for &c in r {
            col[c as usize].push(i as u32);
        }
    }
    let mut col_count: Vec<usize> = col.iter().map(Vec::len).collect();
    let mut queue = Queue::new((0..n).map(|v| key(row[v].len(), col_count[v])).collect());
    let mut done = vec![false; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut entries = n;
    let mut merged: Vec<u32> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    let stage = crate::progress::Stage::begin("ordering the unknowns", Some(n as u64));
    while n - order.len() > dense_at {
        if order.len() % crate::progress::ROWS_PER_REPORT == 0 {
            stage.advance(order.len() as u64);
        }
        let v = queue.pop().expect("variables remain");
        let vu = v as usize;
        let (r, c) = (row[vu].len(), col_count[vu]);
        done[vu] = true;
        order.push(v);
        entries += r + c;
        let rv = std::mem::take(&mut row[vu]);
        let mut cv = std::mem::take(&mut col[vu]);
        cv.retain(|&u| !done[u as usize]);
        touched.clear();
        for &w in &rv {
            col_count[w as usize] -= 1;
            touched.push(w);
        }
        for &u in &cv {
            touched.push(u);
            // row[u] := (row[u] - {v}) | (rv - {u}).
            let ru = &row[u as usize];
            merged.clear();
            let (mut i, mut j) = (0, 0);
            while i < ru.len() || j < rv.len() {
                let a = ru.get(i).copied().unwrap_or(u32::MAX);
                let b = rv.get(j).copied().unwrap_or(u32::MAX);
                if a <= b {
                    if a != v {
                        merged.push(a);
                    }
                    i += 1;
                    j += usize::from(a == b);
                } else {
                    if b != u {
                        merged.push(b);
                        col[b as usize].push(u);
                        col_count[b as usize] += 1;
                    }
                    j += 1;
                }
            }
            std::mem::swap(&mut row[u as usize], &mut merged);
        }
        touched.sort_unstable();
        touched.dedup();
        for &t in &touched {
            let tu = t as usize;
            if col[tu].len() > 2 * col_count[tu] + 8 {
                col[tu].retain(|&u| !done[u as usize]);
            }
            if !done[tu] {
                queue.update(t, key(row[tu].len(), col_count[tu]));
            }
        }
    }
    if order.len() < n {
        let active: Vec<u32> = (0..n as u32).filter(|&v| !done[v as usize]).collect();
        entries += dense_tail(&active, &row, &mut order);
    }
    // The first pivot goes last: the solver eliminates from position n - 1 down.
    order.reverse();
    (order, entries)
}

/// The end of [`markowitz_with`] on bit sets: `active` lists the variables not yet eliminated
/// (ascending), `row` their active columns. Pushes the pivots onto `order` by the same rule and
/// returns the entries they add.
fn dense_tail(active: &[u32], row: &[Vec<u32>], order: &mut Vec<u32>) -> usize {
    let m = active.len();
    let words = m.div_ceil(64);
    let mut local = vec![u32::MAX; row.len()];
    for (k, &v) in active.iter().enumerate() {
        local[v as usize] = k as u32;
    }
    let mut rbits = vec![0u64; m * words];
    let mut cbits = vec![0u64; m * words];
    let mut rcount = vec![0usize; m];
    let mut ccount = vec![0usize; m];
    for (k, &v) in active.iter().enumerate() {
        for &w in &row[v as usize] {
            let l = local[w as usize] as usize;
            rbits[k * words + l / 64] |= 1 << (l % 64);
            cbits[l * words + k / 64] |= 1 << (k % 64);
            rcount[k] += 1;
            ccount[l] += 1;
        }
    }
    let bits_of = |set: &[u64]| -> Vec<usize> {
        let mut out = Vec::new();
        for (i, &word) in set.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                out.push(i * 64 + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
        out
    };
    // A linear scan for the pivot (the keys change too often for a heap to pay); keys carry
    // the original index, so ties break as in the sparse phase.
    let mut alive: Vec<usize> = (0..m).collect();
    let mut entries = 0;
    let mut new = vec![0u64; words];
    while !alive.is_empty() {
        let (at, &k) = alive
            .iter()
            .enumerate()
            .min_by_key(|&(_, &k)| (key(rcount[k], ccount[k]), active[k]))
            .expect("not empty");
        alive.swap_remove(at);
        let v = active[k];
        order.push(v);
        entries += rcount[k] + ccount[k];
        let rv = bits_of(&rbits[k * words..(k + 1) * words]);
        let cv = bits_of(&cbits[k * words..(k + 1) * words]);
        for &w in &rv {
            cbits[w * words + k / 64] &= !(1 << (k % 64));
            ccount[w] -= 1;
        }
        for &u in &cv {
            // row[u] := (row[u] - {v}) | (rv - {u}).
            rbits[u * words + k / 64] &= !(1 << (k % 64));
            rcount[u] -= 1;
            for i in 0..words {
                new[i] = rbits[k * words + i] & !rbits[u * words + i];
            }
            new[u / 64] &= !(1 << (u % 64));
            for (i, &x) in new.iter().enumerate() {
                rbits[u * words + i] |= x;
            }
            for w in bits_of(&new) {
                cbits[w * words + u / 64] |= 1 << (u % 64);
                ccount[w] += 1;
                rcount[u] += 1;
            }
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::solve::Pattern;
    use proptest::prelude::*;

    fn identity(n: usize) -> Vec<u32> {
        (0..n as u32).collect()
    }

    #[test]
    fn counts_a_cycle_by_hand() {
        // The cycle 0 -> 1 -> 2 -> 3 -> 0 (plus the diagonal). Eliminating 3 first merges row 3's
        // lower part {0} into row 2 (the only row < 3 with column 3): a fill at (2, 0). Then 2:
        // row 2's lower part {0, 1} goes into row 1: (1, 0) is new. Then 1: row 1's lower part
        // {0} into row 0, which has (0, 0). 4 diagonal + 4 edges + 2 fills = 10. Eliminating any
        // vertex of a cycle shortcuts it, so every order gives n - 2 fills: Markowitz too.
        let rows = vec![vec![1], vec![2], vec![3], vec![0]];
        assert_eq!(entries_after_fill(&rows, &identity(4)), 10);
        assert_eq!(Pattern::new(&rows).entries(), 10);
        assert_eq!(markowitz(&rows).1, 10);
    }

    #[test]
    fn puts_a_hub_last_to_eliminate() {
        // Reverse arrow: row and column n - 1 are full. Square order eliminates the hub first
        // and makes every row full: n^2 entries. Eliminated last (position 0) the hub causes no
        // fill at all: the n diagonal entries and 2 (n - 1) arrow entries, the optimum.
        let n = 6;
        let mut rows: Vec<Vec<u32>> = (0..n - 1).map(|_| vec![n as u32 - 1]).collect();
        rows.push((0..n as u32 - 1).collect());
        assert_eq!(entries_after_fill(&rows, &identity(n)), n * n);
        let (perm, entries) = markowitz(&rows);
        assert_eq!(entries, 3 * n - 2);
        assert_eq!(perm[0], n as u32 - 1, "the hub is eliminated last");
        assert_eq!(entries_after_fill(&rows, &perm), 3 * n - 2);
    }

    #[test]
    fn orders_a_path_topologically() {
        // 0 -> 2 -> 1: square order eliminates 2 first and row 0 takes its column 1 (6
        // entries). The optimum is a triangular order, no fill: 3 diagonal + 2 edges = 5.
        let rows = vec![vec![2], vec![], vec![1]];
        assert_eq!(entries_after_fill(&rows, &identity(3)), 6);
        let (perm, entries) = markowitz(&rows);
        assert_eq!(entries, 5);
        assert_eq!(entries_after_fill(&rows, &perm), 5);
    }

    #[test]
    fn keeps_square_order_below_the_threshold() {
        let rows = vec![vec![2], vec![], vec![1]];
        assert_eq!(elimination_order(&rows), identity(3));
        assert!(elimination_order(&[]).is_empty());
    }

    #[test]
    fn permutes_entries_and_inverts() {
        // perm = [2, 0, 1]: new row 0 is old row 2, old column 0 is new column 1.
        let rows = vec![vec![(0u32, 'a'), (2, 'b')], vec![(1, 'c')], vec![(0, 'd')]];
        let perm = [2, 0, 1];
        assert_eq!(inverse(&perm), vec![1, 2, 0]);
        assert_eq!(
            permute_entries(&rows, &perm),
            vec![vec![(1, 'd')], vec![(0, 'b'), (1, 'a')], vec![(2, 'c')]]
        );
    }

    /// A random square pattern of up to `max` rows (no diagonal needed).
    fn pattern(min: usize, max: usize) -> impl Strategy<Value = Vec<Vec<u32>>> {
        (min..max).prop_flat_map(|n| {
            prop::collection::vec(prop::collection::vec(0..n as u32, 0..5), n).prop_map(|rows| {
                rows.into_iter()
                    .map(|mut r| {
                        r.sort_unstable();
                        r.dedup();
                        r
                    })
                    .collect()
            })
        })
    }

    fn is_permutation(perm: &[u32]) -> bool {
        let mut seen = vec![false; perm.len()];
        perm.iter()
            .all(|&p| (p as usize) < seen.len() && !std::mem::replace(&mut seen[p as usize], true))
    }

    proptest! {
        #[test]
        fn the_count_is_the_solver_pattern(
            (rows, perm) in pattern(1, 30).prop_flat_map(|rows| {
                let n = rows.len() as u32;
                (Just(rows), Just((0..n).collect::<Vec<u32>>()).prop_shuffle())
            })
        ) {
            let expected = Pattern::new(&permute_pattern(&rows, &perm)).entries();
            prop_assert_eq!(entries_after_fill(&rows, &perm), expected);
        }

        #[test]
        fn markowitz_counts_its_own_fill(rows in pattern(1, 40)) {
            let n = rows.len();
            let (perm, entries) = markowitz(&rows);
            prop_assert!(is_permutation(&perm));
            prop_assert_eq!(entries_after_fill(&rows, &perm), entries);
            // The bit-set tail picks the same pivots as the sparse simulation.
            prop_assert_eq!(markowitz_with(&rows, 0), (perm.clone(), entries));
            prop_assert_eq!(markowitz_with(&rows, n), (perm, entries));
        }

        #[test]
        fn the_order_is_never_worse_than_square_order(rows in pattern(SMALL, SMALL + 80)) {
            let perm = elimination_order(&rows);
            prop_assert!(is_permutation(&perm));
            let n = rows.len();
            prop_assert!(entries_after_fill(&rows, &perm) <= entries_after_fill(&rows, &identity(n)));
            prop_assert_eq!(elimination_order(&rows), perm, "deterministic");
        }
    }
}
