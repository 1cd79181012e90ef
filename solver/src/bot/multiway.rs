//! The player of a multiway strategy file: one lookup per decision in the file
//! ([`MultiwayFile::row`]), the row played through the player's [`Purification`]
//! (`FILE:mixed|threshold=T|pure`, as a heads-up file), each abstract action's real action by
//! the betting abstraction's `real_action`.

use super::{normalize_or_fall_back, Answer, Bet, Player};
use crate::purify::Purification;
use crate::strategy_file::multiway::MultiwayFile;
use crate::strategy_file::MAX_ACTIONS;
use abstraction::rules::{Action, GameDef, State};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// A player of a multiway strategy file: each row played through its [`Purification`] (by
/// default [`super::default_multiway_purification`]).
pub struct MultiwayPlayer {
    file: MultiwayFile,
    /// The file's path.
    path: String,
    /// The name reports give: the path, and how the rows are played if that was set.
    name: String,
    /// What is done to a row before it is played.
    purification: Purification,
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
        &self.file.header.game
    }

    /// The file.
    pub fn file(&self) -> &MultiwayFile {
        &self.file
    }

    /// The player of an opened file, read from `path` (its name); its rows played as a multiway
    /// file's are by default.
    pub fn new(file: MultiwayFile, path: &str) -> MultiwayPlayer {
        MultiwayPlayer {
            plays: file.header.game.clone(),
            file,
            path: path.to_string(),
            name: path.to_string(),
            purification: super::default_multiway_purification(),
        }
    }

    /// The player of `def`: the file's game, or that game under PokerKit's house rules where
    /// the file fits them ([`super::strategy::pokerkit_fits_table`]: stacks deep enough for
    /// no one to be all in under the cap, a deck that never reshuffles); PokerKit's rules only
    /// take betting options away, which the file's lookup translates as it does the card
    /// room's. Refuses any other game.
    pub fn playing(mut self, def: &GameDef) -> Result<MultiwayPlayer> {
        let stored = &self.file.header.game;
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
                self.path,
                stored.variant
            );
        }
        bail!(
            "{} was solved for another game than the one played",
            self.path
        );
    }

    /// Plays every row through `purification` instead of the default; the name says it
    /// (`FILE:threshold=0.15`), as a heads-up strategy player's does.
    pub fn with_purification(mut self, purification: Purification) -> MultiwayPlayer {
        self.name = format!("{}:{purification}", self.path);
        self.purification = purification;
        self
    }

    /// What is done to a row before it is played.
    pub fn purification(&self) -> Purification {
        self.purification
    }
}

impl Player for MultiwayPlayer {
    fn name(&self) -> &str {
        &self.name
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
            bail!("{}: the strategy is of another game", self.name);
        }
        probs.fill(0.0);
        let Some((spot, bucket)) = self.file.row(state, bets, seat)? else {
            // The abstract street closed: the abstract game has called. The strategy's own
            // answer, as a heads-up strategy player's past its cap, not the fallback.
            probs[super::passive(legal)] = 1.0;
            return Ok(Answer::Own);
        };
        let mut row = [0.0; MAX_ACTIONS];
        let k = self.file.row_into(&spot, bucket, &mut row)?;
        self.purification.apply(&mut row[..k]);
        for (c, &p) in row[..k].iter().enumerate() {
            let real = self
                .file
                .betting
                .real_action(spot.tree, spot.node, c, legal)
                .with_context(|| format!("abstract action {c} has no real action"))?;
            if let Some(i) = legal.iter().position(|&a| a == real) {
                probs[i] += p;
            }
        }
        Ok(normalize_or_fall_back(legal, probs))
    }
}
