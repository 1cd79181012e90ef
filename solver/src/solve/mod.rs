//! The solver as a library: a [`Request`] says what to solve and how (the game, when to stop,
//! where to write, and one back end's [`Settings`]); [`drive`] runs it and returns its
//! [`Report`], telling a [`Watcher`] how it goes. `stud solve` is this, with its flags read into
//! a request and the report printed.
//!
//! A back end ([`Backend`]) prepares its [`Session`] (the card abstraction, the tree, the memory
//! estimate printed and checked before anything big is allocated), measures it at its
//! checkpoints and at the end, and writes its results; [`drive`] holds what every back end
//! shares: the output paths (checked writable before any work), resume, the plan (iterations,
//! time, checkpoints), the session loop with its interrupt, and the report.
//!
//! The back ends: [`walked`] (the CFR family on the public tree of a walkable heads-up game),
//! [`deal`] (deal-sampled CFR on the betting tree of a real game), [`multiway`] (the exact solver
//! of three or more seats on a walkable game's whole tree), [`sampled`] (external-sampling MCCFR
//! of real stud at three to eight seats) and [`split`] (the deal-sampled solve split over the
//! ranks of an [`Exchange`](crate::deal_cfr::split::Exchange)). **To add a solver**: its
//! session in `session/`, a module here with its `Settings` and its [`Backend`], and a variant
//! of [`Settings`] and of [`Report`].
//!
//! The caller's rayon pool runs the solve (`pool.install(|| drive(..))`): the results are the
//! same on any number of threads.

pub mod cards;
pub mod deal;
pub mod multiway;
pub mod outputs;
pub mod report;
pub mod sampled;
pub mod sampled_count;
pub mod sampled_ranks;
pub mod split;
pub mod walked;

pub use outputs::{Outputs, Place};
pub use report::{Interrupted, Report, Results};

use crate::checkpoint::Problem;
use crate::lock::Lock;
use crate::session::{self, Every, Flow, Observer, Plan, Progress, Ran, Session};
use abstraction::bucketing;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to solve and how: plain data, which [`drive`] runs.
#[derive(Clone, Debug)]
pub struct Request {
    /// The game.
    pub game: GameDef,
    /// The game as named (a preset's name or a game file's path): the report's `game` and the
    /// stem of the default output name.
    pub name: String,
    /// Stop after this many iterations in total.
    pub iterations: Option<u64>,
    /// Stop after this much time in the session loop.
    pub time: Option<Duration>,
    /// Where to write the strategy (its checkpoint beside it, `.ckpt`); `None`:
    /// `solves/STEM{suffix}.{ext}` ([`Outputs`]).
    pub out: Option<PathBuf>,
    /// Keep the checkpoint of a finished solve (an interrupted one's always stays).
    pub keep_checkpoint: bool,
    /// Continue from the checkpoint beside the output.
    pub resume: bool,
    /// The seed of every random draw.
    pub seed: u64,
    /// The folder of the bucketing cache files (built there when missing).
    pub abstraction_dir: PathBuf,
    /// One player's rows fixed at given frequencies ([`crate::lock`]): the walked and the
    /// deal-sampled back ends hold them in every pass and write them as the lock says.
    pub lock: Option<Lock>,
    /// The back end and its settings.
    pub settings: Settings,
    /// Measure at these iteration counts, each measurement a row of the report
    /// ([`Report::rows`]); none by default.
    pub measure_at: MeasureAt,
}

