//! External-sampling MCCFR for real stud at three to eight seats (as Pluribus): the betting
//! abstraction of `abstraction::multiway_betting` (a tree per street, entered by the live seats
//! and a pot class), the card abstraction of `abstraction::multiway_deal` (the heads-up
//! bucketing of a seat's cards against the best showing live opponent, the other seats' up
//! cards seen as its `MultiwayView` says).
//!
//! # One iteration
//! A batch of traversals, traversal `i` with traverser seat `i mod N` on deal `i div N`: each
//! deal is walked once for every seat. Chance (the deal) and the other seats' actions are
//! sampled from their current strategies, every action of the traverser is walked, and the
//! traverser's sampled counterfactual regrets are collected; every other seat's node on the way
//! adds its current strategy to its average (stochastically weighted averaging). Each traversal
//! is an unbiased sample of its traverser's regrets whether or not the deal is shared; sharing
//! it shares the deal's memoised buckets, whose Monte Carlo features are most of a traversal's
//! cost (three fifths of its instructions five-handed, docs/notes/multiway.md), between its N
//! traversals.
//! Within a batch every traversal reads the regrets as they were when the batch began, and
//! collects its updates in its deal's buffer; the buffers are taken in traversal order, a few
//! deals at a time ([`chunk_deals`]), so that a batch holds a chunk's buffers, not the whole
//! batch's (each buffer keeps room for the longest deal it has held: tens of thousands of
//! updates where the mean is a few thousand): a chunk's averages are added then, its regrets
//! queued and added in the same order when the batch ends, so that the regrets stay as the
//! batch began without a copy of them (a sweep of every slot per batch, which at five seats
//! and more cost more than the traversals: the rows grow ten times a seat, a batch by one
//! traversal). So the result depends on the seed and the batch only, never on the number of
//! threads or the chunk: the same bits on any number (tested).
//!
//! # After the traverser folds
//! The rest of the hand cannot change the traverser's value, so the walk follows every later
//! decision's first action to the end without a bucket, a draw or an average (as Pluribus's
//! traversal does). The other seats' averages at those decisions are added by the traversals
//! of the seats still in instead: each traversal's regrets are as before, and it costs a
//! fraction (measured in docs/notes/multiway.md).
//!
//! # Trembling
//! With `tremble` ε > 0 ([`SampledSolver::set_tremble`]) the other seats' actions are drawn
//! from `(1 − ε) σ + ε / k` instead of `σ`, and the values are not reweighted: every seat's
//! strategy is trained against opponents who, at each decision, play a uniformly random action
//! with probability ε (the equilibrium of the perturbed game, as trembling-hand refinements
//! compute it). Plain external sampling reaches a decision after a rare line of the others
//! (a capped three-way pot) in proportion to that line's probability, so its rows there see
//! few samples and stay near their first iterations; trembling others reach them often, and
//! against opponents who take such lines for no reason (always-raise) that is what the strategy
//! needs. docs/notes/multiway.md measures it. The traverser's own average strategy is unchanged (σ).
//!
//! The schedule is the one `cfr::Algorithm` of the other solvers, an iteration being a batch:
//! CFR+ (regrets clamped at zero after each batch, the average weighted by the batch's number),
//! linear CFR (regrets and average discounted by `t / (t + 1)`), DCFR, or plain CFR.
//!
//! # Lazy discounts
//! Linear CFR and DCFR multiply every regret and average at every batch, and a batch touches
//! few of the rows (ten times more a seat, a batch one traversal more): sweeping them all was
//! half of a six-handed run. So each block of rows (a street tree's rows of one pot class and
//! bucket) keeps a stamp, how many of the batches' factors since the solver was last
//! [settled](SampledSolver::settle) it has had, and gets the rest when next touched: read by a
//! traversal (discounted on the fly into its copy, since the traversals share the rows read
//! only), then caught up in place when its chunk ends, before the chunk's averages and the
//! batch's regrets are added. Each slot gets the same factors, one at a time in batch order,
//! before the same reads and additions as when every slot was swept each batch: the same bits.
//! A zero stays zero under a finite factor of at least 0, so untouched slots are skipped; a
//! schedule whose factor is anything else is swept as before. Whatever reads every row (a
//! checkpoint, the strategy, a test) settles first.
//!
//! # Locks
//! A lock ([`lock::on_betting`]) fixes rows of chosen positions: a traversal plays a locked row
//! as given (sampling its action whoever acts, never trembling), adds no regret or average to
//! it, and the strategy written is the lock there.
//!
//! # Rows
//! Regrets and averages are flat `f32` arrays, one element per slot: the rows of a street tree
//! for one pot class and bucket are contiguous, `base[tree] + (class × buckets + bucket) ×
//! actions + node offset + action`. The walk reads the tree's nodes, the deal's memoised facts
//! and these arrays; it allocates nothing (its buffers keep their capacity), hashes nothing and
//! dispatches nothing dynamically.

