//! `stud solve`: solve a game with the CFR family, with checkpoints and resume.

/// The same solve split over MPI ranks.
#[cfg(feature = "mpi")]
mod split;

use super::solve_watch::Console;
use abstraction::named::Named;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use solver::cfr::Algorithm;
use solver::multiway::sampled::Played;
use solver::solve::{self, Report, Request, Settings};
use solver::strategy_file::multiway::RowFormat;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `stud solve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  stud solve        # heads-up 7stud, default abstraction, about 30 minutes: \
                  solves/7stud-hu.strat\n  \
                  stud solve --game razz --abstraction small --time 10m --threads 2\n  \
                  stud solve --game 7stud --abstraction tiny --iterations 50 --batch 256 --keep-checkpoint --json\n  \
                  stud solve --game 7stud --abstraction tiny --iterations 100 --batch 256 --resume   # 50 more from solves/7stud-hu.ckpt (kept by --keep-checkpoint or by Ctrl-C; the main job's: stud solve --time 60m --resume)\n  \
                  stud solve --game leduc --iterations 1000 --out leduc.strat\n  \
                  stud solve --game leduc --iterations 1000 --lock docs/guide/locks/leduc-calls-down.toml --out leduc-locked.strat\n  \
                  stud solve --game ministud --target-exploitability 0.001 --threads 2 --json\n  \
                  stud solve --game ministud --time 10m --every 50\n  \
                  stud solve --game ministud --abstraction 4 --iterations 300 --json\n  \
                  stud solve --game ministud --sample 3 --seed 7 --time 60s --every 100\n  \
                  stud solve --game yardstud --solver deal --abstraction 8 --iterations 400\n  \
                  stud solve --game 7stud --abstraction tiny --iterations 20 --lock docs/guide/locks/7stud-completes-pairs.toml --out 7stud-pairs.strat   # by hand class\n  \
                  stud solve --game kuhn-3p --iterations 1000 --out kuhn3.json   # three players\n  \
                  stud solve --game kuhn-3p --iterations 20000 --lock docs/guide/locks/kuhn-3p-two-seats.toml --out kuhn3-locked.json   # p3's best response to p1 and p2\n  \
                  stud solve --game kuhn-3p --iterations 2000 --lock docs/guide/locks/kuhn-3p-spot.toml --out kuhn3-spot.json   # one spot: p2 facing p1's bet\n  \
                  stud solve --game 7stud-3p --abstraction tiny --time 5m   # real stud three-handed\n  \
                  stud solve --game 7stud-3p --abstraction tiny --time 2m --lock docs/guide/locks/7stud-completes-pairs.toml --out 7stud-3p-pairs.strat\n  \
                  stud solve --game 7stud-3p --abstraction tiny --iterations 20 --lock docs/guide/locks/7stud-3p-calls-the-bring-in.toml --out 7stud-3p-locked.strat   # a spot at the table\n  \
                  stud solve --game 7stud-3p --abstraction tiny --view best-opponent --time 5m   # the first files' view\n  \
                  stud solve --game 7stud-3p --abstraction tiny --rows 4bit --time 5m   # half a byte a probability\n  \
                  stud solve --game doorstud --abstraction 16 --iterations 100 --out door.strat\n  \
                  stud solve --game doorstud --abstraction 16 --iterations 300 --warm door.strat --warm-mass 16 --out door-warm.strat   # 200 more from the file's rows\n  \
                  stud solve --game 7stud-5p --abstraction tiny:draws=fast --time 5m   # the buckets' rollouts sampled more cheaply\n  \
                  stud solve --game 7stud-5p --abstraction tiny --within-street position --time 5m   # rows by betting position\n  \
                  stud solve --game 7stud-8p --abstraction tiny --multiway-cap 2@6 --rows 4bit --time 5m   # two bets a round once six or more are in\n  \
                  stud solve --game 7stud-8p --abstraction small --multiway-cap 2@6 --estimate   # count the file and the memory, solve nothing\n\n\
                  Exploitability is NashConv / 2 in chips per game (and milli-big-bets: 1 mbb = \
                  0.001 big bets).\n\
                  With a bucketing abstraction the abstract game is solved and the strategy is \
                  measured twice: in the abstract game\n(abstract_exploitability, the one \
                  --target-exploitability stops on) and in the real game, against an exact best \
                  response\nthat tells every private hand apart (exploitability, the one the \
                  strategy file records).\nA checkpoint of the full solver state is written atomically \
                  to OUT with the extension .ckpt every --every iterations and at the end;\n\
                  --resume continues from it and ends bit-identical to an uninterrupted run.\n\n\
                  The real games (7stud, stud8, razz, 5stud: several down cards) are solved by \
                  mini-batch deal-sampled CFR+ on the betting tree\n(docs/notes/solver.md): the \
                  resources are estimated and checked before allocating, the bucketing is built \
                  or read from\n--abstraction-dir, progress shows batches, deals/s and the time \
                  left; their exploitability is not computable here (use\nstud eval lbr). Without \
                  --iterations or --time they stop after --time 28m. --solver deal runs that \
                  solver on a walkable game too\n(the yardstick of docs/notes/ladder.md): its strategy \
                  is then lifted onto the lossless public tree and its exploitability measured \
                  exactly.\n\n\
                  A game of three to eight seats (kuhn-Np, leduc-Np, tristud) is solved exactly \
                  on its whole game tree (docs/notes/multiway.md): NashConv (what each seat gains by \
                  deviating alone,\nsummed) is measured every --every iterations and stops \
                  --target-exploitability; the strategy is written as a JSON policy. Real stud at \
                  three to eight seats (7stud-3p, razz-4p, ...) is solved by external-sampling \
                  MCCFR\non an N-seat betting abstraction with the heads-up bucketing (by default a \
                  bucketing per number of live seats of views of every seat's up cards, --view; --batch \
                  traversals per iteration,\n--checkpoint-every); its NashConv is not computable."
)]
#[command(mut_arg("algorithm", |a| a.help(
    "cfr+ (regret matching+, linear averaging), linear (regret matching, regrets and average \
     weighted by the iteration), dcfr (1.5, 0, 2; walkable games) or cfr. Default: cfr+ \
     (docs/notes/solver.md, \"Schedules\", measures linear against it)")))]
pub struct Args {
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// tree: the exact solver on the public tree (the walkable games: kuhn, leduc, ministud,
    /// yardstud); deal: deal-sampled CFR+ on the betting tree (the real games' solver, also on a
    /// walkable game, where its exploitability is then measured exactly). Default: tree when
    /// the game is walkable, else deal.
    #[arg(long, value_enum)]
    pub solver: Option<super::SolverKind>,
    /// `--algorithm`: the shared flag's help, with the default each back end applies.
    #[command(flatten)]
    pub algorithm: super::args::Cfr,
    /// Stop after this many iterations in total (at least 1: none would write an untrained file).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// Stop after this much time: 90s, 10m, 2h (a bare number is seconds).
    #[arg(long, value_parser = parse_time)]
    pub time: Option<Duration>,
    /// The card abstraction: lossless, a bucketing preset (tiny, small, default, large) or
    /// buckets per street (4, or 4,8). Default: lossless for the walkable games, `default` for
    /// the real games.
    #[arg(long)]
    pub abstraction: Option<String>,
    /// `--abstraction-dir`.
    #[command(flatten)]
    pub cache: super::args::Cache,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// `--threads`.
    #[command(flatten)]
    pub pool: super::args::Threads,
    /// The walked solver's own flags.
    #[command(flatten)]
    pub tree: TreeFlags,
    /// The sampling solvers' flags (deal-sampled and multiway sampled).
    #[command(flatten)]
    pub sampling: SamplingFlags,
    /// The heads-up deal-sampled solver's own flags.
    #[command(flatten)]
    pub heads_up: HeadsUpFlags,
    /// The sampled multiway solver's own flags.
    #[command(flatten)]
    pub multiway: MultiwayFlags,
    /// `--batch` (joins [`SamplingFlags`]' group), `--view` and `--within-street` (join
    /// [`MultiwayFlags`]'), declared once with `stud eval multiway`'s ([`join_groups`]).
    #[command(flatten)]
    pub sampled: super::args::Sampled,
    /// Where to write the strategy (default solves/GAME.strat; solves/GAME-hu.strat for the
    /// real games: never over the shipped strategies/ files).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Three or more seats: count the solve and stop: the betting abstraction built, the
    /// strategy file's rows at 8 and 4 bits a probability and the memory estimate counted from
    /// it and the abstraction's buckets per street (the bucketing not built, its few hundred
    /// KiB left out); nothing solved or written.
    #[arg(long)]
    pub estimate: bool,
    /// Keep the checkpoint (OUT.ckpt) of a finished solve, to extend it later with --resume
    /// and a larger --iterations or --time; by default it is removed once the strategy is
    /// written (an interrupted solve's checkpoint always stays).
    #[arg(long)]
    pub keep_checkpoint: bool,
    /// A lock file (TOML): one player's rows fixed at given frequencies, the rest solved
    /// around them (docs/guide/solving.md, "Locking"): rows by spot, street, hand, bucket or
    /// hand class (`classes`, as `stud query` names them). Every solver locks but an MPI
    /// split; with --resume, a checkpoint of an unlocked solve of the same game and abstraction
    /// warm-starts the locked one, and a locked solve's checkpoint resumes only with a lock of
    /// the same rules.
    #[arg(long, value_name = "FILE")]
    pub lock: Option<PathBuf>,
    /// Continue from the checkpoint (OUT.ckpt) of an interrupted solve.
    #[arg(long)]
    pub resume: bool,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The flags of the solvers measured as they go (the walked one and the exact multiway one):
/// clap refuses them beside the sampling solvers' ([`SamplingFlags`], [`HeadsUpFlags`],
/// [`MultiwayFlags`]). A flag for these back ends only is one more field here.
#[derive(clap::Args, Debug)]
#[group(
    id = "tree_flags",
    multiple = true,
    conflicts_with_all = ["sampling_flags", "heads_up_flags", "multiway_flags"]
)]
pub struct TreeFlags {
    /// Stop when the exploitability (chips per game; in the abstract game) is at most this,
    /// measured every --every iterations.
    #[arg(long, value_parser = parse_target)]
    pub target_exploitability: Option<f64>,
    /// Public chance sampling: walk this many children of each chance node below the first
    /// (drawn per iteration; cfr+ and cfr only). Default: full width.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Measure the exploitability and write a checkpoint every this many iterations (default:
    /// a tenth of --iterations, else 100).
    #[arg(long)]
    pub every: Option<u64>,
}

impl TreeFlags {
    /// The first of these flags given, for the refusal when the game goes to the other solver.
    pub fn given(&self) -> Option<&'static str> {
        [
            (
                self.target_exploitability.is_some(),
                "--target-exploitability",
            ),
            (self.sample.is_some(), "--sample"),
            (self.every.is_some(), "--every"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// The flags of both sampling solvers (deal-sampled heads-up, external sampling multiway).
#[derive(clap::Args, Debug)]
#[group(id = "sampling_flags", multiple = true)]
pub struct SamplingFlags {
    /// Real games: write a checkpoint this often (90s, 10m; a bare number is seconds), and at
    /// the end.
    #[arg(long, value_parser = parse_duration)]
    pub checkpoint_every: Option<Duration>,
}

impl SamplingFlags {
    /// The first of these flags (with `shared`'s `--batch`) given, for the refusal when the
    /// game is walked.
    pub fn given(&self, shared: &super::args::Sampled) -> Option<&'static str> {
        [
            (shared.batch.is_some(), "--batch"),
            (self.checkpoint_every.is_some(), "--checkpoint-every"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// The flags of the heads-up deal-sampled solver alone: clap refuses them beside
/// [`MultiwayFlags`].
#[derive(clap::Args, Debug)]
#[group(
    id = "heads_up_flags",
    multiple = true,
    conflicts_with = "multiway_flags"
)]
pub struct HeadsUpFlags {
    /// Real games: what a row recalls of earlier streets beside the street's bucket: none,
    /// order (whether the player acted first on each earlier street: its own earlier actions;
    /// 2^s rows per bucket on street s), buckets (the previous street's bucket), both, last
    /// (whether it acted first on the street before only: 2 rows per bucket past the first
    /// street) (default none; docs/notes/ladder.md measures each).
    #[arg(long, value_parser = abstraction::recall::Recall::parse)]
    pub recall: Option<abstraction::recall::Recall>,
}

/// The flags of the sampled multiway solver alone (three or more seats, where `--solver` has
/// no choice to make): clap refuses them beside `--solver`.
#[derive(clap::Args, Debug)]
#[group(id = "multiway_flags", multiple = true, conflicts_with = "solver")]
pub struct MultiwayFlags {
    /// Three or more seats: train against other seats who play a random action with this
    /// probability at each decision (0 to below 1; default 0, plain external sampling;
    /// docs/notes/multiway.md, "Trembling", measures 0.1 at three seats; the others' mistakes
    /// add up with the seats: five-handed stud hi-lo played loose and lost at 0.1, and won at
    /// 0.03).
    #[arg(long)]
    pub tremble: Option<f32>,
    /// Three or more seats: the strategy the file plays: average (the default) or current
    /// (regret matching of the last regrets, as Pluribus's blueprint past the first round;
    /// docs/notes/multiway.md, "The current strategy", measures both). Only the file depends on it:
    /// a --resume may choose again.
    #[arg(long, value_parser = Played::parse_or_list)]
    pub strategy: Option<Played>,
    /// Three or more seats: how the file stores each probability: 8bit (the default, 255ths)
    /// or 4bit (14ths, half the rows' bytes; docs/notes/multiway.md, "Rows of half a byte",
    /// measures it). Only the file depends on it: a --resume may choose again, and `stud
    /// convert` re-encodes a file written either way.
    #[arg(long, value_parser = RowFormat::parse_or_list)]
    pub rows: Option<RowFormat>,
    /// Three or more seats: start from this strategy file (a multiway file of the same game,
    /// seats, --abstraction, --view, --within-street and --multiway-cap, refused otherwise by
    /// what differs): its rows seed every row's average and regrets (the current strategy is
    /// the file's), and its traversals count in --iterations, as a resume's would
    /// (docs/notes/multiway.md, "A warm start from a file"). With --lock: a locked solve
    /// warm-started from the unlocked one.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub warm: Option<PathBuf>,
    /// With --warm: each row's average mass and regret scale, the visits the file's row counts
    /// as in the solve that goes on (default 16).
    #[arg(long, value_name = "N", requires = "warm")]
    pub warm_mass: Option<f32>,
}

