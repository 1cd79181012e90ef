//! Checkpoints: the full state of a solve (regrets, average-strategy mass, iterations), written
//! atomically, so that `stud solve --resume` ends bit-identical to an uninterrupted run. One
//! container and one header for every solver, generic over the solver's own settings ([`Kind`])
//! and its element type.
//!
//! Checkpoint format 2 ([`FORMAT`]): a [`container`](crate::container) with the magic of its
//! kind ([`Kind::MAGIC`]: `STUDCK2W` walked, `STUDCK2D` deal-sampled, `STUDCK2P` a rank's part
//! of a split solve, `STUDCK2M` exact multiway, `STUDCK2S` sampled multiway), the [`Header`]
//! (the problem, iterations, slots, then the kind's settings) and two sections of
//! little-endian elements (`f64` or `f32`), one per slot: the regrets, then the
//! average-strategy mass. It is read back section by section straight into the solver's own
//! arrays ([`ContainerFile`]), so resuming needs no second copy of them in memory. Format 1 (a
//! header of its own per solver, magics `STUDCKPT`, `STUDDCKP`, `STUDDPRT`, `STUDMWCK`,
//! `STUDMSCK`) is refused by name.
//!
//! A locked solve's checkpoint has a third section, its lock ([`LockMark`]: the FNV-1a 64 of
//! the lock's normalised rules, 8 bytes LE, then the lock file's name as given, UTF-8), so
//! that a resume with other rules, or with none, is refused by name: the regrets of a locked
//! solve are of a game with those rows fixed. An unlocked checkpoint has two sections, the
//! same bytes as before locks were recorded, and may warm-start a locked solve. (Builds
//! before 2026-12-05 refuse a three-section checkpoint as damaged.)

use crate::container::{self, ContainerFile};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
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
    /// The lock the solve holds, if any: recorded in its checkpoints ([`LockMark`]).
    pub lock: Option<LockMark>,
}

/// What a checkpoint records of the lock its solve held: the digest of the lock's normalised
/// rules ([`crate::lock::Lock::normalised`]) and the file's name, for the messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockMark {
    /// FNV-1a 64 of the normalised rules.
    pub rules: u64,
    /// The lock file, as given.
    pub file: String,
}

/// The most bytes a checkpoint's lock section may have (a name of a file and 8 bytes).
const MAX_LOCK_SECTION: u64 = 1 << 16;

impl LockMark {
    /// The mark of `lock`.
    pub fn of(lock: &crate::lock::Lock) -> LockMark {
        LockMark {
            rules: lock.rules_digest,
            file: lock.source.clone(),
        }
    }

    /// The section's bytes.
    fn bytes(&self) -> Vec<u8> {
        let mut b = self.rules.to_le_bytes().to_vec();
        b.extend_from_slice(self.file.as_bytes());
        b
    }

    /// The lock section (the third) of the checkpoint `f`, if it has one.
    pub fn read<H: DeserializeOwned>(
        f: &mut ContainerFile<H>,
        path: &Path,
    ) -> Result<Option<LockMark>> {
        let Some(s) = f.container.sections.get(2).copied() else {
            return Ok(None);
        };
        let at = path.display().to_string();
        if f.container.sections.len() > 3 || !(8..=MAX_LOCK_SECTION).contains(&s.len) {
            bail!(
                "{at}: damaged: {} sections, the lock's of {} bytes",
                f.container.sections.len(),
                s.len
            );
        }
        let mut b = vec![0u8; s.len as usize];
        f.read_section_into(2, &mut b)?;
        let file = String::from_utf8(b[8..].to_vec())
            .map_err(|_| anyhow::anyhow!("{at}: damaged: the lock's file name is not UTF-8"))?;
        let rules = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
        Ok(Some(LockMark { rules, file }))
    }

    /// Refuses to resume the checkpoint `path`, locked by `saved`, with the lock `now` (none:
    /// unlocked): only the same rules resume a locked solve. An unlocked checkpoint resumes
    /// with any lock (a warm start), so `saved` is `Some`.
    fn refuse(path: &Path, saved: &LockMark, now: Option<&LockMark>) -> Result<()> {
        let was = format!(
            "{}: the checkpoint is of a solve locked by {} (rules fnv {:016x})",
            path.display(),
            saved.file,
            saved.rules
        );
        match now {
            None => bail!(
                "{was}; this solve has no lock: resume with --lock {} (the same rules), or solve \
                 again without --resume",
                saved.file
            ),
            Some(n) if n.rules != saved.rules => bail!(
                "{was}; this solve's lock {} has other rules (fnv {:016x}): resume with the \
                 same rules, or solve again without --resume",
                n.file,
                n.rules
            ),
            Some(_) => Ok(()),
        }
    }
}

/// The checkpoint format written and read (format 1 is refused: [`refuse_older`]).
pub const FORMAT: u32 = 2;

/// The magics of format 1's checkpoints, one per solver, each with a header of its own.
const FORMAT_1_MAGICS: [&[u8; 8]; 5] = [
    b"STUDCKPT",
    b"STUDDCKP",
    b"STUDDPRT",
    b"STUDMWCK",
    b"STUDMSCK",
];

