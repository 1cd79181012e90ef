//! Depth-limited re-solving measured exactly on a walkable game ([`measure_limited`]): every
//! root of a street before the last re-solved depth-limited ([`super::depth`]), its street's
//! rows replaced, the blueprint kept below the cut; the whole game's exact best response.

use super::depth::{root_street_rows, Limited};
use super::leaves::{continuations, Frontier};
use super::nest::next_roots;
use super::verify::{measure_with, row_pairs, Measured, Root, Solved};
use super::{Budget, Options, Subgame};
use crate::bot::Player;
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{ensure, Result};
use std::time::Instant;

/// How a depth-limited re-solve values its leaves.
#[derive(Clone, Copy, Debug)]
pub struct Depth {
    /// Continuation strategies per leaf: 1 (the blueprint) to
    /// [`super::leaves::MAX_CONTINUATIONS`].
    pub leaves: usize,
    /// Whether each root of the next street is re-solved again (depth-limited, street by
    /// street), from the ranges the re-solved rows above it imply, as a player searching at
    /// every street would; else the blueprint's rows stay below the cut.
    pub nested: bool,
}

/// [`super::verify::measure_from`] with each subgame re-solved depth-limited: the root's
/// street alone, its leaves valued by `depth.leaves` continuations of the player's strategy
/// (one solve per seat, the other seat choosing at the leaves; with one continuation there
/// is no choice and one solve answers both seats). Below the cut the player's own rows stay.
#[allow(clippy::too_many_arguments)]
pub fn measure_limited(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
    street: usize,
    budget: Budget,
    options: Options,
    depth: Depth,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Measured> {
    ensure!(
        street + 1 < def.streets.len(),
        "a depth-limited re-solve starts before the last street ({} is the last)",
        def.street_name(def.streets.len() - 1)
    );
    ensure!(
        (1..=super::leaves::MAX_CONTINUATIONS).contains(&depth.leaves),
        "--leaves {}: 1 to {} continuation strategies per leaf",
        depth.leaves,
        super::leaves::MAX_CONTINUATIONS
    );
    let resolve = |root: &Root, lifted: &[f64]| {
        resolve_limited(tree, player, root, budget, options, depth, lifted)
    };
    measure_with(def, tree, player, street, &resolve, progress)
}

/// Re-solves the subgame at `root` depth-limited and maps its root street's rows onto the
/// public tree (the blueprint's below the cut, as lifted).
fn resolve_limited(
    tree: &Tree,
    player: &dyn Player,
    root: &Root,
    budget: Budget,
    options: Options,
    depth: Depth,
    lifted: &[f64],
) -> Result<Solved> {
    let sub = Subgame::with_chance(
        player,
        &root.state,
        &root.bets,
        root.state.street(),
        options,
    )?;
    let pairs = row_pairs(tree, root.node, &sub)?;
    let mut blue = vec![0.0; sub.tree.num_slots];
    for &(at, sub_at, k) in &pairs {
        blue[sub_at..sub_at + k].copy_from_slice(&lifted[at..at + k]);
    }
    let mut average = blue.clone();
    let iterations = nest(
        &sub.tree,
        0,
        &sub.ranges,
        &blue,
        budget,
        depth,
        &mut average,
    )?;
    let mut rows = Vec::with_capacity(pairs.len() * 3);
    for &(at, sub_at, k) in &pairs {
        let mut row = average[sub_at..sub_at + k].to_vec();
        crate::kernel::normalize(&mut row);
        rows.extend(row.into_iter().enumerate().map(|(a, p)| (at + a, p)));
    }
    Ok(Solved {
        rows,
        blueprint: sub.exploitability(&blue).0,
        resolved: sub.exploitability(&average).0,
        iterations,
        gains: Vec::new(),
        mixed: 0,
        fell_back: (0, 0),
    })
}

/// Re-solves `tree` depth-limited from its decision `root` (each seat's reach there
/// `ranges`) into `average`'s rows of `root`'s street; then, when `depth.nested`, each root of
/// the next street below the same way, from the ranges the re-solved rows imply, street by
/// street. `blueprint`'s rows value the leaves. Returns the first solve's iterations. The
/// evaluator and a searching player ([`super::depth_player`]) share it.
pub(crate) fn nest(
    tree: &Tree,
    root: usize,
    ranges: &[Vec<f64>; 2],
    blueprint: &[f64],
    budget: Budget,
    depth: Depth,
    average: &mut [f64],
) -> Result<u64> {
    let street = usize::from(tree.nodes[root].street);
    // The searching seats: with one continuation (or no leaf) the leaf player has no choice,
    // and one solve is both seats' answer.
    let (searchers, k): (&[u8], _) = if Frontier::has_leaves(tree, root) && depth.leaves > 1 {
        (&[0, 1], depth.leaves)
    } else {
        (&[0], 1)
    };
    let mut iterations = 0;
    for &searcher in searchers {
        let leaf_seat = 1 - searcher;
        let conts = continuations(tree, blueprint, leaf_seat, street, k)?;
        let frontier = Frontier::new(tree, root, &conts)?;
        let mut limited = Limited::new(tree, root, &frontier, ranges.clone(), leaf_seat)?;
        run(&mut limited, budget)?;
        iterations = limited.iterations;
        for (node, first, len) in root_street_rows(tree, root, &frontier) {
            if searchers.len() == 1 || tree.nodes[node].seat == searcher {
                average[first..first + len].copy_from_slice(&limited.average()[first..first + len]);
            }
        }
    }
    if depth.nested {
        // Bayes' rule on the re-solved rows (no floor): as this measure was first run.
        for (next, r) in next_roots(tree, root, average, ranges, 0.0) {
            nest(tree, next, &r, blueprint, budget, depth, average)?;
        }
    }
    Ok(iterations)
}

/// Runs `limited` for `budget`'s iterations, or until its milliseconds are spent.
fn run(limited: &mut Limited, budget: Budget) -> Result<()> {
    let start = Instant::now();
    match budget {
        Budget::Iterations(0) => anyhow::bail!("a re-solve needs at least 1 iteration"),
        Budget::Iterations(n) => (0..n).for_each(|_| limited.iterate()),
        Budget::Millis(ms) => loop {
            limited.iterate();
            if start.elapsed().as_secs_f64() * 1000.0 >= ms as f64 {
                break;
            }
        },
    }
    Ok(())
}
