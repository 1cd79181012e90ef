//! The deal-sampled back end split over the ranks of an [`Exchange`]
//! ([`crate::deal_cfr::split`]): one solve whose strategy file is byte-identical to the single
//! process's (docs/distributed.md).
//!
//! Every rank reads the bucketing (rank 0 first: it builds a missing one, the others then read
//! it from the cache folder), builds the betting tree and the split, checks that its share fits
//! (rank 0 says every rank's), runs the session loop in lockstep (rank 0's clock decides the
//! stops and checkpoints) with a checkpoint of its own, and at the end sends its average masses
//! to rank 0 a split point's subtree at a time, as rank 0 writes the one strategy file
//! ([`Gathered`]): no rank holds every slot. Only the calling thread calls the exchange: run it
//! outside any rayon pool, with rayon's global pool as the ranks' workers.

use super::deal::{measure_lifted, Settings, NOT_COMPUTABLE, WIDTH};
use super::{
    cards, report, Backend, Clock, Ended, Place, Report, Request, Results, Sampling, Watcher,
};
use crate::best_response::Exploitability;
use crate::checkpoint::{self, Problem};
use crate::deal_cfr::split::{DealPart, Exchange, Gathered, Split, Traffic};
use crate::deal_cfr::DealSolver;
use crate::memory::{available_memory, mib, status_bytes, Estimate};
use crate::session::deal::{estimate, write_solved, write_strategy, Solved};
use crate::session::split::{estimate_part, SplitSession};
use crate::session::{self, Flow, Plan, Progress, Session};
use abstraction::bucketing::Bucketing;
use abstraction::tree::Tree;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::sync::Arc;

/// Runs this rank's share of `request` (whose settings are `settings`) over `exchange`; every
/// rank returns the report, which rank 0's alone should print ([`report::Split::lead`]).
pub fn drive_split<X: Exchange>(
    request: &Request,
    settings: &Settings,
    exchange: X,
    watcher: &mut dyn Watcher,
) -> Result<Report> {
    let ranks = (exchange.rank(), exchange.ranks());
    let backend = Splitting {
        settings,
        exchange: Some(exchange),
        sampling: Sampling {
            unit: "deals",
            batch: settings.batch,
        },
        prepared: None,
    };
    super::run(backend, request, Place::Part(ranks.0, ranks.1), watcher)
}

/// What preparing a rank found: the bucketing, the rank's estimate and one process's peak.
struct Prepared {
    bucketing: Arc<Bucketing>,
    est: Estimate,
    one_process: usize,
}

/// The split back end as it runs.
struct Splitting<'a, X> {
    settings: &'a Settings,
    /// The other ranks, until the session takes them.
    exchange: Option<X>,
    sampling: Sampling,
    prepared: Option<Prepared>,
}

impl<X: Exchange> Splitting<'_, X> {
    /// Each rank's share said (rank 0's watcher); this rank's estimate checked.
    fn estimates(
        &self,
        request: &Request,
        tree: &abstraction::betting_tree::BettingTree,
        split: &Split,
        (bucketing, table): (&Bucketing, usize),
        rank: usize,
        watcher: &dyn Watcher,
    ) -> Result<(Estimate, usize)> {
        let batch = self.settings.batch;
        let one = estimate(tree, batch, bucketing, table, WIDTH);
        let per_rank: Vec<String> = (0..split.ranks)
            .map(|r| {
                let e = estimate_part(tree, split, r, batch, bucketing, table, WIDTH);
                format!(
                    "  rank {r}: {} slots ({:.1}%), peak about {:.1} MiB",
                    e.slots,
                    100.0 * e.slots as f64 / tree.num_slots as f64,
                    mib(e.peak())
                )
            })
            .collect();
        watcher.say(&format!(
            "{}: betting tree of {} nodes, {} infoset-actions, split over {} ranks at the end \
             of street {} ({} subtrees; {} slots of the streets above on every rank); one \
             process would peak at about {:.1} MiB\n{}",
            request.name,
            tree.nodes.len(),
            tree.num_slots,
            split.ranks,
            split.top_streets,
            split.points.len(),
            split.top_slots,
            mib(one.peak()),
            per_rank.join("\n")
        ));
        let est = estimate_part(tree, split, rank, batch, bucketing, table, WIDTH);
        watcher.say(&format!("rank 0: {}", est.describe()));
        est.check_fits(
            available_memory(),
            "use more ranks, a smaller --abstraction or --batch",
        )
        .with_context(|| format!("rank {rank}'s share does not fit on its machine"))?;
        Ok((est, one.peak()))
    }
}