use crate::cfr::Algorithm;
use crate::kernel::{add_average, regret_match, regret_match_in_place, Discount};
use crate::lock::Locked;
use abstraction::deal::DealError;
use abstraction::multiway_betting::{pot_class, pot_classes, MultiwayBetting, MwKind};
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayFacts, MAX_DEAL_SEATS};
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;

/// Bytes the solver holds per slot: an `f32` regret and an `f32` average mass.
pub const BYTES_PER_SLOT: usize = 8;
/// Traversals whose updates are held at once, about: a deal's collect them in a buffer, added
/// to the rows in traversal order before the next chunk of deals runs. Enough to keep two
/// threads busy; the result does not depend on it.
pub const CHUNK: usize = 32;

/// The deals of a chunk ([`CHUNK`] traversals rounded up to whole deals of `seats` traversals
/// each), at most a batch of `batch` traversals' deals.
pub fn chunk_deals(batch: usize, seats: usize) -> usize {
    CHUNK.div_ceil(seats).min(batch.div_ceil(seats))
}
/// The updates each of a traversal's two buffers is counted at in the memory estimate. Measured
/// on 7stud-3p `small` (300,000 to 400,000 traversals, regret and average buffers): a plain solve
/// collects 314 and 616 on average, at most 7,874 and 20,770; a trembled one (0.1) 587 and
/// 1,101, at most 11,059 and 38,561. A chunk's count is far above a chunk's mean, and holds the
/// longest seen beside the rest. At 3 to 7 seats (`tiny`, trembled, the first iterations) a
/// whole chunk collects at most 77,000 and 48,000.
pub const UPDATES_PER_TRAVERSAL: usize = 32_768;
/// The regret updates a batch's queue is counted at per traversal in the memory estimate: a
/// batch sums many traversals, so it holds near their mean (587 on 7stud-3p `small`
/// trembled, above), and no chunk of 3 to 7 seats `tiny` averaged over about 2,400; twice
/// that, for the queue's room to grow by doubling.
pub const QUEUED_PER_TRAVERSAL: usize = UPDATES_PER_TRAVERSAL / 4;
/// The most actions of a decision.
const MAX_ACTIONS: usize = 8;

/// Which strategy of a solve its file plays and stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Played {
    /// The average strategy (the default): what CFR's guarantees are about.
    #[default]
    Average,
    /// The current strategy: regret matching of the regrets at the end, a row with no
    /// positive regret playing its average. Pluribus's blueprint plays it past the first
    /// betting round; docs/notes/multiway.md measures it at the tables.
    Current,
}

impl abstraction::named::Named for Played {
    const ALL: &'static [(&'static str, Played)] =
        &[("average", Played::Average), ("current", Played::Current)];
    const WHAT: &'static str = "a strategy to play";
}

/// The slot layout of a [`MultiwayBetting`] under a bucketing: where each tree's rows start.
#[derive(Clone, Debug)]
pub struct Rows {
    /// The first slot of each tree.
    pub base: Vec<usize>,
    /// Buckets per street.
    pub buckets: Vec<u32>,
    /// Slots in all.
    pub slots: usize,
    /// Information sets in all (decisions × pot classes × buckets).
    pub infosets: usize,
    /// The first block (a tree's rows of one pot class and bucket) of each tree.
    pub block_base: Vec<usize>,
    /// Blocks in all.
    pub blocks: usize,
}

