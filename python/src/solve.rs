//! `solve`: a solve from Python through the library's one driver (`solve::drive`), run on a
//! thread of its own while the caller's thread waits without the GIL, takes the progress lines
//! and watches for KeyboardInterrupt, which stops the solve as Ctrl-C stops `stud solve`: after
//! the iteration in progress, the strategy so far written and the checkpoint kept.

use crate::player::Player;
use crate::{json_to_py, stud_error};
use abstraction::rules::GameDef;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use solver::bot::AveragePlayer;
use solver::session::{self, Plan};
use solver::solve::{drive, read_lock, Report, Request, Results, Settings, Tick, Watcher};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the waiting thread looks for KeyboardInterrupt and the solve reports its pace.
const POLL: Duration = Duration::from_millis(100);

/// What the solving thread tells the waiting one.
enum Told {
    /// A line of progress in words.
    Line(String),
    /// The solve is over (boxed: a report is large, a line small).
    Done(Box<anyhow::Result<Report>>),
}

/// The watcher of a solve from Python: its lines, and its pace at most every second, sent to
/// the waiting thread (which holds the GIL to print them).
struct Lines {
    /// Where the lines go (behind a lock: the bucketing's builders call from their threads).
    to: Mutex<Sender<Told>>,
    /// When the last pace line was sent.
    last: Instant,
}

impl Lines {
    fn send(&self, line: String) {
        // The waiting thread outlives the solve: a send fails only if it is gone already.
        let _ = self
            .to
            .lock()
            .expect("never poisoned: no panic holds it")
            .send(Told::Line(line));
    }
}

impl Watcher for Lines {
    fn say(&self, line: &str) {
        self.send(line.to_string());
    }
    fn started(&mut self, plan: &Plan) {
        let stop = match (plan.iterations, plan.time) {
            (Some(n), _) => format!("{n} iterations"),
            (None, Some(t)) => format!("{:.0} s", t.as_secs_f64()),
            (None, None) => "a target".to_string(),
        };
        self.send(format!("solving until {stop}"));
    }
    fn iterated(&mut self, tick: &Tick<'_>) {
        if self.last.elapsed() >= Duration::from_secs(1) {
            self.last = Instant::now();
            let p = tick.progress;
            let left = p.left.map_or(String::new(), |l| {
                format!(", {:.0} s left", l.as_secs_f64())
            });
            self.send(format!(
                "{} iterations, {}{left} {}",
                p.iterations, tick.pace, tick.note
            ));
        }
    }
    fn checkpointed(&mut self, line: &serde_json::Value) {
        self.send(line.to_string());
    }
}