impl<X: Exchange> Backend for Splitting<'_, X> {
    type Solver = SplitSession<X>;
    const FILE: (&'static str, &'static str) = ("-hu", "strat");

    fn check(&self, request: &Request) -> Result<()> {
        super::refuse_lock(request, "the deal-sampled solve split over ranks")?;
        super::refuse_schedule(request, "the deal-sampled solve split over ranks")?;
        self.settings.size(request).map(drop)
    }

    fn prepare(
        &mut self,
        request: &Request,
        watcher: &dyn Watcher,
    ) -> Result<(SplitSession<X>, Problem)> {
        let (def, s) = (&request.game, self.settings);
        let Some(mut exchange) = self.exchange.take() else {
            bail!("a split solve prepared twice");
        };
        let (rank, ranks) = (exchange.rank(), exchange.ranks());
        let size = s.size(request)?;
        // Rank 0 reads or builds the bucketing first; the others wait, then read its cache file.
        if rank != 0 {
            exchange.decide(true)?;
        }
        let (mut bucketing, file) =
            cards::load_or_build(def, &size, &request.abstraction_dir, watcher)?;
        if rank == 0 {
            exchange.decide(true)?;
        }
        let (tree, table) = s.betting_tree(request, &mut bucketing, &file, watcher)?;
        let split = Split::plan(&tree, ranks);
        let (est, one_process) =
            self.estimates(request, &tree, &split, (&bucketing, table), rank, watcher)?;
        let problem = Problem::deal(def, &bucketing, s.recall);
        let bucketing = Arc::new(bucketing);
        let mut part = DealPart::new(
            def,
            tree,
            Arc::clone(&bucketing),
            s.recall,
            s.batch,
            request.seed,
            rank,
            split,
        )?;
        part.set_algorithm(s.algorithm)?;
        self.prepared = Some(Prepared {
            bucketing,
            est,
            one_process,
        });
        Ok((SplitSession { part, exchange }, problem))
    }

    fn resume(
        &mut self,
        ckpt: &Path,
        session: &mut SplitSession<X>,
        problem: &Problem,
        watcher: &dyn Watcher,
    ) -> Result<()> {
        session::split::resume(ckpt, session, problem)?;
        watcher.say(&format!(
            "resumed every rank at iteration {} (rank 0 from {})",
            session.part.iterations,
            ckpt.display()
        ));
        Ok(())
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        super::timed_plan(request, self.settings.checkpoint_every, ckpt)
    }

    fn tick(&self, _: &SplitSession<X>, p: &Progress) -> (String, String) {
        self.sampling.tick(p)
    }

    fn checkpointed(
        &mut self,
        _: &SplitSession<X>,
        p: &Progress,
        clock: &Clock,
        ckpt: &Path,
    ) -> Result<(serde_json::Value, Flow)> {
        Ok((self.sampling.line(p, clock, ckpt), Flow::Continue))
    }

    fn finish(
        self,
        session: SplitSession<X>,
        problem: &Problem,
        ended: Ended<'_>,
        watcher: &dyn Watcher,
    ) -> Result<Results> {
        let Some(prepared) = self.prepared else {
            bail!("a split solve finished before it was prepared");
        };
        finish(self.settings, session, problem, &prepared, ended, watcher)
    }
}

