//! A deal-sampled strategy measured in the real game of a walkable game: lifted onto the
//! lossless public tree ([`DealSolver::lift`]) and met by the exact best response. The ladder,
//! `stud solve --solver deal` and the re-solving check measure with it.

use super::DealSolver;
use crate::best_response::{exploitability, Exploitability};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::card_abstraction::Lossless;
use abstraction::rules::GameDef;
use abstraction::tree::{Budget, Tree};
use anyhow::{bail, Context, Result};

/// The lossless public tree of the walkable game `def` under its betting abstraction, the tree
/// [`DealSolver::lift`] lifts onto: built within `memory` bytes (`None`: no limit) counting a
/// lifted strategy's [`LIFT_BYTES_PER_SLOT`] as it grows, so a tree too big is refused early
/// with the figures instead of aborting on a failed allocation; then refused unless one lifted
/// strategy fits beside it.
pub fn lift_target(def: &GameDef, memory: Option<usize>) -> Result<Tree> {
    let budget = Budget {
        nodes: usize::MAX,
        bytes: memory.unwrap_or(usize::MAX),
        per_slot: LIFT_BYTES_PER_SLOT,
    };
    let betting = BettingAbstraction::for_game(def);
    let tree = Tree::build(def, &Lossless, betting, budget)
        .context("the lossless public tree to measure the strategy on")?;
    check_lift_fits(&tree, memory.map(|m| m.saturating_sub(tree.bytes())))?;
    Ok(tree)
}

/// What a lifted strategy holds per slot of the public tree: an `f64` probability.
pub const LIFT_BYTES_PER_SLOT: usize = 8;

/// Refuses, before allocating, a lifted strategy on `tree` that would not fit in `memory` bytes:
/// an `f64` per slot (the best response's scratch, vectors over the hands per depth, is
/// kilobytes).
pub fn check_lift_fits(tree: &Tree, memory: Option<usize>) -> Result<()> {
    let need = tree.num_slots * LIFT_BYTES_PER_SLOT;
    if let Some(avail) = memory.filter(|&a| a < need) {
        bail!(
            "lifting onto the lossless tree needs {} MiB ({} infoset-actions × 8 bytes) but only \
             {} MiB are available",
            need >> 20,
            tree.num_slots,
            avail >> 20
        );
    }
    Ok(())
}

/// The real-game exploitability of `solver`'s average strategy: lifted onto `public` (see
/// [`lift_target`]) and measured by the exact best response.
pub fn deal_exploitability(solver: &DealSolver, public: &Tree) -> Result<Exploitability> {
    let lifted = solver.lift(public).map_err(anyhow::Error::msg)?;
    Ok(exploitability(public, &lifted))
}
