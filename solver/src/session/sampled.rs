//! A sampled multiway solve of real stud ([`crate::multiway::sampled`]): what it will cost
//! before the big arrays are allocated ([`estimate`]), its checkpoints (`f32` regrets and
//! averages under a [`Sampled`] header), and its strategy file ([`write_strategy`]).

use super::Session;
use crate::cfr::Algorithm;
use crate::checkpoint;
use crate::checkpoint::Problem;
use crate::memory::Estimate;
use crate::multiway::sampled::{
    chunk_deals, SampledSolver, BYTES_PER_SLOT, QUEUED_PER_TRAVERSAL, UPDATES_PER_TRAVERSAL,
};
use crate::strategy_file::multiway::RowFormat;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::card_abstraction::CardAbstraction;
use abstraction::multiway_betting::{MultiwayBetting, MultiwayCap, WithinStreet, POT_CLASSES};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::rules::GameDef;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How to make a sampled multiway solve smaller, for the refusals.
pub const ADVICE: &str =
    "use --within-street position, fewer seats, a smaller --abstraction or a smaller --batch";

/// The multiway betting abstraction of `def` under its own raise cap and the multiway `cap`,
/// if any, its rows recalling `within_street`, refusing a tree of more than `max_nodes` nodes
/// (the memory estimate comes after it).
pub fn betting(
    def: &GameDef,
    within_street: WithinStreet,
    cap: Option<MultiwayCap>,
    max_nodes: usize,
) -> Result<MultiwayBetting> {
    Ok(MultiwayBetting::build_capped(
        def,
        BettingAbstraction::for_game(def),
        within_street,
        cap,
        max_nodes,
    )?)
}

/// What a sampled solve of `betting` with `buckets` and `batch` traversals per iteration
/// holds beyond the `resident` bytes measured before (the bucketings among them).
pub fn estimate(
    betting: &MultiwayBetting,
    buckets: &MultiwayBuckets,
    batch: usize,
    resident: usize,
) -> Estimate {
    let bucketing_bytes = std::iter::once(&buckets.heads_up)
        .chain(&buckets.by_live)
        .map(|b| b.encode().len())
        .sum();
    let buckets: Vec<u32> = (0..betting.streets).map(|s| buckets.buckets(s)).collect();
    estimate_of(betting, &buckets, bucketing_bytes, batch, resident)
}

/// [`estimate`] of `buckets` per street, the bucketings' encodings `bucketing_bytes` long.
pub fn estimate_of(
    betting: &MultiwayBetting,
    buckets: &[u32],
    bucketing_bytes: usize,
    batch: usize,
    resident: usize,
) -> Estimate {
    let rows = crate::multiway::sampled::Rows::new(betting, buckets);
    let seats = betting.seats as usize;
    // Per deal of a chunk: its traversals' updates (8 bytes each, two buffers) and its memos.
    let memo = (1 << seats) * betting.streets * (seats + 1) + betting.streets * seats * seats * 4;
    let held = chunk_deals(batch, seats);
    Estimate {
        infosets: rows.infosets,
        slots: rows.slots,
        bytes_per_slot: BYTES_PER_SLOT,
        resident_bytes: resident,
        bucketing_bytes,
        // Built before `resident` is measured, so part of it.
        tree_bytes: 0,
        solver_bytes: rows.slots * BYTES_PER_SLOT,
        // A stamp (4 bytes) per block of rows, for the lazy discounts, and the batch's queue
        // of regret updates (8 bytes each).
        scratch_bytes: rows.blocks * 4
            + held * (seats * 2 * 8 * UPDATES_PER_TRAVERSAL + memo)
            + batch * 8 * QUEUED_PER_TRAVERSAL,
        // The normalised average (`f32`) and its rows quantized (a byte per stored probability,
        // `k - 1` a row, with the layout's offset per node), both held while the file is
        // written (the rows were once left out: a four-handed `small` solve peaked 9% over its
        // estimate, by about the file's size), and the bucketings encoded again.
        write_bytes: rows.slots * 4
            + (rows.slots - rows.infosets)
            + betting.nodes.len() * 4
            + bucketing_bytes,
    }
}