impl Rows {
    /// The layout of `betting` with `buckets[s]` buckets on street `s`.
    pub fn new(betting: &MultiwayBetting, buckets: &[u32]) -> Rows {
        let mut base = Vec::with_capacity(betting.trees.len());
        let mut block_base = Vec::with_capacity(betting.trees.len());
        let (mut slots, mut infosets, mut blocks) = (0usize, 0usize, 0usize);
        for t in &betting.trees {
            base.push(slots);
            block_base.push(blocks);
            let s = t.street as usize;
            let rows = pot_classes(s) as usize * buckets[s] as usize;
            slots += rows * t.actions as usize;
            infosets += rows * t.action_nodes as usize;
            blocks += rows;
        }
        Rows {
            base,
            buckets: buckets.to_vec(),
            slots,
            infosets,
            block_base,
            blocks,
        }
    }

    /// The block of tree `tree` on `street` for pot class `class` and bucket `bucket`.
    #[inline(always)]
    pub fn block(&self, betting: &MultiwayBetting, tree: u32, class: u8, bucket: u32) -> usize {
        let t = &betting.trees[tree as usize];
        let row = class as usize * self.buckets[t.street as usize] as usize + bucket as usize;
        self.block_base[tree as usize] + row
    }

    /// The slots of block `block` of tree `tree`.
    #[inline(always)]
    fn block_slots(&self, betting: &MultiwayBetting, tree: u32, block: usize) -> Range<usize> {
        let actions = betting.trees[tree as usize].actions as usize;
        let first = self.base[tree as usize] + (block - self.block_base[tree as usize]) * actions;
        first..first + actions
    }

    /// The first slot of decision `index` (a node's [`abstraction::multiway_betting::MwNode::
    /// index`]) of tree `tree` on `street` for pot class `class` and bucket `bucket`.
    #[inline(always)]
    pub fn slot(
        &self,
        betting: &MultiwayBetting,
        tree: u32,
        class: u8,
        bucket: u32,
        index: u32,
    ) -> usize {
        let t = &betting.trees[tree as usize];
        let row = class as usize * self.buckets[t.street as usize] as usize + bucket as usize;
        self.base[tree as usize] + row * t.actions as usize + index as usize
    }
}

/// One deal's working memory (its traversals'), kept from batch to batch.
struct Work {
    facts: MultiwayFacts,
    /// (slot, sampled regret) of the traverser.
    regret: Vec<(u32, f32)>,
    /// (slot, strategy probability) of the other seats.
    average: Vec<(u32, f32)>,
    /// (tree, block) of every decision it read, to catch up when its chunk ends.
    blocks: Vec<(u32, u32)>,
}

/// A batch's discounts ([`Discount`]), as `f32`.
type Factors = Discount<f32>;

/// What a running batch applies: its number, its average's weight and whether its regrets
/// are clamped (CFR+).
pub(crate) struct Batch {
    t: u64,
    weight: f32,
    clamp: bool,
}

/// Applies `factors` to a regret, one at a time in order, as each batch's sweep did.
#[inline(always)]
fn discount_regret(r: &mut f32, factors: &[Factors]) {
    if *r != 0.0 {
        for f in factors {
            *r = f.regret(*r);
        }
    }
}

/// Applies `factors` to an average mass, one at a time in order, as each batch's sweep did.
#[inline(always)]
fn discount_average(a: &mut f32, factors: &[Factors]) {
    if *a != 0.0 {
        for f in factors {
            *a = f.average(*a);
        }
    }
}

/// The sampling solver (see the module documentation).
pub struct SampledSolver {
    /// The game.
    pub def: Arc<GameDef>,
    /// The betting abstraction.
    pub betting: MultiwayBetting,
    /// The card abstraction: the heads-up bucketing of the game, and the table view's.
    pub buckets: Arc<MultiwayBuckets>,
    /// The slot layout.
    pub rows: Rows,
    /// Accumulated regret per slot.
    pub regrets: Vec<f32>,
    /// Accumulated average-strategy mass per slot.
    pub average: Vec<f32>,
    /// The running batch's regret updates, (slot, sampled regret) in traversal order, added
    /// when it ends (its capacity kept from batch to batch).
    pending: Vec<(u32, f32)>,
    /// The factors of the discounting batches since the solver was last settled, in order.
    factors: Vec<Factors>,
    /// Per block, how many of `factors` its slots have had (see "Lazy discounts").
    stamps: Vec<u32>,
    /// Iterations (batches) completed.
    pub iterations: u64,
    /// Traversals per iteration.
    pub batch: usize,
    /// The seed of the deals and of the sampled actions.
    pub seed: u64,
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// The other seats' tremble ε (0: plain external sampling; see the module documentation).
    pub tremble: f32,
    /// The strategy its file plays (not part of the solve: a resume may choose another).
    pub played: Played,
    /// The working memory of a chunk's traversals.
    work: Vec<Work>,
    /// The rows fixed ([`lock::on_betting`]): flags per node of `betting`.
    lock: Option<Box<Locked>>,
}