impl MultiwayFlags {
    /// The first of these flags given, and what it chooses, for the refusal when the game goes
    /// to another back end.
    pub fn given(&self, shared: &super::args::Sampled) -> Option<(&'static str, &'static str)> {
        [
            (
                self.tremble.is_some(),
                "--tremble",
                "the other seats' tremble",
            ),
            (
                shared.view.is_some(),
                "--view",
                "a seat's view of the other seats' cards",
            ),
            (
                shared.within_street.is_some(),
                "--within-street",
                "what a decision recalls of its street's betting",
            ),
            (
                shared.multiway_cap.is_some(),
                "--multiway-cap",
                "a raise cap for multiway pots",
            ),
            (
                self.strategy.is_some(),
                "--strategy",
                "the strategy the file plays (a heads-up file plays the average, which CFR's \
                 guarantees are about)",
            ),
            (
                self.rows.is_some(),
                "--rows",
                "how a multiway file stores its rows",
            ),
            (
                self.warm.is_some(),
                "--warm",
                "a start from a multiway strategy file (a heads-up or exact solve starts cold, \
                 or resumes its checkpoint)",
            ),
        ]
        .into_iter()
        .find_map(|(given, flag, what)| given.then_some((flag, what)))
    }

    /// Refuses these flags (and `shared`'s of the multiway solver) for `game`, a heads-up one.
    fn refuse_heads_up(&self, shared: &super::args::Sampled, game: &str) -> Result<()> {
        if let Some((flag, what)) = self.given(shared) {
            bail!(
                "{flag}: {game} is heads-up; {what} is the sampling solver's choice for three or \
                 more seats"
            );
        }
        Ok(())
    }
}

