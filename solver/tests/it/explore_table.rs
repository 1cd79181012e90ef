//! `stud explore` on multiway files (three to five seats), through the built binary and in
//! headless Chromium: the page clicks through a table's hand with its own buttons, and what it
//! shows is what `stud query --ranges --json` answers at that spot (every seat's up cards, the
//! seat to act's rows by bucket and by hand class, each live seat's range); the values pane is
//! `stud query --values --json`'s answer; `--diff B` shows the rows `stud query --diff`
//! compares.

use crate::common::{err, ok, stud};
use crate::explore_browser::{attrs, dom, keyed_rows, serve, serve_with, shipped, text_of};
use crate::explore_train::{close, get, numbers};
use serde_json::Value;
use std::sync::OnceLock;

/// `stud query FILE SPOT ARGS --json`'s answer.
fn query(file: &str, spot: &str, more: &[&str]) -> Value {
    let mut args = vec!["query", file, spot, "--json"];
    args.extend(more);
    serde_json::from_str(&ok(&stud(&args, ""))).unwrap()
}

/// The rows of `list` whose `holdings` are more than 0: (their `key` as text, their `num`s).
fn held(list: &Value, key: &str, num: &str) -> Vec<(String, Vec<f64>)> {
    (list.as_array().unwrap().iter())
        .filter(|r| r["holdings"].as_u64().unwrap() > 0)
        .map(|r| {
            let label = match &r[key] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let nums = match &r[num] {
                Value::Array(_) => numbers(&r[num]),
                x => vec![x.as_f64().unwrap()],
            };
            (label, nums)
        })
        .collect()
}

