//! The sampled multiway back end: external-sampling MCCFR of stud at three to eight seats on
//! the N-seat betting abstraction with the game's heads-up bucketing (and with the table view
//! one per number of live seats). Its NashConv is not computable in a real game; on a walkable
//! game a measurement schedule ([`super::MeasureAt`]) lifts its strategy onto the whole game
//! tree ([`crate::multiway::lift`]) and measures it exactly (`stud eval multiway`).

use super::{cards, report, Backend, Clock, Ended, Request, Results, Sampling, Watcher};
use crate::cfr::Algorithm;
use crate::checkpoint::{self, Problem};
use crate::memory::{available_memory, status_bytes, Estimate};
use crate::multiway::lift::{played_as, Lift};
use crate::multiway::nash_conv;
use crate::multiway::sampled::{Played, SampledSolver};
use crate::session::sampled::{betting, estimate, write_strategy, ADVICE};
use crate::session::{self, Flow, Plan, Progress};
use crate::strategy_file::multiway::{as_stored, RowFormat};
use abstraction::bucketing::{Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::history_tree::HistoryTree;
use abstraction::multiway_betting::{MultiwayCap, WithinStreet};
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayFacts, MultiwayView};
use abstraction::named::Named;
use abstraction::rules::GameDef;
use abstraction::tree::Budget;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The member of the CFR family by default: linear CFR, as Pluribus' MCCFR (regret matching+
/// clamps every sampled update at zero, so noise keeps bad actions' regrets near zero instead
/// of letting them fall away).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::Linear;
/// The view of the table by default: the table view, by measurement (docs/notes/multiway.md, "The
/// card abstraction of an N-seat view": on doorstud its NashConv is 0.59 against 0.88 at 10^6
/// traversals; in 7stud-3p it beats the best-opponent view head to head at equal traversals).
pub const DEFAULT_VIEW: MultiwayView = MultiwayView::Table;
/// The seats from which a decision recalls its street's betting position by default, not its
/// history: eight seats' histories pass [`MAX_NODES`] (docs/notes/multiway.md, "Recall within a
/// street").
pub const POSITION_FROM_SEATS: usize = 8;
/// Traversals per iteration per seat by default.
pub const DEFAULT_BATCH_PER_SEAT: usize = 64;
/// The most nodes the betting abstraction may have, whatever the memory: past it a solve is
/// refused before its trees are built further.
pub const MAX_NODES: usize = 50_000_000;

/// The settings of a sampled multiway solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// The bucketing size ([`Size::parse`]; `lossless` is refused).
    pub abstraction: String,
    /// Traversals per iteration (at least one per seat).
    pub batch: usize,
    /// How often a checkpoint is written.
    pub checkpoint_every: Duration,
    /// The probability that another seat plays a random action (0 to below 1).
    pub tremble: f32,
    /// How a seat's bucket sees the other seats' up cards.
    pub view: MultiwayView,
    /// What a decision recalls of its street's betting.
    pub within_street: WithinStreet,
    /// The cap of streets begun by many live seats (`--multiway-cap`; none: the game's cap).
    pub cap: Option<MultiwayCap>,
    /// The strategy the file plays (only the file depends on it).
    pub strategy: Played,
    /// How the file stores its rows (only the file depends on it).
    pub rows: RowFormat,
    /// A strategy file of the same problem to start from (`--warm`), if any.
    pub warm: Option<Warm>,
}

/// A warm start from a strategy file ([`SampledSolver::warm_start`]: its rows seed the
/// averages and the regrets, its traversals the iterations).
#[derive(Clone, Debug, PartialEq)]
pub struct Warm {
    /// The strategy file (a multiway file of the same game, abstraction and seats).
    pub file: std::path::PathBuf,
    /// Each row's average mass and regret scale: the visits it counts as.
    pub mass: f32,
}

/// The mass of a warm start by default (`--warm-mass`): measured in docs/notes/multiway.md
/// ("A warm start from a file").
pub const DEFAULT_WARM_MASS: f32 = 16.0;

impl Settings {
    /// The defaults at `seats` seats: linear CFR, the `default` bucketing,
    /// [`DEFAULT_BATCH_PER_SEAT`] traversals a seat, the table view, no tremble.
    pub fn for_seats(seats: usize) -> Settings {
        Settings {
            algorithm: DEFAULT_ALGORITHM,
            abstraction: "default".into(),
            batch: DEFAULT_BATCH_PER_SEAT * seats,
            checkpoint_every: super::DEFAULT_CHECKPOINT_EVERY,
            tremble: 0.0,
            view: DEFAULT_VIEW,
            within_street: WithinStreet::default(),
            cap: None,
            strategy: Played::default(),
            rows: RowFormat::default(),
            warm: None,
        }
    }

