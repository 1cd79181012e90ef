//! One deal-sampled solve split over several processes (ranks), bit-identical to
//! [`DealSolver`]'s: the communication is behind [`Exchange`] (MPI in the binary's `mpi`
//! feature, threads in the tests), the split and the walk are here.
//!
//! The betting tree is cut where the first street's betting ends (or a later street's, when
//! there are many ranks: [`Split::plan`]): the *top* is that street's and the earlier streets'
//! action nodes (a few rows), the *split points* are their children that are action nodes of a
//! later street, each the root of a subtree; the subtrees hold nearly all the slots. Every
//! rank holds the top's rows; each split point is
//! owned by one rank ([`Split::plan`]: the largest subtrees first, each to the rank with the
//! fewest slots so far), which alone holds its subtree's rows. A batch goes:
//! 1. the deals' facts (the bucket lookups): each rank computes a contiguous share of the
//!    deals, and the shares are all-gathered ([`FACT_BYTES`] a deal);
//! 2. down the top (every rank, the same operations in the same order as [`DealSolver`]): each
//!    top node's current strategy and its children's reach, as far as the split points;
//! 3. each rank walks its own split points' subtrees (in parallel over its threads) with
//!    [`DealSolver`]'s walk: their values per deal;
//! 4. the values at the split points are all-gathered (4 bytes per split point and deal);
//! 5. every rank walks the top again, reading the split points' values where
//!    [`DealSolver`] walked their subtrees, and updates the top's rows.
//!
//! The results are the single process's bits: a subtree's walk depends only on its reach, the
//! batch and its own rows, and the top combines its children's values in child order either way.
//! Step 5 recomputes the top's strategies and reach (a few nodes) instead of keeping them.

use super::{
    accumulate, child_reach, expected_value, lay_out, level_len, levels, passes, strategy,
    task_bytes, terminal, weights, ActionNode, BatchData, Ctx, DealSolver, Frame, Reach, Task,
};
use crate::cfr::{mix, Algorithm, Rows, Tables};
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::Bucketing;
use abstraction::deal::{DealError, DealFacts, HeadsUpDeal};
use abstraction::recall::Recall;
use abstraction::rules::{GameDef, MAX_STREETS};
use abstraction::tree::NONE;
use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The bytes of one deal's facts as exchanged: the first actor per street, both seats' bucket
/// per street (`u32`), seat 0's showdown share (`f32` bits).
pub const FACT_BYTES: usize = MAX_STREETS + 8 * MAX_STREETS + 4;

/// The collective operations a split solve needs; every rank calls each one in the same order.
pub trait Exchange {
    /// This process's rank, 0 to `ranks() - 1`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn ranks(&self) -> usize;
    /// Gathers every rank's `mine` (rank `r` sends `counts[r]` bytes) into `all`, rank order.
    fn all_gather_bytes(&mut self, mine: &[u8], counts: &[usize], all: &mut [u8]) -> Result<()>;
    /// Gathers every rank's `mine` (rank `r` sends `counts[r]` values) into `all`, rank order.
    fn all_gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()>;
    /// Gathers every rank's `mine` on rank 0 only, into `all` (ignored elsewhere).
    fn gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()>;
    /// Rank 0's `value` on every rank (so that every rank stops or checkpoints together).
    fn decide(&mut self, value: bool) -> Result<bool>;
    /// Every rank's `value`, rank order.
    fn all_u64(&mut self, value: u64) -> Result<Vec<u64>>;
    /// Rank 0's `values` into every rank's (as long on every rank): a checkpoint that rank 0
    /// alone read.
    fn broadcast_f32(&mut self, values: &mut [f32]) -> Result<()>;
}