/// The page's rows (`keyed_rows`) as owned labels and numbers.
fn shown(page: &str, id: &str, end: &str, key: &str, num: &str) -> Vec<(String, Vec<f64>)> {
    (keyed_rows(page, id, end, key, num).into_iter())
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// Both lists hold the same labels in order, with the same numbers.
fn same_rows(page: &[(String, Vec<f64>)], want: &[(String, Vec<f64>)], what: &str) {
    assert!(!want.is_empty(), "{what}: nothing to compare");
    let labels = |x: &[(String, Vec<f64>)]| x.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    assert_eq!(labels(page), labels(want), "{what}");
    for ((label, a), (_, b)) in page.iter().zip(want) {
        close(a, b, &format!("{what} {label}"));
    }
}

/// Plays `steps` by clicks on the page of the multiway `file` and checks the page against
/// `stud query --ranges --json` at the spot reached.
fn check_table(file: &str, steps: &str) {
    let server = serve(file);
    let page = dom(&format!(
        "{}#play={}",
        server.url,
        steps.replace(' ', "%20")
    ));
    assert!(page.contains("data-ready=\"yes\""), "{page}");
    assert!(
        page.contains(&format!("data-spot=\"{steps}\"")),
        "the clicks did not reach {steps}: {page}"
    );
    let q = query(file, steps, &["--ranges"]);
    let seat = q["seat"].as_u64().unwrap() + 1;
    let heading = text_of(&page, "decision");
    let street = q["street_name"].as_str().unwrap();
    assert!(
        heading.starts_with(&format!("p{seat} to act on {street}")),
        "{heading}"
    );
    // Every seat's up cards, the folded ones marked; drills are heads-up: no Train tab.
    let seats = q["seats"].as_u64().unwrap() as usize;
    assert_eq!(attrs(&page, "data-seat").len(), seats, "{page}");
    for (s, up) in q["showing"].as_array().unwrap().iter().enumerate() {
        let folded = q["folded"].as_array().unwrap().contains(&Value::from(s));
        let line = format!("p{} shows: ", s + 1);
        let at = &page[page.find(&line).unwrap_or_else(|| panic!("{line}: {page}"))..];
        let line = &at[..at.find("</p>").unwrap()];
        let up = up.as_str().unwrap();
        for i in (0..up.len()).step_by(2) {
            let card = format!(">{}<", &up[i..i + 2]);
            assert!(line.contains(&card), "{line} {up}");
        }
        assert_eq!(line.contains("(folded)"), folded, "{line}");
    }
    assert!(page.contains("id=\"tab-train\" hidden"), "{page}");
    let buttons: Vec<&str> = attrs(&page, "data-step");
    let actions: Vec<&str> = (q["actions"].as_array().unwrap().iter())
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(buttons, actions);
    // Each bucket the seat's holdings fall in, each hand class, each live seat's range.
    let buckets = shown(&page, "buckets", "</table>", "data-bucket", "data-p");
    same_rows(
        &buckets,
        &held(&q["hands"], "bucket", "probabilities"),
        "bucket",
    );
    let chart = shown(&page, "chart", "</table>", "data-class", "data-p");
    let chart: Vec<_> = chart.into_iter().filter(|r| !r.1.is_empty()).collect();
    let want = held(&q["chart"]["rows"], "class", "probabilities");
    same_rows(&chart, &want, "class");
    let holds: u64 = (q["hands"].as_array().unwrap().iter())
        .map(|h| h["holdings"].as_u64().unwrap())
        .sum();
    assert_eq!(q["chart"]["holdings"].as_u64(), Some(holds));
    assert!(
        page.contains(&format!("its {holds} possible down cards")),
        "{holds}"
    );
    let ranges = q["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), q["live"].as_array().unwrap().len());
    for r in ranges {
        let id = format!("range-p{}", r["seat"].as_u64().unwrap() + 1);
        let rows = shown(&page, &id, "</section>", "data-range-class", "data-share");
        same_rows(&rows, &held(&r["classes"], "class", "share"), &id);
        let from = &page[page.find(&format!("id=\"{id}\"")).unwrap()..];
        let top = attrs(&from[..from.find("</section>").unwrap()], "data-top");
        let want: Vec<&str> = (r["top"].as_array().unwrap().iter())
            .map(|h| h["cards"].as_str().unwrap())
            .collect();
        assert_eq!(top, want, "{id}");
    }
    assert_eq!(
        text_of(&page, "command").replace("&quot;", "\""),
        format!("stud query {file} \"{steps}\" --ranges --json")
    );
}

/// The chart by hand class and the rows by bucket count the same holdings of the seat to act,
/// and weigh each action alike: the sum over classes of holdings times the class's mean row is
/// the sum over buckets of holdings times the bucket's row.
fn chart_adds_up(q: &Value) {
    let mass = |rows: &Value| {
        let mut m = vec![0.0; q["actions"].as_array().unwrap().len()];
        for r in rows.as_array().unwrap() {
            let n = r["holdings"].as_u64().unwrap() as f64;
            for (x, p) in m.iter_mut().zip(numbers(&r["probabilities"])) {
                *x += n * p;
            }
        }
        m
    };
    let holds: u64 = (q["hands"].as_array().unwrap().iter())
        .map(|h| h["holdings"].as_u64().unwrap())
        .sum();
    assert!(holds > 0);
    assert_eq!(q["chart"]["holdings"].as_u64(), Some(holds), "{q}");
    let (by_class, by_bucket) = (mass(&q["chart"]["rows"]), mass(&q["hands"]));
    assert_eq!(by_class.len(), by_bucket.len());
    for (a, b) in by_class.iter().zip(&by_bucket) {
        assert!((a - b).abs() < 1e-9, "{by_class:?} vs {by_bucket:?}");
    }
}

#[test]
fn a_table_clicked_through_in_chromium_shows_what_query_answers() {
    // Three seats to fourth street, p2 folded on third: the ranges of the two left.
    check_table(&shipped("7stud-3p.strat"), "3c 8d Kh pb f cc 9h Ts cc");
    // Five seats on third street, after the bring-in and a completion.
    check_table(&shipped("7stud-5p.strat"), "3c 8d Kh 2s 5d pb cbr5");
}

#[test]
fn every_shipped_table_answers_its_nodes_as_query_does() {
    for (file, spot) in [
        ("7stud-3p.strat", "3c 8d Kh pb cc cc | 9h Ts 2d cc cbr5"),
        ("7stud-4p.strat", "3c 8d Kh 2s pb cbr5 f"),
        ("7stud-5p.strat", "3c 8d Kh 2s 5d pb"),
    ] {
        let file = shipped(file);
        let server = serve(&file);
        let (status, v) = get(
            &server.url,
            &format!("/api/node?spot={}", spot.replace(' ', "+")),
        );
        assert_eq!(status, 200, "{file}: {v}");
        assert_eq!(v["state"], "decision", "{v}");
        let q = query(&file, spot, &["--ranges"]);
        assert_eq!(v["query"], q, "{file} at {spot}");
        assert_eq!(v["next"], q["actions"]);
        chart_adds_up(&q);
        assert_eq!(
            v["up"].as_array().unwrap().len() as u64,
            q["seats"].as_u64().unwrap()
        );
        // A card due names its seat; a table's file has no drills, said so.
        let (_, deal) = get(&server.url, "/api/node?spot=3c");
        assert_eq!(
            (deal["state"].as_str(), &deal["due"][0]),
            (Some("deal"), &Value::from(1))
        );
        let (status, e) = get(&server.url, "/api/drill?seed=1");
        assert_eq!(status, 400);
        assert!(e["error"].as_str().unwrap().contains("heads-up"), "{e}");
    }
}

#[test]
fn the_values_pane_shows_what_query_values_answers_at_a_table() {
    let file = shipped("7stud-3p.strat");
    let server = serve(&file);
    let spot = "3c 8d Kh pb f cc 9h Ts";
    let page = dom(&format!(
        "{}#spot={}&values=AsAd",
        server.url,
        spot.replace(' ', "%20")
    ));
    assert!(page.contains("data-method=\"estimate\""), "{page}");
    assert!(
        page.contains("every seat's down cards from its range"),
        "{page}"
    );
    let q = query(&file, spot, &["--values", "--hand", "AsAd"]);
    let hand = shown(
        &page,
        "values-table",
        "</table>",
        "data-values-hand",
        "data-chips",
    );
    same_rows(
        &hand,
        &[("AsAd".into(), numbers(&q["hand"]["chips"]))],
        "values",
    );
}

/// Two short three-seat solves at the `tiny` size (seconds each): the same game, abstraction
/// and tree, other rows.
fn two_solves() -> &'static (String, String) {
    static S: OnceLock<(String, String)> = OnceLock::new();
    S.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("stud-explore-table-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let abst = d.join("abstractions");
        let solve = |it: &str| -> String {
            let out = d.join(format!("t{it}.strat")).to_str().unwrap().to_string();
            ok(&stud(
                &[
                    "solve",
                    "--game",
                    "7stud-3p",
                    "--abstraction",
                    "tiny",
                    "--abstraction-dir",
                    abst.to_str().unwrap(),
                    "--batch",
                    "12",
                    "--threads",
                    "2",
                    "--iterations",
                    it,
                    "--out",
                    &out,
                ],
                "",
            ));
            out
        };
        (solve("3"), solve("8"))
    })
}

