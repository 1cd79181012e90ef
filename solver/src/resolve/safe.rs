//! A subgame re-solved by a [`Method`], both seats' rows in one strategy: unsafe, one solve
//! answers both seats; safe, each seat's rows come from a solve of its own in which the other
//! seat enters through the gadget, bounded by what it got against the strategy replaced (the
//! blueprint, or in a nested re-solve the rows of the solve above).

use super::{Budget, Method, Resolved, Safety, Subgame, TableReal, GAIN_TOLERANCE};
use crate::kernel::Real;
use abstraction::tree::{Node, NodeKind, Tree, NONE};
use anyhow::Context;

/// A subgame re-solved by [`solve_by`].
pub struct BySeat {
    /// The strategy: slot weights of the subgame's tree, each decision's rows from the solve
    /// of the seat acting there (or, fallen back, from the strategy replaced).
    pub average: Vec<f64>,
    /// The solves made: one unsafe, else one per seat.
    pub solves: Vec<Resolved>,
    /// With the fallback asked, the seats whose safe re-solve did not hold
    /// ([`Resolved::holds`]) and play the strategy replaced.
    pub fell_back: usize,
    /// With the fallback asked, the seats whose safe re-solve did not hold alone but does
    /// mixed with the strategy replaced ([`SHARES`]).
    pub mixed: usize,
}

/// `sub` re-solved by `method` within `budget`, safe methods against `replaced` (slot weights
/// of `sub`'s tree: the strategy whose every opponent hand's best-response value each seat's
/// re-solve must not exceed); with `fallback`, a seat whose safe re-solve lets an opponent hand
/// gain over that plays it mixed with `replaced`'s rows where a share holds, else `replaced`'s
/// ([`super::Options::fallback`]).
pub fn solve_by(
    sub: &Subgame,
    budget: Budget,
    method: Method,
    replaced: &[f64],
    fallback: bool,
) -> anyhow::Result<BySeat> {
    let Some(kind) = method.gadget() else {
        let solved = sub.solve(budget, None)?;
        return Ok(BySeat {
            average: solved.average(),
            solves: vec![solved],
            fell_back: 0,
            mixed: 0,
        });
    };
    let mut by = BySeat {
        average: Vec::new(),
        solves: Vec::with_capacity(2),
        fell_back: 0,
        mixed: 0,
    };
    for seat in 0..2u8 {
        let safety = sub.safety_against(replaced, seat, kind)?;
        let mut solved = sub.solve(budget, Some(&safety))?;
        if fallback {
            match keep_bound(sub, &mut solved, replaced) {
                Kept::Alone => {}
                Kept::Mixed => by.mixed += 1,
                Kept::Replaced => by.fell_back += 1,
            }
        }
        by.solves.push(solved);
    }
    by.average = by.solves[0].average();
    for node in &sub.tree.nodes {
        if node.kind != NodeKind::Action {
            continue;
        }
        let r = (by.solves.get(node.seat as usize)).context("a seat without its re-solve")?;
        let slots = rows_of(&sub.tree, node);
        for (a, &x) in by.average[slots.clone()]
            .iter_mut()
            .zip(&r.solver.average[slots])
        {
            *a = f64::from(x);
        }
    }
    Ok(by)
}

/// How [`keep_bound`] kept a safe re-solve's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The re-solve holds it alone (or is unsafe: no bound).
    Alone,
    /// Mixed with the strategy replaced ([`SHARES`]).
    Mixed,
    /// Replaced by the strategy replaced.
    Replaced,
}

