//! A deal-sampled solve split over ranks ([`crate::deal_cfr::split`]) as a session: each rank
//! runs [`super::run`] on its [`DealPart`] in lockstep (the stop and checkpoint decisions are
//! rank 0's), writes its own checkpoint (its rows under a [`Part`] header), and
//! estimates its own memory ([`estimate_part`]).

use super::deal::{Averages, Deal};
use super::Session;
use crate::checkpoint;
use crate::checkpoint::Problem;
use crate::deal_cfr::split::{DealPart, Exchange, Gathered, Split};
use crate::deal_cfr::DealSolver;
use crate::memory::{status_bytes, Estimate};
use crate::strategy_file::{self, TreeKind, Width};
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::Bucketing;
use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a rank's checkpoint (magic `STUDCK2P`, two sections of `f32`: the rank's rows in its
/// local order, `slots` the rank's) records of its solver beside the problem: the deal
/// checkpoint's settings, and the rank among as many ranks. The field order is the file
/// format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The solve's settings, as a single process's checkpoint records them.
    pub deal: Deal,
    /// This rank.
    pub rank: u64,
    /// The number of ranks (the split depends on it).
    pub ranks: u64,
}

impl checkpoint::Kind for Part {
    const MAGIC: &'static [u8; 8] = b"STUDCK2P";
    const WHAT: &'static str = "rank checkpoint";
    const RESUME_WITH: &'static str =
        "--game, --abstraction, --algorithm, --batch and --seed, on as many ranks";

    fn mismatch(&self, saved: &Self) -> Option<String> {
        self.deal.mismatch(&saved.deal).or_else(|| {
            (saved.rank != self.rank || saved.ranks != self.ranks).then(|| {
                format!(
                    "split (rank {} of {} ranks, this is rank {} of {})",
                    saved.rank, saved.ranks, self.rank, self.ranks
                )
            })
        })
    }
}

/// A rank's part of a split solve and the exchange it runs over: a [`Session`].
pub struct SplitSession<X: Exchange> {
    /// The rank's part.
    pub part: DealPart,
    /// The other ranks.
    pub exchange: X,
}

impl<X: Exchange> Session for SplitSession<X> {
    type Elem = f32;
    type Kind = Part;

    fn iterate(&mut self) -> Result<()> {
        self.part.iterate(&mut self.exchange)
    }

    fn iterations(&self) -> u64 {
        self.part.iterations
    }

    fn kind(&self) -> Part {
        let p = &self.part;
        Part {
            deal: Deal {
                algorithm: p.algorithm(),
                batch: p.batch as u64,
                seed: p.seed,
                alternating: p.alternating,
            },
            rank: p.rank as u64,
            ranks: p.split.ranks as u64,
        }
    }

    fn arrays(&self) -> [&[f32]; 2] {
        [&self.part.regrets, &self.part.average]
    }

    fn restore(&mut self) -> ([&mut [f32]; 2], &mut u64) {
        let p = &mut self.part;
        ([&mut p.regrets, &mut p.average], &mut p.iterations)
    }

    fn agree(&mut self, mine: bool) -> Result<bool> {
        self.exchange.decide(mine)
    }
}

/// Rank `rank`'s checkpoint beside the single process's `ckpt`: `OUT.rank1-of-3.ckpt`.
pub fn rank_checkpoint(ckpt: &Path, rank: usize, ranks: usize) -> PathBuf {
    ckpt.with_extension(format!("rank{rank}-of-{ranks}.ckpt"))
}

/// Restores every rank's checkpoint at `ckpt` (its own, [`rank_checkpoint`]) into `session`,
/// and refuses checkpoints of different iterations (a job stopped between two ranks' writes):
/// the solve must resume from one batch on every rank.
pub fn resume<X: Exchange>(
    ckpt: &Path,
    session: &mut SplitSession<X>,
    problem: &Problem,
) -> Result<()> {
    super::resume(ckpt, session, problem)?;
    let all = session.exchange.all_u64(session.part.iterations)?;
    if all.iter().any(|&i| i != all[0]) {
        bail!(
            "the ranks' checkpoints are of different iterations ({all:?} by rank): the job \
             stopped while they were written; resume needs every rank's checkpoint of one \
             iteration"
        );
    }
    Ok(())
}

/// Rank 0 writes the strategy file from the masses it receives a split point at a time.
impl<X: Exchange> Averages for Gathered<'_, X> {
    fn rows(&mut self, node: usize) -> Result<&[f32]> {
        Gathered::rows(self, node)
    }
}

/// What rank `rank` of `split` will hold in memory (the single process's
/// [`super::deal::estimate`] for its share of the slots); rank 0 also writes the strategy file,
/// receiving the other ranks' average masses one split point's subtree at a time (4 bytes a
/// slot of the largest subtree it does not own: [`Gathered`]) besides the file's buffers.
pub fn estimate_part(
    tree: &BettingTree,
    split: &Split,
    rank: usize,
    batch: usize,
    bucketing: &Bucketing,
    first_street: usize,
    width: Width,
) -> Estimate {
    let slots = split.slots_of(rank);
    let table = first_street * (3 * 8 + 4);
    let received = (split.points.iter().zip(&split.owner))
        .filter(|&(_, &o)| o != 0)
        .map(|(&p, _)| (tree.slot_range[p][1] - tree.slot_range[p][0]) as usize)
        .max()
        .unwrap_or(0);
    Estimate {
        infosets: tree.infosets(),
        slots,
        bytes_per_slot: DealSolver::bytes_per_slot(),
        resident_bytes: status_bytes("VmRSS").unwrap_or(0),
        bucketing_bytes: bucketing.encode().len() + table,
        tree_bytes: 0,
        solver_bytes: slots * DealSolver::bytes_per_slot(),
        scratch_bytes: DealPart::scratch_bytes(tree, split, rank, batch),
        write_bytes: if rank == 0 {
            received * std::mem::size_of::<f32>()
                + strategy_file::write_bytes(
                    TreeKind::Betting,
                    tree.nodes.len(),
                    tree.num_slots,
                    tree.infosets(),
                    width,
                )
        } else {
            0
        },
    }
}
