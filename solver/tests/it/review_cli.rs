//! `stud review` on hands PokerKit dealt to bots with planted leaks (testdata/review, written by
//! scripts/review-bots.py; the other seats play the shipped strategy): the calling station is
//! flagged on its calls and not its bets, the over-aggressive player on its raises, the player
//! of the strategy's own most likely action shows no leak and no value lost on leaks; a
//! multiway file is judged by frequency; bad input is refused clearly; the page holds the hands.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;

/// A path of the repository, as a string.
fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .to_str()
        .unwrap()
        .to_string()
}

/// The JSON answer of `stud review FILES --hero Hero --strategies strategies/ ARGS --json`.
fn review(files: &[&str], args: &[&str]) -> Value {
    let strategies = repo("strategies");
    let files: Vec<String> = files
        .iter()
        .map(|f| repo(&format!("testdata/review/{f}")))
        .collect();
    let mut all = vec![
        "review",
        "--hero",
        "Hero",
        "--strategies",
        &strategies,
        "--json",
    ];
    all.extend(files.iter().map(String::as_str));
    all.extend(args);
    serde_json::from_str(&ok(&stud(&all, ""))).expect("one JSON object")
}

/// Every decision of the review, in order.
fn decisions(v: &Value) -> Vec<&Value> {
    let hands = v["hands"].as_array().unwrap();
    hands
        .iter()
        .flat_map(|h| h["decisions"].as_array().unwrap())
        .collect()
}

/// The decisions that are leaks, rare ones (`rare`) or losing ones (`losing`).
fn flagged<'a>(v: &'a Value, flag: &str) -> Vec<&'a Value> {
    decisions(v)
        .into_iter()
        .filter(|d| d[flag] == true)
        .collect()
}

