//! `stud solve --warm FILE`: a sampled multiway solve started from a strategy file of the same
//! problem (docs/notes/multiway.md, "A warm start from a file"). On `doorstud`: started from a
//! file and run to the file's own traversals, it writes the file's rows again; run further, it
//! counts the file's traversals in its own; a file of another abstraction, recall, game or seat
//! count is refused by what differs, and so is a warm start beside --resume.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use solver::strategy_file::multiway::MultiwayFile;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-mw-warm-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `stud solve --game doorstud --abstraction 16`, batches of 30, into `out`, with `extra`.
fn solve(out: &Path, extra: &[&str]) -> std::process::Output {
    let abst = dir().join("abstractions");
    let mut args = vec![
        "solve",
        "--game",
        "doorstud",
        "--abstraction",
        "16",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "30",
        "--threads",
        "1",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    stud(&args, "")
}

/// The last JSON line of a run that must succeed.
fn report(out: &std::process::Output) -> Value {
    let stdout = ok(out);
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

/// The largest difference of a probability between two files' rows of one layout.
fn farthest(a: &MultiwayFile, b: &MultiwayFile) -> f32 {
    let (a, b) = (a.by_slot().unwrap(), b.by_slot().unwrap());
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn a_warm_start_plays_the_file_and_counts_its_traversals() {
    let d = dir();
    let cold = d.join("cold.strat");
    report(&solve(&cold, &["--iterations", "40", "--seed", "3"]));
    let file = cold.to_str().unwrap();

    // Run to the file's own count: no batch, and the file's rows written again.
    let again = d.join("again.strat");
    let v = report(&solve(&again, &["--iterations", "40", "--warm", file]));
    assert_eq!(v["iterations"], 40, "{v}");
    assert_eq!(v["warm"]["traversals"], 1200, "{v}");
    assert_eq!(v["warm"]["mass"], 16.0, "{v}");
    let (a, b) = (
        MultiwayFile::open(&cold).unwrap(),
        MultiwayFile::open(&again).unwrap(),
    );
    assert_eq!(a.by_slot().unwrap(), b.by_slot().unwrap());
    // A file that is not the cold one's rows would differ: the check can fail.
    let other = d.join("other.strat");
    report(&solve(&other, &["--iterations", "40", "--seed", "4"]));
    assert!(farthest(&a, &MultiwayFile::open(&other).unwrap()) > 0.01);

    // Run further: the file's 40 batches and 10 more, every row moved from the file's.
    let on = d.join("on.strat");
    let v = report(&solve(
        &on,
        &["--iterations", "50", "--warm", file, "--warm-mass", "4"],
    ));
    assert_eq!(
        (v["iterations"].as_u64(), v["traversals"].as_u64()),
        (Some(50), Some(1500))
    );
    let moved = farthest(&a, &MultiwayFile::open(&on).unwrap());
    assert!(moved > 0.0 && moved < 1.0, "{moved}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_warm_start_from_another_problem_is_refused_by_what_differs() {
    let d = dir().join("refused");
    std::fs::create_dir_all(&d).unwrap();
    let file = d.join("door.strat");
    report(&solve(&file, &["--iterations", "2"]));
    let f = file.to_str().unwrap();
    let out = d.join("x.strat");

    let e = err(&solve(
        &out,
        &[
            "--iterations",
            "3",
            "--warm",
            f,
            "--within-street",
            "position",
        ],
    ));
    assert!(e.contains("--warm") && e.contains("recall history"), "{e}");
    let e = err(&solve(
        &out,
        &["--iterations", "3", "--warm", f, "--view", "best-opponent"],
    ));
    assert!(e.contains("card abstraction"), "{e}");
    let e = err(&solve(
        &out,
        &["--iterations", "3", "--warm", f, "--resume"],
    ));
    assert!(e.contains("--resume") && e.contains("--warm"), "{e}");
    let e = err(&solve(
        &out,
        &["--iterations", "3", "--warm", f, "--warm-mass", "0"],
    ));
    assert!(e.contains("--warm-mass 0"), "{e}");
    // Another game, another seat count: refused before any bucketing is built.
    let e = err(&solve(
        &out,
        &[
            "--iterations",
            "3",
            "--warm",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-3p.strat"),
        ],
    ));
    assert!(e.contains("another game"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud-3p",
            "--abstraction",
            "tiny",
            "--iterations",
            "1",
            "--warm",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-4p.strat"),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    assert!(e.contains("4 seats, the solve of 3"), "{e}");
    // A heads-up solve takes no warm start.
    let e = err(&stud(
        &["solve", "--game", "leduc", "--iterations", "1", "--warm", f],
        "",
    ));
    assert!(e.contains("--warm"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}