impl<X: Exchange + ?Sized> Exchange for &mut X {
    fn rank(&self) -> usize {
        (**self).rank()
    }
    fn ranks(&self) -> usize {
        (**self).ranks()
    }
    fn all_gather_bytes(&mut self, mine: &[u8], counts: &[usize], all: &mut [u8]) -> Result<()> {
        (**self).all_gather_bytes(mine, counts, all)
    }
    fn all_gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        (**self).all_gather_f32(mine, counts, all)
    }
    fn gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        (**self).gather_f32(mine, counts, all)
    }
    fn decide(&mut self, value: bool) -> Result<bool> {
        (**self).decide(value)
    }
    fn all_u64(&mut self, value: u64) -> Result<Vec<u64>> {
        (**self).all_u64(value)
    }
    fn broadcast_f32(&mut self, values: &mut [f32]) -> Result<()> {
        (**self).broadcast_f32(values)
    }
}

/// Which rank owns which split point.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// The number of ranks.
    pub ranks: usize,
    /// The top is the action nodes of this many streets (1: the first street's).
    pub top_streets: usize,
    /// The split points (betting-tree nodes), in preorder.
    pub points: Vec<usize>,
    /// The owner of each split point.
    pub owner: Vec<usize>,
    /// The slots of the top (held by every rank).
    pub top_slots: usize,
    /// Per rank, the slots of the split points it owns.
    pub owned_slots: Vec<usize>,
}

impl Split {
    /// The split of `tree` for `ranks` ranks: at the end of the street, the first or a later
    /// one, that leaves the fewest slots on the fullest rank (a deeper split has more, smaller
    /// subtrees to balance, but a larger top on every rank; the shallower on a tie). The split
    /// points go to the ranks largest subtree first, each to the rank with the fewest slots so
    /// far (the lowest rank on a tie): deterministic.
    pub fn plan(tree: &BettingTree, ranks: usize) -> Split {
        let streets = tree.num_buckets.len();
        let mut best = Split::at(tree, ranks, 1);
        for top_streets in 2..streets {
            let split = Split::at(tree, ranks, top_streets);
            if split.most_slots() < best.most_slots() {
                best = split;
            }
        }
        best
    }

    /// The most slots a rank holds.
    pub fn most_slots(&self) -> usize {
        (0..self.ranks).map(|r| self.slots_of(r)).max().unwrap_or(0)
    }

    /// The split of `tree` over `ranks` ranks below the action nodes of the first
    /// `top_streets` streets.
    pub fn at(tree: &BettingTree, ranks: usize, top_streets: usize) -> Split {
        let ranks = ranks.max(1);
        let is_top = |i: usize| {
            let n = &tree.nodes[i];
            n.kind == BettingKind::Action && (n.street as usize) < top_streets
        };
        let mut points = Vec::new();
        let mut top_slots = 0;
        for i in 0..tree.nodes.len() {
            if is_top(i) {
                let n = &tree.nodes[i];
                top_slots += tree.num_buckets[n.street as usize] as usize * n.num_children as usize;
                for c in tree.children(i) {
                    if tree.nodes[c].kind == BettingKind::Action && !is_top(c) {
                        points.push(c);
                    }
                }
            }
        }
        points.sort_unstable();
        let size = |p: usize| (tree.slot_range[p][1] - tree.slot_range[p][0]) as usize;
        let mut order: Vec<usize> = (0..points.len()).collect();
        order.sort_by_key(|&j| (std::cmp::Reverse(size(points[j])), j));
        let mut owner = vec![0; points.len()];
        let mut owned_slots = vec![0; ranks];
        for j in order {
            let r = (0..ranks).min_by_key(|&r| (owned_slots[r], r)).unwrap_or(0);
            owner[j] = r;
            owned_slots[r] += size(points[j]);
        }
        Split {
            ranks,
            top_streets,
            points,
            owner,
            top_slots,
            owned_slots,
        }
    }

    /// Whether node `i` of `tree` is in the top (held and walked by every rank).
    pub fn is_top(&self, tree: &BettingTree, i: usize) -> bool {
        let n = &tree.nodes[i];
        n.kind == BettingKind::Action && (n.street as usize) < self.top_streets
    }

    /// The slots rank `rank` holds: the top and its split points.
    pub fn slots_of(&self, rank: usize) -> usize {
        self.top_slots + self.owned_slots[rank]
    }

