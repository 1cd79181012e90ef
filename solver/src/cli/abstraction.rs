//! `stud abstraction`: builds (or reads from its cache) the card abstraction of a stud game at a
//! size, and shows the bucket of a hand.

use super::solve_watch::Console;
use abstraction::bucketing::{Bucketing, CardView, Size, Table, SIZES};
use abstraction::cards::{parse_distinct_cards, CardSet};
use abstraction::rules::GameDef;
use anyhow::{bail, Context};
use serde::Serialize;
use solver::bucket_cache::Origin;
use std::path::PathBuf;
use std::time::Instant;

/// The subcommands of `stud abstraction`.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Build the abstraction of a game at a size (or read it from the cache) and report it.
    #[command(after_help = "Examples:
  stud abstraction build --game 7stud --size tiny
  stud abstraction build --game razz --size default --dir abstractions --json
  stud abstraction build --game 5stud --size small --table

The file is <dir>/<game>-<size>.bkt. Its checksum names the abstraction: a strategy file records
it. A cache file that is damaged, of another version, or built with other settings is refused
(the reason is printed) and rebuilt. The report gives, per street, the buckets, the training
views, the share of the EHS variance left within buckets (lower is finer), and the measured
lookups per second on one thread.")]
    Build {
        /// The game, size, cache folder and output format.
        #[command(flatten)]
        common: Common,
        /// Rebuild even if a good cache file exists.
        #[arg(long)]
        force: bool,
        /// Also compute the first-street table (every canonical first-street view's bucket) and
        /// report its size, time and lookup speed.
        #[arg(long)]
        table: bool,
    },
    /// Show the bucket of a hand: my cards as `DOWN | UP`, the opponent's up cards.
    #[command(after_help = "Examples:
  stud abstraction bucket --game 7stud --size tiny 'As Kd | 9h' --opponent 'Kc'
  stud abstraction bucket --game razz --size tiny 'Ac 2d 9s | 3h 4h 5c Kd' --opponent 'Qc Qd 7s 2s' --json

My down cards come before the `|`, my up cards after it; the street follows from how many there
are. The abstraction is built first if it is not in the cache.")]
    Bucket {
        /// The game, size, cache folder and output format.
        #[command(flatten)]
        common: Common,
        /// My cards: down cards, `|`, up cards, e.g. `As Kd | 9h`.
        #[arg(value_name = "MINE")]
        mine: String,
        /// The opponent's up cards, e.g. `Kc`.
        #[arg(long, value_name = "CARDS")]
        opponent: String,
    },
}

/// The options every subcommand takes.
#[derive(clap::Args, Debug)]
pub struct Common {
    #[command(flatten)]
    game: super::args::Game,
    /// The abstraction size: tiny, small, default, large, or buckets per street (4, or 4,8).
    #[arg(long, default_value = "default")]
    size: String,
    /// The folder of the cache files.
    #[arg(long, default_value = "abstractions")]
    dir: PathBuf,
    #[command(flatten)]
    output: super::args::Output,
}

/// Runs `stud abstraction`.
pub fn run(cmd: &Command) -> anyhow::Result<()> {
    match cmd {
        Command::Build {
            common,
            force,
            table,
        } => build(common, *force, *table),
        Command::Bucket {
            common,
            mine,
            opponent,
        } => bucket(common, mine, opponent),
    }
}

/// The game and size named on the command line.
fn game_and_size(c: &Common) -> anyhow::Result<(GameDef, Size)> {
    let def = c.game.load()?;
    let size = Size::parse(&c.size, def.streets.len())
        .with_context(|| format!("--size {} (one of {SIZES})", c.size))?;
    Ok((def, size))
}

/// Loads or builds the abstraction, with a progress bar on standard error.
fn load(c: &Common, force: bool) -> anyhow::Result<(Bucketing, PathBuf, Origin, f64)> {
    let (def, size) = game_and_size(c)?;
    load_or_build(&def, &size, &c.dir, force, false)
}

