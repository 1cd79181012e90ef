//! `stud solve` for the real games (those the public tree cannot walk): deal-sampled CFR+ (or linear CFR) on the
//! betting tree, with the resource estimate first, progress, checkpoints and `--resume`.

use super::solve::{outputs, Args};
use crate::cfr::Algorithm;
use crate::deal_cfr::DealSolver;
use crate::deal_session::{
    estimate, load_checkpoint, probe_deal_seconds, save_checkpoint, write_strategy,
};
use crate::ladder::{deal_exploitability, lift_target};
use crate::memory::{available_memory, status_bytes};
use crate::strategy_file::Width;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{bail, Context, Result};
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
/// The strategy file's probability width: in `u8`, a `default` 7stud strategy is 19 MiB, under
/// the 32 MiB of a shipped file.
const WIDTH: Width = Width::U8;

/// Runs `stud solve` on a real game, or on a walkable game with `--solver deal` (whose
/// exploitability is then measured at the end: lifted onto its lossless public tree).
pub fn run(args: &Args, def: &GameDef) -> Result<()> {
    let walkable = Tree::check_supported(def).is_ok();
    for (given, flag) in [
        (
            args.target_exploitability.is_some(),
            "--target-exploitability",
        ),
        (args.sample.is_some(), "--sample"),
        (args.every.is_some(), "--every"),
    ] {
        if given {
            bail!(
                "{flag}: {} is solved by deal-sampled CFR, {}; use --iterations or --time, and \
                 --checkpoint-every",
                args.game,
                if walkable {
                    "whose exploitability is measured once, at the end"
                } else {
                    "whose exploitability is not computable here (use stud eval lbr)"
                }
            );
        }
    }
    let spec = args.abstraction.as_deref().unwrap_or("default");
    if spec == "lossless" && walkable {
        bail!(
            "--abstraction lossless: the deal-sampled solver needs a bucketing; --solver tree \
             solves {} without one",
            args.game
        );
    }
    if spec == "lossless" {
        bail!(
            "--abstraction lossless: {} is far too large to solve without a card abstraction; \
             use {SIZES}",
            args.game
        );
    }
    let size = Size::parse(spec, def.streets.len())
        .with_context(|| format!("--abstraction {spec} ({SIZES})"))?;
    let batch = args.batch.unwrap_or(DEFAULT_BATCH);
    if batch == 0 {
        bail!("--batch must be at least 1");
    }
    let (out, ckpt) = outputs(args, "-hu")?;
    if args.resume && !ckpt.exists() {
        bail!("--resume: no checkpoint at {}", ckpt.display());
    }
    let time = match (args.iterations, args.time) {
        (None, None) => Some(DEFAULT_TIME),
        (_, t) => t,
    };
    let quiet = args.json;
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let start = Instant::now();
    let pool = super::thread_pool(args.threads)?;
    let (mut bucketing, file, ..) = pool.install(|| {
        super::abstraction::load_or_build(def, &size, &args.abstraction_dir, false, quiet)
    })?;
    let table = pool.install(|| bucketing.precompute_first_street());
    say(format!(
        "card abstraction {} from {} (first street tabulated: {table} views)",
        bucketing.name(),
        file.display()
    ));
    let buckets: Vec<u32> = (0..def.streets.len())
        .map(|s| bucketing.buckets(s))
        .collect();
    let recall = args.recall.unwrap_or_default();
    let tree = BettingTree::build(
        def,
        BettingAbstraction::for_game(def),
        &recall.keys(&buckets),
    )
    .with_context(|| format!("the betting tree of {}", args.game))?;
    let est = estimate(&tree, batch, &bucketing, table, WIDTH);
    let def_arc = Arc::new(def.clone());
    let probe = pool.install(|| probe_deal_seconds(&def_arc, &bucketing, batch.min(256), 1))?;
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    say(format!(
        "{}: betting tree of {} nodes, {} infosets, {} infoset-actions\n{}\ntime: about {:.3} s \
         per batch of {batch} deals from the bucket lookups alone ({:.0} deals/s, {} threads)",
        args.game,
        tree.nodes.len(),
        est.infosets,
        est.slots,
        est.describe(),
        probe * batch as f64,
        1.0 / probe,
        pool.current_num_threads()
    ));
    est.check_fits(available_memory(), "use a smaller --abstraction or --batch")?;
    let bucketing = Arc::new(bucketing);
    let mut solver =
        DealSolver::with_recall(def, tree, Arc::clone(&bucketing), recall, batch, args.seed)?;
    solver.set_algorithm(args.algorithm.unwrap_or(DEFAULT_ALGORITHM))?;
    // A checkpoint's rows are keys of the recall too: a resume must recall the same.
    let card_name = match recall {
        Recall::None => bucketing.name(),
        r => format!("{} recalling {}", bucketing.name(), r.name()),
    };
    if args.resume {
        load_checkpoint(&ckpt, &mut solver, def, &card_name)?;
        say(format!(
            "resumed from {} at iteration {}",
            ckpt.display(),
            solver.iterations
        ));
    }
    let every = args.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY);
    let (iterating, ran) = pool.install(|| -> Result<(Duration, u64)> {
        let bar = progress_bar(quiet, args.iterations, time);
        let solve_start = Instant::now();
        let first = solver.iterations;
        let mut iterating = Duration::ZERO;
        let mut last_ckpt = Instant::now();
        loop {
            let done_iters = args.iterations.is_some_and(|n| solver.iterations >= n);
            let done_time = time.is_some_and(|t| solve_start.elapsed() >= t);
            if done_iters || done_time {
                break;
            }
            let t = Instant::now();
            solver.iterate()?;
            iterating += t.elapsed();
            let ran = solver.iterations - first;
            let rate = (ran * batch as u64) as f64 / iterating.as_secs_f64().max(1e-9);
            let left = match (args.iterations, time) {
                (Some(n), _) => {
                    let per = iterating.as_secs_f64() / ran as f64;
                    Duration::from_secs_f64(n.saturating_sub(solver.iterations) as f64 * per)
                }
                (None, Some(t)) => t.saturating_sub(solve_start.elapsed()),
                (None, None) => Duration::ZERO,
            };
            bar.set_position(match args.iterations {
                Some(_) => solver.iterations,
                None => solve_start.elapsed().as_secs(),
            });
            bar.set_message(format!(
                "{} batches, {:.0} deals/s, {} deals, ETA {}",
                solver.iterations,
                rate,
                solver.iterations * batch as u64,
                indicatif::HumanDuration(left)
            ));
            if last_ckpt.elapsed() >= every {
                save_checkpoint(&ckpt, &solver, def, &card_name).with_context(|| {
                    crate::checkpoint::periodic_failed(&ckpt, solver.iterations)
                })?;
                last_ckpt = Instant::now();
                if quiet {
                    println!(
                        "{}",
                        serde_json::json!({
                            "iterations": solver.iterations,
                            "deals": solver.iterations * batch as u64,
                            "seconds": start.elapsed().as_secs_f64(),
                            "deals_per_second": rate,
                            "checkpoint": ckpt.display().to_string(),
                        })
                    );
                }
            }
        }
        bar.finish_and_clear();
        Ok((iterating, solver.iterations - first))
    })?;
    // A walkable game's real exploitability: the strategy lifted onto its lossless public tree
    // (built, and the lift checked to fit, within the memory available now). A tree too big to
    // measure on must not lose the solve: the strategy is written without the figure.
    let mut unmeasured = None;
    let exact = if walkable {
        say(format!(
            "measuring: lifting the strategy onto the lossless public tree of {}",
            args.game
        ));
        let measured = pool.install(|| -> Result<_> {
            let public = lift_target(def, available_memory())?;
            deal_exploitability(&solver, &public)
        });
        match measured {
            Ok(e) => Some(e),
            Err(e) => {
                let why = format!("not measured: {e:#}");
                say(format!("{why}; the strategy is written without it"));
                unmeasured = Some(why);
                None
            }
        }
    } else {
        None
    };
    let kept = crate::checkpoint::write_results(
        &ckpt,
        &out,
        args.keep_checkpoint,
        || save_checkpoint(&ckpt, &solver, def, &card_name),
        || write_strategy(&out, &solver, def, &bucketing, WIDTH, exact),
    )?;
    let secs = start.elapsed().as_secs_f64();
    let iter_secs = iterating.as_secs_f64().max(1e-9);
    let deals_per_second = (ran * batch as u64) as f64 / iter_secs;
    let action_nodes = solver
        .tree
        .nodes
        .iter()
        .filter(|n| n.kind == abstraction::tree::NodeKind::Action)
        .count();
    // An iteration updates, for each deal, the actor's row at every action node (fewer where a
    // subtree is pruned): the (infoset, deal) updates per second at most.
    let updates_per_second = deals_per_second * action_nodes as f64;
    let peak = status_bytes("VmHWM");
    let file_bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let note = match (exact, unmeasured) {
        (Some(_), _) => {
            "exact: the strategy lifted onto the lossless public tree, against its best response"
                .to_string()
        }
        (None, Some(why)) => why,
        (None, None) => "not computable for this game; use stud eval lbr".into(),
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game,
                "solver": format!("deal-sampled {}", solver.algorithm().name()),
                "abstraction": card_name,
                "batch": batch,
                "seed": args.seed,
                "iterations": solver.iterations,
                "deals": solver.iterations * batch as u64,
                "seconds": secs,
                "iterate_seconds": iter_secs,
                "deals_per_second": deals_per_second,
                "updates_per_second": updates_per_second,
                "probe_deals_per_second": 1.0 / probe,
                "threads": pool.current_num_threads(),
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
                "out": out.display().to_string(),
                "file_bytes": file_bytes,
                "checkpoint": kept,
            })
        );
    } else {
        println!(
            "{} deal-sampled {} ({card_name}): {} iterations of {batch} deals in {secs:.1}s \
             ({deals_per_second:.0} deals/s while iterating)\nexploitability: {}\npeak memory {} \
             (estimated {:.1} MiB{})\nstrategy: {} ({:.1} MiB)\ncheckpoint: {}",
            args.game,
            solver.algorithm().name(),
            solver.iterations,
            match exact {
                Some(e) => format!("{:.6} chips/game ({:.3} mbb/game), {note}", e.chips, e.mbb),
                None => note.to_string(),
            },
            peak.map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p))),
            mib(est.peak()),
            if walkable {
                " before the lossless tree"
            } else {
                ""
            },
            out.display(),
            mib(file_bytes as usize),
            kept
        );
    }
    Ok(())
}

/// The progress bar: of the batches to run when `--iterations` is given, else of the seconds of
/// `--time`; its message says the batches, deals/s and the time left. Hidden for `--json`.
fn progress_bar(
    quiet: bool,
    iterations: Option<u64>,
    time: Option<Duration>,
) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let len = iterations.or(time.map(|t| t.as_secs())).unwrap_or(0);
    let b = indicatif::ProgressBar::new(len);
    b.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {msg}")
            .expect("a valid template"),
    );
    b
}