/// A solve's measurement schedule: the iteration counts (or the CPU times) at which [`drive`]
/// measures it, beside its checkpoints, each measurement a [`report::Row`] (told to the
/// [`Watcher`] as it comes). The walked back end measures its exploitability (in the real game
/// and the abstract one), the deal-sampled one on a walkable game its average strategy lifted
/// onto the lossless public tree, played each way of `plays`; the exact multiway one its
/// NashConv; the sampled multiway one on a walkable game its strategy lifted onto the whole
/// game tree, its NashConv (played each way of `plays`, stored in each encoding of `rows`).
/// The split solve measures at its checkpoints only and refuses a schedule. The validation
/// ladder (`stud eval ladder`) and `stud eval multiway` are this.
#[derive(Clone, Debug, Default)]
pub struct MeasureAt {
    /// The iteration counts, ascending (0 measures the fresh solver); counts past the solve's
    /// stop are not reached.
    pub iterations: Vec<u64>,
    /// CPU seconds of iterating (every thread of the process), none below the one before:
    /// measured after the first iteration that reaches each, the solve stopping at the last (a
    /// solve run to the CPU time another used).
    pub cpu_seconds: Vec<f64>,
    /// Count the CPU time of the iterations with an iteration schedule too: each row's
    /// [`report::Row::cpu_seconds`].
    pub count_cpu: bool,
    /// How a lifted strategy is played when measured (deal-sampled and sampled multiway back
    /// ends; none: as solved).
    pub plays: Vec<crate::purify::Purification>,
    /// Encodings of a multiway file's rows in which the sampled multiway back end also
    /// measures its strategy, every row rounded as the file stores it.
    pub rows: Vec<crate::strategy_file::multiway::RowFormat>,
    /// The game's whole tree ([`crate::solve::sampled::game_tree`]) when the caller has built
    /// it already: the sampled multiway back end measures on it and the exact one solves a copy
    /// of it, instead of each building its own (`stud eval multiway` builds it once for its two
    /// solves and its check). It must be the request's game's.
    pub tree: Option<std::sync::Arc<abstraction::history_tree::HistoryTree>>,
}

impl MeasureAt {
    /// Whether anything is to be measured.
    pub fn is_empty(&self) -> bool {
        self.iterations.is_empty() && self.cpu_seconds.is_empty()
    }
}

/// Refuses iteration counts that are empty or not ascending.
pub fn check_iterations(iterations: &[u64]) -> Result<()> {
    if iterations.is_empty() || iterations.windows(2).any(|w| w[0] >= w[1]) {
        bail!("the iteration counts must be ascending and not empty, not {iterations:?}");
    }
    Ok(())
}

/// A back end and its settings.
#[derive(Clone, Debug)]
pub enum Settings {
    /// The CFR family on the public tree of a walkable heads-up game.
    Walked(walked::Settings),
    /// Deal-sampled CFR on the betting tree (the real games, or a walkable one measured
    /// exactly at the end).
    Deal(deal::Settings),
    /// The exact multiway solver on the whole game tree of a walkable game of 3 to 8 seats.
    Multiway(multiway::Settings),
    /// External-sampling MCCFR of stud at 3 to 8 seats on its N-seat betting abstraction.
    Sampled(sampled::Settings),
}

impl Settings {
    /// The back end `def` goes to when nothing else is asked, with that back end's defaults, as
    /// `stud solve --game G` without a back end's flags picks it: the walked solver for a
    /// walkable heads-up game (Kuhn, Leduc, …), the deal-sampled one for a real heads-up game,
    /// the exact multiway solver for a walkable table, the sampled one (its
    /// [`sampled::Settings::for_game`]) for a real game at a table. A library caller that names
    /// only a game (the Python package's `solve`) gets it here.
    pub fn default_for(def: &GameDef) -> Settings {
        let walkable = abstraction::tree::Tree::check_supported(def).is_ok();
        match (def.seats > 2, walkable) {
            (false, true) => Settings::Walked(walked::Settings::default()),
            (false, false) => Settings::Deal(deal::Settings::default()),
            (true, _) if sampled::takes(def, None) => {
                Settings::Sampled(sampled::Settings::for_game(def))
            }
            (true, _) => Settings::Multiway(multiway::Settings::default()),
        }
    }
}

/// What [`drive`] tells as it goes: a command line draws a progress bar and prints lines; a
/// library caller may implement none of it (`()`). Called from the solving thread, except
/// [`Watcher::building`], which the bucketing's workers call.
pub trait Watcher: Send + Sync {
    /// A line about the solve in words: what was built or read, the estimate, a resume.
    fn say(&self, _line: &str) {}
    /// The progress of a bucketing of `def` being built.
    fn building(&self, _def: &GameDef, _progress: bucketing::Progress) {}
    /// The bucketing is built (or was read).
    fn built(&self) {}
    /// The session loop starts, with this plan.
    fn started(&mut self, _plan: &Plan) {}
    /// After each iteration.
    fn iterated(&mut self, _tick: &Tick<'_>) {}
    /// After each periodic checkpoint: the back end's line of figures (iterations, seconds,
    /// and what it measured or sampled).
    fn checkpointed(&mut self, _line: &serde_json::Value) {}
    /// The session loop is over.
    fn finished(&mut self) {}
    /// A measurement of the request's schedule ([`MeasureAt`]), as it is made.
    fn measured(&mut self, _row: &report::Row) {}
}

/// Watches nothing.
impl Watcher for () {}

/// Where a solve stands after an iteration, with its pace and its last figures in words.
#[derive(Clone, Debug)]
pub struct Tick<'a> {
    /// The session's progress.
    pub progress: &'a Progress,
    /// The pace in the back end's units ("12.5 it/s", "900 deals/s").
    pub pace: String,
    /// What the back end adds: its last measurement, or the deals sampled so far.
    pub note: String,
}

