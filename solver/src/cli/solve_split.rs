//! `stud solve` of a real game under `mpirun -np R` (R > 1; the `mpi` feature): one
//! deal-sampled solve split over the job's ranks ([`solver::deal_cfr::split`]), whose strategy
//! file is byte-identical to the single process's (docs/distributed.md).
//!
//! Every rank reads the bucketing (rank 0 first: it builds a missing one, the others then read
//! it from `--abstraction-dir`), builds the betting tree and the split, checks that its share
//! fits (rank 0 prints every rank's), runs the session loop in lockstep (rank 0's clock decides
//! the stops and checkpoints) with a checkpoint of its own (`OUT.rankR-of-N.ckpt`), and at the
//! end sends its average masses to rank 0 a split point's subtree at a time, as rank 0 writes
//! the one strategy file ([`Gathered`]): no rank holds every slot. A rank that
//! fails says so and aborts the whole job (`MPI_Abort`): the others must not wait for it.

use super::solve::{outputs_of, Args, Bar};
use super::solve_real::{
    check_flags, measure_lifted, timed_plan, Watch, DEFAULT_ALGORITHM, DEFAULT_BATCH, WIDTH,
};
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{Context, Result};
use solver::deal_cfr::split::{DealPart, Exchange, Gathered, Split, Traffic};
use solver::deal_cfr::DealSolver;
use solver::memory::{available_memory, status_bytes};
use solver::mpi::Mpi;
use solver::session::deal::{estimate, write_solved, write_strategy, Solved};
use solver::session::split::{estimate_part, SplitSession};
use solver::session::{self, Problem, Session};
use std::sync::Arc;
use std::time::Instant;

/// Runs this rank's share of the solve; on an error, says which rank failed and why, and
/// aborts the job.
pub fn run(args: &Args, def: &GameDef, mut mpi: Mpi) -> Result<()> {
    let (rank, ranks) = (mpi.rank(), mpi.ranks());
    match solve(args, def, &mut mpi) {
        Ok(()) => Ok(()),
        Err(e) => {
            eprintln!("stud solve: rank {rank} of {ranks} failed, stopping every rank: {e:#}");
            mpi.abort(1)
        }
    }
}

