//! Opening the files the commands read: every input file goes through here, so that each is
//! checked the same way before a byte is read.
//!
//! - It must be a regular file. A FIFO would block the command forever (`open` waits for a
//!   writer, `read` for data), and a character device such as `/dev/zero` never ends, so the
//!   command would read until memory runs out. The file is opened with `O_NONBLOCK`, which
//!   makes opening a FIFO return at once, and then its type is checked on the open descriptor
//!   (not on the path, which could be replaced in between).
//! - It must be at most the size its kind may have ([`Kind`]): a wrong path (a disk image, a log
//!   of gigabytes) is refused with the limit named instead of being read. The reading functions
//!   also stop at the limit when a file grows while it is read, or reports no size (`/proc`).

use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// A kind of input file: what it is called in messages and the most bytes it may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// What the file is, as messages name it ("PHH hand history").
    pub what: &'static str,
    /// The most bytes a file of this kind may have.
    pub max_bytes: u64,
}

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// A PHH hand history: PokerKit's are under 2 KB; 4 MiB leaves room for long commentaries and
/// user fields, and reads in a fraction of a second.
pub const PHH: Kind = Kind {
    what: "PHH hand history",
    max_bytes: 4 * MIB,
};

/// A TOML game definition: a few hundred bytes.
pub const GAME: Kind = Kind {
    what: "game file",
    max_bytes: MIB,
};

/// A TOML lock file (`stud solve --lock`): a rule is a few lines; 4 MiB is a rule per row of a
/// large abstraction's street.
pub const LOCK: Kind = Kind {
    what: "lock file",
    max_bytes: 4 * MIB,
};

/// A strategy file: memory-mapped, and hashed once on opening. The bound is far above any file
/// the solver writes (the shipped ones are at most 20 MB; row offsets are `u32`, so the strategy
/// section is at most 8 GiB), so that a mistaken path is refused before it is hashed.
pub const STRATEGY: Kind = Kind {
    what: "strategy file",
    max_bytes: 64 * GIB,
};

/// The exact multiway solver's JSON policy (`stud solve --game kuhn-3p --out F.json`): leduc-3p's
/// is 4 MB, tristud's about 100 MB.
pub const POLICY: Kind = Kind {
    what: "multiway policy",
    max_bytes: GIB,
};

/// A checkpoint: the solver's full state, as large as its tables (the same bound as strategy
/// files, which hold a quarter of it or less).
pub const CHECKPOINT: Kind = Kind {
    what: "checkpoint",
    max_bytes: 64 * GIB,
};

/// A cached card abstraction (`*.bkt`): megabytes at the largest size.
pub const BUCKETS: Kind = Kind {
    what: "card abstraction cache",
    max_bytes: 4 * GIB,
};

/// The JSON a `stud report` draws: a solve log (a line per measurement) or the results of
/// `scripts/eval-strategy`.
pub const REPORT_DATA: Kind = Kind {
    what: "report input",
    max_bytes: 64 * MIB,
};

/// Opens `path` for reading after checking that it is a regular file of at most
/// `kind.max_bytes`; the error names the file, what is wrong and the limit.
pub fn open(path: &Path, kind: Kind) -> Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading would wait for a writer; with O_NONBLOCK it returns and
        // the type check below refuses it. Reads of a regular file ignore the flag.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .with_context(|| format!("opening {} {}", kind.what, path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("reading the metadata of {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{} is not a regular file but {}: a {} must be a file",
            path.display(),
            file_type(&meta.file_type()),
            kind.what
        );
    }
    if meta.len() > kind.max_bytes {
        bail!(
            "{} has {} bytes, more than the {} a {} may have",
            path.display(),
            meta.len(),
            size(kind.max_bytes),
            kind.what
        );
    }
    Ok(file)
}

/// The whole of the regular file `path` (see [`open`]), at most `kind.max_bytes`.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<u8>> {
    let file = open(path, kind)?;
    let mut bytes = Vec::new();
    // One byte past the limit tells a file that grew (or reported no size) from one that fits.
    file.take(kind.max_bytes + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > kind.max_bytes {
        bail!(
            "{} has more than the {} a {} may have",
            path.display(),
            size(kind.max_bytes),
            kind.what
        );
    }
    Ok(bytes)
}

/// The text of the regular file `path` (see [`open`]); the error names the file and the line
/// of the first byte that is not UTF-8.
pub fn read_text(path: &Path, kind: Kind) -> Result<String> {
    String::from_utf8(read(path, kind)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!(
            "{} line {line} (byte {at}): not UTF-8 text: a {} is text",
            path.display(),
            kind.what
        )
    })
}

/// A game given by name, as every `--game` takes it: a preset name, or the path of a TOML game
/// file (read as a [`GAME`]).
pub fn load_game(arg: &str) -> Result<GameDef> {
    if is_game_file(arg) {
        let text = read_text(Path::new(arg), GAME)?;
        return GameDef::from_toml(&text).with_context(|| format!("game file {arg}"));
    }
    Ok(GameDef::preset(arg)?)
}

/// Whether `--game ARG` names a game file (a `.toml` path, or any file that exists) rather than a
/// preset.
pub fn is_game_file(arg: &str) -> bool {
    let path = Path::new(arg);
    path.extension().is_some_and(|e| e == "toml") || path.is_file()
}

/// A limit in the unit people read it in.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= GIB && b % GIB == 0 => format!("{} GiB", b / GIB),
        b if b >= MIB && b % MIB == 0 => format!("{} MiB", b / MIB),
        b => format!("{b} bytes"),
    }
}

/// What a file that is not a regular file is, for messages.
fn file_type(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Kind = Kind {
        what: "test file",
        max_bytes: 10,
    };

    fn dir() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("stud-input-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_regular_file_within_the_limit_reads() {
        let p = dir().join("ok.txt");
        std::fs::write(&p, "ten bytes!").unwrap();
        assert_eq!(read_text(&p, SMALL).unwrap(), "ten bytes!");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_the_limit_named() {
        let p = dir().join("big.txt");
        std::fs::write(&p, "eleven bytes").unwrap();
        let e = format!("{:#}", read(&p, SMALL).unwrap_err());
        assert!(
            e.contains("big.txt") && e.contains("more than the 10 bytes"),
            "{e}"
        );
    }

    #[test]
    fn devices_directories_and_fifos_are_refused_without_blocking() {
        let e = format!("{:#}", read(Path::new("/dev/zero"), PHH).unwrap_err());
        assert!(
            e.contains("/dev/zero is not a regular file but a character device"),
            "{e}"
        );
        let e = format!("{:#}", read(&dir(), PHH).unwrap_err());
        assert!(e.contains("a directory"), "{e}");
        let fifo = dir().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
        // No writer ever opens it: without O_NONBLOCK this would wait forever.
        let e = format!("{:#}", read(&fifo, PHH).unwrap_err());
        assert!(e.contains("a FIFO"), "{e}");
    }

    #[test]
    fn text_that_is_not_utf8_names_the_line() {
        let p = dir().join("bad.txt");
        std::fs::write(&p, b"ok\nok\n\xff\n").unwrap();
        let e = format!("{:#}", read_text(&p, SMALL).unwrap_err());
        assert!(e.contains("line 3"), "{e}");
    }
}
