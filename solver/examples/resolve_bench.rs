//! Speed of re-solving (`solver::resolve`) on a real game's strategy file: spots dealt at random
//! and played by the blueprint against itself up to the re-solve's root (the last street's first
//! decision, or the street before it's), each re-solved within a budget by a [`ResolvingPlayer`]
//! that saw seat 0's decisions on the way (where it works out each street's classes for the
//! ranges: `warm`).
//!
//! `cargo run --release -p solver --example resolve_bench -- FILE [SPOTS] [BUDGET] [SEED]
//! [BLUEPRINT] [WARM] [METHOD] [STREETS]` (defaults: 20 spots, `it:100`, seed 1, `no`, `yes`,
//! `unsafe`, 1): STREETS 2 re-solves the last two streets (`FILE:resolve2`: sixth street in
//! seven-card stud, the seventh card private chance);
//! METHOD `safe` re-solves the seat to act behind the gadget; BUDGET is `it:N`
//! iterations or `ms:N` milliseconds; BLUEPRINT `yes` also measures the blueprint's own
//! exploitability in each subgame (its rows read for every hand: slower); WARM `no` skips the
//! earlier streets' decisions (a re-solve asked cold, as a server's first request of a hand).
//! Prints one JSON line per spot, then one with the percentiles (`"summary": true`).

use abstraction::rules::{Next, State};
use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::bot::{choose, Bet, StrategyPlayer};
use solver::memory::status_bytes;
use solver::resolve::{Budget, Method, Options, ResolvingPlayer};
use solver::strategy_file::StrategyFile;
use std::path::Path;
use std::time::Instant;

/// A hand dealt from `rng` and played by the blueprint of `resolver` in both seats up to the
/// last street's first decision, or `None` if it ended before; at seat 0's decisions the
/// resolver warms its classes if `warm` (the milliseconds each took are pushed on `warmed`).
fn spot(
    resolver: &ResolvingPlayer,
    warm: bool,
    warmed: &mut Vec<f64>,
    rng: &mut ChaCha8Rng,
) -> Result<Option<(State, Vec<Bet>)>> {
    let player: &StrategyPlayer = resolver.blueprint();
    let def = player.file().game();
    let mut st = State::new(def)?;
    let last = resolver.root_street(&st);
    let mut bets = Vec::new();
    let mut probs = [0.0; 16];
    loop {
        match st.next() {
            Next::Deal { .. } => {
                st.deal_random(rng)?;
            }
            Next::Act { .. } if st.street() == last => return Ok(Some((st, bets))),
            Next::Act { seat } => {
                if warm && seat == 0 {
                    let t = Instant::now();
                    resolver.warm(&st, &bets)?;
                    warmed.push(t.elapsed().as_secs_f64() * 1000.0);
                }
                let legal = st.legal_actions();
                let (a, _) = choose(player, &st, &bets, &legal, &mut probs, rng)?;
                bets.push((st.street(), a));
                st.apply(a)?;
            }
            Next::Over => return Ok(None),
        }
    }
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .context("usage: resolve_bench FILE [SPOTS] [BUDGET] [SEED]")?;
    let spots: usize = args.get(1).map_or(Ok(20), |s| s.parse()).context("SPOTS")?;
    let budget = match args.get(2).map_or("it:100", String::as_str).split_once(':') {
        Some(("it", n)) => Budget::Iterations(n.parse()?),
        Some(("ms", n)) => Budget::Millis(n.parse()?),
        _ => bail!("BUDGET is it:N or ms:N"),
    };
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse()).context("SEED")?;
    let blueprint = args.get(4).is_some_and(|s| s == "yes");
    let warm = args.get(5).is_none_or(|s| s == "yes");
    let method = match args.get(6).map_or("unsafe", String::as_str) {
        "unsafe" => Method::Unsafe,
        "safe" => Method::Safe,
        m => bail!("METHOD is unsafe or safe, not {m}"),
    };
    let two_streets = match args.get(7).map_or("1", String::as_str) {
        "1" => false,
        "2" => true,
        s => bail!("STREETS is 1 or 2, not {s}"),
    };
    let def = StrategyFile::open(Path::new(file))?.game().clone();
    let mut player = StrategyPlayer::open(file, &def)?;
    player.precompute_first_street();
    // As `players::load` gives a `:resolve` player's blueprint.
    player.remember_recent(solver::players::RESOLVE_RECENT_VIEWS);
    let options = Options {
        method,
        two_streets,
        ..Default::default()
    };
    let resolver = ResolvingPlayer::new(player, budget, options)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut range_ms, mut solve_ms, mut total_ms, mut its) = (vec![], vec![], vec![], vec![]);
    let mut warm_ms = vec![];
    let mut done = 0;
    while done < spots {
        let Some((st, bets)) = spot(&resolver, warm, &mut warm_ms, &mut rng)? else {
            continue;
        };
        done += 1;
        let t = Instant::now();
        let seat = st.to_act().context("a spot with no seat to act")?;
        let solved = resolver.solve(&st, &bets, budget, seat, &solver::resolve::Stop::NEVER)?;
        let total = t.elapsed().as_secs_f64() * 1000.0;
        let (sub, r) = &*solved;
        // Measured after the clock: the player does not wait for the best responses.
        let rep = r.report(sub);
        let blue = if blueprint {
            let avg = sub.policy_of(resolver.blueprint())?;
            Some(sub.exploitability(&avg).0)
        } else {
            None
        };
        println!(
            "{}",
            serde_json::json!({"spot": done, "report": rep, "total_millis": total,
                "blueprint_exploitability": blue})
        );
        range_ms.push(rep.range_millis);
        solve_ms.push(rep.solve_millis);
        total_ms.push(total);
        its.push(rep.iterations as f64 / (rep.solve_millis / 1000.0));
    }
    println!(
        "{}",
        serde_json::json!({
            "summary": true,
            "spots": spots,
            "budget": budget,
            "ranges_ms_p50": percentile(&mut range_ms, 0.5),
            "ranges_ms_p99": percentile(&mut range_ms, 0.99),
            "solve_ms_p50": percentile(&mut solve_ms, 0.5),
            "solve_ms_p99": percentile(&mut solve_ms, 0.99),
            "total_ms_p50": percentile(&mut total_ms, 0.5),
            "total_ms_p99": percentile(&mut total_ms, 0.99),
            "warm_ms_p50": if warm_ms.is_empty() { 0.0 } else { percentile(&mut warm_ms, 0.5) },
            "warm_ms_p99": if warm_ms.is_empty() { 0.0 } else { percentile(&mut warm_ms, 0.99) },
            "iterations_per_second_p50": percentile(&mut its, 0.5),
            "peak_bytes": status_bytes("VmHWM"),
        })
    );
    Ok(())
}
