//! What a solve reports at its end: the figures of its back end ([`Results`], serialised as
//! the final JSON line of `stud solve --json`), and whether an interrupt stopped it.

use crate::memory::Estimate;
use abstraction::rules::GameDef;
use abstraction::tree::Tree;
use anyhow::{bail, Result};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

/// What [`super::drive`] returns.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The back end's figures.
    #[serde(flatten)]
    pub results: Results,
    /// Set when an interrupt stopped the solve before its plan did.
    #[serde(skip)]
    pub interrupted: Option<Interrupted>,
    /// The lock the solve held, if any: a locked solve's file is not an equilibrium's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockNote>,
    /// The iterations of the checkpoint a `--resume` went on from; `null` for a fresh solve.
    pub resumed_from_iteration: Option<u64>,
    /// The measurements of the request's schedule ([`super::MeasureAt`]), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<Row>,
}

/// One measurement of a solve's schedule ([`super::MeasureAt`]).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Iterations completed.
    pub iterations: u64,
    /// Seconds of iterations so far (the measurements excluded).
    pub seconds: f64,
    /// CPU seconds of iterations so far, every thread (the measurements excluded), when the
    /// schedule counts them ([`super::MeasureAt::count_cpu`], or a CPU schedule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// What the back end measured.
    #[serde(flatten)]
    pub measured: Measured,
}

/// What a back end measures at a count of a schedule, with the facts of the solve it measured.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Measured {
    /// A walked solve's average strategy, in the abstract game and the real one.
    Walked {
        /// The card abstraction's name.
        abstraction: String,
        /// Buckets per street.
        buckets: Vec<u32>,
        /// Information sets of the abstract game.
        infosets: usize,
        /// The exploitabilities.
        measure: crate::best_response::Measure,
    },
    /// A deal-sampled solve's average strategy on a walkable game, lifted onto the lossless
    /// public tree and played each way of the schedule's `plays`.
    Lifted {
        /// The bucketing's name (size and checksum).
        abstraction: String,
        /// Buckets per street.
        buckets: Vec<u32>,
        /// Information sets of the betting tree (action nodes × buckets).
        infosets: usize,
        /// Each way of playing it, against the exact best response of the real game.
        played: Vec<Played>,
    },
    /// An exact multiway solve's average strategy.
    NashConv {
        /// Its NashConv, chips per hand summed over the seats.
        nash_conv: f64,
    },
    /// A sampled multiway solve's strategy on a walkable game, lifted onto its whole game tree
    /// ([`crate::multiway::lift`]).
    LiftedMultiway {
        /// Traversals so far: iterations × batch.
        traversals: u64,
        /// The NashConv of the lifted strategy as solved.
        nash_conv: f64,
        /// The same played each way of the schedule's `plays`, in its order.
        played: Vec<PlayedNashConv>,
        /// The same stored in each encoding of the schedule's `rows`, in its order.
        stored: Vec<StoredNashConv>,
    },
}

/// A lifted multiway strategy played one way, measured.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedNashConv {
    /// How its rows were played.
    #[serde(serialize_with = "display")]
    pub play: crate::purify::Purification,
    /// Its NashConv.
    pub nash_conv: f64,
}

/// A lifted multiway strategy stored in one encoding of a file's rows, measured.
#[derive(Clone, Debug, Serialize)]
pub struct StoredNashConv {
    /// The encoding.
    #[serde(serialize_with = "row_format")]
    pub rows: crate::strategy_file::multiway::RowFormat,
    /// Its NashConv.
    pub nash_conv: f64,
}

/// Writes a row encoding as its name (`8bit`, `4bit`).
fn row_format<S: serde::Serializer>(
    f: &crate::strategy_file::multiway::RowFormat,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(abstraction::named::Named::name(*f))
}

/// A lifted strategy played one way, measured.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    /// How its rows were played.
    #[serde(serialize_with = "display")]
    pub play: crate::purify::Purification,
    /// Its exploitability in the real game.
    pub real_game: crate::best_response::Exploitability,
}

/// Writes a value as its `Display` text.
fn display<T: std::fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// What a report records of the lock a solve held: the file and its FNV-1a 64, which tell the
/// lock apart from another.
#[derive(Clone, Debug, Serialize)]
pub struct LockNote {
    /// The lock file.
    pub file: String,
    /// FNV-1a 64 of its bytes, 16 hex digits.
    pub fnv: String,
    /// Its rules.
    pub rules: usize,
    /// FNV-1a 64 of its normalised rules, 16 hex digits: what its checkpoints record, so that
    /// only the same rules resume one.
    pub rules_fnv: String,
}

