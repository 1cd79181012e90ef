//! `stud explore`'s Train tab and `--diff`, through the built binary: `/api/drill` deals the
//! same spot from a seed and judges a pick as `stud query` values it, `--diff B` shows at a
//! decision the rows `stud query --diff` compares, and the pages draw both (headless Chromium).

use crate::common::{err, ok, stud};
use crate::explore_browser::{attrs, dom, keyed_rows, serve, serve_with, shipped};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

/// `GET target` on the server at `url`: the status and the JSON body.
pub(crate) fn get(url: &str, target: &str) -> (u16, Value) {
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    write!(c, "GET {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
    (status, serde_json::from_str(body).unwrap())
}

/// A JSON list of numbers.
pub(crate) fn numbers(v: &Value) -> Vec<f64> {
    (v.as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap())
        .collect()
}

pub(crate) fn close(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: {a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-9, "{what}: {a:?} vs {b:?}");
    }
}

/// Seed 86 deals a seventh-street decision of the shipped seven-card file (exact values).
const RIVER: u64 = 86;

#[test]
fn a_drill_deals_from_its_seed_and_judges_as_query_values() {
    let seven = shipped("7stud-hu.strat");
    let server = serve(&seven);
    let url = &server.url;
    let (status, spot) = get(url, &format!("/api/drill?seed={RIVER}"));
    assert_eq!(status, 200, "{spot}");
    assert_eq!(spot["street_name"], "7th street");
    assert!(spot["frequencies"].is_null(), "no judgement before a pick");
    // The same seed, the same spot.
    assert_eq!(get(url, &format!("/api/drill?seed={RIVER}")).1, spot);
    let (s, down) = (
        spot["spot"].as_str().unwrap(),
        spot["down"].as_array().unwrap(),
    );
    let down: String = down.iter().map(|c| c.as_str().unwrap()).collect();
    let values: Value = serde_json::from_str(&ok(&stud(
        &["query", &seven, s, "--values", "--hand", &down, "--json"],
        "",
    )))
    .unwrap();
    let row: Value = serde_json::from_str(&ok(&stud(
        &["query", &seven, s, "--hand", &down, "--json"],
        "",
    )))
    .unwrap();
    let want = numbers(&values["hand"]["chips"]);
    let top = want.iter().cloned().fold(f64::MIN, f64::max);
    for (i, code) in spot["actions"].as_array().unwrap().iter().enumerate() {
        let code = code.as_str().unwrap();
        let (status, r) = get(url, &format!("/api/drill?seed={RIVER}&pick={code}"));
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["method"], "exact");
        assert_eq!(r["chosen"].as_u64(), Some(i as u64));
        close(&numbers(&r["values"]), &want, "values");
        assert!(
            (r["loss"].as_f64().unwrap() - (top - want[i])).abs() < 1e-9,
            "{r}"
        );
        // The strategy's row for the hand, as `stud query --hand` reads it (same actions here).
        assert_eq!(row["actions"], spot["actions"]);
        close(
            &numbers(&r["frequencies"]),
            &numbers(&row["hands"][0]["probabilities"]),
            "row",
        );
    }
    // The best action loses nothing.
    let best = want.iter().position(|&v| v == top).unwrap();
    let code = spot["actions"][best].as_str().unwrap();
    assert_eq!(
        get(url, &format!("/api/drill?seed={RIVER}&pick={code}")).1["loss"],
        0.0
    );
    // An estimate has its interval; bad input a clear error.
    let (_, third) = get(url, "/api/drill?seed=1");
    // Fourth street: estimated.
    assert_eq!(third["street_name"], "4th street", "{third}");
    let first = third["actions"][0].as_str().unwrap();
    let (_, early) = get(url, &format!("/api/drill?seed=1&pick={first}&samples=50"));
    assert_eq!(
        (early["method"].as_str(), early["samples"].as_u64()),
        (Some("estimate"), Some(50))
    );
    assert!(early["loss_plus_minus"].as_f64().is_some(), "{early}");
    for (bad, says) in [
        ("seed=x", "seed: a number"),
        ("", "seed: give"),
        ("seed=1&pick=zz", "`zz` is not an action here ("),
        ("seed=1&pick=cc&samples=1", "samples"),
    ] {
        let (status, e) = get(url, &format!("/api/drill?{bad}"));
        assert_eq!(status, 400, "{bad}");
        assert!(e["error"].as_str().unwrap().contains(says), "{bad}: {e}");
    }
}

