//! Nested re-solving: a later street's subgame built from the ranges that a solve of an earlier
//! street implies, as a player searching street by street re-solves when the hand moves on
//! (`FILE:search`, safely `FILE:search-safe`; on a walkable game, `stud eval resolve
//! --from-street S --nested [--safe-nested]`).
//!
//! Each seat enters the earlier solve with its range there and plays the solve's rows down to
//! the later street's first decision; a hand's reach there is its range times the probability
//! of each of the seat's actions on the way under its row: Bayes' rule on the solve's own rows
//! ([`NESTED_FLOOR`]), chosen by measurement over the replay's floor (docs/notes/resolve.md,
//! "Searching from sixth street"). Where the real betting is one the solve never plays (a
//! seat's range would be empty), the searching player weighs each action by at least the
//! replay's floor instead, as the replay does ([`crate::bot::range`]).

use super::build::Given;
use super::safe::solve_by;
use super::{Budget, Method, Resolved, Subgame};
use crate::bot::Bet;
use crate::cfr::dealt_hand;
use abstraction::cards::CardSet;
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::{ensure, Context};

/// The least weight an action gives a hand in a nested re-solve's ranges: 0, Bayes' rule on
/// the rows of the solve above. On ministud from its first street (`stud eval resolve m8.strat
/// --from-street 2nd --nested`), the next street nested so is at 0.0520 chips, unnested at
/// 0.0647, nested with the replay's floor of 0.3 at 0.0827 (0.05: 0.0648).
pub const NESTED_FLOOR: f64 = 0.0;

/// Each seat's reach, hand by hand, after the path `path` (each step an action node of `tree`
/// and the index of the child taken) when the seats enter its first node with `ranges` and
/// play `average`'s rows (slot weights, normalised per row; a row of zeros is uniform), each
/// action weighing a hand by at least `floor`. A hand with no bucket at a node (one holding a
/// card dealt on the way) is out. Not normalised.
pub fn reach_along<T: Copy + Into<f64>>(
    tree: &Tree,
    ranges: &[Vec<f64>; 2],
    average: &[T],
    path: &[(usize, usize)],
    floor: f64,
) -> [Vec<f64>; 2] {
    let mut reach = ranges.clone();
    let mut weight = Vec::new();
    for &(node, action) in path {
        weigh(tree, node, action, average, floor, &mut weight, &mut reach);
    }
    reach
}

/// Multiplies the reach of the seat acting at action node `node` by its probability of the
/// child `action` under `average`'s rows, at least `floor` (0 for a hand with no bucket
/// there); `weight` is scratch.
fn weigh<T: Copy + Into<f64>>(
    tree: &Tree,
    node: usize,
    action: usize,
    average: &[T],
    floor: f64,
    weight: &mut Vec<f64>,
    reach: &mut [Vec<f64>; 2],
) {
    let n = tree.nodes[node];
    let k = n.num_children as usize;
    let buckets = tree.num_buckets[n.street as usize] as usize;
    // Each bucket's probability of the action once: a bucket is many hands (a sixth-street
    // pair is 42 of them). The division as `kernel::normalize` does it, uniform on no weight.
    weight.clear();
    weight.extend((0..buckets).map(|b| {
        let at = n.first_slot() as usize + b * k;
        let row = &average[at..at + k];
        let total: f64 = row.iter().map(|&x| x.into()).sum();
        let p = if total > 0.0 {
            row[action].into() / total
        } else {
            1.0 / k as f64
        };
        p.max(floor)
    }));
    let table = tree.bucket_table(n.board, n.seat);
    for (r, &b) in reach[n.seat as usize].iter_mut().zip(table) {
        *r *= if b == NONE { 0.0 } else { weight[b as usize] };
    }
}

