//! A cap for multiway pots (`stud solve --multiway-cap`) end to end through the built binary:
//! counted before solving (`--estimate`) as the solve counts it, recorded in the file (`stud
//! info`) and the checkpoint (a resume under another cap is refused), refused beside a file of
//! another cap by `stud query --diff`, played at a table of always-raise bots, whose raises
//! pass the abstract cap at every street, and measured exactly by `stud eval multiway` on a
//! small doorstud of two bets a round.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-mw-cap-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `stud solve --game 7stud-3p --abstraction tiny --batch 12` with `extra`: its output.
fn solve(extra: &[&str]) -> std::process::Output {
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
    ];
    args.extend(extra);
    stud(&args, "")
}

fn last_json(out: &str) -> Value {
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

#[test]
fn a_multiway_cap_is_counted_recorded_resumed_only_as_itself_and_played() {
    // One bet a round once three seats begin a street: every street of three seats capped.
    let capped = dir().join("capped.strat");
    let plain = dir().join("plain.strat");
    let c = capped.to_str().unwrap();
    let p = plain.to_str().unwrap();
    let cap = ["--multiway-cap", "1@3"];
    let count = last_json(&ok(&solve(&[&cap[..], &["--estimate"]].concat())));
    let v = last_json(&ok(&solve(
        &[
            &cap[..],
            &["--iterations", "2", "--keep-checkpoint", "--out", c],
        ]
        .concat(),
    )));
    let u = last_json(&ok(&solve(&["--iterations", "2", "--out", p])));
    assert_eq!(
        count["infoset_actions"], v["infoset_actions"],
        "{count} {v}"
    );
    assert_eq!(count["multiway_cap"], "1@3", "{count}");
    let (rows, all) = (
        v["infoset_actions"].as_u64().unwrap(),
        u["infoset_actions"].as_u64().unwrap(),
    );
    assert!(rows * 3 < all, "capped {rows} of {all}");
    // The file's rows are the count's (8 bits a probability by default).
    let info = last_json(&ok(&stud(&["info", c, "--json"], "")));
    assert_eq!(info["multiway_cap"], "1@3", "{info}");
    assert_eq!(info["rows"]["bytes"], count["rows_8bit"], "{info} {count}");
    let text = ok(&stud(&["info", c], ""));
    assert!(
        text.contains("at most 1 bet a round on a street begun by 3"),
        "{text}"
    );
    let info = last_json(&ok(&stud(&["info", p, "--json"], "")));
    assert_eq!(info["multiway_cap"], Value::Null, "{info}");
    // Resumed only under the same cap.
    let more = [
        "--iterations",
        "3",
        "--resume",
        "--keep-checkpoint",
        "--out",
        c,
    ];
    let e = err(&solve(&more));
    assert!(
        e.contains("abstraction") && e.contains("--multiway-cap"),
        "{e}"
    );
    let e = err(&solve(&[&more[..], &["--multiway-cap", "2@3"]].concat()));
    assert!(e.contains("abstraction"), "{e}");
    ok(&solve(&[&more[..], &cap[..]].concat()));
    // Not compared with a file of another cap.
    let e = err(&stud(&["query", "--diff", p, c], ""));
    assert!(e.contains("multiway cap"), "{e}");
    // Played against raises past its cap on every street: every decision answered.
    let out = ok(&stud(
        &[
            "match", c, "raise", "raise", "--hands", "40", "--seed", "2", "--json",
        ],
        "",
    ));
    let m = last_json(&out);
    let players = m["players"].as_array().unwrap();
    let chips: i64 = players.iter().map(|p| p["chips"].as_i64().unwrap()).sum();
    assert_eq!(chips, 0, "{m}");
}

#[test]
fn a_multiway_cap_that_does_not_read_or_cannot_be_played_is_refused_by_name() {
    for bad in ["2", "0@3", "2@9"] {
        let e = err(&solve(&["--multiway-cap", bad, "--estimate"]));
        assert!(e.contains("BETS@SEATS"), "{bad}: {e}");
    }
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "razz",
            "--multiway-cap",
            "2@3",
            "--iterations",
            "1",
        ],
        "",
    ));
    assert!(
        e.contains("--multiway-cap") && e.contains("heads-up"),
        "{e}"
    );
}

#[test]
fn eval_multiway_measures_a_capped_strategy_on_the_real_game() {
    // doorstud of two bets a round, queens to aces (a small whole tree), capped at one bet.
    let game = dir().join("door2-qka.toml");
    std::fs::write(
        &game,
        "preset = \"doorstud\"\nmax_bets = 2\ndeck = { ranks = [\"Q\", \"K\", \"A\"], suits = 2 }\n",
    )
    .unwrap();
    let abst = dir().join("abstractions");
    let out = ok(&stud(
        &[
            "eval",
            "multiway",
            "--game",
            game.to_str().unwrap(),
            "--multiway-cap",
            "1@3",
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            abst.to_str().unwrap(),
            "--traversals",
            "1000",
            "--floor-iterations",
            "3",
            "--check-hands",
            "100",
            "--json",
        ],
        "",
    ));
    let v = last_json(&out);
    assert_eq!(v["multiway_cap"], "1@3", "{v}");
    assert!(v["closed_information_sets"].as_u64().unwrap() > 0, "{v}");
    assert!(
        v["rows"][0]["sampled_nash_conv"].as_f64().unwrap() > 0.0,
        "{v}"
    );
    // The lift is what the file's player plays; the floors (the abstract game solved full
    // width) are left out under a cap, the exact solve and the sampled one stay.
    assert!(v["checked_max_difference"].as_f64().unwrap() <= 1.0 / 255.0 + 1e-6);
    assert_eq!(v["floors"].as_array().unwrap().len(), 2, "{v}");
}
