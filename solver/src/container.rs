//! The binary container shared by strategy files and checkpoints: a fixed prefix, a bincode
//! header with a section table, then 64-byte-aligned little-endian arrays.
//!
//! Format version 5 (written by this build; version 4 is the same layout, with one section fewer
//! in a strategy file):
//! ```text
//! offset 0   magic        8 bytes   (which kind of file)
//!        8   version      u32 LE    (5)
//!       12   header_len   u32 LE
//!       16   header_fnv   u64 LE    (FNV-1a 64 of the header bytes)
//!       24   file_fnv     u64 LE    (FNV-1a 64 of every other byte of the file, in order)
//!       32   header       bincode 2 (standard config) of Envelope { header, sections }
//!  align 64  data         section i at data_start + sections[i].offset, 64-byte aligned
//! ```
//! Format version 3 (still read: the shipped strategies are version 3) is the same without
//! `file_fnv`: the header starts at offset 24.
//!
//! What each checksum covers (all FNV-1a 64, [`fnv1a`]: against damage, not against malice):
//! - `header_fnv`: the `header_len` bytes of the header, which hold the section table and its
//!   checksums. Checked by [`Container::open`], before the header is decoded.
//! - `sections[i].fnv`: the `len` bytes of section `i`, nothing else.
//! - `file_fnv` (versions 4 and 5): every byte of the file except its own 8: the magic, the version, the
//!   header length and `header_fnv` (bytes 0..24), then everything from byte 32 to the end: the
//!   header, the zero padding and every section. So a change anywhere is refused, including a
//!   header edited and given a recomputed `header_fnv` (that changed answers in version 3, whose
//!   section checksums cover only the sections). A single changed byte always changes FNV-1a:
//!   each step `h -> (h ^ byte) * prime` is a bijection of `h`.
//!
//! [`Container::open`] costs O(1): the prefix, the header checksum, the decoded header, and the
//! section bounds (the file length must equal the end of the last section exactly, so a
//! truncated file is refused). [`Container::verify`] reads everything: `file_fnv` from version 4 on
//! (naming the damaged section when it can), the section checksums for version 3. Strategy files
//! verify on opening (about 23 ms of CPU for 20 MB, see `docs/notes/solver.md`).

use anyhow::{bail, Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

#[cfg(not(target_endian = "little"))]
compile_error!(
    "strategy files are little-endian and read in place: big-endian targets are not supported"
);

/// The container format version written; files of versions other than this and
/// [`OLDEST_READ`] are refused. Version 3 added the betting-tree strategy files (tree kind,
/// probability width, embedded bucketing); version 4 the checksum of the whole file; version 5
/// a strategy file's seventh section, what its rows recall of earlier streets.
pub const FORMAT_VERSION: u32 = 5;

/// The oldest version read: version 3, whose files (the shipped strategies among them) have no
/// whole-file checksum.
pub const OLDEST_READ: u32 = 3;

/// The bytes of the prefix that every version shares (magic, version, header length and
/// checksum): enough for [`Container::head_len`].
const PREFIX: usize = 24;
const ALIGN: usize = 64;

/// Where the header starts in a file of `version` (after the prefix, and from version 4 on the
/// file checksum).
fn header_start(version: u32) -> usize {
    if version >= 4 {
        PREFIX + 8
    } else {
        PREFIX
    }
}

/// One array of the data part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Offset from the start of the data part (a multiple of 64).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// FNV-1a 64 of the bytes.
    pub fnv: u64,
}

#[derive(Serialize, Deserialize)]
struct Envelope<H> {
    header: H,
    sections: Vec<Section>,
}

pub use abstraction::fnv::{fnv1a, Fnv};

/// bincode's standard configuration, with a limit so that a damaged length cannot ask for a huge
/// allocation while decoding.
fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 1 << 24 }>()
}

