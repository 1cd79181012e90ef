//! `stud eval resolve`: re-solving measured exactly on a walkable game (see
//! [`solver::resolve::verify`]).

use super::game_for;
use anyhow::{bail, Context};
use solver::bot::{ClassEstimate, Estimated, Player};
use solver::players::{load, open_strategy};
use solver::resolve::{
    depth_verify, verify, Budget, Method, Options, DEFAULT_FLOOR, DEFAULT_PLAYER_ITERATIONS,
};

/// Arguments of `stud eval resolve`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
stud solve --game ministud --solver deal --abstraction 8 --iterations 200 --out m8.strat\n  \
stud eval resolve m8.strat --iterations 30\n  \
stud eval resolve m8.strat:mixed --iterations 100 --floor 0 --json\n  \
stud eval resolve m8.strat --from-street 2nd --iterations 100\n  \
stud eval resolve m8.strat --from-street 2nd --leaves 4 --iterations 100 --json\n  \
stud eval resolve m8.strat --from-street 2nd --leaves 4 --nested --iterations 100\n  \
stud eval resolve m8.strat --from-street 2nd --nested --iterations 30 --json\n  \
stud eval resolve m8.strat --from-street 2nd --range-draws 8 --iterations 30\n  \
stud eval resolve m8.strat --from-street 2nd --nested --safe-nested --iterations 30\n  \
stud eval resolve m8.strat --from-street 2nd --nested --safe --gadget maxmargin --json\n  \
stud eval resolve m8.strat --from-street 2nd --safe --fallback --iterations 30\n\n\
On a walkable game (ministud, kings and aces and the like: one down card, the lossless public \
tree in memory), the player's strategy is lifted onto the lossless public tree and measured by \
the exact best response; then every last-street subgame it reaches is re-solved from the \
player's ranges, as `FILE:resolve` does at play time, its rows replace the player's there, and \
the result is measured the same way. Unsafe re-solving can make a strategy more exploitable: \
this says whether it does. With --from-street, the subgames start at the first decision of that \
street instead and hold the rest of the hand, the up cards still to come dealt inside them; \
with --leaves K they are depth-limited: that street alone is re-solved, each end of its betting \
valued by K continuations of the player's strategy (the strategy itself, then biased to fold, \
to call, to raise), the opponent choosing per hand, the player's own rows kept below (--nested: each later street \
re-solved the same way from the ranges of the re-solve above it; without --leaves, each later \
street re-solved again at full depth from them, as `FILE:search` does in seven-card stud). \
Exploitability is in chips per game (and milli-big-bets).")]
pub struct Args {
    /// The blueprint: a strategy file of a walkable game (FILE:mixed, FILE:pure or
    /// FILE:threshold=T say how its rows are played), or a built-in bot.
    pub strategy: String,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Iterations of each re-solve (DCFR).
    #[arg(long, default_value_t = DEFAULT_PLAYER_ITERATIONS, conflicts_with = "budget_ms")]
    pub iterations: u64,
    /// Instead of --iterations: iterations until this many milliseconds (the clock decides how
    /// many: the result may differ from run to run).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// The least probability by which an action taken weighs a holding in the ranges (0:
    /// Bayes' rule exactly; see docs/notes/resolve.md).
    #[arg(long, default_value_t = DEFAULT_FLOOR, value_parser = solver::resolve::parse_floor)]
    pub floor: f64,
    /// Re-solve safely: each seat's subgame solved through a re-solving gadget (--gadget), the
    /// opponent bounded by its counterfactual values against the blueprint (twice the
    /// re-solves; the ranges by Bayes' rule, whatever --floor says); with --nested, each
    /// nested re-solve bounded the same way by the rows of the re-solve above it.
    #[arg(long)]
    pub safe: bool,
    /// With --nested: the first re-solve as --safe says, each nested one safe, bounded by
    /// the rows of the re-solve above it (nesting then cannot make that re-solve more
    /// exploitable).
    #[arg(long, requires = "nested")]
    pub safe_nested: bool,
    /// With --safe or --safe-nested: a seat whose safe re-solve lets some opponent hand gain
    /// over its alternative (the bound not reached within the budget) mixes it with the
    /// strategy it replaces (the blueprint, or the rows of the re-solve above) at the largest
    /// share of 1/2, 1/4, 1/8 that holds the bound, else plays that strategy: a safe fallback.
    /// `FILE:resolve-safe,fallback` plays so.
    #[arg(long)]
    pub fallback: bool,
    /// The gadget of the safe re-solves: `resolve` (Burch et al.: each opponent hand may
    /// take its value against the strategy replaced) or `maxmargin` (Moravcik et al.: the
    /// re-solve widens the smallest margin by which the opponent's hands do worse).
    #[arg(long, value_enum, default_value_t = Gadget::Resolve)]
    pub gadget: Gadget,
    /// The street the subgames start on, as the game names it (`3rd`, `3rd street`, `3`):
    /// every first decision of it re-solved with the rest of the hand below (default: the
    /// last street).
    #[arg(long)]
    pub from_street: Option<String>,
    /// Depth-limited (with --from-street before the last street): re-solve that street alone,
    /// each end of its betting valued by this many continuation strategies (1 to 4: the
    /// player's strategy, then biased to fold, call, raise), the opponent choosing per hand.
    #[arg(
        long,
        value_name = "K",
        requires = "from_street",
        conflicts_with_all = ["safe", "safe_nested"]
    )]
    pub leaves: Option<usize>,
    /// With --from-street: re-solve each root of the following streets again (depth-limited
    /// with --leaves, else at full depth) from the ranges the re-solved strategy above it
    /// implies, as a player searching street by street would (`FILE:search`), instead of
    /// keeping the rows of the first re-solve (or the player's below a depth limit). The
    /// nested ranges are Bayes' rule on the rows above (--floor is the first re-solve's).
    #[arg(long, requires = "from_street")]
    pub nested: bool,
    /// Weigh the re-solves' ranges by the strategy file's classes estimated from N outer
    /// draws of each feature rollout (its own budget's are exact) while the player is lifted
    /// with its exact classes: what `FILE:resolve,range-draws=N` costs in strength.
    #[arg(long, value_name = "N", conflicts_with = "leaves")]
    pub range_draws: Option<u32>,
    /// `--threads`.
    #[command(flatten)]
    pub pool: super::args::Threads,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The gadget of `--gadget`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Gadget {
    /// Burch, Johanson and Bowling's re-solving gadget.
    Resolve,
    /// Moravcik et al.'s maxmargin gadget.
    Maxmargin,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.fallback && !args.safe && !args.safe_nested {
        bail!("--fallback falls back where a safe re-solve's bound does not hold: add --safe or --safe-nested");
    }
    let def = game_for(args.game.given(), &[&args.strategy], "ministud")?;
    let budget = match args.budget_ms {
        Some(ms) => Budget::Millis(ms),
        None if args.iterations == 0 => bail!("--iterations must be at least 1"),
        None => Budget::Iterations(args.iterations),
    };
    let last = def.streets.len() - 1;
    let street = match &args.from_street {
        None => last,
        Some(s) => def.street_named(s).with_context(|| {
            format!(
                "--from-street {s}: {} has {} to {}",
                def.variant.name(),
                def.street_name(0),
                def.street_name(last)
            )
        })?,
    };
    let player = load(&args.strategy, &def)?;
    let pool = args.pool.start()?;
    // Two lifted strategies sit beside the tree: the player's and the re-solved copy.
    let memory = solver::memory::available_memory().map(|m| m / 2);
    let tree = solver::ladder::lift_target(&def, memory)
        .with_context(|| format!("{} is not walkable here", def.variant.name()))?;
    let bar = super::deals_bar(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} subgames re-solved, {eta} left",
        )
        .expect("a valid template"),
    );
    let options = options(&args);
    let progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    let estimate = class_estimate(&args, &def)?;
    let estimated = estimate.as_ref().map(|estimate| Estimated {
        player: player.as_ref(),
        classes: estimate,
    });
    let ranges: &dyn Player = match &estimated {
        Some(e) => e,
        None => player.as_ref(),
    };
    let m = pool.install(|| match args.leaves {
        None => verify::measure_ranged(
            &def,
            &tree,
            (player.as_ref(), ranges),
            street,
            budget,
            options,
            &progress,
        ),
        Some(leaves) => depth_verify::measure_limited(
            &def,
            &tree,
            player.as_ref(),
            street,
            budget,
            options,
            depth_verify::Depth {
                leaves,
                nested: args.nested,
            },
            &progress,
        ),
    });
    bar.finish_and_clear();
    let m = m?;
    if args.output.json {
        let mut v = serde_json::to_value(m)?;
        v["strategy"] = args.strategy.clone().into();
        v["game"] = def.variant.name().into();
        v["budget"] = serde_json::to_value(budget)?;
        v["floor"] = options.range_floor().into();
        v["method"] = serde_json::to_value(options.method)?;
        v["nested_method"] = match options.nested {
            true => serde_json::to_value(options.nested_method)?,
            false => serde_json::Value::Null,
        };
        v["from_street"] = def.street_name(street).into();
        v["leaves"] = args.leaves.into();
        v["nested"] = args.nested.into();
        v["range_draws"] = args.range_draws.into();
        println!("{v}");
        return Ok(());
    }
    print_text(&args, &def, street, &m, options);
    Ok(())
}

