//! The plan of a split solve before it runs, for any number of ranks and any bucketing (built
//! or not: only the bucket counts matter): per rank count, where the tree is split, the most
//! slots a rank holds and its memory for them, what a batch exchanges, and a model of the time
//! per batch on a stated network from a measured single-process speed (docs/distributed.md).
//!
//! `cargo run --release -p solver --example split_plan -- GAME SIZE BATCH DEALS_PER_S
//! LATENCY_US GB_PER_S RANKS...`: SIZE is a bucketing preset or buckets per street
//! (`2048` or `512,2048,2048,2048,1024`), DEALS_PER_S the single process's measured speed
//! with it, the network a latency per message and a bandwidth per rank.
//!
//! The model: a batch's work divides as the slots do (every rank also walks the top, the
//! streets above the split), and each of the batch's two all-gathers (the facts, the values
//! at the split points) costs `latency × ⌈log2 R⌉ + bytes received / bandwidth`, plus two
//! one-byte broadcasts (rank 0's stop and checkpoint words). The bucketing, which every rank
//! holds whole, is not counted.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::Size;
use anyhow::{Context, Result};
use solver::deal_cfr::split::{DealPart, Split, FACT_BYTES};
use solver::deal_cfr::DealSolver;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, size, batch, speed, latency, bandwidth, ranks @ ..] = &args[..] else {
        anyhow::bail!("usage: GAME SIZE BATCH DEALS_PER_S LATENCY_US GB_PER_S RANKS...");
    };
    let def = solver::input::load_game(game)?;
    let size = Size::parse(size, def.streets.len())?;
    let batch: usize = batch.parse().context("BATCH")?;
    let speed: f64 = speed.parse().context("DEALS_PER_S")?;
    let latency = latency.parse::<f64>().context("LATENCY_US")? * 1e-6;
    let bandwidth = bandwidth.parse::<f64>().context("GB_PER_S")? * 1e9;
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &size.buckets)?;
    let gib = |b: usize| b as f64 / (1u64 << 30) as f64;
    let one =
        tree.num_slots * DealSolver::bytes_per_slot() + DealSolver::scratch_bytes(&tree, batch);
    println!(
        "{game}, buckets {:?}: {} slots; one process: {:.2} GiB of regrets, averages and scratch; \
         batch {batch}; {speed:.0} deals/s on one process; network {:.1} us, {:.1} GB/s",
        size.buckets,
        tree.num_slots,
        gib(one),
        latency * 1e6,
        bandwidth / 1e9
    );
    println!(
        "{:>6} {:>6} {:>7} {:>12} {:>10} {:>10} {:>12} {:>10} {:>10} {:>9}",
        "ranks",
        "split",
        "points",
        "top slots",
        "most/rank",
        "GiB/rank",
        "bytes/batch",
        "work ms",
        "comm ms",
        "deals/s"
    );
    let t1 = batch as f64 / speed;
    for r in ranks {
        let r: usize = r.parse().context("RANKS")?;
        let split = Split::plan(&tree, r);
        let most = (0..r).map(|k| split.slots_of(k)).max().unwrap_or(0);
        let mem = (0..r)
            .map(|k| {
                split.slots_of(k) * DealSolver::bytes_per_slot()
                    + DealPart::scratch_bytes(&tree, &split, k, batch)
            })
            .max()
            .unwrap_or(0);
        // Received by one rank per batch: the others' facts and the others' values.
        let others = (r - 1) as f64 / r as f64;
        let bytes = others * (batch * FACT_BYTES + split.points.len() * batch * 4) as f64;
        let hops = (r as f64).log2().ceil();
        let comm = if r > 1 {
            4.0 * latency * hops + bytes / bandwidth
        } else {
            0.0
        };
        let work = t1 * most as f64 / tree.num_slots as f64;
        println!(
            "{r:>6} {:>6} {:>7} {:>12} {:>10} {:>10.3} {:>12.0} {:>10.3} {:>10.3} {:>9.0}",
            split.top_streets,
            split.points.len(),
            split.top_slots,
            most,
            gib(mem),
            bytes,
            work * 1e3,
            comm * 1e3,
            batch as f64 / (work + comm)
        );
    }
    Ok(())
}