/// Solves `game` (a preset: `kuhn`, `leduc`, `7stud`, …) with its default back end until
/// `iterations` in all or `time` seconds, writing the strategy to `out` (default
/// `solves/GAME.strat`); returns the report (`stud solve --json`'s last line) as a dict, and
/// a walked solve's (Kuhn, Leduc, the walkable stud games) average strategy as it ended,
/// unrounded, as a `Player` (`None` for the other back ends): the policy whose exploitability
/// the report gives (the file stores it rounded).
/// `lock`: a lock file (`stud solve --lock`, docs/guide/solving.md) whose rows stay fixed.
/// `progress`: print the progress lines on stderr (`True`), hand each to a callable, or
/// nothing (`None`/`False`). KeyboardInterrupt stops after the iteration in progress, writes the
/// strategy so far, keeps the checkpoint (`resume=True` goes on from it) and is raised again
/// with the report as its `report` attribute.
#[pyfunction]
#[pyo3(signature = (game, *, iterations = None, time = None, out = None, seed = 0,
                    keep_checkpoint = false, resume = false, abstraction_dir = None,
                    lock = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    game: &str,
    iterations: Option<u64>,
    time: Option<f64>,
    out: Option<PathBuf>,
    seed: u64,
    keep_checkpoint: bool,
    resume: bool,
    abstraction_dir: Option<PathBuf>,
    lock: Option<PathBuf>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Option<Player>)> {
    let def = GameDef::preset(game).map_err(|e| stud_error(e.into()))?;
    let time = time
        .map(|t| {
            Duration::try_from_secs_f64(t).map_err(|_| {
                stud_error(anyhow::anyhow!("time={t}: a number of seconds, at least 0"))
            })
        })
        .transpose()?;
    let request = Request {
        settings: Settings::default_for(&def),
        measure_at: Default::default(),
        game: def,
        name: game.to_string(),
        iterations,
        time,
        out,
        keep_checkpoint,
        resume,
        seed,
        abstraction_dir: abstraction_dir.unwrap_or_else(|| "abstractions".into()),
        lock: lock
            .map(|path| read_lock(&path))
            .transpose()
            .map_err(stud_error)?,
    };
    let report = run(py, &request, progress.as_ref())?;
    let value = serde_json::to_value(&report).map_err(|e| stud_error(e.into()))?;
    let dict = json_to_py(py, &value)?;
    let average = match &report.results {
        Results::Walked(w) => Some(Player::of_average(AveragePlayer::new(
            Arc::clone(&w.average),
            format!("{game} average ({} iterations, unrounded)", w.iterations),
        ))),
        _ => None,
    };
    match report.finished() {
        Ok(()) => Ok((dict, average)),
        Err(e) => {
            let err = PyKeyboardInterrupt::new_err(format!("{e:#}"));
            err.value(py).setattr("report", dict)?;
            Err(err)
        }
    }
}

/// Runs `request` on a thread of its own; this thread waits without the GIL, hands the lines to
/// `progress`, and turns a KeyboardInterrupt into the library's interrupt.
fn run(py: Python<'_>, request: &Request, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Report> {
    let (to, from) = mpsc::channel();
    // Waited on without the GIL, so behind a lock (only this thread takes it).
    let from = Mutex::new(from);
    session::clear_interrupt();
    std::thread::scope(|scope| {
        let done = to.clone();
        scope.spawn(move || {
            let mut lines = Lines {
                to: Mutex::new(to),
                last: Instant::now(),
            };
            let report = drive(request, &mut lines);
            let _ = done.send(Told::Done(Box::new(report)));
        });
        // The first error of the progress callable: the solve is stopped as by an interrupt
        // (its work kept) and the error raised once it has stopped.
        let mut failed = None;
        loop {
            match py.detach(|| from.lock().expect("never poisoned").recv_timeout(POLL)) {
                Ok(Told::Line(line)) => {
                    // Lines may come faster than the poll times out: look at the signals
                    // after each one too, so that a Ctrl-C is never left waiting.
                    if let Err(e) = show(py, progress, &line).and_then(|()| py.check_signals()) {
                        session::interrupt();
                        // Ctrl-C while the callable ran is the interrupt, not its failure.
                        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
                            failed.get_or_insert(e);
                        }
                    }
                }
                Ok(Told::Done(report)) => {
                    return match failed {
                        Some(e) => Err(e),
                        None => (*report).map_err(stud_error),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    // A KeyboardInterrupt (or any signal handler's error) stops the solve as
                    // Ctrl-C does; its report says so, and is raised as the interrupt.
                    if py.check_signals().is_err() {
                        session::interrupt();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(stud_error(anyhow::anyhow!(
                        "the solve ended without a report"
                    )))
                }
            }
        }
    })
}

/// Shows a progress line: on stderr for `True`, to a callable, or not at all.
fn show(py: Python<'_>, progress: Option<&Bound<'_, PyAny>>, line: &str) -> PyResult<()> {
    let Some(p) = progress else { return Ok(()) };
    if p.is_callable() {
        p.call1((line,))?;
    } else if p.is_truthy()? {
        py.import("sys")?
            .getattr("stderr")?
            .call_method1("write", (format!("{line}\n"),))?;
    }
    Ok(())
}
