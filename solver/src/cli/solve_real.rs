//! `stud solve` for the real games (those the public tree cannot walk): deal-sampled CFR+ (or linear CFR) on the
//! betting tree, with the resource estimate first, progress, checkpoints and `--resume`.

use super::solve::{outputs, Args, Bar};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Bucketing, Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{bail, Context, Result};
use solver::best_response::Exploitability;
use solver::cfr::Algorithm;
use solver::deal_cfr::DealSolver;
use solver::ladder::{deal_exploitability, lift_target};
use solver::memory::{available_memory, status_bytes, Estimate};
use solver::session::deal::{estimate, probe_deal_seconds, write_strategy};
use solver::session::{self, Every, Flow, Observer, Plan, Problem, Progress};
use solver::strategy_file::Width;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The member of the CFR family when `--algorithm` is not given: CFR+. Linear CFR beat it head
/// to head in 7stud at equal deals but was more exploitable on the yardstick at every count
/// measured (docs/solver.md, "Schedules"), so it is an option, not the default.
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::CfrPlus;
/// Deals per iteration when `--batch` is not given.
pub const DEFAULT_BATCH: usize = 256;
/// How long a solve runs when neither `--iterations` nor `--time` is given: with the bucketing
/// cached and its first street tabulated, about half an hour in all for 7stud `default`.
pub const DEFAULT_TIME: Duration = Duration::from_secs(28 * 60);
/// How often a checkpoint is written when `--checkpoint-every` is not given.
pub const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(5 * 60);

/// The plan of a sampled solve (deal-sampled, split over ranks, or multiway sampled):
/// `--iterations` and `--time` (by default [`DEFAULT_TIME`] when neither is given), and a
/// checkpoint every `--checkpoint-every` of wall time.
pub(super) fn timed_plan(args: &Args, ckpt: &Path) -> Plan {
    Plan {
        iterations: args.iterations,
        time: match (args.iterations, args.time) {
            (None, None) => Some(DEFAULT_TIME),
            (_, t) => t,
        },
        every: Every::Time(
            args.deal
                .checkpoint_every
                .unwrap_or(DEFAULT_CHECKPOINT_EVERY),
        ),
        checkpoint: ckpt.to_path_buf(),
    }
}
/// The strategy file's probability width: in `u8`, a `default` 7stud strategy is 19 MiB, under
/// the 32 MiB of a shipped file.
pub(super) const WIDTH: Width = Width::U8;

/// Runs `stud solve` on a real game, or on a walkable game with `--solver deal` (whose
/// exploitability is then measured at the end: lifted onto its lossless public tree).
pub fn run(args: &Args, def: &GameDef) -> Result<()> {
    let walkable = Tree::check_supported(def).is_ok();
    let size = check_flags(args, def, walkable)?;
    let batch = args.deal.batch.unwrap_or(DEFAULT_BATCH);
    let (out, ckpt) = outputs(args, "-hu", "strat")?;
    let quiet = args.output.json;
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let start = Instant::now();
    let pool = args.pool.start()?;
    let (mut solver, problem, bucketing, est, probe) =
        pool.install(|| prepare(args, def, &size, batch, &say))?;
    if args.resume {
        session::resume(&ckpt, &mut solver, &problem)?;
        say(format!(
            "resumed from {} at iteration {}",
            ckpt.display(),
            solver.iterations
        ));
    }
    let plan = timed_plan(args, &ckpt);
    let mut watch = Watch {
        bar: Bar::new(quiet, &plan),
        json: quiet,
        unit: "deals",
        batch,
        start,
        checkpoint: &ckpt,
    };
    let ran = pool.install(|| session::run(&mut solver, &problem, &plan, &mut watch))?;
    watch.bar.finish();
    let exact = if walkable {
        say(format!(
            "measuring: lifting the strategy onto the lossless public tree of {}",
            args.game.name()
        ));
        pool.install(|| measure_lifted(&solver, def))
    } else {
        Err("not computable for this game; use stud eval lbr".into())
    };
    if let (true, Err(why)) = (walkable, &exact) {
        say(format!("{why}; the strategy is written without it"));
    }
    let kept = solver::checkpoint::write_results(
        &ckpt,
        &out,
        super::solve::keeps_checkpoint(args, &ran),
        || session::save(&ckpt, &solver, &problem),
        || write_strategy(&out, &solver, def, &bucketing, WIDTH, exact.clone().ok()),
    )?;
    let end = End {
        secs: start.elapsed().as_secs_f64(),
        iter_secs: ran.iterating.as_secs_f64().max(1e-9),
        ran: ran.iterations,
        probe,
        threads: pool.current_num_threads(),
        est,
        exact,
        kept,
        out: &out,
        walkable,
    };
    report(args, &solver, &problem, &end);
    super::solve::finish(&ran, solver.iterations, &ckpt, &out)
}