/// When a solve started (before its preparation) and when its session loop did.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Before the back end prepared its solver (the bucketing, the tree).
    pub start: Instant,
    /// When the session loop began.
    pub session: Instant,
}

/// What a back end has when its session is over: what [`Backend::finish`] measures, writes and
/// reports from.
pub struct Ended<'a> {
    /// The request.
    pub request: &'a Request,
    /// The output paths.
    pub outputs: &'a Outputs,
    /// What the session did.
    pub ran: Ran,
    /// When the solve and its session started.
    pub clock: Clock,
    /// Whether the checkpoint is kept: asked to, or interrupted (so that a resume goes on).
    pub keep: bool,
}

/// A solver as [`drive`] runs it: prepared, watched, finished.
pub trait Backend {
    /// Its session.
    type Solver: Session;
    /// The default output name's suffix after the game's stem, and its extension.
    const FILE: (&'static str, &'static str);
    /// Refuses what this back end cannot solve, before any output is touched or work done.
    fn check(&self, request: &Request) -> Result<()>;
    /// Builds the solver: the abstraction, the tree, the memory estimate (said, then checked
    /// against the memory available), the arrays; and the problem its checkpoints record.
    fn prepare(
        &mut self,
        request: &Request,
        watcher: &dyn Watcher,
    ) -> Result<(Self::Solver, Problem)>;
    /// Restores the checkpoint `ckpt` into the fresh `solver`.
    fn resume(
        &mut self,
        ckpt: &Path,
        solver: &mut Self::Solver,
        problem: &Problem,
        watcher: &dyn Watcher,
    ) -> Result<()> {
        session::resume(ckpt, solver, problem)?;
        watcher.say(&format!(
            "resumed from {} at iteration {}",
            ckpt.display(),
            solver.iterations()
        ));
        Ok(())
    }
    /// When the session stops and how often it checkpoints.
    fn plan(&self, request: &Request, ckpt: &Path) -> Plan;
    /// The pace and note of a [`Tick`].
    fn tick(&self, solver: &Self::Solver, progress: &Progress) -> (String, String);
    /// After a periodic checkpoint (written to `ckpt`): the line of figures, and whether to
    /// go on.
    fn checkpointed(
        &mut self,
        solver: &Self::Solver,
        progress: &Progress,
        clock: &Clock,
        ckpt: &Path,
    ) -> Result<(serde_json::Value, Flow)>;
    /// A measurement of the request's schedule ([`MeasureAt`]) at the solver's iterations;
    /// the back ends that measure only at their checkpoints refuse a schedule in
    /// [`Backend::check`] ([`refuse_schedule`]).
    fn measure(&mut self, _solver: &Self::Solver, _request: &Request) -> Result<report::Measured> {
        bail!("this back end measures at its checkpoints only")
    }
    /// Measures the result, writes the strategy and the checkpoint
    /// ([`crate::checkpoint::write_results`]), and reports.
    fn finish(
        self,
        solver: Self::Solver,
        problem: &Problem,
        ended: Ended<'_>,
        watcher: &dyn Watcher,
    ) -> Result<Results>;
}

/// Runs `request` in the current rayon pool, telling `watcher` how it goes; the report of a
/// solve that an interrupt ([`session::interrupt`]) stopped says so ([`Report::interrupted`]),
/// its strategy so far and its checkpoint written.
pub fn drive(request: &Request, watcher: &mut dyn Watcher) -> Result<Report> {
    match &request.settings {
        Settings::Walked(s) => run(walked::Walked::new(s), request, Place::Single, watcher),
        Settings::Deal(s) => run(deal::Deal::new(s), request, Place::Single, watcher),
        Settings::Multiway(s) => run(multiway::Multiway::new(s), request, Place::Single, watcher),
        Settings::Sampled(s) => run(sampled::Sampled::new(s), request, Place::Single, watcher),
    }
}