/// The flags declared once in [`super::args`] and the groups of this command they join: clap
/// refuses them beside another back end's flags as it refuses that group's own.
const JOINED: [(&str, &[&str]); 2] = [
    ("sampling_flags", &["batch"]),
    ("multiway_flags", &["view", "within_street", "multiway_cap"]),
];

/// `stud solve`'s command with the shared flags of [`JOINED`] in their groups (built at run
/// time: a flattened struct's arguments cannot join a derived group, clap-rs/clap#4697).
pub fn join_groups(command: clap::Command) -> clap::Command {
    JOINED.iter().fold(command, |c, &(group, ids)| {
        c.mut_group(group, |g| g.args(ids.iter().copied()))
    })
}

pub(super) fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let x: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration: use e.g. 90s, 10m or 2h"))?;
    let secs = match unit {
        "s" => x,
        "m" => x * 60.0,
        "h" => x * 3600.0,
        _ => return Err(format!("{s:?}: the unit must be s, m or h")),
    };
    // Checked: `from_secs_f64` panics past u64::MAX seconds (`--time 99999999999999999999h`).
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("{s:?} is longer than any solve can run: use e.g. 90s, 10m or 2h"))
}

/// A `--time`: a [`parse_duration`] of some time (none would write an untrained file; a
/// `--checkpoint-every 0`, by contrast, checkpoints at every iteration).
fn parse_time(s: &str) -> Result<Duration, String> {
    match parse_duration(s)? {
        d if d.is_zero() => Err(format!("{s:?} is no time: use e.g. 90s, 10m or 2h")),
        d => Ok(d),
    }
}

