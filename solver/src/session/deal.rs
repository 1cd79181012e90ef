//! A deal-sampled solve of a real game ([`crate::deal_cfr`]): what it will cost before the big
//! arrays are allocated ([`estimate`]), its checkpoints (`f32` regrets and averages under a
//! [`Deal`] header), and its strategy file.

use super::Session;
use crate::best_response::Exploitability;
use crate::checkpoint;
use crate::checkpoint::Problem;
use crate::deal_cfr::{row_into, DealSolver};
use crate::memory::{status_bytes, Estimate};
use crate::strategy_file::{self, BettingSolve, DealSampling, TreeKind, Width};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::Bucketing;
use abstraction::card_abstraction::CardAbstraction;
use abstraction::deal::HeadsUpDeal;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// What a deal checkpoint (magic `STUDCK2D`, two sections of `f32`) records of its solver
/// beside the problem. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deal {
    /// The member of the CFR family.
    pub algorithm: crate::cfr::Algorithm,
    /// Deals per iteration.
    pub batch: u64,
    /// The seed of the deals.
    pub seed: u64,
    /// Alternating updates (the draws and the updates depend on it).
    pub alternating: bool,
}

impl checkpoint::Kind for Deal {
    const MAGIC: &'static [u8; 8] = b"STUDCK2D";
    const WHAT: &'static str = "deal checkpoint";
    const RESUME_WITH: &'static str = "--game, --abstraction, --algorithm, --batch and --seed";

    fn mismatch(&self, saved: &Self) -> Option<String> {
        if saved.algorithm != self.algorithm {
            Some(format!("algorithm ({})", saved.algorithm.name()))
        } else if saved.batch != self.batch || saved.seed != self.seed {
            Some("deal sampling (--batch, --seed)".into())
        } else if saved.alternating != self.alternating {
            Some("update order (alternating or simultaneous)".into())
        } else {
            None
        }
    }
}

impl Problem {
    /// The problem of a deal-sampled solve of `def` with `bucketing` whose rows recall
    /// `recall` (the betting abstraction is the game's own raise cap, as the betting tree is
    /// built). A checkpoint's rows are keys of the recall: its name is part of the card
    /// abstraction's, so that a resume recalls the same.
    pub fn deal(def: &GameDef, bucketing: &Bucketing, recall: Recall) -> Problem {
        Problem {
            game: def.clone(),
            card_abstraction: match recall {
                Recall::None => bucketing.name(),
                r => format!("{} recalling {}", bucketing.name(), r.name()),
            },
            betting: BettingAbstraction::for_game(def),
            lock: None,
        }
    }
}

impl Session for DealSolver {
    type Elem = f32;
    type Kind = Deal;

    fn iterate(&mut self) -> Result<()> {
        DealSolver::iterate(self)?;
        Ok(())
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn kind(&self) -> Deal {
        Deal {
            algorithm: self.algorithm(),
            batch: self.batch as u64,
            seed: self.seed,
            alternating: self.alternating,
        }
    }

    fn arrays(&self) -> [&[f32]; 2] {
        [&self.regrets, &self.average]
    }

    fn restore(&mut self) -> ([&mut [f32]; 2], &mut u64) {
        ([&mut self.regrets, &mut self.average], &mut self.iterations)
    }
}

/// What a deal-sampled solve's strategy file records: its tree, its average-strategy masses
/// (one per slot, from `average`: [`Averages`]) and how they were solved.
pub struct Solved<'a, A> {
    /// The betting tree.
    pub tree: &'a BettingTree,
    /// The average-strategy masses of the slots of `tree`.
    pub average: A,
    /// The member of the CFR family.
    pub algorithm: crate::cfr::Algorithm,
    /// Iterations completed.
    pub iterations: u64,
    /// Deals per iteration.
    pub batch: usize,
    /// The seed of the deals.
    pub seed: u64,
    /// What a row recalls of earlier streets.
    pub recall: Recall,
}

/// Where the strategy file's writer reads the average masses, one action node at a time in
/// increasing node order (the file's order): the whole array of one process ([`Whole`]), or a
/// split solve's ranks, one split point's subtree at a time
/// ([`crate::deal_cfr::split::Gathered`]), so that no process needs every slot at once.
pub trait Averages {
    /// The masses of action node `node`'s rows (`buckets × children`, bucket by bucket).
    fn rows(&mut self, node: usize) -> Result<&[f32]>;
}

impl<A: Averages + ?Sized> Averages for &mut A {
    fn rows(&mut self, node: usize) -> Result<&[f32]> {
        (**self).rows(node)
    }
}

/// The average masses of every slot of `tree`, in one array (one process's).
pub struct Whole<'a> {
    /// The betting tree.
    pub tree: &'a BettingTree,
    /// One mass per slot of `tree`.
    pub average: &'a [f32],
}

impl Averages for Whole<'_> {
    fn rows(&mut self, node: usize) -> Result<&[f32]> {
        let t = self.tree;
        if self.average.len() != t.num_slots {
            bail!(
                "{} average masses for a tree of {} slots",
                self.average.len(),
                t.num_slots
            );
        }
        let n = &t.nodes[node];
        let len = t.num_buckets[n.street as usize] as usize * n.num_children as usize;
        Ok(&self.average[n.first_slot() as usize..][..len])
    }
}

impl DealSolver {
    /// What this solver's strategy file records.
    pub fn solved(&self) -> Solved<'_, Whole<'_>> {
        Solved {
            tree: &self.tree,
            average: Whole {
                tree: &self.tree,
                average: &self.average,
            },
            algorithm: self.algorithm(),
            iterations: self.iterations,
            batch: self.batch,
            seed: self.seed,
            recall: self.recall(),
        }
    }
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
    write_solved(
        path,
        solver.solved(),
        game,
        bucketing,
        width,
        exploitability,
    )
}

/// [`write_strategy`] of what a solve [`Solved`], its masses read node by node: one process's
/// whole array, or a split solve's rank 0 receiving them from every rank a part at a time.
pub fn write_solved(
    path: &Path,
    solved: Solved<'_, impl Averages>,
    game: &GameDef,
    bucketing: &Bucketing,
    width: Width,
    exploitability: Option<Exploitability>,
) -> Result<()> {
    let t = solved.tree;
    let mut average = solved.average;
    let solve = BettingSolve {
        game,
        betting: t.betting,
        bucketing,
        algorithm: solved.algorithm,
        iterations: solved.iterations,
        sampling: DealSampling {
            batch: solved.batch as u64,
            seed: solved.seed,
        },
        width,
        exploitability,
        recall: solved.recall,
    };
    strategy_file::write_betting(
        path,
        &solve,
        &t.nodes,
        &t.edges,
        &t.num_buckets,
        t.num_slots,
        |node, bucket, out| {
            let k = out.len();
            let rows = average
                .rows(node as usize)
                .context("reading the average strategy")?;
            match rows.get(bucket as usize * k..(bucket as usize + 1) * k) {
                Some(row) => row_into(row, out),
                None => bail!(
                    "{} average masses for node {node}, bucket {bucket} of {k} actions",
                    rows.len()
                ),
            }
            Ok(())
        },
    )
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
        HeadsUpDeal::sample(def, &mut rng)?.facts(def, bucketing)?;
        Ok::<(), anyhow::Error>(())
    })?;
    Ok(start.elapsed().as_secs_f64() / deals.max(1) as f64)
}
