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
    /// The game it plays: the file's, or that game under PokerKit's rules where the file fits
    /// them ([`MultiwayPlayer::playing`]).
    plays: GameDef,
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
        let plays = file.header.game.clone();
        let file = StrategyFile::Multiway(Box::new(file));
        MultiwayPlayer {
            player: StrategyPlayer::of_file(file, path),
            plays,
        }
    }

    /// The player of `def`: the file's game, or that game under PokerKit's house rules where
    /// the file fits them ([`super::strategy::pokerkit_fits_table`]: stacks deep enough for
    /// no one to be all in under the cap, a deck that never reshuffles); PokerKit's rules only
    /// take betting options away, which the file's lookup translates as it does the card
    /// room's. Refuses any other game.
    pub fn playing(mut self, def: &GameDef) -> Result<MultiwayPlayer> {
        let stored = self.game();
        if def == stored || super::strategy::pokerkit_fits_table(stored, def) {
            self.plays = def.clone();
            return Ok(self);
        }
        if stored
            .clone()
            .with_profile(abstraction::rules::Profile::PokerKit)
            == *def
        {
            bail!(
                "{} was solved for {} under the card-room rules; PokerKit's rules are accepted \
                 where no stack can be all in under the cap and the deck deals every seat \
                 without a reshuffle, not here",
                self.name(),
                stored.variant
            );
        }
        bail!(
            "{} was solved for another game than the one played",
            self.name()
        );
    }

    /// Plays every row through `purification` instead of the default; the name says it
    /// (`FILE:threshold=0.15`), as a heads-up strategy player's does.
    pub fn with_purification(self, purification: Purification) -> MultiwayPlayer {
        MultiwayPlayer {
            player: self.player.with_purification(purification),
            plays: self.plays,
        }
    }

    /// What is done to a row before it is played.
    pub fn purification(&self) -> Purification {
        self.player.purification()
    }

    /// Plays the rows its solve never reached as stored (uniform) rather than by the
    /// hand-strength bot: the strategy an exact measure lifts ([`StrategyPlayer::rows_as_stored`]).
    pub fn rows_as_stored(self) -> MultiwayPlayer {
        MultiwayPlayer {
            player: self.player.rows_as_stored(),
            plays: self.plays,
        }
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
        if state.def() != &self.plays {
            bail!("{}: the strategy is of another game", self.name());
        }
        self.player.policy(state, bets, seat, legal, probs)
    }
}