/// The first decisions of the street after `root`'s below it, each with both seats' reach
/// there (normalised) when they enter `root` with `ranges` and play `average`'s rows on
/// `root`'s street (each action by at least `floor`), the hands holding a card dealt on the way
/// impossible. A decision either seat never reaches is left out (its rows stay as they are).
pub fn next_roots(
    tree: &Tree,
    root: usize,
    average: &[f64],
    ranges: &[Vec<f64>; 2],
    floor: f64,
) -> Vec<(usize, [Vec<f64>; 2])> {
    let street = tree.nodes[root].street;
    let mut out = Vec::new();
    let mut stack = vec![(root, ranges.clone())];
    let mut weight = Vec::new();
    while let Some((i, mut reach)) = stack.pop() {
        let node = tree.nodes[i];
        match node.kind {
            NodeKind::Action if node.street != street => {
                let sums = reach.clone().map(|r| r.iter().sum::<f64>());
                if sums.iter().all(|&s| s > 0.0) {
                    for (r, s) in reach.iter_mut().zip(sums) {
                        r.iter_mut().for_each(|x| *x /= s);
                    }
                    out.push((i, reach));
                }
            }
            NodeKind::Action => {
                for (a, c) in tree.children(i).enumerate() {
                    let mut next = reach.clone();
                    weigh(tree, i, a, average, floor, &mut weight, &mut next);
                    stack.push((c, next));
                }
            }
            NodeKind::Chance => {
                for c in tree.children(i) {
                    let mut next = reach.clone();
                    let h = dealt_hand(tree, c);
                    if h != NONE {
                        next.iter_mut().for_each(|r| r[h as usize] = 0.0);
                    }
                    stack.push((c, next));
                }
            }
            NodeKind::Fold | NodeKind::Showdown => {}
        }
    }
    out.sort_unstable_by_key(|x| x.0);
    out
}

/// Re-solves, below the solve `average` (slot weights) of `sub`, a walkable game's subgame
/// from an earlier street ([`Subgame::with_chance`]), each first decision of the next street
/// again at full depth ([`Subgame::with_chance_given`]), from the ranges `average`'s rows imply
/// ([`next_roots`] by Bayes' rule, [`NESTED_FLOOR`]; a root either seat never reaches keeps
/// `average`'s rows), by `method` within `budget` (a safe method bounds each seat's re-solve by
/// what every opponent hand got against `average`'s rows there: the nested strategy is then no
/// more exploitable than `average`, up to the solves' error), and so on street by street; each
/// re-solve's rows are written over `average`'s below its root; with `fallback`, a seat whose
/// safe re-solve does not hold keeps `average`'s rows there ([`super::Options::fallback`]).
/// Returns the re-solves made and the seats' re-solves fallen back.
pub fn nest_below(
    sub: &Subgame,
    average: &mut [f64],
    budget: Budget,
    method: Method,
    fallback: bool,
) -> anyhow::Result<(usize, usize)> {
    let (mut made, mut fell_back) = (0, 0);
    for (node, reach) in next_roots(&sub.tree, 0, average, &sub.ranges, NESTED_FLOOR) {
        let state = sub
            .state(node)
            .context("a next street's root has no state")?;
        let next = Subgame::with_chance_given(state, &sub.bets[node], reach.clone())?;
        // The strategy the nested re-solve replaces, read in its own tree (its units).
        let mut replaced = vec![0.0; next.tree.num_slots];
        if method != Method::Unsafe {
            rows_into((sub, node, average), &reach, &next, 0, &mut replaced)?;
        }
        let mut by = solve_by(&next, budget, method, &replaced, fallback)?;
        let below = nest_below(&next, &mut by.average, budget, method, fallback)?;
        made += by.solves.len() + below.0;
        fell_back += by.fell_back + below.1;
        rows_into((&next, 0, &by.average), &next.ranges, sub, node, average)?;
    }
    Ok((made, fell_back))
}