/// The safe fallback ([`super::Options::fallback`]) of one seat's safe re-solve `solved` of
/// `sub`, `replaced` the strategy it replaces (slot weights of `sub`'s tree): where the
/// re-solve lets an opponent hand gain over its alternative ([`Resolved::holds`]: one
/// best-response walk), its rows become the largest share of [`SHARES`] of it mixed with
/// `replaced`'s that holds, else `replaced`'s. Its report's `opponent_gain` stays the
/// re-solve's own; its exploitability is of what it now plays.
pub fn keep_bound(sub: &Subgame, solved: &mut Resolved, replaced: &[f64]) -> Kept {
    let Some(safety) = solved.safety.clone() else {
        return Kept::Alone;
    };
    if solved.holds(sub) {
        return Kept::Alone;
    }
    let mixed = mix_within_bound(sub, &solved.average(), replaced, &safety);
    let kept = match mixed {
        Some(_) => Kept::Mixed,
        None => Kept::Replaced,
    };
    let rows = mixed.as_deref().unwrap_or(replaced);
    for node in sub.tree.nodes.iter().filter(|n| is_seats(n, safety.seat)) {
        for i in rows_of(&sub.tree, node) {
            solved.solver.average[i] = TableReal::from_f64(rows[i]);
        }
    }
    kept
}

/// The shares of the re-solve tried, largest first, where a seat's re-solve alone lets an
/// opponent hand gain: each costs one best-response walk.
const SHARES: [f64; 3] = [0.5, 0.25, 0.125];

/// `average` with `safety`'s seat playing the largest share of [`SHARES`] of its re-solve
/// (`average`'s rows) mixed with `replaced`'s, by the seat's own reach (realization weights,
/// so that the mixture plays each strategy whole with that probability), at which no opponent
/// hand gains over its alternative; `None` when none holds. Each hand's best-response value
/// is convex in the share and equals its alternative at 0.
fn mix_within_bound(
    sub: &Subgame,
    average: &[f64],
    replaced: &[f64],
    safety: &Safety,
) -> Option<Vec<f64>> {
    let tree = &sub.tree;
    let resolved = realization(tree, average, safety.seat);
    let before = realization(tree, replaced, safety.seat);
    SHARES.iter().find_map(|&share| {
        let mut mixed = average.to_vec();
        for node in tree.nodes.iter().filter(|n| is_seats(n, safety.seat)) {
            for i in rows_of(tree, node) {
                mixed[i] = share * resolved[i] + (1.0 - share) * before[i];
            }
        }
        (sub.opponent_gain(&mixed, safety) <= GAIN_TOLERANCE).then_some(mixed)
    })
}

/// Whether `node` is a decision of `seat`.
fn is_seats(node: &Node, seat: u8) -> bool {
    node.kind == NodeKind::Action && node.seat == seat
}

/// The slots of a decision: a row per bucket (per hand on the last street, per possible hand
/// below public chance).
fn rows_of(tree: &Tree, node: &Node) -> std::ops::Range<usize> {
    let rows = tree.num_buckets[node.street as usize] as usize;
    let at = node.first_slot() as usize;
    at..at + rows * node.num_children as usize
}

/// `seat`'s realization weights of the strategy `rows` (slot weights of `tree`, each row read
/// normalized, uniform where it has no weight): each of its slots is its row's probability
/// times the seat's own reach of the row, the product of its earlier rows on the way. A bucket
/// is many hands only before public chance, where they have shared every row above.
pub(super) fn realization(tree: &Tree, rows: &[f64], seat: u8) -> Vec<f64> {
    let mut out = vec![0.0; tree.num_slots];
    let mut stack = vec![(0usize, vec![1.0; tree.num_hands()])];
    while let Some((i, reach)) = stack.pop() {
        let node = tree.nodes[i];
        match node.kind {
            NodeKind::Action if node.seat == seat => {
                let k = node.num_children as usize;
                let mut next = vec![vec![0.0; reach.len()]; k];
                for (h, &b) in tree.bucket_table(node.board, seat).iter().enumerate() {
                    if b == NONE {
                        continue;
                    }
                    let at = node.first_slot() as usize + b as usize * k;
                    let row = &rows[at..at + k];
                    let total: f64 = row.iter().sum();
                    for (a, next) in next.iter_mut().enumerate() {
                        let p = if total > 0.0 {
                            row[a] / total
                        } else {
                            1.0 / k as f64
                        };
                        out[at + a] = reach[h] * p;
                        next[h] = reach[h] * p;
                    }
                }
                stack.extend(tree.children(i).zip(next));
            }
            NodeKind::Action | NodeKind::Chance => {
                stack.extend(tree.children(i).map(|c| (c, reach.clone())));
            }
            NodeKind::Fold | NodeKind::Showdown => {}
        }
    }
    out
}
