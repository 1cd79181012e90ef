//! `stud explore` in headless Chromium: the page clicks through a hand with its own buttons
//! (cards dealt, actions taken, over several streets), and what it shows at the end is what
//! `stud query --ranges --json` answers at that spot: the strategy by bucket and by hand class,
//! and each seat's range reaching the node. Chromium is required: without it the test fails,
//! naming the package.

use crate::common;

use common::{ok, stud};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A shipped strategy file, as a path string.
pub(crate) fn shipped(file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../strategies")
        .join(file)
        .to_str()
        .unwrap()
        .to_string()
}

/// The server, stopped when the test ends (even by a failed assertion).
pub(crate) struct Server {
    child: Child,
    /// The address the server printed, `http://127.0.0.1:PORT/`.
    pub(crate) url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `stud explore FILE --port 0` and reads the address it prints.
pub(crate) fn serve(file: &str) -> Server {
    serve_with(file, &[])
}

/// [`serve`] with more arguments (`--diff B`).
pub(crate) fn serve_with(file: &str, more: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(["explore", file, "--port", "0"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run stud explore");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, url }
}

/// The page's DOM after Chromium has loaded `url` and its script has run (the fetches to the
/// server included: virtual time waits for them).
pub(crate) fn dom(url: &str) -> String {
    // A profile of its own per page: Chromium refuses a profile another one holds, and the
    // tests load pages at once.
    static PAGES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let page = PAGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = std::env::temp_dir().join(format!(
        "stud-explore-chromium-{}-{page}",
        std::process::id()
    ));
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--virtual-time-budget=60000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .output()
        .unwrap_or_else(|e| {
            panic!("chromium is needed to test the page (Debian: apt-get install chromium): {e}")
        });
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The text of the element with `id` (no markup inside it).
pub(crate) fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in {dom}"));
    let start = at + dom[at..].find('>').unwrap() + 1;
    &dom[start..start + dom[start..].find('<').unwrap()]
}

/// The values of `attr="..."` in `s`, in order.
pub(crate) fn attrs<'a>(s: &'a str, attr: &str) -> Vec<&'a str> {
    let key = format!("{attr}=\"");
    s.match_indices(&key)
        .map(|(i, _)| {
            let v = &s[i + key.len()..];
            &v[..v.find('"').unwrap()]
        })
        .collect()
}

/// The rows of the bucket table: (bucket, probabilities).
fn bucket_rows(dom: &str) -> Vec<(u64, Vec<f64>)> {
    let table = &dom[dom.find("id=\"buckets\"").expect("the bucket table")..];
    let table = &table[..table.find("</table>").unwrap()];
    table
        .split("<tr data-bucket=\"")
        .skip(1)
        .map(|row| {
            let bucket = row[..row.find('"').unwrap()].parse().unwrap();
            let probs = attrs(row, "data-p")
                .iter()
                .map(|p| p.parse().unwrap())
                .collect();
            (bucket, probs)
        })
        .collect()
}

/// The rows of the element with `id` (up to the first `end` tag) that carry `key`: (its value,
/// the numbers of `num` in the row, in order).
pub(crate) fn keyed_rows<'a>(
    dom: &'a str,
    id: &str,
    end: &str,
    key: &str,
    num: &str,
) -> Vec<(&'a str, Vec<f64>)> {
    let from = &dom[dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"))..];
    let part = &from[..from.find(end).unwrap()];
    part.split(&format!("<tr {key}=\""))
        .skip(1)
        .map(|row| {
            let row = &row[..row.find("</tr>").unwrap()];
            let nums = attrs(row, num).iter().map(|p| p.parse().unwrap()).collect();
            (&row[..row.find('"').unwrap()], nums)
        })
        .collect()
}

/// A JSON list of numbers.
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect()
}

/// `a` and `b` are the same numbers (the page prints them as JavaScript writes them).
fn same(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: {a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-12, "{what}: {a:?} vs {b:?}");
    }
}