/// Writes `rows` (slot weights of `from`'s tree) below its node `from_at` over `average`'s
/// (slot weights of `into`'s tree) below its node `at`, where the two are the same spot (one
/// subgame built at the other's node): the same betting and cards below both (checked). Each
/// hand of `into` takes the row of `from`'s hand holding the same cards. Where several do (a
/// set of three cards is three hands of a sixth-street solve, by the card dealt last:
/// [`Tree::twins`]), it takes their rows mixed by each one's reach, `reach` at `from_at` times
/// its own rows' probabilities on the way: the one strategy of the set that gives every
/// opponent hand what the several rows give it (Kuhn's theorem), so that a safe re-solve of
/// `into` is bounded by what the solve above let each opponent hand get.
fn rows_into<T: Copy + Into<f64>>(
    from: (&Subgame, usize, &[T]),
    reach: &[Vec<f64>; 2],
    into: &Subgame,
    at: usize,
    average: &mut [f64],
) -> anyhow::Result<()> {
    let (from, from_at, rows) = from;
    let (f, t) = (&from.tree, &into.tree);
    let holders = holders(from, into);
    // One holder each (a walkable game's cards, or into a solve of more hands): rows copied
    // as they are, no reach to follow.
    let mixing = holders.iter().any(|h| h.len() > 1);
    let mut stack = vec![(
        from_at,
        at,
        if mixing {
            reach.clone()
        } else {
            Default::default()
        },
    )];
    let mut weight = Vec::new();
    while let Some((p, q, reach)) = stack.pop() {
        let (a, b) = (f.nodes[p], t.nodes[q]);
        if !matches!(a.kind, NodeKind::Action | NodeKind::Chance) {
            continue;
        }
        ensure!(
            f.edges[f.children(p)] == t.edges[t.children(q)],
            "node {q}: the nested subgame's betting or cards differ from the one above"
        );
        if a.kind == NodeKind::Action {
            let k = a.num_children as usize;
            let (ft, tt) = (
                f.bucket_table(a.board, a.seat),
                t.bucket_table(b.board, b.seat),
            );
            let row = |x: u32| a.first_slot() as usize + x as usize * k;
            for (y, &by) in tt.iter().enumerate().filter(|(_, &y)| y != NONE) {
                let dst = b.first_slot() as usize + by as usize * k;
                let held = || (holders[y].iter()).filter(|&&x| ft[x as usize] != NONE);
                let dst = &mut average[dst..dst + k];
                let mut first = held();
                match (first.next(), first.next()) {
                    (None, _) => {}
                    (Some(&x), None) => {
                        let src = row(ft[x as usize]);
                        for (d, &s) in dst.iter_mut().zip(&rows[src..src + k]) {
                            *d = s.into();
                        }
                    }
                    _ => {
                        let n = held().count();
                        let own = &reach[a.seat as usize];
                        let total: f64 = held().map(|&x| own[x as usize]).sum();
                        dst.fill(0.0);
                        for &x in held() {
                            // No reach on any of them: each alike.
                            let w = match total > 0.0 {
                                true => own[x as usize] / total,
                                false => 1.0 / n as f64,
                            };
                            let src = &rows[row(ft[x as usize])..][..k];
                            let sum: f64 = src.iter().map(|&v| v.into()).sum();
                            for (d, &v) in dst.iter_mut().zip(src) {
                                *d += w * match sum > 0.0 {
                                    true => v.into() / sum,
                                    false => 1.0 / k as f64,
                                };
                            }
                        }
                    }
                }
            }
        }
        for (i, (c, d)) in f.children(p).zip(t.children(q)).enumerate() {
            let mut next = reach.clone();
            if mixing && a.kind == NodeKind::Action {
                weigh(f, p, i, rows, 0.0, &mut weight, &mut next);
            }
            stack.push((c, d, next));
        }
    }
    Ok(())
}

/// For each hand of `into`, the hands of `from` holding the same cards (none, one, or a set's
/// several orders).
fn holders(from: &Subgame, into: &Subgame) -> Vec<Vec<u32>> {
    let mut by_set: Vec<(u64, u32)> = (from.hands.iter().enumerate())
        .map(|(i, h)| (h.0, i as u32))
        .collect();
    by_set.sort_unstable();
    into.hands
        .iter()
        .map(|h| {
            let first = by_set.partition_point(|x| x.0 < h.0);
            by_set[first..]
                .iter()
                .take_while(|x| x.0 == h.0)
                .map(|x| x.1)
                .collect()
        })
        .collect()
}

/// A path from a subgame's root (each step an action node and the index of the child taken),
/// and the node it reaches.
type Path = (Vec<(usize, usize)>, usize);