/// Two short solves of seven-card stud at the `tiny` size (under a second each): the same
/// game, abstraction and tree, other rows.
fn two_solves() -> &'static (String, String) {
    static S: OnceLock<(String, String)> = OnceLock::new();
    S.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("stud-explore-diff-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let solve = |it: &str| -> String {
            let out: PathBuf = d.join(format!("t{it}.strat"));
            let abst = d.join("abstractions");
            ok(&stud(
                &[
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
                    "--iterations",
                    it,
                    "--out",
                    out.to_str().unwrap(),
                ],
                "",
            ));
            out.to_str().unwrap().to_string()
        };
        (solve("3"), solve("8"))
    })
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn diff_shows_at_a_decision_the_rows_query_diff_compares() {
    let (a, b) = two_solves();
    let server = serve_with(a, &["--diff", b]);
    let (status, v) = get(&server.url, "/api/node?spot=3c+8d+pb");
    assert_eq!(status, 200, "{v}");
    let d = &v["diff"];
    assert_eq!(d["file"], b.as_str());
    let q: Value = serde_json::from_str(&ok(&stud(
        &["query", "--diff", a, b, "--top", "0", "--json"],
        "",
    )))
    .unwrap();
    // The decision after the bring-in is `pb` in the betting tree's own path.
    let rows: Vec<&Value> = (q["rows"].as_array().unwrap().iter())
        .filter(|r| r["spot"] == "pb")
        .collect();
    let buckets = d["buckets"].as_array().unwrap();
    assert!(!buckets.is_empty());
    let mut moved = false;
    for bk in buckets {
        let name = format!("bucket {}", bk["bucket"]);
        let r = rows
            .iter()
            .find(|r| r["row"] == name.as_str())
            .expect(&name);
        assert_eq!(
            (&r["a"], &r["b"], &r["moved"]),
            (&bk["a"], &bk["b"], &bk["moved"])
        );
        moved |= bk["moved"].as_f64().unwrap() > 0.0;
    }
    assert!(moved, "two solves of 3 and 8 iterations differ");
    // By class: A's own chart on the left, B's on the right.
    let classes = d["classes"].as_array().unwrap();
    let chart = v["query"]["chart"]["rows"].as_array().unwrap();
    for c in classes {
        let mine = chart.iter().find(|r| r["class"] == c["class"]).unwrap();
        assert_eq!(mine["probabilities"], c["a"]);
        let (x, y) = (numbers(&c["a"]), numbers(&c["b"]));
        let half: f64 = x.iter().zip(&y).map(|(p, q)| (p - q).abs()).sum::<f64>() / 2.0;
        assert!((c["moved"].as_f64().unwrap() - half).abs() < 1e-12);
    }
    drop(server);
    // A file against itself moves nothing; a file of another abstraction is refused by name.
    let same = serve_with(a, &["--diff", a]);
    let (_, v) = get(&same.url, "/api/node?spot=3c+8d");
    assert!(v["diff"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["moved"] == 0.0));
    let e = err(&stud(
        &[
            "explore",
            a,
            "--diff",
            &shipped("7stud-hu.strat"),
            "--port",
            "0",
        ],
        "",
    ));
    assert!(
        e.contains("--diff") && e.contains("not of the same game, card abstraction and tree"),
        "{e}"
    );
}

#[test]
fn the_pages_draw_a_drill_and_a_diff_in_chromium() {
    // The Train tab at the river spot, `cc` picked by a click: the page shows the server's
    // judgement and counts it in its score.
    let seven = shipped("7stud-hu.strat");
    let server = serve(&seven);
    let page = dom(&format!("{}#train={RIVER}&pick=cc", server.url));
    assert!(page.contains("data-ready=\"yes\""), "{page}");
    let (_, r) = get(&server.url, &format!("/api/drill?seed={RIVER}&pick=cc"));
    let loss: f64 = attrs(&page, "data-loss")[0].parse().unwrap();
    assert!((loss - r["loss"].as_f64().unwrap()).abs() < 1e-12, "{page}");
    let shown: Vec<f64> = attrs(&page, "data-value")
        .iter()
        .map(|x| x.parse().unwrap())
        .collect();
    close(&shown, &numbers(&r["values"]), "the values drawn");
    assert!(page.contains("data-decisions=\"1\""), "{page}");
    assert!(page.contains("data-method=\"exact\""), "{page}");
    drop(server);
    // A decision with --diff: the rows by bucket as the server gives them.
    let (a, b) = two_solves();
    let server = serve_with(a, &["--diff", b]);
    let page = dom(&format!("{}#spot=3c%208d%20pb", server.url));
    let (_, v) = get(&server.url, "/api/node?spot=3c+8d+pb");
    let rows = keyed_rows(
        &page,
        "diff",
        "</section>",
        "data-diff-bucket",
        "data-moved",
    );
    let want = v["diff"]["buckets"].as_array().unwrap();
    assert_eq!(rows.len(), want.len(), "{page}");
    for ((key, moved), w) in rows.iter().zip(want) {
        assert_eq!(*key, w["bucket"].to_string());
        close(moved, &[w["moved"].as_f64().unwrap()], key);
    }
}
