//! A solved strategy file as a player: it finds the same spots `stud query` does, beats the
//! baseline bots, and refuses a game it was not solved for.

use crate::common;

use abstraction::cards::Card;
use abstraction::rules::{Action, GameDef, State};
use common::text;
use serde_json::Value;
use solver::players::load;
use std::process::Command;

/// Runs `stud`: whether it succeeded, its standard output and its standard error.
fn stud(args: &[&str]) -> (bool, String, String) {
    let out = common::stud(args, "");
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Solves Leduc briefly into a temporary file (a fraction of a second).
fn leduc_strategy(tag: &str) -> String {
    let path = std::env::temp_dir().join(format!("stud-bot-{tag}-{}.strat", std::process::id()));
    let p = path.to_str().unwrap().to_string();
    let (ok, _, err) = stud(&[
        "solve",
        "--game",
        "leduc",
        "--iterations",
        "200",
        "--threads",
        "1",
        "--out",
        &p,
        "--json",
    ]);
    assert!(ok, "{err}");
    p
}

#[test]
fn the_strategy_player_reads_the_rows_stud_query_prints() {
    let strat = leduc_strategy("query");
    // Seat 0 (Jc) bets, seat 1 (Qd) calls, the Kd comes, seat 0 bets 4: seat 1 to act.
    let (ok, out, err) = stud(&[
        "query",
        &strat,
        "cbr2 cc | Kd | cbr4",
        "--hand",
        "Qd",
        "--json",
    ]);
    assert!(ok, "{err}");
    let q: Value = serde_json::from_str(&out).unwrap();
    let def = GameDef::preset("leduc").unwrap();
    let player = load(&strat, &def).unwrap();
    let mut st = State::new(&def).unwrap();
    let card = |s: &str| s.parse::<Card>().unwrap();
    st.deal(card("Jc")).unwrap();
    st.deal(card("Qd")).unwrap();
    let mut bets = Vec::new();
    for a in [Action::CompleteBetRaise(2), Action::CheckCall] {
        bets.push((st.street(), a));
        st.apply(a).unwrap();
    }
    st.deal(card("Kd")).unwrap();
    bets.push((st.street(), Action::CompleteBetRaise(4)));
    st.apply(Action::CompleteBetRaise(4)).unwrap();
    let legal = st.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    player.policy(&st, &bets, 1, &legal, &mut probs).unwrap();
    let names: Vec<String> = legal
        .iter()
        .map(|a| a.to_string().replace(' ', ""))
        .collect();
    let want = &q["hands"][0]["probabilities"];
    let actions = q["actions"].as_array().unwrap();
    assert_eq!(actions.len(), legal.len(), "{out}");
    for (i, name) in names.iter().enumerate() {
        let j = actions.iter().position(|a| a == name.as_str()).unwrap();
        assert!(
            (want[j].as_f64().unwrap() - probs[i]).abs() < 1e-12,
            "{name}: {out} {probs:?}"
        );
    }
    std::fs::remove_file(&strat).unwrap();
}

#[test]
fn the_strategy_beats_every_baseline_bot_with_confidence() {
    let strat = leduc_strategy("match");
    for bot in ["random", "call", "raise"] {
        let (ok, out, err) = stud(&[
            "match", &strat, bot, "--game", "leduc", "--hands", "3000", "--seed", "2", "--json",
        ]);
        assert!(ok, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let (mbb, ci) = (
            v["mbb_per_hand"].as_f64().unwrap(),
            v["ci95"].as_f64().unwrap(),
        );
        assert!(mbb - ci > 0.0, "against {bot}: {out}");
    }
    // A strategy answers only for the game it was solved for.
    let (ok, _, err) = stud(&["match", &strat, "call", "--game", "kuhn", "--hands", "10"]);
    assert!(!ok && err.contains("solved for"), "{err}");
    // And a person can play it, asking for its probabilities.
    let (ok, out, err) = {
        let o = common::stud(
            &["play", &strat, "--game", "leduc", "--hands", "2"],
            &"?\ncc\n".repeat(20),
        );
        (o.status.success(), text(&o.stdout), text(&o.stderr))
    };
    assert!(ok, "{err}");
    assert!(out.contains("session over: 2 hands"), "{out}");
    std::fs::remove_file(&strat).unwrap();
}

#[test]
fn lbr_finds_a_weak_strategy_exploitable_but_never_beyond_its_exact_exploitability() {
    let path = std::env::temp_dir().join(format!("stud-bot-lbr-{}.strat", std::process::id()));
    let p = path.to_str().unwrap();
    // Three iterations: far from equilibrium (about 450 mbb/hand exploitable).
    let (ok, _, err) = stud(&[
        "solve",
        "--game",
        "leduc",
        "--iterations",
        "3",
        "--threads",
        "1",
        "--out",
        p,
        "--json",
    ]);
    assert!(ok, "{err}");
    // Plain, then looking ahead the rest of each street (on Leduc's last street: the exact
    // best response to the range). Neither bound need be the higher on a given seed: the
    // first street's choices of both are heuristic (measured here: 400 plain, 385 looking
    // ahead, of about 450).
    for lookahead in ["none", "street"] {
        let (ok, out, err) = stud(&[
            "eval",
            "lbr",
            p,
            "--game",
            "leduc",
            "--hands",
            "5000",
            "--seed",
            "3",
            "--lookahead",
            lookahead,
            "--json",
        ]);
        assert!(ok, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let (lbr, ci) = (
            v["lbr_mbb_per_hand"].as_f64().unwrap(),
            v["ci95"].as_f64().unwrap(),
        );
        let exact = v["exploitability_mbb"].as_f64().unwrap();
        assert_eq!(v["lookahead"], lookahead);
        assert!(lbr - ci > 0.5 * exact, "LBR finds most of it: {out}");
        assert!(lbr - ci <= exact, "a lower bound: {out}");
    }
    std::fs::remove_file(p).unwrap();
}

#[test]
fn report_writes_a_page_with_its_pictures_that_renders_in_chromium() {
    let dir = std::env::temp_dir().join(format!("stud-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let strat = dir.join("leduc.strat");
    let s = strat.to_str().unwrap();
    let out = common::stud(
        &[
            "solve",
            "--game",
            "leduc",
            "--iterations",
            "50",
            "--every",
            "10",
            "--threads",
            "1",
            "--json",
            "--out",
            s,
        ],
        "",
    );
    assert!(out.status.success());
    let log = dir.join("solve.jsonl");
    std::fs::write(&log, &out.stdout).unwrap();
    let (ok, _, err) = stud(&[
        "report",
        s,
        "--game",
        "leduc",
        "--log",
        log.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--hands",
        "200",
    ]);
    assert!(ok, "{err}");
    let page = dir.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Two convergence curves, the first-round chart, the results bars.
    assert_eq!(html.matches("<svg").count(), 4, "{html}");
    assert_eq!(html.matches("</svg>").count(), 4);
    assert_eq!(html.matches("<polyline").count(), 2);
    for part in ["Convergence", "First betting round", "vs heuristic", "LBR"] {
        assert!(html.contains(part), "{part}");
    }
    // The file's name as the title, not where it lies.
    assert!(
        html.contains("<title>Strategy report: leduc.strat</title>"),
        "{html}"
    );
    assert!(!html.contains(dir.to_str().unwrap()), "{html}");
    // Leduc's words: no street, door card or bring-in of stud.
    for stud_word in ["street", "door", "bring-in", "complete"] {
        assert!(!html.contains(stud_word), "{stud_word}: {html}");
    }
    // Axes with values and hover text: ticks on the convergence curves, each point, cell and
    // result with its numbers.
    // A point per log line with iterations, seconds and exploitability_mbb (the last, the
    // solve's summary, has them too).
    let points = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"exploitability_mbb\""))
        .count();
    assert!(points >= 2);
    assert_eq!(html.matches("<title>iterations ").count(), points, "{html}");
    assert!(html.contains("<title>seconds "), "{html}");
    assert!(html.contains(">the player's win rate, mbb/hand"), "{html}");
    assert!(html.contains("<title>vs heuristic: "), "{html}");
    let chart = svg_after(&html, "First betting round");
    // Leduc's first decision checks or bets: neither fold nor raise is drawn, nor in the legend.
    let legend = legend_of(chart);
    let labels: Vec<&str> = legend.iter().map(|l| l.1).collect();
    assert_eq!(labels, ["check/call", "bet"], "{chart}");
    assert_legend_drawn(chart);
    // A row per rank of private card (J, Q, K), each cell's shares in its hover text.
    assert_eq!(
        chart.matches("<g class=\"cell\"><title>").count(),
        3,
        "{chart}"
    );
    assert!(chart.contains("<title>K: "), "{chart}");
    assert_renders(&page, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first `<svg>` after `heading` in `html`.
fn svg_after<'a>(html: &'a str, heading: &str) -> &'a str {
    let from = &html[html.find(heading).unwrap_or_else(|| panic!("{heading}"))..];
    let start = from.find("<svg").unwrap();
    &from[start..start + from[start..].find("</svg>").unwrap()]
}

/// A grid chart's legend: (colour, label) of each 14-point swatch and the text after it.
fn legend_of(svg: &str) -> Vec<(&str, &str)> {
    let key = "width=\"14\" height=\"14\" fill=\"";
    svg.match_indices(key)
        .map(|(i, _)| {
            let rest = &svg[i + key.len()..];
            let colour = &rest[..rest.find('"').unwrap()];
            let text = &rest[rest.find("<text").unwrap()..];
            let label = &text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()];
            (colour, label)
        })
        .collect()
}

/// Each colour of the legend is drawn: some cell has a bar of that colour wider than 0.
fn assert_legend_drawn(svg: &str) {
    for (colour, label) in legend_of(svg) {
        let drawn = svg.split("<rect ").any(|r| {
            r.contains(&format!("fill=\"{colour}\""))
                && !r.contains("height=\"14\"")
                && r.split("width=\"")
                    .nth(1)
                    .and_then(|w| w[..w.find('"').unwrap()].parse::<f64>().ok())
                    .is_some_and(|w| w > 0.0)
        });
        assert!(
            drawn,
            "the legend's {label} ({colour}) is never drawn: {svg}"
        );
    }
}

/// Renders `page` in headless Chromium and checks the screenshot is not blank.
fn assert_renders(page: &std::path::Path, dir: &std::path::Path) {
    // The picture itself: a blank page compresses to a tiny PNG. Chromium is required, as for
    // the explore page's test: without it the test fails, naming the package.
    let shot = dir.join("shot.png");
    let profile = dir.join("chromium-profile");
    let chromium = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1100,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output();
    let o = chromium.unwrap_or_else(|e| {
        panic!("chromium is needed to test the page (Debian: apt-get install chromium): {e}")
    });
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.len() > 8_000, "a blank screenshot: {} bytes", png.len());
}

#[test]
fn third_street_report_of_a_bot_shows_its_chart_and_the_results_given_and_renders() {
    let dir = std::env::temp_dir().join(format!("stud-report7-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("eval.json");
    std::fs::write(
        &results,
        r#"{"strategy":"call","game":"7stud","results":[
            {"name":"vs random","mbb_per_hand":812.5,"ci95":90.1,"hands":4000},
            {"name":"LBR (its win rate)","mbb_per_hand":1500.0,"ci95":120.0,"hands":2000}]}"#,
    )
    .unwrap();
    let (ok, _, err) = stud(&[
        "report",
        "heuristic",
        "--game",
        "7stud",
        "--results",
        results.to_str().unwrap(),
        "--chart-hands",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let page = dir.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // The third-street chart and the results bars.
    assert_eq!(html.matches("<svg").count(), 2, "{html}");
    for part in [
        "3rd street: facing the bring-in",
        "rolled-up trips",
        "split pair T-A",
        "complete",
        "vs random",
        "+812.5",
        "LBR (its win rate)",
        "<title>Strategy report: heuristic</title>",
        // Hover text: a cell's class, door card and every share drawn.
        "<title>rolled-up trips, door card A: ",
    ] {
        assert!(html.contains(part), "{part}");
    }
    let chart = svg_after(&html, "3rd street: facing the bring-in");
    assert_legend_drawn(chart);
    assert!(chart.contains(">door card</text>"), "{chart}");
    // A malformed results file is refused with its name and what is missing.
    std::fs::write(&results, r#"{"results":[{"name":"x"}]}"#).unwrap();
    let (ok, _, err) = stud(&[
        "report",
        "call",
        "--game",
        "7stud",
        "--results",
        results.to_str().unwrap(),
        "--chart-hands",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("results[0] has no number `mbb_per_hand`"),
        "{err}"
    );
    assert_renders(&page, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_strategy_is_played_mixed_pure_or_thresholded_as_its_spec_says() {
    let strat = leduc_strategy("purify");
    let def = GameDef::preset("leduc").unwrap();
    let card = |s: &str| s.parse::<Card>().unwrap();
    // Every first decision of each private card, played three ways.
    for hand in ["Jc", "Qd", "Kd"] {
        let mut st = State::new(&def).unwrap();
        st.deal(card(hand)).unwrap();
        st.deal(card(if hand == "Jc" { "Qc" } else { "Jd" }))
            .unwrap();
        let legal = st.legal_actions();
        let row = |spec: &str| {
            let player = load(spec, &def).unwrap();
            let mut probs = vec![0.0; legal.len()];
            player.policy(&st, &[], 0, &legal, &mut probs).unwrap();
            probs
        };
        let mixed = row(&strat);
        assert_eq!(
            row(&format!("{strat}:mixed")),
            mixed,
            "a public tree plays mixed"
        );
        let max = mixed.iter().copied().fold(0.0, f64::max);
        let pure = row(&format!("{strat}:pure"));
        for (m, p) in mixed.iter().zip(&pure) {
            assert_eq!(*p, if *m == max { 1.0 } else { 0.0 }, "{mixed:?} {pure:?}");
        }
        let cut = row(&format!("{strat}:threshold=0.2"));
        let kept: f64 = mixed.iter().filter(|&&m| m >= 0.2 || m == max).sum();
        for (m, c) in mixed.iter().zip(&cut) {
            let want = if *m >= 0.2 || *m == max {
                m / kept
            } else {
                0.0
            };
            assert!((c - want).abs() < 1e-12, "{mixed:?} {cut:?}");
        }
    }
    let e = format!(
        "{:#}",
        load(&format!("{strat}:purest"), &def).err().unwrap()
    );
    assert!(
        e.contains("`purest`") && e.contains("mixed, pure or threshold=T"),
        "{e}"
    );
    let e = load("no-such.strat:pure", &def).err().unwrap().to_string();
    assert!(e.contains("neither a bot"), "{e}");
    // The command line reads the game from the file behind the spec.
    let spec = format!("{strat}:pure");
    let (ok, out, err) = stud(&["match", &spec, "call", "--hands", "20", "--json"]);
    assert!(ok, "{err}");
    let m: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(m["game"], "leduc", "{out}");
}
