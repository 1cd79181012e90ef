//! The real games end to end through the built binary: `stud solve` on a tiny seven-card stud
//! abstraction, then `info`, `query` (a spot on every street), `match`, `serve` and `play` on the
//! strategy file it wrote; `--resume` ending byte-identical; the refusals.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-betting-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Solves 7stud at the `tiny` size into `name` (under a second).
fn solve(name: &str, extra: &[&str]) -> (PathBuf, Value) {
    let out = dir().join(name);
    let abst = dir().join("abstractions");
    let mut args = vec![
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "64",
        "--threads",
        "2",
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

/// The tiny strategy the read-side tests share.
fn strategy() -> &'static (PathBuf, Value) {
    static S: OnceLock<(PathBuf, Value)> = OnceLock::new();
    S.get_or_init(|| solve("shared.strat", &["--iterations", "6"]))
}

#[test]
fn solve_reports_speed_memory_and_a_strategy_file() {
    let (path, v) = strategy();
    assert!(path.exists());
    assert_eq!(v["iterations"], 6);
    assert_eq!(v["deals"], 6 * 64);
    assert_eq!(v["bytes_per_slot"], 8);
    assert!(v["exploitability"].is_null());
    for key in ["deals_per_second", "updates_per_second"] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}: {v}");
    }
    // The estimate printed before allocating is within 20% of the measured peak.
    let (est, peak) = (
        v["estimate_bytes"].as_f64().unwrap(),
        v["peak_bytes"].as_f64().unwrap(),
    );
    assert!(
        (est - peak).abs() <= 0.2 * peak,
        "estimate {est}, peak {peak}"
    );
    let info = ok(&stud(
        &["info", path.to_str().unwrap(), "--verify", "--json"],
        "",
    ));
    let h: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(h["tree"], "Betting");
    assert_eq!(h["width"], "U8");
    assert_eq!(h["iterations"], 6);
    assert_eq!(h["sampling"]["batch"], 64);
    let abstraction = h["card_abstraction"].as_str().unwrap();
    assert!(
        abstraction.ends_with(h["bucketing"].as_str().unwrap()),
        "{h}"
    );
    let text = ok(&stud(&["info", path.to_str().unwrap()], ""));
    assert!(
        text.contains("bucketing:        embedded, size tiny"),
        "{text}"
    );
}

#[test]
fn query_answers_a_spot_on_every_street() {
    let (path, _) = strategy();
    let p = path.to_str().unwrap();
    // Seat 0 shows the 3c and brings in; seat 1 calls; checks and a bet-call to seventh street.
    let spots = [
        ("3c 8d pb", "As Kd", 0, 1),
        ("3c 8d pb cc 9h Ts", "As Kd", 1, 1),
        ("3c 8d pb cc 9h Ts cc b c 2c Jd", "As Kd", 2, 1),
        ("3c 8d pb cc 9h Ts cc b c 2c Jd x x 4h 5h", "As Kd", 3, 1),
        (
            "3c 8d pb cc 9h Ts cc b c 2c Jd x x 4h 5h x x",
            "As Kd 7c",
            4,
            1,
        ),
    ];
    for (spot, hand, street, seat) in spots {
        let out = ok(&stud(&["query", p, spot, "--hand", hand, "--json"], ""));
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["street"], street, "{spot}: {v}");
        assert_eq!(v["seat"], seat, "{spot}: {v}");
        let row = v["hands"][0]["probabilities"].as_array().unwrap();
        assert_eq!(row.len(), v["actions"].as_array().unwrap().len());
        let sum: f64 = row.iter().map(|x| x.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{spot}: {v}");
    }
    // Without --hand: every bucket of the street (8 at `tiny`).
    let out = ok(&stud(&["query", p, "3c 8d pb", "--json"], ""));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hands"].as_array().unwrap().len(), 8);
    // Errors name the step or the hand.
    let e = err(&stud(
        &["query", p, "3c 8d pb cc cc", "--hand", "As Kd"],
        "",
    ));
    assert!(
        e.contains("step 5 (cc)") && e.contains("up card on 4th street"),
        "{e}"
    );
    let e = err(&stud(&["query", p, "3c 8d pb", "--hand", "As"], ""));
    assert!(e.contains("--hand"), "{e}");
    // A repeated card is refused, not counted once.
    let e = err(&stud(
        &["query", p, "3c 8d pb", "--hand", "Kc Kc Kc Kc"],
        "",
    ));
    assert!(e.contains("Kc appears twice"), "{e}");
    let e = err(&stud(&["query", p, "3c 8d cc"], ""));
    assert!(e.contains("step 3"), "{e}");
}

#[test]
fn match_serve_and_play_use_the_strategy() {
    let (path, _) = strategy();
    let p = path.to_str().unwrap();
    let m = ok(&stud(
        &[
            "match", p, "random", "--game", "7stud", "--hands", "40", "--seed", "3", "--json",
        ],
        "",
    ));
    let v: Value = serde_json::from_str(&m).unwrap();
    assert_eq!(v["hands"], 80);
    // The server answers a third-street spot with the strategy's probabilities.
    let req = r#"{"id":1,"seat":1,"actions":["d dh p1 ????7h","d dh p2 AsKs2c"]}"#;
    let out = ok(&stud(&["serve", p], &format!("{req}\n")));
    let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["id"], 1);
    let probs: f64 = v["probs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((probs - 1.0).abs() < 1e-9, "{v}");
    // A person plays one hand against it: always the passive choice.
    let moves = "cc\npb\n".repeat(40);
    let out = ok(&stud(
        &["play", p, "--game", "7stud", "--hands", "1", "--seed", "2"],
        &moves,
    ));
    assert!(out.contains("session over: 1 hand"), "{out}");
}

