//! `stud export` on a shipped strategy: the whole tree streamed as JSON Lines and CSV, each
//! node's rows the ones `stud query --json` answers at the node's spot.

use crate::common;

use common::{err, ok, stud};
use serde_json::Value;
use std::io::BufRead;
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

/// The cells of a CSV line (quoted cells may hold commas and doubled quotes).
fn csv_cells(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            _ => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_export_holds_every_node_as_query_answers_it() {
    let five = shipped("5stud-hu.strat");
    let dir = std::env::temp_dir().join(format!("stud-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("5stud.jsonl");
    let csv = dir.join("5stud.csv");
    ok(&stud(
        &[
            "export",
            &five,
            "--format",
            "json",
            "--out",
            json.to_str().unwrap(),
        ],
        "",
    ));
    ok(&stud(
        &[
            "export",
            &five,
            "--format",
            "csv",
            "--out",
            csv.to_str().unwrap(),
        ],
        "",
    ));
    let mut lines = std::io::BufReader::new(std::fs::File::open(&json).unwrap()).lines();
    let head: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(head["game"], "5stud");
    assert_eq!(head["played_as"], "threshold=0.15");
    let streets = head["streets"].as_array().unwrap();
    assert_eq!(streets.len(), 4);
    assert_eq!(streets[0]["street_name"], "2nd street");
    let buckets_of: Vec<usize> = streets
        .iter()
        .map(|s| s["buckets"].as_array().unwrap().len())
        .collect();
    assert_eq!(
        buckets_of,
        [32, 64, 64, 32],
        "`stud info`'s buckets per street"
    );
    assert!(streets[0]["buckets"][0]["description"].is_string());
    let nodes: Vec<Value> = lines
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    // Every decision of the betting tree, each once, depth first from the root.
    assert_eq!(nodes[0]["node"], 0);
    assert_eq!(nodes[0]["path"], "");
    let mut ids: Vec<u64> = nodes.iter().map(|n| n["node"].as_u64().unwrap()).collect();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n);
    assert!(n > 5_000, "{n} decisions");
    // The shipped five-card file recalls whether the player acted first on the street before
    // (`--recall last`): past the first street, a row per bucket and order, the order named.
    let names: Vec<&str> = streets
        .iter()
        .map(|s| s["street_name"].as_str().unwrap())
        .collect();
    for node in &nodes {
        let rows = node["rows"].as_array().unwrap();
        let street = node["street"].as_u64().unwrap() as usize;
        let orders = if street == 0 { 1 } else { 2 };
        assert_eq!(rows.len(), buckets_of[street] * orders);
        if street > 0 {
            for pair in rows.chunks(2) {
                assert_eq!(pair[0]["bucket"], pair[1]["bucket"]);
                let first = |r: &Value| r["acted_first"][names[street - 1]].as_bool().unwrap();
                assert_eq!((first(&pair[0]), first(&pair[1])), (false, true));
            }
        }
        for r in rows {
            let played: f64 = r["played"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .sum();
            assert!((played - 1.0).abs() < 1e-9, "{r}");
        }
    }
    // A few nodes on every street: the spot asked of `stud query` gives the same node, actions
    // and rows, bucket by bucket.
    let mut picked: Vec<&Value> = nodes.iter().step_by(997).collect();
    for street in 0..4u64 {
        let on = |n: &&Value| n["street"] == street;
        picked.extend(nodes.iter().find(on));
        picked.extend(nodes.iter().rev().find(on));
    }
    let streets_seen: std::collections::BTreeSet<u64> = picked
        .iter()
        .map(|n| n["street"].as_u64().unwrap())
        .collect();
    assert_eq!(streets_seen.len(), 4, "the picks cover every street");
    for node in &picked {
        let spot = node["spot"].as_str().unwrap();
        let q: Value =
            serde_json::from_str(&ok(&stud(&["query", &five, spot, "--json"], ""))).unwrap();
        assert_eq!(q["node"], node["node"], "{spot}");
        assert_eq!(q["actions"], node["actions"], "{spot}");
        assert_eq!(q["action_names"], node["action_names"], "{spot}");
        assert_eq!(q["street"], node["street"], "{spot}");
        // Past the first street the spot fixes whether the player acted first on the street
        // before: the query answers the export's rows of that order, one a bucket.
        let rows = node["rows"].as_array().unwrap();
        let hands = q["hands"].as_array().unwrap();
        let street = node["street"].as_u64().unwrap() as usize;
        let rows: Vec<&Value> = if street == 0 {
            rows.iter().collect()
        } else {
            let order = |r: &Value| r["acted_first"][names[street - 1]].as_bool().unwrap();
            let of = |o: bool| -> Vec<&Value> { rows.iter().filter(|r| order(r) == o).collect() };
            let answers = |rows: &Vec<&Value>| {
                (hands.iter().zip(rows)).all(|(h, r)| h["probabilities"] == r["stored"])
            };
            [of(false), of(true)]
                .into_iter()
                .find(answers)
                .unwrap_or_else(|| panic!("{spot}: the rows of neither order"))
        };
        assert_eq!(hands.len(), rows.len(), "{spot}");
        for (h, r) in hands.iter().zip(rows) {
            assert_eq!(h["bucket"], r["bucket"], "{spot}");
            assert_eq!(h["probabilities"], r["stored"], "{spot}");
            assert_eq!(h["unreached"], r["unreached"], "{spot}");
        }
    }
    // The CSV holds the same numbers: one row per node and bucket.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut csv_lines = text.lines();
    let head = csv_cells(csv_lines.next().unwrap());
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<Vec<String>> = csv_lines.map(csv_cells).collect();
    let total: usize = nodes
        .iter()
        .map(|n| n["rows"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len(), total);
    let node_773 = &nodes[299];
    let id = node_773["node"].to_string();
    let of_node: Vec<&Vec<String>> = rows.iter().filter(|r| r[col("node")] == id).collect();
    assert_eq!(of_node.len(), node_773["rows"].as_array().unwrap().len());
    for (r, j) in of_node.iter().zip(node_773["rows"].as_array().unwrap()) {
        assert_eq!(r.len(), head.len());
        assert_eq!(r[col("path")], node_773["path"].as_str().unwrap());
        assert_eq!(r[col("pot")], node_773["pot"].to_string());
        for (i, p) in j["stored"].as_array().unwrap().iter().enumerate() {
            let cell: f64 = r[col(&format!("stored_{}", i + 1))].parse().unwrap();
            // (serde_json's float parsing may land one unit in the last place off.)
            assert!((cell - p.as_f64().unwrap()).abs() < 1e-15, "{cell} vs {p}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_public_tree_file_is_refused_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("stud-export-kuhn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kuhn = dir.join("kuhn.strat");
    ok(&stud(
        &[
            "solve",
            "--game",
            "kuhn",
            "--iterations",
            "10",
            "--out",
            kuhn.to_str().unwrap(),
        ],
        "",
    ));
    let e = err(&stud(&["export", kuhn.to_str().unwrap()], ""));
    assert!(e.contains("public tree"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pipe_given_as_out_is_written_in_place_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = std::env::temp_dir().join(format!("stud-export-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut first = String::new();
            let mut r = std::io::BufReader::new(std::fs::File::open(&fifo).unwrap());
            r.read_line(&mut first).unwrap();
            let rest = std::io::copy(&mut r, &mut std::io::sink()).unwrap();
            (first, rest)
        })
    };
    let five = shipped("5stud-hu.strat");
    ok(&stud(
        &["export", &five, "--out", fifo.to_str().unwrap()],
        "",
    ));
    let (first, rest) = reader.join().unwrap();
    assert!(first.contains("\"export\":\"stud strategy\""), "{first}");
    assert!(rest > 1_000_000, "{rest} bytes after the header");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe was replaced");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_help_examples_run() {
    let help = ok(&stud(&["export", "--help"], ""));
    let dir = std::env::temp_dir().join(format!("stud-export-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ran = 0;
    for line in help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("stud export "))
    {
        // The command before any pipe; the shipped file and the output found where they are.
        let command = line.split(" | ").next().unwrap();
        let words: Vec<String> = command["stud ".len()..]
            .split(' ')
            .map(|w| match w.strip_prefix("strategies/") {
                Some(f) => shipped(f),
                None if w.ends_with(".csv") => dir.join(w).to_str().unwrap().to_string(),
                None => w.to_string(),
            })
            .collect();
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let out = ok(&stud(&args, ""));
        if !line.contains("--out") {
            assert!(out.starts_with("{\"export\":\"stud strategy\""), "{line}");
        }
        ran += 1;
    }
    assert_eq!(ran, 2, "{help}");
    assert!(dir.join("5stud.csv").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file whose rows recall the order of play (`--recall last`) is exported a row per key:
/// each bucket once per order recalled, labelled with it, and the rows of the spot's own order
/// are the ones `stud query` answers there; a file that recalls buckets is refused.
#[test]
fn a_file_recalling_the_order_of_play_is_exported_a_row_per_key() {
    let dir = std::env::temp_dir().join(format!("stud-export-recall-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let abst = dir.join("abstractions");
    let file = |recall: &str| {
        dir.join(format!("{recall}.strat"))
            .to_str()
            .unwrap()
            .to_string()
    };
    for recall in ["last", "buckets"] {
        ok(&stud(
            &[
                "solve",
                "--game",
                "5stud",
                "--abstraction",
                "tiny",
                "--abstraction-dir",
                abst.to_str().unwrap(),
                "--recall",
                recall,
                "--iterations",
                "20",
                "--batch",
                "64",
                "--threads",
                "1",
                "--out",
                &file(recall),
            ],
            "",
        ));
    }
    let refused = err(&stud(&["export", &file("buckets")], ""));
    assert!(refused.contains("previous street's bucket"), "{refused}");

    let last = file("last");
    let out = ok(&stud(&["export", &last, "--format", "json"], ""));
    let mut lines = out.lines();
    let head: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let names: Vec<String> = head["streets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["street_name"].as_str().unwrap().to_string())
        .collect();
    let nodes: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    let (mut asked, mut differ) = (0, 0);
    for (i, node) in nodes.iter().enumerate() {
        let street = node["street"].as_u64().unwrap() as usize;
        let rows = node["rows"].as_array().unwrap();
        // tiny: 8 buckets a street; past the first street each twice, the street before's
        // order recalled.
        assert_eq!(rows.len(), if street == 0 { 8 } else { 16 }, "{node}");
        for (k, r) in rows.iter().enumerate() {
            assert_eq!(r["bucket"], (if street == 0 { k } else { k / 2 }), "{r}");
            match street {
                0 => assert!(r.get("acted_first").is_none(), "{r}"),
                s => assert_eq!(r["acted_first"][&names[s - 1]], k % 2 == 1, "{r}"),
            }
        }
        if street == 0 || i % 401 != 0 {
            continue;
        }
        // The query at the node's spot answers the rows of the spot's own order, bucket by
        // bucket: whether the seat to act was first on the street before, which the query at
        // that street's first decision (the spot up to its cards) says.
        let spot = node["spot"].as_str().unwrap();
        let q: Value =
            serde_json::from_str(&ok(&stud(&["query", &last, spot, "--json"], ""))).unwrap();
        assert_eq!(q["node"], node["node"], "{spot}");
        let before = prefix_to_street(spot, street - 1);
        let first: Value =
            serde_json::from_str(&ok(&stud(&["query", &last, &before, "--json"], ""))).unwrap();
        let order = usize::from(first["seat"] == q["seat"]);
        let hands = q["hands"].as_array().unwrap();
        let matches = |order: usize| {
            hands
                .iter()
                .enumerate()
                .all(|(b, h)| h["probabilities"] == rows[2 * b + order]["stored"])
        };
        assert!(matches(order), "{spot}: the rows of order {order}");
        differ += usize::from(!matches(1 - order));
        asked += 1;
    }
    assert!(asked > 3, "{asked}");
    assert!(
        differ > 0,
        "the two orders' rows differ somewhere among {asked} nodes"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `spot` up to the cards that open `street` (0: the door cards), the street's first decision:
/// card tokens (a rank and a suit) come in one group a street, between the actions.
fn prefix_to_street(spot: &str, street: usize) -> String {
    let is_card = |t: &str| {
        let b = t.as_bytes();
        b.len() == 2 && b"23456789TJQKA".contains(&b[0]) && b"cdhs".contains(&b[1])
    };
    let tokens: Vec<&str> = spot.split_whitespace().collect();
    let (mut groups, mut end) = (0, 0);
    for (i, t) in tokens.iter().enumerate() {
        if is_card(t) {
            if i == 0 || !is_card(tokens[i - 1]) {
                groups += 1;
            }
            if groups > street + 1 {
                break;
            }
            end = i + 1;
        } else if groups > street {
            break;
        }
    }
    tokens[..end].join(" ")
}
