//! A solve session: the one loop every solver runs in, whatever its tree or its sampling.
//!
//! A solver plugs in by implementing [`Session`] (one iteration, the iterations completed, its
//! two arrays and the checkpoint header that describes it); [`run`] then gives it the stop
//! conditions (`--iterations`, `--time`), the periodic checkpoints (every so many iterations or
//! every so much time), and reports each iteration and each checkpoint to an [`Observer`] (the
//! command line's progress bar and JSON lines; `()` observes nothing); [`resume`] restores a
//! checkpoint into a fresh solver. The checkpoint file is [`crate::checkpoint`]'s, generic over
//! the header and the element type.
//!
//! The solvers today: [`walked`] (the CFR family on the public tree, `f64`), [`deal`]
//! (deal-sampled CFR on the betting tree of the real games, `f32`) and [`multiway`] (the CFR
//! family for any number of seats on a walkable game's whole tree, `f64`). Each module also says
//! what its solve will cost before the big arrays are allocated.

pub mod deal;
pub mod multiway;
pub mod sampled;
pub mod sampled_ranks;
pub mod split;
pub mod walked;

pub use walked::{build_tree, estimate, new_solver, Abstractions, Cards, ADVICE};

use crate::checkpoint::{self, periodic_failed, Problem};
use crate::memory::cpu_seconds;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set when the process is asked to stop ([`interrupt`]): the session loop then ends after the
/// iteration in progress, as if a stop condition held, so that its caller writes the
/// checkpoint and the strategy so far instead of losing what came after the last checkpoint.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every session of this process to stop after its iteration in progress. Only an atomic
/// store: safe to call from a signal handler (the command line's SIGINT and SIGTERM).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Forgets an [`interrupt`], so that the next session runs its plan: for a process that goes on
/// solving after an interrupted solve (the Python package's `solve` after a KeyboardInterrupt;
/// the command line ends instead).
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Set while a session loop runs ([`run`]): before it (building a bucketing, a tree) there is
/// nothing to save, so a signal handler may end the process at once.
static SOLVING: AtomicBool = AtomicBool::new(false);

/// Whether a session loop is running, so that an interrupt would save its work.
pub fn solving() -> bool {
    SOLVING.load(Ordering::SeqCst)
}

/// A solver, as the session loop sees it.
pub trait Session {
    /// The element of its regrets and averages (`f64` or `f32`), as stored in its checkpoints.
    type Elem: bytemuck::Pod;
    /// Its kind of checkpoint: the settings its header records.
    type Kind: checkpoint::Kind;
    /// Runs one iteration.
    fn iterate(&mut self) -> Result<()>;
    /// Iterations completed.
    fn iterations(&self) -> u64;
    /// The solver's own settings, as its checkpoints record them.
    fn kind(&self) -> Self::Kind;
    /// The checkpoint header describing the solver's current state on `problem`.
    fn header(&self, problem: &Problem) -> checkpoint::Header<Self::Kind> {
        checkpoint::Header::new(
            problem,
            self.iterations(),
            self.arrays()[0].len(),
            self.kind(),
        )
    }
    /// The regrets and the average-strategy mass, one element per slot.
    fn arrays(&self) -> [&[Self::Elem]; 2];
    /// The same arrays and the iteration count, to restore a checkpoint into.
    fn restore(&mut self) -> ([&mut [Self::Elem]; 2], &mut u64);
    /// Brings the arrays up to date where the solver updates them lazily, before they are
    /// saved or read whole (nothing by default).
    fn settle(&mut self) {}
    /// Whether to stop, or to checkpoint, given this process's own answer (its clock): a solve
    /// split over processes takes one process's word, so that all stop and checkpoint at the
    /// same iteration. One process: its own answer.
    fn agree(&mut self, mine: bool) -> Result<bool> {
        Ok(mine)
    }
    /// Whether this process writes the periodic checkpoints: not the ranks after the first of
    /// a solve whose every rank holds the same arrays (rank 0 writes them for all).
    fn writes_checkpoint(&self) -> bool {
        true
    }
}