fn solve(args: &Args, def: &GameDef, mpi: &mut Mpi) -> Result<()> {
    let (rank, ranks) = (mpi.rank(), mpi.ranks());
    let lead = rank == 0;
    let walkable = Tree::check_supported(def).is_ok();
    let size = check_flags(args, def, walkable)?;
    let batch = args.deal.batch.unwrap_or(DEFAULT_BATCH);
    let (out, ckpt) = outputs_of(args, "-hu", "strat", Some((rank, ranks)))?;
    let quiet = args.output.json || !lead;
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let start = Instant::now();
    let threads = args.pool.start_global()?;

    // Rank 0 reads or builds the bucketing first; the others wait, then read its cache file.
    if !lead {
        mpi.decide(true)?;
    }
    let (mut bucketing, file, ..) =
        super::abstraction::load_or_build(def, &size, &args.abstraction_dir, false, quiet)?;
    if lead {
        mpi.decide(true)?;
    }
    let (tree, table, recall) =
        super::solve_real::betting_tree(args, def, &mut bucketing, &file, &say)?;
    let split = Split::plan(&tree, ranks);
    let one = estimate(&tree, batch, &bucketing, table, WIDTH);
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    let per_rank: Vec<String> = (0..ranks)
        .map(|r| {
            let e = estimate_part(&tree, &split, r, batch, &bucketing, table, WIDTH);
            format!(
                "  rank {r}: {} slots ({:.1}%), peak about {:.1} MiB",
                e.slots,
                100.0 * e.slots as f64 / tree.num_slots as f64,
                mib(e.peak())
            )
        })
        .collect();
    say(format!(
        "{}: betting tree of {} nodes, {} infoset-actions, split over {ranks} ranks at the end \
         of street {} ({} subtrees; {} slots of the streets above on every rank); one process \
         would peak at about {:.1} MiB\n{}",
        args.game.name(),
        tree.nodes.len(),
        tree.num_slots,
        split.top_streets,
        split.points.len(),
        split.top_slots,
        mib(one.peak()),
        per_rank.join("\n")
    ));
    let est = estimate_part(&tree, &split, rank, batch, &bucketing, table, WIDTH);
    say(format!("rank 0: {}", est.describe()));
    est.check_fits(
        available_memory(),
        "use more ranks, a smaller --abstraction or --batch",
    )
    .with_context(|| format!("rank {rank}'s share does not fit on its machine"))?;

    let problem = Problem::deal(def, &bucketing, recall);
    let bucketing = Arc::new(bucketing);
    let seed = args.random.seed;
    let algorithm = args.algorithm.unwrap_or(DEFAULT_ALGORITHM);
    let mut part = DealPart::new(
        def,
        tree,
        Arc::clone(&bucketing),
        recall,
        batch,
        seed,
        rank,
        split.clone(),
    )?;
    part.set_algorithm(algorithm)?;
    let mut session = SplitSession {
        part,
        exchange: &mut *mpi,
    };
    if args.resume {
        session::split::resume(&ckpt, &mut session, &problem)?;
        say(format!(
            "resumed every rank at iteration {} (rank 0 from {})",
            session.part.iterations,
            ckpt.display()
        ));
    }
    let plan = timed_plan(args, &ckpt);
    let mut watch = Watch {
        bar: Bar::new(quiet, &plan),
        json: args.output.json && lead,
        unit: "deals",
        batch,
        start,
        checkpoint: &ckpt,
    };
    let ran = session::run(&mut session, &problem, &plan, &mut watch)?;
    watch.bar.finish();

    let traffic = gather_traffic(&mut session.exchange, session.part.traffic)?;
    // A walkable game is small: rank 0 gathers the whole average to lift it onto the lossless
    // tree and writes the file from there; the others have sent theirs.
    let full = match walkable {
        true => match session.part.gather_average(&mut session.exchange)? {
            Some(average) => {
                let mut full = DealSolver::with_recall(
                    def,
                    session.part.tree.clone(),
                    Arc::clone(&bucketing),
                    recall,
                    batch,
                    seed,
                )?;
                full.set_algorithm(algorithm)?;
                full.iterations = session.part.iterations;
                full.average.copy_from_slice(&average);
                Some(full)
            }
            None => None,
        },
        false => None,
    };
    let exact = match &full {
        Some(full) => {
            say(format!(
                "measuring: lifting the strategy onto the lossless public tree of {}",
                args.game.name()
            ));
            measure_lifted(full, def)
        }
        None => Err("not computable for this game; use stud eval lbr".into()),
    };
    if let (true, Err(why)) = (walkable && lead, &exact) {
        say(format!("{why}; the strategy is written without it"));
    }
    let header = session.header(&problem);
    // What rank 0 holds before the write, against its peak after (the JSON's figures).
    let resident_before_write = status_bytes("VmRSS");
    // The session's save, by its fields: the write borrows the exchange meanwhile.
    let SplitSession { part, exchange } = &mut session;
    let part: &DealPart = part;
    let kept = solver::checkpoint::write_results(
        &ckpt,
        &out,
        super::solve::keeps_checkpoint(args, &ran),
        || solver::checkpoint::save(&ckpt, header, [&part.regrets, &part.average]),
        || match (&full, walkable) {
            (Some(full), _) => {
                write_strategy(&out, full, def, &bucketing, WIDTH, exact.clone().ok())
            }
            (None, true) => Ok(()),
            // Rank 0 writes the file as the other ranks' masses arrive, a split point at a time.
            (None, false) => {
                let mut average = Gathered::new(part, &mut **exchange);
                if lead {
                    let solved = Solved {
                        tree: &part.tree,
                        average: &mut average,
                        algorithm,
                        iterations: part.iterations,
                        batch,
                        seed,
                        recall,
                    };
                    write_solved(&out, solved, def, &bucketing, WIDTH, None)?;
                }
                average.finish()
            }
        },
    )?;
    let done = super::solve::finish(&ran, part.iterations, &ckpt, &out);
    if !lead {
        return done;
    }
    let secs = start.elapsed().as_secs_f64();
    let iter_secs = ran.iterating.as_secs_f64().max(1e-9);
    let deals_per_second = (ran.iterations * batch as u64) as f64 / iter_secs;
    let batches = ran.iterations.max(1) as f64;
    let received: Vec<f64> = traffic
        .iter()
        .map(|t| t.received as f64 / batches)
        .collect();
    let comm: Vec<f64> = traffic.iter().map(|t| t.time.as_secs_f64()).collect();
    let file_bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let e = exact.as_ref().ok();
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game.name(),
                "solver": format!("deal-sampled {}", algorithm.name()),
                "abstraction": problem.card_abstraction,
                "batch": batch,
                "seed": seed,
                "iterations": part.iterations,
                "deals": part.iterations * batch as u64,
                "seconds": secs,
                "iterate_seconds": iter_secs,
                "deals_per_second": deals_per_second,
                "ranks": ranks,
                "threads_per_rank": threads,
                "split_street": part.split.top_streets,
                "split_points": part.split.points.len(),
                "slots": part.tree.num_slots,
                "slots_per_rank": (0..ranks).map(|r| part.split.slots_of(r)).collect::<Vec<_>>(),
                "estimate_rank0": est,
                "estimate_one_process_bytes": one.peak(),
                "peak_bytes_rank0": status_bytes("VmHWM"),
                "resident_bytes_rank0_before_write": resident_before_write,
                "received_bytes_per_batch": received,
                "communication_seconds": comm,
                "exploitability": e.map(|e| e.chips),
                "exploitability_mbb": e.map(|e| e.mbb),
                "out": out.display().to_string(),
                "file_bytes": file_bytes,
                "checkpoint": kept,
            })
        );
        return done;
    }
    println!(
        "{} deal-sampled {} ({}) over {ranks} ranks: {} iterations of {batch} deals in \
         {secs:.1}s ({deals_per_second:.0} deals/s while iterating)\nexploitability: {}\n\
         received per batch by rank: {} bytes; in collectives: {} s\nstrategy: {} ({:.1} \
         MiB)\ncheckpoints: {kept}",
        args.game.name(),
        algorithm.name(),
        problem.card_abstraction,
        part.iterations,
        match e {
            Some(e) => format!("{:.6} chips/game ({:.3} mbb/game)", e.chips, e.mbb),
            None => exact.clone().err().unwrap_or_default(),
        },
        received
            .iter()
            .map(|b| format!("{b:.0}"))
            .collect::<Vec<_>>()
            .join(", "),
        comm.iter()
            .map(|s| format!("{s:.3}"))
            .collect::<Vec<_>>()
            .join(", "),
        out.display(),
        mib(file_bytes as usize),
    );
    done
}

/// Every rank's traffic, rank order (a collective: every rank calls it).
fn gather_traffic(x: &mut impl Exchange, mine: Traffic) -> Result<Vec<Traffic>> {
    let received = x.all_u64(mine.received)?;
    let sent = x.all_u64(mine.sent)?;
    let nanos = x.all_u64(mine.time.as_nanos() as u64)?;
    let batches = x.all_u64(mine.batches)?;
    Ok((0..received.len())
        .map(|r| Traffic {
            received: received[r],
            sent: sent[r],
            time: std::time::Duration::from_nanos(nanos[r]),
            batches: batches[r],
        })
        .collect())
}
