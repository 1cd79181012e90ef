//! The sampled multiway back end over the ranks of an [`Exchange`]
//! ([`crate::multiway::sampled::ranks`]): one solve whose strategy file and checkpoints are
//! byte-identical to the single process's (docs/distributed.md).
//!
//! Every rank prepares the single process's solver (rank 0 first: it builds a missing
//! bucketing, the others then read it from the cache folder), checks that it fits with the
//! exchange's buffers, runs the session loop in lockstep (rank 0's clock decides the stops and
//! checkpoints) and holds the same bits after each batch; rank 0 alone writes the checkpoints
//! and the strategy file, the single process's ([`super::Place::Replica`]). Only the calling
//! thread calls the exchange: run it outside any rayon pool, with rayon's global pool as the
//! rank's workers.

use super::sampled::{Sampled, Settings};
use super::split::gather_traffic;
use super::{report, Backend, Clock, Ended, Place, Report, Request, Results, Watcher};
use crate::checkpoint::Problem;
use crate::deal_cfr::split::Exchange;
use crate::multiway::sampled::ranks::Updates;
use crate::session::sampled_ranks::{self, SampledRanks};
use crate::session::{Flow, Plan, Progress};
use anyhow::{bail, Result};
use std::path::Path;

/// Runs this rank's share of the sampled multiway `request` (whose settings are `settings`)
/// over `exchange`; every rank returns the report, which rank 0's alone should print.
pub fn drive_sampled_ranks<X: Exchange>(
    request: &Request,
    settings: &Settings,
    exchange: X,
    watcher: &mut dyn Watcher,
) -> Result<Report> {
    let rank = exchange.rank();
    let mut inner = Sampled::new(settings);
    inner.lead = rank == 0;
    inner.exchange_bytes = 2 * settings.batch * Updates::BYTES_PER_TRAVERSAL;
    let backend = Ranked {
        inner,
        exchange: Some(exchange),
    };
    super::run(backend, request, Place::Replica(rank), watcher)
}

/// The back end as it runs: the single process's, and the exchange until the session takes it.
struct Ranked<'a, X> {
    inner: Sampled<'a>,
    exchange: Option<X>,
}

impl<X: Exchange> Backend for Ranked<'_, X> {
    type Solver = SampledRanks<X>;
    const FILE: (&'static str, &'static str) = <Sampled as Backend>::FILE;

    fn check(&self, request: &Request) -> Result<()> {
        self.inner.check(request)
    }

    fn prepare(
        &mut self,
        request: &Request,
        watcher: &dyn Watcher,
    ) -> Result<(SampledRanks<X>, Problem)> {
        let Some(mut exchange) = self.exchange.take() else {
            bail!("a solve over ranks prepared twice");
        };
        // Rank 0 reads or builds the bucketings first; the others wait, then read its cache
        // files (and check their memory after rank 0 has taken its own on a shared machine).
        let lead = exchange.rank() == 0;
        if !lead {
            exchange.decide(true)?;
        }
        let prepared = self.inner.prepare(request, watcher);
        if lead {
            exchange.decide(true)?;
        }
        let (solver, problem) = prepared?;
        watcher.say(&format!(
            "over {} ranks: each holds the whole solver and runs a share of every batch's \
             traversals; the batch's updates are exchanged and added in traversal order",
            exchange.ranks()
        ));
        let updates = Updates::default();
        Ok((
            SampledRanks {
                solver,
                exchange,
                updates,
            },
            problem,
        ))
    }

    fn resume(
        &mut self,
        ckpt: &Path,
        session: &mut SampledRanks<X>,
        problem: &Problem,
        watcher: &dyn Watcher,
    ) -> Result<()> {
        sampled_ranks::resume(ckpt, session, problem)?;
        watcher.say(&format!(
            "resumed every rank at iteration {} from rank 0's {}",
            session.solver.iterations,
            ckpt.display()
        ));
        Ok(())
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        self.inner.plan(request, ckpt)
    }

    fn tick(&self, s: &SampledRanks<X>, p: &Progress) -> (String, String) {
        self.inner.tick(&s.solver, p)
    }

    fn checkpointed(
        &mut self,
        s: &SampledRanks<X>,
        p: &Progress,
        clock: &Clock,
        ckpt: &Path,
    ) -> Result<(serde_json::Value, Flow)> {
        self.inner.checkpointed(&s.solver, p, clock, ckpt)
    }

    fn finish(
        self,
        session: SampledRanks<X>,
        problem: &Problem,
        ended: Ended<'_>,
        watcher: &dyn Watcher,
    ) -> Result<Results> {
        let SampledRanks {
            solver,
            mut exchange,
            updates,
        } = session;
        let traffic = gather_traffic(&mut exchange, updates.traffic)?;
        let adding = exchange.all_u64(updates.adding.as_nanos() as u64)?;
        let mut results = self.inner.finish(solver, problem, ended, watcher)?;
        // Every rank waits for rank 0's file: a job ends when its strategy is written.
        exchange.decide(true)?;
        if let Results::Sampled(r) = &mut results {
            r.ranks = Some(report::SampledRanks {
                ranks: traffic.len(),
                received_bytes_per_batch: (traffic.iter())
                    .map(|t| t.received as f64 / t.batches.max(1) as f64)
                    .collect(),
                communication_seconds: traffic.iter().map(|t| t.time.as_secs_f64()).collect(),
                adding_seconds: adding.iter().map(|&n| n as f64 * 1e-9).collect(),
            });
        }
        Ok(results)
    }
}