    /// The first deal of rank `rank`'s share of a batch of `batch` (contiguous shares).
    pub fn deals_from(&self, batch: usize, rank: usize) -> usize {
        rank * batch / self.ranks
    }
}

/// What one rank communicated, summed over the batches it ran.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Traffic {
    /// Bytes received from the other ranks (the facts and the values at the split points).
    pub received: u64,
    /// Bytes sent (each rank's own share, counted once per other rank).
    pub sent: u64,
    /// Time in the collective operations (waiting for the slowest rank included).
    pub time: Duration,
    /// Batches run.
    pub batches: u64,
}

/// One rank's part of a split deal-sampled solve (see the module documentation).
pub struct DealPart {
    /// The betting tree (every rank has it all: it is small next to the slots).
    pub tree: BettingTree,
    /// The split.
    pub split: Split,
    /// This rank.
    pub rank: usize,
    /// Iterations (batches) completed.
    pub iterations: u64,
    /// Deals per iteration.
    pub batch: usize,
    /// The seed of the deals.
    pub seed: u64,
    /// Alternating updates (as [`DealSolver::alternating`]).
    pub alternating: bool,
    /// Regrets of the slots held, local order: the top nodes' rows (preorder), then the owned
    /// split points' subtrees (preorder).
    pub regrets: Vec<f32>,
    /// Average-strategy masses, in the order of `regrets`.
    pub average: Vec<f32>,
    /// What this rank communicated.
    pub traffic: Traffic,
    algorithm: Algorithm,
    def: Arc<GameDef>,
    bucketing: Arc<Bucketing>,
    recall: Recall,
    /// Per node: the local offset of a top node's rows, else [`NONE`].
    top_at: Vec<u32>,
    /// The owned split points: node, local offset of the subtree's slots.
    owned: Vec<(usize, usize)>,
    /// Per node: the index into `owned` of an owned split point, else [`NONE`].
    task_at: Vec<u32>,
    /// Per node: the offset of a split point's values in `values`, else [`NONE`].
    value_at: Vec<u32>,
    /// One task per owned split point, and whether the batch's walk reached it.
    tasks: Vec<Task>,
    reached: Vec<bool>,
    /// The top's scratch.
    scratch: Vec<f32>,
    out: Vec<f32>,
    /// The root's reach: 1 for every deal.
    ones: Vec<f32>,
    /// This rank's values at its split points, then every rank's (rank order).
    mine: Vec<f32>,
    values: Vec<f32>,
    value_counts: Vec<usize>,
    facts: Vec<DealFacts>,
    fact_bytes: Vec<u8>,
    all_fact_bytes: Vec<u8>,
    fact_counts: Vec<usize>,
    batch_data: BatchData,
}

/// Per node of `tree`, where a top node's rows start in the local slots (else [`NONE`]), and
/// the slots the top nodes' rows take: they come first, in preorder.
fn top_rows(tree: &BettingTree, split: &Split) -> (Vec<u32>, usize) {
    let mut top_at = vec![NONE; tree.nodes.len()];
    let mut local = 0usize;
    for (i, at) in top_at.iter_mut().enumerate() {
        if split.is_top(tree, i) {
            let node = &tree.nodes[i];
            *at = local as u32;
            local += tree.num_buckets[node.street as usize] as usize * node.num_children as usize;
        }
    }
    (top_at, local)
}

/// Where each split point's values lie in the exchanged values (per node of `n`, else
/// [`NONE`]), how many each rank sends, and how many in all: they arrive grouped by owner,
/// each owner's in preorder, `batch` a point.
fn value_layout(split: &Split, n: usize, batch: usize) -> (Vec<u32>, Vec<usize>, usize) {
    let mut value_at = vec![NONE; n];
    let mut value_counts = vec![0; split.ranks];
    let mut next = 0usize;
    for (r, count) in value_counts.iter_mut().enumerate() {
        for (j, &p) in split.points.iter().enumerate() {
            if split.owner[j] == r {
                value_at[p] = next as u32;
                next += batch;
                *count += batch;
            }
        }
    }
    (value_at, value_counts, next)
}

