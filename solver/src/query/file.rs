//! `stud query`'s answer on a strategy file of any kind: the dispatch by kind of file (a
//! walkable game's public tree, a heads-up real game's betting tree, a table's multiway file)
//! and the checks that go with it, written once for the command line and the Python package,
//! which each only read their arguments and print or convert the answer.

use super::betting;
use super::multiway;
use super::public;
use super::spot::Step;
use super::values::values_json;
use crate::bot::StrategyPlayer;
use crate::purify::Purification;
use crate::strategy_file::StrategyFile;
use crate::values::Options;
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::path::Path;

/// What is asked at a spot.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    /// The cards of the player to act (`None`: every hand or bucket).
    pub hand: Option<&'a str>,
    /// How the rows are played (`None`: as stored).
    pub play: Option<Purification>,
    /// Also each seat's range reaching the spot (a real game's file; the rows as stored).
    pub ranges: bool,
}

/// The answer, by kind of file.
pub enum Answer {
    /// A walkable game's public tree: every private hand has its own row.
    Public(public::Answer),
    /// A heads-up real game's betting tree (with the ranges where asked).
    Betting(betting::Answer),
    /// A table of three to eight seats, and where asked the strategy by hand class and each
    /// live seat's range.
    Multiway(multiway::Answer, Option<multiway::TableRanges>),
}

impl Answer {
    /// The answer as `stud query --json` prints it (and the Python package returns).
    pub fn json(&self) -> Value {
        match self {
            Answer::Public(a) => a.json(),
            Answer::Betting(a) => a.json(),
            Answer::Multiway(a, ranges) => {
                let mut v = a.json();
                if let Some(r) = ranges {
                    r.add_to(&mut v);
                }
                v
            }
        }
    }
}

/// The file's player, its rows as stored (what the ranges and the values replay): `player`
/// where the caller has it open already, else opened from `path`.
fn player_of<'p>(
    file: &StrategyFile,
    path: &Path,
    player: Option<&'p StrategyPlayer>,
    owned: &'p mut Option<StrategyPlayer>,
) -> Result<&'p StrategyPlayer> {
    if let Some(p) = player {
        return Ok(p);
    }
    let name = path.to_str().context("the file's path is not UTF-8")?;
    let opened = StrategyPlayer::open(name, file.game())?.with_purification(Purification::Mixed);
    Ok(owned.insert(opened))
}

/// `stud query`'s answer at `steps` on `file` (opened from `path`); `player`: the file's
/// player as stored where the caller keeps one (else one is opened from `path` for the
/// ranges).
pub fn answer(
    file: &StrategyFile,
    path: &Path,
    player: Option<&StrategyPlayer>,
    ask: Ask<'_>,
    steps: &[Step],
) -> Result<Answer> {
    let mut owned = None;
    Ok(match file {
        StrategyFile::Public(_) if ask.ranges => bail!(
            "--ranges reads a real game's strategy (a betting-tree file); {} is a public tree: \
             every private hand has its own row already",
            path.display()
        ),
        StrategyFile::Public(f) => Answer::Public(public::answer(f, ask.hand, ask.play, steps)?),
        StrategyFile::Multiway(f) => {
            let ranges = match ask.ranges {
                true => Some(player_of(file, path, player, &mut owned)?),
                false => None,
            };
            let (rows, ranges) =
                multiway::answer_with_ranges(f, ask.hand, ask.play, steps, ranges)?;
            Answer::Multiway(rows, ranges)
        }
        StrategyFile::Betting(f) => {
            let ranges = match ask.ranges {
                true => Some(player_of(file, path, player, &mut owned)?),
                false => None,
            };
            let ask = betting::Ask {
                hand: ask.hand,
                play: ask.play,
                ranges,
            };
            Answer::Betting(betting::answer(f, ask, steps)?)
        }
    })
}

/// `stud query --values`' answer at `steps` on `file` (opened from `path`; a real game's, heads-up
/// or multiway), as JSON: see [`values_json`]. `player` as for [`answer`]; `progress` is told
/// the unit of work, done and all, as the estimate goes.
pub fn values(
    file: &StrategyFile,
    path: &Path,
    player: Option<&StrategyPlayer>,
    steps: &[Step],
    hand: Option<&str>,
    options: Options,
    progress: &(dyn Fn(&'static str, usize, usize) + Sync),
) -> Result<Value> {
    if matches!(file, StrategyFile::Public(_)) {
        bail!(
            "--values reads a real game's strategy (a betting-tree or multiway file); {} is a \
             public tree",
            path.display()
        );
    }
    let mut owned = None;
    let player = player_of(file, path, player, &mut owned)?;
    values_json(player, steps, hand, options, progress)
}
