//! A subgame re-solved by a [`Method`], both seats' rows in one strategy: unsafe, one solve
//! answers both seats; safe, each seat's rows come from a solve of its own in which the other
//! seat enters through the gadget, bounded by what it got against the strategy replaced (the
//! blueprint, or in a nested re-solve the rows of the solve above).

use super::{Budget, Method, Resolved, Subgame};
use abstraction::tree::NodeKind;
use anyhow::Context;

/// A subgame re-solved by [`solve_by`].
pub struct BySeat {
    /// The strategy: slot weights of the subgame's tree, each decision's rows from the solve
    /// of the seat acting there (or, fallen back, from the strategy replaced).
    pub average: Vec<f64>,
    /// The solves made: one unsafe, else one per seat.
    pub solves: Vec<Resolved>,
    /// The seats whose safe re-solve did not hold ([`Resolved::holds`]) and, with the
    /// fallback asked, play the strategy replaced.
    pub fell_back: usize,
}

/// `sub` re-solved by `method` within `budget`, safe methods against `replaced` (slot weights
/// of `sub`'s tree: the strategy whose every opponent hand's best-response value each seat's
/// re-solve must not exceed); with `fallback`, a seat whose safe re-solve lets an opponent hand
/// gain over that keeps `replaced`'s rows ([`super::Options::fallback`]).
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
        });
    };
    let solves = (0..2u8)
        .map(|seat| {
            let safety = sub.safety_against(replaced, seat, kind)?;
            sub.solve(budget, Some(&safety))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    // One best-response walk a seat, only where the fallback asks it.
    let kept: Vec<bool> = (solves.iter()).map(|r| !fallback || r.holds(sub)).collect();
    let mut average = solves[0].average();
    for node in &sub.tree.nodes {
        if node.kind != NodeKind::Action {
            continue;
        }
        let seat = node.seat as usize;
        let r = solves.get(seat).context("a seat without its re-solve")?;
        // A row per bucket: per hand on the last street, per possible hand below public chance.
        let rows = sub.tree.num_buckets[node.street as usize] as usize;
        let at = node.first_slot() as usize;
        let slots = at..at + rows * node.num_children as usize;
        if kept[seat] {
            for (a, &x) in average[slots.clone()]
                .iter_mut()
                .zip(&r.solver.average[slots])
            {
                *a = f64::from(x);
            }
        } else {
            average[slots.clone()].copy_from_slice(&replaced[slots]);
        }
    }
    Ok(BySeat {
        average,
        solves,
        fell_back: kept.iter().filter(|&&k| !k).count(),
    })
}
