//! A deal-sampled solve of a real game ([`crate::deal_cfr`]): what it will cost before the big
//! arrays are allocated ([`estimate`]), its checkpoints, and its strategy file.
//!
//! A deal checkpoint is a [`container`](crate::container) with magic `STUDDCKP`, a
//! [`DealCheckpointHeader`] and two sections of `f32` little-endian, one per slot: the regrets,
//! then the average-strategy mass. It is written atomically and read back section by section
//! into the solver's own arrays ([`crate::container::ContainerFile`], as the walked solve's
//! checkpoints are), so resuming needs no second copy of them in memory.

use crate::best_response::Exploitability;
use crate::container::{self, ContainerFile};
use crate::deal_cfr::DealSolver;
use crate::memory::{status_bytes, Estimate};
use crate::strategy_file::{self, BettingSolve, DealSampling, TreeKind, Width};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::Bucketing;
use abstraction::deal::Deal;
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The magic of deal checkpoints.
pub const MAGIC: &[u8; 8] = b"STUDDCKP";

/// What a deal checkpoint must match to be resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealCheckpointHeader {
    /// The game (stored as JSON text, see [`crate::container::game_as_json`]).
    #[serde(with = "crate::container::game_as_json")]
    pub game: GameDef,
    /// The card abstraction's name (size and checksum).
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
    /// The member of the CFR family.
    pub algorithm: crate::cfr::Algorithm,
    /// Deals per iteration.
    pub batch: u64,
    /// The seed of the deals.
    pub seed: u64,
    /// Iterations completed.
    pub iterations: u64,
    /// Number of slots.
    pub slots: u64,
}

impl DealCheckpointHeader {
    /// The header describing `solver`'s current state.
    pub fn of(solver: &DealSolver, game: &GameDef, card_abstraction: &str) -> Self {
        DealCheckpointHeader {
            game: game.clone(),
            card_abstraction: card_abstraction.into(),
            betting: solver.tree.betting,
            algorithm: solver.algorithm(),
            batch: solver.batch as u64,
            seed: solver.seed,
            iterations: solver.iterations,
            slots: solver.regrets.len() as u64,
        }
    }
}

/// Writes the solver's state to `path` atomically.
pub fn save_checkpoint(
    path: &Path,
    solver: &DealSolver,
    game: &GameDef,
    card_abstraction: &str,
) -> Result<()> {
    container::write(
        path,
        MAGIC,
        DealCheckpointHeader::of(solver, game, card_abstraction),
        &[
            bytemuck::cast_slice(&solver.regrets),
            bytemuck::cast_slice(&solver.average),
        ],
    )
}

/// Restores a checkpoint into `solver` (fresh, on the same tree), after checking that it was
/// made for the same game, abstractions, batch and seed, and that no byte is damaged.
pub fn load_checkpoint(
    path: &Path,
    solver: &mut DealSolver,
    game: &GameDef,
    card_abstraction: &str,
) -> Result<()> {
    let at = || path.display().to_string();
    let mut f = ContainerFile::<DealCheckpointHeader>::open(
        path,
        crate::input::CHECKPOINT,
        MAGIC,
        "deal checkpoint",
    )?;
    let c = &f.container;
    let expect = DealCheckpointHeader {
        iterations: c.header.iterations,
        ..DealCheckpointHeader::of(solver, game, card_abstraction)
    };
    let h = &c.header;
    let mismatch = |what: &str| {
        anyhow::anyhow!(
            "{}: the checkpoint is for another {what}; resume with the same --game, \
             --abstraction, --algorithm, --batch and --seed",
            at()
        )
    };
    if h.game != expect.game {
        return Err(mismatch("game"));
    }
    if h.card_abstraction != expect.card_abstraction || h.betting != expect.betting {
        return Err(mismatch("abstraction"));
    }
    if h.algorithm != expect.algorithm {
        return Err(mismatch(&format!("algorithm ({})", h.algorithm.name())));
    }
    if h.batch != expect.batch || h.seed != expect.seed {
        return Err(mismatch("deal sampling (--batch, --seed)"));
    }
    if h.slots != expect.slots || c.sections.len() != 2 {
        bail!(
            "{}: damaged: {} slots, the tree has {}",
            at(),
            h.slots,
            expect.slots
        );
    }
    let iterations = h.iterations;
    for (i, dst) in [&mut solver.regrets, &mut solver.average]
        .into_iter()
        .enumerate()
    {
        f.read_section_into(i, bytemuck::cast_slice_mut(dst.as_mut_slice()))?;
    }
    solver.iterations = iterations;
    Ok(())
}

/// Writes the solver's average strategy as a betting-tree strategy file (atomically), with the
/// bucketing it was solved with embedded and its `exploitability` where it was measured.
pub fn write_strategy(
    path: &Path,
    solver: &DealSolver,
    game: &GameDef,
    bucketing: &Bucketing,
    width: Width,
    exploitability: Option<Exploitability>,
) -> Result<()> {
    let solve = BettingSolve {
        game,
        betting: solver.tree.betting,
        bucketing,
        algorithm: solver.algorithm(),
        iterations: solver.iterations,
        sampling: DealSampling {
            batch: solver.batch as u64,
            seed: solver.seed,
        },
        width,
        exploitability,
        recall: solver.recall(),
    };
    let mut failed = None;
    let t = &solver.tree;
    strategy_file::write_betting(
        path,
        &solve,
        &t.nodes,
        &t.edges,
        &t.num_buckets,
        t.num_slots,
        |node, bucket, out| {
            if let Err(e) = solver.average_row(node, bucket, out) {
                failed.get_or_insert(e);
            }
        },
    )?;
    match failed {
        Some(e) => bail!("reading the average strategy: {e}"),
        None => Ok(()),
    }
}

/// What a deal-sampled solve on `tree` with `batch` deals per iteration, stored at `width`, will
/// hold in memory, estimated before its arrays are allocated; `first_street` is the size of the
/// bucketing's first-street table (0 if none). The betting tree is already resident: it is small
/// next to the slots.
pub fn estimate(
    tree: &BettingTree,
    batch: usize,
    bucketing: &Bucketing,
    first_street: usize,
    width: Width,
) -> Estimate {
    // A table entry is three u64 keys and a u32 bucket.
    let table = first_street * (3 * 8 + 4);
    Estimate {
        infosets: tree.infosets(),
        slots: tree.num_slots,
        bytes_per_slot: DealSolver::bytes_per_slot(),
        resident_bytes: status_bytes("VmRSS").unwrap_or(0),
        bucketing_bytes: bucketing.encode().len() + table,
        tree_bytes: 0,
        solver_bytes: tree.num_slots * DealSolver::bytes_per_slot(),
        scratch_bytes: DealSolver::scratch_bytes(tree, batch),
        write_bytes: strategy_file::write_bytes(
            TreeKind::Betting,
            tree.nodes.len(),
            tree.num_slots,
            tree.infosets(),
            width,
        ),
    }
}

/// Seconds per deal of sampling deals and computing their facts (the bucket lookups dominate),
/// measured on `deals` deals in the current rayon pool: the probe of the time per batch.
pub fn probe_deal_seconds(
    def: &Arc<GameDef>,
    bucketing: &Bucketing,
    deals: usize,
    seed: u64,
) -> Result<f64> {
    let start = Instant::now();
    (0..deals as u64).into_par_iter().try_for_each(|d| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ d.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        Deal::sample(def, &mut rng)?.facts(def, bucketing)?;
        Ok::<(), anyhow::Error>(())
    })?;
    Ok(start.elapsed().as_secs_f64() / deals.max(1) as f64)
}