/// Refuses the flags of the walked solver and an abstraction the deal-sampled one cannot use;
/// returns the bucketing's size.
pub(super) fn check_flags(args: &Args, def: &GameDef, walkable: bool) -> Result<Size> {
    if let Some(flag) = args.tree.given() {
        bail!(
            "{flag}: {} is solved by deal-sampled CFR, {}; use --iterations or --time, and \
             --checkpoint-every",
            args.game.name(),
            if walkable {
                "whose exploitability is measured once, at the end"
            } else {
                "whose exploitability is not computable here (use stud eval lbr)"
            }
        );
    }
    let spec = args.abstraction.as_deref().unwrap_or("default");
    if spec == "lossless" && walkable {
        bail!(
            "--abstraction lossless: the deal-sampled solver needs a bucketing; --solver tree \
             solves {} without one",
            args.game.name()
        );
    }
    if spec == "lossless" {
        bail!(
            "--abstraction lossless: {} is far too large to solve without a card abstraction; \
             use {SIZES}",
            args.game.name()
        );
    }
    if args.deal.batch == Some(0) {
        bail!("--batch must be at least 1");
    }
    if args.deal.tremble.is_some() {
        bail!(
            "--tremble: {} is heads-up; the other seats' tremble is the sampling solver's of \
             three or more seats",
            args.game.name()
        );
    }
    if args.deal.view.is_some() {
        bail!(
            "--view: {} is heads-up; a seat's view of the other seats' cards is the sampling \
             solver's of three or more seats",
            args.game.name()
        );
    }
    if args.deal.strategy.is_some() {
        bail!(
            "--strategy: {} is heads-up; its file plays the average strategy, which CFR's \
             guarantees are about (the choice is the sampling solver's of three or more seats)",
            args.game.name()
        );
    }
    if args.deal.within_street.is_some() {
        bail!(
            "--within-street: {} is heads-up; what a decision recalls of its street's betting \
             is the sampling solver's choice for three or more seats",
            args.game.name()
        );
    }
    Size::parse(spec, def.streets.len()).with_context(|| format!("--abstraction {spec} ({SIZES})"))
}

/// The betting tree of a deal-sampled solve on `bucketing` (read from `file`), with the
/// bucketing's first street tabulated first (said) and `--recall`: the tree, the views
/// tabulated and the recall. The single process and each rank of a split solve build it here.
pub(super) fn betting_tree(
    args: &Args,
    def: &GameDef,
    bucketing: &mut Bucketing,
    file: &Path,
    say: &dyn Fn(String),
) -> Result<(BettingTree, usize, Recall)> {
    let table = bucketing.precompute_first_street();
    say(format!(
        "card abstraction {} from {} (first street tabulated: {table} views)",
        bucketing.name(),
        file.display()
    ));
    let buckets: Vec<u32> = (0..def.streets.len())
        .map(|s| bucketing.buckets(s))
        .collect();
    let recall = args.deal.recall.unwrap_or_default();
    let tree = BettingTree::build(
        def,
        BettingAbstraction::for_game(def),
        &recall.keys(&buckets),
    )
    .with_context(|| format!("the betting tree of {}", args.game.name()))?;
    Ok((tree, table, recall))
}