fn align(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// Zeros for the padding before an aligned section (always fewer than [`ALIGN`]).
const ZEROS: [u8; ALIGN] = [0; ALIGN];

/// Writes a container to `path` atomically: to `path.tmp` first, then renamed over `path`. On
/// failure (a full disk, a file-size limit, a rename refused) the error names the file and the
/// temporary file is removed.
pub fn write<H: Serialize>(
    path: &Path,
    magic: &[u8; 8],
    header: H,
    sections: &[&[u8]],
) -> Result<()> {
    let mut table = Vec::with_capacity(sections.len());
    let mut offset = 0usize;
    for s in sections {
        if s.is_empty() {
            // At offset 0: no padding for a section without bytes, so none at the end of a file.
            table.push(Section {
                offset: 0,
                len: 0,
                fnv: fnv1a(s),
            });
            continue;
        }
        table.push(Section {
            offset: offset as u64,
            len: s.len() as u64,
            fnv: fnv1a(s),
        });
        offset = align(offset + s.len());
    }
    let env = Envelope {
        header,
        sections: table,
    };
    let head = bincode::serde::encode_to_vec(&env, config()).context("encoding the file header")?;
    let start = header_start(FORMAT_VERSION);
    let data_start = align(start + head.len());
    // Everything after the prefix and the file checksum, in file order.
    let mut body: Vec<&[u8]> = vec![&head];
    let mut pos = start + head.len();
    for (s, t) in sections
        .iter()
        .zip(&env.sections)
        .filter(|(s, _)| !s.is_empty())
    {
        let at = data_start + t.offset as usize;
        body.push(&ZEROS[..at - pos]);
        body.push(s);
        pos = at + s.len();
    }
    let mut prefix = Vec::with_capacity(PREFIX);
    prefix.extend_from_slice(magic);
    prefix.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    prefix.extend_from_slice(&(head.len() as u32).to_le_bytes());
    prefix.extend_from_slice(&fnv1a(&head).to_le_bytes());
    let mut file_fnv = Fnv::new();
    file_fnv.update(&prefix);
    body.iter().for_each(|piece| file_fnv.update(piece));

    write_atomic(path, &temp_path(path), |w| {
        w.write_all(&prefix)?;
        w.write_all(&file_fnv.finish().to_le_bytes())?;
        for piece in &body {
            w.write_all(piece)?;
        }
        Ok(())
    })
}

/// Writes a file atomically: `fill` writes it under the temporary name `tmp` (in the same
/// folder), which is synced to disk, then renamed over `path`, so that a reader never sees half
/// a file. On failure (a full disk, a file-size limit, a rename refused) the error names the
/// file, `tmp` is removed, and the previous `path` is untouched. Every file the project writes
/// goes through here.
pub fn write_atomic(
    path: &Path,
    tmp: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    let file = std::fs::File::create(tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let written = (|| -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(file);
        fill(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()
    })()
    .with_context(|| format!("writing {}", tmp.display()))
    .and_then(|()| {
        std::fs::rename(tmp, path)
            .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
    });
    if written.is_err() {
        // A full disk must not leave a partial file behind; the previous `path` is untouched.
        let _ = std::fs::remove_file(tmp);
    }
    written
}

/// Writes `bytes` to `path` atomically ([`write_atomic`] under [`temp_path`]'s name): the
/// reports, charts, hand histories and lists the commands write, so that an interrupted command
/// never leaves half a file where a whole one was.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, &temp_path(path), |w| w.write_all(bytes))
}

/// The temporary name a file is written to before it is renamed over `path`: `NAME.EXT.tmp`.
fn temp_path(path: &Path) -> std::path::PathBuf {
    path.with_extension(match path.extension() {
        Some(e) => format!("{}.tmp", e.to_string_lossy()),
        None => "tmp".into(),
    })
}

/// Checks, before any work, that [`write`] can write `path`: that it is not a directory, and
/// that its temporary file can be created in its folder (created, then removed). A long solve
/// must not find out at its end that its output cannot be written.
pub fn check_writable(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{} is a directory: name a file to write", path.display());
    }
    let tmp = temp_path(path);
    std::fs::File::create(&tmp).with_context(|| {
        format!(
            "{} cannot be written: creating {}",
            path.display(),
            tmp.display()
        )
    })?;
    std::fs::remove_file(&tmp).with_context(|| format!("removing {}", tmp.display()))
}

