//! Building the tree and the solver for a game, within the memory the machine has.

use crate::cfr::{Algorithm, Solver, BYTES_PER_SLOT};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::card_abstraction::{CardAbstraction, Lossless};
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{bail, Result};

/// Bytes the tree takes per node: the node (16), its edge (16), its slot range (8), a terminal
/// value (8), rounded up for boards and tables.
pub const TREE_BYTES_PER_NODE: usize = 64;

/// The memory available to this process, from `/proc/meminfo` (`MemAvailable`), if known.
pub fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The abstractions a solve uses (lossless cards, the game's own raise cap).
pub struct Abstractions {
    /// The card abstraction.
    pub cards: Lossless,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
}

impl Abstractions {
    /// The abstractions of this issue for `def`.
    pub fn for_game(def: &GameDef) -> Abstractions {
        Abstractions {
            cards: Lossless,
            betting: BettingAbstraction::for_game(def),
        }
    }

    /// The card abstraction's name.
    pub fn card_name(&self) -> String {
        self.cards.name()
    }
}

/// Builds the tree (refusing one that would not fit in `memory` bytes), estimates the solver's
/// arrays and refuses them too if they would not fit; then allocates the solver.
pub fn new_solver(
    def: &GameDef,
    abs: &Abstractions,
    alg: Algorithm,
    memory: Option<usize>,
) -> Result<Solver> {
    let budget = memory.unwrap_or(usize::MAX / 2);
    let tree = Tree::build(def, &abs.cards, abs.betting, budget / TREE_BYTES_PER_NODE)?;
    let need = estimate_bytes(&tree);
    if need > budget {
        bail!(
            "the solver needs about {} MiB ({} infoset-actions × {BYTES_PER_SLOT} bytes, plus scratch) but \
             only {} MiB are available",
            need >> 20,
            tree.num_slots,
            budget >> 20
        );
    }
    Ok(Solver::new(tree, alg))
}

/// The bytes the solver will allocate for `tree`: regrets and averages, plus scratch.
pub fn estimate_bytes(tree: &Tree) -> usize {
    tree.num_slots * BYTES_PER_SLOT + crate::cfr::scratch_bytes(tree)
}