/// The bucketing (built or read from `--abstraction-dir`, its first street tabulated), the
/// betting tree, the estimate (printed, then checked against the memory available) and the
/// probe of the seconds per deal; then the solver, allocated.
#[allow(clippy::type_complexity)]
fn prepare(
    args: &Args,
    def: &GameDef,
    size: &Size,
    batch: usize,
    say: &dyn Fn(String),
) -> Result<(DealSolver, Problem, Arc<Bucketing>, Estimate, f64)> {
    let (mut bucketing, file, ..) = super::abstraction::load_or_build(
        def,
        size,
        &args.abstraction_dir,
        false,
        args.output.json,
    )?;
    let (tree, table, recall) = betting_tree(args, def, &mut bucketing, &file, say)?;
    let est = estimate(&tree, batch, &bucketing, table, WIDTH);
    let def_arc = Arc::new(def.clone());
    let probe = probe_deal_seconds(&def_arc, &bucketing, batch.min(256), 1)?;
    say(format!(
        "{}: betting tree of {} nodes, {} infosets, {} infoset-actions\n{}\ntime: about {:.3} s \
         per batch of {batch} deals from the bucket lookups alone ({:.0} deals/s, {} threads)",
        args.game.name(),
        tree.nodes.len(),
        est.infosets,
        est.slots,
        est.describe(),
        probe * batch as f64,
        1.0 / probe,
        rayon::current_num_threads()
    ));
    est.check_fits(available_memory(), "use a smaller --abstraction or --batch")?;
    let problem = Problem::deal(def, &bucketing, recall);
    let bucketing = Arc::new(bucketing);
    let mut solver = DealSolver::with_recall(
        def,
        tree,
        Arc::clone(&bucketing),
        recall,
        batch,
        args.random.seed,
    )?;
    solver.set_algorithm(args.algorithm.unwrap_or(DEFAULT_ALGORITHM))?;
    Ok((solver, problem, bucketing, est, probe))
}

/// A walkable game's real exploitability: the strategy lifted onto its lossless public tree
/// (built, and the lift checked to fit, within the memory available now). A tree too big to
/// measure on must not lose the solve: the error says why, and the strategy is written
/// without the figure.
pub(super) fn measure_lifted(solver: &DealSolver, def: &GameDef) -> Result<Exploitability, String> {
    let public =
        lift_target(def, available_memory()).map_err(|e| format!("not measured: {e:#}"))?;
    deal_exploitability(solver, &public).map_err(|e| format!("not measured: {e:#}"))
}

/// What watches a sampled solve: the bar (batches, deals/s or traversals/s, time left), and a
/// JSON line per checkpoint for `--json`.
pub(super) struct Watch<'a> {
    pub(super) bar: Bar,
    pub(super) json: bool,
    /// What an iteration samples `batch` of: "deals", or "traversals" for the multiway solver,
    /// which walks each deal once per seat.
    pub(super) unit: &'static str,
    pub(super) batch: usize,
    /// When the command started (the JSON lines' seconds count the bucketing too).
    pub(super) start: Instant,
    pub(super) checkpoint: &'a Path,
}

impl Watch<'_> {
    /// Units (deals or traversals) per second of iterating.
    fn per_second(&self, p: &Progress) -> f64 {
        p.rate() * self.batch as f64
    }
}

