//! The validation ladder: solve a walkable game in an abstraction, then measure the average
//! strategy's exploitability both in the abstract game and in the real, unabstracted game (the
//! exact best response of [`real_exploitability`]), at several iteration counts.

use crate::best_response::{exploitability, real_exploitability, Exploitability};
use crate::cfr::{Algorithm, Sampling, Solver};
use crate::session::{new_solver, Abstractions, Cards};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use serde::Serialize;
use std::time::Instant;

/// The exploitability of a strategy in the abstract game it was solved in and in the real game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Measure {
    /// Against a best response bound by the same card abstraction.
    pub abstract_game: Exploitability,
    /// Against a best response that tells every private hand apart.
    pub real_game: Exploitability,
}

/// Measures the solver's average strategy in both games (one best response when `lossless`:
/// then the two games are the same).
pub fn measure(solver: &Solver, lossless: bool) -> Measure {
    let abstract_game = exploitability(&solver.tree, &solver.average);
    let real_game = if lossless {
        abstract_game
    } else {
        real_exploitability(&solver.tree, &solver.average)
    };
    Measure {
        abstract_game,
        real_game,
    }
}

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
    let mut rungs = Vec::new();
    let mut seconds = 0.0;
    for &n in iterations {
        let t = Instant::now();
        while solver.iterations < n {
            solver.iterate();
        }
        seconds += t.elapsed().as_secs_f64();
        let rung = Rung {
            abstraction: abs.cards.name(),
            buckets: solver.tree.num_buckets.clone(),
            infosets: solver.tree.num_infosets,
            iterations: n,
            measure: measure(&solver, lossless),
            seconds,
        };
        report(&rung);
        rungs.push(rung);
    }
    Ok(rungs)
}
