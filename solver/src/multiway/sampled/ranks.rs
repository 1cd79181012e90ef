//! The sampled multiway solver over the ranks of an [`Exchange`] (MPI in the binary's `mpi`
//! feature, threads in the tests): every rank holds the whole solver, runs a contiguous share
//! of each batch's deals (the same deals, seeds and traversals as one process), and the
//! shares' updates are all-gathered and added by every rank in rank order, which is deal
//! order: the single process's additions in its order, so every rank's rows are one process's
//! bits (docs/distributed.md, "The multiway solver over ranks").
//!
//! Why not a sum of the batch's deltas (an allreduce): `f32` addition is not associative, and
//! one process adds a slot's updates to its regret one at a time, so `r + (d1 + d2)` would
//! differ from `(r + d1) + d2`; and a dense delta is the whole table (hundreds of MiB) where
//! a batch touches a few thousand slots a traversal. What is exchanged is the updates
//! themselves, as the single process queues them: (slot, value) pairs, 8 bytes each, and the
//! blocks the traversals read (4 bytes each), whose lazy discount every rank catches up before
//! adding to them.

use super::{add_average, Batch, SampledSolver, Work};
use crate::deal_cfr::split::{Exchange, Traffic};
use anyhow::{bail, Result};
use std::ops::Range;
use std::time::{Duration, Instant};

/// A rank's buffers of a batch's updates, kept from batch to batch (their capacity too).
#[derive(Default)]
pub struct Updates {
    /// This rank's regret updates, (slot, `f32` bits) in deal order.
    regret: Vec<u32>,
    /// This rank's average updates, (slot, probability bits) in deal order.
    average: Vec<u32>,
    /// The blocks this rank's traversals read.
    blocks: Vec<u32>,
    /// This rank's three lists, one after the other, as sent.
    mine: Vec<u32>,
    /// Every rank's, rank order.
    all: Vec<u32>,
    /// What this rank has received and how long it waited.
    pub traffic: Traffic,
    /// Time adding every rank's updates (each rank adds them all: the part that does not
    /// shrink with more ranks).
    pub adding: Duration,
}

impl Updates {
    /// The words of a batch's whole exchange counted per traversal in the memory estimate, for
    /// each of the two buffers that hold them (this rank's and every rank's): the regret and
    /// average updates the single process queues (8 bytes each, the averages about twice the
    /// regrets: measured in [`super::UPDATES_PER_TRAVERSAL`]'s note) and a block a decision.
    pub const BYTES_PER_TRAVERSAL: usize = super::QUEUED_PER_TRAVERSAL * (8 + 16 + 4);

    /// Takes the updates of a chunk's deals, in deal order.
    fn push(&mut self, work: &[Work]) {
        for w in work {
            let pair = |&(s, x): &(u32, f32)| [s, x.to_bits()];
            self.regret.extend(w.regret.iter().flat_map(pair));
            self.average.extend(w.average.iter().flat_map(pair));
            self.blocks.extend(w.blocks.iter().map(|&(_, b)| b));
        }
    }

    /// Every rank's lists into `all` (rank order); each rank's three lengths returned. Two
    /// collectives a batch (their latency is most of the exchange's time on a loaded machine):
    /// every rank's length, then every rank's words, each rank's two first lengths leading.
    fn exchange<X: Exchange>(&mut self, x: &mut X) -> Result<Vec<[usize; 3]>> {
        let start = Instant::now();
        self.mine.clear();
        self.mine
            .extend([self.regret.len() as u32, self.average.len() as u32]);
        for list in [&self.regret, &self.average, &self.blocks] {
            self.mine.extend_from_slice(list);
        }
        let counts: Vec<usize> = (x.all_u64(4 * self.mine.len() as u64)?.iter())
            .map(|&c| c as usize)
            .collect();
        self.all.clear();
        self.all.resize(counts.iter().sum::<usize>() / 4, 0);
        let mine = bytemuck::cast_slice(&self.mine);
        x.all_gather_bytes(mine, &counts, bytemuck::cast_slice_mut(&mut self.all))?;
        let mut lens = Vec::with_capacity(counts.len());
        let mut at = 0;
        for &c in &counts {
            let words = c / 4;
            let (r, a) = (self.all[at] as usize, self.all[at + 1] as usize);
            if words < 2 || r + a > words - 2 {
                bail!("a rank sent {r} and {a} words of updates in {words}");
            }
            lens.push([r, a, words - 2 - r - a]);
            at += words;
        }
        let t = &mut self.traffic;
        t.received += (4 * self.all.len() - mine.len()) as u64;
        t.sent += (mine.len() * (x.ranks() - 1)) as u64;
        t.time += start.elapsed();
        t.batches += 1;
        Ok(lens)
    }
}

/// Rank `rank`'s deals of a batch of `deals` over `ranks` ranks: a contiguous share, the
/// lower ranks first, so that rank order is deal order.
pub fn share(deals: usize, rank: usize, ranks: usize) -> Range<usize> {
    deals * rank / ranks..deals * (rank + 1) / ranks
}

impl SampledSolver {
    /// Runs one iteration as one of `x`'s ranks: this rank's share of the batch's deals, then
    /// every rank's updates added in deal order, as [`SampledSolver::iterate`] adds them.
    pub fn iterate_ranks<X: Exchange>(&mut self, x: &mut X, updates: &mut Updates) -> Result<()> {
        let batch = self.begin_batch();
        let deals = self.batch.div_ceil(self.def.seats as usize);
        for list in [
            &mut updates.regret,
            &mut updates.average,
            &mut updates.blocks,
        ] {
            list.clear();
        }
        self.run_deals(&batch, share(deals, x.rank(), x.ranks()), |solver, held| {
            updates.push(&solver.work[..held])
        })?;
        let lens = updates.exchange(x)?;
        let start = Instant::now();
        self.add_gathered(&batch, &updates.all, &lens)?;
        self.end_batch(&batch);
        updates.adding += start.elapsed();
        Ok(())
    }

