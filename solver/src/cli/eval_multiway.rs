//! `stud eval multiway`: the sampling multiway solver measured exactly on a walkable game of
//! three or more seats: its average strategy lifted onto the whole game tree
//! (`solver::multiway::lift`) after increasing numbers of traversals, its NashConv beside the
//! exact solver's at the same CPU time, and the lift checked against the strategy file's
//! player on hands played through the rules engine.

use abstraction::bucketing::{Size, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::history_tree::HistoryTree;
use abstraction::multiway_betting::WithinStreet;
use abstraction::multiway_deal::MultiwayView;
use abstraction::named::Named;
use abstraction::rules::GameDef;
use abstraction::tree::Budget;
use anyhow::{ensure, Context, Result};
use solver::bot::MultiwayPlayer;
use solver::cfr::Algorithm;
use solver::checkpoint::Problem;
use solver::memory::{available_memory, cpu_seconds, status_bytes};
use solver::multiway::lift::{check_player, merge, unmerge, Checked, Lift};
use solver::multiway::sampled::{Played, SampledSolver};
use solver::multiway::{nash_conv, Solver};
use solver::purify::Purification;
use solver::session::multiway::estimate;
use solver::session::sampled::{betting, write_strategy, ADVICE};
use solver::strategy_file::multiway::{as_stored, MultiwayFile, RowFormat};
use std::sync::Arc;

/// Arguments of `stud eval multiway`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
stud eval multiway --traversals 10000 100000 1000000 --abstraction-dir /work/exp/abst\n  \
stud eval multiway --game doorstud --abstraction 4 --traversals 100000 --json\n  \
stud eval multiway --abstraction 256:features=2 --traversals 100000 1000000 --threads 1\n  \
stud eval multiway --tremble 0.1 --traversals 100000 1000000 --play threshold=0.15 pure\n  \
stud eval multiway --tremble 0.1 --traversals 100000 1000000 --floor-iterations 0 --rows 8bit 4bit\n\n\
Solves the game with the sampling solver of real multiway stud (external-sampling MCCFR on the \
N-seat betting abstraction, a seat's cards bucketed against the best showing live opponent), \
lifts its average strategy after each number of traversals onto the whole game tree (each \
information set plays the row the sampled game's lookup finds for it) and measures its NashConv \
with the exact best response. Beside it, the exact multiway solver on the whole tree, run until \
it has used as much CPU time (both threads of the sampled solve counted), and its NashConv. The \
lift is checked at every decision of --check-hands random hands against the strategy file's own \
player. NashConv in chips per hand summed over the seats (0 at a Nash equilibrium).")]
#[command(mut_arg("game", |a| a.default_value("doorstud")))]
#[command(mut_arg("algorithm", |a| a
    .default_value(ALGORITHM.name())
    .help("The sampled solver's member of the CFR family")))]
