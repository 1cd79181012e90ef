//! Real stud at three seats end to end through the built binary: `stud solve --game 7stud-3p`
//! goes to the sampling solver, writes a multiway strategy file that `stud info` reads, ends
//! byte-identical when resumed or run on another number of threads, and refuses what it cannot
//! solve.

mod common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-mw-sampled-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Solves 7stud-3p at the `tiny` size into `name`; the final JSON line.
fn solve(name: &str, extra: &[&str]) -> (PathBuf, Value) {
    let out = dir().join(name);
    let abst = dir().join("abstractions");
    let mut args = vec![
        "solve",
        "--game",
        "7stud-3p",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "12",
        "--json",
        "--keep-checkpoint",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    let stdout = ok(&stud(&args, ""));
    let last = stdout.lines().last().unwrap().to_string();
    (out, serde_json::from_str(&last).unwrap())
}

#[test]
fn a_three_seat_solve_resumes_and_threads_to_the_same_bytes() {
    let (straight, v) = solve("straight.strat", &["--iterations", "4", "--threads", "2"]);
    assert_eq!(v["seats"], 3);
    assert_eq!(v["iterations"], 4);
    assert_eq!(v["traversals"], 48);
    assert!(
        v["solver"].as_str().unwrap().contains("MCCFR linear"),
        "{v}"
    );
    assert!(v["traversals_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["infoset_actions"].as_u64().unwrap() > 100_000, "{v}");
    let (one, _) = solve("one.strat", &["--iterations", "4", "--threads", "1"]);
    let bytes = std::fs::read(&straight).unwrap();
    assert!(
        bytes == std::fs::read(&one).unwrap(),
        "1 and 2 threads differ"
    );
    solve("resumed.strat", &["--iterations", "2", "--threads", "2"]);
    let (resumed, v) = solve(
        "resumed.strat",
        &["--iterations", "4", "--threads", "2", "--resume"],
    );
    assert_eq!(v["iterations"], 4);
    assert!(bytes == std::fs::read(&resumed).unwrap(), "resumed differs");
    let info = ok(&stud(&["info", straight.to_str().unwrap(), "--json"], ""));
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["kind"], "multiway");
    assert_eq!(info["seats"], 3);
    assert_eq!(info["iterations"], 4);
    assert_eq!(info["verified"], true);
    let text = ok(&stud(&["info", straight.to_str().unwrap()], ""));
    assert!(text.contains("external-sampling MCCFR"), "{text}");
}

/// The file plays at a table wherever a player is named (`bot::load`): a match against two
/// heuristic copies, its game read from the file, zero-sum over the rotated seats.
#[test]
fn a_three_seat_file_plays_a_match_at_its_table() {
    let (file, _) = solve("table.strat", &["--iterations", "2", "--threads", "2"]);
    let f = file.to_str().unwrap();
    let out = ok(&stud(
        &[
            "match",
            f,
            "heuristic",
            "heuristic",
            "--hands",
            "30",
            "--seed",
            "3",
            "--json",
        ],
        "",
    ));
    let v: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["seats"], 3, "{v}");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "{v}");
    let chips: i64 = players.iter().map(|p| p["chips"].as_i64().unwrap()).sum();
    assert_eq!(chips, 0, "{v}");
    // A file of another game is refused by name.
    let e = err(&stud(
        &["match", f, "heuristic", "heuristic", "--game", "razz-3p"],
        "",
    ));
    assert!(e.contains("table.strat"), "{e}");
    // How it is played is written after it, and names its seat.
    let spec = format!("{f}:threshold=0.15");
    let out = ok(&stud(
        &["match", &spec, "call", "call", "--hands", "5", "--json"],
        "",
    ));
    let v: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(v["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["player"] == spec.as_str()));
    let e = err(&stud(
        &["match", &format!("{f}:thresh=2"), "call", "call"],
        "",
    ));
    assert!(e.contains("not a way to play a strategy"), "{e}");
}

#[test]
fn what_the_sampling_solver_cannot_do_is_refused_by_name() {
    let abst = dir().join("abstractions");
    let base = |game: &'static str| {
        vec![
            "solve",
            "--game",
            game,
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            abst.to_str().unwrap().to_string().leak(),
            "--iterations",
            "1",
        ]
    };
    let e = err(&stud(&base("7stud-8p"), ""));
    assert!(e.contains("56 cards"), "{e}");
    for (flag, value, says) in [
        ("--recall", "order", "forgets earlier streets"),
        ("--target-exploitability", "0.1", "not computable"),
        ("--solver", "deal", "multiway solvers"),
    ] {
        let mut args = base("7stud-3p");
        args.extend([flag, value]);
        let e = err(&stud(&args, ""));
        assert!(e.contains(says), "{flag}: {e}");
    }
}
