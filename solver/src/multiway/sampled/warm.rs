//! A sampled solve warm-started from a strategy file of the same problem
//! ([`SampledSolver::warm_start`]).
//!
//! A file holds a strategy (a row of probabilities per decision, pot class and bucket), not the
//! regrets and average masses a checkpoint holds, so a warm start makes them up from the rows:
//!
//! - **the average**: each row's accumulator set to the row times `mass`, as if the row had been
//!   played `mass` times at the weight a visit has when the solve goes on (linear CFR's `t`
//!   weighting continues from the file's iterations, below). Every row gets the same mass: the
//!   file does not say how often each was reached;
//! - **the regrets**: each row's regrets set to the row times `mass` (chips), so that regret
//!   matching plays the row itself: the current strategy is the file's from the first batch;
//! - **the iterations**: the file's traversals in batches of this solve, so that the schedule's
//!   discounts and weights go on as if this solve had run them (linear CFR's first batch would
//!   otherwise discount everything by 0).
//!
//! docs/notes/multiway.md ("A warm start from a file") measures it against a cold solve of the
//! same traversals.

use super::SampledSolver;
use anyhow::{bail, Result};

impl SampledSolver {
    /// Seeds a fresh solver from `rows` (a probability per slot in this solver's layout, each
    /// decision's row summing to 1) as if it had run `iterations` batches: averages and regrets
    /// the rows times `mass` (see the module). Refuses a solver that has iterated, a mass that
    /// is not positive and finite, and rows of another length or not probabilities.
    pub fn warm_start(&mut self, rows: &[f32], iterations: u64, mass: f32) -> Result<()> {
        if self.iterations != 0 || !self.settled() {
            bail!("a warm start of a solver that has iterated already");
        }
        if !(mass.is_finite() && mass > 0.0) {
            bail!("a warm start's mass of {mass}: it must be positive");
        }
        if rows.len() != self.rows.slots {
            bail!(
                "{} probabilities for a solver of {} slots",
                rows.len(),
                self.rows.slots
            );
        }
        if let Some(i) = rows.iter().position(|p| !(0.0..=1.0).contains(p)) {
            bail!("slot {i}: {} is not a probability", rows[i]);
        }
        for ((r, a), &p) in self.regrets.iter_mut().zip(&mut self.average).zip(rows) {
            *r = p * mass;
            *a = p * mass;
        }
        self.iterations = iterations;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::solver;
    use super::super::Played;
    use crate::cfr::Algorithm;

    /// A solver warm-started from another's strategy plays it, average and current alike, and
    /// goes on from the iterations given; a solver that has iterated, a mass of 0 and rows of
    /// another length are refused.
    #[test]
    fn a_warm_start_plays_the_rows_and_goes_on_from_their_iterations() {
        let mut from = solver(Algorithm::Linear, 6, 1);
        for _ in 0..5 {
            from.iterate().unwrap();
        }
        from.settle();
        let rows = from.average_strategy();
        let mut warm = solver(Algorithm::Linear, 6, 2);
        warm.warm_start(&rows, 5, 3.0).unwrap();
        assert_eq!(warm.iterations, 5);
        for played in [Played::Average, Played::Current] {
            warm.played = played;
            let got = warm.played_strategy();
            let far = got
                .iter()
                .zip(&rows)
                .map(|(a, b)| (a - b).abs())
                .fold(0f32, f32::max);
            assert!(far < 1e-6, "{played:?}: {far}");
        }
        // A cold solver's strategy is not the rows: the comparison can fail.
        let cold = solver(Algorithm::Linear, 6, 2).average_strategy();
        assert!(cold.iter().zip(&rows).any(|(a, b)| (a - b).abs() > 0.1));
        warm.iterate().unwrap();
        assert_eq!(warm.iterations, 6);

        assert!(warm
            .warm_start(&rows, 5, 1.0)
            .unwrap_err()
            .to_string()
            .contains("iterated"));
        let mut fresh = solver(Algorithm::Linear, 6, 2);
        assert!(fresh.warm_start(&rows, 5, 0.0).is_err());
        assert!(fresh.warm_start(&rows[1..], 5, 1.0).is_err());
        let mut bad = rows.clone();
        bad[0] = 1.5;
        assert!(fresh
            .warm_start(&bad, 5, 1.0)
            .unwrap_err()
            .to_string()
            .contains("probability"));
    }
}
