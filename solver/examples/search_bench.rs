//! Latency of a searching player's decisions (`FILE:search`, or any `FILE:resolve...` spec)
//! street by street: hands dealt at random, the player in seat 0 against the file's blueprint
//! in seat 1, each of the player's decisions timed (wall clock, the whole `policy` call: class
//! warming before the re-solved streets, the ranges and the solve on them).
//!
//! `cargo run --profile verify -p solver --example search_bench -- SPEC [HANDS] [SEED]`
//! (defaults: 10 hands, seed 1). Prints one JSON line per street with its decisions' count,
//! p50, p99 and largest milliseconds.

use abstraction::rules::{Next, State};
use anyhow::{Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::bot::{choose, Bet, Player};
use solver::players::load_own;
use std::time::Instant;

/// The `p` quantile of `v` (nearest rank), sorting it.
fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args
        .first()
        .context("give a player spec, e.g. FILE:search")?;
    let hands: usize = args.get(1).map_or(Ok(10), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let (def, player) = load_own(spec, false)?.context("a strategy file's player")?;
    let file = spec.split(':').next().context("a file")?;
    let (_, blueprint) = load_own(file, false)?.context("the blueprint")?;
    let seats: [&dyn Player; 2] = [player.as_ref(), blueprint.as_ref()];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut millis: Vec<Vec<f64>> = vec![Vec::new(); def.streets.len()];
    let mut probs = [0.0; 16];
    for _ in 0..hands {
        let mut st = State::new(&def)?;
        let mut bets: Vec<Bet> = Vec::new();
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng)?;
                }
                Next::Act { seat } => {
                    let legal = st.legal_actions();
                    let start = Instant::now();
                    let (a, _) = choose(
                        seats[seat as usize],
                        &st,
                        &bets,
                        &legal,
                        &mut probs,
                        &mut rng,
                    )?;
                    if seat == 0 {
                        millis[st.street()].push(start.elapsed().as_secs_f64() * 1000.0);
                    }
                    bets.push((st.street(), a));
                    st.apply(a)?;
                }
                Next::Over => break,
            }
        }
    }
    for (street, v) in millis.iter_mut().enumerate().filter(|(_, v)| !v.is_empty()) {
        let line = serde_json::json!({
            "street": def.street_name(street),
            "decisions": v.len(),
            "p50_ms": percentile(v, 0.5),
            "p99_ms": percentile(v, 0.99),
            "max_ms": percentile(v, 1.0),
        });
        println!("{line}");
    }
    Ok(())
}
