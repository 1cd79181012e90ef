//! The player of a multiway strategy file: a [`StrategyPlayer`] of it (one lookup per decision
//! through [`crate::policy`], the file's own `locate` and view behind it), the row played
//! through the player's [`Purification`] (`FILE:mixed|threshold=T|pure`, as a heads-up file),
//! each abstract action's real action by the betting abstraction's `real_action`.

use super::{Answer, Bet, Player, StrategyPlayer};
use crate::purify::Purification;
use crate::strategy_file::multiway::MultiwayFile;
use crate::strategy_file::StrategyFile;
use abstraction::rules::{Action, GameDef, State};
use anyhow::{bail, Result};
use std::path::Path;

/// A player of a multiway strategy file: each row played through its [`Purification`] (by
/// default [`super::default_multiway_purification`]). It plays as the [`StrategyPlayer`] of
/// the file, but only the game the file was solved for, checked at every decision, and without
/// the card classes a heads-up file's player gives.
pub struct MultiwayPlayer {
    player: StrategyPlayer,
}

impl MultiwayPlayer {
    /// The player of the file at `path`, named by it.
    pub fn open(path: &str) -> Result<MultiwayPlayer> {
        Ok(MultiwayPlayer::new(
            MultiwayFile::open(Path::new(path))?,
            path,
        ))
    }

    /// The game the file was solved for.
    pub fn game(&self) -> &GameDef {
        self.player.file().game()
    }

    /// The player of an opened file, read from `path` (its name); its rows played as a multiway
    /// file's are by default.
    pub fn new(file: MultiwayFile, path: &str) -> MultiwayPlayer {
        let file = StrategyFile::Multiway(Box::new(file));
        MultiwayPlayer {
            player: StrategyPlayer::of_file(file, path),
        }
    }

    /// Plays every row through `purification` instead of the default; the name says it
    /// (`FILE:threshold=0.15`), as a heads-up strategy player's does.
    pub fn with_purification(self, purification: Purification) -> MultiwayPlayer {
        MultiwayPlayer {
            player: self.player.with_purification(purification),
        }
    }

    /// What is done to a row before it is played.
    pub fn purification(&self) -> Purification {
        self.player.purification()
    }
}

impl Player for MultiwayPlayer {
    fn name(&self) -> &str {
        self.player.name()
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> Result<Answer> {
        if state.def() != self.game() {
            bail!("{}: the strategy is of another game", self.name());
        }
        self.player.policy(state, bets, seat, legal, probs)
    }
}
