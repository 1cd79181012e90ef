//! The binary container shared by strategy files and checkpoints: a fixed prefix, a bincode
//! header with a section table, then 64-byte-aligned little-endian arrays.
//!
//! ```text
//! offset 0   magic        8 bytes   (which kind of file)
//!        8   version      u32 LE    (FORMAT_VERSION)
//!       12   header_len   u32 LE
//!       16   header_fnv   u64 LE    (FNV-1a 64 of the header bytes)
//!       24   header       bincode 2 (standard config) of Envelope { header, sections }
//!  align 64  data         section i at data_start + sections[i].offset, 64-byte aligned
//! ```
//! The file length must equal the end of the last section exactly, so a truncated file is refused
//! in O(1). Section checksums (FNV-1a 64) are checked by [`Container::verify`], which reads
//! everything; opening does not, so that it costs O(1) whatever the size.

use anyhow::{bail, Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

#[cfg(not(target_endian = "little"))]
compile_error!(
    "strategy files are little-endian and read in place: big-endian targets are not supported"
);

/// The container format version; files of another version are refused. Version 3 added the
/// betting-tree strategy files (tree kind, probability width, embedded bucketing).
pub const FORMAT_VERSION: u32 = 3;

const PREFIX: usize = 24;
const ALIGN: usize = 64;

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

/// FNV-1a, 64 bits: a cheap checksum against damage (not against malice).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// bincode's standard configuration, with a limit so that a damaged length cannot ask for a huge
/// allocation while decoding.
fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 1 << 24 }>()
}

fn align(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// Writes a container to `path` atomically: to `path.tmp` first, then renamed over `path`.
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
    let data_start = align(PREFIX + head.len());
    let tmp = path.with_extension(match path.extension() {
        Some(e) => format!("{}.tmp", e.to_string_lossy()),
        None => "tmp".into(),
    });
    let file =
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let mut w = std::io::BufWriter::new(file);
    w.write_all(magic)?;
    w.write_all(&FORMAT_VERSION.to_le_bytes())?;
    w.write_all(&(head.len() as u32).to_le_bytes())?;
    w.write_all(&fnv1a(&head).to_le_bytes())?;
    w.write_all(&head)?;
    let mut pos = PREFIX + head.len();
    for (s, t) in sections
        .iter()
        .zip(&env.sections)
        .filter(|(s, _)| !s.is_empty())
    {
        let at = data_start + t.offset as usize;
        w.write_all(&vec![0u8; at - pos])?;
        w.write_all(s)?;
        pos = at + s.len();
    }
    let file = w.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
    Ok(())
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
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            bail!(
                "{what} of another version: format version {version}, this build reads version \
                 {FORMAT_VERSION} (write it again with this build)"
            );
        }
        let head_len = u32_at(12) as usize;
        let fnv = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        if PREFIX + head_len > bytes.len().min(file_len) {
            bail!(
                "truncated: the header needs {} bytes, the file has {}",
                PREFIX + head_len,
                bytes.len().min(file_len)
            );
        }
        let head = &bytes[PREFIX..PREFIX + head_len];
        if fnv1a(head) != fnv {
            bail!("damaged: the header checksum does not match");
        }
        let (env, _): (Envelope<H>, usize) = bincode::serde::decode_from_slice(head, config())
            .context("damaged: the header does not decode")?;
        let data_start = align(PREFIX + head_len);
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
        })
    }

    /// The number of bytes [`Container::open_head`] needs, from the file's first 24 bytes (the
    /// prefix); `None` if they are too few.
    pub fn head_len(prefix: &[u8]) -> Option<usize> {
        let len = u32::from_le_bytes(prefix.get(12..16)?.try_into().ok()?);
        Some(PREFIX + len as usize)
    }

    /// The length of the fixed prefix of every container.
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

    /// Checks every section's checksum (reads the whole file).
    pub fn verify(&self, bytes: &[u8]) -> Result<()> {
        for i in 0..self.sections.len() {
            if fnv1a(self.section(bytes, i)?) != self.sections[i].fnv {
                bail!("damaged: the checksum of section {i} does not match");
            }
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
