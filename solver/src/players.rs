//! The player a command line names, of any kind: a built-in bot, a heads-up or multiway
//! strategy file played as its spec says, or a file whose last street is re-solved at play time.
//! It sits above the bots and re-solving because it names them all; a player's own module
//! knows only itself.

use crate::bot::{
    AlwaysCall, AlwaysRaise, Heuristic, MultiwayPlayer, Player, StrategyPlayer, Uniform, BOT_NAMES,
};
use crate::purify::Purification;
use crate::resolve::depth_player::{depth_spec, DepthPlayer};
use crate::resolve::table::TablePlayer;
use crate::resolve::{resolve_spec, ResolvingPlayer};
use crate::strategy_file::multiway::MultiwayFile;
use crate::strategy_file::StrategyFile;
use abstraction::rules::GameDef;
use std::path::Path;

/// The player a command line names: a built-in bot (`random`, `call`, `raise`, `heuristic`) or
/// a strategy file (heads-up or multiway) solved for `def`, optionally followed by how its rows are played
/// (`FILE:mixed`, `FILE:pure`, `FILE:threshold=T`; see [`strategy_spec`]), then optionally by
/// `:resolve` (`:resolve=N` iterations, `:resolve=Nms`; `:resolve-safe…` the safe re-solve, `:resolve-maxmargin…` through the maxmargin gadget;
/// `,floor=F` after any of them, the ranges' floor; `,cold`, classes looked up at the re-solve only;
/// `:search…`, the last two streets from sixth street, then seventh street again, nested;
/// `:search-safe…` nested safely):
/// its last street re-solved at play time ([`ResolvingPlayer`]; a multiway file's once two
/// players are left: [`TablePlayer`]); or, on a walkable game, `:depth=K,from=S` (and
/// `,nested`, `,iterations=N`, `,floor=F`): a depth-limited search from street `S` on
/// ([`DepthPlayer`]).
pub fn load(spec: &str, def: &GameDef) -> anyhow::Result<Box<dyn Player>> {
    Ok(match spec {
        "random" => Box::new(Uniform),
        "call" => Box::new(AlwaysCall),
        "raise" => Box::new(AlwaysRaise),
        "heuristic" => Box::new(Heuristic::default()),
        _ => {
            let (path, purification) = strategy_spec(spec)?;
            // The file is opened once, whichever its kind, and the kind picks the player.
            let file = StrategyFile::open(Path::new(path))?;
            of_file(spec, path, purification, file, def)?
        }
    })
}

/// [`load`] in the game a strategy file was solved for: the game and the player, the file
/// opened once; `None` for a built-in bot, which plays any game. `warm` computes a heads-up
/// file's first-street bucket table first (`BettingFile::precompute_first_street`: some 10 s
/// and 18 MiB for a seven-card file, then faster first-street decisions, the same ones).
pub fn load_own(spec: &str, warm: bool) -> anyhow::Result<Option<(GameDef, Box<dyn Player>)>> {
    if BOT_NAMES.contains(&spec) {
        return Ok(None);
    }
    let (path, purification) = strategy_spec(spec)?;
    let mut file = StrategyFile::open(Path::new(path))?;
    if let (true, StrategyFile::Betting(f)) = (warm, &mut file) {
        f.precompute_first_street();
    }
    let def = file.game().clone();
    let player = of_file(spec, path, purification, file, &def)?;
    Ok(Some((def, player)))
}

/// The player of the strategy file `spec` names, `file` opened from its `path` (its
/// purification read already), solved for `def`: a multiway file's, else the heads-up file's,
/// re-solving where the spec says `:resolve`.
fn of_file(
    spec: &str,
    path: &str,
    purification: Option<Purification>,
    file: StrategyFile,
    def: &GameDef,
) -> anyhow::Result<Box<dyn Player>> {
    let (resolve, depth) = match Path::new(spec).exists() {
        true => (None, None),
        false => (resolve_spec(spec), depth_spec(spec)),
    };
    if let Some(parsed) = depth {
        let (_, how) = parsed?;
        if let StrategyFile::Multiway(_) = file {
            anyhow::bail!("`{spec}`: a depth-limited search is heads-up: give a heads-up file");
        }
        let player = strategy_player(path, purification, file, def)?;
        return Ok(Box::new(DepthPlayer::new(player, def, &how)?));
    }
    if let StrategyFile::Multiway(f) = file {
        let player = multiway_player(path, purification, *f, def)?;
        return Ok(match resolve {
            Some(parsed) => {
                let (_, budget, options) = parsed?;
                Box::new(TablePlayer::new(player, budget, options)?)
            }
            None => Box::new(player),
        });
    }
    let mut player = strategy_player(path, purification, file, def)?;
    Ok(match resolve {
        Some(parsed) => {
            let (_, budget, options) = parsed?;
            player.remember_recent(RESOLVE_RECENT_VIEWS);
            Box::new(ResolvingPlayer::new(player, budget, options)?)
        }
        None => Box::new(player),
    })
}

