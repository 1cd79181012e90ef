//! `stud eval multiway`: the sampling multiway solver measured exactly on a walkable game of
//! three or more seats: two solves of the library's `solve::drive`, each with a measurement
//! schedule: the sampled solve measured at each count of traversals (its average strategy
//! lifted onto the whole game tree, `solver::multiway::lift`, and its NashConv taken), then the
//! exact solver run to the same CPU times; between them the lift checked against the strategy
//! file's player on hands played through the rules engine, and the exact solver's floors on
//! the abstract games. The whole game tree is built once, for all of them.

use abstraction::bucketing::Progress as Building;
use abstraction::history_tree::HistoryTree;
use abstraction::multiway_betting::WithinStreet;
use abstraction::multiway_deal::MultiwayView;
use abstraction::named::Named;
use abstraction::rules::GameDef;
use anyhow::{bail, ensure, Context, Result};
use solver::bot::check::{check_player, Checked};
use solver::bot::MultiwayPlayer;
use solver::cfr::Algorithm;
use solver::multiway::lift::{floor, Lift};
use solver::multiway::sampled::Played;
use solver::purify::Purification;
use solver::session::Plan;
use solver::solve::report::{Measured, Results, Row as Measurement};
use solver::solve::{self, MeasureAt, Request, Settings, Tick, Watcher};
use solver::strategy_file::multiway::{MultiwayFile, RowFormat};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `stud eval multiway`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
stud eval multiway --traversals 10000 100000 1000000\n  \
stud eval multiway --game doorstud --abstraction 4 --traversals 100000 --json\n  \
stud eval multiway --abstraction 256:features=3 --traversals 100000 1000000 --threads 1\n  \
stud eval multiway --abstraction 256:features=3:extra=0.01 --traversals 100000 --floor-iterations 0\n  \
stud eval multiway --tremble 0.1 --traversals 100000 1000000 --play threshold=0.15 pure\n  \
stud eval multiway --tremble 0.1 --traversals 100000 1000000 --floor-iterations 0 --rows 8bit 4bit\n  \
stud eval multiway --game testdata/games/door2.toml --multiway-cap 1@3 --traversals 100000 1000000 --floor-iterations 0\n\n\
Solves the game with the sampling solver of real multiway stud (external-sampling MCCFR on the \
N-seat betting abstraction, a seat's cards bucketed against the best showing live opponent), \
lifts its average strategy after each number of traversals onto the whole game tree (each \
information set plays the row the sampled game's lookup finds for it) and measures its NashConv \
with the exact best response. Beside it, the exact multiway solver on the whole tree, run until \
it has used as much CPU time (both threads of the sampled solve counted), and its NashConv. The \
lift is checked at every decision of --check-hands random hands against the strategy file's own \
player. With --multiway-cap the abstraction is capped and the game is not: each information set \
plays as the file's player does (a raise past the cap is the abstract call, and a seat acting \
again on that street calls), so the cap's cost is the NashConv against an uncapped run's at \
equal traversals. NashConv in chips per hand summed over the seats (0 at a Nash equilibrium).")]
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
    /// with `:features=2` for the features that tell how the share against the table is made up,
    /// `:features=3` for those and the classes of the folded seats' and my down cards
    /// (`:extra=W`: those classes at the weight W instead of the board weight).
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
    /// Start the sampled solve from this strategy file of the same game and abstraction (as
    /// `stud solve --warm`): its traversals count in --traversals, so measure past them.
    #[arg(long, value_name = "FILE")]
    pub warm: Option<PathBuf>,
    /// A lock file for the sampled solve (as `stud solve --lock`): its NashConv then counts the
    /// locked seats' gains from leaving the lock too, which do not vanish.
    #[arg(long, value_name = "FILE")]
    pub lock: Option<PathBuf>,
    /// With --warm: each row's average mass and regret scale (as `stud solve --warm-mass`).
    #[arg(long, value_name = "N", requires = "warm",
          default_value_t = solve::sampled::DEFAULT_WARM_MASS)]
    pub warm_mass: f32,
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

