//! `stud query --values` on the shipped seven-card stud files: estimated on third street with
//! intervals, repeated by its seed; exact on seventh street, the range's values its classes'
//! mixed by their shares; clear refusals. (The values themselves are checked against the exact
//! solver in `solver/src/values/tests.rs` and `solver/src/values/multiway/tests.rs`.) A table's
//! values and ranges (the three-handed file).

use crate::common;
use crate::explore_browser::shipped;

use common::{err, ok, stud};
use serde_json::Value;

/// The JSON answer of `stud query FILE SPOT --values ARGS --json`.
fn values(spot: &str, args: &[&str]) -> Value {
    let seven = shipped("7stud-hu.strat");
    let mut all = vec!["query", &seven, spot, "--values", "--json"];
    all.extend(args);
    serde_json::from_str(&ok(&stud(&all, ""))).expect("one JSON object")
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn third_street_values_are_estimated_with_intervals_the_same_for_a_seed() {
    let args = ["--hand", "As Kd", "--samples", "300", "--seed", "5"];
    let mut a = values("3c 8d pb", &args);
    assert_eq!(a["method"], "estimate");
    assert_eq!(a["street_name"], "3rd street");
    assert_eq!(a["action_names"][0], "fold");
    assert_eq!(a["samples"], 300);
    let hand = &a["hand"];
    assert_eq!(hand["cards"], "AsKd");
    let (chips, pm) = (numbers(&hand["chips"]), numbers(&hand["plus_minus"]));
    assert_eq!(chips.len(), a["actions"].as_array().unwrap().len());
    // A fold from here is worth nothing more, every time.
    assert_eq!((chips[0], pm[0]), (0.0, 0.0));
    assert!(pm[1..].iter().all(|&p| p > 0.0 && p < 20.0), "{pm:?}");
    let bb = numbers(&hand["big_bets"]);
    for (c, b) in chips.iter().zip(&bb) {
        assert!((c / 10.0 - b).abs() < 1e-12, "{chips:?} {bb:?}");
    }
    // One hand dealt: no range or class is estimated.
    assert!(a["range"].is_null() && a["classes"].as_array().unwrap().is_empty());
    // The same seed, the same values (on any number of threads).
    let mut b = values("3c 8d pb", &args);
    a["millis"] = Value::Null;
    b["millis"] = Value::Null;
    assert_eq!(a, b);
    // Without a hand: the range and the classes met, their shares those of the samples.
    let r = values("3c 8d pb", &["--samples", "300"]);
    assert_eq!(r["range"]["samples"], 300);
    let classes = r["classes"].as_array().unwrap();
    assert!(classes.len() >= 5, "{r}");
    let met: f64 = classes.iter().map(|c| c["share"].as_f64().unwrap()).sum();
    assert!(met > 0.95 && met <= 1.0 + 1e-12, "{met}");
}

#[test]
fn seventh_street_values_are_exact_and_the_range_s_are_its_classes_mixed() {
    let spot = "3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x";
    let v = values(spot, &["--hand", "As Kd 2s"]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["street_name"], "7th street");
    assert_eq!(v["action_names"], serde_json::json!(["check", "bet 10"]));
    assert!(v["hand"]["plus_minus"].is_null());
    assert_eq!(v["hand"]["samples"], 0);
    // Every holding is in a class: the range's value is theirs weighed by their shares.
    let range = numbers(&v["range"]["chips"]);
    let classes = v["classes"].as_array().unwrap();
    let holdings: u64 = classes
        .iter()
        .map(|c| c["holdings"].as_u64().unwrap())
        .sum();
    assert_eq!(holdings, 13_244, "C(44, 3) holdings of three down cards");
    for (a, want) in range.iter().enumerate() {
        let mixed: f64 = classes
            .iter()
            .map(|c| c["share"].as_f64().unwrap() * numbers(&c["chips"])[a])
            .sum();
        assert!((mixed - want).abs() < 1e-9, "action {a}: {mixed} vs {want}");
    }
    // The text answer says how the values were found.
    let seven = shipped("7stud-hu.strat");
    let out = ok(&stud(
        &["query", &seven, spot, "--hand", "As Kd 2s", "--values"],
        "",
    ));
    assert!(
        out.contains("exact: every holding") && out.contains("big bets"),
        "{out}"
    );
}

#[test]
fn values_refuse_what_they_cannot_answer_by_name() {
    let seven = shipped("7stud-hu.strat");
    let e = err(&stud(&["query", &seven, "", "--values"], ""));
    assert!(e.contains("door cards"), "{e}");
    let e = err(&stud(
        &["query", &seven, "3c 8d pb", "--values", "--hand", "As"],
        "",
    ));
    assert!(e.contains("1 down cards; p2 holds 2"), "{e}");
    let e = err(&stud(
        &["query", &seven, "3c 8d pb", "--values", "--hand", "3c As"],
        "",
    ));
    assert!(e.contains("3c is already dealt face up"), "{e}");
    let e = err(&stud(&["query", &seven, "3c 8d pb", "--samples", "50"], ""));
    assert!(e.contains("--values"), "{e}");
    let e = err(&stud(
        &["query", &seven, "3c 8d pb", "--values", "--samples", "1"],
        "",
    ));
    assert!(e.contains("--samples"), "{e}");
    let e = err(&stud(
        &["query", &seven, "3c 8d pb", "--values", "--ranges"],
        "",
    ));
    assert!(e.contains("cannot be used with"), "{e}");
}

#[test]
fn a_tables_values_are_estimated_from_every_seats_range_and_its_ranges_shown() {
    let three = shipped("7stud-3p.strat");
    let run = |args: &[&str]| -> Value {
        let mut all = vec!["query", &three];
        all.extend(args);
        all.push("--json");
        serde_json::from_str(&ok(&stud(&all, ""))).expect("one JSON object")
    };
    let args = [
        "3c 8d Kh pb",
        "--values",
        "--hand",
        "As Ad",
        "--samples",
        "200",
        "--seed",
        "5",
    ];
    let mut a = run(&args);
    assert_eq!(a["method"], "estimate");
    assert_eq!(
        (a["seats"].as_u64(), a["seat"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(a["live"], serde_json::json!([0, 1, 2]));
    let chips = numbers(&a["hand"]["chips"]);
    assert_eq!(chips[0], 0.0, "a fold from here is worth nothing more");
    // Aces against a bring-in and a king: calling is worth chips.
    assert!(chips[1] > 0.0, "{chips:?}");
    let mut b = run(&args);
    a.as_object_mut().unwrap().remove("millis");
    b.as_object_mut().unwrap().remove("millis");
    assert_eq!(a, b, "the same seed, the same values");

    // Without a hand: the range and its classes, the classes' shares summing to 1.
    let r = run(&["3c 8d Kh pb", "--values", "--samples", "200"]);
    let share: f64 = (r["classes"].as_array().unwrap().iter())
        .map(|c| c["share"].as_f64().unwrap())
        .sum();
    assert!(share <= 1.0 + 1e-9 && share > 0.9, "{share}");

    // p2 completed, p3 folded: the ranges of the two live seats, each summing to 1.
    let q = run(&["3c 8d Kh pb cbr5 f", "--ranges"]);
    let ranges = q["ranges"].as_array().unwrap();
    let seats: Vec<u64> = ranges.iter().map(|r| r["seat"].as_u64().unwrap()).collect();
    assert_eq!(seats, [0, 1]);
    for r in ranges {
        let total: f64 = (r["classes"].as_array().unwrap().iter())
            .map(|c| c["share"].as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{r}");
        assert_eq!(r["top"].as_array().unwrap().len(), 10);
    }

    let e = err(&stud(
        &[
            "query",
            &three,
            "3c 8d Kh pb",
            "--values",
            "--hand",
            "Kh As",
        ],
        "",
    ));
    assert!(e.contains("Kh is already dealt face up"), "{e}");
}
