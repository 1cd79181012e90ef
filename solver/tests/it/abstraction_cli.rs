//! `stud abstraction` through the built binary: build, cache, bucket, JSON and errors.

use crate::common;

use common::text;
use std::path::PathBuf;
use std::process::Output;

fn stud(args: &[&str]) -> Output {
    common::stud(args, "")
}

fn dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stud-abs-cli-{name}-{}", std::process::id()))
}

#[test]
fn build_then_bucket_from_the_cache() {
    let d = dir("build");
    let d = d.to_str().unwrap();
    let common = ["--game", "razz", "--size", "tiny", "--dir", d, "--json"];
    let built = stud(&[&["abstraction", "build"][..], &common].concat());
    assert!(built.status.success(), "{}", text(&built.stderr));
    let built: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    assert_eq!(built["origin"], "built");
    let cached = stud(&[&["abstraction", "build"][..], &common].concat());
    let cached: serde_json::Value = serde_json::from_slice(&cached.stdout).unwrap();
    assert_eq!(cached["origin"], "cached");
    assert_eq!(cached["checksum"], built["checksum"]);

    let hand = ["Ac 2d 9s | 3h 4h 5c Kd", "--opponent", "Qc Qd 7s 2s"];
    let out = stud(&[&["abstraction", "bucket"][..], &common, &hand].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["street"], 4);
    assert_eq!(v["checksum"], built["checksum"]);
    assert!(v["bucket"].as_u64().unwrap() < v["buckets"].as_u64().unwrap());
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn bad_hands_are_refused_by_name() {
    let d = dir("bad");
    let d = d.to_str().unwrap();
    let run = |mine: &str, opp: &str| {
        let out = stud(&[
            "abstraction",
            "bucket",
            "--game",
            "5stud",
            "--size",
            "tiny",
            "--dir",
            d,
            mine,
            "--opponent",
            opp,
        ]);
        assert!(!out.status.success());
        text(&out.stderr)
    };
    assert!(run("As Kd", "Kc").contains("`|`"));
    assert!(run("As | Kd Qd Jd Td 9d", "Kc").contains("no street of 5stud"));
    assert!(run("As | Kd", "Kd").contains("more than once"));
    assert!(run("As | Kd", "Kx").contains("suit"));
    let out = stud(&["abstraction", "build", "--game", "leduc", "--size", "tiny"]);
    assert!(text(&out.stderr).contains("community"));
    let out = stud(&["abstraction", "build", "--size", "huge", "--dir", d]);
    assert!(text(&out.stderr).contains("tiny, small, default, large"));
    let _ = std::fs::remove_dir_all(d);
}