/// What `stud info` shows of a checkpoint: which solve wrote it and its header.
#[derive(Clone, Debug)]
pub struct CheckpointInfo {
    /// The kind of checkpoint, in words ("deal checkpoint").
    pub what: &'static str,
    /// The checkpoint format ([`checkpoint::FORMAT`]): what a resume reads.
    pub format: u32,
    /// The version of the container that holds it (the layout shared with strategy files).
    pub container: u32,
    /// Iterations completed.
    pub iterations: u64,
    /// Slots per array (regrets, averages).
    pub slots: u64,
    /// The header as JSON (the game as an object).
    pub header: serde_json::Value,
}

/// The header of the checkpoint at `path`, of whichever solver wrote it, once every byte is
/// checked against the checksums; `None` if the file does not start as a checkpoint.
pub fn checkpoint_info(path: &Path) -> Result<Option<CheckpointInfo>> {
    fn open<K: checkpoint::Kind>(path: &Path) -> Result<CheckpointInfo> {
        let mut f = crate::container::ContainerFile::<checkpoint::Header<K>>::open(
            path,
            crate::input::CHECKPOINT,
            K::MAGIC,
            K::WHAT,
        )?;
        let lock = checkpoint::LockMark::read(&mut f, path)?;
        let h = &f.container.header;
        let mut header = serde_json::to_value(h)?;
        if let Some(m) = lock {
            header["lock"] = serde_json::json!({
                "file": m.file,
                "rules_fnv": format!("{:016x}", m.rules),
            });
        }
        // The solver's settings shown beside the problem's, as one object (as `stud info`
        // showed every header before checkpoint format 2).
        if let Some(o) = header.as_object_mut() {
            if let Some(serde_json::Value::Object(solver)) = o.remove("solver") {
                o.extend(solver);
            }
        }
        // The game is stored as JSON text inside the header: shown as the object it is.
        if let Some(game) = header["game"]
            .as_str()
            .and_then(|g| serde_json::from_str(g).ok())
        {
            header["game"] = game;
        }
        Ok(CheckpointInfo {
            what: K::WHAT,
            format: checkpoint::FORMAT,
            container: f.container.version,
            iterations: h.iterations,
            slots: h.slots,
            header,
        })
    }
    let mut magic = [0u8; 8];
    {
        use std::io::Read;
        let mut file = crate::input::open(path, crate::input::CHECKPOINT)?;
        if file.read_exact(&mut magic).is_err() {
            return Ok(None);
        }
    }
    checkpoint::refuse_older(path)?;
    use checkpoint::Kind;
    Ok(Some(match &magic {
        m if m == walked::Walked::MAGIC => open::<walked::Walked>(path)?,
        m if m == deal::Deal::MAGIC => open::<deal::Deal>(path)?,
        m if m == split::Part::MAGIC => open::<split::Part>(path)?,
        m if m == multiway::Multiway::MAGIC => open::<multiway::Multiway>(path)?,
        m if m == sampled::Sampled::MAGIC => open::<sampled::Sampled>(path)?,
        _ => return Ok(None),
    }))
}

/// Writes `solver`'s state on `problem` to the checkpoint `path`, atomically.
pub fn save<S: Session>(path: &Path, solver: &S, problem: &Problem) -> Result<()> {
    let lock = problem.lock.as_ref();
    checkpoint::save(path, solver.header(problem), solver.arrays(), lock)
}

/// Restores the checkpoint `path` into `solver` (fresh, on the same tree), after checking that
/// it was made for the same problem and solver settings (a locked one under the same lock's
/// rules) and that no byte is damaged.
pub fn resume<S: Session>(path: &Path, solver: &mut S, problem: &Problem) -> Result<()> {
    let expect = solver.header(problem);
    let (arrays, iterations) = solver.restore();
    *iterations = checkpoint::load(path, &expect, arrays, problem.lock.as_ref())?;
    Ok(())
}

/// How often a checkpoint is written while solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// When the iterations completed are a multiple of this (`--every`; 0 counts as 1).
    Iterations(u64),
    /// When this much time has passed since the last one (`--checkpoint-every`).
    Time(Duration),
}

