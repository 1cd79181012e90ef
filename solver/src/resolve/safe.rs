//! A subgame re-solved by a [`Method`], both seats' rows in one strategy: unsafe, one solve
//! answers both seats; safe, each seat's rows come from a solve of its own in which the other
//! seat enters through the gadget, bounded by what it got against the strategy replaced (the
//! blueprint, or in a nested re-solve the rows of the solve above).

use super::{Budget, Method, Resolved, Subgame};
use abstraction::tree::NodeKind;
use anyhow::Context;

/// `sub` re-solved by `method` within `budget`, safe methods against `replaced` (slot weights
/// of `sub`'s tree: the strategy whose every opponent hand's best-response value each seat's
/// re-solve must not exceed): the strategy (slot weights, each decision's rows from the solve
/// of the seat acting there) and the solves made (one unsafe, else one per seat).
pub fn solve_by(
    sub: &Subgame,
    budget: Budget,
    method: Method,
    replaced: &[f64],
) -> anyhow::Result<(Vec<f64>, Vec<Resolved>)> {
    let Some(kind) = method.gadget() else {
        let solved = sub.solve(budget, None)?;
        return Ok((solved.average(), vec![solved]));
    };
    let solves = (0..2u8)
        .map(|seat| {
            let safety = sub.safety_against(replaced, seat, kind)?;
            sub.solve(budget, Some(&safety))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut average = solves[0].average();
    for node in &sub.tree.nodes {
        if node.kind != NodeKind::Action {
            continue;
        }
        let r = solves
            .get(node.seat as usize)
            .context("a seat without its re-solve")?;
        // A row per bucket: per hand on the last street, per possible hand below public chance.
        let rows = sub.tree.num_buckets[node.street as usize] as usize;
        let at = node.first_slot() as usize;
        let slots = at..at + rows * node.num_children as usize;
        for (a, &x) in average[slots.clone()]
            .iter_mut()
            .zip(&r.solver.average[slots])
        {
            *a = f64::from(x);
        }
    }
    Ok((average, solves))
}
