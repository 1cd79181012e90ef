//! The validation ladder: solve a walkable game in an abstraction, then measure the average
//! strategy's exploitability both in the abstract game and in the real, unabstracted game (the
//! exact best response of [`real_exploitability`](crate::best_response::real_exploitability)),
//! at several iteration counts.
//!
//! Two solvers climb it, each a solve of [`solve::drive`] with a measurement schedule
//! ([`MeasureAt`]) whose rows the ladder reads: the exact solver on the public tree in a card
//! abstraction ([`Ladder::climb`]), and the real games' deal-sampled solver on the betting tree
//! ([`Ladder::climb_deals`]), whose average strategy is lifted onto the lossless public tree to
//! be measured.

use crate::best_response::Exploitability;
use crate::cfr::Algorithm;
use crate::purify::Purification;
use crate::solve::report::{Measured, Row};
use crate::solve::{self, MeasureAt, Request, Settings, Watcher};
use abstraction::bucketing;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use anyhow::{Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

// The measures of a rung, kept where the ladder's callers found them.
pub use crate::best_response::{measure, Measure};
pub use crate::deal_cfr::measure::{
    check_lift_fits, deal_exploitability, lift_target, LIFT_BYTES_PER_SLOT,
};
pub use crate::solve::check_iterations;
pub use crate::solve::deal::purify_lifted;

/// One row of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    /// The card abstraction's name.
    pub abstraction: String,
    /// Buckets per street.
    pub buckets: Vec<u32>,
    /// Information sets of the abstract game.
    pub infosets: usize,
    /// CFR iterations run.
    pub iterations: u64,
    /// The measurements.
    pub measure: Measure,
    /// Seconds of iterations so far (measurements excluded).
    pub seconds: f64,
}

/// The settings of a deal-sampled solve that a ladder can vary, one value each (the ladder's
/// JSON rows name them so). To add a knob of [`crate::deal_cfr::DealSolver`]: a field of
/// [`crate::solve::deal::Settings`] (the one configuration of the solver), a field here and its
/// line in [`DealKnobs::settings`], and its flag in `cli::ladder::Knobs` (which takes a list and
/// runs every combination).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealKnobs {
    /// Deals per iteration.
    pub batch: usize,
    /// Alternating updates ([`crate::deal_cfr::DealSolver::alternating`]).
    pub alternating: bool,
    /// The member of the CFR family ([`crate::deal_cfr::DealSolver::set_algorithm`]).
    #[serde(serialize_with = "algorithm_name")]
    pub algorithm: Algorithm,
    /// What a row recalls of earlier streets beside the street's bucket.
    #[serde(serialize_with = "display_recall")]
    pub recall: Recall,
    /// The seed of the deals.
    pub seed: u64,
}

impl DealKnobs {
    /// These knobs as the deal-sampled solve's settings (the rest as `stud solve`'s defaults).
    pub fn settings(&self) -> crate::solve::deal::Settings {
        crate::solve::deal::Settings {
            algorithm: self.algorithm,
            batch: self.batch,
            recall: self.recall,
            alternating: self.alternating,
            ..Default::default()
        }
    }
}

/// Writes an algorithm as its short name (`linear`, `cfr+`) in the ladder's JSON rows.
fn algorithm_name<S: serde::Serializer>(a: &Algorithm, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(a.name())
}

/// Writes a recall as its short name (`none`, `order`) in the ladder's JSON rows.
fn display_recall<S: serde::Serializer>(r: &Recall, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.name())
}

/// One row of the deal-sampled ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealRung {
    /// The bucketing's name (size and checksum).
    pub abstraction: String,
    /// Buckets per street.
    pub buckets: Vec<u32>,
    /// Information sets of the betting tree (action nodes × buckets).
    pub infosets: usize,
    /// The solver's knobs.
    pub knobs: DealKnobs,
    /// Iterations (batches) run.
    pub iterations: u64,
    /// Deals sampled: iterations × batch.
    pub deals: u64,
    /// How the average strategy's rows were played when measured.
    #[serde(serialize_with = "display")]
    pub play: Purification,
    /// The lifted average strategy, played as `play` says, against the exact best response of
    /// the real game.
    pub real_game: Exploitability,
    /// Seconds of iterations so far (the lifts and best responses excluded).
    pub seconds: f64,
}

/// Writes a value as its `Display` text in the ladder's JSON rows.
fn display<T: std::fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// A ladder of one walkable game: the game, the folder of its bucketing cache files (built
/// there when missing) and the seed of every random draw. Each climb is a solve whose strategy
/// file goes to a folder of its own under the system's temporary folder, removed once read.
pub struct Ladder<'a> {
    /// The game.
    pub def: &'a GameDef,
    /// The game as named (messages).
    pub name: &'a str,
    /// The folder of the bucketing cache files.
    pub abstraction_dir: &'a Path,
    /// The seed of the tree climbs' public chance sampling (a deal climb's is its knobs').
    pub seed: u64,
}