/// The strategy player `spec` names (a heads-up strategy file, optionally `:mixed`, `:pure` or
/// `:threshold=T`), solved for `def`.
pub fn open_strategy(spec: &str, def: &GameDef) -> anyhow::Result<StrategyPlayer> {
    if !Path::new(spec).exists() && (resolve_spec(spec).is_some() || depth_spec(spec).is_some()) {
        anyhow::bail!(
            "`{spec}`: a re-solving player plays in match, serve and play; give the strategy \
             file here without `:resolve`"
        );
    }
    let (path, purification) = strategy_spec(spec)?;
    let file = StrategyFile::open(Path::new(path))?;
    if let StrategyFile::Multiway(_) = file {
        let g = file.game();
        anyhow::bail!(
            "{path} is a multiway strategy file, of {} at {} seats: it plays that table \
             (leave --game out, or give --game {}-{}p), and here a heads-up file is needed",
            g.variant,
            g.seats,
            g.variant.name(),
            g.seats
        );
    }
    strategy_player(path, purification, file, def)
}

/// The views whose buckets a loaded strategy player remembers (2 MiB): a re-solving player's
/// ranges ask some 8,000 views a hand of seven-card stud, a player at a table a few a hand.
pub const RECENT_VIEWS: usize = 1 << 16;

/// The views whose buckets a re-solving player's blueprint remembers (16 MiB): beside a hand's
/// own, the first street's 185,185 canonical views of the seven-card games, which the ranges
/// of every hand ask again (some 2,000 a hand), so that over a match they are computed about
/// once, as a first-street table would, without its seconds at the start.
pub const RESOLVE_RECENT_VIEWS: usize = 1 << 19;

/// The player of `file`, opened from `path`, played as `purification` says (else as its kind
/// is by default); `def` must be its game ([`StrategyPlayer::open`]). It remembers the buckets
/// of the views it looked up lately ([`StrategyPlayer::remember_recent`]).
fn strategy_player(
    path: &str,
    purification: Option<Purification>,
    file: StrategyFile,
    def: &GameDef,
) -> anyhow::Result<StrategyPlayer> {
    heads_up_player(path, purification, file, def, RECENT_VIEWS)
}

/// [`strategy_player`] remembering the buckets of `recent` views.
fn heads_up_player(
    path: &str,
    purification: Option<Purification>,
    file: StrategyFile,
    def: &GameDef,
    recent: usize,
) -> anyhow::Result<StrategyPlayer> {
    let mut player = StrategyPlayer::of_game(file, path, def)?;
    player.remember_recent(recent);
    Ok(match purification {
        Some(p) => player.with_purification(p),
        None => player,
    })
}

/// A strategy file's player, of the file's kind: a heads-up file's (whose ranges and values a
/// caller can read) or a multiway file's.
pub enum FilePlayer {
    /// A heads-up file's.
    HeadsUp(StrategyPlayer),
    /// A multiway file's.
    Multiway(MultiwayPlayer),
}

impl FilePlayer {
    /// The player.
    pub fn player(&self) -> &dyn Player {
        match self {
            FilePlayer::HeadsUp(p) => p,
            FilePlayer::Multiway(p) => p,
        }
    }
}

/// The player of the strategy file at `path` (of either kind, opened once) for hands of `def`
/// (refused where the file was solved for another game), played as `purification` says; a
/// heads-up file's remembers the buckets of `recent` views ([`RECENT_VIEWS`],
/// [`RESOLVE_RECENT_VIEWS`] for a caller that asks the ranges of every decision).
pub fn open_file(
    path: &Path,
    def: &GameDef,
    purification: Option<Purification>,
    recent: usize,
) -> anyhow::Result<FilePlayer> {
    let name = path.display().to_string();
    let file = StrategyFile::open(path)?;
    Ok(match file {
        StrategyFile::Multiway(f) => {
            FilePlayer::Multiway(multiway_player(&name, purification, *f, def)?)
        }
        file => FilePlayer::HeadsUp(heads_up_player(&name, purification, file, def, recent)?),
    })
}