/// `serve --warm` changes how 3rd street's buckets are found (a table computed at start instead
/// of a rollout per request), not the answers: the same replies, probabilities and sampled
/// actions alike, to both seats' 3rd-street decisions with and without it.
#[test]
fn serve_warm_answers_as_served_cold() {
    let (path, _) = strategy();
    let p = path.to_str().unwrap();
    let deck: Vec<String> = "3456789TJQKA"
        .chars()
        .flat_map(|r| "cdhs".chars().map(move |s| format!("{r}{s}")))
        .collect();
    let mut input = String::new();
    for i in 0..24 {
        // Five distinct cards a hand (offsets 0, 7, .., 28 apart in 48); p2's door is 2c, the
        // lowest, so p2 brings in and p1 then decides.
        let c = |k: usize| &deck[(i * 5 + k * 7) % deck.len()];
        let (d1, d2, u1, e1, e2) = (c(0), c(1), c(2), c(3), c(4));
        let (bring_in, answer) = (2 * i, 2 * i + 1);
        input += &format!(
            r#"{{"id":{bring_in},"seat":1,"actions":["d dh p1 ????{u1}","d dh p2 {e1}{e2}2c"]}}"#
        );
        input += "\n";
        input += &format!(
            r#"{{"id":{answer},"seat":0,"actions":["d dh p1 {d1}{d2}{u1}","d dh p2 ????2c","p2 pb"]}}"#
        );
        input += "\n";
    }
    let cold = ok(&stud(&["serve", p, "--seed", "4"], &input));
    let warm = ok(&stud(&["serve", p, "--seed", "4", "--warm"], &input));
    assert_eq!(cold.lines().count(), 48, "{cold}");
    for line in cold.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v["probs"].is_array() && v["error"].is_null(), "{line}");
    }
    assert_eq!(warm, cold);
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn resume_ends_byte_identical_to_an_uninterrupted_solve() {
    let (straight, _) = solve("straight.strat", &["--iterations", "5"]);
    let (half, v) = solve("resumed.strat", &["--iterations", "2"]);
    assert_eq!(v["iterations"], 2);
    let (resumed, v) = solve("resumed.strat", &["--iterations", "5", "--resume"]);
    assert_eq!(half, resumed);
    assert_eq!(v["iterations"], 5);
    let read = |p: &PathBuf| std::fs::read(p).unwrap();
    assert!(read(&straight) == read(&resumed), "strategy files differ");
    let ck = |p: &PathBuf| read(&p.with_extension("ckpt"));
    assert!(ck(&straight) == ck(&resumed), "checkpoints differ");
    // Another batch is refused, naming it.
    let out = dir().join("resumed.strat");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud",
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            dir().join("abstractions").to_str().unwrap(),
            "--batch",
            "65",
            "--iterations",
            "6",
            "--resume",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    assert!(e.contains("--batch"), "{e}");
}

#[test]
fn a_finished_solve_removes_its_checkpoint_unless_kept() {
    let out = dir().join("unkept.strat");
    let abst = dir().join("abstractions");
    let stdout = ok(&stud(
        &[
            "solve",
            "--game",
            "7stud",
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            abst.to_str().unwrap(),
            "--batch",
            "16",
            "--iterations",
            "2",
            "--checkpoint-every",
            "0",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    // Checkpoints were written along the way (every batch), none is left at the end.
    assert!(stdout.lines().count() > 1, "{stdout}");
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(v["checkpoint"]
        .as_str()
        .unwrap()
        .contains("--keep-checkpoint"));
    assert!(out.exists() && !out.with_extension("ckpt").exists());
    // The kept one is where the JSON says.
    let (kept, v) = strategy();
    assert_eq!(
        v["checkpoint"],
        kept.with_extension("ckpt").to_str().unwrap()
    );
    assert!(kept.with_extension("ckpt").exists());
}

#[test]
fn solve_refuses_what_the_real_games_cannot_do() {
    let e = err(&stud(
        &["solve", "--game", "razz", "--target-exploitability", "0.1"],
        "",
    ));
    assert!(
        e.contains("--target-exploitability") && e.contains("stud eval lbr"),
        "{e}"
    );
    let e = err(&stud(
        &["solve", "--game", "razz", "--abstraction", "lossless"],
        "",
    ));
    assert!(e.contains("lossless"), "{e}");
    let out = dir().join("none.strat");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "5stud",
            "--resume",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    assert!(e.contains("no checkpoint"), "{e}");
    let e = err(&stud(&["solve", "--game", "leduc"], ""));
    assert!(e.contains("when to stop"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "leduc",
            "--iterations",
            "3",
            "--batch",
            "4",
        ],
        "",
    ));
    assert!(e.contains("--batch is for the real games"), "{e}");
}
