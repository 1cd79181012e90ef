//! `stud solve` for real stud at three to eight seats: external-sampling MCCFR
//! (`solver::multiway::sampled`) on the N-seat betting abstraction with the game's heads-up
//! bucketing (and with `--view table` one per number of live seats), with the resource
//! estimate first, progress, checkpoints and `--resume`.

use super::solve::{outputs, Args, Bar};
use super::solve_real::{timed_plan, Watch};
use abstraction::bucketing::{Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayFacts, MultiwayView};
use abstraction::named::Named;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use solver::cfr::Algorithm;
use solver::memory::{available_memory, status_bytes, Estimate};
use solver::multiway::sampled::SampledSolver;
use solver::session::sampled::{betting, estimate, write_strategy, ADVICE};
use solver::session::{self, Problem};
use std::sync::Arc;
use std::time::Instant;

/// The member of the CFR family when `--algorithm` is not given: linear CFR, as Pluribus'
/// MCCFR (regret matching+ clamps every sampled update at zero, so noise keeps bad actions'
/// regrets near zero instead of letting them fall away).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::Linear;
/// The view of the table when `--view` is not given: the table view, by measurement
/// (docs/multiway.md, "The card abstraction of an N-seat view": on doorstud its NashConv is
/// 0.59 against 0.88 at 10^6 traversals; in 7stud-3p it beats the best-opponent view head to
/// head at equal traversals).
pub const DEFAULT_VIEW: MultiwayView = MultiwayView::Table;
/// Traversals per iteration per seat when `--batch` is not given.
pub const DEFAULT_BATCH_PER_SEAT: usize = 64;
/// The most nodes the betting abstraction may have, whatever the memory: past it a solve is
/// refused before its trees are built further.
const MAX_NODES: usize = 50_000_000;

/// Whether `stud solve` takes `def` (three or more seats) to the sampled solver: a game whose
/// heads-up form the public tree cannot walk (several down cards: the real games), or any game
/// asked with a card abstraction other than lossless.
pub fn takes(def: &GameDef, abstraction: Option<&str>) -> bool {
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    abstraction.is_some_and(|a| a != "lossless")
        || abstraction::tree::Tree::check_supported(&heads_up).is_err()
}

/// Runs `stud solve` on a game of three or more seats with the sampled solver.
pub(super) fn run(args: &Args, def: &GameDef) -> Result<()> {
    let size = check_flags(args, def)?;
    let seats = def.seats as usize;
    let batch = args.deal.batch.unwrap_or(DEFAULT_BATCH_PER_SEAT * seats);
    // Refused before any tree is built: a table the deck cannot deal.
    MultiwayFacts::new(def).with_context(|| args.game.name().to_string())?;
    let (out, ckpt) = outputs(args, "", "strat")?;
    let quiet = args.output.json;
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let start = Instant::now();
    let pool = args.pool.start()?;
    let view = args.deal.view.unwrap_or(DEFAULT_VIEW);
    let buckets = pool
        .install(|| load_buckets(def, &size, view, &args.abstraction_dir, quiet))
        .with_context(|| {
            format!(
                "--abstraction {}: {} at {seats} seats goes with it to the sampling solver, \
                 which buckets stud views (down and up cards); a walkable game without it is \
                 solved exactly",
                args.abstraction.as_deref().unwrap_or("default"),
                args.game.name()
            )
        })?;
    let memory = available_memory();
    let max_nodes = memory.map_or(MAX_NODES, |m| (m / 512).min(MAX_NODES));
    let within_street = args.deal.within_street.unwrap_or_default();
    let tree = betting(def, within_street, max_nodes).with_context(|| {
        format!(
            "the betting abstraction of {} ({seats} seats; {ADVICE})",
            args.game.name()
        )
    })?;
    // Measured after the betting is built: the tree, and what its building's position maps
    // leave in the allocator (7stud-7p `tiny`: 176 MiB resident against 95 counted).
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let est = estimate(&tree, &buckets, batch, resident);
    let sizes = tree.street_sizes();
    say(format!(
        "{} ({seats} seats): betting abstraction of {} nodes (decisions per street {:?}), {} \
         infosets, {} infoset-actions\n{}",
        args.game.name(),
        tree.nodes.len(),
        sizes.iter().map(|s| s.0).collect::<Vec<_>>(),
        est.infosets,
        est.slots,
        est.describe()
    ));
    est.check_fits(available_memory(), ADVICE)?;
    let problem = Problem::sampled(def, &buckets, within_street);
    let mut solver = SampledSolver::new(
        def,
        tree,
        Arc::new(buckets),
        args.algorithm.unwrap_or(DEFAULT_ALGORITHM),
        batch,
        args.random.seed,
    )?;
    solver.set_tremble(args.deal.tremble.unwrap_or(0.0))?;
    solver.played = args.deal.strategy.unwrap_or_default();
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
        unit: "traversals",
        batch,
        start,
        checkpoint: &ckpt,
    };
    let ran = pool.install(|| session::run(&mut solver, &problem, &plan, &mut watch))?;
    watch.bar.finish();
    let kept = solver::checkpoint::write_results(
        &ckpt,
        &out,
        super::solve::keeps_checkpoint(args, &ran),
        || session::save(&ckpt, &solver, &problem),
        || write_strategy(&out, &solver, &problem),
    )?;
    let secs = start.elapsed().as_secs_f64();
    let iter_secs = ran.iterating.as_secs_f64().max(1e-9);
    let rate = (ran.iterations * batch as u64) as f64 / iter_secs;
    let file_bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    report(
        args,
        &solver,
        &problem,
        &est,
        (secs, iter_secs, rate),
        (pool.current_num_threads(), file_bytes, &kept),
        &out,
    );
    super::solve::finish(&ran, solver.iterations, &ckpt, &out)
}