/// The cached abstraction of `def` at `size` in `dir`, or a fresh build with a progress bar on
/// standard error (none when `quiet`); also the file, how it was had, and the seconds it took.
pub fn load_or_build(
    def: &GameDef,
    size: &Size,
    dir: &std::path::Path,
    force: bool,
    quiet: bool,
) -> anyhow::Result<(Bucketing, PathBuf, Origin, f64)> {
    load_or_build_table(def, Table::default(), size, dir, force, quiet)
}

/// [`load_or_build`] of an N-seat view's bucketing with `table`'s other seats.
pub fn load_or_build_table(
    def: &GameDef,
    table: Table,
    size: &Size,
    dir: &std::path::Path,
    force: bool,
    quiet: bool,
) -> anyhow::Result<(Bucketing, PathBuf, Origin, f64)> {
    let start = Instant::now();
    let console = Console::new(quiet, false);
    let (b, path, origin) =
        solver::solve::cards::load_or_build_table(def, table, size, dir, force, &console)?;
    Ok((b, path, origin, start.elapsed().as_secs_f64()))
}

#[derive(Serialize)]
struct StreetReport {
    street: usize,
    buckets: u32,
    training_views: u32,
    iterations: u32,
    ehs_variance: f64,
    ehs_within_share: f64,
    feature_micros: f64,
    lookups_per_second: f64,
}

#[derive(Serialize)]
struct TableReport {
    views: usize,
    seconds: f64,
    lookups_per_second: f64,
}

#[derive(Serialize)]
struct BuildReport {
    game: String,
    size: String,
    file: String,
    origin: String,
    checksum: String,
    seconds: f64,
    streets: Vec<StreetReport>,
    first_street_table: Option<TableReport>,
}

/// The mean seconds of `f` on `n` random views of `street`, on one thread.
fn seconds_each<T>(
    b: &Bucketing,
    street: usize,
    n: usize,
    f: impl Fn(&CardView) -> Result<T, abstraction::bucketing::BucketError>,
) -> anyhow::Result<f64> {
    let views = b.sample_views(street, n, 0xbe7c4);
    let t = Instant::now();
    for v in &views {
        std::hint::black_box(f(v)?);
    }
    Ok(t.elapsed().as_secs_f64() / n as f64)
}