/// One solver's kind of checkpoint: its magic, its words, and its own settings that a resume
/// must repeat (the algorithm, the sampling...), stored as the header's last field.
pub trait Kind: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug {
    /// The magic of this kind's files.
    const MAGIC: &'static [u8; 8];
    /// What this kind of file is called in messages ("deal checkpoint").
    const WHAT: &'static str;
    /// The flags that must be repeated to resume, for the message of a mismatch.
    const RESUME_WITH: &'static str;
    /// What of a `saved` checkpoint's settings differs from these (a fresh solve's), in words
    /// ("algorithm (cfr+)"); `None` if it may be resumed.
    fn mismatch(&self, saved: &Self) -> Option<String>;
}

/// The one checkpoint header: what every solve records of its problem and progress, then its
/// solver's own settings. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header<K> {
    /// The game (stored as JSON text, see [`crate::container::game_as_json`]).
    #[serde(with = "crate::container::game_as_json")]
    pub game: GameDef,
    /// The card abstraction's name (for a bucketing: its size and checksum).
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
    /// Iterations completed.
    pub iterations: u64,
    /// Slots per array.
    pub slots: u64,
    /// The solver's own settings.
    pub solver: K,
}

impl<K: Kind> Header<K> {
    /// The header of a solve of `problem` by a solver set as `solver`, after `iterations`, with
    /// `slots` per array.
    pub fn new(problem: &Problem, iterations: u64, slots: usize, solver: K) -> Header<K> {
        Header {
            game: problem.game.clone(),
            card_abstraction: problem.card_abstraction.clone(),
            betting: problem.betting,
            iterations,
            slots: slots as u64,
            solver,
        }
    }

    /// What of a `saved` checkpoint differs from this header (a fresh solve's), in words
    /// ("game", "abstraction", then the solver's settings); `None` if it may be resumed.
    /// Iterations and slots are not compared.
    pub fn mismatch(&self, saved: &Self) -> Option<String> {
        if saved.game != self.game {
            Some("game".into())
        } else if saved.card_abstraction != self.card_abstraction || saved.betting != self.betting {
            Some("abstraction".into())
        } else {
            self.solver.mismatch(&saved.solver)
        }
    }
}

/// Refuses a checkpoint of format 1 at `path` by name, with what to do; any other file passes
/// (to be read, or refused, as it is).
pub fn refuse_older(path: &Path) -> Result<()> {
    use std::io::Read;
    let mut magic = [0u8; 8];
    let mut file = crate::input::open(path, crate::input::CHECKPOINT)?;
    if file.read_exact(&mut magic).is_ok() && FORMAT_1_MAGICS.contains(&&magic) {
        bail!(
            "{}: a checkpoint of format 1, written by an older build; this build reads checkpoint \
             format {FORMAT} only. Solve again without --resume (the strategy files are the same \
             bytes as before), or finish this solve with the build that wrote it",
            path.display()
        );
    }
    Ok(())
}

/// Writes `header` and the two `arrays` (regrets, then average-strategy mass) to `path`
/// atomically, and the `lock` the solve holds, if any (a third section).
pub fn save<K: Kind, T: bytemuck::Pod>(
    path: &Path,
    header: Header<K>,
    arrays: [&[T]; 2],
    lock: Option<&LockMark>,
) -> Result<()> {
    let mark = lock.map(LockMark::bytes);
    let mut sections = vec![
        bytemuck::cast_slice(arrays[0]),
        bytemuck::cast_slice(arrays[1]),
    ];
    sections.extend(mark.as_deref());
    container::write(path, K::MAGIC, header, &sections)
}

/// Reads the checkpoint at `path` into `arrays` (a fresh solver's, on the same tree), after
/// checking that it was made for what `expect` describes, under the same `lock` if it was
/// locked ([`LockMark`]), and that no byte is damaged; returns the iterations it had completed.
/// The arrays are read straight into place: `--resume` needs no more memory than the estimate
/// of a fresh solve.
pub fn load<K: Kind, T: bytemuck::Pod>(
    path: &Path,
    expect: &Header<K>,
    arrays: [&mut [T]; 2],
    lock: Option<&LockMark>,
) -> Result<u64> {
    refuse_older(path)?;
    let mut f =
        ContainerFile::<Header<K>>::open(path, crate::input::CHECKPOINT, K::MAGIC, K::WHAT)?;
    let h = &f.container.header;
    if let Some(what) = expect.mismatch(h) {
        bail!(
            "{}: the checkpoint is for another {what}; resume with the same {}",
            path.display(),
            K::RESUME_WITH
        );
    }
    if let Some(saved) = LockMark::read(&mut f, path)? {
        LockMark::refuse(path, &saved, lock)?;
    }
    let h = &f.container.header;
    if h.slots != expect.slots || !(2..=3).contains(&f.container.sections.len()) {
        bail!(
            "{}: damaged: {} slots, the tree has {}",
            path.display(),
            h.slots,
            expect.slots
        );
    }
    let iterations = h.iterations;
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
