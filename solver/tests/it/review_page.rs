//! The page of `stud review --html`: well-formed (every element closed in order, as written),
//! and in headless Chromium it holds every hand reviewed, each decision a row, the leaks
//! marked, and the chart a bar per street and spot.

use crate::common;
use crate::explore_browser::dom;

use common::{ok, stud};
use serde_json::Value;
use std::path::PathBuf;

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .to_str()
        .unwrap()
        .to_string()
}

/// Checks that every element of `html` is closed in the order opened (void elements aside, and
/// `<x/>`), and that nothing but text lies outside the tags: the page as written.
fn assert_well_formed(html: &str) {
    const VOID: [&str; 4] = ["meta", "br", "rect", "!DOCTYPE"];
    let mut open: Vec<&str> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("a tag closed by >") + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap();
        if tag.starts_with('/') {
            assert_eq!(open.pop(), Some(name), "</{name}> closes another element");
        } else if !tag.ends_with('/') && !VOID.contains(&name) {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
}

#[test]
fn the_page_holds_every_hand_and_decision_in_chromium() {
    let dir = std::env::temp_dir().join(format!("stud-review-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("review.html");
    let out = ok(&stud(
        &[
            "review",
            &repo("testdata/review/7stud-hu-raise.phhs"),
            &repo("testdata/review/7stud-3p-sound.phhs"),
            "--hero",
            "Hero",
            "--strategies",
            &repo("strategies"),
            "--no-values",
            "--json",
            "--html",
            page.to_str().unwrap(),
        ],
        "",
    ));
    let v: Value = serde_json::from_str(&out).unwrap();
    let hands = v["hands"].as_array().unwrap();
    let decisions: usize = hands
        .iter()
        .map(|h| h["decisions"].as_array().unwrap().len())
        .sum();
    let leaks = v["summary"]["all"]["leaks"].as_u64().unwrap() as usize;
    let html = std::fs::read_to_string(&page).unwrap();
    assert_well_formed(&html);
    assert!(
        !html.contains("<script") && !html.contains("src=\""),
        "self-contained"
    );
    let dom = dom(&format!("file://{}", page.display()));
    assert_eq!(dom.matches("<section class=\"hand\"").count(), 24);
    for (i, h) in hands.iter().enumerate() {
        let at = dom.find(&format!("id=\"hand-{i}\"")).unwrap();
        let source = h["source"].as_str().unwrap();
        assert!(dom[at..].contains(source), "hand {i}: {source}");
    }
    assert_eq!(dom.matches("<tr class=\"decision").count(), decisions);
    assert_eq!(dom.matches("<tr class=\"decision leak\"").count(), leaks);
    let spots = v["summary"]["by_spot"].as_array().unwrap().len();
    assert_eq!(dom.matches("<g class=\"spot\"").count(), spots);
    assert!(dom.contains("Review of Hero"));
    std::fs::remove_dir_all(&dir).unwrap();
}