impl LockNote {
    /// The note of `lock`.
    pub fn of(lock: &crate::lock::Lock) -> LockNote {
        LockNote {
            file: lock.source.clone(),
            fnv: format!("{:016x}", lock.digest),
            rules: lock.rules.len(),
            rules_fnv: format!("{:016x}", lock.rules_digest),
        }
    }
}

impl Report {
    /// Ok for a solve that ran its plan; for an interrupted one, the error that says so, where
    /// its results are and how to go on (so that an exit status tells a script).
    pub fn finished(&self) -> Result<()> {
        if let Some(i) = &self.interrupted {
            bail!(
                "interrupted after {} iterations: the strategy so far is in {} and the solve is \
                 kept in {}; run the same command with --resume to go on",
                i.iterations,
                i.out.display(),
                i.checkpoint.display()
            );
        }
        Ok(())
    }
}

/// An interrupted solve: where it stopped and what it kept.
#[derive(Clone, Debug)]
pub struct Interrupted {
    /// Iterations completed.
    pub iterations: u64,
    /// The checkpoint kept.
    pub checkpoint: PathBuf,
    /// The strategy so far.
    pub out: PathBuf,
}

/// The figures of one back end.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Results {
    /// A walked solve's.
    Walked(Walked),
    /// A deal-sampled solve's.
    Deal(Deal),
    /// An exact multiway solve's.
    Multiway(Multiway),
    /// A sampled multiway solve's.
    Sampled(Sampled),
    /// A split solve's.
    Split(Split),
}

/// The end of a walked solve.
#[derive(Clone, Debug, Serialize)]
pub struct Walked {
    /// The game as named.
    pub game: String,
    /// The member of the CFR family.
    pub algorithm: &'static str,
    /// The card abstraction's name.
    pub abstraction: String,
    /// Public chance sampling: children walked per chance node.
    pub sample: Option<usize>,
    /// Iterations completed.
    pub iterations: u64,
    /// Seconds from the session's start to the results written.
    pub seconds: f64,
    /// Seconds in iterations alone.
    pub iterate_seconds: f64,
    /// Exploitability in the real game, chips per game.
    pub exploitability: f64,
    /// The same in milli-big-bets.
    pub exploitability_mbb: f64,
    /// Exploitability in the abstract game, chips per game.
    pub abstract_exploitability: f64,
    /// The same in milli-big-bets.
    pub abstract_exploitability_mbb: f64,
    /// Seat 0's value.
    pub value_0: f64,
    /// The strategy file.
    pub out: String,
    /// What became of the checkpoint.
    pub checkpoint: String,
    /// Worker threads.
    pub threads: usize,
    /// Nodes of the public tree.
    pub nodes: usize,
    /// Slots of the tree.
    pub infoset_actions: usize,
    /// The memory estimate.
    pub estimate: Estimate,
    /// Its peak.
    pub estimate_bytes: usize,
    /// The process's peak resident memory.
    pub peak_bytes: Option<usize>,
    /// Whether the abstraction is lossless (the abstract game is the real one).
    #[serde(skip)]
    pub lossless: bool,
    /// The average strategy as solved, unrounded: the one `exploitability` measures (the file
    /// stores it rounded). Not in the JSON line; a program of the library plays it through
    /// [`crate::bot::AveragePlayer`].
    #[serde(skip)]
    pub average: Arc<Average>,
}

/// A walked solve's average strategy as it ended, before the strategy file rounds it: the
/// public tree and its average-strategy mass per slot (a row normalized is the strategy).
pub struct Average {
    /// The game solved.
    pub game: GameDef,
    /// The public tree the solve walked.
    pub tree: Tree,
    /// The average-strategy mass of each slot of `tree` (`Solver::average`).
    pub mass: Vec<f64>,
    /// Iterations completed.
    pub iterations: u64,
}

impl std::fmt::Debug for Average {
    /// The game and size only: the tree and rows are far too long to print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Average {{ variant: {:?}, nodes: {}, slots: {}, iterations: {} }}",
            self.game.variant,
            self.tree.nodes.len(),
            self.mass.len(),
            self.iterations
        )
    }
}

