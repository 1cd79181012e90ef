//! A bot in another language plays full matches through `stud serve`: `scripts/serve-match.py`
//! (a Python dealer and bot) plays 50 seven-card stud hands over TCP against the `heuristic`
//! player and against a tiny solved strategy, dealing by the server's `due` replies; every hand
//! must finish with no protocol error. python3 is required: without it the test fails, naming
//! the package.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn serve_match(player: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/serve-match.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--player", player, "--hands", "50", "--seed", "7", "--json"])
        .args(["--stud", env!("CARGO_BIN_EXE_stud")])
        .output()
        .expect("run serve-match.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{player}: {stdout}{stderr}");
    let r: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{player}: {e}: {stdout}{stderr}"));
    assert_eq!(r["errors"], 0, "{r}\n{stderr}");
    assert_eq!(r["finished"], 50, "{r}\n{stderr}");
    assert_eq!(r["hands"], 50, "{r}");
    // Every hand is zero-sum.
    let (py, served) = (r["python_bot_chips"].as_i64(), r["served_chips"].as_i64());
    assert_eq!(py.unwrap(), -served.unwrap(), "{r}");
    r
}

/// Solves 7stud at the `tiny` size (about a second), as tests/it/betting_cli.rs does.
fn tiny_strategy() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-serve-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, abst) = (dir.join("tiny.strat"), dir.join("abstractions"));
    let o = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(["solve", "--game", "7stud", "--abstraction", "tiny"])
        .args(["--abstraction-dir", abst.to_str().unwrap()])
        .args(["--batch", "64", "--threads", "2", "--iterations", "6"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .expect("run stud solve");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn a_python_dealer_and_bot_play_full_hands_through_serve() {
    assert!(
        python(),
        "python3 is needed to run scripts/serve-match.py (Debian: apt-get install python3)"
    );
    let r = serve_match("heuristic");
    eprintln!("heuristic: {r}");
    let strat = tiny_strategy();
    let r = serve_match(strat.to_str().unwrap());
    eprintln!("tiny strategy: {r}");
    let _ = std::fs::remove_dir_all(strat.parent().unwrap());
}
