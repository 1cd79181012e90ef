//! A multiway solve: the CFR family on the whole game tree of a walkable game for any number of
//! seats ([`crate::multiway`]). The tree is built within the memory the machine has, the solver
//! is estimated before it is allocated, its checkpoints hold `f64` regrets and averages under a
//! [`Multiway`] checkpoint header, and the average strategy is written as a JSON policy (one row per
//! information set, in a player's words) with the NashConv it measured.

use super::Session;
use crate::cfr::Algorithm;
use crate::checkpoint;
use crate::checkpoint::Problem;
use crate::container::write_atomic;
use crate::memory::{status_bytes, Estimate};
use crate::multiway::{NashConv, Solver, BYTES_PER_SLOT};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::history_tree::HistoryTree;
use abstraction::rules::GameDef;
use abstraction::tree::Budget;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// How to make a multiway solve smaller, for the refusals.
pub const ADVICE: &str = "use a smaller game (fewer seats, cards or bets)";

/// The best response's scratch per node (a reach, a value, its place in the depth order and
/// its depth).
const SCRATCH_PER_NODE: usize = 8 + 8 + 4 + 2;

/// Builds the game tree of `def` within `memory` bytes (`None`: unbounded), counting the
/// solver's arrays as it grows, and estimates what the solve will hold; nothing big is
/// allocated yet (the caller prints the estimate and checks it with [`ADVICE`]).
pub fn build_tree(def: &GameDef, memory: Option<usize>) -> Result<(HistoryTree, Estimate)> {
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let budget = Budget {
        nodes: usize::MAX,
        bytes: memory.unwrap_or(usize::MAX),
        per_slot: BYTES_PER_SLOT,
    };
    let tree = HistoryTree::build(def, budget)?;
    let est = estimate(&tree, resident);
    Ok((tree, est))
}

/// What a solve on `tree` holds beyond the `resident` bytes measured before the tree was built.
pub fn estimate(tree: &HistoryTree, resident: usize) -> Estimate {
    Estimate {
        infosets: tree.infosets.len(),
        slots: tree.num_slots,
        bytes_per_slot: BYTES_PER_SLOT,
        resident_bytes: resident,
        bucketing_bytes: 0,
        tree_bytes: tree.bytes(),
        solver_bytes: tree.num_slots * BYTES_PER_SLOT,
        // NashConv: the best response's arrays over the nodes, the average strategy and the
        // best action values over the slots.
        scratch_bytes: tree.nodes.len() * SCRATCH_PER_NODE + tree.num_slots * 16,
        // The JSON policy is streamed a row at a time; the average strategy is copied.
        write_bytes: tree.num_slots * 8,
    }
}

impl Problem {
    /// The problem of a multiway solve of `def` (no card abstraction, its own raise cap).
    pub fn multiway(def: &GameDef) -> Problem {
        Problem {
            game: def.clone(),
            card_abstraction: "none (every deal apart)".into(),
            betting: BettingAbstraction::for_game(def),
            lock: None,
        }
    }
}

/// What a multiway solve's checkpoint (magic `STUDCK2M`, two sections of `f64`) records of
/// its solver beside the problem. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Multiway {
    /// The algorithm.
    pub algorithm: Algorithm,
}

impl checkpoint::Kind for Multiway {
    const MAGIC: &'static [u8; 8] = b"STUDCK2M";
    const WHAT: &'static str = "multiway checkpoint";
    const RESUME_WITH: &'static str = "--game and --algorithm";

    fn mismatch(&self, saved: &Self) -> Option<String> {
        (saved.algorithm != self.algorithm).then(|| "algorithm".into())
    }
}

impl Session for Solver {
    type Elem = f64;
    type Kind = Multiway;

    fn iterate(&mut self) -> Result<()> {
        Solver::iterate(self);
        Ok(())
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn kind(&self) -> Multiway {
        Multiway {
            algorithm: self.algorithm,
        }
    }

    fn arrays(&self) -> [&[f64]; 2] {
        [&self.regrets, &self.average]
    }

    fn restore(&mut self) -> ([&mut [f64]; 2], &mut u64) {
        Solver::restore(self)
    }
}

/// Writes the average strategy of `solver` to `path` (atomically) as JSON: the game, the
/// iterations, the NashConv `nc`, and per information set its seat, what the seat has seen,
/// the actions and their probabilities. The rows are streamed, one at a time.
pub fn write_policy(path: &Path, solver: &Solver, def: &GameDef, nc: &NashConv) -> Result<()> {
    let tree = &solver.tree;
    let policy = solver.average_strategy();
    let head = serde_json::json!({
        "format": "stud multiway policy 1",
        "game": def,
        "seats": tree.seats,
        "algorithm": solver.algorithm.name(),
        "iterations": solver.iterations,
        "nash_conv": nc.total(),
        "best_response": nc.best_response,
        "on_policy": nc.on_policy,
    });
    let head = head.to_string();
    let tmp = path.with_extension("json.tmp");
    write_atomic(path, &tmp, |w| {
        // The head's fields, then the rows as one more field.
        w.write_all(&head.as_bytes()[..head.len() - 1])?;
        w.write_all(b",\"infosets\":[")?;
        for (i, (set, seen)) in tree.infosets.iter().zip(&tree.seen).enumerate() {
            let s = set.first_slot as usize..set.first_slot as usize + set.actions as usize;
            if i > 0 {
                w.write_all(b",")?;
            }
            let actions: Vec<String> = tree.actions[s.clone()]
                .iter()
                .map(|a| a.to_string())
                .collect();
            let row = serde_json::json!({
                "seat": set.seat,
                "seen": seen.describe(),
                "actions": actions,
                "strategy": &policy[s],
            });
            serde_json::to_writer(&mut *w, &row)?;
        }
        w.write_all(b"]}\n")
    })
}
