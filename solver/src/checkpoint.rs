//! Checkpoints: the full state of a solve (regrets, average-strategy mass, iterations), written
//! atomically, so that `stud solve --resume` ends bit-identical to an uninterrupted run. One
//! container for every solver, generic over its header and its element type.
//!
//! A [`container`](crate::container) with the magic of its kind ([`Header::MAGIC`]: `STUDCKPT`
//! for the walked solve, `STUDDCKP` for the deal-sampled one), its [`Header`] and two sections
//! of little-endian elements (`f64` or `f32`), one per slot: the regrets, then the
//! average-strategy mass. It is read back section by section straight into the solver's own
//! arrays ([`ContainerFile`]), so resuming needs no second copy of them in memory.

use crate::container::{self, ContainerFile};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use serde::{de::DeserializeOwned, Serialize};
use std::path::Path;

/// What a solver solves beyond what it holds itself: the game and its abstractions, recorded in
/// its checkpoints so that only the same problem resumes one.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The game.
    pub game: GameDef,
    /// The card abstraction's name (for a bucketing: its size and checksum).
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
}

/// The header of one kind of checkpoint: what a checkpoint must match to be resumed.
pub trait Header: Serialize + DeserializeOwned {
    /// The magic of this kind's files.
    const MAGIC: &'static [u8; 8];
    /// What this kind of file is called in messages ("checkpoint").
    const WHAT: &'static str;
    /// The flags that must be repeated to resume, for the message of a mismatch.
    const RESUME_WITH: &'static str;
    /// Iterations completed.
    fn iterations(&self) -> u64;
    /// Slots per array.
    fn slots(&self) -> u64;
    /// What of a `saved` checkpoint differs from this header (a fresh solve's), in words
    /// ("algorithm"); `None` if it may be resumed. Iterations and slots are not compared.
    fn mismatch(&self, saved: &Self) -> Option<String>;
}

/// Writes `header` and the two `arrays` (regrets, then average-strategy mass) to `path`
/// atomically.
pub fn save<H: Header, T: bytemuck::Pod>(path: &Path, header: H, arrays: [&[T]; 2]) -> Result<()> {
    container::write(
        path,
        H::MAGIC,
        header,
        &[
            bytemuck::cast_slice(arrays[0]),
            bytemuck::cast_slice(arrays[1]),
        ],
    )
}

/// Reads the checkpoint at `path` into `arrays` (a fresh solver's, on the same tree), after
/// checking that it was made for what `expect` describes and that no byte is damaged; returns
/// the iterations it had completed. The arrays are read straight into place: `--resume` needs no
/// more memory than the estimate of a fresh solve.
pub fn load<H: Header, T: bytemuck::Pod>(
    path: &Path,
    expect: &H,
    arrays: [&mut [T]; 2],
) -> Result<u64> {
    let mut f = ContainerFile::<H>::open(path, crate::input::CHECKPOINT, H::MAGIC, H::WHAT)?;
    let h = &f.container.header;
    if let Some(what) = expect.mismatch(h) {
        bail!(
            "{}: the checkpoint is for another {what}; resume with the same {}",
            path.display(),
            H::RESUME_WITH
        );
    }
    if h.slots() != expect.slots() || f.container.sections.len() != 2 {
        bail!(
            "{}: damaged: {} slots, the tree has {}",
            path.display(),
            h.slots(),
            expect.slots()
        );
    }
    let iterations = h.iterations();
    // Little-endian on disk, as in memory (big-endian targets are refused at compile time).
    for (i, dst) in arrays.into_iter().enumerate() {
        f.read_section_into(i, bytemuck::cast_slice_mut(dst))?;
    }
    Ok(iterations)
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
