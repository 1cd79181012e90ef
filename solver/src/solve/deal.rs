//! The deal-sampled back end: mini-batch deal-sampled CFR on the betting tree of a heads-up
//! game (the real games; a walkable one's strategy is lifted onto its lossless public tree and
//! measured exactly at the end).

use super::{cards, report, Backend, Clock, Ended, Request, Results, Sampling, Watcher};
use crate::best_response::{exploitability, Exploitability};
use crate::cfr::Algorithm;
use crate::checkpoint::{self, Problem};
use crate::deal_cfr::measure::{deal_exploitability, lift_target};
use crate::deal_cfr::DealSolver;
use crate::memory::{available_memory, status_bytes, Estimate};
use crate::purify::Purification;
use crate::session::deal::{estimate, probe_deal_seconds, write_strategy};
use crate::session::{self, Flow, Plan, Progress};
use crate::strategy_file::Width;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::{Bucketing, Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use abstraction::tree::{NodeKind, Tree, NONE};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The member of the CFR family by default: CFR+. Linear CFR beat it head to head in 7stud at
/// equal deals but was more exploitable on the yardstick at every count measured
/// (docs/notes/solver.md, "Schedules"), so it is an option, not the default.
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::CfrPlus;
/// Deals per iteration by default.
pub const DEFAULT_BATCH: usize = 256;
/// The strategy file's probability width: in `u8`, a `default` 7stud strategy is 19 MiB, under
/// the 32 MiB of a shipped file.
pub const WIDTH: Width = Width::U8;

/// The settings of a deal-sampled solve (one process, or split over ranks).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// The bucketing size ([`Size::parse`]; `lossless` is refused).
    pub abstraction: String,
    /// Deals per iteration.
    pub batch: usize,
    /// What a row recalls of earlier streets beside the street's bucket.
    pub recall: Recall,
    /// Alternating updates ([`DealSolver::alternating`]; `stud solve` never alternates, the
    /// ladder measures it).
    pub alternating: bool,
    /// How often a checkpoint is written.
    pub checkpoint_every: Duration,
}

impl Default for Settings {
    /// CFR+, the `default` bucketing, [`DEFAULT_BATCH`], no recall, a checkpoint every
    /// [`super::DEFAULT_CHECKPOINT_EVERY`].
    fn default() -> Settings {
        Settings {
            algorithm: DEFAULT_ALGORITHM,
            abstraction: "default".into(),
            batch: DEFAULT_BATCH,
            recall: Recall::None,
            alternating: false,
            checkpoint_every: super::DEFAULT_CHECKPOINT_EVERY,
        }
    }
}

impl Settings {
    /// Refuses an abstraction the deal-sampled solver cannot use and an empty batch; returns
    /// the bucketing's size.
    pub fn size(&self, request: &Request) -> Result<Size> {
        let (def, name) = (&request.game, &request.name);
        let spec = self.abstraction.as_str();
        if spec == "lossless" && Tree::check_supported(def).is_ok() {
            bail!(
                "--abstraction lossless: the deal-sampled solver needs a bucketing; --solver \
                 tree solves {name} without one"
            );
        }
        if spec == "lossless" {
            bail!(
                "--abstraction lossless: {name} is far too large to solve without a card \
                 abstraction; use {SIZES}"
            );
        }
        if self.batch == 0 {
            bail!("--batch must be at least 1");
        }
        Size::parse(spec, def.streets.len())
            .with_context(|| format!("--abstraction {spec} ({SIZES})"))
    }

    /// The betting tree of a solve of `def` on `bucketing` (read from `file`), with the
    /// bucketing's first street tabulated first (said): the tree, the views tabulated. The
    /// single process and each rank of a split solve build it here.
    pub fn betting_tree(
        &self,
        request: &Request,
        bucketing: &mut Bucketing,
        file: &Path,
        watcher: &dyn Watcher,
    ) -> Result<(BettingTree, usize)> {
        let def = &request.game;
        let table = bucketing.precompute_first_street();
        watcher.say(&format!(
            "card abstraction {} from {} (first street tabulated: {table} views)",
            bucketing.name(),
            file.display()
        ));
        Ok((self.tree(def, bucketing, &request.name)?, table))
    }

    /// The betting tree of `def` (called `name`) under the game's betting abstraction, its rows
    /// the keys of `bucketing`'s buckets and the recall.
    fn tree(&self, def: &GameDef, bucketing: &Bucketing, name: &str) -> Result<BettingTree> {
        let buckets: Vec<u32> = (0..def.streets.len())
            .map(|s| bucketing.buckets(s))
            .collect();
        BettingTree::build(
            def,
            BettingAbstraction::for_game(def),
            &self.recall.keys(&buckets),
        )
        .with_context(|| format!("the betting tree of {name}"))
    }

