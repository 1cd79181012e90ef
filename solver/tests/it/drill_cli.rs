//! `stud play --train` through the built binary, driven by scripted input: each decision's
//! judgement agrees with `stud query` at its spot (the coach's row for the hand, the exact
//! values on the last streets), a loss is the best value less the chosen one's, and the score
//! adds up its decisions.

use crate::common::{ok, stud, text};
use crate::explore_browser::shipped;
use serde_json::Value;

/// A JSON list of numbers.
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn train_judges_each_decision_as_query_values_it_and_adds_the_score() {
    let seven = shipped("7stud-hu.strat");
    // Always the second choice (call, bet or raise, never a fold): a hand to seventh street.
    let args = [
        "play",
        &seven,
        "--train",
        "--json",
        "--hands",
        "1",
        "--samples",
        "40",
        "--seed",
        "9",
    ];
    let out = ok(&stud(&args, &"2\n".repeat(60)));
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (score, decisions) = lines.split_last().unwrap();
    assert_eq!(score["kind"], "score");
    let mut exact = 0;
    let (mut total, mut agreed) = (0.0, 0);
    for d in decisions {
        assert_eq!(d["kind"], "decision");
        let (values, freqs) = (numbers(&d["values"]), numbers(&d["frequencies"]));
        let k = d["actions"].as_array().unwrap().len();
        assert_eq!((values.len(), freqs.len()), (k, k), "{d}");
        let (chosen, best) = (
            d["chosen"].as_u64().unwrap() as usize,
            d["best"].as_u64().unwrap() as usize,
        );
        assert_eq!(chosen, 1, "the second choice was typed: {d}");
        let top = values.iter().cloned().fold(f64::MIN, f64::max);
        assert_eq!(values[best], top, "{d}");
        let loss = d["loss"].as_f64().unwrap();
        // (serde_json's parse may be an ulp off the value printed.)
        assert!((loss - (top - values[chosen])).abs() < 1e-9, "{d}");
        assert!(loss >= 0.0);
        if chosen == best {
            assert_eq!(loss, 0.0);
        }
        assert!((d["loss_big_bets"].as_f64().unwrap() - loss / 10.0).abs() < 1e-9);
        total += loss;
        agreed += usize::from(freqs[chosen] >= 0.1);
        // The coach's row for these cards, as `stud query --hand` reads it.
        let (spot, down) = (d["spot"].as_str().unwrap(), d["down"].as_str().unwrap());
        let q: Value = serde_json::from_str(&ok(&stud(
            &["query", &seven, spot, "--hand", down, "--json"],
            "",
        )))
        .unwrap();
        assert_eq!(q["seat"], d["seat"], "{spot}");
        // Its actions are the tree's: a legal action the tree lacks has probability 0.
        let row = numbers(&q["hands"][0]["probabilities"]);
        let codes = d["actions"].as_array().unwrap();
        for (a, code) in codes.iter().enumerate() {
            let at = q["actions"]
                .as_array()
                .unwrap()
                .iter()
                .position(|c| c == code);
            let want = at.map_or(0.0, |i| row[i]);
            assert!((freqs[a] - want).abs() < 1e-12, "{spot} {code}: {want}");
        }
        if d["method"] == "exact" {
            exact += 1;
            // The exact values, as `stud query --values` finds them.
            let v: Value = serde_json::from_str(&ok(&stud(
                &["query", &seven, spot, "--values", "--hand", down, "--json"],
                "",
            )))
            .unwrap();
            for (x, y) in numbers(&v["hand"]["chips"]).iter().zip(&values) {
                assert!((x - y).abs() < 1e-9, "{spot}: {v} against {d}");
            }
            assert!(d["loss_plus_minus"].is_null() && d["plus_minus"].is_null());
        } else {
            assert_eq!(d["samples"], 40);
            let pm = d["loss_plus_minus"].as_f64().unwrap();
            assert!(pm >= 0.0 && (chosen != best || pm == 0.0), "{d}");
        }
    }
    assert!(exact >= 2, "no decision on the last streets: {out}");
    // The score: its decisions, their total and mean, the share the coach plays, the worst.
    let n = decisions.len();
    assert_eq!(score["decisions"].as_u64().unwrap() as usize, n);
    assert!((score["total_loss"].as_f64().unwrap() - total).abs() < 1e-9);
    assert!((score["mean_loss"].as_f64().unwrap() - total / n as f64).abs() < 1e-9);
    let mbb = score["mean_loss_mbb"].as_f64().unwrap();
    assert!(
        (mbb - 100.0 * total / n as f64).abs() < 1e-6,
        "a big bet is 10 chips"
    );
    assert_eq!(score["agreed"].as_u64().unwrap() as usize, agreed);
    let worst = numbers(
        &score["worst"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["loss"].clone())
            .collect(),
    );
    assert!(
        worst.len() <= 5 && worst.windows(2).all(|w| w[0] >= w[1]),
        "{score}"
    );
    let mut losses: Vec<f64> = decisions
        .iter()
        .map(|d| d["loss"].as_f64().unwrap())
        .filter(|&l| l > 0.0)
        .collect();
    losses.sort_by(|a, b| b.total_cmp(a));
    losses.truncate(5);
    assert_eq!(worst, losses);
}