/// The one drive of every back end, as the process `place` says.
fn run<B: Backend>(
    mut backend: B,
    request: &Request,
    place: Place,
    watcher: &mut dyn Watcher,
) -> Result<Report> {
    backend.check(request)?;
    let at = &request.measure_at;
    if !at.iterations.is_empty() {
        check_iterations(&at.iterations).context("the measurement schedule")?;
    }
    // Equal times are allowed: two counts one CPU time reaches (a sampled solve's rows a clock
    // tick apart or none).
    if at.cpu_seconds.windows(2).any(|w| w[0] > w[1])
        || at.cpu_seconds.iter().any(|c| !c.is_finite())
    {
        bail!(
            "the CPU times to measure at must not descend, not {:?}",
            at.cpu_seconds
        );
    }
    let outputs = Outputs::new(request, B::FILE, place)?;
    let start = Instant::now();
    let (mut solver, mut problem) = backend.prepare(request, watcher)?;
    // Recorded in every checkpoint, so that only the same lock's rules resume it.
    problem.lock = request.lock.as_ref().map(crate::checkpoint::LockMark::of);
    let mut resumed_from_iteration = None;
    if request.resume {
        backend.resume(&outputs.checkpoint, &mut solver, &problem, watcher)?;
        resumed_from_iteration = Some(solver.iterations());
    }
    let plan = Plan {
        measure_at: at.iterations.clone(),
        measure_at_cpu: at.cpu_seconds.clone(),
        count_cpu: at.count_cpu,
        ..backend.plan(request, &outputs.checkpoint)
    };
    watcher.started(&plan);
    let clock = Clock {
        start,
        session: Instant::now(),
    };
    let mut watch = Watch {
        backend: &mut backend,
        watcher: &mut *watcher,
        request,
        clock,
        checkpoint: &outputs.checkpoint,
        rows: Vec::new(),
        last_tick: None,
    };
    let ran = session::run(&mut solver, &problem, &plan, &mut watch);
    let rows = std::mem::take(&mut watch.rows);
    watcher.finished();
    let ran = ran?;
    let iterations = solver.iterations();
    let ended = Ended {
        request,
        outputs: &outputs,
        ran,
        clock,
        keep: request.keep_checkpoint || ran.interrupted,
    };
    let results = backend.finish(solver, &problem, ended, watcher)?;
    Ok(Report {
        results,
        lock: request.lock.as_ref().map(report::LockNote::of),
        resumed_from_iteration,
        rows,
        interrupted: ran.interrupted.then(|| Interrupted {
            iterations,
            checkpoint: outputs.checkpoint.clone(),
            out: outputs.strategy.clone(),
        }),
    })
}

/// The session's observer: the back end's measurements, told to the watcher.
struct Watch<'a, B> {
    backend: &'a mut B,
    watcher: &'a mut dyn Watcher,
    request: &'a Request,
    clock: Clock,
    checkpoint: &'a Path,
    /// The measurements of the request's schedule so far.
    rows: Vec<report::Row>,
    /// When the watcher was last told of an iteration.
    last_tick: Option<Instant>,
}

/// The least time between two ticks told to the watcher: a tick formats the back end's figures
/// and draws them, which a game of microsecond iterations (Kuhn, Leduc) would otherwise pay at
/// every one; a progress bar redraws at most about this often anyway.
const TICK_EVERY: Duration = Duration::from_millis(50);

impl<B: Backend> Observer<B::Solver> for Watch<'_, B> {
    fn iterated(&mut self, solver: &B::Solver, progress: &Progress) {
        let now = Instant::now();
        if self
            .last_tick
            .is_some_and(|t| now.duration_since(t) < TICK_EVERY)
        {
            return;
        }
        self.last_tick = Some(now);
        let (pace, note) = self.backend.tick(solver, progress);
        self.watcher.iterated(&Tick {
            progress,
            pace,
            note,
        });
    }

    fn checkpointed(&mut self, solver: &B::Solver, progress: &Progress) -> Result<Flow> {
        let (line, flow) =
            (self.backend).checkpointed(solver, progress, &self.clock, self.checkpoint)?;
        self.watcher.checkpointed(&line);
        Ok(flow)
    }

    fn measured(&mut self, solver: &B::Solver, progress: &Progress) -> Result<()> {
        let row = report::Row {
            iterations: progress.iterations,
            seconds: progress.iterating.as_secs_f64(),
            cpu_seconds: progress.cpu,
            measured: self.backend.measure(solver, self.request)?,
        };
        self.watcher.measured(&row);
        self.rows.push(row);
        Ok(())
    }
}