    /// The defaults of the game `def`: [`Settings::for_seats`], with the best-opponent view at a
    /// table whose table view cannot be bucketed (the deck cannot deal the rollouts every live
    /// seat's hand: eight seats of the seven-card games), and betting positions recalled within
    /// a street from [`POSITION_FROM_SEATS`] seats.
    pub fn for_game(def: &GameDef) -> Settings {
        let seats = def.seats as usize;
        let mut within_street = WithinStreet::default();
        if seats >= POSITION_FROM_SEATS {
            within_street = WithinStreet::Position;
        }
        Settings {
            view: MultiwayBuckets::default_view(def),
            within_street,
            ..Settings::for_seats(seats)
        }
    }

    /// Refuses a tremble out of range, a batch of fewer traversals than seats and no card
    /// abstraction; returns the bucketing's size.
    pub fn size(&self, request: &Request) -> Result<Size> {
        let def = &request.game;
        if !(0.0..1.0).contains(&self.tremble) {
            bail!(
                "--tremble {}: the other seats' tremble must be at least 0 and below 1",
                self.tremble
            );
        }
        if self.batch < def.seats as usize {
            bail!(
                "--batch must be at least the {} seats (a traversal per seat)",
                def.seats
            );
        }
        let spec = self.abstraction.as_str();
        if spec == "lossless" {
            bail!(
                "--abstraction lossless: {} is far too large to solve without a card \
                 abstraction; use {SIZES}",
                request.name
            );
        }
        Size::parse(spec, def.streets.len())
            .with_context(|| format!("--abstraction {spec} ({SIZES})"))
    }
}

/// The most histories of a game whose whole tree a measured solve builds: a walkable game has
/// a few million; a real game is refused once its walk passes this many, within seconds.
const MAX_HISTORIES: usize = 1 << 25;

/// The whole game tree of `def` (named `name`) on which a sampled solve's strategy is measured,
/// refused if it is not walkable or will not fit.
pub fn game_tree(def: &GameDef, name: &str) -> Result<HistoryTree> {
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let budget = Budget {
        nodes: MAX_HISTORIES,
        bytes: available_memory().unwrap_or(usize::MAX),
        per_slot: crate::multiway::BYTES_PER_SLOT,
    };
    let tree = HistoryTree::build(def, budget).with_context(|| {
        format!(
            "{name}'s game tree: a sampled multiway solve is measured on a walkable game \
             (tristud has 8M histories)"
        )
    })?;
    crate::session::multiway::estimate(&tree, resident)
        .check_fits(available_memory(), "a smaller game")?;
    Ok(tree)
}

/// What a measured solve measures on: the whole game tree and where each of its information
/// sets sits in the solver's rows.
struct Measuring {
    tree: Arc<HistoryTree>,
    lift: Lift,
}

/// The sampled multiway back end as it runs.
pub struct Sampled<'a> {
    settings: &'a Settings,
    sampling: Sampling,
    est: Option<Estimate>,
    /// Whether this process writes the strategy file and the checkpoint (all but the ranks
    /// after the first of a solve over ranks).
    pub(super) lead: bool,
    /// Bytes the process holds beyond one process's solver (a rank's exchange buffers).
    pub(super) exchange_bytes: usize,
    /// Built in preparing when the request has a measurement schedule.
    measuring: Option<Measuring>,
    /// The warm start made in preparing, if any.
    warm: Option<report::WarmNote>,
}

impl<'a> Sampled<'a> {
    /// The back end of `settings`.
    pub fn new(settings: &'a Settings) -> Sampled<'a> {
        Sampled {
            settings,
            sampling: Sampling {
                unit: "traversals",
                batch: settings.batch,
            },
            est: None,
            lead: true,
            exchange_bytes: 0,
            measuring: None,
            warm: None,
        }
    }
}

impl Backend for Sampled<'_> {
    type Solver = SampledSolver;
    const FILE: (&'static str, &'static str) = ("", "strat");

    fn check(&self, request: &Request) -> Result<()> {
        self.settings.size(request)?;
        if let Some(w) = &self.settings.warm {
            if request.resume {
                bail!(
                    "--warm {}: a warm start begins a solve, --resume continues one from its \
                     checkpoint: give one of them",
                    w.file.display()
                );
            }
            if !(w.mass.is_finite() && w.mass > 0.0) {
                bail!("--warm-mass {}: it must be positive", w.mass);
            }
            // Refused before any abstraction is built: a file of another game.
            let file = crate::strategy_file::multiway::MultiwayFile::open(&w.file);
            file.and_then(|f| f.check_game(&request.game))
                .with_context(|| format!("--warm {}", w.file.display()))?;
        }
        // Refused before any tree is built: a table the deck cannot deal.
        MultiwayFacts::new(&request.game).with_context(|| request.name.clone())?;
        if self.settings.view == MultiwayView::Table {
            if let Err(e) = MultiwayBuckets::table_fits(&request.game) {
                bail!(
                    "--view table: {}: {e}; its rollouts deal every live seat's hand (--view \
                     best-opponent, the default at this table, buckets a seat against one \
                     opponent)",
                    request.name
                );
            }
        }
        Ok(())
    }

