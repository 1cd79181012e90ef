//! `stud query` on the shipped strategies, as a stud player reads it: streets by name, the
//! empty spot, the hand notations, actions in words, rounded and marked rows, the cap.

mod common;

use common::{ok, stud};
use serde_json::Value;
use std::path::PathBuf;

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