/// The re-solves' options the flags ask for: unsafe, or safe behind the chosen gadget for the
/// first re-solve (`--safe`) or the nested ones (`--safe`, `--safe-nested`).
fn options(args: &Args) -> Options {
    let safe = match args.gadget {
        Gadget::Resolve => Method::Safe,
        Gadget::Maxmargin => Method::Maxmargin,
    };
    Options {
        floor: args.floor,
        method: if args.safe { safe } else { Method::Unsafe },
        nested: args.nested && args.leaves.is_none(),
        nested_method: if args.safe || args.safe_nested {
            safe
        } else {
            Method::Unsafe
        },
        fallback: args.fallback,
        ..Default::default()
    }
}

/// The strategy file's classes estimated for the ranges, where `--range-draws` asks.
fn class_estimate(
    args: &Args,
    def: &abstraction::rules::GameDef,
) -> anyhow::Result<Option<ClassEstimate>> {
    let Some(n) = args.range_draws else {
        return Ok(None);
    };
    Ok(Some(ClassEstimate::of(
        &open_strategy(&args.strategy, def)?,
        n,
    )?))
}

/// The measure in words.
fn print_text(
    args: &Args,
    def: &abstraction::rules::GameDef,
    street: usize,
    m: &verify::Measured,
    options: Options,
) {
    println!(
        "{} in {}: exact exploitability, chips per game",
        args.strategy,
        def.variant.name()
    );
    println!(
        "  as it plays:               {:.4} ({:.1} mbb)",
        m.blueprint.chips, m.blueprint.mbb
    );
    println!(
        "  re-solved from {}{}: {:.4} ({:.1} mbb), {} subgames, {:.0} DCFR iterations each",
        def.street_name(street),
        match args.leaves {
            Some(k) => format!(
                ", depth-limited ({k} continuation{} a leaf{})",
                if k == 1 { "" } else { "s" },
                if args.nested { ", nested" } else { "" }
            ),
            None => format!(
                "{}{}",
                match options.method {
                    Method::Unsafe => "",
                    Method::Safe => " safely",
                    Method::Maxmargin => " safely (maxmargin)",
                },
                match (options.nested, options.nested_method) {
                    (false, _) => "",
                    (true, Method::Unsafe) => ", nested street by street",
                    (true, _) => ", nested street by street, each safely",
                }
            ),
        },
        m.resolved.chips,
        m.resolved.mbb,
        m.subgames,
        m.iterations
    );
    println!(
        "  inside the subgames (mean, chips per hand reaching one): {:.4} as it plays, {:.4} \
         re-solved",
        m.mean_subgame_blueprint, m.mean_subgame_resolved
    );
    if let Some(gain) = m.max_opponent_gain {
        // The bound holds at the gadget game's equilibrium: this says how far the budget left it.
        println!(
            "  safe re-solves letting an opponent hand gain over its alternative: {} of {} \
             (the most {gain:.4} chips per hand reaching the subgame)",
            m.gaining_solves, m.safe_solves
        );
    }
    if m.unreached > 0 {
        println!(
            "  not re-solved, the rows kept: {} roots the strategy never reaches with hands \
             that can meet",
            m.unreached
        );
    }
    if options.fallback {
        println!(
            "  bound kept: {} first re-solves mixed with the strategy replaced, {} fallen back \
             to it, {} nested fallen back",
            m.mixed, m.fell_back, m.nested_fell_back
        );
    }
    println!(
        "  time: {:.1} s to lift the strategy, {:.1} s of re-solves",
        m.lift_millis / 1000.0,
        m.resolve_millis / 1000.0
    );
}