/// When a session stops and where it keeps its checkpoints.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Stop once this many iterations in total are completed.
    pub iterations: Option<u64>,
    /// Stop once this much time has passed in the loop.
    pub time: Option<Duration>,
    /// How often to write a checkpoint.
    pub every: Every,
    /// The checkpoint file.
    pub checkpoint: PathBuf,
    /// Iteration counts (ascending) at which the observer measures the solver
    /// ([`Observer::measured`]), beside the checkpoints: a count already reached when the
    /// session starts (0, or a resumed checkpoint's) is measured before the first iteration.
    pub measure_at: Vec<u64>,
    /// CPU seconds of iterating (none below the one before) at which the observer measures the
    /// solver, each after the first iteration that reaches it (several at one iteration if it
    /// passes them all); the session stops at the last. Counts the CPU time
    /// ([`Plan::count_cpu`]).
    pub measure_at_cpu: Vec<f64>,
    /// Count the CPU time of the iterations ([`Progress::cpu`]): the process's, every thread,
    /// the checkpoints and measurements left out. Off unless asked: it reads the process's
    /// times at each iteration when [`Plan::measure_at_cpu`] is given, else at each
    /// measurement.
    pub count_cpu: bool,
}

/// Where a session stands, after an iteration.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations completed in all (with those of a resumed checkpoint).
    pub iterations: u64,
    /// Iterations run by this session.
    pub ran: u64,
    /// Time since the session started.
    pub elapsed: Duration,
    /// Time spent in iterations alone.
    pub iterating: Duration,
    /// The time left until a stop condition holds, when one is given: from the pace so far for
    /// `--iterations`, from the clock for `--time` (the sooner of the two).
    pub left: Option<Duration>,
    /// CPU seconds of iterating so far (every thread of the process, checkpoints and
    /// measurements left out), when the plan counts them ([`Plan::count_cpu`]); up to date at
    /// a measurement ([`Observer::measured`]), not necessarily at other calls.
    pub cpu: Option<f64>,
}

impl Progress {
    /// Iterations per second of iterating.
    pub fn rate(&self) -> f64 {
        self.ran as f64 / self.iterating.as_secs_f64().max(1e-9)
    }
}

/// Whether a session goes on after a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on until a stop condition of the [`Plan`] holds.
    Continue,
    /// Stop now (a target reached).
    Stop,
}

/// What watches a session: a progress display, a log of JSON lines, a measurement that may stop
/// it. `()` watches nothing.
pub trait Observer<S> {
    /// After each iteration.
    fn iterated(&mut self, solver: &S, progress: &Progress);
    /// After each periodic checkpoint is written; may stop the session.
    fn checkpointed(&mut self, solver: &S, progress: &Progress) -> Result<Flow>;
    /// At each count of [`Plan::measure_at`], the solver settled ([`Session::settle`]); the
    /// time it takes is not counted as iterating.
    fn measured(&mut self, _solver: &S, _progress: &Progress) -> Result<()> {
        Ok(())
    }
}

impl<S> Observer<S> for () {
    fn iterated(&mut self, _: &S, _: &Progress) {}
    fn checkpointed(&mut self, _: &S, _: &Progress) -> Result<Flow> {
        Ok(Flow::Continue)
    }
}

/// What a session did.
#[derive(Clone, Copy, Debug)]
pub struct Ran {
    /// Iterations run (beyond those resumed).
    pub iterations: u64,
    /// Time spent in iterations alone (not in checkpoints or observers).
    pub iterating: Duration,
    /// Whether it stopped because the process was asked to ([`interrupt`]) rather than by its
    /// plan: its caller keeps the checkpoint, so that `--resume` goes on from there.
    pub interrupted: bool,
}

