//! `stud aggregate`: each cell is the strategy of `stud query --ranges` at the cell's spot,
//! summed over the player's holdings (weighed by its range there); the help examples run on the
//! shipped files (slow: every pair of door cards).

use crate::common;
use crate::explore_browser::shipped;

use abstraction::cards::Card;
use common::{ok, stud};
use serde_json::Value;
use solver::aggregate::{cells_of, Spot};
use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// `stud query FILE SPOT --ranges --json`'s rows of the player to act (p2), each with its
/// holdings and p2's mean reach over them: the frequencies of its actions, weighed by reach.
fn query_frequencies(file: &str, spot: &str) -> (Vec<String>, Vec<f64>) {
    let q: Value =
        serde_json::from_str(&ok(&stud(&["query", file, spot, "--ranges", "--json"], ""))).unwrap();
    assert_eq!(q["seat"], 1, "{spot}");
    let names: Vec<String> = (q["action_names"].as_array().unwrap().iter())
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let reach: Vec<(u64, f64, u64)> = (q["ranges"][1]["buckets"].as_array().unwrap().iter())
        .map(|b| {
            let (n, r) = (
                b["holdings"].as_u64().unwrap(),
                b["reach"].as_f64().unwrap(),
            );
            (b["bucket"].as_u64().unwrap(), r, n)
        })
        .collect();
    let mut sum = vec![0.0; names.len()];
    let mut total = 0.0;
    for (bucket, r, n) in reach {
        let w = r * n as f64;
        let probs = numbers(&q["hands"][bucket as usize]["probabilities"]);
        for (s, p) in sum.iter_mut().zip(&probs) {
            *s += w * p;
        }
        total += w;
    }
    (names, sum.iter().map(|s| s / total).collect())
}

#[test]
fn a_cell_is_the_query_s_rows_summed_over_the_player_s_range() {
    let file = shipped("7stud-hu.strat");
    let f = StrategyFile::open(std::path::Path::new(&file)).unwrap();
    let player = StrategyPlayer::open(&file, f.game())
        .unwrap()
        .with_purification(Purification::Mixed);
    let card = |s: &str| s.parse::<Card>().unwrap();
    // The 8d facing the 3c's bring-in: fold, call, complete over every holding alike.
    let cells = cells_of(&player, card("8d"), card("3c")).unwrap();
    assert_eq!(cells.len(), 1);
    let c = &cells[0];
    assert_eq!((c.spot, c.query.as_str()), (Spot::First, "3c 8d pb"));
    assert_eq!(c.holdings, 1225, "C(50, 2) holdings");
    let (names, want) = query_frequencies(&file, &c.query);
    assert_eq!(names, ["fold", "call 2", "complete to 5"]);
    let got = [c.frequencies[0], c.frequencies[2], c.frequencies[3]];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
    }
    assert_eq!((c.frequencies[1], c.frequencies[4]), (0.0, 0.0));
    // The 3d brings in against the Kc, which completes: fold, call, raise over the holdings
    // weighed by how likely the bring-in was with each.
    let cells = cells_of(&player, card("3d"), card("Kc")).unwrap();
    assert_eq!(cells.len(), 2);
    assert_eq!(cells[0].query, "Kc 3d");
    let first = cells[0].frequencies;
    assert!(
        (first[1] + first[3] - 1.0).abs() < 1e-9,
        "bring in or complete: {first:?}"
    );
    let c = &cells[1];
    assert_eq!(
        (c.spot, c.query.as_str()),
        (Spot::FacingCompletion, "Kc 3d pb cbr5")
    );
    let (names, want) = query_frequencies(&file, &c.query);
    assert_eq!(names, ["fold", "call 3", "raise to 10"]);
    let got = [c.frequencies[0], c.frequencies[2], c.frequencies[4]];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
    }
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_help_examples_run_on_the_shipped_files() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let help = ok(&stud(&["aggregate", "--help"], ""));
    let mut ran = 0;
    for line in help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("stud aggregate "))
    {
        let args: Vec<String> = line["stud ".len()..]
            .split_whitespace()
            .map(|a| match a.strip_prefix("strategies/") {
                Some(f) => root
                    .join("strategies")
                    .join(f)
                    .to_str()
                    .unwrap()
                    .to_string(),
                None => a.replace("/tmp/", &format!("{}/", std::env::temp_dir().display())),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&stud(&args, ""));
        assert!(!out.is_empty(), "{line}");
        if line.contains("--csv") {
            // A header and a line per spot and pair of doors: 169 first decisions, and a
            // completion faced wherever the player's door brought in: razz's 91 (the higher
            // rank, and the diamond above the club on equal ranks).
            let faced = if line.contains("razz") { 91 } else { 78 };
            assert_eq!(out.lines().count(), 1 + 169 + faced, "{line}");
        }
        if line.contains("--svg") {
            let svg = std::env::temp_dir().join("third-street.svg");
            let text = std::fs::read_to_string(&svg).unwrap();
            assert!(text.starts_with("<svg") && text.matches("<rect").count() > 300);
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["cells"].as_array().unwrap().len(), 169 + 78);
        }
        ran += 1;
    }
    assert!(ran >= 3, "{ran} examples in\n{help}");
}