impl Ladder<'_> {
    /// Solves the game in the card abstraction `spec` (`lossless` or a bucketing size) with
    /// `algorithm` (and public chance sampling of `sample` children if given), measuring after
    /// each count of `iterations` (ascending); calls `report` with each row as it comes. In the
    /// current rayon pool: the same rows on any number of threads.
    pub fn climb(
        &self,
        spec: &str,
        algorithm: Algorithm,
        sample: Option<usize>,
        iterations: &[u64],
        watcher: &mut dyn Watcher,
        report: &mut (dyn FnMut(&Rung) + Send + Sync),
    ) -> Result<Vec<Rung>> {
        let settings = Settings::Walked(solve::walked::Settings {
            algorithm,
            abstraction: spec.to_string(),
            target: None,
            sample,
            // No checkpoint before the end: a ladder is measured, not resumed.
            every: Some(u64::MAX),
        });
        let mut rungs = Vec::new();
        self.solve(
            settings,
            self.seed,
            iterations,
            &[],
            watcher,
            &mut |row: &Row| {
                if let Measured::Walked {
                    abstraction,
                    buckets,
                    infosets,
                    measure,
                } = &row.measured
                {
                    let rung = Rung {
                        abstraction: abstraction.clone(),
                        buckets: buckets.clone(),
                        infosets: *infosets,
                        iterations: row.iterations,
                        measure: *measure,
                        seconds: row.seconds,
                    };
                    report(&rung);
                    rungs.push(rung);
                }
            },
        )?;
        Ok(rungs)
    }

    /// Solves the game with the deal-sampled solver in the bucketing `spec` as `knobs` say,
    /// and after each count of `iterations` (ascending; 0 measures the uniform strategy) lifts
    /// its average strategy onto the lossless public tree of the game and measures it, played
    /// each way of `plays` (none: as solved), with the exact best response; calls `report` with
    /// each row as it comes. In the current rayon pool: the same rows on any number of threads.
    pub fn climb_deals(
        &self,
        spec: &str,
        knobs: &DealKnobs,
        iterations: &[u64],
        plays: &[Purification],
        watcher: &mut dyn Watcher,
        report: &mut (dyn FnMut(&DealRung) + Send + Sync),
    ) -> Result<Vec<DealRung>> {
        let settings = Settings::Deal(solve::deal::Settings {
            abstraction: spec.to_string(),
            // No checkpoint before the end: a ladder is measured, not resumed.
            checkpoint_every: Duration::MAX,
            ..knobs.settings()
        });
        let mut rungs = Vec::new();
        self.solve(
            settings,
            knobs.seed,
            iterations,
            plays,
            watcher,
            &mut |row: &Row| {
                if let Measured::Lifted {
                    abstraction,
                    buckets,
                    infosets,
                    played,
                } = &row.measured
                {
                    for p in played {
                        let rung = DealRung {
                            abstraction: abstraction.clone(),
                            buckets: buckets.clone(),
                            infosets: *infosets,
                            knobs: knobs.clone(),
                            iterations: row.iterations,
                            deals: row.iterations * knobs.batch as u64,
                            play: p.play,
                            real_game: p.real_game,
                            seconds: row.seconds,
                        };
                        report(&rung);
                        rungs.push(rung);
                    }
                }
            },
        )?;
        Ok(rungs)
    }

    /// Drives a solve of `settings` with `seed` to the last of `iterations`, measured at each
    /// (lifted strategies played each way of `plays`), each row given to `row` as it comes; its
    /// strategy file written to a temporary folder and removed.
    fn solve(
        &self,
        settings: Settings,
        seed: u64,
        iterations: &[u64],
        plays: &[Purification],
        watcher: &mut dyn Watcher,
        row: &mut (dyn FnMut(&Row) + Send + Sync),
    ) -> Result<()> {
        check_iterations(iterations)?;
        let dir = scratch_dir()?;
        let request = Request {
            game: self.def.clone(),
            name: self.name.to_string(),
            iterations: iterations.last().copied(),
            time: None,
            out: Some(dir.join("climb.strat")),
            keep_checkpoint: false,
            resume: false,
            seed,
            abstraction_dir: self.abstraction_dir.to_path_buf(),
            lock: None,
            settings,
            measure_at: MeasureAt {
                iterations: iterations.to_vec(),
                plays: plays.to_vec(),
                ..MeasureAt::default()
            },
        };
        let report = solve::drive(&request, &mut Rows { watcher, row });
        std::fs::remove_dir_all(&dir).ok();
        report?.finished()
    }
}

/// A fresh folder under the system's temporary folder for one climb's files.
fn scratch_dir() -> Result<PathBuf> {
    static CLIMBS: AtomicU64 = AtomicU64::new(0);
    let n = CLIMBS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("stud-ladder-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

/// A climb's watcher: the rows to the ladder, the lines and the bucketing's progress to the
/// caller's watcher; the session's own progress to none (the ladder counts its rows).
struct Rows<'w> {
    watcher: &'w mut dyn Watcher,
    row: &'w mut (dyn FnMut(&Row) + Send + Sync),
}

impl Watcher for Rows<'_> {
    fn say(&self, line: &str) {
        self.watcher.say(line);
    }
    fn building(&self, def: &GameDef, progress: bucketing::Progress) {
        self.watcher.building(def, progress);
    }
    fn built(&self) {
        self.watcher.built();
    }
    fn measured(&mut self, row: &Row) {
        (self.row)(row);
    }
}