/// Iterates `solver` until a stop condition of `plan` holds, `observer` stops it or the
/// process is interrupted ([`interrupt`]), writing a
/// checkpoint as often as `plan` says. A checkpoint that fails stops the session with an error
/// saying what is left ([`periodic_failed`]): a disk that is full now would fail the final
/// write too. The final results are the caller's to write ([`checkpoint::write_results`]).
pub fn run<S: Session>(
    solver: &mut S,
    problem: &Problem,
    plan: &Plan,
    observer: &mut impl Observer<S>,
) -> Result<Ran> {
    let start = Instant::now();
    let first = solver.iterations();
    let mut iterating = Duration::ZERO;
    SOLVING.store(true, Ordering::SeqCst);
    let ran = iterate(
        solver,
        problem,
        plan,
        observer,
        start,
        first,
        &mut iterating,
    );
    SOLVING.store(false, Ordering::SeqCst);
    // What follows a run (the last checkpoint, the strategy file) reads the arrays whole.
    solver.settle();
    ran?;
    Ok(Ran {
        iterations: solver.iterations() - first,
        iterating,
        interrupted: interrupted(),
    })
}

/// The loop of [`run`], from `start` and `first` iterations: the time in iterations added to
/// `iterating`.
fn iterate<S: Session>(
    solver: &mut S,
    problem: &Problem,
    plan: &Plan,
    observer: &mut impl Observer<S>,
    start: Instant,
    first: u64,
    iterating: &mut Duration,
) -> Result<()> {
    let mut last_checkpoint = start;
    let mut cpu = CpuClock::start(plan)?;
    if plan.measure_at.contains(&solver.iterations()) {
        let at = progress(plan, solver.iterations(), first, start, *iterating);
        cpu.measure(solver, at, observer)?;
    }
    loop {
        let done_iterations = plan.iterations.is_some_and(|n| solver.iterations() >= n);
        let out_of_time = plan.time.is_some_and(|t| start.elapsed() >= t);
        if solver.agree(done_iterations || out_of_time || cpu.done() || interrupted())? {
            break;
        }
        let t = Instant::now();
        solver.iterate()?;
        *iterating += t.elapsed();
        let progress = progress(plan, solver.iterations(), first, start, *iterating);
        observer.iterated(solver, &progress);
        if plan.measure_at.binary_search(&solver.iterations()).is_ok() {
            cpu.measure(solver, progress, observer)?;
        }
        while cpu.due()? {
            cpu.measure(solver, progress, observer)?;
            cpu.next += 1;
        }
        let due = match plan.every {
            Every::Iterations(n) => solver.iterations() % n.max(1) == 0,
            Every::Time(d) => last_checkpoint.elapsed() >= d,
        };
        if solver.agree(due)? {
            let checkpointed = cpu.leave_out(|| {
                solver.settle();
                if solver.writes_checkpoint() {
                    save(&plan.checkpoint, solver, problem)
                        .with_context(|| periodic_failed(&plan.checkpoint, solver.iterations()))?;
                }
                observer.checkpointed(solver, &progress)
            })?;
            last_checkpoint = Instant::now();
            if checkpointed == Flow::Stop {
                break;
            }
        }
    }
    Ok(())
}

/// The CPU time of a session's iterations, when its plan counts it: the process's CPU time
/// since the loop began, less what the checkpoints and measurements took (the process's clock,
/// [`cpu_seconds`], ticks a hundred times a second: counted over spans, not per iteration).
struct CpuClock<'a> {
    /// The CPU schedule, when the plan counts CPU time.
    counting: Option<&'a [f64]>,
    /// The process's CPU seconds when the loop began.
    began: f64,
    /// CPU seconds spent in checkpoints and measurements.
    left_out: f64,
    /// The next count of the CPU schedule.
    next: usize,
}

