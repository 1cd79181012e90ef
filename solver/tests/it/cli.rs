//! The `stud solve`, `info` and `query` commands, run as a user would: including a solve killed
//! mid-run and resumed, which must end with the same file as an uninterrupted one.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn stud(args: &[&str]) -> Output {
    common::stud(args, "")
}

fn ok(args: &[&str]) -> String {
    let o = stud(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let o = stud(args);
    assert!(!o.status.success(), "{args:?} should fail");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A checkpoint written before checkpoint format 2 (by the build before the one generic
/// header: testdata/repro/README.md) is refused by `--resume` and `stud info`, naming the file
/// and what to do; the solve without `--resume` still runs.
#[test]
fn a_checkpoint_of_an_older_format_is_refused_with_what_to_do() {
    let d = dir("old-ckpt");
    let old = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/repro/kuhn-checkpoint-format-1.ckpt");
    let ckpt = d.join("kuhn.ckpt");
    std::fs::copy(&old, &ckpt).unwrap_or_else(|e| panic!("{}: {e}", old.display()));
    let out = d.join("kuhn.strat");
    let resume = [
        "solve",
        "--game",
        "kuhn",
        "--iterations",
        "20",
        "--resume",
        "--out",
        s(&out),
    ];
    let e = fails(&resume);
    assert!(
        e.contains(s(&ckpt)) && e.contains("format 1") && e.contains("without --resume"),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");
    let e = fails(&["info", s(&ckpt)]);
    assert!(e.contains("format 1") && e.contains(s(&ckpt)), "{e}");
    ok(&[
        "solve",
        "--game",
        "kuhn",
        "--iterations",
        "20",
        "--out",
        s(&out),
    ]);
    assert!(out.exists());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn solve_info_query() {
    let d = dir("sqi");
    let out = d.join("kuhn.strat");
    let json = ok(&[
        "solve",
        "--game",
        "kuhn",
        "--iterations",
        "1000",
        "--every",
        "500",
        "--json",
        "--out",
        s(&out),
    ]);
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{json}");
    assert_eq!(lines[1]["iterations"], 1000);
    assert!((lines[1]["exploitability"].as_f64().unwrap() - 0.0000874).abs() < 1e-6);
    assert!(lines[0]["seconds"].as_f64().is_some());
    let info: serde_json::Value =
        serde_json::from_str(&ok(&["info", s(&out), "--verify", "--json"])).unwrap();
    assert_eq!(info["iterations"], 1000);
    assert_eq!(info["game"]["variant"], "kuhn");
    assert!(ok(&["info", s(&out)]).contains("cfr+"));
    // Seat 1 with the king calls a bet; with the jack folds it.
    let q: serde_json::Value =
        serde_json::from_str(&ok(&["query", s(&out), "cbr1", "--json"])).unwrap();
    assert_eq!(q["actions"], serde_json::json!(["f", "cc"]));
    let p = |i: usize| {
        q["hands"][i]["probabilities"].as_array().unwrap()[1]
            .as_f64()
            .unwrap()
    };
    assert!(p(0) < 0.01 && p(2) > 0.99, "{q}");
    // The same spot in short form, and in PHH form with seat prefixes.
    assert_eq!(
        ok(&["query", s(&out), "x b"]),
        ok(&["query", s(&out), "p1 cc p2 cbr 1"])
    );
    // Spots outside the game are errors that say why.
    assert!(fails(&["query", s(&out), "cbr1 cbr2"]).contains("choices are: f cc"));
    assert!(fails(&["query", s(&out), "x x"]).contains("hand is over"));
    assert!(fails(&["query", s(&out), "zz"]).contains("neither an action"));
    assert!(fails(&["query", s(&out), "", "--hand", "As"]).contains("not a card of this game"));
    assert!(fails(&["info", s(&d.join("missing.strat"))]).contains("missing.strat"));
    assert!(fails(&["solve", "--game", "chess", "--iterations", "1"]).contains("chess"));
    // A game from a TOML file: Leduc with one bet per round.
    let toml = d.join("leduc1.toml");
    std::fs::write(&toml, "preset = \"leduc\"\nmax_bets = 1\n").unwrap();
    let out1 = d.join("leduc1.strat");
    ok(&[
        "solve",
        "--game",
        s(&toml),
        "--iterations",
        "10",
        "--out",
        s(&out1),
    ]);
    let info: serde_json::Value = serde_json::from_str(&ok(&["info", s(&out1), "--json"])).unwrap();
    assert_eq!(info["game"]["max_bets"], 1);
    std::fs::write(&toml, "preset = \"leduc\"\nmax_bet = 1\n").unwrap();
    assert!(fails(&["solve", "--game", s(&toml), "--iterations", "1"]).contains("max_bet"));
    // The real games go to the deal-sampled solver, which needs a card abstraction.
    let e = fails(&[
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "lossless",
        "--iterations",
        "1",
    ]);
    assert!(e.contains("without a card abstraction"), "{e}");
}

#[test]
fn a_walked_solve_estimates_its_memory_and_refuses_what_does_not_fit() {
    let d = dir("memory");
    let json = ok(&[
        "solve",
        "--game",
        "leduc",
        "--iterations",
        "10",
        "--json",
        "--out",
        s(&d.join("leduc.strat")),
    ]);
    let v: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let (est, peak) = (
        v["estimate_bytes"].as_f64().unwrap(),
        v["peak_bytes"].as_f64().unwrap(),
    );
    // Within a fifth, beside the code the solve pages in after the resident size is measured
    // (1.0 MiB in the release build, 1.7 MiB in the test profile's larger binary, for Leduc's
    // 0.2 MiB of allocations): the estimate counts what the solve allocates.
    let code = 2.0 * 1024.0 * 1024.0;
    assert!(
        (est - peak).abs() <= 0.2 * peak + code,
        "estimate {est}, peak {peak}"
    );
    assert_eq!(v["estimate"]["slots"], 2184);
    // ministud with all 13 ranks, under a 1 GiB address-space limit: refused while the tree is
    // built, with the figures (it used to abort when an allocation failed).
    let toml = d.join("ministud13.toml");
    std::fs::write(
        &toml,
        "preset = \"ministud\"\ndeck = { ranks = [\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\
         \"T\",\"J\",\"Q\",\"K\",\"A\"], suits = 4 }\n",
    )
    .unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1048576 && exec {} solve --game {} --iterations 1 --out {}",
            env!("CARGO_BIN_EXE_stud"),
            s(&toml),
            s(&d.join("m13.strat"))
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("outgrew the memory available") && err.contains("MiB available"),
        "{err}"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_bad_out_is_refused_before_the_work_and_a_failed_write_keeps_the_result() {
    let d = dir("out");
    let solve = |out: &Path| -> Vec<String> {
        [
            "solve",
            "--game",
            "kuhn",
            "--iterations",
            "50",
            "--out",
            s(out),
        ]
        .map(String::from)
        .to_vec()
    };
    fn args(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    // A directory, a folder that is a file, a place nothing can be created: refused before any
    // iteration, so no checkpoint is written.
    std::fs::create_dir_all(d.join("adir")).unwrap();
    std::fs::write(d.join("afile"), "").unwrap();
    for (out, want) in [
        (d.join("adir"), "adir is a directory"),
        (d.join("afile/x.strat"), "afile is not a folder"),
        (
            PathBuf::from("/proc/x.strat"),
            "/proc/x.strat cannot be written",
        ),
    ] {
        let e = fails(&args(&solve(&out)));
        assert!(e.contains(want), "{e}");
    }
    assert!(!d.join("adir.ckpt").exists());
    // The real games' back end checks the same, before it builds or reads its bucketing.
    let e = fails(&[
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "tiny",
        "--iterations",
        "1",
        "--abstraction-dir",
        s(&d.join("abstractions")),
        "--out",
        s(&d.join("adir")),
    ]);
    assert!(e.contains("adir is a directory"), "{e}");
    assert!(!d.join("abstractions").exists());
    // The uninterrupted solve, then the same under a file-size limit that holds the checkpoint
    // but not the (larger) strategy file: the write fails naming the file, no temporary file is
    // left, the checkpoint is kept, and --resume writes the same file from it.
    let whole = d.join("whole.strat");
    let mut keep = solve(&whole);
    keep.push("--keep-checkpoint".into());
    ok(&args(&keep));
    let limit = std::fs::metadata(whole.with_extension("ckpt"))
        .unwrap()
        .len();
    assert!(std::fs::metadata(&whole).unwrap().len() > limit);
    let under_limit = |args: Vec<String>, limit: u64| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_stud"));
        cmd.args(args);
        // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
                let lim = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        cmd.output().unwrap()
    };
    let out = d.join("limited.strat");
    let o = under_limit(solve(&out), limit);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("limited.strat was not written; the solve is kept in")
            && err.contains("limited.strat.tmp"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("limited"))
        .collect();
    assert_eq!(left, ["limited.ckpt"]);
    let mut resume = solve(&out);
    resume.push("--resume".into());
    ok(&args(&resume));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    // A periodic checkpoint that cannot be written stops the solve at once, naming the file.
    let o = under_limit(solve(&d.join("tiny.strat")), 100);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the checkpoint of iteration 5 was not written: the solve stops")
            && err.contains("tiny.ckpt.tmp: File too large"),
        "{err}"
    );
    assert!(!d.join("tiny.ckpt.tmp").exists() && !d.join("tiny.strat").exists());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn killed_solve_resumes_to_the_same_file() {
    let d = dir("resume");
    let a = d.join("a.strat");
    let b = d.join("b.strat");
    let args = |out: &Path| {
        vec![
            "solve".to_string(),
            "--game".into(),
            "leduc".into(),
            "--iterations".into(),
            "4000".into(),
            "--every".into(),
            "100".into(),
            "--threads".into(),
            "2".into(),
            "--json".into(),
            "--keep-checkpoint".into(),
            "--out".into(),
            s(out).into(),
        ]
    };
    ok(&args(&a).iter().map(String::as_str).collect::<Vec<_>>());
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(args(&b))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = b.with_extension("ckpt");
    let t = Instant::now();
    while !ckpt.exists() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut resume = args(&b);
    resume.push("--resume".into());
    ok(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // A checkpoint of another game is refused.
    let e = fails(&[
        "solve",
        "--game",
        "kuhn",
        "--iterations",
        "5",
        "--resume",
        "--out",
        s(&b),
    ]);
    assert!(e.contains("another game"), "{e}");
}

/// Ctrl-C (SIGINT) in the middle of a long solve, long before its first periodic checkpoint:
/// the solve stops after the iteration in progress, writes the strategy so far and keeps the
/// checkpoint, fails saying so, and `--resume` goes on from there rather than from scratch;
/// `stud info` reads the checkpoint, and refuses it damaged. The walked solver (leduc) and the
/// deal-sampled one (ministud, `--solver deal`) share the session loop that does it.
#[test]
fn an_interrupted_solve_writes_its_work_and_resumes() {
    use std::io::BufRead;
    let d = dir("sigint");
    for (game, solver) in [("leduc", "tree"), ("ministud", "deal")] {
        let out = d.join(format!("{game}.strat"));
        let args = |iterations: &str| {
            let mut a = vec![
                "solve",
                "--game",
                game,
                "--solver",
                solver,
                "--out",
                s(&out),
            ];
            a.extend(["--iterations", iterations].iter().map(|x| x.to_owned()));
            a.iter().map(|x| x.to_string()).collect::<Vec<_>>()
        };
        // A hundred million iterations: hours, and a first checkpoint at ten million.
        let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
            .args(args("100000000"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        // The first progress line comes after the first iteration: the loop has started.
        while !said.contains(" iteration, ") {
            assert!(err.read_line(&mut said).unwrap() > 0, "{game}: {said}");
        }
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill(2) on our own child's pid, which has not been waited for yet.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        let t = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if t.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("{game}: the solve did not stop within 60 s of SIGINT");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        assert!(!status.success(), "{game}: {rest}");
        let done: u64 = rest
            .split("interrupted after ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{game}: {rest}"));
        assert!(done > 0 && rest.contains("--resume"), "{game}: {rest}");
        let ckpt = out.with_extension("ckpt");
        assert!(out.exists() && ckpt.exists(), "{game}");
        // `stud info` reads the checkpoint, and refuses it damaged.
        let info: serde_json::Value =
            serde_json::from_str(&ok(&["info", s(&ckpt), "--json"])).unwrap();
        assert_eq!(info["header"]["iterations"], done, "{info}");
        assert_eq!(info["verified"], true, "{info}");
        // The checkpoint's own format, beside the container's version.
        assert_eq!(
            (&info["format_version"], &info["container_version"]),
            (&serde_json::json!(2), &serde_json::json!(5)),
            "{info}"
        );
        let text = ok(&["info", s(&ckpt)]);
        assert!(
            text.contains(&format!("iterations:       {done}\n")),
            "{text}"
        );
        let mut bytes = std::fs::read(&ckpt).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let damaged = d.join("damaged.ckpt");
        std::fs::write(&damaged, bytes).unwrap();
        let e = fails(&["info", s(&damaged)]);
        assert!(e.contains("damaged"), "{e}");
        // Resumed to an iteration more, it says where it starts: every solver alike.
        let mut resume = args(&(done + 1).to_string());
        resume.extend(["--resume".to_string(), "--keep-checkpoint".to_string()]);
        let o = stud(&resume.iter().map(String::as_str).collect::<Vec<_>>());
        let said = String::from_utf8_lossy(&o.stderr);
        let from = format!("resumed from {} at iteration {done}\n", ckpt.display());
        assert!(o.status.success() && said.contains(&from), "{game}: {said}");
        // Then to a few more: it starts from the count the last one reached.
        let more = (done + 3).to_string();
        let mut resume = args(&more);
        resume.extend(["--resume".to_string(), "--json".to_string()]);
        let json = ok(&resume.iter().map(String::as_str).collect::<Vec<_>>());
        let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
        assert_eq!(last["iterations"], done + 3, "{game}: {json}");
        assert_eq!(last["resumed_from_iteration"], done + 1, "{game}: {json}");
        assert!(!ckpt.exists(), "{game}: finished, not kept");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn abstract_solve_query_and_ladder() {
    let d = dir("abs");
    let game = d.join("ka.toml");
    std::fs::write(
        &game,
        "preset = \"ministud\"\ndeck = { ranks = [\"K\", \"A\"], suits = 4 }\n",
    )
    .unwrap();
    let out = d.join("ka.strat");
    let cache = d.join("abstractions");
    let json = ok(&[
        "solve",
        "--game",
        s(&game),
        "--abstraction",
        "2",
        "--abstraction-dir",
        s(&cache),
        "--iterations",
        "20",
        "--json",
        "--out",
        s(&out),
    ]);
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let name = last["abstraction"].as_str().unwrap();
    assert!(name.starts_with("buckets:k2-2:"), "{name}");
    // The real game's best response wins more than the abstract game's.
    let (real, abs) = (
        last["exploitability"].as_f64().unwrap(),
        last["abstract_exploitability"].as_f64().unwrap(),
    );
    assert!(real > abs, "{real} {abs}");
    assert!(ok(&["info", s(&out)]).contains(name));
    // Seat 0 shows the ace of hearts, seat 1 the king of clubs: six hands can be seat 1's.
    let q = ok(&["query", s(&out), "Ah Kc"]);
    assert_eq!(
        q.lines().filter(|l| l.starts_with(['K', 'A'])).count(),
        6,
        "{q}"
    );
    // The ladder, and its refusals.
    let rows = ok(&[
        "eval",
        "ladder",
        "--game",
        s(&game),
        "--abstractions",
        "1",
        "--iterations",
        "5",
        "10",
        "--abstraction-dir",
        s(&cache),
        "--json",
    ]);
    assert_eq!(rows.lines().count(), 2, "{rows}");
    let e = fails(&[
        "eval",
        "ladder",
        "--game",
        s(&game),
        "--iterations",
        "10",
        "5",
    ]);
    assert!(e.contains("ascending"), "{e}");
    // Re-solving measured exactly: the file lifted back measures as solved, and every
    // last-street subgame is re-solved; a floor that is not a probability is refused.
    let r = ok(&[
        "eval",
        "resolve",
        s(&out),
        "--game",
        s(&game),
        "--iterations",
        "50",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&r).unwrap();
    let lifted = r["blueprint"]["chips"].as_f64().unwrap();
    assert!((lifted - real).abs() < 1e-3, "{r}");
    assert!(r["subgames"].as_u64().unwrap() > 100, "{r}");
    assert!(r["resolved"]["chips"].as_f64().unwrap() > 0.0, "{r}");
    assert_eq!(r["iterations"], 50.0);
    let e = fails(&[
        "eval",
        "resolve",
        s(&out),
        "--game",
        s(&game),
        "--floor",
        "2",
    ]);
    assert!(
        e.contains("--floor") && e.contains("a probability from 0 to 1, not `2`"),
        "{e}"
    );
    // From the first street: each subgame the whole hand given the door cards, the second
    // street's up cards dealt inside it; a street the game lacks is refused by name.
    let r = ok(&[
        "eval",
        "resolve",
        s(&out),
        "--game",
        s(&game),
        "--from-street",
        "2nd",
        "--iterations",
        "20",
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&r).unwrap();
    assert_eq!(r["from_street"], "2nd street", "{r}");
    assert_eq!(r["subgames"], 56, "{r}");
    assert!((r["blueprint"]["chips"].as_f64().unwrap() - lifted).abs() < 1e-12);
    let e = fails(&[
        "eval",
        "resolve",
        s(&out),
        "--game",
        s(&game),
        "--from-street",
        "5th",
    ]);
    assert!(
        e.contains("--from-street 5th") && e.contains("2nd street to 3rd street"),
        "{e}"
    );
    let e = fails(&[
        "solve",
        "--game",
        "ministud",
        "--abstraction",
        "small",
        "--abstraction-dir",
        s(&cache),
        "--iterations",
        "1",
        "--out",
        s(&d.join("x.strat")),
    ]);
    assert!(e.contains("32 buckets"), "{e}");
    // 7stud is not walkable: the same command solves its betting tree by deal sampling.
    ok(&[
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        s(&cache),
        "--iterations",
        "1",
        "--out",
        s(&d.join("y.strat")),
    ]);
    assert!(ok(&["info", s(&d.join("y.strat"))]).contains("betting tree"));
    let e = fails(&["eval", "resolve", s(&d.join("y.strat"))]);
    assert!(e.contains("7stud is not walkable"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// A solve whose standard error is not a terminal (here a pipe; a log in use) cannot draw its
/// bar, so it prints its progress as lines: the first at once, then one a minute.
#[test]
fn a_solve_into_a_log_prints_its_progress_as_lines() {
    let d = dir("log");
    let out = d.join("kuhn.strat");
    let o = stud(&[
        "solve",
        "--game",
        "kuhn",
        "--iterations",
        "300",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    let progress: Vec<&str> = err.lines().filter(|l| l.starts_with("[00:00:")).collect();
    assert_eq!(progress.len(), 1, "{err}");
    assert!(progress[0].starts_with("[00:00:00] 1 iteration, "), "{err}");
    // With --json into a pipe or a log the output is for a program: no progress at all.
    let json = ["solve", "--game", "kuhn", "--iterations", "300", "--json"];
    let o = stud(&[&json[..], &["--out", s(&out)]].concat());
    assert!(!String::from_utf8(o.stderr).unwrap().contains(" iteration"));
    // On a terminal the bar is drawn under --json too, as every deals bar is: the JSON lines
    // alone on standard output.
    let lines = d.join("solve.jsonl");
    let shown = common::on_a_terminal(&[&json[..], &["--out", s(&out), ">", s(&lines)]].concat());
    assert!(
        shown.contains(" iteration, ") && shown.contains(" left"),
        "{shown}"
    );
    let written = std::fs::read_to_string(&lines).unwrap();
    for line in written.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect(line);
    }
}

#[test]
fn a_negative_count_is_refused_as_a_bad_value_not_taken_for_a_flag() {
    for args in [
        &["match", "heuristic", "call", "--hands", "-5"][..],
        &["solve", "--game", "kuhn", "--iterations", "-1"],
    ] {
        let err = fails(args);
        assert!(err.contains("invalid value '-"), "{args:?}: {err}");
        assert!(!err.contains("to pass '-"), "{args:?}: {err}");
    }
}

#[test]
fn a_solve_of_no_iterations_or_no_time_is_refused_before_it_writes() {
    let d = dir("nothing");
    let out = d.join("kuhn.strat");
    for (flag, value) in [("--iterations", "0"), ("--time", "0"), ("--time", "0s")] {
        let err = fails(&["solve", "--game", "kuhn", flag, value, "--out", s(&out)]);
        assert!(err.contains(flag), "{flag} {value}: {err}");
        assert!(!out.exists(), "{flag} {value} wrote {}", out.display());
    }
}

#[test]
fn a_table_solve_s_last_json_line_says_where_the_policy_went() {
    let d = dir("policy-out");
    let out = d.join("kuhn3.json");
    let json = ok(&[
        "solve",
        "--game",
        "kuhn-3p",
        "--iterations",
        "10",
        "--json",
        "--out",
        s(&out),
    ]);
    let v: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(v["out"], s(&out), "{v}");
    assert!(v["checkpoint"].is_string(), "{v}");
    assert!(out.exists());
}