impl<S> Observer<S> for Watch<'_> {
    fn iterated(&mut self, _: &S, p: &Progress) {
        let unit = self.unit;
        let note = format!(", {} {unit}", p.iterations * self.batch as u64);
        let pace = format!("{:.0} {unit}/s", self.per_second(p));
        self.bar.show(p, &pace, &note);
    }

    fn checkpointed(&mut self, _: &S, p: &Progress) -> Result<Flow> {
        if self.json {
            let mut line = serde_json::json!({
                "iterations": p.iterations,
                "seconds": self.start.elapsed().as_secs_f64(),
                "checkpoint": self.checkpoint.display().to_string(),
            });
            line[self.unit] = (p.iterations * self.batch as u64).into();
            line[format!("{}_per_second", self.unit)] = self.per_second(p).into();
            println!("{line}");
        }
        Ok(Flow::Continue)
    }
}

/// What the end of a deal-sampled solve reports.
struct End<'a> {
    secs: f64,
    iter_secs: f64,
    ran: u64,
    probe: f64,
    threads: usize,
    est: Estimate,
    /// The exploitability measured (walkable games), or why there is none.
    exact: Result<Exploitability, String>,
    kept: String,
    out: &'a Path,
    walkable: bool,
}

/// Prints the end of a solve: one JSON object for `--json`, else a few lines.
fn report(args: &Args, solver: &DealSolver, problem: &Problem, end: &End) {
    let batch = solver.batch;
    let card_name = &problem.card_abstraction;
    let deals_per_second = (end.ran * batch as u64) as f64 / end.iter_secs;
    let action_nodes = solver
        .tree
        .nodes
        .iter()
        .filter(|n| n.kind == abstraction::betting_tree::BettingKind::Action)
        .count();
    // An iteration updates, for each deal, the actor's row at every action node (fewer where a
    // subtree is pruned): the (infoset, deal) updates per second at most.
    let updates_per_second = deals_per_second * action_nodes as f64;
    let peak = status_bytes("VmHWM");
    let file_bytes = std::fs::metadata(end.out).map(|m| m.len()).unwrap_or(0);
    let exact = end.exact.as_ref().ok();
    let note = match &end.exact {
        Ok(_) => {
            "exact: the strategy lifted onto the lossless public tree, against its best response"
        }
        Err(why) => why,
    };
    let est = &end.est;
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game.name(),
                "solver": format!("deal-sampled {}", solver.algorithm().name()),
                "abstraction": card_name,
                "batch": batch,
                "seed": args.random.seed,
                "iterations": solver.iterations,
                "deals": solver.iterations * batch as u64,
                "seconds": end.secs,
                "iterate_seconds": end.iter_secs,
                "deals_per_second": deals_per_second,
                "updates_per_second": updates_per_second,
                "probe_deals_per_second": 1.0 / end.probe,
                "threads": end.threads,
                "nodes": solver.tree.nodes.len(),
                "action_nodes": action_nodes,
                "infosets": est.infosets,
                "infoset_actions": est.slots,
                "bytes_per_slot": DealSolver::bytes_per_slot(),
                "estimate": est,
                "estimate_bytes": est.peak(),
                "peak_bytes": peak,
                "exploitability": exact.map(|e| e.chips),
                "exploitability_mbb": exact.map(|e| e.mbb),
                "exploitability_note": note,
                "out": end.out.display().to_string(),
                "file_bytes": file_bytes,
                "checkpoint": end.kept,
            })
        );
        return;
    }
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "{} deal-sampled {} ({card_name}): {} iterations of {batch} deals in {:.1}s \
         ({deals_per_second:.0} deals/s while iterating)\nexploitability: {}\npeak memory {} \
         (estimated {:.1} MiB{})\nstrategy: {} ({:.1} MiB)\ncheckpoint: {}",
        args.game.name(),
        solver.algorithm().name(),
        solver.iterations,
        end.secs,
        match exact {
            Some(e) => format!("{:.6} chips/game ({:.3} mbb/game), {note}", e.chips, e.mbb),
            None => note.to_string(),
        },
        peak.map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p))),
        mib(est.peak()),
        if end.walkable {
            " before the lossless tree"
        } else {
            ""
        },
        end.out.display(),
        mib(file_bytes as usize),
        end.kept
    );
}
