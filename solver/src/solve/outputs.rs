//! Where a solve writes its strategy and its checkpoint, checked before any work: a long solve
//! must not find out at its end that its output cannot be written.

use super::Request;
use crate::container::check_writable;
use crate::session::split::rank_checkpoint;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Which process of a solve this is, for its outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The one process.
    Single,
    /// Rank `.0` of `.1` of a solve split over ranks, each with a checkpoint of its own
    /// ([`rank_checkpoint`]).
    Part(usize, usize),
    /// Rank `.0` of a solve whose every rank holds the same arrays: rank 0 writes the single
    /// process's checkpoint and strategy file, the others write nothing.
    Replica(usize),
}

/// The strategy file and the checkpoint of a solve.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// The strategy file (or a multiway solve's JSON policy).
    pub strategy: PathBuf,
    /// The checkpoint: the strategy's path with the extension `.ckpt` (a rank's of a split
    /// solve: [`rank_checkpoint`]).
    pub checkpoint: PathBuf,
}

impl Outputs {
    /// The request's `out`, else `solves/STEM{suffix}.{ext}` (`file`; a folder git ignores, so
    /// that a newcomer's solve never overwrites a shipped file in `strategies/`), and its
    /// checkpoint; as a [`Place::Part`], that rank's checkpoint. The folder is created and
    /// both files are checked to be writable there (rank 0 alone checks the strategy file:
    /// the ranks would race on its test file; a [`Place::Replica`] after rank 0 checks
    /// nothing, writing nothing). With `resume`, the checkpoint must be there (on a replica,
    /// rank 0's).
    pub fn new(request: &Request, (suffix, ext): (&str, &str), place: Place) -> Result<Outputs> {
        let out = request.out.clone().unwrap_or_else(|| {
            PathBuf::from("solves").join(format!("{}{suffix}.{ext}", game_stem(&request.name)))
        });
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            if dir.exists() && !dir.is_dir() {
                bail!("--out: {} is not a folder", dir.display());
            }
            std::fs::create_dir_all(dir)
                .with_context(|| format!("--out: creating {}", dir.display()))?;
        }
        let single = out.with_extension("ckpt");
        let (checkpoint, lead, writes) = match place {
            Place::Single => (single, true, true),
            Place::Part(r, n) => (rank_checkpoint(&single, r, n), r == 0, true),
            Place::Replica(r) => (single, r == 0, r == 0),
        };
        let check: &[&PathBuf] = match (lead, writes) {
            (true, _) => &[&out, &checkpoint],
            (false, true) => &[&checkpoint],
            (false, false) => &[],
        };
        for path in check {
            check_writable(path).context("--out")?;
        }
        if request.resume && writes && !checkpoint.exists() {
            bail!("--resume: no checkpoint at {}", checkpoint.display());
        }
        Ok(Outputs {
            strategy: out,
            checkpoint,
        })
    }
}

/// The stem of the default output name: the preset name or the game file's stem.
fn game_stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned())
}