/// The end of a deal-sampled solve.
#[derive(Clone, Debug, Serialize)]
pub struct Deal {
    /// The game as named.
    pub game: String,
    /// "deal-sampled" and the member of the CFR family.
    pub solver: String,
    /// The card abstraction's name (and recall).
    pub abstraction: String,
    /// Deals per iteration.
    pub batch: usize,
    /// The seed.
    pub seed: u64,
    /// Iterations completed.
    pub iterations: u64,
    /// Deals sampled.
    pub deals: u64,
    /// Seconds since the solve started (the bucketing included).
    pub seconds: f64,
    /// Seconds in iterations alone.
    pub iterate_seconds: f64,
    /// Deals per second of iterating.
    pub deals_per_second: f64,
    /// (Infoset, deal) updates per second at most.
    pub updates_per_second: f64,
    /// Deals per second of the bucket lookups alone, probed before.
    pub probe_deals_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// Nodes of the betting tree.
    pub nodes: usize,
    /// Its action nodes.
    pub action_nodes: usize,
    /// Information sets.
    pub infosets: usize,
    /// Slots.
    pub infoset_actions: usize,
    /// Bytes per slot.
    pub bytes_per_slot: usize,
    /// The memory estimate.
    pub estimate: Estimate,
    /// Its peak.
    pub estimate_bytes: usize,
    /// The process's peak resident memory.
    pub peak_bytes: Option<usize>,
    /// Exploitability (a walkable game's, lifted), chips per game.
    pub exploitability: Option<f64>,
    /// The same in milli-big-bets.
    pub exploitability_mbb: Option<f64>,
    /// How the exploitability was measured, or why it was not.
    pub exploitability_note: String,
    /// The strategy file.
    pub out: String,
    /// Its size.
    pub file_bytes: u64,
    /// What became of the checkpoint.
    pub checkpoint: String,
    /// Whether the game is walkable (its estimate comes before the lossless tree).
    #[serde(skip)]
    pub walkable: bool,
}

/// The end of an exact multiway solve.
#[derive(Clone, Debug, Serialize)]
pub struct Multiway {
    /// The game as named.
    pub game: String,
    /// Seats.
    pub seats: usize,
    /// The member of the CFR family.
    pub algorithm: &'static str,
    /// Iterations completed.
    pub iterations: u64,
    /// Seconds from the session's start to the results written.
    pub seconds: f64,
    /// Seconds in iterations alone.
    pub iterate_seconds: f64,
    /// NashConv, chips per game.
    pub nash_conv: f64,
    /// The same in milli-big-bets.
    pub nash_conv_mbb: f64,
    /// Each seat's best-response value against the others.
    pub best_response: Vec<f64>,
    /// Each seat's value under the profile.
    pub on_policy: Vec<f64>,
    /// Histories of the game tree.
    pub histories: usize,
    /// Information sets.
    pub infosets: usize,
    /// Slots.
    pub infoset_actions: usize,
    /// The memory estimate's peak.
    pub estimate_bytes: usize,
    /// The process's peak resident memory.
    pub peak_bytes: Option<usize>,
    /// The policy file (in the JSON too, as every other solve's `out`: a program reading the
    /// last line learns where the policy went).
    pub out: String,
    /// What became of the checkpoint (as every other solve's `checkpoint`).
    pub checkpoint: String,
}