impl Problem {
    /// The problem of a sampled multiway solve of `def` with `buckets` and rows recalling
    /// `within_street` (the name carries the view, with the table view every bucketing's
    /// checksum, and a recall of betting positions only: a checkpoint resumes the same rows).
    pub fn sampled(
        def: &GameDef,
        buckets: &MultiwayBuckets,
        within_street: WithinStreet,
    ) -> Problem {
        let mut names = buckets.heads_up.name();
        for b in &buckets.by_live {
            names += &format!(" {:016x}", b.checksum());
        }
        let within = match within_street {
            WithinStreet::History => String::new(),
            WithinStreet::Position => ", recalling betting positions within a street".into(),
        };
        Problem {
            game: def.clone(),
            card_abstraction: format!(
                "{names} {}, {POT_CLASSES} pot classes{within}",
                buckets.view.describe()
            ),
            betting: BettingAbstraction::for_game(def),
            lock: None,
        }
    }

    /// This problem with the streets begun by many seats capped by `cap`, if any: the name
    /// carries it, so that a checkpoint resumes only a solve of the same betting abstraction.
    pub fn with_cap(mut self, cap: Option<MultiwayCap>) -> Problem {
        if let Some(c) = cap {
            self.card_abstraction += &format!(", multiway cap {}", c.name());
        }
        self
    }
}

/// What a sampled multiway checkpoint (magic `STUDCK2S`, two sections of `f32`) records of its
/// solver beside the problem. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// The member of the CFR family.
    pub algorithm: Algorithm,
    /// Traversals per iteration.
    pub batch: u64,
    /// The seed.
    pub seed: u64,
    /// The other seats' tremble (`--tremble`; 0: plain external sampling).
    pub tremble: f32,
}

impl checkpoint::Kind for Sampled {
    const MAGIC: &'static [u8; 8] = b"STUDCK2S";
    const WHAT: &'static str = "sampled multiway checkpoint";
    const RESUME_WITH: &'static str =
        "--game, --abstraction, --multiway-cap, --algorithm, --batch, --seed and --tremble";

    fn mismatch(&self, saved: &Self) -> Option<String> {
        if saved.algorithm != self.algorithm {
            Some(format!("algorithm ({})", saved.algorithm.name()))
        } else if saved.batch != self.batch || saved.seed != self.seed {
            Some("sampling (--batch, --seed)".into())
        } else if saved.tremble != self.tremble {
            Some(format!("tremble ({})", saved.tremble))
        } else {
            None
        }
    }
}

impl Session for SampledSolver {
    type Elem = f32;
    type Kind = Sampled;

    fn iterate(&mut self) -> Result<()> {
        SampledSolver::iterate(self)
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn kind(&self) -> Sampled {
        Sampled {
            algorithm: self.algorithm,
            batch: self.batch as u64,
            seed: self.seed,
            tremble: self.tremble,
        }
    }

    fn arrays(&self) -> [&[f32]; 2] {
        assert!(self.settled(), "the arrays of a solver not settled");
        [&self.regrets, &self.average]
    }

    fn settle(&mut self) {
        SampledSolver::settle(self)
    }

    fn restore(&mut self) -> ([&mut [f32]; 2], &mut u64) {
        ([&mut self.regrets, &mut self.average], &mut self.iterations)
    }
}

/// Writes the strategy the solver plays to `path` (atomically), its rows in `format`: see
/// [`crate::strategy_file::multiway`] for the bytes.
pub fn write_strategy(
    path: &Path,
    solver: &SampledSolver,
    problem: &Problem,
    format: RowFormat,
) -> Result<()> {
    crate::strategy_file::multiway::write(path, solver, problem, format)
}