impl DealPart {
    /// Rank `rank`'s part of the solve [`DealSolver::with_recall`] would run with the same
    /// arguments, split as `split` says (made for this tree: [`Split::plan`]). Refuses what
    /// [`DealSolver::with_recall`] refuses.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        def: &GameDef,
        tree: BettingTree,
        bucketing: Arc<Bucketing>,
        recall: Recall,
        batch: usize,
        seed: u64,
        rank: usize,
        split: Split,
    ) -> Result<DealPart, DealError> {
        let ranks = split.ranks;
        if rank >= ranks || split.points.last().is_some_and(|&p| p >= tree.nodes.len()) {
            return Err(DealError::Unsupported(format!(
                "rank {rank} of {ranks} ranks, on a split of another tree"
            )));
        }
        // The single-process solver's refusals, in its words.
        let def = Arc::new(def.clone());
        DealSolver::check(&def, &tree, &bucketing, recall, batch, seed)?;
        let n = tree.nodes.len();
        let (top_at, mut local) = top_rows(&tree, &split);
        let levels = levels(&tree);
        let mut owned = Vec::new();
        let mut task_at = vec![NONE; n];
        let mut tasks = Vec::new();
        for (j, &p) in split.points.iter().enumerate() {
            if split.owner[j] == rank {
                task_at[p] = owned.len() as u32;
                owned.push((p, local));
                local += (tree.slot_range[p][1] - tree.slot_range[p][0]) as usize;
                tasks.push(Task::new(&tree, batch, levels[p]));
            }
        }
        let (value_at, value_counts, next) = value_layout(&split, n, batch);
        let fact_counts: Vec<usize> = (0..ranks)
            .map(|r| (split.deals_from(batch, r + 1) - split.deals_from(batch, r)) * FACT_BYTES)
            .collect();
        let streets = def.streets.len();
        let empty = DealFacts {
            first: [0; MAX_STREETS],
            buckets: [[0; 2]; MAX_STREETS],
            share0: 0.0,
        };
        Ok(DealPart {
            regrets: vec![0.0; local],
            average: vec![0.0; local],
            iterations: 0,
            batch,
            seed,
            alternating: false,
            traffic: Traffic::default(),
            algorithm: Algorithm::CfrPlus,
            def,
            bucketing,
            recall,
            scratch: vec![0.0; level_len(&tree, batch) * top_levels(&tree, &split, 0)],
            out: vec![0.0; batch],
            ones: vec![1.0; batch],
            mine: vec![0.0; value_counts[rank]],
            values: vec![0.0; next],
            value_counts,
            facts: vec![empty; batch],
            fact_bytes: vec![0; fact_counts[rank]],
            all_fact_bytes: vec![0; batch * FACT_BYTES],
            fact_counts,
            batch_data: BatchData {
                first: vec![0; streets * batch],
                bucket: vec![0; 2 * streets * batch],
                showdown: vec![0.0; batch],
            },
            reached: vec![false; tasks.len()],
            tasks,
            top_at,
            owned,
            task_at,
            value_at,
            split,
            rank,
            tree,
        })
    }

    /// Chooses the member of the CFR family, as [`DealSolver::set_algorithm`] (which refuses
    /// DCFR, here too).
    pub fn set_algorithm(&mut self, algorithm: Algorithm) -> Result<(), DealError> {
        DealSolver::check_algorithm(algorithm)?;
        self.algorithm = algorithm;
        Ok(())
    }

    /// The member of the CFR family this solver runs.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// What a row recalls of earlier streets.
    pub fn recall(&self) -> Recall {
        self.recall
    }

    /// The bytes of scratch rank `rank` of `split` allocates besides its slots, on `tree` with
    /// `batch` deals: the top's, its split points' tasks, the facts and the values exchanged.
    pub fn scratch_bytes(tree: &BettingTree, split: &Split, rank: usize, batch: usize) -> usize {
        let levels = levels(tree);
        let tasks: usize = (split.points.iter().zip(&split.owner))
            .filter(|&(_, &o)| o == rank)
            .map(|(&p, _)| task_bytes(tree, batch, levels[p]))
            .sum();
        let top = level_len(tree, batch) * top_levels(tree, split, 0) * 4;
        let facts = batch * (std::mem::size_of::<DealFacts>() + 9 * tree.num_buckets.len() + 4);
        let exchanged = batch * 2 * FACT_BYTES + (split.points.len() + 1) * batch * 4 * 2;
        top + tasks + facts + exchanged
    }

    /// Runs one iteration over `x` (every rank at once): the same deals, walks and updates as
    /// [`DealSolver::iterate`], each rank doing its share.
    pub fn iterate(&mut self, x: &mut impl Exchange) -> Result<()> {
        let t = self.iterations + 1;
        self.sample_batch(t, x)?;
        self.iterations = t;
        let (regret_weight, average_weight, clamp) = weights(self.algorithm, t);
        let passes = passes(self.alternating);
        let top_len = self.owned.first().map_or(self.regrets.len(), |o| o.1);
        for &trav in passes {
            let ctx = Ctx {
                tree: &self.tree,
                data: &self.batch_data,
                batch: self.batch,
                regret_weight,
                average_weight,
                clamp,
                level: level_len(&self.tree, self.batch),
                task_of: &[],
                trav,
                lock: None,
            };
            let reach = Reach {
                seat0: &self.ones,
                seat1: &self.ones,
            };
            let (top_regrets, below_regrets) = self.regrets.split_at_mut(top_len);
            let (top_average, below_average) = self.average.split_at_mut(top_len);
            self.reached.fill(false);
            let mut down = Down {
                split: &self.split,
                top: top_regrets,
                top_at: &self.top_at,
                task_at: &self.task_at,
                tasks: &mut self.tasks,
                reached: &mut self.reached,
            };
            down.walk(&ctx, 0, reach, &mut self.scratch);
            walk_owned(
                &ctx,
                &self.owned,
                &mut self.tasks,
                &self.reached,
                below_regrets,
                below_average,
                top_len,
            );
            for (m, t) in self.mine.chunks_exact_mut(self.batch).zip(&self.tasks) {
                m.copy_from_slice(&t.out);
            }
            let start = Instant::now();
            x.all_gather_f32(&self.mine, &self.value_counts, &mut self.values)?;
            count(
                &mut self.traffic,
                self.split.ranks,
                start,
                4 * self.mine.len(),
                4 * self.values.len(),
            );
            let mut up = Up {
                split: &self.split,
                regrets: top_regrets,
                average: top_average,
                top_at: &self.top_at,
                value_at: &self.value_at,
                values: &self.values,
            };
            up.walk(&ctx, 0, reach, &mut self.out, &mut self.scratch);
        }
        self.traffic.batches += 1;
        Ok(())
    }

    /// Samples this rank's share of iteration `t`'s deals, gathers every share and lays the
    /// facts out for the walk.
    fn sample_batch(&mut self, t: u64, x: &mut impl Exchange) -> Result<()> {
        let (def, bucketing, seed) = (&self.def, &self.bucketing, self.seed);
        let from = self.split.deals_from(self.batch, self.rank);
        self.fact_bytes
            .par_chunks_exact_mut(FACT_BYTES)
            .enumerate()
            .try_for_each(|(i, out)| {
                let d = from + i;
                let key = mix(mix(seed, t), d as u64);
                let f = HeadsUpDeal::sample(def, &mut ChaCha8Rng::seed_from_u64(key))?
                    .facts(def, bucketing)?;
                encode(&f, out);
                Ok::<(), DealError>(())
            })?;
        let start = Instant::now();
        x.all_gather_bytes(
            &self.fact_bytes,
            &self.fact_counts,
            &mut self.all_fact_bytes,
        )?;
        count(
            &mut self.traffic,
            self.split.ranks,
            start,
            self.fact_bytes.len(),
            self.all_fact_bytes.len(),
        );
        for (f, bytes) in self
            .facts
            .iter_mut()
            .zip(self.all_fact_bytes.chunks_exact(FACT_BYTES))
        {
            *f = decode(bytes);
        }
        lay_out(
            &self.facts,
            &self.bucketing,
            self.recall,
            &self.tree,
            &mut self.batch_data,
        );
        Ok(())
    }

    /// Gathers the average-strategy masses of every rank on rank 0 into one array over all the
    /// tree's slots (the single process's `average`); `None` on the other ranks. For a small
    /// tree only (a walkable game's lift, the tests): the strategy file is written from
    /// [`Gathered`], which never holds every slot.
    pub fn gather_average(&self, x: &mut impl Exchange) -> Result<Option<Vec<f32>>> {
        let mut gathered = Gathered::new(self, x);
        if self.rank != 0 {
            gathered.finish()?;
            return Ok(None);
        }
        let mut average = vec![0.0f32; self.tree.num_slots];
        for (i, n) in self.tree.nodes.iter().enumerate() {
            if n.kind == BettingKind::Action {
                let rows = gathered.rows(i)?;
                let slot = n.first_slot() as usize;
                average[slot..slot + rows.len()].copy_from_slice(rows);
            }
        }
        gathered.finish()?;
        Ok(Some(average))
    }
}

