//! `stud eval`: measures of a strategy's strength; `stud eval lbr`, the local best response.

use super::load_game;
use crate::bot::matches::{play_match, MatchConfig};
use crate::bot::{Lbr, StrategyPlayer};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Measure a strategy.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Measure,
}

#[derive(clap::Subcommand)]
enum Measure {
    /// Local best response: a lower bound on the strategy's exploitability.
    Lbr(LbrArgs),
}

/// Arguments of `stud eval lbr`.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  stud eval lbr strategies/leduc.strat --game leduc --hands 20000 --seed 1\n\n\
LBR (Lisy and Bowling 2017) plays the strategy on duplicate deals (each played twice, seats \
swapped). At each of its decisions it infers the strategy's range over its hidden card from the \
strategy's probabilities of the actions taken, and picks the action of best expected value \
assuming the rest of the hand is checked down (a bet or raise counts the strategy's chance of \
folding to it). Its win rate, with a 95% confidence interval, is a lower bound on the \
exploitability; the exploitability stored in the file (exact, on games the solver walks) is \
printed beside it."
)]
pub struct LbrArgs {
    /// The strategy file.
    pub strategy: PathBuf,
    /// The game the strategy was solved for: a preset or a TOML game file.
    #[arg(long)]
    pub game: String,
    /// Deals to play; each is played twice.
    #[arg(long, default_value_t = 10_000)]
    pub hands: u64,
    /// The seed of the deals.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Rollouts per equity estimate of the cards to come.
    #[arg(long, default_value_t = 64)]
    pub rollouts: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Measure::Lbr(args) = args.command;
    let def = load_game(&args.game)?;
    let path = args.strategy.to_string_lossy().to_string();
    let strategy = Arc::new(StrategyPlayer::open(&path, &def)?);
    let lbr = Lbr {
        strategy: Arc::clone(&strategy),
        rollouts: args.rollouts,
    };
    let cfg = MatchConfig {
        def: Arc::new(def),
        deals: args.hands,
        seed: args.seed,
        phh_out: None,
    };
    let start = Instant::now();
    let r = play_match(&lbr, strategy.as_ref(), &cfg)?;
    let secs = start.elapsed().as_secs_f64();
    let exact = strategy.exploitability_mbb();
    if args.json {
        let mut v = serde_json::to_value(&r)?;
        v["strategy"] = path.into();
        v["lbr_mbb_per_hand"] = r.mbb_per_hand.into();
        v["exploitability_mbb"] = exact.into();
        v["seconds"] = secs.into();
        println!("{v}");
    } else {
        println!(
            "LBR against {path}: {:+.1} ± {:.1} mbb/hand (95% CI), {} hands in {secs:.1} s; \
             exploitability stored in the file: {}",
            r.mbb_per_hand,
            r.ci95,
            r.hands,
            exact.map_or("not measured".into(), |e| format!("{e:.1} mbb/hand")),
        );
    }
    Ok(())
}
