//! `stud convert`: a multiway strategy file written again with its rows in another encoding
//! (`--rows 4bit`: half a byte a probability; `--rows 8bit`: a byte, which also rewrites the
//! files of two bytes a slot written before 2026-12-02), without solving again. The header,
//! the bucketings and the recall are copied byte for byte; the new file is opened again (every
//! checksum) and each of its rows compared with the old one's.

use anyhow::{bail, Context, Result};
use solver::strategy_file::multiway::{self, MultiwayFile, RowFormat};
use solver::strategy_file::StrategyFile;
use std::path::PathBuf;

/// Arguments of `stud convert`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud convert strategies/7stud-3p.strat --rows 4bit --out 7stud-3p-4bit.strat\n  \
    stud convert strategies/7stud-5p.strat --rows 4bit --out 7stud-5p-4bit.strat --json\n  \
    stud convert strategies/7stud-4p.strat --rows 8bit --out 7stud-4p-8bit.strat\n\n\
    A multiway file (three seats or more) only. Prints both sizes and the largest difference of \
    a probability between the two files' rows (within 1/14 at 4 bits, 1/255 at 8, plus the \
    old file's own rounding). The new file plays as `stud match`, `stud query` and `stud serve` \
    read any strategy file; docs/notes/multiway.md, \"Rows of half a byte\", measures what 4 \
    bits cost.")]
pub struct Args {
    /// The multiway strategy file to re-encode.
    pub file: PathBuf,
    /// How the new file stores each probability: 4bit (14ths) or 8bit (255ths).
    #[arg(long, value_parser = <RowFormat as abstraction::named::Named>::parse_or_list)]
    pub rows: RowFormat,
    /// Where to write the new file (not the file read).
    #[arg(long)]
    pub out: PathBuf,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// Runs the command: opens the file, writes it re-encoded, opens that and compares the rows.
pub fn run(args: Args) -> Result<()> {
    let same = |a: &PathBuf, b: &PathBuf| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if same(&args.file, &args.out) {
        bail!(
            "--out {}: the file read; write the new file elsewhere",
            args.out.display()
        );
    }
    let StrategyFile::Multiway(old) = StrategyFile::open(&args.file)? else {
        bail!(
            "{}: a heads-up strategy file; `stud convert` re-encodes the rows of a multiway one \
             (three seats or more)",
            args.file.display()
        );
    };
    multiway::convert(&old, &args.out, args.rows)?;
    let new = MultiwayFile::open(&args.out)
        .with_context(|| format!("reading back {}", args.out.display()))?;
    let difference = old.largest_difference(&new)?;
    let (before, after) = (old.stored(), new.stored());
    if args.output.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "out": args.out.display().to_string(),
            "rows_before": before.encoding,
            "rows_after": after.encoding,
            "file_bytes_before": old.bytes,
            "file_bytes_after": new.bytes,
            "rows_bytes_before": before.bytes,
            "rows_bytes_after": after.bytes,
            "largest_difference": difference,
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "{} ({}, {} bytes; rows {} bytes) -> {} ({}, {} bytes; rows {} bytes): {:.3} of the size",
        args.file.display(),
        before.encoding,
        old.bytes,
        before.bytes,
        args.out.display(),
        after.encoding,
        new.bytes,
        after.bytes,
        new.bytes as f64 / old.bytes as f64
    );
    println!("largest difference of a probability: {difference:.5}");
    Ok(())
}