/// A `--target-exploitability`: a positive, finite number of chips per game. NaN compares
/// false with every exploitability and a negative or zero target is never reached, so any of
/// them would make the solve run forever without saying why; infinity is met before it starts.
fn parse_target(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(_) => Err(format!(
            "{s:?}: the target must be a positive, finite number of chips per game, e.g. 0.001"
        )),
        Err(_) => Err(format!("{s:?} is not a number: e.g. 0.001")),
    }
}

/// Runs `stud solve`: the flags read into a [`Request`] for the back end the game goes to,
/// [`solve::drive`] in the `--threads` pool, its report printed (one JSON object for `--json`).
pub fn run(args: Args) -> Result<()> {
    super::solve_watch::stop_on_signals();
    let def = args.game.load()?;
    #[cfg(feature = "mpi")]
    if solver::mpi::launched() {
        let mpi = solver::mpi::Mpi::init()?;
        if solver::deal_cfr::split::Exchange::ranks(&mpi) > 1 {
            return split::run(&args, def, mpi);
        }
    }
    let request = request(&args, def)?;
    let json = args.output.json;
    if args.estimate {
        return estimate(&request, json);
    }
    let pool = args.pool.start()?;
    let mut console = Console::new(json, json);
    let report = pool.install(|| solve::drive(&request, &mut console))?;
    print(&report, json);
    report.finished()
}

