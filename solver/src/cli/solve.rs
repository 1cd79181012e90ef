//! `stud solve`: solve a game with the CFR family, with checkpoints and resume.

use abstraction::multiway_betting::WithinStreet;
use abstraction::multiway_deal::MultiwayView;
use abstraction::named::Named;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use solver::cfr::{Algorithm, Sampling, Solver};
use solver::checkpoint;
use solver::ladder::{measure, Measure};
use solver::memory::{available_memory, status_bytes, Estimate};
use solver::multiway::sampled::Played;
use solver::session::{
    self, build_tree, Abstractions, Every, Flow, Observer, Plan, Problem, Progress, Ran, ADVICE,
};
use solver::strategy_file;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `stud solve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  stud solve        # heads-up 7stud, default abstraction, about 30 minutes: \
                  solves/7stud-hu.strat\n  \
                  stud solve --game razz --abstraction small --time 10m --threads 2\n  \
                  stud solve --game 7stud --abstraction tiny --iterations 50 --batch 256 --json\n  \
                  stud solve --game 7stud --time 60m --resume   # extend solves/7stud-hu.ckpt (kept by --keep-checkpoint, or left by an interruption)\n  \
                  stud solve --game leduc --iterations 1000 --out leduc.strat\n  \
                  stud solve --game ministud --target-exploitability 0.001 --threads 2 --json\n  \
                  stud solve --game ministud --time 10m --every 50\n  \
                  stud solve --game ministud --iterations 2000 --resume   # after an interruption\n  \
                  stud solve --game ministud --abstraction 4 --iterations 300 --json\n  \
                  stud solve --game ministud --sample 3 --seed 7 --time 60s --every 100\n  \
                  stud solve --game yardstud --solver deal --abstraction 8 --iterations 400\n  \
                  stud solve --game kuhn-3p --iterations 1000 --out kuhn3.json   # three players\n  \
                  stud solve --game 7stud-3p --abstraction tiny --time 5m   # real stud three-handed\n  \
                  stud solve --game 7stud-3p --abstraction tiny --view best-opponent --time 5m   # the first files' view\n  \
                  stud solve --game 7stud-5p --abstraction tiny --within-street position --time 5m   # rows by betting position\n\n\
                  Exploitability is NashConv / 2 in chips per game (and milli-big-bets: 1 mbb = \
                  0.001 big bets).\n\
                  With a bucketing abstraction the abstract game is solved and the strategy is \
                  measured twice: in the abstract game\n(abstract_exploitability, the one \
                  --target-exploitability stops on) and in the real game, against an exact best \
                  response\nthat tells every private hand apart (exploitability, the one the \
                  strategy file records).\nA checkpoint of the full solver state is written atomically \
                  to OUT with the extension .ckpt every --every iterations and at the end;\n\
                  --resume continues from it and ends bit-identical to an uninterrupted run.\n\n\
                  The real games (7stud, stud8, razz, 5stud: several down cards) are solved by \
                  mini-batch deal-sampled CFR+ on the betting tree\n(docs/solver.md): the \
                  resources are estimated and checked before allocating, the bucketing is built \
                  or read from\n--abstraction-dir, progress shows batches, deals/s and the time \
                  left; their exploitability is not computable here (use\nstud eval lbr). Without \
                  --iterations or --time they stop after --time 28m. --solver deal runs that \
                  solver on a walkable game too\n(the yardstick of docs/ladder.md): its strategy \
                  is then lifted onto the lossless public tree and its exploitability measured \
                  exactly.\n\n\
                  A game of three to eight seats (kuhn-Np, leduc-Np, tristud) is solved exactly \
                  on its whole game tree (docs/multiway.md): NashConv (what each seat gains by \
                  deviating alone,\nsummed) is measured every --every iterations and stops \
                  --target-exploitability; the strategy is written as a JSON policy. Real stud at \
                  three to eight seats (7stud-3p, razz-4p, ...) is solved by external-sampling \
                  MCCFR\non an N-seat betting abstraction with the heads-up bucketing (by default a \
                  bucketing per number of live seats of views of every seat's up cards, --view; --batch \
                  traversals per iteration,\n--checkpoint-every); its NashConv is not computable."
)]
pub struct Args {
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// tree: the exact solver on the public tree (the walkable games: kuhn, leduc, ministud,
    /// yardstud); deal: deal-sampled CFR+ on the betting tree (the real games' solver, also on a
    /// walkable game, where its exploitability is then measured exactly). Default: tree when
    /// the game is walkable, else deal.
    #[arg(long, value_enum)]
    pub solver: Option<super::SolverKind>,
    /// cfr+ (regret matching+, linear averaging), linear (regret matching, regrets and average
    /// weighted by the iteration), dcfr (1.5, 0, 2; walkable games) or cfr. Default: cfr+
    /// (docs/solver.md, "Schedules", measures linear against it).
    #[arg(long, value_parser = Algorithm::parse)]
    pub algorithm: Option<Algorithm>,
    /// Stop after this many iterations in total.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this much time: 90s, 10m, 2h (a bare number is seconds).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// The card abstraction: lossless, a bucketing preset (tiny, small, default, large) or
    /// buckets per street (4, or 4,8). Default: lossless for the walkable games, `default` for
    /// the real games.
    #[arg(long)]
    pub abstraction: Option<String>,
    /// The folder of the bucketing cache files (built there when missing).
    #[arg(long, default_value = "abstractions")]
    pub abstraction_dir: PathBuf,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// `--threads`.
    #[command(flatten)]
    pub pool: super::args::Threads,
    /// The walked solver's own flags.
    #[command(flatten)]
    pub tree: TreeFlags,
    /// The deal-sampled solver's own flags.
    #[command(flatten)]
    pub deal: DealFlags,
    /// Where to write the strategy (default solves/GAME.strat; solves/GAME-hu.strat for the
    /// real games: never over the shipped strategies/ files).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Keep the checkpoint (OUT.ckpt) of a finished solve, to extend it later with --resume
    /// and a larger --iterations or --time; by default it is removed once the strategy is
    /// written (an interrupted solve's checkpoint always stays).
    #[arg(long)]
    pub keep_checkpoint: bool,
    /// Continue from the checkpoint (OUT.ckpt) of an interrupted solve.
    #[arg(long)]
    pub resume: bool,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The flags of the walked solver alone (the public tree): clap refuses them beside
/// [`DealFlags`]. A flag for this back end only is one more field here.
#[derive(clap::Args, Debug)]
#[group(id = "tree_flags", multiple = true, conflicts_with = "deal_flags")]
pub struct TreeFlags {
    /// Stop when the exploitability (chips per game; in the abstract game) is at most this,
    /// measured every --every iterations.
    #[arg(long, value_parser = parse_target)]
    pub target_exploitability: Option<f64>,
    /// Public chance sampling: walk this many children of each chance node below the first
    /// (drawn per iteration; cfr+ and cfr only). Default: full width.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Measure the exploitability and write a checkpoint every this many iterations (default:
    /// a tenth of --iterations, else 100).
    #[arg(long)]
    pub every: Option<u64>,
}

impl TreeFlags {
    /// The first of these flags given, for the refusal when the game goes to the other solver.
    pub fn given(&self) -> Option<&'static str> {
        [
            (
                self.target_exploitability.is_some(),
                "--target-exploitability",
            ),
            (self.sample.is_some(), "--sample"),
            (self.every.is_some(), "--every"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// The flags of the deal-sampled solver alone (the real games' betting tree).
#[derive(clap::Args, Debug)]
#[group(id = "deal_flags", multiple = true)]
pub struct DealFlags {
    /// Real games: deals sampled per iteration.
    #[arg(long)]
    pub batch: Option<usize>,
    /// Real games: what a row recalls of earlier streets beside the street's bucket: none,
    /// order (whether the player acted first on each earlier street: its own earlier actions;
    /// 2^s rows per bucket on street s), buckets (the previous street's bucket), both, last
    /// (whether it acted first on the street before only: 2 rows per bucket past the first
    /// street) (default none; docs/ladder.md measures each).
    #[arg(long, value_parser = abstraction::recall::Recall::parse)]
    pub recall: Option<abstraction::recall::Recall>,
    /// Real games: write a checkpoint this often (90s, 10m; a bare number is seconds), and at
    /// the end.
    #[arg(long, value_parser = parse_duration)]
    pub checkpoint_every: Option<Duration>,
    /// Three or more seats: train against other seats who play a random action with this
    /// probability at each decision (0 to below 1; default 0, plain external sampling;
    /// docs/multiway.md, "Trembling", measures 0.1).
    #[arg(long)]
    pub tremble: Option<f32>,
    /// Three or more seats: how a seat's bucket sees the other seats' up cards: table (the
    /// default: every live opponent's, the folded seats' as dead cards, a bucketing per number
    /// of live seats) or best-opponent (only the best showing live opponent's, the first
    /// multiway files' view; docs/multiway.md, "The card abstraction of an N-seat view",
    /// measures both).
    #[arg(long, value_parser = MultiwayView::parse_or_list)]
    pub view: Option<MultiwayView>,
    /// Three or more seats: what a decision recalls of its street's betting: history (the
    /// default: every order of actions its own decision) or position (the orders that reach the
    /// same betting position share a row: 1.8 to 9.9 times fewer rows for 3 to 8 seats;
    /// docs/multiway.md, "Recall within a street", measures it).
    #[arg(long, value_parser = WithinStreet::parse_or_list)]
    pub within_street: Option<WithinStreet>,
    /// Three or more seats: the strategy the file plays: average (the default) or current
    /// (regret matching of the last regrets, as Pluribus's blueprint past the first round;
    /// docs/multiway.md, "The current strategy", measures both). Only the file depends on it:
    /// a --resume may choose again.
    #[arg(long, value_parser = Played::parse_or_list)]
    pub strategy: Option<Played>,
}

impl DealFlags {
    /// The first of these flags given, for the refusal when the game is walked.
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.batch.is_some(), "--batch"),
            (self.recall.is_some(), "--recall"),
            (self.checkpoint_every.is_some(), "--checkpoint-every"),
            (self.tremble.is_some(), "--tremble"),
            (self.view.is_some(), "--view"),
            (self.within_street.is_some(), "--within-street"),
            (self.strategy.is_some(), "--strategy"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

pub(super) fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let x: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration: use e.g. 90s, 10m or 2h"))?;
    let secs = match unit {
        "s" => x,
        "m" => x * 60.0,
        "h" => x * 3600.0,
        _ => return Err(format!("{s:?}: the unit must be s, m or h")),
    };
    // Checked: `from_secs_f64` panics past u64::MAX seconds (`--time 99999999999999999999h`).
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("{s:?} is longer than any solve can run: use e.g. 90s, 10m or 2h"))
}

/// A `--target-exploitability`: a positive, finite number of chips per game. NaN compares
/// false with every exploitability and a negative or zero target is never reached, so any of
/// them would make the solve run forever without saying why; infinity is met before it starts.
fn parse_target(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(_) => Err(format!(
            "{s:?}: the target must be a positive, finite number of chips per game, e.g. 0.001"
        )),
        Err(_) => Err(format!("{s:?} is not a number: e.g. 0.001")),
    }
}

/// The stem of the default output name: the preset name or the game file's stem.
fn game_stem(arg: &str) -> String {
    Path::new(arg)
        .file_stem()
        .map_or_else(|| arg.to_string(), |s| s.to_string_lossy().into_owned())
}

/// Where a solve writes its strategy and its checkpoint: `--out`, else
/// `solves/STEM{suffix}.{ext}` (a folder git ignores, so a newcomer's solve never overwrites a
/// shipped file in `strategies/`), and the same with the extension `.ckpt`. The folder is
/// created, and both files are checked to be writable there before any work
/// ([`solver::container::check_writable`]): a long solve must not find out at its end that its
/// output cannot be written. With `--resume`, the checkpoint must be there.
pub(super) fn outputs(args: &Args, suffix: &str, ext: &str) -> Result<(PathBuf, PathBuf)> {
    outputs_of(args, suffix, ext, None)
}

/// [`outputs`] of rank `rank` of `ranks` in a split solve: rank 0 alone checks the strategy
/// file (they would race on its test file), each rank its own checkpoint
/// ([`solver::session::split::rank_checkpoint`]).
pub(super) fn outputs_of(
    args: &Args,
    suffix: &str,
    ext: &str,
    rank: Option<(usize, usize)>,
) -> Result<(PathBuf, PathBuf)> {
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("solves").join(format!("{}{suffix}.{ext}", game_stem(args.game.name())))
    });
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if dir.exists() && !dir.is_dir() {
            bail!("--out: {} is not a folder", dir.display());
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--out: creating {}", dir.display()))?;
    }
    let single = out.with_extension("ckpt");
    let (ckpt, lead) = match rank {
        None => (single, true),
        Some((r, n)) => (
            solver::session::split::rank_checkpoint(&single, r, n),
            r == 0,
        ),
    };
    let check: &[&PathBuf] = if lead { &[&out, &ckpt] } else { &[&ckpt] };
    for path in check {
        solver::container::check_writable(path).context("--out")?;
    }
    if args.resume && !ckpt.exists() {
        bail!("--resume: no checkpoint at {}", ckpt.display());
    }
    Ok((out, ckpt))
}

/// The progress bar of a solve session on standard error: of the iterations to run when
/// `--iterations` is given, else of the seconds of `--time`, else a spinner; its message says
/// the iterations, their pace, the time left and what the solver adds. Hidden for `--json`.
/// Where standard error is not a terminal (a solve run in the background into a log), no bar
/// can be drawn, so the same message is printed as a line once every [`LOG_EVERY`].
pub(super) struct Bar {
    bar: indicatif::ProgressBar,
    by_iterations: bool,
    /// When the progress goes to a log rather than a bar: when the last line was printed
    /// (none yet: the first progress is printed at once).
    logged: Option<std::cell::Cell<Option<std::time::Instant>>>,
}

/// How often a solve's progress is printed as a line into a log.
const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

impl Bar {
    /// The bar of `plan`, hidden when `quiet`.
    pub(super) fn new(quiet: bool, plan: &Plan) -> Bar {
        let len = plan.iterations.or(plan.time.map(|t| t.as_secs()));
        let bar = match (quiet, len) {
            (true, _) => indicatif::ProgressBar::hidden(),
            (false, Some(n)) => indicatif::ProgressBar::new(n),
            (false, None) => indicatif::ProgressBar::new_spinner(),
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {msg}")
                .expect("a valid template"),
        );
        use std::io::IsTerminal;
        let to_log = !quiet && !std::io::stderr().is_terminal();
        Bar {
            bar,
            by_iterations: plan.iterations.is_some() || plan.time.is_none(),
            logged: to_log.then(|| std::cell::Cell::new(None)),
        }
    }

    /// Shows `p`, with `pace` (the iterations per second in the solver's own units) and `note`.
    pub(super) fn show(&self, p: &Progress, pace: &str, note: &str) {
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
        if let Some(last) = &self.logged {
            if last.get().is_none_or(|t| t.elapsed() >= LOG_EVERY) {
                eprintln!("[{}] {message}", indicatif::FormattedDuration(p.elapsed));
                last.set(Some(std::time::Instant::now()));
            }
        }
        self.bar.set_message(message);
    }

    /// Clears the bar once the session is over.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The plan of a solve measured as it goes (walked or multiway): `--iterations` and `--time`,
/// and a checkpoint with a measurement every `--every` iterations (by default a tenth of
/// `--iterations`, else 100).
pub(super) fn measured_plan(args: &Args, ckpt: &Path) -> Plan {
    let every = args
        .tree
        .every
        .unwrap_or_else(|| args.iterations.map_or(100, |n| (n / 10).max(1)))
        .max(1);
    Plan {
        iterations: args.iterations,
        time: args.time,
        every: Every::Iterations(every),
        checkpoint: ckpt.to_path_buf(),
    }
}

/// Makes SIGINT (Ctrl-C) and SIGTERM end a solve after its iteration in progress
/// ([`session::interrupt`]): the strategy so far and the checkpoint are written, so that nothing
/// since the last periodic checkpoint is lost. A second signal ends the process at once, as
/// does one that comes before the iterations begin (nothing to save yet).
fn stop_on_signals() {
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

/// Whether a solve that `ran` keeps its checkpoint: asked to (`--keep-checkpoint`), or
/// interrupted, so that `--resume` goes on from where it stopped.
pub(super) fn keeps_checkpoint(args: &Args, ran: &Ran) -> bool {
    args.keep_checkpoint || ran.interrupted
}

/// After an interrupted solve's results are written: the error that says so, where they are
/// and how to go on (the exit status tells a script that the solve did not finish).
pub(super) fn finish(ran: &Ran, iterations: u64, ckpt: &Path, out: &Path) -> Result<()> {
    if ran.interrupted {
        bail!(
            "interrupted after {iterations} iterations: the strategy so far is in {} and the \
             solve is kept in {}; run the same command with --resume to go on",
            out.display(),
            ckpt.display()
        );
    }
    Ok(())
}

/// Runs `stud solve`: for three or more seats the sampled multiway solver (the real games, or
/// `--abstraction`) or the exact one, the walked solver for a walkable heads-up game, else (or
/// with `--solver deal`) the deal-sampled one.
pub fn run(args: Args) -> Result<()> {
    stop_on_signals();
    let def = args.game.load()?;
    let walkable = abstraction::tree::Tree::check_supported(&def);
    #[cfg(feature = "mpi")]
    if solver::mpi::launched() {
        use solver::deal_cfr::split::Exchange;
        let mpi = solver::mpi::Mpi::init()?;
        let deal = matches!(args.solver, Some(super::SolverKind::Deal))
            || (args.solver.is_none() && walkable.is_err());
        if mpi.ranks() > 1 {
            if !deal || def.seats > 2 {
                bail!(
                    "{} ranks: only the deal-sampled solver is split over MPI ranks (--solver \
                     deal, heads-up); run the walked and multiway solvers without mpirun",
                    mpi.ranks()
                );
            }
            return super::solve_split::run(&args, &def, mpi);
        }
    }
    if def.seats > 2 {
        if super::solve_sampled::takes(&def, args.abstraction.as_deref()) {
            return super::solve_sampled::run(&args, &def);
        }
        return super::solve_multiway::run(&args, &def);
    }
    match args.solver {
        Some(super::SolverKind::Deal) => return super::solve_real::run(&args, &def),
        None if walkable.is_err() => return super::solve_real::run(&args, &def),
        Some(super::SolverKind::Tree) => walkable.with_context(|| {
            format!(
                "--solver tree: {} cannot be walked (use --solver deal, the default for it)",
                args.game.name()
            )
        })?,
        None => {}
    }
    walked(&args, &def)
}

/// Solves a walkable game on its public tree.
fn walked(args: &Args, def: &GameDef) -> Result<()> {
    if args.iterations.is_none() && args.time.is_none() && args.tree.target_exploitability.is_none()
    {
        bail!(
            "{}: say when to stop, with --iterations, --time or --target-exploitability",
            args.game.name()
        );
    }
    if let Some(flag) = args.deal.given() {
        bail!(
            "{flag} is for the real games (deal sampling); {} is walked: use --every",
            args.game.name()
        );
    }
    let (out, ckpt) = outputs(args, "", "strat")?;
    let pool = args.pool.start()?;
    let (mut solver, abs, est) = pool.install(|| prepare(args, def))?;
    let lossless = abs.cards.is_lossless();
    let problem = Problem::walked(def, &abs);
    if args.resume {
        session::resume(&ckpt, &mut solver, &problem)?;
    }
    let plan = measured_plan(args, &ckpt);
    let mut watch = Watch {
        bar: Bar::new(args.output.json, &plan),
        json: args.output.json,
        lossless,
        target: args.tree.target_exploitability,
        last: None,
        note: String::new(),
    };
    let start = Instant::now();
    let ran = pool.install(|| session::run(&mut solver, &problem, &plan, &mut watch))?;
    watch.bar.finish();
    let m = match watch.last {
        Some((n, m)) if n == solver.iterations => m,
        _ => pool.install(|| measure(&solver, lossless)),
    };
    let kept = checkpoint::write_results(
        &ckpt,
        &out,
        keeps_checkpoint(args, &ran),
        || session::save(&ckpt, &solver, &problem),
        || {
            let e = Some(m.real_game);
            strategy_file::write(&out, &solver, def, &abs.card_name(), abs.betting, e)
        },
    )?;
    let end = End {
        secs: start.elapsed().as_secs_f64(),
        iterating: ran.iterating,
        m,
        threads: pool.current_num_threads(),
        est,
        kept,
        out: &out,
        lossless,
    };
    report(args, &solver, &abs, &end);
    finish(&ran, solver.iterations, &ckpt, &out)
}

/// The card abstraction (built or read from `--abstraction-dir` for a bucketing), the public
/// tree, the estimate (printed, then checked against the memory available), then the solver,
/// allocated, with its chance sampling.
fn prepare(args: &Args, def: &GameDef) -> Result<(Solver, Abstractions, Estimate)> {
    let abstraction = args.abstraction.as_deref().unwrap_or("lossless");
    let cards = super::abstraction::card_abstraction(
        def,
        abstraction,
        &args.abstraction_dir,
        args.output.json,
    )?;
    let abs = Abstractions::with_cards(def, cards);
    let memory = available_memory();
    let (tree, est) = build_tree(def, &abs, memory)?;
    if !args.output.json {
        eprintln!(
            "{}: {} nodes, {} infosets, {} infoset-actions\n{}",
            args.game.name(),
            tree.nodes.len(),
            est.infosets,
            est.slots,
            est.describe()
        );
    }
    est.check_fits(memory, ADVICE)?;
    let mut solver = Solver::new(tree, args.algorithm.unwrap_or(Algorithm::CfrPlus));
    if let Some(batch) = args.tree.sample {
        solver
            .sample(Sampling {
                batch,
                seed: args.random.seed,
            })
            .map_err(|e| anyhow::anyhow!("--sample {batch}: {e}"))?;
    }
    Ok((solver, abs, est))
}

/// What the end of a walked solve reports.
struct End<'a> {
    secs: f64,
    iterating: Duration,
    /// The exploitability at the end.
    m: Measure,
    threads: usize,
    est: Estimate,
    kept: String,
    out: &'a Path,
    lossless: bool,
}

/// Prints the end of a walked solve: one JSON object for `--json`, else a few lines.
fn report(args: &Args, solver: &Solver, abs: &Abstractions, end: &End) {
    let (m, est) = (&end.m, &end.est);
    let e = m.real_game;
    let algorithm = solver.algorithm.name();
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game.name(),
                "algorithm": algorithm,
                "abstraction": abs.card_name(),
                "sample": args.tree.sample,
                "iterations": solver.iterations,
                "seconds": end.secs,
                "iterate_seconds": end.iterating.as_secs_f64(),
                "exploitability": e.chips,
                "exploitability_mbb": e.mbb,
                "abstract_exploitability": m.abstract_game.chips,
                "abstract_exploitability_mbb": m.abstract_game.mbb,
                "value_0": e.value_0,
                "out": end.out.display().to_string(),
                "checkpoint": end.kept,
                "threads": end.threads,
                "nodes": solver.tree.nodes.len(),
                "infoset_actions": solver.tree.num_slots,
                "estimate": est,
                "estimate_bytes": est.peak(),
                "peak_bytes": status_bytes("VmHWM"),
            })
        );
        return;
    }
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "{} {algorithm} ({}): {} iterations in {:.1}s, exploitability {:.6} chips/game ({:.3} \
         mbb/game), seat 0 value {:.6}\npeak memory {} (estimated {:.1} MiB)\nstrategy: \
         {}\ncheckpoint: {}",
        args.game.name(),
        abs.card_name(),
        solver.iterations,
        end.secs,
        e.chips,
        e.mbb,
        e.value_0,
        status_bytes("VmHWM").map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p))),
        mib(est.peak()),
        end.out.display(),
        end.kept
    );
    if !end.lossless {
        println!(
            "in the abstract game: exploitability {:.6} chips/game ({:.3} mbb/game)",
            m.abstract_game.chips, m.abstract_game.mbb
        );
    }
}

/// What watches a walked solve: the bar, and at each checkpoint the exploitability measured
/// (in the real game and, for a bucketing, in the abstract one), printed as a JSON line for
/// `--json`, and checked against `--target-exploitability`.
struct Watch {
    bar: Bar,
    json: bool,
    lossless: bool,
    target: Option<f64>,
    /// The last measurement and the iterations it was made at: reused at the end if no
    /// iteration ran since.
    last: Option<(u64, Measure)>,
    /// The bar's words for the last measurement.
    note: String,
}

impl Observer<Solver> for Watch {
    fn iterated(&mut self, _: &Solver, p: &Progress) {
        self.bar
            .show(p, &format!("{:.1} it/s", p.rate()), &self.note);
    }

    fn checkpointed(&mut self, solver: &Solver, p: &Progress) -> Result<Flow> {
        let m = measure(solver, self.lossless);
        let e = m.abstract_game;
        if self.json {
            println!(
                "{}",
                serde_json::json!({
                    "iterations": solver.iterations,
                    "seconds": p.elapsed.as_secs_f64(),
                    "exploitability": m.real_game.chips,
                    "exploitability_mbb": m.real_game.mbb,
                    "abstract_exploitability": e.chips,
                })
            );
        }
        self.note = format!(
            ", exploitability {:.6} ({:.3} mbb), abstract game {:.6}",
            m.real_game.chips, m.real_game.mbb, e.chips
        );
        self.last = Some((solver.iterations, m));
        Ok(match self.target {
            Some(x) if e.chips <= x => Flow::Stop,
            _ => Flow::Continue,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_duration, parse_target};
    use std::time::Duration;

    #[test]
    fn targets_are_positive_and_finite() {
        assert_eq!(parse_target("0.001"), Ok(0.001));
        for bad in ["nan", "NaN", "inf", "-inf", "-0.1", "0", "x"] {
            assert!(parse_target(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("10x").unwrap_err().contains("unit"));
        assert!(parse_duration("m").unwrap_err().contains("not a duration"));
        assert!(parse_duration("99999999999999999999999h")
            .unwrap_err()
            .contains("longer than any solve"));
    }
}
