//! How `stud solve` shows a solve: [`Console`], the library's [`Watcher`] drawn on standard
//! error (a progress bar of the bucketing's build and of the iterations, the solver's lines)
//! and the checkpoints' JSON lines on standard output for `--json`; and the signals that end a
//! solve after its iteration in progress.

use abstraction::bucketing::{Phase, Progress as Building};
use abstraction::rules::GameDef;
use solver::session::{self, Plan, Progress};
use solver::solve::{Tick, Watcher};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a solve's progress is printed as a line into a log.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The command line's watcher: quiet (no lines, no bars) for `--json` and on the ranks of a
/// split solve but the first; the checkpoints' JSON lines printed with `json`. With `json` the
/// bars are still drawn where standard error is a terminal, as every deals bar is
/// ([`super::deals_bar`]): the answer is on standard output, and an hours-long solve is not
/// silent; a pipe or a log gets nothing but the JSON.
pub struct Console {
    quiet: bool,
    json: bool,
    /// The progress bar of a bucketing being built.
    building: Mutex<Option<indicatif::ProgressBar>>,
    /// The progress bar of the session loop.
    bar: Option<Bar>,
}

impl Console {
    /// A console quiet when `quiet`, printing JSON lines when `json`.
    pub fn new(quiet: bool, json: bool) -> Console {
        Console {
            quiet,
            json,
            building: Mutex::new(None),
            bar: None,
        }
    }

    /// Whether the bars are drawn: not quiet, or printing JSON with standard error a terminal.
    fn bars(&self) -> bool {
        use std::io::IsTerminal;
        !self.quiet || (self.json && std::io::stderr().is_terminal())
    }
}

impl Watcher for Console {
    fn say(&self, line: &str) {
        if self.quiet {
            return;
        }
        // Above the bar, which is drawn again below it.
        match &self.bar {
            Some(bar) => bar.bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    fn building(&self, def: &GameDef, p: Building) {
        let mut bar = self.building.lock().unwrap_or_else(|e| e.into_inner());
        let bar = bar.get_or_insert_with(|| {
            let bar = if !self.bars() {
                indicatif::ProgressBar::hidden()
            } else {
                indicatif::ProgressBar::new(1)
            };
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg:>28} [{bar:30}] {pos}/{len} {elapsed}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        let phase = match p.phase {
            Phase::Features => "features",
            Phase::Clustering => "k-means",
        };
        bar.set_message(format!(
            "{} ({}/{}) {phase}",
            def.street_name(p.street),
            p.street + 1,
            p.streets
        ));
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    }

    fn built(&self) {
        let mut bar = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bar) = bar.take() {
            bar.finish_and_clear();
        }
    }

    fn started(&mut self, plan: &Plan) {
        self.bar = Some(Bar::new(self.bars(), !self.quiet, plan));
    }

    fn iterated(&mut self, tick: &Tick<'_>) {
        if let Some(bar) = &mut self.bar {
            bar.show(tick.progress, &tick.pace, &tick.note);
        }
    }

    fn checkpointed(&mut self, line: &serde_json::Value) {
        if self.json {
            println!("{line}");
        }
    }

    fn finished(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.bar.finish_and_clear();
        }
    }
}

/// The progress bar of a solve session on standard error: of the iterations to run when
/// `--iterations` is given, else of the seconds of `--time`, else a spinner; its message says
/// the iterations, their pace, the time left and what the solver adds. Hidden when quiet.
/// Where standard error is not a terminal (a solve run in the background into a log), no bar
/// can be drawn, so the same message is printed as a line once every [`LOG_EVERY`].
struct Bar {
    bar: indicatif::ProgressBar,
    by_iterations: bool,
    /// When the progress goes to a log rather than a bar: when the last line was printed
    /// (none yet: the first progress is printed at once).
    logged: Option<Option<Instant>>,
}

impl Bar {
    /// The bar of `plan`, drawn when `drawn`; its lines printed into a log when `lines`.
    fn new(drawn: bool, lines: bool, plan: &Plan) -> Bar {
        let len = plan.iterations.or(plan.time.map(|t| t.as_secs()));
        let bar = match (drawn, len) {
            (false, _) => indicatif::ProgressBar::hidden(),
            (true, Some(n)) => indicatif::ProgressBar::new(n),
            (true, None) => indicatif::ProgressBar::new_spinner(),
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {msg}")
                .expect("a valid template"),
        );
        use std::io::IsTerminal;
        let to_log = lines && !std::io::stderr().is_terminal();
        Bar {
            bar,
            by_iterations: plan.iterations.is_some() || plan.time.is_none(),
            logged: to_log.then_some(None),
        }
    }

    /// Shows `p`, with `pace` (the iterations per second in the solver's own units) and `note`.
    fn show(&mut self, p: &Progress, pace: &str, note: &str) {
        self.bar.set_position(if self.by_iterations {
            p.iterations
        } else {
            p.elapsed.as_secs()
        });
        let left = p.left.map_or(String::new(), |l| {
            format!(", {} left", indicatif::HumanDuration(l))
        });
        let plural = if p.iterations == 1 { "" } else { "s" };
        let message = format!("{} iteration{plural}, {pace}{left}{note}", p.iterations);
        if let Some(last) = &mut self.logged {
            if last.is_none_or(|t| t.elapsed() >= LOG_EVERY) {
                eprintln!("[{}] {message}", indicatif::FormattedDuration(p.elapsed));
                *last = Some(Instant::now());
            }
        }
        self.bar.set_message(message);
    }
}

/// Makes SIGINT (Ctrl-C) and SIGTERM end a solve after its iteration in progress
/// ([`session::interrupt`]): the strategy so far and the checkpoint are written, so that nothing
/// since the last periodic checkpoint is lost. A second signal ends the process at once, as
/// does one that comes before the iterations begin (nothing to save yet).
pub fn stop_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(signal: libc::c_int) {
            const SAID: &[u8] = b"\nstopping after this iteration to write the strategy and the \
                                  checkpoint (again to quit at once)\n";
            // SAFETY: write(2), signal(2) and raise(3) are async-signal-safe; SAID outlives
            // the call.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                if !session::solving() {
                    // Nothing solved yet (a bucketing or a tree being built): quit now.
                    libc::raise(signal);
                    return;
                }
                session::interrupt();
                libc::write(2, SAID.as_ptr().cast(), SAID.len());
            }
        }
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores an atomic, writes to standard error and restores the
        // default disposition, all async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
    }
}
