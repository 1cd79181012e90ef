//! Speed of the deal-sampled solver on a real game: deals per second and (action node × deal)
//! visits per second, with the split between the deals' facts (bucket lookups) and the walk.
//!
//! `cargo run --release -p solver --example deal_bench -- [GAME] [SIZE] [BATCH] [ITERATIONS]
//! [THREADS] [CACHE_DIR] [WARMUP_DEALS] [ALGORITHM]` (defaults: 7stud tiny 1000 5 1
//! target/abstractions 0 cfr+); the bucketing is read from (or built into) the cache. The
//! warm-up iterations (about `WARMUP_DEALS` deals, untimed) give the timed ones a solved
//! strategy's zeros to prune, as late in a solve, rather than the first iterations' uniform one. Prints one JSON line; `deals_per_cpu_second` counts this
//! process's CPU time (Linux, 100 ticks a second), which other jobs on the machine do not inflate.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::Size;
use abstraction::rules::GameDef;
use anyhow::{Context, Result};
use solver::bucket_cache::load_or_build;
use solver::deal_cfr::DealSolver;
use solver::memory::cpu_seconds;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let game = arg(0, "7stud");
    let size_name = arg(1, "tiny");
    let batch: usize = arg(2, "1000").parse().context("BATCH")?;
    let iterations: u64 = arg(3, "5").parse().context("ITERATIONS")?;
    let threads: usize = arg(4, "1").parse().context("THREADS")?;
    let dir = PathBuf::from(arg(5, "target/abstractions"));
    let warmup: u64 = arg(6, "0").parse().context("WARMUP_DEALS")?;
    let algorithm = solver::cfr::Algorithm::parse(&arg(7, "cfr+")).map_err(anyhow::Error::msg)?;
    let def = GameDef::preset(&game)?;
    let size = Size::parse(&size_name, def.streets.len())?;
    let (mut bucketing, _, _) = load_or_build(&def, &size, &dir, false, &|_| {})?;
    bucketing.precompute_first_street();
    let betting = BettingAbstraction::for_game(&def);
    let tree = BettingTree::build(&def, betting, &size.buckets)?;
    let action_nodes = tree
        .nodes
        .iter()
        .filter(|n| n.kind == BettingKind::Action)
        .count();
    let (infosets, slots) = (tree.infosets(), tree.num_slots);
    let scratch = DealSolver::scratch_bytes(&tree, batch);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut cpu = 0.0;
    let (facts, walk) = pool.install(|| -> Result<(Duration, Duration)> {
        let mut s = DealSolver::new(&def, tree, Arc::new(bucketing), batch, 1)?;
        s.set_algorithm(algorithm)?;
        // One iteration at least to warm up (page in the arrays), not timed.
        for _ in 0..(warmup / batch as u64).max(1) {
            s.iterate()?;
        }
        let (mut facts, mut walk) = (Duration::ZERO, Duration::ZERO);
        let cpu_start = cpu_seconds()?;
        for _ in 0..iterations {
            let t = s.iterate()?;
            facts += t.facts;
            walk += t.walk;
        }
        cpu = cpu_seconds()? - cpu_start;
        Ok((facts, walk))
    })?;
    let deals = (batch as u64 * iterations) as f64;
    let total = (facts + walk).as_secs_f64();
    println!(
        "{{\"game\":\"{game}\",\"size\":\"{size_name}\",\"threads\":{threads},\"batch\":{batch},\
         \"iterations\":{iterations},\"infosets\":{infosets},\"slots\":{slots},\
         \"bytes\":{},\"scratch_bytes\":{scratch},\"seconds\":{total:.3},\"cpu_seconds\":{cpu:.2},\"deals_per_cpu_second\":{:.0},\"facts_share\":{:.3},\"deals_per_second\":{:.0},\
         \"facts_deals_per_second\":{:.0},\"walk_node_deals_per_second\":{:.0}}}",
        slots * DealSolver::bytes_per_slot(),
        deals / cpu,
        facts.as_secs_f64() / total,
        deals / total,
        deals / facts.as_secs_f64(),
        deals * action_nodes as f64 / walk.as_secs_f64(),
    );
    Ok(())
}
