//! `stud eval`: measures of a strategy's strength; `stud eval lbr`, the local best response;
//! `stud eval ladder`, the validation ladder of the card abstraction; `stud eval resolve`, the
//! exact effect of re-solving on a walkable game; `stud eval multiway`, the sampling multiway
//! solver's exact NashConv on a walkable game of three or more seats.

use super::game_for;
use abstraction::rules::GameDef;
use anyhow::ensure;
use solver::bot::{Candidates, Lbr, Lookahead, Player, BOT_NAMES};
use solver::players::{load, open_strategy};
use solver::purify::Purification;
use std::sync::Arc;
use std::time::Instant;

/// Measure a strategy: local best response (`lbr`), the validation ladder (`ladder`),
/// re-solving's exact effect (`resolve`) or the sampling multiway solver's NashConv
/// (`multiway`).
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Measure,
}

#[derive(clap::Subcommand)]
enum Measure {
    /// Local best response: a lower bound on the strategy's exploitability.
    Lbr(LbrArgs),
    /// The validation ladder: real-game exploitability of abstract solutions, by abstraction
    /// size and iterations, on a walkable game.
    Ladder(Box<super::ladder::Args>),
    /// Re-solving measured exactly: a walkable game's strategy with and without its last
    /// street re-solved, against the exact best response.
    Resolve(super::eval_resolve::Args),
    /// The sampling multiway solver measured exactly: its strategy lifted onto a walkable
    /// game's whole tree, its NashConv by traversals beside the exact solver's.
    Multiway(Box<super::eval_multiway::Args>),
}