impl SampledSolver {
    /// A fresh solver (regrets and averages zero) of `def` on `betting` with `buckets` (built
    /// for `def`'s variant and seats), `batch` traversals per iteration.
    pub fn new(
        def: &GameDef,
        betting: MultiwayBetting,
        buckets: Arc<MultiwayBuckets>,
        algorithm: Algorithm,
        batch: usize,
        seed: u64,
    ) -> Result<SampledSolver> {
        let streets = def.streets.len();
        let counts: Vec<u32> = (0..streets).map(|s| buckets.buckets(s)).collect();
        if counts.contains(&0) {
            bail!(
                "the bucketing has {counts:?} buckets per street; {} has {streets} streets",
                def.variant
            );
        }
        if buckets.view == abstraction::multiway_deal::MultiwayView::Table
            && buckets.by_live.len() + 1 != def.seats as usize
        {
            bail!(
                "{} bucketings of live seats for {} seats",
                buckets.by_live.len(),
                def.seats
            );
        }
        if batch < def.seats as usize {
            bail!(
                "a batch of {batch} traversals: at least one per seat ({})",
                def.seats
            );
        }
        if betting.max_actions > MAX_ACTIONS {
            bail!("{} actions at a decision", betting.max_actions);
        }
        let rows = Rows::new(&betting, &counts);
        if rows.slots > u32::MAX as usize {
            bail!("{} infoset-actions: more than 2^32", rows.slots);
        }
        let facts = MultiwayFacts::new(def)?;
        let work = (0..chunk_deals(batch, def.seats as usize))
            .map(|_| Work {
                facts: facts.clone(),
                regret: Vec::new(),
                average: Vec::new(),
                blocks: Vec::new(),
            })
            .collect();
        Ok(SampledSolver {
            def: Arc::new(def.clone()),
            regrets: vec![0.0; rows.slots],
            average: vec![0.0; rows.slots],
            pending: Vec::new(),
            factors: Vec::new(),
            stamps: vec![0; rows.blocks],
            betting,
            buckets,
            rows,
            iterations: 0,
            batch,
            seed,
            algorithm,
            tremble: 0.0,
            played: Played::Average,
            work,
            lock: None,
        })
    }

    /// Trains against other seats who tremble with probability `tremble` at each decision
    /// (0 ≤ `tremble` < 1; 0, the default, is plain external sampling).
    pub fn set_tremble(&mut self, tremble: f32) -> Result<()> {
        if !(0.0..1.0).contains(&tremble) {
            bail!("a tremble of {tremble}: it must be at least 0 and below 1");
        }
        self.tremble = tremble;
        Ok(())
    }

    /// Fixes the rows of `lock` (resolved on this solver's rows, [`lock::on_betting`]) from
    /// the next iteration on; refuses a lock of another layout's size.
    pub fn set_lock(&mut self, lock: Locked) -> Result<()> {
        if !lock.fits(self.betting.nodes.len(), self.rows.slots) {
            bail!("the lock was resolved on other rows");
        }
        self.lock = Some(Box::new(lock));
        Ok(())
    }

    /// The solver in words: the sampling, its member of the CFR family and its tremble.
    pub fn describe(&self) -> String {
        let mut name = format!("external-sampling MCCFR, {}", self.algorithm.name());
        if self.tremble > 0.0 {
            name += &format!(", tremble {}", self.tremble);
        }
        if self.played == Played::Current {
            name += ", its current strategy played";
        }
        name
    }

    /// Runs one iteration: a batch of traversals, then their updates in traversal order. The
    /// rows it did not touch may owe it their discount: [`SampledSolver::settle`] before
    /// reading them all.
    pub fn iterate(&mut self) -> Result<()> {
        let batch = self.begin_batch();
        let deals = self.batch.div_ceil(self.def.seats as usize);
        self.run_deals(&batch, 0..deals, |solver, held| {
            solver.catch_up(held);
            for w in &solver.work[..held] {
                solver.pending.extend_from_slice(&w.regret);
                for &(s, p) in &w.average {
                    add_average(&mut solver.average[s as usize], batch.weight, p);
                }
            }
        })?;
        self.end_batch(&batch);
        Ok(())
    }

