//! `stud eval ladder`: the validation ladder of the card abstraction on a walkable game, solved
//! by the exact solver on the public tree or by the real games' deal-sampled solver.

use super::solve_watch::Console;
use super::SolverKind;
use abstraction::bucketing::{Size, SIZES};
use abstraction::recall::Recall;
use abstraction::tree::Tree;
use anyhow::{bail, Context, Result};
use solver::cfr::Algorithm;
use solver::ladder::{check_iterations, lift_target, DealKnobs, DealRung, Ladder, Rung};
use solver::memory::available_memory;
use solver::purify::Purification;

/// Arguments of `stud eval ladder`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
stud eval ladder --game ministud --abstractions 1 2 3 4 6 lossless --iterations 10 30 100 300\n  \
stud eval ladder --game ministud --abstractions 2 4 lossless --iterations 1000 4000 --sample 3 --seed 1\n  \
printf 'preset = \"ministud\"\\nmax_bets = 2\\n' > my-ministud.toml\n  \
stud eval ladder --game my-ministud.toml --abstractions 1 lossless --iterations 10 100 --json\n  \
stud eval ladder --game yardstud --solver deal --abstractions 8 32 --iterations 0 100 400 --batch 64 256 --lossless 10 30\n\n\
For each card abstraction, solves the abstract game and, at each iteration count, measures the \
average strategy's exploitability with the exact best response. With --solver tree (the \
default) the abstract game is the public tree in buckets, solved with the CFR family, and is \
measured twice: in the abstract game (the responder is bound by the buckets too) and in the real \
game (the responder tells every private hand apart; the bucketed strategy is played by every \
hand of its bucket). With --solver deal it is the real games' abstract game (betting tree, a \
bucket per street of the actor's whole view) solved by deal-sampled CFR for each combination \
of its knobs (--batch, --alternating, --schedule, --recall), its average strategy lifted onto the lossless public tree \
and measured in the real game; --lossless adds the full-width lossless solve's rows beside it. \
Chips per game and milli-big-bets per game (1 mbb = 0.001 big bets). The abstractions are built \
once into --abstraction-dir (cached there).")]
#[command(mut_arg("game", |a| a.default_value("ministud")))]
#[command(mut_arg("algorithm", |a| a
    .default_value(ALGORITHM.name())
    .help("cfr+, dcfr or cfr (tree, and the --lossless rows of deal)")))]
