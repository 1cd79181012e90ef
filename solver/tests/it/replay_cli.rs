//! `stud replay` and `stud simulate` end to end: a good file replays, a bad one exits non-zero
//! with the line, and simulated hands replay.

use crate::common;

use common::text;

/// Runs `stud`: whether it succeeded, its standard output and its standard error.
fn stud(args: &[&str]) -> (bool, String, String) {
    let out = common::stud(args, "");
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

const HAND: &str = "variant = 'F7S'
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 8s5c7d', 'd dh p2 5sJs8h', 'd dh p3 KsKdAs', 'p1 pb', 'p2 cbr 5', 'p3 f', 'p1 cc', 'd dh p1 Th', 'd dh p2 Kc', 'p2 cbr 5', 'p1 f']
";

#[test]
fn replays_a_file_and_refuses_a_bad_one() {
    let dir = std::env::temp_dir().join(format!("stud-replay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.phh");
    std::fs::write(&good, HAND).unwrap();
    let (ok, out, err) = stud(&[
        "replay",
        good.to_str().unwrap(),
        "--json",
        "--rules",
        "pokerkit",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bring_in_seat"], 0);
    assert_eq!(v["opening"], "pb");
    assert_eq!(v["payoffs"], serde_json::json!([-6, 7, -1]));
    assert_eq!(
        v["decisions"][0]["legal"],
        serde_json::json!(["pb", "cbr 5"])
    );

    // Streets are named as players say them.
    let (ok, out, err) = stud(&["replay", good.to_str().unwrap(), "--rules", "pokerkit"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("3rd street: first to act p1") && out.contains("4th street"),
        "{out}"
    );

    // The cards dealt, and each decision's number in `actions`.
    assert!(out.contains("dealt: p1: 8s 5c 7d; p2: 5s Js 8h"), "{out}");
    assert!(out.contains("action   4 (line   7)  p1"), "{out}");
    // Several files, and a PHHS file of two hands (lines named in the whole file).
    let many = dir.join("two.phhs");
    std::fs::write(&many, format!("[1]\n{HAND}\n[2]\n{HAND}")).unwrap();
    let (ok, out, err) = stud(&[
        "replay",
        good.to_str().unwrap(),
        many.to_str().unwrap(),
        "--rules",
        "pokerkit",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3, "{v}");
    let broken = dir.join("broken.phhs");
    std::fs::write(
        &broken,
        format!("[1]\n{HAND}\n[2]\n{}", HAND.replace("'p3 f'", "'p3 cbr 7'")),
    )
    .unwrap();
    let (ok, out, err) = stud(&["replay", broken.to_str().unwrap(), "--rules", "pokerkit"]);
    assert!(!ok);
    assert!(out.contains("=== ") && out.contains("[1]"), "{out}");
    assert!(
        err.contains("[2]: action 6 of 11, line 17: `p3 cbr 7`") && err.contains("1 of 2 hands"),
        "{err}"
    );

    let bad = dir.join("bad.phh");
    std::fs::write(&bad, HAND.replace("'p3 f'", "'p3 cbr 7'")).unwrap();
    let (ok, _, err) = stud(&["replay", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("line 7") && err.contains("p3 cbr 7"), "{err}");

    let out_dir = dir.join("sim");
    let (ok, _, err) = stud(&[
        "simulate",
        "--game",
        "stud8",
        "--seats",
        "4",
        "--hands",
        "20",
        "--seed",
        "1",
        "--short-stacks",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    for i in 0..20 {
        let f = out_dir.join(format!("{i}.phh"));
        let (ok, out, err) = stud(&["replay", f.to_str().unwrap()]);
        assert!(ok && out.contains("net:"), "{i}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `stud` with no input, killing it if it has not ended in 30 seconds (a FIFO used to block
/// it forever): whether it ended by itself with success, and its standard error.
fn stud_within_30s(args: &[&str]) -> (bool, String) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run stud");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("stud {args:?} still runs after 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.success(), text(&out.stderr))
}

#[test]
fn devices_fifos_and_oversized_files_are_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("stud-special-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
    let big = dir.join("big.phh");
    std::fs::write(&big, HAND.repeat(40_000)).unwrap();
    let fifo = fifo.to_str().unwrap();
    for (args, want) in [
        (
            vec!["replay", "/dev/zero"],
            "/dev/zero is not a regular file but a character device",
        ),
        (vec!["replay", fifo], "a FIFO"),
        (
            vec!["replay", big.to_str().unwrap()],
            "more than the 4 MiB a PHH hand history",
        ),
        (vec!["info", fifo], "a FIFO"),
        (
            vec!["query", "/dev/zero", ""],
            "a character device: a strategy file",
        ),
        (vec!["serve", fifo], "a FIFO"),
        (vec!["match", fifo, "raise", "--hands", "2"], "a FIFO"),
        (
            vec!["solve", "--game", fifo, "--iterations", "1"],
            "a game file must be a file",
        ),
    ] {
        let (ok, err) = stud_within_30s(&args);
        assert!(!ok && err.contains(want), "stud {args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn chips_past_the_bound_are_refused_and_hands_at_it_replay() {
    let dir = std::env::temp_dir().join(format!("stud-chips-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 2^63: simulate used to write files that replay refused.
    let sim = dir.join("sim");
    let (ok, _, err) = stud(&[
        "simulate",
        "--stack",
        "9223372036854775808",
        "--hands",
        "2",
        "--out",
        sim.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("`starting_stacks`") && err.contains("2^53"),
        "{err}"
    );
    assert!(!sim.exists(), "nothing is written");
    // A game PHH has no code for is refused before the folder is made.
    let (ok, _, err) = stud(&[
        "simulate",
        "--game",
        "leduc",
        "--out",
        sim.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("PHH cannot record leduc"), "{err}");
    assert!(!sim.exists(), "nothing is written for leduc");
    // Two stacks of 2^52 hold 2^53 chips in all: the bound itself; every hand replays.
    let (ok, _, err) = stud(&[
        "simulate",
        "--stack",
        "4503599627370496",
        "--hands",
        "20",
        "--out",
        sim.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    for i in 0..20 {
        let f = sim.join(format!("{i}.phh"));
        let (ok, _, err) = stud(&["replay", f.to_str().unwrap()]);
        assert!(ok, "{i}: {err}");
    }
    // A game file with stacks near i64::MAX: a match used to report wrapped chips.
    let game = dir.join("huge.toml");
    std::fs::write(
        &game,
        "preset = \"7stud\"\nstarting_stacks = 9223372036854775000\n",
    )
    .unwrap();
    let (ok, _, err) = stud(&[
        "match",
        "raise",
        "heuristic",
        "--game",
        game.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("`starting_stacks`") && err.contains("overflow"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