/// The plan of a solve measured as it goes (walked or multiway): a checkpoint with a
/// measurement every `every` iterations (by default a tenth of the iterations, else 100).
fn measured_plan(request: &Request, every: Option<u64>, ckpt: &Path) -> Plan {
    let every = every
        .unwrap_or_else(|| request.iterations.map_or(100, |n| (n / 10).max(1)))
        .max(1);
    Plan {
        iterations: request.iterations,
        time: request.time,
        every: Every::Iterations(every),
        checkpoint: ckpt.to_path_buf(),
        measure_at: Vec::new(),
        measure_at_cpu: Vec::new(),
        count_cpu: false,
    }
}

/// How long a sampled solve runs when neither iterations nor time is given: with the bucketing
/// cached and its first street tabulated, about half an hour in all for 7stud `default`.
pub const DEFAULT_TIME: Duration = Duration::from_secs(28 * 60);
/// How often a sampled solve writes a checkpoint by default.
pub const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(5 * 60);

/// Reads the lock file at `path` (bounded, as every input: [`crate::input::LOCK`]) for a
/// [`Request`]'s `lock`. Here rather than in [`crate::lock`], which the kernels read below the
/// file layer.
pub fn read_lock(path: &Path) -> Result<Lock> {
    let text = crate::input::read_text(path, crate::input::LOCK)?;
    Lock::parse(&text, &path.display().to_string())
}

/// Refuses a lock given to a back end that cannot hold one (`what`: the solver, as the
/// refusal names it).
fn refuse_lock(request: &Request, what: &str) -> Result<()> {
    if let Some(lock) = &request.lock {
        bail!(
            "{}: {what} does not lock rows yet; the walked solver (heads-up walkable games), the \
             deal-sampled one (heads-up real games) and the multiway solvers do",
            lock.source
        );
    }
    Ok(())
}

/// Refuses a measurement schedule given to a back end that measures at its checkpoints only
/// (`what`: the solver, as the refusal names it).
fn refuse_schedule(request: &Request, what: &str) -> Result<()> {
    if !request.measure_at.is_empty() {
        bail!(
            "{}: {what} measures at its checkpoints only; the other solvers (the walked one, \
             the multiway ones, and the deal-sampled one on a walkable game) measure at given \
             iteration counts",
            request.name
        );
    }
    Ok(())
}

/// Refuses a measured solve (walked, exact multiway) told no way to stop: no iterations, no
/// time, no target exploitability and no CPU schedule (which stops at its last count).
fn check_stop(request: &Request, target: Option<f64>) -> Result<()> {
    let cpu = !request.measure_at.cpu_seconds.is_empty();
    if request.iterations.is_none() && request.time.is_none() && target.is_none() && !cpu {
        bail!(
            "{}: say when to stop, with --iterations, --time or --target-exploitability",
            request.name
        );
    }
    Ok(())
}

/// The plan of a sampled solve (deal-sampled, split over ranks, or multiway sampled): the
/// iterations and time (by default [`DEFAULT_TIME`] when neither is given), and a checkpoint
/// every `every` of wall time.
fn timed_plan(request: &Request, every: Duration, ckpt: &Path) -> Plan {
    Plan {
        iterations: request.iterations,
        time: match (request.iterations, request.time) {
            (None, None) => Some(DEFAULT_TIME),
            (_, t) => t,
        },
        every: Every::Time(every),
        checkpoint: ckpt.to_path_buf(),
        measure_at: Vec::new(),
        measure_at_cpu: Vec::new(),
        count_cpu: false,
    }
}

/// The pace, note and checkpoint line of a sampled solve, `batch` `unit`s ("deals",
/// "traversals") per iteration.
struct Sampling {
    unit: &'static str,
    batch: usize,
}

impl Sampling {
    /// Units per second of iterating.
    fn per_second(&self, p: &Progress) -> f64 {
        p.rate() * self.batch as f64
    }

    fn tick(&self, p: &Progress) -> (String, String) {
        let unit = self.unit;
        let note = format!(", {} {unit}", p.iterations * self.batch as u64);
        (format!("{:.0} {unit}/s", self.per_second(p)), note)
    }

    fn line(&self, p: &Progress, clock: &Clock, ckpt: &Path) -> serde_json::Value {
        let mut line = serde_json::json!({
            "iterations": p.iterations,
            "seconds": clock.start.elapsed().as_secs_f64(),
            "checkpoint": ckpt.display().to_string(),
        });
        line[self.unit] = (p.iterations * self.batch as u64).into();
        line[format!("{}_per_second", self.unit)] = self.per_second(p).into();
        line
    }
}