pub struct Args {
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// tree: the exact solver on the public tree in a card abstraction; deal: the real games'
    /// deal-sampled solver on the betting tree, lifted onto the lossless public tree.
    #[arg(long, value_enum, default_value_t = SolverKind::Tree)]
    pub solver: SolverKind,
    /// The card abstractions: lossless (tree only), bucketing presets (tiny, small, ...) or
    /// buckets per street (4, or 4,8). Default: 1 2 3 4 6 lossless (tree), 8 32 (deal).
    #[arg(long, num_args = 1..)]
    pub abstractions: Vec<String>,
    /// The iteration counts at which to measure, ascending (deal: batches; 0 measures the
    /// uniform strategy). Default: 10 30 100 300 (tree), 25 100 400 (deal).
    #[arg(long, num_args = 1..)]
    pub iterations: Vec<u64>,
    /// `--algorithm` (cfr+ unless given).
    #[command(flatten)]
    pub algorithm: super::args::Cfr,
    /// Public chance sampling: children walked per chance node below the first (default: full
    /// width; tree, and the --lossless rows of deal).
    #[arg(long)]
    pub sample: Option<usize>,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// Deal: also solve the lossless public tree at full width and measure it at these iteration
    /// counts (ascending), beside the deal-sampled rows.
    #[arg(long, num_args = 1..)]
    pub lossless: Vec<u64>,
    /// The deal-sampled solver's knobs.
    #[command(flatten)]
    pub knobs: Knobs,
    /// Deal: how the average strategy is played when it is measured, one or more of mixed,
    /// pure, threshold=T (each measured on the same solve; default mixed).
    #[arg(long, num_args = 1.., value_parser = clap::value_parser!(Purification))]
    pub play: Vec<Purification>,
    /// `--abstraction-dir`.
    #[command(flatten)]
    pub cache: super::args::Cache,
    /// `--threads`.
    #[command(flatten)]
    pub pool: super::args::Threads,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The deal-sampled solver's knobs (`--solver deal`): each flag takes one or more values and
/// every combination is solved. To add a knob: a `Vec` field here, its line in
/// [`Knobs::grid`] and in [`Knobs::given`], and its field in [`DealKnobs`].
#[derive(clap::Args, Debug, Default)]
pub struct Knobs {
    /// Deal: deals per iteration, one or more (default 256).
    #[arg(long, num_args = 1..)]
    pub batch: Vec<usize>,
    /// Deal: alternating updates (two walks per batch, seat 0's rows then seat 1's): false,
    /// true, or both (default false).
    #[arg(long, num_args = 1.., value_parser = clap::value_parser!(bool))]
    pub alternating: Vec<bool>,
    /// Deal: the member of the CFR family, one or more of cfr+, linear, cfr (default cfr+, as
    /// `stud solve`).
    #[arg(long, num_args = 1.., value_parser = solver::cfr::Algorithm::parse)]
    pub schedule: Vec<solver::cfr::Algorithm>,
    /// Deal: what a row recalls of earlier streets beside the street's bucket, one or more of
    /// none, order (whether the player acted first on each earlier street: its own earlier
    /// actions), buckets (the previous street's bucket), both, last (whether it acted first on
    /// the street before only) (default none, as `stud solve`).
    #[arg(long, num_args = 1.., value_parser = Recall::parse)]
    pub recall: Vec<Recall>,
}

impl Knobs {
    /// Every combination of the values given, with the deals of `seed`.
    pub fn grid(&self, seed: u64) -> Vec<DealKnobs> {
        let mut grid = vec![DealKnobs {
            batch: solver::solve::deal::DEFAULT_BATCH,
            alternating: false,
            algorithm: solver::solve::deal::DEFAULT_ALGORITHM,
            recall: Recall::None,
            seed,
        }];
        vary(&mut grid, &self.batch, |k, &v| k.batch = v);
        vary(&mut grid, &self.alternating, |k, &v| k.alternating = v);
        vary(&mut grid, &self.schedule, |k, &v| k.algorithm = v);
        vary(&mut grid, &self.recall, |k, &v| k.recall = v);
        grid
    }

    /// The flag of a knob given on the command line, if any.
    fn given(&self) -> Option<&'static str> {
        [
            (!self.batch.is_empty(), "--batch"),
            (!self.alternating.is_empty(), "--alternating"),
            (!self.schedule.is_empty(), "--schedule"),
            (!self.recall.is_empty(), "--recall"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// Replaces each setting of `grid` by one copy per value of `values`, set by `set` (none given:
/// the setting stays as it is).
fn vary<T>(grid: &mut Vec<DealKnobs>, values: &[T], set: impl Fn(&mut DealKnobs, &T)) {
    if values.is_empty() {
        return;
    }
    *grid = (grid.iter())
        .flat_map(|k| {
            values.iter().map(|v| {
                let mut k = k.clone();
                set(&mut k, v);
                k
            })
        })
        .collect();
}

/// Runs `stud eval ladder`.
/// `--algorithm` when not given.
const ALGORITHM: Algorithm = Algorithm::CfrPlus;

/// The exact solver's algorithm: `--algorithm`, [`ALGORITHM`] by default.
fn algorithm_of(args: &Args) -> Algorithm {
    args.algorithm.or(ALGORITHM)
}

pub fn run(mut args: Args) -> Result<()> {
    let def = args.game.load()?;
    let deal = args.solver == SolverKind::Deal;
    if args.abstractions.is_empty() {
        args.abstractions = if deal {
            &["8", "32"][..]
        } else {
            &["1", "2", "3", "4", "6", "lossless"]
        }
        .iter()
        .map(|s| s.to_string())
        .collect();
    }
    if args.iterations.is_empty() {
        args.iterations = if deal {
            vec![25, 100, 400]
        } else {
            vec![10, 30, 100, 300]
        };
    }
    check_iterations(&args.iterations)?;
    if !deal {
        for (given, flag) in [
            (args.knobs.given(), "a knob"),
            (
                (!args.lossless.is_empty()).then_some("--lossless"),
                "--lossless",
            ),
        ] {
            if let Some(f) = given {
                bail!("{f} is for --solver deal ({flag} of the deal-sampled ladder)");
            }
        }
    } else if !args.lossless.is_empty() {
        check_iterations(&args.lossless).context("--lossless")?;
    }
    let pool = args.pool.start()?;
    if deal {
        return pool.install(|| run_deals(&args, &def));
    }
    print_header(&args, false);
    let mut bar = Progress::new(&args, args.abstractions.len() as u64, 0);
    let ladder = ladder_of(&args, &def);
    let mut console = Console::new(args.output.json, false);
    for spec in &args.abstractions {
        bar.rung(spec);
        pool.install(|| {
            ladder.climb(
                spec,
                algorithm_of(&args),
                args.sample,
                &args.iterations,
                &mut console,
                &mut |r| bar.row(r.iterations, || print_rung(&args, r)),
            )
        })
        .with_context(|| format!("the {spec} rung"))?;
    }
    bar.finish();
    Ok(())
}

/// The ladder of `def` as `args` set it.
fn ladder_of<'a>(args: &'a Args, def: &'a abstraction::rules::GameDef) -> Ladder<'a> {
    Ladder {
        def,
        name: args.game.name(),
        abstraction_dir: &args.cache.abstraction_dir,
        seed: args.random.seed,
    }
}

/// The ladder's progress bar on standard error: iterations done of all the rungs', with the
/// time left (the rows go on printing above it). Hidden for `--json`, and where standard error
/// is not a terminal. Rows cost about their iterations, so the time left is fair once a rung
/// has finished; the measurements between rows are not counted.
struct Progress {
    bar: indicatif::ProgressBar,
    /// The iterations of the rung under way so far.
    done: u64,
}

impl Progress {
    /// A bar for `climbs` climbs to the last iteration count, and `lossless` iterations before.
    fn new(args: &Args, climbs: u64, lossless: u64) -> Progress {
        let last = args.iterations.last().copied().unwrap_or(0);
        let total = climbs * last + lossless;
        // Shown with `--json` too, on standard error (nothing where it is not a terminal).
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} iterations, {eta} left {msg}",
            )
            .expect("a valid template"),
        );
        Progress { bar, done: 0 }
    }

