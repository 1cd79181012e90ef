//! The walked back end: the CFR family on the public tree of a walkable heads-up game, its
//! exploitability measured at each checkpoint (in the real game and, for a bucketing, in the
//! abstract one) and at the end.

use super::{cards, report, Backend, Clock, Ended, Request, Results, Watcher};
use crate::best_response::{measure, Measure};
use crate::cfr::{Algorithm, Sampling, Solver};
use crate::checkpoint::{self, Problem};
use crate::memory::{available_memory, status_bytes};
use crate::session::{self, build_tree, Abstractions, Flow, Plan, Progress, ADVICE};
use crate::strategy_file;
use anyhow::{bail, Result};
use std::path::Path;
use std::sync::Arc;

/// The settings of a walked solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// The card abstraction: `lossless` or a bucketing size ([`cards::walked_cards`]).
    pub abstraction: String,
    /// Stop once the exploitability in the abstract game (chips per game) is at most this.
    pub target: Option<f64>,
    /// Public chance sampling: children walked per chance node below the first (`None`: full
    /// width).
    pub sample: Option<usize>,
    /// Measure and checkpoint every this many iterations (`None`: a tenth of the
    /// iterations, else 100).
    pub every: Option<u64>,
}

impl Default for Settings {
    /// CFR+, lossless, full width, no target.
    fn default() -> Settings {
        Settings {
            algorithm: Algorithm::CfrPlus,
            abstraction: "lossless".into(),
            target: None,
            sample: None,
            every: None,
        }
    }
}

/// The walked back end as it runs.
pub struct Walked<'a> {
    settings: &'a Settings,
    /// The abstractions, once prepared.
    abs: Option<Abstractions>,
    est: Option<crate::memory::Estimate>,
    /// The last measurement and the iterations it was made at: reused at the end if no
    /// iteration ran since.
    last: Option<(u64, Measure)>,
}

impl<'a> Walked<'a> {
    /// The back end of `settings`.
    pub fn new(settings: &'a Settings) -> Walked<'a> {
        Walked {
            settings,
            abs: None,
            est: None,
            last: None,
        }
    }

    fn lossless(&self) -> bool {
        self.abs.as_ref().is_none_or(|a| a.cards.is_lossless())
    }
}

impl Backend for Walked<'_> {
    type Solver = Solver;
    const FILE: (&'static str, &'static str) = ("", "strat");

    fn check(&self, request: &Request) -> Result<()> {
        super::check_stop(request, self.settings.target)
    }

    fn prepare(&mut self, request: &Request, watcher: &dyn Watcher) -> Result<(Solver, Problem)> {
        let def = &request.game;
        let cards = cards::walked_cards(
            def,
            &self.settings.abstraction,
            &request.abstraction_dir,
            watcher,
        )?;
        let abs = Abstractions::with_cards(def, cards);
        let memory = available_memory();
        let (tree, est) = build_tree(def, &abs, memory)?;
        watcher.say(&format!(
            "{}: {} nodes, {} infosets, {} infoset-actions\n{}",
            request.name,
            tree.nodes.len(),
            est.infosets,
            est.slots,
            est.describe()
        ));
        est.check_fits(memory, ADVICE)?;
        let mut solver = Solver::new(tree, self.settings.algorithm);
        if let Some(batch) = self.settings.sample {
            solver
                .sample(Sampling {
                    batch,
                    seed: request.seed,
                })
                .map_err(|e| anyhow::anyhow!("--sample {batch}: {e}"))?;
        }
        if let Some(lock) = &request.lock {
            let locked = crate::lock::Locked::on_tree(lock, def, &solver.tree)?;
            watcher.say(&format!("{}: {} rows fixed", lock.source, locked.rows));
            solver.set_lock(locked).map_err(anyhow::Error::msg)?;
        }
        let problem = Problem::walked(def, &abs);
        self.abs = Some(abs);
        self.est = Some(est);
        Ok((solver, problem))
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        super::measured_plan(request, self.settings.every, ckpt)
    }

    fn tick(&self, _: &Solver, p: &Progress) -> (String, String) {
        let note = self.last.map_or(String::new(), |(_, m)| {
            format!(
                ", exploitability {:.6} ({:.3} mbb), abstract game {:.6}",
                m.real_game.chips, m.real_game.mbb, m.abstract_game.chips
            )
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
        let m = measure(solver, self.lossless());
        let e = m.abstract_game;
        let line = serde_json::json!({
            "iterations": solver.iterations,
            "seconds": p.elapsed.as_secs_f64(),
            "exploitability": m.real_game.chips,
            "exploitability_mbb": m.real_game.mbb,
            "abstract_exploitability": e.chips,
        });
        self.last = Some((solver.iterations, m));
        let flow = match self.settings.target {
            Some(x) if e.chips <= x => Flow::Stop,
            _ => Flow::Continue,
        };
        Ok((line, flow))
    }

    fn measure(&mut self, solver: &Solver, _: &Request) -> Result<report::Measured> {
        let m = measure(solver, self.lossless());
        self.last = Some((solver.iterations, m));
        Ok(report::Measured::Walked {
            abstraction: self
                .abs
                .as_ref()
                .map_or_else(String::new, |a| a.card_name()),
            buckets: solver.tree.num_buckets.clone(),
            infosets: solver.tree.num_infosets,
            measure: m,
        })
    }

    fn finish(
        self,
        solver: Solver,
        problem: &Problem,
        ended: Ended<'_>,
        _: &dyn Watcher,
    ) -> Result<Results> {
        let lossless = self.lossless();
        let (Some(abs), Some(est)) = (self.abs, self.est) else {
            bail!("a walked solve finished before it was prepared");
        };
        let m = match self.last {
            Some((n, m)) if n == solver.iterations => m,
            _ => measure(&solver, lossless),
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
            || {
                let e = Some(m.real_game);
                strategy_file::write(
                    out,
                    &solver,
                    &request.game,
                    &abs.card_name(),
                    abs.betting,
                    e,
                )
            },
        )?;
        let e = m.real_game;
        let (nodes, infoset_actions) = (solver.tree.nodes.len(), solver.tree.num_slots);
        let (algorithm, iterations) = (solver.algorithm.name(), solver.iterations);
        // The solver's own tables end here: its tree and average move into the report, unrounded.
        let average = Arc::new(report::Average {
            game: request.game.clone(),
            tree: solver.tree,
            mass: solver.average,
            iterations,
        });
        Ok(Results::Walked(report::Walked {
            game: request.name.clone(),
            algorithm,
            abstraction: abs.card_name(),
            sample: self.settings.sample,
            iterations,
            seconds: ended.clock.session.elapsed().as_secs_f64(),
            iterate_seconds: ended.ran.iterating.as_secs_f64(),
            exploitability: e.chips,
            exploitability_mbb: e.mbb,
            abstract_exploitability: m.abstract_game.chips,
            abstract_exploitability_mbb: m.abstract_game.mbb,
            value_0: e.value_0,
            out: out.display().to_string(),
            checkpoint: kept,
            threads: rayon::current_num_threads(),
            nodes,
            infoset_actions,
            estimate: est,
            estimate_bytes: est.peak(),
            peak_bytes: status_bytes("VmHWM"),
            lossless,
            average,
        }))
    }
}