    /// Adds every rank's updates (`all`, rank `r`'s three lists `lens[r]` long): the blocks
    /// read caught up first (each slot's discount before any addition to it, as one process's
    /// chunks do), then the averages in order, then the regrets queued in order.
    fn add_gathered(&mut self, batch: &Batch, all: &[u32], lens: &[[usize; 3]]) -> Result<()> {
        let slots = self.regrets.len() as u32;
        let mut at = 0;
        let mut lists = Vec::with_capacity(lens.len());
        for l in lens {
            // Past each rank's two leading lengths.
            let (regret, rest) = all[at + 2..].split_at(l[0]);
            let (average, rest) = rest.split_at(l[1]);
            lists.push((regret, average, &rest[..l[2]]));
            at += 2 + l.iter().sum::<usize>();
        }
        for &(_, _, blocks) in &lists {
            for &b in blocks {
                if b as usize >= self.rows.blocks {
                    bail!("a rank sent block {b} of {}", self.rows.blocks);
                }
                let tree = self.rows.block_base.partition_point(|&f| f <= b as usize) - 1;
                self.catch_up_block(tree as u32, b);
            }
        }
        for &(_, average, _) in &lists {
            for p in average.chunks_exact(2) {
                if p[0] >= slots {
                    bail!("a rank sent slot {} of {slots}", p[0]);
                }
                add_average(
                    &mut self.average[p[0] as usize],
                    batch.weight,
                    f32::from_bits(p[1]),
                );
            }
        }
        for &(regret, _, _) in &lists {
            for p in regret.chunks_exact(2) {
                if p[0] >= slots {
                    bail!("a rank sent slot {} of {slots}", p[0]);
                }
                self.pending.push((p[0], f32::from_bits(p[1])));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfr::Algorithm;
    use crate::deal_cfr::split::tests::Threads;
    use crate::multiway::sampled::tests::{solver, solver_with, table_buckets};

    /// How a case makes a fresh solver (on every rank).
    type Make = Box<dyn Fn() -> SampledSolver + Sync>;

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// `iterations` batches of `make()` on one thread, settled.
    fn single(make: &dyn Fn() -> SampledSolver, iterations: u64) -> SampledSolver {
        let mut s = make();
        for _ in 0..iterations {
            s.iterate().unwrap();
        }
        s.settle();
        s
    }

    /// The same batches over `ranks` threads as ranks: every rank's solver, settled.
    fn over_ranks(
        make: &(dyn Fn() -> SampledSolver + Sync),
        ranks: usize,
        iterations: u64,
    ) -> Vec<SampledSolver> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = Threads::all(ranks)
                .into_iter()
                .map(|mut x| {
                    scope.spawn(move || {
                        let mut s = make();
                        let mut updates = Updates::default();
                        for _ in 0..iterations {
                            s.iterate_ranks(&mut x, &mut updates).unwrap();
                        }
                        s.settle();
                        s
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    fn assert_same(one: &SampledSolver, parts: &[SampledSolver], what: &str) {
        assert!(one.average.iter().any(|&a| a > 0.0), "{what}: nothing ran");
        for (r, p) in parts.iter().enumerate() {
            assert_eq!(p.iterations, one.iterations, "{what}, rank {r}");
            assert!(bits(&p.regrets) == bits(&one.regrets), "{what}, rank {r}");
            assert!(bits(&p.average) == bits(&one.average), "{what}, rank {r}");
        }
    }

    /// Every rank of 1 to 3 holds the single process's bits: linear CFR (lazy discounts),
    /// CFR+ (clamps), DCFR, a batch that is not whole deals (14 traversals: the last deal's
    /// first two seats), a batch of one deal (ranks with nothing to walk), trembling others
    /// and the table view.
    #[test]
    fn every_rank_holds_the_single_process_bits() {
        let cases: Vec<(&str, Make)> = vec![
            ("linear", Box::new(|| solver(Algorithm::Linear, 14, 5))),
            ("cfr+", Box::new(|| solver(Algorithm::CfrPlus, 12, 7))),
            ("dcfr", Box::new(|| solver(Algorithm::DCFR, 13, 9))),
            ("one deal", Box::new(|| solver(Algorithm::Linear, 3, 5))),
            (
                "tremble, table view",
                Box::new(|| {
                    let mut s = solver_with(table_buckets(), Algorithm::Linear, 12, 3);
                    s.set_tremble(0.1).unwrap();
                    s
                }),
            ),
        ];
        for (what, make) in &cases {
            let one = single(make.as_ref(), 5);
            for ranks in 1..=3 {
                let parts = over_ranks(make.as_ref(), ranks, 5);
                assert_same(&one, &parts, &format!("{what}, {ranks} ranks"));
            }
        }
    }

    /// The shares are contiguous, in rank order, and cover every deal once.
    #[test]
    fn the_shares_cover_the_deals_in_order() {
        for deals in 0..40 {
            for ranks in 1..9 {
                let mut next = 0;
                for r in 0..ranks {
                    let s = share(deals, r, ranks);
                    assert_eq!(s.start, next);
                    next = s.end;
                }
                assert_eq!(next, deals);
            }
        }
    }
}