    fn prepare(
        &mut self,
        request: &Request,
        watcher: &dyn Watcher,
    ) -> Result<(SampledSolver, Problem)> {
        let (def, s) = (&request.game, self.settings);
        let seats = def.seats as usize;
        let size = s.size(request)?;
        // Built first: a game that cannot be measured is refused before its bucketing.
        let measured = !request.measure_at.is_empty();
        let whole = measured
            .then(|| measured_tree(request, watcher))
            .transpose()?;
        let buckets =
            cards::multiway_buckets(def, &size, s.view, &request.abstraction_dir, watcher)
                .with_context(|| {
                    format!(
                "--abstraction {}: {} at {seats} seats goes with it to the sampling solver, \
                 which buckets stud views (down and up cards); a walkable game without it is \
                 solved exactly",
                s.abstraction, request.name
            )
                })?;
        let memory = available_memory();
        let max_nodes = memory.map_or(MAX_NODES, |m| (m / 512).min(MAX_NODES));
        let tree = betting(def, s.within_street, s.cap, max_nodes).with_context(|| {
            format!(
                "the betting abstraction of {} ({seats} seats; {ADVICE})",
                request.name
            )
        })?;
        // Measured after the betting is built: the tree, and what its building's position maps
        // leave in the allocator (7stud-7p `tiny`: 176 MiB resident against 95 counted).
        let resident = status_bytes("VmRSS").unwrap_or(0);
        let mut est = estimate(&tree, &buckets, s.batch, resident);
        est.scratch_bytes += self.exchange_bytes;
        let sizes = tree.street_sizes();
        watcher.say(&format!(
            "{} ({seats} seats): betting abstraction of {} nodes (decisions per street {:?}), \
             {} infosets, {} infoset-actions\n{}",
            request.name,
            tree.nodes.len(),
            sizes.iter().map(|s| s.0).collect::<Vec<_>>(),
            est.infosets,
            est.slots,
            est.describe()
        ));
        est.check_fits(available_memory(), ADVICE)?;
        let problem = Problem::sampled(def, &buckets, s.within_street).with_cap(s.cap);
        let mut solver = SampledSolver::new(
            def,
            tree,
            Arc::new(buckets),
            s.algorithm,
            s.batch,
            request.seed,
        )?;
        solver.set_tremble(s.tremble)?;
        solver.played = s.strategy;
        if let Some(lock) = &request.lock {
            let (b, rows, buckets) = (&solver.betting, &solver.rows, &solver.buckets);
            let locked = crate::multiway::sampled::lock::on_betting(lock, def, b, rows, buckets)?;
            watcher.say(&format!("{}: {} rows fixed", lock.source, locked.rows));
            solver.set_lock(locked)?;
        }
        if let Some(w) = &s.warm {
            let traversals = warm_start(&mut solver, &problem, w, watcher)
                .with_context(|| format!("--warm {}", w.file.display()))?;
            self.warm = Some(report::WarmNote {
                file: w.file.display().to_string(),
                traversals,
                mass: w.mass,
            });
        }
        self.est = Some(est);
        if let Some(tree) = whole {
            let lift = Lift::new(&tree, def, &solver.betting, &solver.buckets, &solver.rows)?;
            watcher.say(&format!(
                "card abstraction {}: per street, {:?} distinct views (under suit renaming) in \
                 {:?} buckets",
                solver.buckets.heads_up.name(),
                lift.views,
                lift.buckets
            ));
            self.measuring = Some(Measuring { tree, lift });
        }
        Ok((solver, problem))
    }

    fn plan(&self, request: &Request, ckpt: &Path) -> Plan {
        super::timed_plan(request, self.settings.checkpoint_every, ckpt)
    }

    fn tick(&self, _: &SampledSolver, p: &Progress) -> (String, String) {
        self.sampling.tick(p)
    }

    fn checkpointed(
        &mut self,
        _: &SampledSolver,
        p: &Progress,
        clock: &Clock,
        ckpt: &Path,
    ) -> Result<(serde_json::Value, Flow)> {
        Ok((self.sampling.line(p, clock, ckpt), Flow::Continue))
    }