/// The end of a rank's split solve: every rank's traffic gathered, a walkable game's average
/// gathered on rank 0 and measured, the file written by rank 0 as the masses arrive, the
/// checkpoints kept or removed.
fn finish<X: Exchange>(
    s: &Settings,
    mut session: SplitSession<X>,
    problem: &Problem,
    prepared: &Prepared,
    ended: Ended<'_>,
    watcher: &dyn Watcher,
) -> Result<Results> {
    let Ended {
        request, outputs, ..
    } = ended;
    let (def, out, ckpt) = (&request.game, &outputs.strategy, &outputs.checkpoint);
    let lead = session.part.rank == 0;
    let traffic = gather_traffic(&mut session.exchange, session.part.traffic)?;
    let full = full_average(s, request, &mut session, &prepared.bucketing)?;
    let walkable = Tree::check_supported(def).is_ok();
    let exact = measure(full.as_ref(), request, walkable && lead, watcher);
    let header = session.header(problem);
    // What rank 0 holds before the write, against its peak after (the report's figures).
    let resident_before_write = status_bytes("VmRSS");
    // The session's save, by its fields: the write borrows the exchange meanwhile.
    let SplitSession { part, exchange } = &mut session;
    let part: &DealPart = part;
    let kept = checkpoint::write_results(
        ckpt,
        out,
        ended.keep,
        || checkpoint::save(ckpt, header, [&part.regrets, &part.average], None),
        || match (&full, walkable) {
            (Some(full), _) => {
                let b = &prepared.bucketing;
                write_strategy(out, full, def, b, WIDTH, exact.clone().ok())
            }
            (None, true) => Ok(()),
            // Rank 0 writes the file as the other ranks' masses arrive, a split point at a time.
            (None, false) => {
                let mut average = Gathered::new(part, &mut *exchange);
                if lead {
                    let solved = Solved {
                        tree: &part.tree,
                        average: &mut average,
                        algorithm: s.algorithm,
                        iterations: part.iterations,
                        batch: s.batch,
                        seed: request.seed,
                        recall: s.recall,
                    };
                    write_solved(out, solved, def, &prepared.bucketing, WIDTH, None)?;
                }
                average.finish()
            }
        },
    )?;
    let iter_secs = ended.ran.iterating.as_secs_f64().max(1e-9);
    let batches = ended.ran.iterations.max(1) as f64;
    let e = exact.as_ref().ok();
    Ok(Results::Split(report::Split {
        game: request.name.clone(),
        solver: format!("deal-sampled {}", s.algorithm.name()),
        abstraction: problem.card_abstraction.clone(),
        batch: s.batch,
        seed: request.seed,
        iterations: part.iterations,
        deals: part.iterations * s.batch as u64,
        seconds: ended.clock.start.elapsed().as_secs_f64(),
        iterate_seconds: iter_secs,
        deals_per_second: (ended.ran.iterations * s.batch as u64) as f64 / iter_secs,
        ranks: part.split.ranks,
        threads_per_rank: rayon::current_num_threads(),
        split_street: part.split.top_streets,
        split_points: part.split.points.len(),
        slots: part.tree.num_slots,
        slots_per_rank: (0..part.split.ranks)
            .map(|r| part.split.slots_of(r))
            .collect(),
        estimate_rank0: prepared.est,
        estimate_one_process_bytes: prepared.one_process,
        peak_bytes_rank0: status_bytes("VmHWM"),
        resident_bytes_rank0_before_write: resident_before_write,
        received_bytes_per_batch: (traffic.iter())
            .map(|t| t.received as f64 / batches)
            .collect(),
        communication_seconds: traffic.iter().map(|t| t.time.as_secs_f64()).collect(),
        exploitability: e.map(|e| e.chips),
        exploitability_mbb: e.map(|e| e.mbb),
        out: out.display().to_string(),
        file_bytes: std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
        checkpoint: kept,
        not_measured: exact.err(),
        lead,
    }))
}

/// A walkable game's gathered average (rank 0's) lifted onto its lossless tree and measured;
/// why not otherwise, said by the `lead` rank of a walkable game.
fn measure(
    full: Option<&DealSolver>,
    request: &Request,
    lead: bool,
    watcher: &dyn Watcher,
) -> Result<Exploitability, String> {
    let exact = match full {
        Some(full) => {
            watcher.say(&format!(
                "measuring: lifting the strategy onto the lossless public tree of {}",
                request.name
            ));
            measure_lifted(full, &request.game)
        }
        None => Err(NOT_COMPUTABLE.to_string()),
    };
    if let (true, Err(why)) = (lead, &exact) {
        watcher.say(&format!("{why}; the strategy is written without it"));
    }
    exact
}

/// A walkable game is small: rank 0 gathers the whole average into a single process's solver
/// (to lift it onto the lossless tree and write the file from there; the others send theirs).
/// `None` on the other ranks and for a real game.
fn full_average<X: Exchange>(
    s: &Settings,
    request: &Request,
    session: &mut SplitSession<X>,
    bucketing: &Arc<Bucketing>,
) -> Result<Option<DealSolver>> {
    if Tree::check_supported(&request.game).is_err() {
        return Ok(None);
    }
    let Some(average) = session.part.gather_average(&mut session.exchange)? else {
        return Ok(None);
    };
    let tree = session.part.tree.clone();
    let mut full = s.solver(&request.game, tree, Arc::clone(bucketing), request.seed)?;
    full.iterations = session.part.iterations;
    full.average.copy_from_slice(&average);
    Ok(Some(full))
}

/// Every rank's traffic, rank order (a collective: every rank calls it).
pub(super) fn gather_traffic(x: &mut impl Exchange, mine: Traffic) -> Result<Vec<Traffic>> {
    let received = x.all_u64(mine.received)?;
    let sent = x.all_u64(mine.sent)?;
    let nanos = x.all_u64(mine.time.as_nanos() as u64)?;
    let batches = x.all_u64(mine.batches)?;
    Ok((0..received.len())
        .map(|r| Traffic {
            received: received[r],
            sent: sent[r],
            time: std::time::Duration::from_nanos(nanos[r]),
            batches: batches[r],
        })
        .collect())
}
