//! `stud match`: two players head to head on duplicate deals.

use super::game_for;
use solver::bot::load;
use solver::bot::matches::{play_match_with, MatchConfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Play two bots or strategies against each other on duplicate deals.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  stud match heuristic random --game 7stud --hands 10000 --seed 1\n  \
stud match raise call --game razz --hands 100 --phh-out hands/ --json\n  \
stud match strategies/razz-hu.strat heuristic --hands 200\n  \
stud match strategies/7stud-hu.strat:resolve strategies/7stud-hu.strat --hands 20 --seed 11\n\n\
The game is the one a strategy file records; --game, needed for two bots, may repeat it. \
A and B are bots (random, call, raise, heuristic) or strategy files. Each of the N deals is \
played twice, A in the first seat then in the second, the cards staying with the seats (each \
player holds both hands once), so 2N hands are played. The win rate of A is in milli-big-bets per hand (1 mbb = 0.001 \
big bets) with a 95% confidence interval from the variance between duplicate pairs. Deal i \
draws from its own streams of a ChaCha8 generator seeded with --seed: the result does not \
depend on the number of threads (RAYON_NUM_THREADS)."
)]
pub struct Args {
    /// Player A: a bot name or a strategy file (FILE:mixed, FILE:pure, FILE:threshold=T say how
    /// its rows are played; default threshold=0.15 for the real games; a final :resolve,
    /// :resolve=N or :resolve=Nms re-solves its last street at play time, N iterations or ms).
    pub a: String,
    /// Player B: a bot name or a strategy file (FILE:mixed, FILE:pure, FILE:threshold=T).
    pub b: String,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Deals to play; each is played twice.
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// Write every hand as PHH into this folder ({deal}a.phh: A in seat p1, {deal}b.phh: A in
    /// seat p2); stud games only.
    #[arg(long)]
    pub phh_out: Option<PathBuf>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let def = game_for(args.game.given(), &[&args.a, &args.b], "7stud")?;
    let a = load(&args.a, &def)?;
    let b = load(&args.b, &def)?;
    let cfg = MatchConfig {
        def: Arc::new(def),
        deals: args.hands,
        seed: args.random.seed,
        phh_out: args.phh_out,
    };
    let bar = super::deals_bar(args.output.json, args.hands);
    let start = Instant::now();
    let r = play_match_with(a.as_ref(), b.as_ref(), &cfg, &|| bar.inc(1));
    bar.finish_and_clear();
    let r = r?;
    let secs = start.elapsed().as_secs_f64();
    let per_sec = r.hands as f64 / secs.max(1e-9);
    if args.output.json {
        let mut v = serde_json::to_value(&r)?;
        v["a"] = args.a.into();
        v["b"] = args.b.into();
        v["game"] = cfg.def.variant.name().into();
        v["seed"] = args.random.seed.into();
        v["seconds"] = secs.into();
        v["hands_per_second"] = per_sec.into();
        println!("{v}");
    } else {
        println!(
            "{} vs {} at {}: {:+.1} ± {:.1} mbb/hand for {} (95% CI), {} deals = {} hands, \
             {} chips, {per_sec:.0} hands/s",
            args.a,
            args.b,
            cfg.def.variant,
            r.mbb_per_hand,
            r.ci95,
            args.a,
            r.deals,
            r.hands,
            r.chips_a,
        );
        for (name, n) in [(&args.a, r.fallbacks_a), (&args.b, r.fallbacks_b)] {
            if n > 0 {
                println!(
                    "{name}: {n} decisions gave no weight to any legal action and checked or \
                     called instead (the fallback)"
                );
            }
        }
    }
    Ok(())
}
