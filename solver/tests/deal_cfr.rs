//! The deal-sampled solver on a walkable stud game: its average strategy, lifted onto the public
//! tree, measured in the real game by the exact best response.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::BettingTree;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::card_abstraction::Lossless;
use abstraction::cards::Rank;
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use solver::best_response::exploitability;
use solver::cfr::Algorithm;
use solver::deal_cfr::DealSolver;
use std::sync::Arc;
use std::time::Instant;

/// The deal-sampled solve of `def` with `buckets` per street: the real-game exploitability
/// (chips per game) of the uniform strategy, then after each count of `iterations`.
fn climb(
    def: &GameDef,
    buckets: &str,
    batch: usize,
    iterations: &[u64],
    alternating: bool,
    algorithm: Algorithm,
) -> Vec<(u64, f64, f64)> {
    let size = Size::parse(buckets, def.streets.len()).unwrap();
    let bucketing = Arc::new(Bucketing::build(def, &size, &|_| {}).unwrap());
    let betting = BettingAbstraction::for_game(def);
    let public = Tree::build(def, &Lossless, betting, 1 << 24).unwrap();
    let tree = BettingTree::build(def, betting, &size.buckets).unwrap();
    let mut s = DealSolver::new(def, tree, bucketing, batch, 7).unwrap();
    s.alternating = alternating;
    s.set_algorithm(algorithm).unwrap();
    let mut rows = vec![(
        0,
        exploitability(&public, &s.lift(&public).unwrap()).chips,
        0.0,
    )];
    let mut secs = 0.0;
    for &n in iterations {
        let start = Instant::now();
        while s.iterations < n {
            s.iterate().unwrap();
        }
        secs += start.elapsed().as_secs_f64();
        let e = exploitability(&public, &s.lift(&public).unwrap()).chips;
        rows.push((n, e, secs));
    }
    rows
}

#[test]
fn real_exploitability_falls_with_iterations() {
    let mut def = GameDef::ministud();
    def.deck.ranks = vec![Rank::KING, Rank::ACE];
    let rows = climb(&def, "32", 64, &[50, 200], false, Algorithm::CfrPlus);
    let (uniform, n, n4) = (rows[0].1, rows[1].1, rows[2].1);
    assert!(n < uniform / 4.0, "{rows:?}");
    assert!(n4 < n * 0.8, "{rows:?}");
}

/// The table of docs/ladder.md:
/// `cargo test --release -p solver --test deal_cfr -- --ignored --nocapture`
#[test]
#[ignore = "a minute of CPU; prints the ladder of docs/ladder.md"]
fn ladder_of_the_deal_sampled_solver() {
    let def = GameDef::ministud();
    println!(
        "| buckets | iterations | deals | real game (chips) | real game (mbb) | iteration s |"
    );
    println!("|---|---|---|---|---|---|");
    for k in ["2", "8", "32", "128"] {
        for (n, chips, secs) in climb(
            &def,
            k,
            256,
            &[25, 100, 400, 1600],
            false,
            Algorithm::CfrPlus,
        ) {
            println!(
                "| k{k}-{k} | {n} | {} | {chips:.6} | {:.2} | {secs:.1} |",
                n * 256,
                chips / def.big_bet as f64 * 1000.0
            );
        }
    }
}

/// The schedules side by side (docs/ladder.md):
/// `cargo test --release -p solver --test deal_cfr schedules -- --ignored --nocapture`
#[test]
#[ignore = "minutes of CPU; prints the schedule table of docs/ladder.md"]
fn schedules_of_the_deal_sampled_solver() {
    let def = GameDef::ministud();
    println!(
        "| buckets | algorithm | batch | iterations | deals | real game (chips) | iteration s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for k in ["8", "128"] {
        for (algorithm, batch, iterations) in [
            (Algorithm::CfrPlus, 256, [100, 400, 1600]),
            (Algorithm::Linear, 256, [100, 400, 1600]),
            (Algorithm::Linear, 64, [400, 1600, 6400]),
        ] {
            for (n, chips, secs) in climb(&def, k, batch, &iterations, false, algorithm) {
                println!(
                    "| k{k}-{k} | {} | {batch} | {n} | {} | {chips:.6} | {secs:.1} |",
                    algorithm.name(),
                    n * batch as u64
                );
            }
        }
    }
}
