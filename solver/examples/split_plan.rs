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
//! one-byte broadcasts (rank 0's stop and checkpoint words). A rank's memory counts its slots,
//! its scratch and the bucketing, which every rank holds whole (its centroids and the first
//! street's table, [`bucketing_bytes`]); rank 0's at the end also the strategy file's buffers
//! and the largest subtree it receives while writing it.
//!
//! The second table models a split this version does not run, the *hierarchy*: where there
//! are more ranks than subtrees below a street, a subtree's street is shared by a group of
//! ranks (each holds those few rows) and the subtrees of the next street below it are divided
//! within the group, recursively ([`hierarchy`]); a rank holds the first street, the street
//! rows of the groups it is in, and its own subtrees, not every rank's top. A batch then
//! all-gathers the values of one level of split points after another, each within the group
//! that shares the street above them (one more collective per level): a rank receives the
//! values its streets combine, not every split point's.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::features::Layout;
use abstraction::bucketing::{Bucketing, Shape, Size};
use abstraction::rules::GameDef;
use anyhow::{Context, Result};
use solver::deal_cfr::split::{DealPart, Split, FACT_BYTES};
use solver::deal_cfr::DealSolver;
use solver::strategy_file::{self, TreeKind, Width};

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
    let bucketing = bucketing_bytes(&def, &size)?;
    let gib = |b: usize| b as f64 / (1u64 << 30) as f64;
    let one =
        tree.num_slots * DealSolver::bytes_per_slot() + DealSolver::scratch_bytes(&tree, batch);
    println!(
        "{game}, buckets {:?}: {} slots; one process: {:.2} GiB of regrets, averages and scratch \
         and {:.1} MiB of bucketing; batch {batch}; {speed:.0} deals/s on one process; network \
         {:.1} us, {:.1} GB/s",
        size.buckets,
        tree.num_slots,
        gib(one),
        bucketing as f64 / (1 << 20) as f64,
        latency * 1e6,
        bandwidth / 1e9
    );
    let ranks: Vec<usize> = (ranks.iter())
        .map(|r| r.parse().context("RANKS"))
        .collect::<Result<_>>()?;
    let t1 = batch as f64 / speed;
    let time = |r: usize, most: usize, bytes: f64, collectives: f64| {
        let hops = (r as f64).log2().ceil();
        let comm = if r > 1 {
            collectives * latency * hops + bytes / bandwidth
        } else {
            0.0
        };
        let work = t1 * most as f64 / tree.num_slots as f64;
        (work, comm, batch as f64 / (work + comm))
    };
    println!("this version (every rank holds the top, the streets above one cut):");
    println!(
        "{:>6} {:>6} {:>7} {:>12} {:>10} {:>10} {:>10} {:>12} {:>10} {:>10} {:>9}",
        "ranks",
        "split",
        "points",
        "top slots",
        "most/rank",
        "GiB/rank",
        "GiB rank0",
        "bytes/batch",
        "work ms",
        "comm ms",
        "deals/s"
    );
    for &r in &ranks {
        let split = Split::plan(&tree, r);
        let most = (0..r).map(|k| split.slots_of(k)).max().unwrap_or(0);
        let mem = (0..r)
            .map(|k| {
                split.slots_of(k) * DealSolver::bytes_per_slot()
                    + DealPart::scratch_bytes(&tree, &split, k, batch)
            })
            .max()
            .unwrap_or(0)
            + bucketing;
        // Rank 0 at the end: its part, and the file written as the other ranks' masses arrive.
        let received = (split.points.iter().zip(&split.owner))
            .filter(|&(_, &o)| o != 0)
            .map(|(&p, _)| (tree.slot_range[p][1] - tree.slot_range[p][0]) as usize)
            .max()
            .unwrap_or(0);
        let lead = split.slots_of(0) * DealSolver::bytes_per_slot()
            + DealPart::scratch_bytes(&tree, &split, 0, batch)
            + bucketing
            + received * 4
            + strategy_file::write_bytes(
                TreeKind::Betting,
                tree.nodes.len(),
                tree.num_slots,
                tree.infosets(),
                Width::U8,
            );
        // Received by one rank per batch: the others' facts and the others' values.
        let others = (r - 1) as f64 / r as f64;
        let bytes = others * (batch * FACT_BYTES + split.points.len() * batch * 4) as f64;
        let (work, comm, deals) = time(r, most, bytes, 4.0);
        println!(
            "{r:>6} {:>6} {:>7} {:>12} {:>10} {:>10.3} {:>10.3} {:>12.0} {:>10.3} {:>10.3} {:>9.0}",
            split.top_streets,
            split.points.len(),
            split.top_slots,
            most,
            gib(mem),
            gib(lead),
            bytes,
            work * 1e3,
            comm * 1e3,
            deals
        );
    }
    println!("the hierarchy (modelled, not built; memory: slots and bucketing, scratch left out):");
    println!(
        "{:>6} {:>7} {:>7} {:>10} {:>10} {:>12} {:>10} {:>10} {:>9}",
        "ranks",
        "levels",
        "points",
        "most/rank",
        "GiB/rank",
        "bytes/batch",
        "work ms",
        "comm ms",
        "deals/s"
    );
    for &r in &ranks {
        let mut points = Vec::new();
        let held = hierarchy(&tree, 0, r, 0, &mut points);
        let most = held.iter().map(|h| h[0]).max().unwrap_or(0);
        let mem = most * DealSolver::bytes_per_slot() + bucketing;
        let total: usize = points.iter().sum();
        // A rank receives the others' facts and the values of its groups' split points.
        let others = (r - 1) as f64 / r as f64;
        let values = held.iter().map(|h| h[1]).max().unwrap_or(0);
        let bytes = others * (batch * FACT_BYTES) as f64 + (values * batch * 4) as f64;
        let (work, comm, deals) = time(r, most, bytes, (3 + points.len()) as f64);
        println!(
            "{r:>6} {:>7} {:>7} {:>10} {:>10.3} {:>12.0} {:>10.3} {:>10.3} {:>9.0}",
            points.len(),
            total,
            most,
            gib(mem),
            bytes,
            work * 1e3,
            comm * 1e3,
            deals
        );
    }
    Ok(())
}