/// The path from `sub`'s root along the bets of `bets` past its root (`bets` the whole hand's
/// betting), and the node it reaches; `None`
/// where the subgame lacks one of the bets (a raise past its cap).
fn path_after(sub: &Subgame, bets: &[Bet]) -> anyhow::Result<Option<Path>> {
    ensure!(
        bets.len() >= sub.root_bets,
        "the betting given stops before the subgame's root"
    );
    let t = &sub.tree;
    let (mut node, mut path) = (0, Vec::new());
    for &(_, a) in &bets[sub.root_bets..] {
        match t.children(node).position(|c| t.edges[c] == Edge::Action(a)) {
            Some(i) => {
                path.push((node, i));
                node = t.children(node).nth(i).unwrap_or(node);
            }
            None => return Ok(None),
        }
    }
    Ok(Some((path, node)))
}

/// The subgame of the last street below `sub` (a solve from the street before it, `resolved`),
/// rooted at the decision that `bets` (the hand's betting up to the last street's first
/// decision) reach: each seat's range the reach there of [`reach_along`] under the solve's
/// rows by Bayes' rule ([`NESTED_FLOOR`]; a seat whose range would be empty, each action by at
/// least `fallback`, the replay's floor), the hands of one card set (the three orders a set's
/// cards came in) summed. `None` where `sub` lacks one of the bets (a raise past its cap).
pub fn next_street(
    sub: &Subgame,
    resolved: &Resolved,
    bets: &[Bet],
    fallback: f64,
) -> anyhow::Result<Option<Nested>> {
    let Some((path, node)) = path_after(sub, bets)? else {
        return Ok(None);
    };
    let t = &sub.tree;
    ensure!(
        t.nodes[node].kind == NodeKind::Action && usize::from(t.nodes[node].street) > sub.street,
        "a nested re-solve starts at a decision of a street after the solved one's"
    );
    let state = sub
        .state(node)
        .context("the nested root has no state")?
        .clone();
    let average = &resolved.solver.average;
    let mut reach = reach_along(t, &sub.ranges, average, &path, NESTED_FLOOR);
    if reach.iter().any(|r| r.iter().all(|&x| x == 0.0)) {
        let floored = reach_along(t, &sub.ranges, average, &path, fallback);
        for (r, f) in reach.iter_mut().zip(floored) {
            if r.iter().all(|&x| x == 0.0) {
                *r = f;
            }
        }
    }
    let ranges = reach.clone().map(|r| sets_of(sub, &r));
    let next = Subgame::given(Given {
        state,
        bets: bets.to_vec(),
        seats: sub.seats,
        ranges,
        dead: CardSet::EMPTY,
    })?;
    Ok(Some(Nested {
        sub: next,
        at: node,
        reach,
    }))
}

/// A nested re-solve's subgame ([`next_street`]) and where it starts in the solve above.
pub struct Nested {
    /// The subgame.
    pub sub: Subgame,
    /// Its root's node in the subgame above.
    at: usize,
    /// Each seat's reach there, hand by hand of the subgame above: what its ranges sum.
    reach: [Vec<f64>; 2],
}

impl Nested {
    /// The rows of the solve above (`rows`, slot weights of `above`'s tree) below this
    /// subgame's root, read into its tree, each set's orders mixed by their reach
    /// ([`rows_into`]): the strategy a safe re-solve of this subgame replaces.
    pub fn replaced<T: Copy + Into<f64>>(
        &self,
        above: &Subgame,
        rows: &[T],
    ) -> anyhow::Result<Vec<f64>> {
        let mut out = vec![0.0; self.sub.tree.num_slots];
        rows_into((above, self.at, rows), &self.reach, &self.sub, 0, &mut out)?;
        Ok(out)
    }
}

/// A weight per hand of `sub` summed into its card sets (each set once: a hand and its
/// twins, [`Tree::twins`], hold one set).
pub(super) fn sets_of(sub: &Subgame, weights: &[f64]) -> Vec<(CardSet, f64)> {
    let twins = &sub.tree.twins;
    (0..sub.hands.len())
        .filter_map(|h| match twins.get(h) {
            None => Some((sub.hands[h], weights[h])),
            Some(&[a, b]) if h < a as usize && h < b as usize => Some((
                sub.hands[h],
                weights[h] + weights[a as usize] + weights[b as usize],
            )),
            Some(_) => None,
        })
        .collect()
}