    /// The start of a batch: its discount pushed (or swept), the queue emptied.
    pub(crate) fn begin_batch(&mut self) -> Batch {
        let t = self.iterations + 1;
        let sched = self.algorithm.schedule(t);
        if let Some(f) = sched.discount::<f32>() {
            if [f.positive, f.negative, f.average]
                .iter()
                .all(|x| x.is_finite() && *x >= 0.0)
            {
                // Skipping zeros is exact only for such factors (0 × NaN is NaN).
                self.factors.push(f);
            } else {
                self.settle();
                self.sweep(f);
            }
        }
        // Left by a batch that failed.
        self.pending.clear();
        Batch {
            t,
            weight: sched.new_average as f32,
            clamp: sched.clamp,
        }
    }

    /// Runs the traversals of the batch's deals `deals`, a chunk at a time; after each chunk,
    /// `take(self, held)` takes the updates of its first `held` deals' [`Work`] (in deal order).
    pub(crate) fn run_deals(
        &mut self,
        batch: &Batch,
        deals: Range<usize>,
        mut take: impl FnMut(&mut SampledSolver, usize),
    ) -> Result<()> {
        let seats = self.def.seats as usize;
        let (seed, t, traversals, chunk) = (self.seed, batch.t, self.batch, self.work.len());
        for first in deals.clone().step_by(chunk) {
            let ctx = Ctx {
                def: &self.def,
                betting: &self.betting,
                buckets: &self.buckets,
                rows: &self.rows,
                regrets: &self.regrets,
                stamps: &self.stamps,
                factors: &self.factors,
                tremble: self.tremble,
                lock: self.lock.as_deref(),
            };
            let held = chunk.min(deals.end - first);
            self.work[..held].par_iter_mut().enumerate().try_for_each(
                |(j, w)| -> Result<(), DealError> {
                    let deal = first + j;
                    let mut rng = ChaCha8Rng::seed_from_u64(mix(mix(seed, t), deal as u64));
                    w.facts.sample(ctx.def, &mut rng);
                    w.regret.clear();
                    w.average.clear();
                    w.blocks.clear();
                    // The last deal of a batch that is not whole deals has fewer traversals.
                    for traverser in 0..seats.min(traversals - deal * seats) {
                        let mut walk = Traversal {
                            ctx: &ctx,
                            facts: &mut w.facts,
                            rng: &mut rng,
                            regret: &mut w.regret,
                            average: &mut w.average,
                            blocks: &mut w.blocks,
                            traverser: traverser as u8,
                        };
                        walk.street(
                            0,
                            (1u16 << seats) - 1,
                            [0; MAX_DEAL_SEATS],
                            &[0; MAX_DEAL_SEATS],
                        )?;
                    }
                    Ok(())
                },
            )?;
            take(self, held);
        }
        Ok(())
    }

    /// The end of a batch: its queued regrets added in traversal order (each slot's sum in
    /// the order the chunks had), clamped under CFR+.
    pub(crate) fn end_batch(&mut self, batch: &Batch) {
        for &(s, d) in &self.pending {
            self.regrets[s as usize] += d;
        }
        if batch.clamp {
            // Every slot this batch did not touch is at least 0 already (clamped when it last
            // was, or never touched), so clamping the touched ones is clamping all.
            for &(s, _) in &self.pending {
                let r = &mut self.regrets[s as usize];
                *r = r.max(0.0);
            }
        }
        self.pending.clear();
        self.iterations = batch.t;
    }

    /// Brings every block the first `held` deals of the chunk read up to this batch's
    /// discount, before anything is added to it, as the sweep at the batch's start did.
    fn catch_up(&mut self, held: usize) {
        for j in 0..held {
            for b in 0..self.work[j].blocks.len() {
                let (tree, block) = self.work[j].blocks[b];
                self.catch_up_block(tree, block);
            }
        }
    }