fn action(d: &Value) -> &str {
    d["action"].as_str().unwrap()
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_calling_station_is_flagged_on_its_calls_not_its_bets() {
    let v = review(&["7stud-hu-call.phhs"], &[]);
    assert_eq!(v["summary"]["hands"], 12);
    assert_eq!(v["failed"].as_array().unwrap().len(), 0);
    let rare = flagged(&v, "rare");
    assert!(rare.len() >= 4, "{} rare decisions", rare.len());
    assert!(rare.iter().all(|d| action(d) == "call"), "rare: {rare:?}");
    let losing = flagged(&v, "losing");
    assert!(losing.len() >= 3, "{} losing decisions", losing.len());
    assert!(
        losing.iter().all(|d| action(d) == "call"),
        "losing: {losing:?}"
    );
    // Its bets are the strategy's own: none is a leak.
    let bets: Vec<&Value> = decisions(&v)
        .into_iter()
        .filter(|d| action(d) == "bet")
        .collect();
    assert!(!bets.is_empty());
    assert!(bets
        .iter()
        .all(|d| d["rare"] == false && d["losing"] == false));
    // The summary: calls lead the biggest leaks, and by action the calls hold every leak.
    let s = &v["summary"];
    assert_eq!(s["biggest"][0]["action"], "call");
    for g in s["by_action"].as_array().unwrap() {
        let leaks = g["leaks"].as_u64().unwrap();
        match g["action"].as_str().unwrap() {
            "call" => assert!(
                leaks >= 5 && g["leak_loss"].as_f64().unwrap() >= 10.0,
                "{g}"
            ),
            _ => assert_eq!(leaks, 0, "{g}"),
        }
    }
    // Estimated values, each with its interval, on every heads-up decision.
    for d in decisions(&v) {
        let values = &d["values"];
        assert_eq!(values["method"], "estimate", "{d}");
        assert!(values["loss"].as_f64().unwrap() >= 0.0);
        assert!(values["loss_plus_minus"].as_f64().is_some());
        let f: f64 = d["frequencies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .sum();
        assert!((f - 1.0).abs() < 1e-9, "{d}");
    }
}

#[test]
fn the_over_aggressive_player_is_flagged_on_its_raises() {
    let v = review(&["7stud-hu-raise.phhs"], &["--no-values"]);
    let rare = flagged(&v, "rare");
    let aggressive = |d: &&Value| matches!(action(d), "raise" | "bet" | "complete");
    let raises = rare.iter().filter(|d| aggressive(d)).count();
    assert!(
        raises >= 15,
        "{raises} of {} rare decisions aggressive",
        rare.len()
    );
    // It never folds, and calls only where it may not raise: almost every leak is aggression.
    assert!(raises * 10 >= rare.len() * 9, "{raises} of {}", rare.len());
    assert!(rare.iter().all(|d| action(d) != "fold"));
    assert!(decisions(&v).iter().all(|d| d["values"].is_null()));
    let raise = (v["summary"]["by_action"].as_array().unwrap().iter())
        .find(|g| g["action"] == "raise")
        .unwrap();
    assert!(raise["mean_frequency"].as_f64().unwrap() < 0.25, "{raise}");
}

#[test]
fn the_strategys_own_most_likely_action_shows_no_leak_and_no_loss_on_leaks() {
    let v = review(&["7stud-hu-sound.phhs"], &[]);
    let all = &v["summary"]["all"];
    assert_eq!(all["leaks"], 0, "{all}");
    assert_eq!(all["leak_loss"], 0.0);
    for d in decisions(&v) {
        assert_eq!(d["taken"], d["preferred"], "{d}");
        // The noise of the estimate alone: the taken action's interval covers the best value.
        let values = &d["values"];
        let loss = values["loss"].as_f64().unwrap();
        assert!(
            loss <= values["loss_plus_minus"].as_f64().unwrap() + 1e-9,
            "{d}"
        );
    }
    // Razz from the same directory, by frequency: never a rare action (its most likely one is
    // at least a third of the strategy's play with three actions or fewer).
    let v = review(&["razz-hu-sound.phhs"], &["--no-values"]);
    assert_eq!(v["summary"]["all"]["rare"], 0);
    let files: Vec<&str> = (v["hands"].as_array().unwrap().iter())
        .map(|h| h["strategy"].as_str().unwrap())
        .collect();
    assert!(
        files.iter().all(|f| f.ends_with("razz-hu.strat")),
        "{files:?}"
    );
}

#[test]
fn a_multiway_file_judges_by_frequency_and_says_so() {
    let v = review(&["7stud-3p-call.phhs"], &[]);
    let hands = v["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 12);
    for h in hands {
        assert_eq!(h["seats"], 3);
        assert!(h["strategy"].as_str().unwrap().ends_with("7stud-3p.strat"));
        assert!(
            h["no_values"].as_str().unwrap().contains("frequency"),
            "{h}"
        );
    }
    let rare = flagged(&v, "rare");
    assert!(rare.len() >= 4);
    assert!(rare.iter().all(|d| action(d) == "call"), "{rare:?}");
    assert!(decisions(&v)
        .iter()
        .all(|d| d["values"].is_null() && d["losing"] == false));
}

#[test]
fn a_seat_a_single_hand_file_and_the_text_summary() {
    // One hand of the never-fold-on-seventh player, as a PHH file of its own, hero by seat.
    let text = std::fs::read_to_string(repo("testdata/review/7stud-hu-no-fold-7th.phhs")).unwrap();
    let hand = text
        .split("[10]\n")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("stud-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("seventh.phh");
    std::fs::write(&file, hand).unwrap();
    let seat = if hand.contains("players = ['Hero'") {
        "p1"
    } else {
        "p2"
    };
    let strategies = repo("strategies");
    let args = [
        "review",
        file.to_str().unwrap(),
        "--hero",
        seat,
        "--strategies",
        &strategies,
    ];
    let out = ok(&stud(&args, ""));
    assert!(out.contains("1 hands"), "{out}");
    assert!(
        out.contains("Biggest leaks\n  7th street, facing a bet: call"),
        "{out}"
    );
    assert!(out.contains("(strategy: fold"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_naming_what_and_where() {
    let strategies = repo("strategies");
    let call = repo("testdata/review/7stud-hu-call.phhs");
    let run = |args: &[&str]| {
        let mut all = vec!["review", "--strategies", &strategies];
        all.extend(args);
        err(&stud(&all, ""))
    };
    let e = run(&[&call, "--hero", "Villain"]);
    assert!(e.contains("[1]: no player named \"Villain\""), "{e}");
    assert!(
        e.contains("players: Hero, Bot2") || e.contains("players: Bot1, Hero"),
        "{e}"
    );
    assert!(e.contains("12 of 12 hands could not be reviewed"), "{e}");
    let e = run(&[&call, "--hero", "p3"]);
    assert!(
        e.contains("the hero p3 is not at this table of 2 seats"),
        "{e}"
    );
    let e = run(&[&call, "--hero", "p9"]);
    assert!(e.contains("p9 is no seat"), "{e}");
    // Six-handed razz: no file of the directory plays it.
    let razz = repo("testdata/pokerkit/fr/0.phh");
    let e = run(&[&razz, "--hero", "p1", "--no-values"]);
    assert!(e.contains("no strategy for razz at 6 seats"), "{e}");
    assert!(e.contains("give one with --strategy"), "{e}");
    // A heads-up razz hand against a seven-card stud file given.
    let seven = repo("strategies/7stud-hu.strat");
    let e = err(&stud(
        &[
            "review",
            &repo("testdata/review/razz-hu-call.phhs"),
            "--hero",
            "Hero",
            "--strategy",
            &seven,
        ],
        "",
    ));
    assert!(
        e.contains("no strategy for razz at 2 seats: the strategies given hold"),
        "{e}"
    );
    // A malformed hand: its file and line.
    let dir = std::env::temp_dir().join(format!("stud-review-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.phhs");
    std::fs::write(
        &bad,
        "[1]\nvariant = 'F7S'\nantes = [1, 1]\nbring_in = two\n",
    )
    .unwrap();
    let e = run(&[bad.to_str().unwrap(), "--hero", "p1"]);
    assert!(e.contains("bad.phhs [1]: line 4"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    let e = run(&[&repo("testdata/review/no-such.phhs"), "--hero", "p1"]);
    assert!(e.contains("no-such.phhs"), "{e}");
}