/// The card abstraction of a sampled solve of `def` at `size` seen as `view`, from the cache
/// in `dir` (built there when missing, with a progress bar unless `quiet`): the heads-up
/// bucketing, its first street tabulated, and with [`MultiwayView::Table`] the bucketing of
/// each number of live seats. Says what it read on standard error unless `quiet`.
pub(super) fn load_buckets(
    def: &GameDef,
    size: &Size,
    view: MultiwayView,
    dir: &std::path::Path,
    quiet: bool,
) -> Result<MultiwayBuckets> {
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    let (mut bucketing, file, ..) =
        super::abstraction::load_or_build(&heads_up, size, dir, false, quiet)?;
    let views = bucketing.precompute_first_street();
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    say(format!(
        "card abstraction {} from {} (the heads-up table's, first street tabulated: {views} \
         views), a seat's cards {}",
        bucketing.name(),
        file.display(),
        view.describe()
    ));
    if view == MultiwayView::BestOpponent {
        return Ok(MultiwayBuckets::best_opponent(bucketing));
    }
    let seats = def.seats as usize;
    let mut by_live = Vec::with_capacity(seats - 1);
    for live in 2..=seats {
        let table = MultiwayBuckets::table_of(seats, live);
        let (mut b, file, ..) =
            super::abstraction::load_or_build_table(&heads_up, table, size, dir, false, quiet)?;
        if table.live == 0 && table.folded == 0 {
            b.precompute_first_street();
        }
        say(format!(
            "  {live} live seats: {} from {}",
            b.name(),
            file.display()
        ));
        by_live.push(b);
    }
    Ok(MultiwayBuckets::table(bucketing, by_live, seats)?)
}

/// Refuses the flags of the other back ends; returns the bucketing's size.
fn check_flags(args: &Args, def: &GameDef) -> Result<Size> {
    let game = args.game.name();
    if let Some(flag) = args.tree.given() {
        bail!(
            "{flag}: {game} ({} seats) is solved by external-sampling MCCFR, whose NashConv is \
             not computable here; use --iterations or --time, and --checkpoint-every",
            def.seats
        );
    }
    if let Some(kind) = args.solver {
        bail!(
            "--solver {}: {game} has {} seats, which the multiway solvers play (leave --solver \
             out)",
            format!("{kind:?}").to_lowercase(),
            def.seats
        );
    }
    if args.deal.recall.is_some() {
        bail!("--recall: the multiway abstraction forgets earlier streets (docs/multiway.md)");
    }
    if let Some(t) = args.deal.tremble.filter(|t| !(0.0..1.0).contains(t)) {
        bail!("--tremble {t}: the other seats' tremble must be at least 0 and below 1");
    }
    if args.deal.batch.is_some_and(|b| b < def.seats as usize) {
        bail!(
            "--batch must be at least the {} seats (a traversal per seat)",
            def.seats
        );
    }
    let spec = args.abstraction.as_deref().unwrap_or("default");
    if spec == "lossless" {
        bail!("--abstraction lossless: {game} is far too large to solve without a card abstraction; use {SIZES}");
    }
    Size::parse(spec, def.streets.len()).with_context(|| format!("--abstraction {spec} ({SIZES})"))
}

/// Prints the end of a sampled solve: one JSON object for `--json`, else a few lines.
fn report(
    args: &Args,
    solver: &SampledSolver,
    problem: &Problem,
    est: &Estimate,
    (secs, iter_secs, rate): (f64, f64, f64),
    (threads, file_bytes, kept): (usize, u64, &str),
    out: &std::path::Path,
) {
    let peak = status_bytes("VmHWM");
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game.name(),
                "seats": solver.def.seats,
                "solver": format!("external-sampling MCCFR {}", solver.algorithm.name()),
                "tremble": solver.tremble,
                "view": solver.buckets.view.name(),
                "within_street": solver.betting.within_street.name(),
                "strategy": solver.played.name(),
                "abstraction": problem.card_abstraction,
                "batch": solver.batch,
                "seed": solver.seed,
                "iterations": solver.iterations,
                "traversals": solver.iterations * solver.batch as u64,
                "seconds": secs,
                "iterate_seconds": iter_secs,
                "traversals_per_second": rate,
                "threads": threads,
                "nodes": solver.betting.nodes.len(),
                "infosets": est.infosets,
                "infoset_actions": est.slots,
                "estimate": est,
                "estimate_bytes": est.peak(),
                "peak_bytes": peak,
                "out": out.display().to_string(),
                "file_bytes": file_bytes,
                "checkpoint": kept,
            })
        );
        return;
    }
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "{} ({} seats) {} ({}): {} iterations of {} traversals in \
         {secs:.1}s ({rate:.0} traversals/s while iterating, {threads} threads)\nNashConv: not \
         computable for this game\npeak memory {} (estimated {:.1} MiB)\nstrategy: {} ({:.1} \
         MiB)\ncheckpoint: {kept}",
        args.game.name(),
        solver.def.seats,
        solver.describe(),
        problem.card_abstraction,
        solver.iterations,
        solver.batch,
        peak.map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p))),
        mib(est.peak()),
        out.display(),
        mib(file_bytes as usize),
    );
}