    /// Brings block `block` of tree `tree` up to this batch's discount, if it is behind.
    #[inline(always)]
    fn catch_up_block(&mut self, tree: u32, block: u32) {
        let at = &mut self.stamps[block as usize];
        if (*at as usize) < self.factors.len() {
            let factors = &self.factors[*at as usize..];
            *at = self.factors.len() as u32;
            let slots = self.rows.block_slots(&self.betting, tree, block as usize);
            self.regrets[slots.clone()]
                .iter_mut()
                .for_each(|r| discount_regret(r, factors));
            self.average[slots]
                .iter_mut()
                .for_each(|a| discount_average(a, factors));
        }
    }

    /// Brings every slot up to the discounts of the batches run, so that the regrets and
    /// averages are those of a solver that swept them all every batch: before a checkpoint,
    /// the strategy or anything else reads every row.
    pub fn settle(&mut self) {
        if self.factors.is_empty() {
            return;
        }
        let (factors, rows) = (&self.factors, &self.rows);
        for (ti, t) in self.betting.trees.iter().enumerate() {
            let k = t.actions as usize;
            let first_block = rows.block_base[ti];
            let blocks = rows.block_base.get(ti + 1).unwrap_or(&rows.blocks) - first_block;
            if k == 0 || blocks == 0 {
                continue;
            }
            let slots = rows.base[ti]..rows.base[ti] + blocks * k;
            self.regrets[slots.clone()]
                .par_chunks_mut(k)
                .zip(self.average[slots].par_chunks_mut(k))
                .zip(self.stamps[first_block..first_block + blocks].par_iter())
                .for_each(|((r, a), &at)| {
                    let f = &factors[at as usize..];
                    r.iter_mut().for_each(|r| discount_regret(r, f));
                    a.iter_mut().for_each(|a| discount_average(a, f));
                });
        }
        self.factors.clear();
        self.stamps.fill(0);
    }

    /// Whether every slot has had every batch's discount ([`SampledSolver::settle`]).
    pub fn settled(&self) -> bool {
        self.factors.is_empty()
    }

    /// Multiplies every slot by the factors `f` of one batch (a settled solver's), as every
    /// batch once did.
    fn sweep(&mut self, f: Factors) {
        if f.positive != 1.0 || f.negative != 1.0 {
            self.regrets.par_chunks_mut(1 << 16).for_each(|c| {
                for r in c {
                    *r = f.regret(*r);
                }
            });
        }
        if f.average != 1.0 {
            self.average
                .par_chunks_mut(1 << 16)
                .for_each(|c| c.iter_mut().for_each(|a| *a = f.average(*a)));
        }
    }

    /// The average strategy, normalised per row. A decision's row that no traversal reached
    /// (no mass) plays the row of the same decision and bucket in the nearest pot class that
    /// has mass, the larger pot first, and is uniform only where no pot class has any: external
    /// sampling rarely reaches a decision behind a capped pot of three, and a uniform row
    /// there folds a third of every hand.
    pub fn average_strategy(&self) -> Vec<f32> {
        self.strategy(Played::Average)
    }

    /// The strategy [`SampledSolver::played`] says, per row: as
    /// [`SampledSolver::average_strategy`], a row no traversal reached taking the nearest
    /// reached pot class's; with [`Played::Current`] a reached row is regret matching of its
    /// regrets, or its average where no regret is positive (regret matching would play
    /// uniformly there, with no regret to say so).
    pub fn played_strategy(&self) -> Vec<f32> {
        self.strategy(self.played)
    }

    fn strategy(&self, played: Played) -> Vec<f32> {
        assert!(self.settled(), "the strategy of a solver not settled");
        let mut out = self.average.clone();
        for (ti, t) in self.betting.trees.iter().enumerate() {
            let s = t.street as usize;
            let (classes, buckets) = (pot_classes(s) as usize, self.rows.buckets[s] as usize);
            let nodes = &self.betting.nodes[t.root as usize..t.end as usize];
            let row = |class: usize, bucket: usize| {
                self.rows.base[ti] + (class * buckets + bucket) * t.actions as usize
            };
            for n in nodes.iter().filter(|n| n.kind == MwKind::Action) {
                let k = n.num_children as usize;
                for bucket in 0..buckets {
                    let at = |class: usize| row(class, bucket) + n.index as usize;
                    let reached =
                        |class: usize| mass(&self.average[at(class)..at(class) + k]) > 0.0;
                    for class in 0..classes {
                        let from = nearest_reached(class, classes, reached).unwrap_or(class);
                        let (a, b) = (at(class), at(from));
                        let regrets = &self.regrets[b..b + k];
                        if played == Played::Current && mass(regrets) > 0.0 {
                            regret_match(regrets, &mut out[a..a + k]);
                            continue;
                        }
                        out.copy_within(b..b + k, a);
                        regret_match_in_place(&mut out[a..a + k]);
                    }
                }
            }
        }
        if let Some(lock) = &self.lock {
            lock.fix_average(&mut out);
        }
        out
    }
}

