//! Checkpoints: the full solver state (regrets, average-strategy mass, iterations), written
//! atomically, so that `stud solve --resume` ends bit-identical to an uninterrupted run.
//!
//! A [`container`](crate::container) with magic `STUDCKPT`, a [`CheckpointHeader`] and two
//! sections of `f64` little-endian: the regrets, then the average-strategy mass, one per slot.

use crate::cfr::{Algorithm, Sampling, Solver};
use crate::container::{self, ContainerFile};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The magic of checkpoint files.
pub const MAGIC: &[u8; 8] = b"STUDCKPT";

/// What a checkpoint must match to be resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointHeader {
    /// The game (stored as JSON text, see [`crate::container::game_as_json`]).
    #[serde(with = "crate::container::game_as_json")]
    pub game: GameDef,
    /// The card abstraction's name.
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Iterations completed.
    pub iterations: u64,
    /// Number of slots.
    pub slots: u64,
    /// The public chance sampling, if any (the draws depend on it).
    pub sampling: Option<Sampling>,
}

/// Writes the solver's state to `path` atomically.
pub fn save(
    path: &Path,
    solver: &Solver,
    game: &GameDef,
    card_abstraction: &str,
    betting: BettingAbstraction,
) -> Result<()> {
    let header = CheckpointHeader {
        game: game.clone(),
        card_abstraction: card_abstraction.into(),
        betting,
        algorithm: solver.algorithm,
        iterations: solver.iterations,
        slots: solver.regrets.len() as u64,
        sampling: solver.sampling(),
    };
    container::write(
        path,
        MAGIC,
        header,
        &[
            bytemuck::cast_slice(&solver.regrets),
            bytemuck::cast_slice(&solver.average),
        ],
    )
}

/// Writes the results at the end of a solve, the strategy file `out` (`write`) and the
/// checkpoint `ckpt` (`save`), so that a failed write never loses the solve, and says what became
/// of the checkpoint.
///
/// With `keep` (`--keep-checkpoint`) the checkpoint is written first, then the strategy file
/// even if the checkpoint failed. Without, the strategy file is written and any periodic
/// checkpoint removed; only if the strategy file fails is the checkpoint written, to keep the
/// result (a full write of the regrets is not paid for on every solve). Each error names the
/// file that failed and says what was kept; `--resume` then writes the file from the checkpoint.
pub fn write_results(
    ckpt: &Path,
    out: &Path,
    keep: bool,
    save: impl FnOnce() -> Result<()>,
    write: impl FnOnce() -> Result<()>,
) -> Result<String> {
    if keep {
        let saved = save();
        return match (saved, write()) {
            (Ok(()), Ok(())) => Ok(ckpt.display().to_string()),
            (Err(e), Ok(())) => Err(e.context(format!(
                "the checkpoint {} was not written (the strategy file {} was)",
                ckpt.display(),
                out.display()
            ))),
            (saved, Err(f)) => Err(not_written(ckpt, out, saved, f)),
        };
    }
    match write() {
        Ok(()) => match std::fs::remove_file(ckpt) {
            Ok(()) => Ok(NONE_KEPT.into()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(NONE_KEPT.into()),
            Err(e) => Err(e).with_context(|| format!("removing {}", ckpt.display())),
        },
        Err(f) => Err(not_written(ckpt, out, save(), f)),
    }
}

/// The error of a strategy file `out` that failed to be written (`f`), saying whether the
/// checkpoint `ckpt` kept the solve (`saved`).
fn not_written(ckpt: &Path, out: &Path, saved: Result<()>, f: anyhow::Error) -> anyhow::Error {
    let (c, o) = (ckpt.display(), out.display());
    match saved {
        Ok(()) => f.context(format!(
            "the strategy file {o} was not written; the solve is kept in {c}: once the cause is \
             fixed, run the same command with --resume, which continues from there (with \
             --iterations already reached it only writes the file)"
        )),
        Err(e) => {
            // A failed write leaves the previous file untouched: a periodic checkpoint stays.
            let left = if ckpt.exists() {
                format!("{c} holds an earlier iteration, --resume continues from it")
            } else {
                "the solve is lost".into()
            };
            anyhow::anyhow!(
                "neither the checkpoint {c} nor the strategy file {o} was written ({left}): \
                 {e:#}; {f:#}"
            )
        }
    }
}

/// What to add to the error of a periodic checkpoint `ckpt` that failed at `iterations`: the
/// solve stops there (a disk that is full now would fail the final write too), and a failed write
/// leaves the previous checkpoint untouched for `--resume`.
pub fn periodic_failed(ckpt: &Path, iterations: u64) -> String {
    if ckpt.exists() {
        format!(
            "the checkpoint of iteration {iterations} was not written: the solve stops; {} \
             still holds the previous one, which --resume continues from",
            ckpt.display()
        )
    } else {
        format!("the checkpoint of iteration {iterations} was not written: the solve stops")
    }
}

/// What [`write_results`] says when no checkpoint is kept.
const NONE_KEPT: &str = "none kept (--keep-checkpoint keeps it for a later --resume)";

/// Restores a checkpoint into `solver` (fresh, on the same tree), after checking that it was
/// made for the same game, abstractions and algorithm, and that no byte is damaged. The arrays
/// are read straight into the solver's (no second copy: `--resume` needs no more memory than
/// the estimate of a fresh solve).
pub fn load(path: &Path, solver: &mut Solver, expect: &CheckpointHeader) -> Result<()> {
    let mut f = ContainerFile::<CheckpointHeader>::open(
        path,
        crate::input::CHECKPOINT,
        MAGIC,
        "checkpoint",
    )?;
    let h = &f.container.header;
    let mismatch = |what: &str| {
        anyhow::anyhow!(
            "{}: the checkpoint is for another {what}; resume with the same --game and --algorithm",
            path.display()
        )
    };
    if h.game != expect.game {
        return Err(mismatch("game"));
    }
    if h.algorithm != expect.algorithm {
        return Err(mismatch("algorithm"));
    }
    if h.sampling != expect.sampling {
        return Err(mismatch("chance sampling (--sample, --seed)"));
    }
    if h.card_abstraction != expect.card_abstraction || h.betting != expect.betting {
        return Err(mismatch("abstraction"));
    }
    if h.slots != solver.regrets.len() as u64 || f.container.sections.len() != 2 {
        bail!(
            "{}: damaged: {} slots, the tree has {}",
            path.display(),
            h.slots,
            solver.regrets.len()
        );
    }
    let iterations = h.iterations;
    // f64 little-endian on disk, as in memory (big-endian targets are refused at compile time).
    for (i, dst) in [&mut solver.regrets, &mut solver.average]
        .into_iter()
        .enumerate()
    {
        f.read_section_into(i, bytemuck::cast_slice_mut(dst.as_mut_slice()))?;
    }
    solver.iterations = iterations;
    Ok(())
}