    fn measure(&mut self, solver: &SampledSolver, request: &Request) -> Result<report::Measured> {
        let Some(Measuring { tree, lift }) = &self.measuring else {
            bail!("a sampled solve measured before it was prepared");
        };
        let at = &request.measure_at;
        let policy = lift.policy(tree, &solver.played_strategy());
        let played = (at.plays.iter())
            .map(|&play| report::PlayedNashConv {
                play,
                nash_conv: nash_conv(tree, &played_as(tree, &policy, play)).total(),
            })
            .collect();
        let mut stored = Vec::with_capacity(at.rows.len());
        for &rows in &at.rows {
            let policy = lift.policy(tree, &as_stored(solver, rows)?);
            let nash_conv = nash_conv(tree, &policy).total();
            stored.push(report::StoredNashConv { rows, nash_conv });
        }
        Ok(report::Measured::LiftedMultiway {
            traversals: solver.iterations * solver.batch as u64,
            nash_conv: nash_conv(tree, &policy).total(),
            played,
            stored,
        })
    }

    fn finish(
        self,
        solver: SampledSolver,
        problem: &Problem,
        ended: Ended<'_>,
        _: &dyn Watcher,
    ) -> Result<Results> {
        let Some(est) = self.est else {
            bail!("a sampled solve finished before it was prepared");
        };
        let Ended {
            request, outputs, ..
        } = ended;
        let (out, ckpt) = (&outputs.strategy, &outputs.checkpoint);
        let kept = if self.lead {
            checkpoint::write_results(
                ckpt,
                out,
                ended.keep,
                || session::save(ckpt, &solver, problem),
                || write_strategy(out, &solver, problem, self.settings.rows),
            )?
        } else {
            "rank 0's".into()
        };
        let seconds = ended.clock.start.elapsed().as_secs_f64();
        let iter_secs = ended.ran.iterating.as_secs_f64().max(1e-9);
        let batch = solver.batch;
        Ok(Results::Sampled(report::Sampled {
            game: request.name.clone(),
            seats: solver.def.seats,
            solver: format!("external-sampling MCCFR {}", solver.algorithm.name()),
            tremble: solver.tremble,
            view: solver.buckets.view.name(),
            within_street: solver.betting.within_street.name(),
            strategy: solver.played.name(),
            abstraction: problem.card_abstraction.clone(),
            batch,
            seed: solver.seed,
            iterations: solver.iterations,
            traversals: solver.iterations * batch as u64,
            seconds,
            iterate_seconds: iter_secs,
            traversals_per_second: (ended.ran.iterations * batch as u64) as f64 / iter_secs,
            threads: rayon::current_num_threads(),
            nodes: solver.betting.nodes.len(),
            infosets: est.infosets,
            infoset_actions: est.slots,
            estimate: est,
            estimate_bytes: est.peak(),
            peak_bytes: status_bytes("VmHWM"),
            out: out.display().to_string(),
            file_bytes: std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
            checkpoint: kept,
            describe: solver.describe(),
            ranks: None,
            warm: self.warm,
            played: self.measuring.is_some().then(|| solver.played_strategy()),
        }))
    }
}

/// Seeds `solver` (of `problem`) from the file of `warm`, refused unless it is of the same
/// problem: its rows as stored, its traversals (returned) counted in this solve's batches.
fn warm_start(
    solver: &mut SampledSolver,
    problem: &Problem,
    warm: &Warm,
    watcher: &dyn Watcher,
) -> Result<u64> {
    let file = crate::strategy_file::multiway::MultiwayFile::open(&warm.file)?;
    file.check_same(problem, &solver.betting, &solver.rows)?;
    let traversals = file.header.iterations * file.header.batch;
    let iterations = (traversals / solver.batch as u64).max(1);
    solver.warm_start(&file.by_slot()?, iterations, warm.mass)?;
    watcher.say(&format!(
        "warm start from {}: its {traversals} traversals as {iterations} iterations of \
         {}, every row's average and regrets its probabilities times {}",
        warm.file.display(),
        solver.batch,
        warm.mass
    ));
    Ok(traversals)
}

/// The game tree of a measured solve (the request's, if it brings one), said.
fn measured_tree(request: &Request, watcher: &dyn Watcher) -> Result<Arc<HistoryTree>> {
    let tree = match &request.measure_at.tree {
        Some(tree) => Arc::clone(tree),
        None => Arc::new(game_tree(&request.game, &request.name)?),
    };
    watcher.say(&format!(
        "{}: game tree of {} histories, {} information sets, {} infoset-actions",
        request.name,
        tree.nodes.len(),
        tree.infosets.len(),
        tree.num_slots
    ));
    Ok(tree)
}

/// Whether a solve of `def` (three or more seats) goes to this back end rather than the exact
/// one: a game whose heads-up form the public tree cannot walk (several down cards: the real
/// games), or any game asked with a card `abstraction` other than lossless.
pub fn takes(def: &abstraction::rules::GameDef, abstraction: Option<&str>) -> bool {
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    abstraction.is_some_and(|a| a != "lossless")
        || abstraction::tree::Tree::check_supported(&heads_up).is_err()
}