#[test]
fn diff_at_a_table_shows_the_rows_query_diff_compares() {
    let (a, b) = two_solves();
    let server = serve_with(a, &["--diff", b]);
    let (status, v) = get(&server.url, "/api/node?spot=3c+8d+Kh+pb");
    assert_eq!(status, 200, "{v}");
    let d = &v["diff"];
    assert_eq!(d["file"], b.as_str());
    let q: Value = serde_json::from_str(&ok(&stud(
        &["query", "--diff", a, b, "--top", "0", "--json"],
        "",
    )))
    .unwrap();
    // Third street, every seat in, second to act after the bring-in.
    let rows: Vec<&Value> = (q["rows"].as_array().unwrap().iter())
        .filter(|r| {
            r["street"] == 0
                && r["live"] == 3
                && r["betting_codes"] == serde_json::json!(["first pb"])
        })
        .collect();
    let buckets = d["buckets"].as_array().unwrap();
    assert!(!buckets.is_empty());
    let mut moved = false;
    for bk in buckets {
        let r = (rows.iter())
            .find(|r| r["bucket"] == bk["bucket"])
            .unwrap_or_else(|| panic!("bucket {}", bk["bucket"]));
        close(&numbers(&r["a"]), &numbers(&bk["a"]), "A");
        close(&numbers(&r["b"]), &numbers(&bk["b"]), "B");
        close(
            &[r["moved"].as_f64().unwrap()],
            &[bk["moved"].as_f64().unwrap()],
            "moved",
        );
        moved |= bk["moved"].as_f64().unwrap() > 0.0;
    }
    assert!(moved, "two solves of 3 and 8 iterations differ");
    // By class: A's own chart on the left.
    let chart = v["query"]["chart"]["rows"].as_array().unwrap();
    for c in d["classes"].as_array().unwrap() {
        let mine = chart.iter().find(|r| r["class"] == c["class"]).unwrap();
        assert_eq!(mine["probabilities"], c["a"]);
    }
    // The page draws the rows by bucket as the server gives them.
    let page = dom(&format!("{}#spot=3c%208d%20Kh%20pb", server.url));
    let drawn = shown(
        &page,
        "diff",
        "</section>",
        "data-diff-bucket",
        "data-moved",
    );
    let want: Vec<(String, Vec<f64>)> = (buckets.iter())
        .map(|w| (w["bucket"].to_string(), vec![w["moved"].as_f64().unwrap()]))
        .collect();
    same_rows(&drawn, &want, "diff");
    drop(server);
    // A file against itself moves nothing; a heads-up file is refused by name.
    let same = serve_with(a, &["--diff", a]);
    let (_, v) = get(&same.url, "/api/node?spot=3c+8d+Kh");
    assert!((v["diff"]["buckets"].as_array().unwrap().iter()).all(|r| r["moved"] == 0.0));
    let hu = shipped("7stud-hu.strat");
    let e = err(&stud(&["explore", a, "--diff", &hu, "--port", "0"], ""));
    assert!(e.contains("--diff") && e.contains("multiway"), "{e}");
}
