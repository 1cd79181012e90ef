//! A multiway file's row lookup (`MultiwayFile::row_into`, the query path's read of a row once
//! the spot and bucket are known) in each encoding of the same strategy, in one run, printed as
//! a table with each encoding's ratio to the 8-bit rows.
//!
//! The file (default: the shipped four-handed one, whose rows are two bytes a slot) is
//! re-encoded at 8 and 4 bits into a temporary folder; the same seeded random list of
//! (decision, pot class, bucket) is read from each. The encodings take turns, several rounds,
//! and each keeps its best round (the machine is shared: the best round is the least
//! disturbed). Run with `scripts/bench-rows [FILE] [LOOKUPS]`.

use abstraction::draw::below;
use abstraction::multiway_betting::{pot_classes, MwKind, Spot};
use rand::SeedableRng;
use solver::strategy_file::multiway::{convert, MultiwayFile, RowFormat};
use solver::strategy_file::MAX_ACTIONS;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// `lookups` random rows of `f`'s layout: every decision of every tree, any pot class and bucket.
fn random_rows(f: &MultiwayFile, lookups: usize) -> Vec<(Spot, u32)> {
    let mut decisions = Vec::new();
    for (ti, t) in f.betting.trees.iter().enumerate() {
        for node in t.root..t.end {
            if f.betting.nodes[node as usize].kind == MwKind::Action {
                decisions.push((ti as u32, node, t.street as usize));
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    (0..lookups)
        .map(|_| {
            let (tree, node, street) = decisions[below(&mut rng, decisions.len())];
            let pot_class = below(&mut rng, pot_classes(street) as usize) as u8;
            let bucket = below(&mut rng, f.rows.buckets[street] as usize) as u32;
            let spot = Spot {
                tree,
                node,
                pot_class,
            };
            (spot, bucket)
        })
        .collect()
}

/// Reads every row of `rows` from `f`; a checksum of what was read.
fn read_all(f: &MultiwayFile, rows: &[(Spot, u32)]) -> f64 {
    let mut out = [0.0; MAX_ACTIONS];
    let mut sum = 0.0;
    for (spot, bucket) in rows {
        let k = f
            .row_into(spot, *bucket, &mut out)
            .expect("a row of the file");
        sum += out[k - 1];
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = args
        .first()
        .map_or(root.join("strategies/7stud-4p.strat"), PathBuf::from);
    let lookups: usize = args
        .get(1)
        .map_or(2_000_000, |n| n.parse().expect("LOOKUPS"));
    let dir = std::env::temp_dir().join(format!("stud-bench-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let original = MultiwayFile::open(&file).expect("a multiway strategy file");
    let mut files = vec![(
        format!("as shipped ({})", original.stored().encoding),
        original,
    )];
    for format in [RowFormat::Byte, RowFormat::Nibble] {
        let path = dir.join(format!("{}.strat", format.bits()));
        convert(&files[0].1, &path, format).expect("re-encoded");
        let f = MultiwayFile::open(&path).expect("re-encoded file");
        files.push((format!("{}bit", format.bits()), f));
    }
    let rows = random_rows(&files[0].1, lookups);
    let mut best = vec![0f64; files.len()];
    for _ in 0..7 {
        for ((_, f), best) in files.iter().zip(&mut best) {
            let t = Instant::now();
            black_box(read_all(f, black_box(&rows)));
            *best = best.max(lookups as f64 / t.elapsed().as_secs_f64());
        }
    }
    println!(
        "{}: {lookups} random rows, best of 7 rounds",
        file.display()
    );
    println!("| rows | file MiB | million lookups/s | ratio to 8bit |\n|---|---|---|---|");
    for ((name, f), rate) in files.iter().zip(&best) {
        println!(
            "| {name} | {:.2} | {:.1} | {:.2} |",
            f.bytes as f64 / (1 << 20) as f64,
            rate / 1e6,
            rate / best[1]
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