/// `--estimate`: counts the sampled multiway solve `request` asks and prints it.
fn estimate(request: &Request, json: bool) -> Result<()> {
    let Settings::Sampled(s) = &request.settings else {
        bail!("--estimate: counts a solve of three or more seats by the sampling solver");
    };
    let c = solve::sampled_count::count(request, s)?;
    if json {
        println!("{}", serde_json::to_string(&c)?);
        return Ok(());
    }
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    let cap = c.multiway_cap.as_deref().unwrap_or("none");
    println!(
        "{} ({} seats), --abstraction {} (buckets per street {:?}), --within-street {}, \
         --multiway-cap {cap}",
        c.game, c.seats, c.abstraction, c.buckets, c.within_street
    );
    println!(
        "betting abstraction: {} nodes; {} infosets, {} infoset-actions, {} probabilities stored",
        c.nodes, c.infosets, c.infoset_actions, c.stored
    );
    println!(
        "strategy file rows: {:.1} MiB at --rows 8bit, {:.1} MiB at --rows 4bit (plus the \
         bucketings)",
        mib(c.rows_8bit),
        mib(c.rows_4bit)
    );
    println!(
        "{}",
        c.estimate
            .describe()
            .replace(" (the bucketing 0.0 MiB of it)", "")
    );
    Ok(())
}

/// Prints the end of a solve: one JSON object for `json`, else a few lines.
pub(super) fn print(report: &Report, json: bool) {
    if json {
        let mut line = serde_json::to_value(report).unwrap_or_default();
        line["final"] = true.into();
        println!("{line}");
    } else {
        super::solve_text::print(&report.results);
        if let Some(l) = &report.lock {
            println!(
                "locked by {} ({} rules, fnv {}): the rows it fixes play its frequencies; the \
                 rest is solved against them",
                l.file, l.rules, l.fnv
            );
        }
    }
}

