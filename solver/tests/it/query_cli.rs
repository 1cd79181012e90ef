//! `stud query` on the shipped strategies, as a stud player reads it: streets by name, the
//! empty spot, the hand notations, actions in words, rounded and marked rows, the cap.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;

/// Seat 1 facing the bring-in.
const FACING_BRING_IN: &str = "3c 8d pb";

/// A shipped strategy file, as a path string.
fn shipped(file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../strategies")
        .join(file)
        .to_str()
        .unwrap()
        .to_string()
}

/// The JSON of a query that must succeed.
fn query_json(args: &[&str]) -> Value {
    let mut all = vec!["query"];
    all.extend(args);
    all.push("--json");
    serde_json::from_str(&ok(&stud(&all, ""))).expect("one JSON object")
}

#[test]
fn streets_are_named_as_players_say_them() {
    let seven = shipped("7stud-hu.strat");
    let out = ok(&stud(&["query", &seven, "3c 8d pb", "--hand", "As Kd"], ""));
    assert!(out.contains("3rd street"), "{out}");
    let out = ok(&stud(
        &["query", &seven, "3c 8d pb cc 9h Ts", "--hand", "As Kd"],
        "",
    ));
    assert!(
        out.contains("4th street") && !out.contains("street 1"),
        "{out}"
    );
    let v = query_json(&[&seven, "3c 8d pb cc 9h Ts", "--hand", "As Kd"]);
    assert_eq!(v["street_name"], "4th street", "{v}");
    let five = shipped("5stud-hu.strat");
    let out = ok(&stud(&["query", &five, "3c 8d", "--hand", "As"], ""));
    assert!(out.contains("2nd street"), "{out}");
}

#[test]
fn the_empty_spot_is_the_first_decision() {
    let seven = shipped("7stud-hu.strat");
    let v = query_json(&[&seven]);
    assert_eq!(v["street_name"], "3rd street", "{v}");
    assert_eq!(v["actions"], serde_json::json!(["pb", "cbr5"]));
    assert_eq!(
        v["action_names"],
        serde_json::json!(["bring in for 2", "complete to 5"])
    );
    assert_eq!(v["hands"].as_array().unwrap().len(), 128);
    let out = ok(&stud(&["query", &seven], ""));
    assert!(out.starts_with("the first decision on 3rd street"), "{out}");
    // A hand needs the up cards to find its bucket.
    let e = err(&stud(&["query", &seven, "", "--hand", "AsKd"], ""));
    assert!(e.contains("give the door cards"), "{e}");
}

#[test]
fn hands_are_read_in_every_notation_and_repeats_refused() {
    let seven = shipped("7stud-hu.strat");
    let spot = "3c 8d pb";
    let row = |hand: &str| query_json(&[&seven, spot, "--hand", hand])["hands"][0].clone();
    let spaced = row("As Kd");
    assert_eq!(row("AsKd"), spaced);
    assert_eq!(row("(As Kd) 8d"), spaced);
    assert_eq!(spaced["hand"], "(AsKd) 8d");
    let fails = |hand: &str| err(&stud(&["query", &seven, spot, "--hand", hand], ""));
    assert!(fails("(As Kd) 9d").contains("not the ones the spot dealt p2 (8d)"));
    assert!(fails("(As As) 8d").contains("As appears twice"));
    assert!(fails("(As 8d) 8d").contains("8d appears twice"));
    assert!(fails("(As Kd 8d").contains("without its `)`"));
    assert!(fails("As 3c").contains("already dealt face up"));
}