/// Arguments of `stud eval lbr`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  stud eval lbr strategies/razz-hu.strat --hands 200 --seed 1\n  \
stud eval lbr heuristic --game 7stud --hands 100 --json\n  \
stud eval lbr strategies/7stud-hu.strat --hands 20 --candidates all\n  \
stud eval lbr strategies/5stud-hu.strat --hands 200 --lookahead street\n\n\
LBR (Lisy and Bowling 2017) plays the player on duplicate deals (each played twice, seats \
swapped). It follows the player's range over its hidden cards through each hand, weighing each \
holding by the player's probabilities of the actions it took (every holding with --candidates \
all, about 20 times the time of the default sample of 256 in seven-card stud), and at each of \
its decisions picks the action of best expected value \
assuming the rest of the hand is checked down (a bet or raise counts the player's chance of \
folding to it). With --lookahead street it values each action instead by walking the rest of \
the street's betting against the range, the player raising or folding as its strategy says and \
LBR answering, the hand checked down only where the street's betting ends (on the last street: \
the exact best response to the range). Its win rate, with a 95% confidence interval, is a lower bound on the \
exploitability; the exploitability stored in a strategy file (exact, on games the solver walks) \
is printed beside it."
)]
pub struct LbrArgs {
    /// The player exploited: a strategy file (FILE:mixed, FILE:pure, FILE:threshold=T say how
    /// its rows are played; default threshold=0.15 for the real games) or a built-in bot
    /// (random, call, raise, heuristic).
    pub strategy: String,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Deals to play; each is played twice.
    #[arg(long, default_value_t = 10_000)]
    pub hands: u64,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// Rollouts per equity estimate of the cards to come.
    #[arg(long, default_value_t = 64)]
    pub rollouts: u32,
    /// The opponent's holdings of its hidden cards that LBR weighs: `all` (the exact range), or
    /// at most this many (all of them when there are no more, else this many drawn at random).
    #[arg(long, default_value_t = Candidates::Sample(256))]
    pub candidates: Candidates,
    /// How far LBR looks at each decision: `none` (the hand checked down after the action) or
    /// `street` (the rest of the street's betting walked against the player's range; up to
    /// twice the time).
    #[arg(long, default_value_t = Lookahead::None)]
    pub lookahead: Lookahead,
    /// Also write each deal's net chips for LBR (over its two hands), one line per deal in the
    /// order of the deals, to this file: two runs on the same seed compared deal by deal.
    #[arg(long)]
    pub nets: Option<std::path::PathBuf>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let args = match args.command {
        Measure::Lbr(a) => a,
        Measure::Ladder(a) => return super::ladder::run(*a),
        Measure::Resolve(a) => return super::eval_resolve::run(a),
        Measure::Multiway(a) => return super::eval_multiway::run(*a),
    };
    let path = args.strategy;
    // The arguments first, before seconds of preparation.
    ensure!(
        args.hands >= 2,
        "a match needs at least 2 deals for a confidence interval"
    );
    let def = game_for(args.game.given(), &[&path], "7stud")?;
    // Tabulating a strategy's first street takes seconds of CPU before the first deal: say so,
    // and report its time beside the deals'.
    let prepared = Instant::now();
    if !args.output.json && !BOT_NAMES.contains(&path.as_str()) {
        eprintln!("loading {path} and tabulating its first street's buckets");
    }
    let (player, exact) = load_for_many_hands(&path, &def)?;
    let def = Arc::new(def);
    let lbr = Lbr::new(
        player.as_ref(),
        Arc::clone(&def),
        args.rollouts,
        args.candidates,
    )?
    .with_lookahead(args.lookahead);
    let prepare_secs = prepared.elapsed().as_secs_f64();
    let bar = super::deals_bar(args.hands);
    let start = Instant::now();
    let deals = lbr.play_deals(args.hands, args.random.seed, &|| bar.inc(1));
    bar.finish_and_clear();
    let deals = deals?;
    let secs = start.elapsed().as_secs_f64();
    if let Some(path) = &args.nets {
        let text: String = deals.nets.iter().map(|n| format!("{n}\n")).collect();
        solver::container::write_bytes(path, text.as_bytes())?;
    }
    let r = deals.result(def.big_bet)?;
    if args.output.json {
        let mut v = serde_json::to_value(&r)?;
        v["strategy"] = path.into();
        v["lbr_mbb_per_hand"] = r.mbb_per_hand.into();
        v["exploitability_mbb"] = exact.into();
        v["seconds"] = secs.into();
        v["prepare_seconds"] = prepare_secs.into();
        v["game"] = def.variant.name().into();
        v["seed"] = args.random.seed.into();
        v["candidates"] = match args.candidates {
            Candidates::All => "all".into(),
            Candidates::Sample(m) => m.into(),
        };
        v["rollouts"] = args.rollouts.into();
        v["lookahead"] = args.lookahead.to_string().into();
        println!("{v}");
    } else {
        println!(
            "LBR ({} lookahead) against {path}: {:+.1} ± {:.1} mbb/hand (95% CI), {} hands in {secs:.1} s \
             (after {prepare_secs:.1} s preparing the player){}",
            args.lookahead,
            r.mbb_per_hand,
            r.ci95,
            r.hands,
            exact.map_or(String::new(), |e| format!(
                "; exploitability stored in the file: {e:.1} mbb/hand"
            )),
        );
        if r.fallbacks_b > 0 {
            println!(
                "{path}: {} decisions gave no weight to any legal action and checked or called \
                 instead (the fallback)",
                r.fallbacks_b
            );
        }
    }
    Ok(())
}

/// The player `spec` names (see [`load`]), ready for many hands: a strategy file gets its
/// first-street bucket table (seconds to build at the default size, then every first-street
/// lookup is a binary search; LBR asks one per candidate hand). With the exploitability stored
/// in the file, if any and if the player plays the file's rows as solved.
pub(super) fn load_for_many_hands(
    spec: &str,
    def: &GameDef,
) -> anyhow::Result<(Box<dyn Player>, Option<f64>)> {
    if BOT_NAMES.contains(&spec) {
        return Ok((load(spec, def)?, None));
    }
    let mut p = open_strategy(spec, def)?;
    p.precompute_first_street();
    // The stored figure is the mixed strategy's: a player that plays it otherwise has its own.
    let exact = (p.purification() == Purification::Mixed)
        .then(|| p.file().header()?.exploitability.as_ref().map(|e| e.mbb))
        .flatten();
    Ok((Box::new(p), exact))
}