/// The FNV-1a 64 of a version-4 file read from its start: every byte but the 8 of `file_fnv`
/// (see the module documentation).
fn file_checksum(mut r: impl Read) -> std::io::Result<u64> {
    let mut h = Fnv::new();
    let mut prefix = [0u8; PREFIX + 8];
    r.read_exact(&mut prefix)?;
    h.update(&prefix[..PREFIX]);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(h.finish()),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// An opened container: the decoded header and where each section lies in the bytes.
#[derive(Debug)]
pub struct Container<H> {
    /// The decoded header.
    pub header: H,
    /// The sections, with offsets from the start of the data part.
    pub sections: Vec<Section>,
    /// Where the data part starts in the file.
    pub data_start: usize,
    /// The format version of the file ([`OLDEST_READ`] to [`FORMAT_VERSION`]).
    pub version: u32,
    /// The checksum of the whole file (from version 4 on; `None` for version 3).
    pub file_fnv: Option<u64>,
}

impl<H: DeserializeOwned> Container<H> {
    /// Checks the prefix, the header checksum and that every section lies inside `bytes` (whose
    /// length must be exactly the end of the last section); decodes the header. `what` names the
    /// kind of file in messages.
    pub fn open(bytes: &[u8], magic: &[u8; 8], what: &str) -> Result<Container<H>> {
        Container::open_head(bytes, bytes.len(), magic, what)
    }

    /// [`Container::open`] from the first bytes of a file of `file_len` bytes: `head` must hold
    /// at least the prefix and the header ([`Container::head_len`] tells how many bytes that
    /// is). Lets a reader stream the sections instead of holding the whole file.
    pub fn open_head(
        head: &[u8],
        file_len: usize,
        magic: &[u8; 8],
        what: &str,
    ) -> Result<Container<H>> {
        let bytes = head;
        if bytes.len() < PREFIX || file_len < PREFIX {
            bail!(
                "truncated: {} bytes is shorter than the {PREFIX}-byte prefix of a {what}",
                bytes.len().min(file_len)
            );
        }
        if &bytes[..8] != magic {
            bail!(
                "not a {what}: it starts with {:?}, a {what} starts with {:?}",
                String::from_utf8_lossy(&bytes[..8]),
                String::from_utf8_lossy(magic)
            );
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if !(OLDEST_READ..=FORMAT_VERSION).contains(&version) {
            bail!(
                "{what} of another version: format version {version}, this build reads versions \
                 {OLDEST_READ} to {FORMAT_VERSION} (write it again with this build)"
            );
        }
        let head_len = u32_at(12) as usize;
        let start = header_start(version);
        if start + head_len > bytes.len().min(file_len) {
            bail!(
                "truncated: the header needs {} bytes, the file has {}",
                start + head_len,
                bytes.len().min(file_len)
            );
        }
        let file_fnv = (version >= 4).then(|| u64_at(PREFIX));
        let head = &bytes[start..start + head_len];
        if fnv1a(head) != u64_at(16) {
            bail!("damaged: the header checksum does not match");
        }
        let (env, _): (Envelope<H>, usize) = bincode::serde::decode_from_slice(head, config())
            .context("damaged: the header does not decode")?;
        let data_start = align(start + head_len);
        let mut end = data_start;
        for (i, s) in env.sections.iter().enumerate() {
            if s.offset as usize % ALIGN != 0 {
                bail!("damaged: section {i} is not 64-byte aligned");
            }
            let e = (data_start as u64)
                .checked_add(s.offset)
                .and_then(|x| x.checked_add(s.len))
                .filter(|&e| e <= usize::MAX as u64)
                .context("damaged: a section lies beyond any file")?;
            end = end.max(e as usize);
        }
        if end != file_len {
            bail!(
                "{}: the header describes {end} bytes, the file has {file_len}",
                if end > file_len {
                    "truncated"
                } else {
                    "damaged"
                },
            );
        }
        Ok(Container {
            header: env.header,
            sections: env.sections,
            data_start,
            version,
            file_fnv,
        })
    }

    /// The number of bytes [`Container::open_head`] needs, from the file's first
    /// [`Container::PREFIX`] bytes; `None` if they are too few.
    pub fn head_len(prefix: &[u8]) -> Option<usize> {
        let version = u32::from_le_bytes(prefix.get(8..12)?.try_into().ok()?);
        let len = u32::from_le_bytes(prefix.get(12..16)?.try_into().ok()?);
        Some(header_start(version) + len as usize)
    }

    /// The length of the prefix that every version shares: the bytes to read first to learn,
    /// through [`Container::head_len`], how many [`Container::open_head`] needs.
    pub const PREFIX: usize = PREFIX;

    /// The bytes of section `i`.
    pub fn section<'b>(&self, bytes: &'b [u8], i: usize) -> Result<&'b [u8]> {
        let s = self
            .sections
            .get(i)
            .with_context(|| format!("damaged: no section {i}"))?;
        let a = self.data_start + s.offset as usize;
        Ok(&bytes[a..a + s.len as usize])
    }

    /// Checks the bytes of the whole file, `bytes` (read in full): the file checksum from
    /// version 4 on, the section checksums in version 3 (see the module documentation for what
    /// each covers).
    pub fn verify(&self, bytes: &[u8]) -> Result<()> {
        if self.file_fnv.is_none() {
            return self.verify_sections(bytes);
        }
        self.verify_file(bytes).or_else(|e| {
            // Name the section when its own checksum tells where the damage is.
            self.verify_sections(bytes)?;
            Err(e)
        })
    }

    /// The file checksum (from version 4 on), from the file read from its start (for readers that
    /// stream a file too large to hold); nothing to check in version 3, whose readers check the
    /// sections they read against their checksums.
    pub fn verify_file(&self, file: impl Read) -> Result<()> {
        let Some(want) = self.file_fnv else {
            return Ok(());
        };
        if file_checksum(file).context("reading the file to check it")? != want {
            bail!(
                "damaged: the file checksum does not match (a byte of the prefix, the header or \
                 the padding between sections, or of a section, changed)"
            );
        }
        Ok(())
    }

    /// Checks every section's own checksum.
    fn verify_sections(&self, bytes: &[u8]) -> Result<()> {
        for i in 0..self.sections.len() {
            if fnv1a(self.section(bytes, i)?) != self.sections[i].fnv {
                bail!("damaged: the checksum of section {i} does not match");
            }
        }
        Ok(())
    }
}

