//! The on-disk cache of built card abstractions: one file per (game, size), named
//! `<game>-<size>.bkt` (an N-seat view's, `<game>-<size>-<L>live<F>folded.bkt`), holding `Bucketing::encode`'s versioned, checksummed bytes. Written to a
//! temporary name and renamed, so a reader never sees half a file; a damaged, foreign or stale
//! file is refused with the reason and rebuilt.

use abstraction::bucketing::{Bucketing, Progress, Size, Table};
use abstraction::rules::GameDef;
use anyhow::Context;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the cache of a game and size lives in `dir`.
pub fn path(dir: &Path, def: &GameDef, size: &Size) -> PathBuf {
    table_path(dir, def, Table::default(), size)
}

/// Where the cache of an N-seat view's bucketing of a game and size lives in `dir`.
pub fn table_path(dir: &Path, def: &GameDef, table: Table, size: &Size) -> PathBuf {
    let mut name = format!("{}-{}", def.variant.name(), size.name);
    if table != Table::default() {
        name += &format!("-{}live{}folded", table.live, table.folded);
    }
    dir.join(name + ".bkt")
}

/// How [`load_or_build`] got the abstraction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache.
    Cached,
    /// Built, because there was no cache file or because `force` asked for it.
    Built,
    /// Built, because the cache file was refused for this reason.
    Rebuilt(String),
}

/// The cached abstraction of `def` at `size` in `dir`, or a fresh build (reporting through
/// `progress`) written to the cache when there is none, or it is unusable, or `force` is set.
pub fn load_or_build(
    def: &GameDef,
    size: &Size,
    dir: &Path,
    force: bool,
    progress: &(dyn Fn(Progress) + Sync),
) -> anyhow::Result<(Bucketing, PathBuf, Origin)> {
    load_or_build_table(def, Table::default(), size, dir, force, progress)
}

/// [`load_or_build`] of the bucketing of an N-seat view of `def` with `table`'s other seats
/// ([`Bucketing::build_table`]).
pub fn load_or_build_table(
    def: &GameDef,
    table: Table,
    size: &Size,
    dir: &Path,
    force: bool,
    progress: &(dyn Fn(Progress) + Sync),
) -> anyhow::Result<(Bucketing, PathBuf, Origin)> {
    let file = table_path(dir, def, table, size);
    let mut origin = Origin::Built;
    if !force && file.exists() {
        match read_table(&file, def, table, size) {
            Ok(b) => return Ok((b, file, Origin::Cached)),
            Err(e) => origin = Origin::Rebuilt(format!("{e:#}")),
        }
    }
    let b = Bucketing::build_table(def, table, size, progress)?;
    write_atomic(&file, &b.encode())?;
    Ok((b, file, origin))
}

/// Reads a cache file, refusing it unless it holds `def` built at exactly `size`.
pub fn read(file: &Path, def: &GameDef, size: &Size) -> anyhow::Result<Bucketing> {
    read_table(file, def, Table::default(), size)
}

/// [`read`] of an N-seat view's bucketing with `table`'s other seats.
pub fn read_table(
    file: &Path,
    def: &GameDef,
    table: Table,
    size: &Size,
) -> anyhow::Result<Bucketing> {
    let bytes = crate::input::read(file, crate::input::BUCKETS)?;
    let b =
        Bucketing::decode_table(&bytes, def, table).with_context(|| file.display().to_string())?;
    if b.size() != size {
        anyhow::bail!(
            "{} was built with other settings ({:?}) than the size asked for ({:?})",
            file.display(),
            b.size(),
            size
        );
    }
    Ok(b)
}

/// Writes `bytes` to `file` atomically ([`crate::container::write_atomic`]), creating its
/// folder; the temporary name carries the process id, so that two processes building the same
/// abstraction at once never write one temporary file.
fn write_atomic(file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = file.with_extension(format!("bkt.tmp{}", std::process::id()));
    crate::container::write_atomic(file, &tmp, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_or_stale_cache_is_refused_and_rebuilt() {
        let dir = std::env::temp_dir().join(format!("stud-bkt-test-{}", std::process::id()));
        let def = GameDef::preset("5stud").unwrap();
        let size = Size::preset("tiny", def.streets.len()).unwrap();
        let (b, file, origin) = load_or_build(&def, &size, &dir, false, &|_| {}).unwrap();
        assert_eq!(origin, Origin::Built);
        let (again, _, origin) = load_or_build(&def, &size, &dir, false, &|_| {}).unwrap();
        assert_eq!(origin, Origin::Cached);
        assert_eq!(again.checksum(), b.checksum());

        let mut bytes = std::fs::read(&file).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        let err = read(&file, &def, &size).unwrap_err();
        assert!(format!("{err:#}").contains("checksum"), "{err:#}");
        let (rebuilt, _, origin) = load_or_build(&def, &size, &dir, false, &|_| {}).unwrap();
        assert!(matches!(origin, Origin::Rebuilt(why) if why.contains("checksum")));
        assert_eq!(rebuilt.checksum(), b.checksum());

        // Other settings under the same name: refused as stale.
        let mut other = size.clone();
        other.train += 1;
        let err = read(&file, &def, &other).unwrap_err();
        assert!(format!("{err:#}").contains("other settings"), "{err:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