pub struct Args {
    /// `--game`: a walkable game of three or more seats without community cards.
    #[command(flatten)]
    pub game: super::args::Game,
    /// The heads-up bucketing of the sampled solve: a preset or buckets per street (the
    /// default, 256, gives every view of `doorstud` its own bucket where the features differ),
    /// with `:features=2` for the features that tell how the share against the table is made up.
    #[arg(long, default_value = "256")]
    pub abstraction: String,
    /// `--abstraction-dir`.
    #[command(flatten)]
    pub cache: super::args::Cache,
    /// The numbers of traversals at which to measure, ascending (rounded up to whole batches).
    #[arg(long, num_args = 1.., default_values_t = [10_000u64, 100_000, 1_000_000])]
    pub traversals: Vec<u64>,
    /// `--batch` (default: 64 traversals per seat, as `stud solve`), `--view` and
    /// `--within-street` of the sampled solver, as `stud solve` takes them.
    #[command(flatten)]
    pub sampled: super::args::Sampled,
    /// `--algorithm` (linear unless given).
    #[command(flatten)]
    pub algorithm: super::args::Cfr,
    /// The sampled solver's other seats' tremble (as `stud solve --tremble`; default 0).
    #[arg(long, default_value_t = 0.0)]
    pub tremble: f32,
    /// The sampled solver's strategy measured (as `stud solve --strategy`: average or current).
    #[arg(long, default_value = "average", value_parser = Played::parse_or_list)]
    pub strategy: Played,
    /// The exact solver's member of the CFR family.
    #[arg(long, default_value = "cfr+", value_parser = Algorithm::parse)]
    pub exact_algorithm: Algorithm,
    /// Iterations of the exact solver on the abstract games (the information sets merged as
    /// the abstraction merges them: the betting abstraction alone, with the seat's view told
    /// apart exactly, with its buckets), to show where the sampled solver's NashConv floors; 0
    /// leaves them out.
    #[arg(long, default_value_t = 1000)]
    pub floor_iterations: u64,
    /// Random hands on which the lift is compared with the strategy file's player.
    #[arg(long, default_value_t = 2_000)]
    pub check_hands: usize,
    /// Ways of playing the lifted strategy measured beside it as solved (each row of the
    /// profile rewritten as a player in `stud match FILE:PLAY` plays it): `threshold=T` or
    /// `pure`.
    #[arg(long, num_args = 1.., value_name = "PLAY")]
    pub play: Vec<Purification>,
    /// Encodings of a file's rows measured beside the strategy as solved (every row rounded
    /// as a strategy file of that encoding stores it, and read back): `8bit` or `4bit` (as
    /// `stud solve --rows`).
    #[arg(long, num_args = 1.., value_name = "ROWS", value_parser = RowFormat::parse_or_list)]
    pub rows: Vec<RowFormat>,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// `--threads` (of the sampled solve; the exact solver walks on one).
    #[command(flatten)]
    pub pool: super::args::Threads,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The sampled solver's `--algorithm` when not given.
const ALGORITHM: Algorithm = Algorithm::Linear;

/// The sampled solver's algorithm: `--algorithm`, [`ALGORITHM`] by default.
fn algorithm_of(args: &Args) -> Algorithm {
    args.algorithm.or(ALGORITHM)
}

/// The sampled solver's view: `--view`, table by default.
fn view_of(args: &Args) -> MultiwayView {
    args.sampled.view.unwrap_or(MultiwayView::Table)
}

/// The sampled game's recall within a street: `--within-street`, history by default.
fn within_street_of(args: &Args) -> WithinStreet {
    args.sampled.within_street.unwrap_or(WithinStreet::History)
}

/// The most histories of a game measured: a walkable game has a few million; a real game is
/// refused once its walk passes this many, within seconds.
const MAX_HISTORIES: usize = 1 << 25;

/// The exact solver on an abstract game.
struct Floor {
    what: &'static str,
    sets: usize,
    nc: f64,
}

/// One row of the table.
struct Row {
    traversals: u64,
    sampled_cpu: f64,
    sampled: f64,
    /// The NashConv of the sampled strategy played each way of `--play`, in its order.
    played: Vec<f64>,
    /// The NashConv of the sampled strategy stored in each encoding of `--rows`, in its order.
    stored: Vec<f64>,
    exact_iterations: u64,
    exact_cpu: f64,
    exact: f64,
}

/// Runs the command: the sampled solve measured at each count of traversals, its lift checked
/// against the file's player, the exact solver's floors on the abstract games, then the exact
/// solver on the whole tree at the same CPU time.
pub fn run(args: Args) -> Result<()> {
    let def = args.game.load()?;
    let game = args.game.name();
    ensure!(
        def.seats >= 3,
        "{game} has {} seats: the multiway solvers play three or more (heads-up: stud eval ladder)",
        def.seats
    );
    ensure!(
        !args.traversals.is_empty() && args.traversals.windows(2).all(|w| w[0] < w[1]),
        "--traversals: one or more counts, ascending"
    );
    let quiet = args.output.json;
    let say = |s: String| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let pool = args.pool.start()?;
    let tree = game_tree(&def, game, &say)?;
    let (mut sampled, problem) = sampled_solver(&args, &def, game)?;
    let lift = Lift::new(
        &tree,
        &def,
        &sampled.betting,
        &sampled.buckets,
        &sampled.rows,
    )?;
    say(format!(
        "card abstraction {}: per street, {:?} distinct views (under suit renaming) in {:?} \
         buckets",
        sampled.buckets.heads_up.name(),
        lift.views,
        lift.buckets
    ));
    let mut rows = measure_sampled(&args, &pool, &mut sampled, &tree, &lift, &say)?;
    let checked = check_lift(&args, &def, &tree, &sampled, &problem, &lift)?;
    say(format!(
        "lift checked against the strategy file's player: {} decisions of {} hands, largest \
         difference of a probability {:.2e} (the file's rows are rounded to 1/255)",
        checked.decisions, checked.hands, checked.max_difference
    ));
    drop(sampled);
    let floors = floors(&args, &tree, &lift, &say)?;
    let infosets = tree.infosets.len();
    measure_exact(&args, tree, &mut rows, &say)?;
    let last = rows.last().context("no rows")?;
    let abstract_sets = lift
        .abstract_key
        .iter()
        .max()
        .map_or(0, |&k| k as usize + 1);
    let mut all = vec![Floor {
        what: "exact solver, whole tree",
        sets: infosets,
        nc: last.exact,
    }];
    all.extend(floors);
    all.push(Floor {
        what: "sampled solver",
        sets: abstract_sets,
        nc: last.sampled,
    });
    print(&args, game, &rows, &all, &lift, &checked);
    Ok(())
}

/// The whole game tree the profiles are measured on, refused if it will not fit.
fn game_tree(def: &GameDef, game: &str, say: &impl Fn(String)) -> Result<HistoryTree> {
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let budget = Budget {
        nodes: MAX_HISTORIES,
        bytes: available_memory().unwrap_or(usize::MAX),
        per_slot: solver::multiway::BYTES_PER_SLOT,
    };
    let tree = HistoryTree::build(def, budget).with_context(|| {
        format!("{game}'s game tree: stud eval multiway needs a walkable game (tristud has 8M histories)")
    })?;
    estimate(&tree, resident).check_fits(available_memory(), "a smaller game")?;
    say(format!(
        "{game}: game tree of {} histories, {} information sets, {} infoset-actions",
        tree.nodes.len(),
        tree.infosets.len(),
        tree.num_slots
    ));
    Ok(tree)
}

/// The sampling solver as the flags configure it, and the problem its file records.
fn sampled_solver(args: &Args, def: &GameDef, game: &str) -> Result<(SampledSolver, Problem)> {
    let seats = def.seats as usize;
    let batch = (args.sampled.batch)
        .unwrap_or(solver::solve::sampled::DEFAULT_BATCH_PER_SEAT * seats)
        .max(seats);
    let size = Size::parse(&args.abstraction, def.streets.len())
        .with_context(|| format!("--abstraction {} ({SIZES})", args.abstraction))?;
    let buckets = solver::solve::cards::multiway_buckets(
        def,
        &size,
        view_of(args),
        &args.cache.abstraction_dir,
        &super::solve_watch::Console::new(args.output.json, false),
    )
    .with_context(|| {
        format!("{game}: the sampling solver buckets stud cards (down and up, no community card)")
    })?;
    let abstract_game =
        betting(def, within_street_of(args), 50_000_000).with_context(|| ADVICE.to_string())?;
    let problem = Problem::sampled(def, &buckets, within_street_of(args));
    let mut sampled = SampledSolver::new(
        def,
        abstract_game,
        Arc::new(buckets),
        algorithm_of(args),
        batch,
        args.random.seed,
    )?;
    sampled.set_tremble(args.tremble)?;
    sampled.played = args.strategy;
    Ok((sampled, problem))
}

/// The sampled solve run to each count of `--traversals`, its lift's NashConv (and each way of
/// `--play`'s) measured there: the table's rows, the exact solver's columns still empty.
fn measure_sampled(
    args: &Args,
    pool: &rayon::ThreadPool,
    sampled: &mut SampledSolver,
    tree: &HistoryTree,
    lift: &Lift,
    say: &impl Fn(String),
) -> Result<Vec<Row>> {
    let batch = sampled.batch as u64;
    let mut rows = Vec::new();
    let mut cpu = 0.0;
    for &t in &args.traversals {
        let target = t.div_ceil(batch);
        let start = cpu_seconds()?;
        pool.install(|| -> Result<()> {
            while sampled.iterations < target {
                sampled.iterate()?;
            }
            Ok(())
        })?;
        sampled.settle();
        cpu += cpu_seconds()? - start;
        let policy = lift.policy(tree, &sampled.played_strategy());
        let nc = nash_conv(tree, &policy).total();
        say(format!(
            "sampled: {} traversals, {cpu:.1} CPU s, NashConv {nc:.5}",
            sampled.iterations * batch
        ));
        let played: Vec<f64> = (args.play.iter())
            .map(|&play| nash_conv(tree, &played_as(tree, &policy, play)).total())
            .collect();
        for (play, nc) in args.play.iter().zip(&played) {
            say(format!("  played {play}: NashConv {nc:.5}"));
        }
        let mut stored = Vec::with_capacity(args.rows.len());
        for &format in &args.rows {
            let rows = as_stored(sampled, format)?;
            let nc = nash_conv(tree, &lift.policy(tree, &rows)).total();
            say(format!("  rows stored {}: NashConv {nc:.5}", format.name()));
            stored.push(nc);
        }
        rows.push(Row {
            traversals: sampled.iterations * batch,
            sampled_cpu: cpu,
            sampled: nc,
            played,
            stored,
            exact_iterations: 0,
            exact_cpu: 0.0,
            exact: 0.0,
        });
    }
    Ok(rows)
}

/// The lift against the file's own player: the file written, read back and played.
fn check_lift(
    args: &Args,
    def: &GameDef,
    tree: &HistoryTree,
    sampled: &SampledSolver,
    problem: &Problem,
    lift: &Lift,
) -> Result<Checked> {
    let file =
        std::env::temp_dir().join(format!("stud-eval-multiway-{}.strat", std::process::id()));
    write_strategy(&file, sampled, problem, RowFormat::Byte)?;
    let player = MultiwayFile::open(&file).map(|f| MultiwayPlayer::new(f, "sampled"));
    std::fs::remove_file(&file).ok();
    let policy = lift.policy(tree, &sampled.played_strategy());
    check_player(
        tree,
        def,
        &policy,
        &player?,
        args.check_hands,
        args.random.seed,
    )
}

/// The exact solver on the abstract games (the information sets merged as the abstraction
/// merges them), `--floor-iterations` each: where the sampled solver's NashConv floors.
fn floors(
    args: &Args,
    tree: &HistoryTree,
    lift: &Lift,
    say: &impl Fn(String),
) -> Result<Vec<Floor>> {
    let mut floors = Vec::new();
    if args.floor_iterations == 0 {
        return Ok(floors);
    }
    let view = match view_of(args) {
        MultiwayView::BestOpponent => "betting abstraction, view against the best showing opponent",
        MultiwayView::Table => "betting abstraction, the table view exact",
    };
    for (what, key) in [
        ("betting abstraction, cards exact", &lift.betting_key),
        (view, &lift.view_key),
        (
            "betting abstraction, bucketed view (the sampled game)",
            &lift.abstract_key,
        ),
    ] {
        let merged = merge(tree, key)?;
        let sets = merged.infosets.len();
        let mut s = Solver::new(merged, args.exact_algorithm);
        while s.iterations < args.floor_iterations {
            s.iterate();
        }
        let policy = unmerge(tree, &s.tree, key, &s.average_strategy());
        let nc = nash_conv(tree, &policy).total();
        say(format!(
            "{what}: {sets} information sets, {} iterations, NashConv {nc:.5}",
            s.iterations
        ));
        floors.push(Floor { what, sets, nc });
    }
    Ok(floors)
}

/// The exact solver on the whole tree, run to each row's CPU time of the sampled solve: the
/// rows' exact columns.
fn measure_exact(
    args: &Args,
    tree: HistoryTree,
    rows: &mut [Row],
    say: &impl Fn(String),
) -> Result<()> {
    let mut exact = Solver::new(tree, args.exact_algorithm);
    let mut cpu = 0.0;
    for row in rows {
        let start = cpu_seconds()?;
        let mut spent = 0.0;
        while exact.iterations == 0 || cpu + spent < row.sampled_cpu {
            exact.iterate();
            spent = cpu_seconds()? - start;
        }
        cpu += spent;
        row.exact_iterations = exact.iterations;
        row.exact_cpu = cpu;
        row.exact = nash_conv(&exact.tree, &exact.average_strategy()).total();
        say(format!(
            "exact: {} iterations, {cpu:.1} CPU s, NashConv {:.5}",
            exact.iterations, row.exact
        ));
    }
    Ok(())
}

/// `policy` as a player plays it who rewrites each information set's row by `play`.
fn played_as(tree: &HistoryTree, policy: &[f64], play: Purification) -> Vec<f64> {
    let mut out = policy.to_vec();
    for set in &tree.infosets {
        let s = set.first_slot as usize;
        play.apply(&mut out[s..s + set.actions as usize]);
    }
    out
}

/// The tables, or one JSON object.
fn print(args: &Args, game: &str, rows: &[Row], floors: &[Floor], lift: &Lift, checked: &Checked) {
    let last = &rows[rows.len() - 1];
    let runs = |f: &Floor| match f.what {
        "sampled solver" => format!("{} traversals", last.traversals),
        "exact solver, whole tree" => format!("{} iterations", last.exact_iterations),
        _ => format!("{} iterations", args.floor_iterations),
    };
    if args.output.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "traversals": r.traversals,
                    "sampled_cpu_seconds": r.sampled_cpu,
                    "sampled_nash_conv": r.sampled,
                    "played": args.play.iter().zip(&r.played).map(|(p, nc)| serde_json::json!({
                        "play": p.to_string(),
                        "nash_conv": nc,
                    })).collect::<Vec<_>>(),
                    "stored": args.rows.iter().zip(&r.stored).map(|(f, nc)| serde_json::json!({
                        "rows": f.name(),
                        "nash_conv": nc,
                    })).collect::<Vec<_>>(),
                    "exact_iterations": r.exact_iterations,
                    "exact_cpu_seconds": r.exact_cpu,
                    "exact_nash_conv": r.exact,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "game": game,
                "abstraction": args.abstraction,
                "algorithm": algorithm_of(args).name(),
                "strategy": args.strategy.name(),
                "exact_algorithm": args.exact_algorithm.name(),
                "seed": args.random.seed,
                "views": lift.views,
                "buckets": lift.buckets,
                "checked_decisions": checked.decisions,
                "checked_max_difference": checked.max_difference,
                "rows": rows,
                "floors": floors.iter().map(|f| serde_json::json!({
                    "profile": f.what,
                    "information_sets": f.sets,
                    "run": runs(f),
                    "nash_conv": f.nc,
                })).collect::<Vec<_>>(),
            })
        );
        return;
    }
    let plays: String = (args.play.iter().map(|p| format!(" sampled, {p} |")))
        .chain(
            args.rows
                .iter()
                .map(|f| format!(" sampled, rows {} |", f.name())),
        )
        .collect();
    println!(
        "| traversals | sampled CPU s | sampled NashConv |{plays} exact {} iterations | exact CPU s | exact NashConv |",
        args.exact_algorithm.name()
    );
    println!(
        "|---|---|---|{}---|---|---|",
        "---|".repeat(args.play.len() + args.rows.len())
    );
    for r in rows {
        let played: String = (r.played.iter().chain(&r.stored))
            .map(|nc| format!(" {nc:.5} |"))
            .collect();
        println!(
            "| {} | {:.1} | {:.5} |{played} {} | {:.1} | {:.5} |",
            r.traversals, r.sampled_cpu, r.sampled, r.exact_iterations, r.exact_cpu, r.exact
        );
    }
    println!("\n| profile | information sets | run | NashConv |\n|---|---|---|---|");
    for f in floors {
        println!("| {} | {} | {} | {:.5} |", f.what, f.sets, runs(f), f.nc);
    }
}
