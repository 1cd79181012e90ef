//! The strategy files `stud.query` opened, kept while they are unchanged: a notebook asks one
//! file at many spots, and opening it (its checksums read over every byte, a real game's
//! player made) costs more than an answer. A file is known by its path, modification time and
//! length: one rewritten since (a new solve to the same name) is opened again.

use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The files kept: the last few asked (each a memory map and its player's tables).
const KEPT: usize = 4;

/// A file opened for queries.
pub enum Opened {
    /// A real game's file (heads-up or a table's), as its player reads it (the rows as
    /// stored), which the ranges and the values ask: made once here, not by each of them.
    Player(StrategyPlayer),
    /// A public-tree file (a walkable game's, which no player replays).
    File(StrategyFile),
}

impl Opened {
    /// The file.
    pub fn file(&self) -> &StrategyFile {
        match self {
            Opened::Player(p) => p.file(),
            Opened::File(f) => f,
        }
    }
}

/// What tells a file apart from its earlier contents: the path as given resolved, its
/// modification time and its length.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    path: PathBuf,
    modified: SystemTime,
    len: u64,
}

impl Key {
    /// The key of the file at `path` now; `None` where it cannot be read (the open says why).
    fn of(path: &Path) -> Option<Key> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Key {
            path: path.canonicalize().ok()?,
            modified: meta.modified().ok()?,
            len: meta.len(),
        })
    }
}

/// The files kept, the last asked first.
static KEPT_FILES: Mutex<Vec<(Key, Arc<Opened>)>> = Mutex::new(Vec::new());

/// The strategy file at `path`, opened once while it is unchanged.
pub fn open(path: &str) -> anyhow::Result<Arc<Opened>> {
    let key = Key::of(Path::new(path));
    let mut kept = KEPT_FILES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = &key {
        if let Some(i) = kept.iter().position(|(have, _)| have == k) {
            let entry = kept.remove(i);
            let opened = entry.1.clone();
            kept.insert(0, entry);
            return Ok(opened);
        }
    }
    let opened = Arc::new(open_now(path)?);
    if let Some(k) = key {
        kept.retain(|(have, _)| have.path != k.path);
        kept.insert(0, (k, opened.clone()));
        kept.truncate(KEPT);
    }
    Ok(opened)
}

/// The file at `path` opened: a real game's (heads-up or multiway) as its player.
fn open_now(path: &str) -> anyhow::Result<Opened> {
    let file = StrategyFile::open(Path::new(path))?;
    Ok(match file {
        StrategyFile::Public(_) => Opened::File(file),
        file => {
            let def = file.game().clone();
            let player = StrategyPlayer::of_game(file, path, &def)?;
            Opened::Player(player.with_purification(Purification::Mixed))
        }
    })
}