/// The request of `args` on `def`: the game's back end ([`settings`]) and what every back end
/// shares.
pub(super) fn request(args: &Args, def: GameDef) -> Result<Request> {
    let settings = settings(args, &def)?;
    Ok(Request {
        game: def,
        name: args.game.name().to_string(),
        iterations: args.iterations,
        time: args.time,
        out: args.out.clone(),
        keep_checkpoint: args.keep_checkpoint,
        resume: args.resume,
        seed: args.random.seed,
        abstraction_dir: args.cache.abstraction_dir.clone(),
        lock: args.lock.as_deref().map(solve::read_lock).transpose()?,
        settings,
        measure_at: Default::default(),
    })
}

/// The back end `def` goes to, with its flags: for three or more seats the sampled multiway
/// solver (the real games, or `--abstraction`) or the exact one, the walked solver for a
/// walkable heads-up game, else (or with `--solver deal`) the deal-sampled one. The flags of
/// another back end are refused by name.
fn settings(args: &Args, def: &GameDef) -> Result<Settings> {
    let walkable = abstraction::tree::Tree::check_supported(def);
    if def.seats > 2 {
        if solve::sampled::takes(def, args.abstraction.as_deref()) {
            return Ok(Settings::Sampled(sampled_settings(args, def)?));
        }
        return Ok(Settings::Multiway(multiway_settings(args, def)?));
    }
    match args.solver {
        Some(super::SolverKind::Deal) => return Ok(Settings::Deal(deal_settings(args, def)?)),
        None if walkable.is_err() => return Ok(Settings::Deal(deal_settings(args, def)?)),
        Some(super::SolverKind::Tree) => walkable.with_context(|| {
            format!(
                "--solver tree: {} cannot be walked (use --solver deal, the default for it)",
                args.game.name()
            )
        })?,
        None => {}
    }
    args.multiway
        .refuse_heads_up(&args.sampled, args.game.name())?;
    let recall = args.heads_up.recall.map(|_| "--recall");
    if let Some(flag) = args.sampling.given(&args.sampled).or(recall) {
        bail!(
            "{flag} is for the real games (deal sampling); {} is walked: use --every",
            args.game.name()
        );
    }
    Ok(Settings::Walked(solve::walked::Settings {
        algorithm: args.algorithm.or(Algorithm::CfrPlus),
        abstraction: args
            .abstraction
            .clone()
            .unwrap_or_else(|| "lossless".into()),
        target: args.tree.target_exploitability,
        sample: args.tree.sample,
        every: args.tree.every,
    }))
}

/// The deal-sampled back end's settings, the flags of the others refused.
fn deal_settings(args: &Args, def: &GameDef) -> Result<solve::deal::Settings> {
    let game = args.game.name();
    if let Some(flag) = args.tree.given() {
        bail!(
            "{flag}: {game} is solved by deal-sampled CFR, {}; use --iterations or --time, and \
             --checkpoint-every",
            if abstraction::tree::Tree::check_supported(def).is_ok() {
                "whose exploitability is measured once, at the end"
            } else {
                "whose exploitability is not computable here (use stud eval lbr)"
            }
        );
    }
    args.multiway.refuse_heads_up(&args.sampled, game)?;
    let d = solve::deal::Settings::default();
    Ok(solve::deal::Settings {
        algorithm: args.algorithm.or(d.algorithm),
        abstraction: args.abstraction.clone().unwrap_or(d.abstraction),
        batch: args.sampled.batch.unwrap_or(d.batch),
        recall: args.heads_up.recall.unwrap_or(d.recall),
        alternating: d.alternating,
        checkpoint_every: args.sampling.checkpoint_every.unwrap_or(d.checkpoint_every),
    })
}