/// A container file opened for streaming: the prefix and header read and checked
/// ([`Container::open_head`]) and the whole file checked against its checksum as it is read
/// through, then each section read straight into the caller's memory, with its checksum. A
/// checkpoint is restored into the solver's own arrays this way, with no second copy of them in
/// memory.
pub struct ContainerFile<H> {
    /// The decoded header and the section table.
    pub container: Container<H>,
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl<H: DeserializeOwned> ContainerFile<H> {
    /// Opens `path` (through [`crate::input::open`]: a regular file within `kind`'s size),
    /// reads its prefix and header, and checks the whole file (from version 4 on) before the
    /// header is trusted, so that damage is reported as damage, not as a file of another game;
    /// `what` names the kind of file.
    pub fn open(
        path: &Path,
        kind: crate::input::Kind,
        magic: &[u8; 8],
        what: &str,
    ) -> Result<ContainerFile<H>> {
        use std::io::{Seek, SeekFrom};
        let at = || path.display().to_string();
        let mut file = crate::input::open(path, kind)?;
        let file_len = file.metadata().with_context(at)?.len() as usize;
        let mut head = vec![0u8; PREFIX.min(file_len)];
        file.read_exact(&mut head).with_context(at)?;
        if let Some(n) = Container::<H>::head_len(&head) {
            head.resize(n.min(file_len), 0);
            file.read_exact(&mut head[PREFIX..]).with_context(at)?;
        }
        let container = Container::open_head(&head, file_len, magic, what).with_context(at)?;
        file.seek(SeekFrom::Start(0)).with_context(at)?;
        container.verify_file(&mut file).with_context(at)?;
        Ok(ContainerFile {
            container,
            file,
            path: path.to_path_buf(),
        })
    }

    /// Reads section `i` into `dst`, which must be exactly its length, and checks its checksum.
    pub fn read_section_into(&mut self, i: usize, dst: &mut [u8]) -> Result<()> {
        use std::io::{Seek, SeekFrom};
        let at = || self.path.display().to_string();
        let s = *self
            .container
            .sections
            .get(i)
            .with_context(|| format!("{}: damaged: no section {i}", at()))?;
        if s.len != dst.len() as u64 {
            bail!(
                "{}: damaged: section {i} has {} bytes, {} expected",
                at(),
                s.len,
                dst.len()
            );
        }
        self.file
            .seek(SeekFrom::Start(self.container.data_start as u64 + s.offset))
            .with_context(at)?;
        self.file.read_exact(dst).with_context(at)?;
        if fnv1a(dst) != s.fnv {
            bail!(
                "{}: damaged: the checksum of section {i} does not match",
                at()
            );
        }
        Ok(())
    }
}

/// Views section bytes as a slice of `T` in place.
pub fn cast<'a, T: bytemuck::Pod>(bytes: &'a [u8], what: &str) -> Result<&'a [T]> {
    bytemuck::try_cast_slice(bytes).map_err(|e| anyhow::anyhow!("damaged: section {what}: {e:?}"))
}

/// Stores a [`GameDef`](abstraction::rules::GameDef) in a bincode header as its JSON text:
/// `Rank` serializes as a `char` but reads back a string, which only self-describing formats
/// reconcile. Use with `#[serde(with = "crate::container::game_as_json")]`.
pub mod game_as_json {
    use abstraction::rules::GameDef;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Serializes the game as JSON text.
    pub fn serialize<S: Serializer>(g: &GameDef, s: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(g).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }

    /// Reads the game back from JSON text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameDef, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}