    /// A fresh solver of `def` on `tree` with `bucketing`, set as these settings say: the one
    /// place a [`DealSolver`] is configured (the back end here, and the split solve's ranks).
    pub fn solver(
        &self,
        def: &GameDef,
        tree: BettingTree,
        bucketing: Arc<Bucketing>,
        seed: u64,
    ) -> Result<DealSolver> {
        let mut s = DealSolver::with_recall(def, tree, bucketing, self.recall, self.batch, seed)?;
        s.alternating = self.alternating;
        s.set_algorithm(self.algorithm)?;
        Ok(s)
    }
}

/// A walkable game's real exploitability: the strategy lifted onto its lossless public tree
/// (built, and the lift checked to fit, within the memory available now). A tree too big to
/// measure on must not lose the solve: the error says why, and the strategy is written
/// without the figure.
pub fn measure_lifted(solver: &DealSolver, def: &GameDef) -> Result<Exploitability, String> {
    let public =
        lift_target(def, available_memory()).map_err(|e| format!("not measured: {e:#}"))?;
    deal_exploitability(solver, &public).map_err(|e| format!("not measured: {e:#}"))
}

/// Plays every row of `lifted` (a strategy on the public tree `public`) through `play`.
pub fn purify_lifted(public: &Tree, lifted: &mut [f64], play: Purification) {
    if play == Purification::Mixed {
        return;
    }
    for n in public.nodes.iter().filter(|n| n.kind == NodeKind::Action) {
        let k = n.num_children as usize;
        for &r in public.bucket_table(n.board, n.seat) {
            if r != NONE {
                let at = n.first_slot() as usize + r as usize * k;
                play.apply(&mut lifted[at..at + k]);
            }
        }
    }
}

/// What a game's exploitability is when not measured: a real game's is not computable here.
pub const NOT_COMPUTABLE: &str = "not computable for this game; use stud eval lbr";

/// The deal-sampled back end as it runs.
pub struct Deal<'a> {
    settings: &'a Settings,
    sampling: Sampling,
    /// What preparing found: the bucketing, the estimate, the probe's seconds per deal.
    prepared: Option<(Arc<Bucketing>, Estimate, f64)>,
    /// The lossless public tree a measurement lifts onto, built at the first.
    public: Option<Tree>,
    /// The last measurement of the strategy as solved and the iterations it was made at:
    /// reused at the end if no iteration ran since.
    last: Option<(u64, Exploitability)>,
}

impl<'a> Deal<'a> {
    /// The back end of `settings`.
    pub fn new(settings: &'a Settings) -> Deal<'a> {
        Deal {
            settings,
            sampling: Sampling {
                unit: "deals",
                batch: settings.batch,
            },
            prepared: None,
            public: None,
            last: None,
        }
    }
}

impl Backend for Deal<'_> {
    type Solver = DealSolver;
    const FILE: (&'static str, &'static str) = ("-hu", "strat");

    fn check(&self, request: &Request) -> Result<()> {
        self.settings.size(request).map(drop)
    }

    fn prepare(
        &mut self,
        request: &Request,
        watcher: &dyn Watcher,
    ) -> Result<(DealSolver, Problem)> {
        let (def, s) = (&request.game, self.settings);
        let size = s.size(request)?;
        let batch = s.batch;
        let (mut bucketing, file) =
            cards::load_or_build(def, &size, &request.abstraction_dir, watcher)?;
        let (tree, table) = s.betting_tree(request, &mut bucketing, &file, watcher)?;
        let est = estimate(&tree, batch, &bucketing, table, WIDTH);
        let probe = probe_deal_seconds(&Arc::new(def.clone()), &bucketing, batch.min(256), 1)?;
        watcher.say(&format!(
            "{}: betting tree of {} nodes, {} infosets, {} infoset-actions\n{}\ntime: about \
             {:.3} s per batch of {batch} deals from the bucket lookups alone ({:.0} deals/s, \
             {} threads)",
            request.name,
            tree.nodes.len(),
            est.infosets,
            est.slots,
            est.describe(),
            probe * batch as f64,
            1.0 / probe,
            rayon::current_num_threads()
        ));
        est.check_fits(available_memory(), "use a smaller --abstraction or --batch")?;
        let problem = Problem::deal(def, &bucketing, s.recall);
        let bucketing = Arc::new(bucketing);
        let mut solver = s.solver(def, tree, Arc::clone(&bucketing), request.seed)?;
        if let Some(lock) = &request.lock {
            let locked =
                crate::lock::Locked::on_betting(lock, def, &solver.tree, s.recall, &bucketing)?;
            watcher.say(&format!("{}: {} rows fixed", lock.source, locked.rows));
            solver.set_lock(locked).map_err(anyhow::Error::msg)?;
        }
        self.prepared = Some((bucketing, est, probe));
        Ok((solver, problem))
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        super::timed_plan(request, self.settings.checkpoint_every, ckpt)
    }