/// The average masses of a split solve as rank 0 reads them, node by node in increasing order
/// (the strategy file's order): the top's rows and rank 0's own subtrees from its part, every
/// other split point's subtree gathered from its owner when the first of its nodes is asked
/// for, into one buffer that the next replaces. So rank 0 holds, besides its part, one other
/// rank's subtree at a time, never every slot. Every rank goes through the split points in
/// their order (rank 0 as [`Gathered::rows`] reaches them, the others in
/// [`Gathered::finish`]), one gather each, skipped for rank 0's own.
pub struct Gathered<'a, X: Exchange> {
    part: &'a DealPart,
    x: X,
    /// The next split point to go through.
    next: usize,
    /// The split point whose masses are at hand (in `part` if rank 0 owns it, else `buffer`).
    held: Option<usize>,
    buffer: Vec<f32>,
}

impl<'a, X: Exchange> Gathered<'a, X> {
    /// `part`'s masses, exchanged over `x` (every rank makes one).
    pub fn new(part: &'a DealPart, x: X) -> Self {
        Gathered {
            part,
            x,
            next: 0,
            held: None,
            buffer: Vec::new(),
        }
    }

    /// Rank 0: the masses of action node `node`'s rows; nodes must be asked for in increasing
    /// order (a split point passed over is not gathered again).
    pub fn rows(&mut self, node: usize) -> Result<&[f32]> {
        let p = self.part;
        let tree = &p.tree;
        if p.rank != 0 {
            bail!("only rank 0 reads the gathered average masses");
        }
        let n = tree
            .nodes
            .get(node)
            .filter(|n| n.kind == BettingKind::Action)
            .with_context(|| format!("node {node} is not an action node of the betting tree"))?;
        let len = tree.num_buckets[n.street as usize] as usize * n.num_children as usize;
        if p.top_at[node] != NONE {
            return Ok(&p.average[p.top_at[node] as usize..][..len]);
        }
        let slot = n.first_slot() as usize;
        let within = |j: usize| {
            let [lo, hi] = tree.slot_range[p.split.points[j]];
            (lo as usize..hi as usize).contains(&slot)
        };
        while !self.held.is_some_and(within) {
            if self.next == p.split.points.len() {
                bail!("node {node} is below no split point still to come: asked out of order");
            }
            self.advance()?;
        }
        let j = self.held.expect("held: the loop ended on it");
        let lo = tree.slot_range[p.split.points[j]][0] as usize;
        let held = match p.task_at[p.split.points[j]] {
            NONE => &self.buffer[..],
            t => &p.average[p.owned[t as usize].1..],
        };
        Ok(&held[slot - lo..][..len])
    }

