//! The exact multiway back end: the CFR family on the whole game tree of a walkable game of
//! three to eight seats, its NashConv measured at each checkpoint, at the counts of a
//! measurement schedule ([`super::MeasureAt`]: iterations or CPU seconds) and at the end, the
//! average strategy written as a JSON policy.

use super::{report, Backend, Clock, Ended, Request, Results, Watcher};
use crate::cfr::Algorithm;
use crate::checkpoint::{self, Problem};
use crate::memory::{available_memory, status_bytes, Estimate};
use crate::multiway::{nash_conv, NashConv, Solver};
use crate::session::multiway::{build_tree, estimate, write_policy, ADVICE};
use crate::session::{self, Flow, Plan, Progress};
use abstraction::history_tree::HistoryTree;
use anyhow::{bail, Result};
use std::path::Path;

/// The settings of an exact multiway solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// Stop once NashConv (chips per game) is at most this.
    pub target: Option<f64>,
    /// Measure and checkpoint every this many iterations (`None`: a tenth of the
    /// iterations, else 100).
    pub every: Option<u64>,
}

impl Default for Settings {
    /// CFR+, no target.
    fn default() -> Settings {
        Settings {
            algorithm: Algorithm::CfrPlus,
            target: None,
            every: None,
        }
    }
}

/// NashConv of the solver's average strategy.
fn measure(solver: &Solver) -> NashConv {
    nash_conv(&solver.tree, &solver.average_strategy())
}

/// The exact multiway back end as it runs.
pub struct Multiway<'a> {
    settings: &'a Settings,
    est: Option<Estimate>,
    /// The last measurement and the iterations it was made at.
    last: Option<(u64, NashConv)>,
}

impl<'a> Multiway<'a> {
    /// The back end of `settings`.
    pub fn new(settings: &'a Settings) -> Multiway<'a> {
        Multiway {
            settings,
            est: None,
            last: None,
        }
    }
}

impl Backend for Multiway<'_> {
    type Solver = Solver;
    const FILE: (&'static str, &'static str) = ("", "json");

    fn check(&self, request: &Request) -> Result<()> {
        super::check_stop(request, self.settings.target)
    }

    fn prepare(&mut self, request: &Request, watcher: &dyn Watcher) -> Result<(Solver, Problem)> {
        let def = &request.game;
        let memory = available_memory();
        let (tree, est) = match &request.measure_at.tree {
            // A copy of the caller's: copying is a small part of building it.
            Some(tree) => {
                let resident = status_bytes("VmRSS").unwrap_or(0);
                let tree = HistoryTree::clone(tree);
                let est = estimate(&tree, resident);
                (tree, est)
            }
            None => build_tree(def, memory)?,
        };
        watcher.say(&format!(
            "{} ({} seats): {} histories, {} infosets, {} infoset-actions\n{}",
            request.name,
            def.seats,
            tree.nodes.len(),
            est.infosets,
            est.slots,
            est.describe()
        ));
        est.check_fits(memory, ADVICE)?;
        self.est = Some(est);
        let mut solver = Solver::new(tree, self.settings.algorithm);
        if let Some(lock) = &request.lock {
            let locked = crate::multiway::lock::on_history(lock, def, &solver.tree)?;
            watcher.say(&format!("{}: {} rows fixed", lock.source, locked.rows));
            solver.set_lock(locked).map_err(anyhow::Error::msg)?;
        }
        Ok((solver, Problem::multiway(def)))
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        super::measured_plan(request, self.settings.every, ckpt)
    }

    fn tick(&self, _: &Solver, p: &Progress) -> (String, String) {
        let note = (self.last.as_ref()).map_or(String::new(), |(_, nc)| {
            format!(", NashConv {:.6}", nc.total())
        });
        (format!("{:.1} it/s", p.rate()), note)
    }

    fn checkpointed(
        &mut self,
        solver: &Solver,
        p: &Progress,
        _: &Clock,
        _: &Path,
    ) -> Result<(serde_json::Value, Flow)> {
        let nc = measure(solver);
        let total = nc.total();
        let line = serde_json::json!({
            "iterations": solver.iterations,
            "seconds": p.elapsed.as_secs_f64(),
            "nash_conv": total,
        });
        self.last = Some((solver.iterations, nc));
        let flow = match self.settings.target {
            Some(x) if total <= x => Flow::Stop,
            _ => Flow::Continue,
        };
        Ok((line, flow))
    }

    fn measure(&mut self, solver: &Solver, _: &Request) -> Result<report::Measured> {
        let nc = measure(solver);
        let nash_conv = nc.total();
        self.last = Some((solver.iterations, nc));
        Ok(report::Measured::NashConv { nash_conv })
    }

    fn finish(
        self,
        solver: Solver,
        problem: &Problem,
        ended: Ended<'_>,
        _: &dyn Watcher,
    ) -> Result<Results> {
        let Some(est) = self.est else {
            bail!("a multiway solve finished before it was prepared");
        };
        let nc = match self.last {
            Some((n, nc)) if n == solver.iterations => nc,
            _ => measure(&solver),
        };
        let Ended {
            request, outputs, ..
        } = ended;
        let (out, ckpt) = (&outputs.strategy, &outputs.checkpoint);
        let kept = checkpoint::write_results(
            ckpt,
            out,
            ended.keep,
            || session::save(ckpt, &solver, problem),
            || write_policy(out, &solver, &request.game, &nc),
        )?;
        let total = nc.total();
        Ok(Results::Multiway(report::Multiway {
            game: request.name.clone(),
            seats: solver.tree.seats,
            algorithm: solver.algorithm.name(),
            iterations: solver.iterations,
            seconds: ended.clock.session.elapsed().as_secs_f64(),
            iterate_seconds: ended.ran.iterating.as_secs_f64(),
            nash_conv: total,
            nash_conv_mbb: total / solver.tree.big_bet as f64 * 1000.0,
            best_response: nc.best_response,
            on_policy: nc.on_policy,
            histories: solver.tree.nodes.len(),
            infosets: solver.tree.infosets.len(),
            infoset_actions: solver.tree.num_slots,
            estimate_bytes: est.peak(),
            peak_bytes: status_bytes("VmHWM"),
            out: out.display().to_string(),
            checkpoint: kept,
        }))
    }
}