impl<'a> CpuClock<'a> {
    fn start(plan: &'a Plan) -> Result<CpuClock<'a>> {
        let counting =
            (plan.count_cpu || !plan.measure_at_cpu.is_empty()).then_some(&plan.measure_at_cpu[..]);
        Ok(CpuClock {
            counting,
            began: if counting.is_some() {
                cpu_seconds()?
            } else {
                0.0
            },
            left_out: 0.0,
            next: 0,
        })
    }

    /// Reads the clock: CPU seconds of iterating so far.
    fn read(&self) -> Result<Option<f64>> {
        if self.counting.is_none() {
            return Ok(None);
        }
        Ok(Some(cpu_seconds()? - self.began - self.left_out))
    }

    /// Whether the next count of the CPU schedule is reached (read after an iteration).
    fn due(&mut self) -> Result<bool> {
        match self.counting {
            Some(at) if self.next < at.len() => {
                Ok(self.read()?.is_some_and(|c| c >= at[self.next]))
            }
            _ => Ok(false),
        }
    }

    /// Whether every count of a CPU schedule is measured: the session stops.
    fn done(&self) -> bool {
        self.counting
            .is_some_and(|at| !at.is_empty() && self.next >= at.len())
    }

    /// Runs `f` with its CPU time left out of the iterations'.
    fn leave_out<T>(&mut self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let before = match self.counting {
            Some(_) => cpu_seconds()?,
            None => return f(),
        };
        let out = f();
        self.left_out += cpu_seconds()? - before;
        out
    }

    /// Settles `solver` and has `observer` measure it at `at`, with the CPU time so far.
    fn measure<S: Session>(
        &mut self,
        solver: &mut S,
        mut at: Progress,
        observer: &mut impl Observer<S>,
    ) -> Result<()> {
        at.cpu = self.read()?;
        self.leave_out(|| {
            solver.settle();
            observer.measured(solver, &at)
        })
    }
}

/// Where a session of `plan` stands at `iterations`, having started at `first` at `start`.
fn progress(
    plan: &Plan,
    iterations: u64,
    first: u64,
    start: Instant,
    iterating: Duration,
) -> Progress {
    let elapsed = start.elapsed();
    let ran = iterations - first;
    let by_pace = plan.iterations.map(|n| {
        let per = iterating.as_secs_f64() / ran.max(1) as f64;
        Duration::from_secs_f64(n.saturating_sub(iterations) as f64 * per)
    });
    let by_clock = plan.time.map(|t| t.saturating_sub(elapsed));
    let left = match (by_pace, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Progress {
        iterations,
        ran,
        elapsed,
        iterating,
        left,
        cpu: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfr::{Algorithm, Solver};
    use abstraction::rules::GameDef;

    fn leduc() -> (Solver, Problem) {
        let def = GameDef::leduc();
        let abs = Abstractions::for_game(&def);
        let solver = new_solver(&def, &abs, Algorithm::CfrPlus, None).unwrap();
        (solver, Problem::walked(&def, &abs))
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stud-session-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Counts what it is told and stops at the second checkpoint.
    #[derive(Default)]
    struct Count {
        iterated: u64,
        checkpoints: Vec<u64>,
    }

    impl Observer<Solver> for Count {
        fn iterated(&mut self, _: &Solver, p: &Progress) {
            self.iterated += 1;
            assert_eq!(p.iterations, 3 + self.iterated);
        }
        fn checkpointed(&mut self, _: &Solver, p: &Progress) -> Result<Flow> {
            self.checkpoints.push(p.iterations);
            Ok(if self.checkpoints.len() == 2 {
                Flow::Stop
            } else {
                Flow::Continue
            })
        }
    }

    #[test]
    fn a_session_stopped_at_a_checkpoint_resumes_bit_identical() {
        let d = dir("resume");
        let plan = |iterations| Plan {
            iterations: Some(iterations),
            time: None,
            every: Every::Iterations(4),
            checkpoint: d.join("s.ckpt"),
            measure_at: Vec::new(),
            measure_at_cpu: Vec::new(),
            count_cpu: false,
        };
        let (mut straight, problem) = leduc();
        let ran = run(&mut straight, &problem, &plan(20), &mut ()).unwrap();
        assert_eq!((ran.iterations, straight.iterations), (20, 20));

        // Three iterations, then an observer that stops at the second checkpoint (8).
        let (mut first, _) = leduc();
        run(&mut first, &problem, &plan(3), &mut ()).unwrap();
        let mut count = Count::default();
        let ran = run(&mut first, &problem, &plan(20), &mut count).unwrap();
        assert_eq!(count.checkpoints, [4, 8]);
        assert_eq!((ran.iterations, count.iterated), (5, 5));

        let (mut resumed, _) = leduc();
        resume(&d.join("s.ckpt"), &mut resumed, &problem).unwrap();
        assert_eq!(resumed.iterations, 8);
        run(&mut resumed, &problem, &plan(20), &mut ()).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&resumed.regrets), bits(&straight.regrets));
        assert_eq!(bits(&resumed.average), bits(&straight.average));
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn a_checkpoint_of_another_problem_is_refused() {
        let d = dir("other");
        let (mut s, problem) = leduc();
        s.iterate();
        save(&d.join("s.ckpt"), &s, &problem).unwrap();
        let other = Problem {
            card_abstraction: "another".into(),
            ..problem
        };
        let e = resume(&d.join("s.ckpt"), &mut leduc().0, &other).unwrap_err();
        assert!(format!("{e:#}").contains("another abstraction"), "{e:#}");
        std::fs::remove_dir_all(&d).ok();
    }

    /// A locked solve's checkpoint resumes under the same rules only (another file of the
    /// same rules is the same lock); an unlocked one warm-starts a locked solve.
    #[test]
    fn a_locked_checkpoint_resumes_with_its_rules_only() {
        let d = dir("locked");
        let (mut s, problem) = leduc();
        s.iterate();
        let text = "[[lock]]\nplayer = 2\nstreet = \"round 2\"\nplay = { fold = 0, call = 1 }\n";
        let mark = |text: &str, file: &str| {
            let lock = crate::lock::Lock::parse(text, file).unwrap();
            Some(checkpoint::LockMark::of(&lock))
        };
        let locked = Problem {
            lock: mark(text, "a.toml"),
            ..problem.clone()
        };
        let ckpt = d.join("s.ckpt");
        save(&ckpt, &s, &locked).unwrap();
        let e = resume(&ckpt, &mut leduc().0, &problem).unwrap_err();
        let e = format!("{e:#}");
        assert!(
            e.contains("locked by a.toml") && e.contains("no lock"),
            "{e}"
        );
        let other =
            "[[lock]]\nplayer = 2\nstreet = \"round 2\"\nplay = { fold = 0.5, call = 0.5 }\n";
        let moved = Problem {
            lock: mark(other, "b.toml"),
            ..problem.clone()
        };
        let e = format!("{:#}", resume(&ckpt, &mut leduc().0, &moved).unwrap_err());
        assert!(e.contains("b.toml has other rules"), "{e}");
        // The same rules written otherwise: a comment, another spelling, another name.
        let same = "# p2 calls down\n[[lock]]\nplay = { c = 1.0, fold = 0 }\nstreet = \"Round 2\"\nplayer = 2\n";
        let again = Problem {
            lock: mark(same, "c.toml"),
            ..problem.clone()
        };
        let mut r = leduc().0;
        resume(&ckpt, &mut r, &again).unwrap();
        assert_eq!(r.iterations(), 1);
        // An unlocked checkpoint warm-starts a locked solve, and has two sections as before.
        save(&ckpt, &s, &problem).unwrap();
        resume(&ckpt, &mut leduc().0, &locked).unwrap();
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn time_left_is_the_sooner_of_pace_and_clock() {
        let plan = Plan {
            iterations: Some(100),
            time: Some(Duration::from_secs(3600)),
            every: Every::Time(Duration::from_secs(60)),
            checkpoint: PathBuf::new(),
            measure_at: Vec::new(),
            measure_at_cpu: Vec::new(),
            count_cpu: false,
        };
        // 10 of 100 iterations in 1 s of iterating: 9 s left by pace, under an hour by clock.
        let p = progress(&plan, 10, 0, Instant::now(), Duration::from_secs(1));
        assert!((p.left.unwrap().as_secs_f64() - 9.0).abs() < 1e-6, "{p:?}");
        assert_eq!(p.rate(), 10.0);
        let by_clock = Plan {
            iterations: None,
            ..plan
        };
        let p = progress(&by_clock, 10, 0, Instant::now(), Duration::from_secs(1));
        assert!(p.left.unwrap() > Duration::from_secs(3590));
    }
}
