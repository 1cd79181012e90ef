//! How often a bucket estimated from fewer rollout draws (`Bucketing::estimating`, what
//! `FILE:resolve,range-draws=N` weighs its ranges by) is the exact one, and what a lookup
//! costs each way: random views of each street after the first of a strategy file's game.
//!
//! `cargo run --profile verify -p solver --example range_draws -- FILE [VIEWS] [DRAWS...]`
//! (defaults: 500 views a street, draws 8 16 32). Prints one JSON line per street and budget:
//! the share of views whose estimated bucket is the exact one, and the wall-clock microseconds
//! of an exact and of an estimated lookup (one thread, no view remembered: read them on an idle
//! machine only; `scripts/bench-search-player` measures a player's CPU).

use anyhow::{bail, Result};
use solver::strategy_file::StrategyFile;
use std::path::Path;
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        bail!("usage: range_draws FILE [VIEWS] [DRAWS...]");
    };
    let views: usize = args.get(1).map_or(Ok(500), |v| v.parse())?;
    let mut draws: Vec<u32> = args[2.min(args.len())..]
        .iter()
        .map(|d| d.parse())
        .collect::<Result<_, _>>()?;
    if draws.is_empty() {
        draws = vec![8, 16, 32];
    }
    let StrategyFile::Betting(f) = StrategyFile::open(Path::new(path))? else {
        bail!("{path}: a heads-up file with buckets");
    };
    let exact = f.bucketing();
    let streets = exact.streets().len();
    for street in 1..streets {
        let sample = exact.sample_views(street, views, 0xd1ce + street as u64);
        let start = Instant::now();
        let truth: Vec<u32> = sample
            .iter()
            .map(|v| exact.bucket(v))
            .collect::<Result<_, _>>()?;
        let exact_us = start.elapsed().as_secs_f64() * 1e6 / views as f64;
        for &d in &draws {
            let estimating = exact.estimating(d);
            let start = Instant::now();
            let guess: Vec<u32> = sample
                .iter()
                .map(|v| estimating.bucket(v))
                .collect::<Result<_, _>>()?;
            let us = start.elapsed().as_secs_f64() * 1e6 / views as f64;
            let same = truth.iter().zip(&guess).filter(|(a, b)| a == b).count();
            println!(
                "{}",
                serde_json::json!({
                    "street": street,
                    "views": views,
                    "outer_draws": exact.outer_draws(),
                    "range_draws": d,
                    "agreement": same as f64 / views as f64,
                    "exact_us": exact_us,
                    "estimated_us": us,
                })
            );
        }
    }
    Ok(())
}