/// The player of the multiway file `file` (opened from `path`, its purification already read
/// by [`strategy_spec`], as a heads-up file's spec is), solved for `def`.
fn multiway_player(
    path: &str,
    purification: Option<Purification>,
    file: MultiwayFile,
    def: &GameDef,
) -> anyhow::Result<MultiwayPlayer> {
    let player = MultiwayPlayer::new(file, path).playing(def)?;
    Ok(match purification {
        Some(p) => player.with_purification(p),
        None => player,
    })
}

/// Splits a strategy spec into its file and the purification written after the last `:`, if
/// any: a path that exists is taken whole (a file name may hold a colon).
pub fn strategy_spec(spec: &str) -> anyhow::Result<(&str, Option<Purification>)> {
    if Path::new(spec).exists() {
        return Ok((spec, None));
    }
    // `FILE...:resolve`: the file and purification before it (the game is the file's); a bad
    // budget or floor is refused for what it is, not as a way to play the file.
    if let Some(parsed) = resolve_spec(spec) {
        return strategy_spec(parsed?.0);
    }
    if let Some(parsed) = depth_spec(spec) {
        return strategy_spec(parsed?.0);
    }
    match play_spec(spec) {
        Some(parsed) => parsed.map(|(path, play)| (path, Some(play))),
        None => anyhow::bail!(
            "`{spec}` is neither a bot ({}) nor a strategy file",
            BOT_NAMES.join(", ")
        ),
    }
}

/// `FILE:PLAY` (`mixed`, `pure`, `threshold=T`) split into the file and the way of playing it,
/// the one reading of that suffix (`stud match`'s players, `stud query FILE:PLAY`, the Python
/// package): `None` where `spec` is not of that form (a path that exists, taken whole since a
/// file name may hold a colon; no `:`; no file before the last `:`), an error naming the spec
/// and its bad part where the file exists but what follows is no way of playing.
pub fn play_spec(spec: &str) -> Option<anyhow::Result<(&str, Purification)>> {
    if Path::new(spec).exists() {
        return None;
    }
    let (path, play) = spec.rsplit_once(':')?;
    if !Path::new(path).exists() {
        return None;
    }
    Some(
        play.parse::<Purification>()
            .map(|p| (path, p))
            .map_err(|e| e.context(format!("`{spec}`: `:{play}` after the file"))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file named with a colon, in a directory of its own.
    fn files() -> (std::path::PathBuf, String, String) {
        let dir = std::env::temp_dir().join(format!("stud-play-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("a.strat");
        let colon = dir.join("b:pure");
        std::fs::write(&plain, b"").unwrap();
        std::fs::write(&colon, b"").unwrap();
        let s = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
        (dir, s(plain), s(colon))
    }

    #[test]
    fn play_specs_split_where_a_file_is_named_and_name_their_bad_part() {
        let (dir, plain, colon) = files();
        assert!(play_spec(&plain).is_none(), "a file alone");
        assert!(
            play_spec(&colon).is_none(),
            "a file whose name holds a colon"
        );
        assert!(play_spec("no-such.strat:pure").is_none(), "no file");
        assert!(play_spec("cfr-bot").is_none());
        let spec = format!("{plain}:pure");
        assert_eq!(
            play_spec(&spec).unwrap().unwrap(),
            (plain.as_str(), Purification::Pure)
        );
        let spec = format!("{plain}:threshold=0.25");
        assert_eq!(
            strategy_spec(&spec).unwrap(),
            (plain.as_str(), Some(Purification::Threshold(0.25)))
        );
        for (bad, says) in [
            ("thresh=2", "mixed, pure or threshold=T"),
            ("threshold=2", "between 0 and 1"),
        ] {
            let spec = format!("{plain}:{bad}");
            let e = format!("{:#}", play_spec(&spec).unwrap().unwrap_err());
            assert!(
                e.contains(&spec) && e.contains(&format!(":{bad}")) && e.contains(says),
                "{e}"
            );
            let e = format!("{:#}", strategy_spec(&spec).unwrap_err());
            assert!(e.contains(says), "{e}");
        }
        assert_eq!(strategy_spec(&colon).unwrap(), (colon.as_str(), None));
        let e = strategy_spec("no-such.strat:pure").unwrap_err().to_string();
        assert!(e.contains("neither a bot"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
