//! The strategy a hand is reviewed against: the one given, or the first of a directory's files
//! solved for the hand's game and table (its variant, seats, stakes; a PokerKit dealer's hand
//! where the file fits PokerKit's rules, as `stud serve --rules pokerkit` plays it).

use crate::bot::{MultiwayPlayer, Player, StrategyPlayer};
use crate::players::{self, FilePlayer};
use crate::purify::Purification;
use crate::strategy_file::StrategyFile;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A strategy playing one game: heads-up (values can be found) or multiway (frequencies only).
pub enum Table {
    /// A heads-up file, its rows as stored.
    HeadsUp(StrategyPlayer),
    /// A multiway file, its rows as stored.
    Multiway(MultiwayPlayer),
}

impl Table {
    /// The player.
    pub fn player(&self) -> &dyn Player {
        match self {
            Table::HeadsUp(p) => p,
            Table::Multiway(p) => p,
        }
    }
}

/// A candidate file: its path and game, opened once to read them.
struct Candidate {
    path: PathBuf,
    game: GameDef,
}

/// The strategy files a review may use, and the players made of them so far (one per file and
/// game played: a file plays hands of other stacks under PokerKit's rules).
pub struct Strategies {
    candidates: Vec<Candidate>,
    /// Whether the files were given one by one (else found in a directory).
    given: bool,
    made: Vec<(usize, GameDef, Arc<Table>)>,
}

impl Strategies {
    /// The files given (at least one).
    pub fn files(paths: &[PathBuf]) -> Result<Strategies> {
        let candidates = paths.iter().map(|p| candidate(p)).collect::<Result<_>>()?;
        Ok(Strategies {
            candidates,
            given: true,
            made: Vec::new(),
        })
    }

    /// The strategy files (`*.strat`) of `dir`, in name order.
    pub fn directory(dir: &Path) -> Result<Strategies> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("the strategies' directory {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "strat"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            bail!(
                "{} holds no strategy file (*.strat): give one with --strategy",
                dir.display()
            );
        }
        let candidates = paths.iter().map(|p| candidate(p)).collect::<Result<_>>()?;
        Ok(Strategies {
            candidates,
            given: false,
            made: Vec::new(),
        })
    }

    /// The strategy for hands of `def`, and its file, or why none fits: the files of the same
    /// variant and seats that refuse it say why, else the games the files hold are listed.
    pub fn for_game(&mut self, def: &GameDef) -> Result<(Arc<Table>, &Path)> {
        let mut refusals = Vec::new();
        for (i, c) in self.candidates.iter().enumerate() {
            if c.game.variant != def.variant || c.game.seats != def.seats {
                continue;
            }
            if let Some((_, _, t)) = self.made.iter().find(|(j, d, _)| *j == i && d == def) {
                return Ok((t.clone(), &c.path));
            }
            match open_for(&c.path, def) {
                Ok(t) => {
                    let t = Arc::new(t);
                    self.made.push((i, def.clone(), t.clone()));
                    return Ok((t, &self.candidates[i].path));
                }
                Err(e) => refusals.push(format!("{e:#}")),
            }
        }
        if !refusals.is_empty() {
            bail!("no strategy fits the hand: {}", refusals.join("; "));
        }
        let held: Vec<String> = (self.candidates.iter())
            .map(|c| {
                format!(
                    "{} ({} at {} seats)",
                    c.path.display(),
                    c.game.variant,
                    c.game.seats
                )
            })
            .collect();
        let whence = if self.given {
            "the strategies given"
        } else {
            "the directory"
        };
        bail!(
            "no strategy for {} at {} seats: {whence} hold {}; give one with --strategy",
            def.variant,
            def.seats,
            held.join(", ")
        )
    }
}

/// The file at `path` and its game.
fn candidate(path: &Path) -> Result<Candidate> {
    let f = StrategyFile::open(path).with_context(|| format!("{}", path.display()))?;
    Ok(Candidate {
        path: path.to_path_buf(),
        game: f.game().clone(),
    })
}

/// The file at `path` as a player of `def` (refused where it was solved for another game),
/// its rows as stored. A review replays the ranges of every decision of a hand around the same
/// up cards: a heads-up player remembers the buckets of the views asked before, as a
/// re-solving player's blueprint remembers them (the same buckets, computed once).
fn open_for(path: &Path, def: &GameDef) -> Result<Table> {
    let mixed = Some(Purification::Mixed);
    Ok(
        match players::open_file(path, def, mixed, players::RESOLVE_RECENT_VIEWS)? {
            FilePlayer::Multiway(p) => Table::Multiway(p),
            FilePlayer::HeadsUp(p) => Table::HeadsUp(p),
        },
    )
}