#[test]
fn answers_in_words_rounded_aligned_and_marked() {
    let seven = shipped("7stud-hu.strat");
    let out = ok(&stud(&["query", &seven, "3c 8d pb"], ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[2].starts_with("bucket  holds  e.g."), "{out}");
    assert!(lines[2].ends_with("fold  call 2  complete to 5"), "{out}");
    // Every row as long as the header: one table, aligned.
    let table: Vec<&str> = lines[2..]
        .iter()
        .take_while(|l| !l.starts_with('('))
        .copied()
        .collect();
    assert!(table.len() > 5, "{out}");
    for l in &table[1..] {
        let cols = l.trim_end_matches("  unreached");
        assert_eq!(cols.len(), table[0].len(), "{l:?} in\n{out}");
        // Three decimals, never the storage's 1/255 steps in full.
        assert!(cols.ends_with(|c: char| c.is_ascii_digit()), "{l}");
        assert!(!cols.contains("0.0392156"), "{l}");
    }
    assert!(
        out.contains("buckets hold none of p2's hands here"),
        "{out}"
    );
    // The bucket of the As Kd in the holdings of its row.
    let v = query_json(&[&seven, FACING_BRING_IN, "--hand", "AsKd"]);
    let b = v["hands"][0]["bucket"].as_u64().unwrap() as usize;
    let all = query_json(&[&seven, FACING_BRING_IN]);
    assert!(all["hands"][b]["holdings"].as_u64().unwrap() > 0, "{all}");
    // Rows the solve never reached are marked, in text and JSON.
    let marked: Vec<&Value> = all["hands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["unreached"] == true)
        .collect();
    assert!(!marked.is_empty());
    for h in marked {
        let p = h["probabilities"].as_array().unwrap();
        assert!(
            (p[0].as_f64().unwrap() - 1.0 / p.len() as f64).abs() < 0.01,
            "{h}"
        );
    }
    let first = ok(&stud(&["query", &seven], ""));
    assert!(first.contains("  unreached"), "{first}");
}

#[test]
fn a_spot_past_the_cap_is_answered() {
    let seven = shipped("7stud-hu.strat");
    let spot = "3c 8d pb cbr5 cbr10 cbr15 cbr20 cbr25";
    let out = ok(&stud(&["query", &seven, spot], ""));
    assert!(out.contains("past the strategy's cap of 4 bets"), "{out}");
    assert!(out.contains("call 5"), "{out}");
    let v = query_json(&[&seven, spot, "--hand", "AsKd"]);
    assert_eq!(v["capped"], true);
    assert_eq!(v["actions"], serde_json::json!(["cc"]));
    assert_eq!(v["hands"][0]["probabilities"], serde_json::json!([1.0]));
}

/// The multiway file the help examples name (`solves/7stud-3p.strat`), solved here in a few
/// iterations.
fn three_seat_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-query-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("7stud-3p.strat");
    let abst = dir.join("abstractions");
    ok(&stud(
        &[
            "solve",
            "--game",
            "7stud-3p",
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            abst.to_str().unwrap(),
            "--iterations",
            "2",
            "--batch",
            "12",
            "--keep-checkpoint",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    ));
    out
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_help_examples_run() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let multiway = three_seat_file();
    for (command, at_least) in [("query", 6), ("info", 4)] {
        let help = ok(&stud(&[command, "--help"], ""));
        let mut ran = 0;
        let prefix = format!("stud {command} ");
        // The solve an example's file comes from runs too (its file into a scratch folder).
        for line in help.lines().map(str::trim).filter(|l| {
            l.starts_with(&prefix) || (command == "query" && l.starts_with("stud solve "))
        }) {
            let args = shell_words(&line["stud ".len()..]);
            let args: Vec<String> = args
                .into_iter()
                .map(|a| match (a.strip_prefix("strategies/"), a.as_str()) {
                    (Some(f), _) => root
                        .join("strategies")
                        .join(f)
                        .to_str()
                        .unwrap()
                        .to_string(),
                    (None, "solves/7stud-3p.strat") => multiway.to_str().unwrap().to_string(),
                    (None, "solves/7stud-3p.ckpt") => multiway
                        .with_extension("ckpt")
                        .to_str()
                        .unwrap()
                        .to_string(),
                    (None, "leduc3.json") => multiway
                        .with_file_name("leduc3.json")
                        .to_str()
                        .unwrap()
                        .to_string(),
                    _ => a,
                })
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            ok(&stud(&args, ""));
            ran += 1;
        }
        assert!(ran >= at_least, "{help}");
    }
}

/// Splits a command line on spaces, keeping double-quoted words whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[test]
fn buckets_are_described_by_hand_class_and_ehs() {
    let seven = shipped("7stud-hu.strat");
    let out = ok(&stud(&["query", &seven, FACING_BRING_IN], ""));
    assert!(out.contains("EHS  hand classes"), "{out}");
    // The rolled-up eights fall in a bucket of their own here, described as what they are.
    let all = query_json(&[&seven, FACING_BRING_IN]);
    let trips = query_json(&[&seven, FACING_BRING_IN, "--hand", "8s8h"]);
    let hand = &trips["hands"][0];
    assert_eq!(hand["description"], "rolled-up trips", "{hand}");
    let b = hand["bucket"].as_u64().unwrap() as usize;
    let row = &all["hands"][b];
    assert_eq!(row["ehs"], hand["ehs"], "{row}");
    assert!(row["ehs"].as_f64().unwrap() > 0.8, "{row}");
    let shares = row["classes"].as_array().unwrap();
    assert_eq!(shares[0]["class"], "rolled-up trips", "{row}");
    let total: f64 = shares.iter().map(|s| s["share"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{row}");
    // Razz speaks of low cards, hi-lo of both, on later streets too.
    let razz = query_json(&[&shipped("razz-hu.strat"), "Kc 3d pb cc 5h 9d"]);
    assert!(razz.to_string().contains("four to a"), "{razz}");
    let hilo = query_json(&[&shipped("stud8-hu.strat"), "Kc 3d pb cc 5h 9d"]);
    assert!(hilo.to_string().contains("no pair, low draw"), "{hilo}");
    assert!(hilo["hands"][0]["low_chance"].is_number(), "{hilo}");
    // The empty spot describes the buckets over sampled deals of third street.
    let first = query_json(&[&seven]);
    assert!(first["hands"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["ehs"].is_number() && h["description"].is_string()));
}

#[test]
fn ranges_are_printed_by_hand_class_and_refused_where_undefined() {
    let seven = shipped("7stud-hu.strat");
    let spot = "3c 8d pb cc Qs 2h cc cbr5";
    let out = ok(&stud(&["query", &seven, spot, "--ranges"], ""));
    for part in [
        "by hand class (the mean of the rows of each class's holdings):",
        "p1's range reaching the spot: the betting so far has probability",
        "p2's range reaching the spot",
        "hand class               holds   reach  share",
    ] {
        assert!(out.contains(part), "{part}: {out}");
    }
    // Past the cap the chart is the call of every class; the ranges are still replayed.
    let capped = "3c 8d pb cbr5 cbr10 cbr15 cbr20 cbr25";
    let v = query_json(&[&seven, capped, "--ranges"]);
    let rows = v["chart"]["rows"].as_array().unwrap();
    assert!(rows
        .iter()
        .filter(|r| r["holdings"].as_u64() > Some(0))
        .all(|r| r["probabilities"] == serde_json::json!([1.0])));
    assert!(v["ranges"][0]["reach"].as_f64().unwrap() < 1.0);
    // Where a range is not defined: no up cards, one hand, a public-tree file.
    let e = err(&stud(&["query", &seven, "", "--ranges"], ""));
    assert!(e.contains("--ranges needs the up cards"), "{e}");
    let e = err(&stud(
        &["query", &seven, "3c 8d", "--ranges", "--hand", "AsKd"],
        "",
    ));
    assert!(e.contains("--hand"), "{e}");
    let dir = std::env::temp_dir().join(format!("stud-query-ranges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kuhn = dir.join("kuhn.strat");
    let kuhn = kuhn.to_str().unwrap();
    ok(&stud(
        &[
            "solve",
            "--game",
            "kuhn",
            "--iterations",
            "10",
            "--out",
            kuhn,
        ],
        "",
    ));
    let e = err(&stud(&["query", kuhn, "", "--ranges"], ""));
    assert!(e.contains("--ranges reads a real game's strategy"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--play` (and `FILE:PLAY`, as `stud match` reads a player) prints each row as a player plays
/// it: the stored rows thresholded or purified, the JSON saying how; refused beside the
/// answers that read the rows as stored.
#[test]
fn rows_are_printed_as_played_when_asked() {
    let probs = |v: &Value| -> Vec<Vec<f64>> {
        v["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let p = h["probabilities"].as_array().unwrap();
                p.iter().map(|x| x.as_f64().unwrap()).collect()
            })
            .collect()
    };
    let file = shipped("7stud-hu.strat");
    let spot = "3c 8d pb cc | Qs 2h x b";
    let stored = query_json(&[&file, spot]);
    assert_eq!(stored["play"], "mixed");
    let pure = query_json(&[&file, spot, "--play", "pure"]);
    assert_eq!(pure["play"], "pure");
    let suffixed = query_json(&[&format!("{file}:pure"), spot]);
    assert_eq!(suffixed, pure, "FILE:pure and --play pure answer alike");
    let thresholded = query_json(&[&file, spot, "--play", "threshold=0.3"]);
    assert_eq!(thresholded["play"], "threshold=0.3");
    let (stored, pure, thresholded) = (probs(&stored), probs(&pure), probs(&thresholded));
    assert!(stored.len() > 10, "every bucket's row");
    let mut mixed_rows = 0;
    for ((s, p), t) in stored.iter().zip(&pure).zip(&thresholded) {
        let max = s.iter().copied().fold(0.0, f64::max);
        let best = s.iter().position(|&x| x == max).unwrap();
        let ties = s.iter().filter(|&&x| x == max).count();
        if ties == 1 {
            let want: Vec<f64> = (0..s.len()).map(|a| f64::from(a == best)).collect();
            assert_eq!(p, &want, "pure plays the likeliest action of {s:?}");
        }
        let kept: f64 = s.iter().filter(|&&x| x >= 0.3).sum();
        for (a, (&x, &y)) in s.iter().zip(t).enumerate() {
            let want = if x >= 0.3 { x / kept } else { 0.0 };
            assert!((y - want).abs() < 1e-9, "action {a} of {s:?} at 0.3: {t:?}");
        }
        mixed_rows += usize::from(s.iter().filter(|&&x| x > 0.0).count() > 1);
    }
    assert!(
        mixed_rows > 0,
        "no stored row mixes: the test shows nothing"
    );
    // A multiway file, as its shipped README says to play it.
    let four = shipped("7stud-4p.strat");
    let q = query_json(&[&format!("{four}:pure"), "3c 8d Kh 2s pb", "--hand", "As Ad"]);
    let row = &probs(&q)[0];
    assert_eq!(q["play"], "pure");
    assert_eq!(row.iter().filter(|&&x| x == 1.0).count(), 1, "{q}");
    let text = ok(&stud(
        &["query", &four, "3c 8d Kh 2s pb", "--play", "pure"],
        "",
    ));
    assert!(text.contains("played pure: each row as"), "{text}");
    assert!(
        text.contains("every other live opponent's up cards"),
        "{text}"
    );
    // Refused where the rows are read as stored, or the way given twice.
    let e = err(&stud(
        &["query", &format!("{file}:pure"), spot, "--ranges"],
        "",
    ));
    assert!(e.contains("read the rows as stored"), "{e}");
    let e = err(&stud(
        &["query", &format!("{file}:pure"), spot, "--play", "pure"],
        "",
    ));
    assert!(e.contains("given twice"), "{e}");
    let e = err(&stud(&["query", &file, spot, "--play", "threshold=2"], ""));
    assert!(e.contains("between 0 and 1"), "{e}");
    // A way of playing misspelt after the file is named, not taken for a missing file.
    let e = err(&stud(&["query", &format!("{file}:purest"), spot], ""));
    assert!(
        e.contains(":purest") && e.contains("mixed, pure or threshold=T"),
        "{e}"
    );
}

#[test]
fn a_tables_values_take_fewer_samples_unless_asked() {
    // A sample deals and plays the whole table: at five seats 700 of them unless asked (2000
    // heads-up and at three), so that a table's values come about as fast as three seats'.
    let five = shipped("7stud-5p.strat");
    let spot = "3c 8d Kh 2s 5d pb";
    let v = query_json(&[&five, spot, "--hand", "As Ad", "--values"]);
    assert_eq!(
        (&v["method"], &v["samples"]),
        (&"estimate".into(), &700.into())
    );
    let v = query_json(&[
        &five,
        spot,
        "--hand",
        "As Ad",
        "--values",
        "--samples",
        "50",
    ]);
    assert_eq!(v["samples"], 50);
}