    /// Goes through the split points not yet gone through (every rank calls it once, rank 0
    /// after its last [`Gathered::rows`]).
    pub fn finish(mut self) -> Result<()> {
        while self.next < self.part.split.points.len() {
            self.advance()?;
        }
        Ok(())
    }

    /// Goes through the next split point: its owner sends its subtree's masses to rank 0
    /// (nothing is exchanged for rank 0's own).
    fn advance(&mut self) -> Result<()> {
        let p = self.part;
        let j = self.next;
        self.next += 1;
        let owner = p.split.owner[j];
        let point = p.split.points[j];
        self.held = Some(j);
        if owner == 0 {
            return Ok(());
        }
        let [lo, hi] = p.tree.slot_range[point].map(|s| s as usize);
        let mine = match p.task_at[point] {
            NONE => &[][..],
            t => {
                let at = p.owned[t as usize].1;
                &p.average[at..at + hi - lo]
            }
        };
        let mut counts = vec![0; p.split.ranks];
        counts[owner] = hi - lo;
        if p.rank == 0 {
            self.buffer.clear();
            self.buffer.resize(hi - lo, 0.0);
        }
        self.x.gather_f32(mine, &counts, &mut self.buffer)
    }
}

/// Counts in `traffic` a collective over `ranks` ranks that took since `start`, sending `mine`
/// bytes to each other rank and receiving the rest of `all`.
fn count(traffic: &mut Traffic, ranks: usize, start: Instant, mine: usize, all: usize) {
    traffic.time += start.elapsed();
    traffic.sent += mine as u64 * (ranks as u64 - 1);
    traffic.received += (all - mine) as u64;
}

