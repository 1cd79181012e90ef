//! `stud eval ladder`: the validation ladder of the card abstraction on a walkable game.

use super::load_game;
use crate::cfr::{Algorithm, Sampling};
use crate::ladder::{check_iterations, climb, Rung};
use crate::session::available_memory;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Arguments of `stud eval ladder`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
stud eval ladder --game ministud --abstractions 1 2 3 4 6 lossless --iterations 10 30 100 300\n  \
stud eval ladder --game ministud --abstractions 2 4 lossless --iterations 1000 4000 --sample 3 --seed 1\n  \
stud eval ladder --game my-ministud.toml --abstractions 1 lossless --iterations 10 100 --json\n\n\
For each card abstraction, solves the abstract game with the CFR family and, at each iteration \
count, measures the average strategy's exploitability twice, both with the exact best response: \
in the abstract game (the responder is bound by the buckets too) and in the real game (the \
responder tells every private hand apart; the bucketed strategy is played by every hand of its \
bucket). Chips per game and milli-big-bets per game (1 mbb = 0.001 big bets). The abstractions \
are built once into --abstraction-dir (cached there).")]
pub struct Args {
    /// The game: a walkable heads-up stud game (ministud, or a TOML game file).
    #[arg(long, default_value = "ministud")]
    pub game: String,
    /// The card abstractions: lossless, bucketing presets (tiny, small, ...) or buckets per
    /// street (4, or 4,8).
    #[arg(long, num_args = 1.., default_values = ["1", "2", "3", "4", "6", "lossless"])]
    pub abstractions: Vec<String>,
    /// The iteration counts at which to measure, ascending.
    #[arg(long, num_args = 1.., default_values_t = [10, 30, 100, 300])]
    pub iterations: Vec<u64>,
    /// cfr+, dcfr or cfr.
    #[arg(long, default_value = "cfr+", value_parser = Algorithm::parse)]
    pub algorithm: Algorithm,
    /// Public chance sampling: children walked per chance node below the first (default: full
    /// width).
    #[arg(long)]
    pub sample: Option<usize>,
    /// The seed of the chance sampling draws.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The folder of the bucketing cache files.
    #[arg(long, default_value = "abstractions")]
    pub abstraction_dir: PathBuf,
    /// Worker threads (default: all cores). The figures are the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object per row instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `stud eval ladder`.
pub fn run(args: Args) -> Result<()> {
    let def = load_game(&args.game)?;
    check_iterations(&args.iterations)?;
    let pool = super::thread_pool(args.threads)?;
    if !args.json {
        println!(
            "{:<28} {:>9} {:>10} {:>10} {:>12} {:>12} {:>10} {:>8}",
            "abstraction",
            "buckets",
            "infosets",
            "iterations",
            "abstract",
            "real",
            "real mbb",
            "seconds"
        );
    }
    let print = |r: &Rung| {
        if args.json {
            println!("{}", serde_json::json!({ "game": args.game, "rung": r }));
        } else {
            let buckets: Vec<String> = r.buckets.iter().map(|b| b.to_string()).collect();
            println!(
                "{:<28} {:>9} {:>10} {:>10} {:>12.6} {:>12.6} {:>10.2} {:>8.1}",
                r.abstraction,
                buckets.join("/"),
                r.infosets,
                r.iterations,
                r.measure.abstract_game.chips,
                r.measure.real_game.chips,
                r.measure.real_game.mbb,
                r.seconds
            );
        }
    };
    for spec in &args.abstractions {
        pool.install(|| -> Result<()> {
            let cards =
                super::abstraction::card_abstraction(&def, spec, &args.abstraction_dir, args.json)?;
            climb(
                &def,
                cards,
                args.algorithm,
                args.sample.map(|batch| Sampling {
                    batch,
                    seed: args.seed,
                }),
                &args.iterations,
                available_memory(),
                &mut |r| print(r),
            )
            .with_context(|| format!("the {spec} rung"))?;
            Ok(())
        })?;
    }
    Ok(())
}