/// A row's mass: its positive weights summed.
fn mass(row: &[f32]) -> f32 {
    row.iter().map(|x| x.max(0.0)).sum()
}

/// `class` if `reached`, else the nearest of `0..classes` that is, the larger first at equal
/// distance; `None` if none is.
fn nearest_reached(class: usize, classes: usize, reached: impl Fn(usize) -> bool) -> Option<usize> {
    (0..classes).find_map(|d| {
        [class + d, class.wrapping_sub(d)]
            .into_iter()
            .find(|&c| c < classes && reached(c))
    })
}

/// Mixes a word into a seed (splitmix64's finalizer): a traversal's draws depend only on the
/// seed, the iteration and its index in the batch.
fn mix(seed: u64, x: u64) -> u64 {
    let mut z = seed ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What every traversal of a batch reads.
struct Ctx<'a> {
    def: &'a GameDef,
    betting: &'a MultiwayBetting,
    buckets: &'a MultiwayBuckets,
    rows: &'a Rows,
    regrets: &'a [f32],
    stamps: &'a [u32],
    factors: &'a [Factors],
    tremble: f32,
    lock: Option<&'a Locked>,
}

/// Where a traversal is on a street: its tree, the pot class it was entered with, the seat of
/// each role, each seat's chips in when it began and the up cards each seat shows.
struct Street {
    street: usize,
    tree: u32,
    class: u8,
    order: [u8; MAX_DEAL_SEATS],
    committed: [u32; MAX_DEAL_SEATS],
    shown: [u8; MAX_DEAL_SEATS],
}

