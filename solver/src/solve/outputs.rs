//! Where a solve writes its strategy and its checkpoint, checked before any work: a long solve
//! must not find out at its end that its output cannot be written.

use super::Request;
use crate::container::check_writable;
use crate::session::split::rank_checkpoint;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

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
    /// checkpoint; as rank `rank` of as many ranks, that rank's checkpoint. The folder is
    /// created and both files are checked to be writable there (rank 0 alone checks the
    /// strategy file: the ranks would race on its test file). With `resume`, the checkpoint
    /// must be there.
    pub fn new(
        request: &Request,
        (suffix, ext): (&str, &str),
        rank: Option<(usize, usize)>,
    ) -> Result<Outputs> {
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
        let (checkpoint, lead) = match rank {
            None => (single, true),
            Some((r, n)) => (rank_checkpoint(&single, r, n), r == 0),
        };
        let check: &[&PathBuf] = if lead {
            &[&out, &checkpoint]
        } else {
            &[&checkpoint]
        };
        for path in check {
            check_writable(path).context("--out")?;
        }
        if request.resume && !checkpoint.exists() {
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
