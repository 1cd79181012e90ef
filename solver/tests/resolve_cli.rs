//! `stud query --resolve` on the shipped strategies: the last street re-solved, the re-solved
//! policy beside the blueprint's, the subgame's report; spots it cannot re-solve refused.

mod common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;

fn shipped(file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../strategies")
        .join(file)
        .to_str()
        .unwrap()
        .to_string()
}

/// Seventh street of seven-card stud, checked through: seat 0 (showing 3c Qs 4d 9c) to act.
const SEVENTH: &str = "3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x";

fn resolve_json(file: &str, spot: &str, hand: &str, iterations: &str) -> Value {
    let out = ok(&stud(
        &[
            "query",
            &shipped(file),
            spot,
            "--hand",
            hand,
            "--resolve",
            "--iterations",
            iterations,
            "--json",
        ],
        "",
    ));
    serde_json::from_str(&out).expect("one JSON object")
}

fn probabilities(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn the_last_street_is_re_solved_beside_the_blueprint() {
    for (file, spot, hand, hands) in [
        ("7stud-hu.strat", SEVENTH, "As Kd 2s", 13_244),
        (
            "5stud-hu.strat",
            "3c 8d pb cc 9h Ts x x 2c Jd x x 4h 5h",
            "As",
            44,
        ),
    ] {
        let v = resolve_json(file, spot, hand, "5");
        let (blue, re) = (
            probabilities(&v["blueprint"]),
            probabilities(&v["resolved"]),
        );
        assert_eq!(blue.len(), v["actions"].as_array().unwrap().len());
        assert_eq!(re.len(), blue.len());
        for p in [&blue, &re] {
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{v}");
        }
        let sub = &v["subgame"];
        assert_eq!(sub["hands"], hands, "{v}");
        assert_eq!(sub["iterations"], 5);
        assert!(sub["exploitability"].as_f64().unwrap() >= -1e-9, "{v}");
        assert_eq!(v["budget"]["iterations"], 5);
    }
    let text = ok(&stud(
        &[
            "query",
            &shipped("7stud-hu.strat"),
            SEVENTH,
            "--hand",
            "As Kd 2s",
            "--resolve",
            "--iterations",
            "2",
        ],
        "",
    ));
    assert!(
        text.contains("7th street") && text.contains("re-solved"),
        "{text}"
    );
    assert!(text.contains("exploitability in the subgame"), "{text}");
}

#[test]
fn spots_re_solving_cannot_answer_are_refused_clearly() {
    let seven = shipped("7stud-hu.strat");
    let e = err(&stud(
        &["query", &seven, "3c 8d pb", "--hand", "As Kd", "--resolve"],
        "",
    ));
    assert!(e.contains("re-solves the last street"), "{e}");
    let e = err(&stud(&["query", &seven, SEVENTH, "--resolve"], ""));
    assert!(e.contains("--hand"), "{e}");
    let e = err(&stud(
        &["query", &seven, SEVENTH, "--hand", "As Kd 9c", "--resolve"],
        "",
    ));
    assert!(
        e.contains("already dealt face up") || e.contains("9c"),
        "{e}"
    );
    let e = err(&stud(
        &[
            "query",
            &seven,
            SEVENTH,
            "--hand",
            "As Kd 2s",
            "--iterations",
            "3",
        ],
        "",
    ));
    assert!(e.contains("--resolve"), "{e}");
    let e = err(&stud(
        &[
            "query",
            &shipped("stud8-hu.strat"),
            SEVENTH,
            "--hand",
            "As Kd 2s",
            "--resolve",
        ],
        "",
    ));
    assert!(e.contains("not implemented"), "{e}");
}