/// The most top nodes on a path down from node `i` (the top's scratch levels).
fn top_levels(tree: &BettingTree, split: &Split, i: usize) -> usize {
    if !split.is_top(tree, i) {
        return 0;
    }
    1 + tree
        .children(i)
        .map(|c| top_levels(tree, split, c))
        .max()
        .unwrap_or(0)
}

/// A deal's facts as exchanged ([`FACT_BYTES`]).
fn encode(f: &DealFacts, out: &mut [u8]) {
    let (first, rest) = out.split_at_mut(MAX_STREETS);
    first.copy_from_slice(&f.first);
    for (s, b) in rest.chunks_exact_mut(4).zip(f.buckets.iter().flatten()) {
        s.copy_from_slice(&b.to_le_bytes());
    }
    out[FACT_BYTES - 4..].copy_from_slice(&f.share0.to_bits().to_le_bytes());
}

/// The facts [`encode`] wrote.
fn decode(bytes: &[u8]) -> DealFacts {
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let mut f = DealFacts {
        first: [0; MAX_STREETS],
        buckets: [[0; 2]; MAX_STREETS],
        share0: f32::from_bits(word(FACT_BYTES - 4)),
    };
    f.first.copy_from_slice(&bytes[..MAX_STREETS]);
    for (i, b) in f.buckets.iter_mut().flatten().enumerate() {
        *b = word(MAX_STREETS + 4 * i);
    }
    f
}

/// The first walk down the top: strategies, and the reach of each owned split point.
struct Down<'a> {
    split: &'a Split,
    top: &'a [f32],
    top_at: &'a [u32],
    task_at: &'a [u32],
    tasks: &'a mut [Task],
    reached: &'a mut [bool],
}

impl Down<'_> {
    fn walk(&mut self, ctx: &Ctx, i: usize, reach: Reach, scratch: &mut [f32]) {
        // Below a node no deal reaches, [`DealSolver`] walks nothing: neither does its owner.
        if reach.is_zero() {
            return;
        }
        let node = ActionNode::at(ctx, i);
        let mut frame = Frame::carve(scratch, ctx.level, node.k, ctx.batch);
        let rows = &self.top[self.top_at[i] as usize..][..node.len];
        strategy(&node, rows, &mut frame, ctx.batch);
        let b = ctx.batch;
        for (a, c) in ctx.tree.children(i).enumerate() {
            let s = &frame.strategy[a * b..][..b];
            if self.split.is_top(ctx.tree, c) {
                let [c0, c1] = &mut frame.child_reach;
                child_reach(&node, s, reach, [c0, c1]);
                let below = Reach {
                    seat0: c0,
                    seat1: c1,
                };
                self.walk(ctx, c, below, frame.below);
            } else if self.task_at[c] != NONE {
                let j = self.task_at[c] as usize;
                let t = &mut self.tasks[j];
                child_reach(&node, s, reach, [&mut t.reach0, &mut t.reach1]);
                self.reached[j] = true;
            }
        }
    }
}