    /// A new climb begins (its iterations count from 0).
    fn rung(&mut self, name: &str) {
        self.done = 0;
        self.bar.set_message(format!("({name})"));
    }

    /// A row at `iterations` of the climb under way: counted, then printed above the bar.
    fn row(&mut self, iterations: u64, print: impl FnOnce()) {
        self.bar.inc(iterations.saturating_sub(self.done));
        self.done = self.done.max(iterations);
        self.bar.suspend(print);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The deal-sampled ladder: the lossless rows first (if asked; their tree is then the one
/// lifted onto), then every abstraction with every combination of the knobs.
fn run_deals(args: &Args, def: &abstraction::rules::GameDef) -> Result<()> {
    Tree::check_supported(def).with_context(|| {
        format!(
            "--solver deal measures the real game by a best response on its public tree; {} has \
             none (use stud eval lbr)",
            args.game.name()
        )
    })?;
    let mut sizes = Vec::new();
    for spec in &args.abstractions {
        if spec == "lossless" {
            bail!(
                "--solver deal: `lossless` is no bucketing of the deal-sampled solver; give \
                 --lossless with iteration counts for the full-width lossless solve's rows"
            );
        }
        sizes.push(
            Size::parse(spec, def.streets.len())
                .with_context(|| format!("--abstractions {spec} ({SIZES})"))?,
        );
    }
    print_header(args, true);
    let grid = args.knobs.grid(args.random.seed).len() as u64;
    let lossless = args.lossless.last().copied().unwrap_or(0);
    let mut bar = Progress::new(args, sizes.len() as u64 * grid, lossless);
    // The tree every climb's strategy is lifted onto, refused now if it will not fit.
    lift_target(def, available_memory())?;
    let ladder = ladder_of(args, def);
    let mut console = Console::new(args.output.json, false);
    if !args.lossless.is_empty() {
        bar.rung("lossless");
        ladder.climb(
            "lossless",
            algorithm_of(args),
            args.sample,
            &args.lossless,
            &mut console,
            &mut |r| bar.row(r.iterations, || print_rung(args, r)),
        )?;
    }
    let plays = if args.play.is_empty() {
        vec![Purification::Mixed]
    } else {
        args.play.clone()
    };
    for spec in &args.abstractions {
        for knobs in args.knobs.grid(args.random.seed) {
            bar.rung(spec);
            ladder
                .climb_deals(
                    spec,
                    &knobs,
                    &args.iterations,
                    &plays,
                    &mut console,
                    &mut |r| bar.row(r.iterations, || print_deal_rung(args, r)),
                )
                .with_context(|| format!("the {spec} rung"))?;
        }
    }
    bar.finish();
    Ok(())
}

fn print_header(args: &Args, deal: bool) {
    if args.output.json {
        return;
    }
    if deal {
        println!(
            "{:<28} {:>9} {:>8} {:>6} {:>5} {:>8} {:>7} {:>10} {:>10} {:>14} {:>12} {:>10} {:>8}",
            "abstraction",
            "buckets",
            "infosets",
            "batch",
            "alt",
            "schedule",
            "recall",
            "iterations",
            "deals",
            "play",
            "real",
            "real mbb",
            "seconds"
        );
    } else {
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
}

fn slashed(buckets: &[u32]) -> String {
    let b: Vec<String> = buckets.iter().map(|b| b.to_string()).collect();
    b.join("/")
}

/// A row of the exact solver (in the deal table: its iterations are full-width ones).
fn print_rung(args: &Args, r: &Rung) {
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({ "game": args.game.name(), "solver": "tree", "rung": r })
        );
    } else if args.solver == SolverKind::Deal {
        println!(
            "{:<28} {:>9} {:>8} {:>6} {:>5} {:>8} {:>7} {:>10} {:>10} {:>14} {:>12.6} {:>10.2} {:>8.1}",
            "lossless (full width)",
            slashed(&r.buckets),
            r.infosets,
            "-",
            "-",
            algorithm_of(args).name(),
            "all",
            r.iterations,
            "all",
            "mixed",
            r.measure.real_game.chips,
            r.measure.real_game.mbb,
            r.seconds
        );
    } else {
        println!(
            "{:<28} {:>9} {:>10} {:>10} {:>12.6} {:>12.6} {:>10.2} {:>8.1}",
            r.abstraction,
            slashed(&r.buckets),
            r.infosets,
            r.iterations,
            r.measure.abstract_game.chips,
            r.measure.real_game.chips,
            r.measure.real_game.mbb,
            r.seconds
        );
    }
}

fn print_deal_rung(args: &Args, r: &DealRung) {
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({ "game": args.game.name(), "solver": "deal", "rung": r })
        );
    } else {
        println!(
            "{:<28} {:>9} {:>8} {:>6} {:>5} {:>8} {:>7} {:>10} {:>10} {:>14} {:>12.6} {:>10.2} {:>8.1}",
            r.abstraction,
            slashed(&r.buckets),
            r.infosets,
            r.knobs.batch,
            if r.knobs.alternating { "yes" } else { "no" },
            r.knobs.algorithm.name(),
            r.knobs.recall.name(),
            r.iterations,
            r.deals,
            r.play.to_string(),
            r.real_game.chips,
            r.real_game.mbb,
            r.seconds
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_counts_each_rungs_iterations_once() {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            args: Args,
        }
        let line = ["ladder", "--game", "ministud", "--iterations", "10", "100"];
        let args = <Line as clap::Parser>::try_parse_from(line).unwrap().args;
        let mut bar = Progress::new(&args, 2, 30);
        assert_eq!(bar.bar.length(), Some(2 * 100 + 30));
        let mut printed = 0;
        for (rung, rows) in [
            ("lossless", &[10, 30][..]),
            ("1", &[10, 100]),
            ("2", &[10, 10]),
        ] {
            bar.rung(rung);
            for &n in rows {
                bar.row(n, || printed += 1);
            }
        }
        // Two plays of one count print two rows but count its iterations once.
        assert_eq!((bar.bar.position(), printed), (30 + 100 + 10, 6));
    }

    #[test]
    fn the_knob_grid_is_every_combination() {
        let knobs = Knobs {
            batch: vec![64, 256],
            alternating: vec![false, true],
            ..Knobs::default()
        };
        let grid = knobs.grid(7);
        let got: Vec<(usize, bool, u64)> = grid
            .iter()
            .map(|k| (k.batch, k.alternating, k.seed))
            .collect();
        assert_eq!(
            got,
            [
                (64, false, 7),
                (64, true, 7),
                (256, false, 7),
                (256, true, 7)
            ]
        );
        assert_eq!(knobs.given(), Some("--batch"));
        let none = Knobs::default();
        assert_eq!(none.grid(0).len(), 1);
        assert_eq!(none.given(), None);
    }
}