/// Plays `steps` by clicks on the page of `file` and checks the page against `stud query`.
fn check_path(file: &str, steps: &str) {
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
    let q: Value = serde_json::from_str(&ok(&stud(
        &["query", file, steps, "--ranges", "--json"],
        "",
    )))
    .unwrap();
    // The same decision: who acts, where, with which actions in words.
    let heading = text_of(&page, "decision");
    let seat = q["seat"].as_u64().unwrap() + 1;
    let street = q["street_name"].as_str().unwrap();
    assert!(
        heading.starts_with(&format!("p{seat} to act on {street}")),
        "{heading}"
    );
    let buttons: Vec<&str> = attrs(&page, "data-step");
    assert_eq!(
        buttons,
        q["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect::<Vec<_>>()
    );
    for name in q["action_names"].as_array().unwrap() {
        assert!(
            page.contains(&format!(">{}</button>", name.as_str().unwrap())),
            "{name}"
        );
    }
    // Every bucket the player's holdings fall in, with the file's numbers.
    let shown = bucket_rows(&page);
    let want: Vec<(u64, Vec<f64>)> = q["hands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["holdings"].as_u64().unwrap() > 0)
        .map(|h| {
            (
                h["bucket"].as_u64().unwrap(),
                h["probabilities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_f64().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(shown.len(), want.len(), "{page}");
    for ((b, p), (wb, wp)) in shown.iter().zip(&want) {
        assert_eq!(b, wb);
        assert_eq!(p.len(), wp.len());
        for (x, y) in p.iter().zip(wp) {
            assert!((x - y).abs() < 1e-12, "bucket {b}: {x} vs {y}");
        }
    }
    // The command shown is the one just run, and the chart counts every holding once.
    assert_eq!(
        text_of(&page, "command").replace("&quot;", "\""),
        format!("stud query {file} \"{steps}\" --ranges --json")
    );
    let holds: u64 = q["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["holdings"].as_u64().unwrap())
        .sum();
    assert!(
        page.contains(&format!("its {holds} possible down cards")),
        "{holds}"
    );
    // The chart: each hand class the player may hold, with the query's mean probabilities.
    let chart = keyed_rows(&page, "chart", "</table>", "data-class", "data-p");
    let want: Vec<&Value> = q["chart"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["holdings"].as_u64().unwrap() > 0)
        .collect();
    assert!(want.len() > 1);
    assert_eq!(
        chart.iter().filter(|r| !r.1.is_empty()).count(),
        want.len(),
        "{page}"
    );
    for r in want {
        let class = r["class"].as_str().unwrap();
        let (_, shown) = chart.iter().find(|c| c.0 == class).expect(class);
        same(shown, &numbers(&r["probabilities"]), class);
    }
    // Each seat's range: the probability of the betting so far, by hand class and by bucket.
    let ranges = q["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2);
    // Someone has acted by every spot checked: a range narrower than every holding alike.
    assert!(ranges.iter().any(|r| r["reach"].as_f64().unwrap() < 1.0));
    for r in ranges {
        let id = format!("range-p{}", r["seat"].as_u64().unwrap() + 1);
        let reach: f64 = attrs(
            &page[page.find(&format!("id=\"{id}\"")).unwrap()..],
            "data-reach",
        )[0]
        .parse()
        .unwrap();
        same(&[reach], &[r["reach"].as_f64().unwrap()], &id);
        for (key, num, list, name) in [
            ("data-range-class", "data-reach", "classes", "class"),
            ("data-range-class", "data-share", "classes", "class"),
            ("data-range-bucket", "data-reach", "buckets", "bucket"),
            ("data-range-bucket", "data-share", "buckets", "bucket"),
        ] {
            let shown = keyed_rows(&page, &id, "</section>", key, num);
            let want: Vec<(String, f64)> = r[list]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["holdings"].as_u64().unwrap() > 0)
                .map(|c| {
                    let label = match &c[name] {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (label, c[&num["data-".len()..]].as_f64().unwrap())
                })
                .collect();
            assert!(!want.is_empty());
            assert_eq!(shown.len(), want.len(), "{id} {list}");
            for ((label, nums), (wl, wv)) in shown.iter().zip(&want) {
                assert_eq!(label, wl, "{id}");
                same(nums, &[*wv], &format!("{id} {label} {num}"));
            }
        }
    }
    drop(server);
}

/// Razz from 3rd to 5th street, both seats betting on each.
const RAZZ_PATH: &str = "Kc 3d pb cc 4h 5s cbr5 cc 7c 8d cbr10";

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_hand_clicked_through_in_chromium_shows_what_query_answers() {
    // Seventh-card stud to fourth street, p1 facing a bet: the pot odds shown.
    let seven = shipped("7stud-hu.strat");
    check_path(&seven, "3c 8d pb cc Qs 2h cc cbr5");
    let server = serve(&seven);
    let page = dom(&format!(
        "{}#play=3c%208d%20pb%20cc%20Qs%202h%20cc%20cbr5",
        server.url
    ));
    // Pot: two antes, the bring-in and its call, the bet of 5: 11; to call 5 of 16.
    let odds = text_of(&page, "odds");
    assert!(
        odds.starts_with("pot 11 · to call 5, pot odds 31.") && odds.ends_with('%'),
        "{odds}"
    );
    drop(server);
    // Five-card stud names its streets from 2nd.
    check_path(&shipped("5stud-hu.strat"), "3c 8d pb");
    // Razz over three streets, the ranges replayed through each.
    check_path(&shipped("razz-hu.strat"), RAZZ_PATH);
}

#[test]
fn odd_urls_get_clear_errors() {
    let server = serve(&shipped("razz-hu.strat"));
    let addr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let ask = |request: &str| {
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        std::io::Write::write_all(&mut c, request.as_bytes()).unwrap();
        let mut answer = String::new();
        c.read_to_string(&mut answer).unwrap();
        answer
    };
    let host = format!("Host: {addr}\r\n\r\n");
    let a = ask(&format!("GET /api/node?spot=%zz HTTP/1.1\r\n{host}"));
    assert!(
        a.starts_with("HTTP/1.1 400") && a.contains("\"error\""),
        "{a}"
    );
    let a = ask(&format!("GET /../../etc/passwd HTTP/1.1\r\n{host}"));
    assert!(a.starts_with("HTTP/1.1 404"), "{a}");
    let a = ask(&format!("GET /{} HTTP/1.1\r\n{host}", "x".repeat(9_000)));
    assert!(a.starts_with("HTTP/1.1 431"), "{a}");
    // Still serving after them.
    let a = ask(&format!("GET /api/node?spot=Kc%203d HTTP/1.1\r\n{host}"));
    assert!(
        a.starts_with("HTTP/1.1 200") && a.contains("3rd street"),
        "{a}"
    );
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_values_view_shows_what_query_values_answers() {
    let seven = shipped("7stud-hu.strat");
    let server = serve(&seven);
    let query = |spot: &str, hand: &[&str]| -> Value {
        let mut args = vec!["query", &seven, spot, "--values", "--json"];
        args.extend(hand);
        serde_json::from_str(&ok(&stud(&args, ""))).unwrap()
    };
    // Third street, p2 with As Kd facing the bring-in, clicked to: the default estimate.
    let page = dom(&format!("{}#play=3c%208d%20pb&values=AsKd", server.url));
    assert!(page.contains("data-ready=\"yes\""), "{page}");
    assert!(page.contains("data-method=\"estimate\""), "{page}");
    let q = query("3c 8d pb", &["--hand", "AsKd"]);
    let shown = keyed_rows(
        &page,
        "values-table",
        "</table>",
        "data-values-hand",
        "data-chips",
    );
    assert_eq!(shown.len(), 1, "{page}");
    assert_eq!(shown[0].0, "AsKd");
    same(
        &shown[0].1,
        &numbers(&q["hand"]["chips"]),
        "the hand's values",
    );
    assert!(page.contains("a 95% interval"), "{page}");
    // Seventh street, no hand: the exact values of the range and of each class.
    let spot = "3c 8d pb cc Qs 2h cc cc 4d 5h cc cc 9c Jd cc cc";
    let page = dom(&format!(
        "{}#spot={}&values=-",
        server.url,
        spot.replace(' ', "%20")
    ));
    assert!(page.contains("data-method=\"exact\""), "{page}");
    let q = query(spot, &[]);
    let range = keyed_rows(
        &page,
        "values-table",
        "</table>",
        "data-values-range",
        "data-chips",
    );
    same(
        &range[0].1,
        &numbers(&q["range"]["chips"]),
        "the range's values",
    );
    let classes = keyed_rows(
        &page,
        "values-table",
        "</table>",
        "data-values-class",
        "data-chips",
    );
    let want = q["classes"].as_array().unwrap();
    assert_eq!(classes.len(), want.len());
    for ((name, nums), w) in classes.iter().zip(want) {
        assert_eq!(*name, w["class"].as_str().unwrap());
        same(nums, &numbers(&w["chips"]), name);
    }
}