/// The exact multiway back end's settings, the flags of the others refused.
fn multiway_settings(args: &Args, def: &GameDef) -> Result<solve::multiway::Settings> {
    let game = args.game.name();
    if let Some(kind) = args.solver {
        bail!(
            "--solver {}: {game} has {} seats, which only the multiway solver plays (leave \
             --solver out)",
            format!("{kind:?}").to_lowercase(),
            def.seats
        );
    }
    let recall = args.heads_up.recall.map(|_| "--recall");
    if let Some(flag) = args.sampling.given(&args.sampled).or(recall) {
        bail!("{flag} is for the real games' deal-sampled solver, which is heads-up; {game} is walked whole");
    }
    if let Some((flag, what)) = args.multiway.given(&args.sampled) {
        bail!(
            "{flag}: {game} is solved exactly on its whole game tree; {what} is the sampling \
             solver's choice (real stud, or any game with --abstraction)"
        );
    }
    if args.tree.sample.is_some() {
        bail!("--sample: the multiway solver walks every deal ({game} has no chance sampling yet)");
    }
    Ok(solve::multiway::Settings {
        algorithm: args.algorithm.or(Algorithm::CfrPlus),
        target: args.tree.target_exploitability,
        every: args.tree.every,
    })
}

/// The sampled multiway back end's settings, the flags of the others refused.
fn sampled_settings(args: &Args, def: &GameDef) -> Result<solve::sampled::Settings> {
    let game = args.game.name();
    if let Some(flag) = args.tree.given() {
        bail!(
            "{flag}: {game} ({} seats) is solved by external-sampling MCCFR, whose NashConv is \
             not computable here; use --iterations or --time, and --checkpoint-every",
            def.seats
        );
    }
    if let Some(kind) = args.solver {
        bail!(
            "--solver {}: {game} has {} seats, which the multiway solvers play (leave --solver \
             out)",
            format!("{kind:?}").to_lowercase(),
            def.seats
        );
    }
    if args.heads_up.recall.is_some() {
        bail!(
            "--recall: the multiway abstraction forgets earlier streets (docs/notes/multiway.md)"
        );
    }
    let d = solve::sampled::Settings::for_game(def);
    Ok(solve::sampled::Settings {
        algorithm: args.algorithm.or(d.algorithm),
        abstraction: args.abstraction.clone().unwrap_or(d.abstraction),
        batch: args.sampled.batch.unwrap_or(d.batch),
        checkpoint_every: args.sampling.checkpoint_every.unwrap_or(d.checkpoint_every),
        tremble: args.multiway.tremble.unwrap_or(d.tremble),
        view: args.sampled.view.unwrap_or(d.view),
        within_street: args.sampled.within_street.unwrap_or(d.within_street),
        cap: args.sampled.multiway_cap,
        strategy: args.multiway.strategy.unwrap_or(d.strategy),
        rows: args.multiway.rows.unwrap_or(d.rows),
        warm: args.multiway.warm.clone().map(|file| solve::sampled::Warm {
            file,
            mass: args
                .multiway
                .warm_mass
                .unwrap_or(solve::sampled::DEFAULT_WARM_MASS),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::{parse_duration, parse_target, parse_time, settings, Args};
    use clap::Parser;
    use solver::solve::Settings;
    use std::time::Duration;

    #[derive(Parser)]
    struct Solve {
        #[command(flatten)]
        args: Args,
    }

    /// A library caller naming only a game (the Python package) solves it as `stud solve --game
    /// G` does: the same back end with the same settings.
    #[test]
    fn no_flags_are_the_librarys_defaults() {
        for game in [
            "kuhn", "leduc", "7stud", "razz", "kuhn-3p", "7stud-3p", "stud8-8p",
        ] {
            let args = Solve::try_parse_from(["solve", "--game", game, "--iterations", "1"])
                .unwrap()
                .args;
            let def = args.game.load().unwrap();
            assert_eq!(
                format!("{:?}", settings(&args, &def).unwrap()),
                format!("{:?}", Settings::default_for(&def)),
                "{game}"
            );
        }
    }

    #[test]
    fn targets_are_positive_and_finite() {
        assert_eq!(parse_target("0.001"), Ok(0.001));
        for bad in ["nan", "NaN", "inf", "-inf", "-0.1", "0", "x"] {
            assert!(parse_target(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("10x").unwrap_err().contains("unit"));
        assert!(parse_duration("m").unwrap_err().contains("not a duration"));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert!(parse_time("0m").unwrap_err().contains("no time"));
        assert!(parse_duration("99999999999999999999999h")
            .unwrap_err()
            .contains("longer than any solve"));
    }
}
