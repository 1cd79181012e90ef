//! A strategy file's card classes estimated from a smaller rollout: what a re-solve's ranges
//! may weigh their holdings by when the exact classes cost too much.
//!
//! A range asks the class (row key) of each of a seat's thousand-odd holdings on every street
//! before the re-solve's: each a feature rollout of the file's whole budget (4,096 hands in
//! seven-card stud). [`ClassEstimate`] computes the same features from fewer outer draws and
//! takes the same nearest centroid ([`Bucketing::estimating`]): a bucket that is sometimes a
//! neighbour of the exact one, so the range is an approximation of the blueprint's. The
//! player's own decisions keep the exact buckets; only the ranges read the estimate, through
//! [`Estimated`].

use super::{ClassSource, Classed, Player, StrategyPlayer};
use crate::strategy_file::StrategyFile;
use abstraction::bucketing::Bucketing;
use abstraction::recall::Recall;
use abstraction::rules::State;
use anyhow::{bail, ensure};

/// Estimated views remembered (32 bytes each: 16 MiB), as a re-solving player's exact ones
/// are: the ranges of every hand ask the first street's views again.
const RECENT_ESTIMATES: usize = 1 << 19;

/// A strategy file's row keys with each street's bucket estimated from `outer` outer draws.
pub struct ClassEstimate {
    bucketing: Bucketing,
    recall: Recall,
}

impl ClassEstimate {
    /// The estimate of `player`'s classes from `outer` outer draws of each rollout (1 to the
    /// file's own, [`Bucketing::outer_draws`]); only a heads-up betting-tree file has classes.
    pub fn of(player: &StrategyPlayer, outer: u32) -> anyhow::Result<ClassEstimate> {
        let StrategyFile::Betting(f) = player.file() else {
            bail!(
                "{}: only a heads-up file with buckets has classes to estimate",
                player.name()
            );
        };
        let built = f.bucketing().outer_draws();
        ensure!(
            (1..=built).contains(&outer),
            "{}: the ranges' rollouts take 1 to {built} outer draws (the file's own), not {outer}",
            player.name()
        );
        let mut bucketing = f.bucketing().estimating(outer);
        bucketing.remember_recent(RECENT_ESTIMATES);
        Ok(ClassEstimate {
            bucketing,
            recall: f.recall(),
        })
    }

    /// The estimated row key of `seat` at `state` (the seat's down cards known).
    pub fn class(&self, state: &State, seat: u8) -> anyhow::Result<u32> {
        Ok(self.recall.key_of_state(&self.bucketing, state, seat)?)
    }
}

/// A player whose classes are a [`ClassEstimate`]'s; its policies are the player's own (a
/// class's row is the file's row of that key).
pub type Estimated<'a> = Classed<'a, ClassEstimate>;

impl ClassSource for ClassEstimate {
    fn class(&self, _: &dyn Player, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        self.class(state, seat).map(Some)
    }
}