/// What the sampled solve leaves for the check and the floors.
struct Sampled {
    rows: Vec<Row>,
    /// Its strategy file.
    file: PathBuf,
    /// The strategy it played, unrounded.
    played: Vec<f32>,
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
    let pool = args.pool.start()?;
    let dir = std::env::temp_dir().join(format!("stud-eval-multiway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let measured = pool.install(|| measure(&args, &def, game, &dir));
    std::fs::remove_dir_all(&dir).ok();
    let (rows, floors, lift, checked) = measured?;
    print(&args, game, &rows, &floors, &lift, &checked);
    Ok(())
}

/// The two solves, the check and the floors: the table's rows, its floors (the whole tree's
/// exact solve first, the sampled solve last), the lift and the check; the files in `dir`.
fn measure(
    args: &Args,
    def: &GameDef,
    game: &str,
    dir: &Path,
) -> Result<(Vec<Row>, Vec<Floor>, Lift, Checked)> {
    let mut lines = Lines::new(args.output.json);
    // Built once: the sampled solve measures on it, the check and the floors walk it, the
    // exact solve solves a copy.
    let tree = Arc::new(solve::sampled::game_tree(def, game)?);
    let sampled = solve_sampled(args, def, game, dir, &tree, &mut lines)?;
    let file = MultiwayFile::open(&sampled.file)?;
    let lift = Lift::new(&tree, def, &file.betting, &file.buckets, &file.rows)?;
    if let Some(cap) = args.sampled.multiway_cap {
        lines.say(&format!(
            "multiway cap {}: {} of the {} information sets are past it (the seat calls)",
            cap.name(),
            lift.closed,
            tree.infosets.len()
        ));
    }
    let policy = lift.policy(&tree, &sampled.played);
    // The lift is the rows as stored: checked against the player that plays them so.
    let player = MultiwayPlayer::new(file, "sampled").rows_as_stored();
    let checked = check_player(
        &tree,
        def,
        &policy,
        &player,
        args.check_hands,
        args.random.seed,
    )?;
    lines.say(&format!(
        "lift checked against the strategy file's player: {} decisions of {} hands, largest \
         difference of a probability {:.2e} (the file's rows are rounded to 1/255)",
        checked.decisions, checked.hands, checked.max_difference
    ));
    let floors = floors(args, &tree, &lift, &lines)?;
    let mut rows = sampled.rows;
    solve_exact(args, def, game, dir, &tree, &mut rows, &mut lines)?;
    let last = rows.last().context("no rows")?;
    let abstract_sets = lift.abstract_sets();
    let mut all = vec![Floor {
        what: "exact solver, whole tree",
        sets: tree.infosets.len(),
        nc: last.exact,
    }];
    all.extend(floors);
    all.push(Floor {
        what: "sampled solver",
        sets: abstract_sets,
        nc: last.sampled,
    });
    Ok((rows, all, lift, checked))
}

/// A request of `settings` on the game, its files in `dir`, measured at `measure_at`.
fn request(
    args: &Args,
    def: &GameDef,
    game: &str,
    out: PathBuf,
    settings: Settings,
    measure_at: MeasureAt,
) -> Request {
    Request {
        game: def.clone(),
        name: game.to_string(),
        iterations: measure_at.iterations.last().copied(),
        time: None,
        out: Some(out),
        keep_checkpoint: false,
        resume: false,
        seed: args.random.seed,
        abstraction_dir: args.cache.abstraction_dir.clone(),
        lock: None,
        settings,
        measure_at,
    }
}

/// The sampled solve as the flags configure it, measured at each count of `--traversals`
/// (rounded up to whole batches): the table's rows, the exact solver's columns still empty.
fn solve_sampled(
    args: &Args,
    def: &GameDef,
    game: &str,
    dir: &Path,
    tree: &Arc<HistoryTree>,
    lines: &mut Lines,
) -> Result<Sampled> {
    let seats = def.seats as usize;
    let batch = (args.sampled.batch)
        .unwrap_or(solve::sampled::DEFAULT_BATCH_PER_SEAT * seats)
        .max(seats);
    let at: Vec<u64> = args
        .traversals
        .iter()
        .map(|t| t.div_ceil(batch as u64))
        .collect();
    if let Some(w) = at.windows(2).find(|w| w[0] == w[1]) {
        bail!(
            "--traversals: two counts round up to the same {} batches of {batch} traversals",
            w[0]
        );
    }
    let settings = Settings::Sampled(solve::sampled::Settings {
        algorithm: algorithm_of(args),
        abstraction: args.abstraction.clone(),
        batch,
        // No checkpoint before the end: an evaluation is measured, not resumed.
        checkpoint_every: Duration::MAX,
        tremble: args.tremble,
        view: view_of(args),
        within_street: within_street_of(args),
        cap: args.sampled.multiway_cap,
        strategy: args.strategy,
        rows: RowFormat::Byte,
        warm: args.warm.clone().map(|file| solve::sampled::Warm {
            file,
            mass: args.warm_mass,
        }),
    });
    let measure_at = MeasureAt {
        iterations: at,
        count_cpu: true,
        plays: args.play.clone(),
        rows: args.rows.clone(),
        tree: Some(Arc::clone(tree)),
        ..MeasureAt::default()
    };
    let file = dir.join("sampled.strat");
    let mut request = request(args, def, game, file.clone(), settings, measure_at);
    request.lock = args.lock.as_deref().map(solve::read_lock).transpose()?;
    let report = solve::drive(&request, lines)?;
    report.finished()?;
    let Results::Sampled(end) = report.results else {
        bail!("the sampled solve reported another solver's results");
    };
    let played = end.played.context("the sampled solve kept no strategy")?;
    let rows = (report.rows.iter())
        .map(sampled_row)
        .collect::<Result<Vec<Row>>>()?;
    Ok(Sampled { rows, file, played })
}

/// A row of the table from a measurement of the sampled solve.
fn sampled_row(m: &Measurement) -> Result<Row> {
    let Measured::LiftedMultiway {
        traversals,
        nash_conv,
        played,
        stored,
    } = &m.measured
    else {
        bail!("the sampled solve measured another solver's figures");
    };
    Ok(Row {
        traversals: *traversals,
        sampled_cpu: m.cpu_seconds.unwrap_or(0.0),
        sampled: *nash_conv,
        played: played.iter().map(|p| p.nash_conv).collect(),
        stored: stored.iter().map(|s| s.nash_conv).collect(),
        exact_iterations: 0,
        exact_cpu: 0.0,
        exact: 0.0,
    })
}

/// The exact solver on the abstract games (the information sets merged as the abstraction
/// merges them), `--floor-iterations` each: where the sampled solver's NashConv floors.
fn floors(args: &Args, tree: &HistoryTree, lift: &Lift, lines: &Lines) -> Result<Vec<Floor>> {
    let mut floors = Vec::new();
    if args.floor_iterations == 0 {
        return Ok(floors);
    }
    if let Some(cap) = args.sampled.multiway_cap {
        // A floor solves the whole tree's information sets merged as the abstraction merges
        // them; past a cap the abstraction has no row (the seat calls) and one row serves
        // decisions of other real actions, so there is no such game to solve.
        lines.say(&format!(
            "floors: not measured under --multiway-cap {} (the abstract game has no rows past \
             the cap to solve)",
            cap.name()
        ));
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
        let (sets, nc) = floor(tree, key, args.exact_algorithm, args.floor_iterations)?;
        lines.say(&format!(
            "{what}: {sets} information sets, {} iterations, NashConv {nc:.5}",
            args.floor_iterations
        ));
        floors.push(Floor { what, sets, nc });
    }
    Ok(floors)
}

/// The exact solver on the whole tree, run to each row's CPU time of the sampled solve (at
/// least one iteration): the rows' exact columns.
fn solve_exact(
    args: &Args,
    def: &GameDef,
    game: &str,
    dir: &Path,
    tree: &Arc<HistoryTree>,
    rows: &mut [Row],
    lines: &mut Lines,
) -> Result<()> {
    let settings = Settings::Multiway(solve::multiway::Settings {
        algorithm: args.exact_algorithm,
        target: None,
        // No checkpoint before the end: an evaluation is measured, not resumed.
        every: Some(u64::MAX),
    });
    let measure_at = MeasureAt {
        cpu_seconds: rows.iter().map(|r| r.sampled_cpu).collect(),
        tree: Some(Arc::clone(tree)),
        ..MeasureAt::default()
    };
    let request = request(
        args,
        def,
        game,
        dir.join("exact.json"),
        settings,
        measure_at,
    );
    let report = solve::drive(&request, lines)?;
    report.finished()?;
    ensure!(
        report.rows.len() == rows.len(),
        "the exact solve measured {} times, not {}",
        report.rows.len(),
        rows.len()
    );
    for (row, m) in rows.iter_mut().zip(&report.rows) {
        let Measured::NashConv { nash_conv } = m.measured else {
            bail!("the exact solve measured another solver's figures");
        };
        row.exact_iterations = m.iterations;
        row.exact_cpu = m.cpu_seconds.unwrap_or(0.0);
        row.exact = nash_conv;
    }
    Ok(())
}

/// The solves' lines on standard error (none with `--json`), each measurement in a line as it
/// comes; the bucketing's and each solve's progress bars as `stud solve` draws them (with
/// `--json` too where standard error is a terminal).
struct Lines {
    console: super::solve_watch::Console,
}

impl Lines {
    fn new(json: bool) -> Lines {
        Lines {
            console: super::solve_watch::Console::new(json, json),
        }
    }
}

impl Watcher for Lines {
    fn say(&self, line: &str) {
        self.console.say(line);
    }
    fn building(&self, def: &GameDef, progress: Building) {
        self.console.building(def, progress);
    }
    fn built(&self) {
        self.console.built();
    }
    fn started(&mut self, plan: &Plan) {
        self.console.started(plan);
    }
    fn iterated(&mut self, tick: &Tick<'_>) {
        self.console.iterated(tick);
    }
    fn finished(&mut self) {
        self.console.finished();
    }
    fn measured(&mut self, row: &Measurement) {
        let cpu = row.cpu_seconds.unwrap_or(0.0);
        match &row.measured {
            Measured::LiftedMultiway {
                traversals,
                nash_conv,
                played,
                stored,
            } => {
                self.say(&format!(
                    "sampled: {traversals} traversals, {cpu:.1} CPU s, NashConv {nash_conv:.5}"
                ));
                for p in played {
                    self.say(&format!("  played {}: NashConv {:.5}", p.play, p.nash_conv));
                }
                for s in stored {
                    let rows = s.rows.name();
                    self.say(&format!(
                        "  rows stored {rows}: NashConv {:.5}",
                        s.nash_conv
                    ));
                }
            }
            Measured::NashConv { nash_conv } => self.say(&format!(
                "exact: {} iterations, {cpu:.1} CPU s, NashConv {nash_conv:.5}",
                row.iterations
            )),
            _ => {}
        }
    }
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
                "multiway_cap": args.sampled.multiway_cap.map(|c| c.name()),
                "closed_information_sets": lift.closed,
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