    fn tick(&self, _: &DealSolver, p: &Progress) -> (String, String) {
        self.sampling.tick(p)
    }

    fn checkpointed(
        &mut self,
        _: &DealSolver,
        p: &Progress,
        clock: &Clock,
        ckpt: &Path,
    ) -> Result<(serde_json::Value, Flow)> {
        Ok((self.sampling.line(p, clock, ckpt), Flow::Continue))
    }

    fn measure(&mut self, solver: &DealSolver, request: &Request) -> Result<report::Measured> {
        let Some((bucketing, ..)) = &self.prepared else {
            bail!("a deal-sampled solve measured before it was prepared");
        };
        if self.public.is_none() {
            self.public = Some(lift_target(&request.game, available_memory())?);
        }
        let public = self.public.as_ref().expect("built above");
        let lifted = solver.lift(public).map_err(anyhow::Error::msg)?;
        let plays = match &request.measure_at.plays[..] {
            [] => &[Purification::Mixed][..],
            plays => plays,
        };
        let mut played = Vec::with_capacity(plays.len());
        for &play in plays {
            let mut rows = lifted.clone();
            purify_lifted(public, &mut rows, play);
            let real_game = exploitability(public, &rows);
            if play == Purification::Mixed {
                self.last = Some((solver.iterations, real_game));
            }
            played.push(report::Played { play, real_game });
        }
        Ok(report::Measured::Lifted {
            abstraction: CardAbstraction::name(bucketing.as_ref()),
            buckets: solver.tree.num_buckets.clone(),
            infosets: solver.tree.infosets(),
            played,
        })
    }

    fn finish(
        self,
        solver: DealSolver,
        problem: &Problem,
        ended: Ended<'_>,
        watcher: &dyn Watcher,
    ) -> Result<Results> {
        let Some((bucketing, est, probe)) = self.prepared else {
            bail!("a deal-sampled solve finished before it was prepared");
        };
        let Ended {
            request, outputs, ..
        } = ended;
        let (def, out, ckpt) = (&request.game, &outputs.strategy, &outputs.checkpoint);
        let walkable = Tree::check_supported(def).is_ok();
        let exact = if let Some((_, e)) = self.last.filter(|(n, _)| *n == solver.iterations) {
            Ok(e)
        } else if walkable {
            watcher.say(&format!(
                "measuring: lifting the strategy onto the lossless public tree of {}",
                request.name
            ));
            measure_lifted(&solver, def)
        } else {
            Err(NOT_COMPUTABLE.into())
        };
        if let (true, Err(why)) = (walkable, &exact) {
            watcher.say(&format!("{why}; the strategy is written without it"));
        }
        let kept = checkpoint::write_results(
            ckpt,
            out,
            ended.keep,
            || session::save(ckpt, &solver, problem),
            || write_strategy(out, &solver, def, &bucketing, WIDTH, exact.clone().ok()),
        )?;
        let iter_secs = ended.ran.iterating.as_secs_f64().max(1e-9);
        let batch = solver.batch;
        let deals_per_second = (ended.ran.iterations * batch as u64) as f64 / iter_secs;
        let action_nodes = (solver.tree.nodes.iter())
            .filter(|n| n.kind == BettingKind::Action)
            .count();
        let e = exact.as_ref().ok();
        Ok(Results::Deal(report::Deal {
            game: request.name.clone(),
            solver: format!("deal-sampled {}", solver.algorithm().name()),
            abstraction: problem.card_abstraction.clone(),
            batch,
            seed: request.seed,
            iterations: solver.iterations,
            deals: solver.iterations * batch as u64,
            seconds: ended.clock.start.elapsed().as_secs_f64(),
            iterate_seconds: iter_secs,
            deals_per_second,
            // An iteration updates, for each deal, the actor's row at every action node (fewer
            // where a subtree is pruned): the (infoset, deal) updates per second at most.
            updates_per_second: deals_per_second * action_nodes as f64,
            probe_deals_per_second: 1.0 / probe,
            threads: rayon::current_num_threads(),
            nodes: solver.tree.nodes.len(),
            action_nodes,
            infosets: est.infosets,
            infoset_actions: est.slots,
            bytes_per_slot: DealSolver::bytes_per_slot(),
            estimate: est,
            estimate_bytes: est.peak(),
            peak_bytes: status_bytes("VmHWM"),
            exploitability: e.map(|e| e.chips),
            exploitability_mbb: e.map(|e| e.mbb),
            exploitability_note: match &exact {
                Ok(_) => "exact: the strategy lifted onto the lossless public tree, against its \
                          best response"
                    .into(),
                Err(why) => why.clone(),
            },
            out: out.display().to_string(),
            file_bytes: std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
            checkpoint: kept,
            walkable,
        }))
    }
}
