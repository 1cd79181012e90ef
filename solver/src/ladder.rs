//! The validation ladder: solve a walkable game in an abstraction, then measure the average
//! strategy's exploitability both in the abstract game and in the real, unabstracted game (the
//! exact best response of [`real_exploitability`]), at several iteration counts.
//!
//! Two solvers climb it: the exact solver on the public tree in a card abstraction ([`climb`]),
//! and the real games' deal-sampled solver on the betting tree ([`climb_deals`]), whose average
//! strategy is lifted onto the lossless public tree ([`DealSolver::lift`]) to be measured.

use crate::best_response::{exploitability, Exploitability};
use crate::cfr::{Algorithm, Sampling, Solver};
use crate::deal_cfr::DealSolver;
use crate::purify::Purification;
use crate::session::{new_solver, Abstractions, Cards};
use abstraction::bucketing::Bucketing;
use abstraction::card_abstraction::CardAbstraction;
use abstraction::recall::Recall;
use abstraction::rules::GameDef;
use abstraction::tree::{NodeKind, Tree, NONE};
use anyhow::{bail, Result};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

// The measures of a rung, kept where the ladder's callers found them.
pub use crate::best_response::{measure, Measure};
pub use crate::deal_cfr::measure::{
    check_lift_fits, deal_exploitability, lift_target, LIFT_BYTES_PER_SLOT,
};

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

/// Refuses iteration counts that are empty or not ascending.
pub fn check_iterations(iterations: &[u64]) -> Result<()> {
    if iterations.is_empty() || iterations.windows(2).any(|w| w[0] >= w[1]) {
        bail!("the iteration counts must be ascending and not empty, not {iterations:?}");
    }
    Ok(())
}

/// Solves `def` in the card abstraction `cards` with `algorithm` (and public chance `sampling`
/// if given), measuring after each count of `iterations` (ascending); calls `report` with each
/// row as it comes (in the current rayon pool: the same rows on any number of threads).
pub fn climb(
    def: &GameDef,
    cards: Cards,
    algorithm: Algorithm,
    sampling: Option<Sampling>,
    iterations: &[u64],
    memory: Option<usize>,
    report: &mut dyn FnMut(&Rung),
) -> Result<Vec<Rung>> {
    check_iterations(iterations)?;
    let lossless = cards.is_lossless();
    let abs = Abstractions::with_cards(def, cards);
    let mut solver = new_solver(def, &abs, algorithm, memory)?;
    if let Some(s) = sampling {
        solver.sample(s).map_err(anyhow::Error::msg)?;
    }
    climb_solver(&mut solver, &abs.cards.name(), lossless, iterations, report)
}

/// Runs `solver` (fresh, or at fewer iterations than the first count) in the abstraction named
/// `abstraction`, measuring after each count of `iterations` (ascending) as [`climb`] does; the
/// solver is left at the last count, so that its tree can serve again (the lossless one is
/// what [`climb_deals`] lifts onto).
pub fn climb_solver(
    solver: &mut Solver,
    abstraction: &str,
    lossless: bool,
    iterations: &[u64],
    report: &mut dyn FnMut(&Rung),
) -> Result<Vec<Rung>> {
    check_iterations(iterations)?;
    let mut rungs = Vec::new();
    let mut seconds = 0.0;
    for &n in iterations {
        let t = Instant::now();
        while solver.iterations < n {
            solver.iterate();
        }
        seconds += t.elapsed().as_secs_f64();
        let rung = Rung {
            abstraction: abstraction.to_string(),
            buckets: solver.tree.num_buckets.clone(),
            infosets: solver.tree.num_infosets,
            iterations: n,
            measure: measure(solver, lossless),
            seconds,
        };
        report(&rung);
        rungs.push(rung);
    }
    Ok(rungs)
}

/// The settings of a deal-sampled solve that a ladder can vary, one value each (the ladder's
/// JSON rows name them so). To add a knob of [`DealSolver`]: a field of
/// [`crate::solve::deal::Settings`] (the one configuration of the solver), a field here and its
/// line in [`DealKnobs::settings`], and its flag in `cli::ladder::Knobs` (which takes a list and
/// runs every combination).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealKnobs {
    /// Deals per iteration.
    pub batch: usize,
    /// Alternating updates ([`DealSolver::alternating`]).
    pub alternating: bool,
    /// The member of the CFR family ([`DealSolver::set_algorithm`]).
    #[serde(serialize_with = "algorithm_name")]
    pub algorithm: crate::cfr::Algorithm,
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

    /// A fresh solver of `def` with `bucketing` (built for `def`) on its betting tree under the
    /// game's betting abstraction, set as these knobs say.
    pub fn solver(&self, def: &GameDef, bucketing: Arc<Bucketing>) -> Result<DealSolver> {
        self.settings().fresh(def, bucketing, self.seed)
    }
}

/// Writes an algorithm as its short name (`linear`, `cfr+`) in the ladder's JSON rows.
fn algorithm_name<S: serde::Serializer>(
    a: &crate::cfr::Algorithm,
    s: S,
) -> Result<S::Ok, S::Error> {
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

/// Plays every row of `lifted` (a strategy on the public tree `public`) through `play`.
pub fn purify_lifted(public: &Tree, lifted: &mut [f64], play: Purification) {
    if play == Purification::Mixed {
        return;
    }
    for n in public.nodes.iter().filter(|n| n.kind == NodeKind::Action) {
        let k = n.num_children as usize;
        for &r in public.bucket_table(n.board, n.seat) {
            if r != NONE {
                let at = n.first_slot() as usize + r as usize * k;
                play.apply(&mut lifted[at..at + k]);
            }
        }
    }
}

/// Solves the walkable game `def` with the deal-sampled solver in the card abstraction
/// `bucketing` (built for `def`) as `knobs` say, and after each count of `iterations`
/// (ascending; 0 measures the uniform strategy) lifts its average strategy onto `public` (the
/// lossless public tree of `def` under the game's betting abstraction) and measures it, played
/// each way of `plays`, with the exact best response; calls `report` with each row as it
/// comes. In the current rayon pool: the same rows on any number of threads.
pub fn climb_deals(
    def: &GameDef,
    bucketing: Arc<Bucketing>,
    knobs: &DealKnobs,
    public: &Tree,
    iterations: &[u64],
    plays: &[Purification],
    report: &mut dyn FnMut(&DealRung),
) -> Result<Vec<DealRung>> {
    check_iterations(iterations)?;
    let name = CardAbstraction::name(bucketing.as_ref());
    let mut solver = knobs.solver(def, bucketing)?;
    let (buckets, infosets) = (solver.tree.num_buckets.clone(), solver.tree.infosets());
    let mut rungs = Vec::new();
    let mut seconds = 0.0;
    for &n in iterations {
        let t = Instant::now();
        while solver.iterations < n {
            solver.iterate()?;
        }
        seconds += t.elapsed().as_secs_f64();
        let lifted = solver.lift(public).map_err(anyhow::Error::msg)?;
        for &play in plays {
            let mut played = lifted.clone();
            purify_lifted(public, &mut played, play);
            let rung = DealRung {
                abstraction: name.clone(),
                buckets: buckets.clone(),
                infosets,
                knobs: knobs.clone(),
                iterations: n,
                deals: n * knobs.batch as u64,
                play,
                real_game: exploitability(public, &played),
                seconds,
            };
            report(&rung);
            rungs.push(rung);
        }
    }
    Ok(rungs)
}