/// The end of a sampled multiway solve.
#[derive(Clone, Debug, Serialize)]
pub struct Sampled {
    /// The game as named.
    pub game: String,
    /// Seats.
    pub seats: u8,
    /// "external-sampling MCCFR" and the member of the CFR family.
    pub solver: String,
    /// The other seats' tremble.
    pub tremble: f32,
    /// The view's name.
    pub view: &'static str,
    /// The recall within a street's name.
    pub within_street: &'static str,
    /// The strategy the file plays.
    pub strategy: &'static str,
    /// The card abstraction's name.
    pub abstraction: String,
    /// Traversals per iteration.
    pub batch: usize,
    /// The seed.
    pub seed: u64,
    /// Iterations completed.
    pub iterations: u64,
    /// Traversals run.
    pub traversals: u64,
    /// Seconds since the solve started (the bucketings included).
    pub seconds: f64,
    /// Seconds in iterations alone.
    pub iterate_seconds: f64,
    /// Traversals per second of iterating.
    pub traversals_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// Nodes of the betting abstraction.
    pub nodes: usize,
    /// Information sets.
    pub infosets: usize,
    /// Slots.
    pub infoset_actions: usize,
    /// The memory estimate.
    pub estimate: Estimate,
    /// Its peak.
    pub estimate_bytes: usize,
    /// The process's peak resident memory.
    pub peak_bytes: Option<usize>,
    /// The strategy file.
    pub out: String,
    /// Its size.
    pub file_bytes: u64,
    /// What became of the checkpoint.
    pub checkpoint: String,
    /// The solver in words.
    #[serde(skip)]
    pub describe: String,
    /// The strategy played ([`crate::multiway::sampled::SampledSolver::played_strategy`]),
    /// unrounded, by slot: kept when the request measured (the file rounds it), for a caller
    /// that compares the file's player with it.
    #[serde(skip)]
    pub played: Option<Vec<f32>>,
    /// The ranks' figures of a solve over MPI ranks (none for one process).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<SampledRanks>,
    /// The file a warm start began from (`--warm`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm: Option<WarmNote>,
}

/// What a sampled multiway solve warm-started from a file ([`crate::solve::sampled::Warm`])
/// reports of it.
#[derive(Clone, Debug, Serialize)]
pub struct WarmNote {
    /// The strategy file.
    pub file: String,
    /// Its traversals, which the solve's count includes.
    pub traversals: u64,
    /// Each row's average mass and regret scale.
    pub mass: f32,
}

/// What a sampled multiway solve over ranks adds to its report.
#[derive(Clone, Debug, Serialize)]
pub struct SampledRanks {
    /// The number of ranks.
    pub ranks: usize,
    /// Per rank, the bytes it received per batch (the other ranks' updates).
    pub received_bytes_per_batch: Vec<f64>,
    /// Per rank, the seconds in collectives (waiting for the slowest rank included).
    pub communication_seconds: Vec<f64>,
    /// Per rank, the seconds adding every rank's updates (each rank adds them all).
    pub adding_seconds: Vec<f64>,
}

/// The end of a split solve, as rank 0 reports it.
#[derive(Clone, Debug, Serialize)]
pub struct Split {
    /// The game as named.
    pub game: String,
    /// "deal-sampled" and the member of the CFR family.
    pub solver: String,
    /// The card abstraction's name (and recall).
    pub abstraction: String,
    /// Deals per iteration.
    pub batch: usize,
    /// The seed.
    pub seed: u64,
    /// Iterations completed.
    pub iterations: u64,
    /// Deals sampled.
    pub deals: u64,
    /// Seconds since the solve started.
    pub seconds: f64,
    /// Seconds in iterations alone.
    pub iterate_seconds: f64,
    /// Deals per second of iterating.
    pub deals_per_second: f64,
    /// Ranks.
    pub ranks: usize,
    /// Worker threads of each rank.
    pub threads_per_rank: usize,
    /// The street at whose end the tree is cut.
    pub split_street: usize,
    /// Subtrees below the cut.
    pub split_points: usize,
    /// Slots in all.
    pub slots: usize,
    /// Slots of each rank.
    pub slots_per_rank: Vec<usize>,
    /// Rank 0's memory estimate.
    pub estimate_rank0: Estimate,
    /// One process's estimated peak.
    pub estimate_one_process_bytes: usize,
    /// Rank 0's peak resident memory.
    pub peak_bytes_rank0: Option<usize>,
    /// Rank 0's resident memory before the file was written.
    pub resident_bytes_rank0_before_write: Option<usize>,
    /// Bytes each rank received per batch.
    pub received_bytes_per_batch: Vec<f64>,
    /// Seconds each rank spent in collectives.
    pub communication_seconds: Vec<f64>,
    /// Exploitability (a walkable game's, lifted), chips per game.
    pub exploitability: Option<f64>,
    /// The same in milli-big-bets.
    pub exploitability_mbb: Option<f64>,
    /// The strategy file.
    pub out: String,
    /// Its size.
    pub file_bytes: u64,
    /// What became of the checkpoints.
    pub checkpoint: String,
    /// Why the exploitability is not there.
    #[serde(skip)]
    pub not_measured: Option<String>,
    /// Whether this is rank 0's report (the others' report nothing).
    #[serde(skip)]
    pub lead: bool,
}
