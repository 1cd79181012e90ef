//! A multiway file's rows read back into a solver's slots, and the check that a file is of the
//! problem a solve solves: what a warm start from the file
//! ([`crate::multiway::sampled::SampledSolver::warm_start`]) reads.

use super::{each_row, MultiwayFile};
use crate::checkpoint::Problem;
use crate::multiway::sampled::Rows;
use crate::strategy_file::MAX_ACTIONS;
use abstraction::multiway_betting::{MultiwayBetting, POT_CLASSES};
use abstraction::named::Named;
use anyhow::{bail, Result};

impl MultiwayFile {
    /// Every row as the file stores it, a probability per slot in the solver's layout
    /// ([`Rows`]): what its player plays.
    pub fn by_slot(&self) -> Result<Vec<f32>> {
        let mut out = vec![0f32; self.rows.slots];
        let mut row = [0.0; MAX_ACTIONS];
        each_row(&self.betting, &self.rows, |spot, bucket, _| {
            let k = self.row_into(spot, bucket, &mut row)?;
            let first = self.slot(spot, bucket);
            for (o, &p) in out[first..first + k].iter_mut().zip(&row[..k]) {
                *o = p as f32;
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// Refuses a file of another seat count or game than `game`, by what differs (before a
    /// solve builds its abstraction).
    pub fn check_game(&self, game: &abstraction::rules::GameDef) -> Result<()> {
        let h = &self.header;
        if h.game.seats != game.seats {
            bail!(
                "it is of {} seats, the solve of {}",
                h.game.seats,
                game.seats
            );
        }
        if h.game != *game {
            bail!(
                "it is of another game ({} at {} seats, its rules or stakes differ from the \
                 solve's)",
                h.game.variant,
                h.game.seats
            );
        }
        Ok(())
    }

    /// Refuses, by what differs, a file that is not of `problem` on `betting` and `rows` (a
    /// solve's): another seat count or game, another card abstraction (its bucketings'
    /// checksums, the view, the pot classes, the recall within a street and the multiway cap
    /// are in its name), another betting abstraction, or other rows.
    pub fn check_same(
        &self,
        problem: &Problem,
        betting: &MultiwayBetting,
        rows: &Rows,
    ) -> Result<()> {
        self.check_game(&problem.game)?;
        let h = &self.header;
        if h.pot_classes != POT_CLASSES {
            bail!(
                "it has {} pot classes, the solve {POT_CLASSES}",
                h.pot_classes
            );
        }
        if self.betting.within_street != betting.within_street {
            bail!(
                "its rows recall {} within a street, the solve's {}",
                self.betting.within_street.name(),
                betting.within_street.name()
            );
        }
        if self.betting.cap != betting.cap {
            let name = |c: Option<abstraction::multiway_betting::MultiwayCap>| {
                c.map_or("none".to_string(), |c| c.name())
            };
            bail!(
                "its multiway cap is {}, the solve's {}",
                name(self.betting.cap),
                name(betting.cap)
            );
        }
        if h.card_abstraction != problem.card_abstraction {
            bail!(
                "its card abstraction is {:?}, the solve's {:?} (the bucketings and their \
                 checksums, the view, the pot classes, the recall within a street and the \
                 multiway cap must be the same)",
                h.card_abstraction,
                problem.card_abstraction
            );
        }
        if h.betting != problem.betting {
            bail!(
                "its betting abstraction differs from the solve's: {:?} against {:?}",
                h.betting,
                problem.betting
            );
        }
        if self.betting.nodes.len() != betting.nodes.len() || self.rows.slots != rows.slots {
            bail!(
                "its betting abstraction has {} nodes and {} slots, the solve's {} and {}",
                self.betting.nodes.len(),
                self.rows.slots,
                betting.nodes.len(),
                rows.slots
            );
        }
        Ok(())
    }
}