/// The bytes of the bucketing every rank holds whole: its centroids (one `f32` a feature,
/// bucket and street) and the first street's table (three `u64` keys and a `u32` bucket per
/// canonical view, as many whatever the buckets: counted on a bucketing of one bucket a
/// street built from a few views).
fn bucketing_bytes(def: &GameDef, size: &Size) -> Result<usize> {
    let dim = Layout::new(Shape::of(def)?.showdown, &size.features).dim();
    let centroids: usize = size.buckets.iter().map(|&b| b as usize * dim * 4).sum();
    let mut one = Size::parse("1", def.streets.len())?;
    one.train = 64;
    let mut b = Bucketing::build(def, &one, &|_| {})?;
    let table = b.precompute_first_street() * (3 * 8 + 4);
    Ok(centroids + table)
}

/// The slots each of `ranks` ranks holds of the subtree below action node `p` (the first of
/// its street's betting) in the hierarchy: one rank holds it whole; more each hold the rows of
/// its street's action nodes and share the subtrees of the next street below them, each whole
/// to the rank with the fewest slots while there are at least as many subtrees as ranks, else
/// each to a group of ranks (one each, the rest one at a time to the group with the most
/// slots per rank), recursively: per rank, the slots it holds and the split points whose
/// values it receives (those below the streets it shares). `points[l]` counts the split
/// points of level `l`.
fn hierarchy(
    tree: &BettingTree,
    p: usize,
    ranks: usize,
    level: usize,
    points: &mut Vec<usize>,
) -> Vec<[usize; 2]> {
    let size = |i: usize| (tree.slot_range[i][1] - tree.slot_range[i][0]) as usize;
    let street = tree.nodes[p].street;
    let (mut top, mut kids, mut stack) = (0, Vec::new(), vec![p]);
    while let Some(i) = stack.pop() {
        let n = &tree.nodes[i];
        top += tree.num_buckets[n.street as usize] as usize * n.num_children as usize;
        for c in tree.children(i) {
            let m = &tree.nodes[c];
            if m.kind != BettingKind::Action {
                continue;
            }
            if m.street == street {
                stack.push(c);
            } else {
                kids.push(c);
            }
        }
    }
    if ranks == 1 || kids.is_empty() {
        let mut held = vec![[0, 0]; ranks];
        held[0][0] = size(p);
        return held;
    }
    if points.len() <= level {
        points.push(0);
    }
    points[level] += kids.len();
    kids.sort_by_key(|&k| (std::cmp::Reverse(size(k)), k));
    let mut held = vec![[top, kids.len()]; ranks];
    if kids.len() >= ranks {
        for &k in &kids {
            let r = (0..ranks).min_by_key(|&r| (held[r][0], r)).unwrap_or(0);
            held[r][0] += size(k);
        }
        return held;
    }
    let mut group = vec![1; kids.len()];
    for _ in kids.len()..ranks {
        let j = (0..kids.len())
            .max_by(|&a, &b| {
                let per = |j: usize| size(kids[j]) as f64 / group[j] as f64;
                per(a).total_cmp(&per(b)).then(b.cmp(&a))
            })
            .unwrap_or(0);
        group[j] += 1;
    }
    let mut at = 0;
    for (&k, &g) in kids.iter().zip(&group) {
        for [slots, values] in hierarchy(tree, k, g, level + 1, points) {
            held[at][0] += slots;
            held[at][1] += values;
            at += 1;
        }
    }
    held
}