/// Walks the owned split points' subtrees, in parallel, into their tasks' `out`; `regrets` and
/// `average` hold their slots (local order, from local offset `base`).
fn walk_owned(
    ctx: &Ctx,
    owned: &[(usize, usize)],
    tasks: &mut [Task],
    reached: &[bool],
    regrets: &mut [f32],
    average: &mut [f32],
    mut base: usize,
) {
    let mut work = Vec::with_capacity(owned.len());
    let (mut regrets, mut average) = (regrets, average);
    for (&(p, at), (t, &r)) in owned.iter().zip(tasks.iter_mut().zip(reached)) {
        let len = (ctx.tree.slot_range[p][1] - ctx.tree.slot_range[p][0]) as usize;
        debug_assert_eq!(at, base, "owned subtrees lie in order, end to end");
        base += len;
        let (r0, rest_r) = std::mem::take(&mut regrets).split_at_mut(len);
        let (a0, rest_a) = std::mem::take(&mut average).split_at_mut(len);
        regrets = rest_r;
        average = rest_a;
        let slot = ctx.tree.slot_range[p][0] as usize;
        let tables = Tables {
            regrets: Rows {
                data: r0,
                base: slot,
            },
            averages: Rows {
                data: a0,
                base: slot,
            },
        };
        work.push((p, t, r, tables));
    }
    work.into_par_iter().for_each(|(p, t, r, tables)| {
        let Task {
            scratch,
            out,
            reach0,
            reach1,
        } = t;
        if !r {
            // Not reached: [`DealSolver`] never walks it, and the top never reads its values.
            out.fill(0.0);
            return;
        }
        let reach = Reach {
            seat0: reach0,
            seat1: reach1,
        };
        super::walk(ctx, p, reach, out, scratch, tables, &mut []);
    });
}

/// The second walk of the top: [`DealSolver`]'s walk of the top, the split points' values read
/// from `values`.
struct Up<'a> {
    split: &'a Split,
    regrets: &'a mut [f32],
    average: &'a mut [f32],
    top_at: &'a [u32],
    value_at: &'a [u32],
    values: &'a [f32],
}

impl Up<'_> {
    fn walk(&mut self, ctx: &Ctx, i: usize, reach: Reach, out: &mut [f32], scratch: &mut [f32]) {
        if reach.is_zero() {
            out.fill(0.0);
            return;
        }
        let node = ActionNode::at(ctx, i);
        let mut frame = Frame::carve(scratch, ctx.level, node.k, ctx.batch);
        let at = self.top_at[i] as usize;
        strategy(
            &node,
            &self.regrets[at..][..node.len],
            &mut frame,
            ctx.batch,
        );
        let b = ctx.batch;
        for (a, c) in ctx.tree.children(i).enumerate() {
            let v = &mut frame.values[a * b..][..b];
            if terminal(ctx, c, v) {
                continue;
            }
            if self.split.is_top(ctx.tree, c) {
                let [c0, c1] = &mut frame.child_reach;
                child_reach(&node, &frame.strategy[a * b..][..b], reach, [c0, c1]);
                let below = Reach {
                    seat0: c0,
                    seat1: c1,
                };
                self.walk(ctx, c, below, v, frame.below);
            } else {
                v.copy_from_slice(&self.values[self.value_at[c] as usize..][..b]);
            }
        }
        expected_value(out, frame.strategy, frame.values, node.k);
        let tables = Tables {
            regrets: Rows {
                data: &mut self.regrets[at..][..node.len],
                base: node.slot,
            },
            averages: Rows {
                data: &mut self.average[at..][..node.len],
                base: node.slot,
            },
        };
        accumulate(ctx, &node, reach, out, frame, tables);
    }
}

#[cfg(test)]
pub(crate) mod tests;