fn build(c: &Common, force: bool, table: bool) -> anyhow::Result<()> {
    let def = game_and_size(c)?.0;
    let (mut b, path, origin, seconds) = load(c, force)?;
    let mut streets = Vec::new();
    for (i, s) in b.streets().iter().enumerate() {
        let feature_micros = seconds_each(&b, i, 1000, |v| b.features(v))? * 1e6;
        let lookups_per_second = 1.0 / seconds_each(&b, i, 1000, |v| b.bucket(v))?;
        streets.push(StreetReport {
            street: i,
            buckets: b.buckets(i),
            training_views: s.points,
            iterations: s.iterations,
            ehs_variance: s.ehs_variance,
            ehs_within_share: s.ehs_within / s.ehs_variance,
            feature_micros,
            lookups_per_second,
        });
    }
    let first_street_table = if table {
        let t = Instant::now();
        let views = b.precompute_first_street();
        Some(TableReport {
            views,
            seconds: t.elapsed().as_secs_f64(),
            lookups_per_second: 1.0 / seconds_each(&b, 0, 100_000, |v| b.bucket(v))?,
        })
    } else {
        None
    };
    let report = BuildReport {
        game: b.shape().game.clone(),
        size: b.size().name.clone(),
        file: path.display().to_string(),
        origin: match &origin {
            Origin::Cached => "cached".into(),
            Origin::Built => "built".into(),
            Origin::Rebuilt(why) => format!("rebuilt: {why}"),
        },
        checksum: format!("{:016x}", b.checksum()),
        seconds,
        streets,
        first_street_table,
    };
    if c.output.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    if let Origin::Rebuilt(why) = &origin {
        eprintln!("stud abstraction: the cache was refused and rebuilt: {why}");
    }
    println!(
        "{} {} abstraction: {} ({}, {:.1} s), checksum {}",
        report.game,
        report.size,
        report.file,
        if matches!(origin, Origin::Cached) {
            "cached"
        } else {
            "built"
        },
        report.seconds,
        report.checksum
    );
    println!("    street  buckets  views  iters  EHS var  within  features µs  lookups/s");
    for s in &report.streets {
        println!(
            "{:>10}  {:>7}  {:>5}  {:>5}  {:>7.4}  {:>6.3}  {:>11.1}  {:>9.0}",
            def.street_name(s.street),
            s.buckets,
            s.training_views,
            s.iterations,
            s.ehs_variance,
            s.ehs_within_share,
            s.feature_micros,
            s.lookups_per_second
        );
    }
    if let Some(t) = &report.first_street_table {
        println!(
            "first-street table: {} canonical views in {:.1} s, {:.0} lookups/s",
            t.views, t.seconds, t.lookups_per_second
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct BucketReport {
    game: String,
    size: String,
    checksum: String,
    street: usize,
    canonical: String,
    ehs: f32,
    features: Vec<f32>,
    bucket: u32,
    buckets: u32,
}

/// The cards of `text`, or an error naming `what` and the card that is wrong or repeated.
fn cards(text: &str, what: &str) -> anyhow::Result<CardSet> {
    Ok(parse_distinct_cards(text)
        .with_context(|| format!("{what} {text:?}"))?
        .into_iter()
        .collect())
}

/// The view written on the command line, its street inferred from the card counts.
fn parse_view(b: &Bucketing, mine: &str, opponent: &str) -> anyhow::Result<CardView> {
    let Some((down, up)) = mine.split_once('|') else {
        bail!("my cards {mine:?} need a `|` between the down and the up cards, e.g. 'As Kd | 9h'");
    };
    let (down, up, opp_up) = (
        cards(down, "my down cards")?,
        cards(up, "my up cards")?,
        cards(opponent, "the opponent's up cards")?,
    );
    let shape = b.shape();
    let street = (0..shape.streets())
        .find(|&s| shape.downs[s] as u32 == down.len() && shape.ups[s] as u32 == up.len())
        .with_context(|| {
            let streets: Vec<String> = (0..shape.streets())
                .map(|s| format!("{} down + {} up", shape.downs[s], shape.ups[s]))
                .collect();
            format!(
                "{} down and {} up cards is no street of {}: its streets hold {}",
                down.len(),
                up.len(),
                shape.game,
                streets.join(", ")
            )
        })?;
    Ok(CardView {
        street,
        down,
        up,
        opp_up,
    })
}

fn bucket(c: &Common, mine: &str, opponent: &str) -> anyhow::Result<()> {
    let def = game_and_size(c)?.0;
    let b = load(c, false)?.0;
    let v = parse_view(&b, mine, opponent)?;
    let features = b.features(&v)?;
    let bucket = b.bucket(&v)?;
    let canon = b.canonical(&v);
    let report = BucketReport {
        game: b.shape().game.clone(),
        size: b.size().name.clone(),
        checksum: format!("{:016x}", b.checksum()),
        street: v.street,
        canonical: format!("{} | {} vs {}", canon.down, canon.up, canon.opp_up),
        ehs: features[b.layout().ehs_index()],
        features,
        bucket,
        buckets: b.buckets(v.street),
    };
    if c.output.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} {} {}: bucket {} of {} (EHS {:.3}; canonical {}; abstraction {})",
            report.game,
            report.size,
            def.street_name(report.street),
            report.bucket,
            report.buckets,
            report.ehs,
            report.canonical,
            report.checksum
        );
    }
    Ok(())
}