impl Street {
    /// The seats of the roles in `live`.
    #[inline(always)]
    fn seats(&self, live: u8) -> u16 {
        let mut set = 0u16;
        let mut m = live;
        while m != 0 {
            set |= 1 << self.order[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        set
    }
}

/// One traversal of one deal for one traverser.
struct Traversal<'a, 'b> {
    ctx: &'b Ctx<'a>,
    facts: &'b mut MultiwayFacts,
    rng: &'b mut ChaCha8Rng,
    regret: &'b mut Vec<(u32, f32)>,
    average: &'b mut Vec<(u32, f32)>,
    blocks: &'b mut Vec<(u32, u32)>,
    traverser: u8,
}

impl Traversal<'_, '_> {
    /// The traverser's value of the street `street` entered by the seats of `set` with
    /// `committed` chips in, the seats out showing the up cards of `shown`.
    fn street(
        &mut self,
        street: usize,
        set: u16,
        committed: [u32; MAX_DEAL_SEATS],
        shown: &[u8; MAX_DEAL_SEATS],
    ) -> Result<f32, DealError> {
        let (order, live) = self.facts.order(street, set);
        let Some(tree) = self.ctx.betting.tree(street, live as u32) else {
            return Err(DealError::Unsupported(format!(
                "no tree for street {} with {live} seats",
                street + 1
            )));
        };
        let pot: u64 = committed.iter().map(|&c| c as u64).sum();
        let s = Street {
            street,
            tree,
            class: pot_class(self.ctx.def, street, pot + self.ante_pot()),
            order,
            committed,
            shown: self.facts.shown(street, set, shown),
        };
        if street + 1 == self.facts.streets() {
            // A deck that may run short: the engine decides here, with these seats live.
            self.facts.enter_last_street(set, &s.shown);
        }
        let root = self.ctx.betting.trees[tree as usize].root;
        self.node(root, &s)
    }

    /// The antes: the pot before any street (the walk counts the chips put in on streets).
    fn ante_pot(&self) -> u64 {
        self.ctx.def.ante * self.facts.seats() as u64
    }

    fn node(&mut self, i: u32, s: &Street) -> Result<f32, DealError> {
        let b = self.ctx.betting;
        let n = b.nodes[i as usize];
        if n.kind == MwKind::Action {
            let seat = s.order[n.role as usize];
            let set = s.seats(n.live);
            if set >> self.traverser & 1 == 0 {
                // The traverser has folded: the rest of the hand cannot change its value, so
                // its first action stands for all (as Pluribus's traversal does), with no
                // bucket to compute, no action to draw and no average to add.
                return self.node(n.first_child, s);
            }
            let opponent = self.facts.opponent(s.street, set, seat);
            let bucket =
                self.facts
                    .bucket(self.ctx.buckets, s.street, (seat, opponent), set, &s.shown)?;
            let slot = self.ctx.rows.slot(b, s.tree, s.class, bucket, n.index);
            let k = n.num_children as usize;
            if let Some(row) = (self.ctx.lock)
                .filter(|l| l.node(i as usize))
                .and_then(|l| l.row(slot, k))
            {
                // A fixed row: its action drawn from the lock whoever acts (an unbiased sample
                // of the traverser's value too), no tremble, no regret or average added.
                let mut sigma = [0f32; MAX_ACTIONS];
                for (p, &q) in sigma.iter_mut().zip(row) {
                    *p = q as f32;
                }
                let a = sample(&sigma[..k], self.rng.next_u32());
                return self.node(n.first_child + a as u32, s);
            }
            let block = self.ctx.rows.block(b, s.tree, s.class, bucket);
            self.blocks.push((s.tree, block as u32));
            // The row as the batch's discount leaves it, whether or not its block has had it.
            let mut regrets = [0f32; MAX_ACTIONS];
            regrets[..k].copy_from_slice(&self.ctx.regrets[slot..slot + k]);
            let factors = &self.ctx.factors[self.ctx.stamps[block] as usize..];
            regrets[..k]
                .iter_mut()
                .for_each(|r| discount_regret(r, factors));
            let mut sigma = [0f32; MAX_ACTIONS];
            regret_match(&regrets[..k], &mut sigma[..k]);
            if seat == self.traverser {
                let mut values = [0f32; MAX_ACTIONS];
                let mut v = 0.0;
                for a in 0..k {
                    values[a] = self.node(n.first_child + a as u32, s)?;
                    v += sigma[a] * values[a];
                }
                for (a, value) in values[..k].iter().enumerate() {
                    self.regret.push(((slot + a) as u32, value - v));
                }
                return Ok(v);
            }
            for (a, &p) in sigma[..k].iter().enumerate() {
                self.average.push(((slot + a) as u32, p));
            }
            let e = self.ctx.tremble;
            if e > 0.0 {
                for p in &mut sigma[..k] {
                    *p = (1.0 - e) * *p + e / k as f32;
                }
            }
            let a = sample(&sigma[..k], self.rng.next_u32());
            return self.node(n.first_child + a as u32, s);
        }
        // A terminal of the street: its chips, then the hand's end or the next street.
        let live = b.trees[s.tree as usize].live;
        let mut committed = s.committed;
        for (r, &put) in b.stakes_of(&n, live).iter().enumerate() {
            committed[s.order[r] as usize] += put;
        }
        let me = self.traverser as usize;
        let pot = (committed.iter().map(|&c| c as u64).sum::<u64>() + self.ante_pot()) as f32;
        let mine = (committed[me] as u64 + self.ctx.def.ante) as f32;
        let set = s.seats(n.live);
        match n.kind {
            MwKind::Fold => Ok(if set >> me & 1 == 1 { pot } else { 0.0 } - mine),
            MwKind::Showdown => Ok(self.facts.share(self.ctx.def, set, me) * pot - mine),
            _ => self.street(s.street + 1, set, committed, &s.shown),
        }
    }
}

/// The action drawn from `sigma` by the 32 random bits `bits` (the last action when rounding
/// leaves the sum short of the draw).
#[inline(always)]
fn sample(sigma: &[f32], bits: u32) -> usize {
    let u = (bits >> 8) as f32 * (1.0 / (1u32 << 24) as f32);
    let mut acc = 0.0;
    for (a, &p) in sigma.iter().enumerate() {
        acc += p;
        if u < acc {
            return a;
        }
    }
    sigma.len() - 1
}

pub mod lock;
pub mod ranks;
#[cfg(test)]
pub(crate) mod tests;
mod warm;