#[test]
fn train_talks_in_words_and_shows_the_score_on_demand() {
    let seven = shipped("7stud-hu.strat");
    let out = stud(
        &[
            "play",
            "call",
            "--game",
            "7stud",
            "--train",
            "--coach",
            &seven,
            "--hands",
            "1",
            "--samples",
            "20",
            "--seed",
            "4",
        ],
        "2\ns\n2\n2\n2\n2\n2\n",
    );
    let stdout = ok(&out);
    for want in [
        "coach (",
        "values from here in chips (estimated from 20 deals, ± 95%)",
        "values from here in chips (exact)",
        "you chose ",
        "(? s q) >",
    ] {
        assert!(stdout.contains(want), "{want}: {stdout}");
    }
    // Once on `s`, once at the end.
    assert_eq!(stdout.matches("training score: ").count(), 2, "{stdout}");
    assert!(stdout.contains("training score: 1 decisions"), "{stdout}");
    assert!(stdout.contains("mbb: thousandths of a big bet"), "{stdout}");
}

#[test]
fn train_refuses_what_it_cannot_judge_by_name() {
    let fails = |args: &[&str], want: &str| {
        let out = stud(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{want}: {err}");
    };
    fails(
        &["play", "call", "--game", "7stud", "--train"],
        "--coach FILE",
    );
    let three = shipped("7stud-3p.strat");
    fails(
        &[
            "play", "call", "call", "--game", "7stud-3p", "--train", "--coach", &three,
        ],
        "heads-up",
    );
    fails(
        &[
            "play",
            "call",
            "--game",
            "razz",
            "--train",
            "--coach",
            &shipped("7stud-hu.strat"),
        ],
        "solved for",
    );
    fails(&["play", "call", "--game", "7stud", "--json"], "--train");
    fails(
        &[
            "play",
            "call",
            "--game",
            "7stud",
            "--train",
            "--coach",
            "nowhere.strat",
        ],
        "nowhere.strat",
    );
}

#[test]
fn the_train_help_examples_run_on_the_shipped_files() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let help = ok(&stud(&["play", "--help"], ""));
    let mut ran = 0;
    for line in help
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("--train"))
    {
        let Some(at) = line.find("stud play ") else {
            continue;
        };
        // `yes 1 | stud ...`: the answers piped in; else none (the session ends at once).
        let input = match line[..at].strip_prefix("yes ") {
            Some(rest) => format!("{}\n", rest.trim_end_matches(" | ")).repeat(50),
            None => String::new(),
        };
        let args: Vec<String> = line[at + "stud ".len()..]
            .split_whitespace()
            .map(|a| match a.strip_prefix("strategies/") {
                Some(f) => root
                    .join("strategies")
                    .join(f)
                    .to_str()
                    .unwrap()
                    .to_string(),
                None => a.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&stud(&args, &input));
        assert!(
            out.contains("session over") || out.contains("\"kind\":\"score\""),
            "{line}: {out}"
        );
        ran += 1;
    }
    assert_eq!(ran, 2, "{help}");
}
